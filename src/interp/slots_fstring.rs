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
        /// How the common fields format without building intermediate strings.
        fast: Fast,
    },
}

/// The fields whose formatting is decided at compile time for the common values: each
/// writes exactly what `format_value` would, straight into the f-string's buffer.
#[derive(Clone, Copy)]
enum Fast {
    None,
    /// `{x}`: an int's or a str's text.
    Plain,
    /// `{x:.Nf}`: a finite float (or an int, which `f` formats as a float) with N digits
    /// after the point, as `repr::format_float` writes it (Rust's exact fixed notation).
    Fixed(usize),
}

/// The fast form of a field with this conversion, debug text and (literal) spec.
fn fast_of(conversion: ast::ConversionFlag, debug: bool, spec: Option<&[Piece]>) -> Fast {
    if debug || conversion != ast::ConversionFlag::None {
        return Fast::None;
    }
    let text = match spec {
        None => return Fast::Plain,
        Some([Piece::Text(t)]) => t.as_str(),
        Some(_) => return Fast::None,
    };
    let digits = text.strip_prefix('.').and_then(|t| t.strip_suffix('f'));
    match digits {
        Some(d) if (1..=2).contains(&d.len()) && d.bytes().all(|b| b.is_ascii_digit()) => {
            d.parse().map_or(Fast::None, Fast::Fixed)
        }
        _ => Fast::None,
    }
}

/// Write `v` as the fast form `fast` formats it; false when `v` needs the general path.
fn write_fast(fast: Fast, v: &Value, out: &mut String) -> bool {
    use std::fmt::Write;
    match (fast, v) {
        (Fast::Plain, Value::Int(i)) => write!(out, "{i}").is_ok(),
        (Fast::Plain, Value::Str(s)) => {
            out.push_str(s);
            true
        }
        (Fast::Fixed(p), Value::Float(x)) if x.is_finite() => write_fixed(*x, p, out),
        (Fast::Fixed(p), Value::Int(i)) => write_fixed(*i as f64, p, out),
        _ => false,
    }
}

/// `{x:.p$}` (a finite `x`, `p` under 100), as `repr::format_float` writes `x:.pf`.
/// When `x * 10**p` is an exact double below 2**53 (halves and quarters at `.2f`, whole
/// numbers, most values a loop computes), its digits are that integer rounded half to
/// even, which is what the exact decimal expansion gives; Rust's exact formatter would
/// otherwise fall back to big-number arithmetic for every such value.
fn write_fixed(x: f64, p: usize, out: &mut String) -> bool {
    use std::fmt::Write;
    const POW10: [f64; 16] = [
        1.0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    if let Some(&scale) = POW10.get(p) {
        let y = x * scale;
        // The product is exact when fma finds no rounding error in it.
        if y.abs() < 9007199254740992.0 && x.mul_add(scale, -y) == 0.0 {
            let n = y.round_ties_even().abs() as u64;
            if x.is_sign_negative() {
                out.push('-');
            }
            let mut buf = [0u8; 20];
            let mut at = buf.len();
            let mut m = n;
            loop {
                at -= 1;
                buf[at] = b'0' + (m % 10) as u8;
                m /= 10;
                if m == 0 {
                    break;
                }
            }
            let digits = std::str::from_utf8(&buf[at..]).unwrap_or_default();
            if p == 0 {
                out.push_str(digits);
            } else if digits.len() > p {
                let (int, frac) = digits.split_at(digits.len() - p);
                out.push_str(int);
                out.push('.');
                out.push_str(frac);
            } else {
                out.push_str("0.");
                out.extend(std::iter::repeat_n('0', p - digits.len()));
                out.push_str(digits);
            }
            return true;
        }
    }
    write!(out, "{x:.p$}").is_ok()
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
    // Room for the literal text and a number per field, so the buffer rarely grows.
    let room = pieces
        .iter()
        .map(|p| match p {
            Piece::Text(t) => t.len(),
            Piece::Field { .. } => 16,
        })
        .sum::<usize>();
    Some(Box::new(move |rt, fr| {
        let mut out = String::with_capacity(room); // bounded: the f-string's own source size
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
                let fast = fast_of(i.conversion, debug.is_some(), spec.as_deref());
                pieces.push(Piece::Field {
                    value,
                    debug,
                    conversion: i.conversion,
                    spec,
                    fast,
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
                fast,
            } => {
                let v = value(rt, fr)?;
                if write_fast(*fast, &v, out) {
                    continue;
                }
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
