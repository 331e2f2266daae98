"""Descriptive statistics with Python 3.11's results: sums and squared deviations are
computed exactly (as fractions), so mean, variance and stdev are correctly rounded and
keep the data's type (ints give an int mean when it is whole, Fractions stay exact).
nbcuda's own implementation; NormalDist and the Decimal paths are not provided."""

import math
from fractions import Fraction

__all__ = ['StatisticsError', 'mean', 'fmean', 'geometric_mean', 'harmonic_mean',
           'median', 'median_low', 'median_high', 'mode', 'multimode', 'quantiles',
           'pvariance', 'pstdev', 'variance', 'stdev', 'covariance', 'correlation',
           'linear_regression']


class StatisticsError(ValueError):
    pass


def _exact(x):
    """x as an exact (numerator, denominator) pair, and the type it came as."""
    if isinstance(x, bool) or isinstance(x, int):
        return int(x), 1, int
    if isinstance(x, float):
        return x.as_integer_ratio() + (float,)
    if isinstance(x, Fraction):
        return x.numerator, x.denominator, Fraction
    raise TypeError(f"can't convert type '{type(x).__name__}' to numerator/denominator")


def _common(t, u):
    if t is u:
        return t
    if t is int:
        return u
    if u is int:
        return t
    if {t, u} == {float, Fraction}:
        return float
    raise TypeError(f"don't know how to coerce {t.__name__} and {u.__name__}")


def _sum(data):
    """The exact sum as a Fraction, the common type, and the count."""
    kind = int
    total = Fraction(0)
    count = 0
    for x in data:
        n, d, t = _exact(x)
        kind = _common(kind, t)
        total += Fraction(n, d)
        count += 1
    return kind, total, count


def _convert(value, kind):
    if kind is int:
        if value.denominator == 1:
            return value.numerator
        kind = float
    if kind is float:
        return value.numerator / value.denominator
    return kind(value)


def mean(data):
    """The arithmetic mean, correctly rounded."""
    kind, total, n = _sum(data)
    if n < 1:
        raise StatisticsError('mean requires at least one data point')
    return _convert(total / n, kind)


def fmean(data, weights=None):
    """The mean as a float, fast."""
    data = list(data)
    if weights is None:
        if not data:
            raise StatisticsError('fmean requires at least one data point')
        return math.fsum(data) / len(data)
    weights = list(weights)
    if len(weights) != len(data):
        raise StatisticsError('data and weights must be the same length')
    total = math.fsum(weights)
    if not total:
        raise StatisticsError('sum of weights must be non-zero')
    return math.fsum(x * w for x, w in zip(data, weights)) / total


def geometric_mean(data):
    try:
        return math.exp(fmean([math.log(x) for x in data]))
    except ValueError:
        raise StatisticsError('geometric mean requires a non-empty dataset '
                              'containing positive numbers') from None


def harmonic_mean(data, weights=None):
    data = list(data)
    if weights is None:
        weights = [1] * len(data)
    weights = list(weights)
    if not data:
        raise StatisticsError('harmonic_mean requires at least one data point')
    if len(data) == 1 and weights[0] == 1:
        x = data[0]
        if x < 0:
            raise StatisticsError('harmonic mean does not support negative values')
        return x
    if any(x < 0 for x in data):
        raise StatisticsError('harmonic mean does not support negative values')
    if any(x == 0 for x in data):
        return 0
    kind, wsum, _ = _sum(weights)
    kind2, total, _ = _sum(w / x for x, w in zip(data, weights))
    if total <= 0:
        raise StatisticsError('Weighted sum must be positive')
    return _convert(wsum / total, _common(kind, kind2))


