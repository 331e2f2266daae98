//! `str % args`, printf-style formatting as CPython does it: `%(key)s` from a mapping,
//! flags `#0- +`, widths and precisions (`*` takes them from the arguments), the
//! conversions `d i u o x X e E f F g G c r s a %`, and CPython's errors for too few or too
//! many arguments, a mapping needed, a number needed and an unknown conversion.
//!
//! Numbers are formatted through the format-spec machinery (`repr::format_value`), which
//! already renders them as CPython does; `%s`, `%r` and `%a` pad and cut the text here.

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

/// Where the values come from.
enum Source<'a> {
    /// A tuple's items (or the one non-tuple value), taken in order.
    Items(&'a [Value], usize),
    /// A mapping (a dict or an object with `__getitem__`): `%(key)` looks each up.
    Mapping(&'a Value),
}

#[derive(Clone, Copy)]
struct Spec {
    alt: bool,
    zero: bool,
    left: bool,
    plus: bool,
    space: bool,
    width: Option<usize>,
    precision: Option<usize>,
}

/// CPython's test: anything subscriptable but a tuple or a str (so a list, formatted
/// whole by `%s`, leaves no argument unconverted).
fn is_mapping(v: &Value) -> bool {
    match v {
        Value::Dict(_) | Value::List(_) | Value::Bytes(_) | Value::Array(_) => true,
        Value::Object(_) => crate::interp::classes::as_instance(v)
            .is_some_and(|i| i.class.find("__getitem__").is_some()),
        _ => false,
    }
}

fn builtin(rt: &mut Runtime, name: &str, v: &Value) -> PyResult<Value> {
    let f = rt
        .state::<crate::interp::expr::InterpState>()
        .builtins
        .get(name)
        .cloned()
        .ok_or_else(|| PyErr::runtime_error(format!("internal: no builtin {name}")))?;
    crate::interp::expr::call_value(rt, &f, Args::new(vec![v.clone()]))
}

/// What an instance's `dunder` (`__int__`, `__index__` or `__float__`) returns, as CPython's
/// `%` converts it; a value whose class lacks it (or whose `__int__` gives no int) is the
/// TypeError `what`, naming its type.
fn by_dunder(rt: &mut Runtime, v: &Value, dunder: &str, what: &str) -> PyResult<Value> {
    let missing = || PyErr::type_error(format!("{what}, not {}", v.type_name()));
    let Some(inst) = crate::interp::classes::as_instance(v) else {
        return Err(missing());
    };
    match inst.call_special(rt, dunder, vec![])? {
        Some(r @ Value::Float(_)) if dunder == "__float__" => Ok(r),
        Some(other) if dunder == "__float__" => Err(PyErr::type_error(format!(
            "{}.__float__ returned non-float (type {})",
            inst.class.name,
            other.type_name()
        ))),
        Some(r @ (Value::Int(_) | Value::BigInt(_))) => Ok(r),
        _ => Err(missing()),
    }
}

pub fn format(rt: &mut Runtime, fmt: &str, args: &Value) -> PyResult<Value> {
    let single = std::slice::from_ref(args);
    let mut src = match args {
        Value::Tuple(t) => Source::Items(t, 0),
        v if is_mapping(v) => Source::Mapping(v),
        _ => Source::Items(single, 0),
    };
    let chars: Vec<(usize, char)> = fmt.char_indices().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let (_, c) = chars[i];
        if c != '%' {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        let mut key_value = None;
        if chars.get(i).map(|c| c.1) == Some('(') {
            let Source::Mapping(m) = &src else {
                return Err(PyErr::type_error("format requires a mapping"));
            };
            // Parentheses nest inside a key, as CPython counts them.
            let mut depth = 1;
            let start = i + 1;
            i += 1;
            while i < chars.len() && depth > 0 {
                match chars[i].1 {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                i += 1;
            }
            if depth > 0 {
                return Err(PyErr::value_error("incomplete format key"));
            }
            let key: String = chars[start..i - 1].iter().map(|c| c.1).collect();
            key_value = Some(crate::interp::subscript::get_item(
                rt,
                m,
                &Value::str(&key),
            )?);
        }
        let mut spec = Spec {
            alt: false,
            zero: false,
            left: false,
            plus: false,
            space: false,
            width: None,
            precision: None,
        };
        while let Some(&(_, f)) = chars.get(i) {
            match f {
                '#' => spec.alt = true,
                '0' => spec.zero = true,
                '-' => spec.left = true,
                '+' => spec.plus = true,
                ' ' => spec.space = true,
                _ => break,
            }
            i += 1;
        }
        spec.width = number(&chars, &mut i, &mut src, true, &mut spec.left)?;
        if chars.get(i).map(|c| c.1) == Some('.') {
            i += 1;
            let mut ignored = false;
            spec.precision =
                Some(number(&chars, &mut i, &mut src, false, &mut ignored)?.unwrap_or(0));
        }
        while matches!(chars.get(i).map(|c| c.1), Some('h' | 'l' | 'L')) {
            i += 1;
        }
        let Some(&(at, conv)) = chars.get(i) else {
            return Err(PyErr::value_error("incomplete format"));
        };
        i += 1;
        if conv == '%' {
            out.push('%');
            continue;
        }
        let v = match key_value {
            Some(v) => v,
            None => next(&mut src)?,
        };
        out.push_str(&convert(rt, conv, at, &v, &spec)?);
    }
    if let Source::Items(items, used) = src {
        if used < items.len() {
            return Err(PyErr::type_error(
                "not all arguments converted during string formatting",
            ));
        }
    }
    Ok(Value::str(&out))
}

fn next(src: &mut Source<'_>) -> PyResult<Value> {
    match src {
        Source::Items(items, used) => {
            let v = items
                .get(*used)
                .cloned()
                .ok_or_else(|| PyErr::type_error("not enough arguments for format string"))?;
            *used += 1;
            Ok(v)
        }
        // CPython formats the mapping itself where a conversion names no key.
        Source::Mapping(m) => Ok((*m).clone()),
    }
}

/// A width or precision: digits, or `*` taking an int argument (a negative width means
/// left-aligned, as CPython reads it).
fn number(
    chars: &[(usize, char)],
    i: &mut usize,
    src: &mut Source<'_>,
    width: bool,
    left: &mut bool,
) -> PyResult<Option<usize>> {
    if chars.get(*i).map(|c| c.1) == Some('*') {
        *i += 1;
        let v = next(src)?;
        let Value::Int(n) = v else {
            return Err(PyErr::type_error("* wants int"));
        };
        if n < 0 && width {
            *left = true;
        }
        return Ok(Some(n.unsigned_abs().min(1 << 30) as usize));
    }
    let start = *i;
    while chars.get(*i).is_some_and(|c| c.1.is_ascii_digit()) {
        *i += 1;
    }
    if *i == start {
        return Ok(None);
    }
    let digits: String = chars[start..*i].iter().map(|c| c.1).collect();
    digits
        .parse::<usize>()
        .ok()
        .filter(|&n| n <= 1 << 30)
        .map(Some)
        .ok_or_else(|| {
            PyErr::value_error(if width {
                "width too big"
            } else {
                "precision too big"
            })
        })
}

fn pad(text: String, spec: &Spec) -> PyResult<String> {
    let n = text.chars().count();
    match spec.width {
        Some(w) if w > n => {
            let fill = crate::arrays::alloc::repeat_str(" ", w - n)?;
            Ok(if spec.left {
                text + &fill
            } else {
                fill + &text
            })
        }
        _ => Ok(text),
    }
}

fn convert(rt: &mut Runtime, conv: char, at: usize, v: &Value, spec: &Spec) -> PyResult<String> {
    let text = match conv {
        's' | 'r' | 'a' => {
            let s = match conv {
                's' => crate::interp::repr::to_str(rt, v)?,
                'r' => crate::interp::repr::repr(rt, v)?,
                _ => builtin(rt, "ascii", v)?
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            };
            let s = match spec.precision {
                Some(p) => s.chars().take(p).collect(),
                None => s,
            };
            return pad(s, spec);
        }
        'c' => {
            let s = match v {
                Value::Str(s) if s.chars().count() == 1 => s.to_string(),
                Value::Int(n) => char::from_u32(u32::try_from(*n).unwrap_or(u32::MAX))
                    .map(String::from)
                    .ok_or_else(|| PyErr::new("OverflowError", "%c arg not in range(0x110000)"))?,
                _ => return Err(PyErr::type_error("%c requires int or char")),
            };
            return pad(s, spec);
        }
        'd' | 'i' | 'u' | 'o' | 'x' | 'X' => {
            let n = match v {
                Value::Int(_) | Value::BigInt(_) => v.clone(),
                Value::Bool(b) => Value::Int(*b as i64),
                Value::Float(_) | Value::Scalar(_) if matches!(conv, 'd' | 'i' | 'u') => {
                    builtin(rt, "int", v)?
                }
                _ if matches!(conv, 'd' | 'i' | 'u') => by_dunder(
                    rt,
                    v,
                    "__int__",
                    &format!("%{conv} format: a real number is required"),
                )?,
                _ => by_dunder(
                    rt,
                    v,
                    "__index__",
                    &format!("%{conv} format: an integer is required"),
                )?,
            };
            let code = match conv {
                'o' => 'o',
                'x' => 'x',
                'X' => 'X',
                _ => 'd',
            };
            let mut digits = crate::interp::repr::format_value(rt, &n, &code.to_string())?;
            let negative = digits.starts_with('-');
            if negative {
                digits.remove(0);
            }
            if let Some(p) = spec.precision {
                let len = digits.chars().count();
                if p > len {
                    digits = crate::arrays::alloc::repeat_str("0", p - len)? + &digits;
                }
            }
            let prefix = match (spec.alt, conv) {
                (true, 'o') => "0o",
                (true, 'x') => "0x",
                (true, 'X') => "0X",
                _ => "",
            };
            sign_pad(negative, prefix, digits, spec)?
        }
        'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
            let x = match v {
                Value::Float(_)
                | Value::Int(_)
                | Value::BigInt(_)
                | Value::Bool(_)
                | Value::Scalar(_) => builtin(rt, "float", v)?,
                _ => by_dunder(rt, v, "__float__", "must be real number")?,
            };
            let p = spec.precision.unwrap_or(6);
            let alt = if spec.alt { "#" } else { "" };
            let mut digits =
                crate::interp::repr::format_value(rt, &x, &format!("{alt}.{p}{conv}"))?;
            let negative = digits.starts_with('-');
            if negative {
                digits.remove(0);
            }
            if conv.is_ascii_uppercase() {
                digits = digits.to_uppercase();
            }
            // CPython pads even inf and nan with zeros here (`'%05f' % -inf` is '-0inf').
            sign_pad(negative, "", digits, spec)?
        }
        _ => {
            return Err(PyErr::value_error(format!(
                "unsupported format character '{conv}' ({:#x}) at index {at}",
                conv as u32
            )))
        }
    };
    Ok(text)
}

/// The sign, the prefix and the digits, padded to the width: zeros go between the
/// prefix and the digits, spaces before the sign (or after, left-aligned).
fn sign_pad(negative: bool, prefix: &str, digits: String, spec: &Spec) -> PyResult<String> {
    let sign = if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    let body = sign.len() + prefix.len() + digits.chars().count();
    match spec.width {
        Some(w) if w > body && spec.zero && !spec.left => Ok(format!(
            "{sign}{prefix}{}{digits}",
            crate::arrays::alloc::repeat_str("0", w - body)?
        )),
        _ => pad(format!("{sign}{prefix}{digits}"), spec),
    }
}
