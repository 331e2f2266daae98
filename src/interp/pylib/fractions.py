"""Rational numbers: Fraction(numerator, denominator), exact arithmetic with ints and
Fractions, and float results when a float takes part (nbcuda's own implementation of
Python 3.11's fractions module)."""

import math

__all__ = ['Fraction']

# CPython's numeric hash: the value modulo this prime, so equal numbers hash equal.
_MODULUS = 2 ** 61 - 1
_INF_HASH = 314159


def _parse(text):
    s = text.strip().replace('_', '')
    if '/' in s:
        num, _, den = s.partition('/')
        if not num.strip().lstrip('+-').isdigit() or not den.strip().isdigit():
            raise ValueError(f'Invalid literal for Fraction: {text!r}')
        return int(num), int(den)
    sign = 1
    if s[:1] in '+-':
        sign = -1 if s[0] == '-' else 1
        s = s[1:]
    mantissa, _, exponent = s.lower().partition('e')
    whole, _, frac = mantissa.partition('.')
    digits = whole + frac
    if not digits or not digits.isdigit() or (exponent and not exponent.lstrip('+-').isdigit()):
        raise ValueError(f'Invalid literal for Fraction: {text!r}')
    num = sign * int(digits)
    shift = (int(exponent) if exponent else 0) - len(frac)
    if shift >= 0:
        return num * 10 ** shift, 1
    return num, 10 ** -shift


