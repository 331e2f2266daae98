//! The Python face of host arrays: what the interpreter calls for attribute access,
//! indexing, operators, printing and conversion of NumPy arrays and scalars.

use crate::arrays::{DType, NdArray, Scalar};
use crate::language::{BinOp, PyErr, PyResult, Runtime, UnaryOp, Value};

fn todo(what: &str) -> PyErr {
    PyErr::not_implemented(format!("{what} is not implemented yet"))
}

/// `arr.name`: attributes and bound methods of an ndarray. Ok(None) → AttributeError.
pub fn array_getattr(_a: &NdArray, _name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
    Err(todo("ndarray attributes"))
}

/// Attribute names of ndarrays for completion.
pub fn array_dir() -> Vec<String> {
    Vec::new()
}

/// `arr[key]` with NumPy semantics (basic and advanced indexing).
pub fn array_getitem(_a: &NdArray, _key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
    Err(todo("ndarray indexing"))
}

/// `arr[key] = value` with broadcasting.
pub fn array_setitem(
    _a: &NdArray,
    _key: &Value,
    _value: &Value,
    _rt: &mut Runtime,
) -> PyResult<()> {
    Err(todo("ndarray assignment"))
}

/// A binary operator where at least one side is an ndarray or NumPy scalar (the other may be
/// a Python int/float/bool or a list). Ok(None) when neither side is NumPy.
pub fn binary_op(
    _op: BinOp,
    _lhs: &Value,
    _rhs: &Value,
    _rt: &mut Runtime,
) -> PyResult<Option<Value>> {
    Err(todo("ndarray operators"))
}

/// Unary operators on ndarrays and NumPy scalars. Ok(None) when not NumPy.
pub fn unary_op(_op: UnaryOp, _v: &Value, _rt: &mut Runtime) -> PyResult<Option<Value>> {
    Err(todo("ndarray unary operators"))
}

/// `repr(arr)`: `array([1., 2.], dtype=float32)` exactly as NumPy prints it.
pub fn array_repr(a: &NdArray) -> String {
    format!("<ndarray shape={:?} dtype={}>", a.shape, a.dtype.name())
}

/// `str(arr)`: `[1. 2.]` exactly as NumPy prints it.
pub fn array_str(a: &NdArray) -> String {
    array_repr(a)
}

/// `repr(np.float32(1.5))` as NumPy 2 prints it: `np.float32(1.5)`.
pub fn scalar_repr(s: &Scalar) -> String {
    format!("np.{}({})", s.dtype().name(), s.as_f64())
}

/// `str(np.float32(1.5))`: `1.5`.
pub fn scalar_str(s: &Scalar) -> String {
    format!("{}", s.as_f64())
}

/// Iterate over the first axis (rows as arrays, or scalars for 1-D).
pub fn array_iter(_a: &NdArray) -> PyResult<Vec<Value>> {
    Err(todo("ndarray iteration"))
}

/// `bool(arr)`: ValueError for more than one element, as NumPy.
pub fn array_truthy(_a: &NdArray) -> PyResult<bool> {
    Err(todo("ndarray truth value"))
}

/// `np.asarray(v)`: arrays as is, lists/tuples/scalars converted, objects with `__array__`
/// (device arrays, CuPy arrays) through that method.
pub fn to_ndarray(_rt: &mut Runtime, v: &Value) -> PyResult<NdArray> {
    match v {
        Value::Array(a) => Ok(a.clone()),
        _ => Err(todo("np.asarray")),
    }
}

/// A dtype from any spelling: `np.float32`, `'f4'`, `np.dtype('float32')`, `float`, a Numba
/// type such as `numba.float32` (objects whose `dtype` attribute is a dtype).
pub fn dtype_from_value(_rt: &mut Runtime, v: &Value) -> PyResult<DType> {
    match v {
        Value::DType(d) => Ok(*d),
        Value::Str(s) => DType::parse(s)
            .ok_or_else(|| PyErr::type_error(format!("data type '{s}' not understood"))),
        other => Err(PyErr::type_error(format!(
            "data type {other:?} not understood"
        ))),
    }
}

/// Value of one element as a Python-visible NumPy scalar.
pub fn scalar_value(s: Scalar) -> Value {
    Value::Scalar(s)
}
