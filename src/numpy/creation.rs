//! The `numpy` module's array creation functions: `array`/`asarray` and their layout
//! variants, `copy`, `arange`, `linspace`, `zeros`/`ones`/`empty` (and `_like`), `full`,
//! `full_like` and `eye`.

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::{fill, new_array, Elem};
use crate::arrays::NdArray;
use crate::numpy::funcs::arg;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{dtype_from_value, to_ndarray, to_ndarray_dtype, value_for_fill};
use crate::py::ndarray_shape::new_shape;
use crate::py::promote::python_dtype;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::{Function, NumpyC};
use crate::py::value::{Module, Value};
use crate::with_dtype;

fn dt_opt(rt: &mut Runtime, v: &Option<Value>) -> PyResult<Option<DType>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(d) => Ok(Some(dtype_from_value(rt, d)?)),
    }
}

/// A Fortran-ordered (column-major) copy of `r`.
fn fortran_copy(r: &NdArray) -> PyResult<NdArray> {
    let mut out = crate::arrays::elem::new_array(&r.shape, r.dtype)?;
    out.strides = NdArray::f_strides(&r.shape, r.dtype.itemsize());
    crate::arrays::elem::copy_into(&out, r)?;
    Ok(out)
}

/// NumPy's `zeros_like` and `ones_like` parameters.
const LIKE_SIG: &str = "a, dtype=None, order='K', subok=True, shape=None, *, device=None";

