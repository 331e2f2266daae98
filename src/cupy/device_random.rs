//! `cupy.random`: random arrays generated on the device (a counter-based SplitMix64
//! stream, seeded by `cupy.random.seed`). Values differ from NumPy's generators, as
//! CuPy's do.

use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::cupy::elementwise::{current_stream, queue};
use crate::cupy::ndarray::wrap;
use crate::device::copy::{buffer_of, region_of};
use crate::device::{api, DeviceView};
use crate::numba_cuda::devicearray::arg;
use crate::numba_cuda::view_index::parse_shape;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

/// Seed and position of the session's generator.
struct RandomState {
    seed: u64,
    counter: u64,
}

impl Default for RandomState {
    fn default() -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x5eed);
        RandomState { seed, counter: 0 }
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Uniform in [0, 1) from the i-th draw of a key.
fn unit(key: u64, i: u64) -> f64 {
    (splitmix(key ^ splitmix(i)) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

#[derive(Clone, Copy)]
enum Dist {
    Uniform(f64, f64),
    Normal(f64, f64),
    Int(i64, i64),
}

fn generate(rt: &mut Runtime, shape: &[usize], dtype: DType, dist: Dist) -> PyResult<DeviceView> {
    let n = shape.iter().product::<usize>();
    let st = rt.state::<RandomState>();
    let key = splitmix(st.seed ^ splitmix(st.counter));
    st.counter = st.counter.wrapping_add(1);
    let stream = current_stream(rt);
    let out = api::alloc(rt, shape, dtype, stream)?;
    let dst = region_of(&out);
    queue(rt, stream, "cupy_random", n * dtype.itemsize(), move || {
        let b = buffer_of(&dst.mem);
        let isz = dtype.itemsize();
        let mut bytes = vec![0u8; n * isz]; // bounded: the bytes of `out`, allocated above
        for (i, o) in bytes.chunks_exact_mut(isz).enumerate() {
            let i = i as u64;
            let v = match dist {
                Dist::Uniform(lo, hi) => Scalar::F64(lo + (hi - lo) * unit(key, i)),
                Dist::Normal(mu, sigma) => {
                    // Box-Muller on two independent uniforms of this element.
                    let u1 = 1.0 - unit(key, 2 * i);
                    let u2 = unit(key, 2 * i + 1);
                    let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
                    Scalar::F64(mu + sigma * z)
                }
                Dist::Int(lo, hi) => {
                    let span = (hi - lo) as u64;
                    Scalar::I64(lo + (splitmix(key ^ splitmix(i)) % span) as i64)
                }
            };
            o.copy_from_slice(&v.cast(dtype).to_bytes());
        }
        b.write(dst.offset, &bytes);
    });
    Ok(out)
}

fn size_arg(v: Option<&Value>) -> PyResult<Vec<usize>> {
    match v {
        None | Some(Value::None) => Ok(vec![]),
        Some(v) => parse_shape(v),
    }
}

fn float_dtype(rt: &mut Runtime, v: Option<&Value>) -> PyResult<DType> {
    match v {
        None | Some(Value::None) => Ok(DType::F64),
        Some(v) => {
            let d = crate::py::ndarray_attrs::dtype_from_value(rt, v)?;
            if d.is_float() {
                Ok(d)
            } else {
                Err(PyErr::type_error(format!(
                    "random values need a float dtype, not {}",
                    d.name()
                )))
            }
        }
    }
}

fn f(v: Option<&Value>, default: f64) -> PyResult<f64> {
    v.filter(|v| !v.is_none())
        .map(|v| v.as_f64())
        .transpose()
        .map(|x| x.unwrap_or(default))
}

/// Build `cupy.random`.
pub fn module() -> Rc<Module> {
    let m = Module::new("cupy.random", "Random arrays generated on the device.");
    m.def(
        Function,
        "seed",
        "seed=None",
        "Resets the state of the random number generator with a seed.",
        |rt, b| {
            let s = match arg(&b, 0) {
                None | Some(Value::None) => RandomState::default().seed,
                Some(v) => v.as_index()? as u64,
            };
            *rt.state::<RandomState>() = RandomState {
                seed: s,
                counter: 0,
            };
            Ok(Value::None)
        },
    );
    for name in ["random", "random_sample"] {
        m.def(
            Function,
            name,
            "size=None, dtype=<class 'float'>",
            "Returns an array of random values over the interval ``[0, 1)``.",
            |rt, b| {
                let shape = size_arg(arg(&b, 0))?;
                let dt = float_dtype(rt, arg(&b, 1))?;
                Ok(wrap(generate(rt, &shape, dt, Dist::Uniform(0.0, 1.0))?))
            },
        );
    }
    for (name, doc) in [
        (
            "rand",
            "Returns an array of uniform random values over the interval ``[0, 1)``.",
        ),
        (
            "randn",
            "Returns an array of standard normal random values.",
        ),
    ] {
        m.def(Function, name, "*size, **kwarg", doc, move |rt, b| {
            // CuPy's own check: dtype is the one keyword.
            let mut dtype = None;
            for (k, v) in &b.kw {
                if &**k == "dtype" {
                    dtype = Some(v);
                }
            }
            let others: Vec<&str> =
                b.kw.iter()
                    .map(|(k, _)| &**k)
                    .filter(|k| *k != "dtype")
                    .collect();
            if !others.is_empty() {
                return Err(PyErr::type_error(format!(
                    "{name}() got unexpected keyword arguments {}",
                    others.join(", ")
                )));
            }
            let shape = b
                .rest
                .iter()
                .map(|v| v.as_index().map(|n| n.max(0) as usize))
                .collect::<PyResult<Vec<_>>>()?;
            let dt = float_dtype(rt, dtype)?;
            let dist = if name == "rand" {
                Dist::Uniform(0.0, 1.0)
            } else {
                Dist::Normal(0.0, 1.0)
            };
            Ok(wrap(generate(rt, &shape, dt, dist)?))
        });
    }
    m.def(
        Function,
        "normal",
        "loc=0.0, scale=1.0, size=None, dtype=<class 'float'>",
        "Returns an array of normally distributed samples.",
        |rt, b| {
            let dt = float_dtype(rt, arg(&b, 3))?;
            let dist = Dist::Normal(f(arg(&b, 0), 0.0)?, f(arg(&b, 1), 1.0)?);
            Ok(wrap(generate(rt, &size_arg(arg(&b, 2))?, dt, dist)?))
        },
    );
    m.def(
        Function,
        "uniform",
        "low=0.0, high=1.0, size=None, dtype=<class 'float'>",
        "Returns an array of uniformly-distributed samples over an interval.",
        |rt, b| {
            let dt = float_dtype(rt, arg(&b, 3))?;
            let dist = Dist::Uniform(f(arg(&b, 0), 0.0)?, f(arg(&b, 1), 1.0)?);
            Ok(wrap(generate(rt, &size_arg(arg(&b, 2))?, dt, dist)?))
        },
    );
    m.def(
        Function,
        "randint",
        "low, high=None, size=None, dtype='l'",
        "Returns a scalar or an array of integer values over ``[low, high)``.",
        |rt, b| {
            let low = arg(&b, 0).map(|v| v.as_index()).transpose()?.unwrap_or(0);
            let (lo, hi) = match arg(&b, 1).filter(|v| !v.is_none()) {
                Some(h) => (low, h.as_index()?),
                None => (0, low),
            };
            if hi <= lo {
                return Err(PyErr::value_error("high <= low"));
            }
            let dt = match arg(&b, 3) {
                None | Some(Value::None) => DType::I64,
                Some(v) => crate::py::ndarray_attrs::dtype_from_value(rt, v)?,
            };
            Ok(wrap(generate(
                rt,
                &size_arg(arg(&b, 2))?,
                dt,
                Dist::Int(lo, hi),
            )?))
        },
    );
    Rc::new(m)
}
