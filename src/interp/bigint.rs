//! Int arithmetic with Python semantics: the i64 fast path and, where a result leaves 64
//! bits, the same operation on big integers (`2**100`, `10**30 // 7`, `pow(a, b, m)`).
//! Every operation bounds its result size first ([`crate::py::bigint::MAX_BITS`]), so
//! `1 << 10**12` or `10**10**8` raises MemoryError instead of hanging the kernel.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::arrays::operator::BinOp;
use crate::py::bigint::{
    check_bits, check_work, from_big, from_i128, limbs, to_big, to_f64, too_big,
};
use crate::py::error::{PyErr, PyResult};
use crate::py::value::Value;

/// `x op y` for two ints (or bools), as Python computes it.
pub fn int_binary(op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
    if let (Some(x), Some(y)) = (small(a), small(b)) {
        if let Some(v) = small_op(op, x, y)? {
            return Ok(v);
        }
    }
    match (to_big(a), to_big(b)) {
        (Some(x), Some(y)) => big_op(op, &x, &y),
        _ => Err(PyErr::type_error(format!(
            "unsupported operand type(s) for {}: '{}' and '{}'",
            op.symbol(),
            a.type_name(),
            b.type_name()
        ))),
    }
}

fn small(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(*b as i64),
        _ => None,
    }
}

/// The i64 fast path; None when the result leaves 64 bits (the caller redoes it big).
fn small_op(op: BinOp, x: i64, y: i64) -> PyResult<Option<Value>> {
    Ok(Some(match op {
        // Sums, differences and products of two i64 always fit in 128 bits.
        BinOp::Add => from_i128(x as i128 + y as i128),
        BinOp::Sub => from_i128(x as i128 - y as i128),
        BinOp::Mul => from_i128(x as i128 * y as i128),
        BinOp::Div => {
            if y == 0 {
                return Err(PyErr::zero_division("division by zero"));
            }
            // Exact in f64 below 2**53; larger operands divide exactly on the big path.
            if x.unsigned_abs() > 1 << 53 || y.unsigned_abs() > 1 << 53 {
                return Ok(None);
            }
            Value::Float(x as f64 / y as f64)
        }
        BinOp::FloorDiv => {
            if y == 0 {
                return Err(div_zero());
            }
            from_i128(Integer::div_floor(&(x as i128), &(y as i128)))
        }
        BinOp::Mod => {
            if y == 0 {
                return Err(PyErr::zero_division("integer modulo by zero"));
            }
            from_i128(Integer::mod_floor(&(x as i128), &(y as i128)))
        }
        BinOp::Pow => {
            if y < 0 {
                return Ok(None);
            }
            match u32::try_from(y).ok().and_then(|e| x.checked_pow(e)) {
                Some(r) => Value::Int(r),
                None => return Ok(None),
            }
        }
        BinOp::LShift => {
            if y < 0 {
                return Err(PyErr::value_error("negative shift count"));
            }
            // Shift in 128 bits and check the result fits: `1 << 63` is 2**63, which an i64
            // cannot hold, while `-1 << 63` can.
            match y {
                _ if x == 0 => Value::Int(0),
                0..=63 => from_i128((x as i128) << y),
                _ => return Ok(None),
            }
        }
        BinOp::RShift => {
            if y < 0 {
                return Err(PyErr::value_error("negative shift count"));
            }
            Value::Int(x >> y.min(63))
        }
        BinOp::BitAnd => Value::Int(x & y),
        BinOp::BitOr => Value::Int(x | y),
        BinOp::BitXor => Value::Int(x ^ y),
        _ => return Ok(None),
    }))
}

fn div_zero() -> PyErr {
    PyErr::zero_division("integer division or modulo by zero")
}

