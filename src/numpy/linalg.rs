//! `np.linalg`: `norm`, `det`, `inv` and `solve` on float64, by LU factorisation with
//! partial pivoting in LAPACK's order of operations (the first largest pivot, rows scaled
//! by the pivot's reciprocal, unit-lower then upper triangular solves), so small systems
//! print what NumPy prints. `det` is `sign * exp(sum(log|u_ii|))` as NumPy computes it
//! (hence `det([[4, 7], [2, 6]])` is 10.000000000000002). Stacked (3-D and higher) inputs
//! and the matrix 2-norm/nuclear norm are not supported.
//! A singular matrix raises `LinAlgError('Singular matrix')`; the class is installed by
//! the engine (exception classes are interpreter objects).

use crate::numpy::funcs::arg;
use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::from_vec;
use crate::arrays::NdArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::to_ndarray;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

fn linalg_error(msg: &str) -> PyErr {
    PyErr::new("LinAlgError", msg)
}

/// A square float64 matrix in row-major order, with its order.
fn square(rt: &mut Runtime, v: &Value) -> PyResult<(Vec<f64>, usize)> {
    let a = to_ndarray(rt, v)?;
    if a.ndim() < 2 {
        return Err(linalg_error(&format!(
            "{}-dimensional array given. Array must be at least two-dimensional",
            a.ndim()
        )));
    }
    if a.ndim() > 2 {
        return Err(PyErr::not_implemented(
            "nbcuda's np.linalg takes one 2-D matrix, not a stack of them",
        ));
    }
    if a.shape[0] != a.shape[1] {
        return Err(linalg_error(
            "Last 2 dimensions of the array must be square",
        ));
    }
    Ok((a.to_f64_vec(), a.shape[0]))
}

/// Products are fused multiply-adds, as OpenBLAS's kernels compute them.
/// In-place LU factorisation, column by column as OpenBLAS's unblocked `getf2` does it:
/// the part above the diagonal by forward substitution (sequential subtraction), the part
/// below as one matrix-vector product subtracted whole, then the first largest pivot and
/// a scaling by its reciprocal. Returns the permutation's sign and the pivot rows, or None
/// when a pivot is exactly zero (LAPACK's info > 0).
fn lu(a: &mut [f64], n: usize) -> Option<(f64, Vec<usize>)> {
    let mut sign = 1.0;
    let mut piv = Vec::with_capacity(n); // bounded: one per row of an existing matrix
    for j in 0..n {
        for i in 1..j {
            for k in 0..i {
                a[i * n + j] = (-a[i * n + k]).mul_add(a[k * n + j], a[i * n + j]);
            }
        }
        for i in j..n {
            let s = (0..j).fold(0.0, |s, k| a[i * n + k].mul_add(a[k * n + j], s));
            a[i * n + j] -= s;
        }
        let mut p = j;
        for i in j + 1..n {
            if a[i * n + j].abs() > a[p * n + j].abs() {
                p = i;
            }
        }
        piv.push(p);
        if a[p * n + j] == 0.0 {
            return None;
        }
        if p != j {
            for c in 0..n {
                a.swap(j * n + c, p * n + c);
            }
            sign = -sign;
        }
        let r = 1.0 / a[j * n + j];
        for i in j + 1..n {
            a[i * n + j] *= r;
        }
    }
    Some((sign, piv))
}

/// Solve `LU x = P b` for the columns of `b` (row-major, `m` columns), in place.
fn lu_solve(lu: &[f64], n: usize, piv: &[usize], b: &mut [f64], m: usize) {
    for (k, &p) in piv.iter().enumerate() {
        if p != k {
            for j in 0..m {
                b.swap(k * m + j, p * m + j);
            }
        }
    }
    for j in 0..m {
        for k in 0..n {
            let x = b[k * m + j];
            for i in k + 1..n {
                b[i * m + j] = (-x).mul_add(lu[i * n + k], b[i * m + j]);
            }
        }
        for k in (0..n).rev() {
            // OpenBLAS's triangular solves multiply by the diagonal's reciprocal.
            b[k * m + j] *= 1.0 / lu[k * n + k];
            let x = b[k * m + j];
            for i in 0..k {
                b[i * m + j] = (-x).mul_add(lu[i * n + k], b[i * m + j]);
            }
        }
    }
}

