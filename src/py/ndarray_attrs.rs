//! The Python face of host arrays: what the interpreter calls for attribute access,
//! indexing, operators, printing and conversion of NumPy arrays and scalars.

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::elem::{copy_into, first_scalar, new_array, scalar_array, Elem};
use crate::arrays::index::{gather, resolve, scatter, Idx, Target};
use crate::arrays::operator::BinOp;
use crate::arrays::operator::{Ufunc1, Unary, UnaryOp};
use crate::arrays::ufunc::{binary_ufunc, elementwise_unary, Ufunc2};
use crate::arrays::NdArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::promote::python_dtype;
use crate::py::promote::{weak_dtype, weak_scalar};
use crate::py::runtime::Runtime;
use crate::py::value::scalar_to_python;
use crate::py::value::{Args, Value};
use crate::with_dtype;

pub use crate::arrays::format::{array_repr, array_str, scalar_repr, scalar_str};
pub use crate::py::ndarray_methods::{array_dir, array_getattr};

fn is_numpy(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Scalar(_))
}

/// Parse an indexing key into its components.
pub fn parse_key(rt: &mut Runtime, key: &Value) -> PyResult<Vec<Idx>> {
    let one = |rt: &mut Runtime, k: &Value| -> PyResult<Idx> {
        Ok(match k {
            Value::Int(i) => Idx::Int(*i),
            Value::Bool(b) => Idx::Array(scalar_array(Scalar::Bool(*b))),
            Value::Scalar(s) if s.dtype().is_integer() => Idx::Int(s.as_i64()),
            Value::Slice(s) => Idx::Slice((**s).clone()),
            Value::None => Idx::NewAxis,
            Value::Ellipsis => Idx::Ellipsis,
            Value::Array(a) => Idx::Array(a.as_ref().clone()),
            Value::List(_) => Idx::Array(to_ndarray(rt, k)?),
            other => {
                return Err(PyErr::index_error(format!(
                    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices (got {})",
                    other.type_name()
                )))
            }
        })
    };
    match key {
        Value::Tuple(items) => items.iter().map(|k| one(rt, k)).collect(),
        k => Ok(vec![one(rt, k)?]),
    }
}

/// `arr[key]` with NumPy semantics (basic and advanced indexing).
pub fn array_getitem(a: &NdArray, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
    let keys = parse_key(rt, key)?;
    let all_ints = keys.iter().all(|k| matches!(k, Idx::Int(_)));
    match resolve(a, keys)? {
        Target::View(v) => {
            if v.ndim() == 0 && all_ints {
                Ok(Value::Scalar(first_scalar(&v)))
            } else {
                Ok(Value::Array(Box::new(v)))
            }
        }
        Target::Gather { shape, offsets } => {
            Ok(Value::Array(Box::new(gather(a, &shape, &offsets)?)))
        }
    }
}

/// A value to store into an array of `dtype`: Python numbers cast directly (as NumPy's
/// setitem does), everything else through `to_ndarray`.
fn value_for(rt: &mut Runtime, v: &Value, dtype: DType) -> PyResult<NdArray> {
    Ok(match v {
        Value::Int(i) => {
            if dtype.is_integer() {
                weak_dtype(v, dtype)?;
            }
            scalar_array(Scalar::I64(*i).cast(dtype))
        }
        Value::Float(f) => scalar_array(Scalar::F64(*f).cast(dtype)),
        Value::Bool(b) => scalar_array(Scalar::Bool(*b).cast(dtype)),
        Value::BigInt(_) => {
            let d = weak_dtype(v, dtype)?;
            scalar_array(weak_scalar(v, d)?.cast(dtype))
        }
        other => to_ndarray(rt, other)?,
    })
}

/// The scalar `fill`/`full` store: Python numbers and NumPy scalars cast to `dtype`.
pub fn value_for_fill(rt: &mut Runtime, v: &Value, dtype: DType) -> PyResult<Scalar> {
    let a = value_for(rt, v, dtype)?;
    if a.size() != 1 {
        return Err(PyErr::value_error("fill value must be a single number"));
    }
    Ok(first_scalar(&a).cast(dtype))
}

/// NumPy's refusal to write read-only memory (`flags.writeable` False); `what` is NumPy's
/// name for the destination ("assignment destination", "output array", "sort array").
pub fn check_writeable(a: &NdArray, what: &str) -> PyResult<()> {
    if a.buf.is_readonly() {
        return Err(PyErr::value_error(format!("{what} is read-only")));
    }
    Ok(())
}

