//! Operations on values with Python semantics: truth, arithmetic, iteration, length,
//! subscripts (equality and ordering are in `compare.rs`, re-exported here). NumPy values go to [`crate::py::ndarray_attrs`], other objects
//! to their [`Object`](crate::py::value::Object) implementation.

use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::arrays::operator::UnaryOp;
use crate::interp::objects::RangeObj;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs;
use crate::py::runtime::Runtime;
use crate::py::value::Value;

pub fn truthy(rt: &mut Runtime, v: &Value) -> PyResult<bool> {
    Ok(match v {
        Value::None => false,
        Value::Bool(b) => *b,
        Value::Int(i) => *i != 0,
        // A BigInt never holds zero (it normalises to Int).
        Value::BigInt(_) => true,
        Value::Float(f) => *f != 0.0,
        Value::Complex(re, im) => *re != 0.0 || *im != 0.0,
        Value::Str(s) => !s.is_empty(),
        Value::Bytes(b) => !b.is_empty(),
        Value::Tuple(t) => !t.is_empty(),
        Value::List(l) => !l.borrow().is_empty(),
        Value::Dict(d) => !d.borrow().is_empty(),
        Value::Set(s) => !s.borrow().is_empty(),
        Value::Array(a) => ndarray_attrs::array_truthy(a)?,
        Value::Scalar(s) => s.as_f64() != 0.0,
        Value::Object(o) => o.truthy(rt)?,
        _ => true,
    })
}

pub(crate) fn is_numeric(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::BigInt(_)
    )
}

/// An int or bool (the operands of int arithmetic).
pub(crate) fn is_int(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Bool(_) | Value::BigInt(_))
}

pub(crate) fn is_numpy(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Scalar(_))
}

fn float_op(op: BinOp, x: f64, y: f64) -> PyResult<Value> {
    Ok(Value::Float(match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => {
            if y == 0.0 {
                return Err(PyErr::zero_division("float division by zero"));
            }
            x / y
        }
        BinOp::FloorDiv => {
            if y == 0.0 {
                return Err(PyErr::zero_division("float floor division by zero"));
            }
            (x / y).floor()
        }
        BinOp::Mod => {
            if y == 0.0 {
                return Err(PyErr::zero_division("float modulo"));
            }
            let r = x % y;
            if r != 0.0 && ((r < 0.0) != (y < 0.0)) {
                r + y
            } else {
                r
            }
        }
        BinOp::Pow => {
            if x == 0.0 && y < 0.0 {
                return Err(PyErr::zero_division(
                    "0.0 cannot be raised to a negative power",
                ));
            }
            if x < 0.0 && y.is_finite() && y != y.floor() {
                return crate::interp::complex::negative_float_pow(x, y);
            }
            let r = x.powf(y);
            if r.is_infinite() && x.is_finite() && y.is_finite() {
                // C's errno (ERANGE) and its text, as CPython raises them.
                return Err(
                    PyErr::overflow("(34, 'Numerical result out of range')").with_args(vec![
                        Value::Int(34),
                        Value::str("Numerical result out of range"),
                    ]),
                );
            }
            r
        }
        _ => {
            return Err(PyErr::type_error(format!(
                "unsupported operand type(s) for {}: 'float' and 'float'",
                op.symbol()
            )))
        }
    }))
}

fn unsupported(op: BinOp, a: &Value, b: &Value) -> PyErr {
    // CPython's str/list/tuple concatenation names the sequence type first.
    if op == BinOp::Add && matches!(a, Value::Str(_) | Value::List(_) | Value::Tuple(_)) {
        let t = a.type_name();
        return PyErr::type_error(format!(
            "can only concatenate {t} (not \"{}\") to {t}",
            b.type_name()
        ));
    }
    PyErr::type_error(format!(
        "unsupported operand type(s) for {}: '{}' and '{}'",
        op.symbol(),
        a.type_name(),
        b.type_name()
    ))
}

