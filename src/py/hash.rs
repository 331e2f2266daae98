//! Python's `hash()`: one function for every hashable builtin, and the hash dicts and sets
//! file their keys under, so a user object whose `__hash__` returns `hash(k)` and that
//! equals `k` finds (and is found by) the plain key `k`, as in CPython.
//!
//! Numbers hash as CPython's do, modulo 2**61 - 1, so every number type that compares
//! equal hashes alike (`hash(1) == hash(1.0) == hash(True)`, `hash(-1) == -2`) and a hash a
//! user prints is CPython's. Tuples combine their items' hashes with CPython 3.11's
//! algorithm. Strings and bytes hash by FxHash of their bytes: CPython randomises those per
//! process anyway, and this is the cost of every `d[s] = v`.

use std::hash::Hasher;

use rustc_hash::FxHasher;

use crate::py::value::Value;

/// CPython's modulus for numeric hashes: 2**61 - 1.
pub const MODULUS: u64 = (1 << 61) - 1;
/// CPython's `hash(float('inf'))`.
const INF: i64 = 314159;
/// `hash(None)`: CPython 3.11 hashes None by address; any constant keeps it consistent
/// (this one spells "None" in ASCII).
const NONE: i64 = 0x4E6F_6E65;

/// CPython never returns -1 from a hash (it signals an error in C): -1 becomes -2.
#[inline]
fn finish(x: i64) -> i64 {
    if x == -1 {
        -2
    } else {
        x
    }
}

/// `hash(n)` for an int.
#[inline]
pub fn hash_int(n: i64) -> i64 {
    const M: i64 = MODULUS as i64;
    // Most ints are below the modulus already: no division for them.
    if (0..M).contains(&n) {
        return n;
    }
    if (-M + 1..0).contains(&n) {
        return finish(n);
    }
    let m = (n.unsigned_abs() % MODULUS) as i64;
    finish(if n < 0 { -m } else { m })
}

/// `hash(x)` for a float (NaN hashes by identity in CPython; nbcuda gives it 0, and a NaN
/// key still finds itself by identity).
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

/// CPython's `hash(complex)`: hash(real) + 1000003 * hash(imag), in wrapping arithmetic
/// (so a complex with no imaginary part hashes as its real part).
pub fn hash_complex(re: f64, im: f64) -> i64 {
    finish(hash_float(re).wrapping_add(hash_float(im).wrapping_mul(1000003)))
}

/// `hash(s)` for a str or bytes, by its bytes (`hash('a') == hash(b'a')`, as in CPython).
#[inline]
pub fn hash_bytes(b: &[u8]) -> i64 {
    let mut h = FxHasher::default();
    h.write(b);
    finish(h.finish() as i64)
}

/// CPython 3.11's tuple hash (xxHash's round and finalisation), fed one item hash at a
/// time so callers that hash items themselves (running `__hash__`) combine them the same.
pub struct TupleHash(u64);

impl TupleHash {
    const P1: u64 = 11400714785074694791;
    const P2: u64 = 14029467366897019727;
    const P5: u64 = 2870177450012600261;

    pub fn new() -> TupleHash {
        TupleHash(Self::P5)
    }
    #[inline]
    pub fn add(&mut self, lane: i64) {
        let acc = self.0.wrapping_add((lane as u64).wrapping_mul(Self::P2));
        self.0 = acc.rotate_left(31).wrapping_mul(Self::P1);
    }
    /// The hash of the tuple of `len` items added.
    pub fn finish(self, len: usize) -> i64 {
        let acc = self.0.wrapping_add(len as u64 ^ (Self::P5 ^ 3527539));
        if acc == u64::MAX {
            return 1546275796;
        }
        acc as i64
    }
}

impl Default for TupleHash {
    fn default() -> Self {
        Self::new()
    }
}

/// Tuples nested deeper than this (CPython hashes 100,000 levels) get no hash here
/// (`hash()` then goes through their repr, which raises CPython's RecursionError) instead
/// of recursing down millions of levels on the native stack.
const HASH_DEPTH: usize = 100_000;

/// `hash(v)` for a hashable builtin value (None, bool, numbers, NumPy scalars, str, bytes,
/// tuples of them); None for every other value (instances hash by their `__hash__`, which
/// the interpreter runs, and [`from_dunder`] reduces).
#[inline]
pub fn hash_value(v: &Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(hash_int(*n)),
        Value::Str(s) => Some(hash_bytes(s.as_bytes())),
        _ => hash_at(v, 0),
    }
}

fn hash_at(v: &Value, depth: usize) -> Option<i64> {
    Some(match v {
        Value::None => NONE,
        Value::Bool(b) => *b as i64,
        Value::Int(n) => hash_int(*n),
        Value::BigInt(b) => crate::py::bigint::hash(b),
        Value::Float(f) => hash_float(*f),
        Value::Complex(re, im) => hash_complex(*re, *im),
        Value::Str(s) => hash_bytes(s.as_bytes()),
        Value::Bytes(b) => hash_bytes(b),
        // NumPy scalars hash as the Python numbers they equal (`hash(np.float32(1.5)) ==
        // hash(1.5)`), so they find the same dict entries.
        Value::Scalar(s) => {
            let d = s.dtype();
            if d.is_complex() {
                let (re, im) = s.as_c128();
                hash_complex(re, im)
            } else if d.is_float() {
                hash_float(s.as_f64())
            } else if let crate::arrays::dtype::Scalar::U64(u) = s {
                (*u % MODULUS) as i64
            } else {
                hash_int(s.as_i64())
            }
        }
        Value::Tuple(items) if depth < HASH_DEPTH => {
            let mut h = TupleHash::new();
            for x in items.iter() {
                h.add(hash_at(x, depth + 1)?);
            }
            h.finish(items.len())
        }
        _ => return None,
    })
}

/// The hash CPython takes from a `__hash__` result: an int that fits as it is (-1 made
/// -2), a larger one reduced as `hash()` reduces ints; None for a result that is no int.
pub fn from_dunder(v: &Value) -> Option<i64> {
    match v {
        Value::Int(h) => Some(finish(*h)),
        Value::Bool(b) => Some(*b as i64),
        Value::BigInt(b) => Some(crate::py::bigint::hash(b)),
        _ => None,
    }
}
