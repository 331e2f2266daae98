//! `np.repeat` and `ndarray.repeat`: each element (or each slice along an axis) repeated
//! a scalar or per-element number of times, with NumPy's errors.

use crate::arrays::dtype::DType;
use crate::arrays::elem::{cast, contiguous_copy, new_array, read_vec};
use crate::arrays::NdArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::to_ndarray;
use crate::py::ndarray_shape::{axis_arg, ravel};
use crate::py::runtime::Runtime;
use crate::py::value::Value;

/// `repeat(a, repeats, axis=None)` with the bound arguments after `a` in `args`.
pub fn repeat_call(rt: &mut Runtime, a: &NdArray, args: &[Option<Value>]) -> PyResult<Value> {
    let reps = to_ndarray(rt, args[0].as_ref().unwrap_or(&Value::None))?;
    let axis = axis_arg(args.get(1).and_then(|v| v.as_ref()))?;
    Ok(Value::Array(Box::new(repeat(a, &reps, axis)?)))
}

/// The repeated array: along `axis`, or over the flattened array when it is None.
pub fn repeat(a: &NdArray, repeats: &NdArray, axis: Option<isize>) -> PyResult<NdArray> {
    let (src, ax) = match axis {
        None => (contiguous_copy(&ravel(a)?)?, 0),
        Some(ax) => (
            contiguous_copy(a)?,
            crate::arrays::reduce::norm_axis(ax, a.ndim())?,
        ),
    };
    if repeats.ndim() > 1 {
        return Err(PyErr::value_error("object too deep for desired array"));
    }
    let n = src.shape[ax];
    let reps = read_vec::<i64>(&cast(repeats, DType::I64)?);
    let counts: Vec<usize> = match (repeats.ndim(), reps.as_slice()) {
        (0, [r]) if *r < 0 => {
            return Err(PyErr::value_error("negative dimensions are not allowed"))
        }
        (_, rs) if rs.iter().any(|&r| r < 0) => {
            return Err(PyErr::value_error(
                "repeats may not contain negative values.",
            ))
        }
        (_, [r]) => vec![*r as usize; n], // bounded: one count per slice of the source
        (_, rs) if rs.len() == n => rs.iter().map(|&r| r as usize).collect(),
        (_, rs) => {
            return Err(PyErr::value_error(format!(
                "operands could not be broadcast together with shape ({n},) ({},)",
                rs.len()
            )))
        }
    };
    let total = counts
        .iter()
        .try_fold(0usize, |acc, &c| acc.checked_add(c))
        .ok_or_else(|| PyErr::memory_error("the repeated array would be too large"))?;
    let mut shape = src.shape.clone();
    shape[ax] = total;
    let out = new_array(&shape, src.dtype)?;
    let isz = src.dtype.itemsize();
    let outer: usize = src.shape[..ax].iter().product();
    let inner: usize = src.shape[ax + 1..].iter().product::<usize>() * isz;
    if out.size() == 0 || isz == 0 {
        return Ok(out);
    }
    let from = src.buf.typed::<u8>(src.offset, src.size() * isz);
    let to = out.buf.typed_mut::<u8>(out.offset, out.size() * isz);
    let mut at = 0;
    for o in 0..outer {
        crate::arrays::interrupt::check()?;
        for (i, &c) in counts.iter().enumerate() {
            let start = (o * n + i) * inner;
            let chunk = &from[start..start + inner];
            for _ in 0..c {
                to[at..at + inner].copy_from_slice(chunk);
                at += inner;
            }
        }
    }
    Ok(out)
}
