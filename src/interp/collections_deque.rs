//! `collections.deque`: a double-ended queue on a ring buffer, optionally bounded by
//! `maxlen`, with CPython's methods, indexing, repr and errors.

use std::any::Any;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::interp::ops;
use crate::interp::repr::repr;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};

pub fn new_deque(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let b = a.bind("deque", &["iterable=", "maxlen="])?;
    let maxlen = match &b[1] {
        None | Some(Value::None) => None,
        Some(v) => {
            let n = v.as_index()?;
            if n < 0 {
                return Err(PyErr::value_error("maxlen must be non-negative"));
            }
            Some(n as usize)
        }
    };
    let dq = Deque {
        items: RefCell::new(VecDeque::new()),
        maxlen,
    };
    if let Some(src) = &b[0] {
        let items = rt.iterate(src)?;
        dq.extend(items, false);
    }
    Ok(Value::object(dq))
}

/// `collections.deque`: a ring buffer; with `maxlen`, adding at one end drops from the other.
pub struct Deque {
    items: RefCell<VecDeque<Value>>,
    maxlen: Option<usize>,
}

impl Deque {
    fn extend(&self, items: Vec<Value>, left: bool) {
        let mut d = self.items.borrow_mut();
        for v in items {
            if self.maxlen == Some(0) {
                continue;
            }
            if left {
                d.push_front(v);
                if self.maxlen.is_some_and(|m| d.len() > m) {
                    d.pop_back();
                }
            } else {
                d.push_back(v);
                if self.maxlen.is_some_and(|m| d.len() > m) {
                    d.pop_front();
                }
            }
        }
    }

    fn index(&self, key: &Value) -> PyResult<usize> {
        let i = key.as_index().map_err(|_| {
            PyErr::type_error(format!(
                "sequence index must be integer, not '{}'",
                key.type_name()
            ))
        })?;
        crate::interp::subscript::seq_index(i, self.items.borrow().len(), "deque")
    }

    fn snapshot(&self) -> Vec<Value> {
        self.items.borrow().iter().cloned().collect()
    }
}

type DequeFn = fn(&Rc<Deque>, &mut Runtime, Args) -> PyResult<Value>;

fn deque_method(name: &str) -> Option<(&'static str, DequeFn)> {
    let f: (&'static str, DequeFn) = match name {
        "append" => ("append(x)", |d, _, a| {
            d.extend(one(&a, "append")?, false);
            Ok(Value::None)
        }),
        "appendleft" => ("appendleft(x)", |d, _, a| {
            d.extend(one(&a, "appendleft")?, true);
            Ok(Value::None)
        }),
        "extend" => ("extend(iterable)", |d, rt, a| {
            let items = rt.iterate(&one(&a, "extend")?[0])?;
            d.extend(items, false);
            Ok(Value::None)
        }),
        "extendleft" => ("extendleft(iterable)", |d, rt, a| {
            let items = rt.iterate(&one(&a, "extendleft")?[0])?;
            d.extend(items, true);
            Ok(Value::None)
        }),
        "pop" => ("pop()", |d, _, _| {
            d.items
                .borrow_mut()
                .pop_back()
                .ok_or_else(|| PyErr::index_error("pop from an empty deque"))
        }),
        "popleft" => ("popleft()", |d, _, _| {
            d.items
                .borrow_mut()
                .pop_front()
                .ok_or_else(|| PyErr::index_error("pop from an empty deque"))
        }),
        "rotate" => ("rotate(n=1)", |d, _, a| {
            let b = a.bind("rotate", &["n="])?;
            let n = match &b[0] {
                Some(v) => v.as_index()?,
                None => 1,
            };
            let mut items = d.items.borrow_mut();
            let len = items.len() as i64;
            if len > 1 {
                let k = n.rem_euclid(len) as usize;
                items.rotate_right(k);
            }
            Ok(Value::None)
        }),
        "clear" => ("clear()", |d, _, _| {
            d.items.borrow_mut().clear();
            Ok(Value::None)
        }),
        "reverse" => ("reverse()", |d, _, _| {
            d.items.borrow_mut().make_contiguous().reverse();
            Ok(Value::None)
        }),
        "copy" | "__copy__" => ("copy()", |d, _, _| {
            Ok(Value::object(Deque {
                items: RefCell::new(d.items.borrow().clone()),
                maxlen: d.maxlen,
            }))
        }),
        "count" => ("count(x)", |d, rt, a| {
            let x = one(&a, "count")?.remove(0);
            let mut n = 0;
            for v in d.snapshot() {
                if ops::same_or_eq(rt, &v, &x)? {
                    n += 1;
                }
            }
            Ok(Value::Int(n))
        }),
        "index" => ("index(x)", |d, rt, a| {
            let x = one(&a, "index")?.remove(0);
            for (i, v) in d.snapshot().iter().enumerate() {
                if ops::same_or_eq(rt, v, &x)? {
                    return Ok(Value::Int(i as i64));
                }
            }
            Err(PyErr::value_error(format!(
                "{} is not in deque",
                repr(rt, &x)?
            )))
        }),
        "remove" => ("remove(value)", |d, rt, a| {
            let x = one(&a, "remove")?.remove(0);
            for (i, v) in d.snapshot().iter().enumerate() {
                if ops::same_or_eq(rt, v, &x)? {
                    d.items.borrow_mut().remove(i);
                    return Ok(Value::None);
                }
            }
            Err(PyErr::value_error(format!(
                "{} is not in deque",
                repr(rt, &x)?
            )))
        }),
        "insert" => ("insert(i, x)", |d, _, a| {
            let [i, x] = a.pos.as_slice() else {
                return Err(PyErr::type_error(format!(
                    "insert expected 2 arguments, got {}",
                    a.pos.len()
                )));
            };
            if d.maxlen.is_some_and(|m| d.items.borrow().len() >= m) {
                return Err(PyErr::index_error("deque already at its maximum size"));
            }
            let len = d.items.borrow().len() as i64;
            let i = i.as_index()?;
            let at = if i < 0 { (i + len).max(0) } else { i.min(len) };
            d.items.borrow_mut().insert(at as usize, x.clone());
            Ok(Value::None)
        }),
        _ => return None,
    };
    Some(f)
}

