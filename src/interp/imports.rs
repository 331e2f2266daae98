//! The import system: a name resolves to a module the engine registered (numpy, numba, the
//! interpreter's own `math` or `re`), else to a module written in Python: a `name.py` or a
//! package `name/__init__.py` in a folder of `sys.path` (`''` is the current folder, as in
//! a notebook), else to one of the pure-Python standard modules nbcuda ships
//! (`src/interp/pylib/`). A Python module's code runs once, in its own namespace, on its
//! first import; `importlib.reload` runs it again.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::interp::frame::{Ctx, Flow};
use crate::py::error::{Frame, PyErr, PyResult};
use crate::py::exceptions::ExcClass;
use crate::py::function::Scope;
use crate::py::registry;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

/// The standard modules nbcuda writes in Python (our own code), by import name.
const PYLIB: &[(&str, &str)] = &[
    (
        "_collections_abc",
        include_str!("pylib/_collections_abc.py"),
    ),
    (
        "_collections_abc_mixins",
        include_str!("pylib/_collections_abc_mixins.py"),
    ),
    (
        "_collections_chainmap",
        include_str!("pylib/_collections_chainmap.py"),
    ),
    (
        "collections.abc",
        "from _collections_abc import *\nfrom _collections_abc import __all__\n",
    ),
    ("_datetime_clock", include_str!("pylib/_datetime_clock.py")),
    (
        "_datetime_format",
        include_str!("pylib/_datetime_format.py"),
    ),
    ("abc", include_str!("pylib/abc.py")),
    ("bisect", include_str!("pylib/bisect.py")),
    ("contextlib", include_str!("pylib/contextlib.py")),
    ("datetime", include_str!("pylib/datetime.py")),
    ("enum", include_str!("pylib/enum.py")),
    ("fractions", include_str!("pylib/fractions.py")),
    ("gc", include_str!("pylib/gc.py")),
    ("hashlib", include_str!("pylib/hashlib.py")),
    ("heapq", include_str!("pylib/heapq.py")),
    ("hmac", include_str!("pylib/hmac.py")),
    ("io", include_str!("pylib/io.py")),
    ("logging", include_str!("pylib/logging.py")),
    ("pprint", include_str!("pylib/pprint.py")),
    ("statistics", include_str!("pylib/statistics.py")),
    ("timeit", include_str!("pylib/timeit.py")),
    ("typing", include_str!("pylib/typing.py")),
    ("uuid", include_str!("pylib/uuid.py")),
];

/// Import a module by dotted name (see the module doc for where names resolve).
pub fn import(rt: &mut Runtime, name: &str) -> PyResult<Rc<Module>> {
    if let Some(found) = registry::lookup(rt, name) {
        return found;
    }
    // A submodule's parent is imported first, as CPython does.
    let parent = match name.rsplit_once('.') {
        Some((p, _)) => Some(import(rt, p)?),
        None => None,
    };
    if let Some(path) = find_source(rt, name, parent.as_deref()) {
        let code = std::fs::read(&path).map_err(|e| {
            PyErr::new(
                "ImportError",
                format!("cannot read {}: {e}", path.display()),
            )
        })?;
        let code = String::from_utf8_lossy(&code).into_owned();
        let package = path
            .ends_with("__init__.py")
            .then(|| path.with_file_name(""));
        let file = path.display().to_string();
        return load(rt, name, &code, Some(&file), package.as_deref(), parent);
    }
    if let Some((_, code)) = PYLIB.iter().find(|(n, _)| *n == name) {
        return load(rt, name, code, None, None, parent);
    }
    Err(registry::not_found(rt, name))
}

/// Where `name`'s source is: `name.py` or `name/__init__.py` in each folder of `sys.path`,
/// or a submodule in its parent package's folder.
fn find_source(rt: &mut Runtime, name: &str, parent: Option<&Module>) -> Option<PathBuf> {
    let last = name.rsplit('.').next().unwrap_or(name);
    let folders: Vec<PathBuf> = match parent {
        Some(p) => match p.get("__path__").as_ref() {
            Some(Value::List(l)) => l
                .borrow()
                .iter()
                .filter_map(|v| v.as_str().map(PathBuf::from))
                .collect(),
            _ => return None,
        },
        None => search_path(rt),
    };
    folders.iter().find_map(|dir| {
        let file = dir.join(format!("{last}.py"));
        let init = dir.join(last).join("__init__.py");
        [file, init].into_iter().find(|p| p.is_file())
    })
}

