//! More of CuPy's array functions: `where`, `clip`, `dot`, `matmul`
//! (also the `@` operator), computed as device work; and `cupy.linalg.norm`.

use crate::arrays::dtype::DType;
use crate::arrays::elem::copy_into;
use crate::arrays::operator::Arith;
use crate::arrays::promote::promote;
use crate::arrays::ufunc::Ufunc2;
use crate::cupy::elementwise::{
    broadcast_shapes, device_dtype, fault, host_view, queue, queue_fallible, result_dtype,
    stream_of, Host, Operand,
};
use crate::device::copy::region_of;
use crate::device::{api, DeviceView};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;

fn shape_of(o: &Operand) -> Vec<usize> {
    match o {
        Operand::Arr(v) => v.shape.clone(),
        _ => vec![],
    }
}

/// Elementwise maximum (`want_max`) or minimum; NaN propagates as in NumPy.
pub fn extreme(rt: &mut Runtime, a: Operand, b: Operand, want_max: bool) -> PyResult<DeviceView> {
    let k = Ufunc2::Arith(if want_max { Arith::Max } else { Arith::Min });
    crate::cupy::elementwise::binary_ufunc(rt, k, a, b)
}

/// `where(condition, x, y)`, by the arrays engine's selection
/// ([`crate::arrays::select::where_into`]) over the device memory.
pub fn where_(rt: &mut Runtime, c: Operand, x: Operand, y: Operand) -> PyResult<DeviceView> {
    let shape = broadcast_shapes(&[&shape_of(&c), &shape_of(&x), &shape_of(&y)])?;
    let dt = result_dtype(&[x.clone(), y.clone()]);
    let stream = stream_of(rt, &[c.clone(), x.clone(), y.clone()]);
    let out = api::alloc(rt, &shape, dt, stream)?;
    let (c, x, y) = (
        Host::of(&c, DType::Bool),
        Host::of(&x, dt),
        Host::of(&y, dt),
    );
    let dst = region_of(&out);
    queue_fallible(
        rt,
        stream,
        "cupy_where",
        out.size() * dt.itemsize(),
        move || {
            crate::arrays::select::where_into(&c.array(), &x.array(), &y.array(), &host_view(&dst))
                .map_err(fault)
        },
    );
    Ok(out)
}

/// `where(condition)`: `nonzero`, one int64 device array per axis. As in CuPy, the number of
/// true elements decides the results' size, so this waits for the condition.
fn nonzero(rt: &mut Runtime, c: &DeviceView) -> PyResult<crate::py::value::Value> {
    let host = api::to_host(rt, c, api::Transfer::explicit("cupy.where"))?;
    let axes = crate::arrays::select::nonzero(&host)?;
    let stream = stream_of(rt, &[Operand::Arr(c.clone())]);
    let mut out = Vec::new(); // bounded: one per axis
    for a in axes {
        let v = api::alloc(rt, &a.shape, a.dtype, stream)?;
        let dst = region_of(&v);
        queue(rt, stream, "cupy_nonzero", a.nbytes(), move || {
            crate::device::copy::copy_region(&crate::device::copy::host_region(&a), &dst)
        });
        out.push(crate::cupy::ndarray::wrap(v));
    }
    Ok(crate::py::value::Value::tuple(out))
}

/// `dot` / `matmul` (`@`), by the arrays engine's matrix products ([`crate::arrays::linalg`])
/// over the device memory, in NumPy's result dtype. `dot` of arrays past 2-D (a sum over
/// the last and second-to-last axes, not a stack of products) is not provided.
pub fn matmul(
    rt: &mut Runtime,
    a: &DeviceView,
    b: &DeviceView,
    name: &str,
) -> PyResult<DeviceView> {
    if name == "dot" {
        if a.shape.len() > 2 || b.shape.len() > 2 {
            return Err(PyErr::not_implemented(
                "dot of arrays with more than 2 dimensions",
            ));
        }
        // Up to 2-D, dot is matmul with dot's own message for misaligned operands.
        if a.shape.last() != b.shape.first() {
            return Err(crate::arrays::linalg::not_aligned(&a.shape, &b.shape).into());
        }
    }
    let shape = crate::arrays::linalg::matmul_shape(&a.shape, &b.shape)?;
    let dt = device_dtype(promote(a.dtype, b.dtype))?;
    let stream = stream_of(rt, &[Operand::Arr(a.clone()), Operand::Arr(b.clone())]);
    let out = api::alloc(rt, &shape, dt, stream)?;
    let (ra, rb, ro) = (region_of(a), region_of(b), region_of(&out));
    queue_fallible(
        rt,
        stream,
        &format!("cupy_{name}"),
        out.size() * dt.itemsize(),
        move || {
            let r =
                crate::arrays::linalg::matmul(&host_view(&ra), &host_view(&rb)).map_err(fault)?;
            copy_into(&host_view(&ro), &r).map_err(fault)
        },
    );
    Ok(out)
}

