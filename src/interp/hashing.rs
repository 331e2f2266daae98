//! `hash()` as CPython computes it for numbers and tuples of them (`hash(2) == 2`,
//! `hash(2.0) == hash(2)`, `hash(-1) == -2`), so a hash a user prints or compares with
//! CPython's is the same. Other values hash by their repr (CPython randomises str hashes
//! per process anyway).

use crate::py::value::Value;

/// CPython's modulus for numeric hashes: 2**61 - 1.
const MODULUS: u64 = (1 << 61) - 1;
const INF: i64 = 314159;

fn finish(x: i64) -> i64 {
    if x == -1 {
        -2
    } else {
        x
    }
}

/// `hash(n)` for an int.
pub fn hash_int(n: i64) -> i64 {
    let m = (n.unsigned_abs() % MODULUS) as i64;
    finish(if n < 0 { -m } else { m })
}

/// `hash(x)` for a float (NaN hashes by identity in CPython; nbcuda gives it 0).
pub fn hash_float(v: f64) -> i64 {
    if v.is_nan() {
        return 0;
    }
    if v.is_infinite() {
        return if v > 0.0 { INF } else { -INF };
    }
    if v.fract() == 0.0 && v.abs() < 9.2e18 {
        return hash_int(v as i64);
    }
    let (mut m, mut e) = frexp(v.abs());
    let sign: i64 = if v < 0.0 { -1 } else { 1 };
    let mut x: u64 = 0;
    while m != 0.0 {
        x = ((x << 28) & MODULUS) | (x >> (61 - 28));
        m *= 268435456.0; // 2**28
        e -= 28;
        let y = m as u64;
        m -= y as f64;
        x += y;
        if x >= MODULUS {
            x -= MODULUS;
        }
    }
    let e = if e >= 0 {
        e % 61
    } else {
        61 - 1 - ((-1 - e) % 61)
    } as u32;
    x = ((x << e) & MODULUS) | (x >> (61 - e));
    finish(x as i64 * sign)
}

/// `frexp`: `v == m * 2**e` with `0.5 <= m < 1` (v finite, non-zero, positive).
fn frexp(v: f64) -> (f64, i32) {
    if v == 0.0 {
        return (0.0, 0);
    }
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(v * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exp - 1022)
}

/// CPython's tuple hash (xxHash's round and finalisation over the item hashes).
pub fn hash_tuple(items: &[i64]) -> i64 {
    const P1: u64 = 11400714785074694791;
    const P2: u64 = 14029467366897019727;
    const P5: u64 = 2870177450012600261;
    let mut acc = P5;
    for &lane in items {
        acc = acc.wrapping_add((lane as u64).wrapping_mul(P2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(P1);
    }
    acc = acc.wrapping_add(items.len() as u64 ^ (P5 ^ 3527539));
    if acc == u64::MAX {
        return 1546275796;
    }
    acc as i64
}

/// The hash of a number or a tuple of hashable numbers; None for other values.
pub fn numeric_hash(v: &Value) -> Option<i64> {
    numeric_hash_at(v, 0)
}

/// Tuples nested deeper than this (CPython hashes 100,000 levels) are hashed through
/// their repr, which raises CPython's RecursionError, instead of recursing down millions
/// of levels on the native stack.
const HASH_DEPTH: usize = 100_000;

fn numeric_hash_at(v: &Value, depth: usize) -> Option<i64> {
    Some(match v {
        Value::Bool(b) => *b as i64,
        Value::Int(n) => hash_int(*n),
        Value::BigInt(b) => crate::py::bigint::hash(b),
        Value::Float(f) => hash_float(*f),
        Value::Complex(re, im) => crate::interp::complex::hash(*re, *im),
        // NumPy scalars hash as the Python numbers they equal (`hash(np.float32(1.5)) ==
        // hash(1.5)`), so they find the same dict entries.
        Value::Scalar(s) => {
            let d = s.dtype();
            if d.is_complex() {
                let (re, im) = s.as_c128();
                crate::interp::complex::hash(re, im)
            } else if d.is_float() {
                hash_float(s.as_f64())
            } else if let crate::arrays::dtype::Scalar::U64(u) = s {
                // Python's int hash is the value modulo 2**61 - 1.
                (*u % ((1u64 << 61) - 1)) as i64
            } else {
                hash_int(s.as_i64())
            }
        }
        Value::Tuple(items) if depth < HASH_DEPTH => {
            let hs: Option<Vec<i64>> = items
                .iter()
                .map(|x| numeric_hash_at(x, depth + 1))
                .collect();
            hash_tuple(&hs?)
        }
        _ => return None,
    })
}