/// The folders of `sys.path` (the list users append to), `''` meaning the current folder.
fn search_path(rt: &mut Runtime) -> Vec<PathBuf> {
    let entries = match registry::lookup(rt, "sys") {
        Some(Ok(sys)) => match sys.get("path").as_ref() {
            Some(Value::List(l)) => l.borrow().clone(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    entries
        .iter()
        .filter_map(|v| v.as_str())
        .map(|s| if s.is_empty() { "." } else { s })
        .map(PathBuf::from)
        .collect()
}

/// Run a Python module's code in a fresh namespace and cache the module under `name`.
fn load(
    rt: &mut Runtime,
    name: &str,
    code: &str,
    file: Option<&str>,
    package: Option<&Path>,
    parent: Option<Rc<Module>>,
) -> PyResult<Rc<Module>> {
    let namespace: Scope = Default::default();
    {
        let mut ns = namespace.borrow_mut();
        ns.insert("__name__".into(), Value::str(name));
        ns.insert("__doc__".into(), Value::None);
        if let Some(f) = file {
            ns.insert("__file__".into(), Value::str(f));
        }
        // A package's relative imports start from itself, a module's from its parent.
        let home = match (package, name.rsplit_once('.')) {
            (Some(_), _) => name,
            (None, Some((parent, _))) => parent,
            (None, None) => "",
        };
        ns.insert("__package__".into(), Value::str(home));
        if let Some(dir) = package {
            let dir = dir.to_string_lossy();
            let dir = dir.trim_end_matches('/');
            ns.insert("__path__".into(), Value::list(vec![Value::str(dir)]));
        }
    }
    let module = Rc::new(Module::with_namespace(name, "", namespace.clone()));
    registry::remember(rt, name, module.clone());
    let origin = match file {
        Some(f) => format!("File {f}"),
        None => format!("File <nbcuda>/{name}.py"),
    };
    if let Err(e) = run(rt, namespace, code, &origin) {
        registry::forget(rt, name);
        return Err(e);
    }
    if let Some(p) = parent {
        let last = name.rsplit('.').next().unwrap_or(name);
        p.set(last, Value::Module(module.clone()));
    }
    Ok(module)
}

/// Run module code at module level in `namespace`, as one frame: a module that reloads or
/// imports itself without end meets the recursion limit, not the end of the native stack.
fn run(rt: &mut Runtime, namespace: Scope, code: &str, origin: &str) -> PyResult<()> {
    crate::interp::expr::enter_frame(rt, |rt| run_frame(rt, namespace, code, origin))
}

fn run_frame(rt: &mut Runtime, namespace: Scope, code: &str, origin: &str) -> PyResult<()> {
    let stmts = crate::interp::magics::parse_snippet(code).map_err(|e| in_file(e, code, origin))?;
    if let Some(doc) = docstring(&stmts) {
        namespace
            .borrow_mut()
            .insert("__doc__".into(), Value::str(doc));
    }
    let mut ctx = Ctx::module(namespace, Rc::from(code), Rc::from(origin));
    for s in &stmts {
        match crate::interp::stmt::exec_stmt(rt, &mut ctx, s)? {
            Flow::Normal => {}
            _ => {
                return Err(PyErr::new(
                    "SyntaxError",
                    "'break', 'continue' or 'return' outside a loop or function",
                ))
            }
        }
    }
    Ok(())
}

/// A syntax error in a module's file, located there (the parser gives line and column).
fn in_file(err: PyErr, code: &str, origin: &str) -> PyErr {
    let position = err.obj.as_deref().and_then(|o| match o.args.as_deref() {
        Some([_, Value::Tuple(loc), ..]) => match loc.get(1..3) {
            Some([Value::Int(line), Value::Int(col)]) => Some((*line, *col)),
            _ => None,
        },
        _ => None,
    });
    let Some((line, col)) = position else {
        return err;
    };
    let line_start = code
        .split_inclusive('\n')
        .take((line.max(1) - 1) as usize)
        .map(str::len)
        .sum::<usize>();
    let start = code[line_start..]
        .char_indices()
        .nth((col.max(1) - 1) as usize)
        .map_or(code.len(), |(i, _)| line_start + i);
    err.at(Frame {
        origin: origin.to_string(),
        source: Rc::from(code),
        start,
        end: start,
        function: "<module>".to_string(),
    })
}

fn docstring(stmts: &[ruff_python_ast::Stmt]) -> Option<&str> {
    let ruff_python_ast::Stmt::Expr(e) = stmts.first()? else {
        return None;
    };
    match &*e.value {
        ruff_python_ast::Expr::StringLiteral(s) => Some(s.value.to_str()),
        _ => None,
    }
}

/// The module a `from` import names: `given` itself, or for a relative import (`level`
/// dots) the name relative to the importing module's package.
pub fn absolute_name(ctx: &Ctx, level: u32, given: &str) -> PyResult<String> {
    if level == 0 {
        return Ok(given.to_string());
    }
    let package = match ctx.globals.borrow().get("__package__") {
        Some(Value::Str(p)) if !p.is_empty() => p.to_string(),
        _ => {
            return Err(PyErr::new(
                "ImportError",
                "attempted relative import with no known parent package",
            ))
        }
    };
    let mut base = package.as_str();
    for _ in 1..level {
        base = match base.rsplit_once('.') {
            Some((b, _)) => b,
            None => {
                return Err(PyErr::new(
                    "ImportError",
                    "attempted relative import beyond top-level package",
                ))
            }
        };
    }
    Ok(match given {
        "" => base.to_string(),
        g => format!("{base}.{g}"),
    })
}

/// `from module import *`: the names in `__all__` when the module defines it, else every
/// name not starting with an underscore.
pub fn star_import(rt: &mut Runtime, ctx: &mut Ctx, module: &Module) -> PyResult<()> {
    let items = module.items();
    let all = match module.get("__all__") {
        Some(v) => Some(crate::interp::ops::iterate(rt, &v)?),
        None => None,
    };
    match all {
        Some(names) => {
            for n in names {
                let Some(name) = n.as_str() else {
                    return Err(PyErr::type_error(format!(
                        "Item in {}.__all__ must be str, not {}",
                        module.name,
                        n.type_name()
                    )));
                };
                let v = module.get(name).ok_or_else(|| {
                    PyErr::attribute_error(format!(
                        "module '{}' has no attribute '{name}'",
                        module.name
                    ))
                })?;
                ctx.assign(name, v);
            }
        }
        None => {
            for (k, v) in items {
                if !k.starts_with('_') {
                    ctx.assign(&k, v);
                }
            }
        }
    }
    Ok(())
}

/// `from name import attr` when the module has no such attribute: a submodule of that name,
/// else CPython's ImportError.
pub fn import_attr(rt: &mut Runtime, module: &Module, attr: &str) -> PyResult<Value> {
    if let Some(v) = module.get(attr) {
        return Ok(v);
    }
    match import(rt, &format!("{}.{attr}", module.name)) {
        Ok(m) => Ok(Value::Module(m)),
        Err(e) if e.is_instance(ExcClass::ModuleNotFoundError) => {
            let file = match module.get("__file__").as_ref() {
                Some(Value::Str(f)) => format!(" ({f})"),
                _ => " (unknown location)".to_string(),
            };
            Err(PyErr::new(
                "ImportError",
                format!("cannot import name '{attr}' from '{}'{file}", module.name),
            ))
        }
        Err(e) => Err(e),
    }
}

/// `importlib`: `import_module` and `reload`.
pub fn importlib_module() -> Rc<Module> {
    let m = Module::new(
        "importlib",
        "Importing modules by name, and reloading them.",
    );
    m.def(
        Function,
        "import_module",
        "name, package=None",
        "Import a module by its dotted name and return it.",
        |rt, b| {
            let name = b.value(0);
            let Some(name) = name.as_str() else {
                return Err(PyErr::type_error(format!(
                    "the 'name' argument must be str, not {}",
                    name.type_name()
                )));
            };
            Ok(Value::Module(import(rt, name)?))
        },
    );
    m.def(
        Function,
        "reload",
        "module",
        "Run a module's Python code again in its namespace (the file as it is now).",
        |rt, b| {
            let module = match &b.value(0) {
                Value::Module(m) => m.clone(),
                _ => return Err(PyErr::type_error("reload() argument must be a module")),
            };
            let file = module.get("__file__");
            let (Some(ns), Some(Value::Str(file))) = (module.namespace(), file.as_ref()) else {
                // A module nbcuda provides has no source to run again: reloading keeps it.
                return Ok(Value::Module(module));
            };
            let code = std::fs::read(&**file).map_err(|_| {
                PyErr::new(
                    "ModuleNotFoundError",
                    format!("spec not found for the module '{}'", module.name),
                )
            })?;
            let code = String::from_utf8_lossy(&code).into_owned();
            run(rt, ns.clone(), &code, &format!("File {file}"))?;
            Ok(Value::Module(module))
        },
    );
    Rc::new(m)
}
