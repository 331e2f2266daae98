//! `set`: a [`Dict`] whose keys are the items (values unused), so membership, `add` and
//! `discard` take constant time; the methods, the operators (`|`, `&`, `-`, `^`) and the
//! subset comparisons. Known difference: items iterate in insertion order, where CPython's
//! order follows its hash table.

use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::interp::ops;
use crate::interp::subscript::{
    dict_find, dict_remove, dict_upsert, dict_upsert_hashed, find_hashed, key_hash,
};
use crate::py::error::{PyErr, PyResult};
use crate::py::methods::{MethodSpec, MethodTable};
use crate::py::runtime::Runtime;
use crate::py::value::{Dict, Value};

pub type SetCell = Rc<RefCell<Dict>>;

/// A set of the distinct items, in first-seen order.
pub fn from_items(rt: &mut Runtime, items: Vec<Value>) -> PyResult<Value> {
    let set: SetCell = Rc::new(RefCell::new(Dict::default()));
    for v in items {
        add(rt, &set, v)?;
    }
    Ok(Value::Set(set))
}

/// `s.add(v)`.
pub fn add(rt: &mut Runtime, s: &RefCell<Dict>, v: Value) -> PyResult<()> {
    dict_upsert(rt, s, v, Value::None, false)
}

/// `v in s`.
pub fn contains(rt: &mut Runtime, s: &RefCell<Dict>, v: &Value) -> PyResult<bool> {
    Ok(dict_find(rt, s, v)?.is_some())
}

/// `v in s` for an item of another set, by the hash stored there (CPython's set
/// operations call no item's `__hash__` again).
fn has(rt: &mut Runtime, s: &RefCell<Dict>, v: &Value, h: Option<u64>) -> PyResult<bool> {
    Ok(find_hashed(rt, s, v, h)?.is_some())
}

/// Add the items of `v` to `s`: a set's by their stored hashes (CPython calls no item's
/// `__hash__` again), others hashed one by one.
fn add_all(rt: &mut Runtime, s: &RefCell<Dict>, v: &Value) -> PyResult<()> {
    if let Value::Set(o) = v {
        let items = o.borrow().hashed_keys();
        for (item, h) in items {
            dict_upsert_hashed(rt, s, item, Value::None, h, false)?;
        }
        return Ok(());
    }
    for item in ops::iterate(rt, v)? {
        add(rt, s, item)?;
    }
    Ok(())
}

/// A set holding the items of `v` (a set is copied).
fn to_set(rt: &mut Runtime, v: &Value) -> PyResult<SetCell> {
    match v {
        Value::Set(s) => Ok(Rc::new(RefCell::new(s.borrow().clone()))),
        other => {
            let items = ops::iterate(rt, other)?;
            match &from_items(rt, items)? {
                Value::Set(s) => Ok(s.clone()),
                _ => Err(PyErr::internal("from_items made no set")),
            }
        }
    }
}

fn union(rt: &mut Runtime, a: &SetCell, others: &[Value]) -> PyResult<Value> {
    let out: SetCell = Rc::new(RefCell::new(a.borrow().clone()));
    for o in others {
        add_all(rt, &out, o)?;
    }
    Ok(Value::Set(out))
}

fn difference(rt: &mut Runtime, a: &SetCell, other: &Value) -> PyResult<Value> {
    let other = to_set(rt, other)?;
    let out: SetCell = Rc::new(RefCell::new(Dict::default()));
    for (v, h) in a.borrow().hashed_keys() {
        if !has(rt, &other, &v, h)? {
            out.borrow_mut().push_hashed(v, Value::None, h);
        }
    }
    Ok(Value::Set(out))
}

/// `a & other` / `a.intersection(other)` as CPython computes it: walking the smaller set
/// (the argument on a tie), or the iterable, so the elements kept are that side's
/// (`{4} & {4.0}` is `{4.0}`).
fn intersect(rt: &mut Runtime, a: &SetCell, other: &Value) -> PyResult<Value> {
    let out: SetCell = Rc::new(RefCell::new(Dict::default()));
    if let Value::Set(b) = other {
        let (walk, probe) = if b.borrow().len() > a.borrow().len() {
            (a.clone(), b.clone())
        } else {
            (b.clone(), a.clone())
        };
        for (v, h) in walk.borrow().hashed_keys() {
            if has(rt, &probe, &v, h)? {
                out.borrow_mut().push_hashed(v, Value::None, h);
            }
        }
        return Ok(Value::Set(out));
    }
    for v in ops::iterate(rt, other)? {
        let h = key_hash(rt, &v)?;
        if has(rt, a, &v, h)? {
            dict_upsert_hashed(rt, &out, v, Value::None, h, false)?;
        }
    }
    Ok(Value::Set(out))
}

fn symmetric(rt: &mut Runtime, a: &SetCell, other: &Value) -> PyResult<Value> {
    let other = to_set(rt, other)?;
    let out: SetCell = Rc::new(RefCell::new(Dict::default()));
    for (v, h) in a.borrow().hashed_keys() {
        if !has(rt, &other, &v, h)? {
            out.borrow_mut().push_hashed(v, Value::None, h);
        }
    }
    for (v, h) in other.borrow().hashed_keys() {
        if !has(rt, a, &v, h)? {
            out.borrow_mut().push_hashed(v, Value::None, h);
        }
    }
    Ok(Value::Set(out))
}

