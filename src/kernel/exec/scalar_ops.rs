//! Scalar semantics of the executor on canonical register bits: integers are kept sign- or
//! zero-extended to 64 bits, booleans are 0/1, float32 lives in the low 32 bits. Every
//! function here is a tight per-lane operation the block loops call.

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::{Arith, Cmp, Unary};
use crate::kernel::ir::MathFn;

#[inline(always)]
pub fn f32b(v: u64) -> f32 {
    f32::from_bits(v as u32)
}
#[inline(always)]
pub fn bf32(x: f32) -> u64 {
    x.to_bits() as u64
}
#[inline(always)]
pub fn f64b(v: u64) -> f64 {
    f64::from_bits(v)
}
#[inline(always)]
pub fn bf64(x: f64) -> u64 {
    x.to_bits()
}

/// Wrap a 64-bit integer result to the width and signedness of `dt`.
#[inline(always)]
pub fn wrap(v: u64, dt: DType) -> u64 {
    match dt {
        DType::I8 => v as i8 as i64 as u64,
        DType::I16 => v as i16 as i64 as u64,
        DType::I32 => v as i32 as i64 as u64,
        DType::U8 => v as u8 as u64,
        DType::U16 => v as u16 as u64,
        DType::U32 => v as u32 as u64,
        DType::Bool => (v != 0) as u64,
        _ => v,
    }
}

pub fn scalar_bits(s: &Scalar) -> u64 {
    match *s {
        Scalar::F32(x) => bf32(x),
        Scalar::F64(x) => bf64(x),
        Scalar::U64(x) => x,
        Scalar::Bool(b) => b as u64,
        other => wrap(other.as_i64() as u64, other.dtype()),
    }
}

pub fn bits_scalar(v: u64, dt: DType) -> Scalar {
    match dt {
        DType::F32 => Scalar::F32(f32b(v)),
        DType::F64 => Scalar::F64(f64b(v)),
        DType::Bool => Scalar::Bool(v != 0),
        DType::U64 => Scalar::U64(v),
        other => Scalar::I64(v as i64).cast(other),
    }
}

#[inline(always)]
fn as_f64(v: u64, dt: DType) -> f64 {
    match dt {
        DType::F32 => f32b(v) as f64,
        DType::F64 => f64b(v),
        DType::U64 => v as f64,
        _ => v as i64 as f64,
    }
}

#[inline(always)]
pub fn cast(v: u64, from: DType, to: DType) -> u64 {
    match to {
        DType::Bool => match from {
            DType::F32 => (f32b(v) != 0.0) as u64,
            DType::F64 => (f64b(v) != 0.0) as u64,
            _ => (v != 0) as u64,
        },
        DType::F32 => bf32(match from {
            DType::F32 => f32b(v),
            DType::F64 => f64b(v) as f32,
            DType::U64 => v as f32,
            _ => v as i64 as f32,
        }),
        DType::F64 => bf64(as_f64(v, from)),
        _ => {
            let i = match from {
                DType::F32 => {
                    let x = f32b(v);
                    if to == DType::U64 {
                        x as u64
                    } else {
                        x as i64 as u64
                    }
                }
                DType::F64 => {
                    let x = f64b(v);
                    if to == DType::U64 {
                        x as u64
                    } else {
                        x as i64 as u64
                    }
                }
                _ => v,
            };
            wrap(i, to)
        }
    }
}

fn py_fmod_f64(a: f64, b: f64) -> f64 {
    let r = a % b;
    if r != 0.0 && ((r < 0.0) != (b < 0.0)) {
        r + b
    } else {
        r
    }
}

#[inline(always)]
pub(crate) fn py_min<T: PartialOrd>(a: T, b: T) -> T {
    if b < a {
        b
    } else {
        a
    }
}
#[inline(always)]
pub(crate) fn py_max<T: PartialOrd>(a: T, b: T) -> T {
    if b > a {
        b
    } else {
        a
    }
}

#[inline(always)]
pub fn bin_f32(op: Arith, a: f32, b: f32) -> f32 {
    match op {
        Arith::Add => a + b,
        Arith::Sub => a - b,
        Arith::Mul => a * b,
        Arith::Div => a / b,
        Arith::FloorDiv => (a / b).floor(),
        Arith::Mod => py_fmod_f64(a as f64, b as f64) as f32,
        Arith::Pow => a.powf(b),
        Arith::Min => py_min(a, b),
        Arith::Max => py_max(a, b),
        _ => f32::NAN,
    }
}

