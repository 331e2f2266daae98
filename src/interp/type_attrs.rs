//! The attributes of the builtin types themselves and the special methods of builtin
//! values: `str.upper` as an unbound method (`map(str.upper, xs)`,
//! `sorted(xs, key=str.lower)`), the alternate constructors `int.from_bytes` and
//! `dict.fromkeys`, and `__len__`, `__contains__`, `__getitem__`, `__str__`, `__repr__` on
//! values whose methods the interpreter provides.

use crate::interp::{attrs, ops, repr};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

/// An empty value of the builtin type `ty`: its methods are the type's.
fn sample(ty: &str) -> Option<Value> {
    Some(match ty {
        "str" => Value::str(""),
        "int" => Value::Int(0),
        "float" => Value::Float(0.0),
        "list" => Value::list(vec![]),
        "tuple" => Value::tuple(vec![]),
        "dict" => Value::Dict(Default::default()),
        "bytes" => Value::Bytes(Vec::new().into()),
        _ => return None,
    })
}

/// `ty.name` for a builtin type `ty`: None when `ty` is not one of the types above.
pub fn type_attr(rt: &mut Runtime, ty: &str, name: &str) -> PyResult<Option<Value>> {
    if (ty, name) == ("object", "__new__") {
        return Ok(Some(Value::builtin(
            "object.__new__",
            "__new__(cls, /, *args, **kwargs)",
            "A new instance of cls whose __init__ has not run.",
            |_, a| match a.pos.first().and_then(crate::interp::classes::as_class) {
                Some(c) if !c.is_type => Ok(crate::interp::classes::bare_instance(&c)),
                _ => Err(PyErr::type_error(
                    "object.__new__(X): X must be a class defined in a cell",
                )),
            },
        )));
    }
    let Some(sample) = sample(ty) else {
        return Ok(None);
    };
    match (ty, name) {
        ("int", "from_bytes") => {
            return Ok(Some(Value::builtin(
                "int.from_bytes",
                "from_bytes(bytes, byteorder='big', *, signed=False)",
                "The int that an array of bytes represents.",
                |_, a| crate::interp::bigint::from_bytes(a),
            )))
        }
        ("float", "fromhex") => {
            return Ok(Some(Value::builtin(
                "float.fromhex",
                "fromhex(string, /)",
                "Create a floating-point number from a hexadecimal string.",
                |_, a| match a.pos.as_slice() {
                    [Value::Str(s)] => Ok(Value::Float(crate::interp::float_hex::fromhex(s)?)),
                    [other] => Err(crate::py::error::PyErr::type_error(format!(
                        "bad argument type for built-in operation: '{}'",
                        other.type_name()
                    ))),
                    _ => Err(crate::py::error::PyErr::type_error(
                        "float.fromhex() takes exactly one argument",
                    )),
                },
            )))
        }
        ("str", "maketrans") => {
            // A static method: the receiver the table binds is never read.
            return Ok(crate::interp::str_methods::STR.bound(&std::rc::Rc::from(""), name));
        }
        ("dict", "fromkeys") => {
            // A classmethod: the receiver the table binds is never read.
            return Ok(crate::interp::container_methods::DICT.bound(&Default::default(), name));
        }
        _ => {}
    }
    if attrs::get_attr(rt, &sample, name).is_err() {
        return Err(PyErr::attribute_error(format!(
            "type object '{ty}' has no attribute '{name}'"
        )));
    }
    let (ty, attr) = (ty.to_string(), name.to_string());
    Ok(Some(Value::builtin(
        &format!("{ty}.{attr}"),
        &format!("{attr}(self, /, *args, **kwargs)"),
        &format!("The {ty} method {attr}, called with the instance first."),
        move |rt, a| unbound_call(rt, &ty, &attr, a),
    )))
}

/// `str.upper(s, ...)`: the method of `s`, which must be a `ty`.
fn unbound_call(rt: &mut Runtime, ty: &str, name: &str, mut a: Args) -> PyResult<Value> {
    if a.pos.is_empty() {
        return Err(PyErr::type_error(format!(
            "unbound method {ty}.{name}() needs an argument"
        )));
    }
    let this = a.pos.remove(0);
    let of_type = match &crate::interp::builtins::type_of(rt, &this) {
        Value::Builtin(b) => b.name == ty || (ty == "int" && b.name == "bool"),
        _ => false,
    };
    if !of_type {
        return Err(PyErr::type_error(format!(
            "descriptor '{name}' for '{ty}' objects doesn't apply to a '{}' object",
            this.type_name()
        )));
    }
    let method = attrs::get_attr(rt, &this, name)?;
    rt.call(&method, a)
}

/// The special methods of a builtin value whose protocols the interpreter implements
/// directly (`[1, 2].__len__()`).
pub fn dunder(v: &Value, name: &str) -> Option<Value> {
    // Objects and modules answer for their own special methods.
    if matches!(v, Value::Object(_) | Value::Module(_)) {
        return None;
    }
    let sized = matches!(
        v,
        Value::Str(_)
            | Value::Bytes(_)
            | Value::List(_)
            | Value::Tuple(_)
            | Value::Dict(_)
            | Value::Set(_)
    );
    let this = v.clone();
    let qual = format!("{}.{name}", v.type_name());
    Some(match name {
        "__len__" if sized => Value::builtin(&qual, "__len__()", "len(self)", move |rt, _| {
            Ok(Value::Int(ops::len(rt, &this)? as i64))
        }),
        "__contains__" if sized => Value::builtin(
            &qual,
            "__contains__(key, /)",
            "key in self",
            move |rt, a| {
                let [k] = a.pos.as_slice() else {
                    return Err(PyErr::type_error("__contains__ expected 1 argument"));
                };
                Ok(Value::Bool(ops::contains(rt, &this, k)?))
            },
        ),
        "__getitem__" if sized => {
            Value::builtin(&qual, "__getitem__(key, /)", "self[key]", move |rt, a| {
                let [k] = a.pos.as_slice() else {
                    return Err(PyErr::type_error("__getitem__ expected 1 argument"));
                };
                ops::get_item(rt, &this, k)
            })
        }
        "__str__" => Value::builtin(&qual, "__str__()", "str(self)", move |rt, _| {
            Ok(Value::str(&repr::to_str(rt, &this)?))
        }),
        "__repr__" => Value::builtin(&qual, "__repr__()", "repr(self)", move |rt, _| {
            Ok(Value::str(&repr::repr(rt, &this)?))
        }),
        _ => return None,
    })
}
