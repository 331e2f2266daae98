//! A session: the interpreter state plus the cell-level protocol (parsing, the last
//! expression's result, cell magics, end-of-cell hooks, completion and inspection).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use ruff_python_ast::{IpyEscapeKind, Mod, Stmt};
use ruff_python_parser::{parse, Mode, ParseOptions};
use ruff_text_size::Ranged;
use serde_json::{Map, Value as Json};

use crate::engine::bindings::LedgerSetting;
use crate::engine::{Completeness, Completion, ErrorInfo, ExecuteOutcome, ExecuteRequest};
use crate::interp::expr::InterpState;
use crate::interp::frame::{Ctx, Flow};
use crate::interp::magics::{parse_snippet, run_snippet, run_timeit};
use crate::interp::timing::{parse_timeit_args, Stopwatch};
use crate::py::error::Frame;
use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::ExcClass;
use crate::py::function::Scope;
use crate::py::runtime::{Frontend, NullFrontend, Runtime};
use crate::py::value::Value;

pub struct Session {
    rt: Runtime,
    globals: Scope,
}

/// A runtime wired as a session's: the interpreter's hooks and builtins, and every module
/// and magic the engine registers.
pub fn new_runtime(frontend: Box<dyn Frontend>, interrupt: Arc<AtomicBool>) -> Runtime {
    let mut rt = Runtime::new(frontend, interrupt);
    rt.hooks = Some(crate::interp::hooks());
    rt.state::<InterpState>().builtins = crate::interp::builtins::builtins();
    crate::engine::bindings::install(&mut rt);
    rt
}

impl Session {
    pub fn new(interrupt: Arc<AtomicBool>) -> Session {
        let rt = new_runtime(Box::new(NullFrontend), interrupt);
        Session {
            rt,
            globals: Rc::new(RefCell::new(Default::default())),
        }
    }

    fn module_ctx(&self, source: &str, count: u32) -> Ctx {
        Ctx::module(
            self.globals.clone(),
            Rc::from(source),
            Rc::from(format!("Cell In[{count}]").as_str()),
        )
    }

    /// Run one cell. `shown` gets the cell's own result or error before the end-of-cell
    /// hooks (pyplot's figures, the ledger line) send their output, as IPython's
    /// displayhook and traceback come before its `post_execute` callbacks: the inline
    /// backend's figure follows the `[<matplotlib.lines.Line2D …>]` result. The returned
    /// outcome is the whole cell's, so a hook's error is its error when the code raised none.
    pub fn execute(
        &mut self,
        req: &ExecuteRequest<'_>,
        frontend: Box<dyn Frontend>,
        shown: &mut dyn FnMut(&ExecuteOutcome),
    ) -> ExecuteOutcome {
        self.rt.frontend = frontend;
        self.rt.begin_cell(req.execution_count);
        self.rt.state::<InterpState>().payload.clear();
        let mut ctx = self.module_ctx(req.code, req.execution_count);
        let run = self.run_cell(&mut ctx, req.code);
        let rt = &mut self.rt;
        if matches!(&run, Err(e) if e.is_instance(ExcClass::KeyboardInterrupt)) {
            crate::device::after_interrupt(rt);
        }
        // The device's end of cell (waiting for queued work, kernels' print output) belongs
        // to the code itself, and happens even after an error so its output is not lost.
        let device = crate::device::end_of_cell(rt);
        let mut outcome = ExecuteOutcome::default();
        let result = match (run, device) {
            (Ok(v), Ok(())) => Ok(v),
            (Err(e), _) | (Ok(_), Err(e)) => Err(e),
        };
        match result {
            Ok(Some(v)) if !req.silent => match crate::interp::ipython::bundle(rt, &v) {
                Ok((data, md)) => {
                    self.globals.borrow_mut().insert("_".into(), v);
                    outcome.result = Some((data, md));
                }
                Err(e) => outcome.error = Some(error_info(&e)),
            },
            Ok(_) => {}
            Err(e) => outcome.error = Some(error_info(&e)),
        }
        shown(&outcome);
        let rt = &mut self.rt;
        if let (Err(e), None) = (post_execute(rt), &outcome.error) {
            outcome.error = Some(error_info(&e));
        }
        outcome.payload = std::mem::take(&mut rt.state::<InterpState>().payload);
        rt.frontend = Box::new(NullFrontend);
        outcome
    }

