//! The Python face of host arrays: what the interpreter calls for attribute access,
//! indexing, operators, printing and conversion of NumPy arrays and scalars.

use std::rc::Rc;

use crate::arrays::ops::{self, Operand};
use crate::arrays::{format, index, reduce, typed, DType, NdArray, Scalar};
use crate::language::{Args, BinOp, PyErr, PyResult, Runtime, UnaryOp, Value};

/// `arr.name`: attributes and bound methods of an ndarray. Ok(None) → AttributeError.
pub fn array_getattr(a: &NdArray, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
    let ints = |v: &[usize]| Value::tuple(v.iter().map(|&d| Value::Int(d as i64)).collect());
    Ok(Some(match name {
        "shape" => ints(&a.shape),
        "dtype" => Value::DType(a.dtype),
        "ndim" => Value::Int(a.ndim() as i64),
        "size" => Value::Int(a.size() as i64),
        "nbytes" => Value::Int(a.nbytes() as i64),
        "itemsize" => Value::Int(a.dtype.itemsize() as i64),
        "strides" => Value::tuple(a.strides.iter().map(|&s| Value::Int(s as i64)).collect()),
        "T" => Value::Array(transpose(a)),
        "flags" => Value::str(&format!(
            "  C_CONTIGUOUS : {}\n  F_CONTIGUOUS : {}\n  OWNDATA : {}\n  WRITEABLE : True",
            py_bool(a.is_c_contiguous()),
            py_bool(a.is_f_contiguous()),
            py_bool(a.offset == 0 && a.nbytes() == a.buf.len())
        )),
        _ => return Ok(method(a, name)),
    }))
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

pub fn transpose(a: &NdArray) -> NdArray {
    let mut t = a.clone();
    t.shape.reverse();
    t.strides.reverse();
    t
}

const METHODS: &[&str] = &[
    "astype",
    "reshape",
    "ravel",
    "flatten",
    "copy",
    "transpose",
    "squeeze",
    "sum",
    "mean",
    "min",
    "max",
    "std",
    "var",
    "prod",
    "argmin",
    "argmax",
    "any",
    "all",
    "cumsum",
    "tolist",
    "item",
    "fill",
    "round",
    "clip",
    "__array__",
    "view",
    "sort",
];

fn axis_arg(v: &Option<Value>) -> PyResult<Option<isize>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => Ok(Some(v.as_index()? as isize)),
    }
}

fn method(a: &NdArray, name: &str) -> Option<Value> {
    if !METHODS.contains(&name) {
        return None;
    }
    let this = Rc::new(a.clone());
    let q = format!("ndarray.{name}");
    let n = name.to_string();
    Some(Value::method(
        &this,
        &q,
        &format!("{name}(...)"),
        "As NumPy's ndarray method of the same name.",
        move |a, rt, args| call_method(a, &n, rt, args),
    ))
}