/// NumPy 2 converts a float scalar stored into an integer array as Python's `int()` does,
/// so NaN and infinities raise instead of storing garbage (arrays of floats still cast).
fn check_float_into_int(value: &Value, dtype: DType) -> PyResult<()> {
    if !dtype.is_integer() {
        return Ok(());
    }
    let f = match value {
        Value::Float(f) => *f,
        Value::Scalar(s) if s.dtype().is_float() => s.as_f64(),
        _ => return Ok(()),
    };
    if f.is_nan() {
        return Err(PyErr::value_error("cannot convert float NaN to integer"));
    }
    if f.is_infinite() {
        return Err(PyErr::overflow("cannot convert float infinity to integer"));
    }
    // i64's range, whose bounds are exactly -2**63 and 2**63 as floats.
    let limit = 2f64.powi(63);
    if dtype.is_signed() && !(-limit..limit).contains(&f) {
        return Err(PyErr::overflow("Python int too large to convert to C long"));
    }
    Ok(())
}

/// NumPy's ComplexWarning before a cast from `from` to `to` that drops imaginary parts
/// (complex to any real dtype but bool); the `warnings` filters decide what it does.
pub fn warn_complex_cast(rt: &mut Runtime, from: DType, to: DType) -> PyResult<()> {
    if !from.is_complex() || to.is_complex() || to == DType::Bool {
        return Ok(());
    }
    let origin = format!("Cell In[{}]", rt.execution_count);
    rt.warn(
        "ComplexWarning",
        "Casting complex values to real discards the imaginary part",
        &origin,
    )
}

/// A Python complex where NumPy wants a real number of `to`: refused as Python's
/// `float()`/`int()` refuse it (bool takes its truth).
fn check_python_complex(v: &Value, to: DType) -> PyResult<()> {
    if !matches!(v, Value::Complex(..)) || to.is_complex() || to == DType::Bool {
        return Ok(());
    }
    Err(PyErr::type_error(if to.is_float() {
        "float() argument must be a string or a real number, not 'complex'"
    } else {
        "int() argument must be a string, a bytes-like object or a real number, not 'complex'"
    }))
}

/// `arr[key] = value` with broadcasting.
pub fn array_setitem(a: &NdArray, key: &Value, value: &Value, rt: &mut Runtime) -> PyResult<()> {
    check_writeable(a, "assignment destination")?;
    let keys = parse_key(rt, key)?;
    check_float_into_int(value, a.dtype)?;
    check_python_complex(value, a.dtype)?;
    let val = value_for(rt, value, a.dtype)?;
    warn_complex_cast(rt, val.dtype, a.dtype)?;
    match resolve(a, keys)? {
        Target::View(v) => Ok(copy_into(&v, &val)?),
        Target::Gather { shape, offsets } => Ok(scatter(a, &shape, &offsets, &val)?),
    }
}

/// Turn the operands of a binary operator into arrays, with Python numbers weak (NEP 50).
pub fn operands(
    rt: &mut Runtime,
    lhs: &Value,
    rhs: &Value,
) -> PyResult<Option<(NdArray, NdArray)>> {
    let strong = |rt: &mut Runtime, v: &Value| -> PyResult<Option<NdArray>> {
        Ok(match v {
            Value::Array(a) => Some(a.as_ref().clone()),
            Value::Scalar(s) => Some(scalar_array(*s)),
            Value::List(_) | Value::Tuple(_) => Some(to_ndarray(rt, v)?),
            _ => None,
        })
    };
    let weak = |v: &Value, other: DType| -> PyResult<Option<NdArray>> {
        let Some(pd) = python_dtype(v) else {
            return Ok(None);
        };
        let d = weak_dtype(v, other)?;
        let _ = pd;
        Ok(Some(scalar_array(weak_scalar(v, d)?.cast(d))))
    };
    let l = strong(rt, lhs)?;
    let r = strong(rt, rhs)?;
    Ok(match (l, r) {
        (Some(l), Some(r)) => Some((l, r)),
        (Some(l), None) => weak(rhs, l.dtype)?.map(|r| (l, r)),
        (None, Some(r)) => weak(lhs, r.dtype)?.map(|l| (l, r)),
        (None, None) => None,
    })
}

