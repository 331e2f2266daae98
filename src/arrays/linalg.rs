//! Matrix products: `dot` for 1-D and 2-D operands and `matmul` over stacks of matrices
//! with broadcast leading dimensions, in NumPy's result dtype; one engine for NumPy's
//! arrays and (inside queued work) CuPy's device memory.

use crate::arrays::elem::{broadcast_shapes, cast, from_vec, read_vec, shape_str};
use crate::arrays::error::{ArrayError, ArrayResult};
use crate::arrays::promote::promote;
use crate::arrays::NdArray;

/// The shape of `matmul`'s result for operands of these shapes, with NumPy's errors: what a
/// device allocates before the product is queued.
pub fn matmul_shape(xs: &[usize], ys: &[usize]) -> ArrayResult<Vec<usize>> {
    let (Some(&k), Some(&k2)) = (xs.last(), ys.get(ys.len().saturating_sub(2))) else {
        return Err(ArrayError::value_error(
            "matmul: Input operand does not have enough dimensions",
        ));
    };
    if k != k2 {
        return Err(ArrayError::value_error(format!(
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {k2} is different from {k})"
        )));
    }
    let (xb, yb) = (
        &xs[..xs.len().saturating_sub(2)],
        &ys[..ys.len().saturating_sub(2)],
    );
    let mut shape = broadcast_shapes(&[xb, yb])?;
    if xs.len() > 1 {
        shape.push(xs[xs.len() - 2]);
    }
    if ys.len() > 1 {
        shape.push(ys[ys.len() - 1]);
    }
    Ok(shape)
}

/// `matmul` (NumPy's and CuPy's): `dot` for 1-D and 2-D operands; stacks of matrices
/// (leading dimensions broadcast as in NumPy) otherwise.
pub fn matmul(x: &NdArray, y: &NdArray) -> ArrayResult<NdArray> {
    matmul_shape(&x.shape, &y.shape)?;
    // Promote 1-D operands to matrices, as NumPy does, then drop that axis at the end.
    let (xs, ys) = (x.shape.clone(), y.shape.clone());
    let xm = if xs.len() == 1 {
        vec![1, xs[0]]
    } else {
        xs.clone()
    };
    let ym = if ys.len() == 1 {
        vec![ys[0], 1]
    } else {
        ys.clone()
    };
    let (n, k) = (xm[xm.len() - 2], xm[xm.len() - 1]);
    let m = ym[ym.len() - 1];
    if x.ndim() <= 2 && y.ndim() <= 2 {
        return dot(x, y);
    }
    let (xb, yb) = (&xm[..xm.len() - 2], &ym[..ym.len() - 2]);
    let batch = broadcast_shapes(&[xb, yb])?;
    let dt = promote(x.dtype, y.dtype);
    let xv = read_vec::<f64>(x);
    let yv = read_vec::<f64>(y);
    let total: usize = batch.iter().product();
    let count = total.saturating_mul(n.saturating_mul(m));
    let mut out = crate::arrays::alloc::vec_with_capacity(count, "the matmul result")?;
    // Offset (in matrices) of batch index `bi` in an operand with batch shape `shape`.
    let offset = |shape: &[usize], mut bi: usize| -> usize {
        let mut off = 0;
        let mut stride = 1;
        for (d, &full) in batch.iter().enumerate().rev() {
            let i = bi % full;
            bi /= full;
            let pos = d as isize - (batch.len() as isize - shape.len() as isize);
            if pos >= 0 {
                let size = shape[pos as usize];
                off += if size == 1 { 0 } else { i } * stride;
                stride *= size;
            }
        }
        off
    };
    for bi in 0..total {
        crate::arrays::interrupt::check()?;
        let xo = offset(xb, bi) * n * k;
        let yo = offset(yb, bi) * k * m;
        let start = out.len();
        out.resize(start + n * m, 0.0); // bounded: reserved above
        for i in 0..n {
            for p in 0..k {
                let a = xv[xo + i * k + p];
                for j in 0..m {
                    out[start + i * m + j] += a * yv[yo + p * m + j];
                }
            }
        }
    }
    let mut shape = batch.clone();
    if xs.len() > 1 {
        shape.push(n);
    }
    if ys.len() > 1 {
        shape.push(m);
    }
    cast(&from_vec(&shape, &out)?, dt)
}

/// `dot`'s error for operands whose inner dimensions differ.
pub fn not_aligned(xs: &[usize], ys: &[usize]) -> ArrayError {
    ArrayError::value_error(format!(
        "shapes {} and {} not aligned: {} (dim {}) != {} (dim 0)",
        shape_str(xs),
        shape_str(ys),
        xs.last().copied().unwrap_or(0),
        xs.len().saturating_sub(1),
        ys.first().copied().unwrap_or(0)
    ))
}

/// `dot` (NumPy's and CuPy's) for 1-D and 2-D operands.
pub fn dot(x: &NdArray, y: &NdArray) -> ArrayResult<NdArray> {
    let dt = promote(x.dtype, y.dtype);
    let xv = read_vec::<f64>(x);
    let yv = read_vec::<f64>(y);
    let mismatch = || not_aligned(&x.shape, &y.shape);
    match (x.ndim(), y.ndim()) {
        (1, 1) => {
            if x.shape != y.shape {
                return Err(mismatch());
            }
            let s: f64 = xv.iter().zip(&yv).map(|(a, b)| a * b).sum();
            cast(&from_vec(&[], &[s])?, dt)
        }
        (1 | 2, 1 | 2) => {
            // A 1-D left operand is one row; a 1-D right operand one column.
            let (n, k) = match x.shape[..] {
                [k] => (1, k),
                [n, k] => (n, k),
                _ => (0, 0),
            };
            if y.shape[0] != k {
                return Err(mismatch());
            }
            let m = if y.ndim() == 2 { y.shape[1] } else { 1 };
            let mut out = crate::arrays::alloc::vec_filled(0f64, n.saturating_mul(m), "an array")?;
            for i in 0..n {
                for p in 0..k {
                    let a = xv[i * k + p];
                    for j in 0..m {
                        out[i * m + j] += a * yv[p * m + j];
                    }
                }
            }
            let mut shape = Vec::new();
            if x.ndim() == 2 {
                shape.push(n);
            }
            if y.ndim() == 2 {
                shape.push(m);
            }
            cast(&from_vec(&shape, &out)?, dt)
        }
        _ => Err(ArrayError::not_implemented(
            "dot supports 1-D and 2-D arrays in nbcuda",
        )),
    }
}
