//! `float.hex()` and `float.fromhex(s)`: a float written exactly, as a hexadecimal
//! significand and a binary exponent (`0x1.8000000000000p+1`), in CPython's format.

use crate::py::error::{PyErr, PyResult};

/// `x.hex()`: thirteen hexadecimal fraction digits, as C99's `%a` with CPython's fixed width.
pub fn hex(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if x == 0.0 {
        return format!("{sign}0x0.0p+0");
    }
    let bits = x.to_bits();
    let exp_bits = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (lead, exp) = if exp_bits == 0 {
        (0, -1022)
    } else {
        (1, exp_bits - 1023)
    };
    format!("{sign}0x{lead}.{frac:013x}p{exp:+}")
}

fn invalid() -> PyErr {
    PyErr::value_error("invalid hexadecimal floating-point string")
}

/// `float.fromhex(s)`: `[sign] ['0x'] digits ['.' digits] ['p' [sign] decimal]`, or inf/nan.
pub fn fromhex(s: &str) -> PyResult<f64> {
    let t = s.trim();
    let (negative, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let signed = |v: f64| if negative { -v } else { v };
    let lower = body.to_ascii_lowercase();
    if lower == "inf" || lower == "infinity" {
        return Ok(signed(f64::INFINITY));
    }
    if lower == "nan" {
        return Ok(signed(f64::NAN));
    }
    let body = lower.strip_prefix("0x").unwrap_or(&lower);
    let (mantissa, exponent) = match body.split_once('p') {
        Some((m, e)) => (m, Some(e)),
        None => (body, None),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(invalid());
    }
    let mut value = num_bigint::BigUint::default();
    for c in int_part.chars().chain(frac_part.chars()) {
        let d = c.to_digit(16).ok_or_else(invalid)?;
        value = value * 16u32 + d;
    }
    let exp: i64 = match exponent {
        Some(e) => e.parse().map_err(|_| invalid())?,
        None => 0,
    };
    let shift = exp.saturating_sub(4 * frac_part.len() as i64);
    let v = scale(
        num_traits::ToPrimitive::to_f64(&value).unwrap_or(f64::INFINITY),
        shift,
    );
    if v.is_infinite() {
        return Err(PyErr::overflow(
            "hexadecimal value too large to represent as a float",
        ));
    }
    Ok(signed(v))
}

/// `v * 2**shift`, in steps that neither overflow nor underflow the factor itself.
fn scale(mut v: f64, mut shift: i64) -> f64 {
    while shift > 0 && v.is_finite() && v != 0.0 {
        let k = shift.min(1000);
        v *= 2f64.powi(k as i32);
        shift -= k;
    }
    while shift < 0 && v != 0.0 {
        let k = (-shift).min(1000);
        v /= 2f64.powi(k as i32);
        shift += k;
    }
    v
}