/// Register `maximum`, `minimum`, `where`, `clip`, `dot` and `matmul` on the module.
pub fn register(m: &crate::py::value::Module) {
    use crate::cupy::ndarray::{operand, wrap};
    use crate::numba_cuda::devicearray::arg;
    use crate::py::signature::Style::Function;
    use crate::py::value::Value;
    fn need(rt: &mut Runtime, v: Option<&Value>) -> PyResult<Operand> {
        let v = v.unwrap_or(crate::py::value::NONE);
        operand(rt, v)?
            .ok_or_else(|| PyErr::type_error(format!("Unsupported type {}", v.type_name())))
    }
    fn need_arr(rt: &mut Runtime, v: Option<&Value>) -> PyResult<DeviceView> {
        match need(rt, v)? {
            Operand::Arr(a) => Ok(a),
            _ => Err(PyErr::type_error("dot/matmul need CuPy arrays")),
        }
    }
    m.def(
        Function,
        "where",
        "condition, x=None, y=None",
        "Return elements, either from x or y, depending on condition.",
        |rt, b| {
            // CuPy's defaults are None: None means "not given".
            let given = |i| arg(&b, i).filter(|v| !v.is_none());
            match (given(1), given(2)) {
                (None, None) => {
                    return match need(rt, arg(&b, 0))? {
                        Operand::Arr(c) => nonzero(rt, &c),
                        _ => Err(PyErr::not_implemented(
                            "cupy.where(condition) of a scalar condition",
                        )),
                    }
                }
                (Some(_), Some(_)) => {}
                _ => {
                    return Err(PyErr::value_error(
                        "Must provide both 'x' and 'y' or neither.",
                    ))
                }
            }
            let (c, x, y) = (
                need(rt, arg(&b, 0))?,
                need(rt, arg(&b, 1))?,
                need(rt, arg(&b, 2))?,
            );
            Ok(wrap(where_(rt, c, x, y)?))
        },
    );
    m.def(
        Function,
        "clip",
        "a, a_min, a_max, out=None",
        "Clips the values of an array to a given interval.",
        |rt, b| {
            let x = need(rt, arg(&b, 0))?;
            let lo = arg(&b, 1)
                .filter(|v| !v.is_none())
                .map(|v| need(rt, Some(v)))
                .transpose()?;
            let hi = arg(&b, 2)
                .filter(|v| !v.is_none())
                .map(|v| need(rt, Some(v)))
                .transpose()?;
            let mut cur = x;
            if let Some(lo) = lo {
                cur = Operand::Arr(extreme(rt, cur, lo, true)?);
            }
            if let Some(hi) = hi {
                cur = Operand::Arr(extreme(rt, cur, hi, false)?);
            }
            match cur {
                Operand::Arr(v) => crate::cupy::results::finish(rt, "clip", v, arg(&b, 3)),
                _ => Err(PyErr::type_error("clip() needs an array")),
            }
        },
    );
    for name in ["dot", "matmul"] {
        m.def(
            Function,
            name,
            "a, b, out=None",
            "Returns a dot product of two arrays (matrix product for 2-D arrays).",
            move |rt, b| {
                let (x, y) = (need_arr(rt, arg(&b, 0))?, need_arr(rt, arg(&b, 1))?);
                let res = matmul(rt, &x, &y, name)?;
                crate::cupy::results::finish(rt, name, res, arg(&b, 2))
            },
        );
    }
}

/// `cupy.linalg`: `norm` (the 2-norm / Frobenius norm, NumPy's default `ord`), composed from
/// CuPy's own device operations so the result stays a CuPy array.
pub fn linalg_module() -> std::rc::Rc<crate::py::value::Module> {
    use crate::py::value::{Args, Module, Value};
    let m = Module::new("cupy.linalg", "CuPy's linear algebra (norm).");
    m.def(
        crate::py::signature::Style::Function,
        "norm",
        "x, ord=None, axis=None, keepdims=False",
        "The vector 2-norm (or matrix Frobenius norm) of x, over all elements or `axis`.",
        |rt, b| {
            if let Some(o) = b[1].as_ref().filter(|v| !v.is_none()) {
                if !matches!(o, Value::Str(s) if &**s == "fro") {
                    return Err(PyErr::not_implemented(
                        "cupy.linalg.norm supports ord=None and 'fro' (the 2-norm) in nbcuda",
                    ));
                }
            }
            let cp = crate::py::registry::import(rt, "cupy")?;
            let get = |n: &str| {
                cp.get(n)
                    .ok_or_else(|| PyErr::internal(format!("cupy.{n} is missing")))
            };
            let x = b[0].clone().unwrap_or(Value::None);
            let x = rt.call(&get("asarray")?, Args::new(vec![x]))?;
            let ax = rt.call(&get("abs")?, Args::new(vec![x]))?;
            let sq = rt.call(&get("multiply")?, Args::new(vec![ax.clone(), ax]))?;
            let mut sum_args = Args::new(vec![sq]);
            if let Some(axis) = b[2].clone() {
                sum_args.kw.push(("axis".into(), axis));
            }
            if let Some(k) = b[3].clone() {
                sum_args.kw.push(("keepdims".into(), k));
            }
            let s = rt.call(&get("sum")?, sum_args)?;
            rt.call(&get("sqrt")?, Args::new(vec![s]))
        },
    );
    std::rc::Rc::new(m)
}
