//! Generators: functions containing `yield` and generator expressions, run lazily.
//!
//! The tree-walking interpreter cannot suspend in the middle of a Rust call stack, so a
//! generator body runs on a small resumable machine instead: a stack of frames (statement
//! blocks with a program counter, `for` and `while` loops, `try`, `with`, `yield from`, and
//! the levels of a generator expression). Statements without a `yield` inside run on the
//! ordinary interpreter; only the statements that contain one are stepped by the machine.
//! `yield` may appear as a statement (`yield x`), as the value of an assignment
//! (`x = yield y`), or as `yield from it`; a `yield` elsewhere inside an expression raises a
//! clear NotImplementedError.
//!
//! `close()` raises GeneratorExit where the generator paused, so its `finally` blocks and
//! handlers run. Known differences from CPython: a generator dropped while suspended inside
//! `try` or `with` does not run its `finally` or `__exit__`; `throw()` is not provided.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use ruff_python_ast::{self as ast, Stmt};

use crate::interp::expr::eval;
use crate::interp::frame::Ctx;
use crate::interp::generator_machine::{block, run, throw, Frame, Machine, Source, Step};
pub use crate::interp::generator_machine::{has_yield, is_generator_body};
use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::ExcClass;
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

/// The step of a generator expression compiled to native closures (`slots_genexpr.rs`):
/// the next value, or None when exhausted.
pub type NativeStep = Box<dyn FnMut(&mut Runtime) -> PyResult<Option<Value>>>;

enum State {
    Ready(Box<Machine>),
    /// A compiled generator expression.
    Native(NativeStep),
    Running,
    /// Finished, with the value its `return` gave until `yield from` takes it.
    Done(Value),
}

/// A generator object.
pub struct Generator {
    this: std::rc::Weak<Generator>,
    name: String,
    qualname: String,
    state: RefCell<State>,
    /// Resumed at least once: a just-started generator can only be sent None.
    started: std::cell::Cell<bool>,
}

/// The generator `v` is, if it is one.
pub fn as_generator(v: &Value) -> Option<Rc<Generator>> {
    v.downcast::<Generator>().and_then(|g| g.this.upgrade())
}

/// A generator for a call of a generator function: the bound frame, not started.
pub fn from_function(ctx: Ctx, body: &[Stmt], name: &str, qualname: &str) -> Value {
    make(
        Machine {
            ctx,
            frames: vec![Frame::Block {
                stmts: block(body),
                pc: 0,
            }],
            send_target: None,
        },
        name,
        qualname,
    )
}

/// A generator expression: the first iterable is evaluated now, in the enclosing scope,
/// as CPython does; the rest runs lazily in the expression's own scope.
pub fn from_expression(rt: &mut Runtime, ctx: &mut Ctx, g: &ast::ExprGenerator) -> PyResult<Value> {
    let first = eval(rt, ctx, &g.generators[0].iter)?;
    let src = Source::new(rt, first)?;
    let inner = ctx.nested_scope();
    let qualname = match &ctx.locals {
        Some(_) => format!("{}.<locals>.<genexpr>", ctx.fname),
        None => "<genexpr>".into(),
    };
    Ok(make(
        Machine {
            ctx: inner,
            frames: vec![Frame::Comp {
                expr: Rc::new(g.clone()),
                level: 0,
                src,
            }],
            send_target: None,
        },
        "<genexpr>",
        &qualname,
    ))
}

fn make(m: Machine, name: &str, qualname: &str) -> Value {
    make_state(State::Ready(Box::new(m)), name, qualname)
}

/// A generator expression whose steps are compiled code (the first iterable already
/// evaluated by the caller, as for [`from_expression`]).
pub fn from_native(step: NativeStep, qualname: &str) -> Value {
    make_state(State::Native(step), "<genexpr>", qualname)
}

fn make_state(state: State, name: &str, qualname: &str) -> Value {
    Value::Object(Rc::new_cyclic(|this| Generator {
        this: this.clone(),
        name: name.to_string(),
        qualname: qualname.to_string(),
        state: RefCell::new(state),
        started: Default::default(),
    }))
}

impl Generator {
    /// `next(gen)`: the next value, or None when the generator is exhausted.
    pub fn next_value(&self, rt: &mut Runtime) -> PyResult<Option<Value>> {
        match self.resume(rt, Value::None)? {
            Step::Yield(v) => Ok(Some(v)),
            Step::Return(_) => Ok(None),
        }
    }

