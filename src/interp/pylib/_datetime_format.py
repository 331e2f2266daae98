"""Text forms of dates and times for the datetime module: strftime, strptime and the ISO 8601
parsers. These work on plain numbers so that datetime can build its own objects from them."""

import re as _re

_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
           'September', 'October', 'November', 'December']
_DAY_ABBR = [d[:3] for d in _DAYS]
_MONTH_ABBR = [m[:3] for m in _MONTHS]


def format_offset(us, sep):
    """A UTC offset in microseconds as +HH<sep>MM, with seconds and microseconds only when
    present (isoformat uses ':', strftime's %z none)."""
    sign = '-' if us < 0 else '+'
    us = abs(us)
    secs, frac = divmod(us, 1000000)
    mins, sec = divmod(secs, 60)
    hh, mm = divmod(mins, 60)
    text = f'{sign}{hh:02d}{sep}{mm:02d}'
    if sec or frac:
        text += f'{sep}{sec:02d}'
        if frac:
            text += f'.{frac:06d}'
    return text


def _iso_week1_monday(year):
    # Week 1 of an ISO year is the week holding its first Thursday.
    first = _ordinal(year, 1, 1)
    weekday = (first + 6) % 7
    monday = first - weekday
    return monday + 7 if weekday > 3 else monday


def _ordinal(year, month, day):
    y = year - 1
    before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][month - 1]
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return y * 365 + y // 4 - y // 100 + y // 400 + before + (month > 2 and leap) + day


def iso_calendar(ordinal, year):
    """(ISO year, week, weekday) of a proleptic Gregorian ordinal in calendar year `year`."""
    monday = _iso_week1_monday(year)
    week, day = divmod(ordinal - monday, 7)
    if week < 0:
        year -= 1
        week, day = divmod(ordinal - _iso_week1_monday(year), 7)
    elif week >= 52 and ordinal >= _iso_week1_monday(year + 1):
        year += 1
        week = 0
    return year, week + 1, day + 1


def strftime(fmt, f):
    """Format `f` = (year, month, day, hour, minute, second, microsecond, ordinal,
    utcoffset in microseconds or None, tzname or None) with C-locale strftime codes."""
    year, month, day, hour, minute, second, us, ordinal, offset, tzname = f
    weekday = (ordinal + 6) % 7
    yday = ordinal - _ordinal(year, 1, 1)
    out = []
    i = 0
    n = len(fmt)
    while i < n:
        c = fmt[i]
        i += 1
        if c != '%' or i >= n:
            out.append(c)
            continue
        code = fmt[i]
        i += 1
        if code == 'Y':
            out.append(str(year))
        elif code == 'm':
            out.append(f'{month:02d}')
        elif code == 'd':
            out.append(f'{day:02d}')
        elif code == 'H':
            out.append(f'{hour:02d}')
        elif code == 'M':
            out.append(f'{minute:02d}')
        elif code == 'S':
            out.append(f'{second:02d}')
        elif code == 'f':
            out.append(f'{us:06d}')
        elif code == 'y':
            out.append(f'{year % 100:02d}')
        elif code == 'a':
            out.append(_DAY_ABBR[weekday])
        elif code == 'A':
            out.append(_DAYS[weekday])
        elif code in 'bh':
            out.append(_MONTH_ABBR[month - 1])
        elif code == 'B':
            out.append(_MONTHS[month - 1])
        elif code == 'I':
            out.append(f'{hour % 12 or 12:02d}')
        elif code == 'p':
            out.append('AM' if hour < 12 else 'PM')
        elif code == 'j':
            out.append(f'{yday + 1:03d}')
        elif code == 'w':
            out.append(str((weekday + 1) % 7))
        elif code == 'u':
            out.append(str(weekday + 1))
        elif code == 'U':
            out.append(f'{(yday + 7 - (weekday + 1) % 7) // 7:02d}')
        elif code == 'W':
            out.append(f'{(yday + 7 - weekday) // 7:02d}')
        elif code == 'G':
            out.append(str(iso_calendar(ordinal, year)[0]))
        elif code == 'V':
            out.append(f'{iso_calendar(ordinal, year)[1]:02d}')
        elif code == 'e':
            out.append(f'{day:2d}')
        elif code == 'z':
            out.append('' if offset is None else format_offset(offset, ''))
        elif code == 'Z':
            out.append(tzname or '')
        elif code in 'cxXDFTR':
            inner = {'c': '%a %b %e %H:%M:%S %Y', 'x': '%m/%d/%y', 'X': '%H:%M:%S',
                     'D': '%m/%d/%y', 'F': '%Y-%m-%d', 'T': '%H:%M:%S', 'R': '%H:%M'}[code]
            out.append(strftime(inner, f))
        elif code == 'n':
            out.append('\n')
        elif code == 't':
            out.append('\t')
        elif code == '%':
            out.append('%')
        else:
            # The C library leaves a code it does not know as written.
            out.append('%' + code)
    return ''.join(out)


