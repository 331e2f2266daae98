"""Cells of tests/python/test_cpython_parity.py about builtins nbcuda implements in Rust:
`frozenset`, `bytearray`, `__slots__` (and `@dataclass(slots=True, kw_only=True)`), traceback
objects, `float`/`int` conversions, `sys.float_info`, `time`, `hashlib`, `warnings` and
`functools` (issue 16)."""

BUILTINS2 = [
    ("frozenset_build_hash_compare", """
fs = frozenset([1, 2, 3])
print(fs, frozenset(), repr(frozenset('aab')) in ("frozenset({'a', 'b'})", "frozenset({'b', 'a'})"), len(fs), 2 in fs, 9 in fs)
print(hash(frozenset()), hash(frozenset()) == 133146708735736, hash(frozenset([1, 2, 3])) == hash(frozenset([3, 2, 1])))
print(hash(frozenset([1, 2, 3])), hash(frozenset(['a'])) == hash(frozenset(['a'])), hash(frozenset([frozenset([1])])))
print(type(fs).__name__, type(fs), isinstance(fs, frozenset), isinstance(fs, set), isinstance({1}, frozenset))
print(fs == {1, 2, 3}, {1, 2, 3} == fs, fs != {1}, fs == frozenset([3, 2, 1]))
print(sorted(fs), list(iter(frozenset([5]))), bool(frozenset()), bool(fs))
"""),
    ("frozenset_operators_follow_left_operand", """
fs = frozenset([1, 2, 3])
s = {3, 4}
for r in (fs | s, s | fs, fs & s, s & fs, fs - s, s - fs, fs ^ s, s ^ fs):
    print(type(r).__name__, sorted(r))
print(fs <= {1, 2, 3, 4}, fs < fs, {1} < fs, fs >= {1}, fs > frozenset())
print(type(fs.union([7])).__name__, sorted(fs.union([7], (8,))), sorted(fs.intersection({1, 2})), sorted(fs.difference({1})))
print(sorted(fs.symmetric_difference({1, 9})), fs.issubset(range(5)), fs.issuperset([1]), fs.isdisjoint({7}), fs.copy() is fs)
print(type(set(fs)).__name__, frozenset(fs) is fs, sorted({1, 2}.union(fs)))
"""),
    ("frozenset_as_key_and_errors", """
d = {frozenset({1, 2}): 'a'}
print(d[frozenset([2, 1])], frozenset([1, 2]) in d, {frozenset(), frozenset()} == {frozenset()})
s = {frozenset([1]), frozenset([1]), frozenset([2])}
print(len(s))
try:
    fs = frozenset([1]); fs.add(2)
except AttributeError as e:
    print("AE", e)
try:
    frozenset([[1]])
except TypeError as e:
    print("TE", e)
try:
    frozenset(1, 2)
except TypeError as e:
    print("TE", e)
"""),
    ("bytearray_build_and_read", """
b = bytearray(b"abc"); b[0] = 65; b.append(66); print(b, bytes(b), len(b), b.decode())
print(bytearray(), bytearray(3), bytearray([1, 2, 255]), bytearray("hé", "utf-8"), bytearray(b"x") == b"x", b"x" == bytearray(b"x"))
print(type(b).__name__, isinstance(b, bytearray), isinstance(b, bytes), b.hex(), list(b), b[1], b[-1], b[1:3], type(b[1:3]).__name__)
"""),
    ("bytearray_mutators", """
b = bytearray(b"hello")
b[1:3] = b"EY"; print(b)
b[0:1] = [72, 73]; print(b)
del b[0]; print(b)
b.extend(b"!!"); b.extend([63]); print(b)
print(b.pop(), b.pop(0), b)
b.insert(0, 104); b.insert(-1, 46); b.insert(100, 33); print(b)
b.remove(46); b.reverse(); print(b)
c = b.copy(); b.clear(); print(b, c, len(c))
c += b"xyz"; print(c)
d = c; d += b"Q"; print(c is d, c)
print(c + b"1", type(c + b"1").__name__, type(b"1" + c).__name__, c * 2, 120 in c, b"yz" in c, b"zz" in c, c.count(b"x"))
"""),
    ("bytearray_errors", """
b = bytearray(b"ab")
for bad in (lambda: b.append(-1), lambda: hash(b), lambda: {b: 1}, lambda: b.remove(99), lambda: bytearray().pop(), lambda: b[5], lambda: bytearray("x")):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
"""),
    ("bytearray_huge_and_negative_sizes", """
try:
    bytearray(10**12)
except MemoryError as e:
    print("MemoryError")
try:
    bytearray(-1)
except ValueError as e:
    print("ValueError", e)
"""),
    ("slots_limit_instance_attributes", """
class A:
    __slots__ = ('x',)
    def __init__(self): self.x = 1
    def f(self): return 1
a = A()
try:
    a.y = 2
except AttributeError as e:
    print('AE', e)
try:
    a.__dict__
except AttributeError as e:
    print('AE', e)
try:
    a.f = 3
except AttributeError as e:
    print('AE', e)
print(A.__slots__, a.x)
class B(A):
    pass
b = B(); b.y = 2; print(b.__dict__, b.x)
class C(A):
    __slots__ = ['z']
c = C(); c.x = 5; c.z = 6; print(c.x, c.z)
try:
    c.w = 1
except AttributeError as e:
    print('AE', e)
class D:
    __slots__ = 'only'
d = D(); d.only = 1
try:
    d.other = 1
except AttributeError as e:
    print('AE', e)
class E:
    __slots__ = ('a', '__dict__')
e = E(); e.b = 2; print(e.__dict__)
"""),
    ("dataclass_slots_and_kw_only", """
from dataclasses import dataclass
@dataclass(slots=True)
class S:
    a: int
    b: int = 2
s = S(1)
print(S(1), S.__slots__, s.a, s.b)
try:
    s.c = 3
except AttributeError as e:
    print("AE", e)
@dataclass(kw_only=True)
class K:
    a: int
    b: int = 2
print(K(a=1), K(b=3, a=4))
try:
    K(1)
except TypeError as e:
    print("TE", e)
"""),
    ("with_exit_gets_a_traceback", """
class CM:
    def __enter__(self): return self
    def __exit__(self, t, v, tb):
        print(t.__name__, v, tb is None, type(tb).__name__, tb.tb_lineno, tb.tb_next is None, tb.tb_frame.f_code.co_name)
        return True
with CM():
    x = 1
    raise KeyError("x")
print("after")
"""),
    ("exception_traceback_chain", """
def inner():
    return 1 / 0
def outer():
    return inner()
try:
    outer()
except ZeroDivisionError as e:
    tb = e.__traceback__
    lines = []
    while tb is not None:
        lines.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
        tb = tb.tb_next
    print(type(e.__traceback__).__name__, lines)
"""),
    ("sys_float_int_hash_info", """
import sys
print(sys.float_info)
print(sys.float_info.max, sys.float_info.epsilon, sys.float_info.dig, sys.float_info.mant_dig, sys.float_info[0], len(sys.float_info), sys.float_info.min)
print(sys.int_info, sys.hash_info.modulus, sys.hash_info.inf, sys.hash_info[5], type(sys.float_info).__name__)
print(tuple(sys.int_info), sys.int_info == (30, 4, 4300, 640), sys.int_info.bits_per_digit)
"""),
    ("float_hex_fromhex_int_bytes", """
print((3.5).as_integer_ratio(), (0.1).hex(), (1.0).hex(), (-2.5).hex(), (0.0).hex(), (-0.0).hex(), (5e-324).hex(), float('inf').hex(), (1e308).hex())
print(float.fromhex('0x1p-2'), float.fromhex('0x1.999999999999ap-4'), float.fromhex('-0x1.8p1'), float.fromhex(' 0x10 '), float.fromhex('inf'), float.fromhex('0x.8p0'), float.fromhex('1.8p1'))
print(int.from_bytes(b'\\xff\\xfe', 'big', signed=True), int.from_bytes(b'\\x01\\x00', 'little'), (258).to_bytes(2, 'big'), (-2).to_bytes(2, 'big', signed=True), (-1).to_bytes(1, 'little', signed=True))
try:
    (-1).to_bytes(2, 'big')
except OverflowError as e:
    print("OE", e)
try:
    float.fromhex('zz')
except ValueError as e:
    print("VE", e)
"""),
    ("functools_cmp_to_key_repr", """
import functools
k = functools.cmp_to_key(lambda a, b: a - b)
print(repr(k).startswith('<functools.KeyWrapper object at 0x'), callable(k), sorted([3, 1, 2], key=k), sorted(['bb', 'a', 'ccc'], key=functools.cmp_to_key(lambda x, y: len(y) - len(x))), k(1) < k(2))
"""),
    ("time_calendar_functions", """
import time
for s in (0, 86399, 951782400, 1709251199.9, -1, -86401, 4102444800, 1e12):
    print(tuple(time.gmtime(s)), time.strftime("%Y-%m-%d %H:%M:%S %a %A %b %B %j %U %W %w %u %y %I %p %e %C %D %F %T %R %%", time.gmtime(s)))
g = time.gmtime(1234567890)
print(g, g.tm_year, g[0], g[-1], len(g), g.tm_zone, g.tm_gmtoff, g.n_sequence_fields, g.n_fields, list(g)[:3])
print(time.asctime(g), time.strftime("%c|%x|%X", g), time.asctime((2024, 2, 29, 13, 5, 9, 3, 60, 0)))
print(time.mktime(time.localtime(1234567890)), time.strftime("%Y", (2024, 1, 1, 0, 0, 0, 0, 1, 0)), type(time.time()).__name__)
for bad in ((1, 2), "x"):
    try:
        time.strftime("%Y", bad)
    except TypeError as e:
        print("TypeError", e)
try:
    time.gmtime(1e20)
except OverflowError as e:
    print("OverflowError", e)
"""),
]