def median(data):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError('no median for empty data')
    if n % 2 == 1:
        return data[n // 2]
    i = n // 2
    return (data[i - 1] + data[i]) / 2


def median_low(data):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError('no median for empty data')
    return data[(n - 1) // 2]


def median_high(data):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError('no median for empty data')
    return data[n // 2]


def _counts(data):
    counts = {}
    for x in data:
        counts[x] = counts.get(x, 0) + 1
    return counts


def mode(data):
    """The most common value (the first one seen on a tie)."""
    counts = _counts(data)
    if not counts:
        raise StatisticsError('no mode for empty data')
    best = max(counts.values())
    for x, c in counts.items():
        if c == best:
            return x


def multimode(data):
    counts = _counts(data)
    if not counts:
        return []
    best = max(counts.values())
    return [x for x, c in counts.items() if c == best]


def quantiles(data, *, n=4, method='exclusive'):
    if n < 1:
        raise StatisticsError('n must be at least 1')
    data = sorted(data)
    ld = len(data)
    if ld < 2:
        raise StatisticsError('must have at least two data points')
    result = []
    if method == 'inclusive':
        m = ld - 1
        for i in range(1, n):
            j, delta = divmod(i * m, n)
            interpolated = (data[j] * (n - delta) + data[j + 1] * delta) / n
            result.append(interpolated)
        return result
    if method == 'exclusive':
        m = ld + 1
        for i in range(1, n):
            j = i * m // n
            j = 1 if j < 1 else ld - 1 if j > ld - 1 else j
            delta = i * m - j * n
            interpolated = (data[j - 1] * (n - delta) + data[j] * delta) / n
            result.append(interpolated)
        return result
    raise ValueError(f'Unknown method: {method!r}')


def _squared_deviations(data, center=None):
    """The common type, the exact sum of squared deviations, and the count."""
    data = list(data)
    kind, total, n = _sum(data)
    if center is None:
        if n == 0:
            return kind, Fraction(0), 0
        center = total / n
    else:
        center = Fraction(*_exact(center)[:2])
    ss = Fraction(0)
    for x in data:
        num, den, _ = _exact(x)
        dev = Fraction(num, den) - center
        ss += dev * dev
    return kind, ss, n


def _sqrt_of_fraction(q):
    """sqrt(q) as the float nearest to it (one rounding, as CPython's statistics does)."""
    n, d = q.numerator, q.denominator
    if n == 0:
        return 0.0
    # Scale so the integer root has more than 53 significant bits, keep a sticky bit for
    # any remainder, and let the single int -> float conversion round.
    shift = max(0, 110 - (n.bit_length() - d.bit_length())) // 2 + 2
    scaled = (n << (2 * shift)) // d
    root = math.isqrt(scaled)
    if root * root * d != n << (2 * shift):
        root |= 1
    return math.ldexp(float(root), -shift)


def variance(data, xbar=None):
    kind, ss, n = _squared_deviations(data, xbar)
    if n < 2:
        raise StatisticsError('variance requires at least two data points')
    return _convert(ss / (n - 1), kind)


def pvariance(data, mu=None):
    kind, ss, n = _squared_deviations(data, mu)
    if n < 1:
        raise StatisticsError('pvariance requires at least one data point')
    return _convert(ss / n, kind)


def stdev(data, xbar=None):
    kind, ss, n = _squared_deviations(data, xbar)
    if n < 2:
        raise StatisticsError('stdev requires at least two data points')
    return _sqrt_of_fraction(ss / (n - 1))


def pstdev(data, mu=None):
    kind, ss, n = _squared_deviations(data, mu)
    if n < 1:
        raise StatisticsError('pstdev requires at least one data point')
    return _sqrt_of_fraction(ss / n)


def _paired(x, y, what):
    """The two samples as lists, their means, and the sum of products of deviations."""
    x, y = list(x), list(y)
    n = len(x)
    if len(y) != n:
        raise StatisticsError(f'{what} requires that both inputs have same number of data points')
    if n < 2:
        raise StatisticsError(f'{what} requires at least two data points')
    xbar = math.fsum(x) / n
    ybar = math.fsum(y) / n
    sxy = math.fsum((xi - xbar) * (yi - ybar) for xi, yi in zip(x, y))
    return x, y, xbar, ybar, sxy


def covariance(x, y):
    x, _, _, _, sxy = _paired(x, y, 'covariance')
    return sxy / (len(x) - 1)


def correlation(x, y):
    x, y, xbar, ybar, sxy = _paired(x, y, 'correlation')
    sxx = math.fsum((xi - xbar) ** 2.0 for xi in x)
    syy = math.fsum((yi - ybar) ** 2.0 for yi in y)
    try:
        return sxy / math.sqrt(sxx * syy)
    except ZeroDivisionError:
        raise StatisticsError('at least one of the inputs is constant') from None


class LinearRegression:
    def __init__(self, slope, intercept):
        self.slope = slope
        self.intercept = intercept

    def __iter__(self):
        return iter((self.slope, self.intercept))

    def __repr__(self):
        return f'LinearRegression(slope={self.slope!r}, intercept={self.intercept!r})'


def linear_regression(x, y, /, *, proportional=False):
    x, y, xbar, ybar, sxy = _paired(x, y, 'linear regression')
    if proportional:
        sxy = math.fsum(xi * yi for xi, yi in zip(x, y))
        sxx = math.fsum(xi * xi for xi in x)
        if not sxx:
            raise StatisticsError('x is constant')
        return LinearRegression(slope=sxy / sxx, intercept=0.0)
    sxx = math.fsum((xi - xbar) ** 2.0 for xi in x)
    if not sxx:
        raise StatisticsError('x is constant')
    slope = sxy / sxx
    return LinearRegression(slope=slope, intercept=ybar - slope * xbar)
