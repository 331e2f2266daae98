//! The resumable machine a generator body runs on (see `generators.rs`): a stack of
//! frames (statement blocks with a program counter, `for` and `while` loops, `try`, `with`,
//! `yield from`, the levels of a generator expression), stepped until the body yields or
//! finishes. Statements without a `yield` run on the ordinary interpreter.

use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::interp::expr::eval;
use crate::interp::frame::{Ctx, Flow};
use crate::interp::generators::{as_generator, Generator};
use crate::interp::objects::RangeObj;
use crate::interp::ops;
use crate::interp::stmt::{assign_target, exec_stmt, handler_matches};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

/// The items a loop in the machine walks: materialised, a range (lazily), or another
/// generator (lazily, so infinite generators compose).
pub(crate) enum Source {
    Items(std::vec::IntoIter<Value>),
    Range {
        next: i64,
        step: i64,
        left: usize,
    },
    Gen(Rc<Generator>),
    /// A native lazy iterator or user iterator, pulled one item at a time.
    Lazy(crate::interp::iterators::NextFn),
}

impl Source {
    pub(crate) fn new(rt: &mut Runtime, v: Value) -> PyResult<Source> {
        if let Some(r) = v.downcast::<RangeObj>() {
            return Ok(Source::Range {
                next: r.start,
                step: r.step,
                left: r.len(),
            });
        }
        if let Some(g) = as_generator(&v) {
            return Ok(Source::Gen(g));
        }
        if crate::interp::iterators::as_lazy(&v).is_some() {
            return Ok(Source::Lazy(crate::interp::iterators::pull(rt, &v)?));
        }
        Ok(Source::Items(ops::iterate(rt, &v)?.into_iter()))
    }

    pub(crate) fn next(&mut self, rt: &mut Runtime) -> PyResult<Option<Value>> {
        match self {
            Source::Items(it) => Ok(it.next()),
            Source::Range { next, step, left } => {
                if *left == 0 {
                    return Ok(None);
                }
                let v = *next;
                *left -= 1;
                *next = next.wrapping_add(*step);
                Ok(Some(Value::Int(v)))
            }
            Source::Gen(g) => g.next_value(rt),
            Source::Lazy(f) => f(rt),
        }
    }
}

/// What a `try` frame is doing.
pub(crate) enum TryPhase {
    Body,
    Handler,
    Else,
    Finally,
}

/// Control flow waiting for a `finally` block to finish.
pub(crate) enum Pending {
    Nothing,
    Error(PyErr),
    Return(Value),
    Break,
    Continue,
}

pub(crate) enum Frame {
    Block {
        stmts: Rc<[Stmt]>,
        pc: usize,
    },
    For {
        target: Expr,
        src: Source,
        body: Rc<[Stmt]>,
        orelse: Rc<[Stmt]>,
    },
    While {
        test: Expr,
        body: Rc<[Stmt]>,
        orelse: Rc<[Stmt]>,
    },
    Try {
        stmt: Rc<ast::StmtTry>,
        phase: TryPhase,
        pending: Pending,
    },
    With {
        manager: Rc<dyn Object>,
    },
    YieldFrom {
        src: Source,
        target: Option<Expr>,
    },
    /// Level `level` of a generator expression.
    Comp {
        expr: Rc<ast::ExprGenerator>,
        level: usize,
        src: Source,
    },
}

/// The suspended state of a generator.
pub(crate) struct Machine {
    pub ctx: Ctx,
    pub frames: Vec<Frame>,
    /// Where the value sent by the next resume goes (`x = yield y`).
    pub send_target: Option<Expr>,
}

impl Machine {
    /// Whether the body has not started yet (a generator function before its first
    /// `next()`).
    pub(crate) fn not_started(&self) -> bool {
        self.frames.len() == 1 && matches!(self.frames[0], Frame::Block { pc: 0, .. })
    }
}

pub(crate) fn block(stmts: &[Stmt]) -> Rc<[Stmt]> {
    Rc::from(stmts.to_vec())
}

