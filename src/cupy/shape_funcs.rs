//! CuPy's shape and joining functions and the comparisons built from ufuncs: views
//! (`transpose`, `swapaxes`, `squeeze`, `expand_dims`, `reshape`, `ravel`), copies queued as
//! device work (`concatenate`, `stack`, `vstack`, `hstack`, `cumsum`), `isclose`,
//! `allclose`, `array_equal`, `get_array_module` and the constants (`pi`, `inf`, `newaxis`).

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::copy_into;
use crate::arrays::operator::{Arith, Cmp, MathFn, Reduce, Ufunc1, Unary};
use crate::arrays::promote::promote;
use crate::arrays::reduce::{norm_axis, reduce, Reduced};
use crate::arrays::ufunc::Ufunc2;
use crate::cupy::elementwise::{
    self as ops, binary_ufunc, device_dtype, fault, host_view, queue_fallible, stream_of, Operand,
};
use crate::cupy::ndarray::{operand, wrap, CupyArray};
use crate::cupy::reductions as red;
use crate::device::copy::{copy_region, region_of};
use crate::device::{api, DeviceView};
use crate::numba_cuda::devicearray::arg;
use crate::numba_cuda::devicemethods::axes_arg;
use crate::numba_cuda::viewops;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value, NONE};

/// A CuPy array argument (CuPy refuses host data here, as its functions do).
fn array(rt: &mut Runtime, v: Option<&Value>) -> PyResult<DeviceView> {
    let v = v.unwrap_or(NONE);
    match operand(rt, v)? {
        Some(Operand::Arr(a)) => Ok(a),
        _ => Err(PyErr::type_error(format!(
            "Unsupported type {}",
            v.type_name()
        ))),
    }
}

/// An axis of `ndim` dimensions, NumPy's AxisError otherwise.
fn axis_of(v: &Value, ndim: usize) -> PyResult<usize> {
    Ok(norm_axis(v.as_index()? as isize, ndim)?)
}

/// `transpose(a, axes=None)`: a view with the axes permuted (reversed by default).
pub fn transpose(v: &DeviceView, axes: Option<Vec<i64>>) -> PyResult<DeviceView> {
    let nd = v.shape.len();
    let perm: Vec<usize> = match axes {
        None => (0..nd).rev().collect(),
        Some(a) => {
            if a.len() != nd {
                return Err(PyErr::value_error("axes don't match array"));
            }
            let mut seen = vec![false; nd]; // bounded: the array's dimension count
            let mut out = Vec::with_capacity(nd); // bounded: the array's dimension count
            for x in a {
                let ax = norm_axis(x as isize, nd)?;
                if seen[ax] {
                    return Err(PyErr::value_error("repeated axis in transpose"));
                }
                seen[ax] = true;
                out.push(ax);
            }
            out
        }
    };
    Ok(DeviceView {
        shape: perm.iter().map(|&i| v.shape[i]).collect(),
        strides: perm.iter().map(|&i| v.strides[i]).collect(),
        ..v.clone()
    })
}

/// `expand_dims(a, axis)`: a view with a new axis of length one.
fn expand_dims(v: &DeviceView, axis: &Value) -> PyResult<DeviceView> {
    let ax = axis_of(axis, v.shape.len() + 1)?;
    let (mut shape, mut strides) = (v.shape.clone(), v.strides.clone());
    shape.insert(ax, 1);
    strides.insert(ax, 0);
    Ok(DeviceView {
        shape,
        strides,
        ..v.clone()
    })
}

/// The arrays of a `concatenate`/`stack` sequence.
fn sequence(rt: &mut Runtime, v: Option<&Value>) -> PyResult<Vec<DeviceView>> {
    let items = match v {
        Some(Value::Tuple(t)) => t.to_vec(),
        Some(Value::List(l)) => l.borrow().clone(),
        Some(one) => vec![one.clone()],
        None => Vec::new(),
    };
    if items.is_empty() {
        return Err(PyErr::value_error("need at least one array to concatenate"));
    }
    items.iter().map(|x| array(rt, Some(x))).collect()
}

