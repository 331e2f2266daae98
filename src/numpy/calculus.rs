//! Discrete calculus on arrays: `np.diff` (n-th differences with `prepend`/`append`) and
//! `np.gradient` (central differences inside, one-sided of order 1 or 2 at the edges,
//! uniform or coordinate spacing). Both are slices of the input combined by the ufuncs, in
//! NumPy's order of operations, so the rounding is NumPy's.

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::{broadcast_to, cast, copy_into, new_array, scalar_array};
use crate::arrays::operator::{Arith, Cmp};
use crate::arrays::reduce::norm_axis;
use crate::arrays::ufunc::{binary_ufunc, Ufunc2};
use crate::arrays::NdArray;
use crate::numpy::funcs::{arg, concatenate};
use crate::numpy::shape::{axis_tuple, slice_ax};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::to_ndarray;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

fn op(k: Arith, a: &NdArray, b: &NdArray) -> PyResult<NdArray> {
    Ok(binary_ufunc(Ufunc2::Arith(k), a, b, None)?)
}

/// A 0-d array of dtype `d` holding `x`: a Python float meeting an array of `d` (NumPy 2's
/// weak scalars take the array's dtype).
fn weak(x: f64, d: DType) -> NdArray {
    scalar_array(Scalar::F64(x).cast(d))
}

/// `np.diff(a, n, axis, prepend, append)` for `n >= 1`.
pub fn diff(
    a: &NdArray,
    n: usize,
    axis: isize,
    prepend: Option<&NdArray>,
    append: Option<&NdArray>,
) -> PyResult<NdArray> {
    if a.ndim() == 0 {
        return Err(PyErr::value_error(
            "diff requires input that is at least one dimensional",
        ));
    }
    let ax = norm_axis(axis, a.ndim())?;
    // A 0-d prepend/append is one slice along the axis.
    let edge = |e: &NdArray| -> PyResult<NdArray> {
        if e.ndim() == 0 {
            let mut shape = a.shape.clone();
            shape[ax] = 1;
            Ok(broadcast_to(e, &shape)?)
        } else {
            Ok(e.clone())
        }
    };
    let mut parts = Vec::new();
    if let Some(p) = prepend {
        parts.push(edge(p)?);
    }
    parts.push(a.clone());
    if let Some(p) = append {
        parts.push(edge(p)?);
    }
    let mut cur = if parts.len() > 1 {
        concatenate(&parts, Some(ax as isize))?
    } else {
        a.clone()
    };
    // Booleans differ or not: NumPy uses not_equal for them, as subtract refuses bools.
    let k = if cur.dtype == DType::Bool {
        Ufunc2::Cmp(Cmp::Ne)
    } else {
        Ufunc2::Arith(Arith::Sub)
    };
    for _ in 0..n {
        let len = cur.shape[ax];
        if len == 0 {
            break;
        }
        let hi = slice_ax(&cur, ax, 1, len - 1, 1);
        let lo = slice_ax(&cur, ax, 0, len - 1, 1);
        cur = binary_ufunc(k, &hi, &lo, None)?;
        crate::arrays::interrupt::check()?;
    }
    Ok(cur)
}

/// The spacing along one axis: a uniform step, or the steps between coordinates.
enum Spacing {
    Uniform(f64),
    Steps(NdArray),
}

/// The spacing argument for an axis of length `len`: a scalar, or coordinates whose
/// differences are the steps (uniform when they are all equal, as NumPy checks).
fn spacing(rt: &mut Runtime, v: &Value, len: usize) -> PyResult<Spacing> {
    let x = to_ndarray(rt, v)?;
    match x.ndim() {
        0 => Ok(Spacing::Uniform(
            crate::arrays::elem::first_scalar(&cast(&x, DType::F64)?).as_f64(),
        )),
        1 if x.shape[0] == len => {
            let x = if x.dtype.is_integer() || x.dtype == DType::Bool {
                cast(&x, DType::F64)?
            } else {
                x
            };
            let steps = diff(&x, 1, 0, None, None)?;
            let v = crate::arrays::elem::read_vec::<f64>(&cast(&steps, DType::F64)?);
            match v.first() {
                Some(&s0) if v.iter().all(|&s| s == s0) => Ok(Spacing::Uniform(s0)),
                _ => Ok(Spacing::Steps(steps)),
            }
        }
        1 => Err(PyErr::value_error(
            "when 1d, distances must match the length of the corresponding dimension",
        )),
        _ => Err(PyErr::value_error("distances must be either scalars or 1d")),
    }
}

