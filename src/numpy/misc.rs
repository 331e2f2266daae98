//! The rest of the `numpy` module: closeness and equality tests, `dot`, dtype
//! helpers and array properties as functions.

use crate::arrays::dtype::DType;
use crate::arrays::elem::{broadcast_shapes, broadcast_to, read_vec, B8};
use crate::arrays::operator::{Cmp, Reduce};
use crate::arrays::promote::{can_cast, promote, Casting};
use crate::arrays::ufunc::{binary_ufunc, Ufunc2};
use crate::arrays::NdArray;
use crate::numpy::funcs::arg;
use crate::numpy::sorting::{histogram_values, sort_axis};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{dtype_from_value, to_ndarray, wrap_result};
use crate::py::ndarray_methods::array_getattr;
use crate::py::promote::{is_python_number, python_dtype, weak_dtype};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::{Clinic, Function, NumpyC};
use crate::py::value::{Module, Value};

/// The non-zero elements of `a` in C order: how many, the rank, and each one's index
/// along every axis, row after row (`np.argwhere`; a 0-d array has rows of no indices).
fn nonzero_rows(a: &NdArray) -> (usize, usize, Vec<i64>) {
    let flags = read_vec::<B8>(a);
    let nd = a.ndim();
    let mut idx = Vec::new();
    let mut rows = 0;
    for (flat, f) in flags.iter().enumerate() {
        if f.0 == 0 {
            continue;
        }
        rows += 1;
        let at = idx.len();
        let mut rem = flat;
        for ax in (0..nd).rev() {
            idx.push((rem % a.shape[ax]) as i64);
            rem /= a.shape[ax];
        }
        idx[at..].reverse();
    }
    (rows, nd, idx)
}

/// `np.isclose` as NumPy defines it: |a - b| <= atol + rtol * |b|, infinities equal when
/// identical, NaN equal only with equal_nan.
pub fn isclose(
    a: &NdArray,
    b: &NdArray,
    rtol: f64,
    atol: f64,
    equal_nan: bool,
) -> PyResult<NdArray> {
    let shape = broadcast_shapes(&[&a.shape, &b.shape])?;
    let x = read_vec::<f64>(&broadcast_to(a, &shape)?);
    let y = read_vec::<f64>(&broadcast_to(b, &shape)?);
    let r: Vec<B8> = x
        .iter()
        .zip(&y)
        .map(|(&x, &y)| {
            let c = if x.is_nan() || y.is_nan() {
                equal_nan && x.is_nan() && y.is_nan()
            } else if x.is_infinite() || y.is_infinite() {
                x == y
            } else {
                (x - y).abs() <= atol + rtol * y.abs()
            };
            B8(c as u8)
        })
        .collect();
    Ok(crate::arrays::elem::from_vec(&shape, &r)?)
}

fn tolerances(
    rt: &mut Runtime,
    b: &[Option<Value>],
) -> PyResult<(NdArray, NdArray, f64, f64, bool)> {
    let x = to_ndarray(rt, arg(b, 0))?;
    let y = to_ndarray(rt, arg(b, 1))?;
    let rtol = b[2]
        .as_ref()
        .map(|v| v.as_f64())
        .transpose()?
        .unwrap_or(1e-5);
    let atol = b[3]
        .as_ref()
        .map(|v| v.as_f64())
        .transpose()?
        .unwrap_or(1e-8);
    let en = matches!(b[4], Some(Value::Bool(true)));
    Ok((x, y, rtol, atol, en))
}

/// Counts per bin with NumPy's rule: bins are half-open except the last, which includes
/// its right edge; NaN and values outside the edges are not counted.
pub fn histogram_counts(data: &[f64], edges: &[f64]) -> Vec<f64> {
    let nb = edges.len().saturating_sub(1);
    let mut counts = vec![0f64; nb]; // bounded: one per existing bin edge
    if nb == 0 {
        return counts;
    }
    for &v in data {
        if v.is_nan() || v < edges[0] || v > edges[nb] {
            continue;
        }
        let k = edges
            .partition_point(|e| *e <= v)
            .saturating_sub(1)
            .min(nb - 1);
        counts[k] += 1.0;
    }
    counts
}

