//! Turning Python values into host arrays for transfers (`cuda.to_device([1, 2])`,
//! `d[:] = [1, 3]`): NumPy's own conversion, so lists become the arrays NumPy would make.

use crate::arrays::NdArray;
use crate::py::error::PyResult;
use crate::py::runtime::Runtime;
use crate::py::value::Value;

pub fn host_array(rt: &mut Runtime, v: &Value) -> PyResult<NdArray> {
    crate::py::ndarray_attrs::to_ndarray(rt, v)
}
