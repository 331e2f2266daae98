//! Page-locked host memory of the CUDA device: `cuda.pinned_array` and `cuda.mapped_array`
//! allocate with cuMemHostAlloc, so copies from and to them are DMA transfers without the
//! driver's pageable staging, and a kernel reaches mapped memory in place through its device
//! address. The memory is an ordinary [`Buffer`] for everything else in nbcuda.

use std::ptr::NonNull;
use std::sync::Arc;

use crate::arrays::buffer::Buffer;

use crate::gpu::driver::{CudaDevice, CudaError};

/// The owner of one cuMemHostAlloc allocation: frees it with cuMemFreeHost when the last
/// buffer over it goes.
pub struct HostAlloc {
    host: NonNull<u8>,
    /// Device address of the memory, for memory allocated as mapped.
    pub device_ptr: Option<u64>,
    dev: Arc<CudaDevice>,
}

// SAFETY: the allocation is host memory owned by this value alone; the driver allows freeing
// it from any thread with the context bound (free_host binds it).
unsafe impl Send for HostAlloc {}
// SAFETY: shared access only reads `device_ptr`; the bytes are reached through the Buffer.
unsafe impl Sync for HostAlloc {}

impl Drop for HostAlloc {
    fn drop(&mut self) {
        self.dev.free_host(self.host.as_ptr());
    }
}

/// `len` zeroed bytes of page-locked host memory, mapped into the device when `mapped`.
pub fn alloc(dev: &Arc<CudaDevice>, len: usize, mapped: bool) -> Result<Buffer, CudaError> {
    let (host, device_ptr) = dev.alloc_host(len, mapped)?;
    let Some(host) = NonNull::new(host) else {
        return Err(CudaError {
            code: 2,
            call: "cuMemHostAlloc".into(),
            name: "CUDA_ERROR_OUT_OF_MEMORY".into(),
        });
    };
    let owner = HostAlloc {
        host,
        device_ptr,
        dev: dev.clone(),
    };
    // SAFETY: cuMemHostAlloc returned at least `len` zeroed (alloc_host clears them) bytes,
    // page-aligned (so 64-byte aligned), which only `owner` frees.
    Ok(unsafe { Buffer::from_foreign(host, len, Box::new(owner)) })
}

/// The device address of a buffer allocated as mapped memory by [`alloc`].
pub fn mapped_device_ptr(buf: &Buffer) -> Option<u64> {
    buf.foreign::<HostAlloc>()?.device_ptr
}
