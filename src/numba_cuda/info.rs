//! Devices and contexts as Numba shows them: `cuda.gpus`, `Device`, `current_context()`,
//! `MemoryInfo`, `detect()`.

use std::any::Any;
use std::rc::Rc;

use crate::device::api;
use crate::device::state::device;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

const UUID: &str = "GPU-6e626375-6461-4350-5564-657669636530";

/// `Device`: the device in use.
pub struct DeviceObj;

impl Object for DeviceObj {
    fn type_name(&self) -> String {
        "Device".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.cudadrv.driver".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("<CUDA device 0 '{}'>", device_name(rt)?))
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(Some(match name {
            "id" => Value::Int(0),
            "name" => Value::str(&device_name(rt)?),
            "compute_capability" => {
                let (a, b) = device(rt)?.backend().compute_capability();
                Value::tuple(vec![Value::Int(a), Value::Int(b)])
            }
            "uuid" => Value::str(UUID),
            "supports_float16" => Value::Bool(true),
            "supports_bfloat16" | "supports_fp8" => Value::Bool(false),
            "reset" => Value::builtin(
                "Device.reset",
                "reset()",
                "Wait for the device and forget pending work.",
                |rt, _| {
                    api::synchronize(rt)?;
                    Ok(Value::None)
                },
            ),
            other => match device(rt)?.backend_ref_attr(other) {
                Some(n) => Value::Int(n),
                None => return Ok(None),
            },
        }))
    }
    fn dir(&self) -> Vec<String> {
        [
            "id",
            "name",
            "compute_capability",
            "uuid",
            "reset",
            "MULTIPROCESSOR_COUNT",
            "MAX_THREADS_PER_BLOCK",
            "WARP_SIZE",
        ]
        .map(String::from)
        .to_vec()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

pub fn device_name(rt: &mut Runtime) -> PyResult<String> {
    Ok(device(rt)?.backend().name())
}

/// `cuda.gpus[i]`: a context manager that makes device i current, forwarding attributes.
pub struct ManagedDevice;

impl Object for ManagedDevice {
    fn type_name(&self) -> String {
        "_DeviceContextManager".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.cudadrv.devices".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok("<Managed Device 0>".into())
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        Rc::new(DeviceObj).get_attr(name, rt)
    }
    fn enter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Value> {
        Ok(Value::object(ManagedDevice))
    }
    fn exit(&self, _rt: &mut Runtime, _e: Option<&PyErr>) -> PyResult<bool> {
        Ok(false)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `cuda.gpus`: the list of devices (one).
pub struct GpuList;

impl Object for GpuList {
    fn type_name(&self) -> String {
        "_DeviceList".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.cudadrv.devices".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok("<Managed Device 0>".into())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "current" => Some(Value::object(DeviceObj)),
            _ => None,
        })
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        match key.as_index()? {
            0 | -1 => Ok(Value::object(ManagedDevice)),
            i => Err(PyErr::index_error(format!(
                "device {i} does not exist: nbcuda has one device (cuda.gpus[0])"
            ))),
        }
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(1))
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(vec![Value::object(ManagedDevice)]))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `MemoryInfo(free=..., total=...)`.
pub struct MemoryInfo {
    pub free: usize,
    pub total: usize,
}

impl Object for MemoryInfo {
    fn type_name(&self) -> String {
        "MemoryInfo".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "MemoryInfo(free={}, total={})",
            self.free, self.total
        ))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "free" => Some(Value::Int(self.free as i64)),
            "total" => Some(Value::Int(self.total as i64)),
            _ => None,
        })
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        match key.as_index()? {
            0 | -2 => Ok(Value::Int(self.free as i64)),
            1 | -1 => Ok(Value::Int(self.total as i64)),
            _ => Err(PyErr::index_error("tuple index out of range")),
        }
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(2))
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(vec![
            Value::Int(self.free as i64),
            Value::Int(self.total as i64),
        ]))
    }
    fn py_eq(&self, other: &Value, _rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(Some(match other {
            Value::Tuple(t) if t.len() == 2 => {
                matches!((&t[0], &t[1]), (Value::Int(a), Value::Int(b)) if *a as usize == self.free && *b as usize == self.total)
            }
            _ => false,
        }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

pub fn memory_info(rt: &mut Runtime) -> PyResult<Value> {
    let (free, total) = device(rt)?.backend().memory_info();
    Ok(Value::object(MemoryInfo { free, total }))
}

/// `cuda.current_context()`.
pub struct Context;

impl Object for Context {
    fn type_name(&self) -> String {
        "Context".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.cudadrv.driver".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "<CUDA context c_void_p(1) of device 0 '{}'>",
            device_name(rt)?
        ))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(Some(match name {
            "get_memory_info" => Value::builtin(
                "Context.get_memory_info",
                "get_memory_info()",
                "Free and total device memory in bytes, as MemoryInfo(free=..., total=...).",
                |rt, a| {
                    a.bind("get_memory_info", &[])?;
                    memory_info(rt)
                },
            ),
            "synchronize" => Value::builtin(
                "Context.synchronize",
                "synchronize()",
                "Wait for all work on the device.",
                |rt, _| {
                    api::synchronize(rt)?;
                    Ok(Value::None)
                },
            ),
            "reset" => Value::builtin(
                "Context.reset",
                "reset()",
                "Wait for the device and forget pending work.",
                |rt, _| {
                    api::synchronize(rt)?;
                    Ok(Value::None)
                },
            ),
            "memalloc" => Value::builtin(
                "Context.memalloc",
                "memalloc(bytesize)",
                "Allocate bytesize bytes of device memory (a uint8 device array here; Numba returns a MemoryPointer).",
                |rt, a| {
                    let b = a.bind("memalloc", &["bytesize"])?;
                    let n = b[0].as_ref().map(|v| v.as_index()).transpose()?.unwrap_or(0);
                    let n = usize::try_from(n)
                        .map_err(|_| PyErr::value_error(format!("memalloc: negative size {n}")))?;
                    let view = crate::numba_cuda::device_array(
                        rt,
                        &[n],
                        crate::arrays::dtype::DType::U8,
                        'C',
                        None,
                        0,
                    )?;
                    Ok(crate::numba_cuda::devicearray::DeviceNDArray::value(view))
                },
            ),
            "memhostalloc" => Value::builtin(
                "Context.memhostalloc",
                "memhostalloc(bytesize, mapped=False, portable=False, wc=False)",
                "Allocate bytesize bytes of page-locked host memory (mapped into the device when mapped=True), as a uint8 host array.",
                |rt, a| {
                    let b = a.bind("memhostalloc", &["bytesize", "mapped=", "portable=", "wc="])?;
                    let n = b[0].as_ref().map(|v| v.as_index()).transpose()?.unwrap_or(0);
                    let n = usize::try_from(n).map_err(|_| {
                        PyErr::value_error(format!("memhostalloc: negative size {n}"))
                    })?;
                    let mapped = match &b[1] {
                        Some(v) => rt.truthy(v)?,
                        None => false,
                    };
                    let kind = if mapped {
                        crate::device::state::HostKind::Mapped
                    } else {
                        crate::device::state::HostKind::Pinned
                    };
                    crate::numba_cuda::hostmem::special_array(
                        rt,
                        &[n],
                        crate::arrays::dtype::DType::U8,
                        'C',
                        None,
                        kind,
                    )
                },
            ),
            "device" => Value::object(DeviceObj),
            "memory_manager" => Value::object(MemoryManager),
            _ => return Ok(None),
        }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `cuda.detect()`'s report.
pub fn detect_text(rt: &mut Runtime) -> PyResult<String> {
    let name = device_name(rt)?;
    let (major, minor) = device(rt)?.backend().compute_capability();
    let mut s = String::from("Found 1 CUDA devices\n");
    s.push_str(&format!("id {}    {:>20} {:>40}\n", 0, name, "[SUPPORTED]"));
    let attrs = [
        ("Compute Capability", format!("{major}.{minor}")),
        ("PCI Device ID", "0".into()),
        ("PCI Bus ID", "0".into()),
        ("UUID", UUID.into()),
        ("Watchdog", "Disabled".into()),
        ("FP32/FP64 Performance Ratio", "1".into()),
    ];
    for (k, v) in attrs {
        s.push_str(&format!("{k:>40}: {v}\n"));
    }
    s.push_str("Summary:\n\t1/1 devices are supported\n");
    Ok(s)
}

/// `context.memory_manager`: Numba's memory manager, for its pending deallocations.
pub struct MemoryManager;

impl Object for MemoryManager {
    fn type_name(&self) -> String {
        "NumbaCUDAMemoryManager".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.cudadrv.driver".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "deallocations" => Some(Value::object(Deallocations)),
            "get_memory_info" => Some(Value::builtin(
                "MemoryManager.get_memory_info",
                "get_memory_info()",
                "Free and total device memory in bytes.",
                |rt, _| memory_info(rt),
            )),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `memory_manager.deallocations`: the frees nbcuda is holding back, which are those
/// inside `cuda.defer_cleanup()` (other frees happen when the last owner goes, so Numba's
/// list of frees waiting for a flush stays empty here). `clear()` runs them, except
/// while cleanup is deferred, as in Numba.
pub struct Deallocations;

impl Object for Deallocations {
    fn type_name(&self) -> String {
        "_PendingDeallocs".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.cudadrv.driver".into()
    }
    fn len(&self, rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(crate::device::state::shared(rt).map_or(0, |s| {
            s.deferred.lock().unwrap_or_else(|e| e.into_inner()).len()
        })))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok((name == "clear").then(|| {
            Value::builtin(
                "_PendingDeallocs.clear",
                "clear()",
                "Run the held-back frees (not while cleanup is deferred).",
                |rt, _| {
                    if let Some(s) = crate::device::state::shared(rt) {
                        if s.defer_depth.load(std::sync::atomic::Ordering::SeqCst) == 0 {
                            s.flush_deferred();
                        }
                    }
                    Ok(Value::None)
                },
            )
        }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
