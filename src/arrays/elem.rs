//! Typed element access: the `Elem` trait over the fourteen dtypes, dtype dispatch, strided
//! iteration, casting, and the layout helpers (broadcasting, contiguous copies) every other
//! array module builds on.

use std::sync::Arc;

use crate::arrays::buffer::Pod;
use crate::arrays::buffer::{AllocError, Buffer};
use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::error::{ArrayError, ArrayResult};
use crate::arrays::NdArray;

/// NumPy's bool as stored: one byte, 0 or 1.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Debug)]
#[repr(transparent)]
pub struct B8(pub u8);
// SAFETY: a transparent u8: every bit pattern is valid.
unsafe impl Pod for B8 {}

/// One element type. Conversions follow C casts (NumPy's `astype(casting='unsafe')`).
pub trait Elem: Pod + PartialOrd + Default + std::fmt::Debug {
    const DT: DType;
    const FLOAT: bool;
    const COMPLEX: bool = false;
    fn to_f64(self) -> f64;
    /// The value as (real, imaginary).
    fn to_c128(self) -> (f64, f64) {
        (self.to_f64(), 0.0)
    }
    /// From (real, imaginary): real types keep the real part, as NumPy's casts do.
    fn from_c128(re: f64, _im: f64) -> Self {
        Self::from_f64(re)
    }
    fn to_i128(self) -> i128;
    fn from_f64(v: f64) -> Self;
    fn from_i128(v: i128) -> Self;
    fn to_scalar(self) -> Scalar;
    fn from_scalar(s: Scalar) -> Self {
        match s {
            Scalar::F32(v) => Self::from_f32(v),
            Scalar::F16(v) => Self::from_f32(v.to_f32()),
            Scalar::F64(v) => Self::from_f64(v),
            Scalar::U64(v) => Self::from_i128(v as i128),
            Scalar::C64(..) | Scalar::C128(..) => {
                let (r, i) = s.as_c128();
                Self::from_c128(r, i)
            }
            other => Self::from_i128(other.as_i64() as i128),
        }
    }
    /// f32 → Self without the f64 detour changing results.
    fn from_f32(v: f32) -> Self {
        Self::from_f64(v as f64)
    }
    /// Cast from another element type.
    #[inline(always)]
    fn cast_from<S: Elem>(s: S) -> Self {
        if Self::COMPLEX || S::COMPLEX {
            if !S::COMPLEX && !S::FLOAT {
                // An integer goes to the parts' type directly, without an f64 detour.
                let (r, i) = Self::from_i128(s.to_i128()).to_c128();
                return Self::from_c128(r, i);
            }
            let (r, i) = s.to_c128();
            return Self::from_c128(r, i);
        }
        if Self::DT == DType::F32 && S::DT == DType::F64 {
            return Self::from_f32(s.to_f64() as f32);
        }
        if Self::DT == DType::F32 && !S::FLOAT {
            // An integer goes to float32 in one rounding: through f64 first, a 64-bit value
            // could round twice (NumPy's int64 -> float32 cast rounds once).
            return Self::from_f32(if S::DT == DType::U64 {
                s.to_i128() as u64 as f32
            } else {
                s.to_i128() as i64 as f32
            });
        }
        if S::FLOAT || Self::FLOAT {
            Self::from_f64(s.to_f64())
        } else {
            Self::from_i128(s.to_i128())
        }
    }
}

// Float to integer casts of NaN, infinities and out-of-range values are undefined in C;
// NumPy gives whatever x86-64's truncating conversions give (the CI machine's and most
// users'), so these reproduce them: an out-of-range `cvttsd2si` yields the "integer
// indefinite" value (the type's minimum), and unsigned targets subtract 2**(bits-1) from
// large values first and flip the top bit back, as compilers and NumPy's SIMD loops do.
// (NumPy's own results differ by loop for uint32 out of range; this is its contiguous
// loop's.) Kernels are not cast here: they follow the IR's casts.
#[inline(always)]
fn x86_i32(v: f64) -> i32 {
    if v > -2147483649.0 && v < 2147483648.0 {
        v as i32
    } else {
        i32::MIN
    }
}

