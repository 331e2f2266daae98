"""Cells of tests/python/test_cpython_parity.py about NumPy's shape, joining and calculus
functions (diff, gradient, meshgrid, logspace/geomspace, outer/kron, moveaxis and friends, roll,
flip, rot90, triu/tril, diag/diagonal/trace; then the joins and splits, padding, take/put,
insert/delete, searchsorted, convolve, interp, bincount, digitize, trapezoid), with their
errors, compared with NumPy 2."""

NPSHAPE = [
    ("npshape_diff_basics", """
import numpy as np
x = np.linspace(0, 1, 5); print(x, np.diff(x), np.gradient(x))
print(np.diff([1, 4, 9, 16], n=2), np.diff(np.arange(6).reshape(2, 3), axis=0), np.diff([1, 2], prepend=0, append=[5, 7]))
print(np.diff([True, False, False]), np.diff([1, 2, 3], n=5), np.diff(np.array([1, 2], dtype=np.uint8)))
"""),
    ("npshape_diff_errors", """
import numpy as np
try: np.diff(5)
except Exception as e: print(type(e).__name__, e)
try: np.diff([1, 2], n=-1)
except Exception as e: print(type(e).__name__, e)
print(np.diff([1,2], n=0))
"""),
    ("npshape_gradient", """
import numpy as np
a = np.array([[1, 2, 6], [3, 4, 5]], dtype=float)
print(np.gradient(a)); print(np.gradient(a, axis=1), np.gradient(a, 2.0, axis=-1))
print(np.gradient([1, 4, 9, 16, 25], edge_order=2), np.gradient(np.array([1, 2, 4], dtype=np.float32)))
print(np.gradient([1.0, 2, 4, 7], [0, 1, 1.5, 3]), np.gradient([1.0, 2, 4, 7], [0, 1, 1.5, 3], edge_order=2))
try: np.gradient([1])
except Exception as e: print(type(e).__name__, e)
"""),
    ("npshape_meshgrid", """
import numpy as np
X, Y = np.meshgrid(np.arange(3), [10, 20]); print(X, Y)
print(np.meshgrid([1, 2], [3, 4, 5], indexing='ij'))
print(np.meshgrid([1, 2], [3, 4, 5], sparse=True))
print([g.shape for g in np.meshgrid([1, 2], [3, 4, 5], [6, 7, 8, 9])])
"""),
    ("npshape_logspace_geomspace_identity", """
import numpy as np
print(np.logspace(0, 2, 3), np.logspace(0, 3, 4, base=2), np.logspace(0, 1, 3, endpoint=False), np.logspace(0, 2, 3, dtype=int))
print(np.geomspace(1, 100, 3), np.geomspace(-1, -1000, 4), np.geomspace(1, 256, 9, endpoint=False), np.geomspace(2, 3, 1))
try: np.geomspace(0, 1)
except Exception as e: print(type(e).__name__, e)
print(np.identity(2), np.identity(3, dtype=int))
"""),
    ("npshape_outer_kron", """
import numpy as np
print(np.outer([1, 2], [3, 4]), np.outer(np.arange(4).reshape(2, 2), [1.5, 2]))
print(np.kron([1, 2], [1, 1]), np.kron(np.eye(2), np.ones((2, 2))), np.kron([[1, 2]], [[1], [10]]))
"""),
    ("npshape_moveaxis_expand_squeeze", """
import numpy as np
a = np.arange(24).reshape(2, 3, 4)
print(np.moveaxis(a, 0, -1).shape, np.moveaxis(a, [0, 1], [-1, -2]).shape, np.swapaxes(a, 0, 2).shape, np.expand_dims(a, (0, -1)).shape, np.expand_dims([1, 2], 1))
print(np.squeeze(np.zeros((1, 3, 1)), axis=(0, 2)).shape, np.squeeze([[1]]), a.swapaxes(1, 2).shape)
for f in [lambda: np.moveaxis(a, [0, 1], [0]), lambda: np.moveaxis(a, [0, 0], [1, 2]), lambda: np.squeeze(a, 1), lambda: np.expand_dims(a, 5), lambda: np.expand_dims(a, (1, 1))]:
    try: f()
    except Exception as e: print(type(e).__name__, e)
"""),
    ("npshape_roll_flip", """
import numpy as np
a = np.arange(6).reshape(2, 3)
print(np.roll([1, 2, 3], 1), np.roll(a, 1), np.roll(a, -1, axis=1), np.roll(a, (1, 1), axis=(0, 1)), np.roll(a, 2, axis=(0, 1)), np.roll(a, [1, 2]))
print(np.flip(a), np.flip(a, 0), np.fliplr(a), np.flipud([1, 2, 3]), np.flip(a, (0, 1)))
try: np.fliplr([1, 2])
except Exception as e: print(type(e).__name__, e)
"""),
    ("npshape_rot90", """
import numpy as np
a = np.arange(6).reshape(2, 3)
print(np.rot90(a), np.rot90(a, 2), np.rot90(a, -1), np.rot90(a, 3, axes=(1, 0)), np.rot90(np.arange(8).reshape(2,2,2), axes=(1, 2)))
for ax in [(0,), (0, 0), (0, 5)]:
    try: np.rot90(a, axes=ax)
    except Exception as e: print(type(e).__name__, e)
"""),
    ("npshape_triu_diag_trace", """
import numpy as np
m = np.arange(1, 10).reshape(3, 3)
print(np.triu(m), np.tril(m, -1), np.triu(m, 1), np.tril([1, 2, 3]), np.triu(np.ones((2, 3, 3)))[1], np.triu(np.ones((3, 3)), -5))
print(np.diag([1, 2]), np.diag(m), np.diag(m, 1), np.diag(m, -2), np.diag([1, 2], -1), np.diag(m, 5))
print(np.diagonal(m), np.diagonal(np.arange(8).reshape(2, 2, 2), 0, 1, 2), m.diagonal(1), np.trace(m), np.trace(np.eye(3)), m.trace(), np.trace(m, 1), np.trace(np.arange(8).reshape(2,2,2)))
try: np.diag(np.zeros((2,2,2)))
except Exception as e: print(type(e).__name__, e)
"""),
    ("npshape_column_row_dstack", """
import numpy as np
import warnings
print(np.column_stack([[1, 2], [3, 4]]), np.column_stack(([1, 2], [[5], [6]])), np.dstack([[1, 2], [3, 4]]), np.dstack([np.ones((2, 2)), np.zeros((2, 2))]).shape)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(np.row_stack([[1, 2], [3, 4]]), [str(x.message) for x in w], [x.category.__name__ for x in w])
"""),
    ("npshape_atleast", """
import numpy as np
print(np.atleast_1d(5), np.atleast_2d([1, 2]), np.atleast_3d(7).shape, np.atleast_3d([1, 2]).shape, np.atleast_3d(np.ones((2, 3))).shape, np.atleast_1d(1, [2, 3]))
"""),
    ("npshape_split_family", """
import numpy as np
a = np.arange(12).reshape(3, 4)
print(np.split(np.arange(6), 3), np.array_split(np.arange(5), 2), np.array_split(np.arange(7), 3), np.split(np.arange(6), [1, 4]), np.split(np.arange(6), [2, 10]))
print(np.hsplit(a, 2), np.vsplit(a, [1]), np.split(a, 2, axis=-1), np.hsplit(np.arange(4), 2), np.array_split(np.arange(3), 5))
for f in [lambda: np.split(np.arange(5), 2), lambda: np.array_split(np.arange(5), 0), lambda: np.vsplit(np.arange(4), 2), lambda: np.split(a, 2, axis=2)]:
    try: f()
    except Exception as e: print(type(e).__name__, e)
"""),
    ("npshape_append_broadcast_arrays", """
import numpy as np
print(np.append([1, 2], [[3], [4]]), np.append(np.ones((2, 2)), [[5, 6]], axis=0), np.append([1], 2.5))
x, y = np.broadcast_arrays(np.arange(3), [[1], [2]]); print(x, y, x.shape)
try: np.append(np.ones((2, 2)), [1, 2], axis=0)
except Exception as e: print(type(e).__name__, e)
"""),
]