/// A binary operator where at least one side is an ndarray or NumPy scalar (the other may be
/// a Python int/float/bool or a list). Ok(None) when neither side is NumPy.
pub fn binary_op(op: BinOp, lhs: &Value, rhs: &Value, rt: &mut Runtime) -> PyResult<Option<Value>> {
    if !is_numpy(lhs) && !is_numpy(rhs) {
        return Ok(None);
    }
    rt.check_interrupt()?;
    let Some((a, b)) = operands(rt, lhs, rhs)? else {
        return Ok(None);
    };
    if op == BinOp::MatMul {
        let dot = crate::py::ndarray_methods::numpy_function(rt, "matmul")?
            .ok_or_else(|| PyErr::internal("np.matmul"))?;
        return rt
            .call(
                &dot,
                Args::new(vec![Value::Array(Box::new(a)), Value::Array(Box::new(b))]),
            )
            .map(Some);
    }
    if op == BinOp::Pow && a.dtype.is_integer() && b.dtype.is_integer() {
        let neg = with_dtype!(b.dtype, T => crate::arrays::elem::read_vec::<T>(&b).iter().any(|x| x.to_f64() < 0.0));
        if neg {
            return Err(PyErr::value_error(
                "Integers to negative integer powers are not allowed.",
            ));
        }
    }
    let res = binary_ufunc(Ufunc2::from_binop(op)?, &a, &b, None)?;
    Ok(Some(wrap_result(res)))
}

/// `a op= rhs` for an ndarray: computed into `a` itself, so views and aliases see the
/// change. A result NumPy could not cast back into `a`'s dtype under 'same_kind' (an int
/// array `+= 1.5`) raises UFuncTypeError instead of truncating.
pub fn inplace_op(op: BinOp, a: &NdArray, rhs: &Value, rt: &mut Runtime) -> PyResult<Value> {
    check_writeable(a, "output array")?;
    let lhs = Value::Array(Box::new(a.clone()));
    if op == BinOp::MatMul {
        let r = binary_op(op, &lhs, rhs, rt)?
            .ok_or_else(|| PyErr::internal("matmul of an ndarray gave no result"))?;
        array_setitem(a, &Value::Ellipsis, &r, rt)?;
        return Ok(lhs);
    }
    rt.check_interrupt()?;
    let Some((x, y)) = operands(rt, &lhs, rhs)? else {
        return Err(PyErr::type_error(format!(
            "unsupported operand type(s) for {}=: 'numpy.ndarray' and '{}'",
            op.symbol(),
            rhs.type_name()
        )));
    };
    if op == BinOp::Pow && x.dtype.is_integer() && y.dtype.is_integer() {
        let neg = with_dtype!(y.dtype, T => crate::arrays::elem::read_vec::<T>(&y).iter().any(|v| v.to_f64() < 0.0));
        if neg {
            return Err(PyErr::value_error(
                "Integers to negative integer powers are not allowed.",
            ));
        }
    }
    binary_ufunc(Ufunc2::from_binop(op)?, &x, &y, Some(a))?;
    Ok(lhs)
}

/// 0-d results of operations are NumPy scalars.
pub fn wrap_result(res: NdArray) -> Value {
    if res.ndim() == 0 {
        Value::Scalar(first_scalar(&res))
    } else {
        Value::Array(Box::new(res))
    }
}

/// Unary operators on ndarrays and NumPy scalars. Ok(None) when not NumPy.
pub fn unary_op(op: UnaryOp, v: &Value, _rt: &mut Runtime) -> PyResult<Option<Value>> {
    let a = match v {
        Value::Array(a) => a.as_ref().clone(),
        Value::Scalar(s) => scalar_array(*s),
        _ => return Ok(None),
    };
    let f = match op {
        UnaryOp::Neg => Ufunc1::Op(Unary::Neg),
        UnaryOp::Pos => Ufunc1::Positive,
        UnaryOp::Invert => Ufunc1::Op(Unary::Invert),
    };
    Ok(Some(wrap_result(elementwise_unary(f, &a, None)?)))
}

/// Iterate over the first axis (rows as arrays, or scalars for 1-D).
pub fn array_iter(a: &NdArray) -> PyResult<Vec<Value>> {
    if a.ndim() == 0 {
        return Err(PyErr::type_error("iteration over a 0-d array"));
    }
    // An empty array may have any number of (empty) rows.
    let mut out = crate::arrays::alloc::vec_with_capacity(a.shape[0], "a list")?;
    for i in 0..a.shape[0] {
        let mut v = a.clone();
        v.offset = (a.offset as isize + i as isize * a.strides[0]) as usize;
        v.shape.remove(0);
        v.strides.remove(0);
        out.push(if v.ndim() == 0 {
            Value::Scalar(first_scalar(&v))
        } else {
            Value::Array(Box::new(v))
        });
    }
    Ok(out)
}

