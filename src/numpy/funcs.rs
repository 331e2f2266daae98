//! The functions of the `numpy` module: shape manipulation, joining, selection (creation is
//! in [`crate::numpy::creation`], ufuncs and reductions in [`crate::numpy::ufuncs`]).

use crate::arrays::dtype::DType;
use crate::arrays::elem::{broadcast_to, copy_into, new_array};
use crate::arrays::promote::{can_cast, promote, Casting};
use crate::arrays::NdArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{operands, to_ndarray};
use crate::py::ndarray_shape::{axis_arg, new_shape, reshape_order, shape_arg, transpose};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::{Clinic, Function, NumpyC};
use crate::py::value::{Module, Value};

/// NumPy's `_wrapfunc`: `np.transpose(d)` and friends call the object's own method when
/// it has one, so a Numba device array stays on the device (`np.transpose(d)` is
/// `d.transpose()`). Host arrays and sequences take NumPy's own path (None).
fn wrapfunc(
    rt: &mut Runtime,
    v: &Value,
    method: &str,
    args: Vec<Value>,
) -> PyResult<Option<Value>> {
    let Value::Object(o) = v else {
        return Ok(None);
    };
    match o.clone().get_attr(method, rt)? {
        Some(m) => rt.call(&m, crate::py::value::Args::new(args)).map(Some),
        None => Ok(None),
    }
}

pub(crate) fn arg(b: &[Option<Value>], i: usize) -> &Value {
    b[i].as_ref().unwrap_or(crate::py::value::NONE)
}