    /// Run a cell; Some(value) when its last statement is an expression to show.
    fn run_cell(&mut self, ctx: &mut Ctx, code: &str) -> PyResult<Option<Value>> {
        let rt = &mut self.rt;
        if let Some(rest) = code.trim_start().strip_prefix("%%") {
            return cell_magic(rt, ctx, rest);
        }
        if let Err((e, at)) = crate::interp::nesting::check(code) {
            return Err(e.at(Frame {
                origin: ctx.origin.to_string(),
                source: ctx.source.clone(),
                start: at,
                end: at + 1,
                function: "<module>".into(),
            }));
        }
        let parsed = parse(code, ParseOptions::from(Mode::Ipython)).map_err(|e| {
            let r = e.location;
            crate::interp::nesting::parse_error(code, &e).at(Frame {
                origin: ctx.origin.to_string(),
                source: ctx.source.clone(),
                start: r.start().to_usize(),
                end: r.end().to_usize(),
                function: "<module>".into(),
            })
        })?;
        let Mod::Module(module) = parsed.into_syntax() else {
            return Ok(None);
        };
        let body = module.body;
        let n = body.len();
        for (i, s) in body.iter().enumerate() {
            let last = i + 1 == n;
            if crate::interp::shell_magics::autocall(rt, ctx, s)? {
                continue;
            }
            if last && shows_result(s, code) {
                return match s {
                    Stmt::Expr(e) => {
                        let v = crate::interp::expr::eval(rt, ctx, &e.value)?;
                        Ok((!v.is_none()).then_some(v))
                    }
                    Stmt::IpyEscapeCommand(c) => {
                        let v = crate::interp::magics::run_escape(rt, ctx, c.kind, &c.value, true)
                            .map_err(|e| ctx.locate(e, s.range()))?;
                        Ok((!v.is_none()).then_some(v))
                    }
                    _ => unreachable!("shows_result only accepts expressions and magics"),
                };
            }
            match crate::interp::stmt::exec_stmt(rt, ctx, s)? {
                Flow::Normal => {}
                Flow::Break | Flow::Continue => {
                    return Err(ctx.locate(
                        PyErr::new("SyntaxError", "'break' or 'continue' outside loop"),
                        s.range(),
                    ))
                }
                Flow::Return(_) => {
                    return Err(ctx.locate(
                        PyErr::new("SyntaxError", "'return' outside function"),
                        s.range(),
                    ))
                }
            }
        }
        Ok(None)
    }

    pub fn complete(&mut self, code: &str, cursor_pos: usize) -> Completion {
        let ctx = self.module_ctx(code, 0);
        crate::interp::assist::complete(&mut self.rt, &ctx, code, cursor_pos)
    }

    pub fn inspect(
        &mut self,
        code: &str,
        cursor_pos: usize,
        detail: u8,
    ) -> Option<Map<String, Json>> {
        let ctx = self.module_ctx(code, 0);
        let name = crate::interp::assist::name_at(code, cursor_pos)?;
        let text = crate::interp::assist::help_text(&mut self.rt, &ctx, &name, detail > 0)?;
        let mut data = Map::new();
        data.insert("text/plain".into(), Json::String(text));
        Some(data)
    }

    pub fn is_complete(&self, code: &str) -> Completeness {
        crate::engine::is_complete::is_complete(code)
    }

    pub fn banner(&self) -> String {
        format!(
            "nbcuda {} — Numba CUDA memory management in a Rust kernel (Python-syntax cells, NumPy/Numba/CuPy surface)\n{}",
            env!("CARGO_PKG_VERSION"),
            crate::device::cuda::banner_line()
        )
    }

