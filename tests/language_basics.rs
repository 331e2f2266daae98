//! The cell language: statements, expressions, builtins, results.

mod common;
use common::Session;

#[test]
fn arithmetic_follows_python() {
    let mut s = Session::new();
    assert_eq!(s.eval("1 + 2 * 3"), "7");
    assert_eq!(s.eval("7 / 2"), "3.5");
    assert_eq!(s.eval("-7 // 2"), "-4");
    assert_eq!(s.eval("-7 % 3"), "2");
    assert_eq!(s.eval("2 ** 10"), "1024");
    assert_eq!(s.eval("2 ** -1"), "0.5");
    assert_eq!(s.eval("0.1 + 0.2"), "0.30000000000000004");
    assert_eq!(s.eval("1e-5"), "1e-05");
    assert_eq!(s.eval("3 < 5 <= 5 != 4"), "True");
    assert_eq!(s.eval("not 0 or 'x'"), "True");
    assert_eq!(s.eval("'ab' * 3"), "'ababab'");
}

#[test]
fn integers_grow_past_64_bits() {
    let mut s = Session::new();
    assert_eq!(s.eval("2 ** 64"), "18446744073709551616");
    let c = s.run("1 / 0");
    assert_eq!(c.ename().as_deref(), Some("ZeroDivisionError"));
    assert_eq!(c.evalue(), "division by zero");
}

#[test]
fn control_flow_and_functions() {
    let mut s = Session::new();
    let out = s.stdout(
        "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\
         total = 0\ni = 0\nwhile True:\n    i += 1\n    if i % 2 == 0:\n        continue\n    if i > 9:\n        break\n    total += i\n\
         print(fib(10), total)",
    );
    assert_eq!(out, "55 25\n");
}

#[test]
fn closures_defaults_kwargs_and_varargs() {
    let mut s = Session::new();
    let out = s.stdout(
        "def make_adder(k):\n    def add(x, scale=1, *rest, **opts):\n        return (x + k) * scale + sum(rest) + len(opts)\n    return add\n\
         f = make_adder(10)\nprint(f(1), f(1, 2), f(1, 2, 3, 4), f(1, flag=True))",
    );
    assert_eq!(out, "11 22 29 12\n");
    let c = s.run("f()");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert!(
        c.evalue()
            .contains("missing 1 required positional argument: 'x'"),
        "{}",
        c.evalue()
    );
}

#[test]
fn decorators_apply_bottom_up() {
    let mut s = Session::new();
    let out = s.stdout(
        "def twice(f):\n    return lambda x: f(f(x))\ndef inc(f):\n    return lambda x: f(x) + 1\n\
         @twice\n@inc\ndef double(x):\n    return 2 * x\nprint(double(3))",
    );
    // inc(double)(x) = 2x + 1; twice of that: 2(2*3+1)+1 = 15.
    assert_eq!(out, "15\n");
}

#[test]
fn containers_comprehensions_and_unpacking() {
    let mut s = Session::new();
    assert_eq!(
        s.eval("[x * x for x in range(5) if x % 2 == 0]"),
        "[0, 4, 16]"
    );
    assert_eq!(
        s.eval("{k: v for k, v in zip('abc', range(3))}"),
        "{'a': 0, 'b': 1, 'c': 2}"
    );
    assert_eq!(
        s.eval("first, *middle, last = [1, 2, 3, 4]\n(first, middle, last)"),
        "(1, [2, 3], 4)"
    );
    assert_eq!(
        s.eval("d = {'a': 1}\nd['b'] = 2\nd.get('c', 3), sorted(d.items(), reverse=True)"),
        "(3, [('b', 2), ('a', 1)])"
    );
    assert_eq!(
        s.eval("list(enumerate(['x', 'y'], start=1))"),
        "[(1, 'x'), (2, 'y')]"
    );
    assert_eq!(s.eval("l = [3, 1, 2]\nl.sort()\nl[::-1]"), "[3, 2, 1]");
    assert_eq!(s.eval("(1,)"), "(1,)");
    assert_eq!(s.eval("{1, 2, 2}"), "{1, 2}");
}

#[test]
fn strings_and_fstrings() {
    let mut s = Session::new();
    assert_eq!(
        s.eval("x = 3.14159\nf'{x:.2f}|{x:>8.3f}|{1234567:,}|{42:05d}|{\"hi\"!r}'"),
        "\"3.14|   3.142|1,234,567|00042|'hi'\""
    );
    assert_eq!(
        s.eval("'{} and {name}'.format(1, name='two')"),
        "'1 and two'"
    );
    assert_eq!(s.eval("'%s=%.1f' % ('a', 2.25)"), "'a=2.2'");
    assert_eq!(s.eval("', '.join(['a', 'b']).upper()"), "'A, B'");
    assert_eq!(
        s.eval("f'{0.5:.0%} {1e-7:.2e} {123.456:g}'"),
        "'50% 1.00e-07 123.456'"
    );
}

