//! Subscripts (`x[k]`, `x[k] = v`, `del x[k]`) on lists, tuples, strings, dicts and objects,
//! and the dict entry helpers they share with literals and builtins.

use std::cell::RefCell;
use std::rc::Rc;

use crate::interp::classes::as_instance;

use crate::interp::ops::{iterate, same_or_eq};
use crate::interp::repr::repr;
use crate::py::error::{PyErr, PyResult};
use crate::py::ndarray_attrs;
use crate::py::runtime::Runtime;
use crate::py::value::{Dict, Value};

/// The slot holding `key` (of hash `h`) in a dict that user code cannot reach meanwhile.
fn find_in(rt: &mut Runtime, d: &Dict, key: &Value) -> PyResult<Option<usize>> {
    let h = lookup_hash(rt, key)?;
    if let Some(r) = h.and_then(|h| d.find_fast(h, key)) {
        return Ok(r.ok());
    }
    for slot in d.candidates(h) {
        if let Some((k, _)) = d.entry_at(slot) {
            if same_or_eq(rt, k, key)? {
                return Ok(Some(slot));
            }
        }
    }
    Ok(None)
}

/// The slot holding `key` in a shared dict (unhashable keys raise). The dict is not
/// borrowed while a key's `__eq__` runs, so that code may use the dict.
pub fn dict_find(rt: &mut Runtime, d: &RefCell<Dict>, key: &Value) -> PyResult<Option<usize>> {
    let h = lookup_hash(rt, key)?;
    find_hashed(rt, d, key, h)
}

/// [`dict_find`] for a key whose hash is known: keys of other hashes are not compared
/// (CPython's rule: two keys are one only when their hashes match and they are equal).
pub fn find_hashed(
    rt: &mut Runtime,
    d: &RefCell<Dict>,
    key: &Value,
    h: Option<u64>,
) -> PyResult<Option<usize>> {
    if let Some(r) = h.and_then(|h| d.borrow().find_fast(h, key)) {
        return Ok(r.ok());
    }
    let candidates = d.borrow().candidates(h);
    for slot in candidates {
        let k = match d.borrow().entry_at(slot) {
            Some((k, _)) => k.clone(),
            None => continue,
        };
        if same_or_eq(rt, &k, key)? {
            return Ok(Some(slot));
        }
    }
    Ok(None)
}

/// `d.get(key)` on a shared dict.
pub fn dict_lookup(rt: &mut Runtime, d: &RefCell<Dict>, key: &Value) -> PyResult<Option<Value>> {
    let slot = dict_find(rt, d, key)?;
    Ok(slot.and_then(|s| d.borrow().entry_at(s).map(|(_, v)| v.clone())))
}

/// `d[key] = value` (`replace`) or `s.add(key)` (not `replace`) on a shared dict.
#[inline]
pub fn dict_upsert(
    rt: &mut Runtime,
    d: &RefCell<Dict>,
    key: Value,
    value: Value,
    replace: bool,
) -> PyResult<()> {
    let h = lookup_hash(rt, &key)?;
    dict_upsert_hashed(rt, d, key, value, h, replace)
}

/// [`dict_upsert`] for a key whose hash is known (an item of another set).
#[inline]
pub fn dict_upsert_hashed(
    rt: &mut Runtime,
    d: &RefCell<Dict>,
    key: Value,
    value: Value,
    h: Option<u64>,
    replace: bool,
) -> PyResult<()> {
    let (key, value) = match h {
        Some(h) => match d.borrow_mut().upsert_fast(key, value, h, replace) {
            Ok(()) => return Ok(()),
            Err(kv) => kv,
        },
        None => (key, value),
    };
    match find_hashed(rt, d, &key, h)? {
        Some(slot) if replace => d.borrow_mut().set_value_at(slot, value),
        Some(_) => {}
        None => d.borrow_mut().push_hashed(key, value, h),
    }
    Ok(())
}

/// `d[key] = value` on a shared dict.
#[inline]
pub fn dict_store(rt: &mut Runtime, d: &RefCell<Dict>, key: Value, value: Value) -> PyResult<()> {
    dict_upsert(rt, d, key, value, true)
}

/// `d.pop(key)` on a shared dict: the removed value, or None when absent.
pub fn dict_remove(rt: &mut Runtime, d: &RefCell<Dict>, key: &Value) -> PyResult<Option<Value>> {
    let slot = dict_find(rt, d, key)?;
    Ok(slot.and_then(|s| d.borrow_mut().remove_at(s).map(|(_, v)| v)))
}

