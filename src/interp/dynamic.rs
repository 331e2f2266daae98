//! Builtins that run code in, or read, the calling frame: `exec`, `eval`, `globals()`,
//! `locals()` and `super()`. They are dispatched from the call expression, which has the frame; called
//! any other way (through an alias, say) they say so.

use std::collections::HashMap;
use std::rc::Rc;

use crate::interp::frame::{Ctx, Flow};
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Scope;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Dict, Value};

/// The builtins [`call`] runs.
pub const FRAME_BUILTINS: [&str; 5] = ["exec", "eval", "globals", "locals", "super"];

/// Whether `f` is one of [`FRAME_BUILTINS`].
pub fn is_frame_builtin(f: &Value) -> Option<&'static str> {
    match f {
        Value::Builtin(b) => FRAME_BUILTINS.iter().copied().find(|n| *n == b.name),
        _ => None,
    }
}

/// What `compile()` returns: source already checked to parse, run by `exec` or `eval`.
pub struct Code {
    source: String,
    mode: String,
    filename: String,
}

impl crate::py::value::Object for Code {
    fn type_name(&self) -> String {
        "code".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "<code object <module> at {:#x}, file \"{}\", line 1>",
            self as *const Self as usize, self.filename
        ))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `compile(source, filename, mode)`: parse now, so that syntax errors are raised here.
fn compile(_rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let p = a.bind(
        "compile",
        &[
            "source",
            "filename",
            "mode",
            "flags=",
            "dont_inherit=",
            "optimize=",
        ],
    )?;
    let text = |i: usize, what: &str| match &p[i] {
        Some(Value::Str(s)) => Ok(s.to_string()),
        other => Err(PyErr::type_error(format!(
            "compile() argument '{what}' must be str, not {}",
            other.as_ref().map_or("NoneType".into(), |v| v.type_name())
        ))),
    };
    let (source, filename, mode) = (text(0, "source")?, text(1, "filename")?, text(2, "mode")?);
    if !matches!(mode.as_str(), "exec" | "eval" | "single") {
        return Err(PyErr::value_error(
            "compile() mode must be 'exec', 'eval' or 'single'",
        ));
    }
    let stmts = crate::interp::magics::parse_snippet(&source)
        .map_err(|e| crate::interp::nesting::with_filename(e, &filename))?;
    if mode == "eval" && !matches!(stmts.as_slice(), [ruff_python_ast::Stmt::Expr(_)]) {
        return Err(PyErr::new("SyntaxError", "invalid syntax"));
    }
    Ok(Value::object(Code {
        source,
        mode,
        filename,
    }))
}

/// The registered values: their bodies run only when reached without a frame.
pub fn register(b: &mut HashMap<String, Value>) {
    b.insert(
        "compile".into(),
        Value::builtin(
            "compile",
            "compile(source, filename, mode, flags=0, dont_inherit=False, optimize=-1)",
            "Parse source into a code object that exec() (mode 'exec') or eval() (mode 'eval') runs.",
            compile,
        ),
    );
    let docs = [
        (
            "exec",
            "exec(source, globals=None, locals=None, /)",
            "Run Python statements, in the given namespaces or the caller's.",
        ),
        (
            "eval",
            "eval(source, globals=None, locals=None, /)",
            "The value of a Python expression, in the given namespaces or the caller's.",
        ),
        (
            "globals",
            "globals()",
            "The module namespace as a dict (a snapshot in nbcuda).",
        ),
        (
            "locals",
            "locals()",
            "The current local namespace as a dict (a snapshot).",
        ),
        (
            "super",
            "super() or super(type, obj)",
            "The parent classes' attributes, as seen from the method's class.",
        ),
    ];
    for (name, sig, doc) in docs {
        b.insert(
            name.into(),
            Value::builtin(name, sig, doc, move |_, _| {
                Err(PyErr::new(
                    "NotImplementedError",
                    format!("nbcuda runs {name}() only when it is called by that name"),
                ))
            }),
        );
    }
}

/// Run frame builtin `name` for a call in `ctx`.
pub fn call(rt: &mut Runtime, ctx: &mut Ctx, name: &str, args: Args) -> PyResult<Value> {
    match name {
        "globals" => Ok(dict_of(&ctx.globals)),
        "locals" => Ok(dict_of(ctx.locals.as_ref().unwrap_or(&ctx.globals))),
        "super" => crate::interp::class_tools::super_call(ctx, args),
        _ => run(rt, ctx, name == "eval", args),
    }
}

