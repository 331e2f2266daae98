//! Numba's type objects as Python values: `numba.float32`, `int32[:]`,
//! `float32(float32, float32)` (a signature), each with a `dtype` attribute; and the host
//! placeholders for in-kernel names.

use std::any::Any;
use std::rc::Rc;

use crate::arrays::dtype::DType;
use crate::kernel::types::{numba_name, Layout, Signature, Ty};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Object, Value};

/// A Numba type object: scalar, array, void, or a signature built by calling one.
pub struct NumbaType {
    pub ty: Ty,
}

/// A signature object (`float32(float32, float32)`).
pub struct NumbaSig {
    pub sig: Signature,
}

impl Object for NumbaType {
    fn type_name(&self) -> String {
        match &self.ty {
            Ty::Array { .. } => "Array".into(),
            Ty::Void => "NoneType".into(),
            Ty::Scalar(d) if d.is_float() => "Float".into(),
            Ty::Scalar(DType::Bool) => "Boolean".into(),
            Ty::Scalar(_) => "Integer".into(),
        }
    }
    fn module_name(&self) -> String {
        "numba.core.types".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(self.ty.to_string())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match (name, &self.ty) {
            ("dtype", Ty::Scalar(d)) => Some(Value::DType(*d)),
            ("dtype", Ty::Array { dtype, .. }) => Some(Value::object(NumbaType {
                ty: Ty::Scalar(*dtype),
            })),
            ("ndim", Ty::Array { ndim, .. }) => Some(Value::Int(*ndim as i64)),
            ("layout", Ty::Array { layout, .. }) => {
                Some(Value::str(if *layout == Layout::C { "C" } else { "A" }))
            }
            ("name", t) => Some(Value::str(&t.to_string())),
            _ => None,
        })
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        let Ty::Scalar(d) = self.ty else {
            return Err(PyErr::type_error(format!(
                "'{}' object is not subscriptable",
                self.ty
            )));
        };
        let items: Vec<Value> = match key {
            Value::Tuple(t) => t.to_vec(),
            other => vec![other.clone()],
        };
        let mut layout = Layout::A;
        for (i, it) in items.iter().enumerate() {
            match it {
                Value::Slice(s) if s.start.is_none() && s.stop.is_none() => {
                    if s.step == Some(1) {
                        if i + 1 != items.len() {
                            return Err(PyErr::type_error(
                                "only the last dimension can be ::1 (C layout)",
                            ));
                        }
                        layout = Layout::C;
                    } else if s.step.is_some() {
                        return Err(PyErr::type_error(
                            "array type dimensions must be ':' or '::1'",
                        ));
                    }
                }
                _ => {
                    return Err(PyErr::type_error(
                        "array types are written float32[:], float32[:, :] or float32[::1]",
                    ))
                }
            }
        }
        if items.is_empty() || items.len() > 3 {
            return Err(PyErr::type_error(
                "arrays of 1 to 3 dimensions are supported",
            ));
        }
        Ok(Value::object(NumbaType {
            ty: Ty::Array {
                dtype: d,
                ndim: items.len(),
                layout,
            },
        }))
    }
    fn call(self: Rc<Self>, args: Args, _rt: &mut Runtime) -> PyResult<Value> {
        // Calling a type with types builds a signature; with a number, casts it.
        let all_types = args.pos.iter().all(|a| a.downcast::<NumbaType>().is_some());
        if all_types
            && (args.pos.is_empty() || args.pos.iter().any(|a| a.downcast::<NumbaType>().is_some()))
        {
            let tys = args
                .pos
                .iter()
                .filter_map(|a| a.downcast::<NumbaType>().map(|t| t.ty.clone()))
                .collect();
            return Ok(Value::object(NumbaSig {
                sig: Signature {
                    ret: Some(self.ty.clone()),
                    args: tys,
                },
            }));
        }
        match (&self.ty, args.pos.as_slice()) {
            (Ty::Scalar(d), [v]) => {
                let x = match v {
                    Value::Int(i) => crate::arrays::dtype::Scalar::I64(*i),
                    Value::BigInt(_) => crate::py::value::python_scalar(v)?,
                    Value::Float(f) => crate::arrays::dtype::Scalar::F64(*f),
                    Value::Bool(b) => crate::arrays::dtype::Scalar::Bool(*b),
                    Value::Scalar(s) => *s,
                    other => {
                        return Err(PyErr::type_error(format!(
                            "cannot convert {} to {}",
                            other.type_name(),
                            numba_name(*d)
                        )))
                    }
                };
                Ok(Value::Scalar(x.cast(*d)))
            }
            _ => Err(PyErr::type_error(format!(
                "'{}' takes one number or a list of types",
                self.ty
            ))),
        }
    }
    fn py_eq(&self, other: &Value, _rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(other.downcast::<NumbaType>().map(|o| o.ty == self.ty))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Object for NumbaSig {
    fn type_name(&self) -> String {
        "Signature".into()
    }
    fn module_name(&self) -> String {
        "numba.core.typing.templates".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(self.sig.to_string())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The dtype a Numba type object or dtype-like value names.
pub fn dtype_of_value(v: &Value) -> Option<DType> {
    match v {
        Value::DType(d) => Some(*d),
        Value::Object(_) => match v.downcast::<NumbaType>() {
            Some(NumbaType { ty: Ty::Scalar(d) }) => Some(*d),
            _ => None,
        },
        _ => None,
    }
}

/// Signatures from a decorator argument: a string, a signature object, a tuple of
/// argument types, or a list of them.
pub fn signatures_from(v: &Value) -> PyResult<Vec<Signature>> {
    let ty_of = |v: &Value| v.downcast::<NumbaType>().map(|t| t.ty.clone());
    let one = |v: &Value| -> PyResult<Signature> {
        match v {
            Value::Tuple(t) if t.iter().all(|x| ty_of(x).is_some()) => Ok(Signature {
                ret: None,
                args: t.iter().filter_map(ty_of).collect(),
            }),
            Value::Str(s) => {
                crate::kernel::types::parse_signature(s).map_err(|e| PyErr::new("TypeError", e))
            }
            _ => match v.downcast::<NumbaSig>() {
                Some(s) => Ok(s.sig.clone()),
                None => Err(PyErr::type_error(format!(
                    "expected a signature such as 'float32(float32, float32)', got {}",
                    v.type_name()
                ))),
            },
        }
    };
    // A tuple of types (not signatures) is one signature's argument types, as Numba
    // accepts `cuda.jit((float32[::1], float32[::1]))`.
    match v {
        Value::Tuple(t) if !t.is_empty() && t.iter().all(|x| ty_of(x).is_some()) => {
            Ok(vec![Signature {
                ret: None,
                args: t.iter().filter_map(ty_of).collect(),
            }])
        }
        Value::List(l) => l.borrow().iter().map(one).collect(),
        Value::Tuple(t) => t.iter().map(one).collect(),
        other => Ok(vec![one(other)?]),
    }
}

/// `from_dtype`, which both `numba` and `numba.np.numpy_support` provide.
pub fn register_from_dtype(m: &Module) {
    m.def(
        Function,
        "from_dtype",
        "dtype",
        "The Numba type of a NumPy dtype (np.float32 -> float32).",
        |rt, b| {
            let v = b.value(0);
            let d = crate::py::ndarray_attrs::dtype_from_value(rt, &v).map_err(|_| {
                PyErr::new(
                    "NotImplementedError",
                    format!("a {} cannot be represented as a Numba type", v.type_name()),
                )
            })?;
            Ok(Value::object(NumbaType { ty: Ty::Scalar(d) }))
        },
    );
}

/// Register the Numba type objects on a module.
pub fn register_types(m: &Module) {
    for d in DType::ALL {
        m.set(
            numba_name(d),
            Value::object(NumbaType { ty: Ty::Scalar(d) }),
        );
    }
    let aliases = [
        ("b1", DType::Bool),
        ("bool_", DType::Bool),
        ("i1", DType::I8),
        ("i2", DType::I16),
        ("i4", DType::I32),
        ("i8", DType::I64),
        ("u1", DType::U8),
        ("u2", DType::U16),
        ("u4", DType::U32),
        ("u8", DType::U64),
        ("f4", DType::F32),
        ("f8", DType::F64),
        ("intp", DType::I64),
        ("uintp", DType::U64),
        ("double", DType::F64),
        ("float_", DType::F32),
    ];
    for (n, d) in aliases {
        m.set(n, Value::object(NumbaType { ty: Ty::Scalar(d) }));
    }
    m.set("void", Value::object(NumbaType { ty: Ty::Void }));
    register_from_dtype(m);
}
