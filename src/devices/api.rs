//! The host-side device API used by the kernel dispatchers, CuPy and display: views of
//! device arrays, allocation, transfers, launches and synchronisation on the current device.

use std::sync::Arc;

use crate::arrays::{DType, NdArray};
use crate::compiler::{CompiledKernel, KernelArg, LaunchConfig};
use crate::devices::{DeviceView, StreamId};
use crate::language::{PyErr, PyResult, Runtime, Value};

fn todo(what: &str) -> PyErr {
    PyErr::not_implemented(format!("{what} is not implemented yet"))
}

/// Why a transfer happens, for the ledger and the implicit-copy warning.
#[derive(Clone, Debug)]
pub struct Transfer {
    /// False when nbcuda copies on the user's behalf (a host array passed to a kernel).
    pub explicit: bool,
    /// The call that caused it: `to_device`, `copy_to_host`, `add_ufunc`.
    pub call: String,
}

/// The device view behind a value: DeviceNDArray, CuPy arrays, mapped/managed arrays and
/// any object with `__cuda_array_interface__`. Ok(None) for everything else.
pub fn device_view(_rt: &mut Runtime, _v: &Value) -> PyResult<Option<DeviceView>> {
    Ok(None)
}

/// A new DeviceNDArray object over a view.
pub fn wrap(_rt: &mut Runtime, _view: DeviceView) -> Value {
    Value::None
}

/// Allocate uninitialised device memory (`cuda.device_array`): CudaAPIError when the
/// device is out of memory.
pub fn alloc(
    _rt: &mut Runtime,
    _shape: &[usize],
    _dtype: DType,
    _stream: StreamId,
) -> PyResult<DeviceView> {
    Err(todo("device allocation"))
}

/// Copy a host array into a device view of the same shape (async on `stream`).
pub fn htod(
    _rt: &mut Runtime,
    _src: &NdArray,
    _dst: &DeviceView,
    _stream: StreamId,
    _why: Transfer,
) -> PyResult<()> {
    Err(todo("host-to-device copies"))
}

/// Copy a device view into a host array of the same shape; waits for completion when
/// `stream` is 0, as Numba does.
pub fn dtoh(
    _rt: &mut Runtime,
    _src: &DeviceView,
    _dst: &NdArray,
    _stream: StreamId,
    _why: Transfer,
) -> PyResult<()> {
    Err(todo("device-to-host copies"))
}

/// Interpret a `stream=` argument: None/0 → the default stream, a Stream object → its id.
pub fn parse_stream(_rt: &mut Runtime, v: Option<&Value>) -> PyResult<StreamId> {
    match v {
        None | Some(Value::None) | Some(Value::Int(0)) => Ok(0),
        Some(other) => Err(PyErr::type_error(format!(
            "expected a CUDA stream, got {}",
            other.type_name()
        ))),
    }
}

/// Queue a kernel launch on `stream` and return at once.
pub fn launch(
    _rt: &mut Runtime,
    _kernel: Arc<CompiledKernel>,
    _config: LaunchConfig,
    _args: Vec<KernelArg>,
    _stream: StreamId,
) -> PyResult<()> {
    Err(todo("kernel launches"))
}

/// `cuda.synchronize()`: wait for all streams; raises pending kernel faults.
pub fn synchronize(_rt: &mut Runtime) -> PyResult<()> {
    Ok(())
}

/// Wait for one stream.
pub fn stream_synchronize(_rt: &mut Runtime, _stream: StreamId) -> PyResult<()> {
    Ok(())
}
