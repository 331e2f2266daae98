//! f-strings in compiled bodies, formatted as the walker's `interpolate` formats them:
//! `{x!r}`, `{x!s}`, `{x=}` with its source text, and nested format specs.

use ruff_python_ast as ast;
use ruff_text_size::Ranged;

use crate::interp::repr::{format_value, repr, to_str};
use crate::interp::slots::{Compiler, Frame};
use crate::interp::slots_expr::{expr, E};
use crate::py::error::PyResult;
use crate::py::runtime::Runtime;
use crate::py::value::Value;

enum Piece {
    Text(String),
    Field {
        value: E,
        /// `{x=}`: the text shown before the value (leading space, source, `=`, trailing).
        debug: Option<String>,
        conversion: ast::ConversionFlag,
        spec: Option<Vec<Piece>>,
    },
}

/// Compile an f-string (`source` is the text its ranges index into).
pub fn fstring(c: &mut Compiler, f: &ast::ExprFString, source: &str) -> Option<E> {
    let mut pieces = Vec::new();
    for part in f.value.iter() {
        match part {
            ast::FStringPart::Literal(l) => pieces.push(Piece::Text(l.value.to_string())),
            ast::FStringPart::FString(fs) => pieces.extend(elements(c, &fs.elements, source)?),
        }
    }
    Some(Box::new(move |rt, fr| {
        let mut out = String::new();
        render(rt, fr, &pieces, &mut out)?;
        Ok(Value::str(&out))
    }))
}

fn elements(
    c: &mut Compiler,
    els: &ast::InterpolatedStringElements,
    source: &str,
) -> Option<Vec<Piece>> {
    let mut pieces = Vec::new();
    for el in els.iter() {
        match el {
            ast::InterpolatedStringElement::Literal(l) => {
                pieces.push(Piece::Text(l.value.to_string()))
            }
            ast::InterpolatedStringElement::Interpolation(i) => {
                let value = expr(c, &i.expression)?;
                let debug = match &i.debug_text {
                    Some(d) => {
                        let r = i.expression.range();
                        let text = source.get(r.start().to_usize()..r.end().to_usize())?;
                        Some(format!("{}{text}{}", d.leading, d.trailing))
                    }
                    None => None,
                };
                let spec = match &i.format_spec {
                    Some(fs) => Some(elements(c, &fs.elements, source)?),
                    None => None,
                };
                pieces.push(Piece::Field {
                    value,
                    debug,
                    conversion: i.conversion,
                    spec,
                });
            }
        }
    }
    Some(pieces)
}

fn render(
    rt: &mut Runtime,
    fr: &mut Frame<'_>,
    pieces: &[Piece],
    out: &mut String,
) -> PyResult<()> {
    for p in pieces {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Field {
                value,
                debug,
                conversion,
                spec,
            } => {
                let v = value(rt, fr)?;
                if let Some(d) = debug {
                    out.push_str(d);
                }
                let mut spec_text = String::new();
                if let Some(spec) = spec {
                    render(rt, fr, spec, &mut spec_text)?;
                }
                let v = match conversion {
                    ast::ConversionFlag::Repr | ast::ConversionFlag::Ascii => {
                        Value::str(&repr(rt, &v)?)
                    }
                    ast::ConversionFlag::Str => Value::str(&to_str(rt, &v)?),
                    ast::ConversionFlag::None if debug.is_some() && spec_text.is_empty() => {
                        Value::str(&repr(rt, &v)?)
                    }
                    ast::ConversionFlag::None => v,
                };
                out.push_str(&format_value(rt, &v, &spec_text)?);
            }
        }
    }
    Ok(())
}
