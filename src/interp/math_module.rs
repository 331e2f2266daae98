//! The `math` module, raising where CPython's does: a NaN from a non-NaN argument or an
//! infinity from a finite one is ValueError("math domain error"), an overflow is
//! OverflowError("math range error"); NaN and infinite arguments pass through as in C.
//! Integer functions (`factorial`, `comb`, `perm`, `gcd`, `lcm`, `isqrt`) are exact on
//! ints of any size, and `log` takes ints too large for a float.

use std::rc::Rc;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use crate::interp::bigint;
use crate::py::bigint::{check_bits, from_big, to_big};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::{
    Bound,
    Style::{Clinic, Python},
};
use crate::py::value::{Module, Value};

type UnaryF = fn(f64) -> f64;
type BinaryF = fn(f64, f64) -> f64;

fn domain() -> PyErr {
    PyErr::value_error("math domain error")
}

fn range() -> PyErr {
    PyErr::overflow("math range error")
}

/// CPython's `math_1`: the result of `f(x)` checked against the argument.
fn checked(x: f64, r: f64, can_overflow: bool) -> PyResult<f64> {
    if r.is_nan() && !x.is_nan() {
        return Err(domain());
    }
    if r.is_infinite() && x.is_finite() {
        return Err(if can_overflow { range() } else { domain() });
    }
    Ok(r)
}

