// CuPy's elementwise operations on the CUDA device. The host promotes dtypes and casts
// first (NumPy rules), so both operands arrive with the same dtype; broadcasting arrives
// as zero strides. Names: nb_<op>_<dtype>.

#define NB_BINARY(NAME, T, R, S, EXPR)                                              \
    extern "C" __global__ void nb_##NAME##_##S(nb_array a, nb_array b, nb_array out) { \
        long long n = nb_size(out);                                                \
        NB_GRID_STRIDE(i, n) {                                                     \
            T x = *(const T *)nb_ptr(a, i);                                        \
            T y = *(const T *)nb_ptr(b, i);                                        \
            *(R *)nb_ptr(out, i) = (R)(EXPR);                                      \
        }                                                                          \
    }

#define NB_UNARY(NAME, T, S, EXPR)                                                 \
    extern "C" __global__ void nb_##NAME##_##S(nb_array a, nb_array out) {        \
        long long n = nb_size(out);                                                \
        NB_GRID_STRIDE(i, n) {                                                     \
            T x = *(const T *)nb_ptr(a, i);                                        \
            *(T *)nb_ptr(out, i) = (T)(EXPR);                                      \
        }                                                                          \
    }

#define NB_ARITH(T, S)                                 \
    NB_BINARY(add, T, T, S, x + y)                     \
    NB_BINARY(subtract, T, T, S, x - y)                \
    NB_BINARY(multiply, T, T, S, x * y)                \
    NB_BINARY(maximum, T, T, S, (x > y ? x : y))       \
    NB_BINARY(minimum, T, T, S, (x < y ? x : y))       \
    NB_BINARY(equal, T, nb_bool, S, x == y)            \
    NB_BINARY(not_equal, T, nb_bool, S, x != y)        \
    NB_BINARY(less, T, nb_bool, S, x < y)              \
    NB_BINARY(less_equal, T, nb_bool, S, x <= y)       \
    NB_BINARY(greater, T, nb_bool, S, x > y)           \
    NB_BINARY(greater_equal, T, nb_bool, S, x >= y)    \
    NB_UNARY(negative, T, S, -x)

NB_FOR_NUMERIC(NB_ARITH)

#define NB_FLOAT_OPS(T, S)                             \
    NB_BINARY(true_divide, T, T, S, x / y)             \
    NB_BINARY(power, T, T, S, pow(x, y))               \
    NB_UNARY(absolute, T, S, fabs(x))                  \
    NB_UNARY(sqrt, T, S, sqrt(x))                      \
    NB_UNARY(sin, T, S, sin(x))                        \
    NB_UNARY(cos, T, S, cos(x))                        \
    NB_UNARY(exp, T, S, exp(x))                        \
    NB_UNARY(log, T, S, log(x))

NB_FOR_FLOAT(NB_FLOAT_OPS)

// Integer absolute value and floor division with Python's rounding toward -inf (a zero
// divisor gives 0, as NumPy does after its warning).
#define NB_INT_OPS(T, S)                                                           \
    NB_UNARY(absolute, T, S, (x < 0 ? -x : x))                                     \
    NB_BINARY(floor_divide, T, T, S,                                               \
              (y == 0 ? 0 : (x / y - (((x % y) != 0) && ((x < 0) != (y < 0))))))
NB_INT_OPS(nb_i8, i8) NB_INT_OPS(nb_i16, i16) NB_INT_OPS(nb_i32, i32) NB_INT_OPS(nb_i64, i64)
