//! The `cupy` module: `cupy.ndarray` on nbcuda's devices, creation, element-wise
//! operations, reductions, indexing, `cupy.random` and `cupy.cuda`.
//!
//! | file | holds |
//! |---|---|
//! | `advanced_index.rs` | CuPy's advanced indexing: boolean masks (`x[x > 0]`, `x[mask] = 0`) and integer index arrays along the first axis (`x[idx]`). |
//! | `array_methods.rs` | The method table of `cupy.ndarray` (`get`, `astype`, `reshape`, the reductions ...): name, signature, doc and body once each. |
//! | `cuda_api.rs` | `cupy.cuda`: devices and streams, as far as notebooks use them to order and wait. |
//! | `device_random.rs` | `cupy.random`: random arrays generated on the device (a counter-based SplitMix64 stream, seeded by `cupy.random.seed`). |
//! | `elementwise.rs` | CuPy's device work: elementwise operations and ufuncs queued on a stream like kernels, computed by host NumPy's engine over the device memory. |
//! | `extra.rs` | More of CuPy's array functions: `where`, `clip`, `dot`, `matmul` (also the `@` operator), computed as device work; and `cupy.linalg.norm`. |
//! | `ndarray.rs` | `cupy.ndarray` on nbcuda's devices: its attributes, indexing, operators, and the class object that constructs it. |
//! | `results.rs` | The result arguments CuPy's functions share: `out=` (written into a given CuPy array) and `keepdims=`. |
//! | `shape_funcs.rs` | Shape and joining functions (`transpose`, `squeeze`, `expand_dims`, `concatenate`, `stack`, `cumsum`), `isclose`/`allclose`/`array_equal`, `get_array_module` and the constants. |
//! | `reductions.rs` | CuPy reductions (sum, mean, min, max, std, argmax, ...) over all elements or one axis, queued as device work and computed by host NumPy's reduction loops. |
//!
//! `mod.rs`:
//! The `cupy` module: creation, transfer, elementwise, ufunc and reduction functions.

pub mod advanced_index;
pub mod array_methods;
pub mod cuda_api;
pub mod device_random;
pub mod elementwise;
pub mod extra;
pub mod ndarray;
pub mod reductions;
pub mod results;
pub mod shape_funcs;

use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::Reduce;
use crate::arrays::operator::Ufunc1;
use crate::arrays::ufunc::BINARY_NAMES;
use crate::cupy::elementwise::{self as ops, Operand};
use crate::cupy::ndarray::{host_copy, operand, wrap};
use crate::cupy::reductions as red;
use crate::device::api::{self, Transfer};
use crate::numba_cuda::devicearray::arg;
use crate::numba_cuda::hostconv;
use crate::numba_cuda::view_index::parse_shape;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::signature::{Bound, Params};
use crate::py::value::{Module, Value};

fn dtype_or(rt: &mut Runtime, v: Option<&Value>, default: DType) -> PyResult<DType> {
    match v {
        None | Some(Value::None) => Ok(default),
        Some(v) => crate::py::ndarray_attrs::dtype_from_value(rt, v),
    }
}

/// `cp.asarray` / `cp.array`: device arrays are shared (or copied for `array`), host data is
/// copied to the device.
fn to_cupy(rt: &mut Runtime, obj: &Value, dtype: Option<&Value>, copy: bool) -> PyResult<Value> {
    crate::numba_cuda::hostmem::check_not_ctx(obj)?;
    if !matches!(obj, Value::Array(_)) {
        if let Some(v) = crate::numba_cuda::interop::view_of(rt, obj)? {
            let dt = dtype_or(rt, dtype, v.dtype)?;
            return Ok(wrap(if copy || dt != v.dtype {
                ops::cast_copy(rt, &v, dt)?
            } else {
                v
            }));
        }
    }
    let host = hostconv::host_array(rt, obj)?;
    let dt = dtype_or(rt, dtype, host.dtype)?;
    let stream = ops::current_stream(rt);
    let out = api::alloc(rt, &host.shape, dt, stream)?;
    api::htod(rt, &host, &out, stream, Transfer::explicit("cupy.asarray"))?;
    Ok(wrap(out))
}

