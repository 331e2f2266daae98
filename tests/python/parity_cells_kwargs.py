"""Cells of tests/python/test_cpython_parity.py: module functions called with their
arguments by name, as their Python signatures allow (and the TypeErrors of those that do
not). Each entry is (short name, source); the expected output is whatever CPython/NumPy
print for it in the same test run."""

KEYWORDS = [
    ("np_functions_by_keyword", """
import numpy as np
print(np.sum(a=[1, 2, 3]), np.mean(a=[1.0, 2.0], axis=0), np.cumsum(a=[1, 2], dtype=float))
print(np.nanmax(a=[1.0, np.nan, 3.0], axis=0), np.real(val=1+2j), np.imag(val=np.array([1+2j])), np.angle(z=1j, deg=True))
print(np.clip([1, 5, 9], a_min=2, a_max=6), np.dtype(dtype='f4'), np.vectorize(pyfunc=abs)([-1, 2]))
print(np.sqrt([4.0, 9.0], out=None, where=True, casting='same_kind', order='K', dtype=None, subok=True))
np.random.seed(seed=1); a = np.random.rand(2); np.random.seed(1); print(a == np.random.rand(2))
for call in [lambda: np.sum(), lambda: np.random.rand(2, d1=3), lambda: np.promote_types(type1='i4', type2='f4'), lambda: np.dtype(obj='f4')]:
    try:
        call()
    except TypeError as e:
        print('TypeError', e)
"""),
    ("stdlib_functions_by_keyword", """
import dataclasses, collections, math, random, types, pathlib, warnings
@dataclasses.dataclass
class P:
    x: int
    y: int = 0
p = P(1, 2)
print(dataclasses.asdict(obj=p), dataclasses.astuple(p, tuple_factory=list), dataclasses.asdict(p, dict_factory=lambda kv: sorted(kv)))
print(dataclasses.fields(class_or_instance=p)[0].name, dataclasses.is_dataclass(obj=P), dataclasses.replace(p, y=5))
Pt = collections.namedtuple(typename='Pt', field_names='a b')
print(Pt(1, 2), math.log(8, 2), math.log2(8))
calls = [lambda: math.log(x=8), lambda: math.log2(x=8), lambda: math.log(), lambda: math.log2(),
         lambda: types.SimpleNamespace(1), lambda: dataclasses.replace(obj=p),
         lambda: warnings.catch_warnings(1), lambda: collections.namedtuple('P', 'a', 1)]
for call in calls:
    try:
        call()
    except TypeError as e:
        print('TypeError', e)
print(random.Random(x=5).random() == random.Random(5).random(), types.ModuleType(name='m', doc='d').__doc__, pathlib.Path('a', 'b'))
with warnings.catch_warnings(record=True) as w:
    pass
print(w)
"""),
    # ndarray methods bind by NumPy's signatures: `out` second for max/min/argmax, third
    # for sum/any/all (whose methods pass through `_methods._any`); np.any and np.all
    # take `out` second; aliases of a ufunc are the same object under its own name.
    ("ndarray_methods_by_position_and_keyword", """
import numpy as np
a = np.arange(12, dtype=np.float32).reshape(3, 4)
o = np.zeros(4, dtype=np.float32)
print(a.max(0, o) is o, o, a.min(1, None, True).shape, a.any(0, None, None, True).shape, a.all(None, None, None, False), np.any(a, 0, None, True).shape, np.all(a > 0, None, None, False))
i = np.zeros(4, dtype=np.intp)
print(a.argmax(0, i) is i, i, a.argmin(axis=1, keepdims=True).ravel(), a.cumsum(1, np.float64).dtype, a.cumprod(axis=0, dtype=None, out=None)[-1])
print(a.sum(1, np.float64, None, True).ravel(), a.mean(axis=None, dtype=np.float64), a.var(0, None, None, 1), a.std(ddof=1, axis=1, keepdims=True).shape)
print(a.clip(max=5)[0], a.clip(2)[0], a.round(out=np.empty_like(a))[0], np.arange(3).repeat(repeats=2), a.swapaxes(0, 1).shape, a.reshape(2, 6, order='F')[0])
print(np.eye(3).trace(offset=1), np.eye(3).diagonal(1), a.transpose(1, 0).shape, a.item(3), a.squeeze(axis=None).shape, a.view(dtype=np.int32).dtype)
print(np.mod is np.remainder, np.mod.__name__, np.true_divide.__name__, np.abs is np.absolute, np.abs.__name__, np.conj.__name__)
print(np.add.reduce(a, axis=1), np.logical_or.reduce([False, True]), np.multiply.accumulate([1, 2, 3]), np.minimum.reduce(a, axis=None))
s = np.array([3., 1., 2.]); s.sort(stable=True)
print(s, np.array([3, 1, 2]).argsort(stable=True), np.array([3, 1, 2]).argsort(0, None, None), np.array([[3, 1], [0, 5]]).argsort(axis=None))
for call in [lambda: a.argmax(0, None, True), lambda: a.cumsum(keepdims=True), lambda: a.max(dtype=np.float64),
             lambda: a.ravel('C', 1), lambda: a.tolist(1), lambda: a.fill(), lambda: a.swapaxes(0), lambda: a.sum(foo=1),
             lambda: s.sort(0, None, None, True)]:
    try:
        call()
        print('no error')
    except TypeError:
        print('TypeError')
"""),
    ("re_pattern_and_match_methods_by_position_and_keyword", r"""
import re
p = re.compile(r"(?P<a>\d+)-(\w+)?")
m = p.search("xx 12-ab 34- 5", 1)
print(m, m.group(), m.group(1, 2), m.group("a"), m.groups(), m.groupdict(), m.start(), m.end(2), m.span(1), m.span())
m2 = p.search("xx 12-ab 34- 5", pos=7, endpos=12)
print(m2, m2.groups("-"), m2.groupdict(default="d"), m2.pos, m2.endpos)
print(p.findall("1-a 2-b 3-"), [x.span() for x in p.finditer("1-a 2-b", 2)], p.match("12-x"), p.fullmatch("12-x"), p.fullmatch("12-x!"))
print(p.sub("<\\2>", "1-a 2-b", 1), p.subn(lambda m: m.group(1) * 2, "1-a 2-b"), p.split("a1-bc2-d", maxsplit=1), re.sub(r"\d", "#", "a1b22", count=2), re.split(",", "a,b,c", 1))
print(re.findall(r"\w", "ab c", re.I), re.search("b", "abc").span(), re.subn("a", "b", "aaa"))
for f in [lambda: p.search(), lambda: p.sub("x"), lambda: m.start(0, 1), lambda: m.span(group=1), lambda: p.search("x", None), lambda: p.split("x", 1, 2)]:
    try:
        f()
    except TypeError as e:
        print("TypeError", e)
"""),
]
