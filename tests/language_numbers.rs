//! Python int and float semantics at the edges of 64 bits: results past an i64 continue as
//! big ints, exactly as CPython's, and nothing panics.

mod common;
use common::Session;

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
fn shifts_past_64_bits_are_exact() {
    let mut s = Session::new();
    assert_eq!(s.eval("1 << 63"), "9223372036854775808");
    assert_eq!(s.eval("3 << 62"), "13835058055282163712");
    assert_eq!(s.eval("1 << 64"), "18446744073709551616");
    assert_eq!(s.eval("-2 << 63"), "-18446744073709551616");
    // Python: -1 << 63 == -9223372036854775808, which fits.
    assert_eq!(s.eval("-1 << 63"), "-9223372036854775808");
    assert_eq!(s.eval("1 << 62"), "4611686018427387904");
    assert_eq!(s.eval("0 << 100"), "0");
    assert_eq!(s.eval("-5 << 2"), "-20");
    let v = raises(&mut s, "1 << -1", "ValueError");
    assert_eq!(v, "negative shift count");
}

#[test]
fn most_negative_int_divided_by_minus_one() {
    let mut s = Session::new();
    s.run("m = -9223372036854775807 - 1").ok();
    // Python: m % -1 == 0 and divmod gives (2**63, 0).
    assert_eq!(s.eval("m % -1"), "0");
    assert_eq!(s.eval("m // -1"), "9223372036854775808");
    assert_eq!(s.eval("divmod(m, -1)"), "(9223372036854775808, 0)");
    assert_eq!(s.eval("m % 7"), "6");
    assert_eq!(s.eval("m // 7"), "-1317624576693539402");
    assert_eq!(s.eval("-7 % -3"), "-1");
    assert_eq!(s.eval("7 % -3"), "-2");
}

#[test]
fn round_of_large_floats_is_exact() {
    let mut s = Session::new();
    assert_eq!(s.eval("round(1e20)"), "100000000000000000000");
    assert_eq!(s.eval("round(-1e19)"), "-10000000000000000000");
    raises(&mut s, "round(float('inf'))", "OverflowError");
    let v = raises(&mut s, "round(float('nan'))", "ValueError");
    assert_eq!(v, "cannot convert float NaN to integer");
    assert_eq!(s.eval("round(2.5)"), "2");
    assert_eq!(s.eval("round(-3.5)"), "-4");
    assert_eq!(s.eval("round(1e18)"), "1000000000000000000");
    assert_eq!(s.eval("round(1e20, 2)"), "1e+20");
}

#[test]
fn hash_and_round_of_numbers_are_cpythons() {
    // Expected values printed by CPython 3.11 for the same expressions.
    let mut s = Session::new();
    let out = s.stdout(
        "print(hash(2), hash(-1), hash(2.0), hash(1.5), hash(-2.75), hash(1e300), hash(2**62), hash((1,2)), hash((1.5,-1)), hash(float('inf')), hash(()), hash(True))\n\
         print(round(1250,-2), round(1350,-2), round(-1250,-2), round(1.5, 10**9), round(1.5, -10**9), round(-1.5,-400), round(12345, -20))",
    );
    assert_eq!(
        out,
        "2 -2 2 1152921504606846977 -1729382256910270466 1224995262755759164 2 -3550055125485641917 -9002791676578425913 314159 5740354900026072187 1\n\
         1200 1400 -1200 1.5 0.0 -0.0 0\n"
    );
}

#[test]
fn kernel_integer_division_overflow_wraps_and_grid_x_is_limited() {
    let mut s = Session::new();
    s.run(
        "import numpy as np\nfrom numba import cuda\n\
         @cuda.jit\ndef k(a, b, out):\n    out[0] = a[0] // b[0]\n    out[1] = a[0] % b[0]\n\
         a = cuda.to_device(np.array([-2**62 * 2], np.int64))\n\
         b = cuda.to_device(np.array([-1], np.int64))\n\
         o = cuda.device_array(2, np.int64)",
    )
    .ok();
    // NumPy 2's int64 floor_divide and remainder give the same (with an overflow warning).
    assert_eq!(
        s.stdout("k[1, 1](a, b, o)\nprint(o.copy_to_host())"),
        "[-9223372036854775808                    0]\n"
    );
    let c = s.run("k[2**31, 1](a, b, o)");
    assert_eq!(c.ename().as_deref(), Some("CudaAPIError"));
    assert!(
        c.evalue().contains("grid x of 2147483648"),
        "{}",
        c.evalue()
    );
}

/// str.upper and friends as unbound methods, int.from_bytes, dict.fromkeys, dunders of builtin values, float.as_integer_ratio, and ERANGE's args.
#[test]
fn builtin_types_expose_their_methods_and_alternate_constructors() {
    let mut s = Session::new();
    let out = s.stdout(
        r#"print(list(map(str.upper, 'ab')), sorted('bAc', key=str.lower), str.join('-', 'xy'))
print(list(map(int.bit_length, [1, 255])), dict.fromkeys('ab', 0), list.__len__([1, 2]))
print(int.from_bytes(b'\x01\x00', 'little'), int.from_bytes(b'\xff', 'big', signed=True), (1024).to_bytes(2, 'big'))
print([1, 2].__len__(), 'abc'.__len__(), {'a': 1}.__contains__('a'), (5, 6).__getitem__(1))
try:
    str.upper(5)
except TypeError as e:
    print(e)
try:
    str.nope
except AttributeError as e:
    print(e)
print((0.5).as_integer_ratio(), (3.0).is_integer(), (-0.75).as_integer_ratio(), (1e20).as_integer_ratio(), (0.1).as_integer_ratio())
try:
    10.0 ** 400
except OverflowError as e:
    print(type(e).__name__, e.args, e)
try:
    float('inf').as_integer_ratio()
except OverflowError as e:
    print(e)
"#,
    );
    assert_eq!(
        out,
        r#"['A', 'B'] ['A', 'b', 'c'] x-y
[1, 8] {'a': 0, 'b': 0} 2
1 -1 b'\x04\x00'
2 3 True 6
descriptor 'upper' for 'str' objects doesn't apply to a 'int' object
type object 'str' has no attribute 'nope'
(1, 2) True (-3, 4) (100000000000000000000, 1) (3602879701896397, 36028797018963968)
OverflowError (34, 'Numerical result out of range') (34, 'Numerical result out of range')
cannot convert Infinity to integer ratio
"#
    );
}
