//! The dict subclasses of `collections`: `defaultdict` and `OrderedDict` here, `Counter` in
//! `collections_counter.rs`, with the helpers they share.
//!
//! Each wraps a shared [`Dict`] and hands the plain dict methods (`keys`, `items`, `get`,
//! `pop`, ...) to the interpreter's own, so they behave exactly as a dict's; only what the
//! subclass changes is written here. `dict(x)`, `{**x}`, `f(**x)` and `d.update(x)` reach
//! their entries through [`dict_of`]; they are still not `dict` instances for `isinstance`,
//! which is where they differ from CPython.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use crate::interp::collections_counter::Counter;
use crate::interp::ops;
use crate::interp::repr::repr;
use crate::interp::subscript::{check_hashable, dict_find, dict_lookup, dict_remove, dict_store};
use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::ExcClass;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Dict, Object, Value};

pub(crate) type Shared = Rc<RefCell<Dict>>;

pub(crate) fn new_dict() -> Shared {
    Rc::new(RefCell::new(Dict::default()))
}

/// The entries behind a dict or one of the dict subclasses here.
pub fn dict_of(v: &Value) -> Option<Shared> {
    if let Value::Dict(d) = v {
        return Some(d.clone());
    }
    if let Some(x) = v.downcast::<DefaultDict>() {
        return Some(x.d.clone());
    }
    if let Some(x) = v.downcast::<Counter>() {
        return Some(x.d.clone());
    }
    v.downcast::<OrderedDict>().map(|x| x.d.clone())
}

