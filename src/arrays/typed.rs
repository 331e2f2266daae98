//! Typed access to array memory: element types as a trait, contiguous slices borrowed
//! straight from a buffer, and strided gathers into typed vectors. Every elementwise
//! operation and reduction runs on these, so the inner loops are plain typed loops.

use std::borrow::Cow;

use crate::arrays::{Buffer, DType, NdArray, Scalar};

/// A NumPy element type (bool is stored as one byte, 0 or 1, and handled as `u8`).
pub trait Elem: Copy + Send + Sync + PartialOrd + Default + 'static {
    const DTYPE: DType;
    fn from_f64(v: f64) -> Self;
    fn from_i64(v: i64) -> Self;
    fn to_f64(self) -> f64;
    fn to_i64(self) -> i64;
    fn to_scalar(self) -> Scalar;
}

macro_rules! elem_int {
    ($t:ty, $d:ident) => {
        impl Elem for $t {
            const DTYPE: DType = DType::$d;
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                v as i64 as $t
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self as i64
            }
            fn to_scalar(self) -> Scalar {
                Scalar::$d(self)
            }
        }
    };
}
elem_int!(i8, I8);
elem_int!(i16, I16);
elem_int!(i32, I32);
elem_int!(i64, I64);
elem_int!(u8, U8);
elem_int!(u16, U16);
elem_int!(u32, U32);
elem_int!(u64, U64);

macro_rules! elem_float {
    ($t:ty, $d:ident) => {
        impl Elem for $t {
            const DTYPE: DType = DType::$d;
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self as i64
            }
            fn to_scalar(self) -> Scalar {
                Scalar::$d(self)
            }
        }
    };
}
elem_float!(f32, F32);
elem_float!(f64, F64);

/// Convert one element between types with C casting rules (NumPy's `astype`).
#[inline(always)]
pub fn conv<S: Elem, T: Elem>(s: S) -> T {
    if S::DTYPE.is_float() {
        if T::DTYPE.is_float() {
            T::from_f64(s.to_f64())
        } else if T::DTYPE == DType::U8 && S::DTYPE == DType::Bool {
            T::from_i64(s.to_i64())
        } else {
            T::from_f64(s.to_f64())
        }
    } else if S::DTYPE == DType::U64 && T::DTYPE.is_float() {
        T::from_f64(s.to_i64() as u64 as f64)
    } else {
        T::from_i64(s.to_i64())
    }
}

/// Run `$body` with `$t` bound to the Rust type of a dtype (bool as `u8`).
#[macro_export]
macro_rules! with_dtype {
    ($d:expr, $t:ident => $body:expr) => {
        match $d {
            $crate::arrays::DType::Bool | $crate::arrays::DType::U8 => {
                type $t = u8;
                $body
            }
            $crate::arrays::DType::I8 => {
                type $t = i8;
                $body
            }
            $crate::arrays::DType::I16 => {
                type $t = i16;
                $body
            }
            $crate::arrays::DType::I32 => {
                type $t = i32;
                $body
            }
            $crate::arrays::DType::I64 => {
                type $t = i64;
                $body
            }
            $crate::arrays::DType::U16 => {
                type $t = u16;
                $body
            }
            $crate::arrays::DType::U32 => {
                type $t = u32;
                $body
            }
            $crate::arrays::DType::U64 => {
                type $t = u64;
                $body
            }
            $crate::arrays::DType::F32 => {
                type $t = f32;
                $body
            }
            $crate::arrays::DType::F64 => {
                type $t = f64;
                $body
            }
        }
    };
}

/// The elements of a C-contiguous array of element type `T`, borrowed from its buffer.
pub fn contiguous_slice<T: Elem>(a: &NdArray) -> Option<&[T]> {
    let storage_matches = a.dtype.itemsize() == std::mem::size_of::<T>()
        && (a.dtype == T::DTYPE || (a.dtype == DType::Bool && T::DTYPE == DType::U8));
    if !storage_matches || !a.is_c_contiguous() {
        return None;
    }
    let n = a.size();
    if n == 0 {
        return Some(&[]);
    }
    let bytes = n * std::mem::size_of::<T>();
    assert!(
        a.offset + bytes <= a.buf.len(),
        "array view inside its buffer"
    );
    let ptr = a.buf.as_ptr().wrapping_add(a.offset);
    if !(ptr as usize).is_multiple_of(std::mem::align_of::<T>()) {
        return None;
    }
    // SAFETY: the range [offset, offset + n * size_of::<T>()) lies inside the buffer
    // (asserted), the pointer is aligned for T (checked), every bit pattern is a valid T
    // for these integer and float types (bool is read as u8), and the slice's lifetime is
    // tied to `a`, which keeps the buffer alive. Concurrent device writes are ordered by
    // the device's stream discipline, as for any device memory.
    Some(unsafe { std::slice::from_raw_parts(ptr as *const T, n) })
}

