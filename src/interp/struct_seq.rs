//! Struct sequences (CPython's `PyStructSequence`): tuples whose items also have names, as
//! `sys.float_info`, `sys.int_info` and `sys.hash_info` are. Items by index and by name,
//! `len`, iteration, equality with tuples, and the repr `sys.float_info(max=..., ...)`.

use std::any::Any;
use std::rc::Rc;

use crate::py::error::PyResult;
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

pub struct StructSeq {
    /// The qualified name the repr shows (`sys.float_info`).
    qualname: &'static str,
    fields: &'static [&'static str],
    values: Vec<Value>,
    /// How many leading fields are items; the rest are attributes only (`tm_zone`).
    n_seq: usize,
}

impl StructSeq {
    fn items(&self) -> &[Value] {
        &self.values[..self.n_seq]
    }
    fn tuple(&self) -> Value {
        Value::tuple(self.items().to_vec())
    }
}

pub fn new(qualname: &'static str, fields: &'static [&'static str], values: Vec<Value>) -> Value {
    let n_seq = values.len();
    with_attrs(qualname, fields, values, n_seq)
}

/// A struct sequence whose fields past the first `n_seq` are named attributes only, as
/// `time.struct_time`'s `tm_zone` and `tm_gmtoff` are.
pub fn with_attrs(
    qualname: &'static str,
    fields: &'static [&'static str],
    values: Vec<Value>,
    n_seq: usize,
) -> Value {
    Value::object(StructSeq {
        qualname,
        fields,
        n_seq: n_seq.min(values.len()),
        values,
    })
}

/// The items of a struct sequence (None for any other value).
pub fn items_of(v: &Value) -> Option<Vec<Value>> {
    v.downcast::<StructSeq>().map(|s| s.items().to_vec())
}

impl Object for StructSeq {
    fn type_name(&self) -> String {
        self.qualname
            .rsplit('.')
            .next()
            .unwrap_or(self.qualname)
            .into()
    }
    fn module_name(&self) -> String {
        self.qualname
            .rsplit_once('.')
            .map_or("builtins", |m| m.0)
            .into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        let mut parts = Vec::with_capacity(self.fields.len());
        for (name, v) in self.fields.iter().zip(self.items()) {
            parts.push(format!("{name}={}", crate::interp::repr::repr(rt, v)?));
        }
        Ok(format!("{}({})", self.qualname, parts.join(", ")))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match self.fields.iter().position(|f| *f == name) {
            Some(i) => self.values.get(i).cloned(),
            None => match name {
                "n_fields" => Some(Value::Int(self.fields.len() as i64)),
                "n_sequence_fields" => Some(Value::Int(self.n_seq as i64)),
                _ => None,
            },
        })
    }
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        crate::interp::subscript::get_item(rt, &self.tuple(), key)
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(self.items().to_vec()))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(self.n_seq))
    }
    fn py_eq(&self, other: &Value, rt: &mut Runtime) -> PyResult<Option<bool>> {
        let theirs = match other.downcast::<StructSeq>() {
            Some(s) => s.tuple(),
            None => other.clone(),
        };
        Ok(Some(crate::interp::compare::py_eq(
            rt,
            &self.tuple(),
            &theirs,
        )?))
    }
    fn dir(&self) -> Vec<String> {
        let mut names: Vec<String> = self.fields.iter().map(|f| f.to_string()).collect();
        names.sort();
        names
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `sys.float_info`: the limits of a C double.
pub fn float_info() -> Value {
    new(
        "sys.float_info",
        &[
            "max",
            "max_exp",
            "max_10_exp",
            "min",
            "min_exp",
            "min_10_exp",
            "dig",
            "mant_dig",
            "epsilon",
            "radix",
            "rounds",
        ],
        vec![
            Value::Float(f64::MAX),
            Value::Int(f64::MAX_EXP as i64),
            Value::Int(f64::MAX_10_EXP as i64),
            Value::Float(f64::MIN_POSITIVE),
            Value::Int(f64::MIN_EXP as i64),
            Value::Int(f64::MIN_10_EXP as i64),
            Value::Int(f64::DIGITS as i64),
            Value::Int(f64::MANTISSA_DIGITS as i64),
            Value::Float(f64::EPSILON),
            Value::Int(f64::RADIX as i64),
            Value::Int(1),
        ],
    )
}

/// `sys.int_info`: CPython's int layout, which nbcuda reports as CPython 3.11 does.
pub fn int_info() -> Value {
    new(
        "sys.int_info",
        &[
            "bits_per_digit",
            "sizeof_digit",
            "default_max_str_digits",
            "str_digits_check_threshold",
        ],
        [30, 4, 4300, 640].map(Value::Int).to_vec(),
    )
}

/// `sys.hash_info`: the parameters of the numeric hash nbcuda computes as CPython does.
pub fn hash_info() -> Value {
    new(
        "sys.hash_info",
        &[
            "width",
            "modulus",
            "inf",
            "nan",
            "imag",
            "algorithm",
            "hash_bits",
            "seed_bits",
            "cutoff",
        ],
        vec![
            Value::Int(64),
            Value::Int((1i64 << 61) - 1),
            Value::Int(314159),
            Value::Int(0),
            Value::Int(1000003),
            Value::str("siphash13"),
            Value::Int(64),
            Value::Int(128),
            Value::Int(0),
        ],
    )
}
