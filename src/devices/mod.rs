//! Devices: one trait, two implementations (the embedded CPU device and the CUDA device),
//! and the `numba.cuda` / `cupy` memory APIs built on them.

use std::sync::Arc;

use crate::arrays::{Buffer, DType};

/// Identifies a stream on the current device. 0 is the legacy default stream.
pub type StreamId = u64;

/// One device allocation. Dropping the last reference returns its bytes to the device.
pub struct Allocation {
    pub id: u64,
    pub bytes: usize,
    pub storage: Storage,
}

/// The memory behind an allocation.
pub enum Storage {
    /// Embedded CPU device memory.
    Cpu(Arc<Buffer>),
}

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

pub mod api;
pub mod ledger;

pub use ledger::{LedgerEvent, LedgerKind};

use std::rc::Rc;

use crate::compiler::{ArgMem, ArrayArg, KernelArg};
use crate::language::{Module, PyResult, Runtime};

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

/// Build the `numba.cuda` module's memory, stream, event and device API (the compiler adds
/// the kernel API with [`crate::compiler::register_cuda_api`]).
pub fn numba_cuda_module() -> Rc<Module> {
    Rc::new(Module::new(
        "numba.cuda",
        "Numba's CUDA API on nbcuda's devices.",
    ))
}

/// Add the device-memory parts of the top-level `numba` module (`SmartArray`).
pub fn register_numba_toplevel(_numba: &Module) {}

/// Build the `cupy` module.
pub fn cupy_module() -> Rc<Module> {
    Rc::new(Module::new("cupy", "CuPy arrays on nbcuda's devices."))
}

/// Called by the engine after every cell: waits for the device, writes kernel `print`
/// output to the cell, and raises any kernel fault recorded since the last check.
pub fn end_of_cell(_rt: &mut Runtime) -> PyResult<()> {
    Ok(())
}

/// One line describing the device in use, for the banner and `cuda.detect()`.
pub fn describe(_rt: &mut Runtime) -> String {
    "embedded CPU device".to_string()
}
pub mod cuda;
