//! Reductions (sum, mean, min, max, std, var, prod, argmin, argmax, any, all) and the
//! cumulative sums, over all elements or one axis, with NumPy's accumulator dtypes and its
//! pairwise summation so float32 sums round as NumPy's do.

use std::borrow::Cow;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::{as_slice, from_vec, read_vec, Elem};
use crate::arrays::error::{ArrayError, ArrayResult};
use crate::arrays::kernels::ElemArith;
use crate::arrays::operator::Reduce;
use crate::arrays::NdArray;
use crate::with_dtype;

/// NumPy's pairwise summation (numpy/_core/src/umath/loops_utils.h.src), blocks of 128 with
/// eight partial sums.
pub fn pairwise_sum<T: ElemArith>(a: &[T]) -> T {
    let n = a.len();
    if n < 8 {
        let mut res = T::default();
        for &x in a {
            res = res.add(x);
        }
        res
    } else if n <= 128 {
        let mut r = [T::default(); 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - (n % 8) {
            for j in 0..8 {
                r[j] = r[j].add(a[i + j]);
            }
            i += 8;
        }
        let mut res = r[0]
            .add(r[1])
            .add(r[2].add(r[3]))
            .add(r[4].add(r[5]).add(r[6].add(r[7])));
        while i < n {
            res = res.add(a[i]);
            i += 1;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        // Splitting along NumPy's own recursion keeps the result bit-identical.
        let (l, r) = if n >= crate::arrays::kernels::PAR_MIN {
            rayon::join(|| pairwise_sum(&a[..n2]), || pairwise_sum(&a[n2..]))
        } else {
            (pairwise_sum(&a[..n2]), pairwise_sum(&a[n2..]))
        };
        l.add(r)
    }
}

/// The accumulator dtype of sum/prod/cumsum: small ints widen to int64 / uint64.
pub fn sum_dtype(d: DType) -> DType {
    match d {
        DType::Bool | DType::I8 | DType::I16 | DType::I32 | DType::I64 => DType::I64,
        DType::U8 | DType::U16 | DType::U32 | DType::U64 => DType::U64,
        f => f,
    }
}

/// The float dtype mean/var/std compute in.
pub fn mean_dtype(d: DType) -> DType {
    if d.is_float() || d.is_complex() {
        d
    } else {
        DType::F64
    }
}

/// Split `a` into rows along `axis` (moved last): (data in C order of the moved layout,
/// row length, output shape). `axis=None` gives one row of everything.
fn rows<T: Elem>(
    a: &NdArray,
    axis: Option<isize>,
) -> ArrayResult<(Cow<'_, [T]>, usize, Vec<usize>)> {
    let last =
        axis.map(|ax| norm_axis(ax, a.ndim())).transpose()? == Some(a.ndim().wrapping_sub(1));
    if axis.is_none() || last {
        if let Some(s) = as_slice::<T>(a) {
            let len = if axis.is_none() {
                a.size()
            } else {
                a.shape[a.ndim() - 1]
            };
            let shape = if axis.is_none() {
                vec![]
            } else {
                a.shape[..a.ndim() - 1].to_vec()
            };
            return Ok((Cow::Borrowed(s), len, shape));
        }
    }
    match axis {
        None => Ok((Cow::Owned(read_vec::<T>(a)), a.size(), vec![])),
        Some(ax) => {
            let k = norm_axis(ax, a.ndim())?;
            let mut v = a.clone();
            let s = v.shape.remove(k);
            let st = v.strides.remove(k);
            let out_shape = v.shape.clone();
            v.shape.push(s);
            v.strides.push(st);
            Ok((Cow::Owned(read_vec::<T>(&v)), s, out_shape))
        }
    }
}

/// Normalise a possibly negative axis; NumPy's AxisError text.
pub fn norm_axis(ax: isize, ndim: usize) -> ArrayResult<usize> {
    let n = ndim as isize;
    let k = if ax < 0 { ax + n } else { ax };
    if k < 0 || k >= n {
        return Err(ArrayError::axis_error(format!(
            "axis {ax} is out of bounds for array of dimension {ndim}"
        )));
    }
    Ok(k as usize)
}

/// A reduction's result: a NumPy scalar over all axes (or of a 1-D reduction), else an
/// array.
#[derive(Clone)]
pub enum Reduced {
    Scalar(Scalar),
    Array(NdArray),
}

fn wrap<T: Elem>(vals: Vec<T>, shape: &[usize]) -> ArrayResult<Reduced> {
    if shape.is_empty() {
        Ok(Reduced::Scalar(vals[0].to_scalar()))
    } else {
        Ok(Reduced::Array(from_vec(shape, &vals)?))
    }
}

fn per_row<T: Elem, R: Elem>(data: &[T], len: usize, outn: usize, f: impl Fn(&[T]) -> R) -> Vec<R> {
    if len == 0 {
        return (0..outn).map(|_| f(&[])).collect();
    }
    // Rows are the unit of interruption: a pending interrupt skips the remaining rows and
    // the reduction raises KeyboardInterrupt when it returns.
    let stop = crate::arrays::interrupt::flag();
    data.chunks(len)
        .map(|r| {
            if crate::arrays::interrupt::pending(&stop) {
                R::default()
            } else {
                f(r)
            }
        })
        .collect()
}

/// Sum with NumPy's summation order: pairwise along a contiguous last axis (or everything),
/// element-by-element accumulation along other axes.
fn sum_rows<T: ElemArith>(data: &[T], len: usize, outn: usize, pairwise: bool) -> Vec<T> {
    per_row(data, len, outn, |r| {
        if pairwise {
            T::default().add(pairwise_sum(r))
        } else {
            r.iter().fold(T::default(), |acc, &x| acc.add(x))
        }
    })
}

/// Full or per-axis reduction, as `arr.sum()`, `np.max(arr, axis=0)` ...
pub fn reduce(kind: Reduce, a: &NdArray, axis: Option<isize>) -> ArrayResult<Reduced> {
    reduce_ddof(kind, a, axis, 0)
}

/// `reduce` with the `ddof` of var/std.
pub fn reduce_ddof(
    kind: Reduce,
    a: &NdArray,
    axis: Option<isize>,
    ddof: usize,
) -> ArrayResult<Reduced> {
    let r = reduce_inner(kind, a, axis, ddof);
    crate::arrays::interrupt::check()?;
    // A complex array's variance is real: the squared moduli were summed in the real parts.
    match r? {
        r if !(a.dtype.is_complex() && matches!(kind, Reduce::Var | Reduce::Std)) => Ok(r),
        Reduced::Scalar(s) => Ok(Reduced::Scalar(s.cast(a.dtype.real_part()))),
        Reduced::Array(x) => Ok(Reduced::Array(crate::arrays::elem::cast(
            &x,
            a.dtype.real_part(),
        )?)),
    }
}

fn reduce_inner(
    kind: Reduce,
    a: &NdArray,
    axis: Option<isize>,
    ddof: usize,
) -> ArrayResult<Reduced> {
    if let Some(ax) = axis {
        // The result has every axis but this one, however few elements go into it
        // (`np.zeros((0, 10**18)).sum(axis=0)`): NumPy's MemoryError when that is too big.
        let ax = norm_axis(ax, a.ndim())?;
        let mut out = a.shape.clone();
        out.remove(ax);
        crate::arrays::elem::check_shape(&out, DType::F64)?;
    }
    let pairwise = match axis {
        None => true,
        Some(ax) => norm_axis(ax, a.ndim())? + 1 == a.ndim(),
    };
    // An empty axis leaves as many results as the other axes hold, data or not.
    let outn_of = |shape: &[usize]| -> ArrayResult<usize> {
        let n = shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d));
        let n = n.unwrap_or(usize::MAX);
        crate::arrays::alloc::check(n, 16, "a reduction's result")?;
        Ok(n)
    };
    match kind {
        Reduce::Sum | Reduce::Prod => {
            let dt = sum_dtype(a.dtype);
            with_dtype!(dt, T => {
                let (d, len, shape) = rows::<T>(a, axis)?;
                let outn = outn_of(&shape)?;
                let v = if kind == Reduce::Sum {
                    sum_rows(&d, len, outn, pairwise)
                } else {
                    per_row(&d, len, outn, |r| r.iter().fold(T::from_i128(1), |acc, &x| acc.mul(x)))
                };
                wrap(v, &shape)
            })
        }
        Reduce::Mean | Reduce::Var | Reduce::Std => {
            let dt = mean_dtype(a.dtype);
            with_dtype!(dt, T => {
                let (d, len, shape) = rows::<T>(a, axis)?;
                let outn = outn_of(&shape)?;
                let cnt = T::from_f64(len as f64);
                let means: Vec<T> = sum_rows(&d, len, outn, pairwise)
                    .into_iter()
                    .map(|s| if T::COMPLEX {
                        // NumPy divides a complex sum by the count part by part.
                        let (r, i) = s.to_c128();
                        T::from_c128(r / len as f64, i / len as f64)
                    } else {
                        s.tdiv(cnt)
                    })
                    .collect();
                if kind == Reduce::Mean {
                    return wrap(means, &shape);
                }
                let div = T::from_f64(len.saturating_sub(ddof) as f64);
                let mut out = Vec::with_capacity(outn); // bounded: checked by outn_of
                for (i, m) in means.iter().enumerate() {
                    let row = if len == 0 { &[][..] } else { &d[i * len..(i + 1) * len] };
                    let sq: Vec<T> = row.iter().map(|&x| {
                        let y = x.sub(*m);
                        if T::COMPLEX {
                            let (r, i) = y.to_c128();
                            T::from_f64(r * r + i * i)
                        } else {
                            y.mul(y)
                        }
                    }).collect();
                    let v = sum_rows(&sq, sq.len(), 1, pairwise)[0].tdiv(div);
                    out.push(if kind == Reduce::Std { T::from_f64(v.to_f64().sqrt()) } else { v });
                }
                wrap(out, &shape)
            })
        }
        Reduce::Min | Reduce::Max => {
            let is_max = kind == Reduce::Max;
            with_dtype!(a.dtype, T => {
                let (d, len, shape) = rows::<T>(a, axis)?;
                if len == 0 {
                    return Err(ArrayError::value_error(format!(
                        "zero-size array to reduction operation {} which has no identity",
                        if is_max { "maximum" } else { "minimum" }
                    )));
                }
                let v: Vec<T> = d.chunks(len).map(|r| {
                    r[1..].iter().fold(r[0], |acc, &x| if is_max { acc.maxn(x) } else { acc.minn(x) })
                }).collect();
                wrap(v, &shape)
            })
        }
        Reduce::ArgMin | Reduce::ArgMax => {
            let is_max = kind == Reduce::ArgMax;
            with_dtype!(a.dtype, T => {
                let (d, len, shape) = rows::<T>(a, axis)?;
                if len == 0 {
                    return Err(ArrayError::value_error(format!(
                        "attempt to get {} of an empty sequence", kind.name()
                    )));
                }
                let v: Vec<i64> = d.chunks(len).map(|r| {
                    let mut best = 0usize;
                    for (i, &x) in r.iter().enumerate() {
                        if r[best].is_nan() { break; }
                        if x.is_nan() || (is_max && x > r[best]) || (!is_max && x < r[best]) {
                            best = i;
                        }
                    }
                    best as i64
                }).collect();
                wrap(v, &shape)
            })
        }
        Reduce::Any | Reduce::All => {
            let is_any = kind == Reduce::Any;
            with_dtype!(a.dtype, T => {
                let (d, len, shape) = rows::<T>(a, axis)?;
                let outn = outn_of(&shape)?;
                let v: Vec<B8> = per_row(&d, len, outn, |r| {
                    B8(if is_any { r.iter().any(|x| x.nonzero()) } else { r.iter().all(|x| x.nonzero()) } as u8)
                });
                wrap(v, &shape)
            })
        }
        Reduce::CumSum | Reduce::CumProd => {
            let dt = sum_dtype(a.dtype);
            with_dtype!(dt, T => {
                let (d, len, shape) = rows::<T>(a, axis)?;
                let mut v = d.into_owned();
                if len > 0 {
                    for r in v.chunks_mut(len) {
                        for i in 1..r.len() {
                            r[i] = if kind == Reduce::CumSum { r[i - 1].add(r[i]) } else { r[i - 1].mul(r[i]) };
                        }
                    }
                }
                // Move the reduced axis back to its place.
                let out = match axis {
                    None => from_vec(&[len], &v)?,
                    Some(ax) => {
                        let k = norm_axis(ax, a.ndim())?;
                        let mut moved_shape = shape.clone();
                        moved_shape.push(len);
                        let m = from_vec(&moved_shape, &v)?;
                        let mut view = m.clone();
                        let st = view.strides.pop().unwrap_or(0);
                        let sh = view.shape.pop().unwrap_or(0);
                        view.shape.insert(k, sh);
                        view.strides.insert(k, st);
                        crate::arrays::elem::contiguous_copy(&view)?
                    }
                };
                Ok(Reduced::Array(out))
            })
        }
    }
}
