//! Python ints beyond 64 bits: the `Value::BigInt` half of `int`. Ints live in
//! `Value::Int(i64)` whenever they fit, so the common case never allocates; a result that
//! does not fit becomes a `BigInt`, and every constructor here normalises back to `Int`.
//! This file holds what the value model itself needs (conversion, hashing, exact
//! comparison with floats, decimal text); the arithmetic is in `crate::interp::bigint`.

use std::cmp::Ordering;
use std::rc::Rc;

use num_bigint::{BigInt, Sign};
use num_traits::ToPrimitive;

use crate::py::error::{PyErr, PyResult};
use crate::py::value::Value;

/// CPython 3.11's default `sys.get_int_max_str_digits()`: decimal text longer than this is
/// refused both ways (quadratic conversions are the denial-of-service CPython closed).
pub const MAX_STR_DIGITS: usize = 4300;

/// The largest int nbcuda builds, in bits (about 5 million decimal digits). Every
/// operation checks its result size against this before computing, so `1 << 10**12` or
/// `10**10**8` raises MemoryError at once instead of allocating or running for minutes.
pub const MAX_BITS: u64 = 1 << 24;

/// How many limb-by-limb steps (64-bit words multiplied) a quadratic operation may take:
/// about a second. Long division, `pow` with a modulus and `gcd` are quadratic in
/// num-bigint (as long division is in CPython); past this they raise OverflowError
/// instead of holding the kernel for minutes where no interrupt reaches them.
pub const QUADRATIC_BUDGET: u64 = 1 << 30;

/// Fails with OverflowError when a quadratic operation would take `steps` limb steps
/// past [`QUADRATIC_BUDGET`].
pub fn check_work(steps: u128, what: &str) -> PyResult<()> {
    if steps > QUADRATIC_BUDGET as u128 {
        Err(PyErr::overflow(format!(
            "{what} on ints this large would take minutes; nbcuda refuses it"
        ))
        .with_hint("Work with smaller ints (or modular arithmetic with a smaller modulus)."))
    } else {
        Ok(())
    }
}

/// The 64-bit words of a big integer of `bits` bits.
pub fn limbs(bits: u64) -> u128 {
    bits.div_ceil(64).max(1) as u128
}

/// An int value from a big integer: `Int` when it fits in 64 bits.
pub fn from_big(b: BigInt) -> Value {
    match b.to_i64() {
        Some(i) => Value::Int(i),
        None => Value::BigInt(Rc::new(b)),
    }
}

/// An int value from 128 bits (products and sums of two i64 always fit).
pub fn from_i128(v: i128) -> Value {
    match i64::try_from(v) {
        Ok(i) => Value::Int(i),
        Err(_) => Value::BigInt(Rc::new(BigInt::from(v))),
    }
}

/// The big integer of an int or bool; None for other values.
pub fn to_big(v: &Value) -> Option<BigInt> {
    match v {
        Value::Int(i) => Some(BigInt::from(*i)),
        Value::Bool(b) => Some(BigInt::from(*b as i64)),
        Value::BigInt(b) => Some((**b).clone()),
        _ => None,
    }
}

/// The MemoryError for an int result past [`MAX_BITS`].
pub fn too_big(bits: u64) -> PyErr {
    PyErr::memory_error(format!(
        "an int of {bits} bits is beyond nbcuda's limit of {MAX_BITS} bits"
    ))
    .with_hint("nbcuda caps ints at about 5 million decimal digits so the kernel stays responsive.")
}

/// Fails with MemoryError when a result of `bits` bits would pass [`MAX_BITS`].
pub fn check_bits(bits: u64) -> PyResult<()> {
    if bits > MAX_BITS {
        Err(too_big(bits))
    } else {
        Ok(())
    }
}

