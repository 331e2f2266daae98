//! Host-side NumPy arrays: dtypes, shared buffers, strided views, elementwise operations,
//! reductions and NumPy-identical formatting. The same [`Buffer`] type also backs the
//! embedded CPU device's "device memory" (accounted separately by [`crate::device`]).

pub mod buffer;
pub mod dtype;
pub mod elem;
pub mod error;
pub mod format;
pub mod index;
pub mod interrupt;
pub mod kernels;
pub mod operator;
pub mod promote;
pub mod reduce;
pub mod ufunc;

use std::sync::Arc;

use crate::arrays::buffer::{AllocError, Buffer};
use crate::arrays::dtype::{DType, Scalar};

/// A strided view of a [`Buffer`]: NumPy's ndarray layout. Strides and offset are in bytes;
/// strides may be negative or zero (broadcast).
#[derive(Clone)]
pub struct NdArray {
    pub buf: Arc<Buffer>,
    /// Byte offset of element `[0, 0, ...]` in `buf`.
    pub offset: usize,
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
    pub dtype: DType,
}

impl NdArray {
    /// C-contiguous byte strides for `shape`.
    pub fn c_strides(shape: &[usize], itemsize: usize) -> Vec<isize> {
        let mut strides = vec![0isize; shape.len()];
        let mut acc = itemsize as isize;
        for i in (0..shape.len()).rev() {
            strides[i] = acc;
            acc *= shape[i].max(1) as isize;
        }
        strides
    }

    /// Fortran-contiguous byte strides for `shape`.
    pub fn f_strides(shape: &[usize], itemsize: usize) -> Vec<isize> {
        let mut strides = vec![0isize; shape.len()];
        let mut acc = itemsize as isize;
        for i in 0..shape.len() {
            strides[i] = acc;
            acc *= shape[i].max(1) as isize;
        }
        strides
    }

    /// A new zero-filled C-contiguous host array. Fails (MemoryError upstream) instead of
    /// aborting when memory is short.
    pub fn zeros(shape: &[usize], dtype: DType) -> Result<NdArray, AllocError> {
        let size: usize = shape.iter().product();
        let bytes = size
            .checked_mul(dtype.itemsize())
            .ok_or(AllocError { bytes: usize::MAX })?;
        Ok(NdArray {
            buf: Arc::new(Buffer::zeroed(bytes)?),
            offset: 0,
            shape: shape.to_vec(),
            strides: Self::c_strides(shape, dtype.itemsize()),
            dtype,
        })
    }

    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
    pub fn nbytes(&self) -> usize {
        self.size() * self.dtype.itemsize()
    }

    /// C-contiguous, with NumPy's relaxed rule (size-1 axes ignored).
    pub fn is_c_contiguous(&self) -> bool {
        contiguous(&self.shape, &self.strides, self.dtype.itemsize(), true)
    }
    /// F-contiguous, with NumPy's relaxed rule.
    pub fn is_f_contiguous(&self) -> bool {
        contiguous(&self.shape, &self.strides, self.dtype.itemsize(), false)
    }
}

/// NumPy's relaxed contiguity check.
pub fn contiguous(shape: &[usize], strides: &[isize], itemsize: usize, c_order: bool) -> bool {
    if shape.contains(&0) {
        return true;
    }
    let mut expected = itemsize as isize;
    let axes: Vec<usize> = if c_order {
        (0..shape.len()).rev().collect()
    } else {
        (0..shape.len()).collect()
    };
    for i in axes {
        if shape[i] == 1 {
            continue;
        }
        if strides[i] != expected {
            return false;
        }
        expected *= shape[i] as isize;
    }
    true
}

impl NdArray {
    /// All elements in C order, converted to f64 (for plotting and tests).
    pub fn to_f64_vec(&self) -> Vec<f64> {
        let n = self.size();
        let mut out = Vec::with_capacity(n);
        let isz = self.dtype.itemsize();
        let mut idx = vec![0usize; self.ndim()];
        let mut tmp = [0u8; 8];
        for _ in 0..n {
            let mut off = self.offset as isize;
            for (i, &ix) in idx.iter().enumerate() {
                off += ix as isize * self.strides[i];
            }
            self.buf.read(off as usize, &mut tmp[..isz]);
            out.push(Scalar::from_bytes(self.dtype, &tmp[..isz]).as_f64());
            for ax in (0..idx.len()).rev() {
                idx[ax] += 1;
                if idx[ax] < self.shape[ax] {
                    break;
                }
                idx[ax] = 0;
            }
        }
        out
    }
}
