//! Basic indexing of strided layouts (ints, slices, `...`, `None`), shared by Numba device
//! arrays and CuPy arrays: an index either names one element or a view.

use crate::py::error::{PyErr, PyResult};
use crate::py::value::Value;

/// A strided layout: byte offset of element 0, shape, byte strides.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub offset: usize,
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
}

pub enum Indexed {
    /// One element at this byte offset.
    Element(usize),
    View(Layout),
}

enum Part {
    Int(i64),
    Slice(crate::arrays::index::SliceValue),
    Ellipsis,
    NewAxis,
}

fn parts(key: &Value) -> PyResult<Vec<Part>> {
    let items: Vec<Value> = match key {
        Value::Tuple(t) => t.to_vec(),
        other => vec![other.clone()],
    };
    items
        .iter()
        .map(|v| match v {
            Value::Slice(s) => Ok(Part::Slice((**s).clone())),
            Value::Ellipsis => Ok(Part::Ellipsis),
            Value::None => Ok(Part::NewAxis),
            Value::Int(_) | Value::Bool(_) | Value::Scalar(_) => {
                v.as_index().map(Part::Int).map_err(|_| {
                    PyErr::index_error(
                        "only integers, slices (`:`), ellipsis (`...`) and None are valid indices",
                    )
                })
            }
            other => Err(PyErr::index_error(format!(
                "device arrays support only basic indexing (integers, slices, `...`), not {}",
                other.type_name()
            ))
            .with_hint("Copy to the host with .copy_to_host() for fancy or boolean indexing.")),
        })
        .collect()
}

/// Apply a basic index to a layout.
pub fn basic_index(base: &Layout, key: &Value) -> PyResult<Indexed> {
    let parts = parts(key)?;
    let consumed = parts
        .iter()
        .filter(|p| matches!(p, Part::Int(_) | Part::Slice(_)))
        .count();
    let ndim = base.shape.len();
    if consumed > ndim {
        return Err(PyErr::index_error(format!(
            "too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed"
        )));
    }
    if parts.iter().filter(|p| matches!(p, Part::Ellipsis)).count() > 1 {
        return Err(PyErr::index_error(
            "an index can only have a single ellipsis ('...')",
        ));
    }
    let mut offset = base.offset as isize;
    let mut shape = Vec::new();
    let mut strides = Vec::new();
    let mut axis = 0usize;
    let mut all_int = true;
    for p in &parts {
        match p {
            Part::Int(i) => {
                let n = base.shape[axis] as i64;
                let j = if *i < 0 { i + n } else { *i };
                if j < 0 || j >= n {
                    return Err(PyErr::index_error(format!(
                        "index {i} is out of bounds for axis {axis} with size {n}"
                    )));
                }
                offset += j as isize * base.strides[axis];
                axis += 1;
            }
            Part::Slice(s) => {
                all_int = false;
                let n = base.shape[axis];
                let (start, _, step) = s.indices(n)?;
                let len = s.len_for(n)?;
                if len > 0 {
                    offset += start * base.strides[axis];
                }
                shape.push(len);
                strides.push(base.strides[axis] * step);
                axis += 1;
            }
            Part::Ellipsis => {
                all_int = false;
                let skip = ndim - consumed;
                for _ in 0..skip {
                    shape.push(base.shape[axis]);
                    strides.push(base.strides[axis]);
                    axis += 1;
                }
            }
            Part::NewAxis => {
                all_int = false;
                shape.push(1);
                strides.push(0);
            }
        }
    }
    for ax in axis..ndim {
        all_int = false;
        shape.push(base.shape[ax]);
        strides.push(base.strides[ax]);
    }
    if all_int {
        return Ok(Indexed::Element(offset as usize));
    }
    Ok(Indexed::View(Layout {
        offset: offset.max(0) as usize,
        shape,
        strides,
    }))
}

/// Broadcast strides of a `src` layout (shape/strides) to `target` shape, with Numba's
/// setitem messages.
pub fn broadcast_to(
    src_shape: &[usize],
    src_strides: &[isize],
    target: &[usize],
) -> PyResult<Vec<isize>> {
    if src_shape.len() > target.len() {
        return Err(PyErr::value_error(format!(
            "Can't assign {}-D array to {}-D self",
            src_shape.len(),
            target.len()
        )));
    }
    let lead = target.len() - src_shape.len();
    let mut out = vec![0isize; target.len()];
    for (i, (&n, &s)) in src_shape.iter().zip(src_strides).enumerate() {
        let ax = lead + i;
        if n == target[ax] {
            out[ax] = s;
        } else if n == 1 {
            out[ax] = 0;
        } else {
            return Err(PyErr::value_error(format!(
                "Can't copy sequence with size {n} to array axis {ax} with dimension {}",
                target[ax]
            )));
        }
    }
    Ok(out)
}

/// Normalise a shape argument: an int or a sequence of ints (a float raises TypeError).
pub fn parse_shape(v: &Value) -> PyResult<Vec<usize>> {
    let items: Vec<Value> = match v {
        Value::Tuple(t) => t.to_vec(),
        Value::List(l) => l.borrow().clone(),
        Value::Array(a) => {
            if a.dtype.is_float() {
                return Err(PyErr::type_error(
                    "'numpy.float64' object cannot be interpreted as an integer",
                ));
            }
            a.to_f64_vec()
                .into_iter()
                .map(|f| Value::Int(f as i64))
                .collect()
        }
        other => vec![other.clone()],
    };
    items
        .iter()
        .map(|x| {
            let n = x.as_index().map_err(|_| {
                PyErr::type_error(format!(
                    "'{}' object cannot be interpreted as an integer",
                    x.type_name()
                ))
                .with_hint("Array shapes are whole numbers: write 10, not 10.0 (use int(n) if it was computed).")
            })?;
            if n < 0 {
                return Err(PyErr::value_error("negative dimensions are not allowed"));
            }
            Ok(n as usize)
        })
        .collect()
}