/// A scope's bindings in name order (scopes are hash maps; dicts keep insertion order).
fn sorted_bindings(scope: &Scope) -> Vec<(String, Value)> {
    let mut names: Vec<(String, Value)> = scope
        .borrow()
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    names.sort_by(|a, b| a.0.cmp(&b.0));
    names
}

fn dict_of(scope: &Scope) -> Value {
    let mut d = Dict::default();
    for (k, v) in sorted_bindings(scope) {
        d.insert_str(&k, v);
    }
    Value::Dict(Rc::new(std::cell::RefCell::new(d)))
}

/// A namespace dict as a scope (string keys only, as CPython requires of globals).
fn scope_of(func: &str, what: &str, d: &Value) -> PyResult<Option<Scope>> {
    match d {
        Value::None => Ok(None),
        Value::Dict(d) => {
            let mut map = crate::py::function::Names::default();
            for (k, v) in d.borrow().iter() {
                if let Value::Str(s) = k {
                    map.insert(s.as_ref().into(), v.clone());
                }
            }
            Ok(Some(Rc::new(std::cell::RefCell::new(map))))
        }
        other => Err(PyErr::type_error(format!(
            "{func}() {what} must be a dict, not {}",
            other.type_name()
        ))),
    }
}

/// Copy a scope's bindings back into the dict it was made from.
fn write_back(scope: &Scope, d: &Value) {
    if let Value::Dict(d) = d {
        let mut d = d.borrow_mut();
        for (k, v) in sorted_bindings(scope) {
            d.insert_str(&k, v);
        }
    }
}

fn run(rt: &mut Runtime, ctx: &mut Ctx, is_eval: bool, args: Args) -> PyResult<Value> {
    let func = if is_eval { "eval" } else { "exec" };
    let source = match args.pos.first() {
        Some(Value::Str(s)) => s.to_string(),
        Some(v) if v.downcast::<Code>().is_some() => {
            let code = v
                .downcast::<Code>()
                .map(|c| (c.source.clone(), c.mode.clone()));
            let (source, mode) = code.unwrap_or_default();
            if is_eval && mode != "eval" {
                return Err(PyErr::not_implemented(
                    "eval() of code compiled in 'exec' mode is not supported in nbcuda",
                ));
            }
            source
        }
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "{func}() arg 1 must be a string, not {}",
                other.type_name()
            )))
        }
        None => {
            return Err(PyErr::type_error(format!(
                "{func}() missing required argument 'source' (pos 1)"
            )))
        }
    };
    let gval = args
        .pos
        .get(1)
        .or(args.kwarg("globals"))
        .cloned()
        .unwrap_or(Value::None);
    let lval = args
        .pos
        .get(2)
        .or(args.kwarg("locals"))
        .cloned()
        .unwrap_or(Value::None);
    let given_globals = scope_of(func, "globals", &gval)?;
    let given_locals = scope_of(func, "locals", &lval)?;
    // As in CPython: with globals given, locals default to them; with neither, the code
    // runs in the caller's namespaces.
    let (globals, locals, enclosing) = match given_globals.clone() {
        Some(g) => (g, given_locals.clone(), Vec::new()),
        None => (
            ctx.globals.clone(),
            given_locals.clone().or_else(|| ctx.locals.clone()),
            ctx.enclosing.clone(),
        ),
    };
    let stmts = crate::interp::magics::parse_snippet(&source)?;
    let mut inner = Ctx::module(globals, Rc::from(source.as_str()), Rc::from("<string>"));
    inner.locals = locals;
    inner.enclosing = enclosing;
    let result = if is_eval {
        match stmts.as_slice() {
            [ruff_python_ast::Stmt::Expr(e)] => crate::interp::expr::eval(rt, &mut inner, &e.value),
            _ => Err(PyErr::new(
                "SyntaxError",
                "invalid syntax: eval() takes one expression",
            )),
        }
    } else {
        let mut out = Ok(Value::None);
        for s in &stmts {
            match crate::interp::stmt::exec_stmt(rt, &mut inner, s) {
                Ok(Flow::Normal) => {}
                Ok(_) => {
                    out = Err(PyErr::new(
                        "SyntaxError",
                        "'break', 'continue' or 'return' outside a loop or function",
                    ));
                    break;
                }
                Err(e) => {
                    out = Err(e);
                    break;
                }
            }
        }
        out
    };
    // Bindings made before an error stay, as in CPython.
    if let Some(g) = &given_globals {
        write_back(g, &gval);
    }
    if let (Some(l), Some(_)) = (&inner.locals, &given_locals) {
        write_back(l, &lval);
    }
    result
}
