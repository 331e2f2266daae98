//! The objects classes are built from: bound methods, `staticmethod`, `classmethod`,
//! `property`, `super()`, `NotImplemented`, and the builtins that create and inspect them
//! (`issubclass`).

use std::any::Any;
use std::collections::HashMap;
use std::rc::Rc;

use crate::interp::classes::{as_class, as_instance, UserClass};
use crate::interp::frame::{Ctx, ScopeKind};
use crate::interp::objects::ExceptionType;
use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::name_is_subclass;
use crate::py::function::Function;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};

/// A function bound to its receiver (`obj.method`, or `Class.method` for a classmethod).
pub struct BoundMethod {
    pub func: Value,
    pub receiver: Value,
}

/// Bind `func` to `receiver`.
pub fn bound(func: Value, receiver: Value) -> Value {
    Value::object(BoundMethod { func, receiver })
}

/// A class attribute as seen through an instance (`this`) of `class`: functions become
/// bound methods, static methods unwrap, class methods bind to the class.
pub fn bind(v: Value, this: &Value, class: &Rc<UserClass>) -> Value {
    if v.downcast::<Function>().is_some() {
        return bound(v, this.clone());
    }
    if let Some(m) = v.downcast::<NativeMethod>() {
        return bound(m.0.clone(), this.clone());
    }
    // A memoised method (`@functools.lru_cache` on a def) binds like the def.
    if v.downcast::<crate::interp::lib_modules::LruCache>()
        .is_some()
    {
        return bound(v, this.clone());
    }
    if let Some(s) = v.downcast::<StaticMethod>() {
        return s.0.clone();
    }
    if let Some(c) = v.downcast::<ClassMethod>() {
        return bound(c.0.clone(), Value::Object(class.clone()));
    }
    v
}

