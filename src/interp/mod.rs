//! The cell language: Python syntax parsed by ruff's parser (IPython mode), executed by
//! nbcuda's own interpreter over a defined subset of Python.

pub mod assist;
pub mod attrs;
pub mod builtins;
pub mod builtins_iter;
pub mod expr;
pub mod frame;
pub mod ipython;
pub mod magics;
pub mod modules;
pub mod objects;
pub mod ops;
pub mod repr;
pub mod stmt;
pub mod subscript;
pub mod timing;

/// The interpreter's services for native code (see [`crate::py::runtime::InterpHooks`]).
pub fn hooks() -> crate::py::runtime::InterpHooks {
    crate::py::runtime::InterpHooks {
        call: expr::call_value,
        iterate: ops::iterate,
        truthy: ops::truthy,
        to_str: repr::to_str,
        builtin: |rt, name| rt.state::<expr::InterpState>().builtins.get(name).cloned(),
    }
}
