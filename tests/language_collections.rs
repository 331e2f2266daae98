//! The `collections` module as notebooks use it: `namedtuple`, `defaultdict`, `Counter`,
//! `OrderedDict` and `deque`, and the small modules met beside it: `functools.lru_cache` and
//! `cache`, `copy` and `string`. Every expected string is CPython 3.11's output for the same
//! cell (checked by running each cell in python3 3.11.7; results shown as IPython 9
//! prints them).

mod common;
use common::Session;

fn session() -> Session {
    let mut s = Session::new();
    s.run("from collections import namedtuple, defaultdict, Counter, OrderedDict, deque")
        .ok();
    s
}

#[test]
fn namedtuple_instances_behave_as_tuples_with_named_fields() {
    let mut s = session();
    let out = s.stdout(
        "Point = namedtuple('Point', ['x', 'y'])\n\
         p = Point(1, y=2)\n\
         print(p, p.x, p[1], len(p), p == (1, 2), (1, 2) == p, p < Point(1, 3), list(p))\n\
         x, y = p\n\
         print(x, y, p._fields, p._asdict(), p._replace(x=5), Point._make([3, 4]), Point)",
    );
    assert_eq!(
        out,
        "Point(x=1, y=2) 1 2 2 True True True [1, 2]\n\
         1 2 ('x', 'y') {'x': 1, 'y': 2} Point(x=5, y=2) Point(x=3, y=4) <class '__main__.Point'>\n"
    );
    let out = s.stdout(
        "P3 = namedtuple('P3', 'a, b c', defaults=[0, 9])\n\
         print(P3(1), P3(1, 2), P3._fields, P3._field_defaults, P3.__name__, p[-1], p[:1], p + (3,), p.count(1), p.index(2))\n\
         print({p: 'here'}[(1, 2)], sorted([Point(2, 1), Point(1, 5)]), max(Point(2, 1), Point(1, 5)), isinstance(p, Point), type(p).__name__)",
    );
    assert_eq!(
        out,
        "P3(a=1, b=0, c=9) P3(a=1, b=2, c=9) ('a', 'b', 'c') {'b': 0, 'c': 9} P3 2 (1,) (1, 2, 3) 1 1\n\
         here [Point(x=1, y=5), Point(x=2, y=1)] Point(x=2, y=1) True Point\n"
    );
    assert_eq!(s.eval("p"), "Point(x=1, y=2)");
}

#[test]
fn namedtuple_errors_match_cpython() {
    let mut s = session();
    s.run("Point = namedtuple('Point', 'x y')\np = Point(1, 2)")
        .ok();
    for (cell, ename, evalue) in [
        (
            "Point(1)",
            "TypeError",
            "Point.__new__() missing 1 required positional argument: 'y'",
        ),
        (
            "Point(1, 2, 3)",
            "TypeError",
            "Point.__new__() takes 3 positional arguments but 4 were given",
        ),
        (
            "Point(1, z=2)",
            "TypeError",
            "Point.__new__() got an unexpected keyword argument 'z'",
        ),
        (
            "namedtuple('Bad', 'x _y')",
            "ValueError",
            "Field names cannot start with an underscore: '_y'",
        ),
        (
            "namedtuple('Bad', 'x def')",
            "ValueError",
            "Type names and field names cannot be a keyword: 'def'",
        ),
        (
            "namedtuple('Bad', 'x x')",
            "ValueError",
            "Encountered duplicate field name: 'x'",
        ),
        (
            "p._replace(z=1)",
            "ValueError",
            "Got unexpected field names: ['z']",
        ),
        (
            "Point._make([1])",
            "TypeError",
            "Expected 2 arguments, got 1",
        ),
        ("p.x = 3", "AttributeError", "can't set attribute"),
    ] {
        let c = s.run(cell);
        assert_eq!(c.ename().as_deref(), Some(ename), "{cell}");
        assert_eq!(c.evalue(), evalue, "{cell}");
    }
}

