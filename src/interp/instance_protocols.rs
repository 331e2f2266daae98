//! How instances of cell-defined classes take part in Python's protocols: `repr`/`str`,
//! attribute access with properties and `__getattr__`, calls, subscripts, operators (with
//! `NotImplemented` and reflected methods), iteration, `len`, truth, `with`, rich display
//! (`_repr_html_`) and equality, each through the special method the class defines.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::operator::{BinOp, UnaryOp};
use crate::interp::class_tools::{bind, NotImplementedType, Property};
use crate::interp::classes::{as_instance, Instance};
use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::ExcClass;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};

fn string_result(v: Value, what: &str) -> PyResult<String> {
    match &v {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(PyErr::type_error(format!(
            "{what} returned non-string (type {})",
            other.type_name()
        ))),
    }
}

fn is_not_implemented(v: &Value) -> bool {
    v.downcast::<NotImplementedType>().is_some()
}

/// The special method names of a binary operator: (normal, reflected).
fn operator_names(op: BinOp) -> (&'static str, &'static str) {
    match op {
        BinOp::Add => ("__add__", "__radd__"),
        BinOp::Sub => ("__sub__", "__rsub__"),
        BinOp::Mul => ("__mul__", "__rmul__"),
        BinOp::MatMul => ("__matmul__", "__rmatmul__"),
        BinOp::Div => ("__truediv__", "__rtruediv__"),
        BinOp::FloorDiv => ("__floordiv__", "__rfloordiv__"),
        BinOp::Mod => ("__mod__", "__rmod__"),
        BinOp::Pow => ("__pow__", "__rpow__"),
        BinOp::LShift => ("__lshift__", "__rlshift__"),
        BinOp::RShift => ("__rshift__", "__rrshift__"),
        BinOp::BitAnd => ("__and__", "__rand__"),
        BinOp::BitOr => ("__or__", "__ror__"),
        BinOp::BitXor => ("__xor__", "__rxor__"),
        // Comparisons reflect to their mirror.
        BinOp::Eq => ("__eq__", "__eq__"),
        BinOp::Ne => ("__ne__", "__ne__"),
        BinOp::Lt => ("__lt__", "__gt__"),
        BinOp::Le => ("__le__", "__ge__"),
        BinOp::Gt => ("__gt__", "__lt__"),
        BinOp::Ge => ("__ge__", "__le__"),
    }
}

/// `x op= y` through `__iadd__` and friends; None when the class has no in-place method.
pub fn inplace_special(
    rt: &mut Runtime,
    inst: &Rc<Instance>,
    op: BinOp,
    rhs: &Value,
) -> PyResult<Option<Value>> {
    let name = format!("__i{}", &operator_names(op).0[2..]);
    match inst.call_special(rt, &name, vec![rhs.clone()])? {
        Some(v) if !is_not_implemented(&v) => Ok(Some(v)),
        _ => Ok(None),
    }
}

