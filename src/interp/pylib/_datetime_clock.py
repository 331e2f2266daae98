"""The datetime module's times of day: tzinfo, the fixed-offset timezone, time and datetime
(imported by datetime, whose date and timedelta they build on; they print as datetime's)."""

import math as _math
import time as _time
import _datetime_format as _fmt
from datetime import (date, timedelta, _check_date, _check_time, _check_tzinfo, _offset_us,
                      _qualified, _DAY_US, _MAX_ORDINAL)


class tzinfo:
    """Base of time zone classes: subclasses give utcoffset, dst and tzname."""

    __module__ = 'datetime'

    def utcoffset(self, dt):
        raise NotImplementedError('a tzinfo subclass must implement utcoffset()')

    def dst(self, dt):
        raise NotImplementedError('a tzinfo subclass must implement dst()')

    def tzname(self, dt):
        raise NotImplementedError('a tzinfo subclass must implement tzname()')

    def fromutc(self, dt):
        if not isinstance(dt, datetime):
            raise TypeError('fromutc() requires a datetime argument')
        if dt.tzinfo is not self:
            raise ValueError('dt.tzinfo is not self')
        offset = dt.utcoffset()
        dst = dt.dst()
        if offset is None or dst is None:
            raise ValueError('fromutc() requires a non-None utcoffset() and dst() result')
        # Standard time first, then the daylight saving that applies at that local time.
        dt += offset - dst
        dst = dt.dst()
        return dt + dst if dst is not None else dt


class timezone(tzinfo):
    """A fixed offset from UTC, with an optional name."""

    __module__ = 'datetime'

    def __init__(self, offset, name=None):
        if not isinstance(offset, timedelta):
            raise TypeError('timezone() argument 1 must be datetime.timedelta, '
                            f'not {type(offset).__name__}')
        if name is not None and not isinstance(name, str):
            raise TypeError(f'timezone() argument 2 must be str, not {type(name).__name__}')
        if not -_DAY_US < offset._us < _DAY_US:
            raise ValueError('offset must be a timedelta strictly between -timedelta(hours=24)'
                             f' and timedelta(hours=24), not {offset!r}.')
        self._offset = offset
        self._name = name

    def __repr__(self):
        if self._name is None:
            if not self._offset:
                return 'datetime.timezone.utc'
            return f'datetime.timezone({self._offset!r})'
        return f'datetime.timezone({self._offset!r}, {self._name!r})'

    def __str__(self):
        return self.tzname(None)

    def __eq__(self, other):
        if isinstance(other, timezone):
            return self._offset == other._offset
        return NotImplemented

    def __hash__(self):
        return hash(self._offset)

    def _check_arg(self, dt, what):
        if dt is not None and not isinstance(dt, datetime):
            raise TypeError(f'{what}(dt) argument must be a datetime instance or None, '
                            f'not {type(dt).__name__}')

    def utcoffset(self, dt):
        self._check_arg(dt, 'utcoffset')
        return self._offset

    def dst(self, dt):
        self._check_arg(dt, 'dst')
        return None

    def tzname(self, dt):
        self._check_arg(dt, 'tzname')
        if self._name is not None:
            return self._name
        if not self._offset:
            return 'UTC'
        return 'UTC' + _fmt.format_offset(self._offset._us, ':')

    def fromutc(self, dt):
        if not isinstance(dt, datetime):
            raise TypeError('fromutc() argument must be a datetime instance or None')
        if dt.tzinfo is not self:
            raise ValueError('fromutc: dt.tzinfo is not self')
        return dt + self._offset


timezone.utc = timezone(timedelta(0))
timezone.min = timezone(timedelta(hours=-23, minutes=-59))
timezone.max = timezone(timedelta(hours=23, minutes=59))


def _tz_suffix(obj):
    out = ''
    if obj._tzinfo is not None:
        out += f', tzinfo={obj._tzinfo!r}'
    if obj._fold:
        out += ', fold=1'
    return out + ')'


def _time_iso(hour, minute, second, us, timespec):
    if timespec == 'auto':
        timespec = 'microseconds' if us else 'seconds'
    if timespec == 'hours':
        return f'{hour:02d}'
    if timespec == 'minutes':
        return f'{hour:02d}:{minute:02d}'
    if timespec == 'seconds':
        return f'{hour:02d}:{minute:02d}:{second:02d}'
    if timespec == 'milliseconds':
        return f'{hour:02d}:{minute:02d}:{second:02d}.{us // 1000:03d}'
    if timespec == 'microseconds':
        return f'{hour:02d}:{minute:02d}:{second:02d}.{us:06d}'
    raise ValueError('Unknown timespec value')


