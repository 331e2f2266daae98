//! The exception being handled, as Python code asks for it: `sys.exc_info()` and the
//! `traceback` module's text (`format_exc`, `print_exc`, `format_exception`,
//! `format_exception_only`, `print_exception`). Except blocks push the error they handle
//! on [`InterpState::handled`] and pop it when they end, so a function called from one
//! (a logging call, a helper that prints the traceback) sees it, as CPython's thread
//! state lets it.
//!
//! Known differences: a frame's file is its cell (`File "Cell In[3]"`, where ipykernel
//! names a temporary file), chained exceptions print only the last one, and no carets
//! mark the failing expression.

use std::rc::Rc;

use crate::interp::expr::InterpState;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::{Runtime, StreamName};
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

/// Run `body` as an except block handling `err`: `sys.exc_info()` sees it meanwhile.
pub fn handling<T>(rt: &mut Runtime, err: &PyErr, body: impl FnOnce(&mut Runtime) -> T) -> T {
    rt.state::<InterpState>().handled.push(err.clone());
    let r = body(rt);
    rt.state::<InterpState>().handled.pop();
    r
}

/// The exception being handled, innermost: None outside every except block.
fn current(rt: &mut Runtime) -> Option<PyErr> {
    rt.state::<InterpState>().handled.last().cloned()
}

/// `sys.exc_info()`: (type, value, traceback) of the exception being handled.
pub fn exc_info(rt: &mut Runtime) -> PyResult<Value> {
    let Some(err) = current(rt) else {
        return Ok(Value::tuple(vec![Value::None, Value::None, Value::None]));
    };
    let tb = crate::interp::traceback_obj::of(&err);
    let (_, value) = crate::interp::objects::caught(err);
    let ty = type_of(rt, &value)?;
    Ok(Value::tuple(vec![ty, value, tb]))
}

fn type_of(rt: &mut Runtime, v: &Value) -> PyResult<Value> {
    let ty = rt.state::<InterpState>().builtins.get("type").cloned();
    match ty {
        Some(t) => {
            crate::interp::expr::call_value(rt, &t, crate::py::value::Args::new(vec![v.clone()]))
        }
        None => Ok(Value::None),
    }
}

/// The error an exception object was raised as: the one being handled (or an enclosing
/// one) when it is that object, which knows where it passed, else the object alone.
fn error_of(rt: &mut Runtime, v: &Value) -> PyResult<PyErr> {
    let handled = rt.state::<InterpState>().handled.clone();
    for err in handled.iter().rev() {
        let (err, value) = crate::interp::objects::caught(err.clone());
        if crate::interp::compare::is_same(&value, v) {
            return Ok(err);
        }
    }
    if let Some(e) = v.downcast::<crate::interp::objects::ExceptionValue>() {
        return Ok(e.err.clone());
    }
    if let Some(err) = crate::interp::classes::raised(rt, v)? {
        return Ok(err);
    }
    Err(PyErr::type_error(format!(
        "Exception expected for value, {} found",
        v.type_name()
    )))
}

/// The last line: `ZeroDivisionError: division by zero`.
fn only(err: &PyErr) -> String {
    if err.message.is_empty() {
        format!("{}\n", err.ename)
    } else {
        format!("{}: {}\n", err.ename, err.message)
    }
}

/// CPython's text for an error: its frames outermost first, each with its source line,
/// then the last line.
fn lines(err: &PyErr) -> Vec<String> {
    let mut out = Vec::new();
    if !err.frames.is_empty() {
        out.push("Traceback (most recent call last):\n".to_string());
        for f in err.frames.iter().rev() {
            let start = f.start.min(f.source.len());
            let line_no = f.source.as_bytes()[..start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            let text = f.source.lines().nth(line_no - 1).unwrap_or("").trim();
            let mut s = format!(
                "  File \"{}\", line {line_no}, in {}\n",
                f.origin, f.function
            );
            if !text.is_empty() {
                s.push_str(&format!("    {text}\n"));
            }
            out.push(s);
        }
    }
    out.push(only(err));
    out
}

fn list_of(lines: Vec<String>) -> Value {
    Value::list(lines.iter().map(|l| Value::str(l)).collect())
}

/// Write `text` to `file` (a stream object) or, for None, to the cell's stderr.
fn write_to(rt: &mut Runtime, file: &Value, text: &str) -> PyResult<Value> {
    if matches!(file, Value::None) {
        rt.frontend.stream(StreamName::Stderr, text);
        return Ok(Value::None);
    }
    let write = crate::interp::attrs::get_attr(rt, file, "write")?;
    rt.call(&write, crate::py::value::Args::new(vec![Value::str(text)]))?;
    Ok(Value::None)
}

/// `format_exc()`'s text: 'NoneType: None\n' outside an except block, as CPython's.
fn exc_text(rt: &mut Runtime) -> String {
    match current(rt) {
        Some(err) => lines(&err).concat(),
        None => "NoneType: None\n".to_string(),
    }
}

/// The exception argument of `format_exception(exc)` or of the older
/// `format_exception(etype, value, tb)`.
fn exception_arg(b: &crate::py::signature::Bound) -> Value {
    match b.value(1) {
        Value::None => b.value(0),
        v => v,
    }
}

pub fn module() -> Rc<Module> {
    let m = Module::new(
        "traceback",
        "Text of exceptions and where they were raised, as CPython prints it.",
    );
    m.def(
        Function,
        "format_exc",
        "limit=None, chain=True",
        "The exception being handled, with its traceback, as one string.",
        |rt, _| Ok(Value::str(&exc_text(rt))),
    );
    m.def(
        Function,
        "print_exc",
        "limit=None, file=None, chain=True",
        "Print the exception being handled, with its traceback, to `file` (stderr).",
        |rt, b| {
            let text = exc_text(rt);
            write_to(rt, &b.value(1), &text)
        },
    );
    m.def(
        Function,
        "format_exception",
        "exc, /, value=None, tb=None, limit=None, chain=True",
        "The lines of an exception's traceback and message, each ending in a newline.",
        |rt, b| {
            let err = error_of(rt, &exception_arg(&b))?;
            Ok(list_of(lines(&err)))
        },
    );
    m.def(
        Function,
        "format_exception_only",
        "exc, /, value=None",
        "The last line of an exception's text, in a list.",
        |rt, b| {
            let err = error_of(rt, &exception_arg(&b))?;
            Ok(list_of(vec![only(&err)]))
        },
    );
    m.def(
        Function,
        "print_exception",
        "exc, /, value=None, tb=None, limit=None, file=None, chain=True",
        "Print an exception's traceback and message to `file` (stderr).",
        |rt, b| {
            let err = error_of(rt, &exception_arg(&b))?;
            let file = b.value(4);
            write_to(rt, &file, &lines(&err).concat())
        },
    );
    Rc::new(m)
}