fn like_of(rt: &mut Runtime, v: &Value) -> PyResult<(Vec<usize>, DType)> {
    match crate::numba_cuda::interop::view_of(rt, v)? {
        Some(d) => Ok((d.shape, d.dtype)),
        None => {
            let h = hostconv::host_array(rt, v)?;
            Ok((h.shape, h.dtype))
        }
    }
}

fn scalar_of(rt: &mut Runtime, v: &Value) -> PyResult<Scalar> {
    let h = hostconv::host_array(rt, v)?;
    if h.size() != 1 {
        return Err(PyErr::value_error("fill value must be a scalar"));
    }
    Ok(crate::device::copy::read_scalar(
        &crate::kernel::abi::ArgMem::Host(h.buf.clone()),
        h.offset,
        h.dtype,
    ))
}

/// `empty` allocates only (CuPy does not initialise it); `zeros`/`ones` fill.
fn new_array(
    rt: &mut Runtime,
    shape: &[usize],
    dt: DType,
    fill: Option<f64>,
) -> PyResult<crate::device::DeviceView> {
    match fill {
        Some(v) => ops::full(rt, shape, dt, Scalar::F64(v)),
        None => {
            let stream = ops::current_stream(rt);
            api::alloc(rt, shape, dt, stream)
        }
    }
}

/// The shape and dtype of a `*_like` call: `a`'s, or the `dtype=` and `shape=` given; `subok`
/// must stay None, as in CuPy.
fn like_args(
    rt: &mut Runtime,
    b: &Bound,
    dtype: usize,
    subok: usize,
    shape: usize,
) -> PyResult<(Vec<usize>, DType)> {
    if b.get(subok).is_some_and(|v| !v.is_none()) {
        return Err(PyErr::type_error("subok is not supported yet"));
    }
    let (like_shape, dt0) = like_of(rt, &b.value(0))?;
    let dt = dtype_or(rt, b.get(dtype), dt0)?;
    let shape = match b.get(shape) {
        None | Some(Value::None) => like_shape,
        Some(s) => parse_shape(s)?,
    };
    Ok((shape, dt))
}

/// `order=`: nbcuda's CuPy arrays are C-ordered, which is also Fortran order for at most
/// one dimension; a Fortran-ordered result of more is refused rather than given in C order.
fn check_order(v: &Value, order: Option<&Value>) -> PyResult<()> {
    let ndim = match v {
        Value::Array(a) => a.ndim(),
        other => other
            .downcast::<crate::cupy::ndarray::CupyArray>()
            .map_or(0, |c| c.view.shape.len()),
    };
    match order {
        None | Some(Value::None) => Ok(()),
        Some(Value::Str(s)) => match &**s {
            "C" | "c" | "K" | "k" | "A" | "a" => Ok(()),
            "F" | "f" if ndim <= 1 => Ok(()),
            "F" | "f" => Err(PyErr::not_implemented(
                "order='F' is not supported by nbcuda's CuPy arrays, which are C-ordered",
            )),
            _ => Err(PyErr::type_error("order not understood")),
        },
        Some(_) => Err(PyErr::type_error("order not understood")),
    }
}

/// `cp.array(..., ndmin=n)`: ones prepended to the shape until it has n dimensions.
fn with_ndmin(rt: &mut Runtime, v: Value, ndmin: i64) -> PyResult<Value> {
    let Some(view) = crate::numba_cuda::interop::view_of(rt, &v)? else {
        return Ok(v);
    };
    if ndmin > 64 {
        return Err(PyErr::value_error(
            "ndmin bigger than allowable number of dimensions NPY_MAXDIMS (=64)",
        ));
    }
    let want = usize::try_from(ndmin).unwrap_or(0);
    if view.shape.len() >= want {
        return Ok(v);
    }
    let mut shape = vec![1; want - view.shape.len()]; // bounded: ndmin is at most 64 here
    shape.extend(&view.shape);
    Ok(wrap(crate::numba_cuda::viewops::reshape(
        &view, shape, 'C',
    )?))
}

