//! Python's `complex`: arithmetic with ints, floats and complexes following CPython's
//! algorithms (Smith's division, integer powers by repeated squaring up to 100, polar
//! powers beyond), CPython's repr (`(1+2j)`, `(-0-1j)`, `1j`), hash and string parsing,
//! and the `cmath` module.

use std::rc::Rc;

use crate::arrays::format::float_repr;
use crate::arrays::operator::BinOp;
use crate::py::error::{PyErr, PyResult};
use crate::py::signature::Style::Clinic;
use crate::py::value::{Args, Module, Value};

/// A complex number's parts.
pub type C = (f64, f64);

/// The complex value of a number (int, bool, float, big int, complex); None otherwise.
pub fn as_complex(v: &Value) -> PyResult<Option<C>> {
    Ok(match v {
        Value::Complex(re, im) => Some((*re, *im)),
        Value::Int(_) | Value::Bool(_) | Value::Float(_) | Value::BigInt(_) => {
            Some((v.as_f64()?, 0.0))
        }
        _ => None,
    })
}

fn mul(a: C, b: C) -> C {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

/// CPython's `_Py_c_quot` (Smith's algorithm: no overflow from squaring the divisor).
fn quot(a: C, b: C) -> PyResult<C> {
    let (abs_re, abs_im) = (b.0.abs(), b.1.abs());
    if b.0 == 0.0 && b.1 == 0.0 {
        return Err(PyErr::zero_division("complex division by zero"));
    }
    Ok(if abs_re >= abs_im {
        let ratio = b.1 / b.0;
        let denom = b.0 + b.1 * ratio;
        ((a.0 + a.1 * ratio) / denom, (a.1 - a.0 * ratio) / denom)
    } else if abs_im >= abs_re {
        let ratio = b.0 / b.1;
        let denom = b.0 * ratio + b.1;
        ((a.0 * ratio + a.1) / denom, (a.1 * ratio - a.0) / denom)
    } else {
        // Only NaN parts get here.
        (f64::NAN, f64::NAN)
    })
}

/// `x ** n` for a non-negative integer n, by repeated squaring (CPython's `c_powu`).
fn powu(x: C, n: u64) -> C {
    let (mut r, mut p, mut mask) = ((1.0, 0.0), x, 1u64);
    while mask > 0 && n >= mask {
        if n & mask != 0 {
            r = mul(r, p);
        }
        mask <<= 1;
        p = mul(p, p);
    }
    r
}

/// CPython's `_Py_c_pow`, for exponents that are not small integers.
fn pow_polar(a: C, b: C) -> PyResult<C> {
    if b.0 == 0.0 && b.1 == 0.0 {
        return Ok((1.0, 0.0));
    }
    if a.0 == 0.0 && a.1 == 0.0 {
        if b.1 != 0.0 || b.0 < 0.0 {
            return Err(PyErr::zero_division("0.0 to a negative or complex power"));
        }
        return Ok((0.0, 0.0));
    }
    let vabs = a.0.hypot(a.1);
    let mut len = vabs.powf(b.0);
    let at = a.1.atan2(a.0);
    let mut phase = at * b.0;
    if b.1 != 0.0 {
        len /= (at * b.1).exp();
        phase += b.1 * vabs.ln();
    }
    Ok((len * phase.cos(), len * phase.sin()))
}

fn pow(a: C, b: C) -> PyResult<C> {
    // CPython: an integral exponent up to 100 multiplies, so (1+1j)**2 is exactly 2j.
    let r = if b.1 == 0.0 && b.0 == b.0.floor() && b.0.abs() <= 100.0 {
        let n = b.0 as i64;
        if n >= 0 {
            powu(a, n as u64)
        } else {
            quot((1.0, 0.0), powu(a, n.unsigned_abs()))
                .map_err(|_| PyErr::zero_division("0.0 to a negative or complex power"))?
        }
    } else {
        pow_polar(a, b)?
    };
    let finite = |c: C| c.0.is_finite() && c.1.is_finite();
    if !finite(r) && finite(a) && finite(b) {
        return Err(PyErr::overflow("complex exponentiation"));
    }
    Ok(r)
}

/// `x ** y` for floats where x is negative and y fractional: CPython's float power hands
/// these to complex power, so `(-8) ** (1/3)` is a complex number, not NaN.
pub fn negative_float_pow(x: f64, y: f64) -> PyResult<Value> {
    let r = pow((x, 0.0), (y, 0.0))?;
    Ok(Value::Complex(r.0, r.1))
}

/// `a op b` where either side is complex and the other a number; None when the other
/// side is not a number (the caller tries its other routes).
pub fn binary(op: BinOp, a: &Value, b: &Value) -> PyResult<Option<Value>> {
    let (Some(x), Some(y)) = (as_complex(a)?, as_complex(b)?) else {
        return Ok(None);
    };
    let r = match op {
        BinOp::Add => (x.0 + y.0, x.1 + y.1),
        BinOp::Sub => (x.0 - y.0, x.1 - y.1),
        BinOp::Mul => mul(x, y),
        BinOp::Div => quot(x, y)?,
        BinOp::Pow => pow(x, y)?,
        _ => {
            return Err(PyErr::type_error(format!(
                "unsupported operand type(s) for {}: '{}' and '{}'",
                op.symbol(),
                a.type_name(),
                b.type_name()
            )))
        }
    };
    Ok(Some(Value::Complex(r.0, r.1)))
}

/// `abs(z)`.
pub fn abs(re: f64, im: f64) -> PyResult<Value> {
    let r = re.hypot(im);
    if r.is_infinite() && re.is_finite() && im.is_finite() {
        return Err(PyErr::overflow("absolute value too large"));
    }
    Ok(Value::Float(r))
}

/// A part of a complex repr: the float's repr without a trailing `.0`.
fn part(x: f64) -> String {
    let s = float_repr(x);
    match s.strip_suffix(".0") {
        Some(t) => t.to_string(),
        None => s,
    }
}

/// CPython's `repr(complex)`: the imaginary part alone when the real part is +0.
pub fn repr(re: f64, im: f64) -> String {
    if re == 0.0 && re.is_sign_positive() {
        return format!("{}j", part(im));
    }
    let im_s = part(im);
    let sign = if im_s.starts_with('-') { "" } else { "+" };
    format!("({}{sign}{im_s}j)", part(re))
}

/// The attributes of a complex (`z.real`, `z.imag`, `z.conjugate()`).
pub fn attr(re: f64, im: f64, name: &str) -> Option<Value> {
    match name {
        "real" => Some(Value::Float(re)),
        "imag" => Some(Value::Float(im)),
        "conjugate" => Some(Value::builtin(
            "complex.conjugate",
            "conjugate()",
            "The complex conjugate.",
            move |_, _| Ok(Value::Complex(re, -im)),
        )),
        _ => None,
    }
}

/// `complex(real=0, imag=0)` and `complex(string)`.
pub fn construct(a: &Args) -> PyResult<Value> {
    let p = a.bind("complex", &["real=", "imag="])?;
    if let Some(Value::Str(s)) = &p[0] {
        if p[1].is_some() {
            return Err(PyErr::type_error(
                "complex() can't take second arg if first is a string",
            ));
        }
        let (re, im) =
            parse(s).ok_or_else(|| PyErr::value_error("complex() arg is a malformed string"))?;
        return Ok(Value::Complex(re, im));
    }
    let part = |v: &Option<Value>, which: &str| -> PyResult<C> {
        match v {
            None => Ok((0.0, 0.0)),
            Some(Value::Str(_)) => Err(PyErr::type_error("complex() second arg can't be a string")),
            Some(v) => as_complex(v)?.ok_or_else(|| {
                PyErr::type_error(format!(
                    "complex() {which} must be a number, not '{}'",
                    v.type_name()
                ))
            }),
        }
    };
    let r = part(&p[0], "first argument")?;
    let i = part(&p[1], "second argument")?;
    // complex(a, b) is a + b*1j. Only a complex argument's other part is mixed in, so a
    // real `imag` keeps its sign (`complex(1.5, -0.0)` is `(1.5-0j)`).
    let is_complex = |v: &Option<Value>| matches!(v, Some(Value::Complex(..)));
    let re = if is_complex(&p[1]) { r.0 - i.1 } else { r.0 };
    let im = if is_complex(&p[0]) && p[1].is_some() {
        i.0 + r.1
    } else if p[1].is_some() {
        i.0
    } else {
        r.1
    };
    Ok(Value::Complex(re, im))
}

/// Parses `1+2j`, `-1.5e3j`, `(3-j)`, `inf+nanj`: CPython's complex literal grammar.
fn parse(text: &str) -> Option<C> {
    let t = text.trim();
    let t = match t.strip_prefix('(') {
        Some(inner) => inner.strip_suffix(')')?.trim(),
        None => t,
    };
    if t.is_empty() || t.contains(char::is_whitespace) {
        return None;
    }
    let float = |s: &str| -> Option<f64> {
        let body = s.trim_start_matches(['+', '-']);
        if body.is_empty() || s.len() - body.len() > 1 {
            return None;
        }
        let lower = body.to_ascii_lowercase();
        let v = match lower.as_str() {
            "inf" | "infinity" => f64::INFINITY,
            "nan" => f64::NAN,
            _ if body.starts_with(|c: char| c.is_ascii_digit() || c == '.') => {
                body.replace('_', "").parse::<f64>().ok()?
            }
            _ => return None,
        };
        Some(if s.starts_with('-') { -v } else { v })
    };
    let Some(body) = t.strip_suffix(['j', 'J']) else {
        return Some((float(t)?, 0.0));
    };
    // The imaginary part starts at the last sign that is not an exponent's.
    let bytes = body.as_bytes();
    let split = (1..bytes.len())
        .rev()
        .find(|&i| matches!(bytes[i], b'+' | b'-') && !matches!(bytes[i - 1], b'e' | b'E'));
    let imag = |s: &str| -> Option<f64> {
        match s {
            "" | "+" => Some(1.0),
            "-" => Some(-1.0),
            _ => float(s),
        }
    };
    match split {
        Some(i) => Some((float(&body[..i])?, imag(&body[i..])?)),
        None => Some((0.0, imag(body)?)),
    }
}

/// The `cmath` module.
pub fn cmath_module() -> Rc<Module> {
    let m = Module::new("cmath", "Mathematical functions for complex numbers.");
    m.set("pi", Value::Float(std::f64::consts::PI));
    m.set("e", Value::Float(std::f64::consts::E));
    m.set("tau", Value::Float(std::f64::consts::TAU));
    m.set("inf", Value::Float(f64::INFINITY));
    m.set("nan", Value::Float(f64::NAN));
    m.set("infj", Value::Complex(0.0, f64::INFINITY));
    m.set("nanj", Value::Complex(0.0, f64::NAN));
    type F = fn(C) -> PyResult<C>;
    let funcs: &[(&str, F)] = &[
        ("sqrt", |z| Ok(sqrt(z))),
        ("exp", exp),
        ("log10", |z| {
            let l = log(z)?;
            Ok((l.0 / std::f64::consts::LN_10, l.1 / std::f64::consts::LN_10))
        }),
        ("sin", |z| {
            Ok((z.0.sin() * z.1.cosh(), z.0.cos() * z.1.sinh()))
        }),
        ("cos", |z| {
            Ok((z.0.cos() * z.1.cosh(), -(z.0.sin() * z.1.sinh())))
        }),
        // tan(z) = -i tanh(iz), as CPython computes it.
        ("tan", |z| {
            let r = tanh((-z.1, z.0));
            Ok((r.1, -r.0))
        }),
        ("sinh", |z| {
            Ok((z.0.sinh() * z.1.cos(), z.0.cosh() * z.1.sin()))
        }),
        ("cosh", |z| {
            Ok((z.0.cosh() * z.1.cos(), z.0.sinh() * z.1.sin()))
        }),
        ("tanh", |z| Ok(tanh(z))),
    ];
    for &(name, f) in funcs {
        let doc = match name {
            "sqrt" => "Return the square root of z.",
            "exp" => "Return the exponential value e**z.",
            "log10" => "Return the base-10 logarithm of z.",
            "sin" => "Return the sine of z.",
            "cos" => "Return the cosine of z.",
            "tan" => "Return the tangent of z.",
            "sinh" => "Return the hyperbolic sine of z.",
            "cosh" => "Return the hyperbolic cosine of z.",
            _ => "Return the hyperbolic tangent of z.",
        };
        m.def(Clinic, name, "z, /", doc, move |_, b| {
            let z = arg(b.get(0), name)?;
            let r = f(z)?;
            Ok(Value::Complex(r.0, r.1))
        });
    }
    // `base` has no default Python could write: absent is the natural logarithm.
    m.def_shown(
        Clinic,
        "log",
        "z, base=<e>, /",
        "log(z[, base])",
        "log(z[, base]) -> the logarithm of z to the given base.",
        |_, b| {
            let z = arg(b.get(0), "log")?;
            let mut r = log(z)?;
            if let Some(base) = b.get(1) {
                r = quot(r, log(arg(Some(base), "log")?)?)?;
            }
            Ok(Value::Complex(r.0, r.1))
        },
    );
    m.def(
        Clinic,
        "phase",
        "z, /",
        "Return argument, also known as the phase angle, of a complex.",
        |_, b| {
            let z = arg(b.get(0), "phase")?;
            Ok(Value::Float(z.1.atan2(z.0)))
        },
    );
    m.def(
        Clinic,
        "polar",
        "z, /",
        "Convert a complex from rectangular coordinates to polar coordinates.",
        |_, b| {
            let z = arg(b.get(0), "polar")?;
            let r = abs(z.0, z.1)?;
            Ok(Value::tuple(vec![r, Value::Float(z.1.atan2(z.0))]))
        },
    );
    m.def(
        Clinic,
        "rect",
        "r, phi, /",
        "Convert from polar coordinates to rectangular coordinates.",
        |_, b| {
            let (r, phi) = (b.value(0).as_f64()?, b.value(1).as_f64()?);
            // rect(r, 0) is exactly real, as in CPython.
            let im = if phi == 0.0 { phi * r } else { r * phi.sin() };
            Ok(Value::Complex(r * phi.cos(), im))
        },
    );
    for (name, doc, f) in [
        (
            "isnan",
            "Checks if the real or imaginary part of z not a number (NaN).",
            (|z: C| z.0.is_nan() || z.1.is_nan()) as fn(C) -> bool,
        ),
        (
            "isinf",
            "Checks if the real or imaginary part of z is infinite.",
            |z| z.0.is_infinite() || z.1.is_infinite(),
        ),
        (
            "isfinite",
            "Return True if both the real and imaginary parts of z are finite, else False.",
            |z| z.0.is_finite() && z.1.is_finite(),
        ),
    ] {
        m.def(Clinic, name, "z, /", doc, move |_, b| {
            Ok(Value::Bool(f(arg(b.get(0), name)?)))
        });
    }
    m.def(
        Clinic,
        "isclose",
        "a, b, *, rel_tol=1e-09, abs_tol=0.0",
        "Determine whether two complex numbers are close in value.",
        |_, p| {
            let x = arg(p[0].as_ref(), "isclose")?;
            let y = arg(p[1].as_ref(), "isclose")?;
            let tol = |v: &Option<Value>, d: f64| v.as_ref().map_or(Ok(d), |v| v.as_f64());
            let (rel, abs_tol) = (tol(&p[2], 1e-9)?, tol(&p[3], 0.0)?);
            if rel < 0.0 || abs_tol < 0.0 {
                return Err(PyErr::value_error("tolerances must be non-negative"));
            }
            if x == y {
                return Ok(Value::Bool(true));
            }
            if x.0.is_infinite() || x.1.is_infinite() || y.0.is_infinite() || y.1.is_infinite() {
                return Ok(Value::Bool(false));
            }
            let d = (x.0 - y.0).hypot(x.1 - y.1);
            let (ax, ay) = (x.0.hypot(x.1), y.0.hypot(y.1));
            Ok(Value::Bool(d <= rel * ay || d <= rel * ax || d <= abs_tol))
        },
    );
    Rc::new(m)
}

fn arg(v: Option<&Value>, name: &str) -> PyResult<C> {
    let v = v.ok_or_else(|| PyErr::type_error(format!("{name} expected an argument")))?;
    as_complex(v)?
        .ok_or_else(|| PyErr::type_error(format!("must be real number, not {}", v.type_name())))
}

/// CPython's `cmath.sqrt` for finite arguments (scaled to avoid overflow in the
/// modulus); signed zeros kept.
fn sqrt(z: C) -> C {
    if z.0 == 0.0 && z.1 == 0.0 {
        return (0.0, z.1);
    }
    if z.1.is_infinite() {
        return (f64::INFINITY, z.1);
    }
    // Eighths keep the modulus finite near f64::MAX.
    let (ax, ay) = (z.0.abs() / 8.0, z.1.abs() / 8.0);
    let s = 2.0 * (ax + ax.hypot(ay)).sqrt();
    let d = z.1.abs() / (2.0 * s);
    if z.0 >= 0.0 {
        (s, d.copysign(z.1))
    } else {
        (d, s.copysign(z.1))
    }
}

/// CPython's `c_tanh` formula (accurate where sinh/cosh quotients lose bits).
fn tanh(z: C) -> C {
    if z.0.abs() > 354.0 {
        // cosh overflows: the result is ±1 with a vanishing imaginary part.
        return (
            1f64.copysign(z.0),
            4.0 * (z.1).sin() * (z.1).cos() * (-2.0 * z.0.abs()).exp(),
        );
    }
    let tx = z.0.tanh();
    let ty = z.1.tan();
    let cx = 1.0 / z.0.cosh();
    let txty = tx * ty;
    let denom = 1.0 + txty * txty;
    (tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx)
}

fn exp(z: C) -> PyResult<C> {
    let r = z.0.exp();
    let out = if z.1 == 0.0 {
        (r, z.1)
    } else {
        (r * z.1.cos(), r * z.1.sin())
    };
    if (out.0.is_infinite() || out.1.is_infinite()) && z.0.is_finite() && z.1.is_finite() {
        return Err(PyErr::overflow("math range error"));
    }
    Ok(out)
}

fn log(z: C) -> PyResult<C> {
    if z.0 == 0.0 && z.1 == 0.0 {
        return Err(PyErr::value_error("math domain error"));
    }
    Ok((z.0.hypot(z.1).ln(), z.1.atan2(z.0)))
}
