//! NumPy 2's printing of arrays and scalars, rule for rule (`numpy/_core/arrayprint.py`
//! with its defaults: precision 8, `floatmode='maxprec'`, line width 75, summarising past
//! 1000 elements with 3 edge items).

use crate::arrays::typed::{offsets, scalar_at};
use crate::arrays::{DType, NdArray, Scalar};

const LINE_WIDTH: usize = 75;
const THRESHOLD: usize = 1000;
const EDGE: usize = 3;
const PRECISION: usize = 8;

/// Shortest round-trip digits and decimal exponent: 0.15 → ("15", -1).
fn shortest(x: f64, f32_: bool) -> (String, i32) {
    let s = if f32_ {
        format!("{:e}", x as f32)
    } else {
        format!("{x:e}")
    };
    let (m, e) = s.split_once('e').expect("exponent form");
    let digits: String = m.chars().filter(|c| c.is_ascii_digit()).collect();
    (digits, e.parse().expect("integer exponent"))
}

/// Digits rounded to `frac` fractional digits in positional form, correctly rounded from
/// the exact binary value.
fn fixed(x: f64, f32_: bool, frac: usize) -> String {
    if f32_ {
        format!("{:.*}", frac, x as f32)
    } else {
        format!("{x:.frac$}")
    }
}

/// Dragon4 positional, unique digits, at most PRECISION fractional digits, trim '.'
/// (`1.`, `0.5`): returns (integer part with sign, fractional part).
fn positional(x: f64, f32_: bool) -> (String, String) {
    let (digits, exp) = shortest(x.abs(), f32_);
    let frac_needed = (digits.len() as i32 - 1 - exp).max(0) as usize;
    let s = if frac_needed <= PRECISION {
        fixed(x.abs(), f32_, frac_needed)
    } else {
        let r = fixed(x.abs(), f32_, PRECISION);
        if r.contains('.') {
            r.trim_end_matches('0').to_string()
        } else {
            r
        }
    };
    let (i, f) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), f.to_string()),
        None => (s.clone(), String::new()),
    };
    let sign = if x < 0.0 || (x == 0.0 && x.is_sign_negative()) {
        "-"
    } else {
        ""
    };
    (format!("{sign}{i}"), f)
}

/// Dragon4 scientific, unique, at most PRECISION fractional digits in the mantissa:
/// (mantissa integer part with sign, mantissa fraction, exponent).
fn scientific(x: f64, f32_: bool) -> (String, String, i32) {
    let (mut digits, mut exp) = shortest(x.abs(), f32_);
    if digits.len() > PRECISION + 1 {
        let s = if f32_ {
            format!("{:.*e}", PRECISION, x.abs() as f32)
        } else {
            format!("{:.*e}", PRECISION, x.abs())
        };
        let (m, e) = s.split_once('e').expect("exponent form");
        digits = m.chars().filter(|c| c.is_ascii_digit()).collect::<String>();
        digits = digits.trim_end_matches('0').to_string();
        if digits.is_empty() {
            digits.push('0');
        }
        exp = e.parse().expect("integer exponent");
    }
    let sign = if x < 0.0 || (x == 0.0 && x.is_sign_negative()) {
        "-"
    } else {
        ""
    };
    (
        format!("{sign}{}", &digits[..1]),
        digits[1..].to_string(),
        exp,
    )
}

enum Fmt {
    Bool,
    Int { width: usize },
    Float(FloatFmt),
}

struct FloatFmt {
    f32_: bool,
    exp: bool,
    pad_left: usize,
    pad_right: usize,
    /// Exponent mode: fractional digits shown for every mantissa, and exponent digits.
    precision: usize,
    exp_size: usize,
}

impl FloatFmt {
    fn new(values: &[f64], f32_: bool) -> FloatFmt {
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let nonzero: Vec<f64> = finite
            .iter()
            .map(|v| v.abs())
            .filter(|v| *v != 0.0)
            .collect();
        let mut exp = false;
        if !nonzero.is_empty() {
            let max = nonzero.iter().cloned().fold(f64::MIN, f64::max);
            let min = nonzero.iter().cloned().fold(f64::MAX, f64::min);
            // Compare in the array's precision, as NumPy does.
            let (max, min) = if f32_ {
                (max as f32 as f64, min as f32 as f64)
            } else {
                (max, min)
            };
            if max >= 1e8 || min < 0.0001 || max / min > 1000.0 {
                exp = true;
            }
        }
        let mut f = FloatFmt {
            f32_,
            exp,
            pad_left: 0,
            pad_right: 0,
            precision: 0,
            exp_size: 0,
        };
        if finite.is_empty() {
        } else if exp {
            let parts: Vec<_> = finite.iter().map(|&v| scientific(v, f32_)).collect();
            f.precision = parts.iter().map(|p| p.1.len()).max().unwrap_or(0);
            f.exp_size = parts
                .iter()
                .map(|p| p.2.unsigned_abs().to_string().len().max(2))
                .max()
                .unwrap_or(2);
            f.pad_left = parts.iter().map(|p| p.0.len()).max().unwrap_or(1);
            f.pad_right = f.exp_size + 2 + f.precision;
        } else {
            let parts: Vec<_> = finite.iter().map(|&v| positional(v, f32_)).collect();
            f.pad_left = parts.iter().map(|p| p.0.len()).max().unwrap_or(1);
            f.pad_right = parts.iter().map(|p| p.1.len()).max().unwrap_or(0);
        }
        if finite.len() != values.len() {
            let neginf = values.iter().any(|v| v.is_infinite() && *v < 0.0) as usize;
            let offset = f.pad_right + 1;
            f.pad_left = f
                .pad_left
                .max(3usize.saturating_sub(offset))
                .max((3 + neginf).saturating_sub(offset));
        }
        f
    }

