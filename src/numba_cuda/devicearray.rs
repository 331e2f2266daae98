//! `DeviceNDArray`: Numba's device array object over a [`DeviceView`].

use std::any::Any;
use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::arrays::operator::UnaryOp;
use crate::arrays::{contiguous, NdArray};
use crate::device::api::{self, shape_str, Transfer};
use crate::device::backend::Record;
use crate::device::copy::{extent, region_of};
use crate::device::ledger::LedgerKind;
use crate::device::state::{self, device};
use crate::device::{DeviceView, StreamId};
use crate::kernel::abi::{ArgMem, ArrayArg};
use crate::numba_cuda::stream_objects::Stream;
use crate::numba_cuda::view_index::{basic_index, broadcast_to, Indexed, Layout};
use crate::numba_cuda::{hostconv, viewops};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

pub const ERR_CONTIGUOUS: &str = "Array contains non-contiguous buffer and cannot be transferred as a single memory region. Please ensure contiguous buffer with numpy .ascontiguousarray()";

pub struct DeviceNDArray {
    pub view: DeviceView,
}

impl Drop for DeviceNDArray {
    fn drop(&mut self) {
        crate::device::deferred_frees::owner_dropped(&self.view.alloc);
    }
}

impl DeviceNDArray {
    pub fn value(view: DeviceView) -> Value {
        Value::object(DeviceNDArray { view })
    }
}

pub fn ints(v: &[usize]) -> Value {
    Value::tuple(v.iter().map(|&n| Value::Int(n as i64)).collect())
}

pub fn istrides(v: &[isize]) -> Value {
    Value::tuple(v.iter().map(|&n| Value::Int(n as i64)).collect())
}

/// The stream a call uses: the given one, else the array's bound stream.
fn call_stream(rt: &mut Runtime, given: Option<&Value>, view: &DeviceView) -> PyResult<StreamId> {
    let s = crate::numba_cuda::stream_objects::parse_stream(rt, given)?;
    Ok(if s == 0 { view.stream } else { s })
}

pub fn flags_value(view: &DeviceView) -> Value {
    let isz = view.dtype.itemsize();
    crate::py::flags::Flags::value(
        contiguous(&view.shape, &view.strides, isz, true),
        contiguous(&view.shape, &view.strides, isz, false),
        true,
        None,
    )
}

/// `d._numba_type_`: the Numba array type a kernel sees for this array, e.g.
/// `array(float64, 2d, F)`; the layout is C or F when the memory is contiguous in that
/// order (C first, as Numba checks), else A.
struct ArrayTypeOf {
    dtype: crate::arrays::dtype::DType,
    ndim: usize,
    layout: &'static str,
}

