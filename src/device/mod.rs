//! Devices: one trait, two implementations (the embedded CPU device and the CUDA device),
//! and the `numba.cuda` / `cupy` memory APIs built on them.
//!
//! Layout:
//! - [`backend`]: the `Backend` trait and the `Device` enum the API dispatches through.
//! - [`cpu`], [`streams_cpu`], [`copy`]: the embedded CPU device (capacity accounting,
//!   one worker thread per stream with legacy default-stream ordering, strided copies).
//! - [`cuda`]: the CUDA device (cudarc, NVRTC, generated CUDA C), chosen at start when a
//!   GPU is found.
//! - [`state`]: per-session state in `rt.state::<DeviceState>()` (device made on first use,
//!   freed allocations, pinned/mapped/managed host buffers).
//! - [`api`]: what other parts call (views, alloc, htod/dtoh/dtod, launch, synchronize).
//! - [`ledger`], [`memory`]: the event record and the `%memory` report.
//! - `numba.cuda`: [`cudamod`] (functions), [`devicearray`]/[`devicemethods`]/[`viewops`]/
//!   [`index`] (DeviceNDArray), [`streams`], [`info`], [`hostmem`], [`interop`] (CAI),
//!   [`smart`] (`numba.SmartArray`).
//! - `cupy`: [`cupy`] (ndarray), [`cupy_module`], [`cupy_ops`], [`cupy_fast`],
//!   [`cupy_reduce`], [`cupy_random`], [`cupy_cuda`].

pub mod api;
pub mod backend;
pub mod copy;
pub mod cpu;
pub mod cpu_streams;
pub mod cuda;
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

/// Called by the engine after every cell: waits for the device, writes kernel `print`
/// output to the cell, and raises any kernel fault recorded since the last check.
pub fn end_of_cell(rt: &mut Runtime) -> PyResult<()> {
    api::synchronize(rt)
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