#[inline(always)]
fn x86_i64(v: f64) -> i64 {
    if (-9223372036854775808.0..9223372036854775808.0).contains(&v) {
        v as i64
    } else {
        i64::MIN
    }
}

#[inline(always)]
fn x86_u32(v: f64) -> u32 {
    if v >= 2147483648.0 {
        x86_i32(v - 2147483648.0) as u32 ^ 0x8000_0000
    } else {
        x86_i32(v) as u32
    }
}

#[inline(always)]
fn x86_u64(v: f64) -> u64 {
    if v >= 9223372036854775808.0 {
        x86_i64(v - 9223372036854775808.0) as u64 ^ (1 << 63)
    } else {
        x86_i64(v) as u64
    }
}

macro_rules! int_elem {
    ($t:ty, $dt:ident, $via:ident) => {
        impl Elem for $t {
            const DT: DType = DType::$dt;
            const FLOAT: bool = false;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn to_i128(self) -> i128 {
                self as i128
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                $via(v) as $t
            }
            #[inline(always)]
            fn from_i128(v: i128) -> Self {
                v as $t
            }
            fn to_scalar(self) -> Scalar {
                Scalar::$dt(self)
            }
        }
    };
}
// Narrow targets go through a 32-bit conversion and keep its low bits, as C compilers
// emit them on x86-64.
int_elem!(i8, I8, x86_i32);
int_elem!(i16, I16, x86_i32);
int_elem!(i32, I32, x86_i32);
int_elem!(i64, I64, x86_i64);
int_elem!(u8, U8, x86_i32);
int_elem!(u16, U16, x86_i32);
int_elem!(u32, U32, x86_u32);

impl Elem for u64 {
    const DT: DType = DType::U64;
    const FLOAT: bool = false;
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn to_i128(self) -> i128 {
        self as i128
    }
    fn from_f64(v: f64) -> Self {
        x86_u64(v)
    }
    fn from_i128(v: i128) -> Self {
        v as u64
    }
    fn to_scalar(self) -> Scalar {
        Scalar::U64(self)
    }
}

impl Elem for f32 {
    const DT: DType = DType::F32;
    const FLOAT: bool = true;
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn to_i128(self) -> i128 {
        self as i128
    }
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn from_f32(v: f32) -> Self {
        v
    }
    fn from_i128(v: i128) -> Self {
        v as f32
    }
    fn to_scalar(self) -> Scalar {
        Scalar::F32(self)
    }
}

impl Elem for f64 {
    const DT: DType = DType::F64;
    const FLOAT: bool = true;
    fn to_f64(self) -> f64 {
        self
    }
    fn to_i128(self) -> i128 {
        self as i128
    }
    fn from_f64(v: f64) -> Self {
        v
    }
    fn from_i128(v: i128) -> Self {
        v as f64
    }
    fn to_scalar(self) -> Scalar {
        Scalar::F64(self)
    }
}

impl Elem for B8 {
    const DT: DType = DType::Bool;
    const FLOAT: bool = false;
    fn to_f64(self) -> f64 {
        self.0 as f64
    }
    fn to_i128(self) -> i128 {
        self.0 as i128
    }
    fn from_f64(v: f64) -> Self {
        B8((v != 0.0) as u8)
    }
    fn from_i128(v: i128) -> Self {
        B8((v != 0) as u8)
    }
    fn to_scalar(self) -> Scalar {
        Scalar::Bool(self.0 != 0)
    }
}

