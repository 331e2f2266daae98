//! Pinned, mapped and managed host memory, and the `cuda.pinned` / `cuda.mapped` /
//! `cuda.defer_cleanup` context managers.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::arrays::buffer::Buffer;
use crate::arrays::dtype::DType;
use crate::arrays::operator::BinOp;
use crate::arrays::NdArray;
use crate::device::backend::Device;
use crate::device::cuda::pinned;
use crate::device::state::{self, HostKind};
use crate::numba_cuda::devicearray::DeviceNDArray;
use crate::numba_cuda::interop::host_view;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

/// A zeroed host array of `shape`, in C or F order (`strides=` when given).
pub fn host_alloc(
    shape: &[usize],
    dtype: DType,
    order: char,
    strides: Option<Vec<isize>>,
) -> PyResult<NdArray> {
    host_alloc_with(shape, dtype, order, strides, |bytes| {
        Buffer::zeroed(bytes).map_err(|e| {
            PyErr::memory_error(format!(
                "Unable to allocate {} bytes of page-locked host memory",
                e.bytes
            ))
        })
    })
}

/// [`host_alloc`] with the memory from `make(bytes)`.
fn host_alloc_with(
    shape: &[usize],
    dtype: DType,
    order: char,
    strides: Option<Vec<isize>>,
    make: impl FnOnce(usize) -> PyResult<Buffer>,
) -> PyResult<NdArray> {
    crate::device::api::checked_nbytes(shape, dtype)?;
    let bytes = shape.iter().product::<usize>() * dtype.itemsize();
    let mut a = NdArray {
        buf: Arc::new(make(bytes)?),
        offset: 0,
        shape: shape.to_vec(),
        strides: NdArray::c_strides(shape, dtype.itemsize()),
        dtype,
        view: false,
    };
    if let Some(s) = strides {
        if s.len() != shape.len() {
            return Err(PyErr::value_error(
                "strides must have one entry per dimension",
            ));
        }
        let (lo, hi) = crate::device::copy::extent(shape, &s, dtype.itemsize());
        if lo < 0 || hi as usize > a.buf.len() {
            return Err(PyErr::value_error(
                "strides reach outside the array's memory",
            ));
        }
        a.strides = s;
    } else if order == 'F' {
        a.strides = NdArray::f_strides(shape, dtype.itemsize());
    }
    Ok(a)
}

/// Allocate host memory of a kind and register it. On the CUDA device pinned and mapped
/// memory is page-locked by the driver (see [`crate::device::cuda::pinned`]); on the CPU
/// device, and for managed memory, it is ordinary host memory.
pub fn special_array(
    rt: &mut Runtime,
    shape: &[usize],
    dtype: DType,
    order: char,
    strides: Option<Vec<isize>>,
    kind: HostKind,
) -> PyResult<Value> {
    let gpu = match state::device(rt)? {
        Device::Cuda(b) if kind != HostKind::Managed => Some(b.dev.clone()),
        _ => None,
    };
    let a = match gpu {
        Some(dev) => host_alloc_with(shape, dtype, order, strides, |bytes| {
            pinned::alloc(&dev, bytes, kind == HostKind::Mapped).map_err(|e| {
                PyErr::new("CudaAPIError", e.to_string()).with_hint(format!(
                    "The driver could not page-lock {bytes} bytes of host memory. Free pinned or mapped arrays you no longer need, or use an ordinary NumPy array (np.empty) instead."
                ))
            })
        })?,
        None => host_alloc(shape, dtype, order, strides)?,
    };
    state::register_host(rt, &a.buf, kind);
    Ok(Value::Array(Box::new(a)))
}

/// The error for using a `cuda.pinned(...)` / `cuda.mapped(...)` object as an array: the
/// Python error CPython would raise, plus a hint saying what the object is.
fn ctx_misuse(what: &str, err: PyErr) -> PyErr {
    err.with_hint(format!(
        "cuda.{what}(...) is a context manager, not an array: use it as `with cuda.{what}(arr):` around the transfers of an existing array, or allocate page-locked memory directly with cuda.{}_array(shape, dtype).",
        if what == "mapped" { "mapped" } else { "pinned" }
    ))
}

const CTX: &str = "_GeneratorContextManager";