pub fn dict_get(rt: &mut Runtime, d: &Dict, key: &Value) -> PyResult<Option<Value>> {
    let slot = find_in(rt, d, key)?;
    Ok(slot.and_then(|s| d.entry_at(s).map(|(_, v)| v.clone())))
}

/// Raise TypeError for an unhashable key; run an object key's `__hash__` (once per
/// operation, as CPython does: the dict operation that follows uses this result).
pub fn check_hashable(rt: &mut Runtime, key: &Value) -> PyResult<()> {
    if !needs_python_hash(key) {
        // A builtin key is hashable by its type alone: hashing a str here too would hash
        // it twice for every `k in d` and `d.get(k)`.
        return match key {
            Value::List(_) | Value::Dict(_) | Value::Set(_) | Value::Array(_) => {
                key_hash(rt, key).map(drop)
            }
            _ => Ok(()),
        };
    }
    let h = key_hash(rt, key)?;
    rt.state::<LastHash>().0 = Some((key.clone(), h));
    Ok(())
}

/// The hash of the last object key [`check_hashable`] hashed, for the dict operation
/// that follows it (the key is held so that its address stays its own).
#[derive(Default)]
struct LastHash(Option<(Value, Option<u64>)>);

fn needs_python_hash(key: &Value) -> bool {
    match key {
        Value::Object(_) => true,
        Value::Tuple(_) => !crate::py::dict::is_pure(key),
        _ => false,
    }
}

/// The hash a dict operation files `key` under, reusing the one [`check_hashable`] just
/// computed for this key.
#[inline]
fn lookup_hash(rt: &mut Runtime, key: &Value) -> PyResult<Option<u64>> {
    if let Value::Int(i) = key {
        return Ok(Some(crate::py::hash::hash_int(*i) as u64));
    }
    if needs_python_hash(key) {
        if let Some((k, h)) = rt.state::<LastHash>().0.take() {
            if same_address(&k, key) {
                return Ok(h);
            }
        }
    }
    key_hash(rt, key)
}

fn same_address(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Tuple(x), Value::Tuple(y)) => std::rc::Rc::ptr_eq(x, y),
        _ => false,
    }
}

/// The hash a dict or set files `key` under, which is `hash(key)`: a builtin's by
/// [`crate::py::hash::hash_value`], an instance's from its class's `__hash__` (which runs
/// here), a tuple's from its items'; None for a key the table cannot hash (a native
/// object, compared with every key). Unhashable keys raise TypeError.
pub fn key_hash(rt: &mut Runtime, key: &Value) -> PyResult<Option<u64>> {
    match key {
        Value::Int(i) => Ok(Some(crate::py::hash::hash_int(*i) as u64)),
        Value::List(_) | Value::Dict(_) | Value::Set(_) | Value::Array(_) => Err(
            PyErr::type_error(format!("unhashable type: '{}'", key.type_name())),
        ),
        Value::Object(_) => match as_instance(key) {
            Some(i) => match crate::interp::classes::hash_instance(rt, &i)? {
                Value::Int(h) => Ok(Some(h as u64)),
                _ => Ok(None),
            },
            None => Ok(native_hash(key)?),
        },
        Value::Builtin(b) => Ok(Some(identity_hash(Rc::as_ptr(b).cast()))),
        Value::Module(m) => Ok(Some(identity_hash(Rc::as_ptr(m).cast()))),
        Value::Tuple(t) if !crate::py::dict::is_pure(key) => {
            // CPython hashes every item in turn, so each item's `__hash__` runs (and an
            // unhashable item raises) even when another item cannot be hashed here.
            let mut h = crate::py::hash::TupleHash::new();
            let mut all = true;
            for item in t.iter() {
                match key_hash(rt, item)? {
                    Some(i) => h.add(i as i64),
                    None => all = false,
                }
            }
            Ok(all.then(|| h.finish(t.len()) as u64))
        }
        _ => Ok(crate::py::dict::pure_hash(key)),
    }
}

/// The hash of a native object that defines one or is compared by identity; None for the
/// others (compared with every key), and TypeError for the mutable ones CPython refuses
/// to hash.
fn native_hash(key: &Value) -> PyResult<Option<u64>> {
    if let Some(f) = key.downcast::<crate::interp::frozenset::FrozenSet>() {
        return Ok(Some(crate::interp::frozenset::hash(&f.items) as u64));
    }
    if key
        .downcast::<crate::interp::bytearray::ByteArray>()
        .is_some()
    {
        return Err(PyErr::type_error("unhashable type: 'bytearray'"));
    }
    match key {
        Value::Object(o) if o.hashed_by_identity() => Ok(Some(identity_hash(Rc::as_ptr(o).cast()))),
        _ => Ok(None),
    }
}

