//! NumPy's NaN-ignoring reductions (`np.nansum`, `np.nanprod`, `np.nancumsum`,
//! `np.nancumprod`, `np.nanmean`, `np.nanvar`, `np.nanstd`, `np.nanargmin`, `np.nanargmax`)
//! as NumPy writes them: the NaNs replaced by a neutral value, then the ordinary reduction,
//! so sums keep NumPy's summation order and dtypes.

use crate::arrays::elem::{cast, from_vec, read_vec};
use crate::arrays::operator::BinOp;
use crate::arrays::NdArray;
use crate::numpy::funcs::arg;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{binary_op, to_ndarray, wrap_result};
use crate::py::ndarray_methods::array_getattr;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Value};

/// `x` with its NaNs replaced by `fill`, and where the NaNs were; None for dtypes that
/// hold no NaN (NumPy then runs the plain reduction).
fn replace_nan(x: &NdArray, fill: f64) -> PyResult<Option<(NdArray, Vec<bool>)>> {
    if x.dtype.is_complex() {
        return Err(PyErr::not_implemented(
            "nbcuda's nan-reductions do not support complex arrays",
        ));
    }
    if !x.dtype.is_float() {
        return Ok(None);
    }
    let vals = read_vec::<f64>(x);
    let mask: Vec<bool> = vals.iter().map(|v| v.is_nan()).collect();
    let clean: Vec<f64> = vals
        .iter()
        .map(|v| if v.is_nan() { fill } else { *v })
        .collect();
    Ok(Some((cast(&from_vec(&x.shape, &clean)?, x.dtype)?, mask)))
}

/// `x.<name>(**kw)`, the array method doing the reduction.
fn method(rt: &mut Runtime, x: &NdArray, name: &str, kw: &[(&str, Value)]) -> PyResult<Value> {
    let f = array_getattr(x, name, rt)?.ok_or_else(|| PyErr::internal("missing method"))?;
    let mut args = Args::new(Vec::new());
    for (k, v) in kw {
        args = args.with_kw(k, v.clone());
    }
    rt.call(&f, args)
}

/// The keyword arguments given (not None) among `names`, bound in slots `1..`.
fn given<'a>(b: &[Option<Value>], names: &[&'a str]) -> Vec<(&'a str, Value)> {
    names
        .iter()
        .enumerate()
        .filter_map(|(i, n)| match b.get(i + 1) {
            Some(Some(v)) if !v.is_none() => Some((*n, v.clone())),
            _ => None,
        })
        .collect()
}

fn warn(rt: &mut Runtime, msg: &str) -> PyResult<()> {
    let origin = format!("Cell In[{}]", rt.execution_count);
    rt.warn("RuntimeWarning", msg, &origin)
}

/// The non-NaN count per output element, as float64 values in the reduction's layout.
fn counts(
    rt: &mut Runtime,
    mask: &[bool],
    shape: &[usize],
    kw: &[(&str, Value)],
) -> PyResult<Vec<f64>> {
    let seen: Vec<i64> = mask.iter().map(|m| i64::from(!m)).collect();
    let s = from_vec(shape, &seen)?;
    let r = method(rt, &s, "sum", kw)?;
    Ok(read_vec::<f64>(&to_ndarray(rt, &r)?))
}

/// `num / den` elementwise, NaN where `den <= 0` (with `warning`), in `num`'s dtype.
fn divide(rt: &mut Runtime, num: &Value, den: &[f64], warning: &str) -> PyResult<NdArray> {
    let n = to_ndarray(rt, num)?;
    let vals = read_vec::<f64>(&n);
    if den.iter().any(|d| *d <= 0.0) {
        warn(rt, warning)?;
    }
    let out: Vec<f64> = vals
        .iter()
        .zip(den)
        .map(|(v, d)| if *d <= 0.0 { f64::NAN } else { v / d })
        .collect();
    Ok(cast(&from_vec(&n.shape, &out)?, n.dtype)?)
}

/// nansum, nanprod, nancumsum, nancumprod: the plain reduction of the NaN-free data.
fn plain(
    rt: &mut Runtime,
    b: &[Option<Value>],
    op: &str,
    fill: f64,
    names: &[&str],
) -> PyResult<Value> {
    let x = to_ndarray(rt, arg(b, 0))?;
    let kw = given(b, names);
    let src = replace_nan(&x, fill)?.map_or(x, |(c, _)| c);
    method(rt, &src, op, &kw)
}

/// nanargmin, nanargmax: NaNs become the extreme that never wins; a slice of NaNs only
/// is NumPy's ValueError.
fn arg_extreme(rt: &mut Runtime, b: &[Option<Value>], op: &str) -> PyResult<Value> {
    let x = to_ndarray(rt, arg(b, 0))?;
    let kw = given(b, &["axis", "out", "keepdims"]);
    let fill = if op == "argmin" {
        f64::INFINITY
    } else {
        f64::NEG_INFINITY
    };
    let Some((clean, mask)) = replace_nan(&x, fill)? else {
        return method(rt, &x, op, &kw);
    };
    let axis_kw: Vec<(&str, Value)> = kw.iter().filter(|(k, _)| *k == "axis").cloned().collect();
    if !mask.is_empty() && counts(rt, &mask, &x.shape, &axis_kw)?.contains(&0.0) {
        return Err(PyErr::value_error("All-NaN slice encountered"));
    }
    method(rt, &clean, op, &kw)
}

