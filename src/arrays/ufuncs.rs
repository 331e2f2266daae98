//! NumPy's unary ufuncs (sin, exp, sqrt, abs, floor, isnan, ...), the two-argument ones
//! that are not operators (maximum, minimum, arctan2, hypot), `where`, `clip`, `round`.

use crate::arrays::ops::{self, map_unary, new_array, Operand};
use crate::arrays::typed::{fresh_slice_mut, load, Elem};
use crate::arrays::{DType, NdArray};
use crate::language::{PyErr, PyResult, Runtime, Value};
use crate::with_dtype;

pub const FLOAT_UNARY: &[&str] = &[
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt",
    "deg2rad", "rad2deg", "radians", "degrees",
];

pub const OTHER_UNARY: &[&str] = &[
    "abs",
    "absolute",
    "fabs",
    "negative",
    "positive",
    "square",
    "sign",
    "floor",
    "ceil",
    "trunc",
    "rint",
    "isnan",
    "isinf",
    "isfinite",
    "logical_not",
    "reciprocal",
];

fn float_fn(name: &str) -> fn(f64) -> f64 {
    match name {
        "sin" => f64::sin,
        "cos" => f64::cos,
        "tan" => f64::tan,
        "arcsin" => f64::asin,
        "arccos" => f64::acos,
        "arctan" => f64::atan,
        "sinh" => f64::sinh,
        "cosh" => f64::cosh,
        "tanh" => f64::tanh,
        "arcsinh" => f64::asinh,
        "arccosh" => f64::acosh,
        "arctanh" => f64::atanh,
        "exp" => f64::exp,
        "exp2" => f64::exp2,
        "expm1" => f64::exp_m1,
        "log" => f64::ln,
        "log2" => f64::log2,
        "log10" => f64::log10,
        "log1p" => f64::ln_1p,
        "sqrt" => f64::sqrt,
        "cbrt" => f64::cbrt,
        "deg2rad" | "radians" => f64::to_radians,
        _ => f64::to_degrees,
    }
}

fn f32_fn(name: &str) -> fn(f32) -> f32 {
    match name {
        "sin" => f32::sin,
        "cos" => f32::cos,
        "tan" => f32::tan,
        "arcsin" => f32::asin,
        "arccos" => f32::acos,
        "arctan" => f32::atan,
        "sinh" => f32::sinh,
        "cosh" => f32::cosh,
        "tanh" => f32::tanh,
        "arcsinh" => f32::asinh,
        "arccosh" => f32::acosh,
        "arctanh" => f32::atanh,
        "exp" => f32::exp,
        "exp2" => f32::exp2,
        "expm1" => f32::exp_m1,
        "log" => f32::ln,
        "log2" => f32::log2,
        "log10" => f32::log10,
        "log1p" => f32::ln_1p,
        "sqrt" => f32::sqrt,
        "cbrt" => f32::cbrt,
        "deg2rad" | "radians" => f32::to_radians,
        _ => f32::to_degrees,
    }
}

