//! The shape manipulations of ndarrays that the methods and the `numpy` module functions
//! share: shape and axis arguments, `reshape` (C and Fortran order), `transpose`,
//! `squeeze` and `ravel`, all views where NumPy gives views.

use crate::arrays::elem::{contiguous_copy, shape_str};
use crate::arrays::NdArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::value::Value;

/// A shape argument: an int or a tuple/list of ints.
pub fn shape_arg(v: &Value) -> PyResult<Vec<isize>> {
    let items: Vec<Value> = match v {
        Value::Tuple(t) => t.to_vec(),
        Value::List(l) => l.borrow().clone(),
        other => vec![other.clone()],
    };
    items.iter().map(|x| Ok(x.as_index()? as isize)).collect()
}

/// A non-negative shape for creation functions.
pub fn new_shape(v: &Value) -> PyResult<Vec<usize>> {
    shape_arg(v)?
        .into_iter()
        .map(|d| {
            if d < 0 {
                Err(PyErr::value_error("negative dimensions are not allowed"))
            } else {
                Ok(d as usize)
            }
        })
        .collect()
}

/// An `axis=` argument (None or an int).
pub fn axis_arg(v: Option<&Value>) -> PyResult<Option<isize>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(x) => Ok(Some(x.as_index()? as isize)),
    }
}

/// `a.reshape(shape)` in C order (a view when the data is contiguous).
pub fn reshape(a: &NdArray, shape: &[isize]) -> PyResult<NdArray> {
    let size = a.size();
    let unknown = shape.iter().filter(|&&d| d == -1).count();
    let known: usize = shape
        .iter()
        .filter(|&&d| d > 0)
        .try_fold(1usize, |acc, &d| acc.checked_mul(d as usize))
        .map(|k| if shape.contains(&0) { 0 } else { k })
        .ok_or_else(|| {
            PyErr::value_error(format!(
                "cannot reshape array of size {size} into shape {}",
                shape_str(shape)
            ))
        })?;
    let err = || {
        PyErr::value_error(format!(
            "cannot reshape array of size {size} into shape {}",
            shape_str(shape)
        ))
    };
    if unknown > 1 {
        return Err(PyErr::value_error("can only specify one unknown dimension"));
    }
    if shape.iter().any(|&d| d < -1) {
        return Err(PyErr::value_error("negative dimensions not allowed"));
    }
    let new: Vec<usize> = if unknown == 1 {
        if known == 0 || !size.is_multiple_of(known) {
            return Err(err());
        }
        shape
            .iter()
            .map(|&d| if d == -1 { size / known } else { d as usize })
            .collect()
    } else {
        shape.iter().map(|&d| d as usize).collect()
    };
    if new.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d)) != Some(size) {
        return Err(err());
    }
    // An empty array may be given a huge axis; its strides must still fit.
    crate::arrays::elem::check_strides_fit(&new, a.dtype)?;
    let base = if a.is_c_contiguous() {
        a.clone()
    } else {
        contiguous_copy(a)?
    };
    // A view when the data was contiguous; a fresh copy owns its data.
    let view = a.is_c_contiguous();
    Ok(NdArray {
        strides: NdArray::c_strides(&new, a.dtype.itemsize()),
        shape: new,
        view,
        ..base
    })
}

/// `a.transpose(axes)`; reversed axes when None.
pub fn transpose(a: &NdArray, axes: Option<Vec<isize>>) -> PyResult<NdArray> {
    let nd = a.ndim();
    let perm: Vec<usize> = match axes {
        None => (0..nd).rev().collect(),
        Some(ax) => {
            if ax.len() != nd {
                return Err(PyErr::value_error("axes don't match array"));
            }
            let p: Vec<usize> = ax
                .iter()
                .map(|&x| crate::arrays::reduce::norm_axis(x, nd))
                .collect::<Result<_, _>>()?;
            let mut seen = vec![false; nd]; // bounded: one per dimension
            for &i in &p {
                if seen[i] {
                    return Err(PyErr::value_error("repeated axis in transpose"));
                }
                seen[i] = true;
            }
            p
        }
    };
    Ok(NdArray {
        shape: perm.iter().map(|&i| a.shape[i]).collect(),
        strides: perm.iter().map(|&i| a.strides[i]).collect(),
        view: true,
        ..a.clone()
    })
}

/// `a.squeeze(axis)`.
pub fn squeeze(a: &NdArray, axis: Option<isize>) -> PyResult<NdArray> {
    let keep: Vec<usize> = match axis {
        None => (0..a.ndim()).filter(|&i| a.shape[i] != 1).collect(),
        Some(ax) => {
            let k = crate::arrays::reduce::norm_axis(ax, a.ndim())?;
            if a.shape[k] != 1 {
                return Err(PyErr::value_error(
                    "cannot select an axis to squeeze out which has size not equal to one",
                ));
            }
            (0..a.ndim()).filter(|&i| i != k).collect()
        }
    };
    Ok(NdArray {
        shape: keep.iter().map(|&i| a.shape[i]).collect(),
        strides: keep.iter().map(|&i| a.strides[i]).collect(),
        view: true,
        ..a.clone()
    })
}

/// `a.ravel()`: a view when contiguous, else a copy.
pub fn ravel(a: &NdArray) -> PyResult<NdArray> {
    reshape(a, &[-1])
}

/// `reshape` with `order='C'|'F'`.
pub fn reshape_order(a: &NdArray, shape: &[isize], order: &str) -> PyResult<NdArray> {
    match order {
        "C" | "A" => reshape(a, shape),
        "F" => {
            let t = transpose(a, None)?;
            let rev: Vec<isize> = shape.iter().rev().cloned().collect();
            let r = reshape(&t, &rev)?;
            transpose(&r, None)
        }
        o => Err(PyErr::value_error(format!(
            "order must be one of 'C', 'F', 'A', or 'K' (got '{o}')"
        ))),
    }
}

/// A description of a shape for messages.
pub fn describe(a: &NdArray) -> String {
    format!("{} {}", shape_str(&a.shape), a.dtype.name())
}
