//! Per-type arithmetic (`ElemArith`, `Flt`) and the slice kernels that apply an operation over
//! contiguous data: monomorphised per dtype and operation, split across cores for large
//! arrays.

use rayon::prelude::*;

use crate::arrays::elem::{Elem, B8};
use crate::arrays::operator::{MathFn, Ufunc1};

/// Arrays at least this long run on several cores.
pub const PAR_MIN: usize = 1 << 16;
const CHUNK: usize = 1 << 15;

/// Arithmetic with NumPy's semantics per type (integer wrap-around, Python-style floor
/// division and modulo, zero divisors giving 0 for integers, NaN-propagating max/min).
pub trait ElemArith: Elem {
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn floordiv(self, o: Self) -> Self;
    fn rem(self, o: Self) -> Self;
    fn pow(self, o: Self) -> Self;
    /// NumPy's `maximum`: a NaN on either side wins (the left one first).
    #[inline(always)]
    fn maxn(self, o: Self) -> Self {
        if self.is_nan() || self >= o {
            self
        } else {
            o
        }
    }
    /// NumPy's `minimum`, NaN-propagating as `maxn`.
    #[inline(always)]
    fn minn(self, o: Self) -> Self {
        if self.is_nan() || self <= o {
            self
        } else {
            o
        }
    }
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    fn sign(self) -> Self;
    // Bitwise operations: integer and bool dtypes define them. Ufunc resolution never
    // sends float or complex operands here, so their default leaves the value alone.
    fn band(self, _o: Self) -> Self {
        self
    }
    fn bor(self, _o: Self) -> Self {
        self
    }
    fn bxor(self, _o: Self) -> Self {
        self
    }
    fn shl(self, _o: Self) -> Self {
        self
    }
    fn shr(self, _o: Self) -> Self {
        self
    }
    fn not(self) -> Self {
        self
    }
    fn is_nan(self) -> bool {
        false
    }
    fn is_inf(self) -> bool {
        false
    }
    fn nonzero(self) -> bool;
    /// True division, arctan2 and hypot: only ever resolved for float dtypes; the integer
    /// versions exist so one generic kernel covers every dtype.
    #[inline(always)]
    fn tdiv(self, o: Self) -> Self {
        Self::from_f64(self.to_f64() / o.to_f64())
    }
    fn atan2(self, o: Self) -> Self {
        Self::from_f64(self.to_f64().atan2(o.to_f64()))
    }
    fn hypot(self, o: Self) -> Self {
        Self::from_f64(self.to_f64().hypot(o.to_f64()))
    }
    fn copysign(self, o: Self) -> Self {
        Self::from_f64(self.to_f64().copysign(o.to_f64()))
    }
    fn nextafter(self, o: Self) -> Self {
        Self::from_f64(libm::nextafter(self.to_f64(), o.to_f64()))
    }
    /// C's fmod: the remainder with the sign of the dividend (0 for an integer zero divisor).
    fn fmod(self, o: Self) -> Self {
        Self::from_f64(self.to_f64() % o.to_f64())
    }
}