fn call_method(a: &NdArray, name: &str, rt: &mut Runtime, args: Args) -> PyResult<Value> {
    match name {
        "astype" => {
            let b = args.bind(
                "astype",
                &["dtype", "order=", "casting=", "subok=", "copy="],
            )?;
            let d = dtype_from_value(rt, b[0].as_ref().expect("required"))?;
            Ok(Value::Array(ops::cast(a, d)?))
        }
        "reshape" => {
            let shape_vals: Vec<Value> = match args.pos.as_slice() {
                [Value::Tuple(t)] => t.to_vec(),
                [Value::List(l)] => l.borrow().clone(),
                other => other.to_vec(),
            };
            let order_f = matches!(args.kwarg("order").and_then(|v| v.as_str()), Some("F"));
            Ok(Value::Array(reshape(a, &shape_vals, order_f)?))
        }
        "ravel" | "flatten" => {
            let flat = reshape(a, &[Value::Int(-1)], false)?;
            if name == "flatten" {
                Ok(Value::Array(ops::contiguous_copy(&flat)?))
            } else {
                Ok(Value::Array(flat))
            }
        }
        "copy" => Ok(Value::Array(ops::contiguous_copy(a)?)),
        "transpose" => Ok(Value::Array(transpose(a))),
        "squeeze" => {
            let mut s = a.clone();
            let keep: Vec<usize> = (0..a.ndim()).filter(|&i| a.shape[i] != 1).collect();
            s.shape = keep.iter().map(|&i| a.shape[i]).collect();
            s.strides = keep.iter().map(|&i| a.strides[i]).collect();
            Ok(Value::Array(s))
        }
        "sum" | "mean" | "min" | "max" | "std" | "var" | "prod" | "argmin" | "argmax" | "any"
        | "all" => {
            let b = args.bind(name, &["axis=", "dtype=", "out=", "keepdims=", "ddof="])?;
            let ddof = b[4]
                .as_ref()
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(0) as usize;
            reduce::reduce(name, a, axis_arg(&b[0])?, ddof)
        }
        "cumsum" => {
            let b = args.bind("cumsum", &["axis=", "dtype="])?;
            Ok(Value::Array(reduce::cumsum(a, axis_arg(&b[0])?)?))
        }
        "tolist" => Ok(tolist(a)),
        "item" => {
            if a.size() != 1 && args.pos.is_empty() {
                return Err(PyErr::value_error(
                    "can only convert an array of size 1 to a Python scalar",
                ));
            }
            let v = match args.pos.first() {
                Some(i) => {
                    let k = i.as_index()?;
                    let offs = typed::offsets(a, &a.shape);
                    let j = if k < 0 { k + offs.len() as i64 } else { k };
                    let o = *offs.get(j.max(0) as usize).ok_or_else(|| {
                        PyErr::index_error(format!(
                            "index {k} is out of bounds for size {}",
                            offs.len()
                        ))
                    })?;
                    typed::scalar_at(a, o)
                }
                None => typed::scalar_at(a, typed::offsets(a, &a.shape)[0]),
            };
            Ok(python_value(&v))
        }
        "fill" => {
            let b = args.bind("fill", &["value"])?;
            let v = to_ndarray(rt, b[0].as_ref().expect("required"))?;
            ops::copy_into(a, &v)?;
            Ok(Value::None)
        }
        "round" => {
            let b = args.bind("round", &["decimals="])?;
            let d = b[0]
                .as_ref()
                .map(|v| v.as_index())
                .transpose()?
                .unwrap_or(0);
            Ok(Value::Array(crate::arrays::ufuncs::round(a, d)?))
        }
        "clip" => {
            let b = args.bind("clip", &["min=", "max="])?;
            crate::arrays::ufuncs::clip(rt, a, b[0].clone(), b[1].clone())
        }
        "__array__" => Ok(Value::Array(a.clone())),
        "view" => Ok(Value::Array(a.clone())),
        "sort" => {
            let mut v = ops::to_vec::<f64>(a);
            if a.ndim() != 1 {
                return Err(PyErr::not_implemented(
                    "sort() of arrays with more than one dimension",
                ));
            }
            v.sort_by(|x, y| x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Greater));
            typed::store(a, &v);
            Ok(Value::None)
        }
        _ => Err(PyErr::attribute_error(format!(
            "'numpy.ndarray' object has no attribute '{name}'"
        ))),
    }
}

/// `reshape` with one `-1` allowed; a view when the layout allows, else a copy.
pub fn reshape(a: &NdArray, dims: &[Value], order_f: bool) -> PyResult<NdArray> {
    let mut shape: Vec<i64> = dims.iter().map(|v| v.as_index()).collect::<PyResult<_>>()?;
    let size = a.size() as i64;
    let unknown: Vec<usize> = shape
        .iter()
        .enumerate()
        .filter(|(_, &d)| d == -1)
        .map(|(i, _)| i)
        .collect();
    let known: i64 = shape.iter().filter(|&&d| d != -1).product();
    let bad = || {
        PyErr::value_error(format!(
            "cannot reshape array of size {size} into shape {}",
            format_shape_i(&shape_with_unknown(dims))
        ))
    };
    if unknown.len() > 1 {
        return Err(PyErr::value_error("can only specify one unknown dimension"));
    }
    if shape.iter().any(|&d| d < -1) {
        return Err(PyErr::value_error("negative dimensions not allowed"));
    }
    if let Some(&i) = unknown.first() {
        if known == 0 || size % known != 0 {
            return Err(bad());
        }
        shape[i] = size / known;
    } else if known != size {
        return Err(bad());
    }
    let new: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let src = if order_f {
        ops::contiguous_copy(&transpose(a))?
    } else if a.is_c_contiguous() {
        a.clone()
    } else {
        ops::contiguous_copy(a)?
    };
    if order_f {
        let mut rev = new.clone();
        rev.reverse();
        let v = NdArray {
            strides: NdArray::c_strides(&rev, a.dtype.itemsize()),
            shape: rev,
            ..src
        };
        return Ok(transpose(&v));
    }
    Ok(NdArray {
        strides: NdArray::c_strides(&new, a.dtype.itemsize()),
        shape: new,
        ..src
    })
}

