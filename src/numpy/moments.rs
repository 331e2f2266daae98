//! Weighted averages and second moments: `np.average`, `np.cov` and `np.corrcoef`, in
//! NumPy's order of operations (means through the ordinary reductions, the covariance as a
//! matrix product scaled by the reciprocal of the degrees of freedom).

use crate::arrays::dtype::DType;
use crate::arrays::elem::{cast, contiguous_copy, from_vec, read_vec};
use crate::arrays::operator::{BinOp, Reduce};
use crate::arrays::reduce::{reduce, Reduced};
use crate::arrays::NdArray;
use crate::numpy::funcs::arg;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{binary_op, to_ndarray, wrap_result};
use crate::py::ndarray_methods::array_getattr;
use crate::py::ndarray_shape::{reshape, transpose};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Value};

fn method(rt: &mut Runtime, x: &NdArray, name: &str, kw: Vec<(&str, Value)>) -> PyResult<Value> {
    let f = array_getattr(x, name, rt)?.ok_or_else(|| PyErr::internal("missing method"))?;
    let mut args = Args::new(Vec::new());
    for (k, v) in kw {
        args = args.with_kw(k, v);
    }
    rt.call(&f, args)
}

fn arr(rt: &mut Runtime, v: Value) -> PyResult<NdArray> {
    to_ndarray(rt, &v)
}

fn op(rt: &mut Runtime, o: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
    binary_op(o, a, b, rt)?.ok_or_else(|| PyErr::internal("array operation"))
}

/// `np.average(a, axis, weights, returned, keepdims)`.
fn average(rt: &mut Runtime, b: &[Option<Value>]) -> PyResult<Value> {
    let a = to_ndarray(rt, arg(b, 0))?;
    let axis = arg(b, 1).clone();
    let returned = rt.truthy(arg(b, 3))?;
    let keep = b[4].clone().unwrap_or(Value::Bool(false));
    let kw = |_: Option<DType>| vec![("axis", axis.clone()), ("keepdims", keep.clone())];
    let (avg, scl) = match arg(b, 2) {
        Value::None => {
            let avg = method(rt, &a, "mean", kw(None))?;
            let avg_a = arr(rt, avg.clone())?;
            let ratio = a.size() as f64 / avg_a.size().max(1) as f64;
            let ones = crate::arrays::alloc::vec_filled(ratio, avg_a.size(), "average")?;
            let scl = cast(&from_vec(&avg_a.shape, &ones)?, avg_a.dtype)?;
            (avg, wrap_result(scl))
        }
        w => {
            let w = to_ndarray(rt, w)?;
            let rd = if a.dtype.is_integer() || a.dtype == DType::Bool {
                crate::arrays::promote::promote(
                    crate::arrays::promote::promote(a.dtype, w.dtype),
                    DType::F64,
                )
            } else {
                crate::arrays::promote::promote(a.dtype, w.dtype)
            };
            let w = if w.shape == a.shape {
                w
            } else {
                let k = match &axis {
                    Value::None => {
                        return Err(PyErr::type_error(
                            "Axis must be specified when shapes of a and weights differ.",
                        ))
                    }
                    v => crate::arrays::reduce::norm_axis(v.as_index()? as isize, a.ndim())?,
                };
                if w.ndim() != 1 || w.shape[0] != a.shape[k] {
                    return Err(PyErr::value_error(
                        "Shape of weights must be consistent with shape of a along specified axis.",
                    ));
                }
                let shape: Vec<isize> = (0..a.ndim())
                    .map(|d| if d == k { w.shape[0] as isize } else { 1 })
                    .collect();
                reshape(&w, &shape)?
            };
            let wv = Value::Array(Box::new(cast(&w, rd)?));
            let scl = method(rt, &cast(&w, rd)?, "sum", kw(None))?;
            if read_vec::<f64>(&arr(rt, scl.clone())?).contains(&0.0) {
                return Err(PyErr::zero_division(
                    "Weights sum to zero, can't be normalized",
                ));
            }
            let prod = op(rt, BinOp::Mul, &Value::Array(Box::new(cast(&a, rd)?)), &wv)?;
            let prod = arr(rt, prod)?;
            let num = method(rt, &prod, "sum", kw(None))?;
            (op(rt, BinOp::Div, &num, &scl)?, scl)
        }
    };
    if !returned {
        return Ok(avg);
    }
    let avg_a = arr(rt, avg.clone())?;
    let scl_a = arr(rt, scl.clone())?;
    let scl = if scl_a.shape != avg_a.shape {
        let s = crate::arrays::elem::broadcast_to(&scl_a, &avg_a.shape)?;
        wrap_result(contiguous_copy(&s)?)
    } else {
        scl
    };
    Ok(Value::tuple(vec![avg, scl]))
}

