//! NumPy 2's printing of arrays and scalars (numpy/_core/arrayprint.py and Dragon4), with
//! the default print options: precision 8, threshold 1000, edgeitems 3, linewidth 75.
//! Shortest round-trip digits come from Rust's float formatting, which, like Dragon4 in
//! unique mode, yields the shortest digits that read back to the same float32/float64.

use crate::arrays::complex::part_scalar;
use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::{read_scalar_at, shape_str};
use crate::arrays::NdArray;

const PRECISION: usize = 8;
const THRESHOLD: usize = 1000;
const EDGE: usize = 3;
const LINEWIDTH: usize = 75;

/// A finite float of any width, formatted with its own precision's shortest digits.
#[derive(Clone, Copy)]
enum F {
    H(half::f16),
    S(f32),
    D(f64),
}

/// The shortest `{:e}` digits that read back to the same float16 (Rust formats no f16, and
/// a float16's value printed as f32 or f64 shows every digit of its binary value).
fn half_sci_short(v: half::f16) -> String {
    let x = v.to_f64();
    // float16 has 11 significant bits: five decimal digits always round-trip.
    for p in 0..5 {
        let s = format!("{x:.p$e}");
        if s.parse::<f64>().is_ok_and(|r| half::f16::from_f64(r) == v) {
            return s;
        }
    }
    format!("{x:.5e}")
}

impl F {
    fn of(s: Scalar) -> F {
        match s {
            Scalar::F16(v) => F::H(v),
            Scalar::F32(v) => F::S(v),
            other => F::D(other.as_f64()),
        }
    }
    fn v(self) -> f64 {
        match self {
            F::H(v) => v.to_f64(),
            F::S(v) => v as f64,
            F::D(v) => v,
        }
    }
    /// Shortest scientific form, e.g. `1.5e-5`.
    fn sci_short(self) -> String {
        match self {
            F::H(v) => half_sci_short(v),
            F::S(v) => format!("{v:e}"),
            F::D(v) => format!("{v:e}"),
        }
    }
    fn sci_prec(self, p: usize) -> String {
        match self {
            F::H(v) => format!("{:.p$e}", v.to_f64()),
            F::S(v) => format!("{v:.p$e}"),
            F::D(v) => format!("{v:.p$e}"),
        }
    }
    fn fixed_prec(self, p: usize) -> String {
        match self {
            F::H(v) => format!("{:.p$}", v.to_f64()),
            F::S(v) => format!("{v:.p$}"),
            F::D(v) => format!("{v:.p$}"),
        }
    }
}

/// Split a Rust `{:e}` string into (sign, mantissa digits, exponent).
fn parse_sci(s: &str) -> (bool, String, i32) {
    let (m, e) = s.split_once('e').unwrap_or((s, "0"));
    let neg = m.starts_with('-');
    let digits: String = m.chars().filter(|c| c.is_ascii_digit()).collect();
    (neg, digits, e.parse().unwrap_or(0))
}

#[derive(Clone, Copy, PartialEq)]
enum Trim {
    /// keep trailing zeros (used with min_digits)
    K,
    /// trim trailing zeros, keep the point: `1.`
    Dot,
    /// trim zeros but leave one: `1.0`
    LeaveOneZero,
    /// trim zeros and the point: `1`
    DptZeros,
}

fn trim_frac(frac: &mut String, trim: Trim, min_digits: usize) {
    if trim != Trim::K {
        while frac.ends_with('0') && frac.len() > min_digits {
            frac.pop();
        }
    }
    while frac.len() < min_digits {
        frac.push('0');
    }
    if trim == Trim::LeaveOneZero && frac.is_empty() {
        frac.push('0');
    }
}

