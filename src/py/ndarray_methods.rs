//! ndarray attributes and methods (`a.shape`, `a.reshape(...)`, `a.sum(axis=0)` ...): the
//! attributes by name, the methods as one declarative table (name, signature, doc and body
//! once each, via `py::methods`) for lookup, `dir()`, completion, `?` and binding arguments
//! by name. The shape manipulations they share with the `numpy` module are in
//! `ndarray_shape.rs`.

use crate::arrays::elem::{contiguous_copy, fill, first_scalar, shape_str};
use crate::arrays::operator::{Reduce, Ufunc1};
use crate::arrays::reduce::reduce_ddof;
use crate::arrays::NdArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::methods::{Bound, MethodFn, MethodSpec, MethodTable, Style};
use crate::py::ndarray_attrs::{dtype_from_value, to_list, value_for_fill, wrap_result};
use crate::py::ndarray_shape::{
    axis_arg, ravel, reshape, reshape_order, shape_arg, squeeze, transpose,
};
use crate::py::runtime::Runtime;
use crate::py::signature::after_first;
use crate::py::value::scalar_to_python;
use crate::py::value::{Args, Value};

const ATTRS: &[&str] = &[
    "T", "dtype", "flags", "itemsize", "nbytes", "ndim", "shape", "size", "strides", "flat",
    "real", "imag",
];

/// Attribute names of ndarrays for completion.
pub fn array_dir() -> Vec<String> {
    NDARRAY.names_with(ATTRS)
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
        _ => return Ok(NDARRAY.bound(a, name)),
    }))
}

pub static NDARRAY: MethodTable<NdArray> = MethodTable {
    owner: "ndarray",
    methods: &SPECS,
};

/// NumPy's ndarray methods are C functions whose arguments `npy_parse_arguments` binds
/// (the reductions forward to Python functions that take the same parameters).
const fn m(
    name: &'static str,
    sig: &'static str,
    doc: &'static str,
    call: MethodFn<NdArray>,
) -> MethodSpec<NdArray> {
    MethodSpec::styled(Style::NumpyC, name, sig, doc, call)
}

/// The signatures of the reduction functions (`np.sum` ...): those of NumPy's Python
/// functions, less `initial=` and `where=`. The methods take the same parameters less `a`:
/// those of the Python functions they pass their arguments to (`numpy/_core/_methods.py`),
/// where `any` and `all` take a `dtype`, second, though their module functions have none.
const SUM_FN: &str = "a, axis=None, dtype=None, out=None, keepdims=False";
const CUM_FN: &str = "a, axis=None, dtype=None, out=None";
const VAR_FN: &str = "a, axis=None, dtype=None, out=None, ddof=0, keepdims=False";
const MAX_FN: &str = "a, axis=None, out=None, keepdims=False";
const ARG_FN: &str = "a, axis=None, out=None, *, keepdims=False";
const ANY_FN: &str = "a, axis=None, out=None, keepdims=False";

const SUM_SIG: &str = after_first(SUM_FN);
const CUM_SIG: &str = after_first(CUM_FN);
const VAR_SIG: &str = after_first(VAR_FN);
const MAX_SIG: &str = after_first(MAX_FN);
const ARG_SIG: &str = after_first(ARG_FN);

/// The parameter list of NumPy's module function for this reduction.
pub fn reduction_function_sig(kind: Reduce) -> &'static str {
    use Reduce::*;
    match kind {
        Sum | Prod | Mean => SUM_FN,
        CumSum | CumProd => CUM_FN,
        Var | Std => VAR_FN,
        Min | Max => MAX_FN,
        ArgMin | ArgMax => ARG_FN,
        Any | All => ANY_FN,
    }
}