#[test]
fn last_expression_result_and_semicolon() {
    let mut s = Session::new();
    let c = s.run("x = 41\nx + 1");
    assert_eq!(c.result().as_deref(), Some("42"));
    let c = s.run("x + 1;");
    assert_eq!(c.result(), None);
    let c = s.run("None");
    assert_eq!(c.result(), None);
    let c = s.run("print('a')");
    assert_eq!(c.result(), None);
    assert_eq!(c.out.stdout, "a\n");
}

#[test]
fn print_options_and_stderr() {
    let mut s = Session::new();
    let c = s.run("import sys\nprint(1, 2, sep='-', end='!')\nprint('oops', file=sys.stderr)");
    c.ok();
    assert_eq!(c.out.stdout, "1-2!");
    assert_eq!(c.out.stderr, "oops\n");
}

#[test]
fn exceptions_try_except_finally() {
    let mut s = Session::new();
    let out = s.stdout(
        "log = []\ntry:\n    {}['missing']\nexcept (IndexError, KeyError) as e:\n    log.append('caught ' + repr(str(e)))\nelse:\n    log.append('else')\nfinally:\n    log.append('finally')\n\
         try:\n    raise ValueError('bad value')\nexcept Exception as e:\n    log.append(str(e))\nprint(log)",
    );
    assert_eq!(
        out,
        "['caught \"\\'missing\\'\"', 'finally', 'bad value']\n"
    );
}

#[test]
fn errors_carry_the_python_class_and_a_caret() {
    let mut s = Session::new();
    let c = s.run("a = 1\nb = a + undefined_name\n");
    assert_eq!(c.ename().as_deref(), Some("NameError"));
    assert_eq!(c.evalue(), "name 'undefined_name' is not defined");
    let tb = c.traceback();
    assert!(tb.contains("Cell In[1], line 2"), "{tb}");
    assert!(tb.contains("b = a + undefined_name"), "{tb}");
    // The caret sits under the name, not under the whole line.
    let caret_line = tb
        .lines()
        .find(|l| l.trim_start().starts_with('^'))
        .expect("a caret line");
    let src_line = tb
        .lines()
        .find(|l| l.contains("b = a + undefined_name"))
        .expect("source line");
    assert_eq!(
        caret_line.find('^'),
        src_line.find("undefined_name"),
        "{tb}"
    );
    assert_eq!(caret_line.trim().len(), "undefined_name".len());
}

#[test]
fn syntax_errors_and_unsupported_constructs_are_reported() {
    let mut s = Session::new();
    let c = s.run("x = (1,\n");
    assert_eq!(c.ename().as_deref(), Some("SyntaxError"));
    let c = s.run("class A(list):\n    pass");
    assert_eq!(c.ename().as_deref(), Some("NotImplementedError"));
    assert!(c.evalue().contains("built-in type 'list'"));
    let c = s.run("def g():\n    x = [(yield 1)]\nlist(g())");
    assert_eq!(c.ename().as_deref(), Some("NotImplementedError"));
    // A module nothing provides is CPython's ModuleNotFoundError (an ImportError, which
    // `try: import x except ImportError:` catches), with what nbcuda has as a hint.
    let c = s.run("import pandas");
    assert_eq!(c.ename().as_deref(), Some("ModuleNotFoundError"));
    assert_eq!(c.evalue(), "No module named 'pandas'");
    assert!(c.traceback().contains("numpy"));
    // The session goes on with its state.
    s.run("y = 5").ok();
    assert_eq!(s.eval("y"), "5");
}

#[test]
fn globals_with_and_assert() {
    let mut s = Session::new();
    let out = s.stdout("counter = 0\ndef bump():\n    global counter\n    counter += 1\nbump()\nbump()\nprint(counter)");
    assert_eq!(out, "2\n");
    let c = s.run("assert 1 == 2, 'not equal'");
    assert_eq!(c.ename().as_deref(), Some("AssertionError"));
    assert_eq!(c.evalue(), "not equal");
}