/// A ufunc call's arguments as CuPy's `ufunc.__call__` reads them: `nin` inputs and an
/// optional output positionally, and the keywords out, dtype and casting ('same_kind'
/// is the only casting done here).
pub(crate) fn ufunc_args(
    rt: &mut Runtime,
    name: &str,
    nin: usize,
    b: &Bound,
) -> PyResult<(Vec<Value>, Option<Value>, Option<DType>)> {
    let mut out = None;
    let mut dtype = None;
    let mut rest = Vec::new();
    for (k, v) in &b.kw {
        match &**k {
            "out" => out = Some(v.clone()),
            "dtype" if !v.is_none() => {
                dtype = Some(crate::py::ndarray_attrs::dtype_from_value(rt, v)?)
            }
            "dtype" => {}
            "casting" if matches!(v, Value::Str(s) if &**s == "same_kind") => {}
            "casting" => {
                return Err(PyErr::not_implemented(
                    "nbcuda's CuPy ufuncs cast only as casting='same_kind' does",
                ))
            }
            _ => {
                let shown = match v {
                    Value::Str(s) => format!("'{s}'"),
                    v => rt.to_str(v)?,
                };
                rest.push(format!("'{k}': {shown}"));
            }
        }
    }
    if !rest.is_empty() {
        // CuPy's 'Wrong arguments %s' % kwargs: the leftover keywords as a dict.
        return Err(PyErr::type_error(format!(
            "Wrong arguments {{{}}}",
            rest.join(", ")
        )));
    }
    let n = b.rest.len();
    if n != nin && n != nin + 1 {
        return Err(PyErr::type_error(format!(
            "Wrong number of arguments for {name}"
        )));
    }
    if n == nin + 1 {
        if out.is_some() {
            return Err(PyErr::value_error(
                "cannot specify 'out' as both a positional and keyword argument",
            ));
        }
        out = b.rest.last().cloned();
    }
    Ok((b.rest[..nin].to_vec(), out, dtype))
}

/// The parameter lists of CuPy's reduction functions (the methods take them less `a`):
/// sum, prod, mean, argmax and argmin; min, max, any and all; var and std.
pub(crate) const SUM_FN: &str = "a, axis=None, dtype=None, out=None, keepdims=False";
pub(crate) const MAX_FN: &str = "a, axis=None, out=None, keepdims=False";
pub(crate) const VAR_FN: &str = "a, axis=None, dtype=None, out=None, ddof=0, keepdims=False";

/// CuPy's reductions: name, computation, signature and doc, for the module functions and
/// the methods.
const REDUCTIONS: &[(&str, Reduce, &str, &str)] = &[
    (
        "sum",
        Reduce::Sum,
        SUM_FN,
        "Returns the sum of an array along given axes.",
    ),
    (
        "prod",
        Reduce::Prod,
        SUM_FN,
        "Returns the product of an array along given axes.",
    ),
    (
        "mean",
        Reduce::Mean,
        SUM_FN,
        "Returns the arithmetic mean along an axis.",
    ),
    (
        "min",
        Reduce::Min,
        MAX_FN,
        "Returns the minimum of an array or the minimum along an axis.",
    ),
    (
        "amin",
        Reduce::Min,
        MAX_FN,
        "Returns the minimum of an array or the minimum along an axis.",
    ),
    (
        "max",
        Reduce::Max,
        MAX_FN,
        "Returns the maximum of an array or the maximum along an axis.",
    ),
    (
        "amax",
        Reduce::Max,
        MAX_FN,
        "Returns the maximum of an array or the maximum along an axis.",
    ),
    (
        "std",
        Reduce::Std,
        VAR_FN,
        "Returns the standard deviation along an axis.",
    ),
    (
        "var",
        Reduce::Var,
        VAR_FN,
        "Returns the variance along an axis.",
    ),
    (
        "argmax",
        Reduce::ArgMax,
        SUM_FN,
        "Returns the indices of the maximum along an axis.",
    ),
    (
        "argmin",
        Reduce::ArgMin,
        SUM_FN,
        "Returns the indices of the minimum along an axis.",
    ),
    (
        "any",
        Reduce::Any,
        MAX_FN,
        "Tests whether any array elements along a given axis evaluate to True.",
    ),
    (
        "all",
        Reduce::All,
        MAX_FN,
        "Tests whether all array elements along a given axis evaluate to True.",
    ),
];