fn array(shape: &[usize], data: &[f64]) -> PyResult<Value> {
    Ok(Value::Array(Box::new(from_vec(shape, data)?)))
}

fn f64_scalar(x: f64) -> Value {
    Value::Scalar(Scalar::F64(x))
}

fn det(rt: &mut Runtime, v: &Value) -> PyResult<Value> {
    let (mut a, n) = square(rt, v)?;
    let Some((sign, _)) = lu(&mut a, n) else {
        return Ok(f64_scalar(0.0));
    };
    let mut sign = sign;
    let mut logdet = 0.0;
    for k in 0..n {
        let d = a[k * n + k];
        if d < 0.0 {
            sign = -sign;
        }
        logdet += d.abs().ln();
    }
    Ok(f64_scalar(sign * logdet.exp()))
}

fn solve(rt: &mut Runtime, av: &Value, bv: &Value) -> PyResult<Value> {
    let (mut a, n) = square(rt, av)?;
    let b = to_ndarray(rt, bv)?;
    let m = match b.ndim() {
        1 if b.shape[0] == n => 1,
        2 if b.shape[0] == n => b.shape[1],
        _ => {
            return Err(PyErr::value_error(format!(
                "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (m,m),(m,n)->(m,n) (size {} is different from {n})",
                b.shape.first().copied().unwrap_or(0)
            )))
        }
    };
    let (_, piv) = lu(&mut a, n).ok_or_else(|| linalg_error("Singular matrix"))?;
    let mut x = b.to_f64_vec();
    lu_solve(&a, n, &piv, &mut x, m);
    array(&b.shape, &x)
}

fn inv(rt: &mut Runtime, v: &Value) -> PyResult<Value> {
    let (mut a, n) = square(rt, v)?;
    let (_, piv) = lu(&mut a, n).ok_or_else(|| linalg_error("Singular matrix"))?;
    let mut x = vec![0.0; n * n]; // bounded: the size of the given matrix
    for i in 0..n {
        x[i * n + i] = 1.0;
    }
    lu_solve(&a, n, &piv, &mut x, n);
    array(&[n, n], &x)
}

/// The vector norm of `ord` over `xs`.
fn vector_norm(xs: &[f64], ord: Option<f64>) -> f64 {
    match ord {
        None => xs.iter().map(|x| x * x).sum::<f64>().sqrt(),
        Some(o) if o == f64::INFINITY => xs.iter().fold(0.0, |m, x| m.max(x.abs())),
        Some(o) if o == f64::NEG_INFINITY => xs.iter().fold(f64::INFINITY, |m, x| m.min(x.abs())),
        Some(0.0) => xs.iter().filter(|x| **x != 0.0).count() as f64,
        Some(1.0) => xs.iter().map(|x| x.abs()).sum(),
        Some(2.0) => xs.iter().map(|x| x * x).sum::<f64>().sqrt(),
        Some(o) => xs
            .iter()
            .map(|x| x.abs().powf(o))
            .sum::<f64>()
            .powf(1.0 / o),
    }
}

fn ord_of(v: &Option<Value>) -> PyResult<Option<OrdArg>> {
    Ok(match v {
        None | Some(Value::None) => None,
        Some(Value::Str(s)) if &**s == "fro" => Some(OrdArg::Fro),
        Some(Value::Str(s)) if &**s == "nuc" => Some(OrdArg::Nuc),
        Some(Value::Int(i)) => Some(OrdArg::P(*i as f64)),
        Some(Value::Float(f)) => Some(OrdArg::P(*f)),
        Some(Value::Scalar(s)) => Some(OrdArg::P(s.as_f64())),
        Some(_) => return Err(PyErr::value_error("Invalid norm order for vectors.")),
    })
}

enum OrdArg {
    Fro,
    Nuc,
    P(f64),
}

