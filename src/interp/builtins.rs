//! Python's builtins, as far as the subset goes.

use std::collections::HashMap;
use std::rc::Rc;

use crate::interp::objects::{ExceptionType, RangeObj};
use crate::interp::ops;
use crate::interp::repr::{repr, to_str};
use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::BUILTIN_NAMES;
use crate::py::runtime::Runtime;
use crate::py::runtime::StreamName;
use crate::py::value::{Args, Value};

/// `type(v)`.
pub fn type_of(rt: &mut Runtime, v: &Value) -> Value {
    if let Some(i) = crate::interp::classes::as_instance(v) {
        return Value::Object(i.class.clone());
    }
    if let Some(m) = crate::interp::classes::as_class(v).and_then(|c| c.metaclass.clone()) {
        return Value::Object(m);
    }
    let core = match v {
        Value::None => None,
        Value::Bool(_) => Some("bool"),
        Value::Int(_) | Value::BigInt(_) => Some("int"),
        Value::Float(_) => Some("float"),
        Value::Complex(..) => Some("complex"),
        Value::Str(_) => Some("str"),
        Value::Bytes(_) => Some("bytes"),
        Value::List(_) => Some("list"),
        Value::Tuple(_) => Some("tuple"),
        Value::Dict(_) => Some("dict"),
        Value::Set(_) => Some("set"),
        other
            if other
                .downcast::<crate::interp::frozenset::FrozenSet>()
                .is_some() =>
        {
            Some("frozenset")
        }
        other
            if other
                .downcast::<crate::interp::bytearray::ByteArray>()
                .is_some() =>
        {
            Some("bytearray")
        }
        other
            if other
                .downcast::<crate::interp::objects::PlainObject>()
                .is_some() =>
        {
            Some("object")
        }
        _ => None,
    };
    if let Some(name) = core {
        if let Some(b) = rt
            .state::<crate::interp::expr::InterpState>()
            .builtins
            .get(name)
        {
            return b.clone();
        }
    }
    let (module, name) = match v {
        Value::None => ("builtins".to_string(), "NoneType".to_string()),
        Value::Array(_) => ("numpy".into(), "ndarray".into()),
        Value::Scalar(s) => ("numpy".into(), s.dtype().name().to_string()),
        Value::DType(d) => (
            "numpy.dtypes".into(),
            format!("{}DType", capitalize(d.name())),
        ),
        Value::Module(_) => ("builtins".into(), "module".into()),
        Value::Builtin(b) if is_builtin_type(b) => {
            if let Some(t) = rt
                .state::<crate::interp::expr::InterpState>()
                .builtins
                .get("type")
            {
                return t.clone();
            }
            ("builtins".into(), "type".into())
        }
        Value::Builtin(_) => ("builtins".into(), "builtin_function_or_method".into()),
        Value::Object(o) => (o.module_name(), o.type_name()),
        other => ("builtins".into(), other.type_name()),
    };
    let classes = &mut rt.state::<crate::interp::expr::InterpState>().classes;
    let key = (module, name);
    if let Some(c) = classes.get(&key) {
        return c.clone();
    }
    let class = Value::object(crate::py::value::ClassObj {
        module: key.0.clone(),
        name: key.1.clone(),
        ctor: None,
    });
    classes.insert(key, class.clone());
    class
}

/// Whether a builtin is one of the classes among the builtins.
pub fn is_builtin_type(b: &crate::py::value::Builtin) -> bool {
    crate::py::value::BUILTIN_CLASSES.contains(&b.name.as_str())
}

