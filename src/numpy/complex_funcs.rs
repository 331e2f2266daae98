//! NumPy's functions on the parts of complex numbers: `np.real`, `np.imag`, `np.angle`
//! (with `deg=`), and `np.conj`/`np.conjugate` (a ufunc, in `ufuncs.rs`). Each takes Python
//! numbers, NumPy scalars, sequences and arrays, real or complex, as NumPy 2 does.

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::{cast, first_scalar, from_vec, new_array, read_vec};
use crate::arrays::promote::float_of;
use crate::arrays::NdArray;
use crate::numpy::funcs::arg;
use crate::py::error::PyResult;
use crate::py::ndarray_attrs::{to_ndarray, wrap_result};
use crate::py::ndarray_methods::array_getattr;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

pub(crate) fn register(m: &Module) {
    m.def(
        Function,
        "real",
        "val",
        "Return the real part of the complex argument.",
        |rt, b| part(rt, arg(&b, 0), false),
    );
    m.def(
        Function,
        "imag",
        "val",
        "Return the imaginary part of the complex argument.",
        |rt, b| part(rt, arg(&b, 0), true),
    );
    m.def(
        Function,
        "angle",
        "z, deg=False",
        "Return the angle of the complex argument.",
        |rt, b| {
            let deg = rt.truthy(&b.value(1))?;
            angle(rt, arg(&b, 0), deg)
        },
    );
}

/// `np.real(val)` / `np.imag(val)`: NumPy returns `val.real` where `val` has it (Python
/// numbers keep their type, NumPy scalars and arrays give theirs, views for arrays), and
/// the attribute of `np.asarray(val)` otherwise.
fn part(rt: &mut Runtime, v: &Value, imag: bool) -> PyResult<Value> {
    Ok(match v {
        Value::Bool(b) if !imag => Value::Int(*b as i64),
        Value::Bool(_) => Value::Int(0),
        Value::Int(_) | Value::BigInt(_) if !imag => v.clone(),
        Value::Int(_) | Value::BigInt(_) => Value::Int(0),
        Value::Float(_) if !imag => v.clone(),
        Value::Float(_) => Value::Float(0.0),
        Value::Complex(r, i) => Value::Float(if imag { *i } else { *r }),
        Value::Scalar(s) => scalar_part(*s, imag)?,
        _ => {
            let a = match v {
                Value::Array(a) => a.as_ref().clone(),
                _ => to_ndarray(rt, v)?,
            };
            let name = if imag { "imag" } else { "real" };
            match array_getattr(&a, name, rt)? {
                Some(r) => r,
                None => Value::None,
            }
        }
    })
}

/// A NumPy scalar's `.real` / `.imag`: the part's type for complex scalars, else the
/// scalar itself or a zero of its type.
fn scalar_part(s: Scalar, imag: bool) -> PyResult<Value> {
    Ok(Value::Scalar(match (s, imag) {
        (Scalar::C64(r, i), _) => Scalar::F32(if imag { i } else { r }),
        (Scalar::C128(r, i), _) => Scalar::F64(if imag { i } else { r }),
        (s, false) => s,
        (s, true) => first_scalar(&new_array(&[], s.dtype())?),
    }))
}

/// `np.angle(z, deg=False)`: `arctan2(z.imag, z.real)` for complex input, `arctan2(0, z)`
/// for real input (a float result; float32 stays float32), times `180/pi` with `deg`.
fn angle(rt: &mut Runtime, v: &Value, deg: bool) -> PyResult<Value> {
    let a = to_ndarray(rt, v)?;
    let radians: NdArray = if a.dtype.is_complex() {
        crate::arrays::complex::complex_part(&a, |re, im| im.atan2(re))?
    } else {
        let ft = float_of(a.dtype);
        let x = read_vec::<f64>(&cast(&a, DType::F64)?);
        let r: Vec<f64> = x.iter().map(|&x| 0f64.atan2(x)).collect();
        cast(&from_vec(&a.shape, &r)?, ft)?
    };
    if !deg {
        return Ok(wrap_result(radians));
    }
    // NumPy multiplies by the Python float 180/pi, a weak operand: float32 stays float32.
    let k = 180.0 / std::f64::consts::PI;
    let out = if radians.dtype == DType::F16 {
        let x = read_vec::<f32>(&radians);
        let r: Vec<half::f16> = x
            .iter()
            .map(|&x| half::f16::from_f32(x * k as f32))
            .collect();
        from_vec(&radians.shape, &r)?
    } else if radians.dtype == DType::F32 {
        let x = read_vec::<f32>(&radians);
        let r: Vec<f32> = x.iter().map(|&x| x * k as f32).collect();
        from_vec(&radians.shape, &r)?
    } else {
        let x = read_vec::<f64>(&radians);
        let r: Vec<f64> = x.iter().map(|&x| x * k).collect();
        from_vec(&radians.shape, &r)?
    };
    Ok(wrap_result(out))
}