fn is_subset(rt: &mut Runtime, a: &RefCell<Dict>, b: &RefCell<Dict>) -> PyResult<bool> {
    if a.borrow().len() > b.borrow().len() {
        return Ok(false);
    }
    for (v, h) in a.borrow().hashed_keys() {
        if !has(rt, b, &v, h)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `a == b` for two sets.
pub fn equal(rt: &mut Runtime, a: &RefCell<Dict>, b: &RefCell<Dict>) -> PyResult<bool> {
    Ok(a.borrow().len() == b.borrow().len() && is_subset(rt, a, b)?)
}

/// A set operator (`|`, `&`, `-`, `^`) or subset comparison between two sets; None for
/// other operators.
pub fn binary(rt: &mut Runtime, op: BinOp, a: &SetCell, b: &SetCell) -> PyResult<Option<Value>> {
    let bv = Value::Set(b.clone());
    Ok(Some(match op {
        BinOp::BitOr => union(rt, a, &[bv])?,
        BinOp::BitAnd => intersect(rt, a, &bv)?,
        BinOp::Sub => difference(rt, a, &bv)?,
        BinOp::BitXor => symmetric(rt, a, &bv)?,
        BinOp::Le => Value::Bool(is_subset(rt, a, b)?),
        BinOp::Ge => Value::Bool(is_subset(rt, b, a)?),
        BinOp::Lt => Value::Bool(a.borrow().len() < b.borrow().len() && is_subset(rt, a, b)?),
        BinOp::Gt => Value::Bool(b.borrow().len() < a.borrow().len() && is_subset(rt, b, a)?),
        _ => return Ok(None),
    }))
}

pub static SET: MethodTable<SetCell> = MethodTable {
    owner: "set",
    methods: &SET_METHODS,
};

/// `a.difference(*others)` / `a.intersection(*others)`: `op` applied to each in turn.
fn fold(
    s: &SetCell,
    rt: &mut Runtime,
    others: &[Value],
    op: fn(&mut Runtime, &SetCell, &Value) -> PyResult<Value>,
) -> PyResult<Value> {
    let mut cur: SetCell = Rc::new(RefCell::new(s.borrow().clone()));
    for o in others {
        if let Value::Set(c) = &op(rt, &cur, o)? {
            cur = c.clone();
        }
    }
    Ok(Value::Set(cur))
}

static SET_METHODS: [MethodSpec<SetCell>; 14] = [
    MethodSpec::new("add", "object, /", "Add an element to a set.\n\nThis has no effect if the element is already present.", |s, rt, b| {
        add(rt, s, b.value(0))?;
        Ok(Value::None)
    }),
    MethodSpec::new("clear", "", "Remove all elements from this set.", |s, _, _| {
        s.borrow_mut().clear();
        Ok(Value::None)
    }),
    MethodSpec::new("copy", "", "Return a shallow copy of a set.", |s, _, _| {
        Ok(Value::Set(Rc::new(RefCell::new(s.borrow().clone()))))
    }),
    MethodSpec::new("difference", "*others", "Return the difference of two or more sets as a new set.", |s, rt, b| {
        fold(s, rt, &b.rest, difference)
    }),
    MethodSpec::new("discard", "object, /", "Remove an element from a set if it is a member.\n\nUnlike set.remove(), the discard() method does not raise an exception when an element is missing from the set.", |s, rt, b| {
        dict_remove(rt, s, &b.value(0))?;
        Ok(Value::None)
    }),
    MethodSpec::new("intersection", "*others", "Return the intersection of two sets as a new set.", |s, rt, b| {
        fold(s, rt, &b.rest, intersect)
    }),
    MethodSpec::new("isdisjoint", "other, /", "Return True if two sets have a null intersection.", |s, rt, b| {
        let o = to_set(rt, &b.value(0))?;
        for (v, h) in o.borrow().hashed_keys() {
            if has(rt, s, &v, h)? {
                return Ok(Value::Bool(false));
            }
        }
        Ok(Value::Bool(true))
    }),
    MethodSpec::new("issubset", "other, /", "Report whether another set contains this set.", |s, rt, b| {
        let o = to_set(rt, &b.value(0))?;
        Ok(Value::Bool(is_subset(rt, s, &o)?))
    }),
    MethodSpec::new("issuperset", "other, /", "Report whether this set contains another set.", |s, rt, b| {
        let o = to_set(rt, &b.value(0))?;
        Ok(Value::Bool(is_subset(rt, &o, s)?))
    }),
    MethodSpec::new("pop", "", "Remove and return an arbitrary set element.\n\nRaises KeyError if the set is empty.", |s, _, _| {
        let first = s.borrow_mut().pop_first();
        match first {
            Some((v, _)) => Ok(v),
            None => Err(PyErr::key_error("'pop from an empty set'")),
        }
    }),
    MethodSpec::new("remove", "object, /", "Remove an element from a set; it must be a member.\n\nIf the element is not a member, raise a KeyError.", |s, rt, b| {
        let v = b.value(0);
        match dict_remove(rt, s, &v)? {
            Some(_) => Ok(Value::None),
            None => Err(PyErr::key_error(crate::interp::repr::repr(rt, &v)?)),
        }
    }),
    MethodSpec::new("symmetric_difference", "other, /", "Return the symmetric difference of two sets as a new set.", |s, rt, b| {
        symmetric(rt, s, &b.value(0))
    }),
    MethodSpec::new("union", "*others", "Return the union of sets as a new set.", |s, rt, b| {
        union(rt, s, &b.rest)
    }),
    MethodSpec::new("update", "*others", "Update a set with the union of itself and others.", |s, rt, b| {
        for o in &b.rest {
            add_all(rt, s, o)?;
        }
        Ok(Value::None)
    }),
];