/// `isinstance(v, type)`: v is a class (builtin, defined in a cell, or a library's).
fn is_class(v: &Value) -> bool {
    match v {
        Value::Builtin(b) => is_builtin_type(b),
        Value::Object(o) => o.type_name() == "type" || v.downcast::<ExceptionType>().is_some(),
        _ => false,
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

fn to_int(rt: &mut Runtime, v: &Value, base: Option<i64>) -> PyResult<Value> {
    Ok(Value::Int(match v {
        Value::Int(i) => *i,
        Value::Bool(b) => *b as i64,
        Value::BigInt(_) => return Ok(v.clone()),
        Value::Float(f) => return crate::py::bigint::from_f64(*f),
        Value::Scalar(s) => {
            crate::py::ndarray_attrs::warn_complex_cast(
                rt,
                s.dtype(),
                crate::arrays::dtype::DType::I64,
            )?;
            if s.dtype().is_float() || s.dtype().is_complex() {
                return to_int(rt, &Value::Float(s.as_f64()), None);
            }
            // uint64 past int64 becomes a big int.
            return Ok(match crate::py::value::scalar_to_python(*s) {
                Value::Bool(b) => Value::Int(b as i64),
                v => v,
            });
        }
        Value::Str(s) => {
            let t = s.trim().replace('_', "");
            let b = match base.unwrap_or(10) {
                0 => {
                    // Base 0: the literal's own prefix decides, as in Python source.
                    let digits = t.trim_start_matches(['+', '-']);
                    match digits.get(..2).map(str::to_ascii_lowercase).as_deref() {
                        Some("0x") => 16,
                        Some("0o") => 8,
                        Some("0b") => 2,
                        _ => 10,
                    }
                }
                b @ 2..=36 => b as u32,
                _ => {
                    return Err(PyErr::value_error(
                        "int() base must be >= 2 and <= 36, or 0",
                    ))
                }
            };
            let requested = base.unwrap_or(10);
            // The prefix of bases 2, 8 and 16 may be written (`int('0x1f', 16)`).
            let (sign, digits) = match t.strip_prefix('-') {
                Some(rest) => ("-", rest),
                None => ("", t.strip_prefix('+').unwrap_or(&t)),
            };
            let prefix = match b {
                16 => "0x",
                8 => "0o",
                2 => "0b",
                _ => "",
            };
            let digits = match digits.get(..2) {
                Some(p) if !prefix.is_empty() && p.eq_ignore_ascii_case(prefix) => &digits[2..],
                _ => digits,
            };
            let shown = repr(rt, v).unwrap_or_default();
            let bad = || {
                PyErr::value_error(format!(
                    "invalid literal for int() with base {requested}: {shown}"
                ))
            };
            // from_str_radix would take a second sign (`int('+-1')`); Python does not.
            if digits.starts_with(['+', '-']) {
                return Err(bad());
            }
            return crate::interp::bigint::parse(&format!("{sign}{digits}"), b)?.ok_or_else(bad);
        }
        Value::Array(a) if a.size() == 1 => {
            return to_int(rt, &Value::Float(a.to_f64_vec()[0]), None)
        }
        Value::Object(o) if base.is_none() => {
            // The number protocol: objects such as CuPy scalars and streams define __int__.
            if let Some(m) = o.clone().get_attr("__int__", rt)? {
                let r = rt.call(&m, Args::new(vec![]))?;
                return to_int(rt, &r, None);
            }
            return Err(PyErr::type_error(format!(
                "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                o.type_name()
            )));
        }
        other => {
            return Err(PyErr::type_error(format!(
                "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                other.type_name()
            )))
        }
    }))
}

fn to_float(rt: &mut Runtime, v: &Value) -> PyResult<Value> {
    Ok(Value::Float(match v {
        Value::Str(s) => {
            let t = s.trim().to_lowercase();
            match t.as_str() {
                "nan" | "+nan" | "-nan" => f64::NAN,
                "inf" | "+inf" | "infinity" => f64::INFINITY,
                "-inf" | "-infinity" => f64::NEG_INFINITY,
                _ => t.parse::<f64>().map_err(|_| {
                    PyErr::value_error(format!(
                        "could not convert string to float: {}",
                        repr(rt, v).unwrap_or_default()
                    ))
                })?,
            }
        }
        Value::Array(a) if a.size() == 1 => a.to_f64_vec()[0],
        Value::BigInt(b) => crate::py::bigint::to_f64(b)?,
        Value::Scalar(s) => {
            crate::py::ndarray_attrs::warn_complex_cast(
                rt,
                s.dtype(),
                crate::arrays::dtype::DType::F64,
            )?;
            s.as_f64()
        }
        Value::Object(o) => match o.clone().get_attr("__float__", rt)? {
            Some(m) => {
                let r = rt.call(&m, Args::new(vec![]))?;
                return to_float(rt, &r);
            }
            None => {
                return Err(PyErr::type_error(format!(
                    "float() argument must be a string or a real number, not '{}'",
                    o.type_name()
                )))
            }
        },
        other => other.as_f64().map_err(|_| {
            PyErr::type_error(format!(
                "float() argument must be a string or a real number, not '{}'",
                other.type_name()
            ))
        })?,
    }))
}

fn print_builtin(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let sep = match a.kwarg("sep") {
        Some(Value::Str(s)) => s.to_string(),
        _ => " ".into(),
    };
    let end = match a.kwarg("end") {
        Some(Value::Str(s)) => s.to_string(),
        _ => "\n".into(),
    };
    let parts = a
        .pos
        .iter()
        .map(|v| to_str(rt, v))
        .collect::<PyResult<Vec<_>>>()?;
    if let Some(file) = a
        .kwarg("file")
        .filter(|f| !f.is_none() && f.downcast::<crate::interp::modules::StdStream>().is_none())
    {
        // Any other file object: its write(), called per piece as CPython's print does.
        let write = crate::interp::attrs::get_attr(rt, file, "write")?;
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                rt.call(&write, Args::new(vec![Value::str(&sep)]))?;
            }
            rt.call(&write, Args::new(vec![Value::str(part)]))?;
        }
        rt.call(&write, Args::new(vec![Value::str(&end)]))?;
        return Ok(Value::None);
    }
    let text = format!("{}{}", parts.join(&sep), end);
    let stream = match a.kwarg("file") {
        Some(f) if matches!(f.downcast::<crate::interp::modules::StdStream>(), Some(s) if s.0 == StreamName::Stderr) => {
            StreamName::Stderr
        }
        _ => StreamName::Stdout,
    };
    rt.frontend.stream(stream, &text);
    Ok(Value::None)
}

