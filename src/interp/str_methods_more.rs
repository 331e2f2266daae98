//! The rarer `str` methods, kept apart from the table in `str_methods.rs` that lists them:
//! case folding, `encode`, `expandtabs`, the `is…` predicates CPython adds beyond the
//! classic ones, and `translate` with `str.maketrans`.

use crate::interp::subscript::get_item;
use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::ExcClass;
use crate::py::methods::Bound;
use crate::py::runtime::Runtime;
use crate::py::value::{Dict, Value};

/// `str.casefold`: lowercase, with the full folds lowercasing misses (`ß` → `ss`).
pub fn casefold(s: &str) -> Value {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            'ß' | 'ẞ' => out.push_str("ss"),
            'ς' => out.push('σ'),
            _ => out.extend(c.to_lowercase()),
        }
    }
    Value::str(&out)
}

/// `str.encode(encoding='utf-8', errors='strict')`.
pub fn encode(s: &str, b: &Bound) -> PyResult<Value> {
    let encoding = match b.get(0) {
        None => "utf-8".to_string(),
        Some(Value::Str(e)) => e.to_string(),
        Some(v) => {
            return Err(PyErr::type_error(format!(
                "encode() argument 'encoding' must be str, not {}",
                v.type_name()
            )))
        }
    };
    let bytes = crate::interp::bytes::encode(s, &encoding)?;
    Ok(Value::Bytes(bytes.into()))
}

/// `str.expandtabs(tabsize=8)`.
pub fn expandtabs(s: &str, b: &Bound) -> PyResult<Value> {
    let size = b.index(0)?.unwrap_or(8).max(0) as usize;
    Ok(Value::str(&expand_tabs(s, size)?))
}

/// CPython's tab expansion (`str.expandtabs`, `textwrap`): each tab becomes spaces up to
/// the next multiple of `tabsize` columns, counted from the last line break.
pub fn expand_tabs(s: &str, tabsize: usize) -> PyResult<String> {
    let mut out = String::with_capacity(s.len());
    let mut col = 0usize;
    for c in s.chars() {
        match c {
            '\t' if tabsize > 0 => {
                let n = tabsize - col % tabsize;
                crate::arrays::alloc::check(out.len().saturating_add(n), 1, "a str")?;
                out.extend(std::iter::repeat_n(' ', n));
                col += n;
            }
            '\t' => {}
            '\n' | '\r' => {
                out.push(c);
                col = 0;
            }
            _ => {
                out.push(c);
                col += 1;
            }
        }
    }
    Ok(out)
}

/// `str.isidentifier`: a letter or underscore, then letters, digits and underscores.
pub fn isidentifier(s: &str) -> bool {
    let mut cs = s.chars();
    match cs.next() {
        Some(c) if c == '_' || c.is_alphabetic() => cs.all(|c| c == '_' || c.is_alphanumeric()),
        _ => false,
    }
}

/// `str.isprintable`: no control characters and no separators other than the space.
pub fn isprintable(s: &str) -> bool {
    s.chars()
        .all(|c| !c.is_control() && (c == ' ' || !c.is_whitespace()))
}

/// `str.istitle`: uppercase letters only start words, lowercase ones only continue them,
/// and there is at least one cased letter.
pub fn istitle(s: &str) -> bool {
    let mut cased = false;
    let mut prev_cased = false;
    for c in s.chars() {
        if c.is_uppercase() {
            if prev_cased {
                return false;
            }
            prev_cased = true;
            cased = true;
        } else if c.is_lowercase() {
            if !prev_cased {
                return false;
            }
            prev_cased = true;
            cased = true;
        } else {
            prev_cased = false;
        }
    }
    cased
}

/// `str.isdecimal`: decimal digits only (nbcuda knows the ASCII ones and the other
/// scripts' digits that Rust reads as numeric and CPython as decimal).
pub fn isdecimal(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_digit() || (!c.is_ascii() && c.is_numeric() && !is_other_number(c)))
}

