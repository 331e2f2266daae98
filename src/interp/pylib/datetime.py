"""Dates and times: date, time, datetime, timedelta, tzinfo and fixed-offset timezone, with
Python 3.11's ranges, arithmetic, text forms and errors (nbcuda's own implementation).
Naive datetimes are taken as UTC where local time matters (now, timestamp)."""

import time as _time
import _datetime_format as _fmt

__all__ = ['date', 'datetime', 'time', 'timedelta', 'timezone', 'tzinfo', 'MINYEAR',
           'MAXYEAR', 'UTC']

MINYEAR = 1
MAXYEAR = 9999
_MAX_ORDINAL = 3652059
_DAY_US = 86400 * 1000000
_DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def _index(v):
    if isinstance(v, int):
        return int(v)
    if hasattr(type(v), '__index__'):
        return v.__index__()
    raise TypeError(f"'{type(v).__name__}' object cannot be interpreted as an integer")


def _check_date(year, month, day):
    year, month, day = _index(year), _index(month), _index(day)
    if not MINYEAR <= year <= MAXYEAR:
        raise ValueError(f'year {year} is out of range')
    if not 1 <= month <= 12:
        raise ValueError('month must be in 1..12')
    leap = month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if not 1 <= day <= _DAYS_IN_MONTH[month] + leap:
        raise ValueError('day is out of range for month')
    return year, month, day


def _check_time(hour, minute, second, microsecond, fold):
    hour, minute, second = _index(hour), _index(minute), _index(second)
    microsecond, fold = _index(microsecond), _index(fold)
    if not 0 <= hour <= 23:
        raise ValueError('hour must be in 0..23')
    if not 0 <= minute <= 59:
        raise ValueError('minute must be in 0..59')
    if not 0 <= second <= 59:
        raise ValueError('second must be in 0..59')
    if not 0 <= microsecond <= 999999:
        raise ValueError('microsecond must be in 0..999999')
    if fold not in (0, 1):
        raise ValueError('fold must be either 0 or 1')
    return hour, minute, second, microsecond, fold


def _check_tzinfo(tz):
    if tz is not None and not isinstance(tz, tzinfo):
        raise TypeError('tzinfo argument must be None or of a tzinfo subclass, '
                        f"not type '{type(tz).__name__}'")


def _round_half_even(num, den):
    q, r = divmod(num, den)
    twice = 2 * r
    if twice > den or (twice == den and q % 2 == 1):
        q += 1
    return q


def _offset_us(offset, what):
    """A tzinfo method's result in microseconds (None stays None), checked as CPython does."""
    if offset is None:
        return None
    if not isinstance(offset, timedelta):
        raise TypeError(f'tzinfo.{what}() must return None or timedelta, '
                        f"not '{type(offset).__name__}'")
    if not -_DAY_US < offset._us < _DAY_US:
        raise ValueError(f'offset must be a timedelta strictly between -timedelta(hours=24) '
                         f'and timedelta(hours=24), not {offset!r}.')
    return offset._us


def _qualified(obj):
    cls = type(obj)
    return f'{cls.__module__}.{cls.__qualname__}'