pub(crate) fn out_arg(v: &Option<Value>) -> PyResult<Option<NdArray>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(Value::Array(a)) => {
            crate::py::ndarray_attrs::check_writeable(a, "output array")?;
            Ok(Some(a.as_ref().clone()))
        }
        Some(Value::Tuple(t)) if t.len() == 1 => out_arg(&Some(t[0].clone())),
        Some(other) => Err(PyErr::type_error(format!(
            "return arrays must be of ArrayType, not {}",
            other.type_name()
        ))),
    }
}
fn shapes(m: &Module) {
    m.def(
        Function,
        "reshape",
        "a, /, shape=None, order='C', *, newshape=None, copy=None",
        "Give a new shape to an array.",
        |rt, b| {
            let shape = match (&b[1], &b[3]) {
                (Some(_), Some(_)) => {
                    return Err(PyErr::type_error(
                        "You cannot specify 'newshape' and 'shape' arguments at the same time.",
                    ))
                }
                (Some(s), None) | (None, Some(s)) => s.clone(),
                (None, None) => {
                    return Err(PyErr::type_error(
                        "reshape() missing 1 required positional argument: 'shape'",
                    ))
                }
            };
            if let Some(v) = wrapfunc(rt, arg(&b, 0), "reshape", vec![shape.clone()])? {
                return Ok(v);
            }
            let order = b[2]
                .as_ref()
                .and_then(|v| v.as_str())
                .unwrap_or("C")
                .to_string();
            Ok(Value::Array(Box::new(reshape_order(
                &to_ndarray(rt, arg(&b, 0))?,
                &shape_arg(&shape)?,
                &order,
            )?)))
        },
    );
    m.def(
        Function,
        "ravel",
        "a, order='C'",
        "A flattened array (a view when possible).",
        |rt, b| {
            if let Some(v) = wrapfunc(rt, arg(&b, 0), "ravel", Vec::new())? {
                return Ok(v);
            }
            Ok(Value::Array(Box::new(crate::py::ndarray_shape::ravel(
                &to_ndarray(rt, arg(&b, 0))?,
            )?)))
        },
    );
    m.def_shown(
        NumpyC,
        "modf",
        "x, /",
        "modf(x[, out1, out2], / [, out=(None, None)], *, where=True, casting='same_kind', order='K', dtype=None, subok=True[, signature])",
        "Fractional and integral parts, element-wise, both with the sign of x (infinities give (±0.0, ±inf)).",
        |rt, b| {
            let src = arg(&b, 0);
            let x = to_ndarray(rt, src)?;
            // float16 splits in float32 (exact there too) and rounds back, as NumPy's loop does.
            let out_dt = if x.dtype.is_float() { x.dtype } else { DType::F64 };
            let dt = if out_dt == DType::F16 { DType::F32 } else { out_dt };
            let x = crate::arrays::elem::cast(&x, dt)?;
            let frac = crate::arrays::elem::new_array(&x.shape, dt)?;
            let whole = crate::arrays::elem::new_array(&x.shape, dt)?;
            let n = x.size();
            // Exact for float32 too: trunc(v) and v - trunc(v) are representable in it.
            fn split(v: f64) -> (f64, f64) {
                let w = v.trunc();
                let f = if v.is_infinite() { 0.0 } else { v - w };
                (f.copysign(v), w)
            }
            match dt {
                DType::F32 => {
                    let v = crate::arrays::elem::read_vec::<f32>(&x);
                    let (f, w) = (frac.buf.typed_mut::<f32>(0, n), whole.buf.typed_mut::<f32>(0, n));
                    for (i, x) in v.into_iter().enumerate() {
                        let (a, b) = split(x as f64);
                        (f[i], w[i]) = (a as f32, b as f32);
                    }
                }
                _ => {
                    let v = crate::arrays::elem::read_vec::<f64>(&x);
                    let (f, w) = (frac.buf.typed_mut::<f64>(0, n), whole.buf.typed_mut::<f64>(0, n));
                    for (i, x) in v.into_iter().enumerate() {
                        (f[i], w[i]) = split(x);
                    }
                }
            }
            let (frac, whole) = if out_dt == dt {
                (frac, whole)
            } else {
                let back = |a: &NdArray| crate::arrays::elem::cast(a, out_dt);
                (back(&frac)?, back(&whole)?)
            };
            let out = |a: NdArray| match src {
                Value::Array(_) => Value::Array(Box::new(a)),
                _ => Value::Scalar(crate::arrays::elem::first_scalar(&a)),
            };
            Ok(Value::tuple(vec![out(frac), out(whole)]))
        },
    );
    m.def(
        Function,
        "transpose",
        "a, axes=None",
        "Permute the axes.",
        |rt, b| {
            let axes_arg = b[1].iter().filter(|v| !v.is_none()).cloned().collect();
            if let Some(v) = wrapfunc(rt, arg(&b, 0), "transpose", axes_arg)? {
                return Ok(v);
            }
            let axes = match &b[1] {
                Some(v) if !v.is_none() => Some(shape_arg(v)?),
                _ => None,
            };
            Ok(Value::Array(Box::new(transpose(
                &to_ndarray(rt, arg(&b, 0))?,
                axes,
            )?)))
        },
    );
    m.def(
        Function,
        "broadcast_to",
        "array, shape, subok=False",
        "A read-only broadcast view.",
        |rt, b| {
            Ok(Value::Array(Box::new(broadcast_to(
                &to_ndarray(rt, arg(&b, 0))?,
                &new_shape(arg(&b, 1))?,
            )?)))
        },
    );
    m.def_shown(
        Function,
        "concatenate",
        "arrays, /, axis=0, out=None, *, dtype=None, casting='same_kind'",
        "concatenate((a1, a2, ...), axis=0, out=None, dtype=None, casting='same_kind')",
        "Join arrays along an existing axis.",
        |rt, b| {
            let arrs = seq_arrays(rt, arg(&b, 0))?;
            let axis = match &b[1] {
                None => Some(0),
                Some(v) => axis_arg(Some(v))?,
            };
            Ok(Value::Array(Box::new(concatenate(&arrs, axis)?)))
        },
    );
    m.def(
        Function,
        "stack",
        "arrays, axis=0, out=None, *, dtype=None, casting='same_kind'",
        "Join arrays along a new axis.",
        |rt, b| {
            let arrs = seq_arrays(rt, arg(&b, 0))?;
            let first = arrs
                .first()
                .ok_or_else(|| PyErr::value_error("need at least one array to stack"))?;
            if arrs.iter().any(|x| x.shape != first.shape) {
                return Err(PyErr::value_error(
                    "all input arrays must have the same shape",
                ));
            }
            let ax = b[1]
                .as_ref()
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(0) as isize;
            let k = crate::arrays::reduce::norm_axis(ax, first.ndim() + 1)?;
            let ex: Vec<NdArray> = arrs.iter().map(|x| expand(x, k)).collect();
            Ok(Value::Array(Box::new(concatenate(&ex, Some(k as isize))?)))
        },
    );
    for (name, axis, min) in [("vstack", 0isize, 2usize), ("hstack", 1, 1)] {
        m.def(
            Function,
            name,
            "tup, *, dtype=None, casting='same_kind'",
            "Stack arrays in sequence.",
            move |rt, b| {
                let arrs: Vec<NdArray> = seq_arrays(rt, arg(&b, 0))?
                    .into_iter()
                    .map(|mut x| {
                        while x.ndim() < min {
                            x = expand(&x, 0);
                        }
                        x
                    })
                    .collect();
                let ax = if name == "hstack" && arrs.iter().all(|x| x.ndim() == 1) {
                    0
                } else {
                    axis
                };
                Ok(Value::Array(Box::new(concatenate(&arrs, Some(ax))?)))
            },
        );
    }
}

