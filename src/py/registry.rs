//! The registries the engine fills and the interpreter reads: importable modules (built on
//! first import, then cached for the session) and magics beyond the interpreter's own.
//! They are how the interpreter reaches `numpy`, `numba`, `cupy` or `pyplot` without
//! importing them: the arrow points from the engine down to both.

use std::collections::HashMap;
use std::rc::Rc;

use crate::py::error::{PyErr, PyResult};
use crate::py::function::Scope;
use crate::py::runtime::Runtime;
use crate::py::value::{Module, Value};

/// Builds a module on its first import.
pub type ModuleBuilder = fn(&mut Runtime) -> PyResult<Rc<Module>>;

/// A line magic: its argument text and the user's global names (for `%memory`).
pub type LineMagic = fn(&mut Runtime, &str, &Scope) -> PyResult<Value>;

/// What a session can import and which extra magics it has (in `rt.state::<Registry>()`).
#[derive(Default)]
pub struct Registry {
    builders: Vec<(&'static str, ModuleBuilder)>,
    loaded: HashMap<String, Rc<Module>>,
    line_magics: Vec<(&'static str, LineMagic)>,
    cell_magics: Vec<&'static str>,
}

/// Make `name` importable (registration order is the order error messages list them).
pub fn register_module(rt: &mut Runtime, name: &'static str, builder: ModuleBuilder) {
    let reg = rt.state::<Registry>();
    reg.builders.retain(|(n, _)| *n != name);
    reg.builders.push((name, builder));
}

/// Add a line magic `%name`.
pub fn register_line_magic(rt: &mut Runtime, name: &'static str, magic: LineMagic) {
    let reg = rt.state::<Registry>();
    reg.line_magics.retain(|(n, _)| *n != name);
    reg.line_magics.push((name, magic));
}

/// Announce a cell magic `%%name` that the engine runs itself (for `%lsmagic`).
pub fn register_cell_magic_name(rt: &mut Runtime, name: &'static str) {
    let reg = rt.state::<Registry>();
    if !reg.cell_magics.contains(&name) {
        reg.cell_magics.push(name);
    }
}

/// The registered line magic `%name`, if any.
pub fn line_magic(rt: &mut Runtime, name: &str) -> Option<LineMagic> {
    let reg = rt.state::<Registry>();
    reg.line_magics
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, m)| *m)
}

/// Names of the registered line magics, in registration order.
pub fn line_magic_names(rt: &mut Runtime) -> Vec<&'static str> {
    rt.state::<Registry>()
        .line_magics
        .iter()
        .map(|(n, _)| *n)
        .collect()
}

/// Names of the registered cell magics, in registration order.
pub fn cell_magic_names(rt: &mut Runtime) -> Vec<&'static str> {
    rt.state::<Registry>().cell_magics.clone()
}

/// Every importable module name, in registration order.
pub fn available(rt: &mut Runtime) -> Vec<&'static str> {
    rt.state::<Registry>()
        .builders
        .iter()
        .map(|(n, _)| *n)
        .collect()
}

/// Import a registered module by dotted name (cached for the session, so every import of a
/// name gives the same module object). A name nothing registers raises
/// ModuleNotFoundError, as CPython's does, listing what nbcuda provides.
pub fn import(rt: &mut Runtime, name: &str) -> PyResult<Rc<Module>> {
    match lookup(rt, name) {
        Some(found) => found,
        None => Err(not_found(rt, name)),
    }
}

/// ModuleNotFoundError for `name`: CPython's message, then what nbcuda provides.
pub fn not_found(rt: &mut Runtime, name: &str) -> PyErr {
    let names = available(rt);
    PyErr::new("ModuleNotFoundError", format!("No module named '{name}'")).with_hint(format!(
        "nbcuda runs its own Python and provides {}, and modules written in Python in the \
         notebook's folder",
        names.join(", ")
    ))
}

/// A module already imported or registered under `name`; None when nothing provides it.
pub fn lookup(rt: &mut Runtime, name: &str) -> Option<PyResult<Rc<Module>>> {
    let reg = rt.state::<Registry>();
    if let Some(m) = reg.loaded.get(name) {
        return Some(Ok(m.clone()));
    }
    let Some(builder) = reg
        .builders
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, b)| *b)
    else {
        // A package's submodule that its builder attaches as an attribute
        // (`numba.cuda.cudadrv.devicearray`) imports like a registered one.
        let (parent, last) = name.rsplit_once('.')?;
        let Some(Ok(p)) = lookup(rt, parent) else {
            return None;
        };
        let m = match p.get(last).as_ref() {
            Some(Value::Module(m)) => m.clone(),
            _ => return None,
        };
        remember(rt, name, m.clone());
        return Some(Ok(m));
    };
    Some(builder(rt).inspect(|m| remember(rt, name, m.clone())))
}

/// Cache `module` as the import of `name` (a module written in Python enters the cache
/// before its code runs, so that a circular import sees it, as in CPython).
pub fn remember(rt: &mut Runtime, name: &str, module: Rc<Module>) {
    rt.state::<Registry>()
        .loaded
        .insert(name.to_string(), module);
}

/// Drop `name` from the cache (its code raised, so the next import runs it again).
pub fn forget(rt: &mut Runtime, name: &str) {
    rt.state::<Registry>().loaded.remove(name);
}
