//! Small text-handling standard modules: `textwrap` (`dedent`, `indent`), which code that
//! builds source text for `exec` uses.

use std::rc::Rc;

use crate::py::error::{PyErr, PyResult};
use crate::py::value::{Module, Value};

/// The `textwrap` module.
pub fn textwrap_module() -> Rc<Module> {
    let m = Module::new(
        "textwrap",
        "Text wrapping and indentation (dedent and indent).",
    );
    m.func(
        "dedent",
        "dedent(text)",
        "Remove whitespace that every non-blank line starts with; whitespace-only lines become empty.",
        |_, a| Ok(Value::str(&dedent(&str_arg(a.pos.first(), "dedent", "text")?))),
    );
    m.func(
        "indent",
        "indent(text, prefix)",
        "Add `prefix` to the start of every line that is not whitespace only.",
        |_, a| {
            let text = str_arg(a.pos.first(), "indent", "text")?;
            let prefix = str_arg(a.pos.get(1).or(a.kwarg("prefix")), "indent", "prefix")?;
            Ok(Value::str(&indent(&text, &prefix)))
        },
    );
    Rc::new(m)
}

/// A required str argument, or CPython's TypeError naming the function and parameter.
pub fn str_arg(v: Option<&Value>, func: &str, name: &str) -> PyResult<String> {
    match v {
        Some(Value::Str(s)) => Ok(s.to_string()),
        Some(other) => Err(PyErr::type_error(format!(
            "{func}() argument '{name}' must be str, not {}",
            other.type_name()
        ))),
        None => Err(PyErr::type_error(format!(
            "{func}() missing required argument: '{name}'"
        ))),
    }
}

fn is_blank(line: &str) -> bool {
    line.chars().all(|c| c == ' ' || c == '\t')
}

/// CPython's `textwrap.dedent`: the margin is the longest run of spaces and tabs that
/// every line holding other characters starts with.
pub fn dedent(text: &str) -> String {
    let mut margin: Option<&str> = None;
    for line in text.split('\n').filter(|l| !is_blank(l)) {
        let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
        margin = Some(match margin {
            None => indent,
            Some(m) => {
                let common = m
                    .bytes()
                    .zip(indent.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &m[..common]
            }
        });
    }
    let margin = margin.unwrap_or("");
    text.split('\n')
        .map(|l| if is_blank(l) { "" } else { &l[margin.len()..] })
        .collect::<Vec<_>>()
        .join("\n")
}

/// CPython's `textwrap.indent` with the default predicate (lines with non-whitespace).
pub fn indent(text: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if !line.trim().is_empty() {
            out.push_str(prefix);
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values are CPython 3.11's textwrap results for the same inputs.
    #[test]
    fn dedent_matches_cpython() {
        assert_eq!(
            dedent("\n    def f():\n        return 1\n    "),
            "\ndef f():\n    return 1\n"
        );
        assert_eq!(dedent("  a\n\t b"), "  a\n\t b");
        assert_eq!(dedent("  a\n   \n    b"), "a\n\n  b");
        assert_eq!(dedent(""), "");
    }

    #[test]
    fn indent_skips_blank_lines() {
        assert_eq!(indent("a\n\n b\n", "> "), "> a\n\n>  b\n");
    }
}
