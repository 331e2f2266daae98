//! Python ints of arbitrary precision: results past 64 bits continue exactly as CPython's
//! (arithmetic, `pow` with a modulus, hashing, comparison with floats, formatting), and
//! sizes no machine should build raise at once instead of hanging the kernel. Expected
//! values were printed by CPython 3.11 for the same cells.

mod common;
use common::{outcome, Session};

#[track_caller]
fn raises(s: &mut Session, code: &str, ename: &str) -> String {
    let c = s.run(code);
    assert_eq!(
        c.ename().as_deref(),
        Some(ename),
        "{code}: {}",
        c.traceback()
    );
    c.evalue()
}

#[test]
fn big_int_results_match_cpython() {
    let mut s = Session::new();
    let out = s.stdout(
        "print(2**100, 10**30 // 7, -(2**70) % 13, 10**30 % -7, divmod(-(2**70), 12345))\n\
         print(pow(3, 200, 10**9+7), pow(2**100, 3, 2**61-1), pow(3, -1, 7), pow(-5, 3, -7), pow(12, -3, 10**20+39))\n\
         print(int('123456789012345678901234567890'), int('-0x' + 'f'*20, 16), int('  1_000_000_000_000_000_000_000 '))\n\
         print(hash(2**100), hash(-(2**100)), hash(2**61-1), hash(2**61), hash(-(2**61)+1), hash(2**64), hash(-1))\n\
         print(2**100 == 2.0**100, 2**53+1 == 2.0**53, 2**53+1 > 2.0**53, 2**1000 > 1e308, 2**1000 < float('inf'), -(2**1000) < -1e308, 2**64 == 2**64, 2**64 != 2**64+1)\n\
         print(float(2**100), float(-(2**80)+1), int(1e30), int(-1.5e300) == -15 * 10**299, int(2.0**80))\n\
         print(1 << 100, (1 << 100) >> 98, -(2**70) >> 3, -(2**70) >> 1000, (2**70) & (2**70 - 1), (2**70) | 5, -(2**70) ^ 2**65, ~(2**70))\n\
         print(abs(-(2**70)), (2**70).bit_length(), (2**70 - 1).bit_count(), (-(2**65)).bit_length())\n\
         print(f'{2**100:,}', '%d' % 2**80, '%x' % 2**70, f'{-(2**70):x}', f'{2**70:>30}', format(2**64, '_'), hex(2**70), hex(-(2**70)))\n\
         print(sum([2**62, 2**62, 2**62]), sum(range(10**5)) * 10**15, 3 * 2**63, 2**63 - 1 + 1, -(-9223372036854775808))\n\
         print(type(2**100), isinstance(2**100, int), 2**100 / 2**98, (10**30) / 3, 7 / 2**70, round(2**70, -20), round(12345678901234567890123, -5))\n\
         import math\n\
         print(math.gcd(2**100, 6**50), math.factorial(30), math.factorial(25) // math.factorial(23), math.floor(2**70), math.floor(1e20), math.ceil(-1e25))\n\
         print(len(str(math.factorial(100))), str(math.factorial(100))[:20])\n\
         print(2**-2, (-2)**-3, 0**0, (-1)**(2**70), 1**(10**100), 2**64 * 0, (2**64) // (2**64), -(2**63) // -1)\n\
         print({2**100: 'a'}[2**100], {2.0**70: 1}[2**70], 2**70 in {2**70}, [2**64, 1] == [2**64, 1], sorted([2**70, -2**70, 3, 2.5e30]))\n\
         print(bool(2**100), not 2**100, 2**100 > 0, max(2**100, 2**99), min(-2**100, 3))",
    );
    let expected = "1267650600228229401496703205376 142857142857142857142857142857 3 -6 (-95633181103070985, 6401)\n\
         136318165 72057594037927936 5 -6 24594907407407407417\n\
         123456789012345678901234567890 -1208925819614629174706175 1000000000000000000000\n\
         549755813888 -549755813888 0 1 0 8 -2\n\
         True False True False True False True True\n\
         1.2676506002282294e+30 -1.2089258196146292e+24 1000000000000000019884624838656 False 1208925819614629174706176\n\
         1267650600228229401496703205376 4 -147573952589676412928 -1 0 1180591620717411303429 -1143698132569992200192 -1180591620717411303425\n\
         1180591620717411303424 71 70 66\n\
         1,267,650,600,228,229,401,496,703,205,376 1208925819614629174706176 400000000000000000 -400000000000000000         1180591620717411303424 18_446_744_073_709_551_616 0x400000000000000000 -0x400000000000000000\n\
         13835058055282163712 4999950000000000000000000 27670116110564327424 9223372036854775808 9223372036854775808\n\
         <class 'int'> True 4.0 3.333333333333333e+29 5.929230630780102e-21 1200000000000000000000 12345678901234567900000\n\
         1125899906842624 265252859812191058636308480000000 600 1180591620717411303424 100000000000000000000 -10000000000000000905969664\n\
         158 93326215443944152681\n\
         0.25 -0.125 1 1 1 0 1 9223372036854775808\n\
         a 1 True True [-1180591620717411303424, 3, 1180591620717411303424, 2.5e+30]\n\
         True False True 1267650600228229401496703205376 -1267650600228229401496703205376\n";
    for (got, want) in out.lines().zip(expected.lines()) {
        assert_eq!(got, want);
    }
    assert_eq!(out, expected);
}

