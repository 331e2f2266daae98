//! Coordinate grids and spaced sequences: `np.meshgrid`, `np.logspace`, `np.geomspace`,
//! `np.identity`. The sequences are `np.linspace` raised by `np.power`, as NumPy builds
//! them, so the values agree to the last bit.

use crate::arrays::dtype::DType;
use crate::arrays::elem::{broadcast_to, cast, contiguous_copy};
use crate::arrays::NdArray;
use crate::numpy::funcs::arg;
use crate::numpy::np_call;
use crate::numpy::shape::view;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::{dtype_from_value, to_ndarray};
use crate::py::ndarray_shape::ravel;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

fn given(b: &[Option<Value>], i: usize) -> Option<&Value> {
    b[i].as_ref().filter(|v| !v.is_none())
}

/// `np.meshgrid(*xi, copy=True, sparse=False, indexing='xy')`.
fn meshgrid(rt: &mut Runtime, b: &crate::py::signature::Bound) -> PyResult<Value> {
    let copy = match b.get(0) {
        Some(v) => rt.truthy(v)?,
        None => true,
    };
    let sparse = rt.flag(b.get(1))?;
    let indexing = match b.get(2) {
        None => "xy".to_string(),
        Some(v) => v.as_str().unwrap_or("").to_string(),
    };
    if indexing != "xy" && indexing != "ij" {
        return Err(PyErr::value_error(
            "Valid values for `indexing` are 'xy' and 'ij'.",
        ));
    }
    let n = b.rest.len();
    let mut xs = Vec::new();
    for v in &b.rest {
        xs.push(ravel(&to_ndarray(rt, v)?)?);
    }
    // Each input along its own axis; 'xy' swaps the first two (Cartesian indexing).
    let axis_of = |i: usize| -> usize {
        if indexing == "xy" && n > 1 && i < 2 {
            1 - i
        } else {
            i
        }
    };
    let mut outs: Vec<NdArray> = Vec::new();
    for (i, x) in xs.iter().enumerate() {
        let k = axis_of(i);
        let mut r = view(x);
        // bounded: one axis per argument of the call
        r.shape = vec![1; n];
        r.strides = vec![0; n]; // bounded: as above
        r.shape[k] = x.shape[0];
        r.strides[k] = x.strides[0];
        outs.push(r);
    }
    if !sparse {
        let mut full: Vec<usize> = vec![1; n]; // bounded: one per input
        for (i, x) in xs.iter().enumerate() {
            full[axis_of(i)] = x.shape[0];
        }
        outs = outs
            .iter()
            .map(|r| broadcast_to(r, &full))
            .collect::<Result<_, _>>()?;
    }
    if copy {
        outs = outs.iter().map(contiguous_copy).collect::<Result<_, _>>()?;
    }
    Ok(Value::tuple(
        outs.into_iter()
            .map(|a| Value::Array(Box::new(a)))
            .collect(),
    ))
}

/// `np.logspace(start, stop, num, endpoint, base, dtype, axis)`: `base ** linspace(...)`.
fn logspace(rt: &mut Runtime, b: &[Option<Value>]) -> PyResult<Value> {
    let mut kw = vec![("num", b[2].clone().unwrap_or(Value::Int(50)))];
    if let Some(e) = &b[3] {
        kw.push(("endpoint", e.clone()));
    }
    if let Some(ax) = &b[6] {
        kw.push(("axis", ax.clone()));
    }
    let y = np_call(
        rt,
        "linspace",
        vec![arg(b, 0).clone(), arg(b, 1).clone()],
        kw,
    )?;
    let base = b[4].clone().unwrap_or(Value::Float(10.0));
    let base = Value::Array(Box::new(to_ndarray(rt, &base)?));
    let r = np_call(rt, "power", vec![base, y], Vec::new())?;
    match given(b, 5) {
        None => Ok(r),
        Some(d) => {
            let d = dtype_from_value(rt, d)?;
            let a = to_ndarray(rt, &r)?;
            Ok(Value::Array(Box::new(cast(&a, d)?)))
        }
    }
}

/// `np.geomspace(start, stop, num, endpoint, dtype, axis)` for real endpoints: the
/// logarithms of the magnitudes spaced evenly, the ends set exactly, the sign restored.
fn geomspace(rt: &mut Runtime, b: &[Option<Value>]) -> PyResult<Value> {
    let start = to_ndarray(rt, arg(b, 0))?;
    let stop = to_ndarray(rt, arg(b, 1))?;
    if start.dtype.is_complex() || stop.dtype.is_complex() || start.ndim() > 0 || stop.ndim() > 0 {
        return Err(PyErr::not_implemented(
            "np.geomspace in nbcuda takes real scalar endpoints",
        ));
    }
    let s0 = crate::arrays::elem::first_scalar(&cast(&start, DType::F64)?).as_f64();
    let s1 = crate::arrays::elem::first_scalar(&cast(&stop, DType::F64)?).as_f64();
    if s0 == 0.0 || s1 == 0.0 {
        return Err(PyErr::value_error("Geometric sequence cannot include zero"));
    }
    let num = match given(b, 2) {
        None => 50,
        Some(v) => v.as_index()?,
    };
    let sign = s0.signum();
    let (a, z) = (s0 / sign, s1 / sign);
    let mut kw = vec![("num", Value::Int(num))];
    if let Some(e) = &b[3] {
        kw.push(("endpoint", e.clone()));
    }
    let r = np_call(
        rt,
        "logspace",
        vec![Value::Float(a.log10()), Value::Float(z.log10())],
        kw,
    )?;
    let r = to_ndarray(rt, &r)?;
    let r = contiguous_copy(&r)?;
    let endpoint = match given(b, 3) {
        Some(v) => rt.truthy(v)?,
        None => true,
    };
    let n = r.size();
    {
        let v = r.buf.typed_mut::<f64>(r.offset, n);
        if n > 0 {
            v[0] = a;
            if n > 1 && endpoint {
                v[n - 1] = z;
            }
        }
        for x in v.iter_mut() {
            *x *= sign;
        }
    }
    let d = match given(b, 4) {
        Some(d) => dtype_from_value(rt, d)?,
        None => DType::F64,
    };
    Ok(Value::Array(Box::new(cast(&r, d)?)))
}

/// Register `meshgrid`, `logspace`, `geomspace` and `identity`.
pub fn register(m: &Module) {
    m.def(
        Function,
        "meshgrid",
        "*xi, copy=True, sparse=False, indexing='xy'",
        "Coordinate matrices from coordinate vectors.",
        |rt, b| meshgrid(rt, &b),
    );
    m.def(
        Function,
        "logspace",
        "start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0",
        "Numbers spaced evenly on a log scale.",
        |rt, b| logspace(rt, &b),
    );
    m.def(
        Function,
        "geomspace",
        "start, stop, num=50, endpoint=True, dtype=None, axis=0",
        "Numbers spaced evenly on a log scale (a geometric progression).",
        |rt, b| geomspace(rt, &b),
    );
    m.def(
        Function,
        "identity",
        "n, dtype=None, *, like=None",
        "The identity array.",
        |rt, b| {
            let mut kw = Vec::new();
            if let Some(d) = given(&b, 1) {
                kw.push(("dtype", d.clone()));
            }
            np_call(rt, "eye", vec![arg(&b, 0).clone()], kw)
        },
    );
}
