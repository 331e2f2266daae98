//! Half-precision elements (`float16`), host-only as in most of NumPy: every operation
//! widens to float32, computes there and rounds the result back once, which is how NumPy's
//! `HALF_*` loops work (`npy_half_to_float`, the float operation, `npy_float_to_half`).
//! Because float32 carries more than twice float16's precision, the double rounding of
//! `+ - * /` and `sqrt` still gives the correctly rounded float16 result.

use half::f16;

use crate::arrays::buffer::Pod;
use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::Elem;
use crate::arrays::kernels::{ElemArith, Flt};
use crate::arrays::operator::{MathFn, Ufunc1};

// SAFETY: a transparent u16 (half::f16 is `#[repr(transparent)]` over u16): every bit
// pattern is a valid float16.
unsafe impl Pod for f16 {}

impl Elem for f16 {
    const DT: DType = DType::F16;
    const FLOAT: bool = true;
    fn to_f64(self) -> f64 {
        self.to_f64()
    }
    fn to_i128(self) -> i128 {
        self.to_f32() as i128
    }
    fn from_f64(v: f64) -> Self {
        f16::from_f64(v)
    }
    fn from_f32(v: f32) -> Self {
        f16::from_f32(v)
    }
    fn from_i128(v: i128) -> Self {
        f16::from_f64(v as f64)
    }
    fn to_scalar(self) -> Scalar {
        Scalar::F16(self)
    }
}

/// A float32 operation on float16 operands, rounded back.
#[inline(always)]
fn via2(a: f16, b: f16, f: impl Fn(f32, f32) -> f32) -> f16 {
    f16::from_f32(f(a.to_f32(), b.to_f32()))
}

#[inline(always)]
fn via1(a: f16, f: impl Fn(f32) -> f32) -> f16 {
    f16::from_f32(f(a.to_f32()))
}

impl ElemArith for f16 {
    fn add(self, o: Self) -> Self {
        via2(self, o, |a, b| a + b)
    }
    fn sub(self, o: Self) -> Self {
        via2(self, o, |a, b| a - b)
    }
    fn mul(self, o: Self) -> Self {
        via2(self, o, |a, b| a * b)
    }
    fn floordiv(self, o: Self) -> Self {
        via2(self, o, ElemArith::floordiv)
    }
    fn rem(self, o: Self) -> Self {
        via2(self, o, ElemArith::rem)
    }
    fn pow(self, o: Self) -> Self {
        via2(self, o, f32::powf)
    }
    fn neg(self) -> Self {
        -self
    }
    fn abs(self) -> Self {
        f16::from_bits(self.to_bits() & 0x7fff)
    }
    fn sign(self) -> Self {
        via1(self, ElemArith::sign)
    }
    fn is_nan(self) -> bool {
        f16::is_nan(self)
    }
    fn is_inf(self) -> bool {
        f16::is_infinite(self)
    }
    fn nonzero(self) -> bool {
        self.to_bits() & 0x7fff != 0
    }
    fn tdiv(self, o: Self) -> Self {
        via2(self, o, |a, b| a / b)
    }
    fn atan2(self, o: Self) -> Self {
        via2(self, o, f32::atan2)
    }
    fn hypot(self, o: Self) -> Self {
        via2(self, o, f32::hypot)
    }
    fn copysign(self, o: Self) -> Self {
        f16::from_bits((self.to_bits() & 0x7fff) | (o.to_bits() & 0x8000))
    }
    fn fmod(self, o: Self) -> Self {
        via2(self, o, |a, b| a % b)
    }
    /// NumPy's `npy_half_nextafter`: one step in float16's own spacing.
    fn nextafter(self, o: Self) -> Self {
        if self.is_nan() || o.is_nan() {
            return f16::NAN;
        }
        if self == o {
            return o;
        }
        let bits = self.to_bits();
        if bits & 0x7fff == 0 {
            // From a zero: the smallest subnormal with the target's sign.
            return f16::from_bits((o.to_bits() & 0x8000) | 1);
        }
        // Away from zero when the target is further out on the same side.
        let away = (self < o) == (bits & 0x8000 == 0);
        f16::from_bits(if away { bits + 1 } else { bits - 1 })
    }
}

impl Flt for f16 {
    fn apply(self, op: Ufunc1) -> Option<fn(Self) -> Self> {
        use MathFn as M;
        use Ufunc1::{Deg2rad, Degrees, Math, Rad2deg, Radians, Reciprocal};
        macro_rules! half_of {
            ($($p:pat => $f:expr),* $(,)?) => {
                match op {
                    $($p => |x: f16| via1(x, $f),)*
                    _ => return None,
                }
            };
        }
        Some(half_of! {
            Math(M::Sqrt) => f32::sqrt,
            Math(M::Exp) => f32::exp,
            Math(M::Exp2) => f32::exp2,
            Math(M::Expm1) => f32::exp_m1,
            Math(M::Log) => f32::ln,
            Math(M::Log2) => f32::log2,
            Math(M::Log10) => f32::log10,
            Math(M::Log1p) => f32::ln_1p,
            Math(M::Sin) => f32::sin,
            Math(M::Cos) => f32::cos,
            Math(M::Tan) => f32::tan,
            Math(M::Asin) => f32::asin,
            Math(M::Acos) => f32::acos,
            Math(M::Atan) => f32::atan,
            Math(M::Sinh) => f32::sinh,
            Math(M::Cosh) => f32::cosh,
            Math(M::Tanh) => f32::tanh,
            Math(M::Asinh) => f32::asinh,
            Math(M::Acosh) => f32::acosh,
            Math(M::Atanh) => f32::atanh,
            Math(M::Floor) => f32::floor,
            Math(M::Ceil) => f32::ceil,
            Math(M::Trunc) => f32::trunc,
            Math(M::Round) => f32::round_ties_even,
            Math(M::Fabs) => f32::abs,
            Math(M::Cbrt) => f32::cbrt,
            Deg2rad | Radians => f32::to_radians,
            Rad2deg | Degrees => f32::to_degrees,
            Reciprocal => |x: f32| 1.0 / x,
        })
    }
}
