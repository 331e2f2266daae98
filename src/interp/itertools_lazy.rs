//! The lazy iterators of `itertools`: `count`, `repeat`, `cycle`, `islice`, `accumulate`,
//! `chain` (and `chain.from_iterable`), `zip_longest`, `takewhile`, `dropwhile`,
//! `filterfalse`, `starmap`, `compress`, `pairwise`, `groupby` and `combinations_with_replacement`. Each pulls from its
//! input only as far as its consumer asks, as CPython's do, so `islice(count(), 5)` ends.
//!
//! Known difference: a `groupby` group is collected when the outer iterator reaches it, so
//! a group read after the outer iterator has moved on still holds its items (CPython's is
//! then empty).

use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::interp::iterators::{lazy, pull, NextFn};
use crate::interp::ops;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Bound;
use crate::py::signature::Style::{Clinic, ClinicNew};
use crate::py::value::{Args, Module, Object, Value};

/// Register the lazy iterators in the `itertools` module.
pub fn register(m: &Module) {
    m.def(
        Clinic,
        "count",
        "start=0, step=1",
        "Return a count object whose .__next__() method returns consecutive values.",
        |_, b| {
            let mut cur = b[0].clone().unwrap_or(Value::Int(0));
            let step = b[1].clone().unwrap_or(Value::Int(1));
            for v in [&cur, &step] {
                if !matches!(v, Value::Int(_) | Value::Float(_) | Value::Bool(_)) {
                    return Err(PyErr::type_error("a number is required"));
                }
            }
            Ok(lazy("itertools.count", move |rt| {
                let next = ops::binary(rt, BinOp::Add, &cur, &step)?;
                Ok(Some(std::mem::replace(&mut cur, next)))
            }))
        },
    );
    // `times` has no default Python could write: absent repeats for ever, None is refused.
    m.def_shown(
        Clinic,
        "repeat",
        "object, times=<forever>",
        "repeat(object [,times])",
        "repeat(object [,times]) -> create an iterator which returns the object for the specified number of times.  If not specified, returns the object endlessly.",
        |_, b| {
            let x = b[0].clone().unwrap_or(Value::None);
            let mut left = match &b[1] {
                Some(t) => Some(t.as_index()?.max(0)),
                None => None,
            };
            Ok(lazy("itertools.repeat", move |_| {
                match &mut left {
                    Some(0) => return Ok(None),
                    Some(n) => *n -= 1,
                    None => {}
                }
                Ok(Some(x.clone()))
            }))
        },
    );
    m.def(
        ClinicNew,
        "cycle",
        "iterable, /",
        "Return elements from the iterable until it is exhausted. Then repeat the sequence indefinitely.",
        |rt, b| {
            let mut src = Some(pull(rt, b[0].as_ref().unwrap_or(&Value::None))?);
            let mut saved = Vec::new();
            let mut i = 0;
            Ok(lazy("itertools.cycle", move |rt| {
                if let Some(s) = &mut src {
                    if let Some(x) = s(rt)? {
                        saved.push(x.clone());
                        return Ok(Some(x));
                    }
                    src = None;
                }
                if saved.is_empty() {
                    return Ok(None);
                }
                let x = saved[i % saved.len()].clone();
                i += 1;
                Ok(Some(x))
            }))
        },
    );
    m.def_shown(
        ClinicNew,
        "islice",
        "iterable, start, stop=<unset>, step=<unset>, /",
        "islice(iterable, stop) / islice(iterable, start, stop[, step])",
        "islice(iterable, stop) --> islice object",
        // Positional-only slots fill in order: the given ones are the call's arguments.
        |rt, b| islice(rt, b.slots.into_iter().flatten().collect()),
    );
    m.def(
        Clinic,
        "accumulate",
        "iterable, func=None, *, initial=None",
        "Return series of accumulated sums (or other binary function results).",
        |rt, b| {
            let mut src = pull(rt, b[0].as_ref().unwrap_or(&Value::None))?;
            let func = b[1].clone().filter(|f| !f.is_none());
            let mut total = b[2].clone().filter(|v| !v.is_none());
            let mut pending_initial = total.is_some();
            Ok(lazy("itertools.accumulate", move |rt| {
                if pending_initial {
                    pending_initial = false;
                    return Ok(total.clone());
                }
                let Some(x) = src(rt)? else {
                    return Ok(None);
                };
                let next = match (&total, &func) {
                    (None, _) => x,
                    (Some(t), None) => ops::binary(rt, BinOp::Add, t, &x)?,
                    (Some(t), Some(f)) => rt.call(f, Args::new(vec![t.clone(), x]))?,
                };
                total = Some(next.clone());
                Ok(Some(next))
            }))
        },
    );
    m.set("chain", Value::object(ChainType));
    m.def(
        Clinic,
        "combinations_with_replacement",
        "iterable, r",
        "Return successive r-length combinations of elements in the iterable allowing individual elements to have successive repeats.",
        combinations_with_replacement,
    );
    // zip_longest reads its keywords by hand, and its message names neither the keyword
    // nor anything else.
    m.def_shown(
        Clinic,
        "zip_longest",
        "*iterables, **kwds",
        "zip_longest(iter1 [,iter2 [...]], [fillvalue=None])",
        "zip_longest(iter1 [,iter2 [...]], [fillvalue=None]) --> zip_longest object",
        |rt, b| {
            let mut fill = Value::None;
            for (k, v) in &b.kw {
                if &**k != "fillvalue" || b.kw.len() > 1 {
                    return Err(PyErr::type_error(
                        "zip_longest() got an unexpected keyword argument",
                    ));
                }
                fill = v.clone();
            }
            let mut srcs: Vec<Option<NextFn>> = Vec::new();
            for p in &b.rest {
                srcs.push(Some(pull(rt, p)?));
            }
            Ok(lazy("itertools.zip_longest", move |rt| {
                if srcs.is_empty() {
                    return Ok(None);
                }
                let mut row = Vec::with_capacity(srcs.len()); // bounded: one per argument
                let mut live = false;
                for s in srcs.iter_mut() {
                    let x = match s {
                        Some(f) => match f(rt)? {
                            Some(x) => {
                                live = true;
                                x
                            }
                            None => {
                                *s = None;
                                fill.clone()
                            }
                        },
                        None => fill.clone(),
                    };
                    row.push(x);
                }
                Ok(live.then(|| Value::tuple(row)))
            }))
        },
    );
    predicate_iter(
        m,
        "takewhile",
        "predicate, iterable, /",
        "Return successive entries from an iterable as long as the predicate evaluates to true for each entry.",
    );
    predicate_iter(
        m,
        "dropwhile",
        "predicate, iterable, /",
        "Drop items from the iterable while predicate(item) is true.",
    );
    predicate_iter(
        m,
        "filterfalse",
        "function, iterable, /",
        "Return those items of iterable for which function(item) is false.",
    );
    m.def(
        ClinicNew,
        "starmap",
        "function, iterable, /",
        "Return an iterator whose values are returned from the function evaluated with an argument tuple taken from the given sequence.",
        |rt, b| {
            let f = b[0].clone().unwrap_or(Value::None);
            let mut src = pull(rt, b[1].as_ref().unwrap_or(&Value::None))?;
            Ok(lazy("itertools.starmap", move |rt| {
                let Some(args) = src(rt)? else {
                    return Ok(None);
                };
                let args = ops::iterate(rt, &args)?;
                rt.call(&f, Args::new(args)).map(Some)
            }))
        },
    );
    m.def(
        Clinic,
        "compress",
        "data, selectors",
        "Return data elements corresponding to true selector elements.",
        |rt, b| {
            let mut data = pull(rt, b[0].as_ref().unwrap_or(&Value::None))?;
            let mut sel = pull(rt, b[1].as_ref().unwrap_or(&Value::None))?;
            Ok(lazy("itertools.compress", move |rt| loop {
                let Some(x) = data(rt)? else {
                    return Ok(None);
                };
                let Some(s) = sel(rt)? else {
                    return Ok(None);
                };
                if ops::truthy(rt, &s)? {
                    return Ok(Some(x));
                }
            }))
        },
    );
    m.def(
        ClinicNew,
        "pairwise",
        "iterable, /",
        "Return an iterator of overlapping pairs taken from the input iterator.",
        |rt, b| {
            let mut src = pull(rt, b[0].as_ref().unwrap_or(&Value::None))?;
            let mut prev: Option<Value> = None;
            Ok(lazy("itertools.pairwise", move |rt| {
                if prev.is_none() {
                    prev = src(rt)?;
                    if prev.is_none() {
                        return Ok(None);
                    }
                }
                let Some(x) = src(rt)? else {
                    return Ok(None);
                };
                let p = prev.replace(x.clone()).unwrap_or(Value::None);
                Ok(Some(Value::tuple(vec![p, x])))
            }))
        },
    );
    m.def(
        Clinic,
        "groupby",
        "iterable, key=None",
        "make an iterator that returns consecutive keys and groups from the iterable",
        groupby,
    );
}

