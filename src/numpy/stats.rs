//! Order statistics of the `numpy` module: `np.median`, `np.quantile`, `np.percentile` and
//! their NaN-ignoring variants, over the flattened array, one axis or a tuple of axes, with
//! NumPy's 'linear' method (and 'lower', 'higher', 'nearest', 'midpoint').

use crate::arrays::dtype::DType;
use crate::arrays::elem::{cast, from_vec, read_vec};
use crate::arrays::NdArray;
use crate::numpy::funcs::arg;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{to_ndarray, wrap_result};
use crate::py::ndarray_shape::transpose;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

/// The axes `axis=` names (None: all of them), normalised, each once, in the order given.
pub fn axes_of(axis: &Value, ndim: usize) -> PyResult<Option<Vec<usize>>> {
    let given: Vec<isize> = match axis {
        Value::None => return Ok(None),
        Value::Tuple(t) => t
            .iter()
            .map(|v| v.as_index().map(|i| i as isize))
            .collect::<PyResult<_>>()?,
        Value::List(_) => {
            return Err(PyErr::type_error(
                "'list' object cannot be interpreted as an integer",
            ))
        }
        v => vec![v.as_index()? as isize],
    };
    let mut out = Vec::new();
    for ax in given {
        let k = crate::arrays::reduce::norm_axis(ax, ndim)?;
        if out.contains(&k) {
            return Err(PyErr::value_error("repeated axis"));
        }
        out.push(k);
    }
    Ok(Some(out))
}

/// The data as float64 rows of `n` values, one row per output element, with the result's
/// shape with and without `keepdims`.
pub struct Rows {
    pub data: Vec<f64>,
    pub n: usize,
    pub kept: Vec<usize>,
    pub dropped: Vec<usize>,
}

/// Move the reduced `axes` of `x` last (None: all), so each output element reads one
/// contiguous row.
pub fn rows(x: &NdArray, axes: Option<&[usize]>) -> PyResult<Rows> {
    let all: Vec<usize> = (0..x.ndim()).collect();
    let axes = axes.unwrap_or(&all);
    let rest: Vec<usize> = all.iter().copied().filter(|d| !axes.contains(d)).collect();
    let perm: Vec<isize> = rest.iter().chain(axes).map(|&d| d as isize).collect();
    let moved = if x.ndim() == 0 {
        x.clone()
    } else {
        transpose(x, Some(perm))?
    };
    let n = axes.iter().map(|&d| x.shape[d]).product();
    let kept = (0..x.ndim())
        .map(|d| if axes.contains(&d) { 1 } else { x.shape[d] })
        .collect();
    let dropped = rest.iter().map(|&d| x.shape[d]).collect();
    Ok(Rows {
        data: read_vec::<f64>(&moved),
        n,
        kept,
        dropped,
    })
}

/// Rounds to the working precision: float32 data is interpolated in float32 as NumPy
/// does (one f64 operation rounded to f32 equals the f32 operation for + - * /).
#[derive(Clone, Copy)]
struct Prec(bool);

impl Prec {
    fn r(self, v: f64) -> f64 {
        if self.0 {
            v as f32 as f64
        } else {
            v
        }
    }
}

