//! The method table of `str`: each method's name, signature, doc and body once, serving
//! lookup, `dir()`, completion and `?`; and the bodies with CPython's edge rules (`split`
//! with `maxsplit` on whitespace keeps the remainder's inner whitespace, `center` puts the
//! odd pad character by the parity of the width, `zfill` pads after a sign).

use std::rc::Rc;

use crate::interp::ops;
use crate::py::error::{PyErr, PyResult};
use crate::py::methods::{Bound, MethodSpec, MethodTable, Style};
use crate::py::value::{Args, Value};

type StrRef = Rc<str>;

pub static STR: MethodTable<StrRef> = MethodTable {
    owner: "str",
    methods: &STR_METHODS,
};

/// `str.find` and its kin still parse their arguments with `PyArg_ParseTuple` in CPython
/// 3.11, whose count errors read differently from Argument Clinic's.
const fn legacy(
    name: &'static str,
    sig: &'static str,
    doc: &'static str,
    call: crate::py::methods::MethodFn<StrRef>,
) -> MethodSpec<StrRef> {
    MethodSpec::styled(Style::ParseTuple, name, sig, doc, call)
}

static STR_METHODS: [MethodSpec<StrRef>; 46] = [
    MethodSpec::new("capitalize", "", "Return a capitalized version of the string.", |s, _, _| {
        let mut c = s.chars();
        Ok(Value::str(&match c.next() {
            Some(f) => f.to_uppercase().collect::<String>() + &c.as_str().to_lowercase(),
            None => String::new(),
        }))
    }),
    MethodSpec::new("casefold", "", "Return a version of the string suitable for caseless comparisons.", |s, _, _| Ok(crate::interp::str_methods_more::casefold(s))),
    MethodSpec::new("center", "width, fillchar=' ', /", "Return a centered string of length width, padded with fillchar (default is a space).", |s, _, b| center(s, &b)),
    legacy("count", "sub, start=None, end=None, /", "Return the number of non-overlapping occurrences of substring sub.", |s, _, b| {
        let sub = one_str(&b, "count")?;
        Ok(Value::Int(match window(s, &b)? {
            Some((_, w)) => w.matches(sub.as_str()).count() as i64,
            None => 0,
        }))
    }),
    MethodSpec::new("encode", "encoding='utf-8', errors='strict'", "Encode the string using the codec registered for encoding.", |s, _, b| crate::interp::str_methods_more::encode(s, &b)),
    legacy("endswith", "suffix, start=None, end=None, /", "Return True if the string ends with the specified suffix, False otherwise.", |s, _, b| affix(s, &b, false)),
    MethodSpec::new("expandtabs", "tabsize=8", "Return a copy where all tab characters are expanded using spaces.", |s, _, b| crate::interp::str_methods_more::expandtabs(s, &b)),
    legacy("find", "sub, start=None, end=None, /", "Return the lowest index where substring sub is found; -1 on failure.", |s, _, b| find(s, &b, "find")),
    MethodSpec::new("format", "*args, **kwargs", "Return a formatted version of the string, using substitutions from args and kwargs.", |s, rt, b| {
        let a = Args { pos: b.rest, kw: b.kw };
        crate::interp::attrs::str_format(rt, s, &a)
    }),
    legacy("index", "sub, start=None, end=None, /", "Return the lowest index where substring sub is found; ValueError when it is not found.", |s, _, b| find(s, &b, "index")),
    MethodSpec::new("isalnum", "", "Return True if the string is an alpha-numeric string, False otherwise.", |s, _, _| {
        Ok(Value::Bool(!s.is_empty() && s.chars().all(char::is_alphanumeric)))
    }),
    MethodSpec::new("isalpha", "", "Return True if the string is an alphabetic string, False otherwise.", |s, _, _| {
        Ok(Value::Bool(!s.is_empty() && s.chars().all(char::is_alphabetic)))
    }),
    MethodSpec::new("isascii", "", "Return True if all characters in the string are ASCII, False otherwise.", |s, _, _| Ok(Value::Bool(s.is_ascii()))),
    MethodSpec::new("isdecimal", "", "Return True if the string is a decimal string, False otherwise.", |s, _, _| Ok(Value::Bool(crate::interp::str_methods_more::isdecimal(s)))),
    MethodSpec::new("isdigit", "", "Return True if the string is a digit string, False otherwise.", |s, _, _| {
        Ok(Value::Bool(crate::interp::str_methods_more::isdigit(s)))
    }),
    MethodSpec::new("isidentifier", "", "Return True if the string is a valid Python identifier, False otherwise.", |s, _, _| Ok(Value::Bool(crate::interp::str_methods_more::isidentifier(s)))),
    MethodSpec::new("islower", "", "Return True if the string is a lowercase string, False otherwise.", |s, _, _| {
        Ok(Value::Bool(s.chars().any(char::is_lowercase) && !s.chars().any(char::is_uppercase)))
    }),
    MethodSpec::new("isnumeric", "", "Return True if the string is a numeric string, False otherwise.", |s, _, _| Ok(Value::Bool(!s.is_empty() && s.chars().all(char::is_numeric)))),
    MethodSpec::new("isprintable", "", "Return True if the string is printable, False otherwise.", |s, _, _| Ok(Value::Bool(crate::interp::str_methods_more::isprintable(s)))),
    MethodSpec::new("isspace", "", "Return True if the string is a whitespace string, False otherwise.", |s, _, _| {
        Ok(Value::Bool(!s.is_empty() && s.chars().all(char::is_whitespace)))
    }),
    MethodSpec::new("istitle", "", "Return True if the string is a title-cased string, False otherwise.", |s, _, _| Ok(Value::Bool(crate::interp::str_methods_more::istitle(s)))),
    MethodSpec::new("isupper", "", "Return True if the string is an uppercase string, False otherwise.", |s, _, _| {
        Ok(Value::Bool(s.chars().any(char::is_uppercase) && !s.chars().any(char::is_lowercase)))
    }),
    MethodSpec::new("join", "iterable, /", "Concatenate any number of strings, with this string between each pair.", |s, rt, b| {
        let items = ops::iterate(rt, &b.value(0))?;
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
        Ok(Value::str(&parts.join(s)))
    }),
    MethodSpec::new("ljust", "width, fillchar=' ', /", "Return a left-justified string of length width, padded with fillchar.", |s, _, b| justify(s, &b, "ljust")),
    MethodSpec::new("lower", "", "Return a copy of the string converted to lowercase.", |s, _, _| Ok(Value::str(&s.to_lowercase()))),
    MethodSpec::new("lstrip", "chars=None, /", "Return a copy of the string with leading whitespace (or chars) removed.", |s, _, b| strip(s, &b, "lstrip")),
    MethodSpec::new("maketrans", "x, y=None, z=None, /", "Return a translation table usable for str.translate().", |_, _, b| crate::interp::str_methods_more::maketrans(&b)),
    MethodSpec::new("partition", "sep, /", "Partition the string into three parts using the given separator, searching from the left.", |s, _, b| partition(s, &b, false)),
    MethodSpec::new("removeprefix", "prefix, /", "Return a str with the given prefix string removed if present.", |s, _, b| {
        let p = one_str(&b, "removeprefix")?;
        Ok(Value::str(s.strip_prefix(p.as_str()).unwrap_or(s)))
    }),
    MethodSpec::new("removesuffix", "suffix, /", "Return a str with the given suffix string removed if present.", |s, _, b| {
        let p = one_str(&b, "removesuffix")?;
        Ok(Value::str(s.strip_suffix(p.as_str()).unwrap_or(s)))
    }),
    MethodSpec::new("replace", "old, new, count=-1, /", "Return a copy with occurrences of substring old replaced by new (the first count of them, when count is not negative).", |s, _, b| {
        let (Some(old), Some(new)) = (str_arg(&b, 0, "replace")?, str_arg(&b, 1, "replace")?) else {
            return Err(PyErr::type_error("replace expected 2 arguments"));
        };
        match b.index(2)? {
            Some(n) if n >= 0 => Ok(Value::str(&s.replacen(&old, &new, n as usize))),
            _ => Ok(Value::str(&s.replace(&old, &new))),
        }
    }),
    legacy("rfind", "sub, start=None, end=None, /", "Return the highest index where substring sub is found; -1 on failure.", |s, _, b| rfind(s, &b, "rfind")),
    legacy("rindex", "sub, start=None, end=None, /", "Return the highest index where substring sub is found; ValueError when it is not found.", |s, _, b| rfind(s, &b, "rindex")),
    MethodSpec::new("rjust", "width, fillchar=' ', /", "Return a right-justified string of length width, padded with fillchar.", |s, _, b| justify(s, &b, "rjust")),
    MethodSpec::new("rpartition", "sep, /", "Partition the string into three parts using the given separator, searching from the right.", |s, _, b| partition(s, &b, true)),
    MethodSpec::new("rsplit", "sep=None, maxsplit=-1", "Return a list of the substrings in the string, using sep as the separator string, splitting from the right.", |s, _, b| split(s, &b, true)),
    MethodSpec::new("rstrip", "chars=None, /", "Return a copy of the string with trailing whitespace (or chars) removed.", |s, _, b| strip(s, &b, "rstrip")),
    MethodSpec::new("split", "sep=None, maxsplit=-1", "Return a list of the substrings in the string, using sep as the separator string.", |s, _, b| split(s, &b, false)),
    MethodSpec::new("splitlines", "keepends=False", "Return a list of the lines in the string, breaking at line boundaries.", |s, rt, b| {
        let keep = ops::truthy(rt, &b.value(0))?;
        Ok(Value::list(splitlines(s, keep).map(Value::str).collect()))
    }),
    legacy("startswith", "prefix, start=None, end=None, /", "Return True if the string starts with the specified prefix, False otherwise.", |s, _, b| affix(s, &b, true)),
    MethodSpec::new("strip", "chars=None, /", "Return a copy of the string with leading and trailing whitespace (or chars) removed.", |s, _, b| strip(s, &b, "strip")),
    MethodSpec::new("swapcase", "", "Convert uppercase characters to lowercase and lowercase characters to uppercase.", |s, _, _| {
        Ok(Value::str(&s.chars().flat_map(|c| -> Vec<char> {
            if c.is_uppercase() { c.to_lowercase().collect() } else { c.to_uppercase().collect() }
        }).collect::<String>()))
    }),
    MethodSpec::new("title", "", "Return a version of the string where each word is titlecased.", |s, _, _| {
        let mut out = String::new();
        let mut prev_alpha = false;
        for c in s.chars() {
            out.extend(if prev_alpha {
                c.to_lowercase().collect::<Vec<_>>()
            } else {
                c.to_uppercase().collect()
            });
            prev_alpha = c.is_alphabetic();
        }
        Ok(Value::str(&out))
    }),
    MethodSpec::new("translate", "table, /", "Replace each character in the string using the given translation table.", |s, rt, b| crate::interp::str_methods_more::translate(s, rt, &b)),
    MethodSpec::new("upper", "", "Return a copy of the string converted to uppercase.", |s, _, _| Ok(Value::str(&s.to_uppercase()))),
    MethodSpec::new("zfill", "width, /", "Pad a numeric string with zeros on the left, to fill a field of the given width.", |s, _, b| zfill(s, &b)),
];

