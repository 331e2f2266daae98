//! `__slots__`: a class whose MRO declares `__slots__` everywhere gives its instances no
//! `__dict__`, so assigning any other name raises CPython's AttributeError. A class without
//! `__slots__` (or naming `__dict__` in them) gives its instances a `__dict__` again.

use std::rc::Rc;

use crate::interp::classes::UserClass;
use crate::py::error::{PyErr, PyResult};

/// The names the instances of `class` may hold, given the names its own `__slots__`
/// declares: None when an instance has a `__dict__` (a base without `__slots__`, an
/// exception base, or `__dict__` among the names).
pub fn instance_slots(class: &UserClass, own: Vec<String>) -> Option<Rc<[String]>> {
    if class.exc_base.is_some() || own.iter().any(|n| n == "__dict__") {
        return None;
    }
    let mut names = own;
    for base in &class.mro {
        let inherited = base.slots.borrow().clone()?;
        names.extend(inherited.iter().cloned());
    }
    Some(Rc::from(names))
}

/// Refuse `instance.name = ...` for a name outside its class's slots: a class attribute
/// is read-only there, any other name does not exist.
pub fn check_assign(class: &UserClass, name: &str) -> PyResult<()> {
    let Some(slots) = class.slots.borrow().clone() else {
        return Ok(());
    };
    if slots.iter().any(|s| s == name) {
        return Ok(());
    }
    Err(PyErr::attribute_error(if class.find(name).is_some() {
        format!("'{}' object attribute '{name}' is read-only", class.name)
    } else {
        format!("'{}' object has no attribute '{name}'", class.name)
    }))
}

/// Whether instances of `class` have a `__dict__`.
pub fn has_dict(class: &UserClass) -> bool {
    class.slots.borrow().is_none()
}

/// Whether `name` is a slot of a base of `class` (which then holds it outside `__dict__`).
pub fn in_base_slots(class: &UserClass, name: &str) -> bool {
    class.mro.iter().any(|b| {
        b.slots
            .borrow()
            .as_ref()
            .is_some_and(|s| s.iter().any(|n| n == name))
    })
}
