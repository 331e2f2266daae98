//! `functools.wraps`, `update_wrapper`, `cmp_to_key` and `total_ordering`: decorators that
//! keep the wrapped function's name, qualname, doc and `__dict__` (with `__wrapped__`), sort
//! keys built from an old-style comparison function, and the ordering methods a class
//! leaves out derived from the one it defines.

use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::ExcClass;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::{Clinic, Function};
use crate::py::value::{Args, Module, Object, Value};

/// CPython's `WRAPPER_ASSIGNMENTS`.
const ASSIGNED: [&str; 5] = [
    "__module__",
    "__name__",
    "__qualname__",
    "__doc__",
    "__annotations__",
];

/// WRAPPER_ASSIGNMENTS as inspect shows the default.
const SHOWN_ASSIGNED: &str =
    "('__module__', '__name__', '__qualname__', '__doc__', '__annotations__')";

/// Register `wraps`, `update_wrapper`, `cmp_to_key`, `total_ordering` and the wrapper
/// constants.
pub fn register(m: &Module) {
    m.def(
        Function,
        "total_ordering",
        "cls",
        "Class decorator that fills in missing ordering methods",
        |_, b| {
            let cls = b[0].clone().unwrap_or(Value::None);
            total_ordering(&cls)?;
            Ok(cls)
        },
    );
    m.set(
        "WRAPPER_ASSIGNMENTS",
        Value::tuple(ASSIGNED.iter().map(|s| Value::str(s)).collect()),
    );
    m.set(
        "WRAPPER_UPDATES",
        Value::tuple(vec![Value::str("__dict__")]),
    );
    m.def_shown(
        Function,
        "update_wrapper",
        "wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES",
        &format!(
            "update_wrapper(wrapper, wrapped, assigned={SHOWN_ASSIGNED}, updated=('__dict__',))"
        ),
        "Update a wrapper function to look like the wrapped function",
        |rt, b| {
            let wrapper = b[0].clone().unwrap_or(Value::None);
            let wrapped = b[1].clone().unwrap_or(Value::None);
            update_wrapper(rt, &wrapper, &wrapped, b[2].as_ref(), b[3].as_ref())
        },
    );
    m.def_shown(
        Function,
        "wraps",
        "wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES",
        &format!("wraps(wrapped, assigned={SHOWN_ASSIGNED}, updated=('__dict__',))"),
        "Decorator factory to apply update_wrapper() to a wrapper function",
        |_, b| {
            let wrapped = b[0].clone().unwrap_or(Value::None);
            let (assigned, updated) = (b[1].clone(), b[2].clone());
            Ok(Value::builtin(
                "functools.update_wrapper",
                "decorator(wrapper)",
                "Apply update_wrapper() with the wrapped function given to wraps().",
                move |rt, a| {
                    let b = a.bind("update_wrapper", &["wrapper"])?;
                    let wrapper = b[0].clone().unwrap_or(Value::None);
                    update_wrapper(rt, &wrapper, &wrapped, assigned.as_ref(), updated.as_ref())
                },
            ))
        },
    );
    m.def(
        Clinic,
        "cmp_to_key",
        "mycmp",
        "Convert a cmp= function into a key= function.",
        |_, b| {
            let cmp = b[0].clone().unwrap_or(Value::None);
            Ok(Value::object(KeyFunc { cmp }))
        },
    );
}

fn names(rt: &mut Runtime, v: Option<&Value>, default: &[&str]) -> PyResult<Vec<String>> {
    match v {
        None => Ok(default.iter().map(|s| s.to_string()).collect()),
        Some(v) => crate::interp::ops::iterate(rt, v)?
            .iter()
            .map(|n| {
                n.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| PyErr::type_error("attribute name must be string"))
            })
            .collect(),
    }
}

fn update_wrapper(
    rt: &mut Runtime,
    wrapper: &Value,
    wrapped: &Value,
    assigned: Option<&Value>,
    updated: Option<&Value>,
) -> PyResult<Value> {
    use crate::interp::attrs::{get_attr, set_attr};
    for name in names(rt, assigned, &ASSIGNED)? {
        // As CPython: an attribute the wrapped object lacks is skipped.
        match get_attr(rt, wrapped, &name) {
            Ok(v) => set_attr(rt, wrapper, &name, v)?,
            Err(e) if e.is_instance(ExcClass::AttributeError) => {}
            Err(e) => return Err(e),
        }
    }
    for name in names(rt, updated, &["__dict__"])? {
        let source = match get_attr(rt, wrapped, &name) {
            Ok(v) => v,
            Err(e) if e.is_instance(ExcClass::AttributeError) => continue,
            Err(e) => return Err(e),
        };
        if name == "__dict__" {
            // A function's __dict__ here is a copy, so its entries are set one by one.
            if let Value::Dict(d) = &source {
                let items = d.borrow().items();
                for (k, v) in items {
                    if let Some(k) = k.as_str() {
                        set_attr(rt, wrapper, k, v)?;
                    }
                }
            }
            continue;
        }
        let target = get_attr(rt, wrapper, &name)?;
        let update = get_attr(rt, &target, "update")?;
        rt.call(&update, Args::new(vec![source]))?;
    }
    set_attr(rt, wrapper, "__wrapped__", wrapped.clone())?;
    Ok(wrapper.clone())
}