/// Argument `i` as a string, None when absent or None.
fn str_arg(b: &Bound, i: usize, fname: &str) -> PyResult<Option<String>> {
    match b.get(i) {
        None | Some(Value::None) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.to_string())),
        Some(other) => Err(PyErr::type_error(format!(
            "{fname}() argument must be str, not {}",
            other.type_name()
        ))),
    }
}

fn strip(s: &str, b: &Bound, which: &str) -> PyResult<Value> {
    let chars = str_arg(b, 0, which)?;
    let pat = |c: char| match &chars {
        Some(cs) => cs.contains(c),
        None => c.is_whitespace(),
    };
    Ok(Value::str(match which {
        "strip" => s.trim_matches(pat),
        "lstrip" => s.trim_start_matches(pat),
        _ => s.trim_end_matches(pat),
    }))
}

/// The text between a method's `start` and `end` arguments (slots 1 and 2), adjusted as
/// CPython's slices are (negative from the end, clipped to the string), with the character
/// index it starts at; None when `start` is past `end`, where nothing is found.
fn window<'s>(s: &'s str, b: &Bound) -> PyResult<Option<(usize, &'s str)>> {
    let (start, end) = (slice_index(b.get(1))?, slice_index(b.get(2))?);
    if start.is_none() && end.is_none() {
        return Ok(Some((0, s)));
    }
    let len = s.chars().count() as i64;
    let adjust = |i: i64| if i < 0 { (i + len).max(0) } else { i.min(len) };
    let start = start.map_or(0, |i| if i < 0 { (i + len).max(0) } else { i });
    let end = end.map_or(len, adjust);
    if start > end {
        return Ok(None);
    }
    let byte = |i: i64| s.char_indices().nth(i as usize).map_or(s.len(), |(b, _)| b);
    Ok(Some((start as usize, &s[byte(start)..byte(end)])))
}