/// An arithmetic operator.
pub fn binary(rt: &mut Runtime, op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
    if matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    ) {
        return compare(rt, op, a, b);
    }
    match (a, b) {
        (x, y) if is_int(x) && is_int(y) => {
            return crate::interp::bigint::int_binary(op, x, y);
        }
        (x, y) if is_numeric(x) && is_numeric(y) => {
            if matches!(
                op,
                BinOp::BitAnd
                    | BinOp::BitOr
                    | BinOp::BitXor
                    | BinOp::LShift
                    | BinOp::RShift
                    | BinOp::MatMul
            ) {
                return Err(unsupported(op, a, b));
            }
            return float_op(op, x.as_f64()?, y.as_f64()?);
        }
        (Value::Complex(..), y) | (y, Value::Complex(..))
            if is_numeric(y) || matches!(y, Value::Complex(..)) =>
        {
            if let Some(v) = crate::interp::complex::binary(op, a, b)? {
                return Ok(v);
            }
        }
        (Value::Set(x), Value::Set(y)) => {
            if let Some(v) = crate::interp::sets::binary(rt, op, x, y)? {
                return Ok(v);
            }
        }
        _ => {}
    }
    if let (Value::Object(o), _) = (a, b) {
        if let Some(v) = o.clone().binary_op(op, b, false, rt)? {
            return Ok(v);
        }
    }
    if let (_, Value::Object(o)) = (a, b) {
        if let Some(v) = o.clone().binary_op(op, a, true, rt)? {
            return Ok(v);
        }
    }
    if is_numpy(a) || is_numpy(b) {
        if let Some(v) = ndarray_attrs::binary_op(op, a, b, rt)? {
            return Ok(v);
        }
    }
    match (op, a, b) {
        (BinOp::Add, Value::Str(x), Value::Str(y)) => Ok(Value::str(&format!("{x}{y}"))),
        (BinOp::Mul, Value::Str(s), n) | (BinOp::Mul, n, Value::Str(s))
            if matches!(n, Value::Int(_) | Value::Bool(_)) =>
        {
            let k = n.as_index()?.max(0) as usize;
            // `'' * 10**12` is empty: no loop of a trillion empty appends.
            let k = if s.is_empty() { 0 } else { k };
            let total = repeat_len(s.len(), k, 1, "str")?;
            let mut out = String::new();
            // bounded: checked by repeat_len
            out.try_reserve_exact(total)
                .map_err(|_| no_memory("str", total))?;
            for _ in 0..k {
                out.push_str(s);
            }
            Ok(Value::str(&out))
        }
        (BinOp::Mul, Value::Bytes(s), n) | (BinOp::Mul, n, Value::Bytes(s))
            if matches!(n, Value::Int(_) | Value::Bool(_)) =>
        {
            let k = n.as_index()?.max(0) as usize;
            let k = if s.is_empty() { 0 } else { k };
            let total = repeat_len(s.len(), k, 1, "bytes")?;
            let mut out = Vec::new();
            // bounded: checked by repeat_len
            out.try_reserve_exact(total)
                .map_err(|_| no_memory("bytes", total))?;
            for _ in 0..k {
                out.extend_from_slice(s);
            }
            Ok(Value::Bytes(Rc::from(out)))
        }
        (BinOp::Mod, Value::Str(fmt), args) => crate::interp::percent_format::format(rt, fmt, args),
        (
            BinOp::Mul,
            Value::Str(_) | Value::Bytes(_) | Value::List(_) | Value::Tuple(_),
            Value::BigInt(_),
        )
        | (
            BinOp::Mul,
            Value::BigInt(_),
            Value::Str(_) | Value::Bytes(_) | Value::List(_) | Value::Tuple(_),
        ) => Err(PyErr::overflow(
            "cannot fit 'int' into an index-sized integer",
        )),
        (BinOp::Add, Value::List(x), Value::List(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            Ok(Value::list(repeat_items(&[&x, &y], 1, "list")?))
        }
        (BinOp::Add, Value::Bytes(x), Value::Bytes(y)) => {
            Ok(Value::Bytes(Rc::from([&x[..], &y[..]].concat())))
        }
        (BinOp::Add, Value::Tuple(x), Value::Tuple(y)) => {
            Ok(Value::tuple(repeat_items(&[x, y], 1, "tuple")?))
        }
        (BinOp::Mul, Value::List(l), n) | (BinOp::Mul, n, Value::List(l))
            if matches!(n, Value::Int(_) | Value::Bool(_)) =>
        {
            let k = n.as_index()?.max(0) as usize;
            Ok(Value::list(repeat_items(&[&l.borrow()], k, "list")?))
        }
        (BinOp::Mul, Value::Tuple(t), n) | (BinOp::Mul, n, Value::Tuple(t))
            if matches!(n, Value::Int(_) | Value::Bool(_)) =>
        {
            let k = n.as_index()?.max(0) as usize;
            Ok(Value::tuple(repeat_items(&[t], k, "tuple")?))
        }
        (BinOp::BitOr, Value::Dict(x), Value::Dict(y)) => {
            let mut d = x.borrow().clone();
            for (k, v) in y.borrow().items() {
                dict_set(rt, &mut d, k, v)?;
            }
            Ok(Value::Dict(Rc::new(RefCell::new(d))))
        }
        (BinOp::Mul, Value::Str(_) | Value::Bytes(_) | Value::List(_) | Value::Tuple(_), n)
        | (BinOp::Mul, n, Value::Str(_) | Value::Bytes(_) | Value::List(_) | Value::Tuple(_))
            if matches!(n, Value::Float(_) | Value::Complex(..) | Value::None) =>
        {
            Err(PyErr::type_error(format!(
                "can't multiply sequence by non-int of type '{}'",
                n.type_name()
            )))
        }
        _ => Err(unsupported(op, a, b)),
    }
}