/// `x op y` on big integers, with the result size checked before any work.
pub fn big_op(op: BinOp, x: &BigInt, y: &BigInt) -> PyResult<Value> {
    Ok(match op {
        BinOp::Add => {
            check_bits(x.bits().max(y.bits()) + 1)?;
            from_big(x + y)
        }
        BinOp::Sub => {
            check_bits(x.bits().max(y.bits()) + 1)?;
            from_big(x - y)
        }
        BinOp::Mul => {
            check_bits(x.bits() + y.bits())?;
            from_big(x * y)
        }
        BinOp::Div => Value::Float(true_div(x, y)?),
        BinOp::FloorDiv => {
            if y.is_zero() {
                return Err(div_zero());
            }
            check_division(x, y)?;
            from_big(x.div_floor(y))
        }
        BinOp::Mod => {
            if y.is_zero() {
                return Err(PyErr::zero_division("integer modulo by zero"));
            }
            check_division(x, y)?;
            from_big(x.mod_floor(y))
        }
        BinOp::Pow => pow(x, y)?,
        BinOp::LShift => {
            if y.is_negative() {
                return Err(PyErr::value_error("negative shift count"));
            }
            if x.is_zero() {
                return Ok(Value::Int(0));
            }
            let n = y.to_u64().ok_or_else(|| too_big(u64::MAX))?;
            check_bits(x.bits().saturating_add(n))?;
            from_big(x << n)
        }
        BinOp::RShift => {
            if y.is_negative() {
                return Err(PyErr::value_error("negative shift count"));
            }
            match y.to_u64() {
                // BigInt's >> rounds toward negative infinity, as Python's does.
                Some(n) if n < x.bits() => from_big(x >> n),
                _ => Value::Int(if x.is_negative() { -1 } else { 0 }),
            }
        }
        BinOp::BitAnd => from_big(x & y),
        BinOp::BitOr => from_big(x | y),
        BinOp::BitXor => from_big(x ^ y),
        _ => {
            return Err(PyErr::type_error(format!(
                "unsupported operand type(s) for {}: 'int' and 'int'",
                op.symbol()
            )))
        }
    })
}

/// Long division's cost: quotient words times divisor words.
fn check_division(x: &BigInt, y: &BigInt) -> PyResult<()> {
    let q = x.bits().saturating_sub(y.bits()) + 1;
    check_work(limbs(q) * limbs(y.bits()), "division")
}

/// `x / y` correctly rounded, as CPython divides ints: exact operands, one rounding.
fn true_div(x: &BigInt, y: &BigInt) -> PyResult<f64> {
    if y.is_zero() {
        return Err(PyErr::zero_division("division by zero"));
    }
    if x.is_zero() {
        return Ok(if x.is_negative() != y.is_negative() {
            -0.0
        } else {
            0.0
        });
    }
    // Scale so the integer quotient has 55 to 56 significant bits, then fold the remainder
    // into a sticky bit: converting that to f64 rounds once, to nearest-even.
    let shift = y.bits() as i64 - x.bits() as i64 + 55;
    let (n, d) = if shift >= 0 {
        (x.abs() << shift as u64, y.abs())
    } else {
        (x.abs(), y.abs() << (-shift) as u64)
    };
    let (q, r) = n.div_rem(&d);
    let q = (q << 1u32) | BigInt::from(!r.is_zero() as u8);
    let mant = q.to_f64().unwrap_or(f64::INFINITY);
    let exp = -(shift + 1);
    let mut v = scale2(mant, exp);
    if v.is_infinite() {
        return Err(PyErr::overflow(
            "integer division result too large for a float",
        ));
    }
    if x.is_negative() != y.is_negative() {
        v = -v;
    }
    Ok(v)
}

/// `m * 2**e` without overflowing the intermediate power.
fn scale2(mut m: f64, mut e: i64) -> f64 {
    while e > 1000 {
        m *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        m *= 2f64.powi(-1000);
        e += 1000;
    }
    m * 2f64.powi(e as i32)
}

/// `x ** y` for ints: exact for `y >= 0`, a float for negative `y`, as Python.
fn pow(x: &BigInt, y: &BigInt) -> PyResult<Value> {
    if y.is_negative() {
        if x.is_zero() {
            return Err(PyErr::zero_division(
                "0.0 cannot be raised to a negative power",
            ));
        }
        let base = to_f64(x)?;
        let e = y.to_f64().unwrap_or(f64::NEG_INFINITY);
        return Ok(Value::Float(base.powf(e)));
    }
    if x.is_zero() || x.is_one() || y.is_zero() {
        return Ok(Value::Int(if y.is_zero() || x.is_one() { 1 } else { 0 }));
    }
    if *x == BigInt::from(-1) {
        return Ok(Value::Int(if y.is_even() { 1 } else { -1 }));
    }
    // |x| >= 2: the result has at least (bits(x) - 1) * y bits.
    let e = y.to_u64().ok_or_else(|| too_big(u64::MAX))?;
    let lower = (x.bits() - 1).saturating_mul(e);
    check_bits(lower)?;
    let e = u32::try_from(e).map_err(|_| too_big(lower))?;
    Ok(from_big(num_traits::Pow::pow(x, e)))
}

