//! Equality, identity and ordering with Python semantics: `==` on containers (recursion
//! bounded as CPython's), `is`, the ordering `sorted`/`min`/`max` use, and the comparison
//! operators, with NumPy operands compared elementwise and objects asked first.

use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::interp::ops::{is_numeric, is_numpy, truthy};
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs;
use crate::py::runtime::Runtime;
use crate::py::value::Value;

/// `a == b` as a Python bool (identity/structural; arrays compare elementwise elsewhere).
pub fn py_eq(rt: &mut Runtime, a: &Value, b: &Value) -> PyResult<bool> {
    let nested = matches!(
        (a, b),
        (Value::Tuple(_), Value::Tuple(_))
            | (Value::List(_), Value::List(_))
            | (Value::Dict(_), Value::Dict(_))
            | (Value::Set(_), Value::Set(_))
    );
    if !nested {
        return py_eq_inner(rt, a, b);
    }
    in_comparison(rt, |rt| py_eq_inner(rt, a, b))
}

/// Runs one level of a container comparison. Comparing self-containing or very deep
/// containers recurses without end; CPython stops at its recursion limit.
fn in_comparison<T>(rt: &mut Runtime, f: impl FnOnce(&mut Runtime) -> PyResult<T>) -> PyResult<T> {
    let depth = &mut rt.state::<CompareDepth>().0;
    if *depth >= 1000 {
        return Err(PyErr::new(
            "RecursionError",
            "maximum recursion depth exceeded in comparison",
        ));
    }
    *depth += 1;
    let r = f(rt);
    rt.state::<CompareDepth>().0 -= 1;
    r
}

/// How many container comparisons are in progress (see [`py_eq`]).
#[derive(Default)]
struct CompareDepth(usize);

fn py_eq_inner(rt: &mut Runtime, a: &Value, b: &Value) -> PyResult<bool> {
    Ok(match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Ellipsis, Value::Ellipsis) => true,
        (x, y) if is_numeric(x) && is_numeric(y) => {
            crate::py::bigint::cmp_real(x, y) == Some(std::cmp::Ordering::Equal)
        }
        (Value::Complex(re, im), y) | (y, Value::Complex(re, im))
            if is_numeric(y) || matches!(y, Value::Complex(..)) =>
        {
            crate::interp::complex::as_complex(y)? == Some((*re, *im))
        }
        (Value::Scalar(s), Value::BigInt(b)) | (Value::BigInt(b), Value::Scalar(s)) => {
            matches!(s, crate::arrays::dtype::Scalar::U64(u) if num_traits::ToPrimitive::to_u64(&**b) == Some(*u))
        }
        (Value::Scalar(s), y) if is_numeric(y) => s.as_f64() == y.as_f64()?,
        (x, Value::Scalar(s)) if is_numeric(x) => s.as_f64() == x.as_f64()?,
        (Value::Scalar(s), Value::Scalar(t)) => s.as_f64() == t.as_f64(),
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::Tuple(x), Value::Tuple(y)) => seq_eq(rt, x, y)?,
        (Value::List(x), Value::List(y)) => {
            let (x, y) = (x.borrow().clone(), y.borrow().clone());
            seq_eq(rt, &x, &y)?
        }
        (Value::Dict(x), Value::Dict(y)) => {
            if Rc::ptr_eq(x, y) {
                return Ok(true);
            }
            if x.borrow().len() != y.borrow().len() {
                return Ok(false);
            }
            let items = x.borrow().items();
            for (k, v) in &items {
                match crate::interp::subscript::dict_lookup(rt, y, k)? {
                    Some(w) if same_or_eq(rt, v, &w)? => {}
                    _ => return Ok(false),
                }
            }
            true
        }
        (Value::Set(x), Value::Set(y)) => crate::interp::sets::equal(rt, x, y)?,
        (Value::Slice(x), Value::Slice(y)) => x == y,
        (Value::DType(x), Value::DType(y)) => x == y,
        (Value::DType(d), Value::Str(s)) | (Value::Str(s), Value::DType(d)) => {
            crate::arrays::dtype::DType::parse(s) == Some(*d)
        }
        (Value::DType(d), other) | (other, Value::DType(d))
            if matches!(other, Value::Object(_) | Value::Builtin(_)) =>
        {
            ndarray_attrs::dtype_from_value(rt, other).ok() == Some(*d)
        }
        (Value::Module(x), Value::Module(y)) => Rc::ptr_eq(x, y),
        (Value::Builtin(x), Value::Builtin(y)) => Rc::ptr_eq(x, y),
        (Value::Object(x), y) => match x.py_eq(y, rt)? {
            Some(r) => r,
            None => matches!(y, Value::Object(o) if Rc::ptr_eq(x, o)),
        },
        (x, Value::Object(y)) => y.py_eq(x, rt)?.unwrap_or(false),
        _ => false,
    })
}