fn predicate_iter(m: &Module, name: &'static str, sig: &'static str, doc: &str) {
    m.def(ClinicNew, name, sig, doc, move |rt, b| {
        let pred = b[0].clone().unwrap_or(Value::None);
        let mut src = pull(rt, b[1].as_ref().unwrap_or(&Value::None))?;
        // takewhile: done after the first failure; dropwhile: dropping until then.
        let mut switched = false;
        let type_name = match name {
            "takewhile" => "itertools.takewhile",
            "dropwhile" => "itertools.dropwhile",
            _ => "itertools.filterfalse",
        };
        Ok(lazy(type_name, move |rt| loop {
            if switched && name == "takewhile" {
                return Ok(None);
            }
            let Some(x) = src(rt)? else {
                return Ok(None);
            };
            if switched && name == "dropwhile" {
                return Ok(Some(x));
            }
            let keep = if pred.is_none() {
                ops::truthy(rt, &x)?
            } else {
                let r = rt.call(&pred, Args::new(vec![x.clone()]))?;
                ops::truthy(rt, &r)?
            };
            match (name, keep) {
                ("takewhile", true) => return Ok(Some(x)),
                ("takewhile", false) => switched = true,
                ("dropwhile", false) => {
                    switched = true;
                    return Ok(Some(x));
                }
                ("filterfalse", false) => return Ok(Some(x)),
                _ => {}
            }
        }))
    });
}