macro_rules! int_arith {
    ($t:ty, $signed:expr) => {
        impl ElemArith for $t {
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self.wrapping_sub(o)
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
            #[inline(always)]
            fn floordiv(self, o: Self) -> Self {
                if o == 0 {
                    return 0;
                }
                let q = self.wrapping_div(o);
                #[allow(unused_comparisons)]
                let adjust = self.wrapping_rem(o) != 0 && ((self < 0) != (o < 0));
                if adjust {
                    q.wrapping_sub(1)
                } else {
                    q
                }
            }
            fn fmod(self, o: Self) -> Self {
                if o == 0 {
                    0
                } else {
                    self.wrapping_rem(o)
                }
            }
            #[inline(always)]
            fn rem(self, o: Self) -> Self {
                if o == 0 {
                    return 0;
                }
                let r = self.wrapping_rem(o);
                #[allow(unused_comparisons)]
                let adjust = r != 0 && ((r < 0) != (o < 0));
                if adjust {
                    r.wrapping_add(o)
                } else {
                    r
                }
            }
            #[inline(always)]
            fn pow(self, o: Self) -> Self {
                #[allow(unused_comparisons)]
                if o < 0 {
                    return 0;
                }
                self.wrapping_pow(o as u32)
            }
            #[inline(always)]
            fn maxn(self, o: Self) -> Self {
                if self >= o {
                    self
                } else {
                    o
                }
            }
            #[inline(always)]
            fn minn(self, o: Self) -> Self {
                if self <= o {
                    self
                } else {
                    o
                }
            }
            #[inline(always)]
            fn neg(self) -> Self {
                (0 as $t).wrapping_sub(self)
            }
            #[inline(always)]
            fn abs(self) -> Self {
                #[allow(unused_comparisons)]
                if self < 0 {
                    (0 as $t).wrapping_sub(self)
                } else {
                    self
                }
            }
            #[inline(always)]
            fn sign(self) -> Self {
                #[allow(unused_comparisons)]
                if self < 0 {
                    (0 as $t).wrapping_sub(1)
                } else if self > 0 {
                    1
                } else {
                    0
                }
            }
            fn band(self, o: Self) -> Self {
                self & o
            }
            fn bor(self, o: Self) -> Self {
                self | o
            }
            fn bxor(self, o: Self) -> Self {
                self ^ o
            }
            fn shl(self, o: Self) -> Self {
                self.checked_shl(o as u32).unwrap_or(0)
            }
            fn shr(self, o: Self) -> Self {
                #[allow(unused_comparisons)]
                let fill = if self < 0 { !0 } else { 0 };
                self.checked_shr(o as u32).unwrap_or(fill)
            }
            fn not(self) -> Self {
                !self
            }
            #[inline(always)]
            fn nonzero(self) -> bool {
                self != 0
            }
        }
    };
}
int_arith!(i8, true);
int_arith!(i16, true);
int_arith!(i32, true);
int_arith!(i64, true);
int_arith!(u8, false);
int_arith!(u16, false);
int_arith!(u32, false);
int_arith!(u64, false);

macro_rules! float_arith {
    ($t:ty, $next:path) => {
        impl ElemArith for $t {
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self + o
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self - o
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self * o
            }
            fn floordiv(self, o: Self) -> Self {
                // NumPy's npy_floor_divide through npy_divmod.
                if o == 0.0 {
                    return self / o;
                }
                let m = self % o;
                let mut div = (self - m) / o;
                if m != 0.0 && ((o < 0.0) != (m < 0.0)) {
                    div -= 1.0;
                }
                if div != 0.0 {
                    let f = div.floor();
                    if div - f > 0.5 {
                        f + 1.0
                    } else {
                        f
                    }
                } else {
                    (0.0 as $t).copysign(self / o)
                }
            }
            fn rem(self, o: Self) -> Self {
                if o == 0.0 {
                    return self % o;
                }
                let m = self % o;
                if m != 0.0 {
                    if (o < 0.0) != (m < 0.0) {
                        m + o
                    } else {
                        m
                    }
                } else {
                    (0.0 as $t).copysign(o)
                }
            }
            fn pow(self, o: Self) -> Self {
                self.powf(o)
            }
            #[inline(always)]
            fn neg(self) -> Self {
                -self
            }
            #[inline(always)]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            fn sign(self) -> Self {
                if self.is_nan() {
                    self
                } else if self > 0.0 {
                    1.0
                } else if self < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn is_inf(self) -> bool {
                <$t>::is_infinite(self)
            }
            #[inline(always)]
            fn nonzero(self) -> bool {
                self != 0.0
            }
            #[inline(always)]
            fn tdiv(self, o: Self) -> Self {
                self / o
            }
            fn atan2(self, o: Self) -> Self {
                <$t>::atan2(self, o)
            }
            fn hypot(self, o: Self) -> Self {
                <$t>::hypot(self, o)
            }
            fn copysign(self, o: Self) -> Self {
                <$t>::copysign(self, o)
            }
            fn fmod(self, o: Self) -> Self {
                self % o
            }
            fn nextafter(self, o: Self) -> Self {
                $next(self, o)
            }
        }
    };
}
float_arith!(f32, libm::nextafterf);
float_arith!(f64, libm::nextafter);

