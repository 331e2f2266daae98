//! CuPy arrays on nbcuda's devices: `cupy.ndarray` and the `cupy` module's creation,
//! transfer, elementwise, ufunc and reduction functions.

use std::any::Any;
use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::BinOp;
use crate::arrays::operator::{Ufunc1, Unary, UnaryOp};
use crate::cupy::elementwise::{self as ops, Operand};
use crate::device::api::{self, Transfer};
use crate::device::DeviceView;
use crate::numba_cuda::devicearray::{arg, flags_value, ints, istrides};
use crate::numba_cuda::view_index::{basic_index, parse_shape, Indexed, Layout};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

/// The attributes of `cupy.ndarray` that are not methods, as `dir()` lists them.
const ATTRS: &[&str] = &[
    "T",
    "__cuda_array_interface__",
    "data",
    "device",
    "dtype",
    "flags",
    "itemsize",
    "nbytes",
    "ndim",
    "shape",
    "size",
    "strides",
];

/// `cupy.ndarray`.
pub struct CupyArray {
    pub view: DeviceView,
}

impl CupyArray {
    /// The use-after-free error when this array views memory released by a Numba
    /// array's `.free()` (CuPy arrays made with `cp.asarray(d)` share it).
    fn live(&self, rt: &mut Runtime) -> PyResult<()> {
        crate::device::state::check_not_freed(rt, self.view.alloc.id)
    }
    pub fn value(view: DeviceView) -> Value {
        Value::object(CupyArray { view })
    }
}

pub(crate) fn wrap(v: DeviceView) -> Value {
    CupyArray::value(v)
}

/// An operand for CuPy arithmetic; host NumPy arrays are refused as CuPy does.
pub(crate) fn operand(rt: &mut Runtime, v: &Value) -> PyResult<Option<Operand>> {
    Ok(Some(match v {
        Value::Bool(b) => Operand::Py(Scalar::Bool(*b)),
        Value::Int(i) => Operand::Py(Scalar::I64(*i)),
        Value::Float(f) => Operand::Py(Scalar::F64(*f)),
        // Past int64 NumPy takes a Python int only as uint64 (or next to floats).
        Value::BigInt(b) => match num_traits::ToPrimitive::to_u64(&**b) {
            Some(u) => Operand::Py(Scalar::U64(u)),
            None => return Ok(None),
        },
        Value::Scalar(s) => Operand::Np(*s),
        Value::Array(_) => {
            return Err(PyErr::type_error(
                "Unsupported type <class 'numpy.ndarray'>",
            )
            .with_hint("CuPy does not mix host and device arrays implicitly: move it with cp.asarray(host_array) first."))
        }
        other => match crate::numba_cuda::interop::view_of(rt, other)? {
            Some(v) => Operand::Arr(v),
            None => return Ok(None),
        },
    }))
}

/// A synchronous host copy of a CuPy array.
pub(crate) fn host_copy(
    rt: &mut Runtime,
    v: &DeviceView,
    call: &str,
) -> PyResult<crate::arrays::NdArray> {
    api::to_host(rt, v, Transfer::explicit(call))
}

/// The elements of a 0-d (or size-1) array as a Python number.
pub(crate) fn item(rt: &mut Runtime, v: &DeviceView) -> PyResult<Value> {
    if v.size() != 1 {
        return Err(PyErr::value_error(
            "can only convert an array of size 1 to a Python scalar",
        ));
    }
    let h = host_copy(rt, v, "item")?;
    let s = crate::device::copy::read_scalar(
        &crate::kernel::abi::ArgMem::Host(h.buf.clone()),
        h.offset,
        h.dtype,
    );
    Ok(if s.dtype().is_float() {
        Value::Float(s.as_f64())
    } else if s.dtype() == DType::Bool {
        Value::Bool(s.as_i64() != 0)
    } else {
        Value::Int(s.as_i64())
    })
}