pub fn module() -> Rc<Module> {
    let m = Module::new(
        "math",
        "Mathematical functions on Python floats (also usable inside kernels).",
    );
    m.set("pi", Value::Float(std::f64::consts::PI));
    m.set("e", Value::Float(std::f64::consts::E));
    m.set("tau", Value::Float(std::f64::consts::TAU));
    m.set("inf", Value::Float(f64::INFINITY));
    m.set("nan", Value::Float(f64::NAN));
    // (name, function, whether an infinite result from a finite argument is an overflow)
    let unary: &[(&str, UnaryF, bool)] = &[
        ("sin", f64::sin, false),
        ("cos", f64::cos, false),
        ("tan", f64::tan, false),
        ("asin", f64::asin, false),
        ("acos", f64::acos, false),
        ("atan", f64::atan, false),
        ("sinh", f64::sinh, true),
        ("cosh", f64::cosh, true),
        ("tanh", f64::tanh, false),
        ("asinh", f64::asinh, false),
        ("acosh", f64::acosh, false),
        ("atanh", f64::atanh, false),
        ("exp", f64::exp, true),
        ("expm1", f64::exp_m1, true),
        ("exp2", f64::exp2, true),
        ("log1p", f64::ln_1p, false),
        ("sqrt", f64::sqrt, false),
        ("cbrt", f64::cbrt, false),
        ("erf", libm::erf, false),
        ("erfc", libm::erfc, false),
    ];
    for &(name, f, can_overflow) in unary {
        m.def(
            Clinic,
            name,
            "x, /",
            &format!("math.{name} of x, as a float."),
            move |rt, b| {
                let x = one(rt, &b)?;
                Ok(Value::Float(checked(x, f(x), can_overflow)?))
            },
        );
    }
    // Plain arithmetic in CPython: an overflow to inf is returned, not raised.
    let plain: &[(&str, UnaryF)] = &[
        ("fabs", f64::abs),
        ("degrees", f64::to_degrees),
        ("radians", f64::to_radians),
    ];
    for &(name, f) in plain {
        m.def(
            Clinic,
            name,
            "x, /",
            &format!("math.{name} of x, as a float."),
            move |rt, b| Ok(Value::Float(f(one(rt, &b)?))),
        );
    }
    for (name, f) in [("gamma", libm::tgamma as UnaryF), ("lgamma", libm::lgamma)] {
        m.def(
            Clinic,
            name,
            "x, /",
            &format!("math.{name} of x, as a float."),
            move |rt, b| {
                let x = one(rt, &b)?;
                // The poles: zero and the negative integers.
                if x.is_finite() && x <= 0.0 && x == x.floor() {
                    return Err(domain());
                }
                Ok(Value::Float(checked(x, f(x), true)?))
            },
        );
    }
    for (name, f) in [
        ("log2", f64::log2 as UnaryF),
        ("log10", f64::log10),
        ("log", f64::ln),
    ] {
        // `log` takes an optional group (`log(x[, base])`), which no parameter list
        // expresses; it checks its arguments itself, with CPython's messages.
        let (style, sig, shown) = if name == "log" {
            (Python, "*args", "log(x[, base])".to_string())
        } else {
            (Clinic, "x, /", format!("{name}(x, /)"))
        };
        m.def_shown(style, name, sig, &shown, "Logarithm of x.", move |_, b| {
            let args: Vec<Value> = match name {
                "log" if !b.kw.is_empty() => {
                    return Err(PyErr::type_error("log() takes no keyword arguments"))
                }
                "log" if !(1..=2).contains(&b.rest.len()) => {
                    return Err(PyErr::type_error("math.log requires 1 to 2 arguments"))
                }
                "log" => b.rest.clone(),
                _ => vec![b.value(0)],
            };
            let num = log_of(&args[0], f)?;
            Ok(Value::Float(match args.get(1) {
                Some(b) if name == "log" => {
                    let den = log_of(b, f)?;
                    if den == 0.0 {
                        return Err(PyErr::zero_division("float division by zero"));
                    }
                    num / den
                }
                _ => num,
            }))
        });
    }
    for (name, f) in [
        ("floor", f64::floor as UnaryF),
        ("ceil", f64::ceil),
        ("trunc", f64::trunc),
    ] {
        m.def(
            Clinic,
            name,
            "x, /",
            &format!("math.{name} of x, as an int."),
            move |rt, b| {
                if let Some(v @ (Value::Int(_) | Value::BigInt(_))) = b.get(0) {
                    return Ok(v.clone());
                }
                // A class's own rounding (`Fraction.__floor__`) decides, as in CPython.
                if let Some(inst) = b.get(0).and_then(crate::interp::classes::as_instance) {
                    if let Some(r) = inst.call_special(rt, &format!("__{name}__"), vec![])? {
                        return Ok(r);
                    }
                }
                crate::py::bigint::from_f64(f(one(rt, &b)?))
            },
        );
    }
    let binary: &[(&str, BinaryF)] = &[
        ("atan2", f64::atan2),
        ("hypot", f64::hypot),
        ("copysign", f64::copysign),
        ("fmod", fmod),
        ("pow", f64::powf),
        ("remainder", libm::remainder),
    ];
    for &(name, f) in binary {
        m.def(
            Clinic,
            name,
            "x, y, /",
            &format!("math.{name} of x and y, as a float."),
            move |_, b| {
                let (x, y) = (b.value(0).as_f64()?, b.value(1).as_f64()?);
                let r = f(x, y);
                if x.is_nan() || y.is_nan() {
                    return Ok(Value::Float(r));
                }
                match name {
                    "fmod" | "remainder" if r.is_nan() => Err(domain()),
                    // 0 ** negative is a pole; other infinities from finite input overflow.
                    "pow" if r.is_nan() => Err(domain()),
                    "pow" if r.is_infinite() && x.is_finite() && y.is_finite() => {
                        Err(if x == 0.0 { domain() } else { range() })
                    }
                    _ => Ok(Value::Float(r)),
                }
            },
        );
    }
    for (name, f) in [
        ("isnan", f64::is_nan as fn(f64) -> bool),
        ("isinf", f64::is_infinite),
        ("isfinite", f64::is_finite),
    ] {
        m.def(
            Clinic,
            name,
            "x, /",
            &format!("Whether x is {}.", &name[2..]),
            move |rt, b| Ok(Value::Bool(f(one(rt, &b)?))),
        );
    }
    m.def(
        Clinic,
        "isclose",
        "a, b, *, rel_tol=1e-09, abs_tol=0.0",
        "Whether a and b are close.",
        |_, p| {
            let num = |v: &Option<Value>, d: f64| v.as_ref().map_or(Ok(d), |v| v.as_f64());
            let (x, y) = (num(&p[0], 0.0)?, num(&p[1], 0.0)?);
            let (rel, abs) = (num(&p[2], 1e-9)?, num(&p[3], 0.0)?);
            Ok(Value::Bool(is_close(x, y, rel, abs)?))
        },
    );
    m.def(Clinic, "ldexp", "x, i, /", "x * (2**i).", |_, b| {
        let x = b.value(0).as_f64()?;
        let i = b.value(1).as_index().unwrap_or(i64::MAX).clamp(-2200, 2200) as i32;
        let r = libm::ldexp(x, i);
        Ok(Value::Float(checked(x, r, true)?))
    });
    m.def(
        Clinic,
        "frexp",
        "x, /",
        "(m, e) with x == m * 2**e.",
        |rt, b| {
            let (m, e) = libm::frexp(one(rt, &b)?);
            Ok(Value::tuple(vec![Value::Float(m), Value::Int(e as i64)]))
        },
    );
    m.def(
        Clinic,
        "modf",
        "x, /",
        "The fractional and integer parts of x.",
        |rt, b| {
            let x = one(rt, &b)?;
            let (f, i) = if x.is_infinite() {
                (0.0f64.copysign(x), x)
            } else {
                (x.fract(), x.trunc())
            };
            Ok(Value::tuple(vec![Value::Float(f), Value::Float(i)]))
        },
    );
    m.def(
        Clinic,
        "fsum",
        "seq, /",
        "An accurate sum of floats.",
        |rt, b| {
            let items = crate::interp::ops::iterate(rt, &b.value(0))?;
            let xs = items
                .iter()
                .map(|v| v.as_f64())
                .collect::<PyResult<Vec<f64>>>()?;
            Ok(Value::Float(fsum(&xs)?))
        },
    );
    register_integer_functions(&m);
    m.def(
        Clinic,
        "prod",
        "iterable, /, *, start=1",
        "The product of the items.",
        |rt, b| {
            let mut acc = b.value(1);
            for v in crate::interp::ops::iterate(rt, &b.value(0))? {
                acc =
                    crate::interp::ops::binary(rt, crate::arrays::operator::BinOp::Mul, &acc, &v)?;
            }
            Ok(acc)
        },
    );
    m.def(
        Clinic,
        "dist",
        "p, q, /",
        "The Euclidean distance between two points.",
        |rt, b| {
            let p = crate::interp::ops::iterate(rt, &b.value(0))?;
            let q = crate::interp::ops::iterate(rt, &b.value(1))?;
            if p.len() != q.len() {
                return Err(PyErr::value_error(
                    "both points must have the same number of dimensions",
                ));
            }
            let mut acc = 0.0f64;
            for (x, y) in p.iter().zip(&q) {
                acc = acc.hypot(x.as_f64()? - y.as_f64()?);
            }
            Ok(Value::Float(acc))
        },
    );
    Rc::new(m)
}

