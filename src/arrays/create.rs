//! Array creation: `array`, `asarray`, `arange`, `linspace`, `zeros`/`ones`/`empty`/`full`
//! and their `_like` forms, `concatenate`, `stack`, `histogram`.

use crate::arrays::ops::{self, array_from, new_array};
use crate::arrays::pyapi::{dtype_from_value, from_nested, to_ndarray};
use crate::arrays::typed::load;
use crate::arrays::{DType, NdArray, Scalar};
use crate::language::{Module, PyErr, PyResult, Runtime, Value};

/// A shape argument: an int or a sequence of ints.
pub fn shape_arg(v: &Value) -> PyResult<Vec<usize>> {
    let dims: Vec<i64> = match v {
        Value::Tuple(t) => t.iter().map(|d| d.as_index()).collect::<PyResult<_>>()?,
        Value::List(l) => l
            .borrow()
            .iter()
            .map(|d| d.as_index())
            .collect::<PyResult<_>>()?,
        Value::Float(_) => {
            return Err(PyErr::type_error(
                "'float' object cannot be interpreted as an integer",
            ))
        }
        d => vec![d.as_index()?],
    };
    if dims.iter().any(|&d| d < 0) {
        return Err(PyErr::value_error("negative dimensions are not allowed"));
    }
    Ok(dims.into_iter().map(|d| d as usize).collect())
}

fn dtype_opt(rt: &mut Runtime, v: &Option<Value>) -> PyResult<Option<DType>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => Ok(Some(dtype_from_value(rt, v)?)),
    }
}

fn filled(shape: &[usize], dtype: DType, value: Scalar) -> PyResult<NdArray> {
    let a = new_array(shape, dtype)?;
    let bytes = value.cast(dtype).to_bytes();
    if bytes.iter().any(|&b| b != 0) {
        let isz = dtype.itemsize();
        let mut chunk = Vec::with_capacity(isz * 4096);
        for _ in 0..4096 {
            chunk.extend_from_slice(&bytes);
        }
        let total = a.nbytes();
        let mut off = 0;
        while off < total {
            let n = chunk.len().min(total - off);
            a.buf.write(off, &chunk[..n]);
            off += n;
        }
    }
    Ok(a)
}

fn scalar_of(rt: &mut Runtime, v: &Value) -> PyResult<Scalar> {
    let a = to_ndarray(rt, v)?;
    if a.size() != 1 {
        return Err(PyErr::value_error("fill_value must be a single number"));
    }
    Ok(crate::arrays::typed::scalar_at(&a, a.offset as isize))
}

fn like(rt: &mut Runtime, v: &Value) -> PyResult<(Vec<usize>, DType)> {
    let a = to_ndarray(rt, v)?;
    Ok((a.shape.clone(), a.dtype))
}

fn arange(rt: &mut Runtime, b: &[Option<Value>]) -> PyResult<Value> {
    let vals: Vec<&Value> = b[..3]
        .iter()
        .filter_map(|v| v.as_ref())
        .filter(|v| !v.is_none())
        .collect();
    let (start, stop, step) = match vals.as_slice() {
        [stop] => (Value::Int(0), (*stop).clone(), Value::Int(1)),
        [start, stop] => ((*start).clone(), (*stop).clone(), Value::Int(1)),
        [start, stop, step] => ((*start).clone(), (*stop).clone(), (*step).clone()),
        _ => return Err(PyErr::type_error("arange() requires stop to be specified.")),
    };
    let is_float = |v: &Value| {
        matches!(v, Value::Float(_)) || matches!(v, Value::Scalar(s) if s.dtype().is_float())
    };
    let float = is_float(&start) || is_float(&stop) || is_float(&step);
    let dt = dtype_opt(rt, &b[3])?.unwrap_or(if float { DType::F64 } else { DType::I64 });
    let (s, e, st) = (start.as_f64()?, stop.as_f64()?, step.as_f64()?);
    if st == 0.0 {
        return Err(PyErr::zero_division("division by zero"));
    }
    let n = ((e - s) / st).ceil().max(0.0) as usize;
    if float || dt.is_float() {
        let v: Vec<f64> = (0..n).map(|i| s + i as f64 * st).collect();
        Ok(Value::Array(array_from(&[n], dt, &v)?))
    } else {
        let (si, sti) = (start.as_index()?, step.as_index()?);
        let v: Vec<i64> = (0..n as i64).map(|i| si + i * sti).collect();
        Ok(Value::Array(array_from(&[n], dt, &v)?))
    }
}

