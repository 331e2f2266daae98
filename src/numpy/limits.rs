//! `np.finfo` and `np.iinfo`: machine limits of the floating and integer types, as NumPy
//! reports them.

use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::dtype_from_value;
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Object, Value};

/// Register `np.finfo`.
pub fn register(m: &Module) {
    m.def(
        Function,
        "finfo",
        "dtype",
        "Machine limits for a floating type: eps, max, min, tiny, resolution, precision, bits.",
        |rt, b| {
            // A complex type's limits are those of its parts, as NumPy gives them.
            let d = dtype_of_arg(rt, b.get(0))?.real_part();
            if !d.is_float() {
                return Err(PyErr::value_error(format!(
                    "data type <class 'numpy.{}'> not inexact",
                    d.name()
                )));
            }
            Ok(Value::object(FInfo(d)))
        },
    );
    m.def(
        Function,
        "iinfo",
        "int_type",
        "Machine limits for an integer type: min, max, bits, dtype.",
        |rt, b| {
            let d = dtype_of_arg(rt, b.get(0))?;
            if !d.is_integer() || d == DType::Bool {
                return Err(PyErr::value_error(format!(
                    "Invalid integer data type '{}'.",
                    if d.is_float() { "f" } else { "b" }
                )));
            }
            Ok(Value::object(IInfo(d)))
        },
    );
}

/// The dtype `finfo`/`iinfo` describe: a dtype or scalar type, a NumPy scalar or array's
/// own, or for a Python number the dtype NumPy gives it (`finfo(1.0)` is float64's).
fn dtype_of_arg(rt: &mut Runtime, v: Option<&Value>) -> PyResult<DType> {
    Ok(match v.unwrap_or(&Value::None) {
        Value::Float(_) => DType::F64,
        Value::Int(_) => DType::I64,
        Value::Scalar(s) => s.dtype(),
        Value::Array(arr) => arr.dtype,
        other => dtype_from_value(rt, other)?,
    })
}

/// `np.iinfo(int16)` and the other integer types.
struct IInfo(DType);

impl IInfo {
    fn bounds(&self) -> (i128, i128) {
        crate::arrays::promote::int_bounds(self.0)
    }
}

impl Object for IInfo {
    fn type_name(&self) -> String {
        "iinfo".into()
    }
    fn module_name(&self) -> String {
        "numpy".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let (lo, hi) = self.bounds();
        Ok(format!(
            "iinfo(min={lo}, max={hi}, dtype={})",
            self.0.name()
        ))
    }
    fn str(&self, _rt: &mut Runtime) -> PyResult<String> {
        let (lo, hi) = self.bounds();
        let rule = "-".repeat(63); // bounded: a constant width
        Ok(format!(
            "Machine parameters for {}\n{rule}\nmin = {lo}\nmax = {hi}\n{rule}\n",
            self.0.name()
        ))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let (lo, hi) = self.bounds();
        let int = |v: i128| match i64::try_from(v) {
            Ok(i) => Value::Int(i),
            Err(_) => crate::py::bigint::from_big(num_bigint::BigInt::from(v)),
        };
        Ok(Some(match name {
            "min" => int(lo),
            "max" => int(hi),
            "bits" => Value::Int(self.0.itemsize() as i64 * 8),
            "dtype" => Value::DType(self.0),
            "kind" => Value::str(if self.0.is_signed() { "i" } else { "u" }),
            _ => return Ok(None),
        }))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `np.finfo(float16)`, `np.finfo(float32)`, `np.finfo(float64)`.
struct FInfo(DType);

/// One float type's limits, as NumPy's `finfo` reports them.
struct Limits {
    repr: &'static str,
    eps: f64,
    max: f64,
    tiny: f64,
    smallest_subnormal: f64,
    resolution: f64,
    precision: i64,
    bits: i64,
    nmant: i64,
    nexp: i64,
    maxexp: i64,
    minexp: i64,
}

const HALF: Limits = Limits {
    repr: "finfo(resolution=0.001, min=-6.55040e+04, max=6.55040e+04, dtype=float16)",
    eps: 0.0009765625,
    max: 65504.0,
    tiny: 6.103515625e-05,
    smallest_subnormal: 5.960464477539063e-08,
    resolution: 1e-3,
    precision: 3,
    bits: 16,
    nmant: 10,
    nexp: 5,
    maxexp: 16,
    minexp: -14,
};
const SINGLE: Limits = Limits {
    repr: "finfo(resolution=1e-06, min=-3.4028235e+38, max=3.4028235e+38, dtype=float32)",
    eps: f32::EPSILON as f64,
    max: f32::MAX as f64,
    tiny: f32::MIN_POSITIVE as f64,
    smallest_subnormal: 1.401298464324817e-45,
    resolution: 1e-6,
    precision: 6,
    bits: 32,
    nmant: 23,
    nexp: 8,
    maxexp: 128,
    minexp: -126,
};
const DOUBLE: Limits = Limits {
    repr: "finfo(resolution=1e-15, min=-1.7976931348623157e+308, max=1.7976931348623157e+308, dtype=float64)",
    eps: f64::EPSILON,
    max: f64::MAX,
    tiny: f64::MIN_POSITIVE,
    smallest_subnormal: 5e-324,
    resolution: 1e-15,
    precision: 15,
    bits: 64,
    nmant: 52,
    nexp: 11,
    maxexp: 1024,
    minexp: -1022,
};

impl FInfo {
    fn scalar(&self, v: f64) -> Value {
        Value::Scalar(Scalar::F64(v).cast(self.0))
    }
    fn limits(&self) -> &'static Limits {
        match self.0 {
            DType::F16 => &HALF,
            DType::F32 => &SINGLE,
            _ => &DOUBLE,
        }
    }
}

impl Object for FInfo {
    fn type_name(&self) -> String {
        "finfo".into()
    }
    fn module_name(&self) -> String {
        "numpy".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(self.limits().repr.into())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let l = self.limits();
        Ok(Some(match name {
            "eps" => self.scalar(l.eps),
            "epsneg" => self.scalar(l.eps / 2.0),
            "max" => self.scalar(l.max),
            "min" => self.scalar(-l.max),
            "tiny" | "smallest_normal" => self.scalar(l.tiny),
            "smallest_subnormal" => self.scalar(l.smallest_subnormal),
            "resolution" => self.scalar(l.resolution),
            "precision" => Value::Int(l.precision),
            "bits" => Value::Int(l.bits),
            "nmant" => Value::Int(l.nmant),
            "nexp" => Value::Int(l.nexp),
            "maxexp" => Value::Int(l.maxexp),
            "minexp" => Value::Int(l.minexp),
            "dtype" => Value::DType(self.0),
            _ => return Ok(None),
        }))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