/// NumPy's `_lerp`: from the nearer end, so `t = 1` gives `b` exactly.
fn lerp(p: Prec, a: f64, b: f64, t: f64) -> f64 {
    let d = p.r(b - a);
    if t >= 0.5 {
        p.r(b - p.r(d * p.r(1.0 - t)))
    } else {
        p.r(a + p.r(d * t))
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Method {
    Linear,
    Lower,
    Higher,
    Nearest,
    Midpoint,
}

impl Method {
    fn parse(v: Option<&Value>) -> PyResult<Method> {
        let name = match v {
            None | Some(Value::None) => return Ok(Method::Linear),
            Some(v) => v.as_str().unwrap_or(""),
        };
        Ok(match name {
            "linear" => Method::Linear,
            "lower" => Method::Lower,
            "higher" => Method::Higher,
            "nearest" => Method::Nearest,
            "midpoint" => Method::Midpoint,
            "inverted_cdf" | "averaged_inverted_cdf" | "closest_observation"
            | "interpolated_inverted_cdf" | "hazen" | "weibull" | "median_unbiased"
            | "normal_unbiased" => {
                return Err(PyErr::not_implemented(format!(
                    "method='{name}' is not supported by nbcuda's quantiles"
                )))
            }
            _ => {
                return Err(PyErr::value_error(format!(
                    "'{name}' is not a valid method. Use one of: dict_keys(['inverted_cdf', 'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull', 'linear', 'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest'])"
                )))
            }
        })
    }

    /// Whether the result is one of the data's elements (and keeps the data's dtype).
    fn discrete(self) -> bool {
        matches!(self, Method::Lower | Method::Higher | Method::Nearest)
    }
}

/// NaN sorts last, as in NumPy; -0.0 and 0.0 are equal.
fn nan_last(a: &f64, b: &f64) -> std::cmp::Ordering {
    a.partial_cmp(b)
        .unwrap_or_else(|| a.is_nan().cmp(&b.is_nan()))
}

/// The quantile `q` of one sorted row without NaNs (n >= 1).
fn row_quantile(p: Prec, row: &[f64], q: f64, m: Method) -> f64 {
    let n = row.len();
    let v = p.r((n - 1) as f64 * q);
    let last = (n - 1) as f64;
    let pick = |i: f64| row[i.clamp(0.0, last) as usize];
    match m {
        Method::Lower => pick(v.floor()),
        Method::Higher => pick(v.ceil()),
        // np.around: halves go to the even index.
        Method::Nearest => pick(v.round_ties_even()),
        Method::Linear | Method::Midpoint => {
            if v >= last {
                return row[n - 1];
            }
            let lo = v.floor();
            let mut t = p.r(v - lo);
            if m == Method::Midpoint && t != 0.0 {
                t = 0.5;
            }
            lerp(p, pick(lo), pick(lo + 1.0), t)
        }
    }
}

fn check_real(x: &NdArray) -> PyResult<()> {
    if x.dtype.is_complex() {
        return Err(PyErr::type_error("a must be an array of real numbers"));
    }
    Ok(())
}

/// Sort each row (NaNs last), dropping the NaNs when `skip_nan`; a row that had a NaN and
/// keeps it gives None (its statistic is NaN).
fn sorted_rows(r: &Rows, skip_nan: bool) -> PyResult<Vec<Option<Vec<f64>>>> {
    let stop = crate::arrays::interrupt::flag();
    let count = r
        .data
        .len()
        .checked_div(r.n)
        .unwrap_or_else(|| r.dropped.iter().product());
    let mut out = crate::arrays::alloc::vec_with_capacity(count, "order statistics")?;
    for i in 0..count {
        if crate::arrays::interrupt::pending(&stop) {
            break;
        }
        let row = &r.data[i * r.n..(i + 1) * r.n];
        let mut v: Vec<f64> = if skip_nan {
            row.iter().copied().filter(|v| !v.is_nan()).collect()
        } else {
            row.to_vec()
        };
        if !skip_nan && v.iter().any(|v| v.is_nan()) {
            out.push(None);
            continue;
        }
        v.sort_unstable_by(nan_last);
        out.push(Some(v));
    }
    crate::arrays::interrupt::check()?;
    Ok(out)
}

fn all_nan_warning(rt: &mut Runtime) -> PyResult<()> {
    let origin = format!("Cell In[{}]", rt.execution_count);
    rt.warn("RuntimeWarning", "All-NaN slice encountered", &origin)
}

/// `np.median` / `np.nanmedian`.
fn median(rt: &mut Runtime, b: &[Option<Value>], skip_nan: bool) -> PyResult<Value> {
    let x = to_ndarray(rt, arg(b, 0))?;
    check_real(&x)?;
    let d = if x.dtype.is_float() {
        x.dtype
    } else {
        DType::F64
    };
    let p = Prec(d == DType::F32);
    let axes = axes_of(arg(b, 1), x.ndim())?;
    let r = rows(&x, axes.as_deref())?;
    let mut saw_all_nan = false;
    let vals: Vec<f64> = sorted_rows(&r, skip_nan)?
        .into_iter()
        .map(|row| match row {
            Some(v) if !v.is_empty() => {
                let n = v.len();
                if n % 2 == 1 {
                    v[n / 2]
                } else {
                    p.r(p.r(v[n / 2 - 1] + v[n / 2]) / 2.0)
                }
            }
            Some(_) => {
                saw_all_nan |= skip_nan && r.n > 0;
                f64::NAN
            }
            None => f64::NAN,
        })
        .collect();
    if saw_all_nan {
        all_nan_warning(rt)?;
    }
    let keep = b
        .get(4)
        .and_then(|v| v.as_ref())
        .is_some_and(|v| matches!(v, Value::Bool(true)));
    let shape = if keep { r.kept } else { r.dropped };
    Ok(wrap_result(cast(&from_vec(&shape, &vals)?, d)?))
}

/// `np.quantile` / `np.percentile` (`scale` 1 or 100) and their NaN-ignoring variants:
/// q scalar or array, the result shaped `q.shape + reduced shape`.
fn quantile(rt: &mut Runtime, b: &[Option<Value>], scale: f64, skip_nan: bool) -> PyResult<Value> {
    let x = to_ndarray(rt, arg(b, 0))?;
    check_real(&x)?;
    let qv = arg(b, 1);
    let m = Method::parse(b[5].as_ref())?;
    if b[7].as_ref().is_some_and(|v| !v.is_none()) {
        return Err(PyErr::not_implemented(
            "weights= is not supported by nbcuda's quantiles",
        ));
    }
    let scalar_q = matches!(qv, Value::Int(_) | Value::Float(_) | Value::Bool(_));
    // NumPy computes with the data's float type when q is a Python number, else float64.
    let d = if x.dtype.is_float() && scalar_q {
        x.dtype
    } else {
        DType::F64
    };
    let p = Prec(d == DType::F32);
    let q = to_ndarray(rt, qv)?;
    let qs: Vec<f64> = read_vec::<f64>(&q)
        .iter()
        .map(|v| p.r(p.r(*v) / scale))
        .collect();
    if qs.iter().any(|v| !(0.0..=1.0).contains(v)) {
        let what = if scale == 1.0 {
            "Quantiles must be in the range [0, 1]"
        } else {
            "Percentiles must be in the range [0, 100]"
        };
        return Err(PyErr::value_error(what));
    }
    let out_dtype = if m.discrete() { x.dtype } else { d };
    let axes = axes_of(arg(b, 2), x.ndim())?;
    let r = rows(&x, axes.as_deref())?;
    if r.n == 0 && !skip_nan {
        return Err(PyErr::index_error(
            "index -1 is out of bounds for axis 0 with size 0",
        ));
    }
    let sorted = sorted_rows(&r, skip_nan)?;
    let mut out =
        crate::arrays::alloc::vec_with_capacity(qs.len().saturating_mul(sorted.len()), "quantile")?;
    let mut saw_all_nan = false;
    for &qq in &qs {
        for row in &sorted {
            out.push(match row {
                Some(v) if !v.is_empty() => row_quantile(p, v, qq, m),
                Some(_) => {
                    saw_all_nan = true;
                    f64::NAN
                }
                None => f64::NAN,
            });
        }
        crate::arrays::interrupt::check()?;
    }
    if saw_all_nan {
        all_nan_warning(rt)?;
    }
    let keep = b[6]
        .as_ref()
        .is_some_and(|v| matches!(v, Value::Bool(true)));
    let mut shape = q.shape.clone();
    shape.extend(if keep { &r.kept } else { &r.dropped });
    Ok(wrap_result(cast(&from_vec(&shape, &out)?, out_dtype)?))
}

const QSIG: &str = "a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False, *, weights=None, interpolation=None";

/// Register `median`, `quantile`, `percentile` and their `nan` variants.
pub fn register(m: &Module) {
    for (name, skip) in [("median", false), ("nanmedian", true)] {
        m.def(
            Function,
            name,
            "a, axis=None, out=None, overwrite_input=False, keepdims=False",
            "The median along `axis` (the flattened array by default).",
            move |rt, b| median(rt, &b.slots, skip),
        );
    }
    for (name, scale, skip) in [
        ("quantile", 1.0, false),
        ("percentile", 100.0, false),
        ("nanquantile", 1.0, true),
        ("nanpercentile", 100.0, true),
    ] {
        m.def(
            Function,
            name,
            QSIG,
            "The q-th quantiles along `axis`, NumPy's 'linear' method by default.",
            move |rt, b| quantile(rt, &b.slots, scale, skip),
        );
    }
}
