//! Generator expressions in compiled code: the first iterable evaluated where the
//! expression stands (as CPython does), the rest run lazily, one item per `next`, on a
//! frame of the expression's own slots.
//!
//! Only expressions with one `for` whose body reads nothing from the enclosing body's
//! slots are compiled: the generator may outlive a rebinding of such a local, which only a
//! closure cell (the walker's shared scope) would see. Everything else leaves the body to
//! the walker.

use std::rc::Rc;

use ruff_python_ast as ast;

use crate::interp::generator_machine::Source;
use crate::interp::slots::{empty_slots, Code, Compiler, Frame, Place};
use crate::interp::slots_expr::{expr, exprs, target_names, E};
use crate::interp::slots_stmt::{target, T};
use crate::py::error::PyResult;
use crate::py::runtime::Runtime;
use crate::py::value::Value;

struct Body {
    names: Vec<Rc<str>>,
    bind: T,
    conds: Vec<E>,
    elt: E,
}

/// Compile a generator expression.
pub fn genexpr(c: &mut Compiler, g: &ast::ExprGenerator) -> Option<E> {
    let [gen] = &g.generators[..] else {
        return None;
    };
    if gen.is_async {
        return None;
    }
    let first = expr(c, &gen.iter)?;
    let mut inner = c.for_genexpr();
    let mut names = Vec::new();
    target_names(&gen.target, &mut names)?;
    for n in names {
        inner.add_local(Rc::from(n));
    }
    let bind = target(&mut inner, &gen.target)?;
    let conds = exprs(&mut inner, &gen.ifs)?;
    let elt = expr(&mut inner, &g.elt)?;
    let outside = inner.outside.take();
    if outside.iter().any(|n| matches!(c.place(n), Place::Slot(_))) {
        return None;
    }
    let body = Rc::new(Body {
        names: inner.names,
        bind,
        conds,
        elt,
    });
    Some(Box::new(move |rt, fr| {
        let first = first(rt, fr)?;
        let src = Source::new(rt, first)?;
        let qualname = match fr.func {
            Some(_) => format!("{}.<locals>.<genexpr>", fr.code.fname),
            None => "<genexpr>".to_string(),
        };
        let state = State {
            body: body.clone(),
            src,
            slots: empty_slots(body.names.len()),
            code: Code {
                names: body.names.clone(),
                body: Vec::new(),
                source: fr.code.source.clone(),
                origin: fr.code.origin.clone(),
                fname: Rc::from("<genexpr>"),
                globals_declared: Default::default(),
                positional: None,
                returns: None,
                module: false,
            },
            globals: fr.globals.clone(),
            enclosing: fr.enclosing.to_vec(),
        };
        let mut state = state;
        Ok(crate::interp::generators::from_native(
            Box::new(move |rt| state.step(rt)),
            &qualname,
        ))
    }))
}

/// A running generator expression: where its items come from and its own frame.
struct State {
    body: Rc<Body>,
    src: Source,
    slots: crate::interp::slots::Slots,
    code: Code,
    globals: crate::py::function::Scope,
    enclosing: Vec<crate::py::function::Scope>,
}

impl State {
    fn step(&mut self, rt: &mut Runtime) -> PyResult<Option<Value>> {
        let State {
            body,
            src,
            slots,
            code,
            globals,
            enclosing,
        } = self;
        'items: while let Some(item) = src.next(rt)? {
            rt.check_interrupt()?;
            let mut frame = Frame {
                slots,
                globals,
                enclosing,
                code,
                func: None,
                handling: Vec::new(),
            };
            (body.bind)(rt, &mut frame, item)?;
            for cond in &body.conds {
                let v = cond(rt, &mut frame)?;
                if !crate::interp::ops::truthy(rt, &v)? {
                    continue 'items;
                }
            }
            return (body.elt)(rt, &mut frame).map(Some);
        }
        Ok(None)
    }
}