/// Evenly spaced bin edges over [lo, hi], widened to one unit when the range is empty.
pub fn even_edges(lo: f64, hi: f64, n: usize) -> PyResult<Vec<f64>> {
    let (lo, hi) = if lo == hi {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    };
    let edges = n.saturating_add(1);
    Ok(crate::arrays::alloc::vec_from_fn(
        edges,
        "bin edges",
        |k| lo + (hi - lo) * k as f64 / n as f64,
    )?)
}

pub fn comparisons(m: &Module) {
    m.def(
        Function,
        "argwhere",
        "a",
        "Indices of the non-zero elements, one row per element (shape (N, a.ndim)).",
        |rt, b| {
            let arr = to_ndarray(rt, arg(&b, 0))?;
            let (rows, nd, idx) = nonzero_rows(&arr);
            let out = crate::arrays::elem::from_vec(&[rows, nd], &idx)?;
            Ok(Value::Array(Box::new(out)))
        },
    );
    m.def(
        Function,
        "flatnonzero",
        "a",
        "Indices of the non-zero elements of the flattened array.",
        |rt, b| {
            let flags = read_vec::<B8>(&to_ndarray(rt, arg(&b, 0))?);
            let idx: Vec<i64> = (0..flags.len())
                .filter(|&i| flags[i].0 != 0)
                .map(|i| i as i64)
                .collect();
            let out = crate::arrays::elem::from_vec(&[idx.len()], &idx)?;
            Ok(Value::Array(Box::new(out)))
        },
    );
    m.def(
        Function,
        "histogram",
        "a, bins=10, range=None, density=None, weights=None",
        "Counts per bin and the bin edges, as NumPy bins them.",
        |rt, b| {
            let data = read_vec::<f64>(&to_ndarray(rt, arg(&b, 0))?);
            let (lo, hi) = match &b[2] {
                None | Some(Value::None) => {
                    let lo = data
                        .iter()
                        .cloned()
                        .filter(|v| !v.is_nan())
                        .fold(f64::INFINITY, f64::min);
                    let hi = data
                        .iter()
                        .cloned()
                        .filter(|v| !v.is_nan())
                        .fold(f64::NEG_INFINITY, f64::max);
                    if lo.is_finite() {
                        (lo, hi)
                    } else {
                        (0.0, 1.0)
                    }
                }
                Some(r) => {
                    let v = rt.iterate(r)?;
                    if v.len() != 2 {
                        return Err(PyErr::value_error("range must be a pair (min, max)"));
                    }
                    (v[0].as_f64()?, v[1].as_f64()?)
                }
            };
            let mut given_edges = None;
            let edges = match &b[1] {
                None | Some(Value::None) => even_edges(lo, hi, 10)?,
                Some(Value::Int(n)) if *n > 0 => even_edges(lo, hi, *n as usize)?,
                Some(Value::Int(_)) => {
                    return Err(PyErr::value_error(
                        "`bins` must be positive, when an integer",
                    ))
                }
                Some(v) => {
                    let given = to_ndarray(rt, v)?;
                    let e = read_vec::<f64>(&given);
                    given_edges = Some(given);
                    e
                }
            };
            if edges.len() < 2 || edges.windows(2).any(|w| w[1] < w[0]) {
                return Err(PyErr::value_error(
                    "`bins` must increase monotonically, when an array",
                ));
            }
            let weights = match &b[4] {
                None | Some(Value::None) => None,
                Some(w) => Some(to_ndarray(rt, w)?),
            };
            let density = rt.flag(b[3].as_ref())?;
            let counts = histogram_values(&data, &edges, weights.as_ref(), density)?;
            Ok(Value::tuple(vec![
                Value::Array(Box::new(counts)),
                // Edges given as an array come back as given (an int array stays int).
                Value::Array(Box::new(match given_edges {
                    Some(e) => crate::arrays::elem::contiguous_copy(&e)?,
                    None => crate::arrays::elem::from_vec(&[edges.len()], &edges)?,
                })),
            ]))
        },
    );
    m.def(
        Function,
        "count_nonzero",
        "a, axis=None, *, keepdims=False",
        "Number of non-zero elements.",
        |rt, b| {
            let x = to_ndarray(rt, arg(&b, 0))?;
            let axis = match &b[1] {
                None | Some(Value::None) => None,
                Some(Value::Tuple(_)) => {
                    return Err(PyErr::not_implemented(
                        "np.count_nonzero with a tuple of axes is not supported in nbcuda",
                    ))
                }
                Some(v) => Some(v.as_index()? as isize),
            };
            let keepdims = rt.flag(b[2].as_ref())?;
            if axis.is_none() && !keepdims {
                let n = read_vec::<B8>(&x).iter().filter(|v| v.0 != 0).count();
                return Ok(Value::Int(n as i64));
            }
            // Per axis: the sum of the elements' truth values, as int64.
            let flags = crate::arrays::elem::cast(
                &crate::arrays::elem::cast(&x, DType::Bool)?,
                DType::I64,
            )?;
            let r = crate::arrays::reduce::reduce(Reduce::Sum, &flags, axis)?;
            let r = match r {
                crate::arrays::reduce::Reduced::Array(a) => a,
                crate::arrays::reduce::Reduced::Scalar(s) => crate::arrays::elem::scalar_array(s),
            };
            if !keepdims {
                return Ok(Value::Array(Box::new(r)));
            }
            let mut shape: Vec<isize> = x.shape.iter().map(|&n| n as isize).collect();
            match axis {
                Some(k) => shape[crate::arrays::reduce::norm_axis(k, x.ndim())?] = 1,
                None => shape.iter_mut().for_each(|n| *n = 1),
            }
            Ok(Value::Array(Box::new(crate::py::ndarray_shape::reshape(
                &r, &shape,
            )?)))
        },
    );
    m.def(
        Function,
        "unique",
        "ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True, sorted=True",
        "The sorted unique elements of the flattened array, with first indices, inverse and counts as asked.",
        |rt, b| {
            if let Some(r) = crate::py::records::RecordArray::of(arg(&b, 0)) {
                return crate::py::records::unique(r);
            }
            if b[4].as_ref().is_some_and(|v| !v.is_none()) {
                return Err(PyErr::not_implemented(
                    "np.unique with axis= is not supported in nbcuda (only the flattened array)",
                ));
            }
            let mut flag = |i: usize, default: bool| match &b[i] {
                Some(v) => rt.truthy(v),
                None => Ok(default),
            };
            let wants = crate::numpy::sorting::UniqueWants {
                index: flag(1, false)?,
                inverse: flag(2, false)?,
                counts: flag(3, false)?,
                equal_nan: flag(5, true)?,
            };
            crate::numpy::sorting::unique(&to_ndarray(rt, arg(&b, 0))?, &wants)
        },
    );
    m.def(
        Function,
        "isclose",
        "a, b, rtol=1e-05, atol=1e-08, equal_nan=False",
        "Elementwise closeness.",
        |rt, b| {
            let (x, y, r, t, e) = tolerances(rt, &b)?;
            Ok(wrap_result(isclose(&x, &y, r, t, e)?))
        },
    );
    m.def(
        Function,
        "allclose",
        "a, b, rtol=1e-05, atol=1e-08, equal_nan=False",
        "True when all elements are close.",
        |rt, b| {
            let (x, y, r, t, e) = tolerances(rt, &b)?;
            Ok(Value::Bool(
                read_vec::<B8>(&isclose(&x, &y, r, t, e)?)
                    .iter()
                    .all(|v| v.0 != 0),
            ))
        },
    );
    m.def(
        Function,
        "array_equal",
        "a1, a2, equal_nan=False",
        "True when shapes and elements are equal.",
        |rt, b| {
            if let Some((bad, _)) = crate::py::records::mismatches(arg(&b, 0), arg(&b, 1)) {
                return Ok(Value::Bool(bad == 0));
            }
            let x = to_ndarray(rt, arg(&b, 0))?;
            let y = to_ndarray(rt, arg(&b, 1))?;
            if x.shape != y.shape {
                return Ok(Value::Bool(false));
            }
            let r = binary_ufunc(Ufunc2::Cmp(Cmp::Eq), &x, &y, None)?;
            Ok(Value::Bool(read_vec::<B8>(&r).iter().all(|v| v.0 != 0)))
        },
    );
    m.def(
        Function,
        "dot",
        "a, b, out=None",
        "Dot product of 1-D vectors or matrix product of 2-D arrays.",
        |rt, b| {
            let x = to_ndarray(rt, arg(&b, 0))?;
            let y = to_ndarray(rt, arg(&b, 1))?;
            Ok(wrap_result(crate::arrays::linalg::dot(&x, &y)?))
        },
    );
    m.def(
        Function,
        "tile",
        "A, reps",
        "Repeat an array the given number of times along each axis.",
        |rt, b| {
            let x = to_ndarray(rt, arg(&b, 0))?;
            let reps = crate::py::ndarray_shape::shape_arg(arg(&b, 1))?;
            tile(&x, &reps)
        },
    );
    m.def(
        Function,
        "repeat",
        "a, repeats, axis=None",
        "Repeat each element (or each slice along axis) of an array.",
        |rt, b| {
            let x = to_ndarray(rt, arg(&b, 0))?;
            crate::py::ndarray_repeat::repeat_call(rt, &x, &b[1..])
        },
    );
    m.def_shown(
        NumpyC,
        "matmul",
        "x1, x2, /, out=None",
        "matmul(x1, x2, /, out=None, *, casting='same_kind', order='K', dtype=None, subok=True[, signature, axes, axis])",
        "Matrix product, batched over leading dimensions with broadcasting.",
        |rt, b| {
            let x = to_ndarray(rt, arg(&b, 0))?;
            let y = to_ndarray(rt, arg(&b, 1))?;
            Ok(wrap_result(crate::arrays::linalg::matmul(&x, &y)?))
        },
    );
    m.def_shown(
        Clinic,
        "dtype",
        "dtype, align=False, copy=False",
        "dtype(dtype, align=False, copy=False, [metadata])",
        "A data type object.",
        |rt, b| Ok(Value::DType(dtype_from_value(rt, arg(&b, 0))?)),
    );
    m.def(
        Clinic,
        "promote_types",
        "type1, type2, /",
        "The smallest dtype both cast to safely.",
        |rt, b| {
            let x = dtype_from_value(rt, arg(&b, 0))?;
            let y = dtype_from_value(rt, arg(&b, 1))?;
            Ok(Value::DType(promote(x, y)))
        },
    );
    m.def(
        Function,
        "result_type",
        "*arrays_and_dtypes",
        "The dtype that results from applying NumPy's type promotion to the arguments.",
        |rt, b| {
            if b.rest.is_empty() {
                return Err(PyErr::value_error(
                    "at least one array or dtype is required",
                ));
            }
            // NEP 50: arrays, NumPy scalars and dtypes decide; Python numbers are weak and
            // only take part when nothing else does.
            let mut strong: Option<DType> = None;
            for v in b.rest.iter().filter(|v| !is_python_number(v)) {
                let d = match v {
                    Value::Array(x) => x.dtype,
                    Value::Scalar(s) => s.dtype(),
                    v => dtype_from_value(rt, v)?,
                };
                strong = Some(strong.map_or(d, |acc| promote(acc, d)));
            }
            let mut acc = strong;
            for v in b.rest.iter().filter(|v| is_python_number(v)) {
                acc = Some(match acc {
                    Some(d) => promote(d, weak_dtype(v, d)?),
                    None => python_dtype(v).unwrap_or(DType::F64),
                });
            }
            // invariant: `rest` is not empty, so one of the loops set `acc`.
            Ok(Value::DType(acc.expect("non-empty")))
        },
    );
    m.def(
        Function,
        "can_cast",
        "from_, to, casting='safe'",
        "Whether a cast between data types can occur under the casting rule.",
        |rt, b| {
            let from = match arg(&b, 0) {
                Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Complex(..) => {
                    return Err(PyErr::type_error(
                        "can_cast() does not support Python ints, floats, and complex because the result used to depend on the value.\nThis change was part of adopting NEP 50, we may explicitly allow them again in the future.",
                    ))
                }
                Value::Array(x) => x.dtype,
                v => dtype_from_value(rt, v)?,
            };
            let to = dtype_from_value(rt, arg(&b, 1))?;
            let casting = match &b[2] {
                Some(Value::Str(s)) => Casting::parse(&s[..]).ok_or_else(|| {
                    PyErr::value_error(format!(
                        "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got '{s}')"
                    ))
                })?,
                _ => Casting::Safe,
            };
            Ok(Value::Bool(can_cast(from, to, casting)))
        },
    );
    for (name, sig) in [("shape", "a"), ("ndim", "a"), ("size", "a, axis=None")] {
        m.def(
            Function,
            name,
            sig,
            "Array property as a function.",
            move |rt, b| {
                let x = to_ndarray(rt, arg(&b, 0))?;
                if let Some(ax) = b.get(1).filter(|v| !v.is_none()) {
                    let k = crate::arrays::reduce::norm_axis(ax.as_index()? as isize, x.ndim())?;
                    return Ok(Value::Int(x.shape[k] as i64));
                }
                Ok(array_getattr(&x, name, rt)?.unwrap_or(Value::None))
            },
        );
    }
    m.def(
        Function,
        "sort",
        "a, axis=-1, kind=None, order=None, *, stable=None",
        "A sorted copy along `axis` (the last by default; None sorts the flattened array).",
        |rt, b| {
            let x = to_ndarray(rt, arg(&b, 0))?;
            Ok(Value::Array(Box::new(sort_axis(&x, &b[1], false)?)))
        },
    );
    m.def(
        Function,
        "argsort",
        "a, axis=-1, kind=None, order=None, *, stable=None",
        "Indices that sort along `axis` (the last by default; None for the flattened array).",
        |rt, b| {
            let x = to_ndarray(rt, arg(&b, 0))?;
            Ok(Value::Array(Box::new(sort_axis(&x, &b[1], true)?)))
        },
    );
}

