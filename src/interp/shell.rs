//! Shell escapes as IPython runs them in ipykernel: `!cmd` (output streamed into the cell,
//! exit status kept in `_exit_code`), `x = !cmd` and `!!cmd` (output captured as a list of
//! lines), IPython's `{expr}`/`$name` interpolation, and the child processes behind them and
//! behind `%%bash`/`%%sh` (see `shell_magics.rs`).
//!
//! Children run through `/bin/sh -c` in their own process group with stdin from
//! `/dev/null`: ipykernel gives them a pseudo-terminal, which lets a command that reads
//! its input hang the kernel; nbcuda's children see end-of-file instead. An interrupt
//! sends SIGINT to the whole group, then SIGKILL after a grace period, so even a child that
//! ignores SIGINT is gone within a second.

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::interp::frame::Ctx;
use crate::interp::magics::{parse_snippet, run_snippet};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::Value;

/// How long a child interrupted with SIGINT may take to go before it gets SIGKILL.
const GRACE: Duration = Duration::from_millis(300);
/// How often the wait loop looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(20);

/// `!cmd`: run through the shell, stream its output into the cell and keep its exit
/// status in `_exit_code`, as ipykernel's `system_piped`. An interrupt ends the child and
/// leaves `_exit_code` at minus the signal number; the cell goes on, as in IPython.
pub fn system(rt: &mut Runtime, ctx: &mut Ctx, cmd: &str) -> PyResult<Value> {
    refuse_background(cmd)?;
    let cmd = expand(rt, ctx, cmd);
    // ipykernel's child writes both streams to one pseudo-terminal, so stderr comes out
    // on stdout in the order it was written; one pipe for both keeps that order.
    let out = run(rt, sh_command(&cmd), Streams::Merged, false, None)?;
    ctx.globals
        .borrow_mut()
        .insert("_exit_code".into(), Value::Int(out.code));
    Ok(Value::None)
}

/// `x = !cmd` and `!!cmd`: the output (stdout and stderr, in the order written) as a list
/// of lines. IPython returns an `SList`, a list subclass; nbcuda returns a plain list of
/// str. As IPython's `getoutput`, this leaves `_exit_code` alone. An interrupt raises
/// KeyboardInterrupt (IPython's own capture fails with an AttributeError then).
pub fn getoutput(rt: &mut Runtime, ctx: &mut Ctx, cmd: &str) -> PyResult<Value> {
    refuse_background(cmd)?;
    let cmd = expand(rt, ctx, cmd);
    let out = run(rt, sh_command(&cmd), Streams::Merged, true, None)?;
    if out.interrupted {
        return Err(PyErr::keyboard_interrupt());
    }
    let text = String::from_utf8_lossy(&out.captured);
    Ok(Value::list(
        split_lines(&text).into_iter().map(Value::str).collect(),
    ))
}

/// `str.splitlines()` for the line ends commands write (`\n`, `\r\n`, `\r`).
pub fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find(['\n', '\r']) {
            Some(at) => {
                lines.push(&rest[..at]);
                let skip = if rest[at..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[at + skip..];
            }
            None => {
                lines.push(rest);
                break;
            }
        }
    }
    lines
}

fn refuse_background(cmd: &str) -> PyResult<()> {
    if cmd.trim_end().ends_with('&') {
        return Err(PyErr::new("OSError", "Background processes not supported."));
    }
    Ok(())
}

fn sh_command(cmd: &str) -> Command {
    let mut c = Command::new("/bin/sh");
    c.arg("-c").arg(cmd);
    c
}

/// Where a child's stdout and stderr go.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Streams {
    /// One pipe for both, shown on the cell's stdout.
    Merged,
    /// Two pipes, shown on the cell's stdout and stderr.
    Separate,
}

/// What a finished child left.
pub struct Finished {
    /// IPython's exit code: the status, or minus the signal that ended the child (a shell
    /// reports a child killed by signal n as 128 + n, which IPython also maps to -n).
    pub code: i64,
    pub interrupted: bool,
    /// The output, when captured rather than shown.
    pub captured: Vec<u8>,
}

