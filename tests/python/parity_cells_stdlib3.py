"""Cells of tests/python/test_cpython_parity.py about printf-style `str % args` (mapping keys,
flags, `*` widths, every conversion and its errors), the `logging` module (loggers in their
hierarchy, handlers, formatters in the three styles, basicConfig, exception records),
`sys.exc_info()` and the `traceback` module's text, `object()` sentinels, as CPython 3.11 gives them. Logging output
goes to sys.stdout or a StringIO, since the comparison reads stdout."""

STDLIB3 = [
    ("percent_format_conversions", """
print("%(a)s-%(b)05.1f" % {"a": "x", "b": 3.14159}, "%s %s" % (1, [2]), "%s" % [1, 2], "abc" % [1], "%r|%a" % ("\\u00e9", "\\u00e9"))
print("%5d|%-5d|%05d|%+d|% d|%x|%#x|%#X|%o|%#o|%.3d" % (42, 42, -42, 7, 7, 255, 255, 255, 8, 8, 5))
print("%e|%E|%.2f|%10.3f|%-10.2e|%g|%G|%#g|%010.2f|%+.1f" % (12345.678, 0.0001, 2.675, 3.14159, 1234.5, 1e-5, 1e20, 1.5, -3.14159, 2.0))
print("%c%c|%*d|%-*d|%.*f|%%|%s" % (65, "b", 6, 42, 4, 1, 2, 3.14159, None))
print("%d %i %u" % (3.9, True, -2.5), "%s" % ((1, 2),), "%.2s" % "abcdef", "%5s|%-5s|" % ("ab", "cd"))
print("%s" % {"a": 1}, "%(x)s %(x)r" % {"x": "q"}, "%f %F" % (float("inf"), float("nan")), "%05f" % float("-inf"))
print(format(1e20, "G"), format(float("nan"), "F"), f"{1e300:G}", format(-float("inf"), "E"))
"""),
    ("percent_format_errors", """
for bad in [lambda: "%d" % "x", lambda: "%x" % 1.5, lambda: "%s %s" % (1,), lambda: "%s" % (1, 2),
            lambda: "abc" % 5, lambda: "%y" % 1, lambda: "%(a)s" % 1, lambda: "%" % (),
            lambda: "%f" % "s", lambda: "%c" % "ab", lambda: "%(a" % {"a": 1}, lambda: "%(b)s" % {"a": 1}]:
    try:
        print(repr(bad()))
    except Exception as e:
        print(type(e).__name__, e)
"""),
    ("percent_format_dunders", """
class Num:
    def __int__(self): return 7
    def __index__(self): return 9
    def __float__(self): return 1.5
class Bad:
    def __int__(self): return "7"
    def __float__(self): return 2
print("%d %i %x %o %f %e" % (Num(), Num(), Num(), Num(), Num(), Num()))
for bad in [lambda: "%d" % Bad(), lambda: "%f" % Bad(), lambda: "%x" % object(), lambda: "%d" % object()]:
    try:
        print(repr(bad()))
    except Exception as e:
        print(type(e).__name__, e)
"""),
    ("object_sentinels", """
_MISSING = object()
def get(d, k, default=_MISSING):
    if default is _MISSING and k not in d:
        return "no default"
    return d.get(k, default)
o, p = object(), object()
print(get({}, "a"), get({}, "a", None), type(o), type(o) is object, o is p, o == p, o == o, o != p)
print(isinstance(o, object), repr(o).startswith("<object object at 0x"), {o: 1, p: 2}[p], o in [p, o], len({o, p, o}))
for bad in [lambda: object(1), lambda: setattr(o, "x", 1), lambda: o.x, lambda: o < p]:
    try:
        print(repr(bad()))
    except Exception as e:
        print(type(e).__name__, e)
"""),
    ("identity_keys", """
import math
fs = [lambda i=i: i for i in range(3000)]
objs = [object() for _ in range(3000)]
def gen():
    yield 1
gs = [gen() for _ in range(5)]
d = {f: f() for f in fs}
d.update({o: k for k, o in enumerate(objs)})
d.update({len: "len", math: "math", print: "print"})
d.update({g: "gen" for g in gs})
print(len(d), d[fs[1234]], d[objs[2999]], d[len], d[math], d[print], d[gs[3]])
print(all(d[f] == f() for f in fs), all(hash(o) == hash(o) for o in objs), hash(len) == hash(len))
for o in objs[::2]:
    del d[o]
print(len(d), objs[1] in d, objs[0] in d, fs[0] in d, (lambda: 0) in d, object() in d)
s = set(fs) | set(objs[:10]) | {len, len, math}
print(len(s), fs[7] in s, objs[9] in s, objs[10] in s, len in s, abs in s)
k = {(len, 1): "a", (fs[0], objs[0]): "b"}
print(k[(len, 1)], k[(fs[0], objs[0])], (fs[1], objs[0]) in k)
class K:
    pass
print({K: 1, int: 2, ValueError: 3}[ValueError], {K: 1}[K], list({print: 0, len: 1}))
"""),
    ("logging_hierarchy_levels", """
import logging
log = logging.getLogger("app.db")
print(log, log.parent, logging.getLogger("app"), log.parent, log.getEffectiveLevel())
log.setLevel("DEBUG")
print(log.level, logging.getLevelName(20), logging.getLevelName("ERROR"), logging.getLevelName(7))
print(logging.getLogger("app.db") is log, log.getChild("x").name, log.isEnabledFor(5), log.isEnabledFor(10))
try:
    logging.getLogger().setLevel("LOUD")
except ValueError as e:
    print(e)
"""),
    ("logging_handlers_formatters", """
import logging, io
s = io.StringIO()
h = logging.StreamHandler(s)
h.setFormatter(logging.Formatter("[%(levelname)s] %(name)s: %(message)s"))
lg = logging.getLogger("parity.x"); lg.addHandler(h); lg.setLevel(logging.DEBUG); lg.propagate = False
lg.debug("a=%s b=%r", 1, "two"); lg.info("plain"); lg.log(35, "custom"); lg.warning("%(k)s", {"k": "mapped"})
h.setFormatter(logging.Formatter("{levelname}|{message}", style="{")); lg.error("brace")
h.setFormatter(logging.Formatter("$levelname/$message", style="$")); lg.critical("dollar")
h.setLevel(logging.ERROR); lg.warning("dropped by the handler")
print(s.getvalue(), end="")
"""),
    ("logging_basic_config_and_exception", """
import logging, sys
logging.basicConfig(level=logging.INFO, format="%(name)s - %(levelname)s - %(message)s", stream=sys.stdout, force=True)
logging.getLogger("svc").info("started %s", "ok")
logging.getLogger("svc").debug("not shown")
logging.warning("root %d", 3)
print(logging.root.handlers, sys.stdout.name, sys.stderr.name)
import io
s = io.StringIO()
h = logging.StreamHandler(s)
h.setFormatter(logging.Formatter("%(levelname)s:%(message)s"))
ex = logging.getLogger("parity.exc"); ex.addHandler(h); ex.propagate = False
try:
    1 / 0
except ZeroDivisionError:
    ex.exception("failed")
# The frame lines name ipykernel's temporary file; the record's first lines and last do not.
print(s.getvalue().splitlines()[:2], s.getvalue().splitlines()[-1])
try:
    logging.basicConfig(bogus=1, force=True)
except ValueError as e:
    print(e)
print(logging.getLogger(), logging.root.handlers)
logging.basicConfig(stream=sys.stderr, force=True)
"""),
    ("sys_exc_info_and_traceback", """
import sys, traceback
print(sys.exc_info(), repr(traceback.format_exc()))
def helper():
    return traceback.format_exc().splitlines()[-1]
class MyErr(Exception):
    pass
try:
    int("x")
except ValueError as e:
    t, v, tb = sys.exc_info()
    print(t, v is e, type(tb).__name__, tb.tb_lineno)
    print(traceback.format_exc().splitlines()[0], traceback.format_exc().splitlines()[-1])
    print(traceback.format_exception_only(e), traceback.format_exception(type(e), e, e.__traceback__)[-1], end="")
    try:
        raise MyErr("inner")
    except MyErr:
        print(helper())
    print(helper())
print(sys.exc_info(), traceback.format_exception_only(MyErr("m")), traceback.format_exception(KeyError("k")))
"""),
    ("chained_assignment", """
x = y = []
x.append(1)
print(x is y, y)
d = {}; e = {}
d["k"] = e["k"] = [0]
d["k"].append(5); print(e, d["k"] is e["k"])
class T:
    def __setitem__(self, k, v): print("set", k, v)
t = T()
a, t[0] = t[1] = b = (7, 8)
print(a, b)
def f():
    p = q = {}
    p[1] = 2
    for i in range(3):
        u = w = [i]
        w.append(i)
        m = {}
        for j in range(300):
            m[j] = m[-j] = j
    return p is q, q, u, len(m), sum(m.values())
print(f())
"""),
]
