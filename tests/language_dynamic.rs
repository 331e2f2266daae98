//! Code that builds code, and the iterator protocol: `exec`, `eval`, `globals()`,
//! `locals()`, `textwrap`, `iter`/`next`, as Numba's own tests use them (they generate
//! kernels from source text). Expected values are CPython 3.11's output for the same cells.

mod common;
use common::Session;

#[test]
fn exec_and_eval_run_in_the_given_namespaces() {
    let mut s = Session::new();
    // With separate globals and locals, definitions land in locals and the function
    // still sees the globals.
    let out = s.stdout(
        "ld = {}\nexec('x = 1\\ndef f(y):\\n    return q + y\\n', {'q': 2}, ld)\n\
         print(sorted(ld), ld['f'](3), ld['x'])",
    );
    assert_eq!(out, "['f', 'x'] 5 1\n");
    let out =
        s.stdout("g = {'q': 2}\nexec('r = q * 3', g)\nprint(g['r'], eval('q + 1', {'q': 5}))");
    assert_eq!(out, "6 6\n");
    // Without namespaces, the caller's are used.
    let out = s.stdout("z = 10\nexec('w = z + 1')\nprint(w, eval('w * 2'))");
    assert_eq!(out, "11 22\n");
    let out = s.stdout("def h():\n    a = 4\n    return eval('a + 1')\nprint(h())");
    assert_eq!(out, "5\n");
    let c = s.run("exec('1 +')");
    assert_eq!(c.ename().as_deref(), Some("SyntaxError"));
    let c = s.run("exec('raise KeyError(7)', {})");
    assert_eq!(c.ename().as_deref(), Some("KeyError"));
    let c = s.run("exec('x = 1', [])");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert_eq!(c.evalue(), "exec() globals must be a dict, not list");
    let out =
        s.stdout("def k():\n    b = 1\n    return sorted(locals())\nprint(k(), 'z' in globals())");
    assert_eq!(out, "['b'] True\n");
}

#[test]
fn a_kernel_generated_by_exec_compiles_and_runs() {
    let mut s = Session::new();
    s.run("from numba import cuda\nimport numpy as np\nfrom textwrap import dedent")
        .ok();
    let out = s.stdout(
        "src = dedent('''\n    def k(a):\n        i = cuda.grid(1)\n        if i < a.size:\n            {op}\n    ''').format(op='a[i] *= 2')\n\
         ns = {}\nexec(src, {'cuda': cuda}, ns)\nk = cuda.jit(ns['k'])\n\
         a = np.arange(4.0)\nk[1, 4](a)\nprint(a)",
    );
    assert_eq!(out, "[0. 2. 4. 6.]\n");
}

#[test]
fn textwrap_dedent_and_indent_match_cpython() {
    let mut s = Session::new();
    s.run("import textwrap").ok();
    assert_eq!(
        s.eval("textwrap.dedent('\\n    def f():\\n        return 1\\n    ')"),
        "'\\ndef f():\\n    return 1\\n'"
    );
    assert_eq!(
        s.eval("textwrap.dedent('  a\\n   \\n    b')"),
        "'a\\n\\n  b'"
    );
    assert_eq!(s.eval("textwrap.dedent('  a\\n\\t b')"), "'  a\\n\\t b'");
    assert_eq!(
        s.eval("textwrap.indent('a\\n\\n b\\n', '> ')"),
        "'> a\\n\\n>  b\\n'"
    );
}

#[test]
fn iter_and_next_follow_the_iterator_protocol() {
    let mut s = Session::new();
    let out = s.stdout("it = iter([1, 2, 3])\nprint(next(it), list(it), next(it, 'end'))");
    assert_eq!(out, "1 [2, 3] end\n");
    let out = s.stdout(
        "it = iter({'a': 1, 'b': 2}.values())\nprint(next(it))\nfor v in it:\n    print(v)",
    );
    assert_eq!(out, "1\n2\n");
    let c = s.run("next(iter([]))");
    assert_eq!(c.ename().as_deref(), Some("StopIteration"));
    let c = s.run("next([1])");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert_eq!(c.evalue(), "'list' object is not an iterator");
}

#[test]
fn np_random_shuffle_matches_numpy_for_a_seed() {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    // NumPy 2.3: np.random.seed(n); np.random.shuffle(...) gives these orders.
    let out = s.stdout(
        "np.random.seed(0)\na = np.arange(10)\nnp.random.shuffle(a)\nprint(a.tolist())\n\
         np.random.seed(1)\nb = np.arange(12).reshape(4, 3)\nnp.random.shuffle(b)\nprint(b.tolist())\n\
         np.random.seed(2)\nl = list(range(6))\nnp.random.shuffle(l)\nprint(l, np.random.randint(0, 100))",
    );
    assert_eq!(
        out,
        "[2, 8, 4, 9, 1, 6, 7, 3, 0, 5]\n[[9, 10, 11], [6, 7, 8], [0, 1, 2], [3, 4, 5]]\n[4, 1, 3, 2, 5, 0] 7\n"
    );
}