/// Run `cmd` with stdin from /dev/null in its own process group, showing its output in
/// the cell (or capturing it) as it comes, until it ends or the cell is interrupted.
pub fn run(
    rt: &mut Runtime,
    mut cmd: Command,
    streams: Streams,
    capture: bool,
    input: Option<Vec<u8>>,
) -> PyResult<Finished> {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    if input.is_some() {
        cmd.stdin(Stdio::piped());
    } else {
        cmd.stdin(Stdio::null());
    }
    let (tx, rx) = mpsc::channel::<(bool, Vec<u8>)>();
    let readers: Vec<(bool, Box<dyn Read + Send>)>;
    let mut child = match streams {
        Streams::Merged => {
            let (r, w) = std::io::pipe().map_err(|e| os_error(&e, None))?;
            let w2 = w.try_clone().map_err(|e| os_error(&e, None))?;
            cmd.stdout(w).stderr(w2);
            let child = cmd.spawn().map_err(|e| os_error(&e, None))?;
            // The parent's copies of the write end live in `cmd`: dropping it lets the
            // reader see end-of-file when the child's side closes.
            drop(cmd);
            readers = vec![(false, Box::new(r))];
            child
        }
        Streams::Separate => {
            cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
            let mut child = cmd.spawn().map_err(|e| os_error(&e, None))?;
            let mut rs: Vec<(bool, Box<dyn Read + Send>)> = Vec::new();
            if let Some(o) = child.stdout.take() {
                rs.push((false, Box::new(o)));
            }
            if let Some(e) = child.stderr.take() {
                rs.push((true, Box::new(e)));
            }
            readers = rs;
            child
        }
    };
    if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
        // A thread, so a script that never reads its input cannot block the cell.
        std::thread::spawn(move || {
            let _ = std::io::Write::write_all(&mut stdin, &bytes);
        });
    }
    for (is_err, mut r) in readers {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match r.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send((is_err, buf[..n].to_vec())).is_err() {
                            break;
                        }
                    }
                }
            }
        });
    }
    drop(tx);
    let mut sink = Sink {
        capture,
        captured: Vec::new(),
        pending: [Vec::new(), Vec::new()],
    };
    let mut interrupted = false;
    let mut deadline: Option<Instant> = None;
    loop {
        match rx.recv_timeout(POLL) {
            Ok((is_err, bytes)) => sink.push(rt, is_err, &bytes, false),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if !interrupted && rt.interrupted() {
            // Consumed here: IPython goes on with the cell after killing the child.
            rt.interrupt
                .store(false, std::sync::atomic::Ordering::SeqCst);
            interrupted = true;
            signal_group(&child, libc::SIGINT);
            deadline = Some(Instant::now() + GRACE);
        }
        if let Some(d) = deadline {
            if Instant::now() >= d {
                signal_group(&child, libc::SIGKILL);
                // Whatever still holds the pipe after SIGKILL of the group escaped it:
                // stop reading rather than wait for it.
                if Instant::now() >= d + GRACE {
                    break;
                }
            }
        }
    }
    let status = wait(rt, &mut child, &mut interrupted)?;
    sink.flush(rt);
    let code = match (
        status.code(),
        std::os::unix::process::ExitStatusExt::signal(&status),
    ) {
        (Some(c), _) if c > 128 => -i64::from(c - 128),
        (Some(c), _) => i64::from(c),
        (None, Some(sig)) => -i64::from(sig),
        (None, None) => 0,
    };
    Ok(Finished {
        code,
        interrupted,
        captured: sink.captured,
    })
}

/// Wait for the child, still honouring an interrupt (its output pipes may close before it
/// ends).
fn wait(
    rt: &mut Runtime,
    child: &mut Child,
    interrupted: &mut bool,
) -> PyResult<std::process::ExitStatus> {
    let mut deadline: Option<Instant> = None;
    loop {
        if let Some(s) = child.try_wait().map_err(|e| os_error(&e, None))? {
            return Ok(s);
        }
        if !*interrupted && rt.interrupted() {
            rt.interrupt
                .store(false, std::sync::atomic::Ordering::SeqCst);
            *interrupted = true;
            signal_group(child, libc::SIGINT);
        }
        if *interrupted {
            let d = *deadline.get_or_insert_with(|| Instant::now() + GRACE);
            if Instant::now() >= d {
                signal_group(child, libc::SIGKILL);
            }
        }
        std::thread::sleep(POLL);
    }
}