impl Object for BoundMethod {
    fn type_name(&self) -> String {
        "method".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        let name = match self.func.downcast::<Function>() {
            Some(f) => f.qualname.clone(),
            None => "method".into(),
        };
        let of = crate::interp::repr::repr(rt, &self.receiver)?;
        Ok(format!("<bound method {name} of {of}>"))
    }
    fn call(self: Rc<Self>, mut args: Args, rt: &mut Runtime) -> PyResult<Value> {
        args.pos.insert(0, self.receiver.clone());
        crate::interp::expr::call_value(rt, &self.func, args)
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "__self__" => Some(self.receiver.clone()),
            "__func__" => Some(self.func.clone()),
            _ => crate::interp::attrs::get_attr(rt, &self.func, name).ok(),
        })
    }
    fn doc(&self) -> Option<(String, String)> {
        match &self.func {
            Value::Object(o) => o.doc(),
            _ => None,
        }
    }
    fn py_eq(&self, other: &Value, rt: &mut Runtime) -> PyResult<Option<bool>> {
        let Some(o) = other.downcast::<BoundMethod>() else {
            return Ok(Some(false));
        };
        Ok(Some(
            crate::interp::ops::is_same(&self.func, &o.func)
                && crate::interp::ops::py_eq(rt, &self.receiver, &o.receiver)?,
        ))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A native function that takes the instance first, installed in a class by `@dataclass`:
/// it binds like a `def`.
pub struct NativeMethod(pub Value);

impl Object for NativeMethod {
    fn type_name(&self) -> String {
        "function".into()
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        crate::interp::expr::call_value(rt, &self.0, args)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `@staticmethod`.
pub struct StaticMethod(pub Value);

impl Object for StaticMethod {
    fn type_name(&self) -> String {
        "staticmethod".into()
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        crate::interp::expr::call_value(rt, &self.0, args)
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok((name == "__func__").then(|| self.0.clone()))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `@classmethod`.
pub struct ClassMethod(pub Value);

impl Object for ClassMethod {
    fn type_name(&self) -> String {
        "classmethod".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok((name == "__func__").then(|| self.0.clone()))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `property(fget, fset, fdel, doc)`, usually made by `@property` and `@x.setter`.
#[derive(Clone, Default)]
pub struct Property {
    pub fget: Option<Value>,
    pub fset: Option<Value>,
    pub fdel: Option<Value>,
    pub doc: Option<String>,
}

impl Property {
    fn name(&self) -> String {
        self.fget
            .as_ref()
            .and_then(|f| f.downcast::<Function>().map(|f| f.name.to_string()))
            .unwrap_or_default()
    }

    /// Reading the property through an instance.
    pub fn get(&self, rt: &mut Runtime, this: &Value) -> PyResult<Value> {
        match &self.fget {
            Some(f) => crate::interp::expr::call_value(rt, f, Args::new(vec![this.clone()])),
            None => Err(PyErr::attribute_error(format!(
                "property '{}' of '{}' object has no getter",
                self.name(),
                this.type_name()
            ))),
        }
    }

    /// Assigning the property through an instance.
    pub fn set(&self, rt: &mut Runtime, this: &Value, name: &str, value: Value) -> PyResult<()> {
        match &self.fset {
            Some(f) => {
                crate::interp::expr::call_value(rt, f, Args::new(vec![this.clone(), value]))?;
                Ok(())
            }
            None => Err(PyErr::attribute_error(format!(
                "property '{name}' of '{}' object has no setter",
                this.type_name()
            ))),
        }
    }
}

impl Object for Property {
    fn type_name(&self) -> String {
        "property".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let with = |slot: fn(&mut Property) -> &mut Option<Value>, this: &Rc<Property>| {
            let this = this.clone();
            Value::builtin(
                "property.setter",
                "(func)",
                "A copy of the property with this accessor replaced.",
                move |_, a| {
                    let mut p = (*this).clone();
                    *slot(&mut p) = a.pos.first().cloned();
                    Ok(Value::object(p))
                },
            )
        };
        Ok(match name {
            "getter" => Some(with(|p| &mut p.fget, &self)),
            "setter" => Some(with(|p| &mut p.fset, &self)),
            "deleter" => Some(with(|p| &mut p.fdel, &self)),
            "fget" => Some(self.fget.clone().unwrap_or(Value::None)),
            "fset" => Some(self.fset.clone().unwrap_or(Value::None)),
            "__doc__" => Some(self.doc.as_deref().map(Value::str).unwrap_or(Value::None)),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The `NotImplemented` singleton a special method returns to let the other operand try.
pub struct NotImplementedType;

impl Object for NotImplementedType {
    fn type_name(&self) -> String {
        "NotImplementedType".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok("NotImplemented".into())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The function of a special method that is a class method even when not declared one
/// (`__init_subclass__`, `__class_getitem__`), unwrapped from `classmethod` if it was.
pub fn implicit_classmethod(f: Value) -> Value {
    match f.downcast::<ClassMethod>() {
        Some(c) => c.0.clone(),
        None => f,
    }
}

/// `super()`: attribute lookup that starts after `start` in the MRO of `obj`'s class.
pub struct Super {
    start: Rc<UserClass>,
    obj: Value,
    obj_class: Rc<UserClass>,
}

impl Object for Super {
    fn type_name(&self) -> String {
        "super".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        let chain: Vec<&Rc<UserClass>> = std::iter::once(&self.obj_class)
            .chain(self.obj_class.mro.iter())
            .collect();
        let after = chain
            .iter()
            .position(|c| Rc::ptr_eq(c, &self.start))
            .map(|i| i + 1)
            .unwrap_or(chain.len());
        for c in &chain[after..] {
            if let Some(v) = c.attrs.borrow().get(name).cloned() {
                if let Some(p) = v.downcast::<Property>() {
                    return p.get(rt, &self.obj).map(Some);
                }
                return Ok(Some(bind(v, &self.obj, &self.obj_class)));
            }
        }
        if name == "__init_subclass__" {
            let name = as_class(&self.obj).map_or_else(String::new, |c| c.name.clone());
            return Ok(Some(crate::interp::metaclasses::object_init_subclass(name)));
        }
        if let (true, "__call__", Some(c)) = (self.obj_class.is_type, name, as_class(&self.obj)) {
            return Ok(Some(crate::interp::metaclasses::type_call(c)));
        }
        Ok(object_method(&self.obj, &self.obj_class, name))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The methods every class inherits from `object` (and exception classes from
/// BaseException), as `super()` finds them at the end of the MRO.
fn object_method(obj: &Value, class: &Rc<UserClass>, name: &str) -> Option<Value> {
    let inst = as_instance(obj);
    let is_exc = class.exc_base.is_some();
    match (name, inst) {
        ("__init__", Some(inst)) => Some(Value::builtin(
            "__init__",
            "__init__(*args)",
            "Initialise the instance.",
            move |_, a| {
                if is_exc {
                    *inst.exc_args.borrow_mut() = a.pos;
                } else if !a.pos.is_empty() || !a.kw.is_empty() {
                    return Err(PyErr::type_error(
                        "object.__init__() takes exactly one argument (the instance to initialize)",
                    ));
                }
                Ok(Value::None)
            },
        )),
        ("__setattr__", Some(inst)) => Some(Value::builtin(
            "__setattr__",
            "__setattr__(name, value)",
            "Set an attribute, bypassing the class's own rules.",
            move |_, a| match a.pos.as_slice() {
                [Value::Str(k), v] => {
                    inst.attrs.borrow_mut().insert(k.to_string(), v.clone());
                    Ok(Value::None)
                }
                _ => Err(PyErr::type_error("__setattr__ expected a name and a value")),
            },
        )),
        ("__repr__" | "__str__", Some(inst)) => {
            let want_str = name == "__str__";
            Some(Value::builtin(
                name,
                "()",
                "The default representation.",
                move |rt, _| {
                    Ok(Value::str(&if want_str && is_exc {
                        inst.exc_str(rt)?
                    } else {
                        inst.default_repr(rt)?
                    }))
                },
            ))
        }
        _ => None,
    }
}

/// `super()` and `super(cls, obj)`, with the calling frame for the zero-argument form.
pub fn super_call(ctx: &Ctx, args: Args) -> PyResult<Value> {
    let (start, obj) = match args.pos.as_slice() {
        [] => {
            let ScopeKind::Method { class, self_param } = &ctx.kind else {
                return Err(PyErr::runtime_error("super(): no arguments"));
            };
            let obj = ctx
                .lookup(self_param)
                .ok_or_else(|| PyErr::runtime_error("super(): arg[0] deleted"))?;
            (class.clone(), obj)
        }
        [c, o] => (c.clone(), o.clone()),
        _ => {
            return Err(PyErr::type_error(
                "super() takes no arguments or two (type, obj) in nbcuda",
            ))
        }
    };
    let start =
        as_class(&start).ok_or_else(|| PyErr::type_error("super() argument 1 must be a class"))?;
    let obj_class = match (as_instance(&obj), as_class(&obj)) {
        (Some(i), _) => i.class.clone(),
        // In a metaclass's method the receiver is a class whose metaclass derives from
        // `start`; in a class method it is a subclass of `start`.
        (None, Some(c)) if !c.is_subclass_of(&start) && c.metaclass.is_some() => {
            c.metaclass.clone().unwrap_or(c)
        }
        (None, Some(c)) => c,
        _ => {
            return Err(PyErr::type_error(
                "super(type, obj): obj must be an instance or subtype of type",
            ))
        }
    };
    if !obj_class.is_subclass_of(&start) {
        return Err(PyErr::type_error(
            "super(type, obj): obj must be an instance or subtype of type",
        ));
    }
    Ok(Value::object(Super {
        start,
        obj,
        obj_class,
    }))
}

/// The class and the instance of a raised error, as `__exit__` receives them.
pub fn error_values(e: &PyErr) -> (Value, Value) {
    if let Some(u) = &e.user {
        let class = as_instance(&u.instance)
            .map(|i| Value::Object(i.class.clone()))
            .unwrap_or(Value::None);
        return (class, u.instance.clone());
    }
    (
        Value::object(ExceptionType {
            name: e.ename.clone(),
        }),
        crate::interp::objects::caught(e.clone()).1,
    )
}

/// Whether a raised error is an instance of the class `handler` (an `except` clause).
/// None: `handler` is not an exception class.
pub fn error_matches(err: &PyErr, handler: &Value) -> Option<bool> {
    if let Some(t) = handler.downcast::<ExceptionType>() {
        return Some(match &err.user {
            Some(u) => name_is_subclass(u.base.name(), &t.name),
            None => name_is_subclass(&err.ename, &t.name),
        });
    }
    let class = as_class(handler)?;
    class.exc_base?;
    Some(
        err.user
            .as_ref()
            .and_then(|u| as_instance(&u.instance))
            .is_some_and(|i| i.class.is_subclass_of(&class)),
    )
}

/// `isinstance(v, cls)` when either side is a cell-defined class; None otherwise.
pub fn isinstance(v: &Value, cls: &Value) -> Option<bool> {
    if let Some(class) = as_class(cls) {
        if let Some(m) = as_class(v).and_then(|c| c.metaclass.clone()) {
            return Some(m.is_subclass_of(&class));
        }
        return Some(as_instance(v).is_some_and(|i| i.class.is_subclass_of(&class)));
    }
    let inst = as_instance(v)?;
    if let Some(t) = cls.downcast::<ExceptionType>() {
        return Some(
            inst.class
                .exc_base
                .is_some_and(|b| name_is_subclass(b.name(), &t.name)),
        );
    }
    None
}

/// `issubclass(c, base)` for one class.
pub fn is_subclass(rt: &mut Runtime, c: &Value, base: &Value) -> PyResult<bool> {
    Ok(matches!(
        issubclass(rt, Args::new(vec![c.clone(), base.clone()]))?,
        Value::Bool(true)
    ))
}

fn issubclass(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let [c, base] = a.pos.as_slice() else {
        return Err(PyErr::type_error("issubclass expected 2 arguments"));
    };
    if let Value::Tuple(t) = base {
        for b in t.iter() {
            if matches!(
                issubclass(rt, Args::new(vec![c.clone(), b.clone()]))?,
                Value::Bool(true)
            ) {
                return Ok(Value::Bool(true));
            }
        }
        return Ok(Value::Bool(false));
    }
    if let Some(r) = crate::interp::metaclasses::type_check(rt, base, "__subclasscheck__", c)? {
        return Ok(Value::Bool(r));
    }
    let r = match (as_class(c), as_class(base)) {
        (Some(c), Some(b)) => c.is_subclass_of(&b),
        (Some(c), None) => match (base.downcast::<ExceptionType>(), base) {
            (Some(t), _) => c
                .exc_base
                .is_some_and(|e| name_is_subclass(e.name(), &t.name)),
            (None, Value::Builtin(b)) => b.name == "object",
            _ => false,
        },
        (None, _) => match (
            c.downcast::<ExceptionType>(),
            base.downcast::<ExceptionType>(),
        ) {
            (Some(x), Some(y)) => name_is_subclass(&x.name, &y.name),
            (_, None) if matches!(base, Value::Builtin(b) if b.name == "object") => true,
            // bool is int's one builtin subclass; every builtin class is its own subclass.
            _ if matches!((c, base), (Value::Builtin(x), Value::Builtin(y))
                if x.name == y.name || (x.name == "bool" && y.name == "int")) =>
            {
                true
            }
            (None, _) if !matches!(c, Value::Builtin(_)) => {
                return Err(PyErr::type_error("issubclass() arg 1 must be a class"))
            }
            _ => false,
        },
    };
    Ok(Value::Bool(r))
}

/// The builtins classes need.
pub fn register(b: &mut HashMap<String, Value>) {
    b.insert(
        "staticmethod".into(),
        Value::builtin(
            "staticmethod",
            "staticmethod(function)",
            "A method that receives neither the instance nor the class.",
            |_, a| {
                let f = a.pos.first().cloned().unwrap_or(Value::None);
                Ok(Value::object(StaticMethod(f)))
            },
        ),
    );
    b.insert(
        "classmethod".into(),
        Value::builtin(
            "classmethod",
            "classmethod(function)",
            "A method that receives the class as its first argument.",
            |_, a| {
                let f = a.pos.first().cloned().unwrap_or(Value::None);
                Ok(Value::object(ClassMethod(f)))
            },
        ),
    );
    b.insert(
        "property".into(),
        Value::builtin(
            "property",
            "property(fget=None, fset=None, fdel=None, doc=None)",
            "A managed attribute: reading calls fget, assigning calls fset.",
            |_, a| {
                let b = a.bind("property", &["fget=", "fset=", "fdel=", "doc="])?;
                let some = |v: &Option<Value>| v.clone().filter(|v| !v.is_none());
                let doc = match &b[3] {
                    Some(Value::Str(s)) => Some(s.to_string()),
                    _ => b[0]
                        .as_ref()
                        .and_then(|f| f.downcast::<Function>().and_then(|f| f.doc.clone())),
                };
                Ok(Value::object(Property {
                    fget: some(&b[0]),
                    fset: some(&b[1]),
                    fdel: some(&b[2]),
                    doc,
                }))
            },
        ),
    );
    b.insert(
        "issubclass".into(),
        Value::builtin(
            "issubclass",
            "issubclass(cls, class_or_tuple, /)",
            "Whether cls is derived from the class (or from any class in the tuple).",
            issubclass,
        ),
    );
    b.insert("NotImplemented".into(), Value::object(NotImplementedType));
}