/// Apply a unary ufunc by name.
pub fn unary(name: &str, a: &NdArray) -> PyResult<NdArray> {
    if FLOAT_UNARY.contains(&name) {
        if a.dtype == DType::F32 {
            let out = new_array(&a.shape, DType::F32)?;
            let src = load::<f32>(a, &a.shape);
            // SAFETY: `out` was just allocated and is not shared.
            map_unary(&src, unsafe { fresh_slice_mut::<f32>(&out) }, f32_fn(name));
            return Ok(out);
        }
        let out = new_array(&a.shape, DType::F64)?;
        let src = load::<f64>(a, &a.shape);
        // SAFETY: as above.
        map_unary(
            &src,
            unsafe { fresh_slice_mut::<f64>(&out) },
            float_fn(name),
        );
        return Ok(out);
    }
    match name {
        "isnan" | "isinf" | "isfinite" => {
            let out = new_array(&a.shape, DType::Bool)?;
            let src = load::<f64>(a, &a.shape);
            let f: fn(f64) -> bool = match name {
                "isnan" => f64::is_nan,
                "isinf" => f64::is_infinite,
                _ => f64::is_finite,
            };
            // SAFETY: as above.
            map_unary(&src, unsafe { fresh_slice_mut::<u8>(&out) }, move |x| {
                f(x) as u8
            });
            Ok(out)
        }
        "logical_not" => {
            let out = new_array(&a.shape, DType::Bool)?;
            let src = load::<f64>(a, &a.shape);
            // SAFETY: as above.
            map_unary(&src, unsafe { fresh_slice_mut::<u8>(&out) }, |x| {
                (x == 0.0) as u8
            });
            Ok(out)
        }
        "reciprocal" if !a.dtype.is_float() => Err(PyErr::type_error(
            "reciprocal of integers truncates to 0 or 1; use 1.0 / x",
        )),
        _ => {
            let dt = a.dtype;
            let out = new_array(&a.shape, dt)?;
            with_dtype!(dt, T => {
                let src = load::<T>(a, &a.shape);
                // SAFETY: as above.
                let o = unsafe { fresh_slice_mut::<T>(&out) };
                let f: fn(T) -> T = same_type_fn::<T>(name)?;
                map_unary(&src, o, f);
            });
            Ok(out)
        }
    }
}

fn same_type_fn<T: Elem>(name: &str) -> PyResult<fn(T) -> T> {
    let is_float = T::DTYPE.is_float();
    Ok(match name {
        "abs" | "absolute" | "fabs" => |x: T| T::from_f64(x.to_f64().abs()),
        "negative" => |x: T| {
            if T::DTYPE.is_float() {
                T::from_f64(-x.to_f64())
            } else {
                T::from_i64(x.to_i64().wrapping_neg())
            }
        },
        "positive" => |x: T| x,
        "square" => |x: T| {
            if T::DTYPE.is_float() {
                T::from_f64(x.to_f64() * x.to_f64())
            } else {
                T::from_i64(x.to_i64().wrapping_mul(x.to_i64()))
            }
        },
        "sign" => |x: T| {
            let v = x.to_f64();
            T::from_f64(if v > 0.0 {
                1.0
            } else if v < 0.0 {
                -1.0
            } else {
                v
            })
        },
        "floor" if is_float => |x: T| T::from_f64(x.to_f64().floor()),
        "ceil" if is_float => |x: T| T::from_f64(x.to_f64().ceil()),
        "trunc" if is_float => |x: T| T::from_f64(x.to_f64().trunc()),
        "rint" if is_float => |x: T| T::from_f64(x.to_f64().round_ties_even()),
        "floor" | "ceil" | "trunc" | "rint" => |x: T| x,
        "reciprocal" => |x: T| T::from_f64(1.0 / x.to_f64()),
        other => return Err(PyErr::not_implemented(format!("ufunc '{other}'"))),
    })
}

/// `np.maximum`, `np.minimum` (NaN propagates), `np.arctan2`, `np.hypot`, `np.fmod`.
pub fn binary_fn(name: &str, a: &Operand, b: &Operand) -> PyResult<NdArray> {
    let shape = ops::broadcast_shapes(a.shape(), b.shape())?;
    let mut dt = ops::result_dtype(a, b);
    if matches!(name, "arctan2" | "hypot") && !dt.is_float() {
        dt = DType::F64;
    }
    let load_op = |o: &Operand| -> PyResult<Vec<f64>> {
        Ok(match o {
            Operand::Arr(x) => load::<f64>(x, &shape).into_owned(),
            Operand::PyInt(i) => vec![*i as f64; shape.iter().product()],
            Operand::PyFloat(f) => vec![*f; shape.iter().product()],
            Operand::PyBool(v) => vec![*v as u8 as f64; shape.iter().product()],
        })
    };
    let (x, y) = (load_op(a)?, load_op(b)?);
    let f: fn(f64, f64) -> f64 = match name {
        "maximum" => |p, q| {
            if p.is_nan() || q.is_nan() {
                f64::NAN
            } else {
                p.max(q)
            }
        },
        "minimum" => |p, q| {
            if p.is_nan() || q.is_nan() {
                f64::NAN
            } else {
                p.min(q)
            }
        },
        "fmax" => f64::max,
        "fmin" => f64::min,
        "arctan2" => f64::atan2,
        "hypot" => f64::hypot,
        "fmod" => |p, q| p % q,
        "copysign" => f64::copysign,
        other => return Err(PyErr::not_implemented(format!("ufunc '{other}'"))),
    };
    let v: Vec<f64> = if dt == DType::F32 {
        x.iter()
            .zip(&y)
            .map(|(&p, &q)| f(p as f32 as f64, q as f32 as f64) as f32 as f64)
            .collect()
    } else {
        x.iter().zip(&y).map(|(&p, &q)| f(p, q)).collect()
    };
    ops::array_from(&shape, dt, &v)
}

