//! The errors of array operations. Each kind names the Python exception it becomes (the
//! conversion lives with the value model, which sits above this folder), so array code
//! never builds interpreter errors.

use std::fmt;

/// The Python exception an [`ArrayError`] becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayErrorKind {
    Value,
    Type,
    Index,
    Attribute,
    Overflow,
    Memory,
    NotImplemented,
    KeyboardInterrupt,
    /// NumPy's `AxisError` (a ValueError and an IndexError).
    Axis,
    /// NumPy's `UFuncTypeError` (a TypeError).
    UFuncType,
}

impl ArrayErrorKind {
    /// The Python class name.
    pub fn python_name(self) -> &'static str {
        match self {
            ArrayErrorKind::Value => "ValueError",
            ArrayErrorKind::Type => "TypeError",
            ArrayErrorKind::Index => "IndexError",
            ArrayErrorKind::Attribute => "AttributeError",
            ArrayErrorKind::Overflow => "OverflowError",
            ArrayErrorKind::Memory => "MemoryError",
            ArrayErrorKind::NotImplemented => "NotImplementedError",
            ArrayErrorKind::KeyboardInterrupt => "KeyboardInterrupt",
            ArrayErrorKind::Axis => "AxisError",
            ArrayErrorKind::UFuncType => "UFuncTypeError",
        }
    }
}

/// An error from an array operation: its kind, NumPy's message, and an optional hint.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayError {
    pub kind: ArrayErrorKind,
    pub message: String,
    /// The "how to fix it" line shown after the message, if any.
    pub hint: Option<String>,
}

pub type ArrayResult<T> = Result<T, ArrayError>;

impl ArrayError {
    pub fn new(kind: ArrayErrorKind, message: impl Into<String>) -> ArrayError {
        ArrayError {
            kind,
            message: message.into(),
            hint: None,
        }
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> ArrayError {
        self.hint = Some(hint.into());
        self
    }
    pub fn value_error(m: impl Into<String>) -> ArrayError {
        ArrayError::new(ArrayErrorKind::Value, m)
    }
    pub fn type_error(m: impl Into<String>) -> ArrayError {
        ArrayError::new(ArrayErrorKind::Type, m)
    }
    pub fn index_error(m: impl Into<String>) -> ArrayError {
        ArrayError::new(ArrayErrorKind::Index, m)
    }
    pub fn attribute_error(m: impl Into<String>) -> ArrayError {
        ArrayError::new(ArrayErrorKind::Attribute, m)
    }
    pub fn overflow(m: impl Into<String>) -> ArrayError {
        ArrayError::new(ArrayErrorKind::Overflow, m)
    }
    pub fn memory_error(m: impl Into<String>) -> ArrayError {
        ArrayError::new(ArrayErrorKind::Memory, m)
    }
    pub fn not_implemented(m: impl Into<String>) -> ArrayError {
        ArrayError::new(ArrayErrorKind::NotImplemented, m)
    }
    pub fn keyboard_interrupt() -> ArrayError {
        ArrayError::new(ArrayErrorKind::KeyboardInterrupt, "")
    }
    pub fn axis_error(m: impl Into<String>) -> ArrayError {
        ArrayError::new(ArrayErrorKind::Axis, m)
    }
    pub fn ufunc_type_error(m: impl Into<String>) -> ArrayError {
        ArrayError::new(ArrayErrorKind::UFuncType, m)
    }
}

impl fmt::Display for ArrayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.python_name(), self.message)
    }
}

impl std::error::Error for ArrayError {}