fn linspace(rt: &mut Runtime, b: &[Option<Value>]) -> PyResult<Value> {
    let start = b[0].as_ref().expect("required").as_f64()?;
    let stop = b[1].as_ref().expect("required").as_f64()?;
    let num = b[2]
        .as_ref()
        .map(|v| v.as_index())
        .transpose()?
        .unwrap_or(50);
    if num < 0 {
        return Err(PyErr::value_error(format!(
            "Number of samples, {num}, must be non-negative."
        )));
    }
    let endpoint = !matches!(b[3], Some(Value::Bool(false)));
    let num = num as usize;
    let div = if endpoint { num.saturating_sub(1) } else { num };
    let step = if div > 0 {
        (stop - start) / div as f64
    } else {
        f64::NAN
    };
    let mut v: Vec<f64> = (0..num)
        .map(|i| {
            if div > 0 {
                start + i as f64 * step
            } else {
                start
            }
        })
        .collect();
    if endpoint && num > 1 {
        v[num - 1] = stop;
    }
    let dt = dtype_opt(rt, &b[5])?.unwrap_or(DType::F64);
    let arr = array_from(&[num], dt, &v)?;
    if matches!(b[4], Some(Value::Bool(true))) {
        return Ok(Value::tuple(vec![Value::Array(arr), Value::Float(step)]));
    }
    Ok(Value::Array(arr))
}

fn join(rt: &mut Runtime, seq: &Value, axis: i64, stack: bool) -> PyResult<NdArray> {
    let items = crate::language::ops::iterate(rt, seq)?;
    if items.is_empty() {
        return Err(PyErr::value_error("need at least one array to concatenate"));
    }
    let mut arrays: Vec<NdArray> = items
        .iter()
        .map(|v| to_ndarray(rt, v))
        .collect::<PyResult<_>>()?;
    if stack {
        let shape = arrays[0].shape.clone();
        if arrays.iter().any(|a| a.shape != shape) {
            return Err(PyErr::value_error(
                "all input arrays must have the same shape",
            ));
        }
        let ax = if axis < 0 {
            axis + shape.len() as i64 + 1
        } else {
            axis
        } as usize;
        for a in arrays.iter_mut() {
            a.shape.insert(ax, 1);
            a.strides.insert(ax, 0);
        }
    }
    let nd = arrays[0].ndim();
    if nd == 0 {
        return Err(PyErr::value_error(
            "zero-dimensional arrays cannot be concatenated",
        ));
    }
    let ax = if axis < 0 { axis + nd as i64 } else { axis };
    if ax < 0 || ax as usize >= nd {
        return Err(PyErr::new(
            "AxisError",
            format!("axis {axis} is out of bounds for array of dimension {nd}"),
        ));
    }
    let ax = ax as usize;
    let dt = arrays
        .iter()
        .map(|a| a.dtype)
        .reduce(ops::promote)
        .expect("non-empty");
    let mut shape = arrays[0].shape.clone();
    shape[ax] = 0;
    for a in &arrays {
        if a.ndim() != nd || (0..nd).any(|i| i != ax && a.shape[i] != arrays[0].shape[i]) {
            return Err(PyErr::value_error(
                "all the input array dimensions except for the concatenation axis must match exactly",
            ));
        }
        shape[ax] += a.shape[ax];
    }
    let out = new_array(&shape, dt)?;
    let mut start = 0;
    for a in &arrays {
        let mut view = out.clone();
        view.offset = start * out.strides[ax] as usize;
        view.shape[ax] = a.shape[ax];
        ops::copy_into(&view, a)?;
        start += a.shape[ax];
    }
    Ok(out)
}