class Fraction:
    """An exact rational number, always kept in lowest terms with a positive denominator."""

    def __init__(self, numerator=0, denominator=None):
        if denominator is None:
            if isinstance(numerator, Fraction):
                n, d = numerator._numerator, numerator._denominator
            elif isinstance(numerator, bool) or isinstance(numerator, int):
                n, d = int(numerator), 1
            elif isinstance(numerator, float):
                n, d = numerator.as_integer_ratio()
            elif isinstance(numerator, str):
                n, d = _parse(numerator)
            elif hasattr(numerator, 'as_integer_ratio'):
                n, d = numerator.as_integer_ratio()
            else:
                raise TypeError('argument should be a string or a Rational instance')
        else:
            if not isinstance(numerator, (int, Fraction)) or \
                    not isinstance(denominator, (int, Fraction)):
                raise TypeError('both arguments should be Rational instances')
            a, b = Fraction(numerator), Fraction(denominator)
            n = a._numerator * b._denominator
            d = a._denominator * b._numerator
        if d == 0:
            raise ZeroDivisionError(f'Fraction({n}, 0)')
        g = math.gcd(n, d)
        if d < 0:
            g = -g
        self._numerator = n // g
        self._denominator = d // g

    @classmethod
    def from_float(cls, f):
        return cls(f)

    @classmethod
    def from_decimal(cls, dec):
        return cls(str(dec))

    @property
    def numerator(self):
        return self._numerator

    @property
    def denominator(self):
        return self._denominator

    def as_integer_ratio(self):
        return (self._numerator, self._denominator)

    def is_integer(self):
        return self._denominator == 1

    def limit_denominator(self, max_denominator=1000000):
        """The closest Fraction whose denominator is at most max_denominator."""
        if max_denominator < 1:
            raise ValueError('max_denominator should be at least 1')
        if self._denominator <= max_denominator:
            return Fraction(self)
        # Walk the continued fraction's convergents until the bound is passed, then pick
        # the better of the last convergent and the best semiconvergent.
        p0, q0, p1, q1 = 0, 1, 1, 0
        n, d = self._numerator, self._denominator
        while True:
            a = n // d
            q2 = q0 + a * q1
            if q2 > max_denominator:
                break
            p0, q0, p1, q1 = p1, q1, p0 + a * p1, q2
            n, d = d, n - a * d
        k = (max_denominator - q0) // q1
        low = Fraction(p0 + k * p1, q0 + k * q1)
        high = Fraction(p1, q1)
        if abs(high - self) <= abs(low - self):
            return high
        return low

    def __repr__(self):
        return f'Fraction({self._numerator}, {self._denominator})'

    def __str__(self):
        if self._denominator == 1:
            return str(self._numerator)
        return f'{self._numerator}/{self._denominator}'

    @staticmethod
    def _other(other):
        """other as a Fraction, a float, or None when arithmetic with it is not defined."""
        if isinstance(other, Fraction):
            return other
        if isinstance(other, (bool, int)):
            return Fraction(int(other))
        if isinstance(other, float):
            return other
        return None

    def _apply(self, other, exact, inexact, reflected=False):
        o = Fraction._other(other)
        if o is None:
            return NotImplemented
        if isinstance(o, float):
            a, b = float(self), o
            return inexact(b, a) if reflected else inexact(a, b)
        return exact(o, self) if reflected else exact(self, o)

    def __add__(self, other):
        return self._apply(other, _add, lambda a, b: a + b)

    def __radd__(self, other):
        return self._apply(other, _add, lambda a, b: a + b, True)

    def __sub__(self, other):
        return self._apply(other, _sub, lambda a, b: a - b)

    def __rsub__(self, other):
        return self._apply(other, _sub, lambda a, b: a - b, True)

    def __mul__(self, other):
        return self._apply(other, _mul, lambda a, b: a * b)

    def __rmul__(self, other):
        return self._apply(other, _mul, lambda a, b: a * b, True)

    def __truediv__(self, other):
        return self._apply(other, _div, lambda a, b: a / b)

    def __rtruediv__(self, other):
        return self._apply(other, _div, lambda a, b: a / b, True)

    def __floordiv__(self, other):
        return self._apply(other, _floordiv, lambda a, b: a // b)

    def __rfloordiv__(self, other):
        return self._apply(other, _floordiv, lambda a, b: a // b, True)

    def __mod__(self, other):
        return self._apply(other, _mod, lambda a, b: a % b)

    def __rmod__(self, other):
        return self._apply(other, _mod, lambda a, b: a % b, True)

    def __divmod__(self, other):
        return (self // other, self % other)

    def __pow__(self, other):
        if isinstance(other, Fraction) and other._denominator == 1:
            other = other._numerator
        if isinstance(other, int):
            if other >= 0:
                return Fraction(self._numerator ** other, self._denominator ** other)
            if self._numerator == 0:
                raise ZeroDivisionError(f'Fraction({self._denominator ** -other}, 0)')
            return Fraction(self._denominator ** -other, self._numerator ** -other)
        return float(self) ** float(other)

    def __rpow__(self, other):
        if self._denominator == 1:
            return other ** self._numerator
        return float(other) ** float(self)

    def __neg__(self):
        return Fraction(-self._numerator, self._denominator)

    def __pos__(self):
        return Fraction(self)

    def __abs__(self):
        return Fraction(abs(self._numerator), self._denominator)

    def __int__(self):
        if self._numerator < 0:
            return -(-self._numerator // self._denominator)
        return self._numerator // self._denominator

    __trunc__ = __int__

    def __floor__(self):
        return self._numerator // self._denominator

    def __ceil__(self):
        return -(-self._numerator // self._denominator)

    def __float__(self):
        return self._numerator / self._denominator

    def __round__(self, ndigits=None):
        if ndigits is None:
            q, r = divmod(self._numerator, self._denominator)
            twice = 2 * r
            if twice > self._denominator or (twice == self._denominator and q % 2 == 1):
                q += 1
            return q
        shift = Fraction(10) ** abs(ndigits)
        if ndigits > 0:
            return Fraction(round(self * shift), shift)
        return Fraction(round(self / shift) * shift)

    def __bool__(self):
        return self._numerator != 0

    def __hash__(self):
        inverse = pow(self._denominator, _MODULUS - 2, _MODULUS)
        if inverse == 0:
            h = _INF_HASH
        else:
            h = hash(hash(abs(self._numerator)) * inverse)
        result = h if self._numerator >= 0 else -h
        return -2 if result == -1 else result

    def __eq__(self, other):
        if isinstance(other, float):
            if other != other or other in (float('inf'), float('-inf')):
                return False
        o = Fraction._other(other)
        if o is None:
            return NotImplemented
        if isinstance(o, float):
            o = Fraction(o)
        return self._numerator == o._numerator and self._denominator == o._denominator

    def _compare(self, other, op):
        o = Fraction._other(other)
        if o is None:
            return NotImplemented
        if isinstance(o, float):
            if o != o:
                return False
            if o in (float('inf'), float('-inf')):
                return op(0, o)
            o = Fraction(o)
        return op(self._numerator * o._denominator, o._numerator * self._denominator)

    def __lt__(self, other):
        return self._compare(other, lambda a, b: a < b)

    def __le__(self, other):
        return self._compare(other, lambda a, b: a <= b)

    def __gt__(self, other):
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self, other):
        return self._compare(other, lambda a, b: a >= b)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def _add(a, b):
    return Fraction(a._numerator * b._denominator + b._numerator * a._denominator,
                    a._denominator * b._denominator)


def _sub(a, b):
    return Fraction(a._numerator * b._denominator - b._numerator * a._denominator,
                    a._denominator * b._denominator)


def _mul(a, b):
    return Fraction(a._numerator * b._numerator, a._denominator * b._denominator)


def _div(a, b):
    if b._numerator == 0:
        raise ZeroDivisionError(f'Fraction({a._numerator * b._denominator}, 0)')
    return Fraction(a._numerator * b._denominator, a._denominator * b._numerator)


def _floordiv(a, b):
    return (a._numerator * b._denominator) // (a._denominator * b._numerator)


def _mod(a, b):
    d = a._denominator * b._denominator
    return Fraction((a._numerator * b._denominator) % (b._numerator * a._denominator), d)