/// Whether a statement contains a `yield` of its own (not in nested functions, classes or
/// lambdas).
pub fn has_yield(s: &Stmt) -> bool {
    use ruff_python_ast::visitor::{walk_expr, walk_stmt, Visitor};
    struct Finder(bool);
    impl<'a> Visitor<'a> for Finder {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            if !self.0 && !matches!(s, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
                walk_stmt(self, s);
            }
        }
        fn visit_expr(&mut self, e: &'a Expr) {
            match e {
                _ if self.0 => {}
                Expr::Yield(_) | Expr::YieldFrom(_) => self.0 = true,
                Expr::Lambda(_) | Expr::Generator(_) => {}
                _ => walk_expr(self, e),
            }
        }
    }
    let mut f = Finder(false);
    f.visit_stmt(s);
    f.0
}

/// Whether a function body is a generator's.
pub fn is_generator_body(body: &[Stmt]) -> bool {
    body.iter().any(has_yield)
}

/// What one resume produced.
pub(crate) enum Step {
    Yield(Value),
    Return(Value),
}

/// Run the machine until it yields or finishes.
pub(crate) fn run(rt: &mut Runtime, m: &mut Machine, sent: Value) -> PyResult<Step> {
    if let Some(target) = m.send_target.take() {
        if let Err(e) = assign_target(rt, &mut m.ctx, &target, sent) {
            if let Some(step) = unwind(rt, m, Err(e))? {
                return Ok(step);
            }
        }
    }
    loop {
        rt.check_interrupt()?;
        let outcome = step(rt, m);
        let outcome = match outcome {
            Ok(None) => continue,
            Ok(Some(Control::Yield(v))) => return Ok(Step::Yield(v)),
            Ok(Some(Control::Flow(f))) => Ok(f),
            Err(e) => Err(e),
        };
        if let Some(step) = unwind(rt, m, outcome)? {
            return Ok(step);
        }
    }
}

/// Raise `err` at the point where the machine is suspended (`close()` raises
/// GeneratorExit there), running its handlers and `finally` blocks.
pub(crate) fn throw(rt: &mut Runtime, m: &mut Machine, err: PyErr) -> PyResult<Step> {
    m.send_target = None;
    match unwind(rt, m, Err(err))? {
        Some(step) => Ok(step),
        None => run(rt, m, Value::None),
    }
}

pub(crate) enum Control {
    Yield(Value),
    /// Non-local flow out of the current frame: break, continue, return.
    Flow(Flow),
}