/// `np.tile(A, reps)`: `A` and `reps` padded with leading ones to the same length, each
/// axis repeated `reps[i]` times.
pub fn tile(x: &NdArray, reps: &[isize]) -> PyResult<Value> {
    if reps.iter().any(|&r| r < 0) {
        return Err(PyErr::value_error("negative dimensions are not allowed"));
    }
    let d = x.ndim().max(reps.len());
    let mut src_shape = vec![1usize; d - x.ndim()]; // bounded: d = max(ndim, reps.len())
    src_shape.extend(&x.shape);
    let mut r = vec![1usize; d - reps.len()];
    r.extend(reps.iter().map(|&v| v as usize));
    let shape: Vec<usize> = src_shape
        .iter()
        .zip(&r)
        .map(|(n, k)| n.checked_mul(*k))
        .collect::<Option<_>>()
        .ok_or_else(|| PyErr::memory_error("the tiled array would be too large"))?;
    let out = crate::arrays::elem::new_array(&shape, x.dtype)?;
    let src = crate::arrays::elem::contiguous_copy(x)?;
    let isz = x.dtype.itemsize();
    let total: usize = shape.iter().product();
    if total == 0 || isz == 0 {
        return Ok(Value::Array(Box::new(out)));
    }
    let from = src.buf.typed::<u8>(src.offset, src.size() * isz);
    let to = out.buf.typed_mut::<u8>(out.offset, total * isz);
    let mut idx = vec![0usize; d]; // bounded: one entry per dimension
    for k in 0..total {
        if k % 65536 == 0 {
            crate::arrays::interrupt::check()?;
        }
        // Source element: each output index modulo the source's extent on that axis.
        let mut s = 0usize;
        for ax in 0..d {
            s = s * src_shape[ax] + idx[ax] % src_shape[ax].max(1);
        }
        to[k * isz..(k + 1) * isz].copy_from_slice(&from[s * isz..(s + 1) * isz]);
        for ax in (0..d).rev() {
            idx[ax] += 1;
            if idx[ax] < shape[ax] {
                break;
            }
            idx[ax] = 0;
        }
    }
    Ok(Value::Array(Box::new(out)))
}
