//! Math over a whole set of lanes in loops the compiler can vectorise. The C library's
//! `sinf`/`cosf` are accurate but one call per lane; float32 sine and cosine here are
//! evaluated in float64 (Cody-Waite reduction by pi/2, Taylor polynomials to degree 13/14)
//! with fused multiply-adds (exact in every build: the baseline build computes the same
//! fused result in software) and rounded once, which gives the correctly rounded float32 result except in rare
//! double-rounding cases (at most one unit in the last place, as CUDA's `sinf` allows).
//! Arguments beyond the reduction's exact range, infinities and NaN take the C library.

use crate::arrays::dtype::DType;
use crate::arrays::operator::Arith;
use crate::kernel::exec::scalar_ops::{bf32, bf64, f32b, f64b, py_max, py_min};

/// Arguments up to this magnitude are reduced exactly enough by the two-part pi/2.
const REDUCE_MAX: f32 = 1.0e5;
const TWO_OVER_PI: f64 = std::f64::consts::FRAC_2_PI;
/// pi/2 split so that `k * PIO2_HI` is exact for |k| < 2^20.
const PIO2_HI: f64 = 1.570_796_326_734_125_6;
const PIO2_LO: f64 = 6.077_100_506_506_192e-11;
/// Adding and subtracting 1.5 * 2^52 rounds a float64 to the nearest integer, and leaves
/// that integer in the low mantissa bits of the sum.
const ROUND_MAGIC: f64 = 6_755_399_441_055_744.0;

#[inline(always)]
fn sin_poly(r: f64) -> f64 {
    let z = r * r;
    let p: f64 = 1.0 / 6_227_020_800.0;
    let p = p.mul_add(z, -1.0 / 39_916_800.0);
    let p = p.mul_add(z, 1.0 / 362_880.0);
    let p = p.mul_add(z, -1.0 / 5_040.0);
    let p = p.mul_add(z, 1.0 / 120.0);
    let p = p.mul_add(z, -1.0 / 6.0);
    (r * z).mul_add(p, r)
}

#[inline(always)]
fn cos_poly(r: f64) -> f64 {
    let z = r * r;
    let p: f64 = -1.0 / 87_178_291_200.0;
    let p = p.mul_add(z, 1.0 / 479_001_600.0);
    let p = p.mul_add(z, -1.0 / 3_628_800.0);
    let p = p.mul_add(z, 1.0 / 40_320.0);
    let p = p.mul_add(z, -1.0 / 720.0);
    let p = p.mul_add(z, 1.0 / 24.0);
    let p = p.mul_add(z, -0.5);
    z.mul_add(p, 1.0)
}

/// Within the exact reduction range (false for NaN and infinities).
#[inline(always)]
fn reducible(x: f32) -> bool {
    x.abs() <= REDUCE_MAX
}

/// sin(x) (cos when `shift` is 1) of a float32 inside the reduction range, in float64.
#[inline(always)]
fn sincos_reduced(x: f32, shift: u64) -> f32 {
    let x = x as f64;
    let t = x * TWO_OVER_PI + ROUND_MAGIC;
    // cos(x) = sin(x + pi/2): one more quadrant.
    let q = (t.to_bits().wrapping_add(shift)) & 3;
    let k = t - ROUND_MAGIC;
    let r = (x - k * PIO2_HI) - k * PIO2_LO;
    let (s, c) = (sin_poly(r), cos_poly(r));
    let v = if q & 1 != 0 { c } else { s };
    let v = if q & 2 != 0 { -v } else { v };
    v as f32
}

/// The float32 sine (cosine when `cos`) of one value, exactly as the lane loops compute
/// it: every path (lanes, uniform values, the JIT) must give the same bits.
#[inline(always)]
pub fn sincos_f32_one(x: f32, cos: bool) -> f32 {
    if reducible(x) {
        sincos_reduced(x, cos as u64)
    } else if cos {
        x.cos()
    } else {
        x.sin()
    }
}

/// `out[l] = sin(a[l])` (or cos) for float32 lanes held as register bits.
#[inline(always)]
pub fn sincos_f32_lanes(out: &mut [u64], a: &[u64], cos: bool) {
    sincos_map(out, a, cos, f32b, bf32)
}

/// `out[l] = sin(a[l])` (or cos) for native float32 values.
#[inline(always)]
pub fn sincos_f32(out: &mut [f32], a: &[f32], cos: bool) {
    sincos_map(out, a, cos, |x| x, |x| x)
}