#[test]
fn big_int_errors_are_cpythons() {
    let mut s = Session::new();
    let cases = [
        ("pow(2, 3, 0)", "ValueError", "pow() 3rd argument cannot be 0"),
        ("pow(2, -1, 4)", "ValueError", "base is not invertible for the given modulus"),
        ("pow(2.0, 3, 5)", "TypeError", "pow() 3rd argument not allowed unless all arguments are integers"),
        ("float(2**1024)", "OverflowError", "int too large to convert to float"),
        ("2**1024 + 1.0", "OverflowError", "int too large to convert to float"),
        ("str(10**5000)", "ValueError", "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"),
        ("int('1' * 5000)", "ValueError", "Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit"),
        ("2**100 / 0", "ZeroDivisionError", "division by zero"),
        ("(2**100) // 0", "ZeroDivisionError", "integer division or modulo by zero"),
        ("(2**100) % 0", "ZeroDivisionError", "integer modulo by zero"),
        ("5 % 0", "ZeroDivisionError", "integer modulo by zero"),
        ("2**2000 / 2**10", "OverflowError", "integer division result too large for a float"),
        ("import math; math.factorial(-1)", "ValueError", "factorial() not defined for negative values"),
        ("import math; math.factorial(2.0)", "TypeError", "'float' object cannot be interpreted as an integer"),
    ];
    for (code, ename, msg) in cases {
        assert_eq!(raises(&mut s, code, ename), msg, "{code}");
    }
}

#[test]
fn huge_results_raise_at_once() {
    // CPython would try (and take minutes or exhaust memory); nbcuda refuses past its cap.
    let mut s = Session::new();
    let t = std::time::Instant::now();
    for code in [
        "1 << 10**12",
        "1 << 2**100",
        "10**10**8",
        "(2**100) ** (2**40)",
        "x = 1 << (1 << 23)\nx * x * x",
        "import math; math.factorial(10**7)",
    ] {
        raises(&mut s, code, "MemoryError");
    }
    assert!(t.elapsed().as_secs() < 20, "took {:?}", t.elapsed());
    // Shifting right by a huge count is cheap and exact, as in CPython.
    assert_eq!(s.eval("(2**100) >> 10**30"), "0");
    assert_eq!(s.eval("-(2**100) >> 2**70"), "-1");
    assert_eq!(s.eval("0 << 10**30"), "0");
}

#[test]
fn json_round_trips_big_ints() {
    let mut s = Session::new();
    assert_eq!(
        s.stdout("import json\nprint(json.dumps([2**100, -2**70]), json.loads('[123456789012345678901234567890]'))"),
        "[1267650600228229401496703205376, -1180591620717411303424] [123456789012345678901234567890]\n"
    );
}

/// What the expression gives: its repr, or `Name: message` for an exception.
#[test]
fn numpy_takes_ints_up_to_uint64_as_numpy_2_does() {
    // Expected values printed by NumPy 2.3 for the same expressions.
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    let cases = [
        ("np.uint64(2**64-1)", "np.uint64(18446744073709551615)"),
        ("np.array([2**64-1], dtype=np.uint64)", "array([18446744073709551615], dtype=uint64)"),
        ("np.array(2**64-1).dtype", "dtype('uint64')"),
        ("np.array([2**63, 1]).dtype", "dtype('float64')"),
        ("np.zeros(3, dtype=np.uint64) + (2**64-1)", "array([18446744073709551615, 18446744073709551615, 18446744073709551615],\n      dtype=uint64)"),
        ("np.uint64(5) + 2**63", "np.uint64(9223372036854775813)"),
        ("np.zeros(2) + 2**64", "array([1.84467441e+19, 1.84467441e+19])"),
        ("np.array([2**64-1]).tolist()", "[18446744073709551615]"),
        ("int(np.uint64(2**64-1))", "18446744073709551615"),
        ("np.uint64(2**63) == 2**63", "np.True_"),
        ("np.uint8(300)", "OverflowError: Python integer 300 out of bounds for uint8"),
        ("np.array([300], dtype=np.uint8)", "OverflowError: Python integer 300 out of bounds for uint8"),
        ("np.int64(2**63)", "OverflowError: Python int too large to convert to C long"),
        ("np.array([2**63], dtype=np.int64)", "OverflowError: Python int too large to convert to C long"),
        ("np.arange(3) + 2**63", "OverflowError: Python int too large to convert to C long"),
        ("np.zeros(3, np.uint8) + 2**64", "OverflowError: Python int too large to convert to C long"),
        ("np.array([2**64], dtype=np.uint64)", "OverflowError: Python int too large to convert to C long"),
    ];
    let mut wrong = Vec::new();
    for (expr, want) in cases {
        let got = outcome(&mut s, expr);
        if got != want {
            wrong.push(format!("{expr}: got {got:?}, NumPy {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn kernels_take_ints_past_int64_as_uint64() {
    // Numba types 2**64 - 1 as uint64; the kernel stores it unchanged.
    let mut s = Session::new();
    let out = s.stdout(
        "import numpy as np\nfrom numba import cuda\n\
         @cuda.jit\ndef k(out, x):\n    out[0] = x\n\
         o = cuda.device_array(1, np.uint64)\n\
         k[1, 1](o, 2**64 - 1)\nprint(o.copy_to_host())",
    );
    assert_eq!(out, "[18446744073709551615]\n");
    let c = s.run("k[1, 1](o, 2**64)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"), "{}", c.traceback());
}

#[test]
fn getrandbits_past_64_bits_matches_cpython() {
    // CPython 3.11 printed these for the same seed and calls.
    let mut s = Session::new();
    assert_eq!(
        s.stdout("import random\nrandom.seed(5); print(random.getrandbits(100), random.getrandbits(64), random.getrandbits(200) % 10**9, random.getrandbits(33))"),
        "454911232961676339139289971781 12736496262939004471 833035754 3609267711\n"
    );
}