/// `cuda.pinned(*arrays)` / `cuda.mapped(*arrays, stream=0)`.
pub struct HostCtx {
    pub arrays: Vec<NdArray>,
    pub kind: HostKind,
    pub stream: u64,
    /// Registrations made on enter (undone on exit).
    added: RefCell<Vec<NdArray>>,
}

impl HostCtx {
    pub fn new(arrays: Vec<NdArray>, kind: HostKind, stream: u64) -> HostCtx {
        HostCtx {
            arrays,
            kind,
            stream,
            added: RefCell::new(Vec::new()),
        }
    }
    fn what(&self) -> &'static str {
        if self.kind == HostKind::Mapped {
            "mapped"
        } else {
            "pinned"
        }
    }
}

impl Object for HostCtx {
    fn type_name(&self) -> String {
        "_GeneratorContextManager".into()
    }
    fn module_name(&self) -> String {
        "contextlib".into()
    }
    fn enter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Value> {
        for a in &self.arrays {
            if state::host_kind(rt, &a.buf).is_none() {
                state::register_host(rt, &a.buf, self.kind);
                self.added.borrow_mut().push(a.clone());
            }
        }
        if self.kind != HostKind::Mapped {
            return Ok(Value::None);
        }
        let views: Vec<Value> = self
            .arrays
            .iter()
            .map(|a| {
                let mut v = host_view(a);
                v.stream = self.stream;
                DeviceNDArray::value(v)
            })
            .collect();
        Ok(if views.len() == 1 {
            views.into_iter().next().unwrap_or(Value::None)
        } else {
            Value::list(views)
        })
    }
    fn exit(&self, rt: &mut Runtime, _error: Option<&PyErr>) -> PyResult<bool> {
        for a in self.added.borrow_mut().drain(..) {
            state::unregister_host(rt, &a.buf);
        }
        Ok(false)
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        if name.starts_with("__") {
            return Ok(None);
        }
        Err(ctx_misuse(
            self.what(),
            PyErr::attribute_error(format!("'{CTX}' object has no attribute '{name}'")),
        ))
    }
    fn get_item(self: Rc<Self>, _key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        Err(ctx_misuse(
            self.what(),
            PyErr::type_error(format!("'{CTX}' object is not subscriptable")),
        ))
    }
    fn set_item(&self, _key: &Value, _value: Value, _rt: &mut Runtime) -> PyResult<()> {
        Err(ctx_misuse(
            self.what(),
            PyErr::type_error(format!("'{CTX}' object does not support item assignment")),
        ))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Err(ctx_misuse(
            self.what(),
            PyErr::type_error(format!("object of type '{CTX}' has no len()")),
        ))
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        o: &Value,
        r: bool,
        _rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        let (a, b) = if r {
            (o.type_name(), CTX.to_string())
        } else {
            (CTX.to_string(), o.type_name())
        };
        Err(ctx_misuse(
            self.what(),
            PyErr::type_error(format!(
                "unsupported operand type(s) for {}: '{a}' and '{b}'",
                op.symbol()
            )),
        ))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The misuse error when a `cuda.pinned(...)` object is passed where an array is expected.
pub fn check_not_ctx(v: &Value) -> PyResult<()> {
    match v.downcast::<HostCtx>() {
        Some(c) => Err(ctx_misuse(
            c.what(),
            PyErr::type_error(format!(
                "cuda.{}(...) returned a context manager where an array was expected",
                c.what()
            )),
        )),
        None => Ok(()),
    }
}

/// `with cuda.defer_cleanup():`
pub struct DeferCleanup;

impl Object for DeferCleanup {
    fn type_name(&self) -> String {
        "_GeneratorContextManager".into()
    }
    fn module_name(&self) -> String {
        "contextlib".into()
    }
    fn enter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Value> {
        let dev = state::device(rt)?;
        dev.shared().defer_depth.fetch_add(1, Ordering::SeqCst);
        Ok(Value::None)
    }
    fn exit(&self, rt: &mut Runtime, _error: Option<&PyErr>) -> PyResult<bool> {
        if let Some(shared) = state::shared(rt) {
            let prev = shared.defer_depth.fetch_sub(1, Ordering::SeqCst);
            if prev <= 1 {
                shared.defer_depth.store(0, Ordering::SeqCst);
                shared.flush_deferred();
            }
        }
        Ok(false)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