def _local_offset_us(t):
    # Local time is the C library's; without a time zone database nbcuda's is UTC.
    localtime = getattr(_time, 'localtime', None)
    gmtoff = getattr(localtime(t), 'tm_gmtoff', None) if localtime is not None else None
    return int(gmtoff) * 1000000 if gmtoff is not None else 0


class time:
    """A time of day, optionally with a tzinfo."""

    __module__ = 'datetime'

    def __init__(self, hour=0, minute=0, second=0, microsecond=0, tzinfo=None, *, fold=0):
        (self._hour, self._minute, self._second, self._microsecond,
         self._fold) = _check_time(hour, minute, second, microsecond, fold)
        _check_tzinfo(tzinfo)
        self._tzinfo = tzinfo

    hour = property(lambda self: self._hour)
    minute = property(lambda self: self._minute)
    second = property(lambda self: self._second)
    microsecond = property(lambda self: self._microsecond)
    tzinfo = property(lambda self: self._tzinfo)
    fold = property(lambda self: self._fold)

    def __repr__(self):
        args = f'{self._hour}, {self._minute}'
        if self._second or self._microsecond:
            args += f', {self._second}'
        if self._microsecond:
            args += f', {self._microsecond}'
        return f'{_qualified(self)}({args}' + _tz_suffix(self)

    def isoformat(self, timespec='auto'):
        text = _time_iso(self._hour, self._minute, self._second, self._microsecond, timespec)
        offset = self._offset()
        return text if offset is None else text + _fmt.format_offset(offset, ':')

    __str__ = isoformat

    @classmethod
    def fromisoformat(cls, text):
        if not isinstance(text, str):
            raise TypeError('fromisoformat: argument must be str')
        body = text[1:] if text[:1] == 'T' else text
        h, m, s, us, offset = _fmt.parse_iso_time(body, text)
        tz = None if offset is None else _tz_of(offset)
        return cls(h, m, s, us, tz)

    def _offset(self):
        if self._tzinfo is None:
            return None
        return _offset_us(self._tzinfo.utcoffset(None), 'utcoffset')

    def utcoffset(self):
        return None if self._tzinfo is None else self._tzinfo.utcoffset(None)

    def dst(self):
        return None if self._tzinfo is None else self._tzinfo.dst(None)

    def tzname(self):
        return None if self._tzinfo is None else self._tzinfo.tzname(None)

    def strftime(self, fmt):
        offset = self._offset()
        name = self.tzname()
        return _fmt.strftime(fmt, (1900, 1, 1, self._hour, self._minute, self._second,
                                   self._microsecond, 693596, offset, name))

    def __format__(self, spec):
        return self.strftime(spec) if spec else str(self)

    def replace(self, hour=None, minute=None, second=None, microsecond=None, tzinfo=True,
                *, fold=None):
        return type(self)(self._hour if hour is None else hour,
                          self._minute if minute is None else minute,
                          self._second if second is None else second,
                          self._microsecond if microsecond is None else microsecond,
                          self._tzinfo if tzinfo is True else tzinfo,
                          fold=self._fold if fold is None else fold)

    def _key(self, other):
        a = self._offset()
        b = other._offset()
        if (a is None) != (b is None) and self._tzinfo is not other._tzinfo:
            return None
        mine = ((self._hour * 60 + self._minute) * 60 + self._second) * 1000000 + \
            self._microsecond - (a or 0)
        theirs = ((other._hour * 60 + other._minute) * 60 + other._second) * 1000000 + \
            other._microsecond - (b or 0)
        return mine, theirs

    def _order(self, other):
        if not isinstance(other, time):
            return None
        keys = self._key(other)
        if keys is None:
            raise TypeError("can't compare offset-naive and offset-aware times")
        return keys

    def __eq__(self, other):
        if not isinstance(other, time):
            return NotImplemented
        keys = self._key(other)
        return keys is not None and keys[0] == keys[1]

    def __lt__(self, other):
        keys = self._order(other)
        return NotImplemented if keys is None else keys[0] < keys[1]

    def __le__(self, other):
        keys = self._order(other)
        return NotImplemented if keys is None else keys[0] <= keys[1]

    def __gt__(self, other):
        keys = self._order(other)
        return NotImplemented if keys is None else keys[0] > keys[1]

    def __ge__(self, other):
        keys = self._order(other)
        return NotImplemented if keys is None else keys[0] >= keys[1]

    def __hash__(self):
        offset = self._offset() or 0
        return hash(((self._hour * 60 + self._minute) * 60 + self._second) * 1000000 +
                    self._microsecond - offset)

    def __bool__(self):
        return True