/// `pow(base, exp, mod)` for ints, as CPython 3.8+: a negative exponent takes the modular
/// inverse; the result's sign follows the modulus.
pub fn pow_mod(base: &Value, exp: &Value, modulus: &Value) -> PyResult<Value> {
    let (Some(b), Some(e), Some(m)) = (to_big(base), to_big(exp), to_big(modulus)) else {
        return Err(PyErr::type_error(
            "pow() 3rd argument not allowed unless all arguments are integers",
        ));
    };
    if m.is_zero() {
        return Err(PyErr::value_error("pow() 3rd argument cannot be 0"));
    }
    let (b, e) = if e.is_negative() {
        let inv = b
            .mod_floor(&m.abs())
            .modinv(&m.abs())
            .ok_or_else(|| PyErr::value_error("base is not invertible for the given modulus"))?;
        (inv, -e)
    } else {
        (b, e)
    };
    // Each of the exponent's bits costs a product and a reduction modulo m.
    let m_limbs = limbs(m.bits());
    check_work(e.bits() as u128 * m_limbs * m_limbs, "pow() with a modulus")?;
    let r = b.modpow(&e, &m.abs());
    // modpow answers in [0, |m|); Python's result takes the modulus's sign.
    Ok(from_big(if m.is_negative() && !r.is_zero() {
        r + m
    } else {
        r
    }))
}

/// `-x` for an int.
pub fn neg(v: &Value) -> Option<Value> {
    match v {
        Value::Int(i) => Some(from_i128(-(*i as i128))),
        Value::BigInt(b) => Some(from_big(-(**b).clone())),
        _ => None,
    }
}

/// `abs(x)` for an int.
pub fn abs(v: &Value) -> Option<Value> {
    match v {
        Value::Int(i) => Some(from_i128((*i as i128).abs())),
        Value::BigInt(b) => Some(from_big(b.abs())),
        _ => None,
    }
}

/// `~x` for a big int.
pub fn invert(b: &BigInt) -> Value {
    let r: BigInt = b + 1;
    from_big(-r)
}

/// The digits of an int in base 2, 8, 10 or 16 (no prefix; sign first).
pub fn to_radix(v: &Value, radix: u32, upper: bool) -> PyResult<String> {
    let b = to_big(v).ok_or_else(|| {
        PyErr::type_error(format!(
            "'{}' object cannot be interpreted as an integer",
            v.type_name()
        ))
    })?;
    if radix == 10 {
        return crate::py::bigint::to_decimal(&b);
    }
    let s = b.to_str_radix(radix);
    Ok(if upper { s.to_uppercase() } else { s })
}

/// Parse digits (an optional sign, no prefix, no underscores) in `radix`; None when they
/// are not a number. Decimal text past CPython's 4300-digit limit raises ValueError.
pub fn parse(text: &str, radix: u32) -> PyResult<Option<Value>> {
    if let Ok(i) = i64::from_str_radix(text, radix) {
        return Ok(Some(Value::Int(i)));
    }
    let digits = text.trim_start_matches(['+', '-']).len();
    let limit = crate::py::bigint::MAX_STR_DIGITS;
    if radix == 10 && digits > limit {
        return Err(PyErr::value_error(format!(
            "Exceeds the limit ({limit} digits) for integer string conversion: value has {digits} digits; use sys.set_int_max_str_digits() to increase the limit"
        )));
    }
    // A non-decimal text's size in bits is bounded by its length.
    check_bits(digits as u64 * 6)?;
    Ok(BigInt::parse_bytes(text.as_bytes(), radix).map(from_big))
}

/// `n.bit_length()`.
pub fn bit_length(v: &Value) -> Option<i64> {
    Some(match v {
        Value::Int(i) => 64 - i.unsigned_abs().leading_zeros() as i64,
        Value::Bool(b) => *b as i64,
        Value::BigInt(b) => b.bits() as i64,
        _ => return None,
    })
}

/// `n.bit_count()`: the ones in `abs(n)`.
pub fn bit_count(v: &Value) -> Option<i64> {
    Some(match v {
        Value::Int(i) => i.unsigned_abs().count_ones() as i64,
        Value::Bool(b) => *b as i64,
        Value::BigInt(b) => b.magnitude().count_ones() as i64,
        _ => return None,
    })
}

