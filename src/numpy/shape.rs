//! Axis rearrangement as NumPy 2 does it: `moveaxis`, `swapaxes`, `expand_dims`,
//! `squeeze`, `roll`, `flip`/`fliplr`/`flipud`, `rot90`, `diagonal`/`trace`/`diag`,
//! `triu`/`tril`, `outer` and `kron`. Everything is a view or a composition of views with
//! the existing copies and ufuncs, so dtypes and element order are NumPy's by construction.

use crate::arrays::dtype::DType;
use crate::arrays::elem::{copy_into, new_array};
use crate::arrays::operator::{Arith, Ufunc1, Unary};
use crate::arrays::reduce::norm_axis;
use crate::arrays::ufunc::{binary_ufunc, Ufunc2};
use crate::arrays::NdArray;
use crate::numpy::funcs::{arg, expand};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::to_ndarray;
use crate::py::ndarray_shape::{ravel, reshape, transpose};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

/// A view of `a` (shares memory, marked as a view).
pub fn view(a: &NdArray) -> NdArray {
    NdArray {
        view: true,
        ..a.clone()
    }
}

/// `a[..., start:start+len*step:step, ...]` on axis `ax` as a view; `start` must be a
/// valid index when `len > 0`.
pub fn slice_ax(a: &NdArray, ax: usize, start: usize, len: usize, step: isize) -> NdArray {
    let mut r = view(a);
    if len > 0 {
        r.offset = (a.offset as isize + start as isize * a.strides[ax]) as usize;
    }
    r.shape[ax] = len;
    r.strides[ax] *= step;
    r
}

/// `a` reversed along axis `ax` (a view).
pub fn flip_ax(a: &NdArray, ax: usize) -> NdArray {
    let n = a.shape[ax];
    slice_ax(a, ax, n.saturating_sub(1), n, -1)
}

/// An axis argument that may be an int or a sequence of ints, normalised against `ndim`;
/// `what` names the argument in NumPy's "repeated axis" message.
pub fn axis_tuple(
    rt: &mut Runtime,
    v: &Value,
    ndim: usize,
    what: Option<&str>,
) -> PyResult<Vec<usize>> {
    let items = match v {
        Value::Tuple(_) | Value::List(_) => rt.iterate(v)?,
        other => vec![other.clone()],
    };
    let mut out: Vec<usize> = Vec::new();
    for x in items {
        let k = norm_axis(x.as_index()? as isize, ndim)?;
        if out.contains(&k) {
            return Err(PyErr::value_error(match what {
                Some(w) => format!("repeated axis in `{w}` argument"),
                None => "repeated axis".to_string(),
            }));
        }
        out.push(k);
    }
    Ok(out)
}

fn int_arg(b: &[Option<Value>], i: usize, default: i64) -> PyResult<i64> {
    match &b[i] {
        None | Some(Value::None) => Ok(default),
        Some(v) => v.as_index(),
    }
}

fn out(a: NdArray) -> Value {
    Value::Array(Box::new(a))
}

/// `np.moveaxis(a, source, destination)`.
pub fn moveaxis(rt: &mut Runtime, a: &NdArray, src: &Value, dst: &Value) -> PyResult<NdArray> {
    let nd = a.ndim();
    let s = axis_tuple(rt, src, nd, Some("source"))?;
    let d = axis_tuple(rt, dst, nd, Some("destination"))?;
    if s.len() != d.len() {
        return Err(PyErr::value_error(
            "`source` and `destination` arguments must have the same number of elements",
        ));
    }
    let mut order: Vec<usize> = (0..nd).filter(|k| !s.contains(k)).collect();
    let mut pairs: Vec<(usize, usize)> = d.into_iter().zip(s).collect();
    pairs.sort();
    for (dest, srcax) in pairs {
        order.insert(dest, srcax);
    }
    transpose(a, Some(order.into_iter().map(|k| k as isize).collect()))
}