time.min = time(0, 0)
time.max = time(23, 59, 59, 999999)
time.resolution = timedelta(microseconds=1)


def _tz_of(offset_us):
    return timezone.utc if offset_us == 0 else timezone(timedelta(microseconds=offset_us))


class datetime(date):
    """A date and a time of day, optionally with a tzinfo."""

    __module__ = 'datetime'

    def __init__(self, year, month, day, hour=0, minute=0, second=0, microsecond=0,
                 tzinfo=None, *, fold=0):
        self._year, self._month, self._day = _check_date(year, month, day)
        (self._hour, self._minute, self._second, self._microsecond,
         self._fold) = _check_time(hour, minute, second, microsecond, fold)
        _check_tzinfo(tzinfo)
        self._tzinfo = tzinfo

    hour = time.hour
    minute = time.minute
    second = time.second
    microsecond = time.microsecond
    tzinfo = time.tzinfo
    fold = time.fold

    def _local_us(self):
        """Microseconds since 0001-01-01 00:00 of this wall time (offset not applied)."""
        secs = ((self.toordinal() - 1) * 86400 + self._hour * 3600 + self._minute * 60 +
                self._second)
        return secs * 1000000 + self._microsecond

    @classmethod
    def _from_local_us(cls, us, tz, fold=0):
        days, rest = divmod(us, _DAY_US)
        if not 0 <= days < _MAX_ORDINAL:
            raise OverflowError('date value out of range')
        secs, micro = divmod(rest, 1000000)
        mins, s = divmod(secs, 60)
        h, m = divmod(mins, 60)
        y, mo, d = _fmt.ymd(days + 1)
        return cls(y, mo, d, h, m, s, micro, tz, fold=fold)

    def _offset(self):
        if self._tzinfo is None:
            return None
        return _offset_us(self._tzinfo.utcoffset(self), 'utcoffset')

    def utcoffset(self):
        return None if self._tzinfo is None else self._tzinfo.utcoffset(self)

    def dst(self):
        return None if self._tzinfo is None else self._tzinfo.dst(self)

    def tzname(self):
        return None if self._tzinfo is None else self._tzinfo.tzname(self)

    def date(self):
        return date(self._year, self._month, self._day)

    def time(self):
        return time(self._hour, self._minute, self._second, self._microsecond, fold=self._fold)

    def timetz(self):
        return time(self._hour, self._minute, self._second, self._microsecond, self._tzinfo,
                    fold=self._fold)

    @classmethod
    def combine(cls, date, time, tzinfo=True):
        if tzinfo is True:
            tzinfo = time.tzinfo
        return cls(date.year, date.month, date.day, time.hour, time.minute, time.second,
                   time.microsecond, tzinfo, fold=time.fold)

    @classmethod
    def fromtimestamp(cls, t, tz=None):
        _check_tzinfo(tz)
        if not isinstance(t, (int, float)):
            raise TypeError(f"'{type(t).__name__}' object cannot be interpreted as an integer")
        frac, whole = _math.modf(t)
        us = round(frac * 1e6)
        utc_us = (int(whole) + 62135596800) * 1000000 + us
        if tz is None:
            return cls._from_local_us(utc_us + _local_offset_us(t), None)
        return tz.fromutc(cls._from_local_us(utc_us, tz))

    @classmethod
    def utcfromtimestamp(cls, t):
        return cls.fromtimestamp(t, timezone.utc).replace(tzinfo=None)

    @classmethod
    def now(cls, tz=None):
        return cls.fromtimestamp(_time.time(), tz)

    @classmethod
    def today(cls):
        return cls.fromtimestamp(_time.time())

    @classmethod
    def utcnow(cls):
        return cls.utcfromtimestamp(_time.time())

    def timestamp(self):
        offset = self._offset()
        if offset is None:
            offset = _local_offset_us((self._local_us() - 62135596800 * 1000000) / 1e6)
        return (self._local_us() - offset - 62135596800 * 1000000) / 1000000

    def astimezone(self, tz=None):
        offset = self._offset()
        if offset is None:
            offset = _local_offset_us(self.replace(tzinfo=timezone.utc).timestamp())
        utc_us = self._local_us() - offset
        if tz is None:
            local = _local_offset_us((utc_us - 62135596800 * 1000000) / 1e6)
            tz = timezone(timedelta(microseconds=local), 'UTC' if local == 0 else None)
        elif not isinstance(tz, tzinfo):
            raise TypeError(f'astimezone() argument 1 must be datetime.tzinfo, not '
                            f'{type(tz).__name__}')
        return tz.fromutc(type(self)._from_local_us(utc_us, tz))

    @classmethod
    def fromisoformat(cls, text):
        if not isinstance(text, str):
            raise TypeError('fromisoformat: argument must be str')
        date_part, time_part, has_sep = _fmt.split_iso_datetime(text, text)
        parts = _fmt.parse_iso_date(date_part, text)
        d = date.fromisocalendar(*parts[1:]) if parts[0] == 'week' else date(*parts)
        if not has_sep:
            return cls(d.year, d.month, d.day)
        h, m, s, us, offset = _fmt.parse_iso_time(time_part, text)
        tz = None if offset is None else _tz_of(offset)
        return cls(d.year, d.month, d.day, h, m, s, us, tz)

    @classmethod
    def strptime(cls, text, fmt):
        y, mo, d, h, mi, s, us, offset = _fmt.strptime(text, fmt)
        tz = None if offset is None else _tz_of(offset)
        return cls(y, mo, d, h, mi, s, us, tz)

    def isoformat(self, sep='T', timespec='auto'):
        text = f'{self._year:04d}-{self._month:02d}-{self._day:02d}{sep}' + _time_iso(
            self._hour, self._minute, self._second, self._microsecond, timespec)
        offset = self._offset()
        return text if offset is None else text + _fmt.format_offset(offset, ':')

    def __str__(self):
        return self.isoformat(' ')

    def __repr__(self):
        args = f'{self._year}, {self._month}, {self._day}, {self._hour}, {self._minute}'
        if self._second or self._microsecond:
            args += f', {self._second}'
        if self._microsecond:
            args += f', {self._microsecond}'
        return f'{_qualified(self)}({args}' + _tz_suffix(self)

    def _fields(self):
        return (self._year, self._month, self._day, self._hour, self._minute, self._second,
                self._microsecond, self.toordinal(), self._offset(), self.tzname())

    def ctime(self):
        return self.strftime('%a %b %e %H:%M:%S %Y')

    def replace(self, year=None, month=None, day=None, hour=None, minute=None, second=None,
                microsecond=None, tzinfo=True, *, fold=None):
        return type(self)(self._year if year is None else year,
                          self._month if month is None else month,
                          self._day if day is None else day,
                          self._hour if hour is None else hour,
                          self._minute if minute is None else minute,
                          self._second if second is None else second,
                          self._microsecond if microsecond is None else microsecond,
                          self._tzinfo if tzinfo is True else tzinfo,
                          fold=self._fold if fold is None else fold)

    def __add__(self, other):
        if isinstance(other, timedelta):
            return type(self)._from_local_us(self._local_us() + other._us, self._tzinfo)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return type(self)._from_local_us(self._local_us() - other._us, self._tzinfo)
        if not isinstance(other, datetime):
            return NotImplemented
        if self._tzinfo is other._tzinfo:
            return timedelta._of(self._local_us() - other._local_us())
        a, b = self._offset(), other._offset()
        if (a is None) != (b is None):
            raise TypeError("can't subtract offset-naive and offset-aware datetimes")
        return timedelta._of(self._local_us() - (a or 0) - other._local_us() + (b or 0))

    def _keys(self, other):
        """Comparable microseconds of both, or None when one is naive and one aware."""
        if self._tzinfo is other._tzinfo:
            return self._local_us(), other._local_us()
        a, b = self._offset(), other._offset()
        if (a is None) != (b is None):
            return None
        return self._local_us() - (a or 0), other._local_us() - (b or 0)

    def _order(self, other):
        if not isinstance(other, datetime):
            if isinstance(other, date):
                raise TypeError(f"can't compare {_qualified(self)} to {_qualified(other)}")
            return None
        keys = self._keys(other)
        if keys is None:
            raise TypeError("can't compare offset-naive and offset-aware datetimes")
        return keys

    def __eq__(self, other):
        if not isinstance(other, datetime):
            return False if isinstance(other, date) else NotImplemented
        keys = self._keys(other)
        return keys is not None and keys[0] == keys[1]

    def __lt__(self, other):
        keys = self._order(other)
        return NotImplemented if keys is None else keys[0] < keys[1]

    def __le__(self, other):
        keys = self._order(other)
        return NotImplemented if keys is None else keys[0] <= keys[1]

    def __gt__(self, other):
        keys = self._order(other)
        return NotImplemented if keys is None else keys[0] > keys[1]

    def __ge__(self, other):
        keys = self._order(other)
        return NotImplemented if keys is None else keys[0] >= keys[1]

    def __hash__(self):
        return hash(self._local_us() - (self._offset() or 0))


datetime.min = datetime(1, 1, 1)
datetime.max = datetime(9999, 12, 31, 23, 59, 59, 999999)
datetime.resolution = timedelta(microseconds=1)
