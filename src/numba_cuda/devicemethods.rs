//! The methods of `DeviceNDArray` (bound to the receiver).

use std::rc::Rc;

use crate::device::api::{self, Transfer};
use crate::device::state::{self, DeviceState};
use crate::device::DeviceView;
use crate::numba_cuda::devicearray::{self as da, arg, DeviceNDArray};
use crate::numba_cuda::viewops;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

pub const NAMES: &[&str] = &[
    "is_c_contiguous",
    "is_f_contiguous",
    "copy_to_host",
    "copy_to_device",
    "getitem",
    "setitem",
    "reshape",
    "ravel",
    "view",
    "squeeze",
    "transpose",
    "split",
    "bind",
    "free",
    "__array__",
];

fn wrap(v: DeviceView) -> Value {
    DeviceNDArray::value(v)
}

fn order_arg(v: Option<&Value>) -> PyResult<char> {
    match v {
        None | Some(Value::None) => Ok('C'),
        Some(Value::Str(s)) if s.len() == 1 => Ok(s.chars().next().unwrap_or('C')),
        Some(other) => Err(PyErr::type_error(format!(
            "order must be one of 'C', 'F', 'A', not {}",
            other.type_name()
        ))),
    }
}

fn axes_arg(v: Option<&Value>) -> PyResult<Option<Vec<i64>>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(Value::Tuple(t)) => Ok(Some(
            t.iter().map(|x| x.as_index()).collect::<PyResult<_>>()?,
        )),
        Some(Value::List(l)) => Ok(Some(
            l.borrow()
                .iter()
                .map(|x| x.as_index())
                .collect::<PyResult<_>>()?,
        )),
        Some(x) => Ok(Some(vec![x.as_index()?])),
    }
}

type Meth = fn(&Rc<DeviceNDArray>, &mut Runtime, Args) -> PyResult<Value>;

fn m(this: &Rc<DeviceNDArray>, name: &str, sig: &str, doc: &str, f: Meth) -> Value {
    Value::method(this, &format!("DeviceNDArray.{name}"), sig, doc, f)
}

