//! NEP 50 for Python scalars: the dtype a Python `int`, `float` or `bool` takes next to an
//! array or NumPy scalar (the dtype table itself is [`crate::arrays::promote`]).

use crate::arrays::dtype::DType;
use crate::py::error::{PyErr, PyResult};
use crate::py::value::Value;

/// Is `v` a Python number (int, float, bool) — a weak operand under NEP 50?
pub fn is_python_number(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Float(_) | Value::Bool(_))
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
            if other.is_float() {
                other
            } else {
                DType::F64
            }
        }
        _ => other,
    })
}

/// The dtype NumPy infers for a Python value on its own (`np.array(5)` → int64).
pub fn python_dtype(v: &Value) -> Option<DType> {
    match v {
        Value::Bool(_) => Some(DType::Bool),
        Value::Int(_) => Some(DType::I64),
        Value::Float(_) => Some(DType::F64),
        _ => None,
    }
}