    pub fn reset(&mut self) {
        self.globals.borrow_mut().clear();
    }
}

/// IPython shows the last statement's value when it is an expression (or a line magic) not
/// followed by `;`.
fn shows_result(s: &Stmt, code: &str) -> bool {
    let is_candidate = match s {
        Stmt::Expr(_) => true,
        Stmt::IpyEscapeCommand(c) => matches!(c.kind, IpyEscapeKind::Magic | IpyEscapeKind::ShCap),
        _ => false,
    };
    if !is_candidate {
        return false;
    }
    let after = &code[s.range().end().to_usize().min(code.len())..];
    !after.trim_start().starts_with(';')
        && !matches!(s, Stmt::Expr(_) if code[..s.range().end().to_usize()].trim_end().ends_with(';'))
}

/// What runs after the cell's result is shown: the registered hooks, then the ledger line.
fn post_execute(rt: &mut Runtime) -> PyResult<()> {
    let ledger_start = rt.state::<LedgerStart>().0;
    let hooks = rt.end_of_cell_hooks.clone();
    let mut first_err = None;
    for (_, hook) in hooks {
        if let Err(e) = hook(rt) {
            first_err.get_or_insert(e);
        }
    }
    let (events, next) = crate::device::ledger::events_since(rt, ledger_start);
    rt.state::<LedgerStart>().0 = next;
    if rt.state::<LedgerSetting>().on {
        if let Some(line) = crate::engine::charts::ledger_summary(&events) {
            rt.print(&format!("{line}\n"));
        }
    }
    first_err.map_or(Ok(()), Err)
}

/// Where the ledger stood when the current cell started.
#[derive(Default)]
struct LedgerStart(usize);

fn cell_magic(rt: &mut Runtime, ctx: &mut Ctx, rest: &str) -> PyResult<Option<Value>> {
    let (first, body) = rest.split_once('\n').unwrap_or((rest, ""));
    let (name, args) = first
        .trim()
        .split_once(char::is_whitespace)
        .unwrap_or((first.trim(), ""));
    // Positions in the body are reported against the body itself.
    match name {
        "timeit" => {
            let (opts, setup) = parse_timeit_args(args)?;
            let v = run_timeit(rt, ctx, &opts, &setup, body, body)?;
            Ok((!v.is_none()).then_some(v))
        }
        "time" => {
            let stmts = parse_snippet(body)?;
            let sw = Stopwatch::start();
            let r = run_snippet(rt, ctx, body, &stmts);
            rt.print(&sw.report());
            let v = r?;
            Ok((!v.is_none()).then_some(v))
        }
        "timeline" => {
            let (_, start) = crate::device::ledger::events_since(rt, usize::MAX);
            let stmts = parse_snippet(body)?;
            let r = run_snippet(rt, ctx, body, &stmts);
            crate::device::api::synchronize(rt)?;
            let (events, _) = crate::device::ledger::events_since(rt, start);
            crate::engine::charts::timeline(rt, &events)?;
            let v = r?;
            Ok((!v.is_none()).then_some(v))
        }
        _ if crate::interp::shell_magics::CELL_MAGICS.contains(&name) => {
            crate::interp::shell_magics::cell_magic(rt, ctx, name, args, body).map(|_| None)
        }
        other => Err(PyErr::new(
            "UsageError",
            format!(
                "Cell magic `%%{other}` not found. nbcuda supports the cell magics {}",
                crate::interp::magics::cell_magics(rt)
                    .iter()
                    .map(|m| format!("%%{m}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        )),
    }
}

/// Jupyter's error content for an exception.
pub fn error_info(e: &PyErr) -> ErrorInfo {
    ErrorInfo {
        ename: e.ename.clone(),
        evalue: e.message.clone(),
        traceback: e.traceback(),
    }
}