/// `factorial`, `comb`, `perm`, `gcd`, `lcm`, `isqrt`: exact on ints of any size.
fn register_integer_functions(m: &Module) {
    m.def(Clinic, "factorial", "n, /", "n!", |rt, b| {
        let n = int_arg(b.get(0))?;
        if n.is_negative() {
            return Err(PyErr::value_error(
                "factorial() not defined for negative values",
            ));
        }
        let n = n
            .to_u64()
            .ok_or_else(|| crate::py::bigint::too_big(u64::MAX))?;
        // log2(n!) >= n*log2(n/e): refuse before the work when that passes the size cap.
        let nf = n as f64;
        if n > 2 {
            check_bits((nf * (nf / std::f64::consts::E).log2()) as u64)?;
        }
        bigint::product(rt, 1, n).map(from_big)
    });
    m.def(
        Clinic,
        "perm",
        "n, k=None, /",
        "The number of ways to choose k of n items in order.",
        |rt, b| {
            let (n, k) = n_and_k(&b)?;
            if k > n {
                return Ok(Value::Int(0));
            }
            estimate_size(n, k)?;
            bigint::product(rt, n - k + 1, n).map(from_big)
        },
    );
    m.def(
        Clinic,
        "comb",
        "n, k, /",
        "The number of ways to choose k of n items, without order.",
        |rt, b| {
            let (n, k) = n_and_k(&b)?;
            if k > n {
                return Ok(Value::Int(0));
            }
            let k = k.min(n - k);
            // The numerator n!/(n-k)! is built whole before the division.
            estimate_size(n, k)?;
            // n!/(n-k)! over k!: two product trees and one exact division.
            let num = bigint::product(rt, n - k + 1, n)?;
            let den = bigint::product(rt, 1, k)?;
            let q = num.bits().saturating_sub(den.bits()) + 1;
            crate::py::bigint::check_work(
                crate::py::bigint::limbs(q) * crate::py::bigint::limbs(den.bits()),
                "comb()",
            )?;
            Ok(from_big(num / den))
        },
    );
    m.def(
        Clinic,
        "gcd",
        "*integers",
        "Greatest common divisor.",
        |_, b| {
            let mut acc = BigInt::zero();
            for v in &b.rest {
                acc = bigint::gcd_big(&acc, &int_arg(Some(v))?)?;
            }
            Ok(from_big(acc))
        },
    );
    m.def(
        Clinic,
        "lcm",
        "*integers",
        "Least common multiple.",
        |_, b| {
            let mut acc = BigInt::from(1);
            for v in &b.rest {
                let x = int_arg(Some(v))?;
                check_bits(acc.bits() + x.bits())?;
                let g = bigint::gcd_big(&acc, &x)?;
                acc = if g.is_zero() {
                    g
                } else {
                    (&acc / &g * &x).abs()
                };
            }
            Ok(from_big(acc))
        },
    );
    m.def(
        Clinic,
        "isqrt",
        "n, /",
        "The integer square root of n.",
        |_, b| {
            let n = int_arg(b.get(0))?;
            if n.is_negative() {
                return Err(PyErr::value_error("isqrt() argument must be nonnegative"));
            }
            // Newton's iteration divides at every step: quadratic, so within the budget.
            let l = crate::py::bigint::limbs(n.bits());
            crate::py::bigint::check_work(l * l, "isqrt()")?;
            Ok(from_big(n.sqrt()))
        },
    );
}

