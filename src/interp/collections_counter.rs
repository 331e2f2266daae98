//! `collections.Counter`: a dict of counts on the shared helpers of `collections_dicts.rs`,
//! with `most_common` in CPython's tie order, `update`/`subtract`, `elements`, `total`, and
//! the multiset operators.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::operator::{BinOp, UnaryOp};
use crate::interp::collections_dicts::*;
use crate::interp::ops;
use crate::interp::repr::repr;
use crate::interp::subscript::{check_hashable, dict_lookup, dict_remove, dict_store};
use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::ExcClass;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Dict, Object, Value};

/// `collections.Counter(iterable_or_mapping=None, /, **kwds)`.
pub fn new_counter(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    if a.pos.len() > 1 {
        return Err(PyErr::type_error(format!(
            "expected at most 1 argument, got {}",
            a.pos.len()
        )));
    }
    let c = Counter { d: new_dict() };
    c.count(rt, a.pos.first(), &a.kw, BinOp::Add)?;
    Ok(Value::object(c))
}

pub struct Counter {
    pub(crate) d: Shared,
}

/// Past this many items `elements()` raises MemoryError instead of filling memory.
const MAX_ELEMENTS: i64 = 50_000_000;

impl Counter {
    fn get(&self, rt: &mut Runtime, key: &Value) -> PyResult<Value> {
        Ok(get_key(rt, &self.d, key)?.unwrap_or(Value::Int(0)))
    }

    /// `update` (op Add) or `subtract` (op Sub): a mapping's counts, an iterable's items
    /// one each, then the keyword counts.
    fn count(
        &self,
        rt: &mut Runtime,
        src: Option<&Value>,
        kw: &[(Rc<str>, Value)],
        op: BinOp,
    ) -> PyResult<()> {
        let mut pairs: Vec<(Value, Value)> = Vec::new();
        match src {
            None | Some(Value::None) => {}
            Some(v) => match dict_of(v) {
                Some(o) => {
                    if op == BinOp::Add && self.d.borrow().is_empty() {
                        // As CPython: an empty Counter takes a mapping's values as they are.
                        let items = o.borrow().items();
                        for (k, v) in items {
                            dict_store(rt, &self.d, k, v)?;
                        }
                    } else {
                        pairs = o.borrow().items();
                    }
                }
                None => {
                    for item in rt.iterate(v)? {
                        check_hashable(rt, &item)?;
                        let cur = self.get(rt, &item)?;
                        let n = ops::binary(rt, op, &cur, &Value::Int(1))?;
                        dict_store(rt, &self.d, item, n)?;
                    }
                }
            },
        }
        pairs.extend(kw.iter().map(|(k, v)| (Value::Str(k.clone()), v.clone())));
        for (k, v) in pairs {
            let cur = self.get(rt, &k)?;
            let n = ops::binary(rt, op, &cur, &v)?;
            dict_store(rt, &self.d, k, n)?;
        }
        Ok(())
    }

    /// The (key, count) pairs by count, largest first; ties keep insertion order.
    fn most_common(&self, rt: &mut Runtime, n: Option<i64>) -> PyResult<Vec<(Value, Value)>> {
        let mut items = self.d.borrow().items();
        let mut err = None;
        // A stable sort on "greater first" keeps ties in insertion order, as CPython's
        // sorted(..., reverse=True) and heapq.nlargest do.
        items.sort_by(|a, b| {
            if err.is_some() {
                return std::cmp::Ordering::Equal;
            }
            match ops::py_cmp(rt, &b.1, &a.1) {
                Ok(o) => o,
                Err(e) => {
                    err = Some(e);
                    std::cmp::Ordering::Equal
                }
            }
        });
        if let Some(e) = err {
            return Err(e);
        }
        if let Some(n) = n {
            items.truncate(n.max(0) as usize);
        }
        Ok(items)
    }

    fn positive(rt: &mut Runtime, v: &Value) -> PyResult<bool> {
        let gt = ops::compare(rt, BinOp::Gt, v, &Value::Int(0))?;
        rt.truthy(&gt)
    }

    /// `+`, `-`, `|`, `&` of two Counters, as CPython's `Counter.__add__` and friends.
    fn combine(&self, rt: &mut Runtime, op: BinOp, other: &Counter) -> PyResult<Value> {
        let out = Counter { d: new_dict() };
        let mine = self.d.borrow().items();
        for (k, count) in &mine {
            let theirs = other.get(rt, k)?;
            let n = match op {
                BinOp::Add | BinOp::Sub => ops::binary(rt, op, count, &theirs)?,
                _ => {
                    let lt = ops::compare(rt, BinOp::Lt, count, &theirs)?;
                    let pick_theirs = rt.truthy(&lt)? == (op == BinOp::BitOr);
                    if pick_theirs {
                        theirs
                    } else {
                        count.clone()
                    }
                }
            };
            if Counter::positive(rt, &n)? {
                dict_store(rt, &out.d, k.clone(), n)?;
            }
        }
        if op != BinOp::BitAnd {
            let theirs = other.d.borrow().items();
            for (k, count) in theirs {
                if dict_lookup(rt, &self.d, &k)?.is_some() {
                    continue;
                }
                let n = if op == BinOp::Sub {
                    ops::binary(rt, BinOp::Sub, &Value::Int(0), &count)?
                } else {
                    count
                };
                if Counter::positive(rt, &n)? {
                    dict_store(rt, &out.d, k, n)?;
                }
            }
        }
        Ok(Value::object(out))
    }
}