/// Run `$body` with `$T` bound to the Rust element type of `$dt`.
#[macro_export]
macro_rules! with_dtype {
    ($dt:expr, $T:ident => $body:expr) => {{
        use $crate::arrays::elem::B8;
        match $dt {
            $crate::arrays::dtype::DType::Bool => {
                type $T = B8;
                $body
            }
            $crate::arrays::dtype::DType::I8 => {
                type $T = i8;
                $body
            }
            $crate::arrays::dtype::DType::I16 => {
                type $T = i16;
                $body
            }
            $crate::arrays::dtype::DType::I32 => {
                type $T = i32;
                $body
            }
            $crate::arrays::dtype::DType::I64 => {
                type $T = i64;
                $body
            }
            $crate::arrays::dtype::DType::U8 => {
                type $T = u8;
                $body
            }
            $crate::arrays::dtype::DType::U16 => {
                type $T = u16;
                $body
            }
            $crate::arrays::dtype::DType::U32 => {
                type $T = u32;
                $body
            }
            $crate::arrays::dtype::DType::U64 => {
                type $T = u64;
                $body
            }
            $crate::arrays::dtype::DType::F16 => {
                type $T = ::half::f16;
                $body
            }
            $crate::arrays::dtype::DType::F32 => {
                type $T = f32;
                $body
            }
            $crate::arrays::dtype::DType::F64 => {
                type $T = f64;
                $body
            }
            $crate::arrays::dtype::DType::C64 => {
                type $T = $crate::arrays::complex::Complex<f32>;
                $body
            }
            $crate::arrays::dtype::DType::C128 => {
                type $T = $crate::arrays::complex::Complex<f64>;
                $body
            }
        }
    }};
}
pub use with_dtype;

/// NumPy's MemoryError text for a failed allocation.
pub fn alloc_error(shape: &[usize], dtype: DType) -> ArrayError {
    let bytes = shape
        .iter()
        .fold(dtype.itemsize() as f64, |a, &d| a * d as f64);
    ArrayError::memory_error(format!(
        "Unable to allocate {} for an array with shape {} and data type {}",
        human_bytes(bytes),
        shape_str(shape),
        dtype.name()
    ))
}

/// NumPy's `_size_to_string`: binary units, `{:#.3g}` (three significant digits).
fn human_bytes(b: f64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let bits = if b >= 1.0 {
        b.log2().floor() as usize
    } else {
        0
    };
    let mut u = bits.max(1) / 10;
    let mut v = b / 1024f64.powi(u as i32);
    if v.round() == 1024.0 {
        u += 1;
        v /= 1024.0;
    }
    if u >= units.len() {
        return format!("{b:.3e} bytes");
    }
    if u == 0 {
        return format!("{v:.0} {}", units[0]);
    }
    let digits = if v >= 1.0 {
        v.log10().floor() as i32 + 1
    } else {
        1
    };
    let dec = (3 - digits).max(0) as usize;
    let mut s = format!("{v:.dec$}");
    if dec == 0 {
        s.push('.');
    }
    format!("{s} {}", units[u])
}

