//! Interoperability: which values are device memory, the `__cuda_array_interface__` dict,
//! and pointers back to allocations (so CuPy, Numba and foreign CAI objects share memory).

use std::rc::Rc;
use std::sync::Arc;

use crate::arrays::dtype::DType;
use crate::arrays::NdArray;
use crate::device::cpu::next_alloc_id;
use crate::device::state::{self, HostKind};
use crate::device::{DeviceView, StreamId};
use crate::kernel::abi::{Allocation, Storage};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Dict, Value};

/// A device view over host memory that the device may use directly (mapped, managed).
pub fn host_view(a: &NdArray) -> DeviceView {
    DeviceView {
        alloc: Arc::new(Allocation {
            id: next_alloc_id(),
            bytes: 0,
            storage: Storage::Cpu(a.buf.clone()),
            release: crate::device::cpu::release_allocation,
        }),
        offset: a.offset,
        shape: a.shape.clone(),
        strides: a.strides.clone(),
        dtype: a.dtype,
        stream: 0,
    }
}

/// Finds the device view of an object of another library's device-array type.
pub type ViewKind = fn(&dyn std::any::Any) -> Option<DeviceView>;

fn view_kinds() -> &'static std::sync::RwLock<Vec<ViewKind>> {
    static KINDS: std::sync::OnceLock<std::sync::RwLock<Vec<ViewKind>>> =
        std::sync::OnceLock::new();
    KINDS.get_or_init(Default::default)
}

/// Let Numba's functions take another library's device arrays (CuPy's) as their own
/// memory: that library registers how to find the view when its module is built.
pub fn register_view_kind(kind: ViewKind) {
    let mut kinds = view_kinds().write().unwrap_or_else(|e| e.into_inner());
    if !kinds.iter().any(|k| std::ptr::fn_addr_eq(*k, kind)) {
        kinds.push(kind);
    }
}

/// The view of an object of a registered device-array type (no side effects).
pub fn other_kinds_view(any: &dyn std::any::Any) -> Option<DeviceView> {
    let kinds = view_kinds().read().unwrap_or_else(|e| e.into_inner());
    kinds.iter().find_map(|k| k(any))
}

/// The device view behind a value: DeviceNDArray, CuPy arrays, mapped/managed arrays and
/// any object with `__cuda_array_interface__`. Ok(None) for everything else.
pub fn view_of(rt: &mut Runtime, v: &Value) -> PyResult<Option<DeviceView>> {
    match v {
        Value::Object(o) => {
            let any = o.as_any();
            if let Some(d) = any.downcast_ref::<crate::numba_cuda::devicearray::DeviceNDArray>() {
                state::check_not_freed(rt, d.view.alloc.id)?;
                return Ok(Some(d.view.clone()));
            }
            if let Some(d) = any.downcast_ref::<crate::numba_cuda::device_records::DeviceRecords>()
            {
                state::check_not_freed(rt, d.inner.view.alloc.id)?;
                return Ok(Some(d.inner.view.clone()));
            }
            if let Some(view) = other_kinds_view(any) {
                // A CuPy view of a Numba array shares its allocation, and so its `.free()`.
                state::check_not_freed(rt, view.alloc.id)?;
                return Ok(Some(view));
            }
            if let Some(s) = any.downcast_ref::<crate::numba_cuda::smart::SmartArray>() {
                return s.gpu_view(rt).map(Some);
            }
            // Foreign objects exposing the interface.
            match o.clone().get_attr("__cuda_array_interface__", rt) {
                Ok(Some(Value::Dict(ref d))) => {
                    let d = d.borrow().clone();
                    from_cai(rt, &d).map(Some)
                }
                _ => Ok(None),
            }
        }
        Value::Array(a) => match state::host_kind(rt, &a.buf) {
            Some(HostKind::Mapped) | Some(HostKind::Managed) => Ok(Some(host_view(a))),
            _ => Ok(None),
        },
        _ => Ok(None),
    }
}

fn ints(v: &[usize]) -> Value {
    Value::tuple(v.iter().map(|&n| Value::Int(n as i64)).collect())
}

fn data_ptr(view: &DeviceView) -> i64 {
    if view.size() == 0 {
        0
    } else {
        (crate::device::pointers::base_ptr(&view.alloc) + view.offset) as i64
    }
}

fn strides_value(view: &DeviceView) -> Value {
    if crate::arrays::contiguous(&view.shape, &view.strides, view.dtype.itemsize(), true) {
        Value::None
    } else {
        Value::tuple(view.strides.iter().map(|&s| Value::Int(s as i64)).collect())
    }
}

/// Numba's `__cuda_array_interface__` (v3): shape, strides, data, typestr, stream, version.
pub fn numba_cai(view: &DeviceView) -> Value {
    let mut d = Dict::default();
    d.insert_str("shape", ints(&view.shape));
    d.insert_str("strides", strides_value(view));
    d.insert_str(
        "data",
        Value::tuple(vec![Value::Int(data_ptr(view)), Value::Bool(false)]),
    );
    d.insert_str("typestr", Value::str(&view.dtype.typestr()));
    d.insert_str(
        "stream",
        if view.stream == 0 {
            Value::None
        } else {
            Value::Int(view.stream as i64)
        },
    );
    d.insert_str("version", Value::Int(3));
    Value::Dict(Rc::new(std::cell::RefCell::new(d)))
}