/// An int argument of an integer function; floats are TypeError, as CPython.
fn int_arg(v: Option<&Value>) -> PyResult<BigInt> {
    let v = v.unwrap_or(crate::py::value::NONE);
    match v {
        Value::Scalar(s) if s.dtype().is_integer() => Ok(BigInt::from(s.as_i64())),
        _ => to_big(v).ok_or_else(|| {
            PyErr::type_error(format!(
                "'{}' object cannot be interpreted as an integer",
                v.type_name()
            ))
        }),
    }
}

/// `n` and `k` of `comb`/`perm`, both non-negative (`perm(n)` is `perm(n, n)`).
fn n_and_k(b: &Bound) -> PyResult<(u64, u64)> {
    let n = int_arg(b.get(0))?;
    let k = match b.get(1) {
        Some(v) if !v.is_none() => int_arg(Some(v))?,
        _ => n.clone(),
    };
    if n.is_negative() {
        return Err(PyErr::value_error("n must be a non-negative integer"));
    }
    if k.is_negative() {
        return Err(PyErr::value_error("k must be a non-negative integer"));
    }
    let big = || crate::py::bigint::too_big(u64::MAX);
    let n = n.to_u64().ok_or_else(big)?;
    match k.to_u64() {
        Some(k) => Ok((n, k)),
        // k past any u64 is past n too: the answer is 0.
        None => Ok((n, u64::MAX)),
    }
}

/// Refuses `perm(n, k)` (and the numerator of `comb(n, k)`) when n!/(n-k)! would pass
/// the int size cap, from log-gamma estimates, before any multiplication.
fn estimate_size(n: u64, k: u64) -> PyResult<()> {
    let lg = |x: u64| libm::lgamma(x as f64 + 1.0);
    let nats = lg(n) - lg(n - k);
    check_bits((nats / std::f64::consts::LN_2).max(0.0) as u64)
}