/// `np.diagonal(a, offset, axis1, axis2)`: a view with the two axes replaced by a last one.
pub fn diagonal(a: &NdArray, offset: i64, axis1: i64, axis2: i64) -> PyResult<NdArray> {
    let nd = a.ndim();
    if nd < 2 {
        return Err(PyErr::value_error(
            "diag requires an array of at least two dimensions",
        ));
    }
    let i = norm_axis(axis1 as isize, nd)?;
    let j = norm_axis(axis2 as isize, nd)?;
    if i == j {
        return Err(PyErr::value_error("axis1 and axis2 cannot be the same"));
    }
    let (n, m) = (a.shape[i] as i64, a.shape[j] as i64);
    let (r0, c0) = if offset >= 0 {
        (0, offset)
    } else {
        (-offset, 0)
    };
    let len = (n - r0).min(m - c0).max(0) as usize;
    let mut r = view(a);
    if len > 0 {
        r.offset =
            (a.offset as isize + r0 as isize * a.strides[i] + c0 as isize * a.strides[j]) as usize;
    }
    let step = a.strides[i] + a.strides[j];
    let keep: Vec<usize> = (0..nd).filter(|&k| k != i && k != j).collect();
    r.shape = keep.iter().map(|&k| a.shape[k]).collect();
    r.strides = keep.iter().map(|&k| a.strides[k]).collect();
    r.shape.push(len);
    r.strides.push(step);
    Ok(r)
}

/// NumPy's `tri(n, m, k)` as a boolean mask: true where `j - i <= k`.
fn tri_mask(n: usize, m: usize, k: i64) -> PyResult<NdArray> {
    let mask = new_array(&[n, m], DType::Bool)?;
    let data = mask.buf.typed_mut::<u8>(0, n * m);
    for i in 0..n {
        if i % 1024 == 0 {
            crate::arrays::interrupt::check()?;
        }
        // Columns 0..=i+k are true.
        let upto = (i as i64)
            .saturating_add(k)
            .saturating_add(1)
            .clamp(0, m as i64) as usize;
        data[i * m..i * m + upto].fill(1);
    }
    Ok(mask)
}

/// `triu` (zero below diagonal `k`) or `tril` (zero above it), for the last two axes.
fn tri_part(m: &NdArray, k: i64, upper: bool) -> PyResult<NdArray> {
    let (n, c) = match m.shape.as_slice() {
        [] => return Err(PyErr::value_error("input array must be at least 1-d")),
        [c] => (*c, *c),
        s => (s[s.len() - 2], s[s.len() - 1]),
    };
    // Keep where j - i >= k (upper) or j - i <= k (lower).
    let keep = if upper {
        let below = tri_mask(n, c, k.saturating_sub(1))?;
        crate::arrays::ufunc::elementwise_unary(Ufunc1::Op(Unary::Not), &below, None)?
    } else {
        tri_mask(n, c, k)?
    };
    let zero = new_array(&[], m.dtype)?;
    Ok(crate::arrays::select::where3(&keep, m, &zero)?)
}

/// `np.diag(v, k)`: a 1-D input becomes a 2-D array with it on diagonal `k`; a 2-D input
/// gives a copy of that diagonal.
pub fn diag(v: &NdArray, k: i64) -> PyResult<NdArray> {
    match v.ndim() {
        1 => {
            let len = v.shape[0];
            let n = len
                .checked_add(k.unsigned_abs() as usize)
                .ok_or_else(|| PyErr::memory_error("the diagonal array would be too large"))?;
            let res = new_array(&[n, n], v.dtype)?;
            let d = diagonal(&res, k, 0, 1)?;
            copy_into(&d, v)?;
            Ok(res)
        }
        2 => Ok(crate::arrays::elem::contiguous_copy(&diagonal(
            v, k, 0, 1,
        )?)?),
        _ => Err(PyErr::value_error("Input must be 1- or 2-d.")),
    }
}

/// `np.outer(a, b)`: every product of the flattened inputs.
pub fn outer(a: &NdArray, b: &NdArray) -> PyResult<NdArray> {
    let a = expand(&ravel(a)?, 1);
    let b = expand(&ravel(b)?, 0);
    Ok(binary_ufunc(Ufunc2::Arith(Arith::Mul), &a, &b, None)?)
}