class timedelta:
    """A duration, kept as days, seconds (0..86399) and microseconds (0..999999)."""

    def __init__(self, days=0, seconds=0, microseconds=0, milliseconds=0, minutes=0,
                 hours=0, weeks=0):
        # As CPython: whole parts are summed exactly; each float's fraction is scaled to
        # microseconds in double precision, and the leftover is rounded once, half to even.
        us = 0
        leftover = 0.0
        for value, scale in ((days, _DAY_US), (seconds, 1000000), (microseconds, 1),
                             (milliseconds, 1000), (minutes, 60000000),
                             (hours, 3600000000), (weeks, 7 * _DAY_US)):
            if isinstance(value, int):
                us += value * scale
            elif isinstance(value, float):
                whole = int(value)
                us += whole * scale
                frac = (value - whole) * scale
                us += int(frac)
                leftover += frac - int(frac)
            else:
                raise TypeError(f'unsupported type for timedelta {_ARG_NAMES[scale]} '
                                f'component: {type(value).__name__}')
        if leftover:
            low = int(leftover // 1)
            if leftover - low == 0.5:
                # Exactly halfway: round the whole duration to even, not the leftover.
                us += low + (us + low) % 2
            else:
                us += round(leftover)
        self._set(us)

    def _set(self, us):
        days, rest = divmod(us, _DAY_US)
        if not -999999999 <= days <= 999999999:
            raise OverflowError(f'days={days}; must have magnitude <= 999999999')
        self._us = us
        self._days = days
        self._seconds, self._microseconds = divmod(rest, 1000000)

    @classmethod
    def _of(cls, us):
        td = object.__new__(timedelta)
        td._set(us)
        return td

    @property
    def days(self):
        return self._days

    @property
    def seconds(self):
        return self._seconds

    @property
    def microseconds(self):
        return self._microseconds

    def total_seconds(self):
        return self._us / 1000000

    def __repr__(self):
        parts = []
        if self._days:
            parts.append(f'days={self._days}')
        if self._seconds:
            parts.append(f'seconds={self._seconds}')
        if self._microseconds:
            parts.append(f'microseconds={self._microseconds}')
        return f"{_qualified(self)}({', '.join(parts) or '0'})"

    def __str__(self):
        mm, ss = divmod(self._seconds, 60)
        hh, mm = divmod(mm, 60)
        text = f'{hh}:{mm:02d}:{ss:02d}'
        if self._days:
            plural = 's' if abs(self._days) != 1 else ''
            text = f'{self._days} day{plural}, {text}'
        if self._microseconds:
            text += f'.{self._microseconds:06d}'
        return text

    def __add__(self, other):
        if isinstance(other, timedelta):
            return timedelta._of(self._us + other._us)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return timedelta._of(self._us - other._us)
        return NotImplemented

    def __rsub__(self, other):
        if isinstance(other, timedelta):
            return timedelta._of(other._us - self._us)
        return NotImplemented

    def __neg__(self):
        return timedelta._of(-self._us)

    def __pos__(self):
        return self

    def __abs__(self):
        return timedelta._of(abs(self._us))

    def __mul__(self, other):
        if isinstance(other, int):
            return timedelta._of(self._us * other)
        if isinstance(other, float):
            n, d = other.as_integer_ratio()
            return timedelta._of(_round_half_even(self._us * n, d))
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, timedelta):
            if other._us == 0:
                raise ZeroDivisionError('division by zero')
            return self._us / other._us
        if isinstance(other, int):
            if other == 0:
                raise ZeroDivisionError('integer division or modulo by zero')
            return timedelta._of(_round_half_even(self._us * (1 if other > 0 else -1),
                                                  abs(other)))
        if isinstance(other, float):
            n, d = other.as_integer_ratio()
            if n == 0:
                raise ZeroDivisionError('integer division or modulo by zero')
            sign = 1 if n > 0 else -1
            return timedelta._of(_round_half_even(sign * self._us * d, abs(n)))
        return NotImplemented

    def __floordiv__(self, other):
        if isinstance(other, timedelta):
            if other._us == 0:
                raise ZeroDivisionError('integer division or modulo by zero')
            return self._us // other._us
        if isinstance(other, int):
            if other == 0:
                raise ZeroDivisionError('integer division or modulo by zero')
            return timedelta._of(self._us // other)
        return NotImplemented

    def __mod__(self, other):
        if isinstance(other, timedelta):
            if other._us == 0:
                raise ZeroDivisionError('integer modulo by zero')
            return timedelta._of(self._us % other._us)
        return NotImplemented

    def __divmod__(self, other):
        if isinstance(other, timedelta):
            if other._us == 0:
                raise ZeroDivisionError('integer division or modulo by zero')
            q, r = divmod(self._us, other._us)
            return q, timedelta._of(r)
        return NotImplemented

    def __eq__(self, other):
        if isinstance(other, timedelta):
            return self._us == other._us
        return NotImplemented

    def __lt__(self, other):
        if isinstance(other, timedelta):
            return self._us < other._us
        return NotImplemented

    def __le__(self, other):
        if isinstance(other, timedelta):
            return self._us <= other._us
        return NotImplemented

    def __gt__(self, other):
        if isinstance(other, timedelta):
            return self._us > other._us
        return NotImplemented

    def __ge__(self, other):
        if isinstance(other, timedelta):
            return self._us >= other._us
        return NotImplemented

    def __hash__(self):
        return hash((self._days, self._seconds, self._microseconds))

    def __bool__(self):
        return self._us != 0


_ARG_NAMES = {_DAY_US: 'days', 1000000: 'seconds', 1: 'microseconds', 1000: 'milliseconds',
              60000000: 'minutes', 3600000000: 'hours', 7 * _DAY_US: 'weeks'}
timedelta.min = timedelta(-999999999)
timedelta.max = timedelta(days=999999999, seconds=86399, microseconds=999999)
timedelta.resolution = timedelta(microseconds=1)


class date:
    """A day of the proleptic Gregorian calendar, years 1 to 9999."""

    def __init__(self, year, month, day):
        self._year, self._month, self._day = _check_date(year, month, day)

    @classmethod
    def _from_ordinal(cls, n):
        if not 1 <= n <= _MAX_ORDINAL:
            raise OverflowError('date value out of range')
        return cls(*_fmt.ymd(n))

    @property
    def year(self):
        return self._year

    @property
    def month(self):
        return self._month

    @property
    def day(self):
        return self._day

    def toordinal(self):
        return _fmt._ordinal(self._year, self._month, self._day)

    @classmethod
    def fromordinal(cls, n):
        n = _index(n)
        if not 1 <= n <= _MAX_ORDINAL:
            raise ValueError(f'ordinal must be >= 1' if n < 1 else 'year 10000 is out of range')
        return cls(*_fmt.ymd(n))

    @classmethod
    def today(cls):
        return cls.fromtimestamp(_time.time())

    @classmethod
    def fromtimestamp(cls, t):
        d = datetime.utcfromtimestamp(t)
        return cls(d._year, d._month, d._day)

    @classmethod
    def fromisoformat(cls, text):
        if not isinstance(text, str):
            raise TypeError('fromisoformat: argument must be str')
        parts = _fmt.parse_iso_date(text, text)
        if parts[0] == 'week':
            return cls.fromisocalendar(*parts[1:])
        return cls(*parts)

    @classmethod
    def fromisocalendar(cls, year, week, day):
        if not MINYEAR <= year <= MAXYEAR:
            raise ValueError(f'Year is out of range: {year}')
        last_week = 53 if _fmt.iso_calendar(_fmt._ordinal(year, 12, 28), year)[1] == 53 \
            else 52
        if not 1 <= week <= last_week:
            raise ValueError(f'Invalid week: {week}')
        if not 1 <= day <= 7:
            raise ValueError(f'Invalid weekday: {day} (range is [1, 7])')
        return cls(*_fmt.ymd(_fmt._iso_week1_monday(year) + (week - 1) * 7 + day - 1))

    def weekday(self):
        return (self.toordinal() + 6) % 7

    def isoweekday(self):
        return self.toordinal() % 7 or 7

    def isocalendar(self):
        return IsoCalendarDate(*_fmt.iso_calendar(self.toordinal(), self._year))

    def isoformat(self):
        return f'{self._year:04d}-{self._month:02d}-{self._day:02d}'

    __str__ = isoformat

    def __repr__(self):
        return f'{_qualified(self)}({self._year}, {self._month}, {self._day})'

    def _fields(self):
        return (self._year, self._month, self._day, 0, 0, 0, 0, self.toordinal(), None, None)

    def strftime(self, fmt):
        return _fmt.strftime(fmt, self._fields())

    def __format__(self, spec):
        if not isinstance(spec, str):
            raise TypeError(f'must be str, not {type(spec).__name__}')
        return self.strftime(spec) if spec else str(self)

    def ctime(self):
        return self.strftime('%a %b %e %H:%M:%S %Y')

    def replace(self, year=None, month=None, day=None):
        return type(self)(self._year if year is None else year,
                          self._month if month is None else month,
                          self._day if day is None else day)

    def __add__(self, other):
        if isinstance(other, timedelta):
            return type(self)._from_ordinal(self.toordinal() + other._days)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return type(self)._from_ordinal(self.toordinal() - other._days)
        if isinstance(other, date) and not isinstance(other, datetime):
            return timedelta(self.toordinal() - other.toordinal())
        return NotImplemented

    def _cmp_key(self, other):
        if isinstance(other, datetime):
            raise TypeError(f"can't compare {_qualified(self)} to {_qualified(other)}")
        if isinstance(other, date):
            return (self._year, self._month, self._day), \
                (other._year, other._month, other._day)
        return None

    def __eq__(self, other):
        if isinstance(other, datetime) or not isinstance(other, date):
            return NotImplemented
        return (self._year, self._month, self._day) == (other._year, other._month, other._day)

    def __lt__(self, other):
        keys = self._cmp_key(other)
        return NotImplemented if keys is None else keys[0] < keys[1]

    def __le__(self, other):
        keys = self._cmp_key(other)
        return NotImplemented if keys is None else keys[0] <= keys[1]

    def __gt__(self, other):
        keys = self._cmp_key(other)
        return NotImplemented if keys is None else keys[0] > keys[1]

    def __ge__(self, other):
        keys = self._cmp_key(other)
        return NotImplemented if keys is None else keys[0] >= keys[1]

    def __hash__(self):
        return hash((self._year, self._month, self._day))


class IsoCalendarDate:
    """date.isocalendar()'s result: (year, week, weekday) with named fields. It acts as that
    tuple (nbcuda classes cannot derive from tuple)."""

    def __init__(self, year, week, weekday):
        self._t = (year, week, weekday)

    year = property(lambda self: self._t[0])
    week = property(lambda self: self._t[1])
    weekday = property(lambda self: self._t[2])

    def __getitem__(self, i):
        return self._t[i]

    def __len__(self):
        return 3

    def __iter__(self):
        return iter(self._t)

    def __eq__(self, other):
        if isinstance(other, IsoCalendarDate):
            other = other._t
        return self._t == other

    def __hash__(self):
        return hash(self._t)

    def __repr__(self):
        return f'datetime.IsoCalendarDate(year={self._t[0]}, week={self._t[1]}, ' \
            f'weekday={self._t[2]})'


from _datetime_clock import tzinfo, timezone, time, datetime  # noqa: E402

UTC = timezone.utc
date.min = date(1, 1, 1)
date.max = date(9999, 12, 31)
date.resolution = timedelta(days=1)