/// `len * k`, or MemoryError when even the count does not fit in memory's address space.
fn repeat_len(len: usize, k: usize, item_bytes: usize, what: &str) -> PyResult<usize> {
    let n = len
        .checked_mul(k)
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| no_memory(what, usize::MAX))?;
    crate::arrays::alloc::check(n, item_bytes, what).map_err(|_| no_memory(what, n))?;
    Ok(n)
}

/// The MemoryError for a sequence that cannot be allocated. Python raises it bare; the
/// message and hint say what was asked for.
fn no_memory(what: &str, items: usize) -> PyErr {
    let size = if items == usize::MAX {
        "more items than memory can address".to_string()
    } else {
        format!("{items} items")
    };
    PyErr::memory_error(format!("cannot allocate a {what} of {size}")).with_hint(
        "Use fewer items, or a NumPy array (np.zeros(n), np.full(n, value)) for large data.",
    )
}

/// The items of `parts` concatenated, `k` times over, in a fallibly allocated vector: a
/// huge `[0] * n` raises MemoryError instead of aborting the kernel.
fn repeat_items(parts: &[&[Value]], k: usize, what: &str) -> PyResult<Vec<Value>> {
    let one: usize = parts.iter().map(|p| p.len()).sum();
    let k = if one == 0 { 0 } else { k };
    let total = repeat_len(one, k, std::mem::size_of::<Value>(), what)?;
    let mut out: Vec<Value> = Vec::new();
    // bounded: checked by repeat_len
    out.try_reserve_exact(total)
        .map_err(|_| no_memory(what, total))?;
    for _ in 0..k {
        for p in parts {
            out.extend(p.iter().cloned());
        }
    }
    Ok(out)
}

/// `cur op= rhs`. Lists grow in place (`l += iterable`, `l *= n`) and arrays write into
/// themselves, so every alias sees the change, as in Python; other values (tuples, numbers,
/// strings) compute `cur op rhs`, which the caller rebinds.
pub fn inplace(rt: &mut Runtime, op: BinOp, cur: &Value, rhs: &Value) -> PyResult<Value> {
    match (op, cur) {
        (BinOp::Add, Value::List(l)) => {
            // `l += l` reads the list before it grows.
            let items = match rhs {
                Value::List(r) => r.borrow().clone(),
                other => iterate(rt, other)?,
            };
            let mut v = l.borrow_mut();
            let total = v.len().saturating_add(items.len());
            v.try_reserve(items.len())
                .map_err(|_| no_memory("list", total))?;
            v.extend(items);
            Ok(cur.clone())
        }
        (BinOp::Mul, Value::List(l)) if matches!(rhs, Value::Int(_) | Value::Bool(_)) => {
            let k = rhs.as_index()?.max(0) as usize;
            let grown = repeat_items(&[&l.borrow()], k, "list")?;
            *l.borrow_mut() = grown;
            Ok(cur.clone())
        }
        (_, Value::Array(a)) if a.ndim() > 0 => ndarray_attrs::inplace_op(op, a, rhs, rt),
        (BinOp::Add, Value::Object(_))
            if cur
                .downcast::<crate::interp::bytearray::ByteArray>()
                .is_some() =>
        {
            crate::interp::bytearray::inplace_add(cur, rhs)
                .unwrap_or_else(|| binary(rt, op, cur, rhs))
        }
        (_, Value::Object(_)) => match crate::interp::classes::as_instance(cur) {
            Some(inst) => {
                match crate::interp::instance_protocols::inplace_special(rt, &inst, op, rhs)? {
                    Some(v) => Ok(v),
                    None => binary(rt, op, cur, rhs),
                }
            }
            None => binary(rt, op, cur, rhs),
        },
        _ => binary(rt, op, cur, rhs),
    }
}

