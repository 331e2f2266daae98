//! Host-side NumPy arrays: dtypes, shared buffers, strided views and indexing, element-wise
//! and reduction loops, NumPy 2 promotion, formatting, the operator vocabulary and the
//! array error type. The bottom layer: it uses nothing else in the crate.
//!
//! | file | holds |
//! |---|---|
//! | `alloc.rs` | The one checked path for memory whose size a cell chooses: a MemoryError instead of the abort of a failed Rust allocation. |
//! | `buffer.rs` | Raw, shared, fallibly-allocated memory: the storage of host arrays and of the embedded CPU device's memory. |
//! | `complex.rs` | Complex elements (`complex64`, `complex128`): the stored pair, its arithmetic as NumPy's loops do it, and the complex ufuncs. |
//! | `dtype.rs` | NumPy dtypes and scalars. |
//! | `elem.rs` | Typed element access: the `Elem` trait over the fourteen dtypes, dtype dispatch, strided iteration, casting, and the layout helpers (broadcasting, contiguous copies) every other array module builds on. |
//! | `error.rs` | The errors of array operations. |
//! | `float16.rs` | Half-precision elements (`float16`), host-only: each operation widens to float32 and rounds back once, as NumPy's half loops do. |
//! | `format.rs` | NumPy 2's printing of arrays and scalars (numpy/_core/arrayprint.py and Dragon4), with the default print options: precision 8, threshold 1000, edgeitems 3, linewidth 75. |
//! | `index.rs` | NumPy indexing: basic indexing (ints, slices with any step, `None`, `...`) gives views; advanced indexing (integer arrays, boolean masks) gathers or scatters through a list of element offsets. |
//! | `interrupt.rs` | Interrupts inside long array operations. |
//! | `kernels.rs` | Per-type arithmetic (`Arith`, `Flt`) and the slice kernels that apply an operation over contiguous data: monomorphised per dtype and operation, split across cores for large arrays. |
//! | `linalg.rs` | Matrix products (`dot`, `matmul` over broadcast stacks), in NumPy's result dtype: one engine for NumPy's arrays and CuPy's device memory. |
//! | `memory_guard.rs` | The session's guard against filling the machine's memory a little at a time: a watcher thread turns the interrupt checks into MemoryError when memory runs low. |
//! | `operator.rs` | The operator vocabulary shared by every layer: Python's binary and unary operators, the computations they and the kernels' IR name (arithmetic, bitwise, comparisons, unary and math functions), and NumPy's unary ufuncs over those computations. |
//! | `promote.rs` | NumPy 2 type promotion (NEP 50): the dtype table for two arrays or NumPy scalars, and "weak" Python scalars that adopt the array's dtype when they fit its kind. |
//! | `reduce.rs` | Reductions (sum, mean, min, max, std, var, prod, argmin, argmax, any, all) and the cumulative sums, over all elements or one axis, with NumPy's accumulator dtypes and its pairwise summation so float32 sums round as NumPy's do. |
//! | `select.rs` | Selection by a condition: `where` (three arguments, and one: `nonzero`), for NumPy, `copyto(where=)` and CuPy alike. |
//! | `sort.rs` | Sorting an interrupt can stop (runs sorted, then merged in passes with checks between), in NumPy's order for every dtype. |
//! | `ufunc.rs` | Elementwise operations on whole arrays: type resolution, broadcasting, `out=`, and the dispatch from a binary or unary ufunc to a monomorphised kernel. |
//!

pub mod alloc;
pub mod buffer;
pub mod complex;
pub mod dtype;
pub mod elem;
pub mod error;
pub mod float16;
pub mod format;
pub mod index;
pub mod interrupt;
pub mod kernels;
pub mod linalg;
pub mod memory_guard;
pub mod operator;
pub mod promote;
pub mod reduce;
pub mod select;
pub mod sort;
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
    /// Whether this array looks at another array's data (a view: NumPy's `OWNDATA` is
    /// False); copies and new arrays own theirs.
    pub view: bool,
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
            view: false,
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
        let mut out = Vec::with_capacity(n); // bounded: one per element of this array
        let isz = self.dtype.itemsize();
        let mut idx = vec![0usize; self.ndim()]; // bounded: one entry per dimension
        let mut tmp = [0u8; 16];
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
