//! Matrix products: `dot` for 1-D and 2-D operands and `matmul` over stacks of matrices
//! with broadcast leading dimensions, in NumPy's result dtype; one engine for NumPy's
//! arrays and (inside queued work) CuPy's device memory.

use crate::arrays::complex::Complex;
use crate::arrays::dtype::DType;
use crate::arrays::elem::{broadcast_shapes, cast, from_vec, read_vec, shape_str};
use crate::arrays::error::{ArrayError, ArrayResult};
use crate::arrays::kernels::ElemArith;
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

/// A product's layout: operands seen as stacks of `n×k` and `k×m` matrices (a 1-D left
/// operand is one row, a 1-D right operand one column), the broadcast stack shape, and
/// the result's shape (without the axes a 1-D operand was given).
struct Plan<'a> {
    xb: &'a [usize],
    yb: &'a [usize],
    batch: Vec<usize>,
    n: usize,
    k: usize,
    m: usize,
    shape: Vec<usize>,
}

impl<'a> Plan<'a> {
    /// The layout of `matmul(x, y)`, whose shapes `matmul_shape` accepted.
    fn new(xs: &'a [usize], ys: &'a [usize]) -> ArrayResult<Plan<'a>> {
        let (xb, n, k) = match xs {
            [k] => (&xs[..0], 1, *k),
            [b @ .., n, k] => (b, *n, *k),
            [] => (xs, 1, 1),
        };
        let (yb, m) = match ys {
            [_] => (&ys[..0], 1),
            [b @ .., _, m] => (b, *m),
            [] => (ys, 1),
        };
        let batch = broadcast_shapes(&[xb, yb])?;
        let mut shape = batch.clone();
        if xs.len() > 1 {
            shape.push(n);
        }
        if ys.len() > 1 {
            shape.push(m);
        }
        Ok(Plan {
            xb,
            yb,
            batch,
            n,
            k,
            m,
            shape,
        })
    }

    /// Offset (in matrices) of stack index `bi` in an operand whose stack shape is `shape`:
    /// a length-1 axis repeats its one matrix, as broadcasting does.
    fn offset(&self, shape: &[usize], mut bi: usize) -> usize {
        let mut off = 0;
        let mut stride = 1;
        let lead = self.batch.len() - shape.len();
        for (d, &full) in self.batch.iter().enumerate().rev() {
            let i = bi % full;
            bi /= full;
            if let Some(&size) = d.checked_sub(lead).map(|p| &shape[p]) {
                off += if size == 1 { 0 } else { i } * stride;
                stride *= size;
            }
        }
        off
    }
}

/// The products of `plan`, accumulated in `T` (wrapping for integers, as NumPy's integer
/// loops do).
fn products<T: ElemArith>(x: &NdArray, y: &NdArray, plan: &Plan) -> ArrayResult<NdArray> {
    let (n, k, m) = (plan.n, plan.k, plan.m);
    let xv = read_vec::<T>(x);
    let yv = read_vec::<T>(y);
    let total: usize = plan.batch.iter().product();
    let count = total.saturating_mul(n.saturating_mul(m));
    let mut out = crate::arrays::alloc::vec_filled(T::default(), count, "the matmul result")?;
    for (bi, block) in out.chunks_mut((n * m).max(1)).enumerate().take(total) {
        crate::arrays::interrupt::check()?;
        let xo = plan.offset(plan.xb, bi) * n * k;
        let yo = plan.offset(plan.yb, bi) * k * m;
        for i in 0..n {
            for p in 0..k {
                let a = xv[xo + i * k + p];
                for j in 0..m {
                    let acc = &mut block[i * m + j];
                    *acc = acc.add(a.mul(yv[yo + p * m + j]));
                }
            }
        }
    }
    from_vec(&plan.shape, &out)
}

/// The product in NumPy's result dtype. Integer and bool products accumulate in that dtype
/// (exact and wrapping, where an f64 sum would round past 2**53); real floats in f64; complex
/// in complex128.
fn product(x: &NdArray, y: &NdArray) -> ArrayResult<NdArray> {
    let plan = Plan::new(&x.shape, &y.shape)?;
    let dt = promote(x.dtype, y.dtype);
    let r = match dt {
        DType::C64 | DType::C128 => products::<Complex<f64>>(x, y, &plan)?,
        DType::F16 | DType::F32 | DType::F64 => products::<f64>(x, y, &plan)?,
        _ => crate::with_dtype!(dt, T => products::<T>(x, y, &plan)?),
    };
    cast(&r, dt)
}

/// `matmul` (NumPy's and CuPy's): `dot` for 1-D and 2-D operands; stacks of matrices
/// (leading dimensions broadcast as in NumPy) otherwise.
pub fn matmul(x: &NdArray, y: &NdArray) -> ArrayResult<NdArray> {
    matmul_shape(&x.shape, &y.shape)?;
    product(x, y)
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
    match (x.ndim(), y.ndim()) {
        (1 | 2, 1 | 2) => {
            let k = x.shape[x.ndim() - 1];
            if y.shape[0] != k {
                return Err(not_aligned(&x.shape, &y.shape));
            }
            product(x, y)
        }
        _ => Err(ArrayError::not_implemented(
            "dot supports 1-D and 2-D arrays in nbcuda",
        )),
    }
}
