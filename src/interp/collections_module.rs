//! The `collections` module: `namedtuple` here, `deque` in `collections_deque.rs`, the dict
//! subclasses (`defaultdict`, `Counter`, `OrderedDict`) in `collections_dicts.rs`.
//!
//! A namedtuple class is a native type object, and its instances behave as tuples
//! (indexing, unpacking, `len`, `==` and ordering against tuples, `+`, tuple methods) with
//! attribute access by field name. Instances are `tuple` instances for `isinstance`. Known
//! differences from CPython: their `hash()` is not the tuple's, and the class cannot be
//! subclassed.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::interp::collections_dicts as dicts;
use crate::interp::ops;
use crate::interp::repr::repr;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Bound;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, ClassObj, Dict, Module, Object, Value};

fn class(name: &str, sig: &str, doc: &str, f: fn(&mut Runtime, Args) -> PyResult<Value>) -> Value {
    Value::object(ClassObj {
        module: "collections".into(),
        name: name.into(),
        ctor: Some(Value::builtin(&format!("collections.{name}"), sig, doc, f)),
    })
}

/// The `collections` module.
pub fn module() -> Rc<Module> {
    let m = Module::new(
        "collections",
        "Container datatypes: namedtuple, deque, defaultdict, Counter, OrderedDict.",
    );
    m.def(
        Function,
        "namedtuple",
        "typename, field_names, *, rename=False, defaults=None, module=None",
        "A new tuple subclass with named fields.",
        namedtuple,
    );
    m.set(
        "deque",
        class(
            "deque",
            "deque(iterable=(), maxlen=None)",
            "A double-ended queue, optionally bounded.",
            crate::interp::collections_deque::new_deque,
        ),
    );
    m.set(
        "defaultdict",
        class(
            "defaultdict",
            "defaultdict(default_factory=None, /, [...])",
            "A dict that calls default_factory for missing keys and stores the result.",
            dicts::new_defaultdict,
        ),
    );
    m.set(
        "Counter",
        class(
            "Counter",
            "Counter(iterable=None, /, **kwds)",
            "A dict that counts hashable items; missing items count zero.",
            crate::interp::collections_counter::new_counter,
        ),
    );
    m.set(
        "OrderedDict",
        class(
            "OrderedDict",
            "OrderedDict(mapping_or_pairs=(), /, **kwargs)",
            "A dict that remembers and can rearrange its insertion order.",
            dicts::new_ordereddict,
        ),
    );
    Rc::new(m)
}

// ---- namedtuple -----------------------------------------------------------------------

const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

fn namedtuple(rt: &mut Runtime, b: Bound) -> PyResult<Value> {
    let name = match &b[0] {
        Some(Value::Str(s)) => s.to_string(),
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "namedtuple() typename must be str, not {}",
                other.type_name()
            )))
        }
        None => {
            return Err(PyErr::type_error(
                "namedtuple() missing required argument: 'typename'",
            ))
        }
    };
    let fields: Vec<String> = match &b[1] {
        Some(Value::Str(s)) => s
            .replace(',', " ")
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        Some(other) => {
            let mut out = Vec::new();
            for v in rt.iterate(other)? {
                out.push(crate::interp::repr::to_str(rt, &v)?);
            }
            out
        }
        None => {
            return Err(PyErr::type_error(
                "namedtuple() missing required argument: 'field_names'",
            ))
        }
    };
    if b[2]
        .as_ref()
        .is_some_and(|v| !matches!(v, Value::Bool(false)))
    {
        return Err(PyErr::not_implemented(
            "namedtuple(rename=True) is not supported in nbcuda",
        ));
    }
    for n in std::iter::once(&name).chain(&fields) {
        if !is_identifier(n) {
            return Err(PyErr::value_error(format!(
                "Type names and field names must be valid identifiers: '{n}'"
            )));
        }
        if KEYWORDS.contains(&n.as_str()) {
            return Err(PyErr::value_error(format!(
                "Type names and field names cannot be a keyword: '{n}'"
            )));
        }
    }
    let mut seen: Vec<&String> = Vec::new();
    for f in &fields {
        if f.starts_with('_') {
            return Err(PyErr::value_error(format!(
                "Field names cannot start with an underscore: '{f}'"
            )));
        }
        if seen.contains(&f) {
            return Err(PyErr::value_error(format!(
                "Encountered duplicate field name: '{f}'"
            )));
        }
        seen.push(f);
    }
    let defaults = match &b[3] {
        None | Some(Value::None) => Vec::new(),
        Some(v) => rt.iterate(v)?,
    };
    if defaults.len() > fields.len() {
        return Err(PyErr::type_error(
            "Got more default values than field names",
        ));
    }
    let module = match &b[4] {
        Some(Value::Str(s)) => s.to_string(),
        _ => "__main__".into(),
    };
    Ok(Value::Object(Rc::new_cyclic(|this| NamedTupleType {
        this: this.clone(),
        name,
        module,
        fields,
        defaults,
    })))
}