/// `np.kron(a, b)`: both brought to the same number of axes, each axis of `a` interleaved
/// with the matching one of `b` in a broadcast product, then merged pairwise.
pub fn kron(a: &NdArray, b: &NdArray) -> PyResult<NdArray> {
    let nd = a.ndim().max(b.ndim());
    let lead = |x: &NdArray| {
        let mut x = x.clone();
        while x.ndim() < nd {
            x = expand(&x, 0);
        }
        x
    };
    let (mut a2, mut b2) = (lead(a), lead(b));
    for k in 0..nd {
        a2 = expand(&a2, 2 * k + 1);
        b2 = expand(&b2, 2 * k);
    }
    let p = binary_ufunc(Ufunc2::Arith(Arith::Mul), &a2, &b2, None)?;
    let shape: Vec<isize> = (0..nd)
        .map(|k| (p.shape[2 * k] * p.shape[2 * k + 1]) as isize)
        .collect();
    reshape(&p, &shape)
}

/// `np.roll` along the given axes (None: the flattened array, reshaped back).
pub fn roll(a: &NdArray, shifts: &[i64], axes: Option<&[usize]>) -> PyResult<NdArray> {
    let Some(axes) = axes else {
        let flat = crate::arrays::elem::contiguous_copy(&ravel(a)?)?;
        let r = roll(&flat, shifts, Some(&[0]))?;
        let shape: Vec<isize> = a.shape.iter().map(|&d| d as isize).collect();
        return reshape(&r, &shape);
    };
    // Shifts on the same axis add up, as NumPy's do.
    let mut total = vec![0i64; a.ndim()]; // bounded: one per dimension
    for (&ax, &s) in axes.iter().zip(shifts) {
        total[ax] = total[ax].wrapping_add(s);
    }
    let mut cur = crate::arrays::elem::contiguous_copy(a)?;
    for (ax, &s) in total.iter().enumerate() {
        let n = a.shape[ax];
        if n == 0 {
            continue;
        }
        let s = s.rem_euclid(n as i64) as usize;
        if s == 0 {
            continue;
        }
        let res = new_array(&cur.shape, cur.dtype)?;
        copy_into(
            &slice_ax(&res, ax, s, n - s, 1),
            &slice_ax(&cur, ax, 0, n - s, 1),
        )?;
        copy_into(
            &slice_ax(&res, ax, 0, s, 1),
            &slice_ax(&cur, ax, n - s, s, 1),
        )?;
        cur = res;
    }
    Ok(cur)
}

/// `np.rot90(m, k, axes)`.
pub fn rot90(rt: &mut Runtime, m: &NdArray, k: i64, axes: &Value) -> PyResult<NdArray> {
    let ax = rt.iterate(axes)?;
    if ax.len() != 2 {
        return Err(PyErr::value_error("len(axes) must be 2."));
    }
    let (a0, a1) = (ax[0].as_index()?, ax[1].as_index()?);
    let nd = m.ndim() as i64;
    if a0 == a1 || (a0 - a1).abs() == nd {
        return Err(PyErr::value_error("Axes must be different."));
    }
    if a0 >= nd || a0 < -nd || a1 >= nd || a1 < -nd {
        return Err(PyErr::value_error(format!(
            "Axes=({a0}, {a1}) out of range for array of ndim={nd}."
        )));
    }
    let (i, j) = (a0.rem_euclid(nd) as usize, a1.rem_euclid(nd) as usize);
    let mut perm: Vec<isize> = (0..nd as isize).collect();
    perm.swap(i, j);
    Ok(match k.rem_euclid(4) {
        0 => view(m),
        2 => flip_ax(&flip_ax(m, i), j),
        1 => transpose(&flip_ax(m, j), Some(perm))?,
        _ => flip_ax(&transpose(m, Some(perm))?, j),
    })
}

fn one_array(rt: &mut Runtime, b: &[Option<Value>]) -> PyResult<NdArray> {
    to_ndarray(rt, arg(b, 0))
}