    /// `next(gen)` without a default: the next value, or StopIteration carrying the value
    /// the generator returned.
    pub fn next_or_stop(&self, rt: &mut Runtime) -> PyResult<Value> {
        match self.resume(rt, Value::None)? {
            Step::Yield(v) => Ok(v),
            Step::Return(v) => Err(stop_iteration(rt, v)),
        }
    }

    fn resume(&self, rt: &mut Runtime, sent: Value) -> PyResult<Step> {
        self.started.set(true);
        let state = std::mem::replace(&mut *self.state.borrow_mut(), State::Running);
        let mut m = match state {
            State::Ready(m) => m,
            State::Native(mut step) => {
                // A generator expression's yields discard what is sent.
                drop(sent);
                let result = crate::interp::expr::enter_frame(rt, |rt| step(rt));
                *self.state.borrow_mut() = match &result {
                    Ok(Some(_)) => State::Native(step),
                    _ => State::Done(Value::None),
                };
                return result.map(|v| match v {
                    Some(v) => Step::Yield(v),
                    None => Step::Return(Value::None),
                });
            }
            State::Running => {
                *self.state.borrow_mut() = State::Running;
                return Err(PyErr::value_error("generator already executing"));
            }
            State::Done(v) => {
                *self.state.borrow_mut() = State::Done(v);
                return Ok(Step::Return(Value::None));
            }
        };
        let result = crate::interp::expr::enter_frame(rt, |rt| run(rt, &mut m, sent));
        *self.state.borrow_mut() = match &result {
            Ok(Step::Yield(_)) => State::Ready(m),
            Ok(Step::Return(v)) => State::Done(v.clone()),
            Err(_) => State::Done(Value::None),
        };
        result
    }
}

/// How far [`Generator::fold_native`] got.
pub enum Folded {
    /// Every item was folded in; the generator is finished.
    Done,
    /// An item the fold could not take; the generator is paused after it.
    Item(Value),
    /// Not a compiled generator expression waiting for its next item: pull it instead.
    NotNative,
}

impl Generator {
    /// Fold the items of a compiled generator expression into `acc` with `fast` (which
    /// runs no Python code), resuming the expression's frame once rather than once per
    /// item. Stops at the first item `fast` declines, with the generator paused after it
    /// as `next` would leave it, so the caller's slower step may run any code, this
    /// generator included.
    pub fn fold_native(
        &self,
        rt: &mut Runtime,
        acc: &mut Value,
        fast: fn(&Value, &Value) -> Option<Value>,
    ) -> PyResult<Folded> {
        let mut step = {
            let mut state = self.state.borrow_mut();
            match std::mem::replace(&mut *state, State::Running) {
                State::Native(step) => step,
                other => {
                    *state = other;
                    return Ok(Folded::NotNative);
                }
            }
        };
        self.started.set(true);
        let result = crate::interp::expr::enter_frame(rt, |rt| loop {
            match step(rt)? {
                None => return Ok(Folded::Done),
                Some(item) => match fast(acc, &item) {
                    Some(v) => *acc = v,
                    None => return Ok(Folded::Item(item)),
                },
            }
        });
        *self.state.borrow_mut() = match &result {
            Ok(Folded::Item(_)) => State::Native(step),
            _ => State::Done(Value::None),
        };
        result
    }
}

impl Generator {
    /// `close()`: a generator suspended after its first yield gets GeneratorExit raised
    /// where it stopped, so its `finally` blocks and handlers run.
    /// `gen.throw(exc)`: the exception raised where the generator is paused, so its
    /// handlers and `finally` blocks run; a generator not started or finished raises it
    /// at once, as CPython's does.
    fn throw_in(&self, rt: &mut Runtime, err: PyErr) -> PyResult<Value> {
        let state = std::mem::replace(&mut *self.state.borrow_mut(), State::Done(Value::None));
        let mut m = match state {
            State::Ready(m) if !m.not_started() => m,
            State::Running => {
                *self.state.borrow_mut() = State::Running;
                return Err(PyErr::value_error("generator already executing"));
            }
            State::Done(v) => {
                *self.state.borrow_mut() = State::Done(v);
                return Err(err);
            }
            _ => return Err(err),
        };
        self.started.set(true);
        *self.state.borrow_mut() = State::Running;
        let result = crate::interp::expr::enter_frame(rt, |rt| throw(rt, &mut m, err));
        *self.state.borrow_mut() = match &result {
            Ok(Step::Yield(_)) => State::Ready(m),
            Ok(Step::Return(v)) => State::Done(v.clone()),
            Err(_) => State::Done(Value::None),
        };
        match result? {
            Step::Yield(v) => Ok(v),
            Step::Return(v) => Err(stop_iteration(rt, v)),
        }
    }