/// `(3,)`, `(2, 3)`, `()` — Python's tuple repr of a shape.
pub fn shape_str<T: std::fmt::Display>(shape: &[T]) -> String {
    match shape.len() {
        0 => "()".into(),
        1 => format!("({},)", shape[0]),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// NumPy's MemoryError unless an array of `shape` fits in physical memory (for results
/// computed into a vector before they become an array).
pub fn check_shape(shape: &[usize], dtype: DType) -> ArrayResult<()> {
    match shape
        .iter()
        .try_fold(dtype.itemsize(), |acc, &d| acc.checked_mul(d))
    {
        Some(b) if b <= crate::arrays::alloc::physical_memory() => Ok(()),
        _ => Err(alloc_error(shape, dtype)),
    }
}

/// NumPy's ValueError for a shape whose strides would overflow: the product of its
/// non-zero dimensions and the itemsize must fit in isize even when another dimension
/// is 0 (`np.ones((0, 2**62))`).
pub fn check_strides_fit(shape: &[usize], dtype: DType) -> ArrayResult<()> {
    match shape
        .iter()
        .try_fold(dtype.itemsize(), |acc, &d| acc.checked_mul(d.max(1)))
    {
        Some(b) if b <= isize::MAX as usize => Ok(()),
        _ => Err(ArrayError::value_error(
            "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.",
        )),
    }
}

/// A new zeroed C-contiguous array, MemoryError on failure.
pub fn new_array(shape: &[usize], dtype: DType) -> ArrayResult<NdArray> {
    check_strides_fit(shape, dtype)?;
    // Shapes whose element count overflows cannot be allocated either.
    if shape
        .iter()
        .try_fold(dtype.itemsize(), |acc, &d| acc.checked_mul(d))
        .is_none_or(|b| b > isize::MAX as usize)
    {
        return Err(alloc_error(shape, dtype));
    }
    NdArray::zeros(shape, dtype).map_err(|_: AllocError| alloc_error(shape, dtype))
}

/// A new C-contiguous array whose every element the caller writes before anything reads
/// it (ufunc results): it may reuse a recently freed buffer instead of fresh zeroed pages.
pub fn new_array_for_overwrite(shape: &[usize], dtype: DType) -> ArrayResult<NdArray> {
    check_strides_fit(shape, dtype)?;
    let bytes = shape
        .iter()
        .try_fold(dtype.itemsize(), |acc, &d| acc.checked_mul(d))
        .filter(|&b| b <= isize::MAX as usize)
        .ok_or_else(|| alloc_error(shape, dtype))?;
    let buf = Buffer::for_overwrite(bytes).map_err(|_| alloc_error(shape, dtype))?;
    Ok(NdArray {
        buf: std::sync::Arc::new(buf),
        offset: 0,
        shape: shape.to_vec(),
        strides: NdArray::c_strides(shape, dtype.itemsize()),
        dtype,
        view: false,
    })
}

/// An array holding `data` (C order) with `shape`.
pub fn from_vec<T: Elem>(shape: &[usize], data: &[T]) -> ArrayResult<NdArray> {
    let a = new_array(shape, T::DT)?;
    a.buf.typed_mut::<T>(0, data.len()).copy_from_slice(data);
    Ok(a)
}

/// A 0-d array holding one scalar.
pub fn scalar_array(s: Scalar) -> NdArray {
    let dt = s.dtype();
    // invariant: at most 16 bytes; a host that cannot give those cannot run at all
    let buf = Buffer::zeroed(dt.itemsize()).expect("a few bytes");
    buf.write(0, &s.to_bytes());
    NdArray {
        buf: Arc::new(buf),
        offset: 0,
        shape: vec![],
        strides: vec![],
        dtype: dt,
        view: false,
    }
}

/// Call `f` with the byte offset of every element, in C order.
pub fn for_each_offset(a: &NdArray, mut f: impl FnMut(usize)) {
    let n = a.size();
    if n == 0 {
        return;
    }
    let nd = a.ndim();
    if nd == 0 {
        f(a.offset);
        return;
    }
    let mut idx = vec![0usize; nd]; // bounded: one entry per dimension
    let inner = a.shape[nd - 1];
    let istride = a.strides[nd - 1];
    let mut base = a.offset as isize;
    loop {
        let mut off = base;
        for _ in 0..inner {
            f(off as usize);
            off += istride;
        }
        // advance the outer index
        let mut ax = nd - 1;
        loop {
            if ax == 0 {
                return;
            }
            ax -= 1;
            idx[ax] += 1;
            base += a.strides[ax];
            if idx[ax] < a.shape[ax] {
                break;
            }
            base -= a.strides[ax] * a.shape[ax] as isize;
            idx[ax] = 0;
        }
    }
}

/// Call `f(offset, n, stride)` for every row (the innermost axis) of `a`, in C order.
pub fn for_each_row(a: &NdArray, mut f: impl FnMut(usize, usize, isize)) {
    if a.size() == 0 {
        return;
    }
    let nd = a.ndim();
    if nd == 0 {
        return f(a.offset, 1, 0);
    }
    let outer = NdArray {
        shape: a.shape[..nd - 1].to_vec(),
        strides: a.strides[..nd - 1].to_vec(),
        ..a.clone()
    };
    let (n, stride) = (a.shape[nd - 1], a.strides[nd - 1]);
    for_each_offset(&outer, |off| f(off, n, stride));
}

/// The contiguous data of `a` when it is C-contiguous with dtype `T`.
pub fn as_slice<T: Elem>(a: &NdArray) -> Option<&[T]> {
    if a.dtype == T::DT && a.is_c_contiguous() {
        let n = a.size();
        // Relaxed contiguity may give size-1 axes odd strides; the first element is still at
        // `offset` and the rest follow.
        Some(a.buf.typed::<T>(a.offset, n))
    } else {
        None
    }
}

/// All elements of `a` in C order, converted to `T`.
pub fn read_vec<T: Elem>(a: &NdArray) -> Vec<T> {
    if let Some(s) = as_slice::<T>(a) {
        return s.to_vec();
    }
    if a.dtype == T::DT {
        // bounded: one per element of an existing array
        let mut out = Vec::with_capacity(a.size());
        let b = &a.buf;
        for_each_row(a, |off, n, st| b.read_row::<T>(off, st, n, &mut out));
        return out;
    }
    with_dtype!(a.dtype, S => {
        if let Some(s) = as_slice::<S>(a) {
            s.iter().map(|&x| T::cast_from(x)).collect()
        } else {
            // bounded: one per element of an existing array
            let mut out = Vec::with_capacity(a.size());
            // bounded: one row of an existing array
            let mut row: Vec<S> = Vec::with_capacity(a.shape.last().copied().unwrap_or(1));
            let b = &a.buf;
            for_each_row(a, |off, n, st| {
                row.clear();
                b.read_row::<S>(off, st, n, &mut row);
                out.extend(row.iter().map(|&x| T::cast_from(x)));
            });
            out
        }
    })
}

/// Write `data` (C order of `dst.shape`, already of dst's element type) into `dst`.
pub fn write_slice<T: Elem>(dst: &NdArray, data: &[T]) {
    debug_assert_eq!(dst.dtype, T::DT);
    if dst.is_c_contiguous() {
        dst.buf
            .typed_mut::<T>(dst.offset, data.len())
            .copy_from_slice(data);
        return;
    }
    let mut i = 0;
    let b = &dst.buf;
    for_each_row(dst, |off, n, st| {
        b.write_row::<T>(off, st, &data[i..i + n]);
        i += n;
    });
}

/// Element `[0,...]` of `a` (arrays of size >= 1) or the element at a byte offset.
pub fn read_scalar_at(a: &NdArray, off: usize) -> Scalar {
    let mut tmp = [0u8; 16];
    let isz = a.dtype.itemsize();
    a.buf.read(off, &mut tmp[..isz]);
    Scalar::from_bytes(a.dtype, &tmp[..isz])
}

/// The only element of a size-1 array.
pub fn first_scalar(a: &NdArray) -> Scalar {
    read_scalar_at(a, a.offset)
}

/// NumPy's broadcasting of shapes; error text as NumPy words it.
pub fn broadcast_shapes(shapes: &[&[usize]]) -> ArrayResult<Vec<usize>> {
    let nd = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; nd]; // bounded: one per dimension of the shapes
    for s in shapes {
        for (i, &d) in s.iter().enumerate() {
            let o = &mut out[nd - s.len() + i];
            if *o == 1 {
                *o = d;
            } else if d != 1 && d != *o {
                let list: Vec<String> = shapes.iter().map(|s| shape_str(s)).collect();
                return Err(ArrayError::value_error(format!(
                    "operands could not be broadcast together with shapes {} ",
                    list.join(" ")
                )));
            }
        }
    }
    Ok(out)
}

/// A read-only broadcast view of `a` with `shape` (zero strides on stretched axes).
pub fn broadcast_to(a: &NdArray, shape: &[usize]) -> ArrayResult<NdArray> {
    if a.ndim() > shape.len() {
        return Err(ArrayError::value_error(format!(
            "input operand has more dimensions than allowed by the axis remapping: cannot broadcast shape {} to {}",
            shape_str(&a.shape),
            shape_str(shape)
        )));
    }
    let lead = shape.len() - a.ndim();
    let mut strides = vec![0isize; shape.len()];
    for i in 0..a.ndim() {
        let (d, t) = (a.shape[i], shape[lead + i]);
        if d == t {
            strides[lead + i] = a.strides[i];
        } else if d == 1 {
            strides[lead + i] = 0;
        } else {
            return Err(ArrayError::value_error(format!(
                "operands could not be broadcast together with remapped shapes [original->remapped]: {}  and requested shape {}",
                shape_str(&a.shape),
                shape_str(shape)
            )));
        }
    }
    Ok(NdArray {
        buf: a.buf.clone(),
        offset: a.offset,
        shape: shape.to_vec(),
        strides,
        dtype: a.dtype,
        view: true,
    })
}

/// A C-contiguous copy of `a` converted to `to`.
pub fn cast(a: &NdArray, to: DType) -> ArrayResult<NdArray> {
    let out = new_array(&a.shape, to)?;
    let n = a.size();
    if n >= crate::arrays::kernels::PAR_MIN && a.is_c_contiguous() {
        // Long contiguous casts go in chunks so an interrupt stops them midway.
        let stop = crate::arrays::interrupt::flag();
        with_dtype!(to, T => {
            let dst = out.buf.typed_mut::<T>(0, n);
            with_dtype!(a.dtype, S => {
                let src = a.buf.typed::<S>(a.offset, n);
                for (d, s) in dst.chunks_mut(1 << 16).zip(src.chunks(1 << 16)) {
                    if crate::arrays::interrupt::pending(&stop) {
                        break;
                    }
                    for (d, &s) in d.iter_mut().zip(s) {
                        *d = T::cast_from(s);
                    }
                }
            });
        });
        crate::arrays::interrupt::check()?;
        return Ok(out);
    }
    with_dtype!(to, T => {
        let v = read_vec::<T>(a);
        write_slice::<T>(&out, &v);
    });
    Ok(out)
}

/// A C-contiguous copy of `a` with the same dtype.
pub fn contiguous_copy(a: &NdArray) -> ArrayResult<NdArray> {
    cast(a, a.dtype)
}

/// `dst[...] = src`: broadcasts `src` to dst's shape, casts to dst's dtype, handles overlap
/// (the source is read out completely before anything is written).
pub fn copy_into(dst: &NdArray, src: &NdArray) -> ArrayResult<()> {
    if src.shape == dst.shape
        && src.dtype == dst.dtype
        && src.is_c_contiguous()
        && dst.is_c_contiguous()
    {
        // Same layout: one memmove (handles overlap).
        dst.buf
            .copy_from(dst.offset, &src.buf, src.offset, dst.nbytes());
        return Ok(());
    }
    if src.size() == 1 && dst.size() > 1 {
        // One value everywhere (`h[:] = 1`): a fill, not a broadcast copy element by element.
        // The value is read out before anything is written, so overlap cannot matter.
        broadcast_to(src, &dst.shape).map_err(|_| {
            ArrayError::value_error(format!(
                "could not broadcast input array from shape {} into shape {}",
                shape_str(&src.shape),
                shape_str(&dst.shape)
            ))
        })?;
        fill(dst, first_scalar(src));
        return Ok(());
    }
    let src = broadcast_to(src, &dst.shape).map_err(|_| {
        ArrayError::value_error(format!(
            "could not broadcast input array from shape {} into shape {}",
            shape_str(&src.shape),
            shape_str(&dst.shape)
        ))
    })?;
    if src.is_c_contiguous() && dst.is_c_contiguous() && !Arc::ptr_eq(&src.buf, &dst.buf) {
        // Distinct memory, both contiguous: convert straight into the destination.
        with_dtype!(dst.dtype, T => {
            with_dtype!(src.dtype, S => {
                let s = src.buf.typed::<S>(src.offset, src.size());
                let d = dst.buf.typed_mut::<T>(dst.offset, dst.size());
                for (d, &x) in d.iter_mut().zip(s) {
                    *d = T::cast_from(x);
                }
            })
        });
        return Ok(());
    }
    with_dtype!(dst.dtype, T => {
        let v = read_vec::<T>(&src);
        write_slice::<T>(dst, &v);
    });
    Ok(())
}

/// Fill every element of `dst` with `s` (cast to dst's dtype).
pub fn fill(dst: &NdArray, s: Scalar) {
    with_dtype!(dst.dtype, T => {
        let v = T::from_scalar(s);
        if dst.is_c_contiguous() {
            dst.buf.typed_mut::<T>(dst.offset, dst.size()).fill(v);
        } else {
            let b = &dst.buf;
            for_each_offset(dst, |off| b.typed_mut::<T>(off, 1)[0] = v);
        }
    })
}