/// The greatest common divisor (quadratic: checked against the work budget).
pub fn gcd_big(a: &BigInt, b: &BigInt) -> PyResult<BigInt> {
    check_work(limbs(a.bits()) * limbs(b.bits()), "gcd")?;
    Ok(a.gcd(b))
}

/// The product `lo * (lo+1) * ... * hi` (empty: 1) by binary splitting, so the big
/// multiplications are few and balanced (fast multiplication pays off); the size is
/// checked and interrupts are seen at every split.
pub fn product(rt: &mut crate::py::runtime::Runtime, lo: u64, hi: u64) -> PyResult<BigInt> {
    if hi < lo {
        return Ok(BigInt::one());
    }
    if hi - lo < 32 {
        let mut acc = BigInt::one();
        for k in lo..=hi {
            acc *= k;
        }
        return Ok(acc);
    }
    rt.check_interrupt()?;
    let mid = lo + (hi - lo) / 2;
    let a = product(rt, lo, mid)?;
    let b = product(rt, mid + 1, hi)?;
    check_bits(a.bits() + b.bits())?;
    Ok(a * b)
}

/// `round(n, nd)` for an int and a negative `nd`: half to even at `10**-nd`
/// (`round(1250, -2) == 1200`).
pub fn round_int(v: &Value, nd: i64) -> PyResult<Value> {
    let Some(x) = to_big(v) else {
        return Err(PyErr::type_error("round() of a non-int"));
    };
    // 10**k past the value's own size rounds everything to 0.
    let k = nd.unsigned_abs();
    if k as f64 > x.bits() as f64 * std::f64::consts::LOG10_2 + 1.0 {
        return Ok(Value::Int(0));
    }
    let p = num_traits::Pow::pow(BigInt::from(10), k as u32);
    let (q, r) = x.div_mod_floor(&p);
    let twice: BigInt = &r * 2;
    let q = match twice.cmp(&p) {
        std::cmp::Ordering::Less => q,
        std::cmp::Ordering::Greater => q + 1,
        std::cmp::Ordering::Equal if q.is_odd() => q + 1,
        std::cmp::Ordering::Equal => q,
    };
    Ok(from_big(q * p))
}

/// An int literal of Python source that does not fit 64 bits (`0xffff_ffff_ffff_ffff_ff`,
/// `123456789012345678901234567890`).
pub fn parse_literal(text: &str) -> PyResult<Value> {
    let t = text.replace('_', "");
    let lower = t.to_ascii_lowercase();
    let (radix, digits) = match lower.get(..2) {
        Some("0x") => (16, &t[2..]),
        Some("0o") => (8, &t[2..]),
        Some("0b") => (2, &t[2..]),
        _ => (10, &t[..]),
    };
    parse(digits, radix)?
        .ok_or_else(|| PyErr::new("SyntaxError", format!("invalid int literal {text}")))
}

/// The attributes and methods of an int (`n.bit_length()`, `n.real`, `n.to_bytes(...)`).
pub fn int_attr(v: &Value, name: &str) -> Option<Value> {
    let n = v.clone();
    let method = |qual: &str,
                  sig: &str,
                  doc: &str,
                  f: fn(&Value, crate::py::value::Args) -> PyResult<Value>| {
        let n = n.clone();
        Some(Value::builtin(qual, sig, doc, move |_, a| f(&n, a)))
    };
    match name {
        "real" | "numerator" => Some(v.clone()),
        "imag" => Some(Value::Int(0)),
        "denominator" => Some(Value::Int(1)),
        "bit_length" => method(
            "int.bit_length",
            "bit_length()",
            "Number of bits needed to represent the int, sign excluded.",
            |n, _| Ok(Value::Int(bit_length(n).unwrap_or(0))),
        ),
        "bit_count" => method(
            "int.bit_count",
            "bit_count()",
            "Number of ones in the binary representation of abs(n).",
            |n, _| Ok(Value::Int(bit_count(n).unwrap_or(0))),
        ),
        "conjugate" => method(
            "int.conjugate",
            "conjugate()",
            "The int itself (ints are their own complex conjugate).",
            |n, _| Ok(n.clone()),
        ),
        "to_bytes" => method(
            "int.to_bytes",
            "to_bytes(length=1, byteorder='big', *, signed=False)",
            "The int as an array of bytes.",
            to_bytes,
        ),
        _ => None,
    }
}