/// A `start`/`end` argument: an int, or None for the default.
fn slice_index(v: Option<&Value>) -> PyResult<Option<i64>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v @ (Value::Int(_) | Value::Bool(_))) => v.as_index().map(Some),
        Some(v) => v.as_index().map(Some).map_err(|_| {
            PyErr::type_error("slice indices must be integers or None or have an __index__ method")
        }),
    }
}

/// `startswith` / `endswith`: a string or a tuple of strings, within `start` and `end`.
fn affix(s: &str, b: &Bound, start: bool) -> PyResult<Value> {
    let name = if start { "startswith" } else { "endswith" };
    let pats: Vec<Rc<str>> = match b.get(0) {
        Some(Value::Str(p)) => vec![p.clone()],
        Some(Value::Tuple(t)) => t
            .iter()
            .map(|v| match v {
                Value::Str(p) => Ok(p.clone()),
                other => Err(PyErr::type_error(format!(
                    "tuple for {name} must only contain str, not {}",
                    other.type_name()
                ))),
            })
            .collect::<PyResult<_>>()?,
        other => {
            return Err(PyErr::type_error(format!(
                "{name} first arg must be str or a tuple of str, not {}",
                other.map(|v| v.type_name()).unwrap_or_default()
            )))
        }
    };
    let Some((_, w)) = window(s, b)? else {
        return Ok(Value::Bool(false));
    };
    Ok(Value::Bool(pats.iter().any(|p| {
        if start {
            w.starts_with(&**p)
        } else {
            w.ends_with(&**p)
        }
    })))
}