/// `bool(arr)`: ValueError for more than one element, as NumPy.
pub fn array_truthy(a: &NdArray) -> PyResult<bool> {
    match a.size() {
        1 => Ok(first_scalar(a).as_f64() != 0.0),
        0 => Err(PyErr::value_error(
            "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not empty.",
        )),
        _ => Err(PyErr::value_error(
            "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()",
        )),
    }
}

/// Shape and flattened leaves of a nested list/tuple value.
fn discover(
    v: &Value,
    depth: usize,
    shape: &mut Vec<usize>,
    leaves: &mut Vec<Value>,
) -> PyResult<()> {
    let items: Option<Vec<Value>> = match v {
        Value::List(l) => Some(l.borrow().clone()),
        Value::Tuple(t) => Some(t.to_vec()),
        Value::Array(a) if a.ndim() > 0 => Some(array_iter(a)?),
        // A namedtuple is a tuple to NumPy.
        Value::Object(o) => o.named_tuple().map(|(_, items)| items),
        _ => None,
    };
    match items {
        Some(items) => {
            // NumPy's NPY_MAXDIMS; it also ends the walk of a list that contains itself.
            if depth >= 64 {
                return Err(PyErr::value_error(
                    "setting an array element with a sequence. The requested array would exceed the maximum number of dimension of 64.",
                ));
            }
            // A new dimension after leaves were found means a number and a list sit at
            // the same depth (`[1, [2]]`).
            if shape.len() == depth && leaves.is_empty() {
                shape.push(items.len());
            } else if shape.len() <= depth || shape[depth] != items.len() {
                return Err(inhomogeneous(&shape[..depth.min(shape.len())]));
            }
            for it in &items {
                discover(it, depth + 1, shape, leaves)?;
            }
        }
        None => {
            if shape.len() > depth {
                return Err(inhomogeneous(&shape[..depth.min(shape.len())]));
            }
            leaves.push(v.clone());
        }
    }
    Ok(())
}

/// NumPy's error for nested sequences of unequal lengths; `agreed` is the shape of the
/// dimensions that were consistent.
fn inhomogeneous(agreed: &[usize]) -> PyErr {
    PyErr::value_error(format!(
        "setting an array element with a sequence. The requested array has an inhomogeneous shape after {} dimensions. The detected shape was {} + inhomogeneous part.",
        agreed.len(),
        crate::arrays::elem::shape_str(agreed)
    ))
}

/// One number of `np.array(...)` as a scalar: a Python int given an integer `dtype` must
/// fit it (NumPy 2's OverflowError otherwise); one past int64 is a uint64, or a float
/// when the array is of floats.
fn leaf_scalar(v: &Value, dtype: Option<DType>) -> PyResult<Scalar> {
    match (v, dtype) {
        (Value::Int(_) | Value::BigInt(_), Some(t)) if t.is_integer() || t.is_float() => {
            let d = weak_dtype(v, t)?;
            weak_scalar(v, d)
        }
        (Value::Scalar(s), _) => Ok(*s),
        (_, Some(t)) => {
            check_python_complex(v, t)?;
            crate::py::value::python_scalar(v)
        }
        _ => crate::py::value::python_scalar(v),
    }
}

/// `np.asarray(v)`: arrays as is, lists/tuples/scalars converted, objects with `__array__`
/// (device arrays, CuPy arrays) through that method.
pub fn to_ndarray(rt: &mut Runtime, v: &Value) -> PyResult<NdArray> {
    to_ndarray_dtype(rt, v, None)
}