/// `np.where(cond, x, y)`.
pub fn where3(cond: &NdArray, x: &Operand, y: &Operand) -> PyResult<NdArray> {
    let s1 = ops::broadcast_shapes(&cond.shape, x.shape())?;
    let shape = ops::broadcast_shapes(&s1, y.shape())?;
    let dt = ops::result_dtype(x, y);
    let c = load::<u8>(cond, &shape);
    let out = new_array(&shape, dt)?;
    let pick = |o: &Operand| -> PyResult<NdArray> {
        Ok(match o {
            Operand::Arr(a) => a.clone(),
            Operand::PyInt(i) => {
                crate::arrays::pyapi::scalar_array(crate::arrays::Scalar::I64(*i).cast(dt))?
            }
            Operand::PyFloat(f) => {
                crate::arrays::pyapi::scalar_array(crate::arrays::Scalar::F64(*f).cast(dt))?
            }
            Operand::PyBool(b) => {
                crate::arrays::pyapi::scalar_array(crate::arrays::Scalar::Bool(*b).cast(dt))?
            }
        })
    };
    let (xa, ya) = (pick(x)?, pick(y)?);
    with_dtype!(dt, T => {
        let xv = load::<T>(&xa, &shape);
        let yv = load::<T>(&ya, &shape);
        // SAFETY: `out` was just allocated and is not shared.
        let o = unsafe { fresh_slice_mut::<T>(&out) };
        for i in 0..o.len() {
            o[i] = if c[i] != 0 { xv[i] } else { yv[i] };
        }
    });
    Ok(out)
}

/// `np.round(a, decimals)` with NumPy's round-half-to-even.
pub fn round(a: &NdArray, decimals: i64) -> PyResult<NdArray> {
    if !a.dtype.is_float() && decimals >= 0 {
        return ops::contiguous_copy(a);
    }
    let scale = 10f64.powi(decimals as i32);
    let v: Vec<f64> = load::<f64>(a, &a.shape)
        .iter()
        .map(|&x| {
            if a.dtype == DType::F32 {
                let s = scale as f32;
                ((x as f32 * s).round_ties_even() / s) as f64
            } else {
                (x * scale).round_ties_even() / scale
            }
        })
        .collect();
    ops::array_from(&a.shape, a.dtype, &v)
}

/// `np.clip(a, lo, hi)` (either bound may be None).
pub fn clip(
    rt: &mut Runtime,
    a: &NdArray,
    lo: Option<Value>,
    hi: Option<Value>,
) -> PyResult<Value> {
    let mut cur = Operand::Arr(a.clone());
    let to_op = |rt: &mut Runtime, v: &Value| -> PyResult<Operand> {
        Ok(match v {
            Value::Int(i) => Operand::PyInt(*i),
            Value::Float(f) => Operand::PyFloat(*f),
            other => Operand::Arr(crate::arrays::pyapi::to_ndarray(rt, other)?),
        })
    };
    if let Some(l) = lo.filter(|v| !v.is_none()) {
        let o = to_op(rt, &l)?;
        cur = Operand::Arr(binary_fn("maximum", &cur, &o)?);
    }
    if let Some(h) = hi.filter(|v| !v.is_none()) {
        let o = to_op(rt, &h)?;
        cur = Operand::Arr(binary_fn("minimum", &cur, &o)?);
    }
    match cur {
        Operand::Arr(r) => Ok(Value::Array(r)),
        _ => unreachable!("array operand"),
    }
}
