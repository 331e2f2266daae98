//! `numba.SmartArray`: one logical array mirrored on host and device. Each side is copied
//! lazily, only when it is asked for and the other side changed since the last copy.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::NdArray;
use crate::device::api::{self, Transfer};
use crate::device::DeviceView;
use crate::numba_cuda::devicearray::{arg, DeviceNDArray};
use crate::numba_cuda::hostconv;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Object, Value};

struct Sides {
    host: NdArray,
    gpu: Option<DeviceView>,
    /// The host copy is out of date (the device side changed).
    host_stale: bool,
    /// The device copy is out of date (the host side changed), or absent.
    gpu_stale: bool,
}

pub struct SmartArray {
    sides: RefCell<Sides>,
}

fn where_arg(v: Option<&Value>) -> PyResult<&'static str> {
    match v.and_then(|v| v.as_str()) {
        None | Some("host") => Ok("host"),
        Some("gpu") => Ok("gpu"),
        Some(other) => Err(PyErr::value_error(format!(
            "where must be 'host' or 'gpu', not {other:?}"
        ))),
    }
}

impl SmartArray {
    pub fn new(rt: &mut Runtime, obj: &Value, wher: &str) -> PyResult<SmartArray> {
        let (host, gpu) = match crate::numba_cuda::interop::view_of(rt, obj)? {
            Some(v) if !matches!(obj, Value::Array(_)) => {
                let h = NdArray::zeros(&v.shape, v.dtype).map_err(|e| {
                    PyErr::memory_error(format!("Unable to allocate {} bytes", e.bytes))
                })?;
                (h, Some(v))
            }
            _ => (hostconv::host_array(rt, obj)?, None),
        };
        let on_gpu = gpu.is_some() || wher == "gpu";
        let s = SmartArray {
            sides: RefCell::new(Sides {
                host,
                gpu,
                host_stale: on_gpu,
                gpu_stale: !on_gpu,
            }),
        };
        if wher == "gpu" && s.sides.borrow().gpu.is_none() {
            // Data given on the host but declared to live on the device: move it now.
            s.sides.borrow_mut().gpu_stale = true;
            s.sides.borrow_mut().host_stale = false;
            s.sync_gpu(rt)?;
        }
        Ok(s)
    }

    /// The device side, copied from the host first if needed.
    fn sync_gpu(&self, rt: &mut Runtime) -> PyResult<DeviceView> {
        let (host, gpu, stale) = {
            let s = self.sides.borrow();
            (s.host.clone(), s.gpu.clone(), s.gpu_stale)
        };
        let view = match gpu {
            Some(v) => v,
            None => api::alloc(rt, &host.shape, host.dtype, 0)?,
        };
        if stale {
            api::htod(rt, &host, &view, 0, Transfer::implicit("SmartArray"))?;
        }
        let mut s = self.sides.borrow_mut();
        s.gpu = Some(view.clone());
        s.gpu_stale = false;
        Ok(view)
    }

    /// The host side, copied from the device first if needed.
    fn sync_host(&self, rt: &mut Runtime) -> PyResult<NdArray> {
        let (host, gpu, stale) = {
            let s = self.sides.borrow();
            (s.host.clone(), s.gpu.clone(), s.host_stale)
        };
        if let (true, Some(v)) = (stale, gpu) {
            api::implicit_to_host(rt, &v, &host, 0, "SmartArray")?;
        }
        self.sides.borrow_mut().host_stale = false;
        Ok(host)
    }

    /// The device side if one exists, without copying (for reports).
    pub fn peek_gpu(&self) -> Option<DeviceView> {
        self.sides.borrow().gpu.clone()
    }

    /// The device view for a kernel argument; the kernel may write, so the host side is
    /// treated as stale afterwards.
    pub fn gpu_view(&self, rt: &mut Runtime) -> PyResult<DeviceView> {
        let v = self.sync_gpu(rt)?;
        self.sides.borrow_mut().host_stale = true;
        Ok(v)
    }
}

impl Object for SmartArray {
    fn type_name(&self) -> String {
        "SmartArray".into()
    }
    fn module_name(&self) -> String {
        "numba".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let h = self.sides.borrow().host.clone();
        Ok(Some(match name {
            "shape" => crate::numba_cuda::devicearray::ints(&h.shape),
            "dtype" => Value::DType(h.dtype),
            "size" => Value::Int(h.size() as i64),
            "ndim" => Value::Int(h.ndim() as i64),
            "nbytes" => Value::Int(h.nbytes() as i64),
            "get" => Value::method(&self, "SmartArray.get", "get(where='host')",
                "The array on one side ('host' or 'gpu'), copied there first only if the other side changed.",
                |s, rt, a| {
                    let b = a.bind("get", &["where="])?;
                    match where_arg(arg(&b, 0))? {
                        "gpu" => Ok(DeviceNDArray::value(s.gpu_view(rt)?)),
                        _ => {
                            let h = s.sync_host(rt)?;
                            // The caller may write to it; mark_changed('host') tells us.
                            Ok(Value::Array(Box::new(h)))
                        }
                    }
                }),
            "host" => Value::method(&self, "SmartArray.host", "host()", "Same as get('host').", |s, rt, _| {
                Ok(Value::Array(Box::new(s.sync_host(rt)?)))
            }),
            "gpu" => Value::method(&self, "SmartArray.gpu", "gpu()", "Same as get('gpu').", |s, rt, _| {
                Ok(DeviceNDArray::value(s.gpu_view(rt)?))
            }),
            "mark_changed" => Value::method(&self, "SmartArray.mark_changed", "mark_changed(where='host')",
                "Declare that one side was modified, so the other is copied before its next use.",
                |s, _rt, a| {
                    let b = a.bind("mark_changed", &["where="])?;
                    let mut sd = s.sides.borrow_mut();
                    match where_arg(arg(&b, 0))? {
                        "gpu" => {
                            sd.host_stale = true;
                            sd.gpu_stale = false;
                        }
                        _ => {
                            sd.gpu_stale = true;
                            sd.host_stale = false;
                        }
                    }
                    Ok(Value::None)
                }),
            "__array__" => Value::method(&self, "SmartArray.__array__", "__array__()", "The host side.", |s, rt, _| {
                Ok(Value::Array(Box::new(s.sync_host(rt)?)))
            }),
            _ => return Ok(None),
        }))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(self.sides.borrow().host.shape.first().copied())
    }
    fn dir(&self) -> Vec<String> {
        [
            "shape",
            "dtype",
            "size",
            "ndim",
            "nbytes",
            "get",
            "host",
            "gpu",
            "mark_changed",
        ]
        .map(String::from)
        .to_vec()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Register `numba.SmartArray`.
pub fn register(numba: &Module) {
    numba.def_shown(
        Function,
        "SmartArray",
        "obj, where='host', copy=True",
        "SmartArray(obj, where='host')",
        "One logical array kept on host and device, copied lazily to the side that needs it.",
        |rt, b| {
            let obj = arg(&b, 0).cloned().unwrap_or(Value::None);
            let wher = where_arg(arg(&b, 1))?;
            Ok(Value::object(SmartArray::new(rt, &obj, wher)?))
        },
    );
}
