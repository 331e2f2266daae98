//! The cell language: Python syntax parsed by ruff's parser (IPython mode), executed by
//! nbcuda's own interpreter over a defined subset of Python.

pub mod error;
pub mod function;
pub mod runtime;
pub mod session;
pub mod value;

pub use error::{PyErr, PyResult};
pub use function::{Function, Scope};
pub use runtime::{Frontend, Runtime, StreamName};
pub use value::{Args, BinOp, Builtin, Dict, Module, Object, UnaryOp, Value};