/// One variable per row, as float64 (`ndmin=2`, transposed when `rowvar` is false).
fn variables(rt: &mut Runtime, v: &Value, rowvar: bool) -> PyResult<NdArray> {
    let x = to_ndarray(rt, v)?;
    if x.dtype.is_complex() {
        return Err(PyErr::not_implemented(
            "np.cov of complex data is not supported by nbcuda",
        ));
    }
    if x.ndim() > 2 {
        return Err(PyErr::value_error("m has more than 2 dimensions"));
    }
    let x = cast(&x, DType::F64)?;
    let x = match x.ndim() {
        0 => reshape(&x, &[1, 1])?,
        1 => reshape(&x, &[1, x.shape[0] as isize])?,
        _ => x,
    };
    Ok(if !rowvar && x.shape[0] != 1 {
        contiguous_copy(&transpose(&x, None)?)?
    } else {
        contiguous_copy(&x)?
    })
}

/// `np.cov` without frequency or analytic weights.
fn cov(rt: &mut Runtime, b: &[Option<Value>]) -> PyResult<NdArray> {
    if b[5].as_ref().is_some_and(|v| !v.is_none()) || b[6].as_ref().is_some_and(|v| !v.is_none()) {
        return Err(PyErr::not_implemented(
            "fweights= and aweights= are not supported by nbcuda's np.cov",
        ));
    }
    let rowvar = rt.truthy(&b[2].clone().unwrap_or(Value::Bool(true)))?;
    let mut x = variables(rt, arg(b, 0), rowvar)?;
    if !arg(b, 1).is_none() {
        let y = variables(rt, arg(b, 1), rowvar)?;
        x = crate::numpy::funcs::concatenate(&[x, y], Some(0))?;
    }
    let ddof = match &b[4] {
        Some(v) if !v.is_none() => v.as_index()? as f64,
        _ => {
            if rt.truthy(arg(b, 3))? {
                0.0
            } else {
                1.0
            }
        }
    };
    let (nvar, nobs) = (x.shape[0], x.shape[1]);
    let means = match reduce(Reduce::Mean, &x, Some(1))? {
        Reduced::Array(m) => read_vec::<f64>(&m),
        Reduced::Scalar(s) => vec![s.as_f64()],
    };
    let mut fact = nobs as f64 - ddof;
    if fact <= 0.0 {
        let origin = format!("Cell In[{}]", rt.execution_count);
        rt.warn(
            "RuntimeWarning",
            "Degrees of freedom <= 0 for slice",
            &origin,
        )?;
        fact = 0.0;
    }
    let data = read_vec::<f64>(&x);
    let centred: Vec<f64> = data
        .iter()
        .enumerate()
        .map(|(i, v)| v - means[i / nobs.max(1)])
        .collect();
    let xc = from_vec(&[nvar, nobs], &centred)?;
    let c = crate::arrays::linalg::dot(&xc, &transpose(&xc, None)?)?;
    let scale = 1.0 / fact;
    let scaled: Vec<f64> = read_vec::<f64>(&c).iter().map(|v| v * scale).collect();
    let shape: Vec<usize> = c.shape.iter().copied().filter(|&d| d != 1).collect();
    Ok(from_vec(&shape, &scaled)?)
}

/// `np.corrcoef`: the covariance normalised by the standard deviations, clipped to [-1, 1].
fn corrcoef(rt: &mut Runtime, b: &[Option<Value>]) -> PyResult<Value> {
    let full = [
        b[0].clone(),
        b[1].clone(),
        b[2].clone(),
        Some(Value::Bool(false)),
        None,
        None,
        None,
    ];
    let c = cov(rt, &full)?;
    if c.ndim() == 0 {
        let v = read_vec::<f64>(&c)[0];
        // NumPy's `c / c`: 1.0, or NaN for a constant variable.
        let one = if v == 0.0 || !v.is_finite() {
            f64::NAN
        } else {
            1.0
        };
        return Ok(Value::Scalar(crate::arrays::dtype::Scalar::F64(one)));
    }
    let n = c.shape[0];
    let vals = read_vec::<f64>(&c);
    let sd: Vec<f64> = (0..n).map(|i| vals[i * n + i].sqrt()).collect();
    let out: Vec<f64> = vals
        .iter()
        .enumerate()
        .map(|(k, v)| (v / sd[k / n] / sd[k % n]).clamp(-1.0, 1.0))
        .collect();
    Ok(Value::Array(Box::new(from_vec(&c.shape, &out)?)))
}

/// Register `average`, `cov` and `corrcoef`.
pub fn register(m: &Module) {
    m.def(
        Function,
        "average",
        "a, axis=None, weights=None, returned=False, *, keepdims=False",
        "The (weighted) average along `axis`, with the sum of weights when `returned`.",
        |rt, b| average(rt, &b.slots),
    );
    m.def(
        Function,
        "cov",
        "m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None",
        "The covariance matrix of the variables in the rows (columns when not `rowvar`).",
        |rt, b| Ok(Value::Array(Box::new(cov(rt, &b.slots)?))),
    );
    m.def(
        Function,
        "corrcoef",
        "x, y=None, rowvar=True, *, dtype=None",
        "Pearson correlation coefficients.",
        |rt, b| corrcoef(rt, &b.slots),
    );
}
