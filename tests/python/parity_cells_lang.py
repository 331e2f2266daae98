"""Cells of tests/python/test_cpython_parity.py: the language (classes, generators, numbers;
CPython's edges are in parity_cells_edges.py). Each entry is (short name, source); the expected output is whatever
CPython/NumPy print for it in the same test run."""

# Point 2: classes
CLASSES = [
    ("class_methods", """
class Tally:
    kind = 'tally'
    def __init__(self, start=0):
        self.n = start
    def add(self, k=1):
        self.n += k
        return self
t = Tally(3).add().add(5)
print(t.n, t.kind, Tally.kind)
t.kind = 'mine'
print(t.kind, Tally.kind, Tally('x').kind)
"""),
    ("class_super", """
class Shape:
    def __init__(self, name):
        self.name = name
    def describe(self):
        return f'{self.name} with area {self.area():.2f}'
class Square(Shape):
    def __init__(self, side):
        super().__init__('square')
        self.side = side
    def area(self):
        return self.side ** 2
class Cube(Square):
    def describe(self):
        return super().describe() + ' per face'
c = Cube(1.5)
print(c.describe())
print(isinstance(c, Shape), issubclass(Cube, Square), issubclass(Shape, Cube))
print(type(c).__name__, type(c) is Cube, [k.__name__ for k in Cube.__mro__])
"""),
    ("class_property_static_classmethod", """
class Celsius:
    def __init__(self, deg):
        self._deg = deg
    @property
    def fahrenheit(self):
        return self._deg * 9 / 5 + 32
    @fahrenheit.setter
    def fahrenheit(self, f):
        self._deg = (f - 32) * 5 / 9
    @staticmethod
    def unit():
        return 'C'
    @classmethod
    def boiling(cls):
        return cls(100)
t = Celsius(25)
print(t.fahrenheit)
t.fahrenheit = 212
print(t._deg, Celsius.unit(), t.unit(), Celsius.boiling().fahrenheit)
"""),
    ("class_operators", """
class V:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __add__(self, o):
        return V(self.x + o.x, self.y + o.y)
    def __sub__(self, o):
        return V(self.x - o.x, self.y - o.y)
    def __mul__(self, k):
        return V(self.x * k, self.y * k)
    __rmul__ = __mul__
    def __neg__(self):
        return V(-self.x, -self.y)
    def __abs__(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5
    def __eq__(self, o):
        return isinstance(o, V) and (self.x, self.y) == (o.x, o.y)
    def __repr__(self):
        return f'V({self.x}, {self.y})'
a, b = V(1, 2), V(3, 4)
print(a + b, a - b, a * 3, 2 * b, -a, abs(b))
print(a == V(1, 2), a != b, a == 5)
a += b
print(a)
"""),
    ("class_ordering", """
import functools
@functools.total_ordering
class Version:
    def __init__(self, s):
        self.parts = tuple(int(p) for p in s.split('.'))
    def __eq__(self, o):
        return self.parts == o.parts
    def __lt__(self, o):
        return self.parts < o.parts
    def __repr__(self):
        return 'v' + '.'.join(map(str, self.parts))
vs = [Version(s) for s in ['1.10', '1.2', '0.9.9', '1.2.1']]
print(sorted(vs), max(vs), min(vs))
print(Version('2.0') >= Version('1.9'), Version('1.0') <= Version('0.1'))
"""),
    ("class_hash_eq", """
class Key:
    def __init__(self, a):
        self.a = a
    def __eq__(self, o):
        return self.a == o.a
    def __hash__(self):
        return hash(self.a)
s = {Key(1), Key(1), Key(2)}
d = {Key('x'): 1}
d[Key('x')] = 2
print(len(s), len(d), d[Key('x')], Key(3) in s)
class NoHash:
    def __eq__(self, o):
        return True
try:
    {NoHash()}
except TypeError as e:
    print('TypeError:', e)
"""),
    ("class_container_protocols", """
class Deck:
    def __init__(self, cards):
        self.cards = list(cards)
    def __len__(self):
        return len(self.cards)
    def __getitem__(self, i):
        return self.cards[i]
    def __contains__(self, c):
        return c in self.cards
    def __call__(self, n):
        return self.cards[:n]
    def __setitem__(self, i, v):
        self.cards[i] = v
d = Deck('AKQJ')
d[1] = 'k'
print(len(d), d[0], d[-1], d[1:3], 'Q' in d, 'Z' in d, d(2))
print(list(d), [c for c in d if c != 'A'], bool(Deck([])))
"""),
    ("class_iter_protocol", """
class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1
class Evens:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        for i in range(0, self.n, 2):
            yield i
print(list(Countdown(4)), sum(Countdown(10)), list(Evens(9)), max(Evens(7)))
"""),
    ("class_repr_str", """
class P:
    def __init__(self, x):
        self.x = x
    def __repr__(self):
        return f'P({self.x!r})'
    def __str__(self):
        return f'<{self.x}>'
p = P('a')
print(p, repr(p), str(p), [p], f'{p}', f'{p!r}', (p,), {'k': p})
class Plain:
    pass
print(str(Plain()).startswith('<__main__.Plain object at 0x'))
"""),
    ("class_context_manager", """
class Guard:
    def __init__(self, name, swallow):
        self.name, self.swallow = name, swallow
    def __enter__(self):
        print('enter', self.name)
        return self
    def __exit__(self, et, ev, tb):
        print('exit', self.name, et.__name__ if et else None, ev)
        return self.swallow
with Guard('a', False) as g:
    print('body', g.name)
with Guard('b', True):
    raise KeyError('k')
print('after b')
with Guard('c', False):
    raise ValueError('boom')
"""),
    ("class_user_exceptions", """
class AppError(Exception):
    pass
class ConfigError(AppError):
    def __init__(self, key):
        super().__init__(f'missing key {key!r}')
        self.key = key
try:
    raise ConfigError('port')
except AppError as e:
    print(type(e).__name__, e, e.key, e.args, isinstance(e, Exception))
try:
    raise AppError('a', 2)
except Exception as e:
    print(repr(e), str(e))
print(issubclass(ConfigError, Exception), issubclass(RecursionError, RuntimeError))
"""),
    ("class_user_exception_uncaught", """
class QuotaExceeded(Exception):
    pass
raise QuotaExceeded('used 12 of 10')
"""),
    ("class_exception_chaining", """
try:
    try:
        {}['a']
    except KeyError as e:
        raise ValueError('bad config') from e
except ValueError as e:
    print(repr(e), repr(e.__cause__), e.__context__ is e.__cause__)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise TypeError('while handling')
except TypeError as e:
    print(repr(e.__context__), e.__cause__)
"""),
    ("dataclass_basics", """
from dataclasses import dataclass, field, asdict
@dataclass
class Item:
    name: str
    price: float = 0.0
    tags: list = field(default_factory=list)
a = Item('pen', 1.5)
b = Item('pen', 1.5)
a.tags.append('blue')
print(a, a == b, Item('x').tags is Item('y').tags)
print(asdict(a))
"""),
    ("dataclass_order_frozen", """
from dataclasses import dataclass, FrozenInstanceError
@dataclass(order=True, frozen=True)
class Card:
    rank: int
    suit: str
cards = [Card(10, 'h'), Card(2, 's'), Card(10, 'c')]
print(sorted(cards))
print(hash(Card(1, 'a')) == hash(Card(1, 'a')), len({Card(1, 'a'), Card(1, 'a')}))
try:
    cards[0].rank = 3
except FrozenInstanceError as e:
    print(type(e).__name__, e)
"""),
    ("class_attribute_errors", """
class Box:
    def __init__(self):
        self.w = 1
b = Box()
print(getattr(b, 'w'), getattr(b, 'h', 'none'), hasattr(b, 'h'))
setattr(b, 'h', 2)
print(b.h, sorted(vars(b)))
b.depth
"""),
    ("class_getattr_fallback", """
class Rec:
    def __init__(self, **kw):
        self._d = kw
    def __getattr__(self, name):
        try:
            return self._d[name]
        except KeyError:
            raise AttributeError(name) from None
r = Rec(a=1, b='two')
print(r.a, r.b, hasattr(r, 'c'))
"""),
    ("class_bool_len", """
class Empty:
    def __len__(self):
        return 0
class Flag:
    def __init__(self, v):
        self.v = v
    def __bool__(self):
        return self.v
print(bool(Empty()), bool(Flag(True)), not Flag(False), 'yes' if Empty() else 'no')
print([x for x in [Flag(True), Flag(False), Empty()] if x].__len__())
"""),
    ("class_isinstance_types", """
print(isinstance(True, int), isinstance(3, (str, float)), isinstance(3.0, (str, float)))
print(type(3) is int, type('a').__name__, type([]) == list, type(None).__name__)
print(issubclass(bool, int), issubclass(KeyError, LookupError), issubclass(int, object))
class A: pass
class B(A): pass
print(isinstance(B(), A), type(B()) is A, B.__bases__[0].__name__, A.__name__)
"""),
    ("class_shared_mutable", """
class Reg:
    items = []
    count = 0
    def __init__(self, name):
        Reg.count += 1
        self.items.append(name)
Reg('a'); Reg('b')
print(Reg.count, Reg.items, Reg('c').items is Reg.items)
"""),
    ("class_init_missing_arg", """
class Pt:
    def __init__(self, x, y):
        self.x, self.y = x, y
Pt(1)
"""),
]

