//! Sorting along any axis, `np.unique` with its optional outputs, and the per-bin sums of
//! a weighted histogram: the parts of `np.sort`, `np.argsort`, `np.unique` and
//! `np.histogram` beyond one flat pass.

use crate::arrays::dtype::DType;
use crate::arrays::elem::{new_array, read_vec};
use crate::arrays::sort::{order, sort_stable};
use crate::arrays::NdArray;
use crate::numpy::funcs::expand;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_shape::{ravel, transpose};
use crate::py::value::Value;
use crate::with_dtype;

/// `np.sort(x, axis)` / `np.argsort(x, axis)`: `axis=None` sorts the flattened array, any
/// other axis is moved last, sorted there and moved back.
pub fn sort_axis(x: &NdArray, axis: &Option<Value>, arg_only: bool) -> PyResult<NdArray> {
    let k = match axis {
        Some(Value::None) => return sort_last(&ravel(x)?, arg_only),
        None => return sort_last(x, arg_only),
        Some(v) => v.as_index()?,
    };
    if x.ndim() == 0 {
        return Err(PyErr::new(
            "AxisError",
            format!("axis {k} is out of bounds for array of dimension 0"),
        ));
    }
    let k = crate::arrays::reduce::norm_axis(k as isize, x.ndim())?;
    let last = x.ndim() - 1;
    if k == last {
        return sort_last(x, arg_only);
    }
    let mut perm: Vec<isize> = (0..x.ndim() as isize).collect();
    perm.swap(k, last);
    let sorted = sort_last(&transpose(x, Some(perm.clone()))?, arg_only)?;
    Ok(crate::arrays::elem::contiguous_copy(&transpose(
        &sorted,
        Some(perm),
    )?)?)
}

/// A sorted copy of `x` (or the indices that sort it) along its last axis, stable, in
/// NumPy's order for its own dtype (int64 beyond 2**53 and complex values included).
pub fn sort_last(x: &NdArray, arg_only: bool) -> PyResult<NdArray> {
    let x = if x.ndim() == 0 {
        expand(x, 0)
    } else {
        x.clone()
    };
    let len = (*x.shape.last().unwrap_or(&1)).max(1);
    let src = crate::arrays::elem::contiguous_copy(&x)?;
    let out = new_array(&x.shape, if arg_only { DType::I64 } else { x.dtype })?;
    let stop = crate::arrays::interrupt::flag();
    let mut done = true;
    with_dtype!(x.dtype, T => {
        let vals = read_vec::<T>(&src);
        if arg_only {
            let o = out.buf.typed_mut::<i64>(0, vals.len());
            for (row, dst) in vals.chunks(len).zip(o.chunks_mut(len)) {
                // (value, index) pairs: the indices ride along and break no ties, so the
                // stable sort gives the stable argsort.
                let mut pairs: Vec<(T, i64)> =
                    row.iter().enumerate().map(|(i, &v)| (v, i as i64)).collect();
                done = sort_stable(&mut pairs, |a, b| order(&a.0, &b.0), &stop);
                if !done {
                    break;
                }
                for (d, p) in dst.iter_mut().zip(&pairs) {
                    *d = p.1;
                }
            }
        } else {
            let o = out.buf.typed_mut::<T>(0, vals.len());
            o.copy_from_slice(&vals);
            for row in o.chunks_mut(len) {
                done = sort_stable(row, order::<T>, &stop);
                if !done {
                    break;
                }
            }
        }
    });
    if !done {
        crate::arrays::interrupt::check()?;
    }
    Ok(out)
}

/// Which of `np.unique`'s optional outputs to return.
pub struct UniqueWants {
    pub index: bool,
    pub inverse: bool,
    pub counts: bool,
    pub equal_nan: bool,
}