/// Dragon4 positional in unique mode with at most `precision` fractional digits.
fn positional(
    x: F,
    precision: usize,
    min_digits: usize,
    trim: Trim,
    pad_left: usize,
    pad_right: usize,
    plus: bool,
) -> String {
    let (neg, digits, e) = parse_sci(&x.sci_short());
    let dp = e + 1; // digits before the point
    let nfrac = (digits.len() as i32 - dp).max(0) as usize;
    let (int_part, mut frac) = if nfrac > precision {
        let s = x.fixed_prec(precision);
        let s = s.trim_start_matches('-').to_string();
        let (i, f) = s.split_once('.').unwrap_or((&s, ""));
        (i.to_string(), f.to_string())
    } else if dp <= 0 {
        (
            "0".to_string(),
            // bounded: a float's exponent (< 400)
            format!("{}{}", "0".repeat((-dp) as usize), digits),
        )
    } else if dp as usize >= digits.len() {
        (
            format!("{}{}", digits, "0".repeat(dp as usize - digits.len())),
            String::new(),
        )
    } else {
        (
            digits[..dp as usize].to_string(),
            digits[dp as usize..].to_string(),
        )
    };
    let int_part = if digits.chars().all(|c| c == '0') {
        "0".to_string()
    } else {
        int_part
    };
    trim_frac(&mut frac, trim, min_digits);
    let sign = if neg {
        "-"
    } else if plus {
        "+"
    } else {
        ""
    };
    let left = format!("{sign}{int_part}");
    let mut out = format!("{left:>pad_left$}");
    if trim == Trim::DptZeros && frac.is_empty() {
        return out;
    }
    out.push('.');
    out.push_str(&format!("{frac:<pad_right$}"));
    out
}

/// Dragon4 scientific in unique mode with at most `precision` fractional digits.
fn scientific(
    x: F,
    precision: usize,
    min_digits: usize,
    trim: Trim,
    pad_left: usize,
    exp_digits: usize,
    plus: bool,
) -> String {
    let mut s = x.sci_short();
    let (_, d, _) = parse_sci(&s);
    if d.len() > precision + 1 {
        s = x.sci_prec(precision);
    }
    let (neg, digits, e) = parse_sci(&s);
    let mut frac = digits[1..].to_string();
    trim_frac(&mut frac, trim, min_digits);
    let sign = if neg {
        "-"
    } else if plus {
        "+"
    } else {
        ""
    };
    let left = format!("{sign}{}", &digits[..1]);
    let mut out = format!("{left:>pad_left$}");
    if !(trim == Trim::DptZeros && frac.is_empty()) {
        out.push('.');
        out.push_str(&frac);
    }
    let esign = if e < 0 { '-' } else { '+' };
    let ed = e.unsigned_abs().to_string();
    out.push_str(&format!("e{esign}{ed:0>exp_digits$}"));
    out
}

/// NumPy's FloatingFormat, sized from the values that will be shown.
struct FloatFormat {
    /// Whether non-negative values show a `+` (the imaginary parts of complex values).
    plus: bool,
    exp: bool,
    precision: usize,
    min_digits: usize,
    trim: Trim,
    pad_left: usize,
    pad_right: usize,
    exp_size: usize,
}

impl FloatFormat {
    fn new(vals: &[Scalar], plus: bool) -> FloatFormat {
        let finite: Vec<F> = vals
            .iter()
            .filter(|s| s.as_f64().is_finite())
            .map(|&s| F::of(s))
            .collect();
        let nz: Vec<f64> = finite
            .iter()
            .map(|f| f.v().abs())
            .filter(|&v| v != 0.0)
            .collect();
        let mut exp = false;
        if !nz.is_empty() {
            let max = nz.iter().cloned().fold(f64::MIN, f64::max);
            let min = nz.iter().cloned().fold(f64::MAX, f64::min);
            // NumPy compares in the array's precision; for float32 the values are exact in f64.
            // The cutoff is 10**min(8, finfo(dtype).precision): 1e3, 1e6, 1e8.
            let cutoff = match vals.first().map(|s| s.dtype().real_part()) {
                Some(DType::F16) => 1e3,
                Some(DType::F32) => 1e6,
                _ => 1e8,
            };
            if max >= cutoff || min < 0.0001 || max / min > 1000.0 {
                exp = true;
            }
        }
        let mut f = FloatFormat {
            plus,
            exp,
            precision: PRECISION,
            min_digits: 0,
            trim: Trim::Dot,
            pad_left: 0,
            pad_right: 0,
            exp_size: 0,
        };
        if finite.is_empty() {
            f.exp = false;
        } else if exp {
            let strs: Vec<String> = finite
                .iter()
                .map(|&x| scientific(x, PRECISION, 0, Trim::Dot, 0, 2, plus))
                .collect();
            let mut maxfrac = 0;
            let mut maxint = 0;
            let mut maxexp = 0;
            for s in &strs {
                let (m, e) = s.split_once('e').unwrap_or((s, ""));
                let (i, fr) = m.split_once('.').unwrap_or((m, ""));
                maxint = maxint.max(i.len());
                maxfrac = maxfrac.max(fr.len());
                maxexp = maxexp.max(e.len());
            }
            f.exp_size = maxexp.saturating_sub(1);
            f.trim = Trim::K;
            f.precision = maxfrac;
            f.min_digits = maxfrac;
            f.pad_left = maxint;
            f.pad_right = f.exp_size + 2 + maxfrac;
        } else {
            for &x in &finite {
                let s = positional(x, PRECISION, 0, Trim::Dot, 0, 0, plus);
                let (i, fr) = s.split_once('.').unwrap_or((&s, ""));
                f.pad_left = f.pad_left.max(i.len());
                f.pad_right = f.pad_right.max(fr.len());
            }
        }
        if finite.len() != vals.len() {
            let neginf = (plus || vals.iter().any(|s| s.as_f64() == f64::NEG_INFINITY)) as usize;
            let offset = f.pad_right + 1;
            f.pad_left = f
                .pad_left
                .max(3usize.saturating_sub(offset))
                .max((3 + neginf).saturating_sub(offset));
        }
        f
    }

