//! `numba.cuda.cudadrv`: the driver-level paths that Numba's documentation, tests and older
//! tutorials reach into. `devicearray` (the DeviceNDArray class, `is_contiguous`,
//! `array_core`, `auto_device`, `verify_cuda_ndarray_interface`), `driver` (the classes,
//! byte-level copies and memset on device memory) and `devices` (`get_context`).
//! Device memory from `Context.memalloc(nbytes)` is a uint8 device array here, where Numba
//! returns a raw MemoryPointer: every function below takes either.

use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::{contiguous, NdArray};
use crate::device::api::{self, Transfer};
use crate::device::backend::Record;
use crate::device::copy::region_of;
use crate::device::ledger::LedgerKind;
use crate::device::state::device;
use crate::device::DeviceView;
use crate::numba_cuda::devicearray::{arg, DeviceNDArray, ERR_CONTIGUOUS};
use crate::numba_cuda::hostconv;
use crate::numba_cuda::stream_objects::parse_stream;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Value, NONE};

/// Install `cuda.cudadrv` (and `cuda.devicearray`) on the built `numba.cuda` module `m`;
/// called last, since `auto_device` and `get_context` forward to `m`'s functions.
pub fn install(m: &Module) {
    let da = devicearray(m);
    let pkg = Module::new("numba.cuda.cudadrv", "The CUDA driver layer.");
    pkg.set("devicearray", da.clone());
    pkg.set("driver", Value::Module(Rc::new(driver())));
    pkg.set("devices", Value::Module(Rc::new(devices(m))));
    m.set("devicearray", da);
    m.set("cudadrv", Value::Module(Rc::new(pkg)));
}

fn class(module: &str, name: &str) -> Value {
    crate::numba_cuda::class(module, name)
}

/// The layout of a host or device array: shape, byte strides and itemsize.
fn host_or_device_layout(rt: &mut Runtime, v: &Value) -> PyResult<(Vec<usize>, Vec<isize>, usize)> {
    if let Value::Array(a) = v {
        return Ok((a.shape.clone(), a.strides.clone(), a.dtype.itemsize()));
    }
    if let Some(d) = crate::numba_cuda::interop::view_of(rt, v)? {
        return Ok((d.shape.clone(), d.strides.clone(), d.dtype.itemsize()));
    }
    let a = hostconv::host_array(rt, v)?;
    Ok((a.shape, a.strides, a.dtype.itemsize()))
}