/// Insert a length-1 axis at `k`.
pub fn expand(x: &NdArray, k: usize) -> NdArray {
    let mut r = x.clone();
    r.shape.insert(k, 1);
    r.strides.insert(k, 0);
    r
}

fn seq_arrays(rt: &mut Runtime, v: &Value) -> PyResult<Vec<NdArray>> {
    let items = rt.iterate(v)?;
    items.iter().map(|x| to_ndarray(rt, x)).collect()
}

/// `np.concatenate` (axis None flattens).
pub fn concatenate(arrs: &[NdArray], axis: Option<isize>) -> PyResult<NdArray> {
    if arrs.is_empty() {
        return Err(PyErr::value_error("need at least one array to concatenate"));
    }
    let arrs: Vec<NdArray> = match axis {
        None => arrs
            .iter()
            .map(crate::py::ndarray_shape::ravel)
            .collect::<PyResult<_>>()?,
        Some(_) => arrs.to_vec(),
    };
    let nd = arrs[0].ndim();
    if nd == 0 {
        return Err(PyErr::value_error(
            "zero-dimensional arrays cannot be concatenated",
        ));
    }
    let k = crate::arrays::reduce::norm_axis(axis.unwrap_or(0), nd)?;
    let mut dt = arrs[0].dtype;
    let mut total = 0;
    for (i, x) in arrs.iter().enumerate() {
        if x.ndim() != nd {
            return Err(PyErr::value_error(format!(
                "all the input arrays must have same number of dimensions, but the array at index 0 has {} dimension(s) and the array at index {i} has {} dimension(s)",
                nd, x.ndim()
            )));
        }
        for d in 0..nd {
            if d != k && x.shape[d] != arrs[0].shape[d] {
                return Err(PyErr::value_error(format!(
                    "all the input array dimensions except for the concatenation axis must match exactly, but along dimension {d}, the array at index 0 has size {} and the array at index {i} has size {}",
                    arrs[0].shape[d], x.shape[d]
                )));
            }
        }
        dt = promote(dt, x.dtype);
        total += x.shape[k];
    }
    let mut shape = arrs[0].shape.clone();
    shape[k] = total;
    let out = new_array(&shape, dt)?;
    let mut pos = 0;
    for x in &arrs {
        let mut dst = out.clone();
        dst.offset = (pos as isize * out.strides[k]) as usize;
        dst.shape[k] = x.shape[k];
        copy_into(&dst, x)?;
        pos += x.shape[k];
    }
    Ok(out)
}

