// Elementwise dtype conversion with C's conversion rules, as NumPy's astype (float to int
// truncates toward zero; to bool means "non-zero"). One kernel per (from, to) pair:
// nb_cast_<from>_<to>.

#define NB_CAST_(TF, SF, TT, ST)                                                 \
    extern "C" __global__ void nb_cast_##SF##_##ST(nb_array src, nb_array dst) { \
        long long n = nb_size(dst);                                              \
        NB_GRID_STRIDE(i, n) {                                                   \
            *(TT *)nb_ptr(dst, i) = (TT)(*(const TF *)nb_ptr(src, i));           \
        }                                                                        \
    }
// The extra layer makes the preprocessor expand NB_FROM_T/NB_FROM_S before pasting.
#define NB_CAST(TF, SF, TT, ST) NB_CAST_(TF, SF, TT, ST)
#define NB_CAST_TO(TT, ST) NB_CAST(NB_FROM_T, NB_FROM_S, TT, ST)

#define NB_FROM_T nb_i8
#define NB_FROM_S i8
NB_FOR_ALL(NB_CAST_TO)
#undef NB_FROM_T
#undef NB_FROM_S

#define NB_FROM_T nb_i16
#define NB_FROM_S i16
NB_FOR_ALL(NB_CAST_TO)
#undef NB_FROM_T
#undef NB_FROM_S

#define NB_FROM_T nb_i32
#define NB_FROM_S i32
NB_FOR_ALL(NB_CAST_TO)
#undef NB_FROM_T
#undef NB_FROM_S

#define NB_FROM_T nb_i64
#define NB_FROM_S i64
NB_FOR_ALL(NB_CAST_TO)
#undef NB_FROM_T
#undef NB_FROM_S

#define NB_FROM_T nb_u8
#define NB_FROM_S u8
NB_FOR_ALL(NB_CAST_TO)
#undef NB_FROM_T
#undef NB_FROM_S

#define NB_FROM_T nb_u16
#define NB_FROM_S u16
NB_FOR_ALL(NB_CAST_TO)
#undef NB_FROM_T
#undef NB_FROM_S

#define NB_FROM_T nb_u32
#define NB_FROM_S u32
NB_FOR_ALL(NB_CAST_TO)
#undef NB_FROM_T
#undef NB_FROM_S

#define NB_FROM_T nb_u64
#define NB_FROM_S u64
NB_FOR_ALL(NB_CAST_TO)
#undef NB_FROM_T
#undef NB_FROM_S

#define NB_FROM_T nb_f32
#define NB_FROM_S f32
NB_FOR_ALL(NB_CAST_TO)
#undef NB_FROM_T
#undef NB_FROM_S

#define NB_FROM_T nb_f64
#define NB_FROM_S f64
NB_FOR_ALL(NB_CAST_TO)
#undef NB_FROM_T
#undef NB_FROM_S

#define NB_FROM_T nb_bool
#define NB_FROM_S bool
NB_FOR_ALL(NB_CAST_TO)
#undef NB_FROM_T
#undef NB_FROM_S