#[inline(always)]
pub fn bin_f64(op: Arith, a: f64, b: f64) -> f64 {
    match op {
        Arith::Add => a + b,
        Arith::Sub => a - b,
        Arith::Mul => a * b,
        Arith::Div => a / b,
        Arith::FloorDiv => (a / b).floor(),
        Arith::Mod => py_fmod_f64(a, b),
        Arith::Pow => a.powf(b),
        Arith::Min => py_min(a, b),
        Arith::Max => py_max(a, b),
        _ => f64::NAN,
    }
}

#[inline(always)]
pub fn bin_i64(op: Arith, a: i64, b: i64) -> i64 {
    match op {
        Arith::Add => a.wrapping_add(b),
        Arith::Sub => a.wrapping_sub(b),
        Arith::Mul => a.wrapping_mul(b),
        // Integer division by zero gives 0 on the device (no exception in kernels).
        Arith::FloorDiv => {
            if b == 0 {
                0
            } else {
                // i64::MIN // -1 wraps to i64::MIN, as NumPy's int64 floor_divide does.
                let q = a.wrapping_div(b);
                if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
                    q.wrapping_sub(1)
                } else {
                    q
                }
            }
        }
        Arith::Mod => {
            if b == 0 {
                0
            } else {
                let r = a.wrapping_rem(b);
                if r != 0 && ((r < 0) != (b < 0)) {
                    r + b
                } else {
                    r
                }
            }
        }
        Arith::Pow => {
            if b < 0 {
                0
            } else {
                a.wrapping_pow(b.min(u32::MAX as i64) as u32)
            }
        }
        Arith::BitAnd => a & b,
        Arith::BitOr => a | b,
        Arith::BitXor => a ^ b,
        Arith::LShift => a.wrapping_shl(b as u32),
        Arith::RShift => a.wrapping_shr(b as u32),
        Arith::Min => a.min(b),
        Arith::Max => a.max(b),
        Arith::Div => 0,
    }
}

#[inline(always)]
pub fn bin_u64(op: Arith, a: u64, b: u64) -> u64 {
    match op {
        Arith::Add => a.wrapping_add(b),
        Arith::Sub => a.wrapping_sub(b),
        Arith::Mul => a.wrapping_mul(b),
        Arith::FloorDiv => a.checked_div(b).unwrap_or(0),
        Arith::Mod => a.checked_rem(b).unwrap_or(0),
        Arith::Pow => a.wrapping_pow(b.min(u32::MAX as u64) as u32),
        Arith::BitAnd => a & b,
        Arith::BitOr => a | b,
        Arith::BitXor => a ^ b,
        Arith::LShift => a.wrapping_shl(b as u32),
        Arith::RShift => a.wrapping_shr(b as u32),
        Arith::Min => a.min(b),
        Arith::Max => a.max(b),
        Arith::Div => 0,
    }
}

/// One binary operation on canonical bits of type `dt`.
#[inline(always)]
pub fn bin(op: Arith, dt: DType, a: u64, b: u64) -> u64 {
    match dt {
        DType::F32 => bf32(bin_f32(op, f32b(a), f32b(b))),
        DType::F64 => bf64(bin_f64(op, f64b(a), f64b(b))),
        DType::U64 | DType::U32 | DType::U16 | DType::U8 => wrap(bin_u64(op, a, b), dt),
        _ => wrap(bin_i64(op, a as i64, b as i64) as u64, dt),
    }
}

#[inline(always)]
pub fn cmp(c: Cmp, dt: DType, a: u64, b: u64) -> u64 {
    let r = match dt {
        DType::F32 => cmp_t(c, f32b(a), f32b(b)),
        DType::F64 => cmp_t(c, f64b(a), f64b(b)),
        DType::U64 | DType::U32 | DType::U16 | DType::U8 | DType::Bool => cmp_t(c, a, b),
        _ => cmp_t(c, a as i64, b as i64),
    };
    r as u64
}

#[inline(always)]
fn cmp_t<T: PartialOrd>(c: Cmp, a: T, b: T) -> bool {
    match c {
        Cmp::Eq => a == b,
        Cmp::Ne => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
    }
}

#[inline(always)]
pub fn un(op: Unary, dt: DType, a: u64) -> u64 {
    match (op, dt) {
        (Unary::Not, _) => (a == 0) as u64,
        (Unary::Neg, DType::F32) => bf32(-f32b(a)),
        (Unary::Neg, DType::F64) => bf64(-f64b(a)),
        (Unary::Neg, _) => wrap((a as i64).wrapping_neg() as u64, dt),
        (Unary::Invert, DType::Bool) => (a == 0) as u64,
        (Unary::Invert, _) => wrap(!a, dt),
        (Unary::Abs, DType::F32) => bf32(f32b(a).abs()),
        (Unary::Abs, DType::F64) => bf64(f64b(a).abs()),
        (Unary::Abs, DType::U8 | DType::U16 | DType::U32 | DType::U64 | DType::Bool) => a,
        (Unary::Abs, _) => wrap((a as i64).wrapping_abs() as u64, dt),
        (Unary::Popc | Unary::Clz | Unary::Ffs | Unary::Brev, _) => bits(op, dt, a),
    }
}

