"""Cells of tests/python/test_cpython_parity.py about NumPy's searching and counting
functions (searchsorted with side and sorter, digitize, bincount, ptp), with their errors,
compared with NumPy 2."""

NPMORE = [
    ("npmore_searchsorted", """
import numpy as np
a = np.array([1, 2, 2, 3, 5])
print(np.searchsorted(a, 2), np.searchsorted(a, 2, side='right'), np.searchsorted(a, [0, 2, 4, 9]))
print(repr(np.searchsorted([1.0, 2.5, np.nan], [2.5, np.nan, 7], side='right')), np.searchsorted([1, 2, 3], [[1.5], [3]]))
print(np.searchsorted([3, 1, 2], [2, 3], sorter=[1, 2, 0]), np.searchsorted([], 1))
try: np.searchsorted([1, 2], 1, side='x')
except Exception as e: print(type(e).__name__, e)
"""),
    ("npmore_digitize", """
import numpy as np
print(np.digitize([0.5, 1.5, -1, 3], [0, 1, 2]), np.digitize([1, 2], [0, 1, 2], right=True), repr(np.digitize(1.5, [0, 1, 2])))
print(np.digitize([0.5, 1.5, 3], [2, 1, 0]), np.digitize([1, 2], [2, 1, 0], right=True))
try: np.digitize([1], [3, 1, 2])
except Exception as e: print(type(e).__name__, e)
"""),
    ("npmore_bincount", """
import numpy as np
print(np.bincount([0, 1, 1, 3]), np.bincount([0, 1, 1], weights=[0.5, 1, 2]), np.bincount([1], minlength=4), repr(np.bincount([], minlength=2)))
print(np.bincount(np.array([2, 0], dtype=np.uint8)).dtype, np.bincount([True, True]))
for f in [lambda: np.bincount([-1]), lambda: np.bincount([1], minlength=-1), lambda: np.bincount([[1]]),
          lambda: np.bincount([1], weights=[1, 2]), lambda: np.bincount(np.array([], dtype=float))]:
    try: f()
    except Exception as e: print(type(e).__name__, e)
try: np.bincount([1], minlength=10**15)
except MemoryError: print('MemoryError')
"""),
    ("npmore_ptp", """
import numpy as np
a = np.array([[1, 5, 2], [7, 0, 3]])
print(repr(np.ptp(a)), np.ptp(a, axis=0), np.ptp(a, axis=-1), np.ptp(a, axis=1, keepdims=True), np.ptp([1.5, -2.0]))
"""),
    ("npmore_unary_aliases", """
import numpy as np
x = np.array([1.5, -2.25, 0.0])
for f in (np.abs, np.absolute, np.conj, np.radians, np.degrees, np.rint, np.bitwise_not, np.negative):
    try:
        print(f(x, out=np.zeros(3, dtype=np.int8)))
    except TypeError as e:
        print('TypeError', e)
print(np.abs(np.array([-3, 4])), np.conj(np.array([1 + 2j])), np.bitwise_not(np.array([5], dtype=np.int16)))
print(np.radians(np.array([180.0])), np.degrees(np.array([np.pi])), np.rint(np.array([0.5, 1.5, -2.5])))
print(-np.array([True, False]) if False else ~np.array([True, False]), +np.array([2.5]))
"""),
]