#[test]
fn literal_arguments_of_device_functions_size_shared_arrays() {
    let mut s = Session::new();
    s.run("from numba import cuda, uint32\nimport numpy as np")
        .ok();
    // As in Numba's atomics tests: the shape and dtype reach cuda.shared.array through a
    // device function's parameters, from literals at the call site.
    let out = s.stdout(
        "@cuda.jit(device=True)\ndef count(ary, nelem, dtype, shape):\n    t = cuda.threadIdx.x\n\
         \x20   sm = cuda.shared.array(nelem, dtype)\n    grid = cuda.shared.array(shape, dtype)\n\
         \x20   sm[t] = 0\n    grid[t % 2, t % 3] = 0\n    cuda.syncthreads()\n\
         \x20   cuda.atomic.add(sm, ary[t] % nelem, 1)\n    cuda.syncthreads()\n    ary[t] = sm[t]\n\
         @cuda.jit\ndef k(ary):\n    count(ary, 8, uint32, (2, 3))\n\
         a = np.array([1, 1, 2, 7, 7, 7, 0, 3], dtype=np.uint32)\nk[1, 8](a)\nprint(a)",
    );
    assert_eq!(out, "[1 2 1 1 0 0 0 3]\n");
    let c = s.run(
        "@cuda.jit(device=True)\ndef bad(ary, n):\n    sm = cuda.shared.array(n, uint32)\n    ary[0] = sm[0]\n\
         @cuda.jit\ndef k2(ary, n):\n    bad(ary, n)\nk2[1, 1](np.zeros(2, dtype=np.uint32), 4)",
    );
    assert_eq!(c.ename().as_deref(), Some("TypingError"));
    assert!(
        c.evalue().contains("array shape 'n' must be a constant"),
        "{}",
        c.evalue()
    );
}

/// compile() parses at once (raising SyntaxError with msg, lineno, filename) and exec/eval run what it returns.
#[test]
fn compile_makes_code_for_exec_and_eval_and_syntax_errors_have_fields() {
    let mut s = Session::new();
    let out = s.stdout(
        r#"for src in ['if x:\npass', '  x = 1', 'for i in y:\n    a\n  b']:
    try:
        compile(src, '<src>', 'exec')
    except SyntaxError as e:
        print(type(e).__name__, e.msg, e.lineno, e.filename)
code = compile('z = 6 * 7', '<src>', 'exec')
exec(code)
print(z, eval(compile('z + 1', '<e>', 'eval')))
try:
    eval('1 +')
except SyntaxError as e:
    print(type(e).__name__, e.lineno)
"#,
    );
    assert_eq!(
        out,
        r#"IndentationError expected an indented block after 'if' statement on line 1 2 <src>
IndentationError unexpected indent 1 <src>
IndentationError unindent does not match any outer indentation level 3 <src>
42 43
SyntaxError 1
"#
    );
}

/// CPython's words for input cut short inside brackets (at the innermost open one) and for
/// a missing operand.
#[test]
fn syntax_errors_at_unclosed_brackets_and_missing_operands_read_as_cpythons() {
    let mut s = Session::new();
    let out = s.stdout(
        r#"for src in ['x = (1,', 'x = ([1,', 'f(\n', '1 +', 'x = = 2', 's = "(" + (']:
    try:
        compile(src, '<src>', 'exec')
    except SyntaxError as e:
        print(repr(src), e.msg, e.lineno, e.offset)
"#,
    );
    assert_eq!(
        out,
        r#"'x = (1,' '(' was never closed 1 5
'x = ([1,' '[' was never closed 1 6
'f(\n' '(' was never closed 1 2
'1 +' invalid syntax 1 4
'x = = 2' invalid syntax 1 5
's = "(" + (' '(' was never closed 1 11
"#
    );
}

#[test]
fn exec_and_locals_in_a_cell_loop_use_the_globals() {
    let mut s = Session::new();
    // A loop at module level runs compiled; `exec` there binds globals, as in the cell
    // around it, and the next iteration calls the new function.
    let out = s.stdout(
        "def f(x):\n    return x + 1\nr = []\nfor i in range(4):\n    r.append(f(i))\n    \
         if i == 1:\n        exec('def f(x): return x * 1000')\n\
         print(r, 'i' in locals(), 'f' in locals() and 'r' in locals())",
    );
    assert_eq!(out, "[1, 2, 2000, 3000] True True\n");
    let out = s.stdout(
        "for j in range(2):\n    exec('k = j * 5')\n    print(k, locals()['k'], globals()['k'])",
    );
    assert_eq!(out, "0 0 0\n5 5 5\n");
}
