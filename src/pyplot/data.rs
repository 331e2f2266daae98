//! Turning plot arguments (host arrays, lists, scalars, device and CuPy arrays) into f64
//! series for drawing.

use crate::arrays::dtype::DType;
use crate::arrays::NdArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

/// A numeric argument as a flat series plus its shape.
pub struct Series {
    pub values: Vec<f64>,
    pub shape: Vec<usize>,
}

impl Series {
    /// Length of the first axis (1 for a scalar), as matplotlib compares x and y.
    pub fn first_dim(&self) -> usize {
        self.shape.first().copied().unwrap_or(1)
    }
    pub fn shape_text(&self) -> String {
        match self.shape.len() {
            0 => "()".into(),
            1 => format!("({},)", self.shape[0]),
            _ => format!(
                "({})",
                self.shape
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

fn from_array(a: &NdArray) -> Series {
    Series {
        values: a.to_f64_vec(),
        shape: a.shape.clone(),
    }
}

/// Anything with numbers in it. Device arrays go through their `__array__` and CuPy arrays
/// through `get()`, which copy them to the host (and the device records that copy).
pub fn series(rt: &mut Runtime, v: &Value, what: &str) -> PyResult<Series> {
    match v {
        Value::Array(a) => Ok(from_array(a)),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Scalar(_) => Ok(Series {
            values: vec![v.as_f64()?],
            shape: vec![],
        }),
        Value::List(_) | Value::Tuple(_) => {
            let items = rt.iterate(v)?;
            let mut values = Vec::with_capacity(items.len());
            let mut inner: Option<Vec<usize>> = None;
            for it in &items {
                let s = series(rt, it, what)?;
                match &inner {
                    None => inner = Some(s.shape.clone()),
                    Some(sh) if *sh != s.shape => {
                        return Err(PyErr::value_error(format!(
                            "{what}: the nested sequences have different lengths; give a rectangular array"
                        )))
                    }
                    _ => {}
                }
                values.extend(s.values);
            }
            let mut shape = vec![items.len()];
            shape.extend(inner.unwrap_or_default());
            Ok(Series { values, shape })
        }
        Value::Object(o) => {
            // CuPy refuses `__array__` (as the real one does); matplotlib users plot CuPy
            // arrays through `.get()`, so take that copy for them.
            let name = if o.module_name() == "cupy" {
                "get"
            } else {
                "__array__"
            };
            let method = o.clone().get_attr(name, rt)?.ok_or_else(|| {
                PyErr::type_error(format!(
                    "{what}: cannot plot a '{}' object; pass a NumPy array, a list of numbers, or a device array",
                    o.type_name()
                ))
            })?;
            let host = rt.call(&method, Args::new(vec![]))?;
            match host {
                Value::Array(ref a) => Ok(from_array(a)),
                other => series(rt, &other, what),
            }
        }
        other => Err(PyErr::type_error(format!(
            "{what}: expected numbers or an array, got '{}'",
            other.type_name()
        ))),
    }
}

/// A 1-D float64 host array.
pub fn f64_array(values: &[f64]) -> PyResult<Value> {
    let a = NdArray::zeros(&[values.len()], DType::F64).map_err(|e| {
        PyErr::memory_error(format!(
            "Unable to allocate {} bytes for the result",
            e.bytes
        ))
    })?;
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    a.buf.write(0, &bytes);
    Ok(Value::Array(Box::new(a)))
}

pub fn opt_f64(v: &Option<Value>) -> PyResult<Option<f64>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => v.as_f64().map(Some),
    }
}

pub fn opt_str(v: &Option<Value>, what: &str) -> PyResult<Option<String>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.to_string())),
        Some(other) => Err(PyErr::type_error(format!(
            "{what} must be a string, not '{}'",
            other.type_name()
        ))),
    }
}

/// Any value shown as a label (`label=3` is allowed by matplotlib).
pub fn opt_label(rt: &mut Runtime, v: &Option<Value>) -> PyResult<Option<String>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => Ok(Some(rt.to_str(v)?)),
    }
}

/// A (lo, hi) pair from `xlim((0, 1))`, `xlim(0, 1)` or `xlim(left=0)`.
pub fn pair(v: &Value) -> PyResult<(f64, f64)> {
    match v {
        Value::Tuple(t) if t.len() == 2 => Ok((t[0].as_f64()?, t[1].as_f64()?)),
        Value::List(l) if l.borrow().len() == 2 => {
            let l = l.borrow();
            Ok((l[0].as_f64()?, l[1].as_f64()?))
        }
        _ => Err(PyErr::value_error(
            "limits must be given as two numbers, e.g. plt.xlim(0, 10) or plt.xlim((0, 10))",
        )),
    }
}
