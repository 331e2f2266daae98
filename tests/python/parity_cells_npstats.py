"""Cells of tests/python/test_cpython_parity.py about NumPy's statistics and set operations:
np.median/quantile/percentile (axis tuples, keepdims, methods), the nan-reductions,
np.average/cov/corrcoef and the 1-D set operations. Values are chosen so that sums are exact
where NumPy's BLAS-backed dot (in np.cov) could otherwise round in another order."""

NPSTATS = [
    ("npstats_median_quantile", """
import numpy as np
print(np.percentile([1, 2, 3, 4], 50), np.median([3, 1, 2]), np.median([[1, 2], [3, 5]], axis=0))
print(np.median(np.arange(24).reshape(2, 3, 4), axis=(0, 2)), repr(np.median(np.float32([1, 2]))))
a = np.arange(24.0).reshape(2, 3, 4) ** 1.5
print(np.quantile(a, [0.1, 0.5, 0.93]), np.quantile(a, 0.3, axis=1, keepdims=True).shape)
print(np.percentile(a, [10, 90], axis=(0, 1)))
print(repr(np.quantile(np.float32([1, 2.5, 7]), 0.33)), repr(np.quantile([1, 2, 3], 0.5)))
for m in ['linear', 'lower', 'higher', 'nearest', 'midpoint']:
    print(m, repr(np.quantile([1, 2, 3, 4, 7], [0.375, 0.5, 0.9], method=m)))
"""),
    ("npstats_quantile_errors", """
import numpy as np
for f in [lambda: np.quantile([1, 2], 1.5), lambda: np.percentile([1, 2], -1),
          lambda: np.quantile([], 0.5), lambda: np.quantile([1.0], 0.5, method='foo'),
          lambda: np.median([1, 2], axis=(0, 0)), lambda: np.median([1, 2], axis=1)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
"""),
    ("npstats_nan_reductions", """
import numpy as np
x = np.array([[1, np.nan, 3], [4, 5, np.nan]])
print(np.median(x), np.median(x, axis=1), np.nanmedian(x), np.nanmedian(x, axis=0))
print(np.nanpercentile(x, 50, axis=1), np.nanquantile(x, [0.25, 0.75]))
print(np.nanmean([1, np.nan, 3]), np.nansum(x), np.nansum(x, axis=0), np.nanprod(x, axis=1))
print(np.nancumsum(x), np.nancumsum(x, axis=1), np.nancumprod([1, np.nan, 2]))
print(np.nanmean(x, axis=0), np.nanmean(x, axis=1, keepdims=True), np.nanvar(x), np.nanstd(x, axis=1))
print(np.nanstd(np.float32([1, 2, np.nan, 4])), repr(np.nanmean(np.float32([1.1, 2.2, np.nan, 3.3]))))
print(np.nanargmin(x), np.nanargmax(x, axis=1), np.nanargmin([3, 1, 2]), np.nansum([1, 2]), repr(np.nanvar(np.arange(5))))
try:
    np.nanargmin([np.nan, np.nan])
except ValueError as e:
    print("ValueError", e)
"""),
    ("npstats_average_cov", """
import numpy as np
a = np.arange(6.0).reshape(2, 3)
print(np.average(a), np.average(a, axis=0), np.average(a, axis=1, weights=[1, 2, 3]))
print(np.average([1, 2, 3], weights=[3, 1, 0], returned=True), np.average(a, axis=0, returned=True))
print(repr(np.average([1, 2, 3, 4])), np.average(a, weights=a), np.average(a, axis=1, keepdims=True))
for f in [lambda: np.average(a, weights=[1, 2]), lambda: np.average(a, axis=0, weights=[1, 2, 3]),
          lambda: np.average([1, 2], weights=[1, -1])]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
print(np.corrcoef([1, 2, 3], [2, 4, 7]).round(4), np.cov([1, 2, 3]), np.cov([[1, 2, 3], [2, 4, 7]]))
print(np.cov([[1, 2], [3, 5], [4, 4]], rowvar=False, bias=True), repr(np.cov([1, 2, 3])), repr(np.corrcoef([1, 2, 3])))
"""),
    ("npstats_setops", """
import numpy as np
a = np.array([[5, 1, 3], [3, 7, 1]])
print(np.isin(a, [1, 7]), np.isin(a, [1, 7], invert=True), np.isin([1.0, np.nan], [np.nan, 1]))
print(np.union1d([3, 1, 2], [2.5, 1]), np.intersect1d(a, [3, 7, 9]), np.setdiff1d(a, [3]), np.setxor1d([1, 2, 3], [2, 3, 4, 4]))
print(np.intersect1d([4, 1, 3, 1], [1, 9, 3, 4], return_indices=True))
print(np.setdiff1d([], [1]), np.union1d([], []).dtype)
"""),
]
