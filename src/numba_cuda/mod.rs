//! The `numba.cuda` memory API: `DeviceNDArray`, transfers, streams and events,
//! pinned/mapped/managed memory, device information, `__cuda_array_interface__`,
//! `SmartArray`, and the `%memory` report.
//!
//! | file | holds |
//! |---|---|
//! | `cudadrv.rs` | `numba.cuda.cudadrv`: the driver-level paths (`devicearray.auto_device`, `driver.device_memset`, `driver.host_to_device`, `devices.get_context`, ...) that Numba's tests and older tutorials use. |
//! | `devicearray.rs` | `DeviceNDArray`: Numba's device array object over a `DeviceView`. |
//! | `device_records.rs` | Device arrays of records (`create_xoroshiro128p_states`): Numba's shape and dtype on the outside, the `(n, 2)` uint64 memory kernels read underneath. |
//! | `devicemethods.rs` | The method table of `DeviceNDArray` (name, signature, doc and body once each, via `py::methods`): lookup, `dir()`, completion and `?` read it. |
//! | `hostconv.rs` | Turning Python values into host arrays for transfers (`cuda.to_device([1, 2])`, `d[:] = [1, 3]`): NumPy's own conversion, so lists become the arrays NumPy would make. |
//! | `hostmem.rs` | Pinned, mapped and managed host memory, and the `cuda.pinned` / `cuda.mapped` / `cuda.defer_cleanup` context managers. |
//! | `info.rs` | Devices and contexts as Numba shows them: `cuda.gpus`, `Device`, `current_context()`, `MemoryInfo`, `detect()`. |
//! | `interop.rs` | Interoperability: which values are device memory, the `__cuda_array_interface__` dict, and pointers back to allocations (so CuPy, Numba and foreign CAI objects share memory). |
//! | `memory_report.rs` | `%memory`: the live device allocations and totals. |
//! | `smart.rs` | `numba.SmartArray`: one logical array mirrored on host and device. |
//! | `stream_objects.rs` | `cuda.stream()`, the default-stream objects and `cuda.event()`. |
//! | `view_index.rs` | Basic indexing of strided layouts (ints, slices, `...`, `None`), shared by Numba device arrays and CuPy arrays: an index either names one element or a view. |
//! | `viewops.rs` | Shape operations on device views with Numba's rules: reshape, ravel, view(dtype), squeeze, transpose, split. |
//!
//! `mod.rs`:
//! The `numba.cuda` module: allocation, transfer, streams, events, devices.

pub mod cudadrv;
pub mod device_records;
pub mod devicearray;
pub mod devicemethods;
pub mod hostconv;
pub mod hostmem;
pub mod info;
pub mod interop;
pub mod memory_report;
pub mod smart;
pub mod stream_objects;
pub mod view_index;
pub mod viewops;

use std::rc::Rc;

use crate::arrays::dtype::DType;
use crate::arrays::{contiguous, NdArray};
use crate::device::api::{self, Transfer};
use crate::device::state::HostKind;
use crate::device::DeviceView;
use crate::numba_cuda::device_records::DeviceRecords;
use crate::numba_cuda::devicearray::{arg, DeviceNDArray, ERR_CONTIGUOUS};
use crate::numba_cuda::hostmem::{DeferCleanup, HostCtx};
use crate::numba_cuda::stream_objects::{Event, Stream, StreamKind};
use crate::numba_cuda::view_index::parse_shape;
use crate::py::error::{PyErr, PyResult};
use crate::py::records::RecordArray;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

/// The `numba.cuda` module's memory, stream, event and device API; the engine adds the
/// kernel API from [`crate::numba`].
pub fn module() -> Rc<Module> {
    let m = Module::new("numba.cuda", "Numba's CUDA API on nbcuda's devices.");
    build(&m);
    cudadrv::install(&m);
    Rc::new(m)
}

