//! The ufuncs and reductions of the `numpy` module (`np.add`, `np.sin`, `np.round`,
//! `np.sum`, ...): argument handling around the kernels of [`super::ufunc`] and
//! [`super::reduce`].

use super::elem::copy_into;
use super::methods::array_getattr;
use super::numpy_funcs::{arg, out_arg};
use super::pyapi::{operands, to_ndarray, wrap_result};
use super::ufunc::{binary_ufunc, elementwise_unary, Ufunc2, UNARY_NAMES};
use super::{NdArray, Scalar};
use crate::language::{Module, PyErr, PyResult, Runtime, Value};

const BINARY: &[(&str, Ufunc2)] = &[
    ("add", Ufunc2::Add),
    ("subtract", Ufunc2::Sub),
    ("multiply", Ufunc2::Mul),
    ("divide", Ufunc2::Div),
    ("true_divide", Ufunc2::Div),
    ("floor_divide", Ufunc2::FloorDiv),
    ("power", Ufunc2::Pow),
    ("mod", Ufunc2::Mod),
    ("remainder", Ufunc2::Mod),
    ("maximum", Ufunc2::Max),
    ("minimum", Ufunc2::Min),
    ("fmax", Ufunc2::Max),
    ("fmin", Ufunc2::Min),
    ("equal", Ufunc2::Eq),
    ("not_equal", Ufunc2::Ne),
    ("less", Ufunc2::Lt),
    ("less_equal", Ufunc2::Le),
    ("greater", Ufunc2::Gt),
    ("greater_equal", Ufunc2::Ge),
    ("bitwise_and", Ufunc2::And),
    ("bitwise_or", Ufunc2::Or),
    ("bitwise_xor", Ufunc2::Xor),
    ("left_shift", Ufunc2::Shl),
    ("right_shift", Ufunc2::Shr),
    ("logical_and", Ufunc2::LogicalAnd),
    ("logical_or", Ufunc2::LogicalOr),
    ("logical_xor", Ufunc2::LogicalXor),
    ("arctan2", Ufunc2::Arctan2),
    ("hypot", Ufunc2::Hypot),
];

/// `np.add(x, y, out=None)` etc.: Python numbers are weak operands.
pub fn call_binary(
    rt: &mut Runtime,
    k: Ufunc2,
    x: &Value,
    y: &Value,
    out: Option<NdArray>,
) -> PyResult<Value> {
    let (a, b) = match operands(rt, x, y)? {
        Some(p) => p,
        None => (to_ndarray(rt, x)?, to_ndarray(rt, y)?),
    };
    let r = binary_ufunc(k, &a, &b, out.as_ref())?;
    Ok(if out.is_some() {
        Value::Array(r)
    } else {
        wrap_result(r)
    })
}

pub(super) fn ufuncs(m: &Module) {
    for &(name, k) in BINARY {
        m.func(
            name,
            &format!("{name}(x1, x2, /, out=None)"),
            &format!("NumPy's {name} ufunc, elementwise with broadcasting."),
            move |rt, a| {
                let b = a.bind(name, &["x1", "x2", "out=", "dtype=", "where=", "casting="])?;
                call_binary(rt, k, arg(&b, 0), arg(&b, 1), out_arg(&b[2])?)
            },
        );
    }
    let mut names: Vec<&'static str> = UNARY_NAMES.to_vec();
    names.push("round_");
    for &name in UNARY_NAMES {
        m.func(
            name,
            &format!("{name}(x, /, out=None)"),
            &format!("NumPy's {name} ufunc, elementwise."),
            move |rt, a| {
                let b = a.bind(name, &["x", "out=", "dtype=", "where=", "casting="])?;
                let x = to_ndarray(rt, arg(&b, 0))?;
                let out = out_arg(&b[1])?;
                let r = elementwise_unary(name, &x, out.as_ref())?;
                Ok(if out.is_some() {
                    Value::Array(r)
                } else {
                    wrap_result(r)
                })
            },
        );
    }
    m.func(
        "clip",
        "clip(a, a_min, a_max, out=None)",
        "Limit values to [a_min, a_max].",
        |rt, a| {
            let b = a.bind("clip", &["a", "a_min", "a_max", "out="])?;
            let out = out_arg(&b[3])?;
            let mut v = arg(&b, 0).clone();
            if !arg(&b, 1).is_none() {
                v = call_binary(rt, Ufunc2::Max, &v, arg(&b, 1), None)?;
            }
            if !arg(&b, 2).is_none() {
                v = call_binary(rt, Ufunc2::Min, &v, arg(&b, 2), None)?;
            }
            if let Some(o) = out {
                copy_into(&o, &to_ndarray(rt, &v)?)?;
                return Ok(Value::Array(o));
            }
            Ok(v)
        },
    );
    for name in ["round", "around"] {
        m.func(
            name,
            &format!("{name}(a, decimals=0, out=None)"),
            "Round to the given number of decimals (half to even).",
            |rt, a| {
                let b = a.bind("round", &["a", "decimals=", "out="])?;
                let x = to_ndarray(rt, arg(&b, 0))?;
                let dec = b[1]
                    .as_ref()
                    .map(|v| v.as_index())
                    .transpose()?
                    .unwrap_or(0);
                let r = round(&x, dec)?;
                match out_arg(&b[2])? {
                    Some(o) => {
                        copy_into(&o, &r)?;
                        Ok(Value::Array(o))
                    }
                    None => Ok(wrap_result(r)),
                }
            },
        );
    }
}

/// `np.round(x, decimals)` as NumPy computes it: scale, round half to even, unscale.
pub fn round(x: &NdArray, dec: i64) -> PyResult<NdArray> {
    if !x.dtype.is_float() {
        return super::contiguous_copy(x);
    }
    if dec == 0 {
        return elementwise_unary("rint", x, None);
    }
    let f =
        super::elem::scalar_array(Scalar::F64(10f64.powi(dec.unsigned_abs() as i32)).cast(x.dtype));
    let (m, d) = if dec > 0 {
        (Ufunc2::Mul, Ufunc2::Div)
    } else {
        (Ufunc2::Div, Ufunc2::Mul)
    };
    let y = binary_ufunc(m, x, &f, None)?;
    let y = elementwise_unary("rint", &y, None)?;
    binary_ufunc(d, &y, &f, None)
}

pub(super) fn reductions(m: &Module) {
    for name in [
        "sum", "mean", "min", "max", "amin", "amax", "std", "var", "prod", "argmin", "argmax",
        "any", "all", "cumsum", "cumprod",
    ] {
        m.func(
            name,
            &format!("{name}(a, axis=None)"),
            &format!("NumPy's {name} over all elements or one axis."),
            move |rt, a| {
                let mut args = a.clone();
                if args.pos.is_empty() {
                    return Err(PyErr::type_error(format!(
                        "{name}() missing required argument: 'a'"
                    )));
                }
                let x = to_ndarray(rt, &args.pos.remove(0))?;
                let meth = match name {
                    "amin" => "min",
                    "amax" => "max",
                    n => n,
                };
                let f = array_getattr(&x, meth, rt)?
                    .ok_or_else(|| PyErr::internal("missing method"))?;
                match f {
                    Value::Builtin(b) => (b.f)(rt, args),
                    _ => Err(PyErr::internal("method is not a builtin")),
                }
            },
        );
    }
}