fn signal_group(child: &Child, sig: libc::c_int) {
    let Ok(pid) = libc::pid_t::try_from(child.id()) else {
        return;
    };
    // SAFETY: kill(2) with a negative pid signals the process group the child leads (it
    // was spawned with process_group(0)); it touches no memory of ours.
    unsafe {
        libc::kill(-pid, sig);
    }
}

/// Output on its way to the cell: bytes are held back only while a UTF-8 sequence is
/// split between two reads.
struct Sink {
    capture: bool,
    captured: Vec<u8>,
    pending: [Vec<u8>; 2],
}

impl Sink {
    fn push(&mut self, rt: &mut Runtime, is_err: bool, bytes: &[u8], flush: bool) {
        if self.capture {
            self.captured.extend_from_slice(bytes);
            return;
        }
        let buf = &mut self.pending[usize::from(is_err)];
        buf.extend_from_slice(bytes);
        let text = match std::str::from_utf8(buf) {
            Ok(s) => {
                let s = s.to_string();
                buf.clear();
                s
            }
            Err(e) if e.error_len().is_none() && !flush => {
                let tail = buf.split_off(e.valid_up_to());
                let s = String::from_utf8_lossy(buf).into_owned();
                *buf = tail;
                s
            }
            Err(_) => {
                let s = String::from_utf8_lossy(buf).into_owned();
                buf.clear();
                s
            }
        };
        if text.is_empty() {
            return;
        }
        if is_err {
            rt.eprint(&text);
        } else {
            rt.print(&text);
        }
    }

    fn flush(&mut self, rt: &mut Runtime) {
        self.push(rt, false, &[], true);
        self.push(rt, true, &[], true);
    }
}

/// An OSError from an io::Error the way CPython words it: `[Errno 2] No such file or
/// directory: 'name'`, with the subclass CPython picks for the errno.
pub fn os_error(e: &std::io::Error, filename: Option<&str>) -> PyErr {
    let Some(errno) = e.raw_os_error() else {
        return PyErr::new("OSError", e.to_string());
    };
    let class = match errno {
        libc::ENOENT => "FileNotFoundError",
        libc::EEXIST => "FileExistsError",
        libc::EISDIR => "IsADirectoryError",
        libc::ENOTDIR => "NotADirectoryError",
        libc::EACCES | libc::EPERM => "PermissionError",
        _ => "OSError",
    };
    let text = e.to_string();
    let strerror = text
        .strip_suffix(&format!(" (os error {errno})"))
        .unwrap_or(&text);
    let message = match filename {
        Some(f) => format!(
            "[Errno {errno}] {strerror}: {}",
            crate::interp::repr::str_repr(f)
        ),
        None => format!("[Errno {errno}] {strerror}"),
    };
    PyErr::new(class, message)
}

/// IPython's `var_expand`: `{expr}` fields (with `!r`/`!s`/`!a`; a `:` belongs to the
/// expression, as in IPython's FullEvalFormatter) and `$name` or `$name.attr` outside
/// single quotes, `$$name` for a literal `$name`, `{{`/`}}` for braces. As in IPython, when
/// any part fails (an unknown name, a syntax error) the whole command is left as typed,
/// so `$HOME` reaches the shell.
pub fn expand(rt: &mut Runtime, ctx: &mut Ctx, cmd: &str) -> String {
    if !cmd.contains(['{', '}', '$']) {
        return cmd.to_string();
    }
    expand_or_fail(rt, ctx, cmd).unwrap_or_else(|_| cmd.to_string())
}

fn expand_or_fail(rt: &mut Runtime, ctx: &mut Ctx, cmd: &str) -> PyResult<String> {
    let mut out = String::new();
    for piece in format_pieces(cmd)? {
        match piece {
            Piece::Literal(text) => expand_dollars(rt, ctx, &text, &mut out)?,
            Piece::Field(expr, conv) => {
                let v = eval_expr(rt, ctx, &expr)?;
                out.push_str(&convert(rt, &v, conv)?);
            }
        }
    }
    Ok(out)
}

