//! Per-session device state (in `rt.state::<DeviceState>()`): the device (created on first
//! use), freed allocations, and host memory registered as pinned, mapped or managed.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use crate::arrays::buffer::Buffer;
use crate::device::backend::Device;
use crate::device::cpu::{CpuDevice, Shared};
use crate::device::cuda::backend::CudaBackend;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;

/// What kind of special host memory a buffer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostKind {
    Pinned,
    Mapped,
    Managed,
}

#[derive(Default)]
pub struct DeviceState {
    pub device: Option<Device>,
    /// Allocation id → where it was freed by `.free()` (for the use-after-free error).
    pub freed: HashMap<u64, String>,
    /// Host buffers that are pinned, mapped or managed, by buffer address.
    pub host_mem: HashMap<usize, (Weak<Buffer>, HostKind)>,
}

/// The device, created on first use: the GPU when the probe finds one (or
/// `NBCUDA_DEVICE=cuda` asks for it), else the embedded CPU device. A device that was asked
/// for and cannot be had is an error raised in every cell that touches the device.
pub fn device(rt: &mut Runtime) -> PyResult<&mut Device> {
    let cell = rt.execution_count;
    let st = rt.state::<DeviceState>();
    if st.device.is_none() {
        let made = match crate::device::cuda::select() {
            Ok(Some(gpu)) => Device::Cuda(CudaBackend::new(gpu)),
            Ok(None) => Device::Cpu(CpuDevice::new(crate::device::cpu::default_capacity())),
            Err(why) => return Err(selection_error(&why)),
        };
        st.device = Some(made);
    }
    // invariant: set just above when it was None
    let dev = st.device.as_mut().expect("device was just created");
    dev.shared().cell.store(cell, Ordering::Relaxed);
    let released = std::mem::take(
        &mut *dev
            .shared()
            .released_streams
            .lock()
            .unwrap_or_else(|p| p.into_inner()),
    );
    for stream in released {
        dev.backend().destroy_stream(stream);
    }
    Ok(dev)
}

/// The error for a device that cannot be used, with the reason the selection gave.
pub fn selection_error(why: &str) -> PyErr {
    if why.starts_with("NBCUDA_DEVICE=cuda") {
        PyErr::new("CudaSupportError", why.to_string()).with_hint(
            "Unset NBCUDA_DEVICE to choose automatically, or set NBCUDA_DEVICE=cpu to use the embedded CPU device.",
        )
    } else {
        PyErr::value_error(why.to_string())
            .with_hint("Use NBCUDA_DEVICE=cpu or NBCUDA_DEVICE=cuda, or unset it.")
    }
}

/// The shared part of the device, if one was created.
pub fn shared(rt: &mut Runtime) -> Option<Arc<Shared>> {
    Some(rt.state::<DeviceState>().device.as_ref()?.shared().clone())
}

/// Remember a host buffer as pinned/mapped/managed.
pub fn register_host(rt: &mut Runtime, buf: &Arc<Buffer>, kind: HostKind) {
    let st = rt.state::<DeviceState>();
    st.host_mem.retain(|_, (w, _)| w.strong_count() > 0);
    st.host_mem
        .insert(Arc::as_ptr(buf) as usize, (Arc::downgrade(buf), kind));
}

/// Whether a host buffer is registered, and as what.
pub fn host_kind(rt: &mut Runtime, buf: &Arc<Buffer>) -> Option<HostKind> {
    let st = rt.state::<DeviceState>();
    let (w, k) = st.host_mem.get(&(Arc::as_ptr(buf) as usize))?;
    (w.strong_count() > 0).then_some(*k)
}

pub fn unregister_host(rt: &mut Runtime, buf: &Arc<Buffer>) {
    rt.state::<DeviceState>()
        .host_mem
        .remove(&(Arc::as_ptr(buf) as usize));
}

/// The use-after-free error for an allocation freed by `.free()`, if it was.
pub fn check_not_freed(rt: &mut Runtime, alloc_id: u64) -> PyResult<()> {
    match rt.state::<DeviceState>().freed.get(&alloc_id) {
        None => Ok(()),
        Some(wher) => Err(PyErr::value_error(format!("{wher}; it cannot be used any more"))
        .with_hint(
            "Its memory went back to the device; allocate a new one with cuda.device_array or cuda.to_device.",
        )),
    }
}
