//! `frozenset`: an immutable set. It shares `set`'s table and algorithms ([`crate::interp::sets`])
//! and adds what immutability buys: a hash (CPython's, so `hash(frozenset())` is the value
//! CPython prints) and use as a dict key or set item. A binary operator's result has the
//! left operand's type, as CPython's set/frozenset operators do.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::interp::sets::{self, SetCell};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Dict, Object, Value};

pub struct FrozenSet {
    pub items: SetCell,
}

/// The methods a frozenset shares with set: the ones that leave the receiver alone.
const SHARED: &[&str] = &[
    "difference",
    "intersection",
    "isdisjoint",
    "issubset",
    "issuperset",
    "symmetric_difference",
    "union",
];

/// A frozenset holding the items of `cell` (which it then owns: nobody may mutate it).
pub fn wrap(cell: SetCell) -> Value {
    Value::object(FrozenSet { items: cell })
}

/// The set table behind a set or frozenset value.
pub fn set_cell(v: &Value) -> Option<SetCell> {
    match v {
        Value::Set(s) => Some(s.clone()),
        other => other.downcast::<FrozenSet>().map(|f| f.items.clone()),
    }
}

/// `frozenset()`, `frozenset(iterable)`; a frozenset argument is returned as it is.
pub fn construct(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    if let Some((k, _)) = a.kw.first() {
        return Err(PyErr::type_error(format!(
            "frozenset() takes no keyword arguments (got '{k}')"
        )));
    }
    match a.pos.as_slice() {
        [] => Ok(wrap(Rc::new(RefCell::new(Dict::default())))),
        [v] if v.downcast::<FrozenSet>().is_some() => Ok(v.clone()),
        [v] => {
            let items = rt.iterate(v)?;
            match &sets::from_items(rt, items)? {
                Value::Set(s) => Ok(wrap(s.clone())),
                _ => Err(PyErr::internal("from_items made no set")),
            }
        }
        more => Err(PyErr::type_error(format!(
            "frozenset expected at most 1 argument, got {}",
            more.len()
        ))),
    }
}

/// CPython's frozenset hash: the items' hashes, bit-shuffled and xor-ed (so order does not
/// matter), then mixed with the size and dispersed so nested frozensets spread out.
pub fn hash(cell: &RefCell<Dict>) -> i64 {
    let shuffle = |h: u64| ((h ^ 89869747) ^ (h << 16)).wrapping_mul(3644798167);
    let entries = cell.borrow().hashed_keys();
    let mut h: u64 = 0;
    for (_, item) in &entries {
        h ^= shuffle(item.unwrap_or(0));
    }
    h ^= (entries.len() as u64 + 1).wrapping_mul(1927868237);
    h ^= (h >> 11) ^ (h >> 25);
    h = h.wrapping_mul(69069).wrapping_add(907133923);
    if h == u64::MAX {
        h = 590923713;
    }
    h as i64
}

/// A set method's result as the frozenset method gives it: a frozenset for a set.
fn refreeze(v: Value) -> Value {
    match &v {
        Value::Set(s) => wrap(s.clone()),
        _ => v,
    }
}

impl Object for FrozenSet {
    fn type_name(&self) -> String {
        "frozenset".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        if self.items.borrow().is_empty() {
            return Ok("frozenset()".into());
        }
        let inner = crate::interp::repr::repr(rt, &Value::Set(self.items.clone()))?;
        Ok(format!("frozenset({inner})"))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        if name == "copy" {
            // A frozenset's copy is itself, as in CPython (`fs.copy() is fs`).
            let this: Value = Value::Object(self.clone());
            return Ok(Some(Value::builtin(
                "frozenset.copy",
                "copy()",
                "Return a shallow copy of a set.",
                move |_, _| Ok(this.clone()),
            )));
        }
        if !SHARED.contains(&name) {
            return Ok(None);
        }
        let Some(method) = sets::SET.bound(&self.items, name) else {
            return Ok(None);
        };
        let Value::Builtin(b) = &method else {
            return Ok(None);
        };
        let (sig, doc) = (b.signature.to_string(), b.doc.to_string());
        Ok(Some(Value::builtin(
            &format!("frozenset.{name}"),
            &sig,
            &doc,
            move |rt, args| Ok(refreeze(rt.call(&method, args)?)),
        )))
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        reflected: bool,
        rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        let Some(theirs) = set_cell(other) else {
            return Ok(None);
        };
        let (a, b) = if reflected {
            (theirs, self.items.clone())
        } else {
            (self.items.clone(), theirs)
        };
        // Reflected, the left operand is a set (a frozenset would have answered first).
        Ok(sets::binary(rt, op, &a, &b)?.map(|v| if reflected { v } else { refreeze(v) }))
    }
    fn py_eq(&self, other: &Value, rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(Some(match set_cell(other) {
            Some(theirs) => sets::equal(rt, &self.items, &theirs)?,
            None => false,
        }))
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(self.items.borrow().keys()))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(self.items.borrow().len()))
    }
    fn truthy(&self, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(!self.items.borrow().is_empty())
    }
    fn dir(&self) -> Vec<String> {
        let mut names: Vec<String> = SHARED.iter().map(|s| s.to_string()).collect();
        names.push("copy".into());
        names.sort();
        names
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