/// The CuPy reduction of `x`, its options read from `params`' slots by name: `dtype=` (the
/// input cast to it first; for argmax/argmin, the index dtype), `ddof=` (var and std
/// divide by n - ddof), `keepdims=` and `out=`.
pub(crate) fn reduction(
    rt: &mut Runtime,
    name: &str,
    kind: Reduce,
    x: &Value,
    params: &Params,
    b: &Bound,
) -> PyResult<Value> {
    let slot = |p: &str| params.position(p).and_then(|i| b.get(i));
    let mut v = match crate::numba_cuda::interop::view_of(rt, x)? {
        Some(v) if !matches!(x, Value::Array(_)) => v,
        _ => {
            return Err(
                PyErr::type_error(format!("Unsupported type {}", x.type_name()))
                    .with_hint("Move host data to the device with cp.asarray(...) first."),
            )
        }
    };
    let axis = match slot("axis") {
        None | Some(Value::None) => None,
        Some(x) => Some(x.as_index()?),
    };
    let index_result = matches!(kind, Reduce::ArgMax | Reduce::ArgMin);
    let dtype = match slot("dtype") {
        None | Some(Value::None) => None,
        Some(d) => Some(crate::py::ndarray_attrs::dtype_from_value(rt, d)?),
    };
    if let (Some(dt), false) = (dtype, index_result) {
        v = ops::cast_copy(rt, &v, dt)?;
    }
    let ndim = v.shape.len();
    let ddof = match slot("ddof") {
        None | Some(Value::None) => 0,
        Some(d) => d.as_index()?.max(0) as usize,
    };
    let mut res = red::reduce(rt, kind, &v, axis, ddof)?;
    if let (Some(dt), true) = (dtype, index_result) {
        res = ops::cast_copy(rt, &res, dt)?;
    }
    if let Some(k) = slot("keepdims") {
        if rt.truthy(k)? {
            res = crate::cupy::results::keep_dims(res, ndim, axis)?;
        }
    }
    crate::cupy::results::finish(rt, name, res, slot("out"))
}

