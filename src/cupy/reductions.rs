//! CuPy reductions (sum, mean, min, max, std, argmax, ...) over all elements or one axis,
//! queued as device work like the elementwise operations and computed by host NumPy's own
//! reduction loops ([`crate::arrays::reduce`]): the same accumulator dtypes, pairwise
//! summation and NaN rules.

use crate::arrays::elem::{copy_into, new_array};
use crate::arrays::operator::Reduce;
use crate::arrays::reduce::{reduce_ddof, Reduced};
use crate::cupy::elementwise::{
    device_dtype, fault, host_view, queue_fallible, stream_of, Operand,
};
use crate::device::copy::region_of;
use crate::device::{api, DeviceView};
use crate::py::error::PyResult;
use crate::py::runtime::Runtime;

/// Queue a reduction over all elements (`axis=None`) or along one axis; var and std divide
/// by n - `ddof`.
pub fn reduce(
    rt: &mut Runtime,
    kind: Reduce,
    a: &DeviceView,
    axis: Option<i64>,
    ddof: usize,
) -> PyResult<DeviceView> {
    let name = kind.name();
    let axis = axis.map(|ax| ax as isize);
    // The result dtype and NumPy's errors (axis out of range, an empty min), from the same
    // loops on an array of this rank with at most one element per axis.
    let probe_shape: Vec<usize> = a.shape.iter().map(|&n| n.min(1)).collect();
    let probe = new_array(&probe_shape, a.dtype)?;
    let out_dtype = device_dtype(match reduce_ddof(kind, &probe, axis, ddof)? {
        Reduced::Scalar(s) => s.dtype(),
        Reduced::Array(x) => x.dtype,
    })?;
    let out_shape: Vec<usize> = match axis {
        None => vec![],
        Some(ax) => {
            let ax = crate::arrays::reduce::norm_axis(ax, a.shape.len())?;
            let mut s = a.shape.clone();
            s.remove(ax);
            s
        }
    };
    let stream = stream_of(rt, &[Operand::Arr(a.clone())]);
    let out = api::alloc(rt, &out_shape, out_dtype, stream)?;
    let (src, dst) = (region_of(a), region_of(&out));
    let bytes = a.size() * a.dtype.itemsize();
    queue_fallible(rt, stream, &format!("cupy_{name}"), bytes, move || {
        let dst = host_view(&dst);
        match reduce_ddof(kind, &host_view(&src), axis, ddof).map_err(fault)? {
            Reduced::Scalar(s) => {
                crate::arrays::elem::fill(&dst, s.cast(out_dtype));
                Ok(())
            }
            Reduced::Array(x) => copy_into(&dst, &x).map_err(fault),
        }
    });
    Ok(out)
}
