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

/// Import a module by dotted name (cached for the session, so every import of a name gives
/// the same module object).
pub fn import(rt: &mut Runtime, name: &str) -> PyResult<Rc<Module>> {
    let reg = rt.state::<Registry>();
    if let Some(m) = reg.loaded.get(name) {
        return Ok(m.clone());
    }
    let Some(builder) = reg
        .builders
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, b)| *b)
    else {
        // A package's submodule that its builder attaches as an attribute
        // (`numba.cuda.cudadrv.devicearray`) imports like a registered one.
        if let Some((parent, last)) = name.rsplit_once('.') {
            if let Ok(p) = import(rt, parent) {
                if let Some(Value::Module(m)) = p.get(last).as_ref() {
                    let m = m.clone();
                    rt.state::<Registry>()
                        .loaded
                        .insert(name.to_string(), m.clone());
                    return Ok(m);
                }
            }
        }
        let names = available(rt);
        return Err(PyErr::not_implemented(format!(
            "importing '{name}' is not supported: nbcuda runs its own Python subset and provides only {}",
            names.join(", ")
        )));
    };
    let m = builder(rt)?;
    rt.state::<Registry>()
        .loaded
        .insert(name.to_string(), m.clone());
    Ok(m)
}