/// CPython's hash of an object compared by identity: its address, rotated so that the
/// alignment's zero bits do not all land in the same index slots.
fn identity_hash(p: *const u8) -> u64 {
    (p as usize as u64).rotate_right(4)
}

pub fn dict_set(rt: &mut Runtime, d: &mut Dict, key: Value, value: Value) -> PyResult<()> {
    let h = lookup_hash(rt, &key)?;
    let (key, value) = match h {
        Some(h) => match d.upsert_fast(key, value, h, true) {
            Ok(()) => return Ok(()),
            Err(kv) => kv,
        },
        None => (key, value),
    };
    // The lookup below hashes again only for keys the check above did not remember.
    rt.state::<LastHash>().0 = needs_python_hash(&key).then(|| (key.clone(), h));
    match find_in(rt, d, &key)? {
        Some(slot) => d.set_value_at(slot, value),
        None => d.push_hashed(key, value, h),
    }
    Ok(())
}

/// Normalise a Python index for a sequence of `len` items.
pub fn seq_index(i: i64, len: usize, what: &str) -> PyResult<usize> {
    let n = len as i64;
    let j = if i < 0 { i + n } else { i };
    if j < 0 || j >= n {
        return Err(PyErr::index_error(format!("{what} index out of range")));
    }
    Ok(j as usize)
}

/// `container[key]`.
pub fn get_item(rt: &mut Runtime, container: &Value, key: &Value) -> PyResult<Value> {
    if let Some(i) = user_index(rt, container, key)? {
        return get_item(rt, container, &i);
    }
    match (container, key) {
        (Value::Array(a), _) => ndarray_attrs::array_getitem(a, key, rt),
        (Value::List(l), Value::Slice(s)) => {
            let items = l.borrow().clone();
            Ok(Value::list(slice_items(&items, s)?))
        }
        (Value::Tuple(t), Value::Slice(s)) => Ok(Value::tuple(slice_items(t, s)?)),
        (Value::Str(st), Value::Slice(s)) => {
            let chars: Vec<Value> = st.chars().map(|c| Value::str(&c.to_string())).collect();
            let picked = slice_items(&chars, s)?;
            Ok(Value::str(
                &picked
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect::<String>(),
            ))
        }
        (Value::Bytes(b), Value::Slice(s)) => {
            let (start, _, step) = s.indices(b.len())?;
            let n = s.len_for(b.len())?;
            let picked: Vec<u8> = (0..n)
                .map(|i| b[(start + i as isize * step) as usize])
                .collect();
            Ok(Value::Bytes(picked.into()))
        }
        (Value::Bytes(b), k) => {
            let i = k.as_index().map_err(|_| list_idx_err("byte", k))?;
            let i =
                seq_index(i, b.len(), "").map_err(|_| PyErr::index_error("index out of range"))?;
            Ok(Value::Int(b[i] as i64))
        }
        (Value::List(l), k) => {
            let l = l.borrow();
            let i = seq_index(
                k.as_index().map_err(|_| list_idx_err("list", k))?,
                l.len(),
                "list",
            )?;
            Ok(l[i].clone())
        }
        (Value::Tuple(t), k) => {
            let i = seq_index(
                k.as_index().map_err(|_| list_idx_err("tuple", k))?,
                t.len(),
                "tuple",
            )?;
            Ok(t[i].clone())
        }
        (Value::Str(s), k) => {
            let chars: Vec<char> = s.chars().collect();
            let i = seq_index(
                k.as_index().map_err(|_| list_idx_err("string", k))?,
                chars.len(),
                "string",
            )?;
            Ok(Value::str(&chars[i].to_string()))
        }
        (Value::Dict(d), k) => {
            check_hashable(rt, k)?;
            match dict_lookup(rt, d, k)? {
                Some(v) => Ok(v),
                None => Err(PyErr::key_error(repr(rt, k)?)),
            }
        }
        (Value::Object(o), k) => o.clone().get_item(k, rt),
        (Value::Scalar(_), _) => Err(PyErr::index_error("invalid index to scalar variable.")),
        _ => Err(PyErr::type_error(format!(
            "'{}' object is not subscriptable",
            container.type_name()
        ))),
    }
}

/// A sequence subscript by an object that defines `__index__` (an instance of a class, or
/// a native object such as a 0-d CuPy array): the int it gives.
fn user_index(rt: &mut Runtime, container: &Value, key: &Value) -> PyResult<Option<Value>> {
    let sequence = matches!(
        container,
        Value::List(_) | Value::Tuple(_) | Value::Str(_) | Value::Bytes(_)
    );
    if !sequence || !matches!(key, Value::Object(_)) {
        return Ok(None);
    }
    index_of(rt, key)
}

