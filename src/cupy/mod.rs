//! The `cupy` module: `cupy.ndarray` on nbcuda's devices, creation, element-wise
//! operations, reductions, indexing, `cupy.random` and `cupy.cuda`.
//!
//! | file | holds |
//! |---|---|
//! | `advanced_index.rs` | CuPy's advanced indexing: boolean masks (`x[x > 0]`, `x[mask] = 0`) and integer index arrays along the first axis (`x[idx]`). |
//! | `cuda_api.rs` | `cupy.cuda`: devices and streams, as far as notebooks use them to order and wait. |
//! | `device_random.rs` | `cupy.random`: random arrays generated on the device (a counter-based SplitMix64 stream, seeded by `cupy.random.seed`). |
//! | `elementwise.rs` | CuPy's device work on the CPU device: broadcasting elementwise operations, ufuncs and reductions, queued on a stream like kernels and recorded in the ledger as launches. |
//! | `extra.rs` | More of CuPy's array functions: `maximum`, `minimum`, `where`, `clip`, `dot`, `matmul` (also the `@` operator), computed as device work. |
//! | `fast.rs` | Fast paths for CuPy's most common work: same-dtype arithmetic and float ufuncs over C-contiguous arrays (and scalars). |
//! | `ndarray.rs` | CuPy arrays on nbcuda's devices: `cupy.ndarray` and the `cupy` module's creation, transfer, elementwise, ufunc and reduction functions. |
//! | `reductions.rs` | CuPy reductions (sum, mean, min, max, std, argmax, ...) over all elements or one axis, queued as device work like the elementwise operations. |
//!
//! `mod.rs`:
//! The `cupy` module: creation, transfer, elementwise, ufunc and reduction functions.

pub mod advanced_index;
pub mod cuda_api;
pub mod device_random;
pub mod elementwise;
pub mod extra;
pub mod fast;
pub mod ndarray;
pub mod reductions;

use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::BinOp;
use crate::cupy::elementwise::{self as ops, Operand};
use crate::cupy::ndarray::{host_copy, operand, wrap};
use crate::cupy::reductions::{self as red, Reduce};
use crate::device::api::{self, Transfer};
use crate::numba_cuda::devicearray::arg;
use crate::numba_cuda::hostconv;
use crate::numba_cuda::view_index::parse_shape;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
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

