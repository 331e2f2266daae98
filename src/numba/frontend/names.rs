//! Name resolution in compiled code: a function's own variables, then the free names it
//! captures (globals and closures, turned into compile-time values), then the builtins the
//! kernel subset types; any other Python builtin gets Numba's "Untyped global name".

use ruff_text_size::TextRange;

use crate::arrays::dtype::Scalar;
use crate::kernel::builder::Builder;
use crate::py::error::PyResult;
use crate::py::value::Value;

use super::{FnCtx, Val};

impl FnCtx {
    /// Resolve a name: local variable, free name (globals/closures), or builtin.
    pub fn lookup(&self, b: &mut Builder, name: &str, range: TextRange) -> PyResult<Val> {
        if let Some(v) = self.vars.get(name) {
            return Ok(v.clone());
        }
        match self.func.lookup(name) {
            Some(v) => global_val(b, v),
            None => match name {
                "range" | "min" | "max" | "abs" | "len" | "int" | "float" | "round" | "bool"
                | "print" | "pow" => Ok(Val::Path(format!("builtin.{name}"))),
                "True" => Ok(Val::Reg(b.konst(Scalar::Bool(true)))),
                "False" => Ok(Val::Reg(b.konst(Scalar::Bool(false)))),
                _ => match python_builtin_type(name) {
                    // A builtin of Python's that the kernel subset cannot type: Numba's words.
                    Some(class) => Err(self.typing(
                        format!("Untyped global name '{name}': Cannot determine Numba type of <class '{class}'>"),
                        range,
                    )),
                    None => Err(self.typing(format!("NameError: name '{name}' is not defined"), range)),
                },
            },
        }
    }
}

/// Turn a host value captured by a kernel into a compile-time value.
pub fn global_val(b: &mut Builder, v: Value) -> PyResult<Val> {
    Ok(match &v {
        Value::Int(i) => Val::Reg(b.konst(Scalar::I64(*i))),
        Value::Float(f) => Val::Reg(b.konst(Scalar::F64(*f))),
        Value::Bool(x) => Val::Reg(b.konst(Scalar::Bool(*x))),
        Value::Scalar(s) => Val::Reg(b.konst(*s)),
        Value::Module(m) => Val::Module(m.clone()),
        Value::Str(s) => Val::Str(s.to_string()),
        Value::None => Val::None,
        Value::Builtin(bi) => {
            let name = bi.name.clone();
            if let Some(rest) = name.strip_prefix("math.") {
                Val::Path(format!("math.{rest}"))
            } else if let Some(rest) = name.strip_prefix("numpy.") {
                Val::Path(format!("np.{rest}"))
            } else if let Some(rest) = name.strip_prefix("_operator.") {
                // operator.add and friends (defined in _operator, as CPython's are) lower
                // to the operators themselves.
                Val::Path(format!("operator.{rest}"))
            } else if name.starts_with("operator.") {
                Val::Path(name)
            } else if name == "numba.prange" {
                // `from numba import prange`: the same loop as `numba.prange(...)`.
                Val::Path(name)
            } else {
                Val::Global(v.clone())
            }
        }
        Value::Object(o) => {
            if let Some(p) = o
                .as_any()
                .downcast_ref::<crate::numba::intrinsics::Intrinsic>()
            {
                Val::Path(p.path.clone())
            } else {
                Val::Global(v.clone())
            }
        }
        _ => Val::Global(v.clone()),
    })
}

/// The type of Python's builtin `name` (`type` for its classes), if it is one.
fn python_builtin_type(name: &str) -> Option<&'static str> {
    const FUNCTIONS: &[&str] = &[
        "all",
        "any",
        "ascii",
        "bin",
        "callable",
        "chr",
        "compile",
        "delattr",
        "dir",
        "divmod",
        "eval",
        "exec",
        "format",
        "getattr",
        "globals",
        "hasattr",
        "hash",
        "hex",
        "id",
        "input",
        "isinstance",
        "issubclass",
        "iter",
        "locals",
        "next",
        "oct",
        "open",
        "ord",
        "repr",
        "setattr",
        "sorted",
        "sum",
        "vars",
        "__import__",
    ];
    if crate::py::value::BUILTIN_CLASSES.contains(&name) {
        Some("type")
    } else if FUNCTIONS.contains(&name) {
        Some("builtin_function_or_method")
    } else {
        None
    }
}
