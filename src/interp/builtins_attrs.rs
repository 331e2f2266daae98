//! The builtins about attributes, `hasattr`, `getattr`, `setattr` and `delattr`, and
//! `ascii` (a repr with non-ASCII characters escaped).

use std::collections::HashMap;

use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::ExcClass;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

/// Add this file's builtins to the table.
pub fn register(b: &mut HashMap<String, Value>) {
    let mut f =
        |name: &str, sig: &str, doc: &str, func: fn(&mut Runtime, Args) -> PyResult<Value>| {
            b.insert(name.to_string(), Value::builtin(name, sig, doc, func));
        };
    f(
        "hasattr",
        "hasattr(obj, name, /)",
        "Whether the object has the attribute.",
        |rt, a| {
            let [v, Value::Str(n)] = a.pos.as_slice() else {
                return Err(PyErr::type_error(
                    "hasattr(): attribute name must be string",
                ));
            };
            match crate::interp::attrs::get_attr(rt, v, n) {
                Ok(_) => Ok(Value::Bool(true)),
                Err(e) if e.is_instance(ExcClass::AttributeError) => Ok(Value::Bool(false)),
                Err(e) => Err(e),
            }
        },
    );
    f(
        "getattr",
        "getattr(obj, name[, default])",
        "The named attribute of the object, or default when missing.",
        |rt, a| {
            let (v, n) = match a.pos.as_slice() {
                [v, Value::Str(n), ..] => (v.clone(), n.clone()),
                _ => {
                    return Err(PyErr::type_error(
                        "getattr(): attribute name must be string",
                    ))
                }
            };
            match crate::interp::attrs::get_attr(rt, &v, &n) {
                Ok(x) => Ok(x),
                Err(e) if e.is_instance(ExcClass::AttributeError) && a.pos.len() > 2 => {
                    Ok(a.pos[2].clone())
                }
                Err(e) => Err(e),
            }
        },
    );
    f(
        "setattr",
        "setattr(obj, name, value, /)",
        "Set the named attribute.",
        |rt, a| {
            let [v, Value::Str(n), x] = a.pos.as_slice() else {
                return Err(PyErr::type_error("setattr expected 3 arguments"));
            };
            crate::interp::attrs::set_attr(rt, v, n, x.clone())?;
            Ok(Value::None)
        },
    );
    f(
        "delattr",
        "delattr(obj, name, /)",
        "Delete the named attribute: delattr(x, 'y') is del x.y.",
        |rt, a| {
            let [v, n] = a.pos.as_slice() else {
                return Err(PyErr::type_error(format!(
                    "delattr expected 2 arguments, got {}",
                    a.pos.len()
                )));
            };
            let Value::Str(n) = n else {
                return Err(PyErr::type_error(format!(
                    "attribute name must be string, not '{}'",
                    n.type_name()
                )));
            };
            crate::interp::attrs::del_attr(rt, v, n)?;
            Ok(Value::None)
        },
    );
    f(
        "ascii",
        "ascii(obj, /)",
        "repr(obj) with every non-ASCII character escaped (\\x, \\u or \\U).",
        |rt, a| {
            let [v] = a.pos.as_slice() else {
                return Err(PyErr::type_error(format!(
                    "ascii() takes exactly one argument ({} given)",
                    a.pos.len()
                )));
            };
            let r = crate::interp::repr::repr(rt, v)?;
            let mut out = String::with_capacity(r.len());
            for c in r.chars() {
                match c as u32 {
                    0..=0x7f => out.push(c),
                    n @ 0x80..=0xff => out.push_str(&format!("\\x{n:02x}")),
                    n @ 0x100..=0xffff => out.push_str(&format!("\\u{n:04x}")),
                    n => out.push_str(&format!("\\U{n:08x}")),
                }
            }
            Ok(Value::str(&out))
        },
    );
}