# Point 3: generators
GENERATORS = [
    ("gen_next_stopiteration", """
def squares(n):
    for i in range(n):
        yield i * i
g = squares(3)
print(next(g), next(g), next(g), next(g, 'done'))
try:
    next(g)
except StopIteration:
    print('stopped')
print(type(g).__name__, list(squares(5)))
"""),
    ("gen_yield_from", """
def inner():
    yield 1
    yield 2
    return 'inner result'
def outer():
    r = yield from inner()
    yield r
    yield from 'ab'
    yield from range(3, 5)
print(list(outer()))
"""),
    ("gen_lazy_genexp", """
log = []
def src():
    for i in range(5):
        log.append(i)
        yield i
g = (x * 10 for x in src())
print(log)
print(next(g), log)
print(list(g), log)
print(sum(x for x in range(101)), any(x > 3 for x in [1, 5]), all(x < 3 for x in []))
"""),
    ("gen_short_circuit", """
seen = []
def vals():
    for v in [1, 2, 30, 4, 50]:
        seen.append(v)
        yield v
print(any(v > 10 for v in vals()), seen)
"""),
    ("gen_send_return", """
def acc():
    total = 0
    while True:
        x = yield total
        if x is None:
            return total
        total += x
g = acc()
print(next(g), g.send(5), g.send(7))
try:
    next(g)
except StopIteration as e:
    print('returned', e.value)
"""),
    ("gen_finally_close", """
def res():
    try:
        yield 1
        yield 2
    finally:
        print('cleanup')
g = res()
print(next(g))
g.close()
print('closed')
for v in res():
    print('got', v)
"""),
    ("gen_iter_builtins", """
it = iter([1, 2, 3])
print(next(it), list(it), list(it))
print(list(zip('abc', range(10))), list(enumerate('xy', start=1)))
print(list(reversed([1, 2, 3])), list(map(str.upper, 'ab')), list(filter(None, [0, 1, '', 'a'])))
d = iter({'k': 1, 'j': 2})
print(next(d), next(d))
"""),
    ("gen_exhausted_raises", """
g = (c for c in 'x')
next(g)
next(g)
"""),
    ("gen_infinite_islice", """
import itertools
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
print(list(itertools.islice(fib(), 12)))
print(next(x for x in fib() if x > 1000))
"""),
    ("gen_in_class_and_pipeline", """
def read(lines):
    for ln in lines:
        yield ln.strip()
def nonempty(it):
    return (s for s in it if s)
def numbered(it):
    for i, s in enumerate(it, 1):
        yield f'{i}: {s}'
print(list(numbered(nonempty(read([' a ', '', 'b', '  ', 'c\\n'])))))
"""),
    ("gen_comprehension_scopes", """
x = 'outer'
r = [x for x in range(3)]
print(x, r, {k: v for k, v in zip('ab', [1, 2])}, {c for c in 'hello'} == set('helo'))
print([(i, j) for i in range(3) for j in range(i)])
"""),
]

