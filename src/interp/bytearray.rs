//! `bytearray`: a mutable sequence of bytes. Construction follows `bytes` (an empty one, n
//! zero bytes, the ints of an iterable, a string encoded); the read-only methods are
//! `bytes`' own, run on a snapshot; the mutating ones are list's, with every item checked
//! to be a byte. Concatenation and repetition give the left operand's type.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::interp::subscript::seq_index;
use crate::py::error::{PyErr, PyResult};
use crate::py::methods::{MethodSpec, MethodTable};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};

pub type ByteCell = Rc<RefCell<Vec<u8>>>;

pub struct ByteArray {
    pub data: ByteCell,
}

pub fn new(data: Vec<u8>) -> Value {
    Value::object(ByteArray {
        data: Rc::new(RefCell::new(data)),
    })
}

/// The bytes of a bytes-like value (bytes or bytearray); None for any other value.
pub fn bytes_like(v: &Value) -> Option<Vec<u8>> {
    match v {
        Value::Bytes(b) => Some(b.to_vec()),
        other => other
            .downcast::<ByteArray>()
            .map(|b| b.data.borrow().clone()),
    }
}

/// `bytearray()`, `bytearray(n)`, `bytearray(iterable_of_ints)`, `bytearray(str, encoding)`:
/// the bytes `bytes()` would make from the same arguments.
pub fn construct(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    if let Some(b) = a.pos.first().and_then(bytes_like) {
        return Ok(new(b));
    }
    let ctor = crate::interp::bytes::constructor();
    match &rt.call(&ctor, a)? {
        Value::Bytes(b) => Ok(new(b.to_vec())),
        _ => Err(PyErr::internal("bytes() made no bytes")),
    }
}

/// One byte from an int, with CPython's errors.
fn byte(v: &Value) -> PyResult<u8> {
    let i = v.as_index()?;
    u8::try_from(i).map_err(|_| PyErr::value_error("byte must be in range(0, 256)"))
}

/// An item index, with CPython's TypeError for anything but an int.
fn index(key: &Value) -> PyResult<i64> {
    key.as_index().map_err(|_| {
        PyErr::type_error(format!(
            "bytearray indices must be integers or slices, not {}",
            key.type_name()
        ))
    })
}

/// The bytes an `extend`/slice assignment takes: a bytes-like value's, or an iterable's ints.
fn byte_items(rt: &mut Runtime, v: &Value) -> PyResult<Vec<u8>> {
    if let Some(b) = bytes_like(v) {
        return Ok(b);
    }
    if matches!(v, Value::Str(_)) {
        return Err(PyErr::type_error(
            "can assign only bytes, buffers, or iterables of ints in range(0, 256)",
        ));
    }
    rt.iterate(v)?.iter().map(byte).collect()
}

/// `ba += other` grows `ba` in place (its other names see the new bytes); None when `cur`
/// is no bytearray.
pub fn inplace_add(cur: &Value, rhs: &Value) -> Option<PyResult<Value>> {
    let ba = cur.downcast::<ByteArray>()?;
    let Some(more) = bytes_like(rhs) else {
        return Some(Err(PyErr::type_error(format!(
            "can't concat {} to bytearray",
            rhs.type_name()
        ))));
    };
    ba.data.borrow_mut().extend(more);
    Some(Ok(cur.clone()))
}

/// The repr of bytes with this content (a bytearray's shows it inside `bytearray(...)`).
fn bytes_repr(rt: &mut Runtime, data: &[u8]) -> PyResult<String> {
    crate::interp::repr::repr(rt, &Value::Bytes(Rc::from(data)))
}