/// `concatenate(arrays, axis=0)`: one copy queued on the device, each input written into
/// its slice of the result; `axis=None` joins them flattened.
pub fn concatenate(
    rt: &mut Runtime,
    parts: Vec<DeviceView>,
    axis: Option<&Value>,
) -> PyResult<DeviceView> {
    let parts = match axis {
        None | Some(Value::None) => parts
            .iter()
            .map(|p| match viewops::ravel(p, 'C') {
                Ok(v) => Ok(v),
                Err(_) => {
                    let c = ops::cast_copy(rt, p, p.dtype)?;
                    viewops::ravel(&c, 'C')
                }
            })
            .collect::<PyResult<Vec<_>>>()?,
        Some(_) => parts,
    };
    let nd = parts[0].shape.len();
    if nd == 0 {
        return Err(PyErr::value_error(
            "zero-dimensional arrays cannot be concatenated",
        ));
    }
    let ax = match axis {
        None | Some(Value::None) => 0,
        Some(a) => axis_of(a, nd)?,
    };
    let mut shape = parts[0].shape.clone();
    shape[ax] = 0;
    let mut dtype = parts[0].dtype;
    for (i, p) in parts.iter().enumerate() {
        if p.shape.len() != nd {
            return Err(PyErr::value_error(format!(
                "all the input array dimensions except for the concatenation axis must match exactly, but along dimension 0, the array at index 0 has {} dimension(s) and the array at index {i} has {} dimension(s)",
                nd,
                p.shape.len()
            )));
        }
        for d in (0..nd).filter(|&d| d != ax) {
            if p.shape[d] != parts[0].shape[d] {
                return Err(PyErr::value_error(format!(
                    "all the input array dimensions except for the concatenation axis must match exactly, but along dimension {d}, the array at index 0 has size {} and the array at index {i} has size {}",
                    parts[0].shape[d], p.shape[d]
                )));
            }
        }
        shape[ax] += p.shape[ax];
        dtype = promote(dtype, p.dtype);
    }
    let dtype = device_dtype(dtype)?;
    let ops_: Vec<Operand> = parts.iter().map(|p| Operand::Arr(p.clone())).collect();
    let stream = stream_of(rt, &ops_);
    let out = api::alloc(rt, &shape, dtype, stream)?;
    let dst = region_of(&out);
    let mut pieces = Vec::with_capacity(parts.len()); // bounded: one per input array
    let mut start = 0usize;
    for p in &parts {
        let mut d = dst.clone();
        d.offset = (dst.offset as isize + start as isize * dst.strides[ax]) as usize;
        d.shape[ax] = p.shape[ax];
        pieces.push((region_of(p), d));
        start += p.shape[ax];
    }
    let bytes = out.size() * dtype.itemsize();
    queue_fallible(rt, stream, "cupy_concatenate", bytes, move || {
        for (s, d) in &pieces {
            copy_region(s, d);
        }
        Ok(())
    });
    Ok(out)
}

/// `cumsum(a, axis=None)`, by host NumPy's loop over the device memory.
fn cumsum(rt: &mut Runtime, v: &DeviceView, axis: Option<&Value>) -> PyResult<DeviceView> {
    let axis = match axis {
        None | Some(Value::None) => None,
        Some(a) => Some(axis_of(a, v.shape.len())? as isize),
    };
    let shape = match axis {
        None => vec![v.size()],
        Some(_) => v.shape.clone(),
    };
    let dtype = device_dtype(crate::arrays::reduce::sum_dtype(v.dtype))?;
    let stream = stream_of(rt, &[Operand::Arr(v.clone())]);
    let out = api::alloc(rt, &shape, dtype, stream)?;
    let (src, dst) = (region_of(v), region_of(&out));
    let bytes = out.size() * dtype.itemsize();
    queue_fallible(rt, stream, "cupy_cumsum", bytes, move || {
        match reduce(Reduce::CumSum, &host_view(&src), axis).map_err(fault)? {
            Reduced::Array(r) => copy_into(&host_view(&dst), &r).map_err(fault),
            Reduced::Scalar(s) => {
                crate::arrays::elem::fill(&host_view(&dst), s);
                Ok(())
            }
        }
    });
    Ok(out)
}

