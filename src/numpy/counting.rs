//! Binary search and counting over sorted or integer data: `np.searchsorted` (`side`,
//! `sorter`), `np.digitize` (`right`, increasing or decreasing bins), `np.bincount`
//! (`weights`, `minlength`) and `np.ptp`. Keys compare in the promoted kind (integers as
//! `i64`, the rest as `f64`) with NaN ordered last, as NumPy sorts it.

use crate::arrays::alloc;
use crate::arrays::dtype::DType;
use crate::arrays::elem::{alloc_error, cast, from_vec, new_array, read_vec, write_slice};
use crate::arrays::NdArray;
use crate::numpy::funcs::arg;
use crate::numpy::np_call;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{to_ndarray, wrap_result};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

/// Elements between two reads of the interrupt flag in the loops below.
const CHUNK: usize = 1 << 16;

fn integral(d: DType) -> bool {
    d.is_integer() || d == DType::Bool
}

/// `x < y` in NumPy's sort order: NaN after every number.
fn lt(x: f64, y: f64) -> bool {
    x < y || (y.is_nan() && !x.is_nan())
}

/// The insertion points of `v` into the sorted 1-D `a`, as int64 of `v`'s shape.
pub fn searchsorted(a: &NdArray, v: &NdArray, right: bool) -> PyResult<NdArray> {
    if a.ndim() != 1 {
        return Err(PyErr::value_error("object too deep for desired array"));
    }
    let out: Vec<i64> = if integral(a.dtype) && integral(v.dtype) {
        let hay = read_vec::<i64>(&cast(a, DType::I64)?);
        let keys = read_vec::<i64>(&cast(v, DType::I64)?);
        let mut o = alloc::vec_with_capacity(keys.len(), "searchsorted result")?;
        for (i, k) in keys.iter().enumerate() {
            if i % CHUNK == 0 {
                crate::arrays::interrupt::check()?;
            }
            let p = if right {
                hay.partition_point(|x| x <= k)
            } else {
                hay.partition_point(|x| x < k)
            };
            o.push(p as i64);
        }
        o
    } else {
        let hay = read_vec::<f64>(&cast(a, DType::F64)?);
        let keys = read_vec::<f64>(&cast(v, DType::F64)?);
        let mut o = alloc::vec_with_capacity(keys.len(), "searchsorted result")?;
        for (i, &k) in keys.iter().enumerate() {
            if i % CHUNK == 0 {
                crate::arrays::interrupt::check()?;
            }
            let p = if right {
                hay.partition_point(|&x| !lt(k, x))
            } else {
                hay.partition_point(|&x| lt(x, k))
            };
            o.push(p as i64);
        }
        o
    };
    Ok(from_vec(&v.shape, &out)?)
}

/// `a` reordered by the indices `sorter` (a 1-D permutation), as NumPy's `sorter=` reads it.
fn apply_sorter(a: &NdArray, sorter: &NdArray) -> PyResult<NdArray> {
    if sorter.ndim() != 1 || sorter.shape[0] != a.shape.first().copied().unwrap_or(0) {
        return Err(PyErr::value_error("sorter.size must equal a.size"));
    }
    if !integral(sorter.dtype) {
        return Err(PyErr::type_error(format!(
            "Cannot cast array data from dtype('{}') to dtype('int64') according to the rule 'safe'",
            sorter.dtype.name()
        )));
    }
    let idx = read_vec::<i64>(&cast(sorter, DType::I64)?);
    let n = idx.len();
    if idx.iter().any(|&i| i < 0 || i as usize >= n) {
        return Err(PyErr::value_error("Sorter index out of range."));
    }
    if integral(a.dtype) {
        let ints = read_vec::<i64>(&cast(a, DType::I64)?);
        let picked: Vec<i64> = idx.iter().map(|&i| ints[i as usize]).collect();
        return Ok(from_vec(&[n], &picked)?);
    }
    let vals = read_vec::<f64>(&cast(a, DType::F64)?);
    let picked: Vec<f64> = idx.iter().map(|&i| vals[i as usize]).collect();
    Ok(from_vec(&[n], &picked)?)
}

fn side_right(v: Option<&Value>) -> PyResult<bool> {
    match v.map(|v| v.as_str()) {
        None => Ok(false),
        Some(Some("left")) => Ok(false),
        Some(Some("right")) => Ok(true),
        Some(Some(s)) => Err(PyErr::value_error(format!(
            "search side must be 'left' or 'right' (got '{s}')"
        ))),
        Some(None) => Err(PyErr::type_error(
            "search side must be str, not a non-string value",
        )),
    }
}

/// `np.digitize(x, bins, right)`: bin indices by binary search into monotonic bins.
fn digitize(x: &NdArray, bins: &NdArray, right: bool) -> PyResult<NdArray> {
    if bins.ndim() != 1 {
        return Err(PyErr::value_error("object too deep for desired array"));
    }
    let b = read_vec::<f64>(&cast(bins, DType::F64)?);
    let inc = b.windows(2).all(|w| !lt(w[1], w[0]));
    let dec = b.windows(2).all(|w| !lt(w[0], w[1]));
    if !inc && !dec {
        return Err(PyErr::value_error(
            "bins must be monotonically increasing or decreasing",
        ));
    }
    // NumPy: right=False counts bins <= x (searchsorted side 'right'), and the reverse.
    if inc {
        return searchsorted(bins, x, !right);
    }
    let n = b.len() as i64;
    let rev = crate::numpy::shape::flip_ax(bins, 0);
    let r = searchsorted(&rev, x, !right)?;
    let v: Vec<i64> = read_vec::<i64>(&r).iter().map(|&p| n - p).collect();
    Ok(from_vec(&x.shape, &v)?)
}

