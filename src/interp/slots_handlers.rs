//! `try`, `with` and bare `raise` in compiled bodies, with the walker's semantics
//! (`stmt.rs`): handlers matched by `class_tools::error_matches`, the exception being
//! handled kept for a bare `raise` and chained as the context of one raised inside the
//! handler, context managers' `__exit__` told of the error and able to swallow it. As
//! CPython does, an `except ... as name` unbinds the name when its handler ends.

use ruff_python_ast as ast;
use ruff_text_size::Ranged;

use crate::interp::frame::Flow;
use crate::interp::slots::{Compiler, Frame, Place};
use crate::interp::slots_expr::{expr, E};
use crate::interp::slots_stmt::{block, run, store, target, S, T};
use crate::interp::stmt::{context_manager, exit_with};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;

struct Handler {
    class: Option<E>,
    bind: Option<(T, usize)>,
    body: Vec<S>,
}

/// Compile a `try` statement.
pub fn try_stmt(c: &mut Compiler, t: &ast::StmtTry) -> Option<S> {
    if t.is_star {
        return None;
    }
    let body = block(c, &t.body)?;
    let mut handlers = Vec::new();
    for h in &t.handlers {
        let ast::ExceptHandler::ExceptHandler(h) = h;
        let class = match &h.type_ {
            Some(ty) => Some(expr(c, ty)?),
            None => None,
        };
        let bind = match &h.name {
            Some(name) => match c.place(name.as_str()) {
                Place::Slot(i) => Some((store(c, name.as_str()), i)),
                // A global handler name stays with the walker.
                _ => return None,
            },
            None => None,
        };
        handlers.push(Handler {
            class,
            bind,
            body: block(c, &h.body)?,
        });
    }
    let (orelse, finalbody) = (block(c, &t.orelse)?, block(c, &t.finalbody)?);
    let range = t.range();
    Some(Box::new(move |rt, fr| {
        let outcome = match run(rt, fr, &body) {
            Ok(Flow::Normal) => run(rt, fr, &orelse),
            Ok(other) => Ok(other),
            Err(err) => handle(rt, fr, &handlers, err),
        };
        if !finalbody.is_empty() {
            match run(rt, fr, &finalbody).map_err(|e| fr.locate(e, range))? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        outcome.map_err(|e| fr.locate(e, range))
    }))
}

fn handle(
    rt: &mut Runtime,
    fr: &mut Frame<'_>,
    handlers: &[Handler],
    err: PyErr,
) -> PyResult<Flow> {
    for h in handlers {
        if let Some(class) = &h.class {
            if !matches(rt, fr, &err, class)? {
                continue;
            }
        }
        let (err, value) = crate::interp::objects::caught(err);
        if let Some((bind, _)) = &h.bind {
            bind(rt, fr, value)?;
        }
        fr.handling.push(err.clone());
        let r = crate::interp::traceback_module::handling(rt, &err, |rt| run(rt, fr, &h.body))
            .map_err(|e| crate::interp::objects::chain_context(e, &err));
        fr.handling.pop();
        if let Some((_, slot)) = &h.bind {
            fr.slots[*slot] = None;
        }
        return r;
    }
    Err(err)
}

/// Whether the `except` clause's class (or tuple of classes) catches `err`.
fn matches(rt: &mut Runtime, fr: &mut Frame<'_>, err: &PyErr, class: &E) -> PyResult<bool> {
    let v = class(rt, fr)?;
    crate::interp::stmt::catches(err, &v)
}

/// A bare `raise`: the exception being handled.
pub fn reraise() -> S {
    Box::new(|_, fr| {
        Err(fr
            .handling
            .last()
            .cloned()
            .ok_or_else(|| PyErr::runtime_error("No active exception to reraise"))?)
    })
}

struct Item {
    manager: E,
    bind: Option<T>,
}

/// Compile a `with` statement.
pub fn with_stmt(c: &mut Compiler, w: &ast::StmtWith) -> Option<S> {
    if w.is_async {
        return None;
    }
    let mut items = Vec::new();
    for item in &w.items {
        let manager = expr(c, &item.context_expr)?;
        let bind = match &item.optional_vars {
            Some(t) => Some(target(c, t)?),
            None => None,
        };
        items.push(Item { manager, bind });
    }
    let body = block(c, &w.body)?;
    let range = w.range();
    Some(Box::new(move |rt, fr| {
        with_items(rt, fr, &items, &body).map_err(|e| fr.locate(e, range))
    }))
}

fn with_items(rt: &mut Runtime, fr: &mut Frame<'_>, items: &[Item], body: &[S]) -> PyResult<Flow> {
    let Some((item, rest)) = items.split_first() else {
        return run(rt, fr, body);
    };
    let manager = (item.manager)(rt, fr)?;
    let obj = context_manager(&manager)?;
    let entered = obj.clone().enter(rt)?;
    if let Some(bind) = &item.bind {
        bind(rt, fr, entered)?;
    }
    let result = with_items(rt, fr, rest, body);
    exit_with(rt, obj, result)
}
