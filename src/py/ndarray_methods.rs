//! ndarray attributes and methods (`a.shape`, `a.reshape(...)`, `a.sum(axis=0)` ...), and
//! the shape manipulations they share with the `numpy` module functions.

use crate::arrays::dtype::Scalar;
use crate::arrays::elem::{contiguous_copy, fill, first_scalar, shape_str};
use crate::arrays::operator::Ufunc1;
use crate::arrays::reduce::reduce_ddof;
use crate::arrays::NdArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{dtype_from_value, to_list, value_for_fill, wrap_result};
use crate::py::runtime::Runtime;
use crate::py::value::scalar_to_python;
use crate::py::value::{Args, Value};

/// A shape argument: an int or a tuple/list of ints.
pub fn shape_arg(v: &Value) -> PyResult<Vec<isize>> {
    let items: Vec<Value> = match v {
        Value::Tuple(t) => t.to_vec(),
        Value::List(l) => l.borrow().clone(),
        other => vec![other.clone()],
    };
    items.iter().map(|x| Ok(x.as_index()? as isize)).collect()
}

/// A non-negative shape for creation functions.
pub fn new_shape(v: &Value) -> PyResult<Vec<usize>> {
    shape_arg(v)?
        .into_iter()
        .map(|d| {
            if d < 0 {
                Err(PyErr::value_error("negative dimensions are not allowed"))
            } else {
                Ok(d as usize)
            }
        })
        .collect()
}

/// An `axis=` argument (None or an int).
pub fn axis_arg(v: Option<&Value>) -> PyResult<Option<isize>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(x) => Ok(Some(x.as_index()? as isize)),
    }
}

/// `a.reshape(shape)` in C order (a view when the data is contiguous).
pub fn reshape(a: &NdArray, shape: &[isize]) -> PyResult<NdArray> {
    let size = a.size();
    let unknown = shape.iter().filter(|&&d| d == -1).count();
    let known: usize = shape
        .iter()
        .filter(|&&d| d > 0)
        .try_fold(1usize, |acc, &d| acc.checked_mul(d as usize))
        .map(|k| if shape.contains(&0) { 0 } else { k })
        .ok_or_else(|| {
            PyErr::value_error(format!(
                "cannot reshape array of size {size} into shape {}",
                shape_display(shape)
            ))
        })?;
    let err = || {
        PyErr::value_error(format!(
            "cannot reshape array of size {size} into shape {}",
            shape_display(shape)
        ))
    };
    if unknown > 1 {
        return Err(PyErr::value_error("can only specify one unknown dimension"));
    }
    if shape.iter().any(|&d| d < -1) {
        return Err(PyErr::value_error("negative dimensions not allowed"));
    }
    let new: Vec<usize> = if unknown == 1 {
        if known == 0 || !size.is_multiple_of(known) {
            return Err(err());
        }
        shape
            .iter()
            .map(|&d| if d == -1 { size / known } else { d as usize })
            .collect()
    } else {
        shape.iter().map(|&d| d as usize).collect()
    };
    if new.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d)) != Some(size) {
        return Err(err());
    }
    // An empty array may be given a huge axis; its strides must still fit.
    crate::arrays::elem::check_strides_fit(&new, a.dtype)?;
    let base = if a.is_c_contiguous() {
        a.clone()
    } else {
        contiguous_copy(a)?
    };
    // A view when the data was contiguous; a fresh copy owns its data.
    let view = a.is_c_contiguous();
    Ok(NdArray {
        strides: NdArray::c_strides(&new, a.dtype.itemsize()),
        shape: new,
        view,
        ..base
    })
}

