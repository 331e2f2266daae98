"""CuPy on nbcuda's devices against NumPy 2 on the host. In the reference kernel `cupy` is not
installed, so each cell's prelude binds `cp` to NumPy itself: the expected output is what NumPy
computes for the same expressions, and nbcuda's CuPy (its device arrays, queued work and
results copied back with `.get()`) must print the same digits, dtypes and errors."""

PRELUDE = """\
import numpy as np
try:
    import cupy as cp
except ImportError:
    cp = np
host = lambda x: x.get() if hasattr(x, "get") else x
"""


def cell(name, src):
    return (name, PRELUDE + src.lstrip("\n"))


CUPY = [
    cell("cupy_integer_wrap_and_uint64", """
a = np.array([2**63 + 5, 7, 2**64 - 1], dtype=np.uint64)
print(host(cp.asarray(a) + 1), host(cp.asarray(a) // 3), host(cp.asarray(a) > 2**63))
y = np.arange(12, dtype=np.int8).reshape(3, 4)
print(host(cp.asarray(y) * 100))
print(host(cp.asarray(y) << 5), host(cp.asarray(y) >> 1).dtype)
"""),
    cell("cupy_float32_rounding", """
x = np.linspace(0.1, 3, 7, dtype=np.float32)
d = cp.asarray(x)
# (Not exp or power: NumPy's SIMD float32 loops round those differently from libm.)
for r in [d ** 2, d / 3, d * 0.1, d - np.float32(0.3), cp.sin(d), cp.sqrt(d), cp.log1p(d), cp.reciprocal(d)]:
    r = host(r)
    print(r.dtype, r.tolist())
"""),
    cell("cupy_reductions_match_numpy", """
x = (np.arange(1000, dtype=np.float32) * np.float32(0.37)).reshape(40, 25)
d = cp.asarray(x)
print(host(d.sum()), host(d.mean()), host(d.std()), host(d.var(ddof=1)), host(d.var()).dtype)
print(host(d.sum(axis=0))[:4], host(d.mean(axis=1))[:4], host(d.max(axis=0))[:3])
print(host(cp.asarray(np.arange(12, dtype=np.int8)).sum()).dtype, host(cp.asarray(np.arange(12, dtype=np.int16)).mean()))
print(host(cp.asarray(np.arange(1, 30, dtype=np.int32)).prod()), host(d.argmax()), host(d.argmin(axis=1))[:3])
print(host(d.sum(axis=1, keepdims=True)).shape, host(cp.asarray(y := np.array([0, 3, 0])).any()), host(cp.asarray(y).all()))
"""),
    cell("cupy_nan_rules", """
v = np.array([1.5, np.nan, -2.0, 4.0], dtype=np.float32)
w = np.array([np.nan, 0.5, -3.0, 5.0], dtype=np.float32)
d, e = cp.asarray(v), cp.asarray(w)
print(host(cp.maximum(d, e)), host(cp.minimum(d, e)), host(cp.fmax(d, e)), host(cp.fmin(d, e)))
print(host(d.max()), host(d.argmax()), host(cp.isnan(d)), host(cp.isfinite(d / 0)), host(cp.signbit(d)))
"""),
    cell("cupy_more_binary_ufuncs", """
a = np.array([-3.5, -1.0, 0.0, 2.25, 7.0])
b = np.array([2.0, -0.5, 3.0, -1.5, 2.0])
da, db = cp.asarray(a), cp.asarray(b)
# (Not arctan2: NumPy's SIMD float64 loop and libm differ in the last bit.)
for f in ["hypot", "copysign", "fmod", "floor_divide", "remainder", "power", "nextafter"]:
    print(f, host(getattr(cp, f)(da, db)).tolist())
i = cp.asarray(np.array([-7, 7, 12, 5], dtype=np.int32))
j = cp.asarray(np.array([2, -2, 5, 3], dtype=np.int32))
for f in ["floor_divide", "remainder", "fmod", "bitwise_and", "bitwise_or", "bitwise_xor", "logical_and", "logical_xor"]:
    r = host(getattr(cp, f)(i, j))
    print(f, r.dtype, r.tolist())
"""),
    cell("cupy_unary_dtypes", """
float_ufuncs = ["sqrt", "exp", "floor", "rint", "arctan"]
exact = ["negative", "abs", "square", "sign", "isnan", "logical_not", "invert"]
for dt in [np.uint16, np.int32, np.int64, np.float32, np.float64]:
    d = cp.asarray(np.array([0, 1, 2], dtype=dt))
    names = float_ufuncs + [f for f in exact if not (f == "invert" and dt in (np.float32, np.float64))]
    print(np.dtype(dt).name, [host(getattr(cp, f)(d)).dtype.name for f in names])
for dt in [np.int8, np.uint8, np.bool_]:
    d = cp.asarray(np.array([0, 1, 1], dtype=dt))
    names = [f for f in exact if not (dt is np.bool_ and f in ("negative", "sign"))]
    print(np.dtype(dt).name, [host(getattr(cp, f)(d)).tolist() for f in names])
"""),
    cell("cupy_python_scalars_nep50", """
u = cp.asarray(np.array([1, 2, 250], dtype=np.uint8))
print(host(u + 10), host(u * 2).dtype, host(u + 1.5).dtype, host(cp.asarray(np.array([True, False])) + 1).dtype)
print(host(cp.asarray(np.array([1.5], dtype=np.float32)) * 2.5).dtype)
try:
    u + 300
except OverflowError as e:
    print("OverflowError", e)
"""),
    cell("cupy_operator_errors", """
b = cp.asarray(np.array([True, False]))
f = cp.asarray(np.array([1.0, 2.0]))
for expr in ["-b", "b - b", "~f", "f & f", "f << 1"]:
    try:
        eval(expr)
        print(expr, "ok")
    except TypeError as e:
        print(expr, type(e).__name__, str(e)[:60])
"""),
    cell("cupy_empty_reductions", """
e = cp.asarray(np.zeros((0, 3), dtype=np.float32))
print(host(e.sum()), host(e.sum(axis=0)), host(e.max(axis=1)).shape)
for name in ["max", "argmin"]:
    try:
        getattr(e, name)()
    except ValueError as err:
        print(name, err)
"""),
    cell("cupy_ndarray_class", """
d = cp.asarray(np.arange(6).reshape(2, 3))
print(isinstance(d, cp.ndarray), type(d).__name__, isinstance(np.arange(3), cp.ndarray) == (cp is np))
z = cp.ndarray((2, 3), dtype=np.float32)
print(z.shape, z.dtype, isinstance(z, cp.ndarray), cp.ndarray((4,)).dtype)
"""),
    cell("cupy_shape_functions", """
a = cp.asarray(np.arange(24, dtype=np.int16).reshape(2, 3, 4))
print(host(cp.transpose(a)).shape, host(cp.transpose(a, (1, 0, 2)))[1].tolist(), host(a.transpose(2, 0, 1)).shape)
print(host(cp.swapaxes(a, 0, 2))[:, 1, 0].tolist(), host(cp.expand_dims(a, -1)).shape, host(cp.expand_dims(a, 0)).shape)
print(host(cp.squeeze(cp.asarray(np.zeros((1, 3, 1))))).shape, host(cp.ravel(cp.transpose(a)))[:6].tolist())
for bad in [lambda: cp.transpose(a, (0, 1)), lambda: cp.squeeze(a, 1), lambda: cp.expand_dims(a, 5)]:
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__, e)
"""),
    cell("cupy_joining", """
x = cp.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
y = cp.asarray(np.arange(6, 12, dtype=np.float32).reshape(2, 3))
print(host(cp.concatenate([x, y])), host(cp.concatenate((x, x), axis=1)).tolist(), host(cp.concatenate([x, y], axis=None)).dtype)
print(host(cp.stack([x, x])).shape, host(cp.stack([x, x], axis=-1))[1].tolist())
v = cp.asarray(np.array([1, 2, 3]))
print(host(cp.vstack([v, v])).tolist(), host(cp.hstack([v, v])).tolist(), host(cp.hstack([x, x])).shape, host(cp.vstack([x, v])).shape)
try:
    cp.concatenate([x, cp.asarray(np.zeros((2, 2)))], axis=0)
except ValueError as e:
    print(e)
"""),
    cell("cupy_cumsum_isclose", """
m = cp.asarray(np.arange(12, dtype=np.int8).reshape(3, 4))
print(host(cp.cumsum(m)).tolist(), host(cp.cumsum(m, axis=0)).dtype, host(m.cumsum(axis=1))[2].tolist())
f = cp.asarray(np.arange(5, dtype=np.float32) * np.float32(0.1))
print(host(cp.cumsum(f)).tolist())
p = cp.asarray(np.array([1.0, np.inf, -np.inf, np.nan, 1e-9, 100.0]))
q = cp.asarray(np.array([1.0 + 1e-6, np.inf, np.inf, np.nan, 0.0, 100.001]))
print(host(cp.isclose(p, q)), host(cp.isclose(p, q, equal_nan=True)), host(cp.isclose(p, 1.0)))
print(bool(cp.allclose(p[:2], q[:2])), bool(cp.allclose(p, p)), bool(cp.allclose(p, p, equal_nan=True)))
print(bool(cp.array_equal(m, m)), bool(cp.array_equal(m, m[:2])), bool(cp.array_equal(p, p)), bool(cp.array_equal(p, p, equal_nan=True)))
gam = getattr(cp, "get_array_module", lambda *args: np)
print(cp.pi, cp.e, cp.inf, cp.newaxis is None, gam(m) is cp, gam(np.ones(2), 3).__name__)
"""),
    cell("matmul_of_stacks_and_integers", """
i = cp.arange(4).reshape(2, 2)
r = i @ i
print(host(r), r.dtype, host(cp.dot(i, cp.arange(2))), host(cp.arange(2) @ cp.ones((2, 3))))
s = cp.matmul(cp.ones((2, 2, 3), dtype=cp.float32), cp.ones((3, 2), dtype=cp.float32))
print(s.shape, s.dtype, host(s)[1].tolist(), host(cp.dot(cp.arange(3), cp.arange(3))))
try:
    cp.ones((2, 3)) @ cp.ones((2, 3))
except ValueError as e:
    print(e)
"""),
    cell("matmul_of_integers_past_2_53_wraps", """
a = cp.asarray(np.array([[2**53 + 1, 3], [5, 7]], dtype=np.int64))
b = cp.asarray(np.array([[1, 1], [1, 2**62]], dtype=np.int64))
print(host(a @ b), host(cp.dot(a[0], a[1])), host(cp.matmul(cp.stack([a, a]), b))[1].tolist())
"""),
    cell("where_with_three_arguments_and_one", """
a = cp.asarray(np.arange(12, dtype=np.int32).reshape(3, 4))
print(host(cp.where(a % 3 == 0, a, -1)), host(cp.where(a > 5, 1.5, a)).dtype)
print(host(cp.where(a[:, ::2] > 4, a[:, ::2], cp.asarray(np.array([10, 20], dtype=np.int8)))))
print(host(cp.where(cp.asarray(np.array([True, False, True])), np.float32(2), 0)).dtype)
r = cp.where(a % 5 == 0)
print(type(r).__name__, len(r), [host(i).tolist() for i in r], r[0].dtype)
print([host(i).tolist() for i in cp.where(cp.asarray(np.array([0.0, np.nan, -1.0])))])
"""),
    cell("cupy_array_methods_by_position_and_keyword", """
x = cp.asarray(np.arange(12.0).reshape(3, 4))
print(host(x.sum(0, None, None, True)), host(x.max(1, None, True)).shape, host(x.var(0, None, None, 1)))
print(host(x.std(axis=1, ddof=1)), host(x.mean(dtype=np.float32)).dtype, host(x.any(0)), host(x.all(axis=1)))
print(host(x.transpose()).shape, host(x.transpose(1, 0)).shape, host(x.transpose((1, 0))).shape, host(x.swapaxes(0, 1)).shape)
print(host(x[None].squeeze(0)).shape, host(x.cumsum(1))[0], host(x.cumsum(axis=0, dtype=np.int64)).dtype)
print(host(x.reshape(4, 3)).shape, host(x.reshape((2, -1))).shape, host(x.ravel()).shape, host(x.astype(np.int32, copy=True)).dtype)
f = x.flatten(); f[0] = 100
print(host(x)[0, 0], host(f)[0], x.tolist()[2], (x > 5).tolist()[1], x[1, 2].item(), float(x[0, 1]), int(x[0, 3]))
print([10, 11, 12, 13][cp.asarray(np.arange(4))[3]])
y = cp.asarray(np.zeros(3, dtype=np.int16)); y.fill(7); print(host(y), y.tolist())
for call in [lambda: x.sum(0, None, None, False, 0, True, 1), lambda: y.fill(), lambda: x.sum(bad=1), lambda: x.swapaxes(0)]:
    try:
        call()
    except TypeError as e:
        print("TypeError")
"""),

]