def _names(names):
    return '(?P<{}>' + '|'.join(sorted((n.lower() for n in names), key=len, reverse=True)) + ')'


_PATTERNS = {
    'd': r'(?P<d>3[01]|[12]\d|0[1-9]|[1-9]| [1-9])',
    'f': r'(?P<f>[0-9]{1,6})',
    'H': r'(?P<H>2[0-3]|[0-1]\d|\d)',
    'I': r'(?P<I>1[0-2]|0[1-9]|[1-9])',
    'j': r'(?P<j>36[0-6]|3[0-5]\d|[12]\d\d|0[1-9]\d|00[1-9]|[1-9]\d|0[1-9]|[1-9])',
    'm': r'(?P<m>1[0-2]|0[1-9]|[1-9])',
    'M': r'(?P<M>[0-5]\d|\d)',
    'S': r'(?P<S>6[0-1]|[0-5]\d|\d)',
    'w': r'(?P<w>[0-6])',
    'u': r'(?P<u>[1-7])',
    'y': r'(?P<y>\d\d)',
    'Y': r'(?P<Y>\d\d\d\d)',
    'z': r'(?P<z>[+-]\d\d:?[0-5]\d(:?[0-5]\d(\.\d{1,6})?)?|Z)',
    'Z': r'(?P<Z>utc|gmt)',
    'p': r'(?P<p>am|pm)',
    'a': _names(_DAY_ABBR).format('a'),
    'A': _names(_DAYS).format('A'),
    'b': _names(_MONTH_ABBR).format('b'),
    'B': _names(_MONTHS).format('B'),
    '%': '%',
}
_PATTERNS['e'] = _PATTERNS['d'].replace('<d>', '<e>')
_COMPOSITE = {'c': '%a %b %d %H:%M:%S %Y', 'x': '%m/%d/%y', 'X': '%H:%M:%S', 'D': '%m/%d/%y',
              'F': '%Y-%m-%d', 'T': '%H:%M:%S', 'R': '%H:%M'}
_compiled = {}


def _pattern(fmt):
    out = []
    seen = set()
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c != '%':
            out.append(r'\s+' if c.isspace() else _re.escape(c))
            i += 1
            continue
        if i + 1 >= len(fmt):
            raise ValueError(f'stray % in format {fmt!r}')
        code = fmt[i + 1]
        i += 2
        if code in _COMPOSITE:
            out.append(_pattern(_COMPOSITE[code]))
        elif code in _PATTERNS:
            piece = _PATTERNS[code]
            if code in seen and code != '%':
                # A repeated code must match the same text again.
                piece = f'(?P={code})'
            seen.add(code)
            out.append(piece)
        else:
            raise ValueError(f'{code!r} is a bad directive in format {fmt!r}')
    return ''.join(out)


def strptime(text, fmt):
    """Parse `text` by `fmt`: (year, month, day, hour, minute, second, microsecond,
    utcoffset in microseconds or None)."""
    if not isinstance(text, str):
        raise TypeError(f'strptime() argument 1 must be str, not {type(text).__name__}')
    if not isinstance(fmt, str):
        raise TypeError(f'strptime() argument 2 must be str, not {type(fmt).__name__}')
    regex = _compiled.get(fmt)
    if regex is None:
        regex = _re.compile(_pattern(fmt), _re.IGNORECASE)
        _compiled[fmt] = regex
    found = regex.match(text)
    if found is None:
        raise ValueError(f'time data {text!r} does not match format {fmt!r}')
    if found.end() != len(text):
        raise ValueError(f'unconverted data remains: {text[found.end():]}')
    g = {k: v for k, v in found.groupdict().items() if v is not None}
    year = 1900
    if 'Y' in g:
        year = int(g['Y'])
    elif 'y' in g:
        y = int(g['y'])
        # POSIX: 69-99 are the 1900s, 00-68 the 2000s.
        year = y + (1900 if y >= 69 else 2000)
    month = 1
    if 'm' in g:
        month = int(g['m'])
    elif 'B' in g:
        month = [m.lower() for m in _MONTHS].index(g['B'].lower()) + 1
    elif 'b' in g:
        month = [m.lower() for m in _MONTH_ABBR].index(g['b'].lower()) + 1
    day = int(g.get('d', g.get('e', 1)))
    hour = int(g.get('H', 0))
    if 'I' in g:
        hour = int(g['I']) % 12
        if g.get('p', 'am').lower() == 'pm':
            hour += 12
    minute = int(g.get('M', 0))
    second = int(g.get('S', 0))
    us = int((g.get('f', '0') + '00000')[:6])
    if 'j' in g and 'm' not in g and 'b' not in g and 'B' not in g:
        ordinal = _ordinal(year, 1, 1) + int(g['j']) - 1
        year, month, day = ymd(ordinal)
    offset = None
    if 'z' in g:
        offset = _parse_offset(g['z'].replace(':', ''), text)
    return year, month, day, hour, minute, second, us, offset


