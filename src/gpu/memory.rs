//! Device memory owned through the driver: freed when the last reference drops.

use std::sync::{Arc, OnceLock};

use crate::arrays::buffer::Buffer;
use crate::gpu::driver::CudaDevice;

/// One device allocation; the memory goes back to the driver when this is dropped.
pub struct CudaMem {
    /// Device address of byte 0.
    pub ptr: u64,
    pub bytes: usize,
    pub dev: Arc<CudaDevice>,
    /// The host mirror of the bytes, for work staged through host memory (made on first use
    /// by the CUDA device).
    pub mirror: OnceLock<Arc<Buffer>>,
}

impl CudaMem {
    pub fn new(dev: Arc<CudaDevice>, ptr: u64, bytes: usize) -> CudaMem {
        CudaMem {
            ptr,
            bytes,
            dev,
            mirror: OnceLock::new(),
        }
    }
}

impl Drop for CudaMem {
    fn drop(&mut self) {
        self.dev.free(self.ptr);
    }
}