/// Execute one step of the top frame.
fn step(rt: &mut Runtime, m: &mut Machine) -> PyResult<Option<Control>> {
    let Some(top) = m.frames.last_mut() else {
        return Ok(Some(Control::Flow(Flow::Return(Value::None))));
    };
    match top {
        Frame::Block { stmts, pc } => {
            let Some(s) = stmts.get(*pc).cloned() else {
                m.frames.pop();
                return block_done(rt, m);
            };
            *pc += 1;
            if !has_yield(&s) {
                return match exec_stmt(rt, &mut m.ctx, &s)? {
                    Flow::Normal => Ok(None),
                    f => Ok(Some(Control::Flow(f))),
                };
            }
            start_statement(rt, m, &s).map_err(|e| m.ctx.locate(e, s.range()))
        }
        Frame::For {
            target, src, body, ..
        } => match src.next(rt)? {
            Some(v) => {
                let (target, body) = (target.clone(), body.clone());
                assign_target(rt, &mut m.ctx, &target, v)?;
                m.frames.push(Frame::Block { stmts: body, pc: 0 });
                Ok(None)
            }
            None => {
                let Some(Frame::For { orelse, .. }) = m.frames.pop() else {
                    return Ok(None);
                };
                m.frames.push(Frame::Block {
                    stmts: orelse,
                    pc: 0,
                });
                Ok(None)
            }
        },
        Frame::While { test, body, .. } => {
            let (test, body) = (test.clone(), body.clone());
            let t = eval(rt, &mut m.ctx, &test)?;
            if ops::truthy(rt, &t)? {
                m.frames.push(Frame::Block { stmts: body, pc: 0 });
            } else if let Some(Frame::While { orelse, .. }) = m.frames.pop() {
                m.frames.push(Frame::Block {
                    stmts: orelse,
                    pc: 0,
                });
            }
            Ok(None)
        }
        Frame::YieldFrom { src, .. } => match src.next(rt)? {
            Some(v) => Ok(Some(Control::Yield(v))),
            None => {
                let returned = match src {
                    Source::Gen(g) => g.returned(),
                    _ => Value::None,
                };
                if let Some(Frame::YieldFrom {
                    target: Some(t), ..
                }) = m.frames.pop()
                {
                    assign_target(rt, &mut m.ctx, &t, returned)?;
                }
                Ok(None)
            }
        },
        Frame::Comp { expr, level, src } => {
            let (expr, level) = (expr.clone(), *level);
            let Some(item) = src.next(rt)? else {
                m.frames.pop();
                return Ok(None);
            };
            let g = &expr.generators[level];
            assign_target(rt, &mut m.ctx, &g.target, item)?;
            for cond in &g.ifs {
                let c = eval(rt, &mut m.ctx, cond)?;
                if !ops::truthy(rt, &c)? {
                    return Ok(None);
                }
            }
            if level + 1 == expr.generators.len() {
                return Ok(Some(Control::Yield(eval(rt, &mut m.ctx, &expr.elt)?)));
            }
            let next = eval(rt, &mut m.ctx, &expr.generators[level + 1].iter)?;
            let src = Source::new(rt, next)?;
            m.frames.push(Frame::Comp {
                expr,
                level: level + 1,
                src,
            });
            Ok(None)
        }
        // A frame below a finished block: see block_done.
        Frame::Try { .. } | Frame::With { .. } => block_done(rt, m),
    }
}

/// A block finished normally: tell the frame that ran it.
fn block_done(rt: &mut Runtime, m: &mut Machine) -> PyResult<Option<Control>> {
    match m.frames.last_mut() {
        Some(Frame::With { manager }) => {
            let manager = manager.clone();
            m.frames.pop();
            manager.exit(rt, None)?;
        }
        Some(Frame::Try { stmt, phase, .. }) => {
            let stmt = stmt.clone();
            match phase {
                TryPhase::Body => {
                    *phase = TryPhase::Else;
                    m.frames.push(Frame::Block {
                        stmts: block(&stmt.orelse),
                        pc: 0,
                    });
                }
                TryPhase::Handler | TryPhase::Else => {
                    if matches!(phase, TryPhase::Handler) {
                        m.ctx.handling.pop();
                    }
                    *phase = TryPhase::Finally;
                    m.frames.push(Frame::Block {
                        stmts: block(&stmt.finalbody),
                        pc: 0,
                    });
                }
                TryPhase::Finally => {
                    let Some(Frame::Try { pending, .. }) = m.frames.pop() else {
                        return Ok(None);
                    };
                    return match pending {
                        Pending::Nothing => Ok(None),
                        Pending::Error(e) => Err(e),
                        Pending::Return(v) => Ok(Some(Control::Flow(Flow::Return(v)))),
                        Pending::Break => Ok(Some(Control::Flow(Flow::Break))),
                        Pending::Continue => Ok(Some(Control::Flow(Flow::Continue))),
                    };
                }
            }
        }
        _ => {}
    }
    Ok(None)
}