    fn close(&self, rt: &mut Runtime) -> PyResult<Value> {
        let state = std::mem::replace(&mut *self.state.borrow_mut(), State::Done(Value::None));
        let mut m = match state {
            State::Ready(m) if !m.not_started() => m,
            State::Running => {
                *self.state.borrow_mut() = State::Running;
                return Err(PyErr::value_error("generator already executing"));
            }
            _ => return Ok(Value::None),
        };
        *self.state.borrow_mut() = State::Running;
        let exit = PyErr::new("GeneratorExit", "");
        let result = crate::interp::expr::enter_frame(rt, |rt| throw(rt, &mut m, exit));
        *self.state.borrow_mut() = State::Done(Value::None);
        match result {
            Ok(Step::Yield(_)) => Err(PyErr::runtime_error("generator ignored GeneratorExit")),
            Ok(Step::Return(_)) => Ok(Value::None),
            Err(e)
                if e.is_instance(ExcClass::GeneratorExit)
                    || e.is_instance(ExcClass::StopIteration) =>
            {
                Ok(Value::None)
            }
            Err(e) => Err(e),
        }
    }

    /// The value a finished generator returned (what `x = yield from g` binds).
    pub(crate) fn returned(&self) -> Value {
        match &mut *self.state.borrow_mut() {
            State::Done(v) => std::mem::replace(v, Value::None),
            _ => Value::None,
        }
    }
}

/// The StopIteration a finished generator raises, carrying its return value.
fn stop_iteration(rt: &mut Runtime, v: Value) -> PyErr {
    let message = if v.is_none() {
        String::new()
    } else {
        crate::interp::repr::to_str(rt, &v).unwrap_or_default()
    };
    let err = PyErr::new("StopIteration", message);
    match v {
        Value::None => err,
        v => err.with_args(vec![v]),
    }
}

impl Object for Generator {
    fn hashed_by_identity(&self) -> bool {
        true
    }
    fn type_name(&self) -> String {
        "generator".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "<generator object {} at {:#x}>",
            self.qualname, self as *const Self as usize
        ))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let this = self.clone();
        Ok(match name {
            "__name__" => Some(Value::str(&self.name)),
            "__qualname__" => Some(Value::str(&self.qualname)),
            "__next__" => Some(Value::method(
                &this,
                "generator.__next__",
                "__next__()",
                "The next value; StopIteration at the end.",
                |g, rt, _| g.next_or_stop(rt),
            )),
            "send" => Some(Value::method(
                &this,
                "generator.send",
                "send(value)",
                "Resume the generator, making the paused yield evaluate to value.",
                |g, rt, a| {
                    let v = a.pos.first().cloned().unwrap_or(Value::None);
                    let just_started = !g.started.get()
                        && matches!(&*g.state.borrow(), State::Ready(_) | State::Native(_));
                    if !v.is_none() && just_started {
                        return Err(PyErr::type_error(
                            "can't send non-None value to a just-started generator",
                        ));
                    }
                    match g.resume(rt, v)? {
                        Step::Yield(v) => Ok(v),
                        Step::Return(v) => Err(stop_iteration(rt, v)),
                    }
                },
            )),
            "throw" => Some(Value::method(
                &this,
                "generator.throw",
                "throw(value)",
                "Raise value at the paused yield; return the next value the generator yields.",
                |g, rt, a| {
                    // The old form throw(type, value) raises value when it is an instance.
                    let v = match a.pos.as_slice() {
                        [_, v, ..] if !v.is_none() => v,
                        [v, ..] => v,
                        [] => {
                            return Err(PyErr::type_error(
                                "throw expected at least 1 argument, got 0",
                            ))
                        }
                    };
                    let err = crate::interp::stmt::to_exception(rt, v)?;
                    g.throw_in(rt, err)
                },
            )),
            "close" => Some(Value::method(
                &this,
                "generator.close",
                "close()",
                "Finish the generator; later next() calls raise StopIteration.",
                |g, rt, _| g.close(rt),
            )),
            "__iter__" => Some(Value::method(
                &this,
                "generator.__iter__",
                "__iter__()",
                "The generator itself.",
                |g, _, _| Ok(Value::Object(g.clone())),
            )),
            _ => None,
        })
    }
    fn iter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        let mut out = Vec::new();
        while let Some(v) = self.next_value(rt)? {
            if out.len() >= 50_000_000 {
                return Err(PyErr::memory_error(
                    "generator produced more than 50,000,000 items while being collected into a list",
                ));
            }
            out.push(v);
        }
        Ok(Some(out))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