fn find(s: &str, b: &Bound, which: &str) -> PyResult<Value> {
    let sub = one_str(b, which)?;
    let found =
        window(s, b)?.and_then(|(at, w)| w.find(sub.as_str()).map(|i| at + w[..i].chars().count()));
    match found {
        Some(i) => Ok(Value::Int(i as i64)),
        None if which == "find" => Ok(Value::Int(-1)),
        None => Err(PyErr::value_error("substring not found")),
    }
}

/// `str.splitlines`: CPython's line boundaries (`\r\n` and each of `\n \r \v \f \x1c
/// \x1d \x1e \x85 \u2028 \u2029`), kept on the lines with `keepends`.
fn splitlines(s: &str, keepends: bool) -> impl Iterator<Item = &str> {
    let mut rest = s;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, cut) = match rest.char_indices().find(|&(_, c)| {
            matches!(
                c,
                '\n' | '\r'
                    | '\x0b'
                    | '\x0c'
                    | '\x1c'
                    | '\x1d'
                    | '\x1e'
                    | '\u{85}'
                    | '\u{2028}'
                    | '\u{2029}'
            )
        }) {
            Some((i, c)) => {
                let n = if rest[i..].starts_with("\r\n") {
                    2
                } else {
                    c.len_utf8()
                };
                (i, i + n)
            }
            None => (rest.len(), rest.len()),
        };
        let out = &rest[..if keepends { cut } else { line }];
        rest = &rest[cut..];
        Some(out)
    })
}

/// `ljust` / `rjust`.
fn justify(s: &StrRef, b: &Bound, which: &str) -> PyResult<Value> {
    let w = b.value(0).as_index()?.max(0) as usize;
    let fill = str_arg(b, 1, which)?
        .and_then(|f| f.chars().next())
        .unwrap_or(' ');
    let n = s.chars().count();
    if n >= w {
        return Ok(Value::Str(s.clone()));
    }
    crate::arrays::alloc::check(w, fill.len_utf8(), "a str")?;
    // bounded: checked by alloc::check above
    let pad = fill.to_string().repeat(w - n);
    Ok(Value::str(&if which == "ljust" {
        format!("{s}{pad}")
    } else {
        format!("{pad}{s}")
    }))
}

/// The required str argument in slot 0 (None is a TypeError here, unlike `str_arg`).
fn one_str(b: &Bound, fname: &str) -> PyResult<String> {
    match b.get(0) {
        Some(Value::Str(x)) => Ok(x.to_string()),
        other => Err(PyErr::type_error(format!(
            "{fname}() argument must be str, not {}",
            other.map(|v| v.type_name()).unwrap_or_default()
        ))),
    }
}

/// `str.split` / `str.rsplit`: `sep` and `maxsplit`, positional or by keyword.
fn split(s: &str, b: &Bound, from_right: bool) -> PyResult<Value> {
    let sep = match b.get(0) {
        None | Some(Value::None) => None,
        Some(Value::Str(x)) => Some(x.to_string()),
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "must be str or None, not {}",
                other.type_name()
            )))
        }
    };
    let limit = b.index(1)?.filter(|&n| n >= 0).map(|n| n as usize);
    let parts: Vec<String> = match sep {
        Some(sep) if sep.is_empty() => return Err(PyErr::value_error("empty separator")),
        Some(sep) => match (limit, from_right) {
            (None, _) => s.split(sep.as_str()).map(str::to_string).collect(),
            (Some(n), false) => s.splitn(n + 1, sep.as_str()).map(str::to_string).collect(),
            (Some(n), true) => {
                let mut v: Vec<String> =
                    s.rsplitn(n + 1, sep.as_str()).map(str::to_string).collect();
                v.reverse();
                v
            }
        },
        None => split_whitespace(s, limit, from_right),
    };
    Ok(Value::list(parts.iter().map(|p| Value::str(p)).collect()))
}