/// A bound method of a device array, or None.
pub fn method(this: &Rc<DeviceNDArray>, name: &str) -> PyResult<Option<Value>> {
    Ok(Some(match name {
        "is_c_contiguous" => m(this, name, "is_c_contiguous()", "True when the array is C-contiguous.", |d, _, a| {
            a.bind("is_c_contiguous", &[])?;
            let v = &d.view;
            Ok(Value::Bool(crate::arrays::contiguous(&v.shape, &v.strides, v.dtype.itemsize(), true)))
        }),
        "is_f_contiguous" => m(this, name, "is_f_contiguous()", "True when the array is Fortran-contiguous.", |d, _, a| {
            a.bind("is_f_contiguous", &[])?;
            let v = &d.view;
            Ok(Value::Bool(crate::arrays::contiguous(&v.shape, &v.strides, v.dtype.itemsize(), false)))
        }),
        "copy_to_host" => m(this, name, "copy_to_host(ary=None, stream=0)",
            "Copy the array to the host: a new NumPy array, or into `ary`. Waits for the copy unless a stream is given.",
            |d, rt, a| {
                let b = a.bind("copy_to_host", &["ary=", "stream="])?;
                da::copy_to_host(rt, &d.view, arg(&b, 0), arg(&b, 1))
            }),
        "copy_to_device" => m(this, name, "copy_to_device(ary, stream=0)",
            "Copy a host array (or another device array) into this device array.",
            |d, rt, a| {
                let b = a.bind("copy_to_device", &["ary", "stream="])?;
                da::copy_to_device(rt, &d.view, arg(&b, 0).unwrap_or(&Value::None), arg(&b, 1))?;
                Ok(Value::None)
            }),
        "getitem" => m(this, name, "getitem(item, stream=0)", "Index the array (same as d[item]).", |d, rt, a| {
            let b = a.bind("getitem", &["item", "stream="])?;
            let key = arg(&b, 0).cloned().unwrap_or(Value::None);
            let s = crate::numba_cuda::stream_objects::parse_stream(rt, arg(&b, 1))?;
            let this = if s == 0 { d.view.clone() } else { DeviceView { stream: s, ..d.view.clone() } };
            crate::py::value::Object::get_item(Rc::new(DeviceNDArray { view: this }), &key, rt)
        }),
        "setitem" => m(this, name, "setitem(key, value, stream=0)", "Assign into the array (same as d[key] = value) on a stream.", |d, rt, a| {
            let b = a.bind("setitem", &["key", "value", "stream="])?;
            da::setitem(rt, &d.view, arg(&b, 0).unwrap_or(&Value::None), arg(&b, 1).unwrap_or(&Value::None), arg(&b, 2))?;
            Ok(Value::None)
        }),
        "reshape" => m(this, name, "reshape(*newshape, order='C')",
            "A view with a new shape (no copy); NotImplementedError when a copy would be needed.",
            |d, _rt, a| {
                let order = order_arg(a.kwarg("order"))?;
                if a.kw.iter().any(|(k, _)| &**k != "order") {
                    return Err(PyErr::type_error("reshape() got an unexpected keyword argument"));
                }
                let req: Vec<i64> = match a.pos.as_slice() {
                    [Value::Tuple(_)] | [Value::List(_)] => {
                        let t = match &a.pos[0] {
                            Value::Tuple(t) => t.to_vec(),
                            Value::List(l) => l.borrow().clone(),
                            _ => unreachable!(),
                        };
                        t.iter().map(|x| x.as_index()).collect::<PyResult<_>>()?
                    }
                    items => items.iter().map(|x| x.as_index()).collect::<PyResult<_>>()?,
                };
                let shape = viewops::resolve_shape(&req, d.view.size())?;
                Ok(wrap(viewops::reshape(&d.view, shape, order)?))
            }),
        "ravel" => m(this, name, "ravel(order='C', stream=0)", "A 1-D view of a contiguous array.", |d, _rt, a| {
            let b = a.bind("ravel", &["order=", "stream="])?;
            Ok(wrap(viewops::ravel(&d.view, order_arg(arg(&b, 0))?)?))
        }),
        "view" => m(this, name, "view(dtype)", "The same memory seen as another dtype.", |d, rt, a| {
            let b = a.bind("view", &["dtype"])?;
            let dt = crate::py::ndarray_attrs::dtype_from_value(rt, arg(&b, 0).unwrap_or(&Value::None))?;
            Ok(wrap(viewops::view_as(&d.view, dt)?))
        }),
        "squeeze" => m(this, name, "squeeze(axis=None, stream=0)", "A view without length-1 axes.", |d, _rt, a| {
            let b = a.bind("squeeze", &["axis=", "stream="])?;
            Ok(wrap(viewops::squeeze(&d.view, axes_arg(arg(&b, 0))?)?))
        }),
        "transpose" => m(this, name, "transpose(axes=None)", "A transposed copy of a 2-D array.", |d, rt, a| {
            let axes = if a.pos.len() > 1 {
                Some(a.pos.iter().map(|x| x.as_index()).collect::<PyResult<Vec<_>>>()?)
            } else {
                let b = a.bind("transpose", &["axes="])?;
                axes_arg(arg(&b, 0))?
            };
            viewops::transpose(rt, &d.view, axes)
        }),
        "split" => m(this, name, "split(section, stream=0)", "Contiguous 1-D pieces of `section` elements (views).", |d, _rt, a| {
            let b = a.bind("split", &["section", "stream="])?;
            let n = arg(&b, 0).map(|v| v.as_index()).transpose()?.unwrap_or(0);
            if n <= 0 {
                return Err(PyErr::value_error("split section must be a positive integer"));
            }
            Ok(Value::list(viewops::split(&d.view, n as usize)?.into_iter().map(wrap).collect()))
        }),
        "bind" => m(this, name, "bind(stream=0)", "A shallow copy whose default stream is `stream`.", |d, rt, a| {
            let b = a.bind("bind", &["stream="])?;
            let s = crate::numba_cuda::stream_objects::parse_stream(rt, arg(&b, 0))?;
            Ok(wrap(DeviceView { stream: s, ..d.view.clone() }))
        }),
        "free" => m(this, name, "free()",
            "Give the memory back to the device now; any later use of this array or its views raises an error.",
            |d, rt, a| {
                a.bind("free", &[])?;
                free(rt, &d.view)?;
                Ok(Value::None)
            }),
        "__array__" => m(this, name, "__array__(dtype=None, copy=None)", "A host copy (np.asarray(d)).", |d, rt, a| {
            let b = a.bind("__array__", &["dtype=", "copy="])?;
            if matches!(arg(&b, 1), Some(Value::Bool(false))) {
                return Err(PyErr::value_error("`copy=False` is not supported"));
            }
            state::check_not_freed(rt, d.view.alloc.id)?;
            let host = api::to_host(rt, &d.view, Transfer::explicit("__array__"))?;
            match arg(&b, 0) {
                None | Some(Value::None) => Ok(Value::Array(Box::new(host))),
                Some(dt) => {
                    let dt = crate::py::ndarray_attrs::dtype_from_value(rt, dt)?;
                    let out = crate::arrays::NdArray::zeros(&host.shape, dt)
                        .map_err(|e| PyErr::memory_error(format!("Unable to allocate {} bytes", e.bytes)))?;
                    crate::device::copy::copy_region(
                        &crate::device::copy::host_region(&host),
                        &crate::device::copy::host_region(&out),
                    );
                    Ok(Value::Array(Box::new(out)))
                }
            }
        }),
        _ => return Ok(None),
    }))
}

/// `d.free()`: return the memory now and remember where, for later-use errors.
pub fn free(rt: &mut Runtime, view: &DeviceView) -> PyResult<()> {
    state::check_not_freed(rt, view.alloc.id)?;
    api::synchronize(rt)?;
    crate::device::cpu::release_allocation(view.alloc.id, view.alloc.bytes);
    // The interpreter's variable names are not visible from a method call, so the array
    // is named by what identifies it to the user: its shape and dtype.
    let wher = format!(
        "this device array (shape {}, dtype {}) was freed by .free() in Cell In[{}]",
        crate::device::api::shape_str(&view.shape),
        view.dtype.name(),
        rt.execution_count
    );
    rt.state::<DeviceState>().freed.insert(view.alloc.id, wher);
    Ok(())
}
