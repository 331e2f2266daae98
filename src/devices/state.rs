//! Per-session device state (in `rt.state::<DeviceState>()`): the device (created on first
//! use), freed allocations, and host memory registered as pinned, mapped or managed.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use crate::arrays::Buffer;
use crate::devices::backend::Device;
use crate::devices::cpu::{CpuDevice, Shared};
use crate::language::{PyErr, PyResult, Runtime};

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

/// The device, created on first use. `NBCUDA_DEVICE=cuda` without a CUDA backend is an
/// error raised in the first cell that touches the device.
pub fn device(rt: &mut Runtime) -> PyResult<&mut Device> {
    let cell = rt.execution_count;
    let st = rt.state::<DeviceState>();
    if st.device.is_none() {
        let want = std::env::var("NBCUDA_DEVICE").unwrap_or_default();
        match want.trim().to_ascii_lowercase().as_str() {
            "" | "cpu" => {}
            "cuda" | "gpu" => return Err(PyErr::new(
                "CudaSupportError",
                "NBCUDA_DEVICE=cuda was requested but this nbcuda build has no usable CUDA device",
            )
            .with_hint(
                "Unset NBCUDA_DEVICE (or set NBCUDA_DEVICE=cpu) to use the embedded CPU device.",
            )),
            other => {
                return Err(PyErr::value_error(format!(
                    "NBCUDA_DEVICE={other} is not a device nbcuda knows"
                ))
                .with_hint("Use NBCUDA_DEVICE=cpu or NBCUDA_DEVICE=cuda."))
            }
        }
        st.device = Some(Device::Cpu(CpuDevice::new(
            crate::devices::cpu::default_capacity(),
        )));
    }
    let dev = st.device.as_mut().expect("device was just created");
    let Device::Cpu(c) = &*dev;
    c.shared.cell.store(cell, Ordering::Relaxed);
    Ok(dev)
}

/// The shared part of the device, if one was created.
pub fn shared(rt: &mut Runtime) -> Option<Arc<Shared>> {
    match rt.state::<DeviceState>().device.as_ref()? {
        Device::Cpu(c) => Some(c.shared.clone()),
    }
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