/// A dict method of `d`, bound; None when dicts have no such attribute.
pub(crate) fn dict_attr(rt: &mut Runtime, d: &Shared, name: &str) -> PyResult<Option<Value>> {
    match crate::interp::attrs::get_attr(rt, &Value::Dict(d.clone()), name) {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.is_instance(ExcClass::AttributeError) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The items of a cell-defined mapping (an instance with `keys()`, such as a
/// collections.abc.Mapping subclass): CPython's dict() and update() read any object with
/// `keys` as a mapping, through `keys()` and `obj[key]`. None for other values.
pub(crate) fn user_mapping_items(
    rt: &mut Runtime,
    src: &Value,
) -> PyResult<Option<Vec<(Value, Value)>>> {
    if crate::interp::classes::as_instance(src).is_none() {
        return Ok(None);
    }
    let Ok(keys) = crate::interp::attrs::get_attr(rt, src, "keys") else {
        return Ok(None);
    };
    let keys = crate::interp::expr::call_value(rt, &keys, Args::new(vec![]))?;
    let mut items = Vec::new();
    for k in rt.iterate(&keys)? {
        let v = crate::interp::subscript::get_item(rt, src, &k)?;
        items.push((k, v));
    }
    Ok(Some(items))
}

/// `dict(src, **kw)`'s entries stored into `d` (a mapping, or an iterable of pairs).
pub(crate) fn fill(
    rt: &mut Runtime,
    d: &Shared,
    src: Option<&Value>,
    kw: &[(Rc<str>, Value)],
) -> PyResult<()> {
    if let Some(src) = src {
        if let Some(items) = user_mapping_items(rt, src)? {
            for (k, v) in items {
                dict_store(rt, d, k, v)?;
            }
            return fill(rt, d, None, kw);
        }
        match dict_of(src) {
            Some(o) => {
                let items = o.borrow().items();
                for (k, v) in items {
                    dict_store(rt, d, k, v)?;
                }
            }
            None => {
                for pair in rt.iterate(src)? {
                    match rt.iterate(&pair)?.as_slice() {
                        [k, v] => dict_store(rt, d, k.clone(), v.clone())?,
                        _ => {
                            return Err(PyErr::value_error(
                                "dictionary update sequence element has wrong length",
                            ))
                        }
                    }
                }
            }
        }
    }
    for (k, v) in kw {
        dict_store(rt, d, Value::Str(k.clone()), v.clone())?;
    }
    Ok(())
}

pub(crate) fn get_key(rt: &mut Runtime, d: &Shared, key: &Value) -> PyResult<Option<Value>> {
    check_hashable(rt, key)?;
    dict_lookup(rt, d, key)
}

pub(crate) fn key_error(rt: &mut Runtime, key: &Value) -> PyResult<PyErr> {
    Ok(PyErr::key_error(repr(rt, key)?))
}

pub(crate) fn del_key(rt: &mut Runtime, d: &Shared, key: &Value) -> PyResult<()> {
    check_hashable(rt, key)?;
    match dict_remove(rt, d, key)? {
        Some(_) => Ok(()),
        None => Err(key_error(rt, key)?),
    }
}

/// Dict equality, order ignored.
pub(crate) fn dict_eq(rt: &mut Runtime, d: &Shared, other: &Value) -> PyResult<Option<bool>> {
    match dict_of(other) {
        Some(o) => Ok(Some(ops::py_eq(
            rt,
            &Value::Dict(d.clone()),
            &Value::Dict(o),
        )?)),
        None => Ok(Some(false)),
    }
}

/// `name(<class 'list'>, ...)`-style class names IPython prints bare (`list`).
pub(crate) fn pretty_factory(rt: &mut Runtime, f: &Value) -> PyResult<String> {
    match f {
        Value::Builtin(b) if crate::interp::repr::is_type_builtin(&b.name) => Ok(b.name.clone()),
        Value::Object(o) if o.type_name() == "type" => {
            let r = repr(rt, f)?;
            Ok(r.strip_prefix("<class '")
                .and_then(|s| s.strip_suffix("'>"))
                .map(str::to_string)
                .unwrap_or(r))
        }
        _ => repr(rt, f),
    }
}

pub(crate) fn text_plain(s: String) -> Option<serde_json::Map<String, serde_json::Value>> {
    let mut m = serde_json::Map::new();
    m.insert("text/plain".into(), serde_json::Value::String(s));
    Some(m)
}

// ---- defaultdict ----------------------------------------------------------------------

/// `collections.defaultdict(default_factory=None, /, ...)`.
pub fn new_defaultdict(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let factory = a.pos.first().cloned().unwrap_or(Value::None);
    if !factory.is_none() && !callable(&factory) {
        return Err(PyErr::type_error("first argument must be callable or None"));
    }
    if a.pos.len() > 2 {
        return Err(PyErr::type_error(format!(
            "dict expected at most 1 argument, got {}",
            a.pos.len() - 1
        )));
    }
    let d = new_dict();
    fill(rt, &d, a.pos.get(1), &a.kw)?;
    Ok(Value::object(DefaultDict {
        factory: RefCell::new(factory),
        d,
    }))
}

pub(crate) fn callable(v: &Value) -> bool {
    matches!(v, Value::Builtin(_) | Value::Object(_))
}

pub struct DefaultDict {
    factory: RefCell<Value>,
    d: Shared,
}

impl Object for DefaultDict {
    fn type_name(&self) -> String {
        "defaultdict".into()
    }
    fn module_name(&self) -> String {
        "collections".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        let f = self.factory.borrow().clone();
        Ok(format!(
            "defaultdict({}, {})",
            repr(rt, &f)?,
            repr(rt, &Value::Dict(self.d.clone()))?
        ))
    }
    fn mime_bundle(
        &self,
        rt: &mut Runtime,
    ) -> PyResult<Option<serde_json::Map<String, serde_json::Value>>> {
        // IPython prints the factory as a name: `defaultdict(list, {...})`.
        let f = self.factory.borrow().clone();
        let body = crate::interp::repr::pretty(rt, &Value::Dict(self.d.clone()))?;
        Ok(text_plain(format!(
            "defaultdict({}, {body})",
            pretty_factory(rt, &f)?
        )))
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        match name {
            "default_factory" => Ok(Some(self.factory.borrow().clone())),
            "copy" | "__copy__" => Ok(Some(Value::method(
                &self,
                "defaultdict.copy",
                "copy()",
                "A shallow copy.",
                |this, _, _| {
                    Ok(Value::object(DefaultDict {
                        factory: RefCell::new(this.factory.borrow().clone()),
                        d: Rc::new(RefCell::new(this.d.borrow().clone())),
                    }))
                },
            ))),
            _ => dict_attr(rt, &self.d, name),
        }
    }
    fn set_attr(&self, name: &str, value: Value, _rt: &mut Runtime) -> PyResult<bool> {
        if name != "default_factory" {
            return Ok(false);
        }
        *self.factory.borrow_mut() = value;
        Ok(true)
    }
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        if let Some(v) = get_key(rt, &self.d, key)? {
            return Ok(v);
        }
        let f = self.factory.borrow().clone();
        if f.is_none() {
            return Err(key_error(rt, key)?);
        }
        // __missing__: the factory's value is stored, then returned.
        let v = rt.call(&f, Args::default())?;
        dict_store(rt, &self.d, key.clone(), v.clone())?;
        Ok(v)
    }
    fn set_item(&self, key: &Value, value: Value, rt: &mut Runtime) -> PyResult<()> {
        dict_store(rt, &self.d, key.clone(), value)
    }
    fn del_item(&self, key: &Value, rt: &mut Runtime) -> PyResult<()> {
        del_key(rt, &self.d, key)
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(self.d.borrow().keys()))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(self.d.borrow().len()))
    }
    fn truthy(&self, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(!self.d.borrow().is_empty())
    }
    fn py_eq(&self, other: &Value, rt: &mut Runtime) -> PyResult<Option<bool>> {
        dict_eq(rt, &self.d, other)
    }
    fn dir(&self) -> Vec<String> {
        dict_names(&["default_factory"])
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

pub(crate) fn dict_names(extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "clear",
        "copy",
        "get",
        "items",
        "keys",
        "pop",
        "popitem",
        "setdefault",
        "update",
        "values",
    ]
    .iter()
    .chain(extra)
    .map(|s| s.to_string())
    .collect();
    v.sort();
    v
}

// ---- OrderedDict ----------------------------------------------------------------------

/// `collections.OrderedDict(mapping_or_pairs=(), /, **kwargs)`.
pub fn new_ordereddict(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    if a.pos.len() > 1 {
        return Err(PyErr::type_error(format!(
            "OrderedDict expected at most 1 argument, got {}",
            a.pos.len()
        )));
    }
    let d = new_dict();
    fill(rt, &d, a.pos.first(), &a.kw)?;
    Ok(Value::object(OrderedDict { d }))
}

pub struct OrderedDict {
    d: Shared,
}

pub(crate) fn last_arg(a: &Args, fname: &str, rt: &mut Runtime) -> PyResult<(Option<Value>, bool)> {
    let b = a.bind(fname, &["key=", "last="])?;
    let last = match &b[1] {
        Some(v) => rt.truthy(v)?,
        None => true,
    };
    Ok((b[0].clone(), last))
}

impl Object for OrderedDict {
    fn type_name(&self) -> String {
        "OrderedDict".into()
    }
    fn module_name(&self) -> String {
        "collections".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        if self.d.borrow().is_empty() {
            return Ok("OrderedDict()".into());
        }
        let items: Vec<Value> = self
            .d
            .borrow()
            .items()
            .into_iter()
            .map(|(k, v)| Value::tuple(vec![k, v]))
            .collect();
        Ok(format!("OrderedDict({})", repr(rt, &Value::list(items))?))
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(Some(match name {
            "move_to_end" => Value::method(
                &self,
                "OrderedDict.move_to_end",
                "move_to_end(key, last=True)",
                "Move an existing key to either end of the order.",
                |this, rt, a| {
                    let (key, last) = last_arg(&a, "move_to_end", rt)?;
                    let key = key.ok_or_else(|| {
                        PyErr::type_error("move_to_end() missing required argument 'key' (pos 1)")
                    })?;
                    let Some(slot) = dict_find(rt, &this.d, &key)? else {
                        return Err(key_error(rt, &key)?);
                    };
                    this.d.borrow_mut().move_entry(slot, last);
                    Ok(Value::None)
                },
            ),
            "popitem" => Value::method(
                &self,
                "OrderedDict.popitem",
                "popitem(last=True)",
                "Remove and return a (key, value) pair from the end (or the start).",
                |this, rt, a| {
                    let b = a.bind("popitem", &["last="])?;
                    let last = match &b[0] {
                        Some(v) => rt.truthy(v)?,
                        None => true,
                    };
                    let mut d = this.d.borrow_mut();
                    let popped = if last { d.pop_last() } else { d.pop_first() };
                    match popped {
                        Some((k, v)) => Ok(Value::tuple(vec![k, v])),
                        None => Err(PyErr::key_error("'dictionary is empty'")),
                    }
                },
            ),
            "copy" | "__copy__" => Value::method(
                &self,
                "OrderedDict.copy",
                "copy()",
                "A shallow copy.",
                |this, _, _| {
                    Ok(Value::object(OrderedDict {
                        d: Rc::new(RefCell::new(this.d.borrow().clone())),
                    }))
                },
            ),
            _ => return dict_attr(rt, &self.d, name),
        }))
    }
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        match get_key(rt, &self.d, key)? {
            Some(v) => Ok(v),
            None => Err(key_error(rt, key)?),
        }
    }
    fn set_item(&self, key: &Value, value: Value, rt: &mut Runtime) -> PyResult<()> {
        dict_store(rt, &self.d, key.clone(), value)
    }
    fn del_item(&self, key: &Value, rt: &mut Runtime) -> PyResult<()> {
        del_key(rt, &self.d, key)
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(self.d.borrow().keys()))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(self.d.borrow().len()))
    }
    fn truthy(&self, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(!self.d.borrow().is_empty())
    }
    fn py_eq(&self, other: &Value, rt: &mut Runtime) -> PyResult<Option<bool>> {
        // Two OrderedDicts are equal only in the same order; against a dict, order is ignored.
        if let Some(o) = other.downcast::<OrderedDict>() {
            let (a, b) = (self.d.borrow().items(), o.d.borrow().items());
            let a: Vec<Value> = a
                .into_iter()
                .map(|(k, v)| Value::tuple(vec![k, v]))
                .collect();
            let b: Vec<Value> = b
                .into_iter()
                .map(|(k, v)| Value::tuple(vec![k, v]))
                .collect();
            return Ok(Some(ops::py_eq(rt, &Value::list(a), &Value::list(b))?));
        }
        dict_eq(rt, &self.d, other)
    }
    fn dir(&self) -> Vec<String> {
        dict_names(&["move_to_end"])
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