pub fn isinstance(rt: &mut Runtime, v: &Value, cls: &Value) -> PyResult<bool> {
    if let Value::Tuple(t) = cls {
        for c in t.iter() {
            if isinstance(rt, v, c)? {
                return Ok(true);
            }
        }
        return Ok(false);
    }
    if let Some(r) = crate::interp::metaclasses::type_check(rt, cls, "__instancecheck__", v)? {
        return Ok(r);
    }
    if let Value::Builtin(b) = cls {
        return Ok(match b.name.as_str() {
            "int" => matches!(v, Value::Int(_) | Value::Bool(_) | Value::BigInt(_)),
            "float" => {
                matches!(v, Value::Float(_))
                    || matches!(v, Value::Scalar(s) if s.dtype() == crate::arrays::dtype::DType::F64)
            }
            "bool" => matches!(v, Value::Bool(_)),
            "complex" => matches!(v, Value::Complex(..)),
            "str" => matches!(v, Value::Str(_)),
            "bytes" => matches!(v, Value::Bytes(_)),
            "list" => matches!(v, Value::List(_)),
            "tuple" => {
                matches!(v, Value::Tuple(_))
                    || v.downcast::<crate::interp::collections_module::NamedTuple>()
                        .is_some()
                    // A typing.NamedTuple class acts as its tuple of values.
                    || crate::interp::classes::as_instance(v).is_some_and(|i| {
                        i.class
                            .mro
                            .iter()
                            .any(|c| c.module == "typing" && c.name == "NamedTuple")
                    })
            }
            "dict" => matches!(v, Value::Dict(_)),
            "set" => matches!(v, Value::Set(_)),
            "frozenset" => v
                .downcast::<crate::interp::frozenset::FrozenSet>()
                .is_some(),
            "bytearray" => v
                .downcast::<crate::interp::bytearray::ByteArray>()
                .is_some(),
            "type" => is_class(v),
            "object" => true,
            _ => false,
        });
    }
    if let Some(r) = crate::interp::class_tools::isinstance(v, cls) {
        return Ok(r);
    }
    if let Some(e) = cls.downcast::<ExceptionType>() {
        return Ok(v
            .downcast::<crate::interp::objects::ExceptionValue>()
            .is_some_and(|x| crate::py::exceptions::name_is_subclass(&x.err.ename, &e.name)));
    }
    let cls_name = match &crate::interp::attrs::get_attr(rt, cls, "__name__") {
        Ok(Value::Str(s)) => s.to_string(),
        _ => {
            return Err(PyErr::type_error(
                "isinstance() arg 2 must be a type, a tuple of types, or a union",
            ))
        }
    };
    let t = type_of(rt, v);
    let vname = match &crate::interp::attrs::get_attr(rt, &t, "__name__") {
        Ok(Value::Str(s)) => s.to_string(),
        _ => v.type_name(),
    };
    // Same-named classes of different modules (`cupy.ndarray`, `numpy.ndarray`) differ.
    let module = |rt: &mut Runtime, c: &Value| {
        let m = crate::interp::attrs::get_attr(rt, c, "__module__");
        match &m {
            Ok(Value::Str(s)) => Some(s.to_string()),
            _ => None,
        }
    };
    if let (Some(a), Some(b)) = (module(rt, &t), module(rt, cls)) {
        if a != b {
            return Ok(false);
        }
    }
    Ok(vname == cls_name || v.type_name() == cls_name)
}

