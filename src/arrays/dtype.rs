//! NumPy dtypes and scalars.

/// The dtypes nbcuda supports on host and device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    /// Host-only, as NumPy's half: arithmetic goes through float32 and rounds back.
    F16,
    F32,
    F64,
    C64,
    C128,
}

impl DType {
    /// The real dtypes: every dtype the devices, kernels and CuPy support.
    pub const ALL: [DType; 11] = [
        DType::Bool,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U64,
        DType::F32,
        DType::F64,
    ];

    /// NumPy's name: `float32`, `int64`, `bool`.
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::I8 => "int8",
            DType::I16 => "int16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::U8 => "uint8",
            DType::U16 => "uint16",
            DType::U32 => "uint32",
            DType::U64 => "uint64",
            DType::F16 => "float16",
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::C64 => "complex64",
            DType::C128 => "complex128",
        }
    }

    pub fn itemsize(self) -> usize {
        match self {
            DType::Bool | DType::I8 | DType::U8 => 1,
            DType::I16 | DType::U16 | DType::F16 => 2,
            DType::I32 | DType::U32 | DType::F32 => 4,
            DType::I64 | DType::U64 | DType::F64 | DType::C64 => 8,
            DType::C128 => 16,
        }
    }

    /// The one-character type code (`np.dtype(np.float16).char == 'e'`).
    pub fn char(self) -> &'static str {
        match self {
            DType::Bool => "?",
            DType::I8 => "b",
            DType::I16 => "h",
            DType::I32 => "i",
            DType::I64 => "l",
            DType::U8 => "B",
            DType::U16 => "H",
            DType::U32 => "I",
            DType::U64 => "L",
            DType::F16 => "e",
            DType::F32 => "f",
            DType::F64 => "d",
            DType::C64 => "F",
            DType::C128 => "D",
        }
    }

    /// The array-interface type string (`<f4`, `|b1`, `|u1`).
    pub fn typestr(self) -> String {
        let kind = match self {
            DType::Bool => 'b',
            DType::I8 | DType::I16 | DType::I32 | DType::I64 => 'i',
            DType::U8 | DType::U16 | DType::U32 | DType::U64 => 'u',
            DType::F16 | DType::F32 | DType::F64 => 'f',
            DType::C64 | DType::C128 => 'c',
        };
        let order = if self.itemsize() == 1 { '|' } else { '<' };
        format!("{order}{kind}{}", self.itemsize())
    }

    pub fn is_integer(self) -> bool {
        !matches!(
            self,
            DType::Bool | DType::F16 | DType::F32 | DType::F64 | DType::C64 | DType::C128
        )
    }
    pub fn is_complex(self) -> bool {
        matches!(self, DType::C64 | DType::C128)
    }
    /// The dtype of a complex dtype's parts (`complex64` → `float32`); others are their own.
    pub fn real_part(self) -> DType {
        match self {
            DType::C64 => DType::F32,
            DType::C128 => DType::F64,
            d => d,
        }
    }
    pub fn is_signed(self) -> bool {
        matches!(self, DType::I8 | DType::I16 | DType::I32 | DType::I64)
    }
    pub fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::F32 | DType::F64)
    }
    /// Host arrays only: the devices, kernels and CuPy refuse it (complex and float16).
    pub fn is_host_only(self) -> bool {
        !DType::ALL.contains(&self)
    }

    /// Parse NumPy / Numba spellings: `float32`, `f4`, `<f4`, `np.float32` names, `int`,
    /// `float`, `bool`, `i8`, `u4`, `b1`, `uint8` ...
    pub fn parse(s: &str) -> Option<DType> {
        let s = s.trim().trim_start_matches(['<', '=', '|']);
        Some(match s {
            "bool" | "bool_" | "b1" | "?" | "boolean" => DType::Bool,
            "int8" | "i1" | "b" => DType::I8,
            "int16" | "i2" | "h" => DType::I16,
            "int32" | "i4" | "i" | "intc" => DType::I32,
            "int64" | "i8" | "int" | "l" | "q" | "intp" | "int_" => DType::I64,
            "uint8" | "u1" | "B" => DType::U8,
            "uint16" | "u2" | "H" => DType::U16,
            "uint32" | "u4" | "I" | "uintc" => DType::U32,
            "uint64" | "u8" | "L" | "Q" | "uintp" | "uint" => DType::U64,
            "float16" | "f2" | "e" | "half" => DType::F16,
            "float32" | "f4" | "f" | "single" => DType::F32,
            "float64" | "f8" | "d" | "float" | "double" | "float_" => DType::F64,
            "complex64" | "c8" | "F" | "csingle" => DType::C64,
            "complex128" | "c16" | "D" | "complex" | "cdouble" => DType::C128,
            _ => return None,
        })
    }
}

/// A NumPy scalar: a value that keeps its dtype (`np.float32(1.5)`, `arr[0]`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F16(half::f16),
    F32(f32),
    F64(f64),
    /// A complex64: real and imaginary parts.
    C64(f32, f32),
    C128(f64, f64),
}

/// The first `N` bytes of `b` as an array (the caller guarantees `b` holds that many).
fn le<const N: usize>(b: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&b[..N]);
    a
}