    fn format(&self, x: f64) -> String {
        if !x.is_finite() {
            let s = if x.is_nan() {
                "nan"
            } else if x < 0.0 {
                "-inf"
            } else {
                "inf"
            };
            let w = self.pad_left + self.pad_right + 1;
            return format!("{s:>w$}");
        }
        if self.exp {
            let (i, f, e) = scientific(x, self.f32_);
            let frac = format!("{f:0<p$}", p = self.precision);
            let es = if e < 0 { '-' } else { '+' };
            format!(
                "{i:>pl$}.{frac}e{es}{:0>w$}",
                e.unsigned_abs(),
                pl = self.pad_left,
                w = self.exp_size
            )
        } else {
            let (i, f) = positional(x, self.f32_);
            format!("{i:>pl$}.{f:<pr$}", pl = self.pad_left, pr = self.pad_right)
        }
    }
}

fn format_for(a: &NdArray, values: &[Scalar]) -> Fmt {
    match a.dtype {
        DType::Bool => Fmt::Bool,
        DType::F32 | DType::F64 => {
            let v: Vec<f64> = values.iter().map(|s| s.as_f64()).collect();
            Fmt::Float(FloatFmt::new(&v, a.dtype == DType::F32))
        }
        _ => Fmt::Int {
            width: values.iter().map(|s| int_str(s).len()).max().unwrap_or(1),
        },
    }
}

fn int_str(s: &Scalar) -> String {
    match *s {
        Scalar::U64(v) => v.to_string(),
        other => other.as_i64().to_string(),
    }
}

fn format_one(f: &Fmt, s: &Scalar, zero_d: bool) -> String {
    match f {
        Fmt::Bool => {
            if s.as_i64() != 0 {
                if zero_d {
                    "True".into()
                } else {
                    " True".into()
                }
            } else {
                "False".into()
            }
        }
        Fmt::Int { width } => format!("{:>width$}", int_str(s)),
        Fmt::Float(ff) => ff.format(s.as_f64()),
    }
}

/// Per-axis index lists to show (all, or the edge items around a summary `...`).
fn shown(len: usize, summarise: bool) -> (Vec<usize>, bool) {
    if summarise && len > 2 * EDGE {
        let mut v: Vec<usize> = (0..EDGE).collect();
        v.extend(len - EDGE..len);
        (v, true)
    } else {
        ((0..len).collect(), false)
    }
}

fn element_offset(a: &NdArray, idx: &[usize]) -> isize {
    a.offset as isize
        + idx
            .iter()
            .zip(&a.strides)
            .map(|(&i, &s)| i as isize * s)
            .sum::<isize>()
}

fn extend_line(s: &mut String, line: &mut String, word: &str, width: usize, next_prefix: &str) {
    let mut wrap = line.len() + word.len() > width;
    if line.len() <= next_prefix.len() {
        wrap = false;
    }
    if wrap {
        s.push_str(line.trim_end());
        s.push('\n');
        *line = next_prefix.to_string();
    }
    line.push_str(word);
}

struct Printer<'a> {
    a: &'a NdArray,
    fmt: Fmt,
    sep: &'a str,
    summarise: bool,
}

impl Printer<'_> {
    fn recurse(&self, index: &mut Vec<usize>, hanging: &str, width: usize) -> String {
        let axis = index.len();
        let left = self.a.ndim() - axis;
        if left == 0 {
            let s = scalar_at(self.a, element_offset(self.a, index));
            return format_one(&self.fmt, &s, false);
        }
        let next_hanging = format!("{hanging} ");
        let next_width = width - 1;
        let (items, summary) = shown(self.a.shape[axis], self.summarise);
        let n = items.len();
        let mut s = String::new();
        if left == 1 {
            let elem_width = width - self.sep.trim_end().len().max(1);
            let mut line = hanging.to_string();
            for (k, &i) in items.iter().enumerate() {
                if summary && k == EDGE {
                    extend_line(&mut s, &mut line, "...", elem_width, hanging);
                    line.push_str(self.sep);
                }
                index.push(i);
                let word = self.recurse(index, &next_hanging, next_width);
                index.pop();
                extend_line(&mut s, &mut line, &word, elem_width, hanging);
                if k + 1 < n {
                    line.push_str(self.sep);
                }
            }
            s.push_str(&line);
        } else {
            let line_sep = format!("{}{}", self.sep.trim_end(), "\n".repeat(left - 1));
            for (k, &i) in items.iter().enumerate() {
                if summary && k == EDGE {
                    s.push_str(hanging);
                    s.push_str("...");
                    s.push_str(&line_sep);
                }
                index.push(i);
                let nested = self.recurse(index, &next_hanging, next_width);
                index.pop();
                s.push_str(hanging);
                s.push_str(&nested);
                if k + 1 < n {
                    s.push_str(&line_sep);
                }
            }
        }
        format!("[{}]", &s[hanging.len()..])
    }
}