/// `f` (ln, log2 or log10) of an int or float argument, as CPython's `loghelper`: ints
/// too large for a float (`log(2**10000)`) go through their mantissa and exponent.
fn log_of(v: &Value, f: UnaryF) -> PyResult<f64> {
    if let Value::BigInt(b) = v {
        if !b.is_positive() {
            return Err(domain());
        }
        if let Some(x) = b.to_f64().filter(|x| x.is_finite()) {
            return Ok(f(x));
        }
        // b = m * 2**e with 0.5 <= m < 1.
        let e = b.bits();
        let top = (&**b >> (e - 64)).to_f64().unwrap_or(f64::INFINITY);
        let m = top / 2f64.powi(64);
        return Ok(f(m) + f(2.0) * e as f64);
    }
    let x = v.as_f64()?;
    if x.is_nan() || x == f64::INFINITY {
        return Ok(x);
    }
    if x <= 0.0 {
        return Err(domain());
    }
    Ok(f(x))
}

fn fmod(x: f64, y: f64) -> f64 {
    // C's fmod(x, inf) is x for finite x; Rust's % agrees, and 0 or inf operands give NaN.
    x % y
}

/// The float argument of a one-argument function (its count checked by the binder).
/// The float argument of a one-argument function; an instance converts through its
/// class's `__float__` (or `__index__`), as CPython's `PyFloat_AsDouble` does.
fn one(rt: &mut Runtime, b: &Bound) -> PyResult<f64> {
    let v = b.value(0);
    if let Some(inst) = crate::interp::classes::as_instance(&v) {
        for name in ["__float__", "__index__"] {
            if let Some(r) = inst.call_special(rt, name, vec![])? {
                return r.as_f64();
            }
        }
    }
    v.as_f64()
}

/// PEP 485's `isclose`.
fn is_close(x: f64, y: f64, rel: f64, abs: f64) -> PyResult<bool> {
    if rel < 0.0 || abs < 0.0 {
        return Err(PyErr::value_error("tolerances must be non-negative"));
    }
    if x == y {
        return Ok(true);
    }
    if x.is_infinite() || y.is_infinite() {
        return Ok(false);
    }
    let d = (x - y).abs();
    Ok(d <= (rel * y).abs() || d <= (rel * x).abs() || d <= abs)
}

/// Shewchuk's exactly rounded sum (the algorithm CPython's `fsum` uses): partial sums
/// that never lose a bit, added up once at the end.
fn fsum(xs: &[f64]) -> PyResult<f64> {
    let mut partials: Vec<f64> = Vec::new();
    let mut special = 0.0f64;
    for &x0 in xs {
        let mut x = x0;
        if !x.is_finite() {
            special += x;
            continue;
        }
        let mut i = 0;
        for j in 0..partials.len() {
            let mut y = partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[i] = lo;
                i += 1;
            }
            x = hi;
        }
        if x.is_infinite() {
            return Err(PyErr::overflow("intermediate overflow in fsum"));
        }
        partials.truncate(i);
        partials.push(x);
    }
    if special != 0.0 || special.is_nan() {
        if special.is_nan() && xs.iter().any(|x| x.is_infinite()) {
            return Err(PyErr::value_error("-inf + inf in fsum"));
        }
        return Ok(special);
    }
    let mut hi = 0.0;
    while let Some(x) = partials.pop() {
        let prev = hi;
        hi = prev + x;
        let lo = x - (hi - prev);
        if lo != 0.0 {
            // Round half to even across the remaining partials, as CPython's msum does.
            if let Some(&next) = partials.last() {
                if (lo < 0.0 && next < 0.0) || (lo > 0.0 && next > 0.0) {
                    let y = lo * 2.0;
                    let x2 = hi + y;
                    if y == x2 - hi {
                        hi = x2;
                    }
                }
            }
            break;
        }
    }
    Ok(hi)
}