/// NumPy's `isclose`: `|a - b| <= atol + rtol * |b|` where b is finite, or `a == b`
/// (infinities of one sign); with `equal_nan`, NaN is close to NaN.
fn isclose(
    rt: &mut Runtime,
    a: Operand,
    b: Operand,
    rtol: f64,
    atol: f64,
    equal_nan: bool,
) -> PyResult<DeviceView> {
    let arr = |v: DeviceView| Operand::Arr(v);
    let num = |x: f64| Operand::Py(Scalar::F64(x));
    // NumPy takes b as at least float (result_type(b, 1.0)).
    let b = match b {
        Operand::Arr(v) if !v.dtype.is_float() => arr(ops::cast_copy(rt, &v, DType::F64)?),
        o => o,
    };
    let diff = binary_ufunc(rt, Ufunc2::Arith(Arith::Sub), a.clone(), b.clone())?;
    let diff = ops::unary(rt, Ufunc1::Op(Unary::Abs), &diff)?;
    let babs = match &b {
        Operand::Arr(v) => arr(ops::unary(rt, Ufunc1::Op(Unary::Abs), v)?),
        Operand::Py(s) | Operand::Np(s) => num(s.as_f64().abs()),
    };
    let tol = binary_ufunc(rt, Ufunc2::Arith(Arith::Mul), babs, num(rtol))?;
    let tol = binary_ufunc(rt, Ufunc2::Arith(Arith::Add), arr(tol), num(atol))?;
    let close = binary_ufunc(rt, Ufunc2::Cmp(Cmp::Le), arr(diff), arr(tol))?;
    let finite = match &b {
        Operand::Arr(v) => arr(ops::unary(rt, Ufunc1::Math(MathFn::IsFinite), v)?),
        Operand::Py(s) | Operand::Np(s) => Operand::Py(Scalar::Bool(s.as_f64().is_finite())),
    };
    let close = binary_ufunc(rt, Ufunc2::Arith(Arith::BitAnd), arr(close), finite)?;
    let equal = binary_ufunc(rt, Ufunc2::Cmp(Cmp::Eq), a.clone(), b.clone())?;
    let mut res = binary_ufunc(rt, Ufunc2::Arith(Arith::BitOr), arr(close), arr(equal))?;
    if equal_nan {
        let nan = |rt: &mut Runtime, o: &Operand| -> PyResult<Operand> {
            Ok(match o {
                Operand::Arr(v) => arr(ops::unary(rt, Ufunc1::Math(MathFn::IsNan), v)?),
                Operand::Py(s) | Operand::Np(s) => Operand::Py(Scalar::Bool(s.as_f64().is_nan())),
            })
        };
        let (na, nb) = (nan(rt, &a)?, nan(rt, &b)?);
        let both = binary_ufunc(rt, Ufunc2::Arith(Arith::BitAnd), na, nb)?;
        res = binary_ufunc(rt, Ufunc2::Arith(Arith::BitOr), arr(res), arr(both))?;
    }
    Ok(res)
}

fn all(rt: &mut Runtime, v: &DeviceView) -> PyResult<DeviceView> {
    red::reduce(rt, Reduce::All, v, None, 0)
}