/// `islice` with CPython's argument rules and its exact consumption: it pulls no item
/// past the last one it yields.
fn islice(rt: &mut Runtime, pos: Vec<Value>) -> PyResult<Value> {
    let index = |v: &Value, msg: &str| -> PyResult<Option<usize>> {
        match v {
            Value::None => Ok(None),
            v => match v.as_index() {
                Ok(i) if i >= 0 => Ok(Some(i as usize)),
                _ => Err(PyErr::value_error(msg.to_string())),
            },
        }
    };
    let idx_msg = "Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.";
    let (start, stop, step) = match pos.as_slice() {
        [_, stop] => (
            0,
            index(
                stop,
                "Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.",
            )?,
            1,
        ),
        [_, start, stop, rest @ ..] if rest.len() <= 1 => {
            let step = match rest.first() {
                None | Some(Value::None) => 1,
                Some(s) => match s.as_index() {
                    Ok(i) if i > 0 => i as usize,
                    _ => {
                        return Err(PyErr::value_error(
                            "Step for islice() must be a positive integer or None.",
                        ))
                    }
                },
            };
            (
                index(start, idx_msg)?.unwrap_or(0),
                index(stop, idx_msg)?,
                step,
            )
        }
        [] | [_] => {
            return Err(PyErr::type_error(format!(
                "islice expected at least 2 arguments, got {}",
                pos.len()
            )))
        }
        _ => {
            return Err(PyErr::type_error(format!(
                "islice expected at most 4 arguments, got {}",
                pos.len()
            )))
        }
    };
    let mut src = pull(rt, &pos[0])?;
    let mut cnt = 0usize;
    let mut next = start;
    Ok(lazy("itertools.islice", move |rt| {
        let stopped = |cnt: usize| stop.is_some_and(|s| cnt >= s);
        if stopped(cnt) {
            return Ok(None);
        }
        while cnt < next {
            rt.check_interrupt()?;
            if src(rt)?.is_none() {
                return Ok(None);
            }
            cnt += 1;
        }
        if stopped(cnt) {
            return Ok(None);
        }
        let Some(item) = src(rt)? else {
            return Ok(None);
        };
        cnt += 1;
        next = next.saturating_add(step);
        if let Some(s) = stop {
            next = next.min(s);
        }
        Ok(Some(item))
    }))
}