/// nanmean: the sum of the non-NaN values over their count.
fn nanmean(rt: &mut Runtime, b: &[Option<Value>]) -> PyResult<Value> {
    let x = to_ndarray(rt, arg(b, 0))?;
    let kw = given(b, &["axis", "dtype", "out", "keepdims"]);
    let Some((clean, mask)) = replace_nan(&x, 0.0)? else {
        return method(rt, &x, "mean", &kw);
    };
    let cnt_kw: Vec<(&str, Value)> = kw
        .iter()
        .filter(|(k, _)| matches!(*k, "axis" | "keepdims"))
        .cloned()
        .collect();
    let cnt = counts(rt, &mask, &x.shape, &cnt_kw)?;
    let tot = method(rt, &clean, "sum", &kw)?;
    Ok(wrap_result(divide(rt, &tot, &cnt, "Mean of empty slice")?))
}

/// nanvar / nanstd: NumPy's two passes (mean, then the sum of squared deviations) over the
/// NaN-free values, divided by `count - ddof`.
fn nanvar(rt: &mut Runtime, b: &[Option<Value>], std: bool) -> PyResult<Value> {
    let x = to_ndarray(rt, arg(b, 0))?;
    let names = ["axis", "dtype", "out", "ddof", "keepdims"];
    let kw = given(b, &names);
    let Some((clean, mask)) = replace_nan(&x, 0.0)? else {
        return method(rt, &x, if std { "std" } else { "var" }, &kw);
    };
    let ddof = match b.get(4) {
        Some(Some(v)) if !v.is_none() => v.as_f64()?,
        _ => 0.0,
    };
    let pick = |keys: &[&str]| -> Vec<(&str, Value)> {
        kw.iter()
            .filter(|(k, _)| keys.contains(k))
            .cloned()
            .collect()
    };
    let mut kd = pick(&["axis", "dtype"]);
    kd.push(("keepdims", Value::Bool(true)));
    let cnt_kd = counts(
        rt,
        &mask,
        &x.shape,
        &pick(&["axis"])
            .into_iter()
            .chain([("keepdims", Value::Bool(true))])
            .collect::<Vec<_>>(),
    )?;
    let tot = method(rt, &clean, "sum", &kd)?;
    let avg = divide(rt, &tot, &cnt_kd, "Mean of empty slice")?;
    let dev = binary_op(
        BinOp::Sub,
        &Value::Array(Box::new(clean)),
        &Value::Array(Box::new(avg)),
        rt,
    )?
    .ok_or_else(|| PyErr::internal("nanvar subtract"))?;
    let dev = to_ndarray(rt, &dev)?;
    let zeroed: Vec<f64> = read_vec::<f64>(&dev)
        .iter()
        .zip(&mask)
        .map(|(v, m)| if *m { 0.0 } else { *v })
        .collect();
    let dev = Value::Array(Box::new(cast(&from_vec(&dev.shape, &zeroed)?, dev.dtype)?));
    let sqr =
        binary_op(BinOp::Mul, &dev, &dev, rt)?.ok_or_else(|| PyErr::internal("nanvar square"))?;
    let sqr = to_ndarray(rt, &sqr)?;
    let var = method(rt, &sqr, "sum", &pick(&["axis", "dtype", "keepdims"]))?;
    let dof: Vec<f64> = counts(rt, &mask, &x.shape, &pick(&["axis", "keepdims"]))?
        .iter()
        .map(|c| c - ddof)
        .collect();
    let mut var = divide(rt, &var, &dof, "Degrees of freedom <= 0 for slice.")?;
    if std {
        let r: Vec<f64> = read_vec::<f64>(&var).iter().map(|v| v.sqrt()).collect();
        var = cast(&from_vec(&var.shape, &r)?, var.dtype)?;
    }
    Ok(wrap_result(var))
}

/// Register the NaN-ignoring reductions.
pub fn register(m: &Module) {
    for (name, op, fill) in [
        ("nansum", "sum", 0.0),
        ("nanprod", "prod", 1.0),
        ("nancumsum", "cumsum", 0.0),
        ("nancumprod", "cumprod", 1.0),
    ] {
        let cum = name.starts_with("nancum");
        m.def(
            Function,
            name,
            if cum {
                "a, axis=None, dtype=None, out=None"
            } else {
                "a, axis=None, dtype=None, out=None, keepdims=False"
            },
            "NumPy's reduction treating NaNs as its neutral element.",
            move |rt, b| {
                plain(
                    rt,
                    &b.slots,
                    op,
                    fill,
                    &["axis", "dtype", "out", "keepdims"],
                )
            },
        );
    }
    for (name, op) in [("nanargmin", "argmin"), ("nanargmax", "argmax")] {
        m.def(
            Function,
            name,
            "a, axis=None, out=None, *, keepdims=False",
            "Index of the extreme ignoring NaNs; ValueError for a slice of NaNs only.",
            move |rt, b| arg_extreme(rt, &b.slots, op),
        );
    }
    m.def(
        Function,
        "nanmean",
        "a, axis=None, dtype=None, out=None, keepdims=False",
        "The mean of the non-NaN values.",
        |rt, b| nanmean(rt, &b.slots),
    );
    for (name, std) in [("nanvar", false), ("nanstd", true)] {
        m.def(
            Function,
            name,
            "a, axis=None, dtype=None, out=None, ddof=0, keepdims=False",
            "The variance (or standard deviation) of the non-NaN values.",
            move |rt, b| nanvar(rt, &b.slots, std),
        );
    }
}
