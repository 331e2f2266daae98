//! The IPython magics about the shell and the file system, as ipykernel runs them:
//! `%%bash`, `%%sh`, `%%writefile`, `%run`, `%pwd`, `%cd`, `%env`, and `exit`/`quit`, which
//! ask the frontend to end the session with the payload ipykernel sends.

use std::rc::Rc;

use ruff_python_ast::{Expr, Stmt};
use serde_json::json;

use crate::interp::expr::InterpState;
use crate::interp::frame::Ctx;
use crate::interp::magics::{parse_snippet, run_snippet};
use crate::interp::shell::{expand, os_error, run, Streams};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};

pub const LINE_MAGICS: &[&str] = &["run", "pwd", "cd", "env"];
pub const CELL_MAGICS: &[&str] = &["bash", "sh", "writefile"];

/// A cell magic of this file; the first line's arguments are interpolated as IPython's
/// `run_cell_magic` does, the body is passed as typed.
pub fn cell_magic(
    rt: &mut Runtime,
    ctx: &mut Ctx,
    name: &str,
    args: &str,
    body: &str,
) -> PyResult<Value> {
    let args = expand(rt, ctx, args);
    // IPython's cell transformer ends every cell with a newline.
    let mut body = body.to_string();
    if !body.ends_with('\n') {
        body.push('\n');
    }
    match name {
        "writefile" => writefile(rt, &args, &body),
        _ => script(rt, name, &body),
    }
}

/// `%%bash`/`%%sh`: the body on the shell's stdin, stdout and stderr shown apart, as
/// IPython's script magics; a failing script raises CalledProcessError, as there.
fn script(rt: &mut Runtime, shell: &str, body: &str) -> PyResult<Value> {
    let cmd = std::process::Command::new(shell);
    let out = run(
        rt,
        cmd,
        Streams::Separate,
        false,
        Some(body.as_bytes().to_vec()),
    )?;
    let shown = bytes_repr(body);
    if out.interrupted {
        rt.print("Process was interrupted.\n");
    }
    match out.code {
        0 => Ok(Value::None),
        c if c < 0 => Err(PyErr::new(
            "CalledProcessError",
            format!(
                "Command '{shown}' died with <Signals.{}: {}>.",
                signal_name(-c),
                -c
            ),
        )),
        c => Err(PyErr::new(
            "CalledProcessError",
            format!("Command '{shown}' returned non-zero exit status {c}."),
        )),
    }
}

fn signal_name(sig: i64) -> &'static str {
    match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        6 => "SIGABRT",
        9 => "SIGKILL",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => "SIG?",
    }
}

