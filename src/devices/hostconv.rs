//! Turning Python values into host arrays for transfers (`cuda.to_device([1, 2])`,
//! `d[:] = [1, 3]`): NumPy's own conversion, so lists become the arrays NumPy would make.

use crate::arrays::NdArray;
use crate::language::{PyResult, Runtime, Value};

pub fn host_array(rt: &mut Runtime, v: &Value) -> PyResult<NdArray> {
    crate::arrays::pyapi::to_ndarray(rt, v)
}