static SPECS: [MethodSpec<NdArray>; 36] = [
    m("all", SUM_SIG,
        "True when every element (or every element along axis) is non-zero. With axis the result is an array of booleans, one per remaining position; keepdims=True keeps the reduced axis with length 1.",
        |a, rt, b| reduction(rt, a, Reduce::All, &b)),
    m("any", SUM_SIG,
        "True when at least one element (or one along axis) is non-zero. With axis the result is an array of booleans; keepdims=True keeps the reduced axis with length 1.",
        |a, rt, b| reduction(rt, a, Reduce::Any, &b)),
    m("argmax", ARG_SIG,
        "The index of the largest element: into the flattened array without axis, or along axis as an array of indices. The first occurrence wins on ties; NaN counts as the largest.",
        |a, rt, b| reduction(rt, a, Reduce::ArgMax, &b)),
    m("argmin", ARG_SIG,
        "The index of the smallest element: into the flattened array without axis, or along axis as an array of indices. The first occurrence wins on ties; NaN counts as the smallest.",
        |a, rt, b| reduction(rt, a, Reduce::ArgMin, &b)),
    m("argsort", "axis=-1, kind=None, order=None, *, stable=None",
        "The indices that would sort the array along the last axis.",
        |a, rt, b| forward(rt, a, "argsort", b)),
    m("astype", "dtype, order='K', casting='unsafe', subok=True, copy=True",
        "A new array with the same shape and every element converted to dtype (floats to integers truncate toward zero). The original array is left unchanged.",
        |a, rt, b| {
            let d = dtype_from_value(rt, &b.value(0))?;
            crate::py::ndarray_attrs::warn_complex_cast(rt, a.dtype, d)?;
            Ok(Value::Array(Box::new(crate::arrays::elem::cast(a, d)?)))
        }),
    m("clip", "min=None, max=None, out=None",
        "A copy with values below min raised to min and values above max lowered to max.",
        |a, rt, b| forward(rt, a, "clip", b)),
    m("conj", "", "The complex conjugate, element-wise (the array itself when it is not complex).",
        |a, _, _| conjugate(a)),
    m("conjugate", "", "The complex conjugate, element-wise (the array itself when it is not complex).",
        |a, _, _| conjugate(a)),
    m("copy", "order='C'",
        "A new C-contiguous array holding a copy of the data; writes to it never reach the original, unlike a view from slicing.",
        |a, _, _| Ok(Value::Array(Box::new(contiguous_copy(a)?)))),
    m("cumprod", CUM_SIG,
        "Running products: element i holds the product of the elements up to and including i, over the flattened array or along axis.",
        |a, rt, b| reduction(rt, a, Reduce::CumProd, &b)),
    m("cumsum", CUM_SIG,
        "Running sums: element i holds the sum of the elements up to and including i, over the flattened array or along axis.",
        |a, rt, b| reduction(rt, a, Reduce::CumSum, &b)),
    m("diagonal", "offset=0, axis1=0, axis2=1",
        "The diagonal with the given offset of the 2-D subarrays spanned by axis1 and axis2.",
        |a, rt, b| forward(rt, a, "diagonal", b)),
    m("dot", "b, out=None",
        "The dot product with b: inner product for 1-D, matrix product for 2-D operands (the @ operator).",
        |a, rt, b| forward(rt, a, "dot", b)),
    m("fill", "value, /",
        "Set every element to value (converted to the array's dtype), in place; returns None.",
        |a, rt, b| {
            crate::py::ndarray_attrs::check_writeable(a, "assignment destination")?;
            let v = value_for_fill(rt, &b.value(0), a.dtype)?;
            fill(a, v);
            Ok(Value::None)
        }),
    m("flatten", "order='C'",
        "A one-dimensional copy of the array in row-major order. Unlike ravel it always copies.",
        |a, _, _| Ok(Value::Array(Box::new(contiguous_copy(&ravel(a)?)?)))),
    m("item", "*args",
        "One element as a plain Python number: the only element of a size-1 array, or the element at a flat index.",
        |a, _, b| item(a, &b.rest)),
    m("max", MAX_SIG,
        "The largest element, or the largest along axis as an array. NaN propagates: any NaN makes the result NaN.",
        |a, rt, b| reduction(rt, a, Reduce::Max, &b)),
    m("mean", SUM_SIG,
        "The arithmetic mean of all elements or along axis. Integer arrays average in float64; float32 arrays stay float32 unless dtype= says otherwise.",
        |a, rt, b| reduction(rt, a, Reduce::Mean, &b)),
    m("min", MAX_SIG,
        "The smallest element, or the smallest along axis as an array. NaN propagates: any NaN makes the result NaN.",
        |a, rt, b| reduction(rt, a, Reduce::Min, &b)),
    m("nonzero", "",
        "A tuple with one index array per dimension, listing the positions of the non-zero elements.",
        |a, rt, b| forward(rt, a, "nonzero", b)),
    m("prod", SUM_SIG,
        "The product of all elements or along axis. Small integer types are multiplied as the platform integer, as NumPy does.",
        |a, rt, b| reduction(rt, a, Reduce::Prod, &b)),
    m("ravel", "order='C'",
        "The elements as a one-dimensional array: a view when the data is contiguous, otherwise a copy.",
        |a, _, _| Ok(Value::Array(Box::new(ravel(a)?)))),
    m("repeat", "repeats, axis=None",
        "Each element (or each slice along axis) repeated; flattened when axis is None.",
        |a, rt, b| crate::py::ndarray_repeat::repeat_call(rt, a, &b)),
    m("reshape", "*shape, order='C'",
        "The same data seen with a new shape, given as a tuple or as separate integers (one dimension may be -1 to infer it). The element count must match; contiguous arrays give a view.",
        |a, _, b| {
            let shape: Vec<isize> = match b.rest.as_slice() {
                [one] => shape_arg(one)?,
                many => many.iter().map(|v| Ok(v.as_index()? as isize)).collect::<PyResult<_>>()?,
            };
            let order = b.get(0).and_then(|v| v.as_str()).unwrap_or("C");
            Ok(Value::Array(Box::new(reshape_order(a, &shape, order)?)))
        }).showing("shape, /, *, order='C'"),
    m("round", "decimals=0, out=None",
        "Round to the given number of decimals, halves to the nearest even value, as np.round does.",
        |a, rt, b| forward(rt, a, "round", b)),
    m("sort", "axis=-1, kind=None, order=None, *, stable=None",
        "Sort the array in place along the last axis (NaN last); returns None. np.sort returns a sorted copy instead.",
        |a, rt, b| {
            crate::py::ndarray_attrs::check_writeable(a, "sort array")?;
            // In place, as ndarray.sort() does (the module function returns a copy).
            if let Value::Array(s) = &forward(rt, a, "sort", b)? {
                crate::arrays::elem::copy_into(a, s)?;
            }
            Ok(Value::None)
        }),
    m("squeeze", "axis=None",
        "The array without its length-1 axes (or only the given one), as a view.",
        |a, _, b| Ok(Value::Array(Box::new(squeeze(a, axis_arg(b.get(0))?)?)))),
    m("std", VAR_SIG,
        "The standard deviation of all elements or along axis: the square root of the mean squared deviation, divided by N - ddof.",
        |a, rt, b| reduction(rt, a, Reduce::Std, &b)),
    m("sum", SUM_SIG,
        "The sum of all elements or along axis. Floats add pairwise as NumPy does; small integer types accumulate in the platform integer; dtype= picks the accumulator.",
        |a, rt, b| reduction(rt, a, Reduce::Sum, &b)),
    m("swapaxes", "axis1, axis2, /",
        "A view with the two axes exchanged.",
        |a, _, b| {
            let nd = a.ndim();
            let axis = |i: usize| -> PyResult<usize> {
                let k = b.index(i)?.unwrap_or(0);
                Ok(crate::arrays::reduce::norm_axis(k as isize, nd)?)
            };
            let mut p: Vec<isize> = (0..nd as isize).collect();
            p.swap(axis(0)?, axis(1)?);
            Ok(Value::Array(Box::new(transpose(a, Some(p))?)))
        }),
    m("tolist", "",
        "The array as nested Python lists of Python numbers (a plain number for a 0-d array).",
        |a, _, _| to_list(a)),
    m("trace", "offset=0, axis1=0, axis2=1, dtype=None, out=None",
        "The sum along the diagonal with the given offset of the 2-D subarrays spanned by axis1 and axis2.",
        |a, rt, b| forward(rt, a, "trace", b)),
    m("transpose", "*axes",
        "A view with the axes reversed, or permuted as given (as a tuple or as separate integers). For 2-D arrays this is the matrix transpose, also available as .T.",
        |a, _, b| {
            let axes = match b.rest.as_slice() {
                [] => None,
                [one @ (Value::Tuple(_) | Value::List(_))] => Some(shape_arg(one)?),
                many => Some(many.iter().map(|v| Ok(v.as_index()? as isize)).collect::<PyResult<_>>()?),
            };
            Ok(Value::Array(Box::new(transpose(a, axes)?)))
        }),
    m("var", VAR_SIG,
        "The variance of all elements or along axis: the mean squared deviation from the mean, divided by N - ddof.",
        |a, rt, b| reduction(rt, a, Reduce::Var, &b)),
    m("view", "dtype=None",
        "A new array object sharing this array's memory, optionally reinterpreting the bytes as another dtype (a different size rescales the last axis, which must be contiguous).",
        |a, rt, b| view(rt, a, b.get(0))),
];