fn shape_with_unknown(dims: &[Value]) -> Vec<i64> {
    dims.iter().map(|v| v.as_index().unwrap_or(0)).collect()
}

fn format_shape_i(s: &[i64]) -> String {
    if s.len() == 1 {
        format!("({},)", s[0])
    } else {
        format!(
            "({})",
            s.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// A NumPy scalar as the Python value `item()`/`tolist()` give.
pub fn python_value(s: &Scalar) -> Value {
    match *s {
        Scalar::Bool(b) => Value::Bool(b),
        Scalar::F32(v) => Value::Float(v as f64),
        Scalar::F64(v) => Value::Float(v),
        Scalar::U64(v) if v > i64::MAX as u64 => Value::Float(v as f64),
        other => Value::Int(other.as_i64()),
    }
}

pub fn tolist(a: &NdArray) -> Value {
    if a.ndim() == 0 {
        return python_value(&typed::scalar_at(a, a.offset as isize));
    }
    let items = (0..a.shape[0])
        .map(|i| {
            let sub = NdArray {
                offset: (a.offset as isize + i as isize * a.strides[0]) as usize,
                shape: a.shape[1..].to_vec(),
                strides: a.strides[1..].to_vec(),
                ..a.clone()
            };
            tolist(&sub)
        })
        .collect();
    Value::list(items)
}

/// Attribute names of ndarrays for completion.
pub fn array_dir() -> Vec<String> {
    let mut v: Vec<String> = [
        "shape", "dtype", "ndim", "size", "nbytes", "itemsize", "strides", "T", "flags",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(
        METHODS
            .iter()
            .filter(|m| !m.starts_with('_'))
            .map(|s| s.to_string()),
    );
    v
}

/// `arr[key]` with NumPy semantics (basic and advanced indexing).
pub fn array_getitem(a: &NdArray, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
    index::getitem(a, key)
}

/// `arr[key] = value` with broadcasting.
pub fn array_setitem(a: &NdArray, key: &Value, value: &Value, rt: &mut Runtime) -> PyResult<()> {
    let v = to_ndarray(rt, value)?;
    index::setitem(a, key, &v)
}

fn operand(rt: &mut Runtime, v: &Value) -> PyResult<Option<Operand>> {
    Ok(Some(match v {
        Value::Array(a) => Operand::Arr(a.clone()),
        Value::Scalar(s) => Operand::Arr(scalar_array(*s)?),
        Value::Int(i) => Operand::PyInt(*i),
        Value::Float(f) => Operand::PyFloat(*f),
        Value::Bool(b) => Operand::PyBool(*b),
        Value::List(_) | Value::Tuple(_) => Operand::Arr(to_ndarray(rt, v)?),
        _ => return Ok(None),
    }))
}

pub fn scalar_array(s: Scalar) -> PyResult<NdArray> {
    let a = ops::new_array(&[], s.dtype())?;
    a.buf.write(0, &s.to_bytes());
    Ok(a)
}

/// A binary operator where at least one side is an ndarray or NumPy scalar (the other may be
/// a Python int/float/bool or a list). Ok(None) when neither side is NumPy.
pub fn binary_op(op: BinOp, lhs: &Value, rhs: &Value, rt: &mut Runtime) -> PyResult<Option<Value>> {
    let numpy = |v: &Value| matches!(v, Value::Array(_) | Value::Scalar(_));
    if !numpy(lhs) && !numpy(rhs) {
        return Ok(None);
    }
    let (Some(a), Some(b)) = (operand(rt, lhs)?, operand(rt, rhs)?) else {
        return Ok(None);
    };
    let r = ops::binary(op, &a, &b, None)?;
    let any_array = matches!(lhs, Value::Array(_)) || matches!(rhs, Value::Array(_));
    if !any_array && r.ndim() == 0 {
        return Ok(Some(Value::Scalar(typed::scalar_at(&r, 0))));
    }
    Ok(Some(Value::Array(r)))
}

/// Unary operators on ndarrays and NumPy scalars. Ok(None) when not NumPy.
pub fn unary_op(op: UnaryOp, v: &Value, rt: &mut Runtime) -> PyResult<Option<Value>> {
    let a = match v {
        Value::Array(a) => a.clone(),
        Value::Scalar(s) => scalar_array(*s)?,
        _ => return Ok(None),
    };
    let r = match op {
        UnaryOp::Neg => {
            if a.dtype == DType::Bool {
                return Err(PyErr::type_error("The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead."));
            }
            crate::arrays::ufuncs::unary("negative", &a)?
        }
        UnaryOp::Pos => ops::contiguous_copy(&a)?,
        UnaryOp::Invert => {
            if a.dtype.is_float() {
                return Err(PyErr::type_error("ufunc 'invert' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''"));
            }
            if a.dtype == DType::Bool {
                ops::binary(
                    BinOp::BitXor,
                    &Operand::Arr(a),
                    &Operand::PyBool(true),
                    None,
                )?
            } else {
                ops::binary(BinOp::BitXor, &Operand::Arr(a), &Operand::PyInt(-1), None)?
            }
        }
    };
    let _ = rt;
    if matches!(v, Value::Scalar(_)) {
        return Ok(Some(Value::Scalar(typed::scalar_at(&r, 0))));
    }
    Ok(Some(Value::Array(r)))
}

/// `repr(arr)`: `array([1., 2.], dtype=float32)` exactly as NumPy prints it.
pub fn array_repr(a: &NdArray) -> String {
    format::array_repr(a)
}

/// `str(arr)`: `[1. 2.]` exactly as NumPy prints it.
pub fn array_str(a: &NdArray) -> String {
    format::array_str(a)
}

/// `repr(np.float32(1.5))` as NumPy 2 prints it: `np.float32(1.5)`.
pub fn scalar_repr(s: &Scalar) -> String {
    format::scalar_repr(s)
}

/// `str(np.float32(1.5))`: `1.5`.
pub fn scalar_str(s: &Scalar) -> String {
    format::scalar_str(s)
}

/// Iterate over the first axis (rows as arrays, or scalars for 1-D).
pub fn array_iter(a: &NdArray) -> PyResult<Vec<Value>> {
    if a.ndim() == 0 {
        return Err(PyErr::type_error("iteration over a 0-d array"));
    }
    Ok((0..a.shape[0])
        .map(|i| {
            let off = (a.offset as isize + i as isize * a.strides[0]) as usize;
            if a.ndim() == 1 {
                Value::Scalar(typed::scalar_at(a, off as isize))
            } else {
                Value::Array(NdArray {
                    offset: off,
                    shape: a.shape[1..].to_vec(),
                    strides: a.strides[1..].to_vec(),
                    ..a.clone()
                })
            }
        })
        .collect())
}

/// `bool(arr)`: ValueError for more than one element, as NumPy.
pub fn array_truthy(a: &NdArray) -> PyResult<bool> {
    match a.size() {
        1 => Ok(typed::scalar_at(a, typed::offsets(a, &a.shape)[0]).as_f64() != 0.0),
        0 => Err(PyErr::value_error("The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not empty.")),
        _ => Err(PyErr::value_error("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()")),
    }
}

fn scalar_of_py(v: &Value) -> Option<Scalar> {
    Some(match v {
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Int(i) => Scalar::I64(*i),
        Value::Float(f) => Scalar::F64(*f),
        Value::Scalar(s) => *s,
        _ => return None,
    })
}

fn flatten(
    rt: &mut Runtime,
    v: &Value,
    depth: usize,
    shape: &mut Vec<usize>,
    out: &mut Vec<Scalar>,
) -> PyResult<()> {
    match v {
        Value::List(_) | Value::Tuple(_) => {
            let items = crate::language::ops::iterate(rt, v)?;
            if shape.len() == depth {
                shape.push(items.len());
            } else if shape.get(depth) != Some(&items.len()) {
                return Err(inhomogeneous(depth));
            }
            for it in &items {
                flatten(rt, it, depth + 1, shape, out)?;
            }
            Ok(())
        }
        Value::Array(a) => {
            if shape.len() == depth {
                shape.extend(&a.shape);
            } else if shape[depth..] != a.shape[..] {
                return Err(inhomogeneous(depth));
            }
            out.extend(
                typed::offsets(a, &a.shape)
                    .into_iter()
                    .map(|o| typed::scalar_at(a, o)),
            );
            Ok(())
        }
        other => {
            if depth != shape.len() {
                return Err(inhomogeneous(depth));
            }
            out.push(scalar_of_py(other).ok_or_else(|| {
                PyErr::type_error(format!(
                    "nbcuda's NumPy holds numbers only: cannot store a '{}' in an array",
                    other.type_name()
                ))
            })?);
            Ok(())
        }
    }
}

fn inhomogeneous(depth: usize) -> PyErr {
    PyErr::value_error(format!(
        "setting an array element with a sequence. The requested array has an inhomogeneous shape after {depth} dimensions."
    ))
}

/// Build an array from nested sequences, inferring the dtype as NumPy does (bool < int64
/// < float64; NumPy scalars keep their dtype).
pub fn from_nested(rt: &mut Runtime, v: &Value, dtype: Option<DType>) -> PyResult<NdArray> {
    let mut shape = Vec::new();
    let mut items = Vec::new();
    flatten(rt, v, 0, &mut shape, &mut items)?;
    let inferred = items
        .iter()
        .map(|s| s.dtype())
        .reduce(ops::promote)
        .unwrap_or(DType::F64);
    let dt = dtype.unwrap_or(inferred);
    let out = ops::new_array(&shape, dt)?;
    let isz = dt.itemsize();
    for (k, s) in items.iter().enumerate() {
        out.buf.write(k * isz, &s.cast(dt).to_bytes());
    }
    Ok(out)
}

/// `np.asarray(v)`: arrays as is, lists/tuples/scalars converted, objects with `__array__`
/// (device arrays, CuPy arrays) through that method.
pub fn to_ndarray(rt: &mut Runtime, v: &Value) -> PyResult<NdArray> {
    match v {
        Value::Array(a) => Ok(a.clone()),
        Value::Scalar(s) => scalar_array(*s),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::List(_) | Value::Tuple(_) => {
            from_nested(rt, v, None)
        }
        Value::Object(o) => {
            let m = o.clone().get_attr("__array__", rt)?.ok_or_else(|| {
                PyErr::type_error(format!(
                    "cannot convert a '{}' object to a NumPy array",
                    o.type_name()
                ))
            })?;
            match rt.call(&m, Args::new(vec![]))? {
                Value::Array(a) => Ok(a),
                other => to_ndarray(rt, &other),
            }
        }
        other => Err(PyErr::type_error(format!(
            "cannot convert a '{}' object to a NumPy array",
            other.type_name()
        ))),
    }
}

/// A dtype from any spelling: `np.float32`, `'f4'`, `np.dtype('float32')`, `float`, a Numba
/// type such as `numba.float32` (objects whose `dtype` attribute is a dtype).
pub fn dtype_from_value(rt: &mut Runtime, v: &Value) -> PyResult<DType> {
    match v {
        Value::DType(d) => Ok(*d),
        Value::Str(s) => DType::parse(s)
            .ok_or_else(|| PyErr::type_error(format!("data type '{s}' not understood"))),
        Value::Builtin(b) if matches!(b.name.as_str(), "float" | "int" | "bool") => {
            Ok(match b.name.as_str() {
                "float" => DType::F64,
                "int" => DType::I64,
                _ => DType::Bool,
            })
        }
        Value::Object(o) => match o.clone().get_attr("dtype", rt)? {
            Some(Value::DType(d)) => Ok(d),
            _ => Err(PyErr::type_error(format!(
                "Cannot interpret '{}' as a data type",
                o.type_name()
            ))),
        },
        Value::None => Ok(DType::F64),
        other => Err(PyErr::type_error(format!(
            "Cannot interpret '{}' as a data type",
            other.type_name()
        ))),
    }
}

/// Value of one element as a Python-visible NumPy scalar.
pub fn scalar_value(s: Scalar) -> Value {
    Value::Scalar(s)
}