fn devicearray(m: &Module) -> Value {
    let da = Module::new("numba.cuda.cudadrv.devicearray", "Device arrays.");
    let ctor = Value::builtin(
        "DeviceNDArray",
        "DeviceNDArray(shape, strides, dtype, stream=0, gpu_data=None)",
        "A new device array with the given shape, byte strides and dtype (uninitialised).",
        |rt, a| {
            let b = a.bind(
                "DeviceNDArray",
                &["shape", "strides", "dtype", "stream=", "gpu_data="],
            )?;
            if arg(&b, 4).is_some_and(|v| !v.is_none()) {
                return Err(PyErr::not_implemented(
                    "DeviceNDArray(gpu_data=...) over existing device memory is not supported by nbcuda; slice or view an existing device array instead",
                ));
            }
            let shape = crate::numba_cuda::view_index::parse_shape(arg(&b, 0).unwrap_or(NONE))?;
            let strides = crate::numba_cuda::strides_arg(arg(&b, 1))?;
            let dtype = crate::py::ndarray_attrs::dtype_from_value(rt, arg(&b, 2).unwrap_or(NONE))?;
            let stream = parse_stream(rt, arg(&b, 3))?;
            let view = crate::numba_cuda::device_array(rt, &shape, dtype, 'C', strides, stream)?;
            Ok(DeviceNDArray::value(view))
        },
    );
    da.set(
        "DeviceNDArray",
        Value::object(crate::py::value::ClassObj {
            module: "numba.cuda.cudadrv.devicearray".into(),
            name: "DeviceNDArray".into(),
            ctor: Some(ctor),
        }),
    );
    da.set("errmsg_contiguous_buffer", Value::str(ERR_CONTIGUOUS));
    da.def(
        Function,
        "is_contiguous",
        "ary",
        "Returns True iff `ary` is C-style contiguous while ignoring broadcasted and 1-sized dimensions.",
        |rt, b| {
            let (shape, strides, itemsize) = host_or_device_layout(rt, arg(&b, 0).unwrap_or(NONE))?;
            let mut expect = itemsize as isize;
            for (n, st) in shape.iter().zip(&strides).rev() {
                if *n > 1 && *st != 0 {
                    if *st != expect {
                        return Ok(Value::Bool(false));
                    }
                    expect *= *n as isize;
                }
            }
            Ok(Value::Bool(true))
        },
    );
    da.def(
        Function,
        "array_core",
        "ary",
        "Extract the repeated core of a broadcast array.",
        |_rt, b| {
            let v = b.value(0);
            let Value::Array(x) = &v else {
                return Ok(v);
            };
            if x.size() == 0 {
                return Ok(v);
            }
            let keep: Vec<usize> = (0..x.ndim()).filter(|&k| x.strides[k] != 0).collect();
            let mut core = x.clone();
            core.shape = keep.iter().map(|&k| x.shape[k]).collect();
            core.strides = keep.iter().map(|&k| x.strides[k]).collect();
            Ok(Value::Array(core))
        },
    );
    let to_device = m.get("to_device");
    da.def(
        Function,
        "auto_device",
        "obj, stream=0, copy=True, user_explicit=False",
        "Create a DeviceRecord or DeviceArray like obj and optionally copy data from host to device.",
        move |rt, b| {
            let obj = arg(&b, 0).cloned().unwrap_or(Value::None);
            if obj.downcast::<DeviceNDArray>().is_some() {
                return Ok(Value::tuple(vec![obj, Value::Bool(false)]));
            }
            let Some(to_device) = &to_device else {
                return Err(PyErr::internal("cuda.to_device is missing"));
            };
            let host = match obj {
                Value::Array(_) => obj,
                other => Value::Array(Box::new(crate::py::ndarray_attrs::to_ndarray(rt, &other)?)),
            };
            let mut args = Args::new(vec![host]);
            args.kw.push(("stream".into(), b.value(1)));
            let copy = rt.truthy(&b.value(2))?;
            args.kw.push(("copy".into(), Value::Bool(copy)));
            let d = rt.call(to_device, args)?;
            Ok(Value::tuple(vec![d, Value::Bool(true)]))
        },
    );
    da.def(
        Function,
        "verify_cuda_ndarray_interface",
        "obj",
        "Verify the CUDA ndarray interface for an obj",
        |rt, b| {
            let obj = b.value(0);
            for attr in ["shape", "strides", "dtype", "size"] {
                let has = match &obj {
                    Value::Array(_) => true,
                    Value::Object(o) => o.clone().get_attr(attr, rt)?.is_some(),
                    _ => false,
                };
                if !has {
                    return Err(PyErr::new(
                        "AttributeError",
                        format!("The object does not have the required attribute '{attr}'"),
                    ));
                }
            }
            Ok(Value::None)
        },
    );
    Value::Module(Rc::new(da))
}

/// Device memory a driver call can take: device arrays, `memalloc` results, mapped and
/// managed host arrays, CuPy arrays and `__cuda_array_interface__` objects.
fn device_memory(rt: &mut Runtime, v: &Value, what: &str) -> PyResult<DeviceView> {
    crate::numba_cuda::interop::view_of(rt, v)?.ok_or_else(|| {
        PyErr::type_error(format!(
            "{what}: expected device memory (a device array or Context.memalloc(...)), got '{}'",
            v.type_name()
        ))
    })
}

/// The first `nbytes` bytes of a C-contiguous device array, as a uint8 view.
fn device_bytes(rt: &mut Runtime, v: &Value, nbytes: usize, what: &str) -> PyResult<DeviceView> {
    let d = &device_memory(rt, v, what)?;
    let isz = d.dtype.itemsize();
    let total = d.shape.iter().product::<usize>() * isz;
    if !contiguous(&d.shape, &d.strides, isz, true) {
        return Err(PyErr::value_error(ERR_CONTIGUOUS));
    }
    if nbytes > total {
        return Err(PyErr::value_error(format!(
            "{what}: {nbytes} bytes requested, but the device memory holds {total}"
        )));
    }
    Ok(DeviceView {
        alloc: d.alloc.clone(),
        offset: d.offset,
        shape: vec![nbytes],
        strides: vec![1],
        dtype: DType::U8,
        stream: d.stream,
    })
}

/// The first `nbytes` bytes of a C-contiguous host array, as a uint8 view.
fn host_bytes(rt: &mut Runtime, v: &Value, nbytes: usize, what: &str) -> PyResult<NdArray> {
    let a = hostconv::host_array(rt, v)?;
    if !a.is_c_contiguous() {
        return Err(PyErr::value_error(ERR_CONTIGUOUS));
    }
    if nbytes > a.nbytes() {
        return Err(PyErr::value_error(format!(
            "{what}: {nbytes} bytes requested, but the host array holds {}",
            a.nbytes()
        )));
    }
    Ok(NdArray {
        buf: a.buf.clone(),
        offset: a.offset,
        shape: vec![nbytes],
        strides: vec![1],
        dtype: DType::U8,
        view: true,
    })
}