/// The bit intrinsics on the low `width` bits of an integer.
fn bits(op: Unary, dt: DType, a: u64) -> u64 {
    let w = (dt.itemsize() * 8) as u32;
    let m = if w >= 64 { a } else { a & ((1u64 << w) - 1) };
    let v = match op {
        Unary::Popc => m.count_ones() as u64,
        Unary::Clz => (m.leading_zeros() - (64 - w)) as u64,
        Unary::Ffs if m == 0 => 0,
        Unary::Ffs => (m.trailing_zeros() + 1) as u64,
        _ => m.reverse_bits() >> (64 - w),
    };
    wrap(v, dt)
}

/// A `math.*` function on canonical bits of type `t` (the second operand is ignored by
/// one-argument functions); predicates give a boolean.
#[inline(always)]
pub fn math(f: MathFn, t: DType, a: u64, b: u64) -> u64 {
    if f.is_predicate() {
        math_f64(f, f64b(cast(a, t, DType::F64)), 0.0) as u64
    } else if t == DType::F32 {
        bf32(math_f32(f, f32b(a), f32b(b)))
    } else {
        bf64(math_f64(f, f64b(a), f64b(b)))
    }
}

pub fn math_f64(f: MathFn, a: f64, b: f64) -> f64 {
    use MathFn::*;
    match f {
        Sin => a.sin(),
        Cos => a.cos(),
        Tan => a.tan(),
        Asin => a.asin(),
        Acos => a.acos(),
        Atan => a.atan(),
        Sinh => a.sinh(),
        Cosh => a.cosh(),
        Tanh => a.tanh(),
        Asinh => a.asinh(),
        Acosh => a.acosh(),
        Atanh => a.atanh(),
        Exp => a.exp(),
        Exp2 => a.exp2(),
        Expm1 => a.exp_m1(),
        Log => a.ln(),
        Log1p => a.ln_1p(),
        Log2 => a.log2(),
        Log10 => a.log10(),
        Sqrt => a.sqrt(),
        Cbrt => a.cbrt(),
        Fabs => a.abs(),
        Floor => a.floor(),
        Ceil => a.ceil(),
        Trunc => a.trunc(),
        Round => a.round_ties_even(),
        Erf => libm::erf(a),
        Erfc => libm::erfc(a),
        Gamma => libm::tgamma(a),
        Lgamma => libm::lgamma(a),
        Atan2 => a.atan2(b),
        Pow => a.powf(b),
        Hypot => a.hypot(b),
        Fmod => a % b,
        Copysign => a.copysign(b),
        Remainder => libm::remainder(a, b),
        Nextafter => libm::nextafter(a, b),
        IsNan => a.is_nan() as u8 as f64,
        IsInf => a.is_infinite() as u8 as f64,
        IsFinite => a.is_finite() as u8 as f64,
    }
}

pub fn math_f32(f: MathFn, a: f32, b: f32) -> f32 {
    use MathFn::*;
    match f {
        // The lane loops' sine and cosine, so a value gives the same bits whether it is
        // computed for a whole block, a few lanes, once for a uniform register or by the JIT.
        Sin => crate::kernel::exec::math::sincos_f32_one(a, false),
        Cos => crate::kernel::exec::math::sincos_f32_one(a, true),
        Tan => a.tan(),
        Asin => a.asin(),
        Acos => a.acos(),
        Atan => a.atan(),
        Sinh => a.sinh(),
        Cosh => a.cosh(),
        Tanh => a.tanh(),
        Exp => a.exp(),
        Exp2 => a.exp2(),
        Expm1 => a.exp_m1(),
        Log => a.ln(),
        Log1p => a.ln_1p(),
        Log2 => a.log2(),
        Log10 => a.log10(),
        Sqrt => a.sqrt(),
        Cbrt => a.cbrt(),
        Fabs => a.abs(),
        Floor => a.floor(),
        Ceil => a.ceil(),
        Trunc => a.trunc(),
        Round => a.round_ties_even(),
        Erf => libm::erff(a),
        Erfc => libm::erfcf(a),
        Gamma => libm::tgammaf(a),
        Lgamma => libm::lgammaf(a),
        Atan2 => a.atan2(b),
        Pow => a.powf(b),
        Hypot => a.hypot(b),
        Fmod => a % b,
        Copysign => a.copysign(b),
        Remainder => libm::remainderf(a, b),
        Nextafter => libm::nextafterf(a, b),
        other => math_f64(other, a as f64, b as f64) as f32,
    }
}
