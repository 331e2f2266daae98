//! The `random` module against CPython 3.11: the same seeds give the same numbers, picks
//! and shuffles (CPython's Mersenne Twister and algorithms). Expected outputs are CPython's
//! for the same cells.

mod common;
use common::Session;

#[test]
fn seeded_random_matches_cpython() {
    let mut s = Session::new();
    s.run("import random").ok();
    let out = s.stdout("random.seed(42)\nprint(random.random(), random.random())\nfor s in [0, 1, 12345, -7, 2**40, 3.5, 'hello', b'abc', True]:\n    random.seed(s)\n    print(s, random.random(), random.randint(1, 100), random.randrange(0, 1000, 7), random.getrandbits(50), random.getrandbits(5))");
    assert_eq!(out, "0.6394267984578837 0.025010755222666936\n0 0.8444218515250481 98 749 291512489160500 30\n1 0.13436424411240122 98 112 132762829599804 15\n12345 0.41661987254534116 2 532 414794434369722 29\n-7 0.32383276483316237 20 707 54364196807760 2\n1099511627776 0.1036394562812375 86 112 54698240981225 12\n3.5 0.3039190124834461 30 14 90291283095326 5\nhello 0.3537754404730722 85 980 147330737951537 11\nb'abc' 0.7720246314157545 72 819 1032757998513291 11\nTrue 0.13436424411240122 98 112 132762829599804 15\n");
}

#[test]
fn sequence_functions_match_cpython() {
    let mut s = Session::new();
    s.run("import random").ok();
    let out = s.stdout("random.seed(7)\nl = list(range(20))\nrandom.shuffle(l)\nprint(l)\nprint(random.choice('abcdef'), random.choice([1, 2, 3]), random.choice(range(100)))\nprint(random.sample(range(100), 10), random.sample('abcdefg', 3), random.sample(range(10**6), 5))\nprint(random.choices('abc', k=5), random.choices([1, 2, 3], weights=[1, 5, 10], k=6), random.choices('xy', cum_weights=[0.3, 1.0], k=4))\nprint(random.sample(range(1000), 30), random.sample(['a', 'b', 'c'], counts=[3, 1, 2], k=5))\nprint(random.randrange(10), random.randrange(-10, -2), random.randrange(10, 0, -3), random.randint(-5, 5))");
    assert_eq!(out, "[17, 15, 11, 18, 7, 6, 19, 3, 14, 0, 9, 5, 16, 8, 13, 2, 1, 12, 4, 10]\na 3 54\n[7, 72, 15, 28, 80, 74, 73, 50, 6, 5] ['e', 'b', 'c'] [439499, 151262, 566950, 123514, 598646]\n['a', 'c', 'a', 'b', 'b'] [2, 3, 2, 1, 2, 3] ['y', 'y', 'y', 'y']\n[306, 254, 813, 184, 715, 798, 249, 83, 588, 307, 537, 506, 896, 351, 746, 459, 294, 623, 74, 120, 524, 428, 168, 775, 350, 155, 955, 500, 431, 40] ['c', 'a', 'a', 'a', 'b']\n9 -3 1 -4\n");
}

#[test]
fn distributions_match_cpython() {
    let mut s = Session::new();
    s.run("import random").ok();
    let out = s.stdout("random.seed(2024)\nprint(random.uniform(1, 5), random.gauss(), random.gauss(10, 2), random.gauss(), random.normalvariate(0, 1))\nprint(random.expovariate(2), random.triangular(), random.triangular(0, 10, 8), random.lognormvariate(0, 1))");
    assert_eq!(out, "2.8803628737242826 -0.11585136292465444 8.313968755668572 0.7804002858623748 0.5057412871699949\n0.14062914075291527 0.6938804372376877 6.313803177302251 0.5885269487355413\n");
}

#[test]
fn random_instances_are_independent() {
    let mut s = Session::new();
    s.run("import random").ok();
    let out = s.stdout("r = random.Random(123)\nrandom.seed(5)\nprint(r.random(), r.randint(0, 10), r.sample([1, 2, 3, 4, 5, 6, 7, 8], 8), random.random())\nst = r.getstate()\na = r.random()\nr.setstate(st)\nprint(a == r.random(), len(st[1]), st[0])");
    assert_eq!(
        out,
        "0.052363598850944326 1 [7, 3, 1, 6, 4, 8, 2, 5] 0.6229016948897019\nTrue 625 3\n"
    );
}

#[test]
fn choice_of_empty_sequence() {
    let mut s = Session::new();
    s.run("import random").ok();
    let c = s.run("random.choice([])");
    assert_eq!(c.ename().as_deref(), Some("IndexError"));
    assert_eq!(c.evalue(), "Cannot choose from an empty sequence");
}

#[test]
fn empty_randrange() {
    let mut s = Session::new();
    s.run("import random").ok();
    let c = s.run("random.randrange(5, 5)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(c.evalue(), "empty range for randrange() (5, 5, 0)");
}

#[test]
fn sample_of_a_set() {
    let mut s = Session::new();
    s.run("import random").ok();
    let c = s.run("random.sample({1, 2, 3}, 2)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert_eq!(
        c.evalue(),
        "Population must be a sequence.  For dicts or sets, use sorted(d)."
    );
}

#[test]
fn sample_larger_than_population() {
    let mut s = Session::new();
    s.run("import random").ok();
    let c = s.run("random.sample([1, 2], 3)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(c.evalue(), "Sample larger than population or is negative");
}

#[test]
fn seed_of_unsupported_type() {
    let mut s = Session::new();
    s.run("import random").ok();
    let c = s.run("random.seed([1, 2])");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert_eq!(
        c.evalue(),
        "The only supported seed types are: None,\nint, float, str, bytes, and bytearray."
    );
}