pub fn unary(rt: &mut Runtime, op: UnaryOp, v: &Value) -> PyResult<Value> {
    match (op, v) {
        (UnaryOp::Neg, Value::Int(_) | Value::BigInt(_)) => {
            crate::interp::bigint::neg(v).ok_or_else(|| bad_unary(op, v))
        }
        (UnaryOp::Invert, Value::BigInt(b)) => Ok(crate::interp::bigint::invert(b)),
        (UnaryOp::Neg, Value::Bool(b)) => Ok(Value::Int(-(*b as i64))),
        (UnaryOp::Neg, Value::Float(f)) => Ok(Value::Float(-f)),
        (UnaryOp::Neg, Value::Complex(re, im)) => Ok(Value::Complex(-re, -im)),
        (UnaryOp::Pos, Value::Complex(..)) => Ok(v.clone()),
        (UnaryOp::Pos, Value::Int(_) | Value::Float(_) | Value::BigInt(_)) => Ok(v.clone()),
        (UnaryOp::Pos, Value::Bool(b)) => Ok(Value::Int(*b as i64)),
        (UnaryOp::Invert, Value::Int(i)) => Ok(Value::Int(!i)),
        (UnaryOp::Invert, Value::Bool(b)) => Ok(Value::Int(!(*b as i64))),
        (_, Value::Array(_) | Value::Scalar(_)) => {
            ndarray_attrs::unary_op(op, v, rt)?.ok_or_else(|| bad_unary(op, v))
        }
        (_, Value::Object(o)) => o.clone().unary_op(op, rt)?.ok_or_else(|| bad_unary(op, v)),
        _ => Err(bad_unary(op, v)),
    }
}

fn bad_unary(op: UnaryOp, v: &Value) -> PyErr {
    let s = match op {
        UnaryOp::Neg => "-",
        UnaryOp::Pos => "+",
        UnaryOp::Invert => "~",
    };
    PyErr::type_error(format!(
        "bad operand type for unary {s}: '{}'",
        v.type_name()
    ))
}

/// Materialise an iterable.
pub fn iterate(rt: &mut Runtime, v: &Value) -> PyResult<Vec<Value>> {
    Ok(match v {
        Value::List(l) => l.borrow().clone(),
        Value::Tuple(t) => t.to_vec(),
        Value::Set(s) => s.borrow().keys(),
        Value::Str(s) => s.chars().map(|c| Value::str(&c.to_string())).collect(),
        Value::Bytes(b) => b.iter().map(|&c| Value::Int(c as i64)).collect(),
        Value::Dict(d) => d.borrow().keys(),
        Value::Array(a) => ndarray_attrs::array_iter(a)?,
        Value::Object(o) => match o.clone().iter(rt)? {
            Some(items) => items,
            None => return Err(not_iterable(v)),
        },
        _ => return Err(not_iterable(v)),
    })
}

fn not_iterable(v: &Value) -> PyErr {
    PyErr::type_error(format!("'{}' object is not iterable", v.type_name()))
}