impl Object for ArrayTypeOf {
    fn type_name(&self) -> String {
        "Array".into()
    }
    fn module_name(&self) -> String {
        "numba.core.types.npytypes".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let name = crate::kernel::types::numba_name(self.dtype);
        Ok(format!("array({name}, {}d, {})", self.ndim, self.layout))
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "layout" => Some(Value::str(self.layout)),
            "ndim" => Some(Value::Int(self.ndim as i64)),
            // The NumPy dtype (Numba's is its scalar type object, which lives above this
            // layer; both print as float64 and compare equal to np.float64).
            "dtype" => Some(Value::DType(self.dtype)),
            "name" => Some(Value::str(&self.repr(rt)?)),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn numba_type_of(view: &DeviceView) -> Value {
    let isz = view.dtype.itemsize();
    let layout = if contiguous(&view.shape, &view.strides, isz, true) {
        "C"
    } else if contiguous(&view.shape, &view.strides, isz, false) {
        "F"
    } else {
        "A"
    };
    Value::object(ArrayTypeOf {
        dtype: view.dtype,
        ndim: view.shape.len(),
        layout,
    })
}

fn is_contig(view: &DeviceView) -> bool {
    let isz = view.dtype.itemsize();
    contiguous(&view.shape, &view.strides, isz, true)
        || contiguous(&view.shape, &view.strides, isz, false)
}

/// `copy_to_host(ary=None, stream=0)`.
pub fn copy_to_host(
    rt: &mut Runtime,
    view: &DeviceView,
    ary: Option<&Value>,
    stream: Option<&Value>,
) -> PyResult<Value> {
    state::check_not_freed(rt, view.alloc.id)?;
    if view.strides.iter().any(|&s| s < 0) {
        return Err(PyErr::not_implemented(format!(
            "D->H copy not implemented for negative strides: {}",
            match view.strides.len() {
                1 => format!("({},)", view.strides[0]),
                _ => format!(
                    "({})",
                    view.strides
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        )));
    }
    let s = call_stream(rt, stream, view)?;
    match ary {
        None | Some(Value::None) => {
            // Same shape, dtype and strides: the view's extent is copied as bytes.
            let isz = view.dtype.itemsize();
            let (lo, hi) = extent(&view.shape, &view.strides, isz);
            let len = (hi - lo) as usize;
            let host = NdArray::zeros(&[len], crate::arrays::dtype::DType::U8).map_err(|e| {
                PyErr::memory_error(format!("Unable to allocate {} bytes on the host", e.bytes))
            })?;
            let src = ArrayArg {
                mem: ArgMem::Device(view.alloc.clone()),
                offset: (view.offset as isize + lo) as usize,
                shape: vec![len],
                strides: vec![1],
                dtype: crate::arrays::dtype::DType::U8,
            };
            let dst = crate::device::copy::host_region(&host);
            let rec = Record {
                kind: LedgerKind::DtoH,
                label: "copy_to_host".into(),
                explicit: true,
            };
            let t = device(rt)?.backend().copy(src, dst, s, rec);
            // A new array is ordinary pageable memory: the copy completes before returning,
            // even on a stream (CUDA's rule for pageable destinations).
            api::wait(rt, vec![t])?;
            Ok(Value::Array(Box::new(NdArray {
                buf: host.buf,
                offset: (-lo) as usize,
                shape: view.shape.clone(),
                strides: view.strides.clone(),
                dtype: view.dtype,
                view: false,
            })))
        }
        Some(Value::Array(a)) => {
            if a.dtype != view.dtype {
                return Err(PyErr::type_error(format!(
                    "incompatible dtype: {} vs. {}",
                    view.dtype.name(),
                    a.dtype.name()
                )));
            }
            let sq = |s: &[usize]| s.iter().copied().filter(|&n| n != 1).collect::<Vec<_>>();
            // Different shapes that agree without length-1 axes are accepted when the host
            // array is contiguous (so it can be seen with the device array's shape).
            if sq(&a.shape) != sq(&view.shape) || (a.shape != view.shape && !a.is_c_contiguous()) {
                return Err(PyErr::value_error(format!(
                    "incompatible shape: {} vs. {}",
                    shape_str(&view.shape),
                    shape_str(&a.shape)
                )));
            }
            let target = NdArray {
                shape: view.shape.clone(),
                strides: if a.shape == view.shape {
                    a.strides.clone()
                } else {
                    NdArray::c_strides(&view.shape, a.dtype.itemsize())
                },
                ..a.as_ref().clone()
            };
            api::dtoh(rt, view, &target, s, Transfer::explicit("copy_to_host"))?;
            Ok(Value::Array(a.clone()))
        }
        Some(other) => Err(PyErr::type_error(format!(
            "copy_to_host() needs a NumPy array to copy into, not {}",
            other.type_name()
        ))),
    }
}

/// `copy_to_device(ary, stream=0)`.
pub fn copy_to_device(
    rt: &mut Runtime,
    view: &DeviceView,
    ary: &Value,
    stream: Option<&Value>,
) -> PyResult<()> {
    state::check_not_freed(rt, view.alloc.id)?;
    if view.size() == 0 {
        return Ok(());
    }
    // As Numba's `array_core`, broadcast (0-stride) axes hold one element: the copy goes
    // to (and comes from) that core only.
    let view = &DeviceView {
        shape: core_shape(&view.shape, &view.strides),
        ..view.clone()
    };
    if !is_contig(view) {
        return Err(PyErr::value_error(ERR_CONTIGUOUS));
    }
    let s = call_stream(rt, stream, view)?;
    if let Some(src) = crate::numba_cuda::interop::view_of(rt, ary)? {
        if !is_contig(&src) {
            return Err(PyErr::value_error(ERR_CONTIGUOUS));
        }
        if src.strides != view.strides && src.size() > 1 {
            return Err(PyErr::value_error(format!(
                "incompatible strides: {} vs. {}",
                fmt_strides(&view.strides),
                fmt_strides(&src.strides)
            )));
        }
        return api::dtod(rt, &src, view, s, Transfer::explicit("copy_to_device"));
    }
    let mut host = hostconv::host_array(rt, ary)?;
    host.shape = core_shape(&host.shape, &host.strides);
    // Numba makes a host copy in the device core's order when the layouts differ.
    let isz = host.dtype.itemsize();
    let c_order = contiguous(&view.shape, &view.strides, view.dtype.itemsize(), true);
    if !contiguous(&host.shape, &host.strides, isz, c_order) {
        host = ordered_copy(&host, c_order)?;
    }
    // Numba compares shapes with length-1 axes squeezed out.
    let sq = |s: &[usize]| s.iter().copied().filter(|&n| n != 1).collect::<Vec<_>>();
    if host.shape != view.shape && sq(&host.shape) == sq(&view.shape) && host.is_c_contiguous() {
        host = NdArray {
            shape: view.shape.clone(),
            strides: NdArray::c_strides(&view.shape, host.dtype.itemsize()),
            ..host
        };
    }
    if host.dtype != view.dtype {
        return Err(PyErr::type_error(format!(
            "incompatible dtype: {} vs. {}",
            view.dtype.name(),
            host.dtype.name()
        )));
    }
    api::htod(rt, &host, view, s, Transfer::explicit("copy_to_device"))
}

/// The shape with every broadcast (0-stride) axis cut to one element.
fn core_shape(shape: &[usize], strides: &[isize]) -> Vec<usize> {
    shape
        .iter()
        .zip(strides)
        .map(|(&n, &st)| if st == 0 { n.min(1) } else { n })
        .collect()
}

/// A contiguous copy of `a` in C (`c_order`) or Fortran order.
fn ordered_copy(a: &NdArray, c_order: bool) -> PyResult<NdArray> {
    if c_order {
        return Ok(crate::arrays::elem::contiguous_copy(a)?);
    }
    let t = crate::py::ndarray_shape::transpose(a, None)?;
    let c = crate::arrays::elem::contiguous_copy(&t)?;
    crate::py::ndarray_shape::transpose(&c, None)
}

fn fmt_strides(s: &[isize]) -> String {
    match s.len() {
        1 => format!("({},)", s[0]),
        _ => format!(
            "({})",
            s.iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `d[key]`: a NumPy scalar (a one-element D->H copy) or a view.
pub fn getitem(rt: &mut Runtime, view: &DeviceView, key: &Value) -> PyResult<Indexed> {
    state::check_not_freed(rt, view.alloc.id)?;
    basic_index(
        &Layout {
            offset: view.offset,
            shape: view.shape.clone(),
            strides: view.strides.clone(),
        },
        key,
    )
}

/// Read one element of a device view synchronously (as Numba does for `d[i]`).
pub fn read_element(rt: &mut Runtime, view: &DeviceView, at: usize) -> PyResult<Value> {
    let one = DeviceView {
        offset: at,
        shape: vec![],
        strides: vec![],
        ..view.clone()
    };
    let host = NdArray::zeros(&[], view.dtype)
        .map_err(|_| PyErr::memory_error("Unable to allocate one element"))?;
    api::dtoh(rt, &one, &host, view.stream, Transfer::explicit("getitem"))?;
    api::stream_synchronize(rt, view.stream)?;
    Ok(Value::Scalar(crate::device::copy::read_scalar(
        &ArgMem::Host(host.buf.clone()),
        0,
        view.dtype,
    )))
}

/// `d[key] = value` with broadcasting; synchronous unless a stream is bound or given.
pub fn setitem(
    rt: &mut Runtime,
    view: &DeviceView,
    key: &Value,
    value: &Value,
    stream: Option<&Value>,
) -> PyResult<()> {
    let target = match getitem(rt, view, key)? {
        Indexed::Element(at) => DeviceView {
            offset: at,
            shape: vec![],
            strides: vec![],
            ..view.clone()
        },
        Indexed::View(l) => DeviceView {
            offset: l.offset,
            shape: l.shape,
            strides: l.strides,
            ..view.clone()
        },
    };
    let s = call_stream(rt, stream, view)?;
    let rec = Record {
        kind: LedgerKind::HtoD,
        label: "setitem".into(),
        explicit: true,
    };
    let ticket = if let Some(src) = crate::numba_cuda::interop::view_of(rt, value)? {
        let strides = broadcast_to(&src.shape, &src.strides, &target.shape)?;
        let src = ArrayArg {
            shape: target.shape.clone(),
            strides,
            ..region_of(&src)
        };
        let rec = Record {
            kind: LedgerKind::DtoD,
            ..rec
        };
        device(rt)?.backend().copy(src, region_of(&target), s, rec)
    } else {
        let host = hostconv::host_array(rt, value)?;
        let strides = broadcast_to(&host.shape, &host.strides, &target.shape)?;
        if host.shape.iter().product::<usize>() == 1 {
            // One value everywhere (`d[:] = 1`): a device-side fill, at memset speed,
            // instead of a broadcast copy that converts element by element.
            let one = crate::device::copy::read_scalar(
                &ArgMem::Host(host.buf.clone()),
                host.offset,
                host.dtype,
            );
            let ticket = device(rt)?.backend().fill(region_of(&target), one, s, rec);
            if s == 0 {
                api::wait(rt, vec![ticket])?;
            }
            return Ok(());
        }
        let src = ArrayArg {
            mem: ArgMem::Host(host.buf.clone()),
            offset: host.offset,
            shape: target.shape.clone(),
            strides,
            dtype: host.dtype,
        };
        device(rt)?.backend().copy(src, region_of(&target), s, rec)
    };
    if s == 0 {
        api::wait(rt, vec![ticket])?;
    }
    Ok(())
}

/// CPython's operator TypeError, saying why: real Numba device arrays have no arithmetic.
fn no_arithmetic(what: String) -> PyErr {
    PyErr::type_error(format!(
        "{what} (device arrays have no arithmetic operators on real Numba)"
    ))
    .with_hint(
        "Do the arithmetic in a kernel (@vectorize(..., target='cuda') or @cuda.jit), use CuPy arrays (cp.asarray(d)), or copy to the host with .copy_to_host() first.",
    )
}

fn short_type(v: &Value) -> String {
    v.type_name().rsplit('.').next().unwrap_or("").to_string()
}

impl Object for DeviceNDArray {
    fn hashed_by_identity(&self) -> bool {
        true
    }
    fn type_name(&self) -> String {
        "DeviceNDArray".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.cudadrv.devicearray".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        let v = &self.view;
        if !matches!(name, "free" | "__class__") {
            state::check_not_freed(rt, v.alloc.id)?;
        }
        Ok(Some(match name {
            "shape" => ints(&v.shape),
            "strides" => istrides(&v.strides),
            "dtype" => Value::DType(v.dtype),
            "size" => Value::Int(v.size() as i64),
            "ndim" => Value::Int(v.shape.len() as i64),
            "itemsize" => Value::Int(v.dtype.itemsize() as i64),
            "nbytes" => Value::Int((v.size() * v.dtype.itemsize()) as i64),
            "alloc_size" => {
                let (lo, hi) = extent(&v.shape, &v.strides, v.dtype.itemsize());
                Value::Int((hi - lo) as i64)
            }
            "flags" => flags_value(v),
            "_numba_type_" => numba_type_of(v),
            "stream" => Stream::bound(v.stream),
            "__cuda_memory__" | "__cuda_ndarray__" => Value::Bool(true),
            "__cuda_array_interface__" => crate::numba_cuda::interop::numba_cai(v),
            "T" => viewops::transpose(rt, v, None)?,
            _ => return crate::numba_cuda::devicemethods::method(&self, name),
        }))
    }
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        match getitem(rt, &self.view, key)? {
            Indexed::Element(at) => read_element(rt, &self.view, at),
            Indexed::View(l) => Ok(DeviceNDArray::value(DeviceView {
                offset: l.offset,
                shape: l.shape,
                strides: l.strides,
                ..self.view.clone()
            })),
        }
    }
    fn set_item(&self, key: &Value, value: Value, rt: &mut Runtime) -> PyResult<()> {
        setitem(rt, &self.view, key, &value, None)
    }
    fn len(&self, rt: &mut Runtime) -> PyResult<Option<usize>> {
        state::check_not_freed(rt, self.view.alloc.id)?;
        match self.view.shape.first() {
            Some(&n) => Ok(Some(n)),
            None => Err(PyErr::type_error("len() of unsized object")),
        }
    }
    fn iter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        let n = match self.len(rt)? {
            Some(n) => n,
            None => return Ok(None),
        };
        let mut out = crate::arrays::alloc::vec_with_capacity(n, "a list")?;
        for i in 0..n {
            out.push(self.clone().get_item(&Value::Int(i as i64), rt)?);
        }
        Ok(Some(out))
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        reflected: bool,
        _rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        let (a, b) = if reflected {
            (short_type(other), "DeviceNDArray".to_string())
        } else {
            ("DeviceNDArray".to_string(), short_type(other))
        };
        match op {
            BinOp::Eq | BinOp::Ne => Ok(None),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Err(no_arithmetic(format!(
                "'{}' not supported between instances of '{a}' and '{b}'",
                op.symbol()
            ))),
            _ => Err(no_arithmetic(format!(
                "unsupported operand type(s) for {}: '{a}' and '{b}'",
                op.symbol()
            ))),
        }
    }
    fn unary_op(self: Rc<Self>, op: UnaryOp, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let sym = match op {
            UnaryOp::Neg => "-",
            UnaryOp::Pos => "+",
            UnaryOp::Invert => "~",
        };
        Err(no_arithmetic(format!(
            "bad operand type for unary {sym}: 'DeviceNDArray'"
        )))
    }
    fn dir(&self) -> Vec<String> {
        crate::numba_cuda::devicemethods::METHODS
            .methods
            .iter()
            .map(|m| &m.name)
            .chain(
                [
                    "shape",
                    "strides",
                    "dtype",
                    "size",
                    "ndim",
                    "itemsize",
                    "nbytes",
                    "alloc_size",
                    "flags",
                    "stream",
                    "T",
                    "__cuda_array_interface__",
                ]
                .iter(),
            )
            .map(|s| s.to_string())
            .collect()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Arguments helper: the first positional or keyword value.
pub fn arg(b: &[Option<Value>], i: usize) -> Option<&Value> {
    b.get(i).and_then(|v| v.as_ref())
}
