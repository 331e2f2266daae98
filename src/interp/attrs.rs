//! Attribute access: modules, objects, NumPy values and numbers; the methods of str, list,
//! dict, tuple and set come from their tables, and `str.format`'s formatter lives here.

use crate::interp::container_methods;
use crate::interp::repr::{format_value, to_str};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

fn no_attr(v: &Value, name: &str) -> PyErr {
    match v {
        Value::Module(m) => {
            PyErr::attribute_error(format!("module '{}' has no attribute '{name}'", m.name))
        }
        // NumPy's types are C types whose name keeps the module ('numpy.ndarray'); Python
        // classes show the bare name.
        Value::Array(_) | Value::Scalar(_) if v.type_name().starts_with("numpy.") => {
            PyErr::attribute_error(format!(
                "'{}' object has no attribute '{name}'",
                v.type_name()
            ))
        }
        _ => PyErr::attribute_error(format!(
            "'{}' object has no attribute '{name}'",
            v.type_name().rsplit('.').next().unwrap_or("")
        )),
    }
}

pub fn get_attr(rt: &mut Runtime, v: &Value, name: &str) -> PyResult<Value> {
    let found = match v {
        Value::Module(m) => match name {
            "__name__" => Some(Value::str(&m.name)),
            // A module written in Python keeps its docstring (or None) in its namespace.
            "__doc__" if m.namespace().is_none() => Some(Value::str(&m.doc)),
            _ => m.get(name),
        },
        Value::Object(o) => match o.clone().get_attr(name, rt)? {
            Some(v) => Some(v),
            None => match name {
                "__class__" => Some(crate::interp::builtins::type_of(rt, v)),
                "__doc__" => Some(o.doc().map(|(_, d)| Value::str(&d)).unwrap_or(Value::None)),
                "__name__" => o
                    .as_any()
                    .downcast_ref::<crate::py::function::Function>()
                    .map(|f| Value::str(&f.name)),
                "__qualname__" => o
                    .as_any()
                    .downcast_ref::<crate::py::function::Function>()
                    .map(|f| Value::str(&f.qualname)),
                _ => None,
            },
        },
        Value::Array(a) => ndarray_attrs::array_getattr(a, name, rt)?,
        Value::Scalar(s) => match name {
            "dtype" => Some(Value::DType(s.dtype())),
            "astype" => {
                let s = *s;
                Some(Value::builtin(
                    "astype",
                    "astype(dtype)",
                    "The value cast to another dtype, as a NumPy scalar.",
                    move |rt, a| {
                        let b = a.bind(
                            "astype",
                            &["dtype", "order=", "casting=", "subok=", "copy="],
                        )?;
                        let d = crate::py::ndarray_attrs::dtype_from_value(
                            rt,
                            b[0].as_ref().unwrap_or(&Value::None),
                        )?;
                        Ok(Value::Scalar(s.cast(d)))
                    },
                ))
            }
            "item" => {
                let s = *s;
                Some(Value::builtin(
                    "item",
                    "item()",
                    "The value as a Python number.",
                    move |_, _| {
                        Ok(if s.dtype().is_float() {
                            Value::Float(s.as_f64())
                        } else if s.dtype() == crate::arrays::dtype::DType::Bool {
                            Value::Bool(s.as_i64() != 0)
                        } else {
                            Value::Int(s.as_i64())
                        })
                    },
                ))
            }
            "shape" => Some(Value::tuple(vec![])),
            "ndim" => Some(Value::Int(0)),
            "size" => Some(Value::Int(1)),
            "itemsize" | "nbytes" => Some(Value::Int(s.dtype().itemsize() as i64)),
            _ => None,
        },
        Value::DType(d) => match name {
            "name" => Some(Value::str(d.name())),
            "itemsize" => Some(Value::Int(d.itemsize() as i64)),
            "str" => Some(Value::str(&d.typestr())),
            "kind" => Some(Value::str(&d.typestr()[1..2])),
            "char" => Some(Value::str(d.char())),
            "byteorder" => Some(Value::str(if d.itemsize() == 1 { "|" } else { "=" })),
            "alignment" => Some(Value::Int(d.real_part().itemsize() as i64)),
            "type" => Some(Value::DType(*d)),
            _ => None,
        },
        Value::Builtin(b) => match name {
            "__name__" | "__qualname__" => {
                Some(Value::str(b.name.rsplit('.').next().unwrap_or(&b.name)))
            }
            "__module__" => Some(Value::str(match b.name.rsplit_once('.') {
                Some((module, _)) => module,
                None => "builtins",
            })),
            "__doc__" => Some(Value::str(&b.doc)),
            _ => crate::interp::type_attrs::type_attr(rt, &b.name, name)?,
        },
        Value::Str(s) => crate::interp::str_methods::STR.bound(s, name),
        Value::Bytes(b) => crate::interp::bytes::method(b.clone(), name),
        Value::List(l) => container_methods::LIST.bound(l, name),
        Value::Dict(d) => container_methods::DICT.bound(d, name),
        Value::Set(s) => crate::interp::sets::SET.bound(s, name),
        Value::Tuple(t) => container_methods::TUPLE.bound(t, name),
        Value::Float(f) => match name {
            "is_integer" => {
                let f = *f;
                Some(Value::builtin(
                    "float.is_integer",
                    "is_integer()",
                    "True if the float is an integer.",
                    move |_, _| Ok(Value::Bool(f.fract() == 0.0)),
                ))
            }
            "hex" => {
                let f = *f;
                Some(Value::builtin(
                    "float.hex",
                    "hex()",
                    "Return a hexadecimal representation of a floating-point number.",
                    move |_, _| Ok(Value::str(&crate::interp::float_hex::hex(f))),
                ))
            }
            "as_integer_ratio" => {
                let f = *f;
                Some(Value::builtin(
                    "float.as_integer_ratio",
                    "as_integer_ratio()",
                    "The pair of integers, in lowest terms, whose ratio is exactly the float.",
                    move |_, _| crate::interp::bigint::float_ratio(f),
                ))
            }
            "real" => Some(v.clone()),
            "imag" => Some(Value::Float(0.0)),
            _ => None,
        },
        Value::Int(_) | Value::BigInt(_) => crate::interp::bigint::int_attr(v, name),
        Value::Complex(re, im) => crate::interp::complex::attr(*re, *im, name),
        Value::Slice(s) => match name {
            "start" => Some(s.start.map(Value::Int).unwrap_or(Value::None)),
            "stop" => Some(s.stop.map(Value::Int).unwrap_or(Value::None)),
            "step" => Some(s.step.map(Value::Int).unwrap_or(Value::None)),
            _ => None,
        },
        _ => None,
    };
    found
        .or_else(|| crate::interp::type_attrs::dunder(v, name))
        .ok_or_else(|| no_attr(v, name))
}