/// CuPy's `__cuda_array_interface__` (v3): shape, typestr, descr, stream, version,
/// strides, data.
pub fn cupy_cai(view: &DeviceView) -> Value {
    let mut d = Dict::default();
    d.insert_str("shape", ints(&view.shape));
    d.insert_str("typestr", Value::str(&view.dtype.typestr()));
    d.insert_str(
        "descr",
        Value::list(vec![Value::tuple(vec![
            Value::str(""),
            Value::str(&view.dtype.typestr()),
        ])]),
    );
    // CuPy reports the legacy default stream (1) when on the default stream.
    d.insert_str(
        "stream",
        Value::Int(if view.stream == 0 {
            1
        } else {
            view.stream as i64
        }),
    );
    d.insert_str("version", Value::Int(3));
    d.insert_str("strides", strides_value(view));
    d.insert_str(
        "data",
        Value::tuple(vec![Value::Int(data_ptr(view)), Value::Bool(false)]),
    );
    Value::Dict(Rc::new(std::cell::RefCell::new(d)))
}

fn usize_list(v: &Value, what: &str) -> PyResult<Vec<isize>> {
    let items: Vec<Value> = match v {
        Value::Tuple(t) => t.to_vec(),
        Value::List(l) => l.borrow().clone(),
        _ => {
            return Err(PyErr::type_error(format!(
                "__cuda_array_interface__['{what}'] must be a tuple of ints"
            )))
        }
    };
    items
        .iter()
        .map(|x| x.as_index().map(|n| n as isize))
        .collect()
}

/// A view from a CAI dict (`cuda.from_cuda_array_interface`).
pub fn from_cai(rt: &mut Runtime, d: &Dict) -> PyResult<DeviceView> {
    if let Some(m) = d.get_str("mask") {
        if !m.is_none() {
            return Err(PyErr::not_implemented("Masked arrays are not supported"));
        }
    }
    let shape: Vec<usize> = usize_list(
        d.get_str("shape")
            .ok_or_else(|| PyErr::key_error("'shape'"))?,
        "shape",
    )?
    .into_iter()
    .map(|n| n.max(0) as usize)
    .collect();
    let typestr = d
        .get_str("typestr")
        .and_then(|v| v.as_str())
        .ok_or_else(|| PyErr::key_error("'typestr'"))?;
    let dtype = DType::parse(typestr)
        .ok_or_else(|| PyErr::type_error(format!("unsupported typestr {typestr:?}")))?;
    crate::device::api::checked_nbytes(&shape, dtype)?;
    let strides = match d.get_str("strides") {
        None | Some(Value::None) => NdArray::c_strides(&shape, dtype.itemsize()),
        Some(v) => usize_list(v, "strides")?,
    };
    if strides.len() != shape.len() {
        return Err(PyErr::value_error(
            "__cuda_array_interface__ has a different number of strides than dimensions",
        ));
    }
    let ptr = match d.get_str("data") {
        Some(Value::Tuple(t)) if !t.is_empty() => t[0].as_index()? as usize,
        _ => return Err(PyErr::key_error("'data'")),
    };
    let stream: StreamId = match d.get_str("stream") {
        None | Some(Value::None) => 0,
        Some(v) => match v.as_index()? {
            0 => {
                return Err(PyErr::value_error(
                    "Zero is not a valid stream in __cuda_array_interface__ (use 1 for the legacy default stream)",
                ))
            }
            1 | 2 => 0,
            n => n as StreamId,
        },
    };
    let size: usize = shape.iter().product();
    if size == 0 || ptr == 0 {
        let alloc = Arc::new(Allocation {
            id: next_alloc_id(),
            bytes: 0,
            storage: Storage::Cpu(Arc::new(
                // invariant: an empty buffer allocates nothing, so Buffer::zeroed(0) is always Ok
                crate::arrays::buffer::Buffer::zeroed(0).expect("empty buffer"),
            )),
            release: crate::device::cpu::release_allocation,
        });
        return Ok(DeviceView {
            alloc,
            offset: 0,
            shape,
            strides,
            dtype,
            stream,
        });
    }
    let (alloc, offset) = crate::device::pointers::resolve_ptr(rt, ptr).ok_or_else(|| {
        PyErr::value_error(format!(
            "pointer {ptr:#x} in __cuda_array_interface__ is not memory of nbcuda's device"
        ))
        .with_hint("Only arrays made by cuda.* or cupy.* in this session can be shared.")
    })?;
    let (lo, hi) = crate::device::copy::extent(&shape, &strides, dtype.itemsize());
    if (offset as isize).saturating_add(lo) < 0
        || (offset as isize).saturating_add(hi) as usize > alloc.bytes
    {
        return Err(PyErr::value_error(
            "__cuda_array_interface__ describes memory outside its allocation",
        ));
    }
    state::check_not_freed(rt, alloc.id)?;
    Ok(DeviceView {
        alloc,
        offset,
        shape,
        strides,
        dtype,
        stream,
    })
}
