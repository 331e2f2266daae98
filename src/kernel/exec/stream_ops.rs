//! Typed element loops for the stream executor ([`crate::kernel::exec::stream`]): values
//! held in their own width (float32 as f32, int8 as i8...), one loop per operation and
//! type, each compiled twice (baseline and AVX2+FMA) and chosen at run time.
//!
//! The semantics are the interpreter's: every loop computes through the canonical-bits
//! functions of [`crate::kernel::exec::scalar_ops`] (`bin`, `cmp`, `cast`, `un`, `math_*`), which
//! fold to the native instruction once the type and operation are fixed, so both
//! executors give the same bits for the same kernel.

use crate::arrays::dtype::DType;
use crate::arrays::operator::{Arith, Cmp, Unary};
use crate::kernel::exec::scalar_ops::{
    bf32, bf64, bin, cast, cmp, f32b, f64b, math, math_f32, math_f64, un,
};
use crate::kernel::ir::MathFn;

/// A value of one dtype in its native width, convertible to and from canonical bits.
pub(crate) trait Elem: Copy + Default + Send + Sync + 'static {
    const DT: DType;
    fn bits(self) -> u64;
    fn of(bits: u64) -> Self;
}

/// A boolean as one byte, 0 or 1 (a distinct type so that `uint8` keeps its own dtype).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub(crate) struct B8(pub u8);

macro_rules! elem {
    ($t:ty, $dt:ident, |$x:ident| $to:expr, |$b:ident| $from:expr) => {
        impl Elem for $t {
            const DT: DType = DType::$dt;
            #[inline(always)]
            fn bits(self) -> u64 {
                let $x = self;
                $to
            }
            #[inline(always)]
            fn of($b: u64) -> Self {
                $from
            }
        }
    };
}

elem!(B8, Bool, |x| x.0 as u64, |b| B8((b != 0) as u8));
elem!(i8, I8, |x| x as i64 as u64, |b| b as i8);
elem!(i16, I16, |x| x as i64 as u64, |b| b as i16);
elem!(i32, I32, |x| x as i64 as u64, |b| b as i32);
elem!(i64, I64, |x| x as u64, |b| b as i64);
elem!(u8, U8, |x| x as u64, |b| b as u8);
elem!(u16, U16, |x| x as u64, |b| b as u16);
elem!(u32, U32, |x| x as u64, |b| b as u32);
elem!(u64, U64, |x| x, |b| b);
elem!(f32, F32, |x| bf32(x), |b| f32b(b));
elem!(f64, F64, |x| bf64(x), |b| f64b(b));

/// Run `$body` with `$T` bound to the native type of dtype `$dt`.
macro_rules! with_elem {
    ($dt:expr, $T:ident, $body:expr) => {{
        use $crate::kernel::exec::stream_ops::B8;
        match $dt {
            DType::Bool => {
                type $T = B8;
                $body
            }
            DType::I8 => {
                type $T = i8;
                $body
            }
            DType::I16 => {
                type $T = i16;
                $body
            }
            DType::I32 => {
                type $T = i32;
                $body
            }
            DType::I64 => {
                type $T = i64;
                $body
            }
            DType::U8 => {
                type $T = u8;
                $body
            }
            DType::U16 => {
                type $T = u16;
                $body
            }
            DType::U32 => {
                type $T = u32;
                $body
            }
            DType::U64 => {
                type $T = u64;
                $body
            }
            DType::F32 => {
                type $T = f32;
                $body
            }
            DType::F64 => {
                type $T = f64;
                $body
            }
            // Complex and float16 arrays never reach a device (transfers refuse them); the
            // stream engine sees them as plain bits of their width so the match stays total.
            DType::F16 => {
                type $T = u16;
                $body
            }
            DType::C64 => {
                type $T = u64;
                $body
            }
            DType::C128 => {
                type $T = f64;
                $body
            }
        }
    }};
}
pub(crate) use with_elem;

/// An operand: one value per element, or one value for all of them.
#[derive(Clone, Copy)]
pub(crate) enum Opnd<'a, T> {
    V(&'a [T]),
    S(T),
}