impl ElemArith for B8 {
    fn add(self, o: Self) -> Self {
        B8(self.0 | o.0)
    }
    fn sub(self, o: Self) -> Self {
        B8(self.0 ^ o.0)
    }
    fn mul(self, o: Self) -> Self {
        B8(self.0 & o.0)
    }
    fn floordiv(self, o: Self) -> Self {
        B8(self.0 & o.0)
    }
    fn rem(self, _o: Self) -> Self {
        B8(0)
    }
    fn pow(self, o: Self) -> Self {
        B8(self.0 | (1 - o.0))
    }
    fn maxn(self, o: Self) -> Self {
        B8(self.0 | o.0)
    }
    fn minn(self, o: Self) -> Self {
        B8(self.0 & o.0)
    }
    fn neg(self) -> Self {
        self
    }
    fn abs(self) -> Self {
        self
    }
    fn sign(self) -> Self {
        self
    }
    fn band(self, o: Self) -> Self {
        B8(self.0 & o.0)
    }
    fn bor(self, o: Self) -> Self {
        B8(self.0 | o.0)
    }
    fn bxor(self, o: Self) -> Self {
        B8(self.0 ^ o.0)
    }
    fn shl(self, _o: Self) -> Self {
        self
    }
    fn shr(self, _o: Self) -> Self {
        self
    }
    fn not(self) -> Self {
        B8(1 - self.0)
    }
    fn nonzero(self) -> bool {
        self.0 != 0
    }
}

/// Float-only math (NumPy's float ufuncs).
pub trait Flt: ElemArith {
    fn apply(self, op: Ufunc1) -> Option<fn(Self) -> Self>;
}

macro_rules! flt {
    ($t:ty) => {
        impl Flt for $t {
            fn apply(self, op: Ufunc1) -> Option<fn(Self) -> Self> {
                use MathFn as M;
                Some(match op {
                    Ufunc1::Math(f) => match f {
                        M::Sqrt => <$t>::sqrt,
                        M::Exp => <$t>::exp,
                        M::Exp2 => <$t>::exp2,
                        M::Expm1 => <$t>::exp_m1,
                        M::Log => <$t>::ln,
                        M::Log2 => <$t>::log2,
                        M::Log10 => <$t>::log10,
                        M::Log1p => <$t>::ln_1p,
                        M::Sin => <$t>::sin,
                        M::Cos => <$t>::cos,
                        M::Tan => <$t>::tan,
                        M::Asin => <$t>::asin,
                        M::Acos => <$t>::acos,
                        M::Atan => <$t>::atan,
                        M::Sinh => <$t>::sinh,
                        M::Cosh => <$t>::cosh,
                        M::Tanh => <$t>::tanh,
                        M::Asinh => <$t>::asinh,
                        M::Acosh => <$t>::acosh,
                        M::Atanh => <$t>::atanh,
                        M::Floor => <$t>::floor,
                        M::Ceil => <$t>::ceil,
                        M::Trunc => <$t>::trunc,
                        M::Round => <$t>::round_ties_even,
                        M::Fabs => <$t>::abs,
                        M::Cbrt => <$t>::cbrt,
                        _ => return None,
                    },
                    Ufunc1::Deg2rad | Ufunc1::Radians => <$t>::to_radians,
                    Ufunc1::Rad2deg | Ufunc1::Degrees => <$t>::to_degrees,
                    Ufunc1::Reciprocal => |x| 1.0 / x,
                    _ => return None,
                })
            }
        }
    };
}
flt!(f32);
flt!(f64);

/// One operand of a kernel: a run of elements or a single broadcast value.
#[derive(Clone, Copy)]
pub enum Src<'a, T> {
    Run(&'a [T]),
    One(T),
}

impl<'a, T: Copy> Src<'a, T> {
    fn part(&self, start: usize, len: usize) -> Src<'a, T> {
        match *self {
            Src::Run(s) => Src::Run(&s[start..start + len]),
            Src::One(v) => Src::One(v),
        }
    }
}

fn zip_seq<T: Copy, R: Copy>(a: Src<T>, b: Src<T>, out: &mut [R], f: &impl Fn(T, T) -> R) {
    match (a, b) {
        (Src::Run(x), Src::Run(y)) => {
            for ((o, &x), &y) in out.iter_mut().zip(x).zip(y) {
                *o = f(x, y);
            }
        }
        (Src::Run(x), Src::One(y)) => {
            for (o, &x) in out.iter_mut().zip(x) {
                *o = f(x, y);
            }
        }
        (Src::One(x), Src::Run(y)) => {
            for (o, &y) in out.iter_mut().zip(y) {
                *o = f(x, y);
            }
        }
        (Src::One(x), Src::One(y)) => {
            let v = f(x, y);
            for o in out.iter_mut() {
                *o = v;
            }
        }
    }
}

