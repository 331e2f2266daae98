//! Shape operations on device views with Numba's rules: reshape, ravel, view(dtype),
//! squeeze, transpose, split.

use crate::arrays::dtype::DType;
use crate::arrays::{contiguous, NdArray};
use crate::device::api::{self, Transfer};
use crate::device::DeviceView;
use crate::numba_cuda::devicearray::DeviceNDArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::Value;

fn is_c(v: &DeviceView) -> bool {
    contiguous(&v.shape, &v.strides, v.dtype.itemsize(), true)
}
fn is_f(v: &DeviceView) -> bool {
    contiguous(&v.shape, &v.strides, v.dtype.itemsize(), false)
}

/// Resolve one `-1` in a requested shape.
pub fn resolve_shape(req: &[i64], size: usize) -> PyResult<Vec<usize>> {
    let unknown = req.iter().filter(|&&n| n == -1).count();
    if unknown > 1 {
        return Err(PyErr::value_error("can only specify one unknown dimension"));
    }
    if req.iter().any(|&n| n < -1) {
        return Err(PyErr::value_error("negative dimensions not allowed"));
    }
    // Checked: a product past usize (`reshape((2**62, 10))`) cannot equal the size.
    let known = req
        .iter()
        .filter(|&&n| n >= 0)
        .try_fold(1usize, |acc, &n| acc.checked_mul(n as usize))
        .ok_or_else(|| PyErr::value_error("reshape changes the size of the array"))?;
    let mut out: Vec<usize> = Vec::with_capacity(req.len());
    for &n in req {
        if n == -1 {
            if known == 0 || !size.is_multiple_of(known) {
                return Err(PyErr::value_error("reshape changes the size of the array"));
            }
            out.push(size / known);
        } else {
            out.push(n as usize);
        }
    }
    if out.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n)) != Some(size) {
        return Err(PyErr::value_error("reshape changes the size of the array"));
    }
    Ok(out)
}

/// `reshape(newshape, order)`: a view, or NotImplementedError when a copy would be needed.
pub fn reshape(v: &DeviceView, shape: Vec<usize>, order: char) -> PyResult<DeviceView> {
    if shape == v.shape {
        return Ok(v.clone());
    }
    let isz = v.dtype.itemsize();
    let strides = match order {
        'C' if is_c(v) => NdArray::c_strides(&shape, isz),
        'F' if is_f(v) => NdArray::f_strides(&shape, isz),
        'C' | 'F' => return Err(PyErr::not_implemented("operation requires copying")),
        _ => return Err(PyErr::value_error("order not C|F")),
    };
    // Element 0 of a contiguous view is its lowest address.
    Ok(DeviceView {
        shape,
        strides,
        ..v.clone()
    })
}

/// `ravel(order)`: a 1-D view of a contiguous array.
pub fn ravel(v: &DeviceView, order: char) -> PyResult<DeviceView> {
    let order = match order {
        'A' | 'K' => {
            if is_f(v) && !is_c(v) {
                'F'
            } else {
                'C'
            }
        }
        o => o,
    };
    let ok = match order {
        'C' => is_c(v),
        'F' => is_f(v),
        _ => return Err(PyErr::value_error("order not C|F|A")),
    };
    if !ok {
        return Err(PyErr::not_implemented("ravel on non-contiguous array"));
    }
    Ok(DeviceView {
        shape: vec![v.size()],
        strides: vec![v.dtype.itemsize() as isize],
        ..v.clone()
    })
}

/// `view(dtype)`: reinterpret the bytes.
pub fn view_as(v: &DeviceView, dtype: DType) -> PyResult<DeviceView> {
    let (old, new) = (v.dtype.itemsize(), dtype.itemsize());
    if old == new {
        return Ok(DeviceView { dtype, ..v.clone() });
    }
    if !is_c(v) {
        return Err(PyErr::value_error(
            "To change to a dtype of a different size, the array must be C-contiguous",
        ));
    }
    let mut shape = v.shape.clone();
    let mut strides = v.strides.clone();
    if shape.is_empty() {
        return Err(PyErr::value_error(
            "Changing the dtype of a 0d array is only supported if the itemsize is unchanged",
        ));
    }
    let last = shape.len() - 1;
    let bytes = shape[last] * old;
    if !bytes.is_multiple_of(new) {
        return Err(PyErr::value_error(
            "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last axis of the array.",
        ));
    }
    shape[last] = bytes / new;
    strides[last] = new as isize;
    Ok(DeviceView {
        shape,
        strides,
        dtype,
        ..v.clone()
    })
}

