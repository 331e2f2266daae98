//! Turning Python values into host arrays for transfers (`cuda.to_device([1, 2])`,
//! `d[:] = [1, 3]`), with a minimal fallback while NumPy's own conversion is not present.

use crate::arrays::{DType, NdArray, Scalar};
use crate::language::{PyErr, PyResult, Runtime, Value};

fn scalar_of(v: &Value) -> Option<Scalar> {
    Some(match v {
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Int(i) => Scalar::I64(*i),
        Value::Float(f) => Scalar::F64(*f),
        Value::Scalar(s) => *s,
        _ => return None,
    })
}

fn flatten(v: &Value, depth: usize, shape: &mut Vec<usize>, out: &mut Vec<Scalar>) -> PyResult<()> {
    match v {
        Value::List(_) | Value::Tuple(_) => {
            let items: Vec<Value> = match v {
                Value::List(l) => l.borrow().clone(),
                Value::Tuple(t) => t.to_vec(),
                _ => unreachable!(),
            };
            if shape.len() == depth {
                shape.push(items.len());
            } else if shape.get(depth) != Some(&items.len()) {
                return Err(PyErr::value_error(
                    "setting an array element with a sequence. The requested array has an inhomogeneous shape",
                ));
            }
            for it in &items {
                flatten(it, depth + 1, shape, out)?;
            }
            Ok(())
        }
        other => {
            if depth != shape.len() {
                return Err(PyErr::value_error(
                    "setting an array element with a sequence. The requested array has an inhomogeneous shape",
                ));
            }
            out.push(scalar_of(other).ok_or_else(|| {
                PyErr::type_error(format!(
                    "cannot convert a {} to a number for a device array",
                    other.type_name()
                ))
            })?);
            Ok(())
        }
    }
}

/// An ndarray from `v` (arrays as they are; numbers and nested lists converted).
pub fn host_array(rt: &mut Runtime, v: &Value) -> PyResult<NdArray> {
    if let Value::Array(a) = v {
        return Ok(a.clone());
    }
    // NumPy's own conversion when it is available; the minimal one below otherwise.
    match crate::arrays::pyapi::to_ndarray(rt, v) {
        Err(e) if e.is("NotImplementedError") => {}
        other => return other,
    }
    if !matches!(
        v,
        Value::List(_)
            | Value::Tuple(_)
            | Value::Bool(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::Scalar(_)
    ) {
        return Err(PyErr::type_error(format!(
            "cannot make an array from a {}",
            v.type_name()
        )));
    }
    let mut shape = Vec::new();
    let mut items = Vec::new();
    flatten(v, 0, &mut shape, &mut items)?;
    let dtype = if let Value::Scalar(s) = v {
        s.dtype()
    } else if items.iter().any(|s| s.dtype().is_float()) {
        DType::F64
    } else if !items.is_empty() && items.iter().all(|s| s.dtype() == DType::Bool) {
        DType::Bool
    } else if items.is_empty() {
        DType::F64
    } else {
        DType::I64
    };
    from_scalars(&shape, dtype, &items)
}

/// A C-contiguous host array of `dtype` holding `items` (cast).
pub fn from_scalars(shape: &[usize], dtype: DType, items: &[Scalar]) -> PyResult<NdArray> {
    let a = NdArray::zeros(shape, dtype)
        .map_err(|e| PyErr::memory_error(format!("Unable to allocate {} bytes", e.bytes)))?;
    let isz = dtype.itemsize();
    for (i, s) in items.iter().enumerate() {
        a.buf.write(i * isz, &s.cast(dtype).to_bytes());
    }
    Ok(a)
}
