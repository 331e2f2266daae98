// Fill every element of an array (any layout) with one value: device_array + fill,
// cupy.full/ones, and setitem from a scalar.

#define NB_FILL(T, S)                                                        \
    extern "C" __global__ void nb_fill_##S(nb_array dst, T value) {          \
        long long n = nb_size(dst);                                          \
        NB_GRID_STRIDE(i, n) { *(T *)nb_ptr(dst, i) = value; }               \
    }

NB_FOR_ALL(NB_FILL)
