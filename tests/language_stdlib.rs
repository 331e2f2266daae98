//! The small standard modules Numba's tests and tutorials import: `operator`, `functools`, `re`
//! and `itertools` (whose iterators nbcuda builds as lists). Expected values are CPython
//! 3.11's output for the same cells.

mod common;
use common::Session;

#[test]
fn operator_functions_match_the_operators() {
    let mut s = Session::new();
    s.run("import operator").ok();
    let out = s.stdout(
        "print(operator.add(2, 3), operator.truediv(7, 2), operator.lt(1, 2), operator.neg(4), operator.getitem([5, 6], 1))",
    );
    assert_eq!(out, "5 3.5 True -4 6\n");
    let c = s.run("operator.add(1)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
}

#[test]
fn operator_functions_inside_kernels_are_the_operators() {
    let mut s = Session::new();
    s.run("import operator\nimport numpy as np\nfrom numba import cuda")
        .ok();
    // As Numba's test_operator does: the function reaches the kernel as a closure variable.
    let out = s.stdout(
        "def run(op, x, y):\n    @cuda.jit\n    def k(a, b, out):\n        out[0] = op(a[0], b[0])\n\
         \x20   out = np.zeros(1)\n    k[1, 1](np.array([x]), np.array([y]), out)\n    return out[0]\n\
         print(run(operator.add, 7.0, 2.0), run(operator.floordiv, 7.0, 2.0), run(operator.mod, -7.0, 2.0), run(operator.gt, 1.0, 2.0))",
    );
    assert_eq!(out, "9.0 3.0 1.0 0.0\n");
    let c = s.run("run(operator.getitem, 1.0, 2.0)");
    assert_eq!(c.ename().as_deref(), Some("TypingError"));
}

#[test]
fn functools_partial_and_reduce() {
    let mut s = Session::new();
    s.run("import functools, operator").ok();
    let out = s.stdout(
        "p = functools.partial(pow, 2)\n\
         print(p(10), functools.reduce(operator.mul, [1, 2, 3, 4]), functools.reduce(operator.add, [], 7))\n\
         def f(a, b=1, c=2):\n    return (a, b, c)\n\
         q = functools.partial(f, 1, c=5)\nprint(q(), q(3), q(c=9))",
    );
    assert_eq!(out, "1024 24 7\n(1, 1, 5) (1, 3, 5) (1, 1, 9)\n");
    let c = s.run("functools.reduce(operator.add, [])");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
}

#[test]
fn itertools_combinatorics_in_cpython_order() {
    let mut s = Session::new();
    s.run("import itertools").ok();
    let out = s.stdout(
        "print(list(itertools.product('ab', range(2))))\n\
         print(list(itertools.product(range(2), repeat=2)))\n\
         print(list(itertools.combinations([1, 2, 3], 2)), list(itertools.permutations('abc', 2))[:3], list(itertools.chain([1], (2, 3))))\n\
         for i, j in itertools.product(range(2), 'xy'):\n    print(i, j)",
    );
    assert_eq!(
        out,
        "[('a', 0), ('a', 1), ('b', 0), ('b', 1)]\n[(0, 0), (0, 1), (1, 0), (1, 1)]\n\
         [(1, 2), (1, 3), (2, 3)] [('a', 'b'), ('a', 'c'), ('b', 'a')] [1, 2, 3]\n0 x\n0 y\n1 x\n1 y\n"
    );
    // A product too large to build as a list is refused, not attempted.
    let c = s.run("itertools.product(range(10**4), repeat=3)");
    assert_eq!(c.ename().as_deref(), Some("MemoryError"));
    // Edge cases, as CPython 3.11 gives them.
    let out = s.stdout(
        "print(list(itertools.combinations(range(4), 0)), list(itertools.permutations([], 0)), len(list(itertools.combinations(range(100), 98))), list(itertools.permutations(range(3)))[-2:], list(itertools.product(range(1), repeat=3)), list(itertools.product([], repeat=5)), list(itertools.product(repeat=3)))",
    );
    assert_eq!(
        out,
        "[()] [()] 4950 [(2, 0, 1), (2, 1, 0)] [(0, 0, 0)] [] [()]\n"
    );
    // Sizes a cell chooses are checked before any work: a huge repeat or r neither runs
    // for ever nor recurses past the stack.
    for cell in [
        "itertools.product(range(2), repeat=10**12)",
        "itertools.product(range(1), repeat=10**12)",
        "itertools.permutations(range(10**5), 2)",
    ] {
        let c = s.run(cell);
        assert_eq!(c.ename().as_deref(), Some("MemoryError"), "{cell}");
    }
    assert_eq!(
        s.eval("len(list(itertools.combinations(range(300000), 300000)))"),
        "1"
    );
    assert_eq!(
        s.eval("len(list(itertools.permutations(range(300000), 1)))"),
        "300000"
    );
}

#[test]
fn numba_core_errors_classes_catch_compiler_errors() {
    let mut s = Session::new();
    s.run("from numba import cuda, float32\nimport numpy as np\nfrom numba.core.errors import TypingError, NumbaError")
        .ok();
    let out = s.stdout(
        "def bad(A):\n    sa = cuda.shared.array(shape=A[0], dtype=float32)\n    A[0] = sa[0]\n\
         try:\n    cuda.jit((float32[:],))(bad)\nexcept TypingError as e:\n    print('typing', isinstance(e, NumbaError))",
    );
    assert_eq!(out, "typing True\n");
    let out = s.stdout("import numba.core.errors as errs\nprint(errs.TypingError.__name__)");
    assert_eq!(out, "TypingError\n");
}

#[test]
fn re_module_matches_cpython() {
    let mut s = Session::new();
    // Expected: CPython 3.11's output for the same lines.
    let out = s.stdout("import re\nm = re.search(r'(\\d+)-(?P<w>\\w+)', 'ab 12-xy z')\nprint(m, m.group(), m.group(1), m.group('w'), m.groups(), m.span(), m.start(2), m.groupdict(), m[1])\nprint(re.match('b', 'abc'), bool(re.match('a', 'abc')), re.fullmatch(r'a\\w', 'ab'), re.fullmatch('a', 'ab'))\nprint(re.findall(r'\\d', 'a1b22'), re.findall(r'(\\w)(\\d)', 'a1 b2'), re.findall(r'x(\\d)', 'x1x2'))\nprint(re.sub(r'(\\w)(\\d)', r'\\2\\1', 'a1 b2'), re.subn('a', '$', 'aaa', count=2), re.sub('b', lambda m: m.group().upper(), 'abcb'))\nprint(re.split(r',\\s*', 'a, b,c'), re.split(r'(,)', 'a,b'), re.escape('a.b*c'))\np = re.compile(r'ld\\.global', re.I); print(p.search('LD.GLOBAL.f32') is not None, p.pattern, p.groups)\nprint(re.search('é(.)', 'café!'), re.findall(r'^\\w', 'ab\\ncd', re.M))\n");
    assert_eq!(out, "<re.Match object; span=(3, 8), match='12-xy'> 12-xy 12 xy ('12', 'xy') (3, 8) 6 {'w': 'xy'} 12\nNone True <re.Match object; span=(0, 2), match='ab'> None\n['1', '2', '2'] [('a', '1'), ('b', '2')] ['1', '2']\n1a 2b ('$$a', 2) aBcB\n['a', 'b', 'c'] ['a', ',', 'b'] a\\.b\\*c\nTrue ld\\.global 0\n<re.Match object; span=(3, 5), match='é!'> ['a', 'c']\n");
    // Positional maxsplit, count and flags land where CPython puts them.
    let out = s.stdout(
        "print(re.split(',', 'a,b,c', 1), re.sub('a', 'b', 'aaa', 2), re.findall('A', 'aA', re.I))",
    );
    assert_eq!(out, "['a', 'b,c'] bba ['a', 'A']\n");
    // Look-around and backreferences, in patterns and replacements.
    let out = s.stdout("print(re.findall(r'(?<=\\$)\\d+(?!\\d|%)', '$12 $3% 7'), re.sub(r'(\\w)\\1', r'<\\g<1>>', 'aabcc'), re.sub(r'(?P<c>o)(?P=c)', r'\\g<c>0', 'moon'))");
    assert_eq!(out, "['12'] <a>b<c> mo0n\n");
}

#[test]
fn re_catastrophic_backtracking_raises_instead_of_hanging() {
    // CPython would run for ages on these; the backtrack limit ends each search with a
    // RuntimeError naming it, and the kernel stays usable.
    let mut s = Session::new();
    let out = s.stdout("import re\nfor p, t in [(r'(x+x+)+(?>y)', 'x' * 40 + 'zy'), (r'(a|b|ab)*(?>c)', 'ab' * 30 + 'xc')]:\n    try:\n        re.search(p, t)\n    except RuntimeError as e:\n        print('backtrack limit' in str(e))\nprint(re.search(r'(a+)+$', 'a' * 40 + 'b'), re.sub(r'(a+)+$', '-', 'aaa'))");
    assert_eq!(out, "True\nTrue\nNone -\n");
}

#[test]
fn platform_and_numba_numpy_support_import() {
    // Numba's tests import both: platform to pick paths by architecture, numpy_support
    // for from_dtype.
    let mut s = Session::new();
    assert_eq!(
        s.eval("import platform\nplatform.machine()"),
        format!("'{}'", std::env::consts::ARCH)
    );
    assert_eq!(s.eval("platform.system()"), "'Linux'");
    assert_eq!(
        s.eval("import numpy as np\nfrom numba.np import numpy_support as nps\nnps.from_dtype(np.dtype(np.float32))"),
        "float32"
    );
}

#[test]
fn types_module_makes_modules_and_namespaces() {
    let mut s = Session::new();
    // CPython 3.11 prints the same for these statements.
    let out = s.stdout(
        "import types\nns = types.SimpleNamespace(a=1, b='x')\nns.c = [1]\n\
         print(ns, ns.a, types.SimpleNamespace(a=1, b='x', c=[1]) == ns)\n\
         m = types.ModuleType('mm')\nm.f = len\nprint(m.__name__, type(m), m.f('abc'))",
    );
    assert_eq!(
        out,
        "namespace(a=1, b='x', c=[1]) 1 True\nmm <class 'module'> 3\n"
    );
    // A kernel reaches a @jit function through a module made this way (Numba's
    // test_cpu_dispatcher_other_module).
    let out = s.stdout(
        "import numpy as np\nfrom numba import cuda, jit\n@jit\ndef add(a, b):\n    return a + b\n\
         m.add = add\n@cuda.jit\ndef k(a):\n    i = cuda.grid(1)\n    a[i] = m.add(a[i], 1)\n\
         x = np.arange(4)\nk[1, 4](x)\nprint(x)",
    );
    assert_eq!(out, "[1 2 3 4]\n");
}

#[test]
fn string_capwords_and_template_match_cpython() {
    // Expected output: CPython 3.11's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import string\nprint(string.capwords('hello big   world'), string.capwords(' aBC  dEF '), string.capwords('a-b-c', '-'))\nt = string.Template('$who likes ${what}s, $$5')\nprint(t.substitute(who='Ann', what='cat'), '|', t.safe_substitute(who='Bo'), '|', t.substitute({'who': 'Cy', 'what': 1}), '|', t.template)\ntry:\n    t.substitute(who='x')\nexcept KeyError as e:\n    print('KeyError:', e)\ntry:\n    string.Template('a $ b').substitute()\nexcept ValueError as e:\n    print('ValueError:', e)\nprint(string.Template('a $ b $x').safe_substitute(x=1))");
    assert_eq!(out, "Hello Big World Abc Def A-B-C\nAnn likes cats, $5 | Bo likes ${what}s, $5 | Cy likes 1s, $5 | $who likes ${what}s, $$5\nKeyError: 'what'\nValueError: Invalid placeholder in string: line 1, col 3\na $ b 1\n");
}

#[test]
fn textwrap_wrap_fill_shorten_match_cpython() {
    // Expected output: CPython 3.11's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import textwrap\ns = 'The quick brown fox jumps over the lazy dog and keeps running far away.'\nprint(textwrap.wrap(s, 20))\nprint(textwrap.fill(s, width=30))\nprint(textwrap.shorten(s, width=30), '|', textwrap.shorten('Hello  world', width=40), '|', textwrap.shorten(s, 25, placeholder='...'))\nprint(textwrap.wrap('a well-known anti-pattern is supercalifragilisticexpialidocious', 12))\nprint(textwrap.wrap('abcdefghijklmnop', 5), textwrap.wrap('abcdefghij klm', 5, break_long_words=False), textwrap.wrap('', 5), textwrap.wrap('   ', 5))\nprint(textwrap.fill('one two three four five', 10, initial_indent='* ', subsequent_indent='  '))\nprint(textwrap.wrap('a b c d e f g h', 5, max_lines=2), textwrap.wrap('tab\\there  x', 8))\ntry:\n    textwrap.wrap('x', 0)\nexcept ValueError as e:\n    print('ValueError:', e)");
    assert_eq!(out, "['The quick brown fox', 'jumps over the lazy', 'dog and keeps', 'running far away.']\nThe quick brown fox jumps over\nthe lazy dog and keeps running\nfar away.\nThe quick brown fox [...] | Hello world | The quick brown fox...\n['a well-known', 'anti-pattern', 'is supercali', 'fragilistice', 'xpialidociou', 's']\n['abcde', 'fghij', 'klmno', 'p'] ['abcdefghij', 'klm'] [] []\n* one two\n  three\n  four\n  five\n['a b c', '[...]'] ['tab', 'here  x']\nValueError: invalid width 0 (must be > 0)\n");
}

#[test]
fn re_error_messages_match_cpython() {
    // Expected output: CPython 3.11's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import re\nfor p in ['(unclosed', 'a)', '[abc', '*a', 'a**', '\\\\q']:\n    try:\n        re.compile(p)\n    except re.error as e:\n        print(e)");
    assert_eq!(out, "missing ), unterminated subpattern at position 0\nunbalanced parenthesis at position 1\nunterminated character set at position 0\nnothing to repeat at position 0\nmultiple repeat at position 2\nbad escape \\q at position 0\n");
}

#[test]
fn re_error_wording_matches_cpython_and_accepts_valid_patterns() {
    use nbcuda::interp::re_syntax::{cpython_error, has_inline_flag};
    // Expected messages are CPython 3.11's `re.compile` errors for the same patterns.
    let cases = [
        (
            "(unclosed",
            "missing ), unterminated subpattern at position 0",
        ),
        ("((a)", "missing ), unterminated subpattern at position 0"),
        ("(a(b", "missing ), unterminated subpattern at position 2"),
        ("a)", "unbalanced parenthesis at position 1"),
        ("[abc", "unterminated character set at position 0"),
        ("*a", "nothing to repeat at position 0"),
        ("a**", "multiple repeat at position 2"),
        ("a{2,1}", "min repeat greater than max repeat at position 2"),
        ("\\", "bad escape (end of pattern) at position 0"),
        ("\\q", "bad escape \\q at position 0"),
        (
            "(?P<n>a",
            "missing ), unterminated subpattern at position 0",
        ),
        ("a|*", "nothing to repeat at position 2"),
        ("(*a)", "nothing to repeat at position 1"),
        ("a*?*", "multiple repeat at position 3"),
        ("a{3}{2}", "multiple repeat at position 4"),
        ("[]", "unterminated character set at position 0"),
        ("(a)\\2", "invalid group reference 2 at position 4"),
        ("\\1", "invalid group reference 1 at position 1"),
        ("(a\\1)", "cannot refer to an open group at position 2"),
        ("(?P=x)", "unknown group name 'x' at position 4"),
        ("(?P<x>a)(?P=y)", "unknown group name 'y' at position 12"),
    ];
    for (p, want) in cases {
        assert_eq!(cpython_error(p).as_deref(), Some(want), "pattern {p:?}");
    }
    // Patterns CPython 3.11 compiles.
    for ok in [
        r"^(\w+):\s*(.*)$",
        r"(?P<year>\d{4})-(?P=year)",
        r"(?<=a)b(?!c)(?:d|e)+?",
        r"(?i)x{2,}y{,3}z{1}?",
        r"[]a]\]\(\)(?#note)",
        r"a*+b++c?+",
        r"\bword\b\Z\A",
        r"a{x}",
        r"(a)[b]\d*?",
        r"(a)(b)\2\1(?:c)\1",
        r"\0\012(a)\123",
        r"(?P<q>['\x22]).*?(?P=q)",
    ] {
        assert_eq!(cpython_error(ok), None, "pattern {ok:?}");
    }
    assert!(has_inline_flag("(?ix) a # b", 'x'));
    assert!(has_inline_flag("(?im)^a$", 'm'));
    assert!(!has_inline_flag("(?i)a", 'x'));
}

#[test]
fn re_pos_endpos_dollar_and_look_behind_width_match_cpython() {
    let mut s = Session::new();
    // Expected: CPython 3.11's output for the same lines.
    let out = s.stdout("import re\np = re.compile(r'\\w+')\nprint(p.search('hello world', 3, 8), p.match('hello world', 5), p.fullmatch('hello world', 0, 5))\nprint(p.findall('ab cd ef', 1, 7), p.search('abc', 2, 1), re.compile('^a').search('ba', 1), re.compile(r'\\bb').search('ab', 1), re.compile('(?<=a)b').match('ab', 1))\nm = p.search('héllo wörld', 3, 9)\nprint(m, m.pos, m.endpos, m.re is p)");
    assert_eq!(out, "<re.Match object; span=(3, 5), match='lo'> None <re.Match object; span=(0, 5), match='hello'>\n['b', 'cd', 'e'] None None None <re.Match object; span=(1, 2), match='b'>\n<re.Match object; span=(3, 5), match='lo'> 3 9 True\n");
    let out = s.stdout("print(re.search('a$', 'a\\n'), re.search('a$', 'a\\n\\n'), re.findall('$', 'a\\nb\\n'), repr(re.sub('$', 'X', 'ab\\n')), re.fullmatch('x$', 'x\\n'), re.search(r'[$]', 'a$\\n'))");
    assert_eq!(out, "<re.Match object; span=(0, 1), match='a'> None ['', ''] 'abX\\nX' None <re.Match object; span=(1, 2), match='$'>\n");
    let out = s.stdout("for p in ['(?<=a|bc)x', '(?<!ab|c)x', '(?<=a{1,2})x', '(?<=a|b)x']:\n    try:\n        print(re.compile(p).findall('ax bcx'))\n    except re.error as e:\n        print(e)");
    assert_eq!(out, "look-behind requires fixed-width pattern\nlook-behind requires fixed-width pattern\nlook-behind requires fixed-width pattern\n['x']\n");
}

#[test]
fn str_search_ranges_and_splitlines_match_cpython() {
    let mut s = Session::new();
    // Expected: CPython 3.11's output for the same lines.
    let out = s.stdout("s = 'abcabc'\nprint(s.find('c', -2), s.find('', 6), s.find('', 7), s.find('b', 1, 2), s.rfind('a', 0, 3), s.count('', 1), s.count('bc', -3, -1), s.startswith('', 7), s.endswith(('x', 'ca'), 0, 4), 'héllo'.find('l', 3))\nprint('a\\r\\nb\\rc\\x0bd\\x85e\\n\\n'.splitlines(True), 'a\\r\\nb\\n'.splitlines())");
    assert_eq!(out, "5 6 -1 1 0 6 0 False True 3\n['a\\r\\n', 'b\\r', 'c\\x0b', 'd\\x85', 'e\\n', '\\n'] ['a', 'b']\n");
}