fn one(a: &Args, name: &str) -> PyResult<Vec<Value>> {
    match a.pos.as_slice() {
        [x] if a.kw.is_empty() => Ok(vec![x.clone()]),
        _ => Err(PyErr::type_error(format!(
            "deque.{name}() takes exactly one argument ({} given)",
            a.pos.len() + a.kw.len()
        ))),
    }
}

impl Object for Deque {
    fn type_name(&self) -> String {
        "deque".into()
    }
    fn module_name(&self) -> String {
        "collections".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        let body = repr(rt, &Value::list(self.snapshot()))?;
        Ok(match self.maxlen {
            Some(m) => format!("deque({body}, maxlen={m})"),
            None => format!("deque({body})"),
        })
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        if name == "maxlen" {
            return Ok(Some(match self.maxlen {
                Some(m) => Value::Int(m as i64),
                None => Value::None,
            }));
        }
        let Some((sig, f)) = deque_method(name) else {
            return Ok(None);
        };
        Ok(Some(Value::method(
            &self,
            &format!("deque.{name}"),
            sig,
            "",
            f,
        )))
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        let i = self.index(key)?;
        Ok(self.items.borrow()[i].clone())
    }
    fn set_item(&self, key: &Value, value: Value, _rt: &mut Runtime) -> PyResult<()> {
        let i = self.index(key)?;
        self.items.borrow_mut()[i] = value;
        Ok(())
    }
    fn del_item(&self, key: &Value, _rt: &mut Runtime) -> PyResult<()> {
        let i = self.index(key)?;
        self.items.borrow_mut().remove(i);
        Ok(())
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(self.snapshot()))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(self.items.borrow().len()))
    }
    fn truthy(&self, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(!self.items.borrow().is_empty())
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        reflected: bool,
        rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        let Some(o) = other.downcast::<Deque>() else {
            return Ok(None);
        };
        let (mut a, mut b) = (Value::list(self.snapshot()), Value::list(o.snapshot()));
        if reflected {
            std::mem::swap(&mut a, &mut b);
        }
        Ok(match op {
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Some(ops::compare(rt, op, &a, &b)?),
            _ => None,
        })
    }
    fn py_eq(&self, other: &Value, rt: &mut Runtime) -> PyResult<Option<bool>> {
        match other.downcast::<Deque>() {
            Some(o) => Ok(Some(ops::py_eq(
                rt,
                &Value::list(self.snapshot()),
                &Value::list(o.snapshot()),
            )?)),
            None => Ok(Some(false)),
        }
    }
    fn dir(&self) -> Vec<String> {
        let mut v: Vec<String> = [
            "append",
            "appendleft",
            "clear",
            "copy",
            "count",
            "extend",
            "extendleft",
            "index",
            "insert",
            "maxlen",
            "pop",
            "popleft",
            "remove",
            "reverse",
            "rotate",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.sort();
        v
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
