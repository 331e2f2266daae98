//! `np.finfo` and `np.iinfo`: machine limits of the floating and integer types, as NumPy
//! reports them.

use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs::dtype_from_value;
use crate::py::runtime::Runtime;
use crate::py::value::{Module, Object, Value};

/// Register `np.finfo`.
pub fn register(m: &Module) {
    m.func(
        "finfo",
        "finfo(dtype)",
        "Machine limits for a floating type: eps, max, min, tiny, resolution, precision, bits.",
        |rt, a| {
            let d = dtype_of_arg(rt, a.pos.first())?;
            if !d.is_float() {
                return Err(PyErr::value_error(format!(
                    "data type <class 'numpy.{}'> not inexact",
                    d.name()
                )));
            }
            Ok(Value::object(FInfo(d)))
        },
    );
    m.func(
        "iinfo",
        "iinfo(int_type)",
        "Machine limits for an integer type: min, max, bits, dtype.",
        |rt, a| {
            let d = dtype_of_arg(rt, a.pos.first())?;
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

/// `np.finfo(float32)` / `np.finfo(float64)`.
struct FInfo(DType);

impl FInfo {
    fn scalar(&self, v: f64) -> Value {
        Value::Scalar(Scalar::F64(v).cast(self.0))
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
        Ok(if self.0 == DType::F32 {
            "finfo(resolution=1e-06, min=-3.4028235e+38, max=3.4028235e+38, dtype=float32)".into()
        } else {
            "finfo(resolution=1e-15, min=-1.7976931348623157e+308, max=1.7976931348623157e+308, dtype=float64)".into()
        })
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let f32_ = self.0 == DType::F32;
        let pick = |a: f64, b: f64| if f32_ { a } else { b };
        Ok(Some(match name {
            "eps" => self.scalar(pick(f32::EPSILON as f64, f64::EPSILON)),
            "epsneg" => self.scalar(pick(f32::EPSILON as f64 / 2.0, f64::EPSILON / 2.0)),
            "max" => self.scalar(pick(f32::MAX as f64, f64::MAX)),
            "min" => self.scalar(pick(f32::MIN as f64, f64::MIN)),
            "tiny" | "smallest_normal" => {
                self.scalar(pick(f32::MIN_POSITIVE as f64, f64::MIN_POSITIVE))
            }
            "smallest_subnormal" => self.scalar(pick(1.401298464324817e-45, 5e-324)),
            "resolution" => self.scalar(pick(1e-6, 1e-15)),
            "precision" => Value::Int(if f32_ { 6 } else { 15 }),
            "bits" => Value::Int(if f32_ { 32 } else { 64 }),
            "nmant" => Value::Int(if f32_ { 23 } else { 52 }),
            "nexp" => Value::Int(if f32_ { 8 } else { 11 }),
            "maxexp" => Value::Int(if f32_ { 128 } else { 1024 }),
            "minexp" => Value::Int(if f32_ { -126 } else { -1022 }),
            "dtype" => Value::DType(self.0),
            _ => return Ok(None),
        }))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