    fn format(&self, s: Scalar) -> String {
        let v = s.as_f64();
        if !v.is_finite() {
            let ret = if v.is_nan() {
                if self.plus {
                    "+nan"
                } else {
                    "nan"
                }
            } else if v < 0.0 {
                "-inf"
            } else if self.plus {
                "+inf"
            } else {
                "inf"
            };
            let w = self.pad_left + self.pad_right + 1;
            return format!("{ret:>w$}");
        }
        if self.exp {
            scientific(
                F::of(s),
                self.precision,
                self.min_digits,
                self.trim,
                self.pad_left,
                self.exp_size,
                self.plus,
            )
        } else {
            positional(
                F::of(s),
                self.precision,
                self.min_digits,
                self.trim,
                self.pad_left,
                self.pad_right,
                self.plus,
            )
        }
    }
}

/// The element formatter for an array (sized from the shown values).
fn formatter(dtype: DType, vals: &[Scalar], zero_d: bool) -> Box<dyn Fn(Scalar) -> String> {
    if dtype.is_complex() {
        let part = |imag: bool| -> Vec<Scalar> {
            vals.iter()
                .map(|s| {
                    let (r, i) = s.as_c128();
                    part_scalar(dtype, if imag { i } else { r })
                })
                .collect()
        };
        let (re, im) = (
            FloatFormat::new(&part(false), false),
            FloatFormat::new(&part(true), true),
        );
        Box::new(move |s| {
            let (r, i) = s.as_c128();
            let (r, mut i) = (
                re.format(part_scalar(dtype, r)),
                im.format(part_scalar(dtype, i)),
            );
            // The `j` goes before the imaginary part's right padding.
            i.insert(i.trim_end().len(), 'j');
            r + &i
        })
    } else if dtype.is_float() {
        let f = FloatFormat::new(vals, false);
        Box::new(move |s| f.format(s))
    } else if dtype == DType::Bool {
        let t = if zero_d { "True" } else { " True" };
        Box::new(move |s| {
            if s.as_i64() != 0 {
                t.into()
            } else {
                "False".into()
            }
        })
    } else {
        let w = vals.iter().map(|s| int_str(*s).len()).max().unwrap_or(0);
        Box::new(move |s| format!("{:>w$}", int_str(s)))
    }
}

fn int_str(s: Scalar) -> String {
    match s {
        Scalar::U64(v) => v.to_string(),
        other => other.as_i64().to_string(),
    }
}

struct Printer<'a> {
    a: &'a NdArray,
    summarize: bool,
    fmt: Box<dyn Fn(Scalar) -> String>,
    sep: &'a str,
}

