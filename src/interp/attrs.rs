//! Attribute access: modules, objects, NumPy values, and the methods of str, list, dict,
//! tuple and numbers.

use std::cell::RefCell;
use std::rc::Rc;

use crate::interp::ops;
use crate::interp::repr::{format_value, to_str};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Dict, Value};

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
            "__doc__" => Some(Value::str(&m.doc)),
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
            "type" => Some(Value::DType(*d)),
            _ => None,
        },
        Value::Builtin(b) => match name {
            "__name__" => Some(Value::str(b.name.rsplit('.').next().unwrap_or(&b.name))),
            "__doc__" => Some(Value::str(&b.doc)),
            _ => crate::interp::type_attrs::type_attr(rt, &b.name, name)?,
        },
        Value::Str(s) => str_method(s.clone(), name),
        Value::Bytes(b) => crate::interp::bytes::method(b.clone(), name),
        Value::List(l) => list_method(l.clone(), name),
        Value::Dict(d) => dict_method(d.clone(), name),
        Value::Set(s) => crate::interp::sets::method(s, name),
        Value::Tuple(t) => tuple_method(t.clone(), name),
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

/// Attribute names for completion.
pub fn dir(v: &Value) -> Vec<String> {
    let names: &[&str] = match v {
        Value::Module(m) => return m.names(),
        Value::Object(o) => return o.dir(),
        Value::Array(_) => return ndarray_attrs::array_dir(),
        Value::Str(_) => &[
            "capitalize",
            "center",
            "count",
            "endswith",
            "find",
            "format",
            "isdigit",
            "join",
            "ljust",
            "lower",
            "lstrip",
            "replace",
            "rjust",
            "rstrip",
            "split",
            "splitlines",
            "startswith",
            "strip",
            "title",
            "upper",
            "zfill",
        ],
        Value::List(_) => &[
            "append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove",
            "reverse", "sort",
        ],
        Value::Dict(_) => &[
            "clear",
            "copy",
            "get",
            "items",
            "keys",
            "pop",
            "setdefault",
            "update",
            "values",
        ],
        Value::Tuple(_) => &["count", "index"],
        Value::DType(_) => &["itemsize", "kind", "name", "str"],
        Value::Scalar(_) => &["dtype", "item", "itemsize", "ndim", "shape", "size"],
        _ => &[],
    };
    names.iter().map(|s| s.to_string()).collect()
}

fn m(name: &str, f: impl Fn(&mut Runtime, Args) -> PyResult<Value> + 'static) -> Option<Value> {
    Some(Value::builtin(name, &format!("{name}(...)"), "", f))
}

fn str_arg(args: &Args, i: usize, fname: &str) -> PyResult<Option<String>> {
    match args.pos.get(i) {
        None | Some(Value::None) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.to_string())),
        Some(other) => Err(PyErr::type_error(format!(
            "{fname}() argument must be str, not {}",
            other.type_name()
        ))),
    }
}