impl Object for ByteArray {
    fn type_name(&self) -> String {
        "bytearray".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        let data = self.data.borrow().clone();
        Ok(format!("bytearray({})", bytes_repr(rt, &data)?))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        if let Some(m) = BYTEARRAY.bound(&self.data, name) {
            return Ok(Some(m));
        }
        let snapshot: Rc<[u8]> = Rc::from(self.data.borrow().as_slice());
        Ok(crate::interp::bytes::method(snapshot, name))
    }
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        if let Value::Slice(_) = key {
            let snapshot = Value::Bytes(Rc::from(self.data.borrow().as_slice()));
            let part = crate::interp::subscript::get_item(rt, &snapshot, key)?;
            return Ok(new(bytes_like(&part).unwrap_or_default()));
        }
        let data = self.data.borrow();
        let i = seq_index(index(key)?, data.len(), "bytearray")?;
        Ok(Value::Int(data[i] as i64))
    }
    fn set_item(&self, key: &Value, value: Value, rt: &mut Runtime) -> PyResult<()> {
        if let Value::Slice(_) = key {
            // A list of the ints takes the assignment (with list's slice rules), then every
            // item is checked to be a byte.
            let new_items: Vec<Value> = byte_items(rt, &value)?
                .into_iter()
                .map(|b| Value::Int(b as i64))
                .collect();
            let ints: Vec<Value> = self
                .data
                .borrow()
                .iter()
                .map(|&b| Value::Int(b as i64))
                .collect();
            let list = Value::list(ints);
            crate::interp::subscript::set_item(rt, &list, key, Value::list(new_items))?;
            let out: Vec<u8> = rt
                .iterate(&list)?
                .iter()
                .map(byte)
                .collect::<PyResult<_>>()?;
            *self.data.borrow_mut() = out;
            return Ok(());
        }
        let i = index(key)?;
        let b = byte(&value)?;
        let mut data = self.data.borrow_mut();
        let i = seq_index(i, data.len(), "bytearray")?;
        data[i] = b;
        drop(data);
        Ok(())
    }
    fn del_item(&self, key: &Value, rt: &mut Runtime) -> PyResult<()> {
        if !matches!(key, Value::Slice(_)) {
            let mut data = self.data.borrow_mut();
            let i = seq_index(index(key)?, data.len(), "bytearray")?;
            data.remove(i);
            return Ok(());
        }
        let ints: Vec<Value> = self
            .data
            .borrow()
            .iter()
            .map(|&b| Value::Int(b as i64))
            .collect();
        let list = Value::list(ints);
        crate::interp::subscript::del_item(rt, &list, key)?;
        *self.data.borrow_mut() = rt
            .iterate(&list)?
            .iter()
            .map(byte)
            .collect::<PyResult<_>>()?;
        Ok(())
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        reflected: bool,
        _rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        let mine = self.data.borrow().clone();
        if let Some(theirs) = bytes_like(other) {
            let (a, b) = if reflected {
                (theirs, mine)
            } else {
                (mine, theirs)
            };
            return Ok(Some(match op {
                BinOp::Add if reflected => Value::Bytes(Rc::from([a, b].concat())),
                BinOp::Add => new([a, b].concat()),
                BinOp::Eq => Value::Bool(a == b),
                BinOp::Ne => Value::Bool(a != b),
                BinOp::Lt => Value::Bool(a < b),
                BinOp::Le => Value::Bool(a <= b),
                BinOp::Gt => Value::Bool(a > b),
                BinOp::Ge => Value::Bool(a >= b),
                _ => return Ok(None),
            }));
        }
        if op == BinOp::Mul && matches!(other, Value::Int(_) | Value::Bool(_)) {
            let k = other.as_index()?.max(0) as usize;
            let total = mine.len().saturating_mul(k);
            crate::arrays::alloc::check(total, 1, "bytearray")?;
            // bounded: alloc::check above
            return Ok(Some(new(mine.repeat(k))));
        }
        Ok(None)
    }
    fn py_eq(&self, other: &Value, _rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(Some(
            bytes_like(other).is_some_and(|b| b == *self.data.borrow()),
        ))
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(
            self.data
                .borrow()
                .iter()
                .map(|&b| Value::Int(b as i64))
                .collect(),
        ))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(self.data.borrow().len()))
    }
    fn truthy(&self, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(!self.data.borrow().is_empty())
    }
    fn dir(&self) -> Vec<String> {
        let mut names = BYTEARRAY.names();
        names.extend(["decode".to_string(), "hex".to_string()]);
        names.sort();
        names
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

pub static BYTEARRAY: MethodTable<ByteCell> = MethodTable {
    owner: "bytearray",
    methods: &METHODS,
};

static METHODS: [MethodSpec<ByteCell>; 9] = [
    MethodSpec::new("append", "item, /", "Append a single item to the end of the bytearray.", |d, _, b| {
        let v = byte(&b.value(0))?;
        d.borrow_mut().push(v);
        Ok(Value::None)
    }),
    MethodSpec::new("clear", "", "Remove all items from the bytearray.", |d, _, _| {
        d.borrow_mut().clear();
        Ok(Value::None)
    }),
    MethodSpec::new("copy", "", "Return a copy of B.", |d, _, _| {
        Ok(new(d.borrow().clone()))
    }),
    MethodSpec::new("extend", "iterable_of_ints, /", "Append all the items from the iterator or sequence to the end of the bytearray.", |d, rt, b| {
        let more = byte_items(rt, &b.value(0))?;
        d.borrow_mut().extend(more);
        Ok(Value::None)
    }),
    MethodSpec::new("insert", "index, item, /", "Insert a single item into the bytearray before the given index.", |d, _, b| {
        let i = b.value(0).as_index()?;
        let v = byte(&b.value(1))?;
        let mut data = d.borrow_mut();
        let n = data.len() as i64;
        let at = if i < 0 { (i + n).max(0) } else { i.min(n) };
        data.insert(at as usize, v);
        Ok(Value::None)
    }),
    MethodSpec::new("pop", "index=-1, /", "Remove and return a single item from B.\n\nIf no index argument is given, will pop the last item.", |d, _, b| {
        let mut data = d.borrow_mut();
        if data.is_empty() {
            return Err(PyErr::index_error("pop from empty bytearray"));
        }
        let i = match b.get(0) {
            Some(v) => v.as_index()?,
            None => -1,
        };
        let i = seq_index(i, data.len(), "")
            .map_err(|_| PyErr::index_error("pop index out of range"))?;
        Ok(Value::Int(data.remove(i) as i64))
    }),
    MethodSpec::new("remove", "value, /", "Remove the first occurrence of a value in the bytearray.", |d, _, b| {
        let v = byte(&b.value(0))?;
        let mut data = d.borrow_mut();
        match data.iter().position(|&x| x == v) {
            Some(i) => {
                data.remove(i);
                Ok(Value::None)
            }
            None => Err(PyErr::value_error("value not found in bytearray")),
        }
    }),
    MethodSpec::new("reverse", "", "Reverse the order of the values in B in place.", |d, _, _| {
        d.borrow_mut().reverse();
        Ok(Value::None)
    }),
    MethodSpec::new("count", "sub, /", "Return the number of non-overlapping occurrences of subsection sub.", |d, _, b| {
        let sub = match b.value(0) {
            v @ (Value::Int(_) | Value::Bool(_)) => vec![byte(&v)?],
            v => bytes_like(&v).ok_or_else(|| {
                PyErr::type_error(format!(
                    "argument should be integer or bytes-like object, not '{}'",
                    v.type_name()
                ))
            })?,
        };
        let data = d.borrow();
        if sub.is_empty() {
            return Ok(Value::Int(data.len() as i64 + 1));
        }
        let (mut n, mut i) = (0, 0);
        while i + sub.len() <= data.len() {
            if data[i..i + sub.len()] == sub[..] {
                n += 1;
                i += sub.len();
            } else {
                i += 1;
            }
        }
        Ok(Value::Int(n))
    }),
];
