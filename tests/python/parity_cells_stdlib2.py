"""Cells of tests/python/test_cpython_parity.py about the standard modules notebooks import
(issue 16): datetime, collections.abc and ChainMap, typing.NamedTuple and TypedDict, pprint.
(Sets of strings are left out of pprint cells: CPython's order for them varies by run.)"""

STDLIB2 = [
    ("datetime_repr_str", """
import datetime
print(repr(datetime.timedelta(days=1, seconds=180)), datetime.timedelta(days=1, seconds=180))
print(repr(datetime.timedelta(0)), datetime.timedelta(hours=25, minutes=3), datetime.timedelta(microseconds=-1))
print(repr(datetime.datetime(2024, 1, 2, 3, 4, 5)), datetime.datetime(2024, 1, 2, 3, 4, 5, 60))
print(repr(datetime.datetime(2024, 1, 2)), repr(datetime.date(2024, 3, 15)), repr(datetime.time(3, 4)), datetime.time(3, 4, 5, 6))
print(datetime.MINYEAR, datetime.MAXYEAR, datetime.date.max, datetime.datetime.min, repr(datetime.timedelta.max), repr(datetime.timedelta.resolution))
"""),
    ("datetime_arithmetic", """
import datetime as dt
d = dt.date(2024, 3, 15)
print(d + dt.timedelta(days=20), d - dt.date(2023, 12, 25), d.weekday(), d.isoweekday(), d.isocalendar(), d.toordinal(), dt.date.fromordinal(738960))
t = dt.datetime(2024, 2, 28, 23, 30)
print(t + dt.timedelta(hours=1), t - dt.timedelta(days=60), t - dt.datetime(2024, 1, 1), (t - dt.datetime(2024, 1, 1)).total_seconds())
td = dt.timedelta(hours=1, minutes=30)
print(td * 3, td / 4, td / dt.timedelta(minutes=20), td // dt.timedelta(minutes=20), td % dt.timedelta(minutes=20), divmod(td, dt.timedelta(minutes=40)), -td, abs(-td), td * 0.5)
print(dt.timedelta(seconds=1.5e-6), dt.timedelta(days=0.1, hours=-0.7), td // 7, dt.timedelta(weeks=1, milliseconds=1))
print(d < dt.date(2024, 3, 16), t > dt.datetime(2024, 1, 1), td == dt.timedelta(minutes=90), hash(td) == hash(dt.timedelta(seconds=5400)), len({d, dt.date(2024, 3, 15)}))
print(d.replace(day=1), t.replace(hour=0, minute=5), t.date(), t.time(), dt.datetime.combine(d, dt.time(8, 15)))
"""),
    ("datetime_text", """
import datetime as dt
t = dt.datetime(2024, 3, 5, 14, 7, 9, 120)
print(t.isoformat(), t.isoformat(' ', 'seconds'), t.isoformat(timespec='milliseconds'), str(t), t.date().isoformat(), dt.time(1, 2).isoformat('minutes'))
print(t.strftime('%Y-%m-%d %H:%M:%S.%f'), t.strftime('%a %A %b %B %d %j %I%p %y %U %W %w %%'), t.ctime(), f'{t:%d/%m/%Y}', format(t.date(), ''))
print(repr(dt.datetime.strptime('2024-03-05 14:07:09', '%Y-%m-%d %H:%M:%S')), repr(dt.datetime.strptime('5 March 2024 3:04 PM', '%d %B %Y %I:%M %p')))
print(repr(dt.datetime.strptime('2024-03-05T10:11:12+0530', '%Y-%m-%dT%H:%M:%S%z')), repr(dt.datetime.strptime('24 075', '%y %j')))
print(repr(dt.date.fromisoformat('2024-03-05')), repr(dt.datetime.fromisoformat('2024-03-05T10:11:12.5')), repr(dt.datetime.fromisoformat('2024-03-05 10:11+01:00')), repr(dt.time.fromisoformat('10:11:12')))
print(repr(dt.datetime.fromisoformat('2024-03-05T10:11:12Z')), repr(dt.date.fromisocalendar(2024, 10, 2)), repr(dt.date.fromisoformat('20240305')))
"""),
    ("datetime_timezone_timestamp", """
import datetime as dt
utc = dt.timezone.utc
plus = dt.timezone(dt.timedelta(hours=5, minutes=30))
t = dt.datetime(2024, 3, 5, 12, 0, tzinfo=utc)
print(repr(t), t, repr(plus), plus, dt.timezone(dt.timedelta(hours=-3), 'BRT'), repr(dt.timezone(dt.timedelta(0), 'Z')))
print(t.astimezone(plus), t.timestamp(), t.utcoffset(), t.tzname(), t.astimezone(plus) == t, t.astimezone(plus) - t)
print(repr(dt.datetime.fromtimestamp(1700000000, utc)), repr(dt.datetime.utcfromtimestamp(1700000000.25)), dt.timezone(dt.timedelta(0)) == utc, dt.UTC is utc)
print(t.strftime('%z %Z'), t.astimezone(plus).strftime('%z %Z'), t.isoformat(), dt.datetime(2024, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=-5, seconds=1))).isoformat())
print(dt.datetime(2024, 1, 1) == t, dt.datetime(2024, 3, 5, 17, 30, tzinfo=plus) == t)
"""),
    ("datetime_errors", """
import datetime as dt
for make in [lambda: dt.date(2024, 2, 30), lambda: dt.date(0, 1, 1), lambda: dt.date(2024, 13, 1), lambda: dt.date(2024.0, 1, 1),
             lambda: dt.time(24), lambda: dt.time(1, 60), lambda: dt.time(1, fold=2), lambda: dt.timedelta(days=1e9),
             lambda: dt.date.max + dt.timedelta(1), lambda: dt.timezone(dt.timedelta(hours=24)), lambda: dt.timezone(3),
             lambda: dt.datetime.strptime('2024-13-01', '%Y-%m-%d'), lambda: dt.datetime.strptime('2024-12-01x', '%Y-%m-%d'),
             lambda: dt.datetime.strptime('1', '%q'), lambda: dt.date.fromisoformat('2024-1-5'), lambda: dt.timedelta(1) / dt.timedelta(0),
             lambda: dt.timedelta(1) // 0, lambda: dt.datetime(2024, 1, 1) - dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc),
             lambda: dt.datetime(2024, 1, 1) < dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc), lambda: dt.datetime(2024, 1, 1) < dt.date(2024, 1, 1),
             lambda: dt.time(1, tzinfo=3), lambda: dt.time(1).isoformat('bogus'), lambda: dt.date.fromisocalendar(2024, 53, 1)]:
    try:
        print(make())
    except Exception as e:
        print(type(e).__name__, e)
"""),
    ("collections_abc_isinstance", """
from collections.abc import (Iterable, Iterator, Generator, Sized, Container, Callable, Hashable, Collection,
                             Sequence, MutableSequence, Mapping, MutableMapping, Set, MutableSet)
import collections, collections.abc
values = [[1], (1,), 'ab', {}, set(), 3, 2.5, None, len, iter([]), (x for x in []), range(3), collections.OrderedDict(), collections.deque()]
for abc in [Iterable, Iterator, Generator, Sized, Container, Callable, Hashable, Collection, Sequence, MutableSequence, Mapping, MutableMapping, Set, MutableSet]:
    print(abc.__name__, [isinstance(v, abc) for v in values])
class Loop:
    def __iter__(self): return self
    def __next__(self): raise StopIteration
class Eq:
    def __eq__(self, other): return True
print(isinstance(Loop(), Iterator), isinstance(Loop(), Sized), issubclass(Loop, Iterable), isinstance(Eq(), Hashable), isinstance(Loop(), Hashable))
print(collections.abc.Mapping, Sequence.__module__, issubclass(list, Sequence), issubclass(dict, Mapping), issubclass(int, Iterable))
"""),
    ("collections_abc_mixins_chainmap", """
from collections.abc import Mapping, MutableMapping, Sequence
from collections import ChainMap
class Frozen(Mapping):
    def __init__(self, d): self._d = dict(d)
    def __getitem__(self, k): return self._d[k]
    def __iter__(self): return iter(self._d)
    def __len__(self): return len(self._d)
f = Frozen({'a': 1, 'b': 2})
print('a' in f, 'z' in f, f.get('z', 0), list(f.keys()), list(f.items()), list(f.values()), f == {'a': 1, 'b': 2}, dict(f), isinstance(f, Mapping))
class Store(MutableMapping):
    def __init__(self): self._d = {}
    def __getitem__(self, k): return self._d[k]
    def __setitem__(self, k, v): self._d[k] = v
    def __delitem__(self, k): del self._d[k]
    def __iter__(self): return iter(self._d)
    def __len__(self): return len(self._d)
s = Store(); s.update({'x': 1}, y=2); s.setdefault('z', 3)
print(dict(s), s.pop('x'), s.popitem(), len(s))
class Tens(Sequence):
    def __getitem__(self, i):
        if not 0 <= i < 3: raise IndexError(i)
        return i * 10
    def __len__(self): return 3
t = Tens(); print(list(t), 20 in t, t.index(20), list(reversed(t)), t.count(10))
c = ChainMap({'a': 1}, {'a': 2, 'b': 3})
print(c, c['a'], c['b'], len(c), list(c), dict(c), c.get('q'), 'b' in c)
c['z'] = 9; print(c.maps, c.new_child(), c.parents)
try:
    del c['b']
except KeyError as e:
    print(repr(e))
class Partial(Mapping):
    def __len__(self): return 0
try:
    Partial()
except TypeError as e:
    print(e)
"""),
    ("typing_namedtuple_typeddict", """
from typing import NamedTuple, TypedDict, Optional, get_type_hints
class P(NamedTuple):
    x: int
    y: float = 0.5
    def norm(self):
        return self.x + self.y
p = P(1)
print(p, P(2, 3), p.norm(), p._replace(x=5), p._asdict(), P._fields, P._field_defaults)
print(p[0], len(p), tuple(p), p == (1, 0.5), hash(p) == hash((1, 0.5)), isinstance(p, tuple), P._make([3, 4]))
a, b = p
print(a, b, Optional[int])
class Movie(TypedDict):
    title: str
    year: int
m = Movie(title='x', year=1)
print(m, type(m).__name__, get_type_hints(Movie), get_type_hints(P))
try:
    P()
except TypeError as e:
    print(e)
"""),
    ("pprint_line_breaking", """
import pprint
pprint.pprint({'b': list(range(30)), 'a': {'x': 1, 'y': [1, 2, 3]}})
print(pprint.pformat([1, 2]))
data = {'name': 'experiment', 'params': {'lr': 0.001, 'layers': [64, 128, 256, 512], 'dropout': 0.5, 'activation': 'relu'},
        'results': [(i, i * i, str(i) * 5) for i in range(8)], 'tags': {1, 2, 3}}
pprint.pprint(data)
pprint.pprint(data, width=40, indent=2)
pprint.pprint(data, depth=1)
pprint.pprint(list(range(60)), compact=True)
pprint.pprint(list(range(30)), width=30)
pprint.pp({'z': 1, 'a': [list(range(20)), list(range(20))]})
pprint.pprint(('x' * 30 + ' ') * 5)
pprint.pprint({'key': 'lorem ipsum dolor sit amet ' * 6})
pprint.pprint([[1, 2, [3, 4, [5, 6, [7, 8]]]]] * 4, width=30)
print(pprint.pformat((1,), width=2), pprint.pformat(((1, 2),) * 10, width=20))
pprint.PrettyPrinter(width=20).pprint({'a': 1, 'b': 2, 'c': 3, 'd': 4})
"""),
]