/// `squeeze(axis=None)`.
pub fn squeeze(v: &DeviceView, axis: Option<Vec<i64>>) -> PyResult<DeviceView> {
    let nd = v.shape.len() as i64;
    let drop: Vec<usize> = match axis {
        None => (0..v.shape.len()).filter(|&i| v.shape[i] == 1).collect(),
        Some(axes) => {
            let mut out = Vec::new();
            for a in axes {
                let ax = if a < 0 { a + nd } else { a };
                if ax < 0 || ax >= nd {
                    return Err(PyErr::new(
                        "AxisError",
                        format!("axis {a} is out of bounds for array of dimension {nd}"),
                    ));
                }
                if v.shape[ax as usize] != 1 {
                    return Err(PyErr::value_error(
                        "cannot select an axis to squeeze out which has size not equal to one",
                    ));
                }
                out.push(ax as usize);
            }
            out
        }
    };
    let keep: Vec<usize> = (0..v.shape.len()).filter(|i| !drop.contains(i)).collect();
    Ok(DeviceView {
        shape: keep.iter().map(|&i| v.shape[i]).collect(),
        strides: keep.iter().map(|&i| v.strides[i]).collect(),
        ..v.clone()
    })
}

fn axes_str(a: &[i64]) -> String {
    match a.len() {
        1 => format!("({},)", a[0]),
        _ => format!(
            "({})",
            a.iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `transpose(axes)` / `.T`: 2-D only, a new array copied on the device.
pub fn transpose(rt: &mut Runtime, v: &DeviceView, axes: Option<Vec<i64>>) -> PyResult<Value> {
    let nd = v.shape.len();
    let same = || DeviceNDArray::value(v.clone());
    if let Some(a) = &axes {
        let mut sorted = a.clone();
        sorted.sort();
        if a.len() != nd || sorted != (0..nd as i64).collect::<Vec<_>>() {
            return Err(PyErr::value_error(format!(
                "invalid axes list {}",
                axes_str(a)
            )));
        }
        if a.iter().enumerate().all(|(i, &x)| i as i64 == x) {
            return Ok(same());
        }
    } else if nd < 2 {
        return Ok(same());
    }
    if nd != 2 {
        return Err(PyErr::not_implemented(
            "transposing a non-2D DeviceNDArray isn't supported",
        ));
    }
    let out = api::alloc(rt, &[v.shape[1], v.shape[0]], v.dtype, v.stream)?;
    let src = DeviceView {
        shape: vec![v.shape[1], v.shape[0]],
        strides: vec![v.strides[1], v.strides[0]],
        ..v.clone()
    };
    api::dtod(rt, &src, &out, v.stream, Transfer::explicit("transpose"))?;
    Ok(DeviceNDArray::value(out))
}

/// `split(section)`: contiguous 1-D pieces of length `section` (the last may be shorter).
pub fn split(v: &DeviceView, section: usize) -> PyResult<Vec<DeviceView>> {
    if v.shape.len() != 1 {
        return Err(PyErr::value_error("only support 1d array"));
    }
    if v.strides[0] != v.dtype.itemsize() as isize {
        return Err(PyErr::value_error("only support unit stride"));
    }
    if section == 0 {
        return Err(PyErr::value_error("split section must be positive"));
    }
    let n = v.shape[0];
    let mut out = Vec::new();
    let mut start = 0;
    while start < n {
        let len = section.min(n - start);
        out.push(DeviceView {
            offset: v.offset + start * v.dtype.itemsize(),
            shape: vec![len],
            ..v.clone()
        });
        start += len;
    }
    Ok(out)
}
