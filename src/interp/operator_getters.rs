//! `operator.itemgetter`, `attrgetter` and `methodcaller`: callable objects that fetch
//! items, attributes or call a method of their argument, with CPython's reprs, so
//! `sorted(rows, key=itemgetter(1))` works as it does in CPython.

use std::rc::Rc;

use crate::interp::{attrs, repr, subscript};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::{Clinic, ClinicNew};
use crate::py::value::{Args, Module, Object, Value};

/// Register the three getter constructors in the `operator` module.
pub fn register(m: &Module) {
    m.def_shown(
        ClinicNew,
        "itemgetter",
        "item, /, *items",
        "itemgetter(item, ...)",
        "itemgetter(item, ...) --> itemgetter object",
        |_, b| {
            let items = b.slots.iter().flatten().chain(&b.rest).cloned().collect();
            Ok(Value::object(ItemGetter { items }))
        },
    );
    m.def_shown(
        ClinicNew,
        "attrgetter",
        "attr, /, *attrs",
        "attrgetter(attr, ...)",
        "attrgetter(attr, ...) --> attrgetter object",
        |_, b| {
            let mut names = Vec::new();
            for v in b.slots.iter().flatten().chain(&b.rest) {
                match v {
                    Value::Str(s) => names.push(s.clone()),
                    _ => return Err(PyErr::type_error("attribute name must be a string")),
                }
            }
            Ok(Value::object(AttrGetter { names }))
        },
    );
    // methodcaller's own check: a keyword named name is one of the call's keywords.
    m.def_shown(
        Clinic,
        "methodcaller",
        "name, /, *args, **kwargs",
        "methodcaller(name, ...)",
        "methodcaller(name, ...) --> methodcaller object",
        |_, b| {
            let Some(name) = b.get(0) else {
                return Err(PyErr::type_error(
                    "methodcaller needs at least one argument, the method name",
                ));
            };
            let Value::Str(name) = name else {
                return Err(PyErr::type_error("method name must be a string"));
            };
            Ok(Value::object(MethodCaller {
                name: name.clone(),
                args: b.rest.clone(),
                kw: b.kw.clone(),
            }))
        },
    );
}

fn no_keywords(a: &Args, name: &str) -> PyResult<()> {
    if a.kw.is_empty() {
        Ok(())
    } else {
        Err(PyErr::type_error(format!(
            "{name}() takes no keyword arguments"
        )))
    }
}

/// The one argument a getter is called with.
fn only_arg(args: Args, name: &str) -> PyResult<Value> {
    no_keywords(&args, name)?;
    let n = args.pos.len();
    match <[Value; 1]>::try_from(args.pos) {
        Ok([x]) => Ok(x),
        Err(_) => Err(PyErr::type_error(format!(
            "{name} expected 1 argument, got {n}"
        ))),
    }
}

fn reprs(rt: &mut Runtime, items: &[Value]) -> PyResult<Vec<String>> {
    items.iter().map(|v| repr::repr(rt, v)).collect()
}

struct ItemGetter {
    items: Vec<Value>,
}

impl Object for ItemGetter {
    fn type_name(&self) -> String {
        "operator.itemgetter".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "operator.itemgetter({})",
            reprs(rt, &self.items)?.join(", ")
        ))
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let obj = only_arg(args, "itemgetter")?;
        if let [k] = self.items.as_slice() {
            return subscript::get_item(rt, &obj, k);
        }
        let mut out = Vec::with_capacity(self.items.len()); // bounded: the getter's own items
        for k in &self.items {
            out.push(subscript::get_item(rt, &obj, k)?);
        }
        Ok(Value::tuple(out))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

struct AttrGetter {
    names: Vec<Rc<str>>,
}

impl AttrGetter {
    fn fetch(rt: &mut Runtime, obj: &Value, dotted: &str) -> PyResult<Value> {
        let mut cur = obj.clone();
        for part in dotted.split('.') {
            cur = attrs::get_attr(rt, &cur, part)?;
        }
        Ok(cur)
    }
}

impl Object for AttrGetter {
    fn type_name(&self) -> String {
        "operator.attrgetter".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        let names: Vec<Value> = self.names.iter().map(|n| Value::Str(n.clone())).collect();
        Ok(format!(
            "operator.attrgetter({})",
            reprs(rt, &names)?.join(", ")
        ))
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let obj = only_arg(args, "attrgetter")?;
        if let [n] = self.names.as_slice() {
            return Self::fetch(rt, &obj, n);
        }
        let mut out = Vec::with_capacity(self.names.len()); // bounded: the getter's own names
        for n in &self.names {
            out.push(Self::fetch(rt, &obj, n)?);
        }
        Ok(Value::tuple(out))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

struct MethodCaller {
    name: Rc<str>,
    args: Vec<Value>,
    kw: Vec<(Rc<str>, Value)>,
}

impl Object for MethodCaller {
    fn type_name(&self) -> String {
        "operator.methodcaller".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        let mut parts = vec![repr::repr(rt, &Value::Str(self.name.clone()))?];
        parts.extend(reprs(rt, &self.args)?);
        for (k, v) in &self.kw {
            parts.push(format!("{k}={}", repr::repr(rt, v)?));
        }
        Ok(format!("operator.methodcaller({})", parts.join(", ")))
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let obj = only_arg(args, "methodcaller")?;
        let method = attrs::get_attr(rt, &obj, &self.name)?;
        rt.call(
            &method,
            Args {
                pos: self.args.clone(),
                kw: self.kw.clone(),
            },
        )
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
