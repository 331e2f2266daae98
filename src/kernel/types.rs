//! Numba's kernel types and typing rules: scalar promotion for arithmetic, variable
//! unification, and the signature strings users write (`'float32(float32, float32)'`,
//! `'void(float32[:], int32)'`, `'f4(f4, f4)'`).

use std::fmt;

use crate::arrays::dtype::DType;

/// Array memory layout as Numba distinguishes it: `C` (`float32[::1]`) or any (`float32[:]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    C,
    A,
}

/// A kernel parameter or signature type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Scalar(DType),
    Array {
        dtype: DType,
        ndim: usize,
        layout: Layout,
    },
    Void,
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Scalar(d) => write!(f, "{}", numba_name(*d)),
            Ty::Void => write!(f, "none"),
            Ty::Array {
                dtype,
                ndim,
                layout,
            } => {
                let l = match layout {
                    Layout::C => "C",
                    Layout::A => "A",
                };
                write!(f, "array({}, {}d, {})", numba_name(*dtype), ndim, l)
            }
        }
    }
}

/// Numba's spelling of a dtype (`bool` is `boolean`).
pub fn numba_name(d: DType) -> &'static str {
    match d {
        DType::Bool => "boolean",
        other => other.name(),
    }
}

/// NumPy's `promote_types`: one definition, shared with host arrays.
pub use crate::arrays::promote::promote;

/// Result type of `+ - * // % **` and bitwise operators in Numba: integers are widened to
/// at least 64 bits (Numba computes integer arithmetic in `intp`), floats follow NumPy.
pub fn arith(a: DType, b: DType) -> DType {
    let p = promote(a, b);
    if p.is_float() {
        return p;
    }
    let a_int = a.is_integer() || a == DType::Bool;
    let b_int = b.is_integer() || b == DType::Bool;
    if a_int && b_int {
        let unsigned = |d: DType| d.is_integer() && !d.is_signed();
        match (unsigned(a), unsigned(b)) {
            (true, true) => DType::U64,
            (false, false) => DType::I64,
            _ => {
                if p == DType::F64 {
                    DType::F64
                } else {
                    DType::I64
                }
            }
        }
    } else {
        p
    }
}

/// Result type of true division: integers give float64.
pub fn true_div(a: DType, b: DType) -> DType {
    let p = promote(a, b);
    if p.is_float() {
        p
    } else {
        DType::F64
    }
}

/// The float type a `math.*` function computes in: float32 stays float32, everything else
/// is float64.
pub fn math_float(a: DType) -> DType {
    if a == DType::F32 {
        DType::F32
    } else {
        DType::F64
    }
}

/// Unify the types a variable is assigned in different places (Numba's unification).
pub fn unify(a: DType, b: DType) -> DType {
    promote(a, b)
}

/// A parsed signature: return type (None when omitted, as in `'(float32[:], int32)'`) and
/// argument types.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    pub ret: Option<Ty>,
    pub args: Vec<Ty>,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let args: Vec<String> = self.args.iter().map(|a| a.to_string()).collect();
        match &self.ret {
            Some(r) => write!(f, "({}) -> {}", args.join(", "), r),
            None => write!(f, "({})", args.join(", ")),
        }
    }
}

/// Parse one type: `float32`, `f4`, `int32[:]`, `float64[:, ::1]`, `void`.
pub fn parse_type(s: &str) -> Result<Ty, String> {
    let s = s.trim();
    if s == "void" || s == "none" {
        return Ok(Ty::Void);
    }
    if let Some(open) = s.find('[') {
        let base = s[..open].trim();
        let dtype = parse_dtype(base)?;
        let inner = s[open + 1..]
            .strip_suffix(']')
            .ok_or_else(|| format!("unbalanced brackets in type '{s}'"))?;
        let dims: Vec<&str> = inner.split(',').map(str::trim).collect();
        let mut layout = Layout::A;
        for (i, d) in dims.iter().enumerate() {
            match *d {
                ":" => {}
                "::1" if i + 1 == dims.len() => layout = Layout::C,
                // Fortran order: nbcuda has no F layout type, so such a signature accepts
                // any layout ('A').
                "::1" if i == 0 => {}
                other => return Err(format!("invalid array dimension '{other}' in type '{s}'")),
            }
        }
        if dims.is_empty() || dims.len() > 3 {
            return Err(format!(
                "arrays of 1 to 3 dimensions are supported, not '{s}'"
            ));
        }
        return Ok(Ty::Array {
            dtype,
            ndim: dims.len(),
            layout,
        });
    }
    Ok(Ty::Scalar(parse_dtype(s)?))
}

/// A scalar type name as Numba accepts it in signatures.
pub fn parse_dtype(s: &str) -> Result<DType, String> {
    let s = s.trim();
    let d = match s {
        "boolean" | "b1" | "bool_" | "bool" => Some(DType::Bool),
        "intp" => Some(DType::I64),
        "uintp" => Some(DType::U64),
        "f" | "d" | "i" | "l" | "q" | "b" | "h" | "B" | "H" | "I" | "L" | "Q" | "int" => None,
        other => DType::parse(other),
    };
    d.ok_or_else(|| format!("unknown type name '{s}' in signature"))
}

/// Split at top-level commas (outside brackets and parentheses).
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(&s[start..]);
    }
    out
}

/// Parse a signature string: `'float32(float32, float32)'`, `'void(float32[:])'`,
/// `'(float32[:], float32[:])'`.
pub fn parse_signature(s: &str) -> Result<Signature, String> {
    let s = s.trim();
    let open = s
        .find('(')
        .ok_or_else(|| format!("invalid signature '{s}': expected 'ret(arg, ...)'"))?;
    let inner = s[open + 1..]
        .trim_end()
        .strip_suffix(')')
        .ok_or_else(|| format!("invalid signature '{s}': missing ')'"))?;
    let ret_s = s[..open].trim();
    let ret = if ret_s.is_empty() {
        None
    } else {
        Some(parse_type(ret_s)?)
    };
    let args = split_top(inner)
        .into_iter()
        .map(parse_type)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Signature { ret, args })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numba_arith_rules() {
        assert_eq!(arith(DType::F32, DType::F32), DType::F32);
        assert_eq!(arith(DType::I64, DType::F32), DType::F64);
        assert_eq!(arith(DType::I32, DType::I32), DType::I64);
        assert_eq!(arith(DType::U32, DType::U32), DType::U64);
        assert_eq!(arith(DType::I64, DType::U64), DType::F64);
        assert_eq!(true_div(DType::I64, DType::I64), DType::F64);
        assert_eq!(true_div(DType::F32, DType::F32), DType::F32);
        assert_eq!(unify(DType::I64, DType::F32), DType::F64);
    }

    #[test]
    fn signatures() {
        let s = parse_signature("f4(f4, f4)").unwrap();
        assert_eq!(s.ret, Some(Ty::Scalar(DType::F32)));
        assert_eq!(s.args.len(), 2);
        let s = parse_signature("void(float32[:, ::1], int32)").unwrap();
        assert_eq!(s.ret, Some(Ty::Void));
        assert_eq!(
            s.args[0],
            Ty::Array {
                dtype: DType::F32,
                ndim: 2,
                layout: Layout::C
            }
        );
        let s = parse_signature("(float32[:], float32[:])").unwrap();
        assert_eq!(s.ret, None);
        assert!(parse_signature("float32(bogus)").is_err());
        assert!(parse_signature("float32").is_err());
    }
}