/// The values that decide column widths: everything, or only the shown edge items.
fn shown_values(a: &NdArray, summarise: bool) -> Vec<Scalar> {
    if !summarise {
        return offsets(a, &a.shape)
            .into_iter()
            .map(|o| scalar_at(a, o))
            .collect();
    }
    let mut out = Vec::new();
    let mut idx = Vec::new();
    collect(a, &mut idx, &mut out);
    out
}

fn collect(a: &NdArray, idx: &mut Vec<usize>, out: &mut Vec<Scalar>) {
    if idx.len() == a.ndim() {
        out.push(scalar_at(a, element_offset(a, idx)));
        return;
    }
    let (items, _) = shown(a.shape[idx.len()], true);
    for i in items {
        idx.push(i);
        collect(a, idx, out);
        idx.pop();
    }
}

fn array_body(a: &NdArray, sep: &str, prefix_len: usize, suffix_len: usize) -> String {
    let summarise = a.size() > THRESHOLD;
    let values = shown_values(a, summarise);
    let fmt = format_for(a, &values);
    if a.ndim() == 0 {
        return format_one(&fmt, &values[0], true);
    }
    let p = Printer {
        a,
        fmt,
        sep,
        summarise,
    };
    let next_prefix = " ".repeat(prefix_len + 1);
    p.recurse(&mut Vec::new(), &next_prefix, LINE_WIDTH - suffix_len)
}

/// Whether repr leaves out `dtype=` (NumPy's default types, when there is data).
fn implicit_dtype(a: &NdArray) -> bool {
    matches!(a.dtype, DType::F64 | DType::I64 | DType::Bool) && a.size() > 0
}

/// `repr(arr)`: NumPy 2.2+ adds `shape=` when the data is summarised or empty beyond
/// `(0,)`, and `dtype=` when the dtype is not implied by the printed values.
pub fn array_repr(a: &NdArray) -> String {
    let prefix = "array(";
    let body = if a.size() > 0 {
        array_body(a, ", ", prefix.len(), 1)
    } else {
        "[]".to_string()
    };
    let mut extras = Vec::new();
    if (a.size() == 0 && a.shape != [0]) || a.size() > THRESHOLD {
        extras.push(format!(
            "shape={}",
            crate::arrays::ops::shape_repr(&a.shape)
        ));
    }
    if !implicit_dtype(a) {
        extras.push(format!("dtype={}", a.dtype.name()));
    }
    if extras.is_empty() {
        return format!("{prefix}{body})");
    }
    let s = format!("{prefix}{body},");
    let extra = format!("{})", extras.join(", "));
    let last = s.len() - s.rfind('\n').map_or(0, |i| i + 1);
    if last + extra.len() + 1 > LINE_WIDTH {
        format!("{s}\n{}{extra}", " ".repeat(prefix.len()))
    } else {
        format!("{s} {extra}")
    }
}

/// `str(arr)`.
pub fn array_str(a: &NdArray) -> String {
    if a.size() == 0 {
        return "[]".into();
    }
    array_body(a, " ", 0, 0)
}

/// Python-style repr of a float with the shortest digits of its own precision.
fn python_float(x: f64, f32_: bool) -> String {
    if !f32_ {
        return crate::language::repr::float_repr(x);
    }
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        return crate::language::repr::float_repr(x);
    }
    let (digits, exp) = shortest(x.abs(), true);
    let sign = if x < 0.0 { "-" } else { "" };
    // NumPy prints float32 scalars positionally only in [1e-4, 1e6).
    let ax = x.abs() as f32;
    if !(1e-4..1e6).contains(&ax) {
        let m = if digits.len() > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits
        };
        let es = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{m}e{es}{:02}", exp.abs());
    }
    let point = exp + 1;
    if point <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
    } else if point as usize >= digits.len() {
        format!(
            "{sign}{digits}{}.0",
            "0".repeat(point as usize - digits.len())
        )
    } else {
        format!(
            "{sign}{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    }
}

/// `str(np.float32(1.5))` → `1.5`.
pub fn scalar_str(s: &Scalar) -> String {
    match *s {
        Scalar::Bool(b) => if b { "True" } else { "False" }.into(),
        Scalar::F32(v) => python_float(v as f64, true),
        Scalar::F64(v) => python_float(v, false),
        other => int_str(&other),
    }
}

/// `repr(np.float32(1.5))` → `np.float32(1.5)` (NumPy 2).
pub fn scalar_repr(s: &Scalar) -> String {
    match *s {
        Scalar::Bool(b) => if b { "np.True_" } else { "np.False_" }.into(),
        other => format!("np.{}({})", other.dtype().name(), scalar_str(&other)),
    }
}
