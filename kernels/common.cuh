// Shared by every built-in kernel of nbcuda's CUDA device. Prepended to each kernels/*.cu
// source before NVRTC compiles it (NVRTC has no include path here).
//
// An array argument is passed by value as `nb_array`: a base pointer, the shape and the
// byte strides of up to 3 dimensions (unused dimensions have extent 1, stride 0). The
// same layout is `ArrayDesc` in src/devices/cuda/abi.rs.

typedef signed char nb_i8;
typedef short nb_i16;
typedef int nb_i32;
typedef long long nb_i64;
typedef unsigned char nb_u8;
typedef unsigned short nb_u16;
typedef unsigned int nb_u32;
typedef unsigned long long nb_u64;
typedef float nb_f32;
typedef double nb_f64;
typedef bool nb_bool;

struct nb_array {
    char *data;
    long long shape[3];
    long long strides[3];
};

__device__ __forceinline__ long long nb_size(const nb_array &a) {
    return a.shape[0] * a.shape[1] * a.shape[2];
}

// Address of the element with C-order linear index `i`.
__device__ __forceinline__ char *nb_ptr(const nb_array &a, long long i) {
    long long k2 = i % a.shape[2];
    long long rest = i / a.shape[2];
    long long k1 = rest % a.shape[1];
    long long k0 = rest / a.shape[1];
    return a.data + k0 * a.strides[0] + k1 * a.strides[1] + k2 * a.strides[2];
}

#define NB_GRID_STRIDE(i, n) \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
         i += (long long)blockDim.x * gridDim.x)

// Apply a macro to every numeric dtype: M(C type, dtype suffix).
#define NB_FOR_NUMERIC(M) \
    M(nb_i8, i8) M(nb_i16, i16) M(nb_i32, i32) M(nb_i64, i64) \
    M(nb_u8, u8) M(nb_u16, u16) M(nb_u32, u32) M(nb_u64, u64) \
    M(nb_f32, f32) M(nb_f64, f64)

#define NB_FOR_ALL(M) NB_FOR_NUMERIC(M) M(nb_bool, bool)

#define NB_FOR_FLOAT(M) M(nb_f32, f32) M(nb_f64, f64)