fn norm(
    rt: &mut Runtime,
    xv: &Value,
    ord: &Option<Value>,
    axis: &Option<Value>,
) -> PyResult<Value> {
    let x = to_ndarray(rt, xv)?;
    let x = if x.dtype == DType::F64 {
        x
    } else {
        crate::arrays::elem::cast(&x, DType::F64)?
    };
    let ord = ord_of(ord)?;
    let axis = match axis {
        None | Some(Value::None) => None,
        Some(v) => Some(v.as_index().map_err(|_| {
            PyErr::not_implemented("nbcuda's np.linalg.norm takes one integer axis")
        })?),
    };
    let data = x.to_f64_vec();
    match (axis, x.ndim()) {
        (None, 2) => matrix_norm(&x, &data, ord),
        (None, _) => match ord {
            None => Ok(f64_scalar(vector_norm(&data, None))),
            Some(OrdArg::P(p)) if x.ndim() == 1 => Ok(f64_scalar(vector_norm(&data, Some(p)))),
            _ => Err(PyErr::value_error("Improper number of dimensions to norm.")),
        },
        (Some(ax), nd) => {
            let p = match ord {
                None => None,
                Some(OrdArg::P(p)) => Some(p),
                Some(_) => return Err(PyErr::value_error("Invalid norm order for vectors.")),
            };
            if nd == 1 && (ax == 0 || ax == -1) {
                return Ok(f64_scalar(vector_norm(&data, p)));
            }
            if nd != 2 || !(-2..=1).contains(&ax) {
                return Err(PyErr::not_implemented(
                    "nbcuda's np.linalg.norm with axis= takes 1-D or 2-D arrays",
                ));
            }
            let (r, c) = (x.shape[0], x.shape[1]);
            let along_rows = ax == 0 || ax == -2;
            let out: Vec<f64> = if along_rows {
                (0..c)
                    .map(|j| vector_norm(&(0..r).map(|i| data[i * c + j]).collect::<Vec<_>>(), p))
                    .collect()
            } else {
                (0..r)
                    .map(|i| vector_norm(&data[i * c..(i + 1) * c], p))
                    .collect()
            };
            array(&[out.len()], &out)
        }
    }
}

fn matrix_norm(x: &NdArray, data: &[f64], ord: Option<OrdArg>) -> PyResult<Value> {
    let (r, c) = (x.shape[0], x.shape[1]);
    let col_sums = || (0..c).map(|j| (0..r).map(|i| data[i * c + j].abs()).sum::<f64>());
    let row_sums = || {
        (0..r).map(|i| {
            data[i * c..(i + 1) * c]
                .iter()
                .map(|v| v.abs())
                .sum::<f64>()
        })
    };
    let v = match ord {
        None | Some(OrdArg::Fro) => vector_norm(data, None),
        Some(OrdArg::P(1.0)) => col_sums().fold(0.0, f64::max),
        Some(OrdArg::P(-1.0)) => col_sums().fold(f64::INFINITY, f64::min),
        Some(OrdArg::P(p)) if p == f64::INFINITY => row_sums().fold(0.0, f64::max),
        Some(OrdArg::P(p)) if p == f64::NEG_INFINITY => row_sums().fold(f64::INFINITY, f64::min),
        Some(OrdArg::P(p)) if p == 2.0 || p == -2.0 => return Err(PyErr::not_implemented(
            "the matrix 2-norm needs singular values, which nbcuda's np.linalg does not compute",
        )),
        Some(OrdArg::Nuc) => {
            return Err(PyErr::not_implemented(
                "the nuclear norm needs singular values, which nbcuda's np.linalg does not compute",
            ))
        }
        Some(OrdArg::P(_)) => return Err(PyErr::value_error("Invalid norm order for matrices.")),
    };
    Ok(f64_scalar(v))
}

/// The `numpy.linalg` module (without its exception class, which the engine adds).
pub fn module() -> Rc<Module> {
    let m = Module::new("numpy.linalg", "Linear algebra: norm, det, inv, solve.");
    m.def(
        Function,
        "norm",
        "x, ord=None, axis=None, keepdims=False",
        "Matrix or vector norm.",
        |rt, b| {
            if matches!(b[3], Some(Value::Bool(true))) {
                return Err(PyErr::not_implemented(
                    "nbcuda's np.linalg.norm does not take keepdims=True",
                ));
            }
            norm(rt, arg(&b, 0), &b[1], &b[2])
        },
    );
    m.def(
        Function,
        "det",
        "a",
        "Determinant of a square matrix.",
        |rt, b| det(rt, arg(&b, 0)),
    );
    m.def(
        Function,
        "inv",
        "a",
        "The inverse of a square matrix.",
        |rt, b| inv(rt, arg(&b, 0)),
    );
    m.def(
        Function,
        "solve",
        "a, b",
        "Solve the linear system a @ x = b.",
        |rt, b| solve(rt, arg(&b, 0), arg(&b, 1)),
    );
    Rc::new(m)
}