/// Define `$name`, which runs the `#[inline(always)]` generic `$generic` compiled for
/// AVX2+FMA when the CPU has them, and for baseline x86-64 otherwise; with `avx512`
/// first, also a version for AVX-512 (for loops bound by arithmetic, not memory).
macro_rules! simd_fn {
    ($name:ident<$($g:ident),*>($($a:ident: $t:ty),*) => $generic:ident) => {
        simd_fn!(@define $name<$($g),*>($($a: $t),*) => $generic, {});
    };
    (avx512 $name:ident<$($g:ident),*>($($a:ident: $t:ty),*) => $generic:ident) => {
        simd_fn!(@define $name<$($g),*>($($a: $t),*) => $generic, {
            if crate::kernel::exec::mem::has_avx512() {
                /// # Safety
                /// The CPU must support AVX-512 (F, VL, DQ), AVX2 and FMA.
                #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx2,fma")]
                unsafe fn wide<$($g: Elem),*>($($a: $t),*) {
                    $generic::<$($g),*>($($a),*)
                }
                // SAFETY: the CPU has these features (checked just above).
                return unsafe { wide::<$($g),*>($($a),*) };
            }
        });
    };
    (@define $name:ident<$($g:ident),*>($($a:ident: $t:ty),*) => $generic:ident, $first:block) => {
        pub(crate) fn $name<$($g: Elem),*>($($a: $t),*) {
            #[cfg(target_arch = "x86_64")]
            {
                $first
                if crate::kernel::exec::mem::has_avx2() {
                    /// # Safety
                    /// The CPU must support AVX2 and FMA.
                    #[target_feature(enable = "avx2,fma")]
                    unsafe fn fast<$($g: Elem),*>($($a: $t),*) {
                        $generic::<$($g),*>($($a),*)
                    }
                    // SAFETY: AVX2 and FMA are present (checked just above).
                    return unsafe { fast::<$($g),*>($($a),*) };
                }
            }
            $generic::<$($g),*>($($a),*)
        }
    };
}

#[inline(always)]
fn map1<A: Copy, O: Copy>(o: &mut [O], a: Opnd<A>, f: impl Fn(A) -> O) {
    match a {
        Opnd::V(a) => {
            for (o, x) in o.iter_mut().zip(a) {
                *o = f(*x);
            }
        }
        Opnd::S(x) => {
            o.fill(f(x));
        }
    }
}

#[inline(always)]
fn map2<A: Copy, B: Copy, O>(o: &mut [O], a: Opnd<A>, b: Opnd<B>, f: impl Fn(A, B) -> O) {
    match (a, b) {
        (Opnd::V(a), Opnd::V(b)) => {
            for ((o, x), y) in o.iter_mut().zip(a).zip(b) {
                *o = f(*x, *y);
            }
        }
        (Opnd::V(a), Opnd::S(y)) => {
            for (o, x) in o.iter_mut().zip(a) {
                *o = f(*x, y);
            }
        }
        (Opnd::S(x), Opnd::V(b)) => {
            for (o, y) in o.iter_mut().zip(b) {
                *o = f(x, *y);
            }
        }
        (Opnd::S(x), Opnd::S(y)) => {
            for o in o.iter_mut() {
                *o = f(x, y);
            }
        }
    }
}

#[inline(always)]
fn bin_generic<T: Elem>(op: Arith, o: &mut [T], a: Opnd<T>, b: Opnd<T>) {
    macro_rules! arms {
        ($($v:ident),*) => {
            match op {
                $(Arith::$v => map2(o, a, b, |x: T, y: T| T::of(bin(Arith::$v, T::DT, x.bits(), y.bits()))),)*
            }
        };
    }
    arms!(Add, Sub, Mul, Div, FloorDiv, Mod, Pow, BitAnd, BitOr, BitXor, LShift, RShift, Min, Max)
}
simd_fn!(avx512 bin_loop<T>(op: Arith, o: &mut [T], a: Opnd<T>, b: Opnd<T>) => bin_generic);

