//! IPython magics (`%timeit`, `%time`, `%who`, ...), `obj?` help, and nbcuda's own
//! (`%timeit_chart`, `%%timeline`, `%ledger`, `%memory`).

use ruff_python_ast::{IpyEscapeKind, Stmt};
use serde_json::json;

use crate::interp::expr::InterpState;
use crate::interp::frame::{Ctx, Flow};
use crate::interp::timing::{parse_timeit_args, timeit, Stopwatch};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::Value;

/// The interpreter's own magics; the engine registers more (see [`crate::py::registry`]).
const OWN_LINE_MAGICS: &[&str] = &[
    "timeit",
    "time",
    "matplotlib",
    "who",
    "whos",
    "reset",
    "lsmagic",
];
const OWN_CELL_MAGICS: &[&str] = &["timeit", "time"];

/// Every line magic of the session: the interpreter's, then the registered ones.
pub fn line_magics(rt: &mut Runtime) -> Vec<&'static str> {
    let mut all = OWN_LINE_MAGICS.to_vec();
    all.extend(crate::interp::shell_magics::LINE_MAGICS);
    all.extend(crate::py::registry::line_magic_names(rt));
    all
}

/// Every cell magic of the session: the interpreter's, then the registered ones.
pub fn cell_magics(rt: &mut Runtime) -> Vec<&'static str> {
    let mut all = OWN_CELL_MAGICS.to_vec();
    all.extend(crate::interp::shell_magics::CELL_MAGICS);
    all.extend(crate::py::registry::cell_magic_names(rt));
    all
}

