//! Metaclasses as cell code and the modules written in Python use them: `class M(type)`
//! defines one, `class C(metaclass=M)` (or deriving from a class that has one) makes it C's
//! type. The metaclass's methods then answer for the class object: `C(...)` runs
//! `M.__call__` (whose `super().__call__(...)` builds the instance as `type` does),
//! `iter(C)`, `len(C)`, `x in C`, `C[k]`, `repr(C)`/`str(C)` run `M`'s special methods, and
//! an attribute `C` lacks is looked up on `M` (its methods bound to `C`, its properties
//! read with `C`). `type(C)` is `M` and `isinstance(C, M)` holds.
//!
//! `isinstance`/`issubclass` ask the metaclass's `__instancecheck__`/`__subclasscheck__`
//! when it defines them (collections.abc's structural checks are written that way).
//!
//! `__init_subclass__` runs for every new subclass, with the class statement's keyword
//! arguments, as CPython's `type.__new__` does.
//!
//! Known differences from CPython: a metaclass's own `__new__`, `__init__` and
//! `__prepare__` do not run (the class statement alone builds classes), and calling a
//! metaclass to build a class (`M('C', (), {})`) is refused.

use std::rc::Rc;

use crate::interp::class_tools::{bind, bound, ClassMethod, Property, StaticMethod};
use crate::interp::classes::{as_class, instantiate, UserClass};
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Function;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

/// The value of `metaclass=...`: a cell-defined subclass of `type`, or `type` itself
/// (None).
pub fn metaclass_arg(v: &Value) -> PyResult<Option<Rc<UserClass>>> {
    if matches!(v, Value::Builtin(b) if b.name == "type") {
        return Ok(None);
    }
    match as_class(v) {
        Some(m) if m.is_type => Ok(Some(m)),
        _ => Err(PyErr::not_implemented(
            "a metaclass must be a class deriving from type in nbcuda",
        )),
    }
}

/// The metaclass of a new class: the most derived of the one given and its bases' ones,
/// with CPython's error when none derives from all the others.
pub fn resolve(
    explicit: Option<Option<Rc<UserClass>>>,
    bases: &[Rc<UserClass>],
) -> PyResult<Option<Rc<UserClass>>> {
    let candidates: Vec<Rc<UserClass>> = explicit
        .into_iter()
        .flatten()
        .chain(bases.iter().filter_map(|b| b.metaclass.clone()))
        .collect();
    let Some(mut winner) = candidates.first().cloned() else {
        return Ok(None);
    };
    for c in &candidates[1..] {
        if c.is_subclass_of(&winner) {
            winner = c.clone();
        } else if !winner.is_subclass_of(c) {
            return Err(PyErr::type_error(
                "metaclass conflict: the metaclass of a derived class must be a (non-strict) \
                 subclass of the metaclasses of all its bases",
            ));
        }
    }
    Ok(Some(winner))
}

/// Calls the metaclass's special method `name` with the class as its receiver; None when
/// the class has no metaclass or it does not define `name`.
pub fn special(
    rt: &mut Runtime,
    class: &UserClass,
    name: &str,
    args: Vec<Value>,
) -> PyResult<Option<Value>> {
    let Some(meta) = &class.metaclass else {
        return Ok(None);
    };
    let Some(f) = meta.find(name) else {
        return Ok(None);
    };
    let this = class.value()?;
    let m = bind(f, &this, meta);
    crate::interp::expr::call_value(rt, &m, Args::new(args)).map(Some)
}

/// `C(...)` through the metaclass's `__call__`, when it defines one.
pub fn call(rt: &mut Runtime, class: &Rc<UserClass>, args: &Args) -> PyResult<Option<Value>> {
    let Some(meta) = &class.metaclass else {
        return Ok(None);
    };
    let Some(f) = meta.find("__call__") else {
        return Ok(None);
    };
    let m = bind(f, &Value::Object(class.clone()), meta);
    crate::interp::expr::call_value(rt, &m, args.clone()).map(Some)
}

