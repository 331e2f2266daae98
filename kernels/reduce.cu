// Reductions (sum, min, max) in two passes: each block folds its grid-stride share in
// shared memory and writes one partial; the host launches again over the partials with a
// single block. Sums of small integers accumulate in 64 bits, float32 in float32 (as
// CuPy does).

#define NB_BLOCK 256

#define NB_REDUCE(NAME, T, ACC, S, INIT, COMBINE)                                  \
    extern "C" __global__ void nb_##NAME##_##S(nb_array src, ACC *partial) {      \
        __shared__ ACC cache[NB_BLOCK];                                           \
        long long n = nb_size(src);                                               \
        ACC acc = INIT;                                                           \
        NB_GRID_STRIDE(i, n) {                                                    \
            ACC v = (ACC)(*(const T *)nb_ptr(src, i));                            \
            acc = COMBINE(acc, v);                                                \
        }                                                                         \
        cache[threadIdx.x] = acc;                                                 \
        __syncthreads();                                                          \
        for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {                   \
            if (threadIdx.x < s) {                                                \
                cache[threadIdx.x] = COMBINE(cache[threadIdx.x], cache[threadIdx.x + s]); \
            }                                                                     \
            __syncthreads();                                                      \
        }                                                                         \
        if (threadIdx.x == 0) partial[blockIdx.x] = cache[0];                     \
    }

#define NB_ADD(a, b) ((a) + (b))
// NaN propagates through min and max, as in NumPy.
#define NB_MIN(a, b) ((a) != (a) ? (a) : ((b) != (b) ? (b) : ((b) < (a) ? (b) : (a))))
#define NB_MAX(a, b) ((a) != (a) ? (a) : ((b) != (b) ? (b) : ((b) > (a) ? (b) : (a))))

#define NB_SUM_SIGNED(T, S) NB_REDUCE(sum, T, nb_i64, S, 0, NB_ADD)
#define NB_SUM_UNSIGNED(T, S) NB_REDUCE(sum, T, nb_u64, S, 0, NB_ADD)
#define NB_SUM_FLOAT(T, S) NB_REDUCE(sum, T, T, S, 0, NB_ADD)

NB_SUM_SIGNED(nb_i8, i8) NB_SUM_SIGNED(nb_i16, i16) NB_SUM_SIGNED(nb_i32, i32)
NB_SUM_SIGNED(nb_i64, i64) NB_SUM_SIGNED(nb_bool, bool)
NB_SUM_UNSIGNED(nb_u8, u8) NB_SUM_UNSIGNED(nb_u16, u16) NB_SUM_UNSIGNED(nb_u32, u32)
NB_SUM_UNSIGNED(nb_u64, u64)
NB_FOR_FLOAT(NB_SUM_FLOAT)

// min/max start from the first element, so no per-type identity is needed.
#define NB_MINMAX(NAME, COMBINE, T, S)                                            \
    extern "C" __global__ void nb_##NAME##_##S(nb_array src, T *partial) {        \
        __shared__ T cache[NB_BLOCK];                                             \
        long long n = nb_size(src);                                               \
        T acc = *(const T *)nb_ptr(src, 0);                                       \
        NB_GRID_STRIDE(i, n) { acc = COMBINE(acc, *(const T *)nb_ptr(src, i)); }  \
        cache[threadIdx.x] = acc;                                                 \
        __syncthreads();                                                          \
        for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {                   \
            if (threadIdx.x < s) {                                                \
                cache[threadIdx.x] = COMBINE(cache[threadIdx.x], cache[threadIdx.x + s]); \
            }                                                                     \
            __syncthreads();                                                      \
        }                                                                         \
        if (threadIdx.x == 0) partial[blockIdx.x] = cache[0];                     \
    }
#define NB_MIN_K(T, S) NB_MINMAX(min, NB_MIN, T, S)
#define NB_MAX_K(T, S) NB_MINMAX(max, NB_MAX, T, S)
NB_FOR_NUMERIC(NB_MIN_K)
NB_FOR_NUMERIC(NB_MAX_K)
