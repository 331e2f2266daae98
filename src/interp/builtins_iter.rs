//! The builtins that consume iterables: containers built from iterables (list, tuple, set,
//! dict), ordering (sorted, reversed, min, max), folds (sum, any, all) and the lazy helpers
//! nbcuda materialises as lists (enumerate, zip, map, filter, iter).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::interp::iterators as lazy;
use crate::interp::objects::RangeObj;
use crate::interp::ops;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Dict, Value};

/// Sort values with an optional key function and reverse flag (stable, as Python).
pub fn sort_values(
    rt: &mut Runtime,
    items: Vec<Value>,
    key: Option<&Value>,
    reverse: Option<&Value>,
) -> PyResult<Vec<Value>> {
    let keys: Vec<Value> = match key {
        Some(k) if !k.is_none() => items
            .iter()
            .map(|v| rt.call(k, Args::new(vec![v.clone()])))
            .collect::<PyResult<_>>()?,
        _ => items.clone(),
    };
    let mut idx: Vec<usize> = (0..items.len()).collect();
    let mut err = None;
    idx.sort_by(|&a, &b| match ops::py_cmp(rt, &keys[a], &keys[b]) {
        Ok(o) => o,
        Err(e) => {
            err.get_or_insert(e);
            std::cmp::Ordering::Equal
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    let rev = rt.flag(reverse)?;
    if rev {
        // Stable reverse sort: reverse, sort, reverse keeps equal items in original order.
        idx.reverse();
        let mut err = None;
        idx.sort_by(|&a, &b| match ops::py_cmp(rt, &keys[b], &keys[a]) {
            Ok(o) => o,
            Err(e) => {
                err.get_or_insert(e);
                std::cmp::Ordering::Equal
            }
        });
        if let Some(e) = err {
            return Err(e);
        }
    }
    Ok(idx.into_iter().map(|i| items[i].clone()).collect())
}

fn minmax(rt: &mut Runtime, a: Args, want_max: bool) -> PyResult<Value> {
    let name = if want_max { "max" } else { "min" };
    if a.pos.is_empty() {
        return Err(PyErr::type_error(format!(
            "{name} expected at least 1 argument, got 0"
        )));
    }
    // Pulled one at a time, as CPython's: `max(range(10**8))` lists nothing.
    let mut next = if a.pos.len() == 1 {
        lazy::pull(rt, &a.pos[0])?
    } else {
        lazy::pull(rt, &Value::tuple(a.pos.clone()))?
    };
    let Some(first) = next(rt)? else {
        return match a.kwarg("default") {
            Some(d) => Ok(d.clone()),
            None => Err(PyErr::value_error(format!(
                "{name}() iterable argument is empty"
            ))),
        };
    };
    let key = a.kwarg("key").cloned();
    let mut best_key = match &key {
        Some(k) => rt.call(k, Args::new(vec![first.clone()]))?,
        None => first.clone(),
    };
    let mut best = first;
    let mut n = 0u32;
    while let Some(it) = next(rt)? {
        n = n.wrapping_add(1);
        if n.is_multiple_of(100_000) {
            rt.check_interrupt()?;
        }
        let k = match &key {
            Some(kf) => rt.call(kf, Args::new(vec![it.clone()]))?,
            None => it.clone(),
        };
        let o = ops::py_cmp(rt, &k, &best_key)?;
        if (want_max && o == std::cmp::Ordering::Greater)
            || (!want_max && o == std::cmp::Ordering::Less)
        {
            best = it;
            best_key = k;
        }
    }
    Ok(best)
}

/// `sum(iterable, start=0)`: items pulled one at a time and added as they come, as
/// CPython adds them (a generator's items are never collected first), with small ints
/// added in place.
fn sum(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let src = a.pos.first().unwrap_or(crate::py::value::NONE);
    let mut acc = a
        .pos
        .get(1)
        .or(a.kwarg("start"))
        .cloned()
        .unwrap_or(Value::Int(0));
    let add = |rt: &mut Runtime, acc: &Value, it: &Value| match add_small(acc, it) {
        Some(v) => Ok(v),
        None => ops::binary(rt, crate::arrays::operator::BinOp::Add, acc, it),
    };
    if let Some(g) = crate::interp::generators::as_generator(src) {
        use crate::interp::generators::Folded;
        loop {
            match g.fold_native(rt, &mut acc, add_small)? {
                Folded::Done => return Ok(acc),
                Folded::Item(it) => acc = add(rt, &acc, &it)?,
                Folded::NotNative => break,
            }
        }
    }
    let mut next = lazy::pull(rt, src)?;
    let mut n = 0u32;
    while let Some(it) = next(rt)? {
        n = n.wrapping_add(1);
        if n.is_multiple_of(100_000) {
            rt.check_interrupt()?;
        }
        acc = add(rt, &acc, &it)?;
    }
    Ok(acc)
}

/// One item from each source (zip's tuple, map's arguments); None once any is exhausted.
fn next_row(rt: &mut Runtime, srcs: &mut [lazy::NextFn]) -> PyResult<Option<Vec<Value>>> {
    let mut row = Vec::with_capacity(srcs.len()); // bounded: one per argument
    for s in srcs.iter_mut() {
        match s(rt)? {
            Some(x) => row.push(x),
            None => return Ok(None),
        }
    }
    Ok(Some(row))
}

/// `reversed(seq)`: a lazy iterator, as CPython's; a range counts down without being
/// listed, a class's `__reversed__` is honoured, and sets and iterators are refused.
fn reversed(rt: &mut Runtime, v: &Value) -> PyResult<Value> {
    if let Some(r) = v.downcast::<RangeObj>() {
        let n = r.len();
        let (last, step) = (r.get(n.saturating_sub(1)), r.step);
        let mut left = n;
        let mut next = last;
        return Ok(lazy::lazy("range_iterator", move |_| {
            if left == 0 {
                return Ok(None);
            }
            left -= 1;
            let x = next;
            next = next.wrapping_sub(step);
            Ok(Some(Value::Int(x)))
        }));
    }
    if let Some(inst) = crate::interp::classes::as_instance(v) {
        if let Some(it) = inst.call_special(rt, "__reversed__", vec![])? {
            return Ok(it);
        }
    }
    if matches!(v, Value::Set(_)) || lazy::is_lazy(v) {
        return Err(PyErr::type_error(format!(
            "'{}' object is not reversible",
            v.type_name()
        )));
    }
    let name = match v {
        Value::List(_) => "list_reverseiterator",
        Value::Dict(_) => "dict_reversekeyiterator",
        _ => "reversed",
    };
    let mut items = ops::iterate(rt, v)?;
    items.reverse();
    Ok(lazy::from_items(name, items))
}

/// `a + b` for the sums that run no Python code and cannot overflow: small ints, floats.
fn add_small(a: &Value, b: &Value) -> Option<Value> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x.checked_add(*y).map(Value::Int),
        (Value::Float(x), Value::Float(y)) => Some(Value::Float(x + y)),
        _ => None,
    }
}

/// Add these builtins to the table.
pub(crate) fn register(b: &mut HashMap<String, Value>) {
    let mut f =
        |name: &str, sig: &str, doc: &str, func: fn(&mut Runtime, Args) -> PyResult<Value>| {
            b.insert(name.to_string(), Value::builtin(name, sig, doc, func));
        };
    f(
        "min",
        "min(iterable, *, key=None, default=...) / min(a, b, *args)",
        "The smallest item.",
        |rt, a| minmax(rt, a, false),
    );
    f(
        "max",
        "max(iterable, *, key=None, default=...) / max(a, b, *args)",
        "The largest item.",
        |rt, a| minmax(rt, a, true),
    );
    f(
        "sum",
        "sum(iterable, /, start=0)",
        "The sum of the items plus start.",
        sum,
    );
    f(
        "enumerate",
        "enumerate(iterable, start=0)",
        "Pairs (index, item) for the items of an iterable.",
        |rt, a| {
            let src = a.pos.first().unwrap_or(crate::py::value::NONE);
            let start = a
                .pos
                .get(1)
                .or(a.kwarg("start"))
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(0);
            // Lazy, as CPython's: items are pulled as the loop asks for them.
            let mut next = lazy::pull(rt, src)?;
            let mut i = start;
            Ok(lazy::lazy("enumerate", move |rt| {
                let Some(x) = next(rt)? else {
                    return Ok(None);
                };
                i += 1;
                Ok(Some(Value::tuple(vec![Value::Int(i - 1), x])))
            }))
        },
    );
    f(
        "zip",
        "zip(*iterables)",
        "Tuples of corresponding items, stopping at the shortest iterable.",
        |rt, a| {
            // Lazy (so infinite inputs work and `zip` is single-pass, as CPython's).
            let mut srcs = a
                .pos
                .iter()
                .map(|v| lazy::pull(rt, v))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(lazy::lazy("zip", move |rt| {
                Ok(next_row(rt, &mut srcs)?.map(Value::tuple))
            }))
        },
    );
    f(
        "list",
        "list(iterable=())",
        "A new list of the iterable's items.",
        |rt, a| match a.pos.first() {
            None => Ok(Value::list(vec![])),
            Some(v) => Ok(Value::list(ops::iterate(rt, v)?)),
        },
    );
    f(
        "tuple",
        "tuple(iterable=())",
        "A new tuple of the iterable's items.",
        |rt, a| match a.pos.first() {
            None => Ok(Value::tuple(vec![])),
            Some(v) => Ok(Value::tuple(ops::iterate(rt, v)?)),
        },
    );
    f(
        "set",
        "set(iterable=())",
        "A new set of the iterable's distinct items.",
        |rt, a| {
            let items = match a.pos.first() {
                None => vec![],
                Some(v) => ops::iterate(rt, v)?,
            };
            crate::interp::sets::from_items(rt, items)
        },
    );
    f(
        "dict",
        "dict(mapping_or_pairs=(), **kwargs)",
        "A new dict from a mapping, pairs, or keyword arguments.",
        |rt, a| {
            let mut d = Dict::default();
            if let Some(src) = a.pos.first() {
                // defaultdict, Counter and OrderedDict are mappings too.
                let user = crate::interp::collections_dicts::user_mapping_items(rt, src)?;
                match crate::interp::collections_dicts::dict_of(src) {
                    Some(o) => d = o.borrow().clone(),
                    None if user.is_some() => {
                        for (k, v) in user.into_iter().flatten() {
                            ops::dict_set(rt, &mut d, k, v)?;
                        }
                    }
                    None => {
                        let other = src;
                        for pair in ops::iterate(rt, other)? {
                            let kv = ops::iterate(rt, &pair)?;
                            let [k, v] = kv.as_slice() else {
                                return Err(PyErr::value_error(
                                    "dictionary update sequence element has wrong length",
                                ));
                            };
                            ops::dict_set(rt, &mut d, k.clone(), v.clone())?;
                        }
                    }
                }
            }
            for (k, v) in &a.kw {
                ops::dict_set(rt, &mut d, Value::Str(k.clone()), v.clone())?;
            }
            Ok(Value::Dict(Rc::new(RefCell::new(d))))
        },
    );
    f(
        "sorted",
        "sorted(iterable, /, *, key=None, reverse=False)",
        "A new sorted list of the iterable's items.",
        |rt, a| {
            let items = ops::iterate(rt, a.pos.first().unwrap_or(crate::py::value::NONE))?;
            Ok(Value::list(sort_values(
                rt,
                items,
                a.kwarg("key"),
                a.kwarg("reverse"),
            )?))
        },
    );
    f(
        "reversed",
        "reversed(sequence, /)",
        "The items in reverse order.",
        |rt, a| reversed(rt, a.pos.first().unwrap_or(crate::py::value::NONE)),
    );
    f(
        "any",
        "any(iterable, /)",
        "True if any item is true.",
        |rt, a| {
            let found = find_truth(rt, a.pos.first().unwrap_or(crate::py::value::NONE), true)?;
            Ok(Value::Bool(found))
        },
    );
    f(
        "all",
        "all(iterable, /)",
        "True if every item is true.",
        |rt, a| {
            let found = find_truth(rt, a.pos.first().unwrap_or(crate::py::value::NONE), false)?;
            Ok(Value::Bool(!found))
        },
    );
    f(
        "map",
        "map(function, iterable, ...)",
        "The results of calling function on the items, computed as they are consumed.",
        |rt, a| {
            let Some((func, rest)) = a.pos.split_first() else {
                return Err(PyErr::type_error("map() must have at least two arguments."));
            };
            // Lazy: `func` runs as items are consumed, as CPython's map calls it.
            let mut srcs = rest
                .iter()
                .map(|v| lazy::pull(rt, v))
                .collect::<PyResult<Vec<_>>>()?;
            let func = func.clone();
            Ok(lazy::lazy("map", move |rt| {
                match next_row(rt, &mut srcs)? {
                    Some(row) => rt.call(&func, Args::new(row)).map(Some),
                    None => Ok(None),
                }
            }))
        },
    );
    f(
        "filter",
        "filter(function, iterable)",
        "The items for which function is true, found as they are consumed.",
        |rt, a| {
            let [func, it] = a.pos.as_slice() else {
                return Err(PyErr::type_error("filter expected 2 arguments"));
            };
            let mut next = lazy::pull(rt, it)?;
            let func = func.clone();
            Ok(lazy::lazy("filter", move |rt| {
                while let Some(v) = next(rt)? {
                    let keep = if func.is_none() {
                        ops::truthy(rt, &v)?
                    } else {
                        let r = rt.call(&func, Args::new(vec![v.clone()]))?;
                        ops::truthy(rt, &r)?
                    };
                    if keep {
                        return Ok(Some(v));
                    }
                }
                Ok(None)
            }))
        },
    );
    f(
        "iter",
        "iter(iterable)",
        "An iterator over an iterable's items (taken when iter() is called).",
        |rt, a| {
            let v = a.pos.first().unwrap_or(crate::py::value::NONE);
            // Iterators (and generators) are their own iterators.
            if v.downcast::<Iterator>().is_some() || crate::interp::iterators::is_lazy(v) {
                return Ok(v.clone());
            }
            if let Some(inst) = crate::interp::classes::as_instance(v) {
                if let Some(it) = inst.call_special(rt, "__iter__", vec![])? {
                    return Ok(it);
                }
            }
            if v.downcast::<RangeObj>().is_some() {
                // Counted, never listed: `iter(range(10**18))` is as cheap as CPython's.
                let next = lazy::pull(rt, v)?;
                return Ok(lazy::lazy("range_iterator", next));
            }
            let items = ops::iterate(rt, v)?;
            Ok(Value::Object(Rc::new(Iterator {
                items: RefCell::new(items.into()),
            })))
        },
    );
    f(
        "next",
        "next(iterator[, default])",
        "The iterator's next item; at the end, default or StopIteration.",
        |rt, a| {
            let v = a.pos.first().unwrap_or(crate::py::value::NONE);
            let exhausted = |a: &Args| match a.pos.get(1) {
                Some(d) => Ok(d.clone()),
                None => Err(PyErr::new("StopIteration", "")),
            };
            if let Some(g) = crate::interp::generators::as_generator(v) {
                if a.pos.len() < 2 {
                    return g.next_or_stop(rt);
                }
                return match g.next_value(rt)? {
                    Some(x) => Ok(x),
                    None => exhausted(&a),
                };
            }
            if let Some(it) = crate::interp::iterators::as_lazy(v) {
                return match it.next_item(rt)? {
                    Some(x) => Ok(x),
                    None => exhausted(&a),
                };
            }
            if let Some(inst) = crate::interp::classes::as_instance(v) {
                if inst.class.find("__next__").is_some() {
                    return match inst.call_special(rt, "__next__", vec![]) {
                        Ok(x) => Ok(x.unwrap_or(Value::None)),
                        Err(e)
                            if e.is_instance(crate::py::exceptions::ExcClass::StopIteration)
                                && a.pos.len() > 1 =>
                        {
                            exhausted(&a)
                        }
                        Err(e) => Err(e),
                    };
                }
            }
            let Some(it) = v.downcast::<Iterator>() else {
                return Err(PyErr::type_error(format!(
                    "'{}' object is not an iterator",
                    v.type_name()
                )));
            };
            match it.items.borrow_mut().pop_front() {
                Some(x) => Ok(x),
                None => match a.pos.get(1) {
                    Some(d) => Ok(d.clone()),
                    None => Err(PyErr::new("StopIteration", "")),
                },
            }
        },
    );
}

/// `any` (want true) and `all` (want false): whether some item's truth is `want`. Generators
/// and lazy iterators are pulled one item at a time and stop at the first such item, so the
/// rest of a generator never runs, as in CPython.
fn find_truth(rt: &mut Runtime, v: &Value, want: bool) -> PyResult<bool> {
    let gen = crate::interp::generators::as_generator(v);
    let lazy = crate::interp::iterators::as_lazy(v);
    if gen.is_none() && lazy.is_none() {
        for item in ops::iterate(rt, v)? {
            if ops::truthy(rt, &item)? == want {
                return Ok(true);
            }
        }
        return Ok(false);
    }
    loop {
        let item = match (&gen, &lazy) {
            (Some(g), _) => g.next_value(rt)?,
            (None, Some(it)) => it.next_item(rt)?,
            (None, None) => None,
        };
        let Some(item) = item else {
            return Ok(false);
        };
        if ops::truthy(rt, &item)? == want {
            return Ok(true);
        }
    }
}

/// Whether `v` is what `iter()` returns for a materialised iterable.
pub(crate) fn is_iterator(v: &Value) -> bool {
    v.downcast::<Iterator>().is_some()
}

/// The next item of an `iter()` iterator: None when `v` is not one or is exhausted.
pub(crate) fn iterator_next(v: &Value) -> Option<Value> {
    v.downcast::<Iterator>()
        .and_then(|it| it.items.borrow_mut().pop_front())
}

/// What `iter()` returns: the items, taken when it was called, that `next()` and loops
/// have not consumed yet.
struct Iterator {
    items: RefCell<std::collections::VecDeque<Value>>,
}

impl crate::py::value::Object for Iterator {
    fn type_name(&self) -> String {
        "iterator".into()
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(self.items.borrow_mut().drain(..).collect()))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