/// One axis of `np.gradient`, written into `out` (of f's shape).
fn gradient_axis(f: &NdArray, out: &NdArray, ax: usize, dx: &Spacing, order: i64) -> PyResult<()> {
    let n = f.shape[ax];
    let s = |start: usize, len: usize| slice_ax(f, ax, start, len, 1);
    let o = |start: usize, len: usize| slice_ax(out, ax, start, len, 1);
    let d = f.dtype;
    // A step taken from the array's steps keeps its own dtype (NumPy's strong scalar).
    let step = |i: usize| -> NdArray {
        match dx {
            Spacing::Uniform(h) => weak(*h, d),
            Spacing::Steps(st) => slice_ax(st, 0, i, 1, 1),
        }
    };
    // Shape of a 1-D coefficient array broadcast along `ax`.
    let along = |c: NdArray| -> NdArray {
        let mut c = c;
        let len = c.shape[0];
        let st = c.strides[0];
        // bounded: one per dimension of an existing array
        c.shape = vec![1; f.ndim()];
        c.strides = vec![0; f.ndim()]; // bounded: as above
        c.shape[ax] = len;
        c.strides[ax] = st;
        c
    };
    match dx {
        Spacing::Uniform(h) => {
            let num = op(Arith::Sub, &s(2, n - 2), &s(0, n - 2))?;
            copy_into(&o(1, n - 2), &op(Arith::Div, &num, &weak(2.0 * h, d))?)?;
        }
        Spacing::Steps(st) => {
            let m = st.shape[0];
            let dx1 = slice_ax(st, 0, 0, m - 1, 1);
            let dx2 = slice_ax(st, 0, 1, m - 1, 1);
            let sum = op(Arith::Add, &dx1, &dx2)?;
            let a = op(
                Arith::Div,
                &op(Arith::Sub, &weak(0.0, st.dtype), &dx2)?,
                &op(Arith::Mul, &dx1, &sum)?,
            )?;
            let b = op(
                Arith::Div,
                &op(Arith::Sub, &dx2, &dx1)?,
                &op(Arith::Mul, &dx1, &dx2)?,
            )?;
            let c = op(Arith::Div, &dx1, &op(Arith::Mul, &dx2, &sum)?)?;
            let t = op(
                Arith::Add,
                &op(
                    Arith::Add,
                    &op(Arith::Mul, &along(a), &s(0, n - 2))?,
                    &op(Arith::Mul, &along(b), &s(1, n - 2))?,
                )?,
                &op(Arith::Mul, &along(c), &s(2, n - 2))?,
            )?;
            copy_into(&o(1, n - 2), &t)?;
        }
    }
    if order == 1 {
        let first = op(Arith::Div, &op(Arith::Sub, &s(1, 1), &s(0, 1))?, &step(0))?;
        copy_into(&o(0, 1), &first)?;
        let last = op(
            Arith::Div,
            &op(Arith::Sub, &s(n - 1, 1), &s(n - 2, 1))?,
            &step(n - 2),
        )?;
        copy_into(&o(n - 1, 1), &last)?;
        return Ok(());
    }
    // Second order one-sided differences: coefficients on three points at each edge.
    let coef = |x: f64| weak(x, d);
    let (c0, c1) = match dx {
        Spacing::Uniform(h) => (
            [coef(-1.5 / h), coef(2.0 / h), coef(-0.5 / h)],
            [coef(0.5 / h), coef(-2.0 / h), coef(1.5 / h)],
        ),
        Spacing::Steps(st) => {
            let v = crate::arrays::elem::read_vec::<f64>(&cast(st, DType::F64)?);
            let sd = st.dtype;
            let c = |x: f64| weak(x, sd);
            let (p, q) = (v[0], v[1]);
            let first = [
                c(-(2.0 * p + q) / (p * (p + q))),
                c((p + q) / (p * q)),
                c(-p / (q * (p + q))),
            ];
            let (p, q) = (v[v.len() - 2], v[v.len() - 1]);
            let last = [
                c(q / (p * (p + q))),
                c(-(q + p) / (p * q)),
                c((2.0 * q + p) / (q * (p + q))),
            ];
            (first, last)
        }
    };
    let combo = |c: &[NdArray; 3], start: usize| -> PyResult<NdArray> {
        let t = op(
            Arith::Add,
            &op(Arith::Mul, &c[0], &s(start, 1))?,
            &op(Arith::Mul, &c[1], &s(start + 1, 1))?,
        )?;
        op(Arith::Add, &t, &op(Arith::Mul, &c[2], &s(start + 2, 1))?)
    };
    copy_into(&o(0, 1), &combo(&c0, 0)?)?;
    copy_into(&o(n - 1, 1), &combo(&c1, n - 3)?)?;
    Ok(())
}

