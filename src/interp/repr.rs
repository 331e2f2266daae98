//! `repr()`, `str()`, IPython's pretty printing of results, float formatting and the format
//! specification mini-language, as CPython and IPython print them.

use std::rc::Rc;

use crate::arrays::format::float_repr;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs;
use crate::py::runtime::Runtime;
use crate::py::value::Value;

pub fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2); // bounded: an existing str
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !printable(c) => {
                let n = c as u32;
                out.push_str(&if n <= 0xff {
                    format!("\\x{n:02x}")
                } else if n <= 0xffff {
                    format!("\\u{n:04x}")
                } else {
                    format!("\\U{n:08x}")
                })
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Whether `repr` shows `c` as itself, as CPython's `str.isprintable` decides: not the
/// controls, separators other than the space, format characters and private-use ones.
/// Most unassigned code points (which need Unicode's tables) show as themselves here.
fn printable(c: char) -> bool {
    !matches!(c as u32,
        0..=0x1f | 0x7f..=0xa0 | 0xad | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x1680
        | 0x180e | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x206f | 0x3000
        | 0xe000..=0xf8ff | 0xfeff | 0xfff0..=0xfffb | 0xfffe..=0xffff | 0x110bd | 0x110cd
        | 0x1d173..=0x1d17a | 0xe0000..=0xe007f | 0xf0000..)
}

/// `repr(v)`.
pub fn repr(rt: &mut Runtime, v: &Value) -> PyResult<String> {
    // CPython's Py_ReprEnter: a container met again inside its own repr prints as `[...]`
    // or `{...}`, and nesting deeper than the recursion limit raises RecursionError.
    let key = match v {
        Value::List(l) => Some(Rc::as_ptr(l) as *const () as usize),
        Value::Dict(d) => Some(Rc::as_ptr(d) as *const () as usize),
        Value::Set(s) => Some(Rc::as_ptr(s) as *const () as usize),
        Value::Tuple(_) => None,
        _ => return repr_inner(rt, v),
    };
    let active = &mut rt.state::<ReprGuard>().active;
    if let Some(k) = key {
        if active.contains(&k) {
            return Ok(if matches!(v, Value::List(_)) {
                "[...]"
            } else {
                "{...}"
            }
            .into());
        }
    }
    if active.len() >= REPR_DEPTH_LIMIT {
        return Err(PyErr::new(
            "RecursionError",
            "maximum recursion depth exceeded while getting the repr of an object",
        ));
    }
    active.push(key.unwrap_or(0));
    let r = repr_inner(rt, v);
    rt.state::<ReprGuard>().active.pop();
    r
}

/// CPython's default recursion limit, which bounds how deeply nested a repr can be.
const REPR_DEPTH_LIMIT: usize = 1000;

/// The containers whose repr is being built, innermost last (0 for a tuple).
#[derive(Default)]
struct ReprGuard {
    active: Vec<usize>,
}

/// How many items a container's repr formats between interrupt checks: a list of tens of
/// millions takes seconds, and an interrupt must end it within one.
const INTERRUPT_EVERY: usize = 1 << 16;

/// The reprs of a container's items.
fn reprs(rt: &mut Runtime, items: &[Value]) -> PyResult<Vec<String>> {
    let mut out = Vec::with_capacity(items.len()); // bounded: one per existing item
    for (i, x) in items.iter().enumerate() {
        if i % INTERRUPT_EVERY == INTERRUPT_EVERY - 1 {
            rt.check_interrupt()?;
        }
        out.push(repr(rt, x)?);
    }
    Ok(out)
}

fn repr_inner(rt: &mut Runtime, v: &Value) -> PyResult<String> {
    Ok(match v {
        Value::None => "None".into(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Int(i) => i.to_string(),
        Value::BigInt(b) => crate::py::bigint::to_decimal(b)?,
        Value::Float(f) => float_repr(*f),
        Value::Complex(re, im) => crate::interp::complex::repr(*re, *im),
        Value::Str(s) => str_repr(s),
        Value::Bytes(b) => {
            let mut s = String::from("b'");
            for &c in b.iter() {
                match c {
                    b'\\' => s.push_str("\\\\"),
                    b'\'' => s.push_str("\\'"),
                    b'\n' => s.push_str("\\n"),
                    b'\r' => s.push_str("\\r"),
                    b'\t' => s.push_str("\\t"),
                    0x20..=0x7e => s.push(c as char),
                    _ => s.push_str(&format!("\\x{c:02x}")),
                }
            }
            s.push('\'');
            s
        }
        Value::Tuple(items) => {
            let parts = reprs(rt, items)?;
            if parts.len() == 1 {
                format!("({},)", parts[0])
            } else {
                format!("({})", parts.join(", "))
            }
        }
        Value::List(items) => {
            let items = items.borrow().clone();
            format!("[{}]", reprs(rt, &items)?.join(", "))
        }
        Value::Set(items) => {
            let items = items.borrow().keys();
            if items.is_empty() {
                "set()".into()
            } else {
                format!("{{{}}}", reprs(rt, &items)?.join(", "))
            }
        }
        Value::Dict(d) => {
            let entries = d.borrow().items();
            let mut parts = Vec::new();
            for (i, (k, v)) in entries.iter().enumerate() {
                if i % INTERRUPT_EVERY == INTERRUPT_EVERY - 1 {
                    rt.check_interrupt()?;
                }
                parts.push(format!("{}: {}", repr(rt, k)?, repr(rt, v)?));
            }
            format!("{{{}}}", parts.join(", "))
        }
        Value::Slice(s) => {
            let f = |x: Option<i64>| x.map(|v| v.to_string()).unwrap_or_else(|| "None".into());
            format!("slice({}, {}, {})", f(s.start), f(s.stop), f(s.step))
        }
        Value::Ellipsis => "Ellipsis".into(),
        Value::Array(a) => ndarray_attrs::array_repr(a),
        Value::Scalar(s) => ndarray_attrs::scalar_repr(s),
        Value::DType(d) => format!("dtype('{}')", d.name()),
        Value::Module(m) => format!("<module '{}'>", m.name),
        Value::Builtin(b) => {
            if is_type_builtin(&b.name) {
                format!("<class '{}'>", b.name)
            } else {
                format!(
                    "<built-in function {}>",
                    b.name.rsplit('.').next().unwrap_or(&b.name)
                )
            }
        }
        Value::Object(o) => o.clone().repr(rt)?,
    })
}

/// Builtins that are classes in Python (`int`, `float`, ...): their repr is `<class 'int'>`.
pub fn is_type_builtin(name: &str) -> bool {
    matches!(
        name,
        "int"
            | "float"
            | "complex"
            | "str"
            | "bool"
            | "list"
            | "tuple"
            | "dict"
            | "set"
            | "frozenset"
            | "bytes"
            | "bytearray"
            | "range"
            | "type"
            | "object"
            | "slice"
    )
}

/// `str(v)`.
pub fn to_str(rt: &mut Runtime, v: &Value) -> PyResult<String> {
    Ok(match v {
        Value::Str(s) => s.to_string(),
        Value::Array(a) => ndarray_attrs::array_str(a),
        Value::Scalar(s) => ndarray_attrs::scalar_str(s),
        Value::DType(d) => d.name().to_string(),
        Value::Object(o) => o.clone().str(rt)?,
        other => repr(rt, other)?,
    })
}

/// IPython's pretty printer for results: like repr, but containers that do not fit in 79
/// columns are broken after each item, with nested indentation.
pub fn pretty(rt: &mut Runtime, v: &Value) -> PyResult<String> {
    pretty_at(rt, v, 0)
}

fn pretty_at(rt: &mut Runtime, v: &Value, indent: usize) -> PyResult<String> {
    let flat = repr(rt, v)?;
    if flat.len() + indent <= 79 || flat.contains('\n') {
        return Ok(flat);
    }
    let (open, close, items): (&str, &str, Vec<String>) = match v {
        Value::List(items) => {
            let items = items.borrow().clone();
            ("[", "]", pretty_items(rt, &items, indent + 1)?)
        }
        Value::Tuple(items) => {
            let mut parts = pretty_items(rt, items, indent + 1)?;
            if parts.len() == 1 {
                parts[0].push(',');
            }
            ("(", ")", parts)
        }
        Value::Dict(d) => {
            let entries = d.borrow().items();
            let mut parts = Vec::new();
            for (k, val) in &entries {
                let ks = repr(rt, k)?;
                let vs = pretty_at(rt, val, indent + 1 + ks.len() + 2)?;
                parts.push(format!("{ks}: {vs}"));
            }
            ("{", "}", parts)
        }
        _ => return Ok(flat),
    };
    let sep = format!(",\n{}", " ".repeat(indent + 1)); // bounded: widths of reprs built
    Ok(format!("{open}{}{close}", items.join(&sep)))
}

fn pretty_items(rt: &mut Runtime, items: &[Value], indent: usize) -> PyResult<Vec<String>> {
    items.iter().map(|x| pretty_at(rt, x, indent)).collect()
}

/// Apply a format spec (`format(value, spec)`, f-string `{x:spec}`).
pub fn format_value(rt: &mut Runtime, v: &Value, spec: &str) -> PyResult<String> {
    if let Some(inst) = crate::interp::classes::as_instance(v) {
        if let Some(r) = inst.call_special(rt, "__format__", vec![Value::str(spec)])? {
            return match &r {
                Value::Str(s) => Ok(s.to_string()),
                other => Err(PyErr::type_error(format!(
                    "__format__ must return a str, not {}",
                    other.type_name()
                ))),
            };
        }
    }
    if spec.is_empty() {
        return to_str(rt, v);
    }
    let spec_parsed = parse_spec(spec)?;
    let body = match spec_parsed.ty {
        // A complex formats each part with the float spec; the imaginary one always
        // carries its sign (`'1.00+2.00j'`).
        Some(ty @ ('f' | 'F' | 'e' | 'E' | 'g' | 'G')) if matches!(v, Value::Complex(..)) => {
            let Value::Complex(re, im) = v else {
                return Err(PyErr::internal("complex format of a non-complex"));
            };
            let p = |x: f64, sign: Option<char>| {
                format_float(
                    x,
                    Some(ty),
                    spec_parsed.precision,
                    spec_parsed.grouping,
                    sign,
                    spec_parsed.alt,
                )
            };
            format!("{}{}j", p(*re, spec_parsed.sign), p(*im, Some('+')))
        }
        // A precision cuts a string to that many characters (`f'{s:.2}'`).
        Some('s') | None if matches!(v, Value::Str(_)) => {
            let s = to_str(rt, v)?;
            match spec_parsed.precision {
                Some(p) => s.chars().take(p).collect(),
                None => s,
            }
        }
        Some('s') => to_str(rt, v)?,
        ty => {
            let is_int = matches!(v, Value::Int(_) | Value::Bool(_) | Value::BigInt(_))
                || matches!(v, Value::Scalar(s) if !s.dtype().is_float());
            let digits = |radix: u32, upper: bool| -> PyResult<String> {
                let n = match v {
                    Value::Scalar(s) => Value::Int(s.as_i64()),
                    other => other.clone(),
                };
                crate::interp::bigint::to_radix(&n, radix, upper)
            };
            let signed = |radix: u32, upper: bool| -> PyResult<String> {
                let d = digits(radix, upper)?;
                let (neg, mag) = match d.strip_prefix('-') {
                    Some(m) => (true, m.to_string()),
                    None => (false, d),
                };
                let body = match (radix, spec_parsed.grouping) {
                    (10, g) => group(&mag, g, neg, spec_parsed.sign),
                    // Other bases group by four, and only with '_'.
                    (_, Some('_')) => {
                        let mut grouped = String::new();
                        for (i, c) in mag.chars().enumerate() {
                            if i > 0 && (mag.len() - i).is_multiple_of(4) {
                                grouped.push('_');
                            }
                            grouped.push(c);
                        }
                        group(&grouped, None, neg, spec_parsed.sign)
                    }
                    (_, Some(g)) => {
                        return Err(PyErr::value_error(format!(
                            "Cannot specify '{g}' with '{}'.",
                            spec_parsed.ty.unwrap_or('d')
                        )))
                    }
                    (_, None) => group(&mag, None, neg, spec_parsed.sign),
                };
                // `#` puts the base's prefix between the sign and the digits (`-0xff`).
                let prefix = match (spec_parsed.alt, radix) {
                    (true, 16) if upper => "0X",
                    (true, 16) => "0x",
                    (true, 8) => "0o",
                    (true, 2) => "0b",
                    _ => return Ok(body),
                };
                let at = body.len() - body.trim_start_matches(['-', '+', ' ']).len();
                Ok(format!("{}{prefix}{}", &body[..at], &body[at..]))
            };
            match (ty, is_int) {
                (Some('d'), true) | (None, true) | (Some('n'), true) => signed(10, false)?,
                (Some('x'), true) => signed(16, false)?,
                (Some('X'), true) => signed(16, true)?,
                (Some('b'), true) => signed(2, false)?,
                (Some('o'), true) => signed(8, false)?,
                (Some('c'), true) => char::from_u32(v.as_index()? as u32)
                    .map(String::from)
                    .unwrap_or_default(),
                (Some('d'), false) => {
                    return Err(PyErr::value_error(format!(
                        "Unknown format code 'd' for object of type '{}'",
                        v.type_name()
                    )))
                }
                (ty, _) => {
                    let x = v.as_f64().map_err(|_| {
                        PyErr::type_error(format!(
                            "unsupported format string passed to {}.__format__",
                            v.type_name()
                        ))
                    })?;
                    format_float(
                        x,
                        ty,
                        spec_parsed.precision,
                        spec_parsed.grouping,
                        spec_parsed.sign,
                        spec_parsed.alt,
                    )
                }
            }
        }
    };
    Ok(pad(&body, &spec_parsed, matches!(v, Value::Str(_))))
}

struct Spec {
    fill: char,
    align: Option<char>,
    sign: Option<char>,
    alt: bool,
    zero: bool,
    width: usize,
    grouping: Option<char>,
    precision: Option<usize>,
    ty: Option<char>,
}

fn parse_spec(spec: &str) -> PyResult<Spec> {
    let chars: Vec<char> = spec.chars().collect();
    let mut i = 0;
    let mut s = Spec {
        fill: ' ',
        align: None,
        sign: None,
        alt: false,
        zero: false,
        width: 0,
        grouping: None,
        precision: None,
        ty: None,
    };
    let is_align = |c: char| matches!(c, '<' | '>' | '^' | '=');
    if chars.len() >= 2 && is_align(chars[1]) {
        s.fill = chars[0];
        s.align = Some(chars[1]);
        i = 2;
    } else if !chars.is_empty() && is_align(chars[0]) {
        s.align = Some(chars[0]);
        i = 1;
    }
    if i < chars.len() && matches!(chars[i], '+' | '-' | ' ') {
        s.sign = Some(chars[i]);
        i += 1;
    }
    if i < chars.len() && chars[i] == '#' {
        s.alt = true;
        i += 1;
    }
    if i < chars.len() && chars[i] == '0' {
        s.zero = true;
        i += 1;
    }
    let start = i;
    while i < chars.len() && chars[i].is_ascii_digit() {
        i += 1;
    }
    // Widths and precisions past what memory holds are MemoryError (a huge one aborted
    // the process in the string allocation before); unparseable ones are CPython's error.
    let number = |digits: &[char]| -> PyResult<usize> {
        let n = digits
            .iter()
            .collect::<String>()
            .parse::<usize>()
            .map_err(|_| PyErr::value_error("Too many decimal digits in format string"))?;
        crate::arrays::alloc::check(n, 4, "a str")?;
        Ok(n)
    };
    if i > start {
        s.width = number(&chars[start..i])?;
    }
    if i < chars.len() && matches!(chars[i], ',' | '_') {
        s.grouping = Some(chars[i]);
        i += 1;
    }
    if i < chars.len() && chars[i] == '.' {
        i += 1;
        let st = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        s.precision = Some(number(&chars[st..i])?);
    }
    if i < chars.len() {
        s.ty = Some(chars[i]);
        i += 1;
    }
    if i != chars.len() {
        return Err(PyErr::value_error(format!(
            "Invalid format specifier '{spec}'"
        )));
    }
    Ok(s)
}

fn group(digits: &str, grouping: Option<char>, neg: bool, sign: Option<char>) -> String {
    let body = match grouping {
        Some(g) => {
            let mut out = String::new();
            for (i, c) in digits.chars().enumerate() {
                if i > 0 && (digits.len() - i).is_multiple_of(3) {
                    out.push(g);
                }
                out.push(c);
            }
            out
        }
        None => digits.to_string(),
    };
    let sign = if neg {
        "-"
    } else {
        match sign {
            Some('+') => "+",
            Some(' ') => " ",
            _ => "",
        }
    };
    format!("{sign}{body}")
}

/// Format a float per the mini-language (`f`, `e`, `g`, `%`, and the default `None`).
pub fn format_float(
    x: f64,
    ty: Option<char>,
    precision: Option<usize>,
    grouping: Option<char>,
    sign: Option<char>,
    alt: bool,
) -> String {
    let neg = x.is_sign_negative() && !x.is_nan();
    let a = x.abs();
    let upper = matches!(ty, Some('F' | 'E' | 'G'));
    let body = if !a.is_finite() {
        match (a.is_nan(), upper) {
            (true, false) => "nan".into(),
            (true, true) => "NAN".into(),
            (false, false) => "inf".into(),
            (false, true) => "INF".into(),
        }
    } else {
        match ty {
            Some('f') | Some('F') => fixed_grouped(a, precision.unwrap_or(6), grouping),
            Some('%') => format!(
                "{}%",
                fixed_grouped(a * 100.0, precision.unwrap_or(6), grouping)
            ),
            Some('e') | Some('E') => {
                let s = sci(a, precision.unwrap_or(6));
                if ty == Some('E') {
                    s.to_uppercase()
                } else {
                    s
                }
            }
            Some('g') | Some('n') => general(a, precision.unwrap_or(6).max(1), alt),
            Some('G') => general(a, precision.unwrap_or(6).max(1), alt).to_uppercase(),
            _ => match precision {
                // Python's default float format with a precision behaves like 'g' but keeps
                // at least one digit after the point.
                Some(p) => {
                    let g = general(a, p.max(1), alt);
                    if g.contains(['.', 'e', 'n', 'i']) {
                        g
                    } else {
                        format!("{g}.0")
                    }
                }
                None => {
                    let r = float_repr(a);
                    if grouping.is_some() {
                        let (int, frac) = r.split_once('.').unwrap_or((&r, ""));
                        let g = group(int, grouping, false, None);
                        if frac.is_empty() {
                            g
                        } else {
                            format!("{g}.{frac}")
                        }
                    } else {
                        r
                    }
                }
            },
        }
    };
    let sign = if neg {
        "-"
    } else {
        match sign {
            Some('+') => "+",
            Some(' ') => " ",
            _ => "",
        }
    };
    format!("{sign}{body}")
}

/// Digits a double can have after the point (2^-1074 has 1074); Rust's formatter refuses
/// precisions past 65535, and every digit past these is a zero anyway.
const EXACT_DIGITS: usize = 1100;

/// `{a:.prec$}` for any precision: exact digits, then zeros.
fn fixed(a: f64, prec: usize) -> String {
    let p = prec.min(EXACT_DIGITS);
    let mut s = format!("{a:.p$}");
    if prec > p && a.is_finite() {
        s.push_str(&"0".repeat(prec - p)); // bounded: checked by parse_spec
    }
    s
}

fn fixed_grouped(a: f64, prec: usize, grouping: Option<char>) -> String {
    let s = fixed(a, prec);
    if grouping.is_none() {
        return s;
    }
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let g = group(int, grouping, false, None);
    if frac.is_empty() {
        g
    } else {
        format!("{g}.{frac}")
    }
}

fn sci(a: f64, prec: usize) -> String {
    let p = prec.min(EXACT_DIGITS);
    let s = format!("{a:.p$e}");
    let Some((m, e)) = s.split_once('e') else {
        return s; // inf, NaN
    };
    let e: i32 = e.parse().unwrap_or(0);
    let zeros = "0".repeat(prec - p); // bounded: checked by parse_spec
    format!("{m}{zeros}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

/// `%g` with precision `p` (C's rules, trailing zeros removed unless `alt`).
pub fn general(a: f64, p: usize, alt: bool) -> String {
    // Past the exact digits every further significant digit is a zero, which %g drops.
    let p = if alt { p } else { p.min(EXACT_DIGITS) };
    if a == 0.0 {
        return "0".into();
    }
    let s = format!("{:.*e}", p - 1, a);
    let Some(exp) = s.split_once('e').and_then(|(_, e)| e.parse::<i32>().ok()) else {
        return s; // inf, NaN
    };
    let s = if exp < -4 || exp >= p as i32 {
        let s = sci(a, p - 1);
        if alt {
            s
        } else {
            let Some((m, e)) = s.split_once('e') else {
                return s; // inf, NaN
            };
            let m = if m.contains('.') {
                m.trim_end_matches('0').trim_end_matches('.')
            } else {
                m
            };
            format!("{m}e{e}")
        }
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        let s = format!("{a:.decimals$}");
        if alt || !s.contains('.') {
            s
        } else {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    };
    s
}

fn pad(body: &str, s: &Spec, is_str: bool) -> String {
    let len = body.chars().count();
    if len >= s.width {
        return body.to_string();
    }
    let n = s.width - len;
    let (fill, align) = if s.zero && s.align.is_none() {
        ('0', '=')
    } else {
        (s.fill, s.align.unwrap_or(if is_str { '<' } else { '>' }))
    };
    let f = |k: usize| fill.to_string().repeat(k); // bounded: width checked by parse_spec
    match align {
        '<' => format!("{body}{}", f(n)),
        '^' => format!("{}{body}{}", f(n / 2), f(n - n / 2)),
        '=' => {
            let (sign, rest) = if body.starts_with(['-', '+', ' ']) {
                body.split_at(1)
            } else {
                ("", body)
            };
            // An integer's `#` prefix stays in front of the padding (`0x00ff`).
            let base = matches!(s.ty, Some('x' | 'X' | 'o' | 'b'));
            let (prefix, rest) = if s.alt && base && rest.len() >= 2 {
                rest.split_at(2)
            } else {
                ("", rest)
            };
            format!("{sign}{prefix}{}{rest}", f(n))
        }
        _ => format!("{}{body}", f(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_repr_matches_python() {
        assert_eq!(float_repr(1.0), "1.0");
        assert_eq!(float_repr(0.1), "0.1");
        assert_eq!(float_repr(1e-5), "1e-05");
        assert_eq!(float_repr(1.5e16), "1.5e+16");
        assert_eq!(float_repr(123456789.0), "123456789.0");
        assert_eq!(float_repr(-0.0001), "-0.0001");
        assert_eq!(float_repr(1e22), "1e+22");
        assert_eq!(float_repr(2.0f64.sqrt()), "1.4142135623730951");
    }

    #[test]
    fn general_format() {
        assert_eq!(general(0.0009996, 3, false), "0.001");
        assert_eq!(general(123456.0, 3, false), "1.23e+05");
        assert_eq!(general(1.5, 3, false), "1.5");
        assert_eq!(general(20.4, 3, false), "20.4");
    }
}