/// `byteorder` and `signed`, bound second and third by `to_bytes` and `from_bytes`: whether
/// the bytes are little-endian, and whether they hold two's complement.
fn byte_order(p: &[Option<Value>]) -> PyResult<(bool, bool)> {
    let little = match p[1].as_ref().and_then(|v| v.as_str()) {
        None | Some("big") => false,
        Some("little") => true,
        Some(_) => {
            return Err(PyErr::value_error(
                "byteorder must be either 'little' or 'big'",
            ))
        }
    };
    Ok((little, matches!(p[2], Some(Value::Bool(true)))))
}

fn to_bytes(n: &Value, a: crate::py::value::Args) -> PyResult<Value> {
    let p = a.bind("to_bytes", &["length=", "byteorder=", "signed="])?;
    let length = match &p[0] {
        Some(l) => l.as_index()?,
        None => 1,
    };
    if length < 0 {
        return Err(PyErr::value_error("length argument must be non-negative"));
    }
    let (little, signed) = byte_order(&p)?;
    let b = to_big(n).unwrap_or_default();
    if b.is_negative() && !signed {
        return Err(PyErr::overflow("can't convert negative int to unsigned"));
    }
    let mut bytes = b.to_signed_bytes_le();
    // to_signed_bytes_le keeps a sign byte an unsigned result does not need.
    if !signed && bytes.len() > 1 && bytes.last() == Some(&0) {
        bytes.pop();
    }
    if b.is_zero() {
        bytes.clear();
    }
    if bytes.len() > length as usize {
        return Err(PyErr::overflow("int too big to convert"));
    }
    let fill = if b.is_negative() { 0xff } else { 0 };
    crate::arrays::alloc::check(length as usize, 1, "bytes")?;
    // bounded: alloc::check above
    bytes.resize(length as usize, fill);
    if !little {
        bytes.reverse();
    }
    Ok(Value::Bytes(bytes.into()))
}

/// `int.from_bytes(bytes, byteorder='big', *, signed=False)`.
pub fn from_bytes(a: crate::py::value::Args) -> PyResult<Value> {
    let p = a.bind("from_bytes", &["bytes", "byteorder=", "signed="])?;
    let bytes: Vec<u8> = match &p[0] {
        Some(Value::Bytes(b)) => b.to_vec(),
        Some(Value::List(l)) => l
            .borrow()
            .iter()
            .map(|v| {
                let i = v.as_index()?;
                u8::try_from(i).map_err(|_| PyErr::value_error("bytes must be in range(0, 256)"))
            })
            .collect::<PyResult<_>>()?,
        other => {
            return Err(PyErr::type_error(format!(
                "cannot convert '{}' object to bytes",
                other.as_ref().map_or("NoneType".into(), |v| v.type_name())
            )))
        }
    };
    let (little, signed) = byte_order(&p)?;
    let b = match (little, signed) {
        (true, true) => BigInt::from_signed_bytes_le(&bytes),
        (false, true) => BigInt::from_signed_bytes_be(&bytes),
        (true, false) => BigInt::from_bytes_le(num_bigint::Sign::Plus, &bytes),
        (false, false) => BigInt::from_bytes_be(num_bigint::Sign::Plus, &bytes),
    };
    Ok(from_big(b))
}

/// `float.as_integer_ratio()`: the exact ratio, in lowest terms (the denominator a power
/// of two).
pub fn float_ratio(f: f64) -> PyResult<Value> {
    if f.is_nan() {
        return Err(PyErr::value_error("cannot convert NaN to integer ratio"));
    }
    if f.is_infinite() {
        return Err(PyErr::overflow("cannot convert Infinity to integer ratio"));
    }
    if f == f.trunc() {
        return Ok(Value::tuple(vec![
            crate::py::bigint::from_f64(f)?,
            Value::Int(1),
        ]));
    }
    // A finite non-integer: mantissa * 2**exp with exp < 0, reduced by the mantissa's
    // trailing zero bits.
    let bits = f.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i64;
    let mut mant = (bits & ((1u64 << 52) - 1)) as i64;
    let mut exp = if raw_exp == 0 {
        -1074
    } else {
        mant |= 1 << 52;
        raw_exp - 1075
    };
    let tz = (mant.trailing_zeros() as i64).min(-exp);
    mant >>= tz;
    exp += tz;
    if f < 0.0 {
        mant = -mant;
    }
    let den = BigInt::one() << (-exp) as usize;
    Ok(Value::tuple(vec![Value::Int(mant), from_big(den)]))
}