/// `float(n)`, correctly rounded; OverflowError as CPython when it is out of range.
pub fn to_f64(b: &BigInt) -> PyResult<f64> {
    match b.to_f64() {
        Some(f) if f.is_finite() => Ok(f),
        _ => Err(PyErr::overflow("int too large to convert to float")),
    }
}

/// The exact integer value of a finite float (`int(1e30)`).
pub fn from_f64(f: f64) -> PyResult<Value> {
    if f.is_nan() {
        return Err(PyErr::value_error("cannot convert float NaN to integer"));
    }
    if f.is_infinite() {
        return Err(PyErr::overflow("cannot convert float infinity to integer"));
    }
    let t = f.trunc();
    if t.abs() < 9.2e18 {
        return Ok(Value::Int(t as i64));
    }
    // A float this large is an integer: mantissa * 2**exponent, exactly.
    let bits = t.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1075;
    let mant = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
    let mut b = BigInt::from(mant) << (exp as usize);
    if t < 0.0 {
        b = -b;
    }
    Ok(from_big(b))
}

/// Orders an int against a float exactly, as CPython does (`2**53 + 1 > 2.0**53`);
/// None when the float is NaN.
pub fn cmp_float(b: &BigInt, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f.is_infinite() {
        return Some(if f > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    let t = f.trunc();
    let tb = to_big(&from_f64(t).ok()?)?;
    Some(match b.cmp(&tb) {
        // Equal integer parts: the float's fraction decides.
        Ordering::Equal if f > t => Ordering::Less,
        Ordering::Equal if f < t => Ordering::Greater,
        o => o,
    })
}

/// CPython's `hash()` of an int: its value modulo 2**61 - 1, with the sign kept and -1
/// mapped to -2.
pub fn hash(b: &BigInt) -> i64 {
    const MODULUS: u64 = (1 << 61) - 1;
    let (sign, digits) = b.to_u64_digits();
    // Fold 64-bit digits from the most significant: x = x * 2**64 + d (mod 2**61 - 1).
    let mut x: u128 = 0;
    for d in digits.iter().rev() {
        x = ((x << 64) | *d as u128) % MODULUS as u128;
    }
    let m = x as i64;
    let h = if sign == Sign::Minus { -m } else { m };
    if h == -1 {
        -2
    } else {
        h
    }
}

/// The decimal text of a big int, or CPython's ValueError past [`MAX_STR_DIGITS`].
pub fn to_decimal(b: &BigInt) -> PyResult<String> {
    // bits * log10(2) bounds the digit count from below; check before the quadratic work.
    let approx = (b.bits() as f64 * std::f64::consts::LOG10_2) as usize;
    let too_long = || {
        PyErr::value_error(format!(
            "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"
        ))
    };
    if approx > MAX_STR_DIGITS {
        return Err(too_long());
    }
    let s = b.to_string();
    if s.trim_start_matches('-').len() > MAX_STR_DIGITS {
        return Err(too_long());
    }
    Ok(s)
}

/// The exact order of two Python reals (int, bool, big int, float), as CPython compares
/// them (no rounding of large ints to float); None when either is NaN or not a real.
pub fn cmp_real(a: &Value, b: &Value) -> Option<Ordering> {
    let small = |v: &Value| match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(*b as i64),
        _ => None,
    };
    // Ints within 2**53 convert to float exactly.
    let exact = |i: i64| i.unsigned_abs() <= 1 << 53;
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::Float(x), other) => match small(other) {
            Some(i) if exact(i) => x.partial_cmp(&(i as f64)),
            _ => cmp_float(&to_big(other)?, *x).map(Ordering::reverse),
        },
        (other, Value::Float(y)) => match small(other) {
            Some(i) if exact(i) => (i as f64).partial_cmp(y),
            _ => cmp_float(&to_big(other)?, *y),
        },
        _ => match (small(a), small(b)) {
            (Some(x), Some(y)) => Some(x.cmp(&y)),
            _ => Some(to_big(a)?.cmp(&to_big(b)?)),
        },
    }
}