/// The float32 sine or cosine of values held as `T`, read with `get` and written with `put`.
#[inline(always)]
fn sincos_map<T: Copy>(
    out: &mut [T],
    a: &[T],
    cos: bool,
    get: impl Fn(T) -> f32,
    put: impl Fn(f32) -> T,
) {
    let n = out.len().min(a.len());
    let (out, a) = (&mut out[..n], &a[..n]);
    let shift = cos as u64;
    let mut outside = false;
    for (o, &v) in out.iter_mut().zip(a) {
        let x = get(v);
        outside |= !reducible(x);
        *o = put(sincos_reduced(x, shift));
    }
    if !outside {
        return;
    }
    for (o, &v) in out.iter_mut().zip(a) {
        let x = get(v);
        if !reducible(x) {
            *o = put(if cos { x.cos() } else { x.sin() });
        }
    }
}

/// `d[l] = v[l] <op> s` (or `s <op> v[l]` when `scalar_left`) for float lanes and one
/// uniform operand `s`, without writing `s` into every lane first. False (nothing written)
/// for operations this does not cover.
pub fn bin_scalar_lanes(
    d: &mut [u64],
    v: &[u64],
    s: u64,
    op: Arith,
    dt: DType,
    scalar_left: bool,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if crate::kernel::exec::mem::has_avx2() {
        // SAFETY: the CPU supports AVX2 and FMA (checked just above).
        return unsafe { bin_scalar_lanes_avx2(d, v, s, op, dt, scalar_left) };
    }
    bin_scalar_lanes_generic(d, v, s, op, dt, scalar_left)
}

/// # Safety
/// The CPU must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn bin_scalar_lanes_avx2(
    d: &mut [u64],
    v: &[u64],
    s: u64,
    op: Arith,
    dt: DType,
    scalar_left: bool,
) -> bool {
    bin_scalar_lanes_generic(d, v, s, op, dt, scalar_left)
}

#[inline(always)]
fn bin_scalar_lanes_generic(
    d: &mut [u64],
    v: &[u64],
    s: u64,
    op: Arith,
    dt: DType,
    scalar_left: bool,
) -> bool {
    let n = d.len().min(v.len());
    let (d, v) = (&mut d[..n], &v[..n]);
    macro_rules! run {
        ($to:expr, $from:expr, $f:expr) => {{
            let s = $to(s);
            let f = $f;
            if scalar_left {
                for (o, x) in d.iter_mut().zip(v) {
                    *o = $from(f(s, $to(*x)));
                }
            } else {
                for (o, x) in d.iter_mut().zip(v) {
                    *o = $from(f($to(*x), s));
                }
            }
        }};
    }
    macro_rules! float_ops {
        ($to:expr, $from:expr) => {
            match op {
                Arith::Add => run!($to, $from, |a, b| a + b),
                Arith::Sub => run!($to, $from, |a, b| a - b),
                Arith::Mul => run!($to, $from, |a, b| a * b),
                Arith::Div => run!($to, $from, |a, b| a / b),
                Arith::Max => run!($to, $from, py_max),
                Arith::Min => run!($to, $from, py_min),
                _ => return false,
            }
        };
    }
    match dt {
        DType::F32 => float_ops!(f32b, bf32),
        DType::F64 => float_ops!(f64b, bf64),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ulps(a: f32, b: f32) -> u32 {
        if a == b {
            return 0;
        }
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    #[test]
    fn matches_correctly_rounded_float32() {
        let mut xs: Vec<f32> = (0..200_000)
            .map(|i| (i as f32 - 100_000.0) * 0.013)
            .collect();
        xs.extend([
            0.0,
            -0.0,
            1e-30,
            -1e-8,
            std::f32::consts::FRAC_PI_4,
            1.570_796_4,
            std::f32::consts::PI,
            99_999.0,
            1e5,
            1.5e5,
            3e7,
            -1e30,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ]);
        let a: Vec<u64> = xs.iter().map(|x| bf32(*x)).collect();
        for cos in [false, true] {
            let mut out = vec![0u64; a.len()];
            sincos_f32_lanes(&mut out, &a, cos);
            let mut differ = 0;
            for (x, o) in xs.iter().zip(&out) {
                let got = f32b(*o);
                let want = if cos {
                    (*x as f64).cos()
                } else {
                    (*x as f64).sin()
                } as f32;
                if want.is_nan() {
                    assert!(got.is_nan(), "x = {x}: {got}");
                    continue;
                }
                let d = ulps(got, want);
                assert!(d <= 1, "cos={cos} x = {x}: got {got}, want {want}");
                differ += (d != 0) as usize;
            }
            // Double rounding is rare: nearly every result is the correctly rounded one.
            assert!(
                differ * 10_000 < xs.len(),
                "{differ} of {} differ",
                xs.len()
            );
        }
    }
}
