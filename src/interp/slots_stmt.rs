//! Statements and assignment targets compiled to closures over a [`Frame`]'s slots, each
//! with the walker's semantics (`stmt.rs`). A `None` means "not compiled": the whole body
//! then runs on the walker.

use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::interp::expr::binop_of;
use crate::interp::frame::Flow;
use crate::interp::ops;
use crate::interp::slots::{unbound, Compiler, Frame, Place};
use crate::interp::slots_expr::{expr, inplace, load, opnd};
use crate::interp::stmt::{check_size, container_size};
use crate::py::error::{PyErr, PyResult};
use crate::py::function::NameCache;
use crate::py::runtime::Runtime;
use crate::py::value::Value;

pub type S = Box<dyn Fn(&mut Runtime, &mut Frame<'_>) -> PyResult<Flow>>;
/// Binds a value to an assignment target.
pub type T = Box<dyn Fn(&mut Runtime, &mut Frame<'_>, Value) -> PyResult<()>>;

/// A statement whose errors are located at `range`, as the walker's `exec_stmt` does.
fn at(range: TextRange, f: impl Fn(&mut Runtime, &mut Frame<'_>) -> PyResult<Flow> + 'static) -> S {
    Box::new(move |rt, fr| f(rt, fr).map_err(|e| fr.locate(e, range)))
}

pub fn block(c: &mut Compiler, body: &[Stmt]) -> Option<Vec<S>> {
    body.iter().map(|s| stmt(c, s)).collect()
}

pub fn run(rt: &mut Runtime, fr: &mut Frame<'_>, body: &[S]) -> PyResult<Flow> {
    for s in body {
        match s(rt, fr)? {
            Flow::Normal => {}
            other => return Ok(other),
        }
    }
    Ok(Flow::Normal)
}

fn stmt(c: &mut Compiler, s: &Stmt) -> Option<S> {
    let range = s.range();
    Some(match s {
        Stmt::Expr(e) => {
            let e = expr(c, &e.value)?;
            at(range, move |rt, fr| {
                crate::py::value::release(e(rt, fr)?);
                Ok(Flow::Normal)
            })
        }
        Stmt::Assign(a) => {
            let value = expr(c, &a.value)?;
            let targets = a
                .targets
                .iter()
                .map(|t| target(c, t))
                .collect::<Option<Vec<T>>>()?;
            at(range, move |rt, fr| {
                let v = value(rt, fr)?;
                // The last target takes the value itself: `x = y` is one clone, not two.
                if let Some((last, rest)) = targets.split_last() {
                    for t in rest {
                        t(rt, fr, v.clone())?;
                    }
                    last(rt, fr, v)?;
                }
                Ok(Flow::Normal)
            })
        }
        Stmt::AnnAssign(a) => match &a.value {
            Some(value) => {
                let (value, t) = (expr(c, value)?, target(c, &a.target)?);
                at(range, move |rt, fr| {
                    let v = value(rt, fr)?;
                    t(rt, fr, v)?;
                    Ok(Flow::Normal)
                })
            }
            None => Box::new(|_, _| Ok(Flow::Normal)),
        },
        Stmt::AugAssign(a) => aug_assign(c, a)?,
        Stmt::If(i) => {
            let test = expr(c, &i.test)?;
            let body = block(c, &i.body)?;
            let mut clauses = Vec::new();
            for clause in &i.elif_else_clauses {
                let test = match &clause.test {
                    Some(t) => Some(expr(c, t)?),
                    None => None,
                };
                clauses.push((test, block(c, &clause.body)?));
            }
            at(range, move |rt, fr| {
                let t = test(rt, fr)?;
                if ops::truthy(rt, &t)? {
                    return run(rt, fr, &body);
                }
                for (test, body) in &clauses {
                    let take = match test {
                        Some(test) => {
                            let t = test(rt, fr)?;
                            ops::truthy(rt, &t)?
                        }
                        None => true,
                    };
                    if take {
                        return run(rt, fr, body);
                    }
                }
                Ok(Flow::Normal)
            })
        }
        Stmt::While(w) => {
            let test = expr(c, &w.test)?;
            let (body, orelse) = (block(c, &w.body)?, block(c, &w.orelse)?);
            at(range, move |rt, fr| loop {
                rt.check_interrupt()?;
                let t = test(rt, fr)?;
                if !ops::truthy(rt, &t)? {
                    return run(rt, fr, &orelse);
                }
                if let Some(out) = leaves(run(rt, fr, &body)?) {
                    return Ok(out);
                }
            })
        }
        Stmt::For(f) if !f.is_async => for_loop(c, f)?,
        Stmt::Try(t) => crate::interp::slots_handlers::try_stmt(c, t)?,
        Stmt::With(w) => crate::interp::slots_handlers::with_stmt(c, w)?,
        Stmt::Break(_) => Box::new(|_, _| Ok(Flow::Break)),
        Stmt::Continue(_) => Box::new(|_, _| Ok(Flow::Continue)),
        Stmt::Pass(_) | Stmt::Global(_) => Box::new(|_, _| Ok(Flow::Normal)),
        Stmt::Return(r) => {
            let value = match &r.value {
                Some(e) => Some(expr(c, e)?),
                None => None,
            };
            at(range, move |rt, fr| {
                Ok(Flow::Return(match &value {
                    Some(e) => e(rt, fr)?,
                    None => Value::None,
                }))
            })
        }
        Stmt::Raise(r) if r.exc.is_none() => crate::interp::slots_handlers::reraise(),
        Stmt::Raise(r) => {
            let exc = expr(c, r.exc.as_ref()?)?;
            let cause = match &r.cause {
                Some(e) => Some(expr(c, e)?),
                None => None,
            };
            at(range, move |rt, fr| {
                let v = exc(rt, fr)?;
                let mut err = crate::interp::stmt::to_exception(rt, &v)?;
                if let Some(cause) = &cause {
                    let cause = cause(rt, fr)?;
                    crate::interp::objects::set_cause(rt, &mut err, &cause)?;
                }
                Err(err)
            })
        }
        Stmt::Assert(a) => {
            let test = expr(c, &a.test)?;
            let msg = match &a.msg {
                Some(m) => Some(expr(c, m)?),
                None => None,
            };
            at(range, move |rt, fr| {
                let t = test(rt, fr)?;
                if ops::truthy(rt, &t)? {
                    return Ok(Flow::Normal);
                }
                let msg = match &msg {
                    Some(m) => {
                        let v = m(rt, fr)?;
                        crate::interp::repr::to_str(rt, &v)?
                    }
                    None => String::new(),
                };
                Err(PyErr::new("AssertionError", msg))
            })
        }
        Stmt::Delete(d) => {
            let mut targets: Vec<S> = Vec::new();
            for t in &d.targets {
                targets.push(delete(c, t)?);
            }
            at(range, move |rt, fr| {
                for t in &targets {
                    t(rt, fr)?;
                }
                Ok(Flow::Normal)
            })
        }
        _ => return None,
    })
}

fn delete(c: &mut Compiler, t: &Expr) -> Option<S> {
    Some(match t {
        Expr::Name(n) => match c.place(n.id.as_str()) {
            Place::Slot(i) => {
                let name: Rc<str> = Rc::from(n.id.as_str());
                Box::new(move |_, fr| match fr.slots[i].take() {
                    Some(old) => {
                        drop(old);
                        Ok(Flow::Normal)
                    }
                    None => Err(unbound(&name)),
                })
            }
            Place::Global(name) | Place::Free(name) => Box::new(move |_, fr| {
                let old = fr.globals.borrow_mut().shift_remove(&*name);
                match old {
                    Some(_) => Ok(Flow::Normal),
                    None => Err(PyErr::name_error(format!("name '{name}' is not defined"))),
                }
            }),
        },
        Expr::Subscript(s) => {
            let (base, key) = (expr(c, &s.value)?, expr(c, &s.slice)?);
            Box::new(move |rt, fr| {
                let b = base(rt, fr)?;
                let k = key(rt, fr)?;
                ops::del_item(rt, &b, &k)?;
                Ok(Flow::Normal)
            })
        }
        Expr::Attribute(a) => {
            let base = expr(c, &a.value)?;
            let name: Rc<str> = Rc::from(a.attr.as_str());
            Box::new(move |rt, fr| {
                let b = base(rt, fr)?;
                crate::interp::attrs::del_attr(rt, &b, &name)?;
                Ok(Flow::Normal)
            })
        }
        _ => return None,
    })
}

fn aug_assign(c: &mut Compiler, a: &ast::StmtAugAssign) -> Option<S> {
    let op = binop_of(a.op);
    let range = a.range();
    Some(match &*a.target {
        Expr::Name(n) if matches!(c.place(n.id.as_str()), Place::Slot(_)) => {
            let Place::Slot(i) = c.place(n.id.as_str()) else {
                return None;
            };
            let name: Rc<str> = Rc::from(n.id.as_str());
            let rhs = opnd(c, &a.value)?;
            // The walker reads the target, then evaluates the value: a plain value (a slot
            // or a constant) cannot rebind the target in between, so both are borrowed.
            let plain = rhs.is_plain();
            at(range, move |rt, fr| {
                let new = if plain {
                    let cur = fr.slots[i].as_ref().ok_or_else(|| unbound(&name))?;
                    inplace(rt, op, cur, rhs.peek(fr)?)?
                } else {
                    let cur = fr.slots[i].clone().ok_or_else(|| unbound(&name))?;
                    let r = rhs.get(rt, fr)?;
                    inplace(rt, op, &cur, &r)?
                };
                let old = fr.slots[i].replace(new);
                drop(old);
                Ok(Flow::Normal)
            })
        }
        Expr::Name(n) => {
            let cur = load(c, n.id.as_str(), n.range());
            let rhs = expr(c, &a.value)?;
            let bind = store(c, n.id.as_str());
            at(range, move |rt, fr| {
                let v = cur(rt, fr)?;
                let r = rhs(rt, fr)?;
                let new = inplace(rt, op, &v, &r)?;
                drop(v);
                bind(rt, fr, new)?;
                Ok(Flow::Normal)
            })
        }
        Expr::Subscript(s) => {
            let (base, key) = (expr(c, &s.value)?, expr(c, &s.slice)?);
            let rhs = expr(c, &a.value)?;
            at(range, move |rt, fr| {
                let b = base(rt, fr)?;
                let k = key(rt, fr)?;
                let v = ops::get_item(rt, &b, &k)?;
                let r = rhs(rt, fr)?;
                let new = inplace(rt, op, &v, &r)?;
                ops::set_item(rt, &b, &k, new)?;
                Ok(Flow::Normal)
            })
        }
        Expr::Attribute(at_) => {
            let base = expr(c, &at_.value)?;
            let attr: Rc<str> = Rc::from(at_.attr.as_str());
            let rhs = expr(c, &a.value)?;
            at(range, move |rt, fr| {
                let b = base(rt, fr)?;
                let v = crate::interp::attrs::get_attr(rt, &b, &attr)?;
                let r = rhs(rt, fr)?;
                let new = inplace(rt, op, &v, &r)?;
                crate::interp::attrs::set_attr(rt, &b, &attr, new)?;
                Ok(Flow::Normal)
            })
        }
        _ => return None,
    })
}

fn for_loop(c: &mut Compiler, f: &ast::StmtFor) -> Option<S> {
    let iter = expr(c, &f.iter)?;
    let bind = target(c, &f.target)?;
    // A loop variable that is a local slot is bound in place, without a call.
    let slot = match &*f.target {
        Expr::Name(n) => match c.place(n.id.as_str()) {
            Place::Slot(i) => Some(i),
            _ => None,
        },
        _ => None,
    };
    let (body, orelse) = (block(c, &f.body)?, block(c, &f.orelse)?);
    Some(at(f.range(), move |rt, fr| {
        let iterable = iter(rt, fr)?;
        // As the walker: ranges are counted through, generators and lazy iterators pulled
        // one item at a time, anything else listed first.
        if let Some(r) = iterable.downcast::<crate::interp::objects::RangeObj>() {
            for k in 0..r.len() {
                rt.check_interrupt()?;
                match slot {
                    Some(i) => {
                        if let Some(old) = fr.slots[i].replace(Value::Int(r.get(k))) {
                            crate::py::value::release(old);
                        }
                    }
                    None => bind(rt, fr, Value::Int(r.get(k)))?,
                }
                if let Some(out) = leaves(run(rt, fr, &body)?) {
                    return Ok(out);
                }
            }
            return run(rt, fr, &orelse);
        }
        let pulled = |rt: &mut Runtime,
                      fr: &mut Frame<'_>,
                      pull: &mut dyn FnMut(&mut Runtime) -> PyResult<Option<Value>>|
         -> PyResult<Flow> {
            while let Some(item) = pull(rt)? {
                rt.check_interrupt()?;
                bind(rt, fr, item)?;
                if let Some(out) = leaves(run(rt, fr, &body)?) {
                    return Ok(out);
                }
            }
            run(rt, fr, &orelse)
        };
        if let Some(g) = crate::interp::generators::as_generator(&iterable) {
            return pulled(rt, fr, &mut |rt| g.next_value(rt));
        }
        if let Some(it) = crate::interp::iterators::as_lazy(&iterable) {
            return pulled(rt, fr, &mut |rt| it.next_item(rt));
        }
        let items = ops::iterate(rt, &iterable)?;
        let size = container_size(&iterable);
        for item in items {
            rt.check_interrupt()?;
            bind(rt, fr, item)?;
            if let Some(out) = leaves(run(rt, fr, &body)?) {
                return Ok(out);
            }
            check_size(&iterable, size)?;
        }
        run(rt, fr, &orelse)
    }))
}

/// What a loop does after its body: None to go on; `break` ends the loop normally and
/// `return` leaves it.
fn leaves(flow: Flow) -> Option<Flow> {
    match flow {
        Flow::Break => Some(Flow::Normal),
        Flow::Return(v) => Some(Flow::Return(v)),
        _ => None,
    }
}

/// Binding a name.
pub fn store(c: &Compiler, name: &str) -> T {
    match c.place(name) {
        Place::Slot(i) => Box::new(move |_, fr, v| {
            let old = fr.slots[i].replace(v);
            drop(old);
            Ok(())
        }),
        Place::Global(name) | Place::Free(name) => {
            let cache = NameCache::default();
            Box::new(move |_, fr, v| {
                // The old value goes after the borrow ends: dropping it may reach the globals.
                let old = fr.globals.borrow_mut().set_cached(&name, v, &cache);
                drop(old);
                Ok(())
            })
        }
    }
}

/// Compile an assignment target.
pub fn target(c: &mut Compiler, t: &Expr) -> Option<T> {
    Some(match t {
        Expr::Name(n) => store(c, n.id.as_str()),
        Expr::Tuple(t) => unpack(c, &t.elts)?,
        Expr::List(l) => unpack(c, &l.elts)?,
        Expr::Subscript(s) => {
            let (base, key) = (opnd(c, &s.value)?, opnd(c, &s.slice)?);
            let plain = base.is_plain() && key.is_plain();
            Box::new(move |rt, fr, v| {
                // `d[k] = v` is the common store: a dict in a local is used where it lies.
                if plain {
                    if let Value::Dict(d) = base.peek(fr)? {
                        let k = key.peek(fr)?.clone();
                        return ops::dict_store(rt, d, k, v);
                    }
                }
                let b = base.get(rt, fr)?;
                let k = key.get(rt, fr)?;
                if let Value::Dict(d) = &b {
                    return ops::dict_store(rt, d, k, v);
                }
                ops::set_item(rt, &b, &k, v)
            })
        }
        Expr::Attribute(a) => attribute_target(c, a)?,
        _ => return None,
    })
}

fn attribute_target(c: &mut Compiler, a: &ast::ExprAttribute) -> Option<T> {
    let base = expr(c, &a.value)?;
    let attr: Rc<str> = Rc::from(a.attr.as_str());
    // `a.shape = (10, -1)` on an array bound to a name reshapes in place and rebinds the
    // name, as the walker does.
    let rebind = match (&*a.value, &*attr) {
        (Expr::Name(n), "shape") => Some(store(c, n.id.as_str())),
        _ => None,
    };
    Some(Box::new(move |rt, fr, v| {
        let b = base(rt, fr)?;
        if let (Value::Array(arr), Some(rebind)) = (&b, &rebind) {
            let new = crate::interp::stmt::reshaped_in_place(arr, &v)?;
            return rebind(rt, fr, new);
        }
        crate::interp::attrs::set_attr(rt, &b, &attr, v)
    }))
}

fn unpack(c: &mut Compiler, targets: &[Expr]) -> Option<T> {
    let star = targets.iter().position(|t| matches!(t, Expr::Starred(_)));
    let mut binds = Vec::with_capacity(targets.len());
    for t in targets {
        binds.push(match t {
            Expr::Starred(s) => target(c, &s.value)?,
            t => target(c, t)?,
        });
    }
    let n = targets.len();
    Some(Box::new(move |rt, fr, v| {
        let items = ops::iterate(rt, &v)?;
        match star {
            None => {
                if items.len() != n {
                    return Err(PyErr::value_error(if items.len() > n {
                        format!("too many values to unpack (expected {n})")
                    } else {
                        format!(
                            "not enough values to unpack (expected {n}, got {})",
                            items.len()
                        )
                    }));
                }
                for (b, item) in binds.iter().zip(items) {
                    b(rt, fr, item)?;
                }
            }
            Some(si) => {
                let after = n - si - 1;
                if items.len() < si + after {
                    return Err(PyErr::value_error(format!(
                        "not enough values to unpack (expected at least {}, got {})",
                        si + after,
                        items.len()
                    )));
                }
                let mut items = items.into_iter();
                for b in &binds[..si] {
                    b(rt, fr, items.next().unwrap_or(Value::None))?;
                }
                let mut rest: Vec<Value> = items.collect();
                let tail = rest.split_off(rest.len() - after);
                binds[si](rt, fr, Value::list(rest))?;
                for (b, item) in binds[si + 1..].iter().zip(tail) {
                    b(rt, fr, item)?;
                }
            }
        }
        Ok(())
    }))
}