# Point 4: numbers
NUMBERS = [
    ("int_big_powers", """
print(2 ** 100, 3 ** 50 % 1000, -(2 ** 70) // 3, (2 ** 64 - 1).bit_length())
print(pow(3, 200, 1000003), pow(7, -1, 13), pow(2, 10), pow(-2, 3), 10 ** 20 + 1)
"""),
    ("int_big_factorial", """
import math
f = math.factorial(30)
print(f, f % 1000007, len(str(math.factorial(100))), f // 10**20)
print(sum(int(d) for d in str(2 ** 1000)))
"""),
    ("int_floor_div_mod_signs", """
print(-7 // 2, -7 % 2, 7 // -2, 7 % -2, divmod(-7, 2), divmod(7, -2))
print(-7.5 // 2, -7.5 % 2, divmod(7.5, 2), int(-3.9), int(3.9), round(-2.5))
"""),
    ("int_conversions", """
print(int('ff', 16), int('0b101', 0), int(' 42 '), int('1_000'), hex(255), oct(8), bin(10))
print((1024).to_bytes(2, 'big'), int.from_bytes(b'\\x01\\x00', 'little'), (-5).bit_length())
print(f'{255:08b}', f'{255:x}', f'{1234567:,}', f'{-42:+d}', f'{7:03}')
"""),
    ("int_bad_literal", "int('4.2')\n"),
    ("float_basics", """
print(0.1 + 0.2, 1 / 3, 2 / 3 * 3, 1e16, 1e-5, 123456789.0 * 10, 1.0e300 * 1e10)
print(round(2.5), round(3.5), round(0.125, 2), round(1234.5678, -2), round(2.675, 2))
print(float('inf') - float('inf'), float('-inf'), 5 / 2, 2 ** -1, 7.0 // 2)
print((0.5).as_integer_ratio(), (3.0).is_integer(), float('1e3'), float(' -2.5 '))
"""),
    ("float_formatting", """
x = 3.14159265
print(f'{x:.2f} {x:10.3f}| {x:e} {x:.3e} {x:g} {1e-7:g} {x:%}')
print('%5.1f|%-6d|%s|%r|%x' % (x, 42, 'a', 'b', 255))
print(str(1e22), repr(1.5e-10), 100.0, 1e100, -0.0)
"""),
    ("float_zero_division", "print('before')\n1.0 / 0\n"),
    ("int_zero_division", """
for expr in ['1 // 0', '1 % 0', '1 / 0', '2.0 % 0', 'divmod(1, 0)']:
    try:
        eval(expr)
    except ZeroDivisionError as e:
        print(expr, '->', e)
"""),
    ("math_functions", """
import math
print(math.gcd(84, 36), math.lcm(4, 6), math.isqrt(99), math.comb(10, 3), math.perm(5, 2))
print(math.floor(-2.5), math.ceil(2.1), math.trunc(-2.7), math.sqrt(2), math.pi, math.e)
print(math.isclose(0.1 + 0.2, 0.3), math.hypot(3, 4), math.log(8, 2), math.log10(1000), math.exp(1))
print(math.sin(math.pi / 6), math.atan2(1, 1), math.degrees(math.pi), math.inf > 10**300)
print(math.fsum([0.1] * 10), sum([0.1] * 10), math.prod([1, 2, 3, 4]), math.copysign(1, -0.0))
"""),
    ("math_range_errors", """
import math
for f, a in [(math.exp, 1000), (math.sqrt, -1), (math.log, 0), (math.log, -1), (math.acos, 2),
             (math.pow, (10.0, 400)), (math.factorial, -1)]:
    try:
        f(*a) if isinstance(a, tuple) else f(a)
    except (ValueError, OverflowError) as e:
        print(f.__name__, type(e).__name__, e)
"""),
    ("math_exp_uncaught", "import math\nmath.exp(1000)\n"),
    ("float_overflow_pow", """
try:
    10.0 ** 400
except OverflowError as e:
    print(type(e).__name__, e.args)
try:
    float(10 ** 400)
except OverflowError as e:
    print(e)
print(len(str(10 ** 400)), 10 ** 400 > 1e308)
"""),
    ("complex_arith", """
a = 1 + 2j
b = 3 - 1j
print(a + b, a * b, a / b, a ** 2, -a, a.conjugate(), a.real, a.imag)
print(abs(3 + 4j), complex(1, -1), complex('2+3j'), 1j * 1j, a == complex(1, 2))
print(type(a).__name__, repr(0j), 2j, (1+0j) * 2, str(-1.5 - 0.5j))
"""),
    ("complex_cmath", """
import cmath, math
print(cmath.sqrt(-4), cmath.sqrt(-1), abs(cmath.exp(1j * math.pi) + 1) < 1e-15)
print(cmath.phase(-1), cmath.polar(1j), cmath.rect(2, 0), cmath.isclose(cmath.exp(0), 1))
print((-8) ** (1 / 3))
"""),
    ("complex_errors", """
for expr in ['(1+2j) / 0', '(1j) < (2j)', 'int(1j)', 'complex("x")', 'math.sqrt(-1+0j)']:
    try:
        import math
        eval(expr)
    except Exception as e:
        print(expr, type(e).__name__, e)
"""),
    ("numpy_complex_arrays", """
import numpy as np
z = np.array([1 + 2j, 3 - 1j])
print(z, z.dtype, z * 2, z.real, z.imag, np.abs(z))
print(z.conj(), z.sum(), z.astype(np.complex64).dtype, np.array([1, 2], dtype=np.complex64) + 1j)
print(np.sqrt(np.array([-4 + 0j])), z[0], type(z[0]).__name__)
"""),
    ("numpy_complex_promotion_printing", """
import numpy as np
a = np.array([1, 2], dtype=np.float32) * 1j
b = np.array([1.5 + 0.5j, -2 - 10j, 0.25j], dtype=np.complex64)
print(a.dtype, (np.arange(2, dtype=np.int32) + b[:2]).dtype, (b * 2.5).dtype, repr(b), b[1], repr(b[1]))
print(b / (1 - 1j), b - b, -b, b == b, b ** 2, np.abs(b).dtype, b.real.dtype)
print(np.mean(b), np.prod(np.array([1j, 1j, 2])), repr(np.array([1j, 1j, 2]).sum()))
z = np.zeros(2, dtype='c16'); z[0] = 3 - 4j; print(z, z.conj(), np.dtype('c8').kind, np.dtype('c8').itemsize)
for f in (np.floor, np.fmod):
    try:
        f(z) if f is np.floor else f(z, z)
    except TypeError as e:
        print(type(e).__name__, e)
"""),
    ("bool_int_arith", """
print(True + True, True * 10, sum([True, False, True]), int(True), -True, ~5, 5 & 3, 5 | 3, 5 ^ 3)
print(1 << 100, (1 << 100) >> 98, -1 >> 10, 0b1111 & ~0b11)
"""),
    ("int_shift_negative", "1 << -1\n"),
    ("str_ranges_splitlines", r"""
s = 'abcabc'
print(s.find('c', -2), s.find('', 6), s.find('', 7), s.find('b', 2), s.find('b', 1, 2), s.find('b', 0, -5), s.find('a', None, None), s.find('c', -100, 100))
print(s.rfind('a', 0, 3), s.rfind('b', -3), s.rfind('', 2, 4), s.index('c', 3), s.rindex('a', 1), s.count('b', 2), s.count('', 1), s.count('', 7), s.count('bc', -3, -1))
print(s.startswith('bc', 1), s.startswith('', 6), s.startswith('', 7), s.endswith('ab', 0, -3), s.endswith(('x', 'ca'), 0, 4), s.startswith(('c', 'b'), -5), 'héllo'.find('l', 3))
for call in [lambda: s.index('a', 1, 3), lambda: s.rindex('x'), lambda: s.find('a', 1.5), lambda: s.startswith(1), lambda: s.endswith(('a', 2))]:
    try:
        call()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
t = 'a\r\nb\rc\nd\x0be\x0cf\x1cg\x85h\u2028i\n\n'
print(t.splitlines(), t.splitlines(True), ''.splitlines(True), 'x\n'.splitlines(keepends=True), 'x'.splitlines(True))
"""),
]