/// `np.unique(x, ...)` without `axis`: the sorted distinct values of the flattened array,
/// then, as asked, each one's first index, every element's group (shaped as `x`, as in
/// NumPy 2) and each group's size. NaNs form one group when `equal_nan`.
pub fn unique(x: &NdArray, wants: &UniqueWants) -> PyResult<Value> {
    let flat = ravel(x)?;
    let idx = read_vec::<i64>(&sort_last(&flat, true)?);
    let (starts, values) = with_dtype!(flat.dtype, T => {
        let all = read_vec::<T>(&flat);
        // Compared in the dtype itself: through f64, int64s beyond 2**53 would merge.
        #[allow(clippy::eq_op)]
        let same = |a: &T, b: &T| {
            order(a, b).is_eq() && (wants.equal_nan || a == a)
        };
        // Positions in sorted order where a group starts.
        let starts: Vec<usize> = (0..idx.len())
            .filter(|&p| p == 0 || !same(&all[idx[p - 1] as usize], &all[idx[p] as usize]))
            .collect();
        let first: Vec<i64> = starts.iter().map(|&p| idx[p]).collect();
        let picked: Vec<T> = first.iter().map(|&i| all[i as usize]).collect();
        (starts, crate::arrays::elem::from_vec(&[picked.len()], &picked)?)
    });
    let first: Vec<i64> = starts.iter().map(|&p| idx[p]).collect();
    let values = Value::Array(Box::new(values));
    if !(wants.index || wants.inverse || wants.counts) {
        return Ok(values);
    }
    let mut out = vec![values];
    let vec1 = |v: &[i64]| -> PyResult<Value> {
        Ok(Value::Array(Box::new(crate::arrays::elem::from_vec(
            &[v.len()],
            v,
        )?)))
    };
    if wants.index {
        out.push(vec1(&first)?);
    }
    if wants.inverse {
        let mut inverse = vec![0i64; idx.len()]; // bounded: one per element of `x`
        let mut group = 0i64;
        for (p, &i) in idx.iter().enumerate() {
            if p > 0 && starts.binary_search(&p).is_ok() {
                group += 1;
            }
            inverse[i as usize] = group;
        }
        let shape = if x.ndim() == 0 {
            vec![1]
        } else {
            x.shape.clone()
        };
        out.push(Value::Array(Box::new(crate::arrays::elem::from_vec(
            &shape, &inverse,
        )?)));
    }
    if wants.counts {
        let ends = starts.iter().skip(1).copied().chain([idx.len()]);
        let counts: Vec<i64> = starts
            .iter()
            .zip(ends)
            .map(|(&s, e)| (e - s) as i64)
            .collect();
        out.push(vec1(&counts)?);
    }
    Ok(Value::tuple(out))
}

/// The bin of each value of `data` among `edges` (the last bin closed), None outside.
pub fn bin_of(v: f64, edges: &[f64]) -> Option<usize> {
    let nb = edges.len().checked_sub(1).filter(|&n| n > 0)?;
    if v.is_nan() || v < edges[0] || v > edges[nb] {
        return None;
    }
    Some(
        edges
            .partition_point(|e| *e <= v)
            .saturating_sub(1)
            .min(nb - 1),
    )
}

/// `np.histogram`'s counts: per-bin sums of `weights` (of their dtype) or counts
/// (int64), then, with `density`, each divided by the total and the bin's width.
pub fn histogram_values(
    data: &[f64],
    edges: &[f64],
    weights: Option<&NdArray>,
    density: bool,
) -> PyResult<NdArray> {
    let nb = edges.len().saturating_sub(1);
    let w = match weights {
        Some(w) => {
            if w.size() != data.len() {
                return Err(PyErr::value_error(
                    "weights should have the same shape as a.",
                ));
            }
            Some(w)
        }
        None => None,
    };
    let mut sums = vec![0f64; nb]; // bounded: one per existing bin edge
    let wv = w.map(read_vec::<f64>);
    for (i, &v) in data.iter().enumerate() {
        if let Some(k) = bin_of(v, edges) {
            sums[k] += wv.as_ref().map_or(1.0, |w| w[i]);
        }
    }
    if density {
        let total: f64 = sums.iter().sum();
        let dens: Vec<f64> = sums
            .iter()
            .enumerate()
            .map(|(k, s)| s / (edges[k + 1] - edges[k]) / total)
            .collect();
        return Ok(crate::arrays::elem::from_vec(&[nb], &dens)?);
    }
    match w {
        // Integer weights sum exactly as integers of their dtype (NumPy's bincount-like
        // accumulation); float weights in double.
        Some(w) if w.dtype.is_integer() || w.dtype == DType::Bool => {
            let wi = read_vec::<i64>(w);
            let mut acc = vec![0i64; nb]; // bounded: one per existing bin edge
            for (i, &v) in data.iter().enumerate() {
                if let Some(k) = bin_of(v, edges) {
                    acc[k] = acc[k].wrapping_add(wi[i]);
                }
            }
            let a = crate::arrays::elem::from_vec(&[nb], &acc)?;
            let d = if w.dtype == DType::Bool {
                DType::I64
            } else {
                w.dtype
            };
            Ok(crate::arrays::elem::cast(&a, d)?)
        }
        Some(w) => Ok(crate::arrays::elem::cast(
            &crate::arrays::elem::from_vec(&[nb], &sums)?,
            w.dtype,
        )?),
        None => {
            let counts: Vec<i64> = sums.iter().map(|c| *c as i64).collect();
            Ok(crate::arrays::elem::from_vec(&[nb], &counts)?)
        }
    }
}
