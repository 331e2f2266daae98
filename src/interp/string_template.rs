//! `string.capwords` and `string.Template` (`substitute`, `safe_substitute`) with
//! CPython's placeholder rules: `$$`, `$name`, `${name}`, ASCII identifiers.

use std::rc::Rc;

use crate::interp::repr::{str_repr, to_str};
use crate::interp::subscript::get_item;
use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::ExcClass;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Object, Value};

/// Register `capwords` and `Template` in the `string` module.
pub fn register(m: &Module) {
    m.def(
        Function,
        "capwords",
        "s, sep=None",
        "Split s, capitalize each word, and join the words with sep (a space by default).",
        |_, b| {
            // CPython's capwords is `sep.join(map(str.capitalize, s.split(sep)))`.
            let s = match b.get(0) {
                Some(Value::Str(s)) => s.clone(),
                other => {
                    return Err(PyErr::attribute_error(format!(
                        "'{}' object has no attribute 'split'",
                        other.map_or("NoneType".into(), |v| v.type_name())
                    )))
                }
            };
            let sep = match b.get(1) {
                None | Some(Value::None) => None,
                Some(Value::Str(x)) if !x.is_empty() => Some(x.to_string()),
                Some(Value::Str(_)) => return Err(PyErr::value_error("empty separator")),
                Some(other) => {
                    return Err(PyErr::type_error(format!(
                        "must be str or None, not {}",
                        other.type_name()
                    )))
                }
            };
            let words: Vec<String> = match &sep {
                Some(sep) => s.split(sep.as_str()).map(capitalize).collect(),
                None => s.split_whitespace().map(capitalize).collect(),
            };
            Ok(Value::str(&words.join(sep.as_deref().unwrap_or(" "))))
        },
    );
    m.set("Template", Value::object(TemplateType));
}

/// `str.capitalize`: the first character upper case, the rest lower case.
fn capitalize(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + &c.as_str().to_lowercase(),
        None => String::new(),
    }
}

/// The class `string.Template`.
struct TemplateType;

impl Object for TemplateType {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok("<class 'string.Template'>".into())
    }
    fn call(self: Rc<Self>, args: Args, _rt: &mut Runtime) -> PyResult<Value> {
        let b = args.bind("Template", &["template"])?;
        match &b[0] {
            Some(Value::Str(s)) => Ok(Value::object(Template {
                template: s.clone(),
            })),
            Some(other) => Err(PyErr::type_error(format!(
                "expected string or bytes-like object, got '{}'",
                other.type_name()
            ))),
            None => Err(PyErr::type_error(
                "Template.__init__() missing 1 required positional argument: 'template'",
            )),
        }
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "__name__" => Some(Value::str("Template")),
            "delimiter" => Some(Value::str("$")),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

struct Template {
    template: Rc<str>,
}

impl Object for Template {
    fn type_name(&self) -> String {
        "Template".into()
    }
    fn module_name(&self) -> String {
        "string".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let safe = match name {
            "template" => return Ok(Some(Value::Str(self.template.clone()))),
            "substitute" => false,
            "safe_substitute" => true,
            _ => return Ok(None),
        };
        let t = self.clone();
        let fname = if safe {
            "safe_substitute"
        } else {
            "substitute"
        };
        Ok(Some(Value::builtin(
            &format!("Template.{fname}"),
            &format!("{fname}(mapping={{}}, /, **kws)"),
            "The template with its placeholders replaced.",
            move |rt, a| t.substitute(rt, a, safe),
        )))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// One placeholder found at a `$`.
enum Placeholder<'a> {
    Escaped,
    Name(&'a str),
    Invalid,
}

/// The identifier at the start of `s` (ASCII letters, digits, `_`; not starting with a
/// digit), as the `(?a:[_a-z][_a-z0-9]*)` of CPython's pattern under IGNORECASE.
fn ident(s: &str) -> &str {
    let end = s
        .char_indices()
        .find(|&(i, c)| !(c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())))
        .map_or(s.len(), |(i, _)| i);
    &s[..end]
}

/// The placeholder after a `$` and how many bytes (after the `$`) it spans.
fn placeholder(rest: &str) -> (Placeholder<'_>, usize) {
    if rest.starts_with('$') {
        return (Placeholder::Escaped, 1);
    }
    let id = ident(rest);
    if !id.is_empty() {
        return (Placeholder::Name(id), id.len());
    }
    if let Some(inner) = rest.strip_prefix('{') {
        let id = ident(inner);
        if !id.is_empty() && inner[id.len()..].starts_with('}') {
            return (Placeholder::Name(id), id.len() + 2);
        }
    }
    (Placeholder::Invalid, 0)
}

impl Template {
    fn substitute(&self, rt: &mut Runtime, a: Args, safe: bool) -> PyResult<Value> {
        if a.pos.len() > 1 {
            return Err(PyErr::type_error("Too many positional arguments"));
        }
        let mapping = a.pos.first().cloned();
        let lookup = |rt: &mut Runtime, name: &str| -> PyResult<Option<Value>> {
            if let Some((_, v)) = a.kw.iter().find(|(k, _)| &**k == name) {
                return Ok(Some(v.clone()));
            }
            match &mapping {
                Some(m) => match get_item(rt, m, &Value::str(name)) {
                    Ok(v) => Ok(Some(v)),
                    Err(e) if e.is_instance(ExcClass::KeyError) => Ok(None),
                    Err(e) => Err(e),
                },
                None => Ok(None),
            }
        };
        let t: &str = &self.template;
        let mut out = String::new();
        let mut i = 0;
        while let Some(off) = t[i..].find('$') {
            let at = i + off;
            out.push_str(&t[i..at]);
            let (ph, len) = placeholder(&t[at + 1..]);
            let whole = &t[at..at + 1 + len];
            match ph {
                Placeholder::Escaped => out.push('$'),
                Placeholder::Name(name) => match lookup(rt, name)? {
                    Some(v) => out.push_str(&to_str(rt, &v)?),
                    None if safe => out.push_str(whole),
                    None => return Err(PyErr::key_error(str_repr(name))),
                },
                Placeholder::Invalid if safe => out.push('$'),
                Placeholder::Invalid => {
                    let before = &t[..at];
                    let line = before.matches('\n').count() + 1;
                    let col = before.len() - before.rfind('\n').map_or(0, |p| p + 1) + 1;
                    return Err(PyErr::value_error(format!(
                        "Invalid placeholder in string: line {line}, col {col}"
                    )));
                }
            }
            i = at + 1 + len;
        }
        out.push_str(&t[i..]);
        Ok(Value::str(&out))
    }
}