/// `np.copyto(dst, src, casting='same_kind', where=True)`: broadcasts and casts `src` into
/// `dst` in place, where `where` is true, refusing casts the rule forbids.
fn copyto(rt: &mut Runtime, b: &crate::py::signature::Bound) -> PyResult<Value> {
    let dst = match arg(b, 0) {
        Value::Array(a) => a.as_ref().clone(),
        other => {
            return Err(PyErr::type_error(format!(
                "copyto() argument 1 must be a numpy.ndarray, not {}",
                other.type_name()
            )))
        }
    };
    let src_v = arg(b, 1);
    let weak = crate::py::promote::is_python_number(src_v);
    let src = to_ndarray(rt, src_v)?;
    let rule = match b.get(2) {
        Some(Value::Str(s)) => s.to_string(),
        _ => "same_kind".to_string(),
    };
    let casting = Casting::parse(&rule).ok_or_else(|| {
        PyErr::value_error(format!(
            "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got '{rule}')"
        ))
    })?;
    if !can_cast(src.dtype, dst.dtype, casting) {
        return Err(PyErr::type_error(format!(
            "Cannot cast {} from dtype('{}') to dtype('{}') according to the rule '{}'",
            if weak { "scalar" } else { "array data" },
            src.dtype.name(),
            dst.dtype.name(),
            rule,
        )));
    }
    crate::py::ndarray_attrs::check_writeable(&dst, "assignment destination")?;
    crate::py::ndarray_attrs::warn_complex_cast(rt, src.dtype, dst.dtype)?;
    let mask = match b.get(3) {
        None | Some(Value::Bool(true)) => None,
        Some(w) => Some(to_ndarray(rt, w)?),
    };
    let Some(mask) = mask else {
        copy_into(&dst, &src)?;
        return Ok(Value::None);
    };
    if mask.dtype != DType::Bool {
        return Err(PyErr::type_error(format!(
            "Cannot cast array data from dtype('{}') to dtype('bool') according to the rule 'safe'",
            mask.dtype.name()
        )));
    }
    // dst keeps its elements where the mask is false: where(mask, src, dst) into dst.
    crate::arrays::select::where_into(&mask, &src, &dst, &dst)?;
    Ok(Value::None)
}

fn selection(m: &Module) {
    m.def(
        Function,
        "copyto",
        "dst, src, casting='same_kind', where=True",
        "Copy values from one array to another, broadcasting as necessary.",
        |rt, b| copyto(rt, &b),
    );
    m.def_shown(
        Clinic,
        "where",
        // A literal default would fill the slots; empty ones mean "not given" here.
        "condition, x=<no value>, y=<no value>, /",
        "where(condition, [x, y], /)",
        "Elements from x where condition, else y; or the indices of true elements.",
        |rt, b| {
            let cond = to_ndarray(rt, arg(&b, 0))?;
            match (&b[1], &b[2]) {
                (None, None) => nonzero(&cond),
                (Some(x), Some(y)) => {
                    let (xa, ya) = match operands(rt, x, y)? {
                        Some(p) => p,
                        None => (to_ndarray(rt, x)?, to_ndarray(rt, y)?),
                    };
                    let out = crate::arrays::select::where3(&cond, &xa, &ya)?;
                    Ok(Value::Array(Box::new(out)))
                }
                _ => Err(PyErr::value_error(
                    "either both or neither of x and y should be given",
                )),
            }
        },
    );
    m.def(
        Function,
        "nonzero",
        "a",
        "Indices of the non-zero elements, one array per axis.",
        |rt, b| nonzero(&to_ndarray(rt, arg(&b, 0))?),
    );
}

fn nonzero(a: &NdArray) -> PyResult<Value> {
    let axes = crate::arrays::select::nonzero(a)?;
    Ok(Value::tuple(
        axes.into_iter()
            .map(|x| Value::Array(Box::new(x)))
            .collect(),
    ))
}

/// Register every function of the numpy module.
pub fn register(m: &Module) {
    crate::numpy::creation::creation(m);
    shapes(m);
    selection(m);
    crate::numpy::ufuncs::ufuncs(m);
    crate::numpy::ufuncs::reductions(m);
    crate::numpy::misc::comparisons(m);
    // npshape: axis rearrangement, joins and splits, differences and grids.
    crate::numpy::shape::register(m);
    crate::numpy::calculus::register(m);
    crate::numpy::grids::register(m);
    crate::numpy::joins::register(m);
    // npmore: searching and counting.
    crate::numpy::counting::register(m);
}