/// The method of this reduction. Every `Reduce` has one of its own name.
fn reduction_spec(kind: Reduce) -> &'static MethodSpec<NdArray> {
    // invariant: SPECS holds a method named by each Reduce (tests/method_tables.rs,
    // `every_reduction_has_an_ndarray_method_taking_its_functions_parameters`).
    NDARRAY.find(kind.name()).expect("a reduction method")
}

/// `a.sum(...)` and the other reductions, their arguments bound to the method's signature
/// and read from it by name: the input cast to `dtype=` first, var and std dividing by
/// n - `ddof`, `keepdims=` and `out=`.
fn reduction(rt: &mut Runtime, a: &NdArray, kind: Reduce, b: &Bound) -> PyResult<Value> {
    let params = reduction_spec(kind).params();
    let at = |name: &str| params.position(name).and_then(|i| b.get(i));
    let axis = axis_arg(at("axis"))?;
    let src = match at("dtype") {
        Some(d) if !d.is_none() => crate::arrays::elem::cast(a, dtype_from_value(rt, d)?)?,
        _ => a.clone(),
    };
    let ddof = match at("ddof") {
        None | Some(Value::None) => 0,
        Some(d) => d.as_index()?.max(0) as usize,
    };
    let r = reduce_ddof(kind, &src, axis, ddof)?.into();
    let r = keepdims(r, a, axis, at("keepdims"))?;
    into_out(kind.name(), r, at("out"))
}