pub fn len(rt: &mut Runtime, v: &Value) -> PyResult<usize> {
    Ok(match v {
        Value::Str(s) => s.chars().count(),
        Value::Bytes(b) => b.len(),
        Value::List(l) => l.borrow().len(),
        Value::Tuple(t) => t.len(),
        Value::Dict(d) => d.borrow().len(),
        Value::Set(s) => s.borrow().len(),
        Value::Array(a) => {
            if a.ndim() == 0 {
                return Err(PyErr::type_error("len() of unsized object"));
            }
            a.shape[0]
        }
        Value::Object(o) => match o.len(rt)? {
            Some(n) => n,
            None => {
                return Err(PyErr::type_error(format!(
                    "object of type '{}' has no len()",
                    v.type_name()
                )))
            }
        },
        _ => {
            return Err(PyErr::type_error(format!(
                "object of type '{}' has no len()",
                v.type_name()
            )))
        }
    })
}

/// `x in container`.
pub fn contains(rt: &mut Runtime, container: &Value, x: &Value) -> PyResult<bool> {
    match container {
        Value::Str(s) => match x {
            Value::Str(sub) => Ok(s.contains(&**sub)),
            _ => Err(PyErr::type_error(format!(
                "'in <string>' requires string as left operand, not {}",
                x.type_name()
            ))),
        },
        Value::Dict(d) => {
            check_hashable(rt, x)?;
            Ok(crate::interp::subscript::dict_find(rt, d, x)?.is_some())
        }
        Value::Set(s) => crate::interp::sets::contains(rt, s, x),
        Value::Bytes(b) => bytes_contains(b, x),
        Value::Object(o) if o.as_any().is::<crate::interp::frozenset::FrozenSet>() => {
            match crate::interp::frozenset::set_cell(container) {
                Some(s) => crate::interp::sets::contains(rt, &s, x),
                None => Ok(false),
            }
        }
        Value::Object(o) if o.as_any().is::<crate::interp::bytearray::ByteArray>() => {
            let hay = crate::interp::bytearray::bytes_like(container).unwrap_or_default();
            bytes_contains(&hay, x)
        }
        Value::Object(o) if o.as_any().is::<RangeObj>() => {
            // invariant: the match guard checked this downcast
            let r = o.as_any().downcast_ref::<RangeObj>().expect("checked");
            let Ok(i) = x.as_index() else {
                return Ok(false);
            };
            let n = r.len();
            Ok(n > 0
                && (i - r.start) % r.step == 0
                && ((i - r.start) / r.step) >= 0
                && (((i - r.start) / r.step) as usize) < n)
        }
        Value::Object(_)
            if crate::interp::classes::as_class(container)
                .is_some_and(|c| c.metaclass.is_some()) =>
        {
            match crate::interp::metaclasses::contains(rt, container, x)? {
                Some(found) => Ok(found),
                None => {
                    for v in iterate(rt, container)? {
                        if crate::interp::compare::same_or_eq(rt, &v, x)? {
                            return Ok(true);
                        }
                    }
                    Ok(false)
                }
            }
        }
        Value::Object(_)
            if crate::interp::classes::as_instance(container)
                .is_some_and(|i| i.class.find("__contains__").is_some()) =>
        {
            let inst = crate::interp::classes::as_instance(container);
            let r = match inst {
                Some(i) => i.call_special(rt, "__contains__", vec![x.clone()])?,
                None => None,
            };
            truthy(rt, &r.unwrap_or(Value::Bool(false)))
        }
        other => {
            for item in iterate(rt, other)? {
                if same_or_eq(rt, &item, x)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
    }
}

/// `x in b` for bytes-like `b`: a byte value, or a run of bytes.
fn bytes_contains(hay: &[u8], x: &Value) -> PyResult<bool> {
    if let Some(sub) = crate::interp::bytearray::bytes_like(x) {
        // A linear-time search: comparing every window is quadratic, and a cell searching
        // megabytes would run for minutes without reaching an interrupt check.
        return Ok(memchr::memmem::find(hay, &sub).is_some());
    }
    let i = x.as_index().map_err(|_| {
        PyErr::type_error(format!(
            "a bytes-like object is required, not '{}'",
            x.type_name()
        ))
    })?;
    let b = u8::try_from(i).map_err(|_| PyErr::value_error("byte must be in range(0, 256)"))?;
    Ok(hay.contains(&b))
}

pub use crate::interp::compare::{compare, is_same, py_cmp, py_eq, same_or_eq};
pub use crate::interp::subscript::{
    check_hashable, del_item, dict_get, dict_lookup, dict_set, dict_store, get_item, seq_index,
    set_item, slice_items,
};
