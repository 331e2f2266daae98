"""Cells of tests/python/test_cpython_parity.py about the number modules written in Python
(issue 16, point 5): `statistics` (exact sums, so means and variances are correctly
rounded and keep the data's type) and `fractions`, and the special methods through which
classes take part in `round`, `math.floor`/`ceil`/`trunc` and `math`'s float functions."""

RATIONALS = [
    ("statistics_module", """
import statistics as st
from fractions import Fraction
data = [2.75, 1.75, 1.25, 0.25, 0.5, 1.25, 3.5]
print(st.mean(data), st.mean([1, 2, 3, 4]), st.mean([1, 2, 3]), st.median(data), st.median([1, 3, 5, 7]))
print(st.variance(data), st.pvariance(data), st.stdev(data), st.pstdev(data))
print(st.variance([1, 2, 3, 4, 5]), st.stdev([1, 2, 3, 4, 5]), st.pvariance([1, 2, 3, 4]), st.mode([1, 1, 2, 3, 3, 3]))
print(st.multimode('aabbbbccddddeeffffgg'), st.median_low([1, 3, 5, 7]), st.median_high([1, 3, 5, 7]))
print(st.quantiles([105, 129, 87, 86, 111, 111, 89, 81, 108, 92, 110, 100, 75, 105, 103, 109, 76, 119, 99, 91, 103, 129, 106, 101, 84, 111, 74, 87, 86, 103, 103, 106, 86, 111, 75, 87, 102, 121, 111, 88, 89, 101, 106, 95, 103, 107, 101, 81, 109, 104], n=10))
print(st.fmean([3.5, 4.0, 5.25]), st.geometric_mean([54, 24, 36]), st.harmonic_mean([40, 60]))
print(st.mean([Fraction(3, 7), Fraction(1, 21), Fraction(5, 3), Fraction(1, 3)]), st.variance([Fraction(1, 2), Fraction(3, 4)]))
import random
random.seed(5)
xs = [random.gauss(0, 1) for _ in range(200)]
print(st.mean(xs), st.stdev(xs), st.variance(xs), st.median(xs))
print(st.correlation([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]), st.covariance([1, 2, 3, 4], [1, 3, 2, 4]), st.linear_regression([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]))
try:
    st.mean([])
except st.StatisticsError as e:
    print(type(e).__name__, e, isinstance(e, ValueError))
"""),
    ("fractions_module", """
from fractions import Fraction
a = Fraction(3, 4); b = Fraction('1/3'); c = Fraction(0.1); d = Fraction('1.25e-1')
print(a, repr(b), c, d, a + b, a - b, a * b, a / b, a // b, a % b, a ** 2, a ** -2, -a, abs(-a))
print(a + 1, 1 + a, a + 0.5, a == 0.75, a < 1, a > b, hash(Fraction(1, 2)) == hash(0.5), hash(Fraction(5)) == hash(5), hash(a))
print(float(a), int(Fraction(-7, 2)), round(Fraction(5, 2)), round(Fraction(7, 2)), round(Fraction(22, 7), 2), c.limit_denominator(10), Fraction(3.141592653589793).limit_denominator(1000))
print(sum([Fraction(1, n) for n in range(1, 8)]), sorted([Fraction(1, 3), Fraction(1, 4), 0.3]), Fraction(6, -4), Fraction(a, b), a.numerator, a.denominator, a.as_integer_ratio())
import math
print(math.floor(Fraction(-7, 2)), math.ceil(Fraction(7, 2)), f"{Fraction(1, 3):.4f}", str(Fraction(4, 2)))
try:
    Fraction(1, 0)
except ZeroDivisionError as e:
    print(e)
"""),
    ("round_floor_float_special_methods", """
from fractions import Fraction
a = Fraction(3, 4)
for f in [float, int, round, lambda x: round(x, 2), abs]:
    try:
        print(f(a))
    except Exception as e:
        print(type(e).__name__, e)
import math
for f in [math.floor, math.ceil, math.trunc, math.sqrt]:
    try:
        print(f(a))
    except Exception as e:
        print(type(e).__name__, e)
"""),
]