/// A class made by `namedtuple`.
pub struct NamedTupleType {
    this: std::rc::Weak<NamedTupleType>,
    name: String,
    module: String,
    fields: Vec<String>,
    /// Defaults of the rightmost fields.
    defaults: Vec<Value>,
}

impl NamedTupleType {
    fn rc(&self) -> PyResult<Rc<NamedTupleType>> {
        self.this
            .upgrade()
            .ok_or_else(|| PyErr::internal("namedtuple class used while being dropped"))
    }

    fn make(&self, items: Vec<Value>) -> PyResult<Value> {
        Ok(Value::object(NamedTuple {
            ty: self.rc()?,
            items: Rc::from(items),
        }))
    }

    /// `Point(1, y=2)`: arguments bound as CPython's generated `__new__` binds them.
    fn construct(&self, a: Args) -> PyResult<Value> {
        let n = self.fields.len();
        let fname = format!("{}.__new__()", self.name);
        if a.pos.len() > n {
            return Err(PyErr::type_error(format!(
                "{fname} takes {} positional argument{} but {} were given",
                n + 1,
                if n == 0 { "" } else { "s" },
                a.pos.len() + 1
            )));
        }
        let mut slots: Vec<Option<Value>> = a.pos.into_iter().map(Some).collect();
        slots.resize(n, None); // bounded: n is the number of field names, already held
        for (k, v) in a.kw {
            match self.fields.iter().position(|f| **f == *k) {
                Some(i) if slots[i].is_some() => {
                    return Err(PyErr::type_error(format!(
                        "{fname} got multiple values for argument '{k}'"
                    )))
                }
                Some(i) => slots[i] = Some(v),
                None => {
                    return Err(PyErr::type_error(format!(
                        "{fname} got an unexpected keyword argument '{k}'"
                    )))
                }
            }
        }
        let first_default = n - self.defaults.len();
        for (i, slot) in slots.iter_mut().enumerate() {
            if slot.is_none() && i >= first_default {
                *slot = Some(self.defaults[i - first_default].clone());
            }
        }
        let missing: Vec<String> = slots
            .iter()
            .zip(&self.fields)
            .filter(|(s, _)| s.is_none())
            .map(|(_, f)| format!("'{f}'"))
            .collect();
        if !missing.is_empty() {
            let list = match missing.as_slice() {
                [one] => one.clone(),
                [init @ .., last] if init.len() == 1 => format!("{} and {last}", init[0]),
                [init @ .., last] => format!("{}, and {last}", init.join(", ")),
                [] => String::new(),
            };
            return Err(PyErr::type_error(format!(
                "{fname} missing {} required positional argument{}: {list}",
                missing.len(),
                if missing.len() == 1 { "" } else { "s" }
            )));
        }
        self.make(slots.into_iter().flatten().collect())
    }

    fn fields_tuple(&self) -> Value {
        Value::tuple(self.fields.iter().map(|f| Value::str(f)).collect())
    }
}