impl Scalar {
    pub fn dtype(&self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::I8(_) => DType::I8,
            Scalar::I16(_) => DType::I16,
            Scalar::I32(_) => DType::I32,
            Scalar::I64(_) => DType::I64,
            Scalar::U8(_) => DType::U8,
            Scalar::U16(_) => DType::U16,
            Scalar::U32(_) => DType::U32,
            Scalar::U64(_) => DType::U64,
            Scalar::F16(_) => DType::F16,
            Scalar::F32(_) => DType::F32,
            Scalar::F64(_) => DType::F64,
            Scalar::C64(..) => DType::C64,
            Scalar::C128(..) => DType::C128,
        }
    }
    /// The value as a complex (real, imaginary) pair; real values have a zero imaginary part.
    pub fn as_c128(&self) -> (f64, f64) {
        match *self {
            Scalar::C64(r, i) => (r as f64, i as f64),
            Scalar::C128(r, i) => (r, i),
            other => (other.as_f64(), 0.0),
        }
    }
    /// The real value (a complex value's real part, as NumPy's casts to real take it).
    pub fn as_f64(&self) -> f64 {
        match *self {
            Scalar::Bool(b) => b as u8 as f64,
            Scalar::I8(v) => v as f64,
            Scalar::I16(v) => v as f64,
            Scalar::I32(v) => v as f64,
            Scalar::I64(v) => v as f64,
            Scalar::U8(v) => v as f64,
            Scalar::U16(v) => v as f64,
            Scalar::U32(v) => v as f64,
            Scalar::U64(v) => v as f64,
            Scalar::F16(v) => v.to_f64(),
            Scalar::F32(v) => v as f64,
            Scalar::F64(v) => v,
            Scalar::C64(v, _) => v as f64,
            Scalar::C128(v, _) => v,
        }
    }
    pub fn as_i64(&self) -> i64 {
        match *self {
            Scalar::Bool(b) => b as i64,
            Scalar::I8(v) => v as i64,
            Scalar::I16(v) => v as i64,
            Scalar::I32(v) => v as i64,
            Scalar::I64(v) => v,
            Scalar::U8(v) => v as i64,
            Scalar::U16(v) => v as i64,
            Scalar::U32(v) => v as i64,
            Scalar::U64(v) => v as i64,
            Scalar::F16(v) => v.to_f32() as i64,
            Scalar::F32(v) => v as i64,
            Scalar::F64(v) | Scalar::C128(v, _) => v as i64,
            Scalar::C64(v, _) => v as i64,
        }
    }
    /// Convert with C-style casting (NumPy's `astype` semantics): the one cast table,
    /// `Elem::cast_from`, that array casts use too.
    pub fn cast(&self, to: DType) -> Scalar {
        use crate::arrays::elem::Elem;
        crate::with_dtype!(to, T => {
            crate::with_dtype!(self.dtype(), S => T::cast_from(S::from_scalar(*self)).to_scalar())
        })
    }
    /// Little-endian bytes of the value (as stored in a buffer).
    pub fn to_bytes(&self) -> Vec<u8> {
        match *self {
            Scalar::Bool(b) => vec![b as u8],
            Scalar::I8(v) => v.to_le_bytes().to_vec(),
            Scalar::I16(v) => v.to_le_bytes().to_vec(),
            Scalar::I32(v) => v.to_le_bytes().to_vec(),
            Scalar::I64(v) => v.to_le_bytes().to_vec(),
            Scalar::U8(v) => v.to_le_bytes().to_vec(),
            Scalar::U16(v) => v.to_le_bytes().to_vec(),
            Scalar::U32(v) => v.to_le_bytes().to_vec(),
            Scalar::U64(v) => v.to_le_bytes().to_vec(),
            Scalar::F16(v) => v.to_le_bytes().to_vec(),
            Scalar::F32(v) => v.to_le_bytes().to_vec(),
            Scalar::F64(v) => v.to_le_bytes().to_vec(),
            Scalar::C64(r, i) => [r.to_le_bytes(), i.to_le_bytes()].concat(),
            Scalar::C128(r, i) => [r.to_le_bytes(), i.to_le_bytes()].concat(),
        }
    }
    /// Read a value of `dtype` from little-endian bytes (at least `itemsize` long).
    pub fn from_bytes(dtype: DType, b: &[u8]) -> Scalar {
        match dtype {
            DType::Bool => Scalar::Bool(b[0] != 0),
            DType::I8 => Scalar::I8(b[0] as i8),
            DType::I16 => Scalar::I16(i16::from_le_bytes([b[0], b[1]])),
            DType::I32 => Scalar::I32(i32::from_le_bytes(le(b))),
            DType::I64 => Scalar::I64(i64::from_le_bytes(le(b))),
            DType::U8 => Scalar::U8(b[0]),
            DType::U16 => Scalar::U16(u16::from_le_bytes([b[0], b[1]])),
            DType::U32 => Scalar::U32(u32::from_le_bytes(le(b))),
            DType::U64 => Scalar::U64(u64::from_le_bytes(le(b))),
            DType::F16 => Scalar::F16(half::f16::from_le_bytes([b[0], b[1]])),
            DType::F32 => Scalar::F32(f32::from_le_bytes(le(b))),
            DType::F64 => Scalar::F64(f64::from_le_bytes(le(b))),
            DType::C64 => Scalar::C64(f32::from_le_bytes(le(b)), f32::from_le_bytes(le(&b[4..]))),
            DType::C128 => Scalar::C128(f64::from_le_bytes(le(b)), f64::from_le_bytes(le(&b[8..]))),
        }
    }
}