/// Build the `cupy` module.
pub fn module() -> Rc<Module> {
    crate::numba_cuda::interop::register_view_kind(|any| {
        any.downcast_ref::<crate::cupy::ndarray::CupyArray>()
            .map(|c| c.view.clone())
    });
    let m = Module::new("cupy", "CuPy arrays on nbcuda's devices.");
    m.func("asarray", "asarray(a, dtype=None)", "A CuPy array from a host array, list or device array (device memory is shared, not copied).", |rt, a| {
        let b = a.bind("asarray", &["a", "dtype=", "order="])?;
        to_cupy(rt, arg(&b, 0).unwrap_or(crate::py::value::NONE), arg(&b, 1), false)
    });
    m.func(
        "array",
        "array(obj, dtype=None, copy=True)",
        "A new CuPy array copied from obj.",
        |rt, a| {
            let b = a.bind(
                "array",
                &["obj", "dtype=", "copy=", "order=", "subok=", "ndmin="],
            )?;
            let copy = !matches!(arg(&b, 2), Some(Value::Bool(false)));
            to_cupy(
                rt,
                arg(&b, 0).unwrap_or(crate::py::value::NONE),
                arg(&b, 1),
                copy,
            )
        },
    );
    m.func(
        "asnumpy",
        "asnumpy(a, stream=None)",
        "Copy a CuPy array to the host (NumPy arrays pass through).",
        |rt, a| {
            let b = a.bind("asnumpy", &["a", "stream=", "order=", "out="])?;
            let obj = arg(&b, 0).unwrap_or(crate::py::value::NONE);
            match obj {
                Value::Array(_) => Ok(obj.clone()),
                _ => match crate::numba_cuda::interop::view_of(rt, obj)? {
                    Some(v) => Ok(Value::Array(Box::new(host_copy(rt, &v, "cupy.asnumpy")?))),
                    None => Ok(Value::Array(Box::new(hostconv::host_array(rt, obj)?))),
                },
            }
        },
    );
    for (name, fill) in [("empty", None), ("zeros", Some(0.0)), ("ones", Some(1.0))] {
        m.func(
            name,
            &format!("{name}(shape, dtype=float64)"),
            "A new device array.",
            move |rt, a| {
                let b = a.bind(name, &["shape", "dtype=", "order="])?;
                let shape = parse_shape(arg(&b, 0).unwrap_or(crate::py::value::NONE))?;
                let dt = dtype_or(rt, arg(&b, 1), DType::F64)?;
                Ok(wrap(new_array(rt, &shape, dt, fill)?))
            },
        );
        let like = format!("{name}_like");
        m.func(
            &like.clone(),
            &format!("{like}(a, dtype=None)"),
            "A new device array shaped like a.",
            move |rt, a| {
                let b = a.bind(&like, &["a", "dtype=", "order="])?;
                let (shape, dt0) = like_of(rt, arg(&b, 0).unwrap_or(crate::py::value::NONE))?;
                let dt = dtype_or(rt, arg(&b, 1), dt0)?;
                Ok(wrap(new_array(rt, &shape, dt, fill)?))
            },
        );
    }
    m.func(
        "full",
        "full(shape, fill_value, dtype=None)",
        "A new device array filled with fill_value.",
        |rt, a| {
            let b = a.bind("full", &["shape", "fill_value", "dtype=", "order="])?;
            let shape = parse_shape(arg(&b, 0).unwrap_or(crate::py::value::NONE))?;
            let v = scalar_of(rt, arg(&b, 1).unwrap_or(crate::py::value::NONE))?;
            let dt = dtype_or(rt, arg(&b, 2), v.dtype())?;
            Ok(wrap(ops::full(rt, &shape, dt, v)?))
        },
    );
    m.func(
        "full_like",
        "full_like(a, fill_value, dtype=None)",
        "A new device array like a filled with fill_value.",
        |rt, a| {
            let b = a.bind("full_like", &["a", "fill_value", "dtype=", "order="])?;
            let (shape, dt0) = like_of(rt, arg(&b, 0).unwrap_or(crate::py::value::NONE))?;
            let v = scalar_of(rt, arg(&b, 1).unwrap_or(crate::py::value::NONE))?;
            let dt = dtype_or(rt, arg(&b, 2), dt0)?;
            Ok(wrap(ops::full(rt, &shape, dt, v)?))
        },
    );
    m.func(
        "arange",
        "arange(start, stop=None, step=1, dtype=None)",
        "Evenly spaced values, computed on the device.",
        |rt, a| {
            let b = a.bind("arange", &["start", "stop=", "step=", "dtype="])?;
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
    m.func(
        "linspace",
        "linspace(start, stop, num=50, endpoint=True, dtype=None)",
        "Evenly spaced values over an interval.",
        |rt, a| {
            let b = a.bind(
                "linspace",
                &["start", "stop", "num=", "endpoint=", "retstep=", "dtype="],
            )?;
            let start = arg(&b, 0).unwrap_or(&Value::Int(0)).as_f64()?;
            let stop = arg(&b, 1).unwrap_or(&Value::Int(0)).as_f64()?;
            let num = arg(&b, 2)
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(50)
                .max(0) as usize;
            let endpoint = !matches!(arg(&b, 3), Some(Value::Bool(false)));
            let div = if endpoint { num.saturating_sub(1) } else { num };
            let step = if div == 0 {
                0.0
            } else {
                (stop - start) / div as f64
            };
            let dt = dtype_or(rt, arg(&b, 5), DType::F64)?;
            Ok(wrap(ops::arange(rt, start, step, num, dt)?))
        },
    );
    for &name in ops::UNARY {
        m.func(
            name,
            &format!("{name}(x)"),
            "An elementwise ufunc computed on the device.",
            move |rt, a| {
                let b = a.bind(name, &["x", "out=", "dtype="])?;
                let x = arg(&b, 0).unwrap_or(crate::py::value::NONE);
                let v = match operand(rt, x)? {
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
                Ok(wrap(ops::unary(rt, name, &v)?))
            },
        );
    }
    for (name, op) in [
        ("add", BinOp::Add),
        ("subtract", BinOp::Sub),
        ("multiply", BinOp::Mul),
        ("divide", BinOp::Div),
        ("true_divide", BinOp::Div),
        ("floor_divide", BinOp::FloorDiv),
        ("power", BinOp::Pow),
        ("mod", BinOp::Mod),
        ("remainder", BinOp::Mod),
        ("equal", BinOp::Eq),
        ("not_equal", BinOp::Ne),
        ("less", BinOp::Lt),
        ("less_equal", BinOp::Le),
        ("greater", BinOp::Gt),
        ("greater_equal", BinOp::Ge),
    ] {
        m.func(
            name,
            &format!("{name}(x1, x2)"),
            "An elementwise ufunc computed on the device.",
            move |rt, a| {
                let b = a.bind(name, &["x1", "x2", "out=", "dtype="])?;
                let x = arg(&b, 0).unwrap_or(crate::py::value::NONE);
                let y = arg(&b, 1).unwrap_or(crate::py::value::NONE);
                match (operand(rt, x)?, operand(rt, y)?) {
                    (Some(p), Some(q)) => Ok(wrap(ops::binary_op(rt, op, p, q)?)),
                    _ => Err(PyErr::type_error("Unsupported type")),
                }
            },
        );
    }
    for name in [
        "sum", "prod", "mean", "min", "max", "amin", "amax", "std", "var", "argmax", "argmin",
        "any", "all",
    ] {
        // invariant: every name in this list is one Reduce::parse knows
        let kind = Reduce::parse(name).expect("known reduction");
        m.func(
            name,
            &format!("{name}(a, axis=None)"),
            "A reduction computed on the device; returns a CuPy array.",
            move |rt, a| {
                let b = a.bind(name, &["a", "axis=", "dtype=", "out=", "keepdims="])?;
                let x = arg(&b, 0).unwrap_or(crate::py::value::NONE);
                let v = match crate::numba_cuda::interop::view_of(rt, x)? {
                    Some(v) if !matches!(x, Value::Array(_)) => v,
                    _ => {
                        return Err(PyErr::type_error(format!(
                            "Unsupported type {}",
                            x.type_name()
                        ))
                        .with_hint("Move host data to the device with cp.asarray(...) first."))
                    }
                };
                let axis = match arg(&b, 1) {
                    None | Some(Value::None) => None,
                    Some(x) => Some(x.as_index()?),
                };
                Ok(wrap(red::reduce(rt, kind, &v, axis)?))
            },
        );
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
    m.set("linalg", Value::Module(crate::cupy::extra::linalg_module()));
    m.set(
        "random",
        Value::Module(crate::cupy::device_random::module()),
    );
    Rc::new(m)
}