fn dtype_arg(rt: &mut Runtime, v: Option<&Value>) -> PyResult<DType> {
    match v {
        None | Some(Value::None) => Ok(DType::F64),
        Some(v) => crate::py::ndarray_attrs::dtype_from_value(rt, v),
    }
}

fn order_arg(v: Option<&Value>) -> PyResult<char> {
    match v.and_then(|v| v.as_str()) {
        None => Ok('C'),
        Some("C") => Ok('C'),
        Some("F") => Ok('F'),
        Some(o) => Err(PyErr::value_error(format!(
            "order must be 'C' or 'F', not {o:?}"
        ))),
    }
}

pub(crate) fn strides_arg(v: Option<&Value>) -> PyResult<Option<Vec<isize>>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => Ok(Some(
            parse_shape(v)
                .or_else(|_| match v {
                    Value::Tuple(t) => t.iter().map(|x| x.as_index().map(|n| n as usize)).collect(),
                    _ => Err(PyErr::type_error("strides must be a tuple of ints")),
                })?
                .into_iter()
                .map(|n| n as isize)
                .collect(),
        )),
    }
}

/// `cuda.device_array(shape, dtype, strides, order, stream)`.
pub fn device_array(
    rt: &mut Runtime,
    shape: &[usize],
    dtype: DType,
    order: char,
    strides: Option<Vec<isize>>,
    stream: u64,
) -> PyResult<DeviceView> {
    let isz = dtype.itemsize();
    api::checked_nbytes(shape, dtype)?;
    crate::arrays::elem::check_strides_fit(shape, dtype)?;
    let strides = match strides {
        Some(s) if s.len() != shape.len() => {
            return Err(PyErr::value_error(format!(
                "strides {s:?} do not match the {} dimensions of shape {}",
                shape.len(),
                api::shape_str(shape)
            )))
        }
        Some(s) => s,
        None if order == 'F' => NdArray::f_strides(shape, isz),
        None => NdArray::c_strides(shape, isz),
    };
    let (lo, hi) = crate::device::copy::extent(shape, &strides, isz);
    if lo < 0 {
        return Err(PyErr::value_error(
            "negative strides are not supported for new device arrays",
        ));
    }
    let base = api::alloc(rt, &[(hi as usize).div_ceil(isz)], dtype, stream)?;
    Ok(DeviceView {
        shape: shape.to_vec(),
        strides,
        ..base
    })
}