pub fn set_attr(rt: &mut Runtime, target: &Value, name: &str, value: Value) -> PyResult<()> {
    let ok = match target {
        Value::Object(o) => o.set_attr(name, value, rt)?,
        Value::Module(m) => {
            m.set(name, value);
            true
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(PyErr::attribute_error(format!(
            "'{}' object attribute '{name}' is read-only or does not exist",
            target.type_name()
        )))
    }
}

/// `del target.name` and `delattr(target, name)`.
pub fn del_attr(rt: &mut Runtime, target: &Value, name: &str) -> PyResult<()> {
    let done = match target {
        Value::Object(o) => o.del_attr(name, rt)?,
        Value::Module(m) => m.remove(name),
        _ => false,
    };
    if done {
        return Ok(());
    }
    // CPython's generic deletion names the type, a module's too ('module' object ...).
    Err(PyErr::attribute_error(format!(
        "'{}' object has no attribute '{name}'",
        target.type_name().rsplit('.').next().unwrap_or("")
    )))
}

/// Attribute names for completion.
pub fn dir(v: &Value) -> Vec<String> {
    let names: &[&str] = match v {
        Value::Module(m) => return m.names(),
        Value::Object(o) => return o.dir(),
        Value::Array(_) => return ndarray_attrs::array_dir(),
        Value::Str(_) => return crate::interp::str_methods::STR.names(),
        Value::List(_) => return container_methods::LIST.names(),
        Value::Dict(_) => return container_methods::DICT.names(),
        Value::Tuple(_) => return container_methods::TUPLE.names(),
        Value::Set(_) => return crate::interp::sets::SET.names(),
        Value::DType(_) => &["itemsize", "kind", "name", "str"],
        Value::Scalar(_) => &["dtype", "item", "itemsize", "ndim", "shape", "size"],
        _ => &[],
    };
    names.iter().map(|s| s.to_string()).collect()
}

/// `"{} {name:.2f}".format(...)`.
pub(crate) fn str_format(rt: &mut Runtime, fmt: &str, a: &Args) -> PyResult<Value> {
    let mut out = String::new();
    let mut auto = 0usize;
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '}' => {
                return Err(PyErr::value_error(
                    "Single '}' encountered in format string",
                ))
            }
            '{' => {
                let mut field = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    field.push(c);
                }
                if !closed {
                    return Err(PyErr::value_error(if field.is_empty() {
                        "Single '{' encountered in format string"
                    } else {
                        "expected '}' before end of string"
                    }));
                }
                let (name, spec) = field.split_once(':').unwrap_or((&field, ""));
                let (name, conv) = name
                    .split_once('!')
                    .map(|(n, c)| (n, Some(c)))
                    .unwrap_or((name, None));
                let v = if name.is_empty() {
                    auto += 1;
                    format_index(a, auto - 1)?
                } else if let Ok(i) = name.parse::<usize>() {
                    format_index(a, i)?
                } else {
                    a.kwarg(name)
                        .cloned()
                        .ok_or_else(|| PyErr::key_error(format!("'{name}'")))?
                };
                let v = match conv {
                    Some("r") => Value::str(&crate::interp::repr::repr(rt, &v)?),
                    Some("s") => Value::str(&to_str(rt, &v)?),
                    _ => v,
                };
                out.push_str(&format_value(rt, &v, spec)?);
            }
            c => out.push(c),
        }
    }
    Ok(Value::str(&out))
}

fn format_index(a: &Args, i: usize) -> PyResult<Value> {
    a.pos.get(i).cloned().ok_or_else(|| {
        PyErr::index_error(format!(
            "Replacement index {i} out of range for positional args tuple"
        ))
    })
}