/// `v.__index__()` as `operator.index` takes it: an int for ints, bools and NumPy integers,
/// the result of the method for objects that define it, None for anything else.
pub fn index_of(rt: &mut Runtime, v: &Value) -> PyResult<Option<Value>> {
    let given = match v {
        Value::Int(_) | Value::BigInt(_) => return Ok(Some(v.clone())),
        Value::Bool(b) => return Ok(Some(Value::Int(*b as i64))),
        Value::Scalar(_) => return Ok(v.as_index().ok().map(Value::Int)),
        Value::Object(o) => match as_instance(v) {
            Some(inst) => inst.call_special(rt, "__index__", vec![])?,
            None => match o.clone().get_attr("__index__", rt)? {
                Some(f) => Some(rt.call(&f, crate::py::value::Args::default())?),
                None => None,
            },
        },
        _ => None,
    };
    match given {
        Some(i @ (Value::Int(_) | Value::BigInt(_))) => Ok(Some(i)),
        Some(other) => Err(PyErr::type_error(format!(
            "__index__ returned non-int (type {})",
            other.type_name()
        ))),
        None => Ok(None),
    }
}

fn list_idx_err(what: &str, k: &Value) -> PyErr {
    if let Value::BigInt(_) = k {
        return PyErr::index_error("cannot fit 'int' into an index-sized integer");
    }
    PyErr::type_error(format!(
        "{what} indices must be integers or slices, not {}",
        k.type_name()
    ))
}

pub fn slice_items(items: &[Value], s: &crate::arrays::index::SliceValue) -> PyResult<Vec<Value>> {
    let (start, _stop, step) = s.indices(items.len())?;
    let n = s.len_for(items.len())?;
    Ok((0..n)
        .map(|k| items[(start + k as isize * step) as usize].clone())
        .collect())
}

/// `container[key] = value`.
pub fn set_item(rt: &mut Runtime, container: &Value, key: &Value, value: Value) -> PyResult<()> {
    if let Some(i) = user_index(rt, container, key)? {
        return set_item(rt, container, &i, value);
    }
    match (container, key) {
        (Value::Array(a), _) => ndarray_attrs::array_setitem(a, key, &value, rt),
        (Value::List(l), Value::Slice(s)) => {
            let new = iterate(rt, &value)?;
            let mut l = l.borrow_mut();
            let (start, stop, step) = s.indices(l.len())?;
            if step != 1 {
                let n = s.len_for(l.len())?;
                if n != new.len() {
                    return Err(PyErr::value_error(format!(
                        "attempt to assign sequence of size {} to extended slice of size {n}",
                        new.len()
                    )));
                }
                for (k, v) in new.into_iter().enumerate() {
                    l[(start + k as isize * step) as usize] = v;
                }
            } else {
                let stop = stop.max(start) as usize;
                l.splice(start as usize..stop, new);
            }
            Ok(())
        }
        (Value::List(l), k) => {
            let mut l = l.borrow_mut();
            let i = seq_index(
                k.as_index().map_err(|_| list_idx_err("list", k))?,
                l.len(),
                "list assignment",
            )?;
            l[i] = value;
            Ok(())
        }
        (Value::Dict(d), k) => dict_store(rt, d, k.clone(), value),
        (Value::Object(o), k) => o.set_item(k, value, rt),
        (Value::Tuple(_), _) => Err(PyErr::type_error(
            "'tuple' object does not support item assignment",
        )),
        (Value::Str(_), _) => Err(PyErr::type_error(
            "'str' object does not support item assignment",
        )),
        _ => Err(PyErr::type_error(format!(
            "'{}' object does not support item assignment",
            container.type_name()
        ))),
    }
}

pub fn del_item(rt: &mut Runtime, container: &Value, key: &Value) -> PyResult<()> {
    match (container, key) {
        (Value::List(l), k) => {
            let mut l = l.borrow_mut();
            let i = seq_index(k.as_index()?, l.len(), "list assignment")?;
            l.remove(i);
            Ok(())
        }
        (Value::Dict(d), k) => match dict_remove(rt, d, k)? {
            Some(_) => Ok(()),
            None => Err(PyErr::key_error(repr(rt, k)?)),
        },
        (Value::Object(o), k) => o.del_item(k, rt),
        _ => Err(PyErr::type_error(format!(
            "'{}' object does not support item deletion",
            container.type_name()
        ))),
    }
}