/// `a.<kind>(...)`: the reduction method called with `args`.
pub fn reduction_method(
    rt: &mut Runtime,
    a: &NdArray,
    kind: Reduce,
    args: Args,
) -> PyResult<Value> {
    let spec = reduction_spec(kind);
    (spec.call)(a, rt, spec.bind(NDARRAY.owner, args)?)
}

/// `np.sum(a, ...)` and the other reduction functions, their arguments bound to
/// [`reduction_function_sig`] (`names` are its parameters): the method of `a` with every
/// argument past `a` by name, as NumPy's functions pass theirs.
pub fn reduction_function(
    rt: &mut Runtime,
    a: &NdArray,
    kind: Reduce,
    names: &[&str],
    b: Bound,
) -> PyResult<Value> {
    let kw = names
        .iter()
        .zip(b.slots)
        .skip(1)
        .filter_map(|(&n, v)| Some((n.into(), v?)))
        .collect();
    reduction_method(rt, a, kind, Args { pos: vec![], kw })
}

/// The module function of this name with the array first and the method's arguments after
/// it: the signatures agree past `a`, and an argument not given is the default both share
/// (None, or the literal the binding filled in). Keyword-only slots go by name when given.
fn forward(rt: &mut Runtime, a: &NdArray, name: &str, b: Bound) -> PyResult<Value> {
    let f = numpy_function(rt, name)?.ok_or_else(|| {
        PyErr::attribute_error(format!("'numpy.ndarray' object has no attribute '{name}'"))
    })?;
    // invariant: forward is only called by the SPECS entry of the same name.
    let params = NDARRAY.find(name).expect("a forwarded method").params();
    let mut pos = vec![Value::Array(Box::new(a.clone()))];
    let mut kw = b.kw;
    for ((n, kw_only), v) in params.names().zip(b.slots) {
        match (kw_only, v) {
            (true, Some(v)) if !v.is_none() => kw.push((n.into(), v)),
            (true, _) => {}
            (false, v) => pos.push(v.unwrap_or(Value::None)),
        }
    }
    rt.call(&f, Args { pos, kw })
}

fn conjugate(a: &NdArray) -> PyResult<Value> {
    Ok(Value::Array(Box::new(if a.dtype.is_complex() {
        crate::arrays::complex::complex_unary(Ufunc1::Conjugate, a)?
    } else {
        a.clone()
    })))
}

fn item(a: &NdArray, args: &[Value]) -> PyResult<Value> {
    let Some(index) = args.first() else {
        if a.size() != 1 {
            return Err(PyErr::value_error(
                "can only convert an array of size 1 to a Python scalar",
            ));
        }
        return Ok(scalar_to_python(first_scalar(a)));
    };
    let flat = contiguous_copy(a)?;
    let i = index.as_index()?;
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

fn view(rt: &mut Runtime, a: &NdArray, dtype: Option<&Value>) -> PyResult<Value> {
    let d = match dtype {
        None | Some(Value::None) => a.dtype,
        Some(v) => dtype_from_value(rt, v)?,
    };
    let (shape, strides) =
        crate::arrays::index::view_layout(&a.shape, &a.strides, a.dtype.itemsize(), d.itemsize())?;
    crate::arrays::index::check_aligned(a.offset, &shape, &strides, d)?;
    Ok(Value::Array(Box::new(NdArray {
        dtype: d,
        shape,
        strides,
        view: true,
        ..a.clone()
    })))
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
fn into_out(name: &str, r: Value, out: Option<&Value>) -> PyResult<Value> {
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

/// A function of the session's `numpy` module (found through the registry: the module sits
/// above the value model).
pub fn numpy_function(rt: &mut Runtime, name: &str) -> PyResult<Option<Value>> {
    Ok(crate::py::registry::import(rt, "numpy")?.get(name))
}
