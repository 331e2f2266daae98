// Strided copy between two arrays of the same shape and item size (non-contiguous
// device-to-device copies, setitem from a device array, ascontiguousarray). Contiguous
// copies use cuMemcpy instead.

#define NB_COPY(T, S)                                                        \
    extern "C" __global__ void nb_copy_##S(nb_array src, nb_array dst) {     \
        long long n = nb_size(dst);                                          \
        NB_GRID_STRIDE(i, n) { *(T *)nb_ptr(dst, i) = *(const T *)nb_ptr(src, i); } \
    }

NB_COPY(nb_u8, b1)
NB_COPY(nb_u16, b2)
NB_COPY(nb_u32, b4)
NB_COPY(nb_u64, b8)
