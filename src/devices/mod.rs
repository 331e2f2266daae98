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