fn str_method(s: Rc<str>, name: &str) -> Option<Value> {
    if let Some(f) = crate::interp::str_methods::method(&s, name) {
        return Some(f);
    }
    let s2 = s.clone();
    match name {
        "upper" => m("str.upper", move |_, _| Ok(Value::str(&s2.to_uppercase()))),
        "lower" => m("str.lower", move |_, _| Ok(Value::str(&s2.to_lowercase()))),
        "title" => m("str.title", move |_, _| {
            let mut out = String::new();
            let mut prev_alpha = false;
            for c in s2.chars() {
                out.extend(if prev_alpha {
                    c.to_lowercase().collect::<Vec<_>>()
                } else {
                    c.to_uppercase().collect()
                });
                prev_alpha = c.is_alphabetic();
            }
            Ok(Value::str(&out))
        }),
        "capitalize" => m("str.capitalize", move |_, _| {
            let mut c = s2.chars();
            Ok(Value::str(&match c.next() {
                Some(f) => f.to_uppercase().collect::<String>() + &c.as_str().to_lowercase(),
                None => String::new(),
            }))
        }),
        "strip" | "lstrip" | "rstrip" => {
            let which = name.to_string();
            m("str.strip", move |_, a| {
                let chars = str_arg(&a, 0, &which)?;
                let pat = |c: char| match &chars {
                    Some(cs) => cs.contains(c),
                    None => c.is_whitespace(),
                };
                Ok(Value::str(match which.as_str() {
                    "strip" => s2.trim_matches(pat),
                    "lstrip" => s2.trim_start_matches(pat),
                    _ => s2.trim_end_matches(pat),
                }))
            })
        }
        "split" => m("str.split", move |_, a| {
            let sep = match a.pos.first().or(a.kwarg("sep")) {
                Some(Value::Str(x)) => Some(x.to_string()),
                _ => None,
            };
            let maxsplit = a
                .pos
                .get(1)
                .or(a.kwarg("maxsplit"))
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(-1);
            let parts: Vec<Value> = match sep {
                Some(sep) if sep.is_empty() => return Err(PyErr::value_error("empty separator")),
                Some(sep) if maxsplit >= 0 => s2
                    .splitn(maxsplit as usize + 1, sep.as_str())
                    .map(Value::str)
                    .collect(),
                Some(sep) => s2.split(sep.as_str()).map(Value::str).collect(),
                None => s2.split_whitespace().map(Value::str).collect(),
            };
            Ok(Value::list(parts))
        }),
        "splitlines" => m("str.splitlines", move |_, _| {
            Ok(Value::list(s2.lines().map(Value::str).collect()))
        }),
        "join" => m("str.join", move |rt, a| {
            let items = ops::iterate(rt, a.pos.first().unwrap_or(&Value::None))?;
            let mut parts = Vec::new();
            for (i, it) in items.iter().enumerate() {
                match it {
                    Value::Str(x) => parts.push(x.to_string()),
                    other => {
                        return Err(PyErr::type_error(format!(
                            "sequence item {i}: expected str instance, {} found",
                            other.type_name()
                        )))
                    }
                }
            }
            Ok(Value::str(&parts.join(&s2)))
        }),
        "replace" => m("str.replace", move |_, a| {
            let (Some(old), Some(new)) = (str_arg(&a, 0, "replace")?, str_arg(&a, 1, "replace")?)
            else {
                return Err(PyErr::type_error("replace expected 2 arguments"));
            };
            // A negative or absent count replaces every occurrence.
            match a.pos.get(2).map(|v| v.as_index()).transpose()? {
                Some(n) if n >= 0 => Ok(Value::str(&s2.replacen(&old, &new, n as usize))),
                _ => Ok(Value::str(&s2.replace(&old, &new))),
            }
        }),
        "startswith" | "endswith" => {
            let start = name == "startswith";
            m("str.startswith", move |_, a| {
                let pats: Vec<String> = match a.pos.first() {
                    Some(Value::Str(p)) => vec![p.to_string()],
                    Some(Value::Tuple(t)) => t
                        .iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect(),
                    _ => {
                        return Err(PyErr::type_error(
                            "startswith first arg must be str or a tuple of str",
                        ))
                    }
                };
                Ok(Value::Bool(pats.iter().any(|p| {
                    if start {
                        s2.starts_with(p.as_str())
                    } else {
                        s2.ends_with(p.as_str())
                    }
                })))
            })
        }
        "find" | "index" | "count" => {
            let which = name.to_string();
            m("str.find", move |_, a| {
                let sub = str_arg(&a, 0, &which)?.unwrap_or_default();
                if which == "count" {
                    return Ok(Value::Int(s2.matches(sub.as_str()).count() as i64));
                }
                match s2.find(sub.as_str()) {
                    Some(i) => Ok(Value::Int(s2[..i].chars().count() as i64)),
                    None if which == "find" => Ok(Value::Int(-1)),
                    None => Err(PyErr::value_error("substring not found")),
                }
            })
        }
        "isdigit" | "isalpha" | "isspace" | "isalnum" | "isupper" | "islower" => {
            let which = name.to_string();
            m("str.isdigit", move |_, _| {
                let nonempty = !s2.is_empty();
                Ok(Value::Bool(
                    nonempty
                        && match which.as_str() {
                            "isdigit" => s2.chars().all(|c| c.is_ascii_digit()),
                            "isalpha" => s2.chars().all(char::is_alphabetic),
                            "isspace" => s2.chars().all(char::is_whitespace),
                            "isalnum" => s2.chars().all(char::is_alphanumeric),
                            "isupper" => {
                                s2.chars().any(char::is_uppercase)
                                    && !s2.chars().any(char::is_lowercase)
                            }
                            _ => {
                                s2.chars().any(char::is_lowercase)
                                    && !s2.chars().any(char::is_uppercase)
                            }
                        },
                ))
            })
        }
        "ljust" | "rjust" | "center" | "zfill" => {
            let which = name.to_string();
            m("str.ljust", move |_, a| {
                let w = a
                    .pos
                    .first()
                    .map(|v| v.as_index())
                    .transpose()?
                    .unwrap_or(0)
                    .max(0) as usize;
                let fill = str_arg(&a, 1, &which)?
                    .and_then(|f| f.chars().next())
                    .unwrap_or(if which == "zfill" { '0' } else { ' ' });
                let n = s2.chars().count();
                if n >= w {
                    return Ok(Value::Str(s2.clone()));
                }
                crate::arrays::alloc::check(w, fill.len_utf8(), "a str")?;
                // bounded: checked by alloc::check above
                let pad = |k: usize| fill.to_string().repeat(k);
                Ok(Value::str(&match which.as_str() {
                    "ljust" => format!("{s2}{}", pad(w - n)),
                    "rjust" | "zfill" => format!("{}{s2}", pad(w - n)),
                    _ => {
                        let left = (w - n) / 2;
                        format!("{}{s2}{}", pad(left), pad(w - n - left))
                    }
                }))
            })
        }
        "format" => m("str.format", move |rt, a| str_format(rt, &s2, &a)),
        _ => None,
    }
}

