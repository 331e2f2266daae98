//! Complex elements (`complex64`, `complex128`): the stored pair, its arithmetic with NumPy's
//! loops (Smith's division, lexicographic ordering, `z/|z|` sign) and the complex ufuncs.

use crate::arrays::buffer::Pod;
use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::{read_vec, Elem};
use crate::arrays::error::{ArrayError, ArrayResult};
use crate::arrays::kernels::ElemArith;
use crate::arrays::operator::{MathFn, Ufunc1, Unary};
use crate::arrays::NdArray;

/// A complex number as NumPy stores it: real part, then imaginary part. The derived order is
/// NumPy's lexicographic one (real parts first, then imaginary; NaN compares false).
#[derive(Clone, Copy, PartialEq, PartialOrd, Default, Debug)]
#[repr(C)]
pub struct Complex<T> {
    pub re: T,
    pub im: T,
}

// SAFETY: two plain floats with C layout and no padding: every bit pattern is valid.
unsafe impl Pod for Complex<f32> {}
// SAFETY: as above.
unsafe impl Pod for Complex<f64> {}

macro_rules! complex_elem {
    ($t:ty, $dt:ident) => {
        impl Elem for Complex<$t> {
            const DT: DType = DType::$dt;
            const FLOAT: bool = true;
            const COMPLEX: bool = true;
            fn to_f64(self) -> f64 {
                self.re as f64
            }
            fn to_i128(self) -> i128 {
                self.re as i128
            }
            fn from_f64(v: f64) -> Self {
                Complex {
                    re: v as $t,
                    im: 0.0,
                }
            }
            fn from_i128(v: i128) -> Self {
                Complex {
                    re: v as $t,
                    im: 0.0,
                }
            }
            fn to_c128(self) -> (f64, f64) {
                (self.re as f64, self.im as f64)
            }
            fn from_c128(re: f64, im: f64) -> Self {
                Complex {
                    re: re as $t,
                    im: im as $t,
                }
            }
            fn to_scalar(self) -> Scalar {
                Scalar::$dt(self.re, self.im)
            }
        }

        impl ElemArith for Complex<$t> {
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                Complex {
                    re: self.re + o.re,
                    im: self.im + o.im,
                }
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                Complex {
                    re: self.re - o.re,
                    im: self.im - o.im,
                }
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                Complex {
                    re: self.re * o.re - self.im * o.im,
                    im: self.re * o.im + self.im * o.re,
                }
            }
            /// NumPy's complex division loop (Smith's algorithm).
            fn tdiv(self, o: Self) -> Self {
                let (ar, ai, br, bi) = (self.re, self.im, o.re, o.im);
                let (bra, bia) = (br.abs(), bi.abs());
                if bra >= bia {
                    if bra == 0.0 && bia == 0.0 {
                        return Complex {
                            re: ar / bra,
                            im: ai / bra,
                        };
                    }
                    let rat = bi / br;
                    let scl = 1.0 / (br + bi * rat);
                    Complex {
                        re: (ar + ai * rat) * scl,
                        im: (ai - ar * rat) * scl,
                    }
                } else {
                    let rat = br / bi;
                    let scl = 1.0 / (bi + br * rat);
                    Complex {
                        re: (ar * rat + ai) * scl,
                        im: (ai * rat - ar) * scl,
                    }
                }
            }
            // Floor division, remainder and the bitwise operations have no complex loop;
            // type resolution refuses them before a kernel runs.
            fn floordiv(self, _o: Self) -> Self {
                self
            }
            fn rem(self, _o: Self) -> Self {
                self
            }
            /// NumPy's npy_cpow: small integral real exponents by repeated multiplication,
            /// others through exp(b log a).
            fn pow(self, o: Self) -> Self {
                let one = Complex { re: 1.0, im: 0.0 };
                if o.im == 0.0 && o.re == 0.0 {
                    return one;
                }
                if self.re == 0.0 && self.im == 0.0 {
                    if o.re > 0.0 && o.im == 0.0 {
                        return Complex { re: 0.0, im: 0.0 };
                    }
                    let nan = <$t>::NAN;
                    return Complex { re: nan, im: nan };
                }
                if o.im == 0.0 && o.re == o.re.trunc() && o.re.abs() < 100.0 {
                    let mut n = o.re.abs() as u32;
                    let (mut acc, mut base) = (one, self);
                    while n > 0 {
                        if n & 1 == 1 {
                            acc = acc.mul(base);
                        }
                        base = base.mul(base);
                        n >>= 1;
                    }
                    return if o.re < 0.0 { one.tdiv(acc) } else { acc };
                }
                let l = clog(self.to_c128());
                let (br, bi) = o.to_c128();
                let (r, i) = cexp((br * l.0 - bi * l.1, br * l.1 + bi * l.0));
                Self::from_c128(r, i)
            }
            fn neg(self) -> Self {
                Complex {
                    re: -self.re,
                    im: -self.im,
                }
            }
            /// |z| in the real part: `absolute` takes the real part of this into a real array.
            fn abs(self) -> Self {
                Complex {
                    re: self.re.hypot(self.im),
                    im: 0.0,
                }
            }
            /// NumPy 2's complex sign: z / |z| (0 for 0).
            fn sign(self) -> Self {
                let m = self.re.hypot(self.im);
                if self.is_nan() {
                    let nan = <$t>::NAN;
                    Complex { re: nan, im: nan }
                } else if m == 0.0 {
                    Complex { re: 0.0, im: 0.0 }
                } else if m.is_infinite() {
                    // NumPy normalises an infinite component to ±1 and the other to 0.
                    let f = |v: $t| {
                        if v.is_infinite() {
                            v.signum()
                        } else {
                            0.0 * v.signum()
                        }
                    };
                    Complex {
                        re: f(self.re),
                        im: f(self.im),
                    }
                } else {
                    Complex {
                        re: self.re / m,
                        im: self.im / m,
                    }
                }
            }
            fn is_nan(self) -> bool {
                self.re.is_nan() || self.im.is_nan()
            }
            fn is_inf(self) -> bool {
                self.re.is_infinite() || self.im.is_infinite()
            }
            fn nonzero(self) -> bool {
                self.re != 0.0 || self.im != 0.0
            }
        }
    };
}
complex_elem!(f32, C64);
complex_elem!(f64, C128);

