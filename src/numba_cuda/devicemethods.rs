//! The method table of `DeviceNDArray`: name, signature, doc and body once each (via
//! `py::methods`), for lookup, `dir()`, completion and `?`.

use std::rc::Rc;

use crate::device::api::{self, Transfer};
use crate::device::state::{self, DeviceState};
use crate::device::DeviceView;
use crate::numba_cuda::devicearray::{self as da, arg, DeviceNDArray};
use crate::numba_cuda::viewops;
use crate::py::error::{PyErr, PyResult};
use crate::py::methods::{MethodFn, MethodSpec, MethodTable, Style};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

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

/// An `axes` argument: None, one axis, or a tuple or list of them.
pub(crate) fn axes_arg(v: Option<&Value>) -> PyResult<Option<Vec<i64>>> {
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

pub static METHODS: MethodTable<Rc<DeviceNDArray>> = MethodTable {
    owner: "DeviceNDArray",
    methods: &SPECS,
};

/// A bound method of a device array, or None.
pub fn method(this: &Rc<DeviceNDArray>, name: &str) -> PyResult<Option<Value>> {
    Ok(METHODS.bound(this, name))
}

/// Numba's device array methods are Python functions: their argument errors read as
/// `Args::bind`'s.
const fn m(
    name: &'static str,
    sig: &'static str,
    doc: &'static str,
    call: MethodFn<Rc<DeviceNDArray>>,
) -> MethodSpec<Rc<DeviceNDArray>> {
    MethodSpec::styled(Style::Python, name, sig, doc, call)
}

static SPECS: [MethodSpec<Rc<DeviceNDArray>>; 15] = [
    m("is_c_contiguous", "", "True when the array is C-contiguous.", |d, _, _| {
        let v = &d.view;
        Ok(Value::Bool(crate::arrays::contiguous(&v.shape, &v.strides, v.dtype.itemsize(), true)))
    }),
    m("is_f_contiguous", "", "True when the array is Fortran-contiguous.", |d, _, _| {
        let v = &d.view;
        Ok(Value::Bool(crate::arrays::contiguous(&v.shape, &v.strides, v.dtype.itemsize(), false)))
    }),
    m("copy_to_host", "ary=None, stream=0",
        "Copy the array to the host: a new NumPy array, or into `ary`. Waits for the copy unless a stream is given.",
        |d, rt, b| da::copy_to_host(rt, &d.view, b.get(0), b.get(1))),
    m("copy_to_device", "ary, stream=0",
        "Copy a host array (or another device array) into this device array.",
        |d, rt, b| {
            da::copy_to_device(rt, &d.view, &b.value(0), b.get(1))?;
            Ok(Value::None)
        }),
    m("getitem", "item, stream=0", "Index the array (same as d[item]).", |d, rt, b| {
        let key = b.value(0);
        let s = crate::numba_cuda::stream_objects::parse_stream(rt, b.get(1))?;
        let this = if s == 0 { d.view.clone() } else { DeviceView { stream: s, ..d.view.clone() } };
        crate::py::value::Object::get_item(Rc::new(DeviceNDArray { view: this }), &key, rt)
    }),
    m("setitem", "key, value, stream=0", "Assign into the array (same as d[key] = value) on a stream.", |d, rt, b| {
        da::setitem(rt, &d.view, &b.value(0), &b.value(1), b.get(2))?;
        Ok(Value::None)
    }),
    m("reshape", "*newshape, order='C'",
        "A view with a new shape (no copy); NotImplementedError when a copy would be needed.",
        |d, _rt, b| {
            if !b.kw.is_empty() {
                return Err(PyErr::type_error("reshape() got an unexpected keyword argument"));
            }
            let order = order_arg(b.get(0))?;
            let req: Vec<i64> = match b.rest.as_slice() {
                [Value::Tuple(t)] => t.iter().map(|x| x.as_index()).collect::<PyResult<_>>()?,
                [Value::List(l)] => l.borrow().iter().map(|x| x.as_index()).collect::<PyResult<_>>()?,
                items => items.iter().map(|x| x.as_index()).collect::<PyResult<_>>()?,
            };
            let shape = viewops::resolve_shape(&req, d.view.size())?;
            Ok(wrap(viewops::reshape(&d.view, shape, order)?))
        }),
    m("ravel", "order='C', stream=0", "A 1-D view of a contiguous array.", |d, _rt, b| {
        Ok(wrap(viewops::ravel(&d.view, order_arg(b.get(0))?)?))
    }),
    m("view", "dtype", "The same memory seen as another dtype.", |d, rt, b| {
        let dt = crate::py::ndarray_attrs::dtype_from_value(rt, &b.value(0))?;
        Ok(wrap(viewops::view_as(&d.view, dt)?))
    }),
    m("squeeze", "axis=None, stream=0", "A view without length-1 axes.", |d, _rt, b| {
        Ok(wrap(viewops::squeeze(&d.view, axes_arg(b.get(0))?)?))
    }),
    m("transpose", "*axes", "A transposed copy of a 2-D array (`axes` as one tuple, as separate ints, or by keyword).", |d, rt, b| {
        let axes = if b.rest.len() > 1 {
            Some(b.rest.iter().map(|x| x.as_index()).collect::<PyResult<Vec<_>>>()?)
        } else {
            let a = Args { pos: b.rest, kw: b.kw }.bind("transpose", &["axes="])?;
            axes_arg(arg(&a, 0))?
        };
        viewops::transpose(rt, &d.view, axes)
    }),
    m("split", "section, stream=0", "Contiguous 1-D pieces of `section` elements (views).", |d, _rt, b| {
        let n = b.index(0)?.unwrap_or(0);
        if n <= 0 {
            return Err(PyErr::value_error("split section must be a positive integer"));
        }
        Ok(Value::list(viewops::split(&d.view, n as usize)?.into_iter().map(wrap).collect()))
    }),
    m("bind", "stream=0", "A shallow copy whose default stream is `stream`.", |d, rt, b| {
        let s = crate::numba_cuda::stream_objects::parse_stream(rt, b.get(0))?;
        Ok(wrap(DeviceView { stream: s, ..d.view.clone() }))
    }),
    m("free", "",
        "Give the memory back to the device now; any later use of this array or its views raises an error.",
        |d, rt, _| {
            free(rt, &d.view)?;
            Ok(Value::None)
        }),
    m("__array__", "dtype=None, copy=None", "A host copy (np.asarray(d)).", |d, rt, b| {
        if matches!(b.get(1), Some(Value::Bool(false))) {
            return Err(PyErr::value_error("`copy=False` is not supported"));
        }
        state::check_not_freed(rt, d.view.alloc.id)?;
        let host = api::to_host(rt, &d.view, Transfer::explicit("__array__"))?;
        match b.get(0) {
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
];

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
