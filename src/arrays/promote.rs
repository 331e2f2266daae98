//! NumPy 2 type promotion (NEP 50): the dtype table for two arrays or NumPy scalars, and
//! "weak" Python scalars that adopt the array's dtype when they fit its kind.

use crate::arrays::dtype::DType;

fn kind_rank(d: DType) -> u8 {
    match d {
        DType::Bool => 0,
        DType::U8 | DType::U16 | DType::U32 | DType::U64 => 1,
        DType::I8 | DType::I16 | DType::I32 | DType::I64 => 2,
        DType::F16 | DType::F32 | DType::F64 => 3,
        DType::C64 | DType::C128 => 4,
    }
}

fn signed_of_size(bytes: usize) -> Option<DType> {
    Some(match bytes {
        1 => DType::I8,
        2 => DType::I16,
        4 => DType::I32,
        8 => DType::I64,
        _ => return None,
    })
}

/// `np.result_type(a, b)` for two strongly typed operands.
pub fn promote(a: DType, b: DType) -> DType {
    if a == b {
        return a;
    }
    let (ka, kb) = (kind_rank(a), kind_rank(b));
    if ka == 0 {
        return b;
    }
    if kb == 0 {
        return a;
    }
    let (sa, sb) = (a.itemsize(), b.itemsize());
    match (ka, kb) {
        (4, _) | (_, 4) => {
            // complex64 holds what float32 holds exactly; anything wider needs complex128.
            let (c, o) = if ka == 4 { (a, b) } else { (b, a) };
            if c == DType::C64 && promote(o, DType::F32) == DType::F32 {
                DType::C64
            } else {
                DType::C128
            }
        }
        (1, 1) | (2, 2) | (3, 3) => {
            if sa >= sb {
                a
            } else {
                b
            }
        }
        (1, 2) | (2, 1) => {
            let (u, s) = if ka == 1 { (a, b) } else { (b, a) };
            if u.itemsize() < s.itemsize() {
                s
            } else {
                signed_of_size(u.itemsize() * 2).unwrap_or(DType::F64)
            }
        }
        _ => {
            // float with an integer: the narrowest float that holds every value of the
            // integer exactly (float16 for 8-bit, float32 for 16-bit), or the float itself.
            let (f, i) = if ka == 3 { (a, b) } else { (b, a) };
            let exact = match i.itemsize() {
                1 => DType::F16,
                2 => DType::F32,
                _ => DType::F64,
            };
            if exact.itemsize() > f.itemsize() {
                exact
            } else {
                f
            }
        }
    }
}

/// How strict a cast is: NumPy's `casting=` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Casting {
    No,
    Equiv,
    Safe,
    SameKind,
    Unsafe,
}

impl Casting {
    pub fn parse(s: &str) -> Option<Casting> {
        Some(match s {
            "no" => Casting::No,
            "equiv" => Casting::Equiv,
            "safe" => Casting::Safe,
            "same_kind" => Casting::SameKind,
            "unsafe" => Casting::Unsafe,
            _ => return None,
        })
    }
}

/// `np.can_cast(from, to, casting)` for two dtypes. A safe cast is one whose promotion
/// with the target is the target itself (so int64 to float64 is safe, as in NumPy).
pub fn can_cast(from: DType, to: DType, casting: Casting) -> bool {
    match casting {
        Casting::No | Casting::Equiv => from == to,
        Casting::Safe => promote(from, to) == to,
        Casting::SameKind => promote(from, to) == to || kind_rank(from) <= kind_rank(to),
        Casting::Unsafe => true,
    }
}

/// The float type NumPy's float ufuncs (sin, sqrt, arctan2 ...) compute integer inputs in:
/// the first of their `e`, `f`, `d` loops the input casts to safely.
pub fn float_of(d: DType) -> DType {
    match d {
        DType::F16 | DType::F64 | DType::C64 | DType::C128 => d,
        DType::Bool | DType::I8 | DType::U8 => DType::F16,
        DType::F32 | DType::I16 | DType::U16 => DType::F32,
        _ => DType::F64,
    }
}

pub fn int_bounds(d: DType) -> (i128, i128) {
    match d {
        DType::I8 => (i8::MIN as i128, i8::MAX as i128),
        DType::I16 => (i16::MIN as i128, i16::MAX as i128),
        DType::I32 => (i32::MIN as i128, i32::MAX as i128),
        DType::I64 => (i64::MIN as i128, i64::MAX as i128),
        DType::U8 => (0, u8::MAX as i128),
        DType::U16 => (0, u16::MAX as i128),
        DType::U32 => (0, u32::MAX as i128),
        DType::U64 => (0, u64::MAX as i128),
        _ => (i128::MIN, i128::MAX),
    }
}