impl Object for CupyArray {
    fn type_name(&self) -> String {
        "ndarray".into()
    }
    fn module_name(&self) -> String {
        "cupy".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        let h = host_copy(rt, &self.view, "repr")?;
        Ok(crate::py::ndarray_attrs::array_repr(&h))
    }
    fn str(&self, rt: &mut Runtime) -> PyResult<String> {
        let h = host_copy(rt, &self.view, "str")?;
        Ok(crate::py::ndarray_attrs::array_str(&h))
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        if name != "__class__" {
            self.live(rt)?;
        }
        let v = &self.view;
        Ok(Some(match name {
            "shape" => ints(&v.shape),
            "device" => Value::object(crate::cupy::cuda_api::CupyDevice),
            "strides" => istrides(&v.strides),
            "dtype" => Value::DType(v.dtype),
            "size" => Value::Int(v.size() as i64),
            "ndim" => Value::Int(v.shape.len() as i64),
            "itemsize" => Value::Int(v.dtype.itemsize() as i64),
            "nbytes" => Value::Int((v.size() * v.dtype.itemsize()) as i64),
            "flags" => flags_value(v),
            "__cuda_array_interface__" => crate::numba_cuda::interop::cupy_cai(v),
            "data" => Value::Int((crate::device::pointers::base_ptr(&v.alloc) + v.offset) as i64),
            "T" => wrap(DeviceView {
                shape: v.shape.iter().rev().copied().collect(),
                strides: v.strides.iter().rev().copied().collect(),
                ..v.clone()
            }),
            _ => return Ok(crate::cupy::array_methods::METHODS.bound(&self, name)),
        }))
    }
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        self.live(rt)?;
        if let Some(idx) = crate::cupy::advanced_index::index_array(rt, key)? {
            return Ok(wrap(crate::cupy::advanced_index::getitem(
                rt, &self.view, &idx,
            )?));
        }
        let v = &self.view;
        let l = Layout {
            offset: v.offset,
            shape: v.shape.clone(),
            strides: v.strides.clone(),
        };
        Ok(match basic_index(&l, key)? {
            // CuPy gives a 0-d array for an integer index.
            Indexed::Element(at) => wrap(DeviceView {
                offset: at,
                shape: vec![],
                strides: vec![],
                ..v.clone()
            }),
            Indexed::View(l) => wrap(DeviceView {
                offset: l.offset,
                shape: l.shape,
                strides: l.strides,
                ..v.clone()
            }),
        })
    }
    fn set_item(&self, key: &Value, value: Value, rt: &mut Runtime) -> PyResult<()> {
        self.live(rt)?;
        if let Some(idx) = crate::cupy::advanced_index::index_array(rt, key)? {
            return crate::cupy::advanced_index::setitem_mask(rt, &self.view, &idx, &value);
        }
        let s = if self.view.stream == 0 {
            Value::Int(0)
        } else {
            crate::numba_cuda::stream_objects::Stream::bound(self.view.stream)
        };
        crate::numba_cuda::devicearray::setitem(rt, &self.view, key, &value, Some(&s))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        match self.view.shape.first() {
            Some(&n) => Ok(Some(n)),
            None => Err(PyErr::type_error("len() of unsized object")),
        }
    }
    fn iter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        let n = self.len(rt)?.unwrap_or(0);
        (0..n)
            .map(|i| self.clone().get_item(&Value::Int(i as i64), rt))
            .collect::<PyResult<Vec<_>>>()
            .map(Some)
    }
    fn truthy(&self, rt: &mut Runtime) -> PyResult<bool> {
        if self.view.size() != 1 {
            return Err(PyErr::value_error("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"));
        }
        Ok(match item(rt, &self.view)? {
            Value::Float(f) => f != 0.0,
            Value::Int(i) => i != 0,
            Value::Bool(b) => b,
            _ => true,
        })
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        reflected: bool,
        rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        self.live(rt)?;
        let Some(o) = operand(rt, other)? else {
            return Ok(None);
        };
        if op == BinOp::MatMul {
            let Operand::Arr(other_view) = o else {
                return Err(PyErr::value_error(
                    "matmul: Input operand does not have enough dimensions",
                ));
            };
            let (x, y) = if reflected {
                (other_view, self.view.clone())
            } else {
                (self.view.clone(), other_view)
            };
            return Ok(Some(wrap(crate::cupy::extra::matmul(
                rt, &x, &y, "matmul",
            )?)));
        }
        let me = Operand::Arr(self.view.clone());
        let (a, b) = if reflected { (o, me) } else { (me, o) };
        Ok(Some(wrap(ops::binary_op(rt, op, a, b)?)))
    }
    fn unary_op(self: Rc<Self>, op: UnaryOp, rt: &mut Runtime) -> PyResult<Option<Value>> {
        self.live(rt)?;
        Ok(Some(match op {
            UnaryOp::Neg => wrap(ops::unary(rt, Ufunc1::Op(Unary::Neg), &self.view)?),
            UnaryOp::Pos => wrap(ops::cast_copy(rt, &self.view, self.view.dtype)?),
            UnaryOp::Invert => wrap(ops::unary(rt, Ufunc1::Op(Unary::Invert), &self.view)?),
        }))
    }
    fn dir(&self) -> Vec<String> {
        crate::cupy::array_methods::METHODS.names_with(ATTRS)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

pub use crate::cupy::module;

/// The class `cupy.ndarray`: `isinstance(x, cp.ndarray)`, and called as CuPy's constructor
/// (`cp.ndarray(shape, dtype=float, memptr=None, offset=0, strides=None, order='C')`) it
/// allocates an uninitialised array, as `cp.empty` does.
pub fn class_object() -> Value {
    let ctor = Value::builtin(
        "ndarray",
        "ndarray(shape, dtype=float, memptr=None, offset=0, strides=None, order='C')",
        "An uninitialised CuPy array of the given shape and dtype.",
        |rt, a| {
            let b = a.bind(
                "ndarray",
                &[
                    "shape", "dtype=", "memptr=", "offset=", "strides=", "order=",
                ],
            )?;
            let given = |i: usize| arg(&b, i).is_some_and(|v| !v.is_none());
            if given(2) || given(4) || arg(&b, 3).is_some_and(|v| !matches!(v, Value::Int(0))) {
                return Err(PyErr::not_implemented(
                    "cupy.ndarray over existing memory (memptr=, offset=, strides=) is not supported by nbcuda; slice or view an existing array instead",
                ));
            }
            let shape = parse_shape(arg(&b, 0).unwrap_or(crate::py::value::NONE))?;
            let dtype = match arg(&b, 1) {
                None | Some(Value::None) => DType::F64,
                Some(d) => crate::py::ndarray_attrs::dtype_from_value(rt, d)?,
            };
            let order = match arg(&b, 5) {
                None => 'C',
                Some(Value::Str(s)) if &**s == "C" || &**s == "F" => {
                    s.chars().next().unwrap_or('C')
                }
                Some(_) => return Err(PyErr::type_error("order not understood")),
            };
            let stream = ops::current_stream(rt);
            let mut v = api::alloc(rt, &shape, dtype, stream)?;
            if order == 'F' {
                v.strides = crate::arrays::NdArray::f_strides(&shape, dtype.itemsize());
            }
            Ok(wrap(v))
        },
    );
    Value::object(crate::py::value::ClassObj {
        module: "cupy".into(),
        name: "ndarray".into(),
        ctor: Some(ctor),
    })
}