type C = (f64, f64);

fn cmul(a: C, b: C) -> C {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

fn cdiv(a: C, b: C) -> C {
    let r = Complex { re: a.0, im: a.1 }.tdiv(Complex { re: b.0, im: b.1 });
    (r.re, r.im)
}

fn cexp((a, b): C) -> C {
    if b == 0.0 {
        return (a.exp(), b);
    }
    let e = a.exp();
    (e * b.cos(), e * b.sin())
}

fn clog((a, b): C) -> C {
    (a.hypot(b).ln(), b.atan2(a))
}

/// C's `b - b`: 0 for a finite value, NaN for an infinite or NaN one.
fn zero_or_nan(b: f64) -> f64 {
    if b.is_finite() {
        0.0
    } else {
        f64::NAN
    }
}

type CFn = fn(C) -> C;

/// C99's csqrt (the branch cut along the negative real axis, signed zeros kept).
fn csqrt((a, b): C) -> C {
    if a == 0.0 && b == 0.0 {
        return (0.0, b);
    }
    if b.is_infinite() {
        return (f64::INFINITY, b);
    }
    if a.is_nan() {
        return (a, f64::NAN);
    }
    if a.is_infinite() {
        return if a.is_sign_negative() {
            (zero_or_nan(b).abs(), a.abs().copysign(b))
        } else {
            (a, zero_or_nan(b).copysign(b))
        };
    }
    let h = a.hypot(b);
    if a >= 0.0 {
        let t = ((a + h) * 0.5).sqrt();
        (t, b / (2.0 * t))
    } else {
        let t = ((-a + h) * 0.5).sqrt();
        (b.abs() / (2.0 * t), t.copysign(b))
    }
}

fn csin((a, b): C) -> C {
    (a.sin() * b.cosh(), a.cos() * b.sinh())
}
fn ccos((a, b): C) -> C {
    (a.cos() * b.cosh(), -(a.sin() * b.sinh()))
}
fn csinh((a, b): C) -> C {
    (a.sinh() * b.cos(), a.cosh() * b.sin())
}
fn ccosh((a, b): C) -> C {
    (a.cosh() * b.cos(), a.sinh() * b.sin())
}

// The inverse functions follow Kahan ("Branch Cuts for Complex Elementary Functions",
// 1987): products of square roots whose signed zeros put each branch cut's values on the
// side C99 (and so NumPy, through the C library's `casin` ...) puts them.

fn casin((x, y): C) -> C {
    let (a, b) = csqrt((1.0 - x, -y));
    let (c, d) = csqrt((1.0 + x, y));
    (x.atan2(a * c - b * d), (a * d - b * c).asinh())
}
fn cacos((x, y): C) -> C {
    let (a, b) = csqrt((1.0 - x, -y));
    let (c, d) = csqrt((1.0 + x, y));
    (2.0 * a.atan2(c), (c * b - d * a).asinh())
}
/// `asinh(z) = -i asin(iz)`.
fn casinh((x, y): C) -> C {
    let (p, q) = casin((-y, x));
    (q, -p)
}
fn cacosh((x, y): C) -> C {
    let (a, b) = csqrt((x - 1.0, y));
    let (c, d) = csqrt((x + 1.0, y));
    ((a * c + b * d).asinh(), 2.0 * b.atan2(c))
}
/// The real part on `|x|` and its sign from `x` (atanh is odd), so that it stays accurate
/// near `x = -1` as well as `x = 1`.
fn catanh((x, y): C) -> C {
    let ax = x.abs();
    let d = (1.0 - ax) * (1.0 - ax) + y * y;
    let re = if d == 0.0 {
        f64::INFINITY
    } else {
        0.25 * (4.0 * ax / d).ln_1p()
    };
    (
        re.copysign(x),
        0.5 * (2.0 * y).atan2((1.0 - x) * (1.0 + x) - y * y),
    )
}
/// `atan(z) = -i atanh(iz)`.
fn catan((x, y): C) -> C {
    let (p, q) = catanh((-y, x));
    (q, -p)
}

/// The complex loop of a unary ufunc, an error where NumPy has none.
fn complex_fn(op: Ufunc1) -> ArrayResult<CFn> {
    use MathFn as M;
    use Ufunc1::*;
    Ok(match op {
        Op(Unary::Neg) => |(a, b)| (-a, -b),
        Positive => |z| z,
        Conjugate => |(a, b)| (a, -b),
        Square => |z| cmul(z, z),
        Reciprocal => |z| cdiv((1.0, 0.0), z),
        Math(M::Sqrt) => csqrt,
        Math(M::Exp) => cexp,
        Math(M::Exp2) => |(a, b)| cexp((a * std::f64::consts::LN_2, b * std::f64::consts::LN_2)),
        Math(M::Expm1) => |z| {
            let (r, i) = cexp(z);
            (r - 1.0, i)
        },
        Math(M::Log) => clog,
        Math(M::Log2) => |z| {
            let (r, i) = clog(z);
            (r / std::f64::consts::LN_2, i / std::f64::consts::LN_2)
        },
        Math(M::Log10) => |z| {
            let (r, i) = clog(z);
            (r / std::f64::consts::LN_10, i / std::f64::consts::LN_10)
        },
        Math(M::Log1p) => |(a, b)| clog((a + 1.0, b)),
        Math(M::Sin) => csin,
        Math(M::Cos) => ccos,
        Math(M::Tan) => |z| cdiv(csin(z), ccos(z)),
        Math(M::Sinh) => csinh,
        Math(M::Cosh) => ccosh,
        Math(M::Tanh) => |z| cdiv(csinh(z), ccosh(z)),
        Math(M::Round) => |(a, b)| (a.round_ties_even(), b.round_ties_even()),
        Math(M::Asin) => casin,
        Math(M::Acos) => cacos,
        Math(M::Atan) => catan,
        Math(M::Asinh) => casinh,
        Math(M::Acosh) => cacosh,
        Math(M::Atanh) => catanh,
        _ => {
            let name = op.name();
            return Err(ArrayError::type_error(format!(
                "ufunc '{name}' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''"
            )));
        }
    })
}

/// A unary ufunc on a complex array: complex results, except `absolute` (the parts' dtype)
/// and the predicates (bool), which the caller handles through `ElemArith`.
pub fn complex_unary(op: Ufunc1, a: &NdArray) -> ArrayResult<NdArray> {
    let f = complex_fn(op)?;
    let res = crate::arrays::elem::new_array_for_overwrite(&a.shape, a.dtype)?;
    let n = a.size();
    if a.dtype == DType::C64 {
        let x = read_vec::<Complex<f32>>(a);
        let o = res.buf.typed_mut::<Complex<f32>>(0, n);
        crate::arrays::kernels::map(&x, o, |z| {
            let (r, i) = f(z.to_c128());
            Complex::<f32>::from_c128(r, i)
        });
    } else {
        let x = read_vec::<Complex<f64>>(a);
        let o = res.buf.typed_mut::<Complex<f64>>(0, n);
        crate::arrays::kernels::map(&x, o, |z| {
            let (r, i) = f(z.to_c128());
            Complex { re: r, im: i }
        });
    }
    Ok(res)
}

/// One part of every element of a complex array as a new real array (`.real`, `.imag`,
/// `np.abs` and `np.angle`).
pub fn complex_part(a: &NdArray, part: fn(f64, f64) -> f64) -> ArrayResult<NdArray> {
    let rt = a.dtype.real_part();
    let res = crate::arrays::elem::new_array_for_overwrite(&a.shape, rt)?;
    let n = a.size();
    if a.dtype == DType::C64 {
        let x = read_vec::<Complex<f32>>(a);
        let o = res.buf.typed_mut::<f32>(0, n);
        crate::arrays::kernels::map(&x, o, |z| part(z.re as f64, z.im as f64) as f32);
    } else {
        let x = read_vec::<Complex<f64>>(a);
        let o = res.buf.typed_mut::<f64>(0, n);
        crate::arrays::kernels::map(&x, o, |z| part(z.re, z.im));
    }
    Ok(res)
}

/// A strided view of one part of a complex array (`a.real`, `a.imag` are views in NumPy, so
/// writing through them changes `a`).
pub fn part_view(a: &NdArray, imag: bool) -> NdArray {
    let rt = a.dtype.real_part();
    NdArray {
        buf: a.buf.clone(),
        offset: a.offset + if imag { rt.itemsize() } else { 0 },
        shape: a.shape.clone(),
        strides: a.strides.clone(),
        dtype: rt,
        view: true,
    }
}

/// The element of `Part` type from an f64 (used by the formatter's part arrays).
pub fn part_scalar(dt: DType, v: f64) -> Scalar {
    if dt == DType::C64 {
        Scalar::F32(v as f32)
    } else {
        Scalar::F64(v)
    }
}
