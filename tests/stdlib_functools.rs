//! `functools.wraps`, `update_wrapper`, `cmp_to_key` and `total_ordering`, and attributes
//! set on functions, against CPython 3.11. Expected outputs are CPython's for the same cells.

mod common;
use common::Session;

#[test]
fn wraps_keeps_the_wrapped_functions_identity() {
    let mut s = Session::new();
    s.run("import functools").ok();
    let out = s.stdout("def deco(fn):\n    @functools.wraps(fn)\n    def wrapper(*a, **k):\n        \"wrapper doc\"\n        return fn(*a, **k) * 2\n    return wrapper\n@deco\ndef area(w, h):\n    \"\"\"Area of a rectangle.\"\"\"\n    return w * h\nprint(area(2, 3), area.__name__, area.__doc__, area.__qualname__, area.__wrapped__(2, 3), area.__module__)");
    assert_eq!(out, "12 area Area of a rectangle. area 6 __main__\n");
}

#[test]
fn update_wrapper_and_function_attributes() {
    let mut s = Session::new();
    s.run("import functools").ok();
    let out = s.stdout("def counted(fn):\n    def inner(*a):\n        inner.calls += 1\n        return fn(*a)\n    inner.calls = 0\n    return functools.update_wrapper(inner, fn)\n@counted\ndef sq(x):\n    return x * x\nsq.unit = 'm'\nprint(sq(3), sq(4), sq.calls, sq.__name__, repr(sq).split(' at ')[0], sorted(sq.__dict__))");
    assert_eq!(
        out,
        "9 16 2 sq <function sq ['__wrapped__', 'calls', 'unit']\n"
    );
}

#[test]
fn cmp_to_key_orders_through_the_comparison() {
    let mut s = Session::new();
    s.run("import functools").ok();
    let out = s.stdout("def cmp(a, b):\n    return (a > b) - (a < b)\nprint(sorted([5, 2, 9, 1], key=functools.cmp_to_key(cmp)), sorted(['bb', 'a', 'ccc'], key=functools.cmp_to_key(lambda a, b: len(b) - len(a))))\nK = functools.cmp_to_key(cmp)\nprint(K(1) < K(2), K(2) <= K(2), K(3) > K(2), K(2) == K(2), max([3, 7, 5], key=K), min('xay', key=K))\nprint(functools.WRAPPER_ASSIGNMENTS, functools.WRAPPER_UPDATES)");
    assert_eq!(out, "[1, 2, 5, 9] ['ccc', 'bb', 'a']\nTrue True True True 7 a\n('__module__', '__name__', '__qualname__', '__doc__', '__annotations__') ('__dict__',)\n");
}

#[test]
fn function_name_must_be_a_string() {
    let mut s = Session::new();
    s.run("def f(): pass").ok();
    let c = s.run("f.__name__ = 3");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert_eq!(c.evalue(), "__name__ must be set to a string object");
}

#[test]
fn total_ordering_derives_the_missing_comparisons_from_the_defined_one() {
    let mut s = Session::new();
    let out = s.stdout("import functools\n@functools.total_ordering\nclass A:\n    def __init__(s, v): s.v = v\n    def __eq__(s, o): return s.v == o.v\n    def __lt__(s, o): return s.v < o.v\nprint([(A(x) <= A(y), A(x) >= A(y), A(x) > A(y)) for x in (1, 2) for y in (1, 2)])\n@functools.total_ordering\nclass B:\n    def __init__(s, v): s.v = v\n    def __eq__(s, o): return s.v == o.v\n    def __ge__(s, o): return s.v >= o.v\nprint([(B(x) <= B(y), B(x) < B(y), B(x) > B(y)) for x in (1, 2) for y in (1, 2)])\nprint(sorted([B(3), B(1), B(2)])[0].v, max(A(4), A(9)).v)\n@functools.total_ordering\nclass G:\n    def __init__(s, v): s.v = v\n    def __eq__(s, o): return s.v == o.v\n    def __gt__(s, o): return s.v > o.v\n    def __le__(s, o): return s.v <= o.v\nprint([(G(x) < G(y), G(x) >= G(y)) for x in (1, 2) for y in (1, 2)])\nclass C:\n    def __lt__(s, o):\n        return NotImplemented\nD = functools.total_ordering(C)\nprint(D is C)\ntry:\n    C() >= C()\nexcept TypeError as e:\n    print(\"TypeError\", e)\ntry:\n    @functools.total_ordering\n    class E: pass\nexcept ValueError as e:\n    print(\"ValueError\", e)\n");
    assert_eq!(
        out,
        "[(True, True, False), (True, False, False), (False, True, True), (True, True, False)]\n\
         [(True, False, False), (True, True, False), (False, False, True), (True, False, False)]\n\
         1 9\n[(False, True), (True, False), (False, True), (False, True)]\nTrue\n\
         TypeError '>=' not supported between instances of 'C' and 'C'\n\
         ValueError must define at least one ordering operation: < > <= >=\n"
    );
    // Sequences name the operator that failed, not '<'.
    let c = s.run("[1] > ['a']");
    assert_eq!(
        c.evalue(),
        "'>' not supported between instances of 'int' and 'str'"
    );
}

#[test]
fn operator_getters_match_cpython() {
    // Expected output: CPython 3.11's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import operator as op\nrows = [('b', 2), ('a', 3), ('c', 1)]\nprint(sorted(rows, key=op.itemgetter(1)), op.itemgetter(0, 1)(rows[0]), op.itemgetter(1)('abc'))\nclass O:\n    size = 7\n    def greet(self, who, end='!'):\n        return 'hi ' + who + end\no = O()\no.inner = O()\nprint(op.attrgetter('size')(o), op.attrgetter('size', 'inner.size')(o), op.methodcaller('greet', 'bob')(o), op.methodcaller('greet', 'al', end='?')(o))\nprint(repr(op.itemgetter(1, 'a')), repr(op.attrgetter('x', 'y.z')), repr(op.methodcaller('greet', 'bob', end='?')))\nprint(op.contains([1, 2], 2), op.contains('abc', 'z'))\ntry:\n    op.itemgetter(1)()\nexcept TypeError as e:\n    print('TypeError:', e)\ntry:\n    op.attrgetter(1)\nexcept TypeError as e:\n    print('TypeError:', e)");
    assert_eq!(out, "[('c', 1), ('b', 2), ('a', 3)] ('b', 2) b\n7 (7, 7) hi bob! hi al?\noperator.itemgetter(1, 'a') operator.attrgetter('x', 'y.z') operator.methodcaller('greet', 'bob', end='?')\nTrue False\nTypeError: itemgetter expected 1 argument, got 0\nTypeError: attribute name must be a string\n");
}