/// `"{} {name:.2f}".format(...)`.
fn str_format(rt: &mut Runtime, fmt: &str, a: &Args) -> PyResult<Value> {
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

type ListRef = Rc<RefCell<Vec<Value>>>;

fn list_method(l: ListRef, name: &str) -> Option<Value> {
    let l2 = l.clone();
    match name {
        "append" => m("list.append", move |_, a| {
            if !a.kw.is_empty() {
                return Err(PyErr::type_error(
                    "list.append() takes no keyword arguments",
                ));
            }
            let [v] = a.pos.as_slice() else {
                return Err(PyErr::type_error(format!(
                    "list.append() takes exactly one argument ({} given)",
                    a.pos.len()
                )));
            };
            l2.borrow_mut().push(v.clone());
            Ok(Value::None)
        }),
        "extend" => m("list.extend", move |rt, a| {
            let items = ops::iterate(rt, a.pos.first().unwrap_or(&Value::None))?;
            l2.borrow_mut().extend(items);
            Ok(Value::None)
        }),
        "insert" => m("list.insert", move |_, a| {
            let [i, v] = a.pos.as_slice() else {
                return Err(PyErr::type_error("insert expected 2 arguments"));
            };
            let n = l2.borrow().len() as i64;
            let mut i = i.as_index()?;
            if i < 0 {
                i = (i + n).max(0);
            }
            l2.borrow_mut().insert(i.min(n) as usize, v.clone());
            Ok(Value::None)
        }),
        "pop" => m("list.pop", move |_, a| {
            let n = l2.borrow().len();
            if n == 0 {
                return Err(PyErr::index_error("pop from empty list"));
            }
            let i = match a.pos.first() {
                Some(v) => ops::seq_index(v.as_index()?, n, "pop")?,
                None => n - 1,
            };
            Ok(l2.borrow_mut().remove(i))
        }),
        "remove" | "index" | "count" => {
            let which = name.to_string();
            m("list.index", move |rt, a| {
                let x = a.pos.first().cloned().unwrap_or(Value::None);
                let items = l2.borrow().clone();
                let mut count = 0;
                for (i, it) in items.iter().enumerate() {
                    if ops::py_eq(rt, it, &x)? {
                        match which.as_str() {
                            "remove" => {
                                l2.borrow_mut().remove(i);
                                return Ok(Value::None);
                            }
                            "index" => return Ok(Value::Int(i as i64)),
                            _ => count += 1,
                        }
                    }
                }
                match which.as_str() {
                    "count" => Ok(Value::Int(count)),
                    "remove" => Err(PyErr::value_error("list.remove(x): x not in list")),
                    _ => Err(PyErr::value_error(format!(
                        "{} is not in list",
                        crate::interp::repr::repr(rt, &x)?
                    ))),
                }
            })
        }
        "reverse" => m("list.reverse", move |_, _| {
            l2.borrow_mut().reverse();
            Ok(Value::None)
        }),
        "clear" => m("list.clear", move |_, _| {
            l2.borrow_mut().clear();
            Ok(Value::None)
        }),
        "copy" => m("list.copy", move |_, _| {
            Ok(Value::list(l2.borrow().clone()))
        }),
        "sort" => m("list.sort", move |rt, a| {
            let items = l2.borrow().clone();
            let sorted = crate::interp::builtins::sort_values(
                rt,
                items,
                a.kwarg("key"),
                a.kwarg("reverse"),
            )?;
            *l2.borrow_mut() = sorted;
            Ok(Value::None)
        }),
        _ => None,
    }
}

fn tuple_method(t: Rc<[Value]>, name: &str) -> Option<Value> {
    match name {
        "index" | "count" => {
            let which = name.to_string();
            m("tuple.index", move |rt, a| {
                let x = a.pos.first().cloned().unwrap_or(Value::None);
                let mut count = 0;
                for (i, it) in t.iter().enumerate() {
                    if ops::py_eq(rt, it, &x)? {
                        if which == "index" {
                            return Ok(Value::Int(i as i64));
                        }
                        count += 1;
                    }
                }
                if which == "count" {
                    Ok(Value::Int(count))
                } else {
                    Err(PyErr::value_error("tuple.index(x): x not in tuple"))
                }
            })
        }
        _ => None,
    }
}

fn dict_method(d: Rc<RefCell<Dict>>, name: &str) -> Option<Value> {
    let d2 = d.clone();
    match name {
        "keys" => m("dict.keys", move |_, _| Ok(Value::list(d2.borrow().keys()))),
        "values" => m("dict.values", move |_, _| {
            Ok(Value::list(d2.borrow().values()))
        }),
        "items" => m("dict.items", move |_, _| {
            Ok(Value::list(
                d2.borrow()
                    .iter()
                    .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
                    .collect(),
            ))
        }),
        "get" => m("dict.get", move |rt, a| {
            let key = a.pos.first().cloned().unwrap_or(Value::None);
            ops::check_hashable(&key)?;
            Ok(ops::dict_lookup(rt, &d2, &key)?
                .unwrap_or_else(|| a.pos.get(1).cloned().unwrap_or(Value::None)))
        }),
        "pop" => m("dict.pop", move |rt, a| {
            let key = a.pos.first().cloned().unwrap_or(Value::None);
            ops::check_hashable(&key)?;
            if let Some(v) = crate::interp::subscript::dict_remove(rt, &d2, &key)? {
                return Ok(v);
            }
            a.pos.get(1).cloned().ok_or_else(|| {
                PyErr::key_error(crate::interp::repr::repr(rt, &key).unwrap_or_default())
            })
        }),
        "setdefault" => m("dict.setdefault", move |rt, a| {
            let key = a.pos.first().cloned().unwrap_or(Value::None);
            ops::check_hashable(&key)?;
            if let Some(v) = ops::dict_lookup(rt, &d2, &key)? {
                return Ok(v);
            }
            let v = a.pos.get(1).cloned().unwrap_or(Value::None);
            ops::dict_store(rt, &d2, key, v.clone())?;
            Ok(v)
        }),
        "update" => m("dict.update", move |rt, a| {
            let mapping = a
                .pos
                .first()
                .and_then(crate::interp::collections_dicts::dict_of);
            let items = match (mapping, a.pos.first()) {
                (Some(o), _) => o.borrow().items(),
                (None, Some(other)) => {
                    let mut pairs = Vec::new();
                    for item in rt.iterate(other)? {
                        match rt.iterate(&item)?.as_slice() {
                            [k, v] => pairs.push((k.clone(), v.clone())),
                            _ => {
                                return Err(PyErr::value_error(
                                    "dictionary update sequence element has the wrong length; 2 is required",
                                ))
                            }
                        }
                    }
                    pairs
                }
                (None, None) => Vec::new(),
            };
            for (k, v) in items {
                ops::dict_store(rt, &d2, k, v)?;
            }
            for (k, v) in &a.kw {
                ops::dict_store(rt, &d2, Value::Str(k.clone()), v.clone())?;
            }
            Ok(Value::None)
        }),
        "copy" => m("dict.copy", move |_, _| {
            Ok(Value::Dict(Rc::new(RefCell::new(d2.borrow().clone()))))
        }),
        "clear" => m("dict.clear", move |_, _| {
            d2.borrow_mut().clear();
            Ok(Value::None)
        }),
        "popitem" => m("dict.popitem", move |_, _| {
            let last = d2.borrow_mut().pop_last();
            match last {
                Some((k, v)) => Ok(Value::tuple(vec![k, v])),
                None => Err(PyErr::key_error("'popitem(): dictionary is empty'")),
            }
        }),
        _ => None,
    }
}