/// Register the functions and constants of this file in the `cupy` module.
pub fn register(m: &Module) {
    for (name, v) in [
        ("pi", std::f64::consts::PI),
        ("e", std::f64::consts::E),
        ("euler_gamma", 0.577_215_664_901_532_9),
        ("inf", f64::INFINITY),
        ("nan", f64::NAN),
    ] {
        m.set(name, Value::Float(v));
    }
    m.set("newaxis", Value::None);
    m.def(
        Function,
        "get_array_module",
        "*args",
        "The module for the arguments: cupy if any of them is a CuPy array, else numpy.",
        |rt, b| {
            let name = if b.rest.iter().any(|v| v.downcast::<CupyArray>().is_some()) {
                "cupy"
            } else {
                "numpy"
            };
            Ok(Value::Module(crate::py::registry::import(rt, name)?))
        },
    );
    m.def(
        Function,
        "transpose",
        "a, axes=None",
        "Permutes the dimensions of an array (a view).",
        |rt, b| {
            let v = array(rt, arg(&b, 0))?;
            Ok(wrap(transpose(&v, axes_arg(arg(&b, 1))?)?))
        },
    );
    m.def(
        Function,
        "swapaxes",
        "a, axis1, axis2",
        "Interchanges two axes of an array (a view).",
        |rt, b| {
            let v = array(rt, arg(&b, 0))?;
            let nd = v.shape.len();
            let (x, y) = (axis_of(&b.value(1), nd)?, axis_of(&b.value(2), nd)?);
            let mut perm: Vec<i64> = (0..nd as i64).collect();
            perm.swap(x, y);
            Ok(wrap(transpose(&v, Some(perm))?))
        },
    );
    m.def(
        Function,
        "squeeze",
        "a, axis=None",
        "Removes axes of length one (a view).",
        |rt, b| {
            let v = array(rt, arg(&b, 0))?;
            Ok(wrap(viewops::squeeze(&v, axes_arg(arg(&b, 1))?)?))
        },
    );
    m.def(
        Function,
        "expand_dims",
        "a, axis",
        "Inserts a new axis of length one (a view).",
        |rt, b| {
            let v = array(rt, arg(&b, 0))?;
            Ok(wrap(expand_dims(&v, &b.value(1))?))
        },
    );
    m.def(
        Function,
        "ravel",
        "a, order='C'",
        "A flattened array (a view when possible).",
        |rt, b| {
            let v = array(rt, arg(&b, 0))?;
            Ok(wrap(match viewops::ravel(&v, 'C') {
                Ok(r) => r,
                Err(_) => viewops::ravel(&ops::cast_copy(rt, &v, v.dtype)?, 'C')?,
            }))
        },
    );
    m.def(
        Function,
        "concatenate",
        "tup, axis=0, out=None, *, dtype=None, casting='same_kind'",
        "Joins arrays along an existing axis.",
        |rt, b| {
            let parts = sequence(rt, arg(&b, 0))?;
            let res = concatenate(rt, parts, Some(&b.value(1)))?;
            crate::cupy::results::finish(rt, "concatenate", res, arg(&b, 2))
        },
    );
    for (name, doc) in [
        ("stack", "Joins arrays along a new axis."),
        (
            "vstack",
            "Stacks arrays vertically (along the first axis; 1-D arrays become rows).",
        ),
        (
            "hstack",
            "Stacks arrays horizontally (along the second axis; 1-D arrays join end to end).",
        ),
    ] {
        let sig = if name == "stack" {
            "arrays, axis=0, out=None"
        } else {
            "tup"
        };
        m.def(Function, name, sig, doc, move |rt, b| {
            let parts = sequence(rt, arg(&b, 0))?;
            let res = match name {
                "stack" => {
                    let first = parts[0].shape.clone();
                    if parts.iter().any(|p| p.shape != first) {
                        return Err(PyErr::value_error(
                            "all input arrays must have the same shape",
                        ));
                    }
                    let axis = b.value(1);
                    let nd = first.len() + 1;
                    let ax = Value::Int(axis_of(&axis, nd)? as i64);
                    let parts = parts
                        .iter()
                        .map(|p| expand_dims(p, &ax))
                        .collect::<PyResult<Vec<_>>>()?;
                    concatenate(rt, parts, Some(&ax))?
                }
                "vstack" => {
                    let parts = parts
                        .iter()
                        .map(|p| match p.shape.len() {
                            0 | 1 => viewops::reshape(p, vec![1, p.size()], 'C'),
                            _ => Ok(p.clone()),
                        })
                        .collect::<PyResult<Vec<_>>>()?;
                    concatenate(rt, parts, Some(&Value::Int(0)))?
                }
                _ => {
                    let axis = if parts.iter().all(|p| p.shape.len() <= 1) {
                        0
                    } else {
                        1
                    };
                    let parts = parts
                        .iter()
                        .map(|p| match p.shape.len() {
                            0 => viewops::reshape(p, vec![1], 'C'),
                            _ => Ok(p.clone()),
                        })
                        .collect::<PyResult<Vec<_>>>()?;
                    concatenate(rt, parts, Some(&Value::Int(axis)))?
                }
            };
            crate::cupy::results::finish(rt, name, res, arg(&b, 2))
        });
    }
    m.def(
        Function,
        "cumsum",
        "a, axis=None, dtype=None, out=None",
        "The cumulative sum of the elements along an axis (of the flattened array by default).",
        |rt, b| {
            let mut v = array(rt, arg(&b, 0))?;
            if let Some(d) = arg(&b, 2).filter(|d| !d.is_none()) {
                let dt = crate::py::ndarray_attrs::dtype_from_value(rt, d)?;
                v = ops::cast_copy(rt, &v, dt)?;
            }
            let res = cumsum(rt, &v, arg(&b, 1))?;
            crate::cupy::results::finish(rt, "cumsum", res, arg(&b, 3))
        },
    );
    m.def(
        Function,
        "isclose",
        "a, b, rtol=1e-05, atol=1e-08, equal_nan=False",
        "Whether two arrays are elementwise equal within a tolerance.",
        |rt, b| {
            let (x, y) = (need(rt, arg(&b, 0))?, need(rt, arg(&b, 1))?);
            let eq = rt.truthy(&b.value(4))?;
            Ok(wrap(isclose(
                rt,
                x,
                y,
                b.value(2).as_f64()?,
                b.value(3).as_f64()?,
                eq,
            )?))
        },
    );
    m.def(
        Function,
        "allclose",
        "a, b, rtol=1e-05, atol=1e-08, equal_nan=False",
        "Whether every element of two arrays is equal within a tolerance (a 0-d boolean array).",
        |rt, b| {
            let (x, y) = (need(rt, arg(&b, 0))?, need(rt, arg(&b, 1))?);
            let eq = rt.truthy(&b.value(4))?;
            let close = isclose(rt, x, y, b.value(2).as_f64()?, b.value(3).as_f64()?, eq)?;
            Ok(wrap(all(rt, &close)?))
        },
    );
    m.def(
        Function,
        "array_equal",
        "a1, a2, equal_nan=False",
        "Whether two arrays have the same shape and elements (a 0-d boolean array).",
        |rt, b| {
            let (x, y) = (array(rt, arg(&b, 0))?, array(rt, arg(&b, 1))?);
            if x.shape != y.shape {
                return Ok(wrap(ops::full(rt, &[], DType::Bool, Scalar::Bool(false))?));
            }
            let same = if rt.truthy(&b.value(2))? {
                isclose(rt, Operand::Arr(x), Operand::Arr(y), 0.0, 0.0, true)?
            } else {
                binary_ufunc(rt, Ufunc2::Cmp(Cmp::Eq), Operand::Arr(x), Operand::Arr(y))?
            };
            Ok(wrap(all(rt, &same)?))
        },
    );
}

/// An operand for the comparisons: a CuPy array or a number.
fn need(rt: &mut Runtime, v: Option<&Value>) -> PyResult<Operand> {
    let v = v.unwrap_or(NONE);
    operand(rt, v)?.ok_or_else(|| PyErr::type_error(format!("Unsupported type {}", v.type_name())))
}
