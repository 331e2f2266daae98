//! Generators: functions with `yield`, `yield from`, `send`, generator expressions, lazy
//! iteration of infinite generators, `try`/`finally` around a `yield`, and `__iter__`
//! written as a generator. Expected outputs are CPython 3.11's for the same cells.

mod common;
use common::Session;

#[test]
fn generator_functions_run_lazily_and_resume_where_they_paused() {
    let mut s = Session::new();
    let out = s.stdout(
        "def count_up(n):\n    i = 0\n    while i < n:\n        yield i\n        i += 1\n\
         g = count_up(3)\nprint(g.__class__.__name__, next(g), next(g), list(g), list(g))\n\
         def fib():\n    a, b = 0, 1\n    while True:\n        yield a\n        a, b = b, a + b\n\
         out = []\nfor x in fib():\n    if x > 50:\n        break\n    out.append(x)\nprint(out)\n\
         def pairs(items):\n    for i, x in enumerate(items):\n        if i % 2 == 0:\n            yield i, x\n\
         \x20       else:\n            continue\n    yield 'end'\nprint(list(pairs('abcde')))",
    );
    assert_eq!(
        out,
        "generator 0 1 [2] []\n[0, 1, 1, 2, 3, 5, 8, 13, 21, 34]\n[(0, 'a'), (2, 'c'), (4, 'e'), 'end']\n"
    );
}

#[test]
fn yield_from_send_and_return_values() {
    let mut s = Session::new();
    let out = s.stdout(
        "def inner():\n    yield 1\n    yield 2\n    return 'done'\n\
         def outer():\n    r = yield from inner()\n    yield r\n    yield from [7, 8]\nprint(list(outer()))\n\
         def acc():\n    total = 0\n    while True:\n        x = yield total\n        if x is None:\n            break\n        total += x\n\
         a = acc(); next(a); a.send(5); print(a.send(10))\n\
         try:\n    a.send(None)\nexcept StopIteration as e:\n    print('stopped', repr(e))",
    );
    assert_eq!(out, "[1, 2, 'done', 7, 8]\n15\nstopped StopIteration()\n");
    let c = s.run("def gen_ret():\n    yield 1\n    return 5\ng3 = gen_ret(); next(g3)\nnext(g3)");
    assert_eq!(c.ename().as_deref(), Some("StopIteration"));
    assert_eq!(c.evalue(), "5");
}

#[test]
fn generator_expressions_are_lazy_iterators() {
    let mut s = Session::new();
    let out = s.stdout(
        "print(sum(x * x for x in range(10)), next(x for x in [1, 5, 8] if x > 3), list((i, j) for i in range(3) for j in range(i)))\n\
         gen = (c.upper() for c in 'ab')\nprint(next(gen), next(gen), next(gen, 'none'))\n\
         def squares(n):\n    for i in range(n):\n        yield i * i\n\
         print(list(zip(squares(3), 'xyz')), dict(enumerate(squares(3))), max(squares(5)))\n\
         g2 = squares(2); print(iter(g2) is g2, [*squares(3)])",
    );
    assert_eq!(
        out,
        "285 5 [(1, 0), (2, 0), (2, 1)]\nA B none\n[(0, 'x'), (1, 'y'), (4, 'z')] {0: 0, 1: 1, 2: 4} 16\nTrue [0, 1, 4]\n"
    );
}

#[test]
fn try_finally_and_iter_methods_written_as_generators() {
    let mut s = Session::new();
    let out = s.stdout(
        "def guarded():\n    try:\n        yield 1\n        raise ValueError('inside')\n\
         \x20   except ValueError as e:\n        yield f'caught {e}'\n    finally:\n        print('finally ran')\n    yield 3\n\
         print(list(guarded()))\n\
         class Tree:\n    def __init__(self, v, kids=()):\n        self.v, self.kids = v, kids\n\
         \x20   def __iter__(self):\n        yield self.v\n        for k in self.kids:\n            yield from k\n\
         t = Tree(1, [Tree(2, [Tree(3)]), Tree(4)])\nprint(list(t), sorted(t, reverse=True), 3 in t)",
    );
    assert_eq!(
        out,
        "finally ran\n[1, 'caught inside', 3]\n[1, 2, 3, 4] [4, 3, 2, 1] True\n"
    );
}

#[test]
fn unsupported_yield_positions_are_named() {
    let mut s = Session::new();
    let c = s.run("def bad():\n    print((yield 1))\nlist(bad())");
    assert_eq!(c.ename().as_deref(), Some("NotImplementedError"));
    assert!(c.evalue().contains("yield"), "{}", c.evalue());
    // The session keeps going.
    assert_eq!(s.eval("sum(i for i in range(4))"), "6");
}

/// close() raises GeneratorExit where the generator paused, so its finally blocks run; StopIteration.value is the generator's return value.
#[test]
fn close_raises_generator_exit_inside_and_stop_iteration_carries_the_return_value() {
    let mut s = Session::new();
    let out = s.stdout(
        r#"def res():
    try:
        yield 1
        yield 2
    finally:
        print('cleanup')
g = res()
print(next(g))
g.close()
print('closed', list(g))
g2 = res(); g2.close(); print('never started')
def stubborn():
    try:
        yield 1
    except GeneratorExit:
        yield 2
s = stubborn(); next(s)
try:
    s.close()
except RuntimeError as e:
    print('RuntimeError', e)
def catcher():
    try:
        yield 1
    except GeneratorExit:
        print('got GeneratorExit', isinstance(GeneratorExit(), Exception))
        raise
c = catcher(); next(c); c.close()
def acc():
    total = 0
    while True:
        x = yield total
        if x is None:
            return total
        total += x
a = acc()
print(next(a), a.send(5), a.send(7))
try:
    next(a)
except StopIteration as e:
    print('returned', e.value, e.args)
def plain():
    yield 1
p = plain(); next(p)
try:
    next(p)
except StopIteration as e:
    print(e.value, e.args)
"#,
    );
    assert_eq!(
        out,
        r#"1
cleanup
closed []
never started
RuntimeError generator ignored GeneratorExit
got GeneratorExit False
0 5 12
returned 12 (12,)
None ()
"#
    );
}
