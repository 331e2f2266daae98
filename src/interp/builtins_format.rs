//! The number-formatting builtins: `format`, `bin`, `oct`, `hex` and `round`.

use std::collections::HashMap;

use crate::interp::repr::format_value;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

fn py_round(v: &Value, nd: Option<i64>) -> PyResult<Value> {
    let round_half_even = |x: f64| {
        let r = x.round();
        if (x - x.trunc()).abs() == 0.5 {
            2.0 * (x / 2.0).round()
        } else {
            r
        }
    };
    match (v, nd) {
        (Value::Int(_) | Value::Bool(_) | Value::BigInt(_), Some(n)) if n < 0 => {
            crate::interp::bigint::round_int(v, n)
        }
        (Value::Int(_) | Value::Bool(_), _) => Ok(Value::Int(v.as_index()?)),
        (Value::BigInt(_), _) => Ok(v.clone()),
        (_, None) => {
            let x = v.as_f64()?;
            if x.is_nan() {
                return Err(PyErr::value_error("cannot convert float NaN to integer"));
            }
            if x.is_infinite() {
                return Err(PyErr::overflow("cannot convert float infinity to integer"));
            }
            crate::py::bigint::from_f64(round_half_even(x))
        }
        (_, Some(n)) => {
            let x = v.as_f64()?;
            // CPython: beyond 323 digits a double is already exact; below -308 it rounds
            // to a zero of x's sign. Neither needs (or may build) a huge decimal string.
            if n > 323 || !x.is_finite() {
                return Ok(same_kind(v, x));
            }
            if n < -308 {
                return Ok(same_kind(v, 0.0f64.copysign(x)));
            }
            let p = 10f64.powi(n as i32);
            // Round via the decimal string to avoid binary artefacts (round(2.675, 2) == 2.67).
            let s = format!("{:.*}", n.max(0) as usize, x);
            let r = if n >= 0 {
                s.parse::<f64>().unwrap_or(round_half_even(x * p) / p)
            } else {
                round_half_even(x * p) / p
            };
            Ok(same_kind(v, r))
        }
    }
}

/// `r` as the same kind of number as `v` (a NumPy scalar keeps its dtype).
fn same_kind(v: &Value, r: f64) -> Value {
    match v {
        Value::Scalar(s) => Value::Scalar(crate::arrays::dtype::Scalar::F64(r).cast(s.dtype())),
        _ => Value::Float(r),
    }
}

/// `hex`/`oct`/`bin`: the digits of an integer after the prefix, with the sign in front.
fn prefixed_radix(a: &Args, radix: u32, prefix: &str) -> PyResult<Value> {
    let d = crate::interp::bigint::to_radix(a.pos.first().unwrap_or(&Value::None), radix, false)?;
    Ok(Value::str(&match d.strip_prefix('-') {
        Some(m) => format!("-{prefix}{m}"),
        None => format!("{prefix}{d}"),
    }))
}

/// Adds these builtins to the table.
pub fn register(b: &mut HashMap<String, Value>) {
    let mut f =
        |name: &str, sig: &str, doc: &str, func: fn(&mut Runtime, Args) -> PyResult<Value>| {
            b.insert(name.to_string(), Value::builtin(name, sig, doc, func));
        };
    f(
        "round",
        "round(number, ndigits=None)",
        "Round half to even; with ndigits a float, without an int.",
        |rt, a| {
            let v = a.pos.first().cloned().unwrap_or(Value::None);
            let given = a.pos.get(1).or(a.kwarg("ndigits")).filter(|v| !v.is_none());
            // A class's own rounding (`Fraction.__round__`) decides, as in CPython.
            if let Some(inst) = crate::interp::classes::as_instance(&v) {
                let args = given.cloned().into_iter().collect();
                if let Some(r) = inst.call_special(rt, "__round__", args)? {
                    return Ok(r);
                }
            }
            let nd = given.map(|v| v.as_index()).transpose()?;
            py_round(&v, nd)
        },
    );
    f(
        "format",
        "format(value, format_spec='', /)",
        "Format a value with the format mini-language.",
        |rt, a| {
            let v = a.pos.first().cloned().unwrap_or(Value::None);
            let spec = match a.pos.get(1) {
                Some(Value::Str(s)) => s.to_string(),
                _ => String::new(),
            };
            Ok(Value::str(&format_value(rt, &v, &spec)?))
        },
    );
    f(
        "hex",
        "hex(number, /)",
        "The hexadecimal string of an integer.",
        |_, a| prefixed_radix(&a, 16, "0x"),
    );
    f(
        "oct",
        "oct(number, /)",
        "The octal string of an integer.",
        |_, a| prefixed_radix(&a, 8, "0o"),
    );
    f(
        "bin",
        "bin(number, /)",
        "The binary string of an integer.",
        |_, a| prefixed_radix(&a, 2, "0b"),
    );
}