impl Object for Counter {
    fn type_name(&self) -> String {
        "Counter".into()
    }
    fn module_name(&self) -> String {
        "collections".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        if self.d.borrow().is_empty() {
            return Ok("Counter()".into());
        }
        // Ordered by most_common(); counts that cannot be ordered keep insertion order.
        let items = match self.most_common(rt, None) {
            Ok(items) => items,
            Err(e) if e.is_instance(ExcClass::TypeError) => self.d.borrow().items(),
            Err(e) => return Err(e),
        };
        let mut d = Dict::default();
        for (k, v) in items {
            d.push(k, v);
        }
        Ok(format!(
            "Counter({})",
            repr(rt, &Value::Dict(Rc::new(RefCell::new(d))))?
        ))
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(Some(match name {
            "most_common" => Value::method(
                &self,
                "Counter.most_common",
                "most_common(n=None)",
                "The n most common elements and their counts, most common first.",
                |this, rt, a| {
                    let b = a.bind("most_common", &["n="])?;
                    let n = match &b[0] {
                        None | Some(Value::None) => None,
                        Some(v) => Some(v.as_index()?),
                    };
                    let items = this.most_common(rt, n)?;
                    Ok(Value::list(
                        items
                            .into_iter()
                            .map(|(k, v)| Value::tuple(vec![k, v]))
                            .collect(),
                    ))
                },
            ),
            "update" | "subtract" => {
                let op = if name == "update" {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                Value::method(
                    &self,
                    &format!("Counter.{name}"),
                    &format!("{name}(iterable=None, /, **kwds)"),
                    "Add (update) or subtract counts from an iterable or a mapping.",
                    move |this, rt, a| {
                        if a.pos.len() > 1 {
                            return Err(PyErr::type_error(format!(
                                "expected at most 1 argument, got {}",
                                a.pos.len()
                            )));
                        }
                        this.count(rt, a.pos.first(), &a.kw, op)?;
                        Ok(Value::None)
                    },
                )
            }
            "elements" => Value::method(
                &self,
                "Counter.elements",
                "elements()",
                "Each element repeated as many times as its count (a list in nbcuda).",
                |this, _, _| {
                    let items = this.d.borrow().items();
                    let mut total: i64 = 0;
                    for (_, v) in &items {
                        let n = v.as_index()?.max(0);
                        total = total.saturating_add(n);
                    }
                    if total > MAX_ELEMENTS {
                        return Err(PyErr::memory_error(format!(
                            "nbcuda builds elements() as a list, and this one would hold more than {MAX_ELEMENTS} items"
                        )));
                    }
                    let mut out = Vec::new();
                    out.try_reserve_exact(total as usize) // bounded: MAX_ELEMENTS caps it
                        .map_err(|_| PyErr::memory_error("cannot allocate elements()"))?;
                    for (k, v) in items {
                        for _ in 0..v.as_index()?.max(0) {
                            out.push(k.clone());
                        }
                    }
                    Ok(Value::list(out))
                },
            ),
            "total" => Value::method(
                &self,
                "Counter.total",
                "total()",
                "The sum of the counts.",
                |this, rt, _| {
                    let values = this.d.borrow().values();
                    let mut acc = Value::Int(0);
                    for v in values {
                        acc = ops::binary(rt, BinOp::Add, &acc, &v)?;
                    }
                    Ok(acc)
                },
            ),
            "copy" | "__copy__" => Value::method(
                &self,
                "Counter.copy",
                "copy()",
                "A shallow copy.",
                |this, _, _| {
                    Ok(Value::object(Counter {
                        d: Rc::new(RefCell::new(this.d.borrow().clone())),
                    }))
                },
            ),
            _ => return dict_attr(rt, &self.d, name),
        }))
    }
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        self.get(rt, key)
    }
    fn set_item(&self, key: &Value, value: Value, rt: &mut Runtime) -> PyResult<()> {
        dict_store(rt, &self.d, key.clone(), value)
    }
    fn del_item(&self, key: &Value, rt: &mut Runtime) -> PyResult<()> {
        // Counter ignores deleting a missing element.
        check_hashable(rt, key)?;
        dict_remove(rt, &self.d, key)?;
        Ok(())
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
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        reflected: bool,
        rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        if reflected || !matches!(op, BinOp::Add | BinOp::Sub | BinOp::BitOr | BinOp::BitAnd) {
            return Ok(None);
        }
        match other.downcast::<Counter>() {
            Some(o) => self.combine(rt, op, o).map(Some),
            None => Ok(None),
        }
    }
    fn unary_op(self: Rc<Self>, op: UnaryOp, rt: &mut Runtime) -> PyResult<Option<Value>> {
        // `+c` keeps the positive counts, `-c` turns the negative ones positive.
        let neg = match op {
            UnaryOp::Pos => false,
            UnaryOp::Neg => true,
            UnaryOp::Invert => return Ok(None),
        };
        let out = Counter { d: new_dict() };
        let items = self.d.borrow().items();
        for (k, count) in items {
            let n = if neg {
                ops::binary(rt, BinOp::Sub, &Value::Int(0), &count)?
            } else {
                count
            };
            if Counter::positive(rt, &n)? {
                dict_store(rt, &out.d, k, n)?;
            }
        }
        Ok(Some(Value::object(out)))
    }
    fn py_eq(&self, other: &Value, rt: &mut Runtime) -> PyResult<Option<bool>> {
        // Between Counters (3.10+), a missing element counts as zero.
        if let Some(o) = other.downcast::<Counter>() {
            for (a, b) in [(&self.d, o), (&o.d, self)] {
                let items = a.borrow().items();
                for (k, v) in items {
                    let w = b.get(rt, &k)?;
                    if !ops::py_eq(rt, &v, &w)? {
                        return Ok(Some(false));
                    }
                }
            }
            return Ok(Some(true));
        }
        dict_eq(rt, &self.d, other)
    }
    fn dir(&self) -> Vec<String> {
        dict_names(&["elements", "most_common", "subtract", "total"])
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