pub use crate::interp::builtins_iter::sort_values;

/// Build the builtins table.
pub fn builtins() -> HashMap<String, Value> {
    let mut b: HashMap<String, Value> = HashMap::new();
    let mut f =
        |name: &str, sig: &str, doc: &str, func: fn(&mut Runtime, Args) -> PyResult<Value>| {
            b.insert(name.to_string(), Value::builtin(name, sig, doc, func));
        };
    f("print", "print(*values, sep=' ', end='\\n', file=sys.stdout)", "Write the values to the cell's stdout (or stderr with file=sys.stderr), separated by sep and followed by end.", print_builtin);
    f(
        "len",
        "len(obj, /)",
        "The number of items in a container; for arrays the length of the first axis.",
        |rt, a| {
            let [v] = a.pos.as_slice() else {
                return Err(PyErr::type_error(format!(
                    "len() takes exactly one argument ({} given)",
                    a.pos.len()
                )));
            };
            Ok(Value::Int(ops::len(rt, v)? as i64))
        },
    );
    f(
        "range",
        "range(stop) / range(start, stop[, step])",
        "An immutable sequence of integers, iterated lazily by for loops.",
        |_, a| {
            let ints = a
                .pos
                .iter()
                .map(|v| v.as_index())
                .collect::<PyResult<Vec<_>>>()?;
            let (start, stop, step) = match ints.as_slice() {
                [s] => (0, *s, 1),
                [a, b] => (*a, *b, 1),
                [a, b, c] => (*a, *b, *c),
                _ => {
                    return Err(PyErr::type_error(format!(
                        "range expected at most 3 arguments, got {}",
                        ints.len()
                    )))
                }
            };
            if step == 0 {
                return Err(PyErr::value_error("range() arg 3 must not be zero"));
            }
            Ok(Value::object(RangeObj { start, stop, step }))
        },
    );
    f(
        "int",
        "int(x=0, base=10)",
        "Convert a number or string to an integer (truncating floats toward zero).",
        |rt, a| match a.pos.first() {
            None => Ok(Value::Int(0)),
            Some(v) => {
                let base = a
                    .pos
                    .get(1)
                    .or(a.kwarg("base"))
                    .map(|b| b.as_index())
                    .transpose()?;
                to_int(rt, v, base)
            }
        },
    );
    f(
        "float",
        "float(x=0.0)",
        "Convert a number or string to a floating-point number.",
        |rt, a| match a.pos.first() {
            None => Ok(Value::Float(0.0)),
            Some(v) => to_float(rt, v),
        },
    );
    f(
        "complex",
        "complex(real=0, imag=0)",
        "A complex number from a real and an imaginary part, or from a string ('1+2j').",
        |_, a| crate::interp::complex::construct(&a),
    );
    f(
        "str",
        "str(object='')",
        "The string form of an object (what print shows).",
        |rt, a| match a.pos.first() {
            None => Ok(Value::str("")),
            Some(v) => Ok(Value::str(&to_str(rt, v)?)),
        },
    );
    f(
        "bool",
        "bool(x=False)",
        "The truth value of x.",
        |rt, a| match a.pos.first() {
            None => Ok(Value::Bool(false)),
            Some(v) => Ok(Value::Bool(ops::truthy(rt, v)?)),
        },
    );
    f(
        "repr",
        "repr(obj, /)",
        "The printable representation of an object.",
        |rt, a| {
            Ok(Value::str(&repr(
                rt,
                a.pos.first().unwrap_or(&Value::None),
            )?))
        },
    );
    f(
        "abs",
        "abs(x, /)",
        "The absolute value of a number (elementwise for arrays).",
        |rt, a| {
            let v = a.pos.first().cloned().unwrap_or(Value::None);
            if let Some(inst) = crate::interp::classes::as_instance(&v) {
                if inst.class.find("__abs__").is_some() {
                    return Ok(inst
                        .call_special(rt, "__abs__", vec![])?
                        .unwrap_or(Value::None));
                }
            }
            match &v {
                Value::Int(_) | Value::BigInt(_) => {
                    crate::interp::bigint::abs(&v).ok_or_else(|| PyErr::internal("abs of an int"))
                }
                Value::Bool(b) => Ok(Value::Int(*b as i64)),
                Value::Float(x) => Ok(Value::Float(x.abs())),
                Value::Complex(re, im) => crate::interp::complex::abs(*re, *im),
                Value::Str(_)
                | Value::Bytes(_)
                | Value::None
                | Value::List(_)
                | Value::Tuple(_)
                | Value::Dict(_)
                | Value::Set(_) => Err(PyErr::type_error(format!(
                    "bad operand type for abs(): '{}'",
                    v.type_name()
                ))),
                _ => {
                    let np = crate::interp::modules::import(rt, "numpy")?;
                    match np.get("abs") {
                        Some(absf) => rt.call(&absf, Args::new(vec![v])),
                        None => Err(PyErr::type_error(format!(
                            "bad operand type for abs(): '{}'",
                            v.type_name()
                        ))),
                    }
                }
            }
        },
    );
    f("divmod", "divmod(a, b, /)", "(a // b, a % b).", |rt, a| {
        let [x, y] = a.pos.as_slice() else {
            return Err(PyErr::type_error("divmod expected 2 arguments"));
        };
        Ok(Value::tuple(vec![
            ops::binary(rt, crate::arrays::operator::BinOp::FloorDiv, x, y)?,
            ops::binary(rt, crate::arrays::operator::BinOp::Mod, x, y)?,
        ]))
    });
    f(
        "pow",
        "pow(base, exp, mod=None)",
        "base ** exp.",
        |rt, a| {
            let [x, y] = &a.pos[..2.min(a.pos.len())] else {
                return Err(PyErr::type_error("pow expected 2 arguments"));
            };
            match a.pos.get(2).or(a.kwarg("mod")) {
                Some(m) if !m.is_none() => crate::interp::bigint::pow_mod(x, y, m),
                _ => ops::binary(rt, crate::arrays::operator::BinOp::Pow, x, y),
            }
        },
    );
    f(
        "type",
        "type(object)",
        "The class of an object.",
        |rt, a| Ok(type_of(rt, a.pos.first().unwrap_or(&Value::None))),
    );
    f(
        "isinstance",
        "isinstance(obj, class_or_tuple, /)",
        "Whether obj is an instance of the class (or of any class in the tuple).",
        |rt, a| {
            let [v, c] = a.pos.as_slice() else {
                return Err(PyErr::type_error("isinstance expected 2 arguments"));
            };
            Ok(Value::Bool(isinstance(rt, v, c)?))
        },
    );
    f(
        "callable",
        "callable(obj, /)",
        "Whether the object can be called.",
        |_, a| {
            Ok(Value::Bool(match a.pos.first() {
                Some(v @ Value::Object(_)) => match crate::interp::classes::as_instance(v) {
                    // An instance is callable when its class defines __call__.
                    Some(i) => i.class.find("__call__").is_some(),
                    None => !matches!(v.type_name().as_str(), "generator" | "code"),
                },
                Some(Value::Builtin(_)) => true,
                _ => false,
            }))
        },
    );
    f(
        "id",
        "id(obj, /)",
        "A number identifying the object for its lifetime.",
        |_, a| {
            Ok(Value::Int(match a.pos.first() {
                Some(Value::Object(o)) => Rc::as_ptr(o) as *const u8 as usize as i64,
                Some(Value::List(l)) => Rc::as_ptr(l) as usize as i64,
                Some(Value::Dict(d)) => Rc::as_ptr(d) as usize as i64,
                _ => 0,
            }))
        },
    );
    f(
        "input",
        "input(prompt='', /)",
        "Ask the user for a line of text (through the frontend's stdin).",
        |rt, a| {
            let prompt = match a.pos.first() {
                Some(v) => to_str(rt, v)?,
                None => String::new(),
            };
            rt.frontend
                .input(&prompt, false)
                .map(|s| Value::str(&s))
                .map_err(|e| {
                    PyErr::new(
                        "StdinNotImplementedError",
                        format!("input() is not available here: {e}"),
                    )
                })
        },
    );
    f(
        "chr",
        "chr(i, /)",
        "The one-character string for a Unicode code point.",
        |_, a| {
            let i = a.pos.first().unwrap_or(&Value::None).as_index()?;
            char::from_u32(i as u32)
                .map(|c| Value::str(&c.to_string()))
                .ok_or_else(|| PyErr::value_error("chr() arg not in range(0x110000)"))
        },
    );
    f(
        "ord",
        "ord(c, /)",
        "The Unicode code point of a one-character string.",
        |_, a| match a.pos.first() {
            Some(Value::Str(s)) if s.chars().count() == 1 => {
                Ok(Value::Int(s.chars().next().unwrap_or('\0') as i64))
            }
            _ => Err(PyErr::type_error("ord() expected a character")),
        },
    );
    f(
        "vars",
        "vars(object, /)",
        "The object's __dict__.",
        |rt, a| match a.pos.first() {
            Some(v) => crate::interp::attrs::get_attr(rt, v, "__dict__")
                .map_err(|_| PyErr::type_error("vars() argument must have __dict__ attribute")),
            None => Err(PyErr::type_error(
                "vars() without an argument is not supported in nbcuda",
            )),
        },
    );
    f(
        "dir",
        "dir(obj)",
        "The attribute names of an object.",
        |rt, a| {
            let names = match a.pos.first() {
                Some(v) => crate::interp::attrs::dir(v),
                None => {
                    let _ = rt;
                    vec![]
                }
            };
            Ok(Value::list(names.iter().map(|s| Value::str(s)).collect()))
        },
    );
    f(
        "slice",
        "slice(start, stop[, step])",
        "A slice object.",
        |_, a| {
            let g = |v: Option<&Value>| -> PyResult<Option<i64>> {
                v.filter(|v| !v.is_none()).map(|v| v.as_index()).transpose()
            };
            let (start, stop, step) = match a.pos.len() {
                1 => (None, g(a.pos.first())?, None),
                _ => (g(a.pos.first())?, g(a.pos.get(1))?, g(a.pos.get(2))?),
            };
            Ok(Value::Slice(Rc::new(crate::arrays::index::SliceValue {
                start,
                stop,
                step,
            })))
        },
    );
    f(
        "display",
        "display(*objs, display_id=None)",
        "Show objects as rich output (IPython's display).",
        crate::interp::ipython::display_builtin,
    );
    f(
        "hash",
        "hash(obj, /)",
        "A hash of an immutable value.",
        |rt, a| {
            let v = a.pos.first().cloned().unwrap_or(Value::None);
            if let Some(inst) = crate::interp::classes::as_instance(&v) {
                return crate::interp::classes::hash_instance(rt, &inst);
            }
            // The hash dicts and sets file the value under (an object-bearing tuple's
            // items by their `__hash__`); values they cannot hash (native objects) by repr.
            if let Some(h) = crate::interp::subscript::key_hash(rt, &v)? {
                return Ok(Value::Int(h as i64));
            }
            let s = repr(rt, &v)?;
            Ok(Value::Int(
                s.bytes().fold(1469598103934665603u64, |h, c| {
                    (h ^ c as u64).wrapping_mul(1099511628211)
                }) as i64
                    >> 1,
            ))
        },
    );
    crate::interp::builtins_format::register(&mut b);
    crate::interp::builtins_attrs::register(&mut b);
    crate::interp::bytes::register(&mut b);
    crate::interp::builtins_iter::register(&mut b);
    crate::interp::dynamic::register(&mut b);
    b.insert(
        "object".into(),
        Value::builtin(
            "object",
            "object()",
            "The base class of the class hierarchy.",
            crate::interp::objects::new_object,
        ),
    );
    crate::interp::class_tools::register(&mut b);
    b.insert(
        "frozenset".into(),
        Value::builtin(
            "frozenset",
            "frozenset(iterable=(), /)",
            "Build an immutable unordered collection of unique elements.",
            crate::interp::frozenset::construct,
        ),
    );
    crate::interp::shell_magics::register(&mut b);
    crate::interp::files::register(&mut b);
    b.insert("Ellipsis".into(), Value::Ellipsis);
    for class in BUILTIN_NAMES {
        b.insert(
            class.name().to_string(),
            Value::object(ExceptionType {
                name: class.name().to_string(),
            }),
        );
    }
    b
}