/// Begin a statement that contains a `yield`.
fn start_statement(rt: &mut Runtime, m: &mut Machine, s: &Stmt) -> PyResult<Option<Control>> {
    match s {
        Stmt::Expr(e) => match &*e.value {
            Expr::Yield(y) => Ok(Some(Control::Yield(yielded(rt, m, y)?))),
            Expr::YieldFrom(y) => start_yield_from(rt, m, y, None),
            _ => Err(yield_inside_expression()),
        },
        Stmt::Assign(a) if a.targets.len() == 1 => match &*a.value {
            Expr::Yield(y) => {
                let v = yielded(rt, m, y)?;
                m.send_target = Some(a.targets[0].clone());
                Ok(Some(Control::Yield(v)))
            }
            Expr::YieldFrom(y) => start_yield_from(rt, m, y, Some(a.targets[0].clone())),
            _ => Err(yield_inside_expression()),
        },
        Stmt::If(i) => {
            if has_yield_expr(&i.test) {
                return Err(yield_inside_expression());
            }
            let t = eval(rt, &mut m.ctx, &i.test)?;
            let mut chosen: Option<&[Stmt]> = None;
            if ops::truthy(rt, &t)? {
                chosen = Some(&i.body);
            } else {
                for clause in &i.elif_else_clauses {
                    let take = match &clause.test {
                        Some(test) => {
                            let t = eval(rt, &mut m.ctx, test)?;
                            ops::truthy(rt, &t)?
                        }
                        None => true,
                    };
                    if take {
                        chosen = Some(&clause.body);
                        break;
                    }
                }
            }
            if let Some(body) = chosen {
                m.frames.push(Frame::Block {
                    stmts: block(body),
                    pc: 0,
                });
            }
            Ok(None)
        }
        Stmt::For(f) if !has_yield_expr(&f.iter) => {
            let it = eval(rt, &mut m.ctx, &f.iter)?;
            let src = Source::new(rt, it)?;
            m.frames.push(Frame::For {
                target: (*f.target).clone(),
                src,
                body: block(&f.body),
                orelse: block(&f.orelse),
            });
            Ok(None)
        }
        Stmt::While(w) if !has_yield_expr(&w.test) => {
            m.frames.push(Frame::While {
                test: (*w.test).clone(),
                body: block(&w.body),
                orelse: block(&w.orelse),
            });
            Ok(None)
        }
        Stmt::Try(t) if !t.is_star => {
            m.frames.push(Frame::Try {
                stmt: Rc::new(t.clone()),
                phase: TryPhase::Body,
                pending: Pending::Nothing,
            });
            m.frames.push(Frame::Block {
                stmts: block(&t.body),
                pc: 0,
            });
            Ok(None)
        }
        Stmt::With(w) if w.items.len() == 1 && !w.is_async => {
            let item = &w.items[0];
            let manager = eval(rt, &mut m.ctx, &item.context_expr)?;
            let Value::Object(obj) = &manager else {
                return Err(PyErr::type_error(format!(
                    "'{}' object does not support the context manager protocol",
                    manager.type_name()
                )));
            };
            let entered = obj.clone().enter(rt)?;
            if let Some(target) = &item.optional_vars {
                assign_target(rt, &mut m.ctx, target, entered)?;
            }
            m.frames.push(Frame::With {
                manager: obj.clone(),
            });
            m.frames.push(Frame::Block {
                stmts: block(&w.body),
                pc: 0,
            });
            Ok(None)
        }
        _ => Err(yield_inside_expression()),
    }
}

fn has_yield_expr(e: &Expr) -> bool {
    let s = Stmt::Expr(ast::StmtExpr {
        node_index: Default::default(),
        range: e.range(),
        value: Box::new(e.clone()),
    });
    has_yield(&s)
}

fn yield_inside_expression() -> PyErr {
    PyErr::not_implemented(
        "this use of yield is not supported in nbcuda: write `yield x`, `x = yield y` or `yield from it` as a statement of its own",
    )
}

fn yielded(rt: &mut Runtime, m: &mut Machine, y: &ast::ExprYield) -> PyResult<Value> {
    match &y.value {
        Some(v) if has_yield_expr(v) => Err(yield_inside_expression()),
        Some(v) => eval(rt, &mut m.ctx, v),
        None => Ok(Value::None),
    }
}

