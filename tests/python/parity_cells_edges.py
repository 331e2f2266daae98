"""Cells of tests/python/test_cpython_parity.py: CPython's edges (errors by name, recursion,
indentation, identity, hashing, dict and set behaviour, call binding) and NumPy's integer
edges (matrix products, casts to float32). Each entry is (short name, source); the expected
output is whatever CPython prints for it in the same test run."""

# Point 8: CPython's edges
EDGES = [
    ("recursion_error", """
def down(n):
    return down(n + 1)
try:
    down(0)
except RecursionError as e:
    print(type(e).__name__, isinstance(e, RuntimeError), e)
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print(depth(800))
"""),
    ("recursion_uncaught", "def f():\n    return f()\nf()\n"),
    ("indentation_expected_block", "def f():\nreturn 1\n"),
    ("indentation_unexpected", "x = 1\n    y = 2\n"),
    ("indentation_after_comment", "for x in range(3):\n# a comment\n\nprint(x)\n"),
    ("indentation_after_except", "try:\n    pass\nexcept ValueError:\nx = 1\n"),
    ("indentation_after_class", "class K:\n\ndef m(self):\n    pass\n"),
    ("indentation_unindent", "if True:\n        a = 1\n    b = 2\n"),
    ("indentation_compile", """
for src in ['if x:\\npass', '  x = 1', 'for i in y:\\n    a\\n  b', 'x = (1,']:
    try:
        compile(src, '<src>', 'exec')
    except SyntaxError as e:
        print(type(e).__name__, e.msg, e.lineno)
"""),
    ("syntax_error", "x = = 2\n"),
    ("bare_raise_in_stmt_list", """
def risky():
    try:
        int('nope')
    except ValueError:
        print('logging it'); raise
try:
    risky()
except ValueError as e:
    print('re-raised:', e)
try:
    x = 1; raise KeyError('inline')
except KeyError as e:
    print('got', repr(e))
"""),
    ("bare_raise_no_active", "raise\n"),
    ("dict_changed_during_iteration", """
d = {'a': 1, 'b': 2}
try:
    for k in d:
        d[k + k] = 0
except RuntimeError as e:
    print('RuntimeError:', e)
s = {1, 2}
try:
    for v in s:
        s.add(v + 10)
except RuntimeError as e:
    print('RuntimeError:', e)
d = {'a': 1}
for k in d:
    d[k] = 5
print(d)
"""),
    ("list_mutated_during_iteration", """
xs = [1, 2, 3, 4]
for x in xs:
    if x % 2 == 0:
        xs.remove(x)
print(xs)
"""),
    ("nan_identity", """
nan = float('nan')
print(nan == nan, nan is nan, [nan] == [nan], nan in [nan], (nan,) == (nan,), {nan: 1}[nan])
print(nan != nan, sorted([3, 1]) == [1, 3], nan in {nan}, {nan: 2}.get(nan), [nan].index(nan), [nan, 1].count(nan))
import math
from collections import deque
print(math.isnan(nan), [math.nan] == [math.nan], math.nan is math.nan, len({nan, nan}), deque([nan]).count(nan))
x = complex(nan, 1)
print(x is x, [x] == [x], x == x)
"""),
    ("nan_distinct_objects", """
print([float('nan')] == [float('nan')], float('nan') in [float('nan')])
"""),
    ("format_single_brace", "'{'.format(1)\n"),
    ("format_errors", """
for f in ["'}'.format(1)", "'{0} {1}'.format(1)", "'{x}'.format(y=1)", "'{:d}'.format(1.5)", "'%d %d' % (1,)"]:
    try:
        eval(f)
    except Exception as e:
        print(f, type(e).__name__, e)
"""),
    ("pow_mod_zero", "pow(2, 3, 0)\n"),
    ("pow_edge_cases", """
for args in [(2, 3, 5), (2, -1, 4), (0, 0), (0.0, -1), (-8, 1 / 3, None)]:
    try:
        print(args, pow(*[a for a in args if a is not None]))
    except Exception as e:
        print(args, type(e).__name__, e)
"""),
    ("hash_numbers", """
print(hash(2) == 2, hash(2), hash(-1), hash(-2), hash(2.0), hash(0.5), hash(2 ** 61), hash(2 ** 61 - 1))
print(hash(True), hash(10 ** 30), hash(1.5e300), hash(float('inf')), hash(complex(1, 0)), hash((1, 2)))
print(hash(2) == hash(2.0) == hash(2 + 0j), {1: 'a', 1.0: 'b', True: 'c'})
"""),
    ("unhashable", "{[1, 2]: 3}\n"),
    ("name_errors", """
def g():
    print(y)
    y = 1
try:
    g()
except UnboundLocalError as e:
    print(type(e).__name__, e, isinstance(e, NameError))
try:
    undefined_thing
except NameError as e:
    print(e)
"""),
    ("type_errors", """
for expr in ["'a' + 1", "1 + 'a'", "None()", "len(5)", "[1][0][0]", "'abc'[1] = 'x'", "sum(['a'])", "int(None)", "abs('x')", "[] < 1"]:
    try:
        exec(expr)
    except TypeError as e:
        print(expr, '->', e)
"""),
    ("lookup_errors", """
for expr in ["[1][5]", "{'a': 1}['b']", "'abc'[10]", "(1,).index(2)", "[].pop()", "{}.popitem()", "'abc'.index('z')"]:
    try:
        exec(expr)
    except Exception as e:
        print(expr, type(e).__name__, e)
"""),
    ("call_errors", """
def f(a, b=2, *, c):
    return a
for call in ['f()', 'f(1)', 'f(1, 2, 3, c=4)', 'f(1, c=2, d=3)', 'f(1, a=1, c=3)']:
    try:
        eval(call)
    except TypeError as e:
        print(call, '->', e)
"""),
    ("attribute_error_builtin", "[].push(1)\n"),
    ("key_error_uncaught", "{'a': 1}['missing']\n"),
    ("assert_and_finally", """
def check(x):
    try:
        assert x > 0, f'x must be positive, got {x}'
        return 'ok'
    finally:
        print('checked', x)
print(check(1))
check(-1)
"""),
    ("walrus_and_unpacking", """
data = [1, 2, 3, 4, 5]
if (n := len(data)) > 3:
    print('long', n)
first, *mid, last = data
print(first, mid, last, [*data[:2], *'ab'], {**{'a': 1}, 'b': 2})
try:
    a, b = [1, 2, 3]
except ValueError as e:
    print(e)
try:
    a, b, c = [1]
except ValueError as e:
    print(e)
"""),
    ("sorting_stability", """
people = [('bob', 25), ('al', 30), ('cy', 25), ('di', 30)]
print(sorted(people, key=lambda p: p[1]), sorted(people, key=lambda p: -p[1]))
print(sorted('bAc', key=str.lower), sorted([3, 1, 2], reverse=True), min([], default=None), max('ab', 'c'))
xs = [5, 2, 9]
xs.sort()
print(xs, sorted({3: 'a', 1: 'b'}), list(reversed(sorted('cab'))))
"""),
    ("dict_keys_equal_across_types", """
d = {}
d[1] = 'int'; d[1.0] = 'float'; d[True] = 'bool'
print(d, len(d))
d[0] = 'zero'; d[False] = 'f'; d[0.0] = 'z'; d[-0.0] = 'nz'
d[2**100] = 'big'; d[float(2**100)] = 'bigf'; d[2**64] = 'b64'; d[-2**63] = 'min'
print(d[2**100], d[2.0**64], d[-2**63], len(d))
d[(1, 2.0)] = 't'; d[(1.0, 2)] = 't2'; d[1+0j] = 'c'; d[2.5] = 'x'; d['1'] = 's'; d[b'1'] = 'b'
print(d)
print({i: i for i in range(5)} == {float(i): i for i in range(5)}, 3 in {3.0: 0}, 2**70 in {2**70: 0})
"""),
    ("dict_user_hash_eq_keys", """
class K:
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        return hash(self.v)
    def __eq__(self, o):
        return (isinstance(o, K) and self.v == o.v) or o == self.v
    def __repr__(self):
        return f'K({self.v})'
d = {1: 'a', K(2): 'b'}
d[K(1)] = 'c'
d[2] = 'd'
d[3] = 'e'
print(d, d[K(3)], K(2) in d, 2.0 in d)
s = {K(3), 3, K(4)}
s.add(4.0)
print(len(s), 3 in s)
class Unh:
    __hash__ = None
for bad in (Unh(), [1], {2}, {3: 4}):
    try:
        d[bad] = 1
    except TypeError as e:
        print(e)
try:
    {1}.add([2])
except TypeError as e:
    print(e)
"""),
    ("dict_user_hash_builtin_keys", """
class Like:
    # Hashes and compares as the builtin value it wraps: CPython files it with that value.
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        return hash(self.v)
    def __eq__(self, o):
        return self.v == (o.v if isinstance(o, Like) else o)
    def __repr__(self):
        return f'Like({self.v!r})'
for v in ('spam', '', 1.5, (1, 2), ('a', (2.5, None)), -1, 2 ** 61, 2 ** 70, 1 + 2j, None, b'xy', True, 0.1):
    d = {Like(v): 'obj'}
    e = {v: 'plain'}
    s = {Like(v)}
    t = {v}
    print(repr(v), v in d, d.get(v), Like(v) in e, e.get(Like(v)), v in s, Like(v) in t,
          hash(Like(v)) == hash(v), len({v, Like(v)}))
d = {'spam': 1}
d[Like('spam')] = 2
print(d, len(d))
class Big:
    def __init__(self, h):
        self.h = h
    def __hash__(self):
        return self.h
for h in (-1, 2 ** 61, 2 ** 64, -2 ** 63, 2 ** 100, True):
    print(h, hash(Big(h)))
print(hash(-1) == -2, hash(-2), hash(2 ** 61), hash(2 ** 61 - 2), hash(-2 ** 61), hash(2 ** 63))
print(hash(1.0) == hash(1) == hash(True) == hash(1 + 0j), hash(0.5), hash(-0.5), hash(1e-300), hash(0.1))
print(hash((1, 2)), hash(()), hash((1,)), hash((-1, -2)), hash(((1, 2), 3.5)), hash((True, None)) == hash((1, None)))
print({1: 'a', 1.0: 'b', True: 'c'}, {True: 'c', 1: 'a'}, {1.0: 0, 1: 1})
print({1, 1.0, True}, {True, 1, 1.0}, {1.0, True, 1}, {0, 0.0, False, -0.0}, len({1, 1.0, True, 2, 2.0}))
print(hash('abc') == hash('abc'), hash('') == hash(''), hash(b'ab') == hash(b'ab'), hash(None) == hash(None))
"""),
    ("dict_probe_key_hashability", """
d = {'a': 1, (1, 'b'): 2}
for k in ([1], {2: 3}, {4}, ('x', [5])):
    for op in (lambda: k in d, lambda: d.get(k), lambda: d.pop(k, 0), lambda: d.setdefault(k, 0)):
        try:
            print(op())
        except TypeError as e:
            print('TypeError', e)
print('a' in d, d.get('a'), (1, 'b') in d, d.get((1, 'b')), d.pop('zz', 9))
"""),
    ("dict_delete_reinsert_order", """
d = dict.fromkeys(range(20))
for k in range(0, 20, 2):
    del d[k]
d[4] = 'back'
d[1] = 'one'
print(list(d), d[1])
for i in range(100):
    d[i] = i
for i in range(0, 100, 3):
    del d[i]
d[0] = 'z'
print(list(d)[:10], list(d)[-3:], len(d))
d.pop(5)
d[5] = 'five'
print(list(d)[-2:], d.popitem(), len(d))
e = {1: 1, 2: 2}
try:
    for k in e:
        e[k + 10] = 0
except RuntimeError as err:
    print(err)
e = {1: 1, 2: 2}
for k in e:
    e[k] = 5
print(e)
"""),
    ("set_add_equal_keys_and_operators", """
s = set()
for i in [3, 1.0, True, 2, 2.0, 3+0j, 10**20, 1e20, 'a', (1, 2), (1.0, 2.0)]:
    s.add(i)
print(len(s), sorted(map(repr, s)))
a = {1, 2, 3, 4}
b = {3, 4, 5}
print(sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b), a <= {1, 2, 3, 4, 5}, {1.0} == {True})
t = {1, 2, 3}
t.discard(2)
t.add(2)
t.remove(1)
print(sorted(t), 2 in t, 2.0 in t, {x % 4 for x in range(10)} == {0, 1, 2, 3})
"""),
    ("range_elements_at_the_ends_of_int64", """
r = range(-2**63, 2**63 - 1, 2**63 - 1)
print([x for x in r], list(r), r[2], r[-1], len(r))
for x in range(2**63 - 1, -2**63, -(2**63 - 1)):
    print(x)
"""),
    ("set_intersection_keeps_the_walked_sides_elements", """
def show(s):
    return sorted((type(x).__name__, x) for x in s)
print(show({1, 2, 3, 4} & {3, 4.0, 5}), show({3, 4.0, 5} & {1, 2, 3, 4}), show({3.0} & {3}))
print(show({1, 2, 3, 4}.intersection([4.0, 3, 3.0, 9])), show({1.0, 2.0}.intersection({2}, (1, 2))))
"""),
    ("comprehensions_and_call_binding", """
print({k % 3: k for k in range(10)}, {(i, j): i * j for i in range(3) for j in range(i) if j})
print([i * j for i in range(4) if i for j in range(i)], [i for i in range(10, 0, -3)], [i for i in range(0)])
def f(a, b):
    return a - b
print(f(5, 3), f(b=1, a=4), f(*[9, 2]))
for args in [(1,), (1, 2, 3)]:
    try:
        f(*args)
    except TypeError as e:
        print(e)
def g(a, /, b=2, *c, d, **e):
    return a, b, c, d, e
print(g(1, d=4), g(1, 2, 3, d=4, z=5))
class A:
    def who(self):
        return 'A'
class B(A):
    def who(self):
        return 'B' + super().who()
print(B().who())
"""),
    ("np_integer_matmul_wraps_exactly_past_2_53", """
import numpy as np
a = np.array([[2**53 + 1, 3], [5, 7]], dtype=np.int64)
b = np.array([[1, 1], [1, 2**62]], dtype=np.int64)
print(a @ b, np.dot(a, b).dtype)
print(np.dot(a[0], a[1]), np.matmul(np.stack([a, a]), b)[1].tolist())
print(np.dot(np.array([2**62, 2**62]), np.array([4, 4])), np.matmul(np.array([2**62 + 1]), np.array([3])))
print(np.array([200, 100], dtype=np.uint8) @ np.array([2, 1], dtype=np.uint8), np.array([[100]], dtype=np.int8) @ np.array([[3]], dtype=np.int8))
print((np.array([[True, False]]) @ np.array([[True], [True]])).tolist(), np.dot(np.array([False, True]), np.array([True, False])))
print(np.array([1j, 2]) @ np.array([1j, 3]), np.dot(np.array([[1 + 2j]]), np.array([[3 - 1j]])))
print(np.arange(6, dtype=np.uint64).reshape(2, 3) @ np.full(3, 2**63, dtype=np.uint64))
"""),
    ("np_int64_to_float32_rounds_once", """
import numpy as np
x = np.array([2**60 + 2**36 + 1, 2**63 - 1, -(2**62) - 2**38 - 1, 2**24 + 1])
print(x.astype(np.float32).tolist(), np.array([2**64 - 2**39 + 1], dtype=np.uint64).astype(np.float32).tolist())
print(np.float32(x[0]), x[:1].astype(np.complex64).tolist())
"""),
    ("np_float_to_int_casts_out_of_range", """
import numpy as np
a = np.array([np.nan, np.inf, -np.inf, -1.5, 1e20, -1e20, 2.0**63, 2.0**64, 3e9, -3e9, 70000.5, 65535.9, 2.0**31, -2.0**31 - 1, 5e9, 1.0])
for d in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint64):
    print(d.__name__, a.astype(d).tolist(), a.astype(np.float32).astype(d).tolist())
print(np.float64(np.nan).astype(np.int64), np.float32(-1.5).astype(np.uint64), np.int32(np.float64(-1e12)))
"""),
    ("np_errstate_and_seterr", """
import numpy as np
print(np.geterr())
old = np.seterr(all='ignore'); print(old, np.geterr())
print(np.seterr(**old) == np.geterr(), np.geterr())
quiet = np.errstate(divide='ignore', invalid='ignore')
with quiet as e:
    print(e, np.geterr(), np.log(np.array([0.0, 1.0])).tolist())
    with np.errstate(over='print'):
        print(np.geterr())
    print(np.geterr())
print(np.geterr())
try:
    np.seterr(divide='foo')
except ValueError as ex:
    print('ValueError', ex)
print(np.geterr())
"""),
    ("lazy_zip_map_filter_enumerate_reversed", """
z = zip([1, 2], 'ab'); print(list(z), list(z))
m = map(print, [1, 2]); print('before'); print(list(m))
print(type(enumerate([])).__name__, type(zip()).__name__, type(map(abs, [])).__name__, type(filter(None, [])).__name__)
print(type(reversed([1])).__name__, type(reversed(range(3))).__name__, type(reversed((1, 2))).__name__, type(iter(range(3))).__name__)
print(list(reversed(range(10, 0, -3))), list(reversed(range(0))), list(reversed(range(1, 2**62, 2**60))))
f = filter(lambda v: v % 2, range(10)); print(next(f), list(f))
x = [1, 2, 3]; e = enumerate(x); x.append(4); print(list(e))
a, b = zip(*[(1, 2), (3, 4)]); print(a, b, *enumerate('xy', start=5))
class R:
    def __reversed__(self): return iter([3, 2, 1])
print(list(reversed(R())), list(reversed({'a': 1, 'b': 2})), list(reversed('abc')))
for bad in ({1, 2}, (v for v in 'ab')):
    try:
        reversed(bad)
    except TypeError as ex:
        print('TypeError', ex)
try:
    len(zip([1], [2]))
except TypeError as ex:
    print('TypeError', ex)
"""),
    ("ranges_beyond_fifty_million_are_counted_not_listed", """
N = 6 * 10**7
it = iter(range(10**18)); print(next(it), next(it), next(it))
print(len([v for v in range(N) if v % 10**7 == 0]))
for i, (x, y) in enumerate(zip(range(10**18), reversed(range(10**18))), start=1):
    if i == 3:
        break
print(i, x, y, max(map(abs, range(-5, 3))), next(filter(None, reversed(range(10**18)))))
"""),
    ("np_sort_in_the_dtypes_own_order", """
import numpy as np
a = np.array([2**53 + 1, 2**53, -3, 2**62 + 1, 2**62], dtype=np.int64)
print(np.sort(a).tolist(), np.argsort(a).tolist(), np.unique(a).tolist())
f = np.array([np.nan, 1.0, -0.0, -np.inf, 0.0, np.nan, 3.0], dtype=np.float32)
print(np.sort(f), np.argsort(f, kind='stable'), np.unique(f), np.unique(f, equal_nan=False))
c = np.array([1+2j, 1-1j, np.nan+0j, -1+5j, 1+2j])
print(np.sort(c), np.argsort(c, kind='stable'), np.unique(c))
m = np.array([[3, 1, 2], [9, 7, 8]], dtype=np.uint8)
print(np.sort(m, axis=0), np.sort(m), np.argsort(m, axis=0), np.sort(m, axis=None))
r = np.random.default_rng(1).random(3 * 2**20 + 7)
s = np.sort(r); print(bool(np.all(s[1:] >= s[:-1])), s.shape)
"""),
    ("re_match_positions_over_non_ascii_text", """
import re
s = 'héllo wörld, ünïcode ok' * 3
print([(m.start(), m.end(), m.group(), m.span(1)) for m in re.finditer(r'(\\w)\\w+', s)][:8])
print(re.sub(r'ö(r)', lambda m: m.group(1).upper() + str(m.start()), s))
m = re.search('ü', s); print(m, m.string[:5], m.pos, m.endpos)
p = re.compile('o'); print([m.span() for m in p.finditer(s, 5, 40)], p.search(s, 10, 30))
print(len(list(re.finditer('b', 'ab' * 200000))))
"""),
    ("np_broadcast_outer_products_read_inputs_in_place", """
import numpy as np
x = np.arange(40, dtype=np.float32); y = np.arange(50, dtype=np.int16)
r = x[:, None] * y[None, :]; print(r.dtype, r.shape, r.sum(), r[3, 7], r[39, 49])
r = y[:, None] - x; print(r.dtype, r[5, :4], r[-1, -3:])
print((x[:, None] < y).sum(), np.maximum(x[::-1][:, None], y[::2][None, :]).sum())
a = np.arange(2 * 3 * 64).reshape(2, 3, 64); b = np.arange(64) * 10; c = np.arange(3 * 64).reshape(3, 64)[:, ::-1]
print((a + b)[1, 2, :5], (a * c)[1, 1, -4:], (a.T[:, :, :1].T + np.arange(64))[0, 2, 60:])
m = np.arange(3 * 100).reshape(3, 100)[:, None, :] + np.zeros((3, 4, 1)); print(m.shape, m[2, 3, 98:], m.sum())
u = np.arange(100, dtype=np.uint8)[None, :] + np.arange(5, dtype=np.uint8)[:, None]; print(u.dtype, u[4, -5:])
print((np.ones((0, 50)) + np.ones(50)).shape, (np.arange(300.0).reshape(3, 100) == np.arange(100.0)).sum(axis=1))
"""),
    ("bytes_repeat", """
print(b'ab' * 3, 2 * b'x', b'' * 10**12, b'q' * 0, b'z' * -2, b'ab' * True)
for bad in (lambda: b'a' * 10**30, lambda: b'a' * 2.0, lambda: 'a' * 1.5, lambda: [1] * None):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
x = b'ab'; x *= 2; print(x, issubclass(EOFError, Exception), issubclass(TimeoutError, OSError))
"""),
]