pub(crate) fn creation(m: &Module) {
    m.def(
        NumpyC,
        "array",
        "object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0, like=None",
        "Create an array (always a copy by default).",
        |rt, b| {
            let d = dt_opt(rt, &b[1])?;
            let order = match b[3].as_ref().filter(|v| !v.is_none()) {
                None => 'K',
                Some(v) => {
                    let Some(o) = v.as_str() else {
                        return Err(PyErr::type_error(format!(
                            "order must be str, not {}",
                            v.type_name()
                        )));
                    };
                    match o.to_ascii_uppercase().as_str() {
                        "C" => 'C',
                        "F" => 'F',
                        "A" => 'A',
                        "K" => 'K',
                        _ => {
                            return Err(PyErr::value_error(format!(
                                "order must be one of 'C', 'F', 'A', or 'K' (got '{o}')"
                            )))
                        }
                    }
                }
            };
            let src = arg(&b, 0);
            let copy = !matches!(b[2], Some(Value::Bool(false)));
            if !copy && matches!(src, Value::Object(_)) {
                // NumPy 2: an object whose `__array__` must copy (a device array) refuses
                // copy=False.
                return Err(PyErr::value_error(format!(
                    "`copy=False` is not supported for a {}: its data must be copied to the host; use copy=True or copy=None (np.asarray)",
                    src.type_name()
                )));
            }
            let mut r = to_ndarray_dtype(rt, src, d)?;
            if let Value::Array(orig) = src {
                if copy && std::sync::Arc::ptr_eq(&orig.buf, &r.buf) {
                    // 'K' and 'A' keep a Fortran-ordered source Fortran-ordered.
                    let keep_f = matches!(order, 'A' | 'K')
                        && orig.is_f_contiguous()
                        && !orig.is_c_contiguous();
                    r = if keep_f {
                        fortran_copy(&r)?
                    } else {
                        crate::arrays::elem::contiguous_copy(&r)?
                    };
                }
            }
            if order == 'F' && !r.is_f_contiguous() {
                r = fortran_copy(&r)?;
            } else if order == 'C' && !r.is_c_contiguous() {
                r = crate::arrays::elem::contiguous_copy(&r)?;
            }
            let ndmin = b[5]
                .as_ref()
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(0) as usize;
            while r.ndim() < ndmin {
                r.shape.insert(0, 1);
                r.strides.insert(0, 0);
            }
            Ok(Value::Array(Box::new(r)))
        },
    );
    m.def(
        NumpyC,
        "asarray",
        "a, dtype=None, order=None, *, device=None, copy=None, like=None",
        "Convert to an array without copying when possible.",
        |rt, b| {
            let d = dt_opt(rt, &b[1])?;
            let src = arg(&b, 0);
            let mut r = to_ndarray_dtype(rt, src, d)?;
            if let (Some(Value::Bool(true)), Value::Array(orig)) = (&b[4], src) {
                if std::sync::Arc::ptr_eq(&orig.buf, &r.buf) {
                    r = crate::arrays::elem::contiguous_copy(&r)?;
                }
            }
            Ok(Value::Array(Box::new(r)))
        },
    );
    m.def(
        NumpyC,
        "ascontiguousarray",
        "a, dtype=None, *, like=None",
        "A C-contiguous array (copied only when needed).",
        |rt, b| {
            let d = dt_opt(rt, &b[1])?;
            let r = to_ndarray_dtype(rt, arg(&b, 0), d)?;
            Ok(Value::Array(if r.is_c_contiguous() {
                Box::new(r)
            } else {
                Box::new(crate::arrays::elem::contiguous_copy(&r)?)
            }))
        },
    );
    m.def(
        NumpyC,
        "asfortranarray",
        "a, dtype=None, *, like=None",
        "A Fortran-ordered (column-major) array (copied only when needed).",
        |rt, b| {
            let d = dt_opt(rt, &b[1])?;
            let r = to_ndarray_dtype(rt, arg(&b, 0), d)?;
            if r.is_f_contiguous() {
                return Ok(Value::Array(Box::new(r)));
            }
            Ok(Value::Array(Box::new(fortran_copy(&r)?)))
        },
    );
    m.def(
        Function,
        "copy",
        "a, order='K', subok=False",
        "A copy of the array.",
        |rt, b| {
            Ok(Value::Array(Box::new(
                crate::arrays::elem::contiguous_copy(&to_ndarray(rt, arg(&b, 0))?)?,
            )))
        },
    );
    m.def_shown(
        NumpyC,
        "arange",
        "start=None, stop=None, step=None, dtype=None, *, device=None, like=None",
        "arange([start,] stop[, step,], dtype=None, *, device=None, like=None)",
        "Evenly spaced values in [start, stop).",
        |rt, b| {
            let given = |i: usize| b[i].clone().filter(|v| !v.is_none());
            // One bound alone is the stop, whether passed as `start` or `stop`.
            let (start, stop) = match (given(0), given(1)) {
                (Some(s), Some(t)) => (s, t),
                (Some(t), None) | (None, Some(t)) => (Value::Int(0), t),
                (None, None) => {
                    return Err(PyErr::type_error("arange() requires stop to be specified."))
                }
            };
            let step = given(2).unwrap_or(Value::Int(1));
            let is_float = [&start, &stop, &step].iter().any(|v| {
                matches!(v, Value::Float(_))
                    || matches!(v, Value::Scalar(s) if s.dtype().is_float())
            });
            let d = dt_opt(rt, &b[3])?.unwrap_or(if is_float { DType::F64 } else { DType::I64 });
            let (s0, s1, st) = (start.as_f64()?, stop.as_f64()?, step.as_f64()?);
            if st == 0.0 {
                return Err(PyErr::new("ZeroDivisionError", "division by zero"));
            }
            let n = ((s1 - s0) / st).ceil().max(0.0) as usize;
            let out = new_array(&[n], d)?;
            with_dtype!(d, T => {
                let o = out.buf.typed_mut::<T>(0, n);
                if matches!(d, DType::F16 | DType::F32) && n > 0 {
                    // NumPy fills float32 and float16 as start + i*delta in float32, from the
                    // first two values as stored.
                    let first = T::from_f64(s0).to_f64() as f32;
                    let delta = T::from_f64(s0 + st).to_f64() as f32 - first;
                    for (i, x) in o.iter_mut().enumerate() {
                        *x = T::from_f64((first + i as f32 * delta) as f64);
                    }
                } else if is_float || d.is_float() {
                    for (i, x) in o.iter_mut().enumerate() {
                        *x = T::from_f64(s0 + i as f64 * st);
                    }
                } else {
                    let (i0, is) = (start.as_index()?, step.as_index()?);
                    for (i, x) in o.iter_mut().enumerate() {
                        *x = T::from_i128(i0 as i128 + i as i128 * is as i128);
                    }
                }
            });
            Ok(Value::Array(Box::new(out)))
        },
    );
    m.def(
        Function,
        "linspace",
        "start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None",
        "Evenly spaced numbers over an interval.",
        |rt, b| {
            let (s0, s1) = (arg(&b, 0).as_f64()?, arg(&b, 1).as_f64()?);
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
            let num = num as usize;
            let endpoint = !matches!(b[3], Some(Value::Bool(false)));
            let div = if endpoint { num.saturating_sub(1) } else { num };
            let delta = s1 - s0;
            let step = if div > 0 {
                delta / div as f64
            } else {
                f64::NAN
            };
            // Allocate through the fallible path first: a huge `num` is a MemoryError.
            let buf = new_array(&[num], DType::F64)?;
            let v = buf.buf.typed_mut::<f64>(0, num);
            for (i, x) in v.iter_mut().enumerate() {
                *x = {
                    if div > 0 {
                        i as f64 * step + s0
                    } else {
                        i as f64 * delta + s0
                    }
                };
            }
            if endpoint && num > 1 {
                v[num - 1] = s1;
            }
            let d = dt_opt(rt, &b[5])?.unwrap_or(DType::F64);
            let out = if d == DType::F64 {
                buf
            } else {
                crate::arrays::elem::cast(&buf, d)?
            };
            if matches!(b[4], Some(Value::Bool(true))) {
                return Ok(Value::tuple(vec![
                    Value::Array(Box::new(out)),
                    Value::Float(step),
                ]));
            }
            Ok(Value::Array(Box::new(out)))
        },
    );
    // `zeros` and `empty` are C functions, `ones` a Python one; `empty_like` is C too.
    for (name, val, style, sig) in [
        (
            "zeros",
            0.0,
            NumpyC,
            "shape, dtype=float, order='C', *, like=None",
        ),
        (
            "ones",
            1.0,
            Function,
            "shape, dtype=None, order='C', *, device=None, like=None",
        ),
        (
            "empty",
            0.0,
            NumpyC,
            "shape, dtype=float, order='C', *, device=None, like=None",
        ),
    ] {
        m.def(
            style,
            name,
            sig,
            "A new array of the given shape.",
            move |rt, b| {
                let d = dt_opt(rt, &b[1])?.unwrap_or(DType::F64);
                let out = fortran_if(new_array(&new_shape(arg(&b, 0))?, d)?, &b[2])?;
                if val != 0.0 {
                    fill(&out, Scalar::F64(val));
                }
                Ok(Value::Array(Box::new(out)))
            },
        );
        let (lname, style, sig) = match name {
            "zeros" => ("zeros_like", Function, LIKE_SIG),
            "ones" => ("ones_like", Function, LIKE_SIG),
            _ => (
                "empty_like",
                NumpyC,
                "prototype, dtype=None, order='K', subok=True, shape=None, *, device=None",
            ),
        };
        m.def(
            style,
            lname,
            sig,
            "A new array shaped like `a`.",
            move |rt, b| {
                let src = to_ndarray(rt, arg(&b, 0))?;
                let d = dt_opt(rt, &b[1])?.unwrap_or(src.dtype);
                let shape = match &b[4] {
                    Some(s) if !s.is_none() => new_shape(s)?,
                    _ => src.shape.clone(),
                };
                let out = new_array(&shape, d)?;
                if val != 0.0 {
                    fill(&out, Scalar::F64(val));
                }
                Ok(Value::Array(Box::new(out)))
            },
        );
    }
    m.def(
        Function,
        "full",
        "shape, fill_value, dtype=None, order='C', *, device=None, like=None",
        "A new array filled with `fill_value`.",
        |rt, b| {
            let fv = arg(&b, 1);
            let d = dt_opt(rt, &b[2])?
                .or_else(|| python_dtype(fv))
                .or(match fv {
                    Value::Scalar(s) => Some(s.dtype()),
                    _ => None,
                })
                .unwrap_or(DType::F64);
            let out = fortran_if(new_array(&new_shape(arg(&b, 0))?, d)?, &b[3])?;
            let s = value_for_fill(rt, fv, d)?;
            fill(&out, s);
            Ok(Value::Array(Box::new(out)))
        },
    );
    m.def(
        Function,
        "full_like",
        "a, fill_value, dtype=None, order='K', subok=True, shape=None, *, device=None",
        "A new array like `a` filled with `fill_value`.",
        |rt, b| {
            let src = to_ndarray(rt, arg(&b, 0))?;
            let d = dt_opt(rt, &b[2])?.unwrap_or(src.dtype);
            let shape = match &b[5] {
                Some(s) if !s.is_none() => new_shape(s)?,
                _ => src.shape.clone(),
            };
            let out = new_array(&shape, d)?;
            let s = value_for_fill(rt, arg(&b, 1), d)?;
            fill(&out, s);
            Ok(Value::Array(Box::new(out)))
        },
    );
    m.def(
        Function,
        "eye",
        "N, M=None, k=0, dtype=float, order='C', *, device=None, like=None",
        "Ones on a diagonal.",
        |rt, b| {
            let dim = |v: &Value| -> PyResult<usize> {
                usize::try_from(v.as_index()?)
                    .map_err(|_| PyErr::value_error("negative dimensions are not allowed"))
            };
            let n = dim(arg(&b, 0))?;
            let mm = match &b[1] {
                Some(v) if !v.is_none() => dim(v)?,
                _ => n,
            };
            let k = b[2]
                .as_ref()
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(0);
            let d = dt_opt(rt, &b[3])?.unwrap_or(DType::F64);
            let out = new_array(&[n, mm], d)?;
            // Only the rows the diagonal crosses: an empty array may have 10**18 rows.
            let first = k.checked_neg().unwrap_or(i64::MAX).clamp(0, n as i64);
            let last = (mm as i64).saturating_sub(k).clamp(0, n as i64);
            for i in first..last {
                let j = i + k;
                if j >= 0 && (j as usize) < mm {
                    out.buf.write(
                        (i as usize * mm + j as usize) * d.itemsize(),
                        &Scalar::I64(1).cast(d).to_bytes(),
                    );
                }
            }
            Ok(Value::Array(Box::new(out)))
        },
    );
}

/// A new C-ordered array given Fortran strides when `order` says 'F' (NumPy's `order=` of
/// `zeros`, `ones`, `empty` and `full`); 'C' or None keep it.
fn fortran_if(mut a: NdArray, order: &Option<Value>) -> PyResult<NdArray> {
    match order.as_ref().filter(|v| !v.is_none()).map(|v| v.as_str()) {
        None => Ok(a),
        Some(Some(o)) if o.eq_ignore_ascii_case("C") => Ok(a),
        Some(Some(o)) if o.eq_ignore_ascii_case("F") => {
            a.strides = NdArray::f_strides(&a.shape, a.dtype.itemsize());
            Ok(a)
        }
        Some(Some(o)) => Err(PyErr::value_error(format!(
            "only 'C' or 'F' order is permitted (got '{o}')"
        ))),
        Some(None) => Err(PyErr::type_error(
            "order must be str, not a non-string value",
        )),
    }
}