impl Object for Instance {
    fn type_name(&self) -> String {
        self.class.name.clone()
    }
    fn module_name(&self) -> String {
        self.class.module.clone()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        match self.rc()?.call_special(rt, "__repr__", vec![])? {
            Some(r) => string_result(r, "__repr__"),
            None => self.default_repr(rt),
        }
    }
    fn str(&self, rt: &mut Runtime) -> PyResult<String> {
        match self.rc()?.call_special(rt, "__str__", vec![])? {
            Some(r) => string_result(r, "__str__"),
            None if self.class.exc_base.is_some() => self.exc_str(rt),
            None => self.repr(rt),
        }
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        let this = Value::Object(self.clone());
        let class_attr = self.class.find(name);
        if let Some(p) = class_attr.as_ref().and_then(|v| v.downcast::<Property>()) {
            return p.get(rt, &this).map(Some);
        }
        if let Some(v) = self.attrs.borrow().get(name) {
            return Ok(Some(v.clone()));
        }
        if let Some(v) = class_attr {
            return Ok(Some(bind(v, &this, &self.class)));
        }
        match name {
            "__class__" => return Ok(Some(Value::Object(self.class.clone()))),
            "__dict__" if crate::interp::class_slots::has_dict(&self.class) => {
                let mut d = crate::py::value::Dict::default();
                for (k, v) in self.attrs.borrow().iter() {
                    // What a base's `__slots__` holds is no `__dict__` entry.
                    if crate::interp::class_slots::in_base_slots(&self.class, k) {
                        continue;
                    }
                    d.insert_str(k, v.clone());
                }
                return Ok(Some(Value::Dict(Rc::new(RefCell::new(d)))));
            }
            "args" if self.class.exc_base.is_some() => {
                return Ok(Some(Value::tuple(self.exc_args.borrow().clone())))
            }
            "__cause__" | "__context__" if self.class.exc_base.is_some() => {
                return Ok(Some(Value::None))
            }
            "__suppress_context__" if self.class.exc_base.is_some() => {
                return Ok(Some(Value::Bool(false)))
            }
            _ => {}
        }
        if !name.starts_with("__") {
            if let Some(v) = self.call_special(rt, "__getattr__", vec![Value::str(name)])? {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }
    fn set_attr(&self, name: &str, value: Value, rt: &mut Runtime) -> PyResult<bool> {
        if let Some(p) = self.class.find(name) {
            if let Some(p) = p.downcast::<Property>() {
                let this = self.rc_value()?;
                p.set(rt, &this, name, value)?;
                return Ok(true);
            }
        }
        if self.class.frozen.get() {
            return Err(PyErr::new(
                "FrozenInstanceError",
                format!("cannot assign to field '{name}'"),
            ));
        }
        if name == "args" && self.class.exc_base.is_some() {
            *self.exc_args.borrow_mut() = rt.iterate(&value)?;
            return Ok(true);
        }
        crate::interp::class_slots::check_assign(&self.class, name)?;
        self.attrs.borrow_mut().insert(name.to_string(), value);
        Ok(true)
    }
    fn del_attr(&self, name: &str, _rt: &mut Runtime) -> PyResult<bool> {
        if self.class.frozen.get() {
            return Err(PyErr::new(
                "FrozenInstanceError",
                format!("cannot delete field '{name}'"),
            ));
        }
        // Dropped after the borrow ends: the value's drop may reach this instance.
        let old = self.attrs.borrow_mut().shift_remove(name);
        Ok(old.is_some())
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let Some(m) = self.class.find("__call__") else {
            return Err(PyErr::type_error(format!(
                "'{}' object is not callable",
                self.class.name
            )));
        };
        let this = Value::Object(self.clone());
        crate::interp::expr::call_value(rt, &bind(m, &this, &self.class), args)
    }
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        self.call_special(rt, "__getitem__", vec![key.clone()])?
            .ok_or_else(|| {
                PyErr::type_error(format!("'{}' object is not subscriptable", self.class.name))
            })
    }
    fn set_item(&self, key: &Value, value: Value, rt: &mut Runtime) -> PyResult<()> {
        let this = self.rc()?;
        this.call_special(rt, "__setitem__", vec![key.clone(), value])?
            .map(|_| ())
            .ok_or_else(|| {
                PyErr::type_error(format!(
                    "'{}' object does not support item assignment",
                    self.class.name
                ))
            })
    }
    fn del_item(&self, key: &Value, rt: &mut Runtime) -> PyResult<()> {
        let this = self.rc()?;
        this.call_special(rt, "__delitem__", vec![key.clone()])?
            .map(|_| ())
            .ok_or_else(|| {
                PyErr::type_error(format!(
                    "'{}' object does not support item deletion",
                    self.class.name
                ))
            })
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        reflected: bool,
        rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        let (normal, mirror) = operator_names(op);
        let name = if reflected { mirror } else { normal };
        let r = match self.call_special(rt, name, vec![other.clone()])? {
            Some(v) if !is_not_implemented(&v) => Some(v),
            _ => None,
        };
        if r.is_none() && op == BinOp::Ne && self.class.find("__eq__").is_some() {
            // `!=` falls back to the negation of `__eq__`, as object.__ne__ does.
            if let Some(v) = self.call_special(rt, "__eq__", vec![other.clone()])? {
                if !is_not_implemented(&v) {
                    return Ok(Some(Value::Bool(!rt.truthy(&v)?)));
                }
            }
        }
        Ok(r)
    }
    fn unary_op(self: Rc<Self>, op: UnaryOp, rt: &mut Runtime) -> PyResult<Option<Value>> {
        let name = match op {
            UnaryOp::Neg => "__neg__",
            UnaryOp::Pos => "__pos__",
            UnaryOp::Invert => "__invert__",
        };
        self.call_special(rt, name, vec![])
    }
    fn iter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        if let Some(it) = self.call_special(rt, "__iter__", vec![])? {
            return drain_iterator(rt, &it).map(Some);
        }
        if self.class.find("__getitem__").is_none() {
            return Ok(None);
        }
        // The old sequence protocol: items 0, 1, ... until IndexError.
        let mut out = Vec::new();
        for i in 0i64.. {
            rt.check_interrupt()?;
            match self.call_special(rt, "__getitem__", vec![Value::Int(i)]) {
                Ok(v) => out.push(v.unwrap_or(Value::None)),
                Err(e) if e.is_instance(ExcClass::IndexError) => break,
                Err(e) => return Err(e),
            }
        }
        Ok(Some(out))
    }
    fn len(&self, rt: &mut Runtime) -> PyResult<Option<usize>> {
        let this = self.rc()?;
        match this.call_special(rt, "__len__", vec![])? {
            Some(v) => {
                let n = v.as_index()?;
                if n < 0 {
                    return Err(PyErr::value_error("__len__() should return >= 0"));
                }
                Ok(Some(n as usize))
            }
            None => Ok(None),
        }
    }
    fn truthy(&self, rt: &mut Runtime) -> PyResult<bool> {
        let this = self.rc()?;
        if let Some(v) = this.call_special(rt, "__bool__", vec![])? {
            return match v {
                Value::Bool(b) => Ok(b),
                other => Err(PyErr::type_error(format!(
                    "__bool__ should return bool, returned {}",
                    other.type_name()
                ))),
            };
        }
        Ok(self.len(rt)?.is_none_or(|n| n > 0))
    }
    fn enter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Value> {
        match self.call_special(rt, "__enter__", vec![])? {
            Some(v) => Ok(v),
            None => Err(PyErr::type_error(format!(
                "'{}' object does not support the context manager protocol",
                self.class.name
            ))),
        }
    }
    fn exit(&self, rt: &mut Runtime, error: Option<&PyErr>) -> PyResult<bool> {
        let this = self.rc()?;
        let args = match error {
            None => vec![Value::None, Value::None, Value::None],
            Some(e) => {
                let (ty, val) = crate::interp::class_tools::error_values(e);
                vec![ty, val, crate::interp::traceback_obj::of(e)]
            }
        };
        match this.call_special(rt, "__exit__", args)? {
            Some(v) => Ok(error.is_some() && rt.truthy(&v)?),
            None => Ok(false),
        }
    }
    fn dir(&self) -> Vec<String> {
        let mut names: Vec<String> = self.attrs.borrow().keys().cloned().collect();
        for c in std::iter::once(&self.class).chain(self.class.mro.iter()) {
            names.extend(c.attrs.borrow().keys().cloned());
        }
        names.sort();
        names.dedup();
        names
    }
    fn doc(&self) -> Option<(String, String)> {
        Some((
            self.class.name.clone(),
            self.class.doc.clone().unwrap_or_default(),
        ))
    }
    fn mime_bundle(
        &self,
        rt: &mut Runtime,
    ) -> PyResult<Option<serde_json::Map<String, serde_json::Value>>> {
        let this = self.rc()?;
        let mut out = serde_json::Map::new();
        for (method, mime) in [
            ("_repr_html_", "text/html"),
            ("_repr_markdown_", "text/markdown"),
            ("_repr_latex_", "text/latex"),
            ("_repr_svg_", "image/svg+xml"),
        ] {
            if let Some(Value::Str(ref s)) = this.call_special(rt, method, vec![])? {
                out.insert(mime.into(), serde_json::Value::String(s.to_string()));
            }
        }
        Ok((!out.is_empty()).then_some(out))
    }
    fn py_eq(&self, other: &Value, rt: &mut Runtime) -> PyResult<Option<bool>> {
        let this = self.rc()?;
        match this.call_special(rt, "__eq__", vec![other.clone()])? {
            Some(v) if !is_not_implemented(&v) => Ok(Some(rt.truthy(&v)?)),
            _ => Ok(None),
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The items of what `__iter__` returned: an iterator object with `__next__` is advanced
/// until StopIteration; anything else iterable is materialised as usual.
fn drain_iterator(rt: &mut Runtime, it: &Value) -> PyResult<Vec<Value>> {
    let Some(inst) = as_instance(it) else {
        return rt.iterate(it);
    };
    if inst.class.find("__next__").is_none() {
        return Err(PyErr::type_error(format!(
            "iter() returned non-iterator of type '{}'",
            inst.class.name
        )));
    }
    let mut out = Vec::new();
    loop {
        rt.check_interrupt()?;
        match inst.call_special(rt, "__next__", vec![]) {
            Ok(v) => {
                if out.len() >= 50_000_000 {
                    return Err(PyErr::memory_error(
                        "iterator produced more than 50,000,000 items; nbcuda collects iterators into a list",
                    ));
                }
                out.push(v.unwrap_or(Value::None));
            }
            Err(e) if e.is_instance(ExcClass::StopIteration) => return Ok(out),
            Err(e) => return Err(e),
        }
    }
}