/// `np.array(v, dtype=...)` conversion (no copy when `v` already is an array of `dtype`).
pub fn to_ndarray_dtype(rt: &mut Runtime, v: &Value, dtype: Option<DType>) -> PyResult<NdArray> {
    let base = match v {
        Value::Array(a) => a.as_ref().clone(),
        Value::Scalar(s) => scalar_array(*s),
        Value::Int(_)
        | Value::Float(_)
        | Value::Bool(_)
        | Value::BigInt(_)
        | Value::Complex(..) => {
            let d = python_dtype(v).unwrap_or(DType::F64);
            scalar_array(leaf_scalar(v, dtype)?.cast(dtype.unwrap_or(d)))
        }
        Value::List(_) | Value::Tuple(_) => {
            let mut shape = Vec::new();
            let mut leaves = Vec::new();
            discover(v, 0, &mut shape, &mut leaves)?;
            // A leaf and a list at the same depth (`[-0.0, []]`) pass the walk's checks
            // when the list is empty; the counts then disagree.
            if shape.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n)) != Some(leaves.len()) {
                return Err(inhomogeneous(&shape[..shape.len().saturating_sub(1)]));
            }
            let mut inferred: Option<DType> = None;
            for l in &leaves {
                let d = match l {
                    Value::Scalar(s) => s.dtype(),
                    other => python_dtype(other).ok_or_else(|| {
                        PyErr::type_error(format!(
                            "nbcuda arrays hold numbers only; cannot convert a '{}' element",
                            other.type_name()
                        ))
                    })?,
                };
                inferred = Some(match inferred {
                    None => d,
                    Some(p) => crate::arrays::promote::promote(p, d),
                });
            }
            let dt = dtype.or(inferred).unwrap_or(DType::F64);
            // An explicit dtype checks each Python int against it; an inferred one holds
            // them all, except ints past int64 mixed with signed ones (a float array).
            let target = dtype.or(Some(dt).filter(|d| d.is_float()));
            let scalars = leaves
                .iter()
                .map(|l| leaf_scalar(l, target))
                .collect::<PyResult<Vec<Scalar>>>()?;
            if let Some(from) = inferred {
                warn_complex_cast(rt, from, dt)?;
            }
            let out = new_array(&shape, dt)?;
            with_dtype!(dt, T => {
                let o = out.buf.typed_mut::<T>(0, leaves.len());
                for (d, s) in o.iter_mut().zip(&scalars) {
                    *d = T::from_scalar(*s);
                }
            });
            return Ok(out);
        }
        Value::Object(o) => {
            let Some(m) = o.clone().get_attr("__array__", rt)? else {
                // Sequences without `__array__` (`range`) convert item by item, as NumPy
                // converts any sequence.
                if o.len(rt)?.is_some() {
                    if let Some(items) = o.clone().iter(rt)? {
                        return to_ndarray_dtype(rt, &Value::list(items), dtype);
                    }
                }
                return Err(PyErr::type_error(format!(
                    "cannot convert a '{}' object to a NumPy array",
                    o.type_name()
                )));
            };
            *match rt.call(&m, crate::py::value::Args::default())? {
                Value::Array(ref a) => a.clone(),
                other => {
                    return Err(PyErr::type_error(format!(
                        "__array__ returned a '{}', not an ndarray",
                        other.type_name()
                    )))
                }
            }
        }
        other => {
            return Err(PyErr::type_error(format!(
                "cannot convert a '{}' object to a NumPy array",
                other.type_name()
            )))
        }
    };
    match dtype {
        Some(d) if d != base.dtype => {
            warn_complex_cast(rt, base.dtype, d)?;
            Ok(crate::arrays::elem::cast(&base, d)?)
        }
        _ => Ok(base),
    }
}

/// A dtype from any spelling: `np.float32`, `'f4'`, `np.dtype('float32')`, `float`, a Numba
/// type such as `numba.float32` (objects whose `dtype` attribute is a dtype).
pub fn dtype_from_value(rt: &mut Runtime, v: &Value) -> PyResult<DType> {
    match v {
        Value::DType(d) => Ok(*d),
        Value::None => Ok(DType::F64),
        Value::Str(s) => DType::parse(s)
            .ok_or_else(|| PyErr::type_error(format!("data type '{s}' not understood"))),
        Value::Builtin(b) => {
            let n = b.name.rsplit('.').next().unwrap_or(&b.name);
            DType::parse(n).ok_or_else(|| {
                PyErr::type_error(format!("Cannot interpret '{}' as a data type", b.name))
            })
        }
        Value::Object(o) => match o.clone().get_attr("dtype", rt)? {
            Some(Value::DType(d)) => Ok(d),
            _ => Err(PyErr::type_error(format!(
                "Cannot interpret '{}' as a data type",
                o.type_name()
            ))),
        },
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

/// An array's elements as nested Python lists (`tolist`).
pub fn to_list(a: &NdArray) -> PyResult<Value> {
    if a.ndim() == 0 {
        return Ok(scalar_to_python(first_scalar(a)));
    }
    let mut items = Vec::new();
    for v in array_iter(a)? {
        items.push(match v {
            Value::Array(ref x) => to_list(x)?,
            Value::Scalar(s) => scalar_to_python(s),
            other => other,
        });
    }
    Ok(Value::list(items))
}