fn groupby(rt: &mut Runtime, b: Bound) -> PyResult<Value> {
    let mut src = pull(rt, b[0].as_ref().unwrap_or(&Value::None))?;
    let keyf = b[1].clone().filter(|k| !k.is_none());
    // The first item of the next group, with its key, read ahead by the previous group.
    let mut ahead: Option<(Value, Value)> = None;
    let mut started = false;
    Ok(lazy("itertools.groupby", move |rt| {
        let key_of = |rt: &mut Runtime, x: &Value| -> PyResult<Value> {
            match &keyf {
                Some(f) => rt.call(f, Args::new(vec![x.clone()])),
                None => Ok(x.clone()),
            }
        };
        if !started {
            started = true;
            if let Some(x) = src(rt)? {
                let k = key_of(rt, &x)?;
                ahead = Some((k, x));
            }
        }
        let Some((k, first)) = ahead.take() else {
            return Ok(None);
        };
        let mut group = vec![first];
        while let Some(x) = src(rt)? {
            rt.check_interrupt()?;
            let kx = key_of(rt, &x)?;
            if ops::py_eq(rt, &kx, &k)? {
                group.push(x);
            } else {
                ahead = Some((kx, x));
                break;
            }
        }
        let g = crate::interp::iterators::from_items("itertools._grouper", group);
        Ok(Some(Value::tuple(vec![k, g])))
    }))
}

/// `itertools.chain`: callable, with `chain.from_iterable`.
struct ChainType;

fn chain_of(mut outer: NextFn) -> Value {
    let mut cur: Option<NextFn> = None;
    lazy("itertools.chain", move |rt| loop {
        if let Some(c) = &mut cur {
            if let Some(x) = c(rt)? {
                return Ok(Some(x));
            }
            cur = None;
        }
        let Some(next) = outer(rt)? else {
            return Ok(None);
        };
        cur = Some(pull(rt, &next)?);
    })
}

impl Object for ChainType {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok("<class 'itertools.chain'>".into())
    }
    fn call(self: Rc<Self>, args: Args, _rt: &mut Runtime) -> PyResult<Value> {
        if !args.kw.is_empty() {
            return Err(PyErr::type_error("chain() takes no keyword arguments"));
        }
        let mut its = args.pos.into_iter();
        Ok(chain_of(Box::new(move |_| Ok(its.next()))))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "from_iterable" => Some(Value::builtin(
                "chain.from_iterable",
                "from_iterable(iterable, /)",
                "The items of each iterable the iterable yields, taken lazily.",
                |rt, a| {
                    let b = a.bind("from_iterable", &["iterable"])?;
                    let outer = pull(rt, b[0].as_ref().unwrap_or(&Value::None))?;
                    Ok(chain_of(outer))
                },
            )),
            "__name__" => Some(Value::str("chain")),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// CPython's algorithm: index vectors that never decrease, the last index moving fastest.
fn combinations_with_replacement(rt: &mut Runtime, b: Bound) -> PyResult<Value> {
    let pool = ops::iterate(rt, b[0].as_ref().unwrap_or(&Value::None))?;
    let r = b[1]
        .as_ref()
        .map(|v| v.as_index())
        .transpose()?
        .unwrap_or(0);
    if r < 0 {
        return Err(PyErr::value_error("r must be non-negative"));
    }
    let r = r as usize;
    let n = pool.len();
    if n == 0 && r > 0 {
        return Ok(lazy("itertools.combinations_with_replacement", |_| {
            Ok(None)
        }));
    }
    crate::arrays::alloc::check(r, std::mem::size_of::<Value>(), "a tuple")?;
    let mut idx = vec![0usize; r]; // bounded: alloc::check above
    let mut first = true;
    Ok(lazy("itertools.combinations_with_replacement", move |_| {
        if first {
            first = false;
        } else {
            let Some(i) = (0..r).rev().find(|&i| idx[i] != n - 1) else {
                return Ok(None);
            };
            let v = idx[i] + 1;
            idx[i..].fill(v);
        }
        Ok(Some(Value::tuple(
            idx.iter().map(|&i| pool[i].clone()).collect(),
        )))
    }))
}