#[test]
fn builtins_behave() {
    let mut s = Session::new();
    assert_eq!(s.eval("min(3, 1, 2), max([4, 9, 2]), sum(range(101)), abs(-2.5), round(2.5), round(3.14159, 2)"), "(1, 9, 5050, 2.5, 2, 3.14)");
    assert_eq!(
        s.eval("int('42') + int(3.9), float('1.5'), str(10), bool([])"),
        "(45, 1.5, '10', False)"
    );
    assert_eq!(
        s.eval("isinstance(1, int), isinstance('a', (int, str)), type(1.0)"),
        "(True, True, <class 'float'>)"
    );
    assert_eq!(
        s.eval("hasattr('x', 'upper'), getattr([], 'nope', 'default')"),
        "(True, 'default')"
    );
    assert_eq!(
        s.eval("len({'a': 1}), sorted([3, 1, 2], key=lambda v: -v)"),
        "(1, [3, 2, 1])"
    );
    assert_eq!(s.eval("input('name? ')"), "'typed'");
}

#[test]
fn math_module() {
    let mut s = Session::new();
    assert_eq!(
        s.eval("import math\nmath.sqrt(16), math.floor(-1.5), math.pi"),
        "(4.0, -2, 3.141592653589793)"
    );
    assert!((s.eval("math.erf(0.5)").parse::<f64>().unwrap() - 0.5204998778130465).abs() < 1e-15);
    assert!((s.eval("math.gamma(5.5)").parse::<f64>().unwrap() - 52.34277778455352).abs() < 1e-9);
    let c = s.run("math.sqrt(-1)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
}

#[test]
fn long_results_are_pretty_printed_like_ipython() {
    let mut s = Session::new();
    let r = s.eval("{'shape': (5000000,), 'typestr': '<f4', 'descr': [('', '<f4')], 'stream': 1, 'version': 3, 'strides': None, 'data': (140245373173760, False)}");
    assert_eq!(
        r,
        "{'shape': (5000000,),\n 'typestr': '<f4',\n 'descr': [('', '<f4')],\n 'stream': 1,\n 'version': 3,\n 'strides': None,\n 'data': (140245373173760, False)}"
    );
}

/// A name assigned anywhere in a function is local to all of it (UnboundLocalError before the assignment), unless declared global or nonlocal; comprehension variables stay the comprehension's.
#[test]
fn names_a_function_assigns_are_local_to_all_of_its_body() {
    let mut s = Session::new();
    let out = s.stdout(
        r#"x = 'global'
def f():
    print(x)
    x = 'local'
try:
    f()
except UnboundLocalError as e:
    print(type(e).__name__, e, isinstance(e, NameError))
def g():
    global x
    print(x)
    x = 'set'
g(); print(x)
def h(n):
    if n:
        y = 1
    del n
    try:
        return n
    except NameError as e:
        return str(e)
print(h(0))
def k():
    return [x for x in range(2)], x
print(k())
def outer():
    v = 1
    def inner():
        nonlocal v
        v += 1
        return v
    return inner()
print(outer())
"#,
    );
    assert_eq!(
        out,
        r#"UnboundLocalError cannot access local variable 'x' where it is not associated with a value True
global
set
cannot access local variable 'n' where it is not associated with a value
([0, 1], 'set')
2
"#
    );
}

/// Call errors count and list parameters as CPython does, keyword-only ones apart.
#[test]
fn call_errors_name_keyword_only_parameters_as_cpython_does() {
    let mut s = Session::new();
    let out = s.stdout(
        r#"def f(a, b=2, *, c):
    return a
def g(a, b, c):
    pass
def k(*, c, d):
    pass
for call in ['f()', 'f(1)', 'f(1, 2, 3, c=4)', 'f(1, c=2, d=3)', 'f(1, a=1, c=3)', 'f(1, 2, 3)', 'g()', 'g(1, 2, 3, 4)', 'k()', 'k(1)', 'k(1, c=1)', 'g(1, 2, 3, 4, z=1)']:
    try:
        eval(call)
    except TypeError as e:
        print(call, '->', e)
"#,
    );
    assert_eq!(
        out,
        r#"f() -> f() missing 1 required positional argument: 'a'
f(1) -> f() missing 1 required keyword-only argument: 'c'
f(1, 2, 3, c=4) -> f() takes from 1 to 2 positional arguments but 3 positional arguments (and 1 keyword-only argument) were given
f(1, c=2, d=3) -> f() got an unexpected keyword argument 'd'
f(1, a=1, c=3) -> f() got multiple values for argument 'a'
f(1, 2, 3) -> f() takes from 1 to 2 positional arguments but 3 were given
g() -> g() missing 3 required positional arguments: 'a', 'b', and 'c'
g(1, 2, 3, 4) -> g() takes 3 positional arguments but 4 were given
k() -> k() missing 2 required keyword-only arguments: 'c' and 'd'
k(1) -> k() takes 0 positional arguments but 1 was given
k(1, c=1) -> k() takes 0 positional arguments but 1 positional argument (and 1 keyword-only argument) were given
g(1, 2, 3, 4, z=1) -> g() got an unexpected keyword argument 'z'
"#
    );
}