/// `str.isdigit`: decimal digits and the digits written raised, lowered or circled.
pub fn isdigit(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| {
            isdecimal(c.encode_utf8(&mut [0; 4]))
                || matches!(c as u32, 0xB2 | 0xB3 | 0xB9 | 0x2070 | 0x2074..=0x2079 | 0x2080..=0x2089 | 0x2460..=0x2468 | 0x2474..=0x247C | 0x2488..=0x2490 | 0x24EA | 0x24F5..=0x24FD | 0x24FF | 0x2776..=0x277E | 0x2780..=0x2788 | 0x278A..=0x2792)
        })
}

/// Numeric characters that are not decimal digits: superscripts, fractions, roman
/// numerals, circled numbers.
fn is_other_number(c: char) -> bool {
    matches!(c as u32, 0xB2 | 0xB3 | 0xB9 | 0xBC..=0xBE | 0x2070..=0x218F | 0x2460..=0x24FF | 0x2776..=0x2793 | 0x3007 | 0x3021..=0x3029)
}

/// `str.translate(table)`: each character's ordinal looked up in table; a str or an
/// ordinal replaces it, None deletes it, a missing key (LookupError) keeps it.
pub fn translate(s: &str, rt: &mut Runtime, b: &Bound) -> PyResult<Value> {
    let table = b.value(0);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let key = Value::Int(c as i64);
        let mapped = match get_item(rt, &table, &key) {
            Ok(v) => Some(v),
            Err(e) if e.is_instance(ExcClass::LookupError) => None,
            Err(e) => return Err(e),
        };
        match &mapped {
            None => out.push(c),
            Some(Value::None) => {}
            Some(Value::Str(r)) => out.push_str(r),
            Some(v @ (Value::Int(_) | Value::Bool(_))) => out.push(ordinal(v.as_index()?)?),
            Some(v) => {
                return Err(PyErr::type_error(format!(
                    "character mapping must return integer, None or str, not {}",
                    v.type_name()
                )))
            }
        }
    }
    Ok(Value::str(&out))
}

fn ordinal(i: i64) -> PyResult<char> {
    u32::try_from(i)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| PyErr::value_error("character mapping must be in range(0x110000)"))
}

/// `str.maketrans(x, y=None, z=None)`: the table `translate` reads.
pub fn maketrans(b: &Bound) -> PyResult<Value> {
    let mut table = Dict::default();
    match (b.get(0), b.get(1)) {
        (Some(Value::Dict(d)), None | Some(Value::None)) => {
            let items = d.borrow().items();
            for (k, v) in items {
                let key = match &k {
                    Value::Str(s) if s.chars().count() == 1 => {
                        Value::Int(s.chars().next().unwrap_or('\0') as i64)
                    }
                    Value::Int(_) => k.clone(),
                    _ => {
                        return Err(PyErr::value_error(
                            "string keys in translate table must be of length 1",
                        ))
                    }
                };
                table.insert_pure(key, v);
            }
        }
        (Some(_), None | Some(Value::None)) => {
            return Err(PyErr::type_error(
                "if you give only one argument to maketrans it must be a dict",
            ))
        }
        (Some(Value::Str(x)), Some(Value::Str(y))) => {
            if x.chars().count() != y.chars().count() {
                return Err(PyErr::value_error(
                    "the first two maketrans arguments must have equal length",
                ));
            }
            for (a, c) in x.chars().zip(y.chars()) {
                table.insert_pure(Value::Int(a as i64), Value::Int(c as i64));
            }
        }
        _ => {
            return Err(PyErr::type_error(
                "maketrans() arguments must be str when two or three are given",
            ))
        }
    }
    match b.get(2) {
        None | Some(Value::None) => {}
        Some(Value::Str(z)) => {
            for c in z.chars() {
                table.insert_pure(Value::Int(c as i64), Value::None);
            }
        }
        Some(v) => {
            return Err(PyErr::type_error(format!(
                "maketrans() argument 3 must be str, not {}",
                v.type_name()
            )))
        }
    }
    Ok(Value::Dict(std::rc::Rc::new(std::cell::RefCell::new(
        table,
    ))))
}