#[test]
fn defaultdict_calls_the_factory_for_missing_keys() {
    let mut s = session();
    let out = s.stdout(
        "d = defaultdict(list)\n\
         d['a'].append(1); d['b'].append(2); d['a'].append(3)\n\
         print(d, d['a'], len(d), 'c' in d, d.get('c'), sorted(d), list(d.items()), d == {'a': [1, 3], 'b': [2]})\n\
         c = defaultdict(int)\n\
         for w in 'the cat the hat'.split(): c[w] += 1\n\
         print(c, c.default_factory, dict(c.items()))\n\
         print(repr(defaultdict(None, {1: 2})), defaultdict(lambda: 'x')['q'])",
    );
    assert_eq!(
        out,
        "defaultdict(<class 'list'>, {'a': [1, 3], 'b': [2]}) [1, 3] 2 False None ['a', 'b'] [('a', [1, 3]), ('b', [2])] True\n\
         defaultdict(<class 'int'>, {'the': 2, 'cat': 1, 'hat': 1}) <class 'int'> {'the': 2, 'cat': 1, 'hat': 1}\n\
         defaultdict(None, {1: 2}) x\n"
    );
    // IPython's pretty printer names the factory: `defaultdict(list, ...)`.
    assert_eq!(s.eval("d"), "defaultdict(list, {'a': [1, 3], 'b': [2]})");
    let c = s.run("defaultdict(None)['k']");
    assert_eq!(c.ename().as_deref(), Some("KeyError"));
    assert_eq!(c.evalue(), "'k'");
    let c = s.run("defaultdict(3)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert_eq!(c.evalue(), "first argument must be callable or None");
}

#[test]
fn counter_counts_and_orders_by_count() {
    let mut s = session();
    let out = s.stdout(
        "c = Counter('abracadabra')\n\
         print(c, c['a'], c['z'], c.most_common(2), c.most_common(), len(c))\n\
         c.update('aaz'); c.subtract(['b', 'b', 'b'])\n\
         print(c, c.total(), sorted(c.elements()))\n\
         print(Counter(a=3, b=1) + Counter(a=1, c=2), Counter(a=3, b=1) - Counter(a=1, b=2), Counter(a=3, b=1) | Counter(a=1, b=2), Counter(a=3, b=1) & Counter(a=1, b=2))\n\
         print(Counter({'x': 2, 'y': 5}), Counter(), Counter(a=1) == Counter(a=1, b=0), Counter(a=1) == {'a': 1}, Counter([1, 2, 2]).most_common(1))\n\
         del c['nope']\n\
         print(c.most_common(0), list(c.keys())[:3], Counter('hello world'.split()).most_common(-1))",
    );
    assert_eq!(
        out,
        "Counter({'a': 5, 'b': 2, 'r': 2, 'c': 1, 'd': 1}) 5 0 [('a', 5), ('b', 2)] [('a', 5), ('b', 2), ('r', 2), ('c', 1), ('d', 1)] 5\n\
         Counter({'a': 7, 'r': 2, 'c': 1, 'd': 1, 'z': 1, 'b': -1}) 11 ['a', 'a', 'a', 'a', 'a', 'a', 'a', 'c', 'd', 'r', 'r', 'z']\n\
         Counter({'a': 4, 'c': 2, 'b': 1}) Counter({'a': 2}) Counter({'a': 3, 'b': 2}) Counter({'a': 1, 'b': 1})\n\
         Counter({'y': 5, 'x': 2}) Counter() True True [(2, 2)]\n\
         [] ['a', 'b', 'r'] []\n"
    );
    assert_eq!(
        s.stdout("c = Counter(a=2, b=-1, c=0); c['d'] += 1\nprint(c, +c, -c)"),
        "Counter({'a': 2, 'd': 1, 'c': 0, 'b': -1}) Counter({'a': 2, 'd': 1}) Counter({'b': 1})\n"
    );
    assert_eq!(
        s.eval("Counter('mississippi')"),
        "Counter({'i': 4, 's': 4, 'p': 2, 'm': 1})"
    );
}

#[test]
fn ordereddict_reorders_and_pops_from_either_end() {
    let mut s = session();
    let out = s.stdout(
        "o = OrderedDict([('a', 1), ('b', 2), ('c', 3)])\n\
         o['d'] = 4\n\
         o.move_to_end('a'); o.move_to_end('d', last=False)\n\
         print(list(o))\n\
         print(o, list(o), o.popitem(), o.popitem(last=False), o)\n\
         print(OrderedDict(), OrderedDict(x=1) == {'x': 1}, OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1), o.get('b'), o['b'], len(o), list(o.items()), o == {'c': 3, 'b': 2})",
    );
    assert_eq!(
        out,
        "['d', 'b', 'c', 'a']\n\
         OrderedDict([('b', 2), ('c', 3)]) ['d', 'b', 'c', 'a'] ('a', 1) ('d', 4) OrderedDict([('b', 2), ('c', 3)])\n\
         OrderedDict() True False 2 2 2 [('b', 2), ('c', 3)] True\n"
    );
    assert_eq!(s.eval("o"), "OrderedDict([('b', 2), ('c', 3)])");
    let c = s.run("OrderedDict().popitem()");
    assert_eq!(c.ename().as_deref(), Some("KeyError"));
    assert_eq!(c.evalue(), "'dictionary is empty'");
    let c = s.run("OrderedDict(a=1).move_to_end('z')");
    assert_eq!(c.ename().as_deref(), Some("KeyError"));
    assert_eq!(c.evalue(), "'z'");
}

#[test]
fn deque_adds_and_drops_at_both_ends() {
    let mut s = session();
    let out = s.stdout(
        "q = deque([1, 2, 3], maxlen=4)\n\
         q.append(4); q.append(5); q.appendleft(0)\n\
         print(q, q[0], q[-1], len(q), q.maxlen, list(q))\n\
         q.extend([7, 8]); q.extendleft([-1, -2])\n\
         print(q, q.pop(), q.popleft(), q)\n\
         r = deque(range(6)); r.rotate(2); print(r); r.rotate(-3); print(r)\n\
         r[0] = 'z'; del r[1]; print(r, r.count(4), r.index(4), 3 in r, deque(), deque('ab') == deque('ab'), deque('ab') == ['a', 'b'])\n\
         r.clear(); print(r, bool(r), deque(maxlen=0), deque([1], maxlen=0))",
    );
    assert_eq!(
        out,
        "deque([0, 2, 3, 4], maxlen=4) 0 4 4 4 [0, 2, 3, 4]\n\
         deque([-1, 3], maxlen=4) 4 -2 deque([-1, 3], maxlen=4)\n\
         deque([4, 5, 0, 1, 2, 3])\ndeque([1, 2, 3, 4, 5, 0])\n\
         deque(['z', 3, 4, 5, 0]) 1 2 True deque([]) True False\n\
         deque([]) False deque([], maxlen=0) deque([], maxlen=0)\n"
    );
    for (cell, ename, evalue) in [
        ("deque().pop()", "IndexError", "pop from an empty deque"),
        ("deque([1, 2])[5]", "IndexError", "deque index out of range"),
        (
            "deque(maxlen=-1)",
            "ValueError",
            "maxlen must be non-negative",
        ),
        (
            "deque([1, 2])[0:1]",
            "TypeError",
            "sequence index must be integer, not 'slice'",
        ),
    ] {
        let c = s.run(cell);
        assert_eq!(c.ename().as_deref(), Some(ename), "{cell}");
        assert_eq!(c.evalue(), evalue, "{cell}");
    }
}

#[test]
fn lru_cache_memoises_and_reports_its_statistics() {
    let mut s = Session::new();
    let out = s.stdout(
        "import functools\n\
         @functools.lru_cache(maxsize=None)\n\
         def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n\
         print(fib(30), fib.cache_info())\n\
         fib.cache_clear(); print(fib.cache_info())\n\
         calls = []\n\
         @functools.lru_cache(maxsize=2)\n\
         def sq(x):\n    calls.append(x)\n    return x * x\n\
         print([sq(i) for i in [1, 2, 1, 3, 2, 1]], calls, sq.cache_info())\n\
         @functools.lru_cache\n\
         def add(a, b=0):\n    return a + b\n\
         print(add(1), add(1), add(1, b=2), add.cache_info())\n\
         @functools.cache\n\
         def twice(s):\n    return s * 2\n\
         print(twice('ab'), twice('ab'), twice.cache_info(), fib.__name__)",
    );
    assert_eq!(
        out,
        "832040 CacheInfo(hits=28, misses=31, maxsize=None, currsize=31)\n\
         CacheInfo(hits=0, misses=0, maxsize=None, currsize=0)\n\
         [1, 4, 1, 9, 4, 1] [1, 2, 3, 2, 1] CacheInfo(hits=1, misses=5, maxsize=2, currsize=2)\n\
         1 1 3 CacheInfo(hits=1, misses=2, maxsize=128, currsize=2)\n\
         abab abab CacheInfo(hits=1, misses=1, maxsize=None, currsize=1) fib\n"
    );
}

#[test]
fn copy_and_deepcopy_of_nested_containers() {
    let mut s = Session::new();
    let out = s.stdout(
        "import copy\n\
         a = [[1, 2], {'k': [3]}, (4, [5])]\n\
         b = copy.copy(a); c = copy.deepcopy(a)\n\
         a[0].append(9); a[1]['k'].append(8); a[2][1].append(7)\n\
         print(b, c, b[0] is a[0], c[0] is a[0])\n\
         shared = [1]; d = copy.deepcopy([shared, shared]); print(d[0] is d[1], copy.copy({'x': 1}), copy.copy((1, 2)))\n\
         r = [1]; r.append(r); r2 = copy.deepcopy(r); print(r2[1] is r2, r2[1] is r)",
    );
    assert_eq!(
        out,
        "[[1, 2, 9], {'k': [3, 8]}, (4, [5, 7])] [[1, 2], {'k': [3]}, (4, [5])] True False\n\
         True {'x': 1} (1, 2)\nTrue False\n"
    );
}

#[test]
fn string_constants() {
    let mut s = Session::new();
    let out = s.stdout(
        "import string\n\
         print(string.ascii_letters, string.ascii_lowercase, string.ascii_uppercase, string.digits, string.hexdigits, string.octdigits)\n\
         print(repr(string.punctuation), repr(string.whitespace), repr(string.printable))",
    );
    assert_eq!(
        out,
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 0123456789abcdefABCDEF 01234567\n\
         '!\"#$%&\\'()*+,-./:;<=>?@[\\\\]^_`{|}~' ' \\t\\n\\r\\x0b\\x0c' '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!\"#$%&\\'()*+,-./:;<=>?@[\\\\]^_`{|}~ \\t\\n\\r\\x0b\\x0c'\n"
    );
}

#[test]
fn collection_dicts_are_mappings_to_dict_update_and_double_star() {
    // Expected values are CPython 3.11's.
    let mut s = Session::new();
    let out = s.stdout(
        "from collections import defaultdict, Counter, OrderedDict\nfrom functools import lru_cache\n\
         d = defaultdict(set)\nd['a'].add(1); d['a'].add(2)\nc = Counter('abracadabra')\n\
         print(dict(d), dict(c), {**c}, sorted(dict(OrderedDict(x=1)).items()))\n\
         def f(**kw): return sorted(kw.items())\nprint(f(**Counter(a=2)))\n\
         x = {}; x.update(Counter('aab')); print(x)\n\
         class Fib:\n    @lru_cache(maxsize=None)\n    def fib(self, n):\n        return n if n < 2 else self.fib(n - 1) + self.fib(n - 2)\n\
         print(Fib().fib(40))",
    );
    assert_eq!(
        out,
        "{'a': {1, 2}} {'a': 5, 'b': 2, 'r': 2, 'c': 1, 'd': 1} {'a': 5, 'b': 2, 'r': 2, 'c': 1, 'd': 1} [('x', 1)]\n\
         [('a', 2)]\n{'a': 2, 'b': 1}\n102334155\n"
    );
}

/// copy.copy and copy.deepcopy of plain instances: new objects without __init__, attributes shared or copied, cycles kept.
#[test]
fn copy_and_deepcopy_of_instances_of_cell_classes() {
    let mut s = Session::new();
    let out = s.stdout(
        r#"import copy
class C:
    def __init__(self):
        self.items = [1]
        self.me = self
c = C()
c2 = copy.deepcopy(c)
c2.items.append(2)
c3 = copy.copy(c)
print(c.items, c2.items, c2.me is c2, c3.items is c.items, type(c2).__name__, c3 is c)
"#,
    );
    assert_eq!(
        out,
        r#"[1] [1, 2] True True C False
"#
    );
}

#[test]
fn namedtuple_instances_are_tuples() {
    // Expected output: CPython 3.11's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("from collections import namedtuple\nPoint = namedtuple('Point', ['x', 'y'])\np = Point(1, y=2)\nprint(isinstance(p, tuple), isinstance(p, Point), isinstance((1, 2), Point), isinstance(p, (list, tuple)))");
    assert_eq!(out, "True True False True\n");
}

#[test]
fn object_keys_are_found_by_their_hash_then_equality() {
    // Two objects that compare equal but hash differently are two keys, as in CPython;
    // OrderedDict reordering and set operations keep each key under its own hash.
    let mut s = session();
    let out = s.stdout(
        "class K:\n\
         \x20   def __init__(self, v, h):\n\
         \x20       self.v, self.h = v, h\n\
         \x20   def __eq__(self, o):\n\
         \x20       return isinstance(o, K) and self.v == o.v\n\
         \x20   def __hash__(self):\n\
         \x20       return self.h\n\
         \x20   def __repr__(self):\n\
         \x20       return f'K{self.v}.{self.h}'\n\
         a, b, c = K(1, 10), K(1, 20), K(2, 10)\n\
         o = OrderedDict([(a, 1), (b, 2), (c, 3)])\n\
         o.move_to_end(a)\n\
         o.move_to_end(c, last=False)\n\
         print(list(o), o[K(1, 20)], o.popitem(last=False), len(o), K(2, 10) in o)\n\
         s = {a, b, c}\n\
         s.discard(K(1, 20))\n\
         print(len(s), b in s, a in s, len(s | {K(1, 20)}), len({a, b}.union([K(1, 10), K(1, 30)])))",
    );
    assert_eq!(
        out,
        "[K2.10, K1.20, K1.10] 2 (K2.10, 3) 2 False\n2 False True 3 3\n"
    );
}