impl Printer<'_> {
    fn at(&self, idx: &[usize]) -> Scalar {
        let mut off = self.a.offset as isize;
        for (i, &ix) in idx.iter().enumerate() {
            off += ix as isize * self.a.strides[i];
        }
        read_scalar_at(self.a, off as usize)
    }

    fn extend_line(s: &mut String, line: &mut String, word: &str, width: usize, prefix: &str) {
        let mut wrap = line.len() + word.len() > width;
        if line.len() <= prefix.len() {
            wrap = false;
        }
        if wrap {
            s.push_str(line.trim_end());
            s.push('\n');
            *line = prefix.to_string();
        }
        line.push_str(word);
    }

    fn recurse(&self, index: &mut Vec<usize>, hanging: &str, width: usize) -> String {
        let axis = index.len();
        let left = self.a.ndim() - axis;
        if left == 0 {
            return (self.fmt)(self.at(index));
        }
        let next_hanging = format!("{hanging} ");
        let next_width = width.saturating_sub(1);
        let n = self.a.shape[axis];
        let show_summary = self.summarize && 2 * EDGE < n;
        let (lead, trail) = if show_summary { (EDGE, EDGE) } else { (0, n) };
        let mut s = String::new();
        let sub = |i: usize, index: &mut Vec<usize>| {
            index.push(i);
            let r = self.recurse(index, &next_hanging, next_width);
            index.pop();
            r
        };
        if left == 1 {
            let sep_r = self.sep.trim_end();
            let elem_width = width.saturating_sub(sep_r.len().max(1));
            let mut line = hanging.to_string();
            for i in 0..lead {
                let w = sub(i, index);
                Self::extend_line(&mut s, &mut line, &w, elem_width, hanging);
                line.push_str(self.sep);
            }
            if show_summary {
                Self::extend_line(&mut s, &mut line, "...", elem_width, hanging);
                line.push_str(self.sep);
            }
            for i in (2..=trail).rev() {
                let w = sub(n - i, index);
                Self::extend_line(&mut s, &mut line, &w, elem_width, hanging);
                line.push_str(self.sep);
            }
            let w = sub(n - 1, index);
            Self::extend_line(&mut s, &mut line, &w, elem_width, hanging);
            s.push_str(&line);
        } else {
            // bounded: left <= ndim
            let line_sep = format!("{}{}", self.sep.trim_end(), "\n".repeat(left - 1));
            for i in 0..lead {
                let nested = sub(i, index);
                s.push_str(&format!("{hanging}{nested}{line_sep}"));
            }
            if show_summary {
                s.push_str(&format!("{hanging}...{line_sep}"));
            }
            for i in (2..=trail).rev() {
                let nested = sub(n - i, index);
                s.push_str(&format!("{hanging}{nested}{line_sep}"));
            }
            let nested = sub(n - 1, index);
            s.push_str(&format!("{hanging}{nested}"));
        }
        format!("[{}]", &s[hanging.len().min(s.len())..])
    }
}

/// The values NumPy sizes its formatter from: everything, or the edge items when summarised.
fn shown_values(a: &NdArray, summarize: bool) -> Vec<Scalar> {
    fn go(a: &NdArray, idx: &mut Vec<usize>, summarize: bool, out: &mut Vec<Scalar>) {
        let ax = idx.len();
        if ax == a.ndim() {
            let mut off = a.offset as isize;
            for (i, &ix) in idx.iter().enumerate() {
                off += ix as isize * a.strides[i];
            }
            out.push(read_scalar_at(a, off as usize));
            return;
        }
        let n = a.shape[ax];
        let picks: Vec<usize> = if summarize && 2 * EDGE < n {
            (0..EDGE).chain(n - EDGE..n).collect()
        } else {
            (0..n).collect()
        };
        for i in picks {
            idx.push(i);
            go(a, idx, summarize, out);
            idx.pop();
        }
    }
    let mut out = Vec::new();
    go(a, &mut Vec::new(), summarize, &mut out);
    out
}

/// NumPy's array2string with the default options.
pub fn array2string(a: &NdArray, sep: &str, prefix: &str, suffix: &str) -> String {
    if a.size() == 0 {
        return "[]".into();
    }
    let summarize = a.size() > THRESHOLD;
    let vals = shown_values(a, summarize);
    let p = Printer {
        a,
        summarize,
        fmt: formatter(a.dtype, &vals, a.ndim() == 0),
        sep,
    };
    let hanging = " ".repeat(prefix.len() + 1); // bounded: an existing prefix
    p.recurse(&mut Vec::new(), &hanging, LINEWIDTH - suffix.len())
}

fn dtype_is_implied(d: DType) -> bool {
    matches!(d, DType::F64 | DType::I64 | DType::Bool | DType::C128)
}

