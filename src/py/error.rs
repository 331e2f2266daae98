//! Python exceptions as nbcuda raises them: a class name, a message, and the source
//! positions the error passed through, rendered as a traceback with a caret under the
//! offending code.

use std::fmt;
use std::rc::Rc;

pub type PyResult<T> = Result<T, PyErr>;

/// One source position an error passed through (innermost first in [`PyErr::frames`]).
#[derive(Clone, Debug)]
pub struct Frame {
    /// `Cell In[3]`, `kernel add_one` ...
    pub origin: String,
    /// The whole source of the cell or function the position is in.
    pub source: Rc<str>,
    /// Byte range of the offending code in `source`.
    pub start: usize,
    pub end: usize,
    /// Function name (`<module>` at cell level).
    pub function: String,
}

/// A Python exception. Boxed: every `PyResult` the interpreter passes back up its calls
/// is then the size of its value, not of an exception, so the success path copies little.
#[derive(Clone, Debug)]
pub struct PyErr(Box<ErrorData>);

impl std::ops::Deref for PyErr {
    type Target = ErrorData;
    fn deref(&self) -> &ErrorData {
        &self.0
    }
}

impl std::ops::DerefMut for PyErr {
    fn deref_mut(&mut self) -> &mut ErrorData {
        &mut self.0
    }
}

/// What a [`PyErr`] holds.
#[derive(Clone, Debug)]
pub struct ErrorData {
    /// The Python class name: `TypeError`, `CudaAPIError`, `TypingError`, ...
    pub ename: String,
    pub message: String,
    /// Positions, innermost first. Empty until the interpreter attaches one.
    pub frames: Vec<Frame>,
    /// An extra line shown after the message (the "how to fix it" hint), if any.
    pub hint: Option<String>,
    /// Set when the raised object is an instance of a class defined in a cell.
    pub user: Option<Box<UserException>>,
    /// What Python code can see of the exception beyond its message, once it has any.
    pub obj: Option<Box<ErrObject>>,
}

/// The parts of an exception object that nbcuda's own errors do not need: its args when
/// they are not just the message, the object it was caught as, and its chaining.
#[derive(Clone, Debug, Default)]
pub struct ErrObject {
    /// `e.args`, when not `(message,)`: `StopIteration(value)`, `OSError(errno, text)`.
    pub args: Option<Vec<crate::py::value::Value>>,
    /// The object `except ... as e` bound, so that a re-raise and `__context__` keep its
    /// identity.
    pub instance: Option<crate::py::value::Value>,
    pub chain: Chain,
}

/// How an exception is chained to earlier ones: each link is the earlier exception's
/// object and the error it was raised as (whose traceback prints first).
#[derive(Clone, Debug, Default)]
pub struct Chain {
    /// `__cause__`, set by `raise ... from ...`.
    pub cause: Option<(crate::py::value::Value, Rc<PyErr>)>,
    /// `__context__`: the exception being handled when this one was raised.
    pub context: Option<(crate::py::value::Value, Rc<PyErr>)>,
    pub suppress_context: bool,
}

/// A raised instance of an exception class defined in a cell: the instance itself (what
/// `except ... as e` binds) and the built-in class it derives from, which is what native
/// code's [`PyErr::is_instance`] checks.
#[derive(Clone, Debug)]
pub struct UserException {
    pub instance: crate::py::value::Value,
    pub base: crate::py::exceptions::ExcClass,
}

impl PyErr {
    pub fn new(ename: &str, message: impl Into<String>) -> PyErr {
        PyErr(Box::new(ErrorData {
            ename: ename.to_string(),
            message: message.into(),
            frames: Vec::new(),
            hint: None,
            user: None,
            obj: None,
        }))
    }

    /// An exception whose `args` are `args` (its message is their str, as CPython's is).
    pub fn with_args(mut self, args: Vec<crate::py::value::Value>) -> PyErr {
        self.obj_mut().args = Some(args);
        self
    }