/// What `cmp_to_key(mycmp)` returns: a callable making [`CmpKey`]s, shown as CPython's
/// `<functools.KeyWrapper object at 0x...>`.
struct KeyFunc {
    cmp: Value,
}

impl Object for KeyFunc {
    fn type_name(&self) -> String {
        "KeyWrapper".into()
    }
    fn module_name(&self) -> String {
        "functools".into()
    }
    fn call(self: Rc<Self>, args: Args, _rt: &mut Runtime) -> PyResult<Value> {
        let b = args.bind("K", &["obj"])?;
        Ok(Value::object(CmpKey {
            cmp: self.cmp.clone(),
            obj: b[0].clone().unwrap_or(Value::None),
        }))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// What `cmp_to_key(mycmp)(obj)` returns: compares through `mycmp`.
struct CmpKey {
    cmp: Value,
    obj: Value,
}

impl Object for CmpKey {
    fn type_name(&self) -> String {
        "functools.KeyWrapper".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok((name == "obj").then(|| self.obj.clone()))
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        reflected: bool,
        rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        if !matches!(
            op,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        ) {
            return Ok(None);
        }
        let Some(other) = other.downcast::<CmpKey>() else {
            return Err(PyErr::type_error("other argument must be K instance"));
        };
        let (a, b) = if reflected {
            (other.obj.clone(), self.obj.clone())
        } else {
            (self.obj.clone(), other.obj.clone())
        };
        let r = rt.call(&self.cmp, Args::new(vec![a, b]))?;
        let zero = Value::Int(0);
        crate::interp::ops::compare(rt, op, &r, &zero).map(Some)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

const ORDERING: [&str; 4] = ["__lt__", "__le__", "__gt__", "__ge__"];

/// CPython's choice: the defined operations are the roots, the greatest name among them
/// (`__lt__` first) derives the others, each as `functools` writes it in Python.
fn total_ordering(cls: &Value) -> PyResult<()> {
    let class = crate::interp::classes::as_class(cls)
        .ok_or_else(|| PyErr::type_error("total_ordering() decorates a class defined in a cell"))?;
    let roots: Vec<&'static str> = ORDERING
        .into_iter()
        .filter(|n| class.find(n).is_some())
        .collect();
    let Some(&root) = roots.iter().max() else {
        return Err(PyErr::value_error(
            "must define at least one ordering operation: < > <= >=",
        ));
    };
    for derived in ORDERING {
        if roots.contains(&derived) {
            continue;
        }
        let method = Value::object(crate::interp::class_tools::NativeMethod(Value::builtin(
            &format!("{}.{derived}", class.qualname),
            "(self, other)",
            "Derived by functools.total_ordering.",
            move |rt, a| {
                let b = a.bind(derived, &["self", "other"])?;
                let (this, other) = (
                    b[0].clone().unwrap_or(Value::None),
                    b[1].clone().unwrap_or(Value::None),
                );
                derive(rt, root, derived, &this, &other)
            },
        )));
        class.attrs.borrow_mut().insert(derived.to_string(), method);
    }
    Ok(())
}

/// `derived(this, other)` from `root(this, other)`: the root's answer, negated or combined
/// with `==`/`!=` as functools does; NotImplemented passes through.
fn derive(
    rt: &mut Runtime,
    root: &str,
    derived: &str,
    this: &Value,
    other: &Value,
) -> PyResult<Value> {
    let f = crate::interp::attrs::get_attr(rt, this, root)?;
    let r = crate::interp::expr::call_value(rt, &f, Args::new(vec![other.clone()]))?;
    if r.downcast::<crate::interp::class_tools::NotImplementedType>()
        .is_some()
    {
        return Ok(r);
    }
    let r = rt.truthy(&r)?;
    let eq = |rt: &mut Runtime| crate::interp::compare::py_eq(rt, this, other);
    // Whether `derived` holds given `root`, per functools' table: "strict" roots (< >)
    // and their mirrors need equality to split ties.
    let same_side = matches!(
        (root, derived),
        ("__lt__", "__le__") | ("__le__", "__lt__") | ("__gt__", "__ge__") | ("__ge__", "__gt__")
    );
    let strict_root = matches!(root, "__lt__" | "__gt__");
    Ok(Value::Bool(if same_side {
        // lt -> le: r or ==; le -> lt: r and !=; gt -> ge: r or ==; ge -> gt: r and !=.
        if strict_root {
            r || eq(rt)?
        } else {
            r && !eq(rt)?
        }
    } else if matches!(
        (root, derived),
        ("__lt__", "__ge__") | ("__le__", "__gt__") | ("__gt__", "__le__") | ("__ge__", "__lt__")
    ) {
        !r
    } else if strict_root {
        // lt -> gt, gt -> lt: not r and !=.
        !r && !eq(rt)?
    } else {
        // le -> ge, ge -> le: not r or ==.
        !r || eq(rt)?
    }))
}
