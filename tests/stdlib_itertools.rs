//! `itertools` as lazy iterators, against CPython 3.11: infinite ones (`count`, `repeat`,
//! `cycle`) end under `islice`/`takewhile`/`zip`, inputs are consumed only as far as
//! needed, and every function yields what CPython's does. Expected outputs are CPython's.

mod common;
use common::Session;

#[test]
fn infinite_iterators_end_under_islice() {
    let mut s = Session::new();
    s.run("from itertools import count, islice, repeat, cycle, takewhile")
        .ok();
    let out = s.stdout("print(list(islice(count(), 5)), list(islice(count(10, 2.5), 3)), list(islice('abcdefg', 2, None, 2)), list(islice(range(10), 1, 8, 3)))\nprint(list(repeat('x', 3)), list(islice(repeat(1), 4)), list(islice(cycle('ab'), 5)), list(cycle([])), list(takewhile(lambda x: x < 3, count())))\nc = count()\nprint(next(c), next(c), next(c))\nfor i in count(3):\n    if i > 6:\n        break\n    print(i, end=' ')\nprint()\nprint(list(islice((x * x for x in count()), 4)), list(zip(count(1), 'abc')), list(islice(map(str, count()), 3)), list(islice(enumerate(count(5)), 2)))");
    assert_eq!(out, "[0, 1, 2, 3, 4] [10, 12.5, 15.0] ['c', 'e', 'g'] [1, 4, 7]\n['x', 'x', 'x'] [1, 1, 1, 1] ['a', 'b', 'a', 'b', 'a'] [] [0, 1, 2]\n0 1 2\n3 4 5 6 \n[0, 1, 4, 9] [(1, 'a'), (2, 'b'), (3, 'c')] ['0', '1', '2'] [(0, 5), (1, 6)]\n");
}

#[test]
fn islice_consumes_only_what_it_yields() {
    let mut s = Session::new();
    s.run("from itertools import islice").ok();
    let out = s.stdout("src = iter([1, 2, 3, 4, 5])\nprint(list(islice(src, 2)), list(src))\ns = 'abcdef'\nprint(list(zip(*[iter(s)] * 2)))");
    assert_eq!(
        out,
        "[1, 2] [3, 4, 5]\n[('a', 'b'), ('c', 'd'), ('e', 'f')]\n"
    );
}

#[test]
fn lazy_itertools_match_cpython() {
    let mut s = Session::new();
    s.run("import itertools as it\nfrom itertools import accumulate, zip_longest, chain, groupby, dropwhile, starmap").ok();
    let out = s.stdout("print(list(accumulate([1, 2, 3, 4])), list(accumulate([1, 2, 3], lambda a, b: a * b)), list(accumulate([1, 2], initial=10)), list(accumulate([])))\nprint(list(zip_longest('abc', [1], fillvalue='-')), list(zip_longest()), list(chain('ab', [1, 2])), list(chain.from_iterable(['xy', 'z'])))\nprint(list(dropwhile(lambda x: x < 3, range(6))), list(starmap(pow, [(2, 3), (3, 2)])))\nprint([(k, list(g)) for k, g in groupby('aaabbcaa')], [(k, len(list(g))) for k, g in groupby([1, 2, 4, 5, 7], key=lambda x: x // 2)])\nprint(list(it.filterfalse(lambda x: x % 2, range(7))), list(it.compress('abcdef', [1, 0, 1, 0, 1, 1])), list(it.pairwise('abcd')))\nx = chain([1], [2])\nprint(next(x), next(x), next(x, 'done'))");
    assert_eq!(out, "[1, 3, 6, 10] [1, 2, 6] [10, 11, 13] []\n[('a', 1), ('b', '-'), ('c', '-')] [] ['a', 'b', 1, 2] ['x', 'y', 'z']\n[3, 4, 5] [8, 9]\n[('a', ['a', 'a', 'a']), ('b', ['b', 'b']), ('c', ['c']), ('a', ['a', 'a'])] [(0, 1), (1, 1), (2, 2), (3, 1)]\n[0, 2, 4, 6] ['a', 'c', 'e', 'f'] [('a', 'b'), ('b', 'c'), ('c', 'd')]\n1 2 done\n");
}

#[test]
fn combinatoric_iterators_are_iterators() {
    let mut s = Session::new();
    s.run("from itertools import permutations, product, combinations")
        .ok();
    let out = s.stdout("p = permutations('abc')\nprint(next(p), next(p), list(p), list(p))\nprint(next(product([1, 2], repeat=2)), next(combinations(range(4), 2)))");
    assert_eq!(out, "('a', 'b', 'c') ('a', 'c', 'b') [('b', 'a', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b'), ('c', 'b', 'a')] []\n(1, 1) (0, 1)\n");
}

#[test]
fn islice_rejects_negative_stop() {
    let mut s = Session::new();
    s.run("import itertools").ok();
    let c = s.run("itertools.islice(range(3), -1)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(
        c.evalue(),
        "Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize."
    );
}

#[test]
fn islice_rejects_zero_step() {
    let mut s = Session::new();
    s.run("import itertools").ok();
    let c = s.run("itertools.islice(range(3), 0, 2, 0)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(
        c.evalue(),
        "Step for islice() must be a positive integer or None."
    );
}

#[test]
fn combinations_with_replacement_is_lazy_and_matches_cpython() {
    // Expected output: CPython 3.11's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import itertools as it\nc = it.combinations_with_replacement('abc', 2)\nprint(next(c), list(c))\nprint(list(it.combinations_with_replacement([1, 2], 3)), list(it.combinations_with_replacement('', 2)), list(it.combinations_with_replacement('ab', 0)), len(list(it.combinations_with_replacement(range(5), 3))))\ntry:\n    it.combinations_with_replacement('ab', -1)\nexcept ValueError as e:\n    print('ValueError:', e)");
    assert_eq!(out, "('a', 'a') [('a', 'b'), ('a', 'c'), ('b', 'b'), ('b', 'c'), ('c', 'c')]\n[(1, 1, 1), (1, 1, 2), (1, 2, 2), (2, 2, 2)] [] [()] 35\nValueError: r must be non-negative\n");
}