/// `repr(arr)`.
pub fn array_repr(a: &NdArray) -> String {
    let prefix = "array(";
    let lst = array2string(a, ", ", prefix, ")");
    let mut extras = Vec::new();
    if (a.size() == 0 && a.shape != [0]) || a.size() > THRESHOLD {
        extras.push(format!("shape={}", shape_str(&a.shape)));
    }
    if !dtype_is_implied(a.dtype) || a.size() == 0 {
        extras.push(format!("dtype={}", a.dtype.name()));
    }
    if extras.is_empty() {
        return format!("{prefix}{lst})");
    }
    let arr_str = format!("{prefix}{lst},");
    let extra = format!("{})", extras.join(", "));
    let last_line = arr_str.len() - arr_str.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let spacer = if last_line + extra.len() + 1 > LINEWIDTH {
        format!("\n{}", " ".repeat(prefix.len()))
    } else {
        " ".into()
    };
    format!("{arr_str}{spacer}{extra}")
}

/// `str(arr)`.
pub fn array_str(a: &NdArray) -> String {
    if a.ndim() == 0 {
        return scalar_str(&read_scalar_at(a, a.offset));
    }
    array2string(a, " ", "", "")
}

/// `str()` of a NumPy float scalar: positional between 1e-4 and 1e16, else scientific.
fn float_scalar_str(x: F) -> String {
    either_str(x, Trim::LeaveOneZero, false)
}

/// NumPy's `*_either` scalar formatting with `trim` for the positional form and an optional
/// `+` on non-negative values (the imaginary part of a complex).
fn either_str(x: F, trim: Trim, plus: bool) -> String {
    let v = x.v();
    let p = if plus { "+" } else { "" };
    if v.is_nan() {
        return format!("{p}nan");
    }
    if v.is_infinite() {
        return if v < 0.0 {
            "-inf".into()
        } else {
            format!("{p}inf")
        };
    }
    let a = v.abs();
    // NumPy 2.3 switches to scientific at the type's precision: 1e8 for float32.
    let max_positional = match x {
        F::H(_) => 1e3,
        F::S(_) => 1e8,
        F::D(_) => 1e16,
    };
    if a == 0.0 || (1e-4..max_positional).contains(&a) {
        positional(x, usize::MAX / 4, 0, trim, 0, 0, plus)
    } else {
        scientific(x, usize::MAX / 4, 0, Trim::DptZeros, 0, 2, plus)
    }
}

/// `str(np.float32(1.5))` → `1.5`.
pub fn scalar_str(s: &Scalar) -> String {
    match *s {
        Scalar::Bool(b) => if b { "True" } else { "False" }.into(),
        Scalar::F16(_) | Scalar::F32(_) | Scalar::F64(_) => float_scalar_str(F::of(*s)),
        Scalar::C64(..) | Scalar::C128(..) => complex_scalar_str(s),
        other => int_str(other),
    }
}

/// `str(np.complex128(1+2j))` → `(1+2j)`; a value with a +0 real part shows only `2j`.
fn complex_scalar_str(s: &Scalar) -> String {
    let (r, i) = s.as_c128();
    let part = |v: f64, plus: bool| {
        let f = F::of(part_scalar(s.dtype(), v));
        either_str(f, Trim::DptZeros, plus)
    };
    if r == 0.0 && r.is_sign_positive() {
        return format!("{}j", part(i, false));
    }
    format!("({}{}j)", part(r, false), part(i, true))
}

/// `repr(np.float32(1.5))` → `np.float32(1.5)`.
pub fn scalar_repr(s: &Scalar) -> String {
    match *s {
        Scalar::Bool(b) => if b { "np.True_" } else { "np.False_" }.into(),
        Scalar::C64(..) | Scalar::C128(..) => {
            let text = scalar_str(s);
            let inner = text.strip_prefix('(').and_then(|t| t.strip_suffix(')'));
            format!("np.{}({})", s.dtype().name(), inner.unwrap_or(&text))
        }
        other => format!("np.{}({})", other.dtype().name(), scalar_str(&other)),
    }
}

/// Python's `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16.
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "1.2345e-5".
    let sci = format!("{x:e}");
    // invariant: x is finite and nonzero here, and `{:e}` of one is `<mantissa>e<int>`
    let (mant, exp) = sci.split_once('e').expect("exponent form");
    let exp: i32 = exp.parse().expect("integer exponent");
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if neg { "-" } else { "" };
    if !(-4..16).contains(&exp) {
        let m = if digits.len() > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits.clone()
        };
        let es = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{m}e{es}{:02}", exp.abs());
    }
    let point = exp + 1; // digits before the decimal point
    if point <= 0 {
        // bounded: a float's exponent (< 400)
        format!("{sign}0.{}{}", "0".repeat((-point) as usize), digits)
    } else if point as usize >= digits.len() {
        format!(
            "{sign}{}{}.0",
            digits,
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