fn seq_eq(rt: &mut Runtime, x: &[Value], y: &[Value]) -> PyResult<bool> {
    if x.len() != y.len() {
        return Ok(false);
    }
    for (a, b) in x.iter().zip(y) {
        if !same_or_eq(rt, a, b)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `a == b` as containers compare items (CPython's `PyObject_RichCompareBool`): an item is
/// equal to itself without being compared, so `nan in [nan]`.
pub fn same_or_eq(rt: &mut Runtime, a: &Value, b: &Value) -> PyResult<bool> {
    Ok(is_same(a, b) || py_eq(rt, a, b)?)
}

/// `a is b`.
pub fn is_same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        // Floats are values here, not objects: the same bits stand for the same object, so
        // `nan is nan`, `[nan] == [nan]` and `{nan: 1}[nan]` hold for one NaN as in CPython
        // (two NaNs computed apart are different objects there, but identical here).
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::Complex(a, b), Value::Complex(c, d)) => {
            a.to_bits() == c.to_bits() && b.to_bits() == d.to_bits()
        }
        (Value::Ellipsis, Value::Ellipsis) => true,
        (Value::Str(x), Value::Str(y)) => Rc::ptr_eq(x, y) || x == y,
        (Value::List(x), Value::List(y)) => Rc::ptr_eq(x, y),
        (Value::Dict(x), Value::Dict(y)) => Rc::ptr_eq(x, y),
        (Value::Tuple(x), Value::Tuple(y)) => Rc::ptr_eq(x, y),
        (Value::Module(x), Value::Module(y)) => Rc::ptr_eq(x, y),
        (Value::Builtin(x), Value::Builtin(y)) => Rc::ptr_eq(x, y),
        (Value::Object(x), Value::Object(y)) => {
            Rc::ptr_eq(x, y) || same_exception_class(x.as_any(), y.as_any())
        }
        (Value::Array(x), Value::Array(y)) => {
            std::sync::Arc::ptr_eq(&x.buf, &y.buf)
                && x.offset == y.offset
                && x.shape == y.shape
                && x.strides == y.strides
        }
        _ => false,
    }
}

/// Exception classes are singletons in Python; nbcuda makes one object per use of a
/// class it knows by name, so identity is the name.
fn same_exception_class(x: &dyn std::any::Any, y: &dyn std::any::Any) -> bool {
    use crate::interp::objects::ExceptionType;
    match (
        x.downcast_ref::<ExceptionType>(),
        y.downcast_ref::<ExceptionType>(),
    ) {
        (Some(a), Some(b)) => a.name == b.name,
        _ => false,
    }
}

/// Ordering for `<`, `sorted`, `min`, `max`: Some(ordering) or TypeError.
pub fn py_cmp(rt: &mut Runtime, a: &Value, b: &Value) -> PyResult<std::cmp::Ordering> {
    ordering(rt, a, b, "<")
}