/// Whitespace splitting with at most `limit` splits: the unsplit remainder keeps its
/// inner whitespace and the whitespace on its far side, as CPython's does.
fn split_whitespace(s: &str, limit: Option<usize>, from_right: bool) -> Vec<String> {
    let Some(limit) = limit else {
        return s.split_whitespace().map(str::to_string).collect();
    };
    let mut out = Vec::new();
    let mut rest = if from_right {
        s.trim_end()
    } else {
        s.trim_start()
    };
    while !rest.is_empty() {
        if out.len() == limit {
            out.push(rest.to_string());
            break;
        }
        if from_right {
            let cut = rest
                .char_indices()
                .rev()
                .find(|(_, c)| c.is_whitespace())
                .map(|(i, c)| (i, i + c.len_utf8()));
            match cut {
                Some((i, j)) => {
                    out.push(rest[j..].to_string());
                    rest = rest[..i].trim_end();
                }
                None => {
                    out.push(rest.to_string());
                    rest = "";
                }
            }
        } else {
            match rest.char_indices().find(|(_, c)| c.is_whitespace()) {
                Some((i, _)) => {
                    out.push(rest[..i].to_string());
                    rest = rest[i..].trim_start();
                }
                None => {
                    out.push(rest.to_string());
                    rest = "";
                }
            }
        }
    }
    if from_right {
        out.reverse();
    }
    out
}

fn rfind(s: &str, b: &Bound, which: &str) -> PyResult<Value> {
    let sub = one_str(b, which)?;
    let found = window(s, b)?
        .and_then(|(at, w)| w.rfind(sub.as_str()).map(|i| at + w[..i].chars().count()));
    match found {
        Some(i) => Ok(Value::Int(i as i64)),
        None if which == "rfind" => Ok(Value::Int(-1)),
        None => Err(PyErr::value_error("substring not found")),
    }
}

fn partition(s: &str, a: &Bound, from_right: bool) -> PyResult<Value> {
    let sep = one_str(
        a,
        if from_right {
            "rpartition"
        } else {
            "partition"
        },
    )?;
    if sep.is_empty() {
        return Err(PyErr::value_error("empty separator"));
    }
    let found = if from_right {
        s.rfind(sep.as_str())
    } else {
        s.find(sep.as_str())
    };
    let (a, b, c) = match found {
        Some(i) => (&s[..i], sep.as_str(), &s[i + sep.len()..]),
        None if from_right => ("", "", s),
        None => (s, "", ""),
    };
    Ok(Value::tuple(vec![
        Value::str(a),
        Value::str(b),
        Value::str(c),
    ]))
}

fn width_arg(b: &Bound) -> PyResult<usize> {
    Ok(b.value(0).as_index()?.max(0) as usize)
}

fn center(s: &str, b: &Bound) -> PyResult<Value> {
    let w = width_arg(b)?;
    let fill = match b.get(1) {
        None => ' ',
        Some(Value::Str(f)) if f.chars().count() == 1 => f.chars().next().unwrap_or(' '),
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "The fill character must be exactly one character long{}",
                if other.as_str().is_some() {
                    String::new()
                } else {
                    format!(", not {}", other.type_name())
                }
            )))
        }
    };
    let n = s.chars().count();
    if n >= w {
        return Ok(Value::str(s));
    }
    crate::arrays::alloc::check(w, fill.len_utf8(), "a str")?;
    let marg = w - n;
    // CPython's rule: the odd character goes left when both the margin and the width are odd.
    let left = marg / 2 + (marg & w & 1);
    // bounded: checked by alloc::check above
    let pad = |k: usize| fill.to_string().repeat(k);
    Ok(Value::str(&format!("{}{s}{}", pad(left), pad(marg - left))))
}

fn zfill(s: &str, b: &Bound) -> PyResult<Value> {
    let w = width_arg(b)?;
    let n = s.chars().count();
    if n >= w {
        return Ok(Value::str(s));
    }
    crate::arrays::alloc::check(w, 1, "a str")?;
    // bounded: checked by alloc::check above
    let zeros = "0".repeat(w - n);
    Ok(Value::str(&match s.strip_prefix(['+', '-']) {
        Some(rest) => format!("{}{zeros}{rest}", &s[..1]),
        None => format!("{zeros}{s}"),
    }))
}