/// `np.bincount(x, weights, minlength)`. `typed` says `x` came as an ndarray: NumPy converts
/// a list straight to intp (so `[]` is fine) but casts an array safely (an empty float
/// array is a TypeError).
fn bincount(
    x: &NdArray,
    typed: bool,
    weights: Option<&NdArray>,
    minlength: i64,
) -> PyResult<NdArray> {
    if minlength < 0 {
        return Err(PyErr::value_error("'minlength' must not be negative"));
    }
    if x.ndim() != 1 {
        return Err(PyErr::value_error("object too deep for desired array"));
    }
    if !integral(x.dtype) && ((typed && x.shape[0] == 0) || !x.dtype.is_float()) {
        return Err(PyErr::type_error(format!(
            "Cannot cast array data from dtype('{}') to dtype('int64') according to the rule 'safe'",
            x.dtype.name()
        )));
    }
    let idx = read_vec::<i64>(&cast(x, DType::I64)?);
    if idx.iter().any(|&i| i < 0) {
        return Err(PyErr::value_error(
            "'list' argument must have no negative elements",
        ));
    }
    let len = idx
        .iter()
        .map(|&i| i as u64 + 1)
        .max()
        .unwrap_or(0)
        .max(minlength as u64) as usize;
    let out_dtype = if weights.is_some() {
        DType::F64
    } else {
        DType::I64
    };
    if alloc::check(len, 8, "bincount result").is_err() {
        return Err(alloc_error(&[len], out_dtype).into());
    }
    let out = new_array(&[len], out_dtype)?;
    match weights {
        None => {
            let mut counts = alloc::vec_filled(0i64, len, "bincount result")?;
            for (n, &i) in idx.iter().enumerate() {
                if n % CHUNK == 0 {
                    crate::arrays::interrupt::check()?;
                }
                counts[i as usize] += 1;
            }
            write_slice(&out, &counts);
        }
        Some(w) => {
            if w.shape != x.shape {
                return Err(PyErr::value_error(
                    "The weights and list don't have the same length.",
                ));
            }
            let wv = read_vec::<f64>(&cast(w, DType::F64)?);
            let mut sums = alloc::vec_filled(0f64, len, "bincount result")?;
            for (n, (&i, &wi)) in idx.iter().zip(&wv).enumerate() {
                if n % CHUNK == 0 {
                    crate::arrays::interrupt::check()?;
                }
                sums[i as usize] += wi;
            }
            write_slice(&out, &sums);
        }
    }
    Ok(out)
}

fn array_arg(rt: &mut Runtime, v: &Value) -> PyResult<NdArray> {
    to_ndarray(rt, v)
}

pub fn register(m: &Module) {
    m.def(
        Function,
        "searchsorted",
        "a, v, side='left', sorter=None",
        "Indices where elements should be inserted to maintain order.",
        |rt, b| {
            let mut a = array_arg(rt, arg(&b, 0))?;
            let v = array_arg(rt, arg(&b, 1))?;
            let right = side_right(b.get(2))?;
            if let Some(s) = b.get(3).filter(|s| !matches!(s, Value::None)) {
                let s = array_arg(rt, s)?;
                a = apply_sorter(&a, &s)?;
            }
            Ok(wrap_result(searchsorted(&a, &v, right)?))
        },
    );
    m.def(
        Function,
        "digitize",
        "x, bins, right=False",
        "The indices of the bins to which each value in the input array belongs.",
        |rt, b| {
            let x = array_arg(rt, arg(&b, 0))?;
            let bins = array_arg(rt, arg(&b, 1))?;
            let right = rt.flag(b.get(2))?;
            Ok(wrap_result(digitize(&x, &bins, right)?))
        },
    );
    m.def(
        Function,
        "bincount",
        "x, /, weights=None, minlength=0",
        "Count the number of occurrences of each value in an array of non-negative ints.",
        |rt, b| {
            let typed = matches!(arg(&b, 0), Value::Array(_));
            let x = array_arg(rt, arg(&b, 0))?;
            let w = match b.get(1) {
                None | Some(Value::None) => None,
                Some(v) => Some(array_arg(rt, v)?),
            };
            let minlength = match b.get(2) {
                None | Some(Value::None) => 0,
                Some(v) => v.as_index()?,
            };
            Ok(Value::Array(Box::new(bincount(
                &x,
                typed,
                w.as_ref(),
                minlength,
            )?)))
        },
    );
    m.def(
        Function,
        "ptp",
        "a, axis=None, out=None, keepdims=False",
        "Range of values (maximum - minimum) along an axis.",
        |rt, b| {
            let a = Value::Array(Box::new(array_arg(rt, arg(&b, 0))?));
            let mut kw = Vec::new();
            if let Some(ax) = b.get(1) {
                kw.push(("axis", ax.clone()));
            }
            if let Some(k) = b.get(3) {
                kw.push(("keepdims", k.clone()));
            }
            let hi = np_call(rt, "max", vec![a.clone()], kw.clone())?;
            let lo = np_call(rt, "min", vec![a], kw)?;
            np_call(rt, "subtract", vec![hi, lo], Vec::new())
        },
    );
}
