//! The result arguments CuPy's functions share: `out=` (the result written into a given
//! CuPy array, which is returned) and `keepdims=` (reduced axes kept with length one).

use crate::cupy::elementwise as ops;
use crate::cupy::ndarray::{wrap, CupyArray};
use crate::device::api::{self, Transfer};
use crate::device::DeviceView;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::Value;

/// The result as a CuPy array: `res` itself, or, given `out`, `res` cast to out's dtype and
/// copied into it, and `out` returned (CuPy writes its results there directly).
pub fn finish(
    rt: &mut Runtime,
    name: &str,
    res: DeviceView,
    out: Option<&Value>,
) -> PyResult<Value> {
    let Some(out) = out.filter(|v| !v.is_none()) else {
        return Ok(wrap(res));
    };
    let Some(dst) = out.downcast::<CupyArray>().map(|c| c.view.clone()) else {
        return Err(PyErr::type_error(format!(
            "Output arguments must be cupy.ndarray, not {}",
            out.type_name()
        )));
    };
    if dst.shape != res.shape {
        return Err(PyErr::value_error(format!(
            "Out shape is mismatched: {:?} is expected but {:?} is given",
            res.shape, dst.shape
        )));
    }
    let res = if res.dtype == dst.dtype {
        res
    } else {
        ops::cast_copy(rt, &res, dst.dtype)?
    };
    let stream = ops::current_stream(rt);
    api::dtod(rt, &res, &dst, stream, Transfer::explicit(name))?;
    Ok(out.clone())
}

/// `keepdims=True`: the reduced result with the reduced axis (or, for `axis=None`, every
/// axis) put back with length one.
pub fn keep_dims(res: DeviceView, ndim: usize, axis: Option<i64>) -> PyResult<DeviceView> {
    let shape: Vec<usize> = match axis {
        None => vec![1; ndim], // bounded: the input's dimension count
        Some(ax) => {
            let ax = if ax < 0 { ax + ndim as i64 } else { ax } as usize;
            let mut s = res.shape.clone();
            s.insert(ax.min(s.len()), 1);
            s
        }
    };
    crate::numba_cuda::viewops::reshape(&res, shape, 'C')
}
