//! Native lazy iterators (`itertools.count`, `islice`, ...): an object that computes its next
//! item on demand, and [`pull`], which takes items one at a time from any iterable, so lazy
//! iterators, generators and ranges compose without being materialised and infinite ones
//! work wherever a `for` loop, `next()` or another lazy iterator consumes them.

use std::cell::RefCell;
use std::rc::Rc;

use crate::interp::ops;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

/// The step function behind a lazy iterator: the next item, or None when exhausted.
pub type NextFn = Box<dyn FnMut(&mut Runtime) -> PyResult<Option<Value>>>;

/// Collecting a lazy iterator into a list stops here with MemoryError rather than filling
/// memory (an infinite `count()` passed to `list()`).
const MAX_COLLECT: usize = 50_000_000;

/// A native lazy iterator.
pub struct LazyIter {
    /// The Python class name (`itertools.count`).
    name: &'static str,
    /// None once exhausted, so a finished iterator stays finished.
    step: RefCell<Option<NextFn>>,
}

/// A lazy iterator called `name` whose items come from `step`.
pub fn lazy(
    name: &'static str,
    step: impl FnMut(&mut Runtime) -> PyResult<Option<Value>> + 'static,
) -> Value {
    Value::object(LazyIter {
        name,
        step: RefCell::new(Some(Box::new(step))),
    })
}

/// A lazy iterator over items already computed.
pub fn from_items(name: &'static str, items: Vec<Value>) -> Value {
    let mut it = items.into_iter();
    lazy(name, move |_| Ok(it.next()))
}

/// The lazy iterator `v` is, if it is one.
pub fn as_lazy(v: &Value) -> Option<&LazyIter> {
    v.downcast::<LazyIter>()
}

impl LazyIter {
    /// The next item, or None when exhausted.
    pub fn next_item(&self, rt: &mut Runtime) -> PyResult<Option<Value>> {
        // Taken out while it runs: a step that reaches this same iterator again (through a
        // user function) finds it running instead of re-entering the closure.
        let Some(mut step) = self
            .step
            .try_borrow_mut()
            .map_err(|_| PyErr::value_error("iterator already executing"))?
            .take()
        else {
            return Ok(None);
        };
        let r = step(rt);
        if let Ok(Some(_)) = r {
            if let Ok(mut slot) = self.step.try_borrow_mut() {
                *slot = Some(step);
            }
        }
        r
    }
}

impl Object for LazyIter {
    fn type_name(&self) -> String {
        self.name.into()
    }
    fn module_name(&self) -> String {
        match self.name.split_once('.') {
            Some((m, _)) => m.into(),
            None => "builtins".into(),
        }
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "<{} object at {:#x}>",
            self.name, self as *const Self as usize
        ))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "__next__" => Some(Value::method(
                &self,
                "__next__",
                "__next__()",
                "The next item; StopIteration at the end.",
                |it, rt, _| {
                    it.next_item(rt)?
                        .ok_or_else(|| PyErr::new("StopIteration", ""))
                },
            )),
            "__iter__" => Some(Value::method(
                &self,
                "__iter__",
                "__iter__()",
                "The iterator itself.",
                |it, _, _| Ok(Value::Object(it.clone())),
            )),
            _ => None,
        })
    }
    fn iter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        let mut out = Vec::new();
        while let Some(v) = self.next_item(rt)? {
            rt.check_interrupt()?;
            if out.len() >= MAX_COLLECT {
                return Err(PyErr::memory_error(format!(
                    "{} produced more than {MAX_COLLECT} items while being collected into a list",
                    self.name
                )));
            }
            out.push(v);
        }
        Ok(Some(out))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Items of any iterable, one at a time: lazy iterators, generators, ranges and user
/// iterators (`__next__`) are pulled on demand; other iterables are materialised once.
pub fn pull(rt: &mut Runtime, v: &Value) -> PyResult<NextFn> {
    if let Value::Object(o) = v {
        if o.as_any().is::<LazyIter>() {
            let o = o.clone();
            return Ok(Box::new(move |rt| {
                match o.as_any().downcast_ref::<LazyIter>() {
                    Some(it) => it.next_item(rt),
                    None => Ok(None),
                }
            }));
        }
    }
    if let Some(g) = crate::interp::generators::as_generator(v) {
        return Ok(Box::new(move |rt| g.next_value(rt)));
    }
    // By position, as CPython's list iterator: items appended meanwhile are seen.
    if let Value::List(l) = v {
        let (l, mut i) = (l.clone(), 0);
        return Ok(Box::new(move |_| {
            let x = l.borrow().get(i).cloned();
            i += 1;
            Ok(x)
        }));
    }
    if let Value::Tuple(t) = v {
        let (t, mut i) = (t.clone(), 0);
        return Ok(Box::new(move |_| {
            i += 1;
            Ok(t.get(i - 1).cloned())
        }));
    }
    if crate::interp::builtins_iter::is_iterator(v) {
        // Shared with whoever else holds it, so items are taken only as they are used.
        let v = v.clone();
        return Ok(Box::new(move |_| {
            Ok(crate::interp::builtins_iter::iterator_next(&v))
        }));
    }
    if let Some(r) = v.downcast::<crate::interp::objects::RangeObj>() {
        let (mut next, step, mut left) = (r.start, r.step, r.len());
        return Ok(Box::new(move |_| {
            if left == 0 {
                return Ok(None);
            }
            let x = next;
            left -= 1;
            next = next.wrapping_add(step);
            Ok(Some(Value::Int(x)))
        }));
    }
    if let Some(inst) = crate::interp::classes::as_instance(v) {
        if inst.class.find("__next__").is_some() {
            return Ok(Box::new(move |rt| {
                match inst.call_special(rt, "__next__", vec![]) {
                    Ok(x) => Ok(Some(x.unwrap_or(Value::None))),
                    Err(e) if e.is_instance(crate::py::exceptions::ExcClass::StopIteration) => {
                        Ok(None)
                    }
                    Err(e) => Err(e),
                }
            }));
        }
        if inst.class.find("__iter__").is_some() {
            if let Some(it) = inst.call_special(rt, "__iter__", vec![])? {
                if crate::interp::classes::as_instance(&it)
                    .is_some_and(|i| i.class.find("__next__").is_some())
                    || as_lazy(&it).is_some()
                    || crate::interp::generators::as_generator(&it).is_some()
                {
                    return pull(rt, &it);
                }
            }
        }
    }
    let mut items = ops::iterate(rt, v)?.into_iter();
    Ok(Box::new(move |_| Ok(items.next())))
}

/// Whether `v` yields its items on demand (and may be infinite), so consumers that would
/// otherwise materialise it should pull it instead.
pub fn is_lazy(v: &Value) -> bool {
    as_lazy(v).is_some()
        || crate::interp::generators::as_generator(v).is_some()
        || crate::interp::builtins_iter::is_iterator(v)
}