fn start_yield_from(
    rt: &mut Runtime,
    m: &mut Machine,
    y: &ast::ExprYieldFrom,
    target: Option<Expr>,
) -> PyResult<Option<Control>> {
    let it = eval(rt, &mut m.ctx, &y.value)?;
    let src = Source::new(rt, it)?;
    m.frames.push(Frame::YieldFrom { src, target });
    Ok(None)
}

/// Propagate flow or an error out of the top frames. Ok(Some(step)) ends this resume;
/// Ok(None) continues running.
fn unwind(
    rt: &mut Runtime,
    m: &mut Machine,
    mut outcome: PyResult<Flow>,
) -> PyResult<Option<Step>> {
    loop {
        if let Ok(Flow::Normal) = outcome {
            return Ok(None);
        }
        let Some(frame) = m.frames.pop() else {
            return match outcome {
                Ok(Flow::Return(v)) => Ok(Some(Step::Return(v))),
                Err(e) => Err(e),
                _ => Ok(Some(Step::Return(Value::None))),
            };
        };
        match frame {
            Frame::For { .. } | Frame::While { .. } => match outcome {
                Ok(Flow::Break) => return Ok(None),
                Ok(Flow::Continue) => {
                    m.frames.push(frame);
                    return Ok(None);
                }
                other => outcome = other,
            },
            Frame::With { manager } => {
                if let Err(e) = &outcome {
                    if manager.exit(rt, Some(e))? {
                        return Ok(None);
                    }
                } else {
                    manager.exit(rt, None)?;
                }
            }
            Frame::Try {
                stmt,
                phase,
                pending: _,
            } => {
                let pending = match (phase, outcome) {
                    (TryPhase::Body, Err(e)) => {
                        if let Some(h) = matching_handler(rt, m, &stmt, &e)? {
                            let (e, value) = crate::interp::objects::caught(e);
                            if let Some(name) = &h.name {
                                m.ctx.assign(name.as_str(), value);
                            }
                            m.ctx.handling.push(e);
                            m.frames.push(Frame::Try {
                                stmt: stmt.clone(),
                                phase: TryPhase::Handler,
                                pending: Pending::Nothing,
                            });
                            m.frames.push(Frame::Block {
                                stmts: block(&h.body),
                                pc: 0,
                            });
                            return Ok(None);
                        }
                        Pending::Error(e)
                    }
                    (TryPhase::Finally, other) => {
                        outcome = other;
                        continue;
                    }
                    (phase, other) => {
                        let mut other = other;
                        if matches!(phase, TryPhase::Handler) {
                            if let Some(handled) = m.ctx.handling.pop() {
                                other = other.map_err(|e| {
                                    crate::interp::objects::chain_context(e, &handled)
                                });
                            }
                        }
                        match other {
                            Err(e) => Pending::Error(e),
                            Ok(Flow::Return(v)) => Pending::Return(v),
                            Ok(Flow::Break) => Pending::Break,
                            Ok(Flow::Continue) => Pending::Continue,
                            Ok(Flow::Normal) => Pending::Nothing,
                        }
                    }
                };
                m.frames.push(Frame::Try {
                    stmt: stmt.clone(),
                    phase: TryPhase::Finally,
                    pending,
                });
                m.frames.push(Frame::Block {
                    stmts: block(&stmt.finalbody),
                    pc: 0,
                });
                return Ok(None);
            }
            Frame::Block { .. } | Frame::YieldFrom { .. } | Frame::Comp { .. } => {}
        }
    }
}

fn matching_handler(
    rt: &mut Runtime,
    m: &mut Machine,
    stmt: &ast::StmtTry,
    err: &PyErr,
) -> PyResult<Option<ast::ExceptHandlerExceptHandler>> {
    for h in &stmt.handlers {
        let ast::ExceptHandler::ExceptHandler(h) = h;
        let matches = match &h.type_ {
            None => true,
            Some(ty) => handler_matches(rt, &mut m.ctx, err, ty)?,
        };
        if matches {
            return Ok(Some(h.clone()));
        }
    }
    Ok(None)
}
