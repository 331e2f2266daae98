//! Python int and float semantics at the edges of nbcuda's 64-bit int: results that do not
//! fit raise OverflowError, results that fit are exact, and nothing panics.

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
fn shifts_that_overflow_raise() {
    let mut s = Session::new();
    raises(&mut s, "1 << 63", "OverflowError");
    raises(&mut s, "3 << 62", "OverflowError");
    raises(&mut s, "1 << 64", "OverflowError");
    raises(&mut s, "-2 << 63", "OverflowError");
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
    // Python: m % -1 == 0 and divmod gives (2**63, 0); 2**63 does not fit.
    assert_eq!(s.eval("m % -1"), "0");
    raises(&mut s, "m // -1", "OverflowError");
    raises(&mut s, "divmod(m, -1)", "OverflowError");
    assert_eq!(s.eval("m % 7"), "6");
    assert_eq!(s.eval("m // 7"), "-1317624576693539402");
    assert_eq!(s.eval("-7 % -3"), "-1");
    assert_eq!(s.eval("7 % -3"), "-2");
}

#[test]
fn round_of_floats_that_do_not_fit() {
    let mut s = Session::new();
    raises(&mut s, "round(1e20)", "OverflowError");
    raises(&mut s, "round(-1e19)", "OverflowError");
    raises(&mut s, "round(float('inf'))", "OverflowError");
    let v = raises(&mut s, "round(float('nan'))", "ValueError");
    assert_eq!(v, "cannot convert float NaN to integer");
    assert_eq!(s.eval("round(2.5)"), "2");
    assert_eq!(s.eval("round(-3.5)"), "-4");
    assert_eq!(s.eval("round(1e18)"), "1000000000000000000");
    assert_eq!(s.eval("round(1e20, 2)"), "1e+20");
}
