"""Cells of tests/python/test_cpython_parity.py about imports (issue 16, point 5): modules
and packages written next to the notebook, what `sys.path` and `importlib` do with them,
the errors of names nothing provides, and the pure-Python standard modules nbcuda ships
(`heapq`, `bisect`, `typing`, `contextlib`, `timeit`, `gc`, `io`, `abc`), and the builtins
found missing beside them (generator.throw, bytes indexing, `del obj.attr`, `ascii`). Each
cell writes the files it imports into the kernel's own empty working directory."""

IMPORTS = [
    ("import_module_from_cwd", """
with open('nbmod_a.py', 'w') as f:
    f.write('\"\"\"Helpers.\"\"\"\\nX = 3\\ncalls = []\\ndef twice(v):\\n    calls.append(v)\\n    return 2 * v * X\\nclass Point:\\n    pass\\n')
import nbmod_a
from nbmod_a import twice, X as ex
print(nbmod_a.twice(1), twice(2), ex, nbmod_a.calls, nbmod_a.__name__, nbmod_a.__doc__)
nbmod_a.X = 10
print(twice(1), nbmod_a.Point.__module__, nbmod_a.Point.__qualname__, twice.__module__)
import nbmod_a as again
print(again is nbmod_a, sorted(n for n in dir(nbmod_a) if not n.startswith('_')))
"""),
    ("import_package_relative", """
import os
os.makedirs('nbpkg/inner', exist_ok=True)
with open('nbpkg/__init__.py', 'w') as f:
    f.write('from .util import helper\\nfrom . import consts\\nNAME = \"pkg\"\\n')
with open('nbpkg/util.py', 'w') as f:
    f.write('from .consts import BASE\\ndef helper(x):\\n    return x + BASE\\n')
with open('nbpkg/consts.py', 'w') as f:
    f.write('BASE = 100\\n__all__ = [\"BASE\"]\\nHIDDEN = 1\\n')
with open('nbpkg/inner/__init__.py', 'w') as f:
    f.write('from ..consts import BASE as B\\n')
import nbpkg.inner
from nbpkg.consts import *
print(nbpkg.helper(1), nbpkg.NAME, nbpkg.consts.BASE, nbpkg.inner.B, BASE, nbpkg.__package__, nbpkg.util.__package__)
print('HIDDEN' in dir(), nbpkg.inner.__name__)
"""),
    ("import_errors", """
try:
    import nbcuda_no_such_module
except ImportError as e:
    print(type(e).__name__, e, isinstance(e, ModuleNotFoundError))
with open('nbmod_b.py', 'w') as f:
    f.write('A = 1\\n')
try:
    from nbmod_b import B
except ImportError as e:
    print(type(e).__name__, str(e).split(' (')[0])
with open('nbmod_c.py', 'w') as f:
    f.write('A = 1\\nraise ValueError(\"boom\")\\n')
for _ in range(2):
    try:
        import nbmod_c
    except ValueError as e:
        print('raised', e)
import sys
print(type(sys.path).__name__, type(sys.argv).__name__)
"""),
    ("importlib_reload", """
import importlib
with open('nbmod_d.py', 'w') as f:
    f.write('V = 1\\n')
import nbmod_d
with open('nbmod_d.py', 'w') as f:
    f.write('V = 2\\n')
import nbmod_d as same
print(nbmod_d.V, same.V, importlib.reload(nbmod_d).V, nbmod_d.V)
print(importlib.import_module('nbmod_d') is nbmod_d, importlib.import_module('math').sqrt(4))
"""),
    ("heapq_bisect", """
import heapq, bisect
h = [5, 1, 4, 7, 3, 9, 2, 2]
heapq.heapify(h)
print(h)
heapq.heappush(h, 0)
print([heapq.heappop(h) for _ in range(4)], h)
print(heapq.nsmallest(3, [9, 3, 7, 1]), heapq.nlargest(2, ['a', 'ccc', 'bb'], key=len))
print(heapq.heappushpop([1, 5], 3), heapq.heapreplace([1, 5], 7), list(heapq.merge([1, 4], [2, 3])))
tasks = []
for item in [(3, 'c'), (1, 'a'), (2, 'b')]:
    heapq.heappush(tasks, item)
print([heapq.heappop(tasks)[1] for _ in range(3)])
try:
    heapq.heappop([])
except IndexError as e:
    print('IndexError', e)
a = [1, 3, 3, 5]
print(bisect.bisect_left(a, 3), bisect.bisect_right(a, 3), bisect.bisect(a, 4), bisect.bisect_left(a, 3, 2))
bisect.insort(a, 4); bisect.insort_left(a, 0)
print(a, bisect.bisect_left([(1, 'x'), (5, 'y')], 3, key=lambda t: t[0]))
"""),
    ("typing_annotations", """
from typing import List, Dict, Optional, Tuple, Union, Any, Callable, TypeVar, Generic, Iterable, Literal, cast
def f(xs: List[int], d: Optional[Dict[str, int]] = None) -> Tuple[int, int]:
    return sum(xs), len(d or {})
print(f([1, 2, 3]), f.__name__)
print(List[int], Dict[str, float], Optional[int], Union[int, str], Union[int, str, None])
print(Any, Callable[[int, float], str], Tuple[int, ...], Iterable[List[int]], Literal['a', 1])
print(Union[int] is int, Union[int, str] == Union[str, int], Optional[int] == Union[int, None])
T = TypeVar('T')
class Stack(Generic[T]):
    def __init__(self) -> None:
        self.items: List[T] = []
    def push(self, item: T) -> None:
        self.items.append(item)
s = Stack[int]()
s.push(3)
print(type(s).__name__, s.items, T, cast(int, 'x'))
for make in (lambda: List[int](), lambda: Dict(), lambda: Any()):
    try:
        make()
    except TypeError as e:
        print(e)
import typing
print(typing.get_args(Dict[str, int]), typing.get_origin(List[int]), typing.TYPE_CHECKING)
"""),
    ("builtin_types_are_classes", """
print(isinstance(int, type), isinstance(len, type), type(int), type(list) is type, type(None) is type(None))
print(int.__qualname__, int.__module__, len.__module__, type(None).__qualname__, isinstance(3, type))
class K:
    pass
print(isinstance(K, type), type(K), K.__module__, type(K()) is K)
"""),
    ("str_methods_rarer", """
print("Straße".casefold(), "abc".isascii(), "é".isascii(), "a b".isidentifier(), "_x1".isidentifier(), "1x".isidentifier())
print("12".isdecimal(), "²".isdecimal(), "²".isdigit(), "½".isnumeric(), "½".isdigit(), "".isdecimal())
print("Hello World".istitle(), "Hello world".istitle(), "HELLO".istitle(), "x\\n".isprintable(), "ok".isprintable())
print(repr("a\\tb\\tc".expandtabs(4)), repr("ab\\tc\\n\\td".expandtabs()), repr("\\t".expandtabs(0)))
table = str.maketrans('ab', 'xy', 'c')
print("abcabc".translate(table), "ab".translate({97: 'AA', 98: None}), sorted(table.items()))
print('é'.encode(), 'abc'.encode('ascii'), str.maketrans({'a': '1'}))
"""),
    ("format_alternate_forms", """
print(f"{255:#x} {255:#o} {5:#b} {255:#X} {255:#06x} {-255:#x} {255:#_b} {2**20:_x} {255:+#x}")
print(format(255, '#x'), '{:#x}'.format(255), '%#x' % 255, '%#o' % 8, f"{-5:#010b}")
try:
    f"{255:,x}"
except ValueError as e:
    print(e)
"""),
    ("contextlib_managers", """
from contextlib import contextmanager, suppress, nullcontext, ExitStack, closing
@contextmanager
def tag(name):
    print('<' + name + '>')
    try:
        yield name.upper()
    finally:
        print('</' + name + '>')
with tag('a') as t:
    print('inside', t)
try:
    with tag('b'):
        raise ValueError('boom')
except ValueError as e:
    print('propagated', e)
@contextmanager
def swallow():
    try:
        yield
    except KeyError:
        print('swallowed')
with swallow():
    raise KeyError('k')
with suppress(ZeroDivisionError):
    1 / 0
print('after suppress')
with nullcontext(5) as v:
    print(v)
with ExitStack() as stack:
    for n in 'xy':
        stack.enter_context(tag(n))
    stack.callback(print, 'callback')
    print('body')
@tag('deco')
def work():
    print('working')
work()
"""),
    ("timeit_module", """
import timeit
from timeit import default_timer as timer
t = timer(); x = sum(range(1000)); print(timer() - t >= 0)
print(type(timeit.timeit('x * 2', setup='x = 3', number=100)).__name__, len(timeit.repeat(lambda: 1, number=10, repeat=3)))
n = 0
def inc():
    global n
    n += 1
timeit.timeit(inc, number=7); print(n)
print(timeit.Timer('y + 1', globals={'y': 1}).timeit(5) >= 0)
"""),
    ("gc_module", """
import gc
print(type(gc.collect()).__name__, gc.isenabled())
"""),
    ("io_streams", """
import io
buf = io.StringIO()
print('hello', 42, file=buf)
buf.write('more\\n')
print(repr(buf.getvalue()))
r = io.StringIO('a\\nb\\nc')
print(r.readline(), r.read(), r.read(), r.tell(), list(io.StringIO('x\\ny')))
b = io.BytesIO(b'abc'); b.seek(1); print(b.read(), b.getvalue())
with io.StringIO() as s:
    s.write('q')
print(s.closed)
"""),
    ("generator_throw", """
def g():
    try:
        yield 1
    except ValueError as e:
        print('caught', e)
        yield 2
    yield 3
gen = g(); next(gen); print(gen.throw(ValueError('x')), next(gen))
try:
    gen.throw(KeyError('z'))
except KeyError as e:
    print('out', e)
g2 = g()
try:
    g2.throw(TypeError('early'))
except TypeError as e:
    print('early', e)
print(next(g2, 'done'))
"""),
    ("bytes_index_and_callable", """
b = b'hello'
print(b[1], b[-1], b[1:3], b[::-1], b[::2])
try:
    b[10]
except IndexError as e:
    print(e)
class C:
    def __call__(self): return 1
class D: pass
print(callable(C()), callable(D()), callable(D), callable(len), callable(x for x in []), callable(compile('1', 's', 'eval')))
"""),
    ("abc_abstract_methods", """
from abc import ABC, abstractmethod
class Shape(ABC):
    @abstractmethod
    def area(self): ...
    @abstractmethod
    def perimeter(self): ...
    def describe(self):
        return f'{type(self).__name__} with area {self.area()}'
class Half(Shape):
    def area(self): return 1
class Sq(Shape):
    def __init__(self, s): self.s = s
    def area(self): return self.s ** 2
    def perimeter(self): return 4 * self.s
for make in (Shape, Half):
    try:
        make()
    except TypeError as e:
        print(e)
print(Sq(3).describe(), isinstance(Sq(2), Shape), Shape.area.__isabstractmethod__)
class Plain(ABC):
    pass
print(type(Plain()).__name__)
"""),
    ("io_readline_and_tabs", """
import io
b = io.BytesIO(b'ab\\ncd'); print(b.readline(), b.readlines())
s = io.StringIO('ab\\ncd\\n'); print(s.readline(1), s.readlines())
print('a\\tb'.expandtabs(3))
import textwrap
print(textwrap.fill('a\\tb c', width=20))
"""),
    ("del_attribute_and_ascii", """
class C:
    x = 1
    def __init__(self):
        self.y = 2
c = C()
del c.y
print(hasattr(c, 'y'), c.x)
c.z = 3
delattr(c, 'z')
try:
    del c.missing
except AttributeError as e:
    print(e)
del C.x
print(hasattr(C, 'x'))
def f():
    o = C()
    del o.y
    return vars(o)
print(f())
import math
try:
    delattr(math, 'nothere')
except AttributeError as e:
    print(e)
from dataclasses import dataclass
@dataclass(frozen=True)
class P:
    a: int
try:
    del P(1).a
except Exception as e:
    print(type(e).__name__, e)
print(ascii('héllo ☃ 😀'), ascii([1, 'é']), ascii(3))
"""),
]