fn byte_count(v: Option<&Value>, what: &str) -> PyResult<usize> {
    let n = v
        .ok_or_else(|| PyErr::type_error(format!("{what}() missing the size argument")))?
        .as_index()?;
    usize::try_from(n).map_err(|_| PyErr::value_error(format!("{what}: negative size {n}")))
}

fn driver() -> Module {
    let drv = Module::new("numba.cuda.cudadrv.driver", "Streams, events, contexts.");
    for n in ["Stream", "Event", "Context", "Device"] {
        drv.set(n, class("numba.cuda.cudadrv.driver", n));
    }
    drv.def(
        Function,
        "host_to_device",
        "dst, src, size, stream=0",
        "Copy size bytes from a host array into device memory.",
        |rt, b| {
            let n = byte_count(arg(&b, 2), "host_to_device")?;
            let dst = device_bytes(rt, arg(&b, 0).unwrap_or(NONE), n, "host_to_device")?;
            let src = host_bytes(rt, arg(&b, 1).unwrap_or(NONE), n, "host_to_device")?;
            let s = parse_stream(rt, arg(&b, 3))?;
            api::htod(rt, &src, &dst, s, Transfer::explicit("host_to_device"))?;
            Ok(Value::None)
        },
    );
    drv.def(
        Function,
        "device_to_host",
        "dst, src, size, stream=0",
        "Copy size bytes from device memory into a host array.",
        |rt, b| {
            let n = byte_count(arg(&b, 2), "device_to_host")?;
            let dst = host_bytes(rt, arg(&b, 0).unwrap_or(NONE), n, "device_to_host")?;
            let src = device_bytes(rt, arg(&b, 1).unwrap_or(NONE), n, "device_to_host")?;
            let s = parse_stream(rt, arg(&b, 3))?;
            api::dtoh(rt, &src, &dst, s, Transfer::explicit("device_to_host"))?;
            Ok(Value::None)
        },
    );
    drv.def(
        Function,
        "device_to_device",
        "dst, src, size, stream=0",
        "Copy size bytes between device memories.",
        |rt, b| {
            let n = byte_count(arg(&b, 2), "device_to_device")?;
            let dst = device_bytes(rt, arg(&b, 0).unwrap_or(NONE), n, "device_to_device")?;
            let src = device_bytes(rt, arg(&b, 1).unwrap_or(NONE), n, "device_to_device")?;
            let s = parse_stream(rt, arg(&b, 3))?;
            api::dtod(rt, &src, &dst, s, Transfer::explicit("device_to_device"))?;
            if s == 0 {
                api::stream_synchronize(rt, 0)?;
            }
            Ok(Value::None)
        },
    );
    drv.def(
        Function,
        "device_memset",
        "dst, val, size, stream=0",
        "Memset on the device.",
        |rt, b| {
            let n = byte_count(arg(&b, 2), "device_memset")?;
            let dst = device_bytes(rt, arg(&b, 0).unwrap_or(NONE), n, "device_memset")?;
            let val = arg(&b, 1).unwrap_or(NONE).as_index()?;
            let s = parse_stream(rt, arg(&b, 3))?;
            let rec = Record {
                kind: LedgerKind::Memset,
                label: "device_memset".into(),
                explicit: true,
            };
            let byte = Scalar::U8(val as u8);
            let ticket = device(rt)?.backend().fill(region_of(&dst), byte, s, rec);
            if s == 0 {
                api::wait(rt, vec![ticket])?;
            }
            Ok(Value::None)
        },
    );
    drv.def(
        Function,
        "device_memory_size",
        "devmem",
        "Check the memory size of the device memory.",
        |rt, b| {
            let v = arg(&b, 0).unwrap_or(NONE);
            let d = device_memory(rt, v, "device_memory_size")?;
            let (lo, hi) = crate::device::copy::extent(&d.shape, &d.strides, d.dtype.itemsize());
            Ok(Value::Int((hi - lo) as i64))
        },
    );
    drv
}

fn devices(m: &Module) -> Module {
    let devs = Module::new("numba.cuda.cudadrv.devices", "The devices of this process.");
    let current = m.get("current_context");
    devs.def(
        Function,
        "get_context",
        "devnum=None",
        "Get the current device or use a device by device number, and return the CUDA context.",
        move |rt, b| match &current {
            Some(f) => rt.call(f, Args::new(vec![b.value(0)])),
            None => Err(PyErr::internal("cuda.current_context is missing")),
        },
    );
    if let Some(g) = m.get("gpus") {
        devs.set("gpus", g);
    }
    devs
}