fn gradient(rt: &mut Runtime, b: &crate::py::signature::Bound) -> PyResult<Value> {
    let f = to_ndarray(rt, arg(b, 0))?;
    let nd = f.ndim();
    let axes: Vec<usize> = match b.get(1) {
        None | Some(Value::None) => (0..nd).collect(),
        Some(v) => axis_tuple(rt, v, nd, None)?,
    };
    let order = match b.get(2) {
        None | Some(Value::None) => 1,
        Some(v) => v.as_index()?,
    };
    if !(1..=2).contains(&order) {
        return Err(PyErr::value_error(
            "'edge_order' greater than 2 not supported",
        ));
    }
    let spacings: Vec<Spacing> = match b.rest.len() {
        0 => axes.iter().map(|_| Spacing::Uniform(1.0)).collect(),
        1 if to_ndarray(rt, &b.rest[0])?.ndim() == 0 => {
            let h = spacing(rt, &b.rest[0], 0)?;
            let Spacing::Uniform(h) = h else {
                return Err(PyErr::internal("a scalar spacing"));
            };
            axes.iter().map(|_| Spacing::Uniform(h)).collect()
        }
        k if k == axes.len() => {
            let mut v = Vec::new();
            for (x, &ax) in b.rest.iter().zip(&axes) {
                v.push(spacing(rt, x, f.shape[ax])?);
            }
            v
        }
        _ => return Err(PyErr::type_error("invalid number of arguments")),
    };
    // Integers are differentiated in float64; inexact types keep their own.
    let (f, otype) = if f.dtype.is_float() || f.dtype.is_complex() {
        let d = f.dtype;
        (f, d)
    } else if f.dtype.is_integer() {
        (cast(&f, DType::F64)?, DType::F64)
    } else {
        (f, DType::F64)
    };
    let mut outs = Vec::new();
    for (&ax, dx) in axes.iter().zip(&spacings) {
        if f.shape[ax] < order as usize + 1 {
            return Err(PyErr::value_error(
                "Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) elements are required.",
            ));
        }
        let out = new_array(&f.shape, otype)?;
        gradient_axis(&f, &out, ax, dx, order)?;
        outs.push(Value::Array(Box::new(out)));
    }
    Ok(if outs.len() == 1 {
        outs.remove(0)
    } else {
        Value::tuple(outs)
    })
}

/// Register `diff` and `gradient`.
pub fn register(m: &Module) {
    m.def(
        Function,
        "diff",
        "a, n=1, axis=-1, prepend=<no value>, append=<no value>",
        "The n-th discrete difference along the given axis.",
        |rt, b| {
            let n = match b.get(1) {
                None => 1,
                Some(v) => v.as_index()?,
            };
            if n == 0 {
                return Ok(arg(&b, 0).clone());
            }
            if n < 0 {
                return Err(PyErr::value_error(format!(
                    "order must be non-negative but got {n}"
                )));
            }
            let a = to_ndarray(rt, arg(&b, 0))?;
            let axis = match b.get(2) {
                None => -1,
                Some(v) => v.as_index()? as isize,
            };
            let pre = b.get(3).map(|v| to_ndarray(rt, v)).transpose()?;
            let app = b.get(4).map(|v| to_ndarray(rt, v)).transpose()?;
            let r = diff(&a, n as usize, axis, pre.as_ref(), app.as_ref())?;
            Ok(Value::Array(Box::new(r)))
        },
    );
    m.def(
        Function,
        "gradient",
        "f, *varargs, axis=None, edge_order=1",
        "The gradient of an N-dimensional array by central differences.",
        |rt, b| gradient(rt, &b),
    );
}
