//! Devices: one `Backend` trait, the embedded CPU device and the CUDA device behind it, and
//! the host-side device API (allocation, copies, launches, streams, the ledger, the pointer
//! registry).
//!
//! | file | holds |
//! |---|---|
//! | `api.rs` | The host-side device API used by the kernel dispatchers, CuPy and display: views of device arrays, allocation, transfers, launches and synchronisation on the current device. |
//! | `backend.rs` | The device abstraction: one trait every device implements, and the enum the API dispatches through. |
//! | `copy.rs` | Strided copies between buffers (host arrays and CPU device memory are both `Buffer`s): one parallel chunked memcpy when both sides share a contiguous layout, a row-wise copy otherwise, and an element-wise cast when dtypes differ. |
//! | `cpu.rs` | The embedded CPU device: "device memory" is `Buffer`s accounted against a separate capacity; streams are worker threads; kernels run through the compiler's CPU executor. |
//! | `cpu_streams.rs` | Stream workers of the embedded CPU device: one thread per stream runs queued operations in order, asynchronously to the host. |
//! | `cuda/` | The CUDA device: cudarc with dynamic loading, so every build carries it and runs without CUDA; `probe` decides at session start whether a GPU is there to use. |
//! | `ledger.rs` | The ledger: every allocation, free, transfer and launch, with timings, for the per-cell account and the transfer timeline. |
//! | `pointers.rs` | Live device allocations by base address, so a raw pointer (from a `__cuda_array_interface__`) resolves back to the allocation that holds it and CuPy, Numba and foreign objects share memory. |
//! | `state.rs` | Per-session device state (in `rt.state::<DeviceState>()`): the device (created on first use), freed allocations, and host memory registered as pinned, mapped or managed. |

pub mod api;
pub mod backend;
pub mod copy;
pub mod cpu;
pub mod cpu_streams;
pub mod cuda;
pub mod deferred_frees;
pub mod ledger;
pub mod pointers;
pub mod state;

use std::sync::Arc;

use crate::arrays::dtype::DType;
use crate::kernel::abi::Allocation;

/// Identifies a stream on the current device. 0 is the legacy default stream.
pub type StreamId = u64;

/// A device-resident array view (DeviceNDArray, CuPy arrays, mapped/managed arrays, any
/// `__cuda_array_interface__` object).
#[derive(Clone)]
pub struct DeviceView {
    pub alloc: Arc<Allocation>,
    pub offset: usize,
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
    pub dtype: DType,
    pub stream: StreamId,
}

use crate::kernel::abi::{ArgMem, ArrayArg, KernelArg};
use crate::py::error::PyResult;
use crate::py::runtime::Runtime;

impl DeviceView {
    /// The view as a kernel argument (keeps the allocation alive for the launch).
    pub fn kernel_arg(&self) -> KernelArg {
        KernelArg::Array(ArrayArg {
            mem: ArgMem::Device(self.alloc.clone()),
            offset: self.offset,
            shape: self.shape.clone(),
            strides: self.strides.clone(),
            dtype: self.dtype,
        })
    }
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }
}

/// A cell ended with KeyboardInterrupt: the device's queued and running work ends too.
pub fn after_interrupt(rt: &mut Runtime) {
    api::cancel(rt)
}

/// Called by the engine after every cell: waits for the device, writes kernel `print`
/// output to the cell, and raises any kernel fault recorded since the last check.
pub fn end_of_cell(rt: &mut Runtime) -> PyResult<()> {
    api::settle(rt)
}

/// One line describing the device in use, for the banner and `cuda.detect()`.
pub fn describe(rt: &mut Runtime) -> String {
    match state::device(rt) {
        Ok(d) => {
            let (_, total) = d.backend().memory_info();
            format!(
                "{} ({:.1} GiB of device memory)",
                d.backend().name(),
                total as f64 / (1u64 << 30) as f64
            )
        }
        Err(e) => format!("no device: {}", e.message),
    }
}