/// Build the `cupy` module.
pub fn module() -> Rc<Module> {
    crate::numba_cuda::interop::register_view_kind(|any| {
        any.downcast_ref::<crate::cupy::ndarray::CupyArray>()
            .map(|c| c.view.clone())
    });
    let m = Module::new("cupy", "CuPy arrays on nbcuda's devices.");
    m.def(
        Function,
        "asarray",
        "a, dtype=None, order=None, *, blocking=False",
        "Converts an object to array.",
        |rt, b| {
            let v = to_cupy(rt, &b.value(0), b.get(1), false)?;
            check_order(&v, b.get(2))?;
            Ok(v)
        },
    );
    m.def(
        Function,
        "array",
        "obj, dtype=None, copy=True, order='K', subok=False, ndmin=0, *, blocking=False",
        "Creates an array on the current device.",
        |rt, b| {
            let copy = rt.truthy(&b.value(2))?;
            let v = to_cupy(rt, &b.value(0), b.get(1), copy)?;
            check_order(&v, b.get(3))?;
            with_ndmin(rt, v, b.value(5).as_index()?)
        },
    );
    m.def(
        Function,
        "asnumpy",
        "a, stream=None, order='C', out=None, *, blocking=True",
        "Returns an array on the host memory from an arbitrary source array.",
        |rt, b| {
            let obj = b.value(0);
            let host = match &obj {
                Value::Array(_) => obj.clone(),
                _ => match crate::numba_cuda::interop::view_of(rt, &obj)? {
                    Some(v) => Value::Array(Box::new(host_copy(rt, &v, "cupy.asnumpy")?)),
                    None => Value::Array(Box::new(hostconv::host_array(rt, &obj)?)),
                },
            };
            check_order(&host, b.get(2))?;
            match (b.get(3), &host) {
                (None | Some(Value::None), _) => Ok(host),
                (Some(out @ Value::Array(o)), Value::Array(h)) => {
                    crate::arrays::elem::copy_into(o, h)?;
                    Ok(out.clone())
                }
                _ => Err(PyErr::type_error(
                    "Only numpy.ndarray can be obtained from cupy.ndarray",
                )),
            }
        },
    );
    for (name, fill, doc, like_doc) in [
        (
            "empty",
            None,
            "Returns an array without initializing the elements.",
            "Returns a new array with same shape and dtype of a given array.",
        ),
        (
            "zeros",
            Some(0.0),
            "Returns a new array of given shape and dtype, filled with zeros.",
            "Returns an array of zeros with same shape and dtype as a given array.",
        ),
        (
            "ones",
            Some(1.0),
            "Returns a new array of given shape and dtype, filled with ones.",
            "Returns an array of ones with same shape and dtype as a given array.",
        ),
    ] {
        m.def(
            Function,
            name,
            "shape, dtype=<class 'float'>, order='C'",
            doc,
            move |rt, b| {
                let shape = parse_shape(&b.value(0))?;
                let dt = dtype_or(rt, b.get(1), DType::F64)?;
                let v = wrap(new_array(rt, &shape, dt, fill)?);
                check_order(&v, b.get(2))?;
                Ok(v)
            },
        );
        m.def(
            Function,
            &format!("{name}_like"),
            "a, dtype=None, order='K', subok=None, shape=None",
            like_doc,
            move |rt, b| {
                let (shape, dt) = like_args(rt, &b, 1, 3, 4)?;
                let v = wrap(new_array(rt, &shape, dt, fill)?);
                check_order(&v, b.get(2))?;
                Ok(v)
            },
        );
    }
    m.def(
        Function,
        "full",
        "shape, fill_value, dtype=None, order='C'",
        "Returns a new array of given shape and dtype, filled with a given value.",
        |rt, b| {
            let shape = parse_shape(&b.value(0))?;
            let v = scalar_of(rt, &b.value(1))?;
            let dt = dtype_or(rt, b.get(2), v.dtype())?;
            let out = wrap(ops::full(rt, &shape, dt, v)?);
            check_order(&out, b.get(3))?;
            Ok(out)
        },
    );
    m.def(
        Function,
        "full_like",
        "a, fill_value, dtype=None, order='K', subok=None, shape=None",
        "Returns a full array with same shape and dtype as a given array.",
        |rt, b| {
            let v = scalar_of(rt, &b.value(1))?;
            let (shape, dt) = like_args(rt, &b, 2, 4, 5)?;
            let out = wrap(ops::full(rt, &shape, dt, v)?);
            check_order(&out, b.get(3))?;
            Ok(out)
        },
    );
    m.def(
        Function,
        "arange",
        "start, stop=None, step=1, dtype=None",
        "Returns an array with evenly spaced values within a given interval.",
        |rt, b| {
            let nums: Vec<Option<&Value>> =
                vec![arg(&b, 0), arg(&b, 1).filter(|v| !v.is_none()), arg(&b, 2)];
            let is_float = nums.iter().flatten().any(|v| {
                matches!(v, Value::Float(_))
                    || matches!(v, Value::Scalar(s) if s.dtype().is_float())
            });
            let (start, stop) = match nums[1] {
                Some(stop) => (
                    nums[0].map(|v| v.as_f64()).transpose()?.unwrap_or(0.0),
                    stop.as_f64()?,
                ),
                None => (0.0, nums[0].map(|v| v.as_f64()).transpose()?.unwrap_or(0.0)),
            };
            let step = nums[2].map(|v| v.as_f64()).transpose()?.unwrap_or(1.0);
            if step == 0.0 {
                return Err(PyErr::zero_division("division by zero"));
            }
            let n = ((stop - start) / step).ceil().max(0.0) as usize;
            let dt = dtype_or(
                rt,
                arg(&b, 3),
                if is_float { DType::F64 } else { DType::I64 },
            )?;
            Ok(wrap(ops::arange(rt, start, step, n, dt)?))
        },
    );
    m.def(
        Function,
        "linspace",
        "start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0",
        "Returns an array with evenly-spaced values within a given interval.",
        |rt, b| {
            let start = b.value(0).as_f64()?;
            let stop = b.value(1).as_f64()?;
            let num = b.value(2).as_index()?;
            if num < 0 {
                return Err(PyErr::value_error("linspace with num<0 is not supported"));
            }
            let num = num as usize;
            let endpoint = rt.truthy(&b.value(3))?;
            let div = if endpoint { num.saturating_sub(1) } else { num };
            // CuPy's step when there is no interval to divide is nan.
            let step = if div == 0 {
                f64::NAN
            } else {
                (stop - start) / div as f64
            };
            let dt = dtype_or(rt, b.get(5), DType::F64)?;
            // A 1-D result has only axis 0 (or -1).
            match b.value(6).as_index()? {
                0 | -1 => {}
                axis => {
                    return Err(PyErr::new(
                        "AxisError",
                        format!("axis {axis} is out of bounds for array of dimension 1"),
                    ))
                }
            }
            let arr = wrap(ops::arange(
                rt,
                start,
                if step.is_nan() { 0.0 } else { step },
                num,
                dt,
            )?);
            Ok(if rt.truthy(&b.value(4))? {
                Value::tuple(vec![arr, Value::Float(step)])
            } else {
                arr
            })
        },
    );
    // CuPy's ufuncs read their own arguments (ufunc.__call__): the inputs and an optional
    // output positionally, out=, dtype= (the inputs cast to it) and casting=.
    // The unary ufuncs: host NumPy's, computed by the same loops.
    for &(name, f) in Ufunc1::NAMES {
        m.def_shown(
            Function,
            name,
            "*args, **kwargs",
            &format!("{name}(x, out=None, dtype=None)"),
            "An elementwise ufunc computed on the device.",
            move |rt, b| {
                let (ins, out, dtype) = ufunc_args(rt, name, 1, &b)?;
                let x = &ins[0];
                let mut v = match operand(rt, x)? {
                    Some(Operand::Arr(v)) => v,
                    Some(_) => {
                        let h = hostconv::host_array(rt, x)?;
                        let d = api::alloc(rt, &h.shape, h.dtype, 0)?;
                        api::htod(rt, &h, &d, 0, Transfer::explicit(name))?;
                        d
                    }
                    None => {
                        return Err(PyErr::type_error(format!(
                            "Unsupported type {}",
                            x.type_name()
                        )))
                    }
                };
                if let Some(dt) = dtype {
                    v = ops::cast_copy(rt, &v, dt)?;
                }
                let res = ops::unary(rt, f, &v)?;
                crate::cupy::results::finish(rt, name, res, out.as_ref())
            },
        );
    }
    for &(name, k) in BINARY_NAMES {
        m.def_shown(
            Function,
            name,
            "*args, **kwargs",
            &format!("{name}(x1, x2, out=None, dtype=None)"),
            "An elementwise ufunc computed on the device.",
            move |rt, b| {
                let (ins, out, dtype) = ufunc_args(rt, name, 2, &b)?;
                let cast = |rt: &mut Runtime, o: Operand| -> PyResult<Operand> {
                    Ok(match (o, dtype) {
                        (Operand::Arr(v), Some(dt)) => Operand::Arr(ops::cast_copy(rt, &v, dt)?),
                        (o, _) => o,
                    })
                };
                let (p, q) = match (operand(rt, &ins[0])?, operand(rt, &ins[1])?) {
                    (Some(p), Some(q)) => (cast(rt, p)?, cast(rt, q)?),
                    _ => return Err(PyErr::type_error("Unsupported type")),
                };
                let res = ops::binary_ufunc(rt, k, p, q)?;
                crate::cupy::results::finish(rt, name, res, out.as_ref())
            },
        );
    }
    for &(name, kind, sig, doc) in REDUCTIONS {
        let params = Params::parse(sig);
        m.def(Function, name, sig, doc, move |rt, b| {
            reduction(rt, name, kind, &b.value(0), &params, &b)
        });
    }
    for d in DType::ALL {
        m.set(d.name(), Value::DType(d));
    }
    m.set("bool_", Value::DType(DType::Bool));
    m.set(
        "cuda",
        Value::Module(crate::cupy::cuda_api::cuda_submodule()),
    );
    crate::cupy::extra::register(&m);
    crate::cupy::shape_funcs::register(&m);
    m.set("linalg", Value::Module(crate::cupy::extra::linalg_module()));
    m.set("ndarray", crate::cupy::ndarray::class_object());
    m.set(
        "random",
        Value::Module(crate::cupy::device_random::module()),
    );
    Rc::new(m)
}