#[inline(always)]
fn cmp_generic<T: Elem>(c: Cmp, o: &mut [B8], a: Opnd<T>, b: Opnd<T>) {
    macro_rules! arms {
        ($($v:ident),*) => {
            match c {
                $(Cmp::$v => map2(o, a, b, |x: T, y: T| B8(cmp(Cmp::$v, T::DT, x.bits(), y.bits()) as u8)),)*
            }
        };
    }
    arms!(Eq, Ne, Lt, Le, Gt, Ge)
}
simd_fn!(cmp_loop<T>(c: Cmp, o: &mut [B8], a: Opnd<T>, b: Opnd<T>) => cmp_generic);

#[inline(always)]
fn cast_generic<F: Elem, U: Elem>(o: &mut [U], a: Opnd<F>) {
    map1(o, a, |x: F| U::of(cast(x.bits(), F::DT, U::DT)))
}
simd_fn!(avx512 cast_loop<F, U>(o: &mut [U], a: Opnd<F>) => cast_generic);

#[inline(always)]
fn un_generic<T: Elem>(op: Unary, o: &mut [T], a: Opnd<T>) {
    macro_rules! arms {
        ($($v:ident),*) => {
            match op {
                $(Unary::$v => map1(o, a, |x: T| T::of(un(Unary::$v, T::DT, x.bits()))),)*
            }
        };
    }
    arms!(Neg, Not, Invert, Abs, Popc, Clz, Ffs, Brev)
}
simd_fn!(un_loop<T>(op: Unary, o: &mut [T], a: Opnd<T>) => un_generic);

#[inline(always)]
fn select_generic<T: Elem>(o: &mut [T], c: Opnd<B8>, a: Opnd<T>, b: Opnd<T>) {
    match c {
        Opnd::S(c) => map1(o, if c.0 != 0 { a } else { b }, |x: T| x),
        Opnd::V(c) => {
            let at = |v: &Opnd<T>, k: usize| match v {
                Opnd::V(s) => s[k],
                Opnd::S(x) => *x,
            };
            for (k, (o, c)) in o.iter_mut().zip(c).enumerate() {
                *o = if c.0 != 0 { at(&a, k) } else { at(&b, k) };
            }
        }
    }
}
simd_fn!(select_loop<T>(o: &mut [T], c: Opnd<B8>, a: Opnd<T>, b: Opnd<T>) => select_generic);

/// A `math.*` function of float32 values.
#[inline(always)]
fn math32_generic(f: MathFn, o: &mut [f32], a: Opnd<f32>, b: Opnd<f32>) {
    match (f, a) {
        (MathFn::Sin | MathFn::Cos, Opnd::V(a)) => {
            crate::kernel::exec::math::sincos_f32(o, a, f == MathFn::Cos)
        }
        _ => map2(o, a, b, |x, y| math_f32(f, x, y)),
    }
}
simd_fn!(avx512 math32_loop<>(f: MathFn, o: &mut [f32], a: Opnd<f32>, b: Opnd<f32>) => math32_generic);

/// A `math.*` function of float64 values.
#[inline(always)]
fn math64_generic(f: MathFn, o: &mut [f64], a: Opnd<f64>, b: Opnd<f64>) {
    map2(o, a, b, |x, y| math_f64(f, x, y))
}
simd_fn!(avx512 math64_loop<>(f: MathFn, o: &mut [f64], a: Opnd<f64>, b: Opnd<f64>) => math64_generic);

/// `math.isnan` and the other predicates: a float in, a boolean out.
pub(crate) fn predicate_loop<T: Elem>(f: MathFn, o: &mut [B8], a: Opnd<T>) {
    map1(o, a, |x: T| B8(math(f, T::DT, x.bits(), 0) as u8))
}

/// The thread's global id, `first + k`, for each element `k`.
pub(crate) fn iota(o: &mut [i64], first: i64) {
    for (k, o) in o.iter_mut().enumerate() {
        *o = first + k as i64;
    }
}