/// Register the axis-rearranging functions.
pub fn register(m: &Module) {
    m.def(
        Function,
        "moveaxis",
        "a, source, destination",
        "Move axes of an array to new positions.",
        |rt, b| {
            let a = one_array(rt, &b)?;
            Ok(out(moveaxis(rt, &a, arg(&b, 1), arg(&b, 2))?))
        },
    );
    m.def(
        Function,
        "swapaxes",
        "a, axis1, axis2",
        "Interchange two axes of an array.",
        |rt, b| {
            let a = one_array(rt, &b)?;
            let nd = a.ndim();
            let i = norm_axis(arg(&b, 1).as_index()? as isize, nd)?;
            let j = norm_axis(arg(&b, 2).as_index()? as isize, nd)?;
            let mut p: Vec<isize> = (0..nd as isize).collect();
            p.swap(i, j);
            Ok(out(transpose(&a, Some(p))?))
        },
    );
    m.def(
        Function,
        "expand_dims",
        "a, axis",
        "Insert new axes of length one at the given positions.",
        |rt, b| {
            let a = one_array(rt, &b)?;
            let n = match arg(&b, 1) {
                v @ (Value::Tuple(_) | Value::List(_)) => rt.iterate(v)?.len(),
                _ => 1,
            };
            let mut axes = axis_tuple(rt, arg(&b, 1), a.ndim() + n, None)?;
            axes.sort();
            let mut r = view(&a);
            for k in axes {
                r = expand(&r, k);
            }
            Ok(out(r))
        },
    );
    m.def(
        Function,
        "squeeze",
        "a, axis=None",
        "Remove axes of length one.",
        |rt, b| {
            let a = one_array(rt, &b)?;
            let axes = match &b[1] {
                None | Some(Value::None) => (0..a.ndim()).filter(|&k| a.shape[k] == 1).collect(),
                Some(v) => axis_tuple(rt, v, a.ndim(), None)?,
            };
            if axes.iter().any(|&k| a.shape[k] != 1) {
                return Err(PyErr::value_error(
                    "cannot select an axis to squeeze out which has size not equal to one",
                ));
            }
            let keep: Vec<usize> = (0..a.ndim()).filter(|k| !axes.contains(k)).collect();
            let mut r = view(&a);
            r.shape = keep.iter().map(|&k| a.shape[k]).collect();
            r.strides = keep.iter().map(|&k| a.strides[k]).collect();
            Ok(out(r))
        },
    );
    m.def(
        Function,
        "roll",
        "a, shift, axis=None",
        "Roll array elements along the given axes.",
        |rt, b| {
            let a = one_array(rt, &b)?;
            let shift = to_ndarray(rt, arg(&b, 1))?;
            let shift = crate::arrays::elem::read_vec::<i64>(&crate::arrays::elem::cast(
                &shift,
                DType::I64,
            )?);
            let axes = match &b[2] {
                None | Some(Value::None) => None,
                Some(v) => {
                    let items = match v {
                        Value::Tuple(_) | Value::List(_) => rt.iterate(v)?,
                        other => vec![other.clone()],
                    };
                    let mut ks = Vec::new();
                    for x in items {
                        ks.push(norm_axis(x.as_index()? as isize, a.ndim())?);
                    }
                    Some(ks)
                }
            };
            if axes.is_none() && shift.len() != 1 {
                // NumPy rolls the flattened array by each shift in turn.
                let total = shift.iter().fold(0i64, |s, &x| s.wrapping_add(x));
                return Ok(out(roll(&a, &[total], None)?));
            }
            let (shifts, axes) = match axes {
                None => (shift, None),
                Some(ks) => {
                    let n = ks.len().max(shift.len());
                    if (ks.len() != n && ks.len() != 1) || (shift.len() != n && shift.len() != 1) {
                        return Err(PyErr::value_error(
                            "'shift' and 'axis' should be scalars or 1D sequences",
                        ));
                    }
                    let sh = (0..n).map(|i| shift[i % shift.len()]).collect::<Vec<_>>();
                    let ax = (0..n).map(|i| ks[i % ks.len()]).collect::<Vec<_>>();
                    (sh, Some(ax))
                }
            };
            Ok(out(roll(&a, &shifts, axes.as_deref())?))
        },
    );
    m.def(
        Function,
        "flip",
        "m, axis=None",
        "Reverse the order of elements along the given axes.",
        |rt, b| {
            let a = one_array(rt, &b)?;
            let axes = match &b[1] {
                None | Some(Value::None) => (0..a.ndim()).collect(),
                Some(v) => axis_tuple(rt, v, a.ndim(), None)?,
            };
            let mut r = view(&a);
            for k in axes {
                r = flip_ax(&r, k);
            }
            Ok(out(r))
        },
    );
    for (name, min, ax) in [("fliplr", 2usize, 1usize), ("flipud", 1, 0)] {
        m.def(
            Function,
            name,
            "m",
            "Reverse the order of elements along one axis.",
            move |rt, b| {
                let a = one_array(rt, &b)?;
                if a.ndim() < min {
                    return Err(PyErr::value_error(format!("Input must be >= {min}-d.")));
                }
                Ok(out(flip_ax(&a, ax)))
            },
        );
    }
    m.def_shown(
        Function,
        "rot90",
        "m, k=1, axes=<(0 1)>",
        "rot90(m, k=1, axes=(0, 1))",
        "Rotate an array by 90 degrees in the plane of two axes.",
        |rt, b| {
            let a = one_array(rt, &b)?;
            let k = int_arg(&b, 1, 1)?;
            let axes = b[2]
                .clone()
                .unwrap_or_else(|| Value::tuple(vec![Value::Int(0), Value::Int(1)]));
            Ok(out(rot90(rt, &a, k, &axes)?))
        },
    );
    m.def(
        Function,
        "diagonal",
        "a, offset=0, axis1=0, axis2=1",
        "Specified diagonals.",
        |rt, b| {
            let a = one_array(rt, &b)?;
            let r = diagonal(
                &a,
                int_arg(&b, 1, 0)?,
                int_arg(&b, 2, 0)?,
                int_arg(&b, 3, 1)?,
            )?;
            Ok(out(r))
        },
    );
    m.def(
        Function,
        "trace",
        "a, offset=0, axis1=0, axis2=1, dtype=None, out=None",
        "Sum along diagonals of the array.",
        |rt, b| {
            let a = one_array(rt, &b)?;
            let d = diagonal(
                &a,
                int_arg(&b, 1, 0)?,
                int_arg(&b, 2, 0)?,
                int_arg(&b, 3, 1)?,
            )?;
            let sum = crate::numpy::function("sum")
                .ok_or_else(|| PyErr::internal("np.sum is missing"))?;
            let mut call =
                crate::py::value::Args::new(vec![Value::Array(Box::new(d)), Value::Int(-1)]);
            for (i, key) in [(4, "dtype"), (5, "out")] {
                if let Some(v) = b[i].clone().filter(|v| !v.is_none()) {
                    call.kw.push((key.into(), v));
                }
            }
            rt.call(&sum, call)
        },
    );
    m.def(
        Function,
        "diag",
        "v, k=0",
        "Extract a diagonal or construct a diagonal array.",
        |rt, b| {
            let a = one_array(rt, &b)?;
            Ok(out(diag(&a, int_arg(&b, 1, 0)?)?))
        },
    );
    for (name, upper) in [("triu", true), ("tril", false)] {
        m.def(
            Function,
            name,
            "m, k=0",
            "Upper or lower triangle of an array.",
            move |rt, b| {
                let a = one_array(rt, &b)?;
                Ok(out(tri_part(&a, int_arg(&b, 1, 0)?, upper)?))
            },
        );
    }
    m.def(
        Function,
        "outer",
        "a, b, out=None",
        "Outer product of two vectors.",
        |rt, b| {
            let x = one_array(rt, &b)?;
            let y = to_ndarray(rt, arg(&b, 1))?;
            Ok(out(outer(&x, &y)?))
        },
    );
    m.def(
        Function,
        "kron",
        "a, b",
        "Kronecker product of two arrays.",
        |rt, b| {
            let x = one_array(rt, &b)?;
            let y = to_ndarray(rt, arg(&b, 1))?;
            let r = kron(&x, &y)?;
            Ok(crate::py::ndarray_attrs::wrap_result(r))
        },
    );
}