/// The repr of the UTF-8 bytes of `s`, as CalledProcessError shows the cell.
fn bytes_repr(s: &str) -> String {
    let mut out = String::from("b'");
    for &b in s.as_bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\'' => out.push_str("\\'"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('\'');
    out
}

/// `%%writefile [-a|--append] path`.
fn writefile(rt: &mut Runtime, args: &str, body: &str) -> PyResult<Value> {
    let mut append = false;
    let mut path = None;
    for word in args.split_whitespace() {
        match word {
            "-a" | "--append" if path.is_none() => append = true,
            _ => {}
        }
    }
    // The file name is the rest after the options, quotes stripped as IPython does.
    let rest = args
        .trim()
        .trim_start_matches("--append")
        .trim_start_matches("-a")
        .trim();
    if !rest.is_empty() {
        let unquoted = if rest.len() >= 2
            && ((rest.starts_with('"') && rest.ends_with('"'))
                || (rest.starts_with('\'') && rest.ends_with('\'')))
        {
            &rest[1..rest.len() - 1]
        } else {
            rest
        };
        path = Some(expand_user(unquoted));
    }
    let Some(path) = path else {
        return Err(PyErr::new(
            "UsageError",
            "the following arguments are required: filename",
        ));
    };
    let exists = std::path::Path::new(&path).exists();
    rt.print(&match (exists, append) {
        (true, true) => format!("Appending to {path}\n"),
        (true, false) => format!("Overwriting {path}\n"),
        (false, _) => format!("Writing {path}\n"),
    });
    let mut opts = std::fs::OpenOptions::new();
    if append {
        opts.append(true).create(true);
    } else {
        opts.write(true).create(true).truncate(true);
    }
    let mut f = opts.open(&path).map_err(|e| os_error(&e, Some(&path)))?;
    std::io::Write::write_all(&mut f, body.as_bytes()).map_err(|e| os_error(&e, Some(&path)))?;
    Ok(Value::None)
}

fn expand_user(p: &str) -> String {
    match (p.strip_prefix('~'), std::env::var("HOME")) {
        (Some(rest), Ok(home)) if rest.is_empty() || rest.starts_with('/') => {
            format!("{home}{rest}")
        }
        _ => p.to_string(),
    }
}

/// A line magic of this file.
pub fn line_magic(rt: &mut Runtime, ctx: &mut Ctx, name: &str, args: &str) -> PyResult<Value> {
    let args = expand(rt, ctx, args);
    let args = args.trim();
    match name {
        "pwd" => Ok(Value::str(&cwd()?)),
        "cd" => cd(rt, args),
        "env" => env(rt, args),
        _ => run_file(rt, ctx, args),
    }
}

fn cwd() -> PyResult<String> {
    std::env::current_dir()
        .map(|p| p.to_string_lossy().into_owned())
        .map_err(|e| os_error(&e, None))
}

/// The directories `%cd` visited, for `%cd -` (IPython's `_dh`).
#[derive(Default)]
struct DirHistory(Vec<String>);

/// `%cd [-q] [dir|-]`: changes the process's working directory (children and `open()`
/// follow it) and prints where it is, as IPython does, also after a failed change.
fn cd(rt: &mut Runtime, args: &str) -> PyResult<Value> {
    let mut quiet = false;
    let mut target = args;
    if let Some(rest) = target.strip_prefix("-q") {
        if rest.is_empty() || rest.starts_with(char::is_whitespace) {
            quiet = true;
            target = rest.trim();
        }
    }
    let before = cwd()?;
    if rt.state::<DirHistory>().0.is_empty() {
        rt.state::<DirHistory>().0.push(before.clone());
    }
    let dest = match target {
        "" => std::env::var("HOME").unwrap_or_else(|_| "/".into()),
        "-" => {
            let hist = &rt.state::<DirHistory>().0;
            match hist.len().checked_sub(2).and_then(|i| hist.get(i)) {
                Some(d) => d.clone(),
                None => {
                    return Err(PyErr::new(
                        "UsageError",
                        "%cd -: No previous directory to change to.",
                    ))
                }
            }
        }
        t => expand_user(t.trim_matches(|c| c == '"' || c == '\'')),
    };
    match std::env::set_current_dir(&dest) {
        Err(e) => rt.print(&format!("{}\n", os_error(&e, Some(&dest)).message)),
        Ok(()) => {
            let now = cwd()?;
            if now != before {
                rt.state::<DirHistory>().0.push(now);
            }
        }
    }
    if !quiet {
        let last = rt.state::<DirHistory>().0.last().cloned().unwrap_or(before);
        rt.print(&format!("{last}\n"));
    }
    Ok(Value::None)
}

/// `%env`, `%env NAME`, `%env NAME=value` / `%env NAME value`.
fn env(rt: &mut Runtime, args: &str) -> PyResult<Value> {
    if args.is_empty() {
        let mut d = crate::py::value::Dict::default();
        for (k, v) in std::env::vars_os() {
            let k = k.to_string_lossy().into_owned();
            let lower = k.to_lowercase();
            // IPython hides what looks like a secret when it lists everything.
            let v = if ["key", "token", "secret"].iter().any(|s| lower.contains(s)) {
                "<hidden>".to_string()
            } else {
                v.to_string_lossy().into_owned()
            };
            d.insert_str(&k, Value::str(&v));
        }
        return Ok(Value::Dict(Rc::new(std::cell::RefCell::new(d))));
    }
    let sep = if args.contains('=') { '=' } else { ' ' };
    let Some((var, val)) = args.split_once(sep) else {
        return match std::env::var_os(args) {
            Some(v) => Ok(Value::str(&v.to_string_lossy())),
            None => Err(PyErr::new(
                "UsageError",
                format!("Environment does not have key: {args}"),
            )),
        };
    };
    let (var, val) = (var.trim(), val.trim());
    if var.contains(char::is_whitespace) {
        return Err(PyErr::new(
            "UsageError",
            format!("refusing to set env var with whitespace: '{val}'"),
        ));
    }
    if var.is_empty() || var.contains('\0') || val.contains('\0') {
        return Err(PyErr::new("UsageError", "usage is 'set_env var=val'"));
    }
    // The process environment, as IPython's os.environ: children inherit it.
    std::env::set_var(var, val);
    rt.print(&format!("env: {var}={val}\n"));
    Ok(Value::None)
}

/// `%run file.py`: the file's statements run in the session's namespace, so the names it
/// defines become globals (IPython runs it in a fresh namespace and copies them over;
/// here the file also sees the session's names, as with IPython's `%run -i`).
fn run_file(rt: &mut Runtime, ctx: &mut Ctx, args: &str) -> PyResult<Value> {
    let mut words = args.split_whitespace().filter(|w| *w != "-i");
    let Some(name) = words.next() else {
        return Err(PyErr::new("UsageError", "%run needs a file to run"));
    };
    let name = expand_user(name);
    // IPython's get_py_filename: the name as given, else with `.py` added.
    let path = if std::path::Path::new(&name).is_file() || name.ends_with(".py") {
        name.clone()
    } else {
        format!("{name}.py")
    };
    let code = match std::fs::read(&path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => {
            return Err(PyErr::new(
                "Exception",
                format!("File `{}` not found.", crate::interp::repr::str_repr(&name)),
            ))
        }
    };
    let stmts = parse_snippet(&code)?;
    let saved = std::mem::replace(&mut ctx.origin, Rc::from(format!("File {path}").as_str()));
    // Scripts test `if __name__ == "__main__":`; IPython runs them as the main module.
    let dunders = [
        ("__name__", Value::str("__main__")),
        ("__file__", Value::str(&path)),
    ];
    let before: Vec<(&str, Option<Value>)> = dunders
        .iter()
        .map(|(k, v)| (*k, ctx.globals.borrow_mut().insert((*k).into(), v.clone())))
        .collect();
    let r = run_snippet(rt, ctx, &code, &stmts);
    for (k, old) in before {
        let mut g = ctx.globals.borrow_mut();
        match old {
            Some(v) => g.insert(k.into(), v),
            None => g.shift_remove(k),
        };
    }
    ctx.origin = saved;
    r.map(|_| Value::None)
}

/// `exit` and `quit`: IPython's ZMQExitAutocall.
struct ExitAutocall;

impl Object for ExitAutocall {
    fn type_name(&self) -> String {
        "ZMQExitAutocall".into()
    }
    fn module_name(&self) -> String {
        "ipykernel.zmqshell".into()
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let bound = args.bind("exit", &["keep_kernel="])?;
        let keep = rt.flag(bound.first().and_then(|v| v.as_ref()))?;
        ask_exit(rt, keep);
        Ok(Value::None)
    }
    fn doc(&self) -> Option<(String, String)> {
        Some((
            "exit(keep_kernel=False)".into(),
            "Ask the frontend to end the session (and the kernel, unless keep_kernel).".into(),
        ))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// ipykernel's `ask_exit`: one payload per reply, the last call's.
fn ask_exit(rt: &mut Runtime, keep: bool) {
    let payload = &mut rt.state::<InterpState>().payload;
    payload.retain(|p| p.get("source").and_then(|s| s.as_str()) != Some("ask_exit"));
    payload.push(json!({"source": "ask_exit", "keepkernel": keep}));
}

/// Register `exit` and `quit` among the builtins.
pub fn register(b: &mut std::collections::HashMap<String, Value>) {
    b.insert("exit".into(), Value::object(ExitAutocall));
    b.insert("quit".into(), Value::object(ExitAutocall));
}

/// IPython's autocall of `exit`/`quit` typed alone on a line: true when `s` was one and
/// has been called.
pub fn autocall(rt: &mut Runtime, ctx: &mut Ctx, s: &Stmt) -> PyResult<bool> {
    let Stmt::Expr(e) = s else {
        return Ok(false);
    };
    let Expr::Name(n) = &*e.value else {
        return Ok(false);
    };
    if n.id.as_str() != "exit" && n.id.as_str() != "quit" {
        return Ok(false);
    }
    match crate::interp::expr::lookup_name(rt, ctx, n.id.as_str()) {
        Ok(v) if v.downcast::<ExitAutocall>().is_some() => {
            ask_exit(rt, false);
            Ok(true)
        }
        _ => Ok(false),
    }
}