fn supported(rt: &mut Runtime) -> String {
    format!(
        "nbcuda supports the line magics {} and the cell magics {}",
        line_magics(rt)
            .iter()
            .map(|m| format!("%{m}"))
            .collect::<Vec<_>>()
            .join(" "),
        cell_magics(rt)
            .iter()
            .map(|m| format!("%%{m}"))
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// Parse a snippet (a magic's statement) into statements.
pub fn parse_snippet(code: &str) -> PyResult<Vec<Stmt>> {
    crate::interp::nesting::check(code).map_err(|(e, _)| e)?;
    let parsed = ruff_python_parser::parse(
        code,
        ruff_python_parser::ParseOptions::from(ruff_python_parser::Mode::Ipython),
    )
    .map_err(|e| crate::interp::nesting::parse_error(code, &e))?;
    match parsed.into_syntax() {
        ruff_python_ast::Mod::Module(m) => Ok(m.body),
        ruff_python_ast::Mod::Expression(_) => {
            Err(PyErr::new("SyntaxError", "expected statements"))
        }
    }
}

/// Run statements parsed from `code` in the frame, with positions in that snippet; returns
/// the value of a final expression statement.
pub fn run_snippet(rt: &mut Runtime, ctx: &mut Ctx, code: &str, stmts: &[Stmt]) -> PyResult<Value> {
    let saved = std::mem::replace(&mut ctx.source, std::rc::Rc::from(code));
    let result = (|| {
        let mut last = Value::None;
        for (i, s) in stmts.iter().enumerate() {
            if i + 1 == stmts.len() {
                if let Stmt::Expr(e) = s {
                    last = crate::interp::expr::eval(rt, ctx, &e.value)?;
                    break;
                }
            }
            match crate::interp::stmt::exec_stmt(rt, ctx, s)? {
                Flow::Normal => {}
                _ => {
                    return Err(PyErr::new(
                        "SyntaxError",
                        "'break', 'continue' or 'return' outside a loop or function",
                    ))
                }
            }
        }
        Ok(last)
    })();
    ctx.source = saved;
    result
}

/// An IPython escape (`%magic`, `!cmd`, `obj?`) at statement or expression position.
pub fn run_escape(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    kind: IpyEscapeKind,
    value: &str,
    as_expr: bool,
) -> PyResult<Value> {
    match kind {
        IpyEscapeKind::Magic => line_magic(rt, ctx, value, as_expr),
        IpyEscapeKind::Magic2 => {
            let (name, _) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
            Err(PyErr::new(
                "UsageError",
                format!("Cell magic `%%{name}` must be the first line of its cell."),
            ))
        }
        IpyEscapeKind::Help | IpyEscapeKind::Help2 => {
            let text = crate::interp::assist::help_text(
                rt,
                ctx,
                value.trim(),
                kind == IpyEscapeKind::Help2,
            )
            .unwrap_or_else(|| format!("Object `{}` not found.", value.trim()));
            rt.state::<InterpState>()
                .payload
                .push(json!({"source": "page", "data": {"text/plain": text}, "start": 0}));
            Ok(Value::None)
        }
        IpyEscapeKind::Shell if !as_expr => crate::interp::shell::system(rt, ctx, value),
        IpyEscapeKind::Shell | IpyEscapeKind::ShCap => {
            crate::interp::shell::getoutput(rt, ctx, value)
        }
        _ => Err(PyErr::not_implemented(format!(
            "IPython's auto-call syntax is not supported in nbcuda; {}",
            supported(rt)
        ))),
    }
}

fn line_magic(rt: &mut Runtime, ctx: &mut Ctx, value: &str, _as_expr: bool) -> PyResult<Value> {
    let value = value.trim();
    let (name, args) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
    let args = args.trim();
    match name {
        "timeit" => {
            let (opts, stmt) = parse_timeit_args(args)?;
            if stmt.trim().is_empty() {
                return Err(PyErr::new(
                    "UsageError",
                    "%timeit needs a statement to time",
                ));
            }
            run_timeit(rt, ctx, &opts, "", &stmt, &stmt)
        }
        "time" => {
            let stmts = parse_snippet(args)?;
            let sw = Stopwatch::start();
            let r = run_snippet(rt, ctx, args, &stmts);
            rt.print(&sw.report());
            r
        }
        "matplotlib" => Ok(Value::None),
        "who" => {
            let Some(names) = who_names(rt, ctx, args)? else {
                return Ok(Value::None);
            };
            // IPython prints each name followed by a tab and a space, nine to a line.
            let mut out = String::new();
            for (i, (n, _)) in names.iter().enumerate() {
                out.push_str(n);
                out.push_str("\t ");
                if i % 9 == 8 {
                    out.push('\n');
                }
            }
            out.push('\n');
            rt.print(&out);
            Ok(Value::None)
        }
        "whos" => {
            whos(rt, ctx, args)?;
            Ok(Value::None)
        }
        "reset" => {
            if !args.split_whitespace().any(|a| a == "-f") {
                return Err(PyErr::new(
                    "UsageError",
                    "%reset asks for confirmation, which a notebook cannot give: use %reset -f",
                ));
            }
            ctx.globals.borrow_mut().clear();
            Ok(Value::None)
        }
        "lsmagic" => {
            let (line, cell) = (line_magics(rt), cell_magics(rt));
            rt.print(&format!(
                "Available line magics:\n{}\n\nAvailable cell magics:\n{}\n",
                line.iter()
                    .map(|m| format!("%{m}"))
                    .collect::<Vec<_>>()
                    .join("  "),
                cell.iter()
                    .map(|m| format!("%%{m}"))
                    .collect::<Vec<_>>()
                    .join("  ")
            ));
            Ok(Value::None)
        }
        _ if crate::interp::shell_magics::LINE_MAGICS.contains(&name) => {
            crate::interp::shell_magics::line_magic(rt, ctx, name, args)
        }
        other => match crate::py::registry::line_magic(rt, other) {
            Some(magic) => magic(rt, args, &ctx.globals),
            None => Err(PyErr::new(
                "UsageError",
                format!(
                    "Line magic function `%{other}` not found. {}",
                    supported(rt)
                ),
            )),
        },
    }
}
fn user_names(ctx: &Ctx) -> Vec<String> {
    let mut names: Vec<String> = ctx
        .globals
        .borrow()
        .keys()
        .filter(|k| !k.starts_with('_'))
        .map(|k| k.to_string())
        .collect();
    names.sort();
    names
}

/// `type(v).__name__`.
fn type_name_of(rt: &mut Runtime, v: &Value) -> String {
    let t = crate::interp::builtins::type_of(rt, v);
    match &crate::interp::attrs::get_attr(rt, &t, "__name__") {
        Ok(Value::Str(s)) => s.to_string(),
        _ => match &t {
            Value::Builtin(b) => b.name.clone(),
            _ => v.type_name(),
        },
    }
}

/// The user's variables for `%who`/`%whos` (sorted, optionally only those whose type name
/// is in `types`), with their type names; None after printing IPython's "empty" message.
fn who_names(rt: &mut Runtime, ctx: &Ctx, types: &str) -> PyResult<Option<Vec<(String, String)>>> {
    let wanted: Vec<&str> = types.split_whitespace().collect();
    let mut out = Vec::new();
    for n in user_names(ctx) {
        let v = ctx
            .globals
            .borrow()
            .get(n.as_str())
            .cloned()
            .unwrap_or(Value::None);
        let t = type_name_of(rt, &v);
        if wanted.is_empty() || wanted.contains(&t.as_str()) {
            out.push((n, t));
        }
    }
    if out.is_empty() {
        rt.print(if wanted.is_empty() {
            "Interactive namespace is empty.\n"
        } else {
            "No variables match your requested type.\n"
        });
        return Ok(None);
    }
    Ok(Some(out))
}

/// `%whos`: IPython's table. Containers show their length, arrays their shape, size, dtype
/// and bytes, anything else its str() (shortened around `<...>` from 50 characters).
fn whos(rt: &mut Runtime, ctx: &Ctx, types: &str) -> PyResult<()> {
    let Some(names) = who_names(rt, ctx, types)? else {
        return Ok(());
    };
    let mut rows = Vec::new();
    for (n, ty) in names {
        let v = ctx
            .globals
            .borrow()
            .get(n.as_str())
            .cloned()
            .unwrap_or(Value::None);
        let info = match &v {
            Value::List(_) | Value::Tuple(_) | Value::Dict(_)
                if matches!(ty.as_str(), "list" | "tuple" | "dict") =>
            {
                format!("n={}", crate::interp::ops::len(rt, &v)?)
            }
            Value::Array(a) => {
                // IPython: str(shape) without commas, spaces as 'x', parentheses dropped.
                let shape = crate::arrays::elem::shape_str(&a.shape)
                    .replace(',', "")
                    .replace(' ', "x");
                let shape = &shape[1..shape.len() - 1];
                let bytes = a.nbytes();
                let mut s = format!(
                    "{shape}: {} elems, type `{}`, {bytes} bytes",
                    a.size(),
                    a.dtype.name()
                );
                if bytes >= 100_000 {
                    let f = crate::arrays::format::float_repr;
                    if bytes < 1 << 20 {
                        s.push_str(&format!(" ({} kb)", f(bytes as f64 / 1024.0)));
                    } else {
                        s.push_str(&format!(" ({} Mb)", f(bytes as f64 / 1048576.0)));
                    }
                }
                s
            }
            other => {
                let text = crate::interp::repr::to_str(rt, other)?.replace('\n', "\\n");
                let chars: Vec<char> = text.chars().collect();
                if chars.len() < 50 {
                    text
                } else {
                    let head: String = chars[..25].iter().collect();
                    let tail: String = chars[chars.len() - 25..].iter().collect();
                    format!("{head}<...>{tail}")
                }
            }
        };
        rows.push((n, ty, info));
    }
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(8) + 3;
    let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(4) + 3;
    let mut out = format!(
        "{:<w0$}{:<w1$} Data/Info\n{}\n",
        "Variable",
        "Type",
        "-".repeat(w0 + w1 + "Data/Info".len() + 1) // bounded: widths of existing names
    );
    for (n, t, i) in rows {
        out.push_str(&format!("{n:<w0$}{t:<w1$} {i}\n"));
    }
    rt.print(&out);
    Ok(())
}

/// `%timeit` / `%%timeit`: run setup once, then time `stmt`.
pub fn run_timeit(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    opts: &crate::interp::timing::TimeitOptions,
    setup: &str,
    stmt: &str,
    label: &str,
) -> PyResult<Value> {
    // IPython compiles setup and statement into one function, so the names they bind are
    // that function's locals: they must not leak into the user's namespace (mutating
    // existing objects is visible, as in IPython).
    let mut inner = ctx.nested_scope();
    let ctx = &mut inner;
    let stmts = parse_snippet(stmt)?;
    // A setup's positions index into its own text, so only a lone statement is compiled.
    let code = match setup.trim().is_empty() {
        true => crate::interp::slots::compile_timeit(ctx, &stmts, stmt),
        false => None,
    };
    if let Some(code) = code {
        let enclosing = ctx.enclosing.clone();
        // Each timing is one call of IPython's function: its locals last across that
        // call's loops only, and are freed after the clock stops (a 1M-item list left by
        // the previous run is not freed on this run's time).
        let mut run_once = |rt: &mut Runtime, n: u64| -> PyResult<f64> {
            let mut slots = crate::interp::slots::call_slots(&code);
            let mut frame = crate::interp::slots::timeit_frame(&code, ctx, &enclosing, &mut slots);
            let start = std::time::Instant::now();
            for _ in 0..n {
                rt.check_interrupt()?;
                crate::interp::slots::run_timeit_body(rt, &mut frame)?;
            }
            let elapsed = start.elapsed().as_secs_f64();
            drop(frame);
            drop(slots);
            Ok(elapsed)
        };
        let result = timeit(rt, opts, &mut run_once)?;
        return report_timeit(rt, opts, label, result);
    }
    let setup_stmts = match setup.trim().is_empty() {
        true => None,
        false => Some(parse_snippet(setup)?),
    };
    let mut run_once = |rt: &mut Runtime, n: u64| -> PyResult<f64> {
        // As above, one call of IPython's function per timing, which runs the setup
        // (untimed) in fresh locals; the last run's locals go before the clock starts.
        let old = ctx.locals.replace(Default::default());
        drop(old);
        if let Some(s) = &setup_stmts {
            run_snippet(rt, ctx, setup, s)?;
        }
        let start = std::time::Instant::now();
        for _ in 0..n {
            rt.check_interrupt()?;
            run_snippet(rt, ctx, stmt, &stmts)?;
        }
        Ok(start.elapsed().as_secs_f64())
    };
    let result = timeit(rt, opts, &mut run_once)?;
    report_timeit(rt, opts, label, result)
}

/// Print a `%timeit` result as IPython does and record it for `%timeit_chart`.
fn report_timeit(
    rt: &mut Runtime,
    opts: &crate::interp::timing::TimeitOptions,
    label: &str,
    result: crate::interp::timing::TimeitResult,
) -> PyResult<Value> {
    let (best, worst) = (result.best(), result.worst());
    if !opts.quiet {
        if worst > 4.0 * best && best > 0.0 && worst > 1e-6 {
            rt.print(&format!(
                "The slowest run took {:.2} times longer than the fastest. This could mean that an intermediate result is being cached.\n",
                worst / best
            ));
        }
        rt.print(&format!("{}\n", result.line()));
    }
    let cell = rt.execution_count;
    rt.state::<crate::interp::timing::TimeitHistory>()
        .records
        .push(crate::interp::timing::TimeitRecord {
            stmt: label.trim().to_string(),
            per_loop: result.timings(),
            loops: result.loops,
            cell,
        });
    Ok(if opts.ret {
        Value::object(result)
    } else {
        Value::None
    })
}
