//! Helpers for the devices tests: a runtime, module calls, attribute and method calls.
#![allow(dead_code)]

use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use nbcuda::arrays::dtype::{DType, Scalar};
use nbcuda::arrays::NdArray;
use nbcuda::py::error::PyResult;
use nbcuda::py::runtime::NullFrontend;
use nbcuda::py::runtime::Runtime;
use nbcuda::py::value::{Args, Module, Value};

pub fn runtime() -> Runtime {
    let mut rt = Runtime::new(Box::new(NullFrontend), Arc::new(AtomicBool::new(false)));
    rt.begin_cell(1);
    rt
}

pub fn cuda() -> Rc<Module> {
    nbcuda::numba_cuda::module()
}

pub fn call(rt: &mut Runtime, m: &Module, name: &str, args: Args) -> PyResult<Value> {
    match m.get(name) {
        Some(Value::Builtin(ref b)) => (b.f)(rt, args),
        _ => panic!("{} has no function {name}", m.name),
    }
}

pub fn attr(rt: &mut Runtime, v: &Value, name: &str) -> PyResult<Value> {
    match v {
        Value::Object(o) => o
            .clone()
            .get_attr(name, rt)?
            .ok_or_else(|| nbcuda::py::error::PyErr::attribute_error(name.to_string())),
        _ => panic!("not an object: {}", v.type_name()),
    }
}

pub fn meth(rt: &mut Runtime, v: &Value, name: &str, args: Args) -> PyResult<Value> {
    match attr(rt, v, name)? {
        Value::Builtin(ref b) => (b.f)(rt, args),
        other => panic!("{name} is not a method: {}", other.type_name()),
    }
}

pub fn host(vals: &[f64], dtype: DType) -> NdArray {
    let a = NdArray::zeros(&[vals.len()], dtype).unwrap();
    for (i, v) in vals.iter().enumerate() {
        a.buf.write(
            i * dtype.itemsize(),
            &Scalar::F64(*v).cast(dtype).to_bytes(),
        );
    }
    a
}

pub fn arange(n: usize, dtype: DType) -> NdArray {
    host(&(0..n).map(|i| i as f64).collect::<Vec<_>>(), dtype)
}

pub fn values(v: &Value) -> Vec<f64> {
    match v {
        Value::Array(a) => a.to_f64_vec(),
        other => panic!("not an array: {}", other.type_name()),
    }
}

pub fn ints(v: &Value) -> Vec<i64> {
    match v {
        Value::Tuple(t) => t
            .iter()
            .map(|x| match x {
                Value::Int(i) => *i,
                _ => panic!("not an int"),
            })
            .collect(),
        other => panic!("not a tuple: {}", other.type_name()),
    }
}

pub fn tuple(items: &[i64]) -> Value {
    Value::tuple(items.iter().map(|&i| Value::Int(i)).collect())
}

pub fn repr(rt: &mut Runtime, v: &Value) -> String {
    match v {
        Value::Object(o) => o.repr(rt).unwrap(),
        other => format!("{other:?}"),
    }
}