def _parse_offset(z, text):
    if z.upper() == 'Z':
        return 0
    sign = -1 if z[0] == '-' else 1
    body = z[1:]
    hh, mm = int(body[:2]), int(body[2:4])
    ss = int(body[4:6]) if len(body) >= 6 else 0
    frac = body[7:] if len(body) > 7 else ''
    us = int((frac + '000000')[:6]) if frac else 0
    if hh > 23 or mm > 59 or ss > 59:
        raise ValueError(f'Invalid isoformat string: {text!r}')
    return sign * (((hh * 60 + mm) * 60 + ss) * 1000000 + us)


def ymd(ordinal):
    """(year, month, day) of a proleptic Gregorian ordinal (1 is 0001-01-01)."""
    n = ordinal - 1
    n400, n = divmod(n, 146097)
    n100, n = divmod(n, 36524)
    n4, n = divmod(n, 1461)
    n1, n = divmod(n, 365)
    year = n400 * 400 + n100 * 100 + n4 * 4 + n1 + 1
    if n100 == 4 or n1 == 4:
        # The last day of a 400- or 4-year cycle: December 31st of the previous year.
        return year - 1, 12, 31
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    month = 1
    for length in (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31):
        if n < length:
            break
        n -= length
        month += 1
    return year, month, n + 1


def _digits(s, text):
    if not s.isdigit() or not s.isascii():
        raise ValueError(f'Invalid isoformat string: {text!r}')
    return int(s)


def parse_iso_date(s, text):
    """(year, month, day) of YYYY-MM-DD, YYYYMMDD or an ISO week date (YYYY-Www[-D])."""
    if len(s) == 10 and s[4] == '-' and s[7] == '-' and s[5] != 'W':
        return _digits(s[:4], text), _digits(s[5:7], text), _digits(s[8:], text)
    if len(s) == 8 and 'W' not in s:
        return _digits(s[:4], text), _digits(s[4:6], text), _digits(s[6:], text)
    week_form = s.replace('-', '')
    extended = '-' in s
    if len(week_form) in (7, 8) and week_form[4] == 'W' and \
            (not extended or s[4] == '-' and (len(s) == 8 or s[8] == '-')):
        year = _digits(week_form[:4], text)
        week = _digits(week_form[5:7], text)
        day = _digits(week_form[7:], text) if len(week_form) == 8 else 1
        return ('week', year, week, day)
    raise ValueError(f'Invalid isoformat string: {text!r}')


def parse_iso_time(s, text):
    """(hour, minute, second, microsecond, utcoffset in microseconds or None) of
    HH[:MM[:SS[.ffffff]]] (or its compact form) with an optional Z or ±HH:MM offset."""
    offset = None
    for i, c in enumerate(s):
        if c in '+-Z':
            offset = _parse_offset(s[i:].replace(':', ''), text) if c != 'Z' or s[i:] == 'Z' \
                else None
            if c == 'Z' and s[i:] != 'Z':
                raise ValueError(f'Invalid isoformat string: {text!r}')
            if c != 'Z' and len(s[i:].replace(':', '')) < 5:
                raise ValueError(f'Invalid isoformat string: {text!r}')
            s = s[:i]
            break
    main, dot, frac = s.replace(',', '.').partition('.')
    parts = main.split(':') if ':' in main else [main[j:j + 2] for j in range(0, len(main), 2)]
    if not 1 <= len(parts) <= 3 or any(len(p) != 2 for p in parts) or (dot and len(parts) < 3):
        raise ValueError(f'Invalid isoformat string: {text!r}')
    nums = [_digits(p, text) for p in parts] + [0] * (3 - len(parts))
    us = 0
    if dot:
        if not frac or not frac.isdigit():
            raise ValueError(f'Invalid isoformat string: {text!r}')
        us = int((frac[:6] + '000000')[:6])
    return nums[0], nums[1], nums[2], us, offset


def split_iso_datetime(s, text):
    """The date part and the time part (or '') of an ISO datetime string: the date is 10
    characters (extended) or 8 (compact), week dates 7 to 10, and one separator follows."""
    if len(s) < 7:
        raise ValueError(f'Invalid isoformat string: {text!r}')
    if s[4] == '-':
        if s[5] == 'W':
            end = 10 if len(s) > 8 and s[8] == '-' else 8
        else:
            end = 10
    elif s[4] == 'W':
        end = 8 if len(s) > 7 and s[7].isdigit() else 7
    else:
        end = 8
    return s[:end], s[end + 1:], len(s) > end