/// [`py_cmp`] for the operator `symbol`, which the TypeError names.
fn ordering(rt: &mut Runtime, a: &Value, b: &Value, symbol: &str) -> PyResult<std::cmp::Ordering> {
    use std::cmp::Ordering;
    let numeric = |v: &Value| is_numeric(v) || matches!(v, Value::Scalar(_));
    Ok(match (a, b) {
        (x, y) if is_numeric(x) && is_numeric(y) => {
            crate::py::bigint::cmp_real(x, y).unwrap_or(Ordering::Equal)
        }
        (x, y) if numeric(x) && numeric(y) => {
            if let (Ok(i), Ok(j)) = (x.as_index(), y.as_index()) {
                if !matches!(x, Value::Float(_) | Value::Scalar(_))
                    && !matches!(y, Value::Float(_) | Value::Scalar(_))
                {
                    return Ok(i.cmp(&j));
                }
            }
            x.as_f64()?
                .partial_cmp(&y.as_f64()?)
                .unwrap_or(Ordering::Equal)
        }
        (Value::Str(x), Value::Str(y)) => x.cmp(y),
        (Value::Tuple(x), Value::Tuple(y)) => in_comparison(rt, |rt| seq_cmp(rt, x, y, symbol))?,
        (Value::List(x), Value::List(y)) => {
            let (x, y) = (x.borrow().clone(), y.borrow().clone());
            in_comparison(rt, |rt| seq_cmp(rt, &x, &y, symbol))?
        }
        (Value::Object(_), _) | (_, Value::Object(_)) => {
            // Objects order through their comparison methods (`__lt__`), as sorted() uses;
            // only the objects' own methods are asked, since compare() falls back here.
            match (object_less(rt, a, b)?, object_less(rt, b, a)?) {
                (Some(true), _) => Ordering::Less,
                (_, Some(true)) => Ordering::Greater,
                (Some(false), _) | (_, Some(false)) => Ordering::Equal,
                (None, None) => {
                    return Err(PyErr::type_error(format!(
                        "'{symbol}' not supported between instances of '{}' and '{}'",
                        a.type_name(),
                        b.type_name()
                    )))
                }
            }
        }
        _ => {
            return Err(PyErr::type_error(format!(
                "'{symbol}' not supported between instances of '{}' and '{}'",
                a.type_name(),
                b.type_name()
            )))
        }
    })
}

/// `a < b` answered by an object's own comparison method; None when neither side has one.
fn object_less(rt: &mut Runtime, a: &Value, b: &Value) -> PyResult<Option<bool>> {
    if let Value::Object(o) = a {
        if let Some(v) = o.clone().binary_op(BinOp::Lt, b, false, rt)? {
            return Ok(Some(truthy(rt, &v)?));
        }
    }
    if let Value::Object(o) = b {
        if let Some(v) = o.clone().binary_op(BinOp::Lt, a, true, rt)? {
            return Ok(Some(truthy(rt, &v)?));
        }
    }
    Ok(None)
}

fn seq_cmp(
    rt: &mut Runtime,
    x: &[Value],
    y: &[Value],
    symbol: &str,
) -> PyResult<std::cmp::Ordering> {
    for (a, b) in x.iter().zip(y) {
        // As CPython: the first items that are not the same object and not equal decide.
        if is_same(a, b) {
            continue;
        }
        let o = ordering(rt, a, b, symbol)?;
        if o != std::cmp::Ordering::Equal {
            return Ok(o);
        }
    }
    Ok(x.len().cmp(&y.len()))
}

/// A comparison operator (`==`, `<`, ...). NumPy operands compare elementwise.
pub fn compare(rt: &mut Runtime, op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
    if is_numpy(a) || is_numpy(b) {
        if let Some(v) = ndarray_attrs::binary_op(op, a, b, rt)? {
            return Ok(v);
        }
    }
    if let Value::Object(o) = a {
        if let Some(v) = o.clone().binary_op(op, b, false, rt)? {
            return Ok(v);
        }
    }
    if let Value::Object(o) = b {
        if let Some(v) = o.clone().binary_op(op, a, true, rt)? {
            return Ok(v);
        }
    }
    if let (Value::Set(x), Value::Set(y)) = (a, b) {
        if let Some(v) = crate::interp::sets::binary(rt, op, x, y)? {
            return Ok(v);
        }
    }
    use std::cmp::Ordering::*;
    Ok(Value::Bool(match op {
        BinOp::Eq => py_eq(rt, a, b)?,
        BinOp::Ne => !py_eq(rt, a, b)?,
        BinOp::Lt => ordering(rt, a, b, "<")? == Less,
        BinOp::Le => ordering(rt, a, b, "<=")? != Greater,
        BinOp::Gt => ordering(rt, a, b, ">")? == Greater,
        BinOp::Ge => ordering(rt, a, b, ">=")? != Less,
        _ => unreachable!("not a comparison"),
    }))
}