fn shape_display(shape: &[isize]) -> String {
    if shape.len() == 1 {
        format!("({},)", shape[0])
    } else {
        format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// `a.transpose(axes)`; reversed axes when None.
pub fn transpose(a: &NdArray, axes: Option<Vec<isize>>) -> PyResult<NdArray> {
    let nd = a.ndim();
    let perm: Vec<usize> = match axes {
        None => (0..nd).rev().collect(),
        Some(ax) => {
            if ax.len() != nd {
                return Err(PyErr::value_error("axes don't match array"));
            }
            let p: Vec<usize> = ax
                .iter()
                .map(|&x| crate::arrays::reduce::norm_axis(x, nd))
                .collect::<Result<_, _>>()?;
            let mut seen = vec![false; nd]; // bounded: one per dimension
            for &i in &p {
                if seen[i] {
                    return Err(PyErr::value_error("repeated axis in transpose"));
                }
                seen[i] = true;
            }
            p
        }
    };
    Ok(NdArray {
        shape: perm.iter().map(|&i| a.shape[i]).collect(),
        strides: perm.iter().map(|&i| a.strides[i]).collect(),
        view: true,
        ..a.clone()
    })
}

/// `a.squeeze(axis)`.
pub fn squeeze(a: &NdArray, axis: Option<isize>) -> PyResult<NdArray> {
    let keep: Vec<usize> = match axis {
        None => (0..a.ndim()).filter(|&i| a.shape[i] != 1).collect(),
        Some(ax) => {
            let k = crate::arrays::reduce::norm_axis(ax, a.ndim())?;
            if a.shape[k] != 1 {
                return Err(PyErr::value_error(
                    "cannot select an axis to squeeze out which has size not equal to one",
                ));
            }
            (0..a.ndim()).filter(|&i| i != k).collect()
        }
    };
    Ok(NdArray {
        shape: keep.iter().map(|&i| a.shape[i]).collect(),
        strides: keep.iter().map(|&i| a.strides[i]).collect(),
        view: true,
        ..a.clone()
    })
}

/// `a.ravel()`: a view when contiguous, else a copy.
pub fn ravel(a: &NdArray) -> PyResult<NdArray> {
    reshape(a, &[-1])
}

const METHODS: &[&str] = &[
    "all",
    "any",
    "argmax",
    "argmin",
    "astype",
    "copy",
    "cumprod",
    "cumsum",
    "fill",
    "flatten",
    "item",
    "max",
    "mean",
    "min",
    "prod",
    "ravel",
    "reshape",
    "squeeze",
    "std",
    "sum",
    "tolist",
    "transpose",
    "var",
    "view",
    "clip",
    "round",
    "dot",
    "nonzero",
    "sort",
    "argsort",
    "swapaxes",
    "repeat",
    "conj",
    "conjugate",
    "diagonal",
    "trace",
];
const ATTRS: &[&str] = &[
    "T", "dtype", "flags", "itemsize", "nbytes", "ndim", "shape", "size", "strides", "flat",
    "real", "imag",
];

/// Attribute names of ndarrays for completion.
pub fn array_dir() -> Vec<String> {
    let mut v: Vec<String> = METHODS.iter().chain(ATTRS).map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn ints(v: &[usize]) -> Value {
    Value::tuple(v.iter().map(|&d| Value::Int(d as i64)).collect())
}

/// `arr.name`: attributes and bound methods of an ndarray. Ok(None) → AttributeError.
pub fn array_getattr(a: &NdArray, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
    Ok(Some(match name {
        "shape" => ints(&a.shape),
        "dtype" => Value::DType(a.dtype),
        "ndim" => Value::Int(a.ndim() as i64),
        "size" => Value::Int(a.size() as i64),
        "nbytes" => Value::Int(a.nbytes() as i64),
        "itemsize" => Value::Int(a.dtype.itemsize() as i64),
        "strides" => Value::tuple(a.strides.iter().map(|&s| Value::Int(s as i64)).collect()),
        "T" => Value::Array(Box::new(transpose(a, None)?)),
        // Views of the parts, as NumPy's: writing through them changes the array.
        "real" if a.dtype.is_complex() => {
            Value::Array(Box::new(crate::arrays::complex::part_view(a, false)))
        }
        "imag" if a.dtype.is_complex() => {
            Value::Array(Box::new(crate::arrays::complex::part_view(a, true)))
        }
        "real" => Value::Array(Box::new(NdArray {
            view: true,
            ..a.clone()
        })),
        "imag" => Value::Array(Box::new(crate::arrays::elem::new_array(&a.shape, a.dtype)?)),
        "flat" => Value::Array(Box::new(ravel(a)?)),
        "flags" => crate::py::flags::Flags::value(
            a.is_c_contiguous(),
            a.is_f_contiguous(),
            !a.view && a.offset == 0 && a.buf.len() == a.nbytes(),
            Some(a.buf.clone()),
        ),
        m if METHODS.contains(&m) => method(a.clone(), m),
        _ => return Ok(None),
    }))
}

fn method(a: NdArray, name: &str) -> Value {
    let qual = format!("ndarray.{name}");
    let (sig, doc) = match crate::py::ndarray_docs::method_doc(name) {
        Some((s, d)) => (s.to_string(), d.to_string()),
        None => (format!("{name}(...)"), format!("NumPy's ndarray.{name}.")),
    };
    let name = name.to_string();
    Value::builtin(&qual, &sig, &doc, move |rt, args| {
        call_method(&a, &name, rt, args)
    })
}

fn call_method(a: &NdArray, name: &str, rt: &mut Runtime, args: Args) -> PyResult<Value> {
    let fname = name;
    match name {
        "sum" | "mean" | "min" | "max" | "prod" | "argmin" | "argmax" | "any" | "all"
        | "cumsum" | "cumprod" => {
            let b = args.bind(fname, &["axis=", "dtype=", "out=", "keepdims="])?;
            let axis = axis_arg(b[0].as_ref())?;
            let src = match &b[1] {
                Some(d) if !d.is_none() => crate::arrays::elem::cast(a, dtype_from_value(rt, d)?)?,
                _ => a.clone(),
            };
            let r = reduce_ddof(name, &src, axis, 0)?.into();
            into_out(name, keepdims(r, a, axis, b[3].as_ref())?, &b[2])
        }
        "std" | "var" => {
            let b = args.bind(fname, &["axis=", "dtype=", "out=", "ddof=", "keepdims="])?;
            let axis = axis_arg(b[0].as_ref())?;
            let ddof = b[3]
                .as_ref()
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(0);
            let src = match &b[1] {
                Some(d) if !d.is_none() => crate::arrays::elem::cast(a, dtype_from_value(rt, d)?)?,
                _ => a.clone(),
            };
            let r = reduce_ddof(name, &src, axis, ddof.max(0) as usize)?.into();
            into_out(name, keepdims(r, a, axis, b[4].as_ref())?, &b[2])
        }
        "astype" => {
            let b = args.bind(fname, &["dtype", "order=", "casting=", "subok=", "copy="])?;
            let d = dtype_from_value(rt, b[0].as_ref().unwrap_or(&Value::None))?;
            crate::py::ndarray_attrs::warn_complex_cast(rt, a.dtype, d)?;
            Ok(Value::Array(Box::new(crate::arrays::elem::cast(a, d)?)))
        }
        "conj" | "conjugate" => {
            args.bind(fname, &[])?;
            Ok(Value::Array(Box::new(if a.dtype.is_complex() {
                crate::arrays::complex::complex_unary(Ufunc1::Conjugate, a)?
            } else {
                a.clone()
            })))
        }
        "copy" => {
            args.bind(fname, &["order="])?;
            Ok(Value::Array(Box::new(contiguous_copy(a)?)))
        }
        "reshape" => {
            let order = args
                .kwarg("order")
                .and_then(|v| v.as_str())
                .unwrap_or("C")
                .to_string();
            let pos = args.pos.clone();
            let shape: Vec<isize> = if pos.len() == 1 {
                shape_arg(&pos[0])?
            } else {
                pos.iter()
                    .map(|v| Ok(v.as_index()? as isize))
                    .collect::<PyResult<_>>()?
            };
            Ok(Value::Array(Box::new(reshape_order(a, &shape, &order)?)))
        }
        "repeat" => crate::py::ndarray_repeat::repeat_method(rt, a, args),
        "ravel" | "flatten" => {
            let r = ravel(a)?;
            Ok(Value::Array(if name == "flatten" {
                Box::new(contiguous_copy(&r)?)
            } else {
                Box::new(r)
            }))
        }
        "transpose" => {
            let axes = match args.pos.len() {
                0 => None,
                1 if matches!(args.pos[0], Value::Tuple(_) | Value::List(_)) => {
                    Some(shape_arg(&args.pos[0])?)
                }
                _ => Some(
                    args.pos
                        .iter()
                        .map(|v| Ok(v.as_index()? as isize))
                        .collect::<PyResult<_>>()?,
                ),
            };
            Ok(Value::Array(Box::new(transpose(a, axes)?)))
        }
        "swapaxes" => {
            let b = args.bind(fname, &["axis1", "axis2"])?;
            let nd = a.ndim();
            let i = crate::arrays::reduce::norm_axis(
                b[0].as_ref()
                    .map(|v| v.as_index())
                    .transpose()?
                    .unwrap_or(0) as isize,
                nd,
            )?;
            let j = crate::arrays::reduce::norm_axis(
                b[1].as_ref()
                    .map(|v| v.as_index())
                    .transpose()?
                    .unwrap_or(0) as isize,
                nd,
            )?;
            let mut p: Vec<isize> = (0..nd as isize).collect();
            p.swap(i, j);
            Ok(Value::Array(Box::new(transpose(a, Some(p))?)))
        }
        "squeeze" => {
            let b = args.bind(fname, &["axis="])?;
            Ok(Value::Array(Box::new(squeeze(
                a,
                axis_arg(b[0].as_ref())?,
            )?)))
        }
        "tolist" => to_list(a),
        "sort" => {
            crate::py::ndarray_attrs::check_writeable(a, "sort array")?;
            // In place, as ndarray.sort() does (the module function returns a copy).
            let f = numpy_function(rt, "sort")?.ok_or_else(|| PyErr::internal("np.sort"))?;
            let Value::Builtin(b) = &f else {
                return Err(PyErr::internal("np.sort is not a builtin"));
            };
            let mut pos = vec![Value::Array(Box::new(a.clone()))];
            pos.extend(args.pos.iter().cloned());
            let call = Args {
                pos,
                kw: args.kw.clone(),
            };
            let sorted = (b.f)(rt, call)?;
            if let Value::Array(ref s) = sorted {
                crate::arrays::elem::copy_into(a, s)?;
            }
            Ok(Value::None)
        }
        "item" => {
            if args.pos.is_empty() {
                if a.size() != 1 {
                    return Err(PyErr::value_error(
                        "can only convert an array of size 1 to a Python scalar",
                    ));
                }
                return Ok(scalar_to_python(first_scalar(a)));
            }
            let flat = contiguous_copy(a)?;
            let i = args.pos[0].as_index()?;
            let n = a.size() as i64;
            let j = if i < 0 { i + n } else { i };
            if j < 0 || j >= n {
                return Err(PyErr::index_error(format!(
                    "index {i} is out of bounds for size {n}"
                )));
            }
            let s = crate::arrays::elem::read_scalar_at(&flat, j as usize * a.dtype.itemsize());
            Ok(scalar_to_python(s))
        }
        "fill" => {
            let b = args.bind(fname, &["value"])?;
            crate::py::ndarray_attrs::check_writeable(a, "assignment destination")?;
            let v = value_for_fill(rt, b[0].as_ref().unwrap_or(&Value::None), a.dtype)?;
            fill(a, v);
            Ok(Value::None)
        }
        "view" => {
            let b = args.bind(fname, &["dtype="])?;
            let d = match &b[0] {
                None | Some(Value::None) => a.dtype,
                Some(v) => dtype_from_value(rt, v)?,
            };
            let (shape, strides) = crate::arrays::index::view_layout(
                &a.shape,
                &a.strides,
                a.dtype.itemsize(),
                d.itemsize(),
            )?;
            // nbcuda's typed views keep every element at a multiple of its size; NumPy
            // would hand out an unaligned array here.
            let align = d.itemsize().clamp(1, 8);
            let empty = shape.contains(&0);
            if !empty
                && (!a.offset.is_multiple_of(align)
                    || shape
                        .iter()
                        .zip(&strides)
                        .any(|(&n, &st)| n > 1 && st % align as isize != 0))
            {
                return Err(PyErr::not_implemented(format!(
                    "this view would be unaligned for {}: nbcuda keeps every element at a multiple of its size (byte offset {}, strides {strides:?})",
                    d.name(),
                    a.offset
                )));
            }
            Ok(Value::Array(Box::new(NdArray {
                dtype: d,
                shape,
                strides,
                view: true,
                ..a.clone()
            })))
        }
        _ => {
            // Everything else is the module function with the array first.
            let f = numpy_function(rt, name)?.ok_or_else(|| {
                PyErr::attribute_error(format!("'numpy.ndarray' object has no attribute '{name}'"))
            })?;
            let mut pos = vec![Value::Array(Box::new(a.clone()))];
            pos.extend(args.pos);
            rt.call(&f, Args { pos, kw: args.kw })
        }
    }
}

/// `reshape` with `order='C'|'F'`.
pub fn reshape_order(a: &NdArray, shape: &[isize], order: &str) -> PyResult<NdArray> {
    match order {
        "C" | "A" => reshape(a, shape),
        "F" => {
            let t = transpose(a, None)?;
            let rev: Vec<isize> = shape.iter().rev().cloned().collect();
            let r = reshape(&t, &rev)?;
            transpose(&r, None)
        }
        o => Err(PyErr::value_error(format!(
            "order must be one of 'C', 'F', 'A', or 'K' (got '{o}')"
        ))),
    }
}

fn keepdims(r: Value, a: &NdArray, axis: Option<isize>, kd: Option<&Value>) -> PyResult<Value> {
    if !matches!(kd, Some(Value::Bool(true))) {
        return Ok(r);
    }
    let arr = match &r {
        Value::Array(x) => x.as_ref().clone(),
        Value::Scalar(s) => crate::arrays::elem::scalar_array(*s),
        other => return Ok(other.clone()),
    };
    let mut shape: Vec<isize> = a.shape.iter().map(|&d| d as isize).collect();
    match axis {
        None => shape.iter_mut().for_each(|d| *d = 1),
        Some(ax) => shape[crate::arrays::reduce::norm_axis(ax, a.ndim())?] = 1,
    }
    Ok(wrap_result(reshape(&arr, &shape)?))
}

/// A reduction's `out=`: the result is cast into it (NumPy casts reduction outputs as
/// needed) and `out` is returned.
fn into_out(name: &str, r: Value, out: &Option<Value>) -> PyResult<Value> {
    let o = match out {
        None | Some(Value::None) => return Ok(r),
        Some(Value::Array(o)) => o,
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "output must be an array, not {}",
                other.type_name()
            )))
        }
    };
    let res = match &r {
        Value::Array(x) => x.as_ref().clone(),
        Value::Scalar(s) => crate::arrays::elem::scalar_array(*s),
        other => crate::arrays::elem::scalar_array(crate::py::value::python_scalar(other)?),
    };
    if res.shape != o.shape {
        return Err(PyErr::value_error(format!(
            "output parameter for reduction operation {name} has shape {}, but the result has shape {}",
            shape_str(&o.shape),
            shape_str(&res.shape)
        ))
        .with_hint("Allocate out with the reduced shape (keepdims=True keeps the reduced axes as 1)."));
    }
    crate::arrays::elem::copy_into(o, &res)?;
    Ok(Value::Array(o.clone()))
}

/// A description of a shape for messages.
pub fn describe(a: &NdArray) -> String {
    format!("{} {}", shape_str(&a.shape), a.dtype.name())
}

/// Scalar with a given dtype from a Python number (used by fill and full).
pub fn cast_scalar(s: Scalar, d: crate::arrays::dtype::DType) -> Scalar {
    s.cast(d)
}

/// A function of the session's `numpy` module (found through the registry: the module sits
/// above the value model).
pub fn numpy_function(rt: &mut Runtime, name: &str) -> PyResult<Option<Value>> {
    Ok(crate::py::registry::import(rt, "numpy")?.get(name))
}
