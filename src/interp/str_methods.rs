//! `str` methods with CPython's exact edge rules that the main table in `attrs.rs` lacks:
//! `rsplit`, `split` with `maxsplit` on whitespace, `rfind`/`rindex`, `partition`/
//! `rpartition`, `removeprefix`/`removesuffix`, and `center`/`zfill` (CPython puts the odd
//! pad character of `center` by the parity of the width, and `zfill` pads after a sign).

use std::rc::Rc;

use crate::py::error::{PyErr, PyResult};
use crate::py::value::{Args, Value};

/// A method body: the string and the call's arguments.
type StrFn = dyn Fn(&str, &Args) -> PyResult<Value>;

/// The method `name` of the string `s`, when this file defines it.
pub fn method(s: &Rc<str>, name: &str) -> Option<Value> {
    let s = s.clone();
    let f = |fname: &'static str, f: Box<StrFn>| -> Option<Value> {
        Some(Value::builtin(
            fname,
            &format!("{fname}(...)"),
            "",
            move |_, a| f(&s, &a),
        ))
    };
    match name {
        "split" => f("str.split", Box::new(|s, a| split(s, a, false))),
        "rsplit" => f("str.rsplit", Box::new(|s, a| split(s, a, true))),
        "rfind" => f("str.rfind", Box::new(|s, a| rfind(s, a, "rfind"))),
        "rindex" => f("str.rindex", Box::new(|s, a| rfind(s, a, "rindex"))),
        "partition" => f("str.partition", Box::new(|s, a| partition(s, a, false))),
        "rpartition" => f("str.rpartition", Box::new(|s, a| partition(s, a, true))),
        "removeprefix" | "removesuffix" => {
            let prefix = name == "removeprefix";
            f(
                "str.removeprefix",
                Box::new(move |s, a| {
                    let which = if prefix {
                        "removeprefix"
                    } else {
                        "removesuffix"
                    };
                    let p = one_str(a, which)?;
                    let out = if prefix {
                        s.strip_prefix(p.as_str())
                    } else {
                        s.strip_suffix(p.as_str())
                    };
                    Ok(Value::str(out.unwrap_or(s)))
                }),
            )
        }
        "center" => f("str.center", Box::new(center)),
        "zfill" => f("str.zfill", Box::new(zfill)),
        _ => None,
    }
}

fn one_str(a: &Args, fname: &str) -> PyResult<String> {
    match a.pos.first() {
        Some(Value::Str(x)) => Ok(x.to_string()),
        Some(other) => Err(PyErr::type_error(format!(
            "{fname}() argument must be str, not {}",
            other.type_name()
        ))),
        None => Err(PyErr::type_error(format!(
            "{fname}() takes exactly one argument (0 given)"
        ))),
    }
}

/// `str.split` / `str.rsplit`: `sep` and `maxsplit`, positional or by keyword.
fn split(s: &str, a: &Args, from_right: bool) -> PyResult<Value> {
    let b = a.bind(
        if from_right { "rsplit" } else { "split" },
        &["sep=", "maxsplit="],
    )?;
    let sep = match &b[0] {
        None | Some(Value::None) => None,
        Some(Value::Str(x)) => Some(x.to_string()),
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "must be str or None, not {}",
                other.type_name()
            )))
        }
    };
    let maxsplit = b[1].as_ref().map(|v| v.as_index()).transpose()?;
    let limit = maxsplit.filter(|&n| n >= 0).map(|n| n as usize);
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

fn rfind(s: &str, a: &Args, which: &str) -> PyResult<Value> {
    let sub = one_str(a, which)?;
    match s.rfind(sub.as_str()) {
        Some(i) => Ok(Value::Int(s[..i].chars().count() as i64)),
        None if which == "rfind" => Ok(Value::Int(-1)),
        None => Err(PyErr::value_error("substring not found")),
    }
}

fn partition(s: &str, a: &Args, from_right: bool) -> PyResult<Value> {
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

fn width_arg(a: &Args, fname: &str) -> PyResult<usize> {
    match a.pos.first() {
        Some(v) => Ok(v.as_index()?.max(0) as usize),
        None => Err(PyErr::type_error(format!(
            "{fname}() takes at least 1 argument (0 given)"
        ))),
    }
}

fn center(s: &str, a: &Args) -> PyResult<Value> {
    let w = width_arg(a, "center")?;
    let fill = match a.pos.get(1) {
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

fn zfill(s: &str, a: &Args) -> PyResult<Value> {
    let w = width_arg(a, "zfill")?;
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