# Point 1: function bodies and %timeit statements run compiled (interp/slots*.rs); each
# cell pins a rule of CPython's scoping or evaluation order that compiling must keep.
FUNCTION_BODIES = [
    ("fn_rebinding_a_called_global", """
def f(x):
    return x + 1
def g(x):
    return x * 10
def h(x):
    return -x
out = []
for i in range(4):
    out.append(f(i))
    if i == 1:
        f = g
print('loop', out)
def swap():
    global f
    f = h
def run():
    r = []
    for i in range(4):
        r.append(f(i))
        if i == 1:
            swap()
    return r
f = g
print('global', run())
r = []
for i in range(4):
    r.append(f(i))
    if i == 1:
        exec('def f(x): return x * 1000')
print('exec in a loop', r)
def run_exec():
    r = []
    for i in range(4):
        r.append(f(i))
        if i == 1:
            exec('global f\\ndef f(x): return x * 7')
    return r
print('exec global', run_exec())
def redefine():
    global f
    def f(x):
        return x * 100
def run_def():
    r = []
    for i in range(4):
        r.append(f(i))
        if i == 1:
            redefine()
    return r
f = h
print('def', run_def())
def forget():
    global f
    del f
def run_del():
    r = []
    for i in range(3):
        try:
            r.append(f(i))
        except NameError as e:
            r.append(str(e))
        if i == 0:
            forget()
    return r
print('del', run_del())
def len(x):
    return 'mine'
def run_shadow():
    return [len(x) for x in ('ab', 'c')]
print('shadow', run_shadow())
del len
print('unshadow', run_shadow())
def countdown(n):
    global countdown
    if n == 2:
        countdown = lambda n: ['replaced']
    return [n] if n == 0 else [n] + countdown(n - 1)
print('self', countdown(3), countdown(3))
"""),
    ("fn_rebinding_through_a_globals_dict", """
def f(x):
    return x + 1
def g(x):
    return x * 10
def run_globals():
    r = []
    for i in range(4):
        r.append(f(i))
        if i == 1:
            globals()['f'] = g
    return r
print('globals()', run_globals())
ns = {}
exec('def k(x): return x + 5', ns)
exec('def use(n): return [k(i) for i in range(n)]', ns)
print('other globals', ns['use'](3))
ns['k'] = lambda x: x - 5
print('other globals rebound', ns['use'](3))
"""),
    ("fn_user_hash_and_str_precision", """
class K:
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        print('hash', self.v)
        return hash(self.v)
    def __eq__(self, o):
        return isinstance(o, K) and o.v == self.v
class Bad:
    def __hash__(self):
        raise ValueError('no hash')
def f():
    d = {K(1): 'a'}
    print(d[K(1)], K(1) in d, len({K(2), K(2)}))
    for make in (lambda: {Bad(): 1}, lambda: set().add(Bad()), lambda: hash(Bad()), lambda: {}.get(Bad())):
        try:
            make()
        except ValueError as e:
            print('ValueError', e)
    s = 'txt'
    print(f'{s:.2}', f'{s:>5.1}', format('hello', '.3'), '{:.2}'.format('xyz'), f'{s:.0}|')
f()
import numpy as np
print(hash(np.float32(1.5)) == hash(1.5), hash(np.int64(-7)) == -7, hash(np.float64(0.1)) == hash(0.1), hash(np.uint64(2**63)) == hash(2**63), hash(np.bool_(True)), hash(np.complex64(1+2j)) == hash(1+2j))
"""),
    ("fn_unbound_and_deleted_locals", """
def reads_first(flag):
    if flag:
        v = 1
    return v
def deletes():
    del w
for call in (lambda: reads_first(True), lambda: reads_first(False), deletes):
    try:
        print(call())
    except NameError as e:
        print(type(e).__name__, e)
"""),
    ("fn_comprehension_scopes", """
def scopes(x):
    i = 'outer'
    a = [i * 2 for i in range(3)]
    b = [(i, j) for i in range(3) for j in range(i, 3) if j != 1]
    c = {k: [k * m for m in range(2)] for k in 'ab'}
    s = {n % 3 for n in range(10)}
    x = [x for x in x]
    return i, a, b, c, s, x
print(scopes([3, 4]))
"""),
    ("fn_walrus_unpack_loops", """
def shapes(rows):
    out = []
    for k, (name, *dims) in enumerate(rows):
        if (n := len(dims)) > 1:
            out.append((k, name, n, dims))
        else:
            continue
    first, *_, last = range(5)
    a = b = [first, last]
    a += [0]
    i = 0
    while i < 10:
        i += 3
        if i == 9:
            break
    else:
        i = -1
    return out, a, b, i, n
print(shapes([('p', 1), ('q', 2, 3), ('r', 4, 5, 6)]))
"""),
    ("fn_exec_eval_locals_snapshot", """
def snap():
    x = 1
    exec('x = 2')
    y = eval('x + 10')
    return x, y, sorted(locals())
print(snap())
"""),
    ("fn_globals_and_defaults", """
counter = 0
def bump(by=1, *rest, scale=2, **extra):
    global counter
    counter += by * scale
    return counter, rest, extra
print(bump(), bump(3, 4, 5, scale=1, tag='t'), counter)
try:
    bump(scale=1, by=2, oops=3, by2=4)
    bump(1, by=2)
except TypeError as e:
    print(e)
"""),
    ("fn_evaluation_order", """
def order():
    log = []
    def note(x):
        log.append(x)
        return x
    d = {note('k1'): note('v1'), note('k2'): note('v2')}
    t = (note(1), note(2)) < (note(3),)
    z = note('f') if note(0) else note('g')
    return log, d, t, z
print(order())
"""),
    ("fn_closure_and_dict_change", """
def outer():
    def inner():
        return v * 2
    v = 21
    return inner()
def grows():
    d = {1: 1}
    for k in d:
        d[k + 1] = 0
print(outer())
try:
    grows()
except RuntimeError as e:
    print(e)
"""),
    ("timeit_names_stay_local", """
acc = []
%timeit -q -n 2 -r 1 zz = acc.append(len(acc))
print('zz' in globals(), acc)
"""),
    ("timeit_locals_fresh_each_repeat", """
seen = []
%timeit -q -n 2 -r 3 c = locals().get('c', -1) + 1; seen.append(c)
print(seen)
"""),
    ("fn_generator_expressions", """
def gen(xs, k):
    a = sum(x * x for x in xs)
    b = list(x for x in range(5) if x % 2)
    c = max((len(w), w) for w in ['aa', 'b', 'ccc'])
    d = sum(x * k for x in xs)
    e = (y for y in range(3))
    return a, b, c, d, next(e), list(e), type(e).__name__
print(gen([1, 2, 3], 10))
g3 = (i for i in range(3))
try:
    g3.send(1)
except TypeError as e:
    print(e)
g3.close()
print(list(g3), sum(i * i for i in range(1000)))
def lazy_error():
    it = (1 / x for x in [1, 0])
    print(next(it))
    return list(it)
lazy_error()
"""),
    ("fn_try_with_reraise", """
class Quiet:
    def __enter__(self):
        print('enter')
        return 5
    def __exit__(self, *a):
        print('exit', a[0].__name__ if a[0] else None)
        return True
def handlers():
    try:
        1 / 0
    except ZeroDivisionError as e:
        r = repr(e)
    try:
        print(e)
    except NameError as e2:
        print(e2)
    try:
        try:
            raise ValueError('a')
        except ValueError:
            raise
    except ValueError as e3:
        r += str(e3.args)
    finally:
        print('finally')
    with Quiet() as v:
        print(v)
        raise KeyError(1)
    return r
print(handlers())
"""),
    ("fn_dict_table", """
def table():
    d = {}
    for i in range(-50, 3000):
        d[i] = i * 2
    for i in range(0, 3000, 3):
        del d[i]
    for i in range(0, 60, 3):
        d[i] = 'back'
    d[1.0] = 'one'
    d[True] = 'true'
    d[-1] = 'm1'
    d[-2] = 'm2'
    d[2**62] = 'big'
    d[2**64] = 'huge'
    d[float(2**64)] = 'huge-f'
    keys = list(d)
    print(len(d), keys[:5], keys[-25:], d[1], type(keys[keys.index(1)]).__name__)
    print(hash(-1), hash(-2), d[-1], d[-2], -1.0 in d, 2.0**62 in d, d[2**64])
    print(d.popitem(), d.popitem(), len(d), sum(k for k in d if isinstance(k, int)))
    e = {(1, 'a'): 1, (1.0, 'a'): 2, 'x': 3, b'x': 4, None: 5, 0.5: 6, 1 + 0j: 7, (): 8}
    print(e)
    s = {}
    for w in ['b', 'a', 'b', 'c', 'a']:
        s[w] = s.get(w, 0) + 1
    print(s, list(s.items()))
table()
"""),
    ("fn_dict_user_keys", """
calls = []
class K:
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        calls.append(('hash', self.v))
        return hash(self.v)
    def __eq__(self, other):
        calls.append(('eq', self.v))
        return isinstance(other, K) and self.v == other.v
class Shifty:
    def __hash__(self):
        return 1
    def __eq__(self, other):
        d.clear()
        return False
def run():
    d = {}
    d[K(1)] = 'a'
    d[K(1)] = 'b'
    d[1] = 'int'
    for i in range(20):
        d[i] = i
    print(len(d), d[K(1)], d[1])
    try:
        d[[1]] = 2
    except TypeError as e:
        print('TypeError', e)
    try:
        for k in d:
            d[k, 1] = 0
    except RuntimeError as e:
        print('RuntimeError', e)
    return ('eq', 1) in calls
print(run())
d = {}
d[Shifty()] = 1
d[Shifty()] = 2
print(len(d))
"""),
    ("fn_set_table", """
def sets():
    t = set()
    for i in range(-20, 2000):
        t.add(i)
    for i in range(0, 2000, 2):
        t.discard(i)
    t.add(1.0)
    t.add(True)
    t.add(-1)
    t.add(-2)
    t.add('s')
    t.add((1, 2))
    print(len(t), sorted(x for x in t if isinstance(x, int))[:8], type(next(x for x in t if x == 1)).__name__)
    print(1.0 in t, 2 in t, 3 in t, -2 in t, (1.0, 2) in t, 's' in t)
    try:
        t.add({})
    except TypeError as e:
        print(e)
    u = {1, 2, 3}
    try:
        for x in u:
            u.add(x + 10)
    except RuntimeError as e:
        print(e)
sets()
"""),
    ("fn_fstring_numbers", """
def fs():
    out = []
    for x in [0.125, 0.375, 2.5, 1.5, 0.5, -2.5, 4503599627370495.5, 0.005, -0.0, -1e-10, 1e20, 123.456, -7.005, float('nan'), float('-inf'), 1e300]:
        out.append(f'{x:.2f}|{x:.0f}|{x:.10f}|{x}')
    for i in [0, -1, 7, 2**62, -2**63, True, 2**70]:
        out.append(f'{i} {i:.2f} {i * 0.5:.2f}')
    s = 'txt'
    out.append(f'{s}{s!r}{None}{1.5}')
    return out
for line in fs():
    print(line)
"""),
    ("module_loops_and_fstrings", """
total = 0
for i in range(10):
    total += i
    if i == 5:
        break
else:
    total = -1
print(total, i)
while total > 0:
    total -= 4
def fs(x):
    return f'{x:.2f} {x!r:>8} {x=} {"q"}'
print(total, [f'{j:>3}|{j!r}|{j=}' for j in range(2)], fs(2.5))
"""),
    ("fn_calls_see_rebinding_and_locate_errors", """
def f(x):
    return x + 1
def g(x):
    return x * 10
out = []
for i in range(4):
    out.append(f(i))
    if i == 1:
        f = g
print(out)
def step(i):
    return i
def caller(n):
    r = []
    for i in range(n):
        r.append(step(i))
    return r
print(caller(3))
def step(i):
    return -i
print(caller(3))
h = lambda a, b: a - b
print(h(5, 2), [h(i, 1) for i in range(3)])
def inv(x):
    return 1 / x
def uses_missing():
    return missing(1)
for call in (lambda: inv(2), lambda: inv(0), uses_missing, lambda: f(1, 2), lambda: h(1)):
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, e)
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print(depth(900))
"""),
    ("fn_sum_folds_generators", """
print(sum(i * i for i in range(1000)), sum((x / 2 for x in range(5)), 0.5), sum(x for x in []))
big = 2 ** 62
print(sum(big for _ in range(4)), sum(x for x in [big, big, -big]), sum(-big for _ in range(3)))
print(sum([[1], [2]], []), sum(range(10), 5), sum((1, 2.5, True)), sum(iter([1, 2]), start=3))
def gf():
    yield 1
    yield 2.5
print(sum(gf()), sum(x for x in gf()))
class Skip:
    def __radd__(self, other):
        return other + next(gen)
gen = (Skip() if i == 1 else i for i in range(6))
print(sum(gen))
bad = (x for x in [1, 'a', 3, 4])
try:
    sum(bad)
except TypeError as e:
    print(e)
print(list(bad))
fails = (1 / x for x in [1, 0, 2])
try:
    sum(fails)
except ZeroDivisionError as e:
    print(e)
print(list(fails))
"""),
    ("fn_append_and_add_paths", """
from collections import deque
def fill(n):
    l = []
    s = set()
    for i in range(n):
        l.append(i)
        s.add(i % 3)
    l.append(len(l))
    return l, s
print(fill(5))
def others(d, t):
    d.append(1)
    d.append(d[0] + 1)
    t.append(3)
def appends_unbound():
    xs.append(1)
    xs = []
def appends_unbound_item():
    l = []
    l.append(y)
    y = 1
def adds_unhashable():
    s = set()
    s.add([])
d = deque()
for call in (lambda: others(d, (1,)), appends_unbound, appends_unbound_item, adds_unhashable):
    try:
        call()
    except Exception as e:
        print(type(e).__name__, e)
print(d)
l2 = []
l2.append(l2)
print(l2)
"""),
]