/// A freshly allocated array's elements, mutably.
///
/// # Safety
/// `a` must be the only view of its buffer while the slice is alive (true for an array
/// just created by [`NdArray::zeros`] and not yet shared).
// A mutable slice out of a shared handle is the point: the caller guarantees exclusivity.
#[allow(clippy::mut_from_ref)]
pub unsafe fn fresh_slice_mut<T: Elem>(a: &NdArray) -> &mut [T] {
    let n = a.size();
    if n == 0 {
        return &mut [];
    }
    assert!(a.offset == 0 && n * std::mem::size_of::<T>() <= a.buf.len());
    // SAFETY: in bounds (asserted), aligned (buffers are 64-byte aligned and offset is 0),
    // and exclusive by the caller's contract.
    unsafe { std::slice::from_raw_parts_mut(a.buf.as_ptr() as *mut T, n) }
}

/// Byte offsets of every element of a view broadcast to `shape`, in C order.
pub fn offsets(a: &NdArray, shape: &[usize]) -> Vec<isize> {
    let nd = shape.len();
    let pad = nd - a.ndim();
    let strides: Vec<isize> = (0..nd)
        .map(|i| {
            if i < pad || a.shape[i - pad] == 1 {
                0
            } else {
                a.strides[i - pad]
            }
        })
        .collect();
    let n: usize = shape.iter().product();
    let mut out = Vec::with_capacity(n);
    if n == 0 {
        return out;
    }
    let mut idx = vec![0usize; nd];
    let mut off = a.offset as isize;
    for _ in 0..n {
        out.push(off);
        for ax in (0..nd).rev() {
            idx[ax] += 1;
            off += strides[ax];
            if idx[ax] < shape[ax] {
                break;
            }
            off -= strides[ax] * shape[ax] as isize;
            idx[ax] = 0;
        }
    }
    out
}

#[inline(always)]
fn read_at<S: Elem>(buf: &Buffer, off: isize) -> S {
    let size = std::mem::size_of::<S>();
    assert!(
        off >= 0 && off as usize + size <= buf.len(),
        "element inside its buffer"
    );
    // SAFETY: bounds asserted above; unaligned reads are allowed by read_unaligned, and
    // every bit pattern is a valid S (bool stored as u8).
    unsafe { std::ptr::read_unaligned(buf.as_ptr().add(off as usize) as *const S) }
}

/// The array broadcast to `shape`, converted to `T`, in C order. Borrows when the array
/// already is exactly that.
pub fn load<'a, T: Elem>(a: &'a NdArray, shape: &[usize]) -> Cow<'a, [T]> {
    if a.shape == shape {
        if let Some(s) = contiguous_slice::<T>(a) {
            return Cow::Borrowed(s);
        }
    }
    let offs = offsets(a, shape);
    let buf = &a.buf;
    let v: Vec<T> = with_dtype!(a.dtype, S => offs.iter().map(|&o| conv::<S, T>(read_at::<S>(buf, o))).collect());
    Cow::Owned(v)
}

/// One element as a Scalar (bool arrays give `Scalar::Bool`).
pub fn scalar_at(a: &NdArray, off: isize) -> Scalar {
    let s = with_dtype!(a.dtype, S => read_at::<S>(&a.buf, off).to_scalar());
    match (a.dtype, s) {
        (DType::Bool, Scalar::U8(v)) => Scalar::Bool(v != 0),
        (_, s) => s,
    }
}

/// Write `values` (C order) into the view `dst`, converting to its dtype.
pub fn store<T: Elem>(dst: &NdArray, values: &[T]) {
    let offs = offsets(dst, &dst.shape);
    assert_eq!(offs.len(), values.len());
    let bool_dst = dst.dtype == DType::Bool;
    with_dtype!(dst.dtype, D => {
        let size = std::mem::size_of::<D>();
        for (&o, &v) in offs.iter().zip(values) {
            let out: D = if bool_dst {
                D::from_i64((v.to_f64() != 0.0) as i64)
            } else {
                conv::<T, D>(v)
            };
            assert!(o >= 0 && o as usize + size <= dst.buf.len());
            // SAFETY: bounds asserted; unaligned write of a plain value.
            unsafe { std::ptr::write_unaligned(dst.buf.as_ptr().add(o as usize) as *mut D, out) }
        }
    })
}

/// A new C-contiguous array of dtype `dtype` holding `values` (converted).
pub fn from_vec<T: Elem>(
    shape: &[usize],
    dtype: DType,
    values: &[T],
) -> Result<NdArray, crate::arrays::AllocError> {
    let a = NdArray::zeros(shape, dtype)?;
    if dtype == T::DTYPE {
        // SAFETY: `a` was just created and is not shared.
        unsafe { fresh_slice_mut::<T>(&a) }.copy_from_slice(values);
    } else {
        store(&a, values);
    }
    Ok(a)
}