fn histogram(rt: &mut Runtime, b: &[Option<Value>]) -> PyResult<Value> {
    let a = to_ndarray(rt, b[0].as_ref().expect("required"))?;
    let data = load::<f64>(&a, &a.shape);
    let (lo, hi) = match &b[2] {
        None | Some(Value::None) => {
            let lo = data.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = data.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            if data.is_empty() {
                (0.0, 1.0)
            } else if lo == hi {
                (lo - 0.5, hi + 0.5)
            } else {
                (lo, hi)
            }
        }
        Some(r) => {
            let v = crate::language::ops::iterate(rt, r)?;
            (v[0].as_f64()?, v[1].as_f64()?)
        }
    };
    let edges: Vec<f64> = match &b[1] {
        None | Some(Value::None) => (0..=10).map(|k| lo + (hi - lo) * k as f64 / 10.0).collect(),
        Some(Value::Int(n)) if *n > 0 => (0..=*n)
            .map(|k| lo + (hi - lo) * k as f64 / *n as f64)
            .collect(),
        Some(v) => load::<f64>(&to_ndarray(rt, v)?, &[]).to_vec(),
    };
    let nb = edges.len() - 1;
    let mut counts = vec![0i64; nb];
    for &v in data.iter() {
        if v < edges[0] || v > edges[nb] || v.is_nan() {
            continue;
        }
        let k = edges
            .partition_point(|e| *e <= v)
            .saturating_sub(1)
            .min(nb - 1);
        counts[k] += 1;
    }
    Ok(Value::tuple(vec![
        Value::Array(array_from(&[nb], DType::I64, &counts)?),
        Value::Array(array_from(&[nb + 1], DType::F64, &edges)?),
    ]))
}