    /// The exception-object parts, created on first use.
    pub fn obj_mut(&mut self) -> &mut ErrObject {
        self.obj.get_or_insert_with(Default::default)
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> PyErr {
        self.hint = Some(hint.into());
        self
    }
    pub fn type_error(m: impl Into<String>) -> PyErr {
        PyErr::new("TypeError", m)
    }
    pub fn value_error(m: impl Into<String>) -> PyErr {
        PyErr::new("ValueError", m)
    }
    pub fn index_error(m: impl Into<String>) -> PyErr {
        PyErr::new("IndexError", m)
    }
    pub fn key_error(m: impl Into<String>) -> PyErr {
        PyErr::new("KeyError", m)
    }
    pub fn attribute_error(m: impl Into<String>) -> PyErr {
        PyErr::new("AttributeError", m)
    }
    pub fn name_error(m: impl Into<String>) -> PyErr {
        PyErr::new("NameError", m)
    }
    pub fn zero_division(m: impl Into<String>) -> PyErr {
        PyErr::new("ZeroDivisionError", m)
    }
    pub fn overflow(m: impl Into<String>) -> PyErr {
        PyErr::new("OverflowError", m)
    }
    pub fn memory_error(m: impl Into<String>) -> PyErr {
        PyErr::new("MemoryError", m)
    }
    pub fn runtime_error(m: impl Into<String>) -> PyErr {
        PyErr::new("RuntimeError", m)
    }
    pub fn not_implemented(m: impl Into<String>) -> PyErr {
        PyErr::new("NotImplementedError", m)
    }
    pub fn keyboard_interrupt() -> PyErr {
        PyErr::new("KeyboardInterrupt", "")
    }
    pub fn internal(m: impl Into<String>) -> PyErr {
        PyErr::new("InternalError", m)
    }

    /// The class of this error, when nbcuda knows it (user classes and Numba's rarer ones
    /// are known by name only).
    pub fn class(&self) -> Option<crate::py::exceptions::ExcClass> {
        match &self.user {
            Some(u) => Some(u.base),
            None => crate::py::exceptions::ExcClass::from_name(&self.ename),
        }
    }

    /// `isinstance(err, cls)`: true for `cls` and every subclass of it.
    pub fn is_instance(&self, cls: crate::py::exceptions::ExcClass) -> bool {
        if let Some(u) = &self.user {
            return u.base.is_subclass_of(cls);
        }
        crate::py::exceptions::name_is_subclass(&self.ename, cls.name())
    }

    /// Attach a position unless an inner one is already known at the same origin.
    pub fn at(mut self, frame: Frame) -> PyErr {
        self.frames.push(frame);
        self
    }

    /// `ename: message` as Python's last traceback line prints it.
    pub fn summary(&self) -> String {
        if self.message.is_empty() {
            self.ename.clone()
        } else {
            format!("{}: {}", self.ename, self.message)
        }
    }

    /// The traceback lines Jupyter shows (ANSI-coloured like IPython's), outermost first,
    /// each position with its source line and a caret under the span.
    pub fn traceback(&self) -> Vec<String> {
        let mut lines = Vec::new();
        // A chained exception prints the ones before it first, as CPython does (the chain
        // walked without recursion, and at most 100 links of it).
        let mut chain: Vec<(&PyErr, &str)> = Vec::new();
        let mut at = self;
        while let Some(o) = at
            .obj
            .as_deref()
            .map(|o| &o.chain)
            .filter(|_| chain.len() < 100)
        {
            let (err, joint) = match (&o.cause, &o.context) {
                (Some((_, c)), _) => (
                    c.as_ref(),
                    "The above exception was the direct cause of the following exception:",
                ),
                (None, Some((_, c))) if !o.suppress_context => (
                    c.as_ref(),
                    "During handling of the above exception, another exception occurred:",
                ),
                _ => break,
            };
            chain.push((err, joint));
            at = err;
        }
        for (err, joint) in chain.iter().rev() {
            lines.extend(err.own_traceback());
            lines.push(format!("\n{joint}\n"));
        }
        lines.extend(self.own_traceback());
        lines
    }

    /// This exception's traceback alone, without the exceptions chained to it.
    fn own_traceback(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let rule = "\u{1b}[0;31m---------------------------------------------------------------------------\u{1b}[0m";
        lines.push(format!(
            "{rule}\n\u{1b}[0;31m{:<42}\u{1b}[0m Traceback (most recent call last)",
            self.ename
        ));
        for frame in self.frames.iter().rev() {
            lines.push(render_frame(frame));
        }
        let mut last = format!("\u{1b}[0;31m{}\u{1b}[0m", self.ename);
        if !self.message.is_empty() {
            last.push_str(": ");
            last.push_str(&self.message);
        }
        if let Some(h) = &self.hint {
            last.push('\n');
            last.push_str(h);
        }
        lines.push(last);
        lines
    }

    /// The traceback without ANSI colour codes (for `nbcuda run` and logs).
    pub fn plain_traceback(&self) -> String {
        strip_ansi(&self.traceback().join("\n"))
    }
}

/// Render one frame: origin line, then up to 2 lines of context, the offending line and a
/// caret line under the span.
pub fn render_frame(frame: &Frame) -> String {
    let src = &*frame.source;
    let start = frame.start.min(src.len());
    let end = frame.end.clamp(start, src.len());
    let line_start = src[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line_end = src[start..]
        .find('\n')
        .map(|i| start + i)
        .unwrap_or(src.len());
    let line_no = src[..start].matches('\n').count() + 1;
    let mut out = format!(
        "\u{1b}[0;32m{}\u{1b}[0m, line {}, in {}\n",
        frame.origin, line_no, frame.function
    );
    // Context: up to two preceding lines.
    let all: Vec<&str> = src.split('\n').collect();
    let first_ctx = line_no.saturating_sub(2).max(1);
    for n in first_ctx..line_no {
        out.push_str(&format!("      {:<4}{}\n", n, all[n - 1]));
    }
    out.push_str(&format!(
        "\u{1b}[0;32m----> {:<4}\u{1b}[0m{}\n",
        line_no,
        &src[line_start..line_end]
    ));
    let col = src[line_start..start].chars().count();
    let span_end = end.min(line_end);
    let width = src[start..span_end].chars().count().max(1);
    out.push_str(&format!(
        "      {:<4}{}\u{1b}[1;31m{}\u{1b}[0m",
        "",
        " ".repeat(col),   // bounded: columns of the source
        "^".repeat(width)  // bounded: columns of the source
    ));
    out
}

pub fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl fmt::Display for PyErr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.summary())
    }
}

impl std::error::Error for PyErr {}

impl From<crate::arrays::error::ArrayError> for PyErr {
    fn from(e: crate::arrays::error::ArrayError) -> PyErr {
        let err = PyErr::new(e.kind.python_name(), e.message);
        match e.hint {
            Some(h) => err.with_hint(h),
            None => err,
        }
    }
}