/// `x in C` through the metaclass's `__contains__`.
pub fn contains(rt: &mut Runtime, container: &Value, x: &Value) -> PyResult<Option<bool>> {
    let Some(class) = as_class(container) else {
        return Ok(None);
    };
    match special(rt, &class, "__contains__", vec![x.clone()])? {
        Some(r) => crate::interp::ops::truthy(rt, &r).map(Some),
        None => Ok(None),
    }
}

/// `isinstance(x, C)` / `issubclass(x, C)` through the metaclass's `__instancecheck__` /
/// `__subclasscheck__` (`hook`), as abstract base classes answer structurally; None when
/// `C` is not a class whose metaclass defines the hook.
pub fn type_check(rt: &mut Runtime, cls: &Value, hook: &str, x: &Value) -> PyResult<Option<bool>> {
    let Some(class) = as_class(cls) else {
        return Ok(None);
    };
    match special(rt, &class, hook, vec![x.clone()])? {
        Some(r) => crate::interp::ops::truthy(rt, &r).map(Some),
        None => Ok(None),
    }
}

/// An attribute the class lacks, found on its metaclass.
pub fn attr(rt: &mut Runtime, class: &Rc<UserClass>, name: &str) -> PyResult<Option<Value>> {
    let Some(meta) = &class.metaclass else {
        return Ok(None);
    };
    let Some(v) = meta.find(name) else {
        return Ok(None);
    };
    let this = Value::Object(class.clone());
    if let Some(p) = v.downcast::<Property>() {
        return p.get(rt, &this).map(Some);
    }
    if let Some(c) = v.downcast::<ClassMethod>() {
        return Ok(Some(bound(c.0.clone(), Value::Object(meta.clone()))));
    }
    if let Some(s) = v.downcast::<StaticMethod>() {
        return Ok(Some(s.0.clone()));
    }
    Ok(Some(bind(v, &this, meta)))
}

/// `super().__call__(...)` inside a metaclass: build an instance as `type.__call__` does.
pub fn type_call(class: Rc<UserClass>) -> Value {
    Value::builtin(
        "type.__call__",
        "__call__(*args, **kwargs)",
        "Create an instance of the class and run its __init__.",
        move |rt, a| instantiate(rt, &class, a),
    )
}

/// Runs the nearest base's `__init_subclass__` (an implicit class method) for a new class,
/// with the class statement's keyword arguments.
pub fn init_subclass(
    rt: &mut Runtime,
    class: &Rc<UserClass>,
    kwargs: Vec<(String, Value)>,
) -> PyResult<()> {
    let found = class
        .mro
        .iter()
        .find_map(|c| c.attrs.borrow().get("__init_subclass__").cloned());
    let Some(f) = found else {
        if kwargs.is_empty() {
            return Ok(());
        }
        return Err(PyErr::type_error(format!(
            "{}.__init_subclass__() takes no keyword arguments",
            class.name
        )));
    };
    let f = crate::interp::class_tools::implicit_classmethod(f);
    if f.downcast::<Function>().is_none() && !matches!(f, Value::Builtin(_)) {
        return Err(PyErr::type_error("__init_subclass__ must be a function"));
    }
    let mut args = Args::new(vec![Value::Object(class.clone())]);
    args.kw = kwargs.into_iter().map(|(k, v)| (k.into(), v)).collect();
    crate::interp::expr::call_value(rt, &f, args)?;
    Ok(())
}

/// `object.__init_subclass__` for the new class `name`, which `super().__init_subclass__()`
/// reaches: it accepts no keyword arguments and does nothing.
pub fn object_init_subclass(name: String) -> Value {
    Value::builtin(
        "object.__init_subclass__",
        "__init_subclass__()",
        "Called when a subclass is created; the default does nothing.",
        move |_, a| {
            if !a.pos.is_empty() || !a.kw.is_empty() {
                return Err(PyErr::type_error(format!(
                    "{name}.__init_subclass__() takes no keyword arguments"
                )));
            }
            Ok(Value::None)
        },
    )
}