/// `cuda.to_device(obj, stream=0, copy=True, to=None)`.
pub fn to_device(
    rt: &mut Runtime,
    obj: &Value,
    stream: u64,
    copy: bool,
    to: Option<&Value>,
) -> PyResult<Value> {
    hostmem::check_not_ctx(obj)?;
    if let Some(to) = to.filter(|v| !v.is_none()) {
        let view = crate::numba_cuda::interop::view_of(rt, to)?.ok_or_else(|| {
            PyErr::type_error(format!(
                "to= must be a device array, not {}",
                to.type_name()
            ))
        })?;
        crate::numba_cuda::devicearray::copy_to_device(
            rt,
            &view,
            obj,
            Some(&Stream::bound(stream)),
        )?;
        return Ok(to.clone());
    }
    if obj.downcast::<DeviceNDArray>().is_some() || obj.downcast::<DeviceRecords>().is_some() {
        crate::numba_cuda::interop::view_of(rt, obj)?;
        return Ok(obj.clone());
    }
    if let Some(r) = RecordArray::of(obj) {
        let fields = to_device(
            rt,
            &Value::Array(Box::new(r.data.clone())),
            stream,
            copy,
            None,
        )?;
        return match crate::numba_cuda::interop::view_of(rt, &fields)? {
            Some(view) => Ok(DeviceRecords::value(view, r.layout)),
            None => Err(PyErr::type_error(
                "to_device() of a record array made no device array",
            )),
        };
    }
    // Mapped and managed host arrays already are device memory.
    if matches!(obj, Value::Array(_)) && crate::numba_cuda::interop::view_of(rt, obj)?.is_some() {
        return Ok(obj.clone());
    }
    if !matches!(obj, Value::Array(_)) {
        if let Some(v) = crate::numba_cuda::interop::view_of(rt, obj)? {
            return Ok(DeviceNDArray::value(v));
        }
    }
    let host = hostconv::host_array(rt, obj)?;
    let isz = host.dtype.itemsize();
    // Broadcast (0-stride) axes are kept; only the core is stored and copied.
    let core_shape: Vec<usize> = host
        .shape
        .iter()
        .zip(&host.strides)
        .map(|(&n, &s)| if s == 0 { 1.min(n) } else { n })
        .collect();
    if !contiguous(&core_shape, &host.strides, isz, true)
        && !contiguous(&core_shape, &host.strides, isz, false)
    {
        return Err(PyErr::value_error(ERR_CONTIGUOUS));
    }
    let (lo, hi) = crate::device::copy::extent(&core_shape, &host.strides, isz);
    let elems = ((hi - lo) as usize).div_ceil(isz);
    let base = api::alloc(rt, &[elems], host.dtype, stream)?;
    let view = DeviceView {
        offset: (-lo) as usize,
        shape: host.shape.clone(),
        strides: host.strides.clone(),
        ..base
    };
    if copy && elems > 0 {
        let core_host = NdArray {
            shape: core_shape.clone(),
            ..host.clone()
        };
        let core_dev = DeviceView {
            shape: core_shape,
            ..view.clone()
        };
        api::htod(
            rt,
            &core_host,
            &core_dev,
            stream,
            Transfer::explicit("to_device"),
        )?;
    }
    Ok(DeviceNDArray::value(view))
}

fn like(rt: &mut Runtime, v: &Value) -> PyResult<(Vec<usize>, DType, char)> {
    hostmem::check_not_ctx(v)?;
    let (shape, strides, dtype) = match crate::numba_cuda::interop::view_of(rt, v)? {
        Some(d) => (d.shape, d.strides, d.dtype),
        None => {
            let h = hostconv::host_array(rt, v)?;
            (h.shape, h.strides, h.dtype)
        }
    };
    let isz = dtype.itemsize();
    let order =
        if !contiguous(&shape, &strides, isz, true) && contiguous(&shape, &strides, isz, false) {
            'F'
        } else {
            'C'
        };
    Ok((shape, dtype, order))
}

fn host_arrays(rt: &mut Runtime, vals: &[Value]) -> PyResult<Vec<NdArray>> {
    vals.iter()
        .map(|v| match v {
            Value::Array(a) => Ok(a.as_ref().clone()),
            other => hostconv::host_array(rt, other),
        })
        .collect()
}

pub(crate) fn class(module: &str, name: &str) -> Value {
    Value::object(crate::py::value::ClassObj {
        module: module.to_string(),
        name: name.to_string(),
        ctor: None,
    })
}

