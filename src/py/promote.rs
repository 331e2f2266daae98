//! NEP 50 for Python scalars: the dtype a Python `int`, `float` or `bool` takes next to an
//! array or NumPy scalar (the dtype table itself is [`crate::arrays::promote`]).

use crate::arrays::dtype::{DType, Scalar};
use crate::py::error::{PyErr, PyResult};
use crate::py::value::Value;

/// Is `v` a Python number (int, float, bool) — a weak operand under NEP 50?
pub fn is_python_number(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::BigInt(_) | Value::Complex(..)
    )
}

/// NumPy's error for a Python int past int64 that it cannot take as the dtype.
fn too_large() -> PyErr {
    PyErr::overflow("Python int too large to convert to C long")
}

/// A weak Python number as a scalar of the dtype [`weak_dtype`] chose: ints past int64
/// are uint64 values, or floats next to a float operand.
pub fn weak_scalar(v: &Value, d: DType) -> PyResult<Scalar> {
    Ok(match v {
        Value::BigInt(_) if d.is_float() || d.is_complex() => Scalar::F64(v.as_f64()?),
        other => crate::py::value::python_scalar(other)?,
    })
}

/// The dtype a weak Python scalar takes next to an operand of dtype `other`; OverflowError
/// when a Python int does not fit the integer dtype, as NumPy 2 raises.
pub fn weak_dtype(v: &Value, other: DType) -> PyResult<DType> {
    Ok(match v {
        Value::Bool(_) => other,
        Value::Int(i) => {
            if other == DType::Bool {
                DType::I64
            } else if other.is_integer() {
                let (lo, hi) = crate::arrays::promote::int_bounds(other);
                if (*i as i128) < lo || (*i as i128) > hi {
                    return Err(PyErr::overflow(format!(
                        "Python integer {i} out of bounds for {}",
                        other.name()
                    )));
                }
                other
            } else {
                other
            }
        }
        Value::Float(_) => {
            if other.is_float() || other.is_complex() {
                other
            } else {
                DType::F64
            }
        }
        // Past int64, NumPy takes an int only as uint64 (when it fits) or as a float.
        Value::BigInt(b) => {
            let fits_u64 = num_traits::ToPrimitive::to_u64(&**b).is_some();
            if other.is_float() || other.is_complex() || (other == DType::U64 && fits_u64) {
                other
            } else {
                return Err(too_large());
            }
        }
        // A Python complex keeps a float operand's width: float32 with 1j is complex64.
        Value::Complex(..) => match other {
            DType::C64 | DType::C128 => other,
            DType::F32 => DType::C64,
            _ => DType::C128,
        },
        _ => other,
    })
}

/// The dtype NumPy infers for a Python value on its own (`np.array(5)` → int64).
pub fn python_dtype(v: &Value) -> Option<DType> {
    match v {
        Value::Bool(_) => Some(DType::Bool),
        Value::Int(_) => Some(DType::I64),
        // NumPy: uint64 when it fits; beyond, an object array nbcuda does not have (the
        // conversion then raises OverflowError).
        Value::BigInt(_) => Some(DType::U64),
        Value::Float(_) => Some(DType::F64),
        Value::Complex(..) => Some(DType::C128),
        _ => None,
    }
}
