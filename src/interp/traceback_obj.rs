//! Traceback objects: what `__exit__` receives as its third argument and what
//! `e.__traceback__` gives. One per position the error passed, outermost first as CPython
//! links them (`tb_next` goes inward), each with its line (`tb_lineno`) and a minimal frame
//! (`tb_frame.f_code.co_name`, `f_lineno`).

use std::any::Any;
use std::rc::Rc;

use crate::py::error::{Frame, PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

pub struct Traceback {
    /// The error's positions, innermost first (as `PyErr` keeps them).
    frames: Rc<[Frame]>,
    /// Which of them this object is.
    at: usize,
}

/// The traceback of an error: None when it has passed no position yet.
pub fn of(err: &PyErr) -> Value {
    if err.frames.is_empty() {
        return Value::None;
    }
    let frames: Rc<[Frame]> = Rc::from(err.frames.as_slice());
    let at = frames.len() - 1;
    Value::object(Traceback { frames, at })
}

/// The 1-based line of a position in its source.
fn line_of(f: &Frame) -> i64 {
    let end = f.start.min(f.source.len());
    f.source.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as i64
        + 1
}

impl Object for Traceback {
    fn type_name(&self) -> String {
        "traceback".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let frame = &self.frames[self.at];
        Ok(match name {
            "tb_lineno" => Some(Value::Int(line_of(frame))),
            "tb_lasti" => Some(Value::Int(frame.start as i64)),
            "tb_next" => Some(match self.at.checked_sub(1) {
                Some(at) => Value::object(Traceback {
                    frames: self.frames.clone(),
                    at,
                }),
                None => Value::None,
            }),
            "tb_frame" => Some(Value::object(FrameObj {
                function: frame.function.clone(),
                origin: frame.origin.clone(),
                line: line_of(frame),
            })),
            _ => None,
        })
    }
    fn dir(&self) -> Vec<String> {
        ["tb_frame", "tb_lasti", "tb_lineno", "tb_next"]
            .map(String::from)
            .to_vec()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The frame a traceback entry points at: its function's name and the line it was on.
struct FrameObj {
    function: String,
    origin: String,
    line: i64,
}

impl Object for FrameObj {
    fn type_name(&self) -> String {
        "frame".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "<frame at {:#x}, file '{}', line {}, code {}>",
            self as *const Self as usize, self.origin, self.line, self.function
        ))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "f_lineno" => Some(Value::Int(self.line)),
            "f_code" => Some(Value::object(CodeObj {
                name: self.function.clone(),
                filename: self.origin.clone(),
            })),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

struct CodeObj {
    name: String,
    filename: String,
}

impl Object for CodeObj {
    fn type_name(&self) -> String {
        "code".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "co_name" => Some(Value::str(&self.name)),
            "co_filename" => Some(Value::str(&self.filename)),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