/// `out[i] = f(a[i], b[i])`, in parallel chunks for long arrays.
pub fn zip_map<T: Copy + Send + Sync, R: Copy + Send>(
    a: Src<T>,
    b: Src<T>,
    out: &mut [R],
    f: impl Fn(T, T) -> R + Sync + Send,
) {
    if out.len() >= PAR_MIN {
        let stop = crate::arrays::interrupt::flag();
        out.par_chunks_mut(CHUNK).enumerate().for_each(|(ci, o)| {
            if crate::arrays::interrupt::pending(&stop) {
                return;
            }
            let start = ci * CHUNK;
            zip_seq(a.part(start, o.len()), b.part(start, o.len()), o, &f)
        });
    } else {
        zip_seq(a, b, out, &f);
    }
}

/// A broadcast operand: its elements in C order of its own shape, with per axis of the
/// result its element stride (0 along the axes it is broadcast over), or a single value.
pub enum Bcast<'a, T> {
    Strided(&'a [T], Vec<usize>),
    /// As `Strided`, over a converted copy.
    Owned(Vec<T>, Vec<usize>),
    One(T),
}

impl<T: Copy> Bcast<'_, T> {
    /// `len` items from flat result index `start`, all within one row of the last axis:
    /// along that axis an operand either runs (stride 1) or repeats one value (stride 0).
    fn segment(&self, shape: &[usize], start: usize, len: usize) -> Src<'_, T> {
        let (data, strides): (&[T], &[usize]) = match self {
            Bcast::One(v) => return Src::One(*v),
            Bcast::Strided(d, s) => (d, s),
            Bcast::Owned(d, s) => (d, s),
        };
        let (mut rest, mut off) = (start, 0);
        for (&n, &st) in shape.iter().zip(strides).rev() {
            off += (rest % n) * st;
            rest /= n;
        }
        match strides.last() {
            Some(1) => Src::Run(&data[off..off + len]),
            _ => Src::One(data[off]),
        }
    }
}

/// The operands of a binary kernel: flat runs of the result's length, or broadcast over
/// `shape` without being expanded to it first (an outer product `x[:, None] * y` reads
/// each input once instead of materialising two result-sized copies).
pub enum Pair<'a, 'b, T> {
    Flat(Src<'a, T>, Src<'a, T>),
    Broadcast(&'b Bcast<'a, T>, &'b Bcast<'a, T>, &'b [usize]),
}

/// `out[i] = f(a[i], b[i])` over either kind of operands, in parallel chunks.
pub fn zip_pair<T: Copy + Send + Sync, R: Copy + Send>(
    p: &Pair<T>,
    out: &mut [R],
    f: impl Fn(T, T) -> R + Sync + Send,
) {
    let (a, b, shape) = match p {
        Pair::Flat(a, b) => return zip_map(*a, *b, out, f),
        Pair::Broadcast(a, b, shape) => (*a, *b, *shape),
    };
    let row = shape.last().copied().unwrap_or(1).max(1);
    let run = |start: usize, o: &mut [R]| {
        let mut done = 0;
        while done < o.len() {
            let s = start + done;
            let len = (row - s % row).min(o.len() - done);
            let (x, y) = (a.segment(shape, s, len), b.segment(shape, s, len));
            zip_seq(x, y, &mut o[done..done + len], &f);
            done += len;
        }
    };
    if out.len() >= PAR_MIN {
        let stop = crate::arrays::interrupt::flag();
        out.par_chunks_mut(CHUNK).enumerate().for_each(|(ci, o)| {
            if !crate::arrays::interrupt::pending(&stop) {
                run(ci * CHUNK, o);
            }
        });
    } else {
        run(0, out);
    }
}

/// `out[i] = f(a[i])`, in parallel chunks for long arrays.
pub fn map<T: Copy + Send + Sync, R: Send>(
    a: &[T],
    out: &mut [R],
    f: impl Fn(T) -> R + Sync + Send,
) {
    if out.len() >= PAR_MIN {
        let stop = crate::arrays::interrupt::flag();
        out.par_chunks_mut(CHUNK)
            .zip(a.par_chunks(CHUNK))
            .for_each(|(o, x)| {
                if crate::arrays::interrupt::pending(&stop) {
                    return;
                }
                for (o, &x) in o.iter_mut().zip(x) {
                    *o = f(x);
                }
            });
    } else {
        for (o, &x) in out.iter_mut().zip(a) {
            *o = f(x);
        }
    }
}