enum Piece {
    Literal(String),
    Field(String, Option<char>),
}

/// Python's `string.Formatter.parse`, with the format spec kept in the expression.
fn format_pieces(s: &str) -> PyResult<Vec<Piece>> {
    let bad = || PyErr::value_error("bad format string");
    let chars: Vec<char> = s.chars().collect();
    let mut pieces = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' if chars.get(i + 1) == Some(&'{') => {
                lit.push('{');
                i += 2;
            }
            '}' if chars.get(i + 1) == Some(&'}') => {
                lit.push('}');
                i += 2;
            }
            '}' => return Err(bad()),
            '{' => {
                let mut depth = 1;
                let mut j = i + 1;
                while j < chars.len() {
                    match chars[j] {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if j >= chars.len() {
                    return Err(bad());
                }
                let field: String = chars[i + 1..j].iter().collect();
                pieces.push(Piece::Literal(std::mem::take(&mut lit)));
                pieces.push(split_conversion(&field)?);
                i = j + 1;
            }
            c => {
                lit.push(c);
                i += 1;
            }
        }
    }
    pieces.push(Piece::Literal(lit));
    Ok(pieces)
}

/// `expr!r` → (expr, 'r'); a `!` inside brackets (or `!=`) is part of the expression.
fn split_conversion(field: &str) -> PyResult<Piece> {
    let mut depth = 0i32;
    let chars: Vec<(usize, char)> = field.char_indices().collect();
    for (k, &(at, c)) in chars.iter().enumerate() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            '!' if depth == 0 && chars.get(k + 1).map(|x| x.1) != Some('=') => {
                let rest = &field[at + 1..];
                let mut it = rest.chars();
                let conv = it.next();
                let after: String = it.collect();
                // A format spec after the conversion joins the expression in IPython,
                // where it is a syntax error; so it is here.
                if !after.is_empty() || !matches!(conv, Some('r' | 's' | 'a')) {
                    return Err(PyErr::value_error("bad conversion"));
                }
                return Ok(Piece::Field(field[..at].to_string(), conv));
            }
            _ => {}
        }
    }
    Ok(Piece::Field(field.to_string(), None))
}

fn convert(rt: &mut Runtime, v: &Value, conv: Option<char>) -> PyResult<String> {
    match conv {
        Some('r') | Some('a') => crate::interp::repr::repr(rt, v),
        _ => crate::interp::repr::to_str(rt, v),
    }
}

fn eval_expr(rt: &mut Runtime, ctx: &mut Ctx, expr: &str) -> PyResult<Value> {
    if expr.trim().is_empty() {
        return Err(PyErr::value_error("empty expression"));
    }
    let stmts = parse_snippet(expr.trim())?;
    match stmts.as_slice() {
        [ruff_python_ast::Stmt::Expr(_)] => run_snippet(rt, ctx, expr.trim(), &stmts),
        _ => Err(PyErr::new("SyntaxError", "invalid syntax")),
    }
}

/// IPython's `$name` pattern, `(.*?)\$(\$?[\w\.]+)` where an even number of single quotes
/// follows in the same literal run (so `'$x'` stays for the shell).
fn expand_dollars(rt: &mut Runtime, ctx: &mut Ctx, text: &str, out: &mut String) -> PyResult<()> {
    let chars: Vec<char> = text.chars().collect();
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '$' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let escaped = chars.get(i + 1) == Some(&'$');
        let start = if escaped { i + 2 } else { i + 1 };
        let mut end = start;
        while end < chars.len() && is_word(chars[end]) {
            end += 1;
        }
        let quotes_after = chars[end..].iter().filter(|c| **c == '\'').count();
        if end == start || quotes_after % 2 == 1 {
            out.push('$');
            i += 1;
            continue;
        }
        let name: String = chars[start..end].iter().collect();
        if escaped {
            out.push('$');
            out.push_str(&name);
        } else {
            let v = eval_expr(rt, ctx, &name)?;
            out.push_str(&crate::interp::repr::to_str(rt, &v)?);
        }
        i = end;
    }
    Ok(())
}
