//! More of CuPy's array functions: `where`, `clip`, `dot`, `matmul`
//! (also the `@` operator), computed as device work; and `cupy.linalg.norm`.

use crate::arrays::dtype::Scalar;
use crate::arrays::operator::Arith;
use crate::arrays::ufunc::Ufunc2;
use crate::cupy::elementwise::{
    broadcast_shapes, queue, queue_elementwise, result_dtype, stream_of, Operand,
};
use crate::device::copy::{buffer_of, region_of};
use crate::device::{api, DeviceView};
use crate::kernel::abi::ArrayArg;
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

/// `where(condition, x, y)`.
pub fn where_(rt: &mut Runtime, c: Operand, x: Operand, y: Operand) -> PyResult<DeviceView> {
    let shape = broadcast_shapes(&[&shape_of(&c), &shape_of(&x), &shape_of(&y)])?;
    let dt = result_dtype(&[x.clone(), y.clone()]);
    let stream = stream_of(rt, &[c.clone(), x.clone(), y.clone()]);
    let out = api::alloc(rt, &shape, dt, stream)?;
    queue_elementwise(rt, stream, "cupy_where", vec![c, x, y], out.clone(), |v| {
        if v[0].as_f64() != 0.0 {
            v[1]
        } else {
            v[2]
        }
    })?;
    Ok(out)
}

/// All elements of a region in C order, as f64.
fn gather(r: &ArrayArg) -> Vec<f64> {
    let b = buffer_of(&r.mem);
    let isz = r.dtype.itemsize();
    let n: usize = r.shape.iter().product();
    let mut out = Vec::with_capacity(n); // bounded: one per element of an existing region
    let mut idx = vec![0usize; r.shape.len()];
    let mut tmp = [0u8; 8];
    for _ in 0..n {
        let mut off = r.offset as isize;
        for (ax, &i) in idx.iter().enumerate() {
            off += i as isize * r.strides[ax];
        }
        b.read(off as usize, &mut tmp[..isz]);
        out.push(Scalar::from_bytes(r.dtype, &tmp[..isz]).as_f64());
        for ax in (0..idx.len()).rev() {
            idx[ax] += 1;
            if idx[ax] < r.shape[ax] {
                break;
            }
            idx[ax] = 0;
        }
    }
    out
}

/// `dot` / `matmul` for 1-D and 2-D operands.
pub fn matmul(rt: &mut Runtime, a: &DeviceView, b: &DeviceView) -> PyResult<DeviceView> {
    let (m, k1, a_vec) = match a.shape.as_slice() {
        [k] => (1, *k, true),
        [m, k] => (*m, *k, false),
        _ => {
            return Err(PyErr::not_implemented(
                "matmul of arrays with more than 2 dimensions",
            ))
        }
    };
    let (k2, n, b_vec) = match b.shape.as_slice() {
        [k] => (*k, 1, true),
        [k, n] => (*k, *n, false),
        _ => {
            return Err(PyErr::not_implemented(
                "matmul of arrays with more than 2 dimensions",
            ))
        }
    };
    if k1 != k2 {
        return Err(PyErr::value_error(format!(
            "shapes {} and {} not aligned: {k1} (dim {}) != {k2} (dim 0)",
            api::shape_str(&a.shape),
            api::shape_str(&b.shape),
            a.shape.len() - 1
        )));
    }
    let mut shape = Vec::new();
    if !a_vec {
        shape.push(m);
    }
    if !b_vec {
        shape.push(n);
    }
    let dt = result_dtype(&[Operand::Arr(a.clone()), Operand::Arr(b.clone())]);
    let stream = stream_of(rt, &[Operand::Arr(a.clone()), Operand::Arr(b.clone())]);
    let out = api::alloc(rt, &shape, dt, stream)?;
    let (ra, rb, ro) = (region_of(a), region_of(b), region_of(&out));
    queue(
        rt,
        stream,
        "cupy_matmul",
        m * n * dt.itemsize(),
        move || {
            let (xa, xb) = (gather(&ra), gather(&rb));
            let ob = buffer_of(&ro.mem);
            let isz = dt.itemsize();
            let mut bytes = vec![0u8; m * n * isz]; // bounded: the bytes of `out`, allocated above
            for i in 0..m {
                for j in 0..n {
                    let mut acc = 0.0;
                    for p in 0..k1 {
                        acc += xa[i * k1 + p] * xb[p * n + j];
                    }
                    let at = (i * n + j) * isz;
                    bytes[at..at + isz].copy_from_slice(&Scalar::F64(acc).cast(dt).to_bytes());
                }
            }
            ob.write(ro.offset, &bytes);
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
            if arg(&b, 1).is_none() || arg(&b, 2).is_none() {
                return Err(PyErr::not_implemented(
                    "where(condition) with one argument (nonzero) is not supported by nbcuda",
                ));
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
                let res = matmul(rt, &x, &y)?;
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
