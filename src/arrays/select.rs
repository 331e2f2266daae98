//! Selection by a condition: `where(condition, x, y)` and `nonzero` (`where(condition)`),
//! one engine for NumPy's arrays, `copyto(where=)` and (inside queued work) CuPy's device
//! memory.

use crate::arrays::elem::{broadcast_shapes, broadcast_to, from_vec, new_array, read_vec, B8};
use crate::arrays::error::ArrayResult;
use crate::arrays::promote::promote;
use crate::arrays::NdArray;

/// `out[...] = where(cond, x, y)`: the operands broadcast to `out`'s shape and are cast to
/// its dtype. Every operand is read out before `out` is written, so `out` may be one of them
/// (`copyto(dst, src, where=mask)` is `where(mask, src, dst)` into `dst`).
pub fn where_into(cond: &NdArray, x: &NdArray, y: &NdArray, out: &NdArray) -> ArrayResult<()> {
    let c = read_vec::<B8>(&broadcast_to(cond, &out.shape)?);
    crate::with_dtype!(out.dtype, T => {
        let mut xv = read_vec::<T>(&broadcast_to(x, &out.shape)?);
        let yv = read_vec::<T>(&broadcast_to(y, &out.shape)?);
        for ((v, &other), keep) in xv.iter_mut().zip(&yv).zip(&c) {
            if keep.0 == 0 {
                *v = other;
            }
        }
        crate::arrays::elem::write_slice::<T>(out, &xv);
    });
    Ok(())
}

/// `where(cond, x, y)`: a new array of the operands' broadcast shape in their promoted dtype.
pub fn where3(cond: &NdArray, x: &NdArray, y: &NdArray) -> ArrayResult<NdArray> {
    let shape = broadcast_shapes(&[&cond.shape, &x.shape, &y.shape])?;
    let out = new_array(&shape, promote(x.dtype, y.dtype))?;
    where_into(cond, x, y, &out)?;
    Ok(out)
}

/// `nonzero(a)` (and `where(a)`): the indices of the true elements, one int64 array per
/// axis, in C order. A 0-d array counts as one element along one axis.
pub fn nonzero(a: &NdArray) -> ArrayResult<Vec<NdArray>> {
    let flags = read_vec::<B8>(a);
    let shape = if a.ndim() == 0 {
        vec![1]
    } else {
        a.shape.clone()
    };
    let mut cols: Vec<Vec<i64>> = vec![Vec::new(); shape.len()]; // bounded: one per dimension
    for (flat, f) in flags.iter().enumerate() {
        if f.0 != 0 {
            let mut rem = flat;
            for ax in (0..shape.len()).rev() {
                cols[ax].push((rem % shape[ax]) as i64);
                rem /= shape[ax];
            }
        }
    }
    cols.iter().map(|c| from_vec(&[c.len()], c)).collect()
}