impl Object for NamedTupleType {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("<class '{}.{}'>", self.module, self.name))
    }
    fn call(self: Rc<Self>, args: Args, _rt: &mut Runtime) -> PyResult<Value> {
        self.construct(args)
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(Some(match name {
            "__name__" | "__qualname__" => Value::str(&self.name),
            "__module__" => Value::str(&self.module),
            "__doc__" => Value::str(&format!("{}({})", self.name, self.fields.join(", "))),
            "_fields" | "__match_args__" => self.fields_tuple(),
            "_field_defaults" => {
                let mut d = Dict::default();
                let first = self.fields.len() - self.defaults.len();
                for (f, v) in self.fields[first..].iter().zip(&self.defaults) {
                    d.insert_str(f, v.clone());
                }
                Value::Dict(Rc::new(RefCell::new(d)))
            }
            "_make" => Value::method(
                &self,
                &format!("{}._make", self.name),
                "_make(iterable)",
                "Make a new instance from a sequence or iterable.",
                |this, rt, a| {
                    let b = a.bind("_make", &["iterable"])?;
                    let items = rt.iterate(b[0].as_ref().unwrap_or(&Value::None))?;
                    if items.len() != this.fields.len() {
                        return Err(PyErr::type_error(format!(
                            "Expected {} arguments, got {}",
                            this.fields.len(),
                            items.len()
                        )));
                    }
                    this.make(items)
                },
            ),
            _ => return Ok(None),
        }))
    }
    fn py_eq(&self, other: &Value, _rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(Some(
            other
                .downcast::<NamedTupleType>()
                .is_some_and(|o| std::ptr::eq(o, self)),
        ))
    }
    fn dir(&self) -> Vec<String> {
        ["_field_defaults", "_fields", "_make"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }
    fn doc(&self) -> Option<(String, String)> {
        Some((
            format!("{}({})", self.name, self.fields.join(", ")),
            format!("{}({})", self.name, self.fields.join(", ")),
        ))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// An instance of a namedtuple class.
pub struct NamedTuple {
    ty: Rc<NamedTupleType>,
    items: Rc<[Value]>,
}

impl NamedTuple {
    /// The field values, in order.
    pub fn items(&self) -> &[Value] {
        &self.items
    }
    fn as_tuple(&self) -> Value {
        Value::Tuple(self.items.clone())
    }
}

/// The items of a tuple or a namedtuple, for comparisons.
fn tuple_items(v: &Value) -> Option<Value> {
    match v {
        Value::Tuple(_) => Some(v.clone()),
        _ => v.downcast::<NamedTuple>().map(NamedTuple::as_tuple),
    }
}

impl Object for NamedTuple {
    fn type_name(&self) -> String {
        self.ty.name.clone()
    }
    fn module_name(&self) -> String {
        self.ty.module.clone()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        let mut parts = Vec::new();
        for (f, v) in self.ty.fields.iter().zip(self.items.iter()) {
            parts.push(format!("{f}={}", repr(rt, v)?));
        }
        Ok(format!("{}({})", self.ty.name, parts.join(", ")))
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        if let Some(i) = self.ty.fields.iter().position(|f| f == name) {
            return Ok(Some(self.items[i].clone()));
        }
        Ok(Some(match name {
            "_fields" => self.ty.fields_tuple(),
            "__class__" => Value::Object(self.ty.clone()),
            "_asdict" => Value::method(
                &self,
                &format!("{}._asdict", self.ty.name),
                "_asdict()",
                "A new dict mapping field names to their values.",
                |this, _, _| {
                    let mut d = Dict::default();
                    for (f, v) in this.ty.fields.iter().zip(this.items.iter()) {
                        d.insert_str(f, v.clone());
                    }
                    Ok(Value::Dict(Rc::new(RefCell::new(d))))
                },
            ),
            "_replace" => Value::method(
                &self,
                &format!("{}._replace", self.ty.name),
                "_replace(**kwds)",
                "A new instance with the given fields replaced.",
                |this, _, a| {
                    if !a.pos.is_empty() {
                        return Err(PyErr::type_error(format!(
                            "{}._replace() takes 1 positional argument but {} were given",
                            this.ty.name,
                            a.pos.len() + 1
                        )));
                    }
                    let mut items = this.items.to_vec();
                    let mut unknown = Vec::new();
                    for (k, v) in a.kw {
                        match this.ty.fields.iter().position(|f| **f == *k) {
                            Some(i) => items[i] = v,
                            None => unknown.push(format!("'{k}'")),
                        }
                    }
                    if !unknown.is_empty() {
                        return Err(PyErr::value_error(format!(
                            "Got unexpected field names: [{}]",
                            unknown.join(", ")
                        )));
                    }
                    this.ty.make(items)
                },
            ),
            "_make" | "_field_defaults" => {
                return self.ty.clone().get_attr(name, rt);
            }
            _ => {
                return match crate::interp::attrs::get_attr(rt, &self.as_tuple(), name) {
                    Ok(v) => Ok(Some(v)),
                    Err(e) if e.is_instance(crate::py::exceptions::ExcClass::AttributeError) => {
                        Ok(None)
                    }
                    Err(e) => Err(e),
                };
            }
        }))
    }
    fn set_attr(&self, name: &str, _value: Value, _rt: &mut Runtime) -> PyResult<bool> {
        if self.ty.fields.iter().any(|f| f == name) {
            return Err(PyErr::attribute_error("can't set attribute"));
        }
        Err(PyErr::attribute_error(format!(
            "'{}' object has no attribute '{name}'",
            self.ty.name
        )))
    }
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        crate::interp::subscript::get_item(rt, &self.as_tuple(), key)
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(self.items.to_vec()))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(self.items.len()))
    }
    fn named_tuple(&self) -> Option<(Vec<String>, Vec<Value>)> {
        Some((self.ty.fields.to_vec(), self.items.to_vec()))
    }
    fn truthy(&self, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(!self.items.is_empty())
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        reflected: bool,
        rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        let me = self.as_tuple();
        let other = match op {
            BinOp::Mul => other.clone(),
            _ => match tuple_items(other) {
                Some(t) => t,
                None => return Ok(None),
            },
        };
        let (a, b) = if reflected { (other, me) } else { (me, other) };
        Ok(Some(match op {
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                ops::compare(rt, op, &a, &b)?
            }
            BinOp::Add | BinOp::Mul => ops::binary(rt, op, &a, &b)?,
            _ => return Ok(None),
        }))
    }
    fn py_eq(&self, other: &Value, rt: &mut Runtime) -> PyResult<Option<bool>> {
        match tuple_items(other) {
            Some(t) => Ok(Some(ops::py_eq(rt, &self.as_tuple(), &t)?)),
            None => Ok(Some(false)),
        }
    }
    fn dir(&self) -> Vec<String> {
        let mut v: Vec<String> = ["_asdict", "_field_defaults", "_fields", "_make", "_replace"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(self.ty.fields.iter().cloned());
        v.extend(["count".to_string(), "index".to_string()]);
        v
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