/// Build the module's memory, stream, event and device functions.
pub fn build(m: &Module) {
    m.def(
        Function,
        "to_device",
        "obj, stream=0, copy=True, to=None",
        "Allocate and transfer a numpy ndarray or structured scalar to the device.",
        |rt, b| {
            let s = crate::numba_cuda::stream_objects::parse_stream(rt, arg(&b, 1))?;
            let copy = rt.truthy(&b.value(2))?;
            to_device(
                rt,
                arg(&b, 0).unwrap_or(crate::py::value::NONE),
                s,
                copy,
                arg(&b, 3),
            )
        },
    );
    m.def(
        Function,
        "device_array",
        "shape, dtype=<class 'numpy.float64'>, strides=None, order='C', stream=0",
        "Allocate an empty device ndarray. Similar to :meth:`numpy.empty`.",
        |rt, b| {
            let shape = parse_shape(arg(&b, 0).unwrap_or(crate::py::value::NONE))?;
            let dt = dtype_arg(rt, arg(&b, 1))?;
            let st = strides_arg(arg(&b, 2))?;
            let order = order_arg(arg(&b, 3))?;
            let s = crate::numba_cuda::stream_objects::parse_stream(rt, arg(&b, 4))?;
            Ok(DeviceNDArray::value(device_array(
                rt, &shape, dt, order, st, s,
            )?))
        },
    );
    m.def(
        Function,
        "device_array_like",
        "ary, stream=0",
        "Call :func:`device_array() <numba.cuda.device_array>` with information from the array.",
        |rt, b| {
            let (shape, dt, order) = like(rt, arg(&b, 0).unwrap_or(crate::py::value::NONE))?;
            let s = crate::numba_cuda::stream_objects::parse_stream(rt, arg(&b, 1))?;
            Ok(DeviceNDArray::value(device_array(
                rt, &shape, dt, order, None, s,
            )?))
        },
    );
    // Numba has no managed_array_like.
    for (name, kind, sig, doc, like_sig, like_doc) in [
        (
            "pinned_array",
            HostKind::Pinned,
            "shape, dtype=<class 'numpy.float64'>, strides=None, order='C'",
            "Allocate an :class:`ndarray <numpy.ndarray>` with a buffer that is pinned (pagelocked).",
            Some("ary"),
            "Call :func:`pinned_array() <numba.cuda.pinned_array>` with the information from the array.",
        ),
        (
            "mapped_array",
            HostKind::Mapped,
            "shape, dtype=<class 'numpy.float64'>, strides=None, order='C', stream=0, portable=False, wc=False",
            "Allocate a mapped ndarray with a buffer that is pinned and mapped on to the device.",
            Some("ary, stream=0, portable=False, wc=False"),
            "Call :func:`mapped_array() <numba.cuda.mapped_array>` with the information from the array.",
        ),
        (
            "managed_array",
            HostKind::Managed,
            "shape, dtype=<class 'numpy.float64'>, strides=None, order='C', stream=0, attach_global=True",
            "Allocate a np.ndarray with a buffer that is managed.",
            None,
            "",
        ),
    ] {
        m.def(Function, name, sig, doc, move |rt, b| {
            let shape = parse_shape(arg(&b, 0).unwrap_or(crate::py::value::NONE))?;
            let dt = dtype_arg(rt, arg(&b, 1))?;
            let st = strides_arg(arg(&b, 2))?;
            let order = order_arg(arg(&b, 3))?;
            hostmem::special_array(rt, &shape, dt, order, st, kind)
        });
        if let Some(like_sig) = like_sig {
            m.def(
                Function,
                &format!("{name}_like"),
                like_sig,
                like_doc,
                move |rt, b| {
                    let (shape, dt, order) =
                        like(rt, arg(&b, 0).unwrap_or(crate::py::value::NONE))?;
                    hostmem::special_array(rt, &shape, dt, order, None, kind)
                },
            );
        }
    }
    m.def(
        Function,
        "pinned",
        "*arylist",
        "A context manager for temporary pinning a sequence of host ndarrays.",
        |rt, b| {
            let arrays = host_arrays(rt, &b.rest)?;
            Ok(Value::object(HostCtx::new(arrays, HostKind::Pinned, 0)))
        },
    );
    m.def(
        Function,
        "mapped",
        "*arylist, **kws",
        "A context manager for temporarily mapping a sequence of host ndarrays.",
        |rt, b| {
            // Numba's own check, an assert on **kws.
            let stream = b.kw.iter().find(|(k, _)| &**k == "stream").map(|(_, v)| v);
            if !b.kw.is_empty() && stream.is_none() {
                return Err(PyErr::new(
                    "AssertionError",
                    "Only accept 'stream' as keyword.",
                ));
            }
            let s = crate::numba_cuda::stream_objects::parse_stream(rt, stream)?;
            let arrays = host_arrays(rt, &b.rest)?;
            Ok(Value::object(HostCtx::new(arrays, HostKind::Mapped, s)))
        },
    );
    m.def(
        Function,
        "as_cuda_array",
        "obj, sync=True",
        "Create a DeviceNDArray from any object that implements the cuda array interface.",
        |rt, b| {
            let obj = arg(&b, 0).unwrap_or(crate::py::value::NONE);
            match crate::numba_cuda::interop::view_of(rt, obj)? {
                Some(v) => Ok(DeviceNDArray::value(v)),
                None => Err(PyErr::type_error(
                    "*obj* doesn't implement the cuda array interface.",
                )),
            }
        },
    );
    m.def(
        Function,
        "is_cuda_array",
        "obj",
        "Test if the object has defined the `__cuda_array_interface__` attribute.",
        |rt, b| {
            let obj = arg(&b, 0).unwrap_or(crate::py::value::NONE);
            Ok(Value::Bool(match obj {
                Value::Object(_) => crate::numba_cuda::interop::view_of(rt, obj)
                    .ok()
                    .flatten()
                    .is_some(),
                Value::Array(_) => crate::numba_cuda::interop::view_of(rt, obj)?.is_some(),
                _ => false,
            }))
        },
    );
    m.def(
        Function,
        "from_cuda_array_interface",
        "desc, owner=None, sync=True",
        "Create a DeviceNDArray from a cuda-array-interface description.",
        |rt, b| match arg(&b, 0) {
            Some(Value::Dict(d)) => {
                let d = d.borrow().clone();
                Ok(DeviceNDArray::value(interop::from_cai(rt, &d)?))
            }
            _ => Err(PyErr::type_error(
                "from_cuda_array_interface() needs a dict",
            )),
        },
    );
    m.def(
        Function,
        "synchronize",
        "",
        "Synchronize the current context.",
        |rt, _| {
            api::synchronize(rt)?;
            Ok(Value::None)
        },
    );
    m.def(
        Function,
        "stream",
        "",
        "Create a CUDA stream that represents a command queue for the device.",
        |rt, _| Stream::created(rt),
    );
    m.def(
        Function,
        "default_stream",
        "",
        "Get the default CUDA stream.",
        |_, _| Ok(Stream::value(0, StreamKind::Default)),
    );
    m.def(
        Function,
        "legacy_default_stream",
        "",
        "Get the legacy default CUDA stream.",
        |_, _| Ok(Stream::value(1, StreamKind::Legacy)),
    );
    m.def(
        Function,
        "per_thread_default_stream",
        "",
        "Get the per-thread default CUDA stream.",
        |_, _| Ok(Stream::value(2, StreamKind::PerThread)),
    );
    m.def(
        Function,
        "external_stream",
        "ptr",
        "Wrap a stream handle made elsewhere.",
        |_, b| match arg(&b, 0) {
            Some(Value::Int(p)) if *p > 2 => Ok(Stream::value(*p as u64, StreamKind::External)),
            Some(Value::Int(p)) => Ok(Stream::bound(*p as u64)),
            _ => Err(PyErr::type_error("ptr must be an int")),
        },
    );
    m.def(
        Function,
        "event",
        "timing=True",
        "Create a CUDA event.",
        |rt, b| {
            let timing = rt.truthy(&b.value(0))?;
            Ok(Value::object(Event {
                timing,
                mark: Default::default(),
            }))
        },
    );
    m.def(
        Function,
        "event_elapsed_time",
        "evtstart, evtend",
        "Compute the elapsed time between two events in milliseconds.",
        |_, b| match (
            arg(&b, 0).and_then(|v| v.downcast::<Event>()),
            arg(&b, 1).and_then(|v| v.downcast::<Event>()),
        ) {
            (Some(s), Some(e)) => Ok(Value::Float(Event::elapsed(s, e)?)),
            _ => Err(PyErr::type_error(
                "event_elapsed_time() needs two cuda.event() objects",
            )),
        },
    );
    m.def(
        Function,
        "defer_cleanup",
        "",
        "Temporarily disable memory deallocation.",
        |_, _| Ok(Value::object(DeferCleanup)),
    );
    m.set("gpus", Value::object(info::GpuList));
    m.def(
        Function,
        "list_devices",
        "",
        "Return a list of all detected devices",
        |_, _| Ok(Value::object(info::GpuList)),
    );
    m.def(
        Function,
        "select_device",
        "device_id",
        "Make the context associated with device *device_id* the current context.",
        |rt, b| match arg(&b, 0).map(|v| v.as_index()).transpose()? {
            Some(0) => {
                crate::device::state::device(rt)?;
                Ok(Value::object(info::DeviceObj))
            }
            other => Err(no_device(other.unwrap_or(-1))),
        },
    );
    m.def(
        Function,
        "get_current_device",
        "",
        "Get current device associated with the current thread",
        |rt, _| {
            crate::device::state::device(rt)?;
            Ok(Value::object(info::DeviceObj))
        },
    );
    // Numba's current_context is its get_context, under that name in its messages.
    let alias = Module::new("numba.cuda", "");
    alias.def(
        Function,
        "get_context",
        "devnum=None",
        "Get the current device or use a device by device number, and return the CUDA context.",
        |rt, b| match b.index(0)? {
            None | Some(0) => {
                crate::device::state::device(rt)?;
                Ok(Value::object(info::Context))
            }
            Some(other) => Err(no_device(other)),
        },
    );
    if let Some(f) = alias.get("get_context") {
        m.set("current_context", f);
    }
    m.def(
        Function,
        "detect",
        "",
        "Detect supported CUDA hardware and print a summary of the detected hardware.",
        |rt, _| {
            let s = info::detect_text(rt)?;
            rt.print(&s);
            Ok(Value::Bool(true))
        },
    );
    m.def(
        Function,
        "is_available",
        "",
        "Returns a boolean to indicate the availability of a CUDA GPU.",
        |_, _| Ok(Value::Bool(true)),
    );
    m.def(
        Function,
        "is_supported_version",
        "",
        "Returns True if the CUDA Runtime is a supported version.",
        |_, _| Ok(Value::Bool(true)),
    );
    m.def(
        Function,
        "close",
        "",
        "Explicitly clears all contexts in the current thread, and destroys all contexts if the current thread is the main thread.",
        |rt, _| {
            api::synchronize(rt)?;
            Ok(Value::None)
        },
    );
    m.def(
        Function,
        "require_context",
        "fn",
        "A decorator that ensures a CUDA context is available when *fn* is executed.",
        |_, b| Ok(arg(&b, 0).cloned().unwrap_or(Value::None)),
    );
    let runtime = Module::new("numba.cuda.cudadrv.runtime", "CUDA runtime queries.");
    runtime.def(
        Function,
        "get_version",
        "",
        "Returns the CUDA Runtime version as a tuple (major, minor).",
        |_, _| Ok(Value::tuple(vec![Value::Int(12), Value::Int(8)])),
    );
    runtime.def(
        Function,
        "is_supported_version",
        "",
        "Returns True if the CUDA Runtime is a supported version.",
        |_, _| Ok(Value::Bool(true)),
    );
    m.set("runtime", Value::Module(Rc::new(runtime)));
    for (name, doc) in [
        (
            "profile_start",
            "Enable profile collection in the current context.",
        ),
        (
            "profile_stop",
            "Disable profile collection in the current context.",
        ),
    ] {
        m.def(Function, name, "", doc, |_, _| Ok(Value::None));
    }
}

/// Numba's error for a device number the machine lacks; nbcuda has device 0 only.
fn no_device(id: i64) -> PyErr {
    PyErr::new(
        "CudaSupportError",
        format!("device {id} does not exist: nbcuda has one device (id 0)"),
    )
}