pub fn register(m: &Module) {
    m.func(
        "array",
        "array(object, dtype=None, copy=True)",
        "A new array from nested sequences or another array.",
        |rt, a| {
            let b = a.bind("array", &["object", "dtype=", "copy=", "order=", "ndmin="])?;
            let dt = dtype_opt(rt, &b[1])?;
            let obj = b[0].as_ref().expect("required");
            let src = match obj {
                Value::List(_) | Value::Tuple(_) => from_nested(rt, obj, dt)?,
                other => to_ndarray(rt, other)?,
            };
            Ok(Value::Array(ops::cast(&src, dt.unwrap_or(src.dtype))?))
        },
    );
    m.func(
        "asarray",
        "asarray(a, dtype=None)",
        "An array view of `a` (no copy when it already is one).",
        |rt, a| {
            let b = a.bind("asarray", &["a", "dtype=", "order="])?;
            let dt = dtype_opt(rt, &b[1])?;
            let obj = b[0].as_ref().expect("required");
            let arr = match obj {
                Value::List(_) | Value::Tuple(_) => from_nested(rt, obj, dt)?,
                other => to_ndarray(rt, other)?,
            };
            Ok(Value::Array(match dt {
                Some(d) if d != arr.dtype => ops::cast(&arr, d)?,
                _ => arr,
            }))
        },
    );
    m.func(
        "ascontiguousarray",
        "ascontiguousarray(a, dtype=None)",
        "A C-contiguous array (copied only when needed).",
        |rt, a| {
            let b = a.bind("ascontiguousarray", &["a", "dtype="])?;
            let arr = to_ndarray(rt, b[0].as_ref().expect("required"))?;
            let dt = dtype_opt(rt, &b[1])?.unwrap_or(arr.dtype);
            Ok(Value::Array(if arr.is_c_contiguous() && dt == arr.dtype {
                arr
            } else {
                ops::cast(&arr, dt)?
            }))
        },
    );
    m.func("copy", "copy(a)", "A copy of the array.", |rt, a| {
        let b = a.bind("copy", &["a"])?;
        Ok(Value::Array(ops::contiguous_copy(&to_ndarray(
            rt,
            b[0].as_ref().expect("required"),
        )?)?))
    });
    m.func(
        "arange",
        "arange([start,] stop[, step], dtype=None)",
        "Evenly spaced values in [start, stop).",
        |rt, a| {
            let b = a.bind("arange", &["start", "stop=", "step=", "dtype="])?;
            arange(rt, &b)
        },
    );
    m.func(
        "linspace",
        "linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None)",
        "`num` evenly spaced values from start to stop.",
        |rt, a| {
            let b = a.bind(
                "linspace",
                &["start", "stop", "num=", "endpoint=", "retstep=", "dtype="],
            )?;
            linspace(rt, &b)
        },
    );
    for (name, value) in [("zeros", 0.0), ("ones", 1.0), ("empty", 0.0)] {
        m.func(
            name,
            &format!("{name}(shape, dtype=float64)"),
            "A new array of the given shape.",
            move |rt, a| {
                let b = a.bind(name, &["shape", "dtype=", "order="])?;
                let shape = shape_arg(b[0].as_ref().expect("required"))?;
                let dt = dtype_opt(rt, &b[1])?.unwrap_or(DType::F64);
                Ok(Value::Array(filled(&shape, dt, Scalar::F64(value))?))
            },
        );
        let lname = format!("{name}_like");
        m.func(
            &lname.clone(),
            &format!("{lname}(a, dtype=None)"),
            "A new array shaped like `a`.",
            move |rt, a| {
                let b = a.bind(&lname, &["a", "dtype=", "order=", "subok=", "shape="])?;
                let (shape, dt0) = like(rt, b[0].as_ref().expect("required"))?;
                let dt = dtype_opt(rt, &b[1])?.unwrap_or(dt0);
                Ok(Value::Array(filled(&shape, dt, Scalar::F64(value))?))
            },
        );
    }
    m.func(
        "full",
        "full(shape, fill_value, dtype=None)",
        "A new array filled with one value.",
        |rt, a| {
            let b = a.bind("full", &["shape", "fill_value", "dtype=", "order="])?;
            let shape = shape_arg(b[0].as_ref().expect("required"))?;
            let v = scalar_of(rt, b[1].as_ref().expect("required"))?;
            let dt = dtype_opt(rt, &b[2])?.unwrap_or(v.dtype());
            Ok(Value::Array(filled(&shape, dt, v)?))
        },
    );
    m.func(
        "full_like",
        "full_like(a, fill_value, dtype=None)",
        "A new array shaped like `a`, filled with one value.",
        |rt, a| {
            let b = a.bind("full_like", &["a", "fill_value", "dtype="])?;
            let (shape, dt0) = like(rt, b[0].as_ref().expect("required"))?;
            let v = scalar_of(rt, b[1].as_ref().expect("required"))?;
            let dt = dtype_opt(rt, &b[2])?.unwrap_or(dt0);
            Ok(Value::Array(filled(&shape, dt, v)?))
        },
    );
    m.func(
        "concatenate",
        "concatenate(arrays, axis=0)",
        "Join arrays along an existing axis.",
        |rt, a| {
            let b = a.bind("concatenate", &["arrays", "axis="])?;
            let axis = b[1]
                .as_ref()
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(0);
            Ok(Value::Array(join(
                rt,
                b[0].as_ref().expect("required"),
                axis,
                false,
            )?))
        },
    );
    m.func(
        "stack",
        "stack(arrays, axis=0)",
        "Join arrays along a new axis.",
        |rt, a| {
            let b = a.bind("stack", &["arrays", "axis="])?;
            let axis = b[1]
                .as_ref()
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(0);
            Ok(Value::Array(join(
                rt,
                b[0].as_ref().expect("required"),
                axis,
                true,
            )?))
        },
    );
    m.func(
        "histogram",
        "histogram(a, bins=10, range=None)",
        "Counts per bin and the bin edges.",
        |rt, a| {
            let b = a.bind(
                "histogram",
                &["a", "bins=", "range=", "density=", "weights="],
            )?;
            histogram(rt, &b)
        },
    );
}
