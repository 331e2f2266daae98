//! `set`: a [`Dict`] whose keys are the items (values unused), so membership, `add` and
//! `discard` take constant time; the methods, the operators (`|`, `&`, `-`, `^`) and the
//! subset comparisons. Known difference: items iterate in insertion order, where CPython's
//! order follows its hash table.

use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::interp::ops;
use crate::interp::subscript::{dict_find, dict_remove};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Dict, Value};

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
    ops::check_hashable(&v)?;
    let Err((v, _)) = s.borrow_mut().upsert_pure(v, Value::None, false) else {
        return Ok(());
    };
    if dict_find(rt, s, &v)?.is_none() {
        s.borrow_mut().push(v, Value::None);
    }
    Ok(())
}

/// `v in s`.
pub fn contains(rt: &mut Runtime, s: &RefCell<Dict>, v: &Value) -> PyResult<bool> {
    ops::check_hashable(v)?;
    Ok(dict_find(rt, s, v)?.is_some())
}

fn items_of(rt: &mut Runtime, v: &Value) -> PyResult<Vec<Value>> {
    match v {
        Value::Set(s) => Ok(s.borrow().keys()),
        other => ops::iterate(rt, other),
    }
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
        for v in items_of(rt, o)? {
            add(rt, &out, v)?;
        }
    }
    Ok(Value::Set(out))
}

fn difference(rt: &mut Runtime, a: &SetCell, other: &Value) -> PyResult<Value> {
    let other = to_set(rt, other)?;
    let out: SetCell = Rc::new(RefCell::new(Dict::default()));
    for v in a.borrow().keys() {
        if !contains(rt, &other, &v)? {
            out.borrow_mut().push(v, Value::None);
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
        for v in walk.borrow().keys() {
            if contains(rt, &probe, &v)? {
                out.borrow_mut().push(v, Value::None);
            }
        }
        return Ok(Value::Set(out));
    }
    for v in items_of(rt, other)? {
        if contains(rt, a, &v)? {
            add(rt, &out, v)?;
        }
    }
    Ok(Value::Set(out))
}

fn symmetric(rt: &mut Runtime, a: &SetCell, other: &Value) -> PyResult<Value> {
    let other = to_set(rt, other)?;
    let out: SetCell = Rc::new(RefCell::new(Dict::default()));
    for v in a.borrow().keys() {
        if !contains(rt, &other, &v)? {
            out.borrow_mut().push(v, Value::None);
        }
    }
    for v in other.borrow().keys() {
        if !contains(rt, a, &v)? {
            out.borrow_mut().push(v, Value::None);
        }
    }
    Ok(Value::Set(out))
}

fn is_subset(rt: &mut Runtime, a: &RefCell<Dict>, b: &RefCell<Dict>) -> PyResult<bool> {
    if a.borrow().len() > b.borrow().len() {
        return Ok(false);
    }
    for v in a.borrow().keys() {
        if !contains(rt, b, &v)? {
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

fn m(
    s: &SetCell,
    name: &str,
    sig: &str,
    f: impl Fn(&SetCell, &mut Runtime, Args) -> PyResult<Value> + 'static,
) -> Option<Value> {
    Some(Value::method(
        s,
        &format!("set.{name}"),
        sig,
        "A set method, as Python's.",
        f,
    ))
}

fn one(a: &Args, name: &str) -> PyResult<Value> {
    if !a.kw.is_empty() {
        return Err(PyErr::type_error(format!(
            "set.{name}() takes no keyword arguments"
        )));
    }
    match a.pos.as_slice() {
        [v] => Ok(v.clone()),
        _ => Err(PyErr::type_error(format!(
            "set.{name}() takes exactly one argument ({} given)",
            a.pos.len()
        ))),
    }
}

/// The methods of a set.
pub fn method(s: &SetCell, name: &str) -> Option<Value> {
    match name {
        "add" => m(s, name, "add(elem)", |s, rt, a| {
            add(rt, s, one(&a, "add")?)?;
            Ok(Value::None)
        }),
        "discard" => m(s, name, "discard(elem)", |s, rt, a| {
            dict_remove(rt, s, &one(&a, "discard")?)?;
            Ok(Value::None)
        }),
        "remove" => m(s, name, "remove(elem)", |s, rt, a| {
            let v = one(&a, "remove")?;
            ops::check_hashable(&v)?;
            match dict_remove(rt, s, &v)? {
                Some(_) => Ok(Value::None),
                None => Err(PyErr::key_error(crate::interp::repr::repr(rt, &v)?)),
            }
        }),
        "pop" => m(s, name, "pop()", |s, _, _| {
            let first = s.borrow_mut().pop_first();
            match first {
                Some((v, _)) => Ok(v),
                None => Err(PyErr::key_error("'pop from an empty set'")),
            }
        }),
        "clear" => m(s, name, "clear()", |s, _, _| {
            s.borrow_mut().clear();
            Ok(Value::None)
        }),
        "copy" => m(s, name, "copy()", |s, _, _| {
            Ok(Value::Set(Rc::new(RefCell::new(s.borrow().clone()))))
        }),
        "update" => m(s, name, "update(*others)", |s, rt, a| {
            for o in &a.pos {
                for v in items_of(rt, o)? {
                    add(rt, s, v)?;
                }
            }
            Ok(Value::None)
        }),
        "union" => m(s, name, "union(*others)", |s, rt, a| union(rt, s, &a.pos)),
        "intersection" => m(s, name, "intersection(*others)", |s, rt, a| {
            let mut cur = Value::Set(Rc::new(RefCell::new(s.borrow().clone())));
            for o in &a.pos {
                if let Value::Set(c) = &cur {
                    let c = c.clone();
                    cur = intersect(rt, &c, o)?;
                }
            }
            Ok(cur)
        }),
        "difference" => m(s, name, "difference(*others)", |s, rt, a| {
            let mut cur = Value::Set(Rc::new(RefCell::new(s.borrow().clone())));
            for o in &a.pos {
                if let Value::Set(c) = &cur {
                    let c = c.clone();
                    cur = difference(rt, &c, o)?;
                }
            }
            Ok(cur)
        }),
        "symmetric_difference" => m(s, name, "symmetric_difference(other)", |s, rt, a| {
            symmetric(rt, s, &one(&a, "symmetric_difference")?)
        }),
        "issubset" => m(s, name, "issubset(other)", |s, rt, a| {
            let o = to_set(rt, &one(&a, "issubset")?)?;
            Ok(Value::Bool(is_subset(rt, s, &o)?))
        }),
        "issuperset" => m(s, name, "issuperset(other)", |s, rt, a| {
            let o = to_set(rt, &one(&a, "issuperset")?)?;
            Ok(Value::Bool(is_subset(rt, &o, s)?))
        }),
        "isdisjoint" => m(s, name, "isdisjoint(other)", |s, rt, a| {
            let o = to_set(rt, &one(&a, "isdisjoint")?)?;
            for v in o.borrow().keys() {
                if contains(rt, s, &v)? {
                    return Ok(Value::Bool(false));
                }
            }
            Ok(Value::Bool(true))
        }),
        _ => None,
    }
}
