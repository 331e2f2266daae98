//! Python's `dict`: insertion-ordered entries with a hash index, so lookups, inserts and
//! deletes take constant time, as CPython's do.
//!
//! Keys whose equality needs no Python code (None, bools, numbers, strings, bytes, and
//! tuples of them) are indexed by a hash that agrees with that equality (`1`, `1.0`, `True`
//! and `np.int32(1)` hash alike). Other keys (objects with their own `__eq__`) are kept on
//! an "opaque" list that every lookup also checks, with the interpreter's equality, so a
//! dict stays correct for any key. Deleted entries leave a hole that later compaction
//! removes, which keeps deletion O(1) and the order intact.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use rustc_hash::{FxBuildHasher, FxHasher};

use crate::py::value::Value;

/// Insertion-ordered dict with Python key semantics. The interpreter decides key equality
/// (see `interp::subscript`); native code may use [`Dict::get_str`] and
/// [`Dict::insert_str`].
#[derive(Clone, Default)]
pub struct Dict {
    slots: Vec<Option<(Value, Value)>>,
    live: usize,
    /// Pure key hash → the slots holding keys with that hash. FxHash: the keys are
    /// already hashes, and every insert and lookup hashes them again.
    index: HashMap<u64, Bucket, FxBuildHasher>,
    /// Slots whose key has no pure hash.
    opaque: Vec<usize>,
}

#[derive(Clone)]
enum Bucket {
    One(usize),
    Many(Vec<usize>),
}

impl Bucket {
    fn slots(&self) -> &[usize] {
        match self {
            Bucket::One(s) => std::slice::from_ref(s),
            Bucket::Many(v) => v,
        }
    }
}

/// A hash of `v` consistent with Python equality, for keys whose equality needs no Python
/// code; None for every other key. FxHash rather than SipHash: it is the cost of every
/// `d[k] = v` and `s.add(k)`, and a notebook's keys are its own (nothing to defend
/// against flooding; CPython's int hashes are not randomised either).
pub fn pure_hash(v: &Value) -> Option<u64> {
    let mut h = FxHasher::default();
    pure_hash_into(v, &mut h)?;
    Some(h.finish())
}

fn pure_hash_into(v: &Value, h: &mut impl Hasher) -> Option<()> {
    match v {
        Value::None => 0u8.hash(h),
        Value::Bool(b) => hash_number(*b as i64 as f64, Some(*b as i64), h),
        Value::Int(i) => hash_number(*i as f64, Some(*i), h),
        Value::Float(f) => hash_number(*f, None, h),
        // A complex with no imaginary part equals (and hashes as) its real part.
        Value::Complex(re, im) if *im == 0.0 => hash_number(*re, None, h),
        Value::Complex(re, im) => {
            5u8.hash(h);
            // +0.0 and -0.0 are equal: hash them alike.
            (re + 0.0).to_bits().hash(h);
            (im + 0.0).to_bits().hash(h);
        }
        // A big int equal to a float hashes as that float; others by their digits.
        Value::BigInt(b) => match crate::py::bigint::to_f64(b) {
            Ok(f) if crate::py::bigint::cmp_float(b, f) == Some(std::cmp::Ordering::Equal) => {
                hash_number(f, None, h)
            }
            _ => {
                1u8.hash(h);
                b.hash(h);
            }
        },
        Value::Scalar(s) if s.dtype().is_integer() || s.dtype().is_float() => {
            if s.dtype().is_integer() {
                hash_number(s.as_f64(), Some(s.as_i64()), h)
            } else {
                hash_number(s.as_f64(), None, h)
            }
        }
        Value::Str(s) => {
            2u8.hash(h);
            s.hash(h);
        }
        Value::Bytes(b) => {
            3u8.hash(h);
            b.hash(h);
        }
        Value::Tuple(t) => {
            4u8.hash(h);
            t.len().hash(h);
            for item in t.iter() {
                pure_hash_into(item, h)?;
            }
        }
        _ => return None,
    }
    Some(())
}

/// Numbers that compare equal hash equal: integral values hash as their integer.
fn hash_number(f: f64, int: Option<i64>, h: &mut impl Hasher) {
    1u8.hash(h);
    match int {
        Some(i) => i.hash(h),
        None if f.fract() == 0.0 && f.abs() < 9.2e18 => (f as i64).hash(h),
        None => f.to_bits().hash(h),
    }
}

/// Python equality of two keys that both have a pure hash.
pub fn pure_eq(a: &Value, b: &Value) -> bool {
    let num = |v: &Value| -> Option<(f64, Option<i64>)> {
        match v {
            Value::Bool(b) => Some((*b as i64 as f64, Some(*b as i64))),
            Value::Int(i) => Some((*i as f64, Some(*i))),
            Value::Float(f) => Some((*f, None)),
            Value::Scalar(s) if s.dtype().is_integer() => Some((s.as_f64(), Some(s.as_i64()))),
            Value::Scalar(s) if s.dtype().is_float() => Some((s.as_f64(), None)),
            _ => None,
        }
    };
    match (a, b) {
        (Value::None, Value::None) => true,
        // The same bits are the same object (`interp::compare::is_same`), which a key equals
        // before any comparison: a NaN key finds itself.
        (Value::Float(x), Value::Float(y)) if x.to_bits() == y.to_bits() => true,
        (Value::Complex(a, b), Value::Complex(c, d)) => {
            (a.to_bits() == c.to_bits() && b.to_bits() == d.to_bits()) || (a == c && b == d)
        }
        (Value::Complex(re, im), other) | (other, Value::Complex(re, im)) => {
            *im == 0.0
                && matches!(
                    other,
                    Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::BigInt(_)
                )
                && pure_eq(&Value::Float(*re), other)
        }
        (Value::BigInt(_), _) | (_, Value::BigInt(_)) => {
            crate::py::bigint::cmp_real(a, b) == Some(std::cmp::Ordering::Equal)
        }
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| pure_eq(p, q))
        }
        _ => match (num(a), num(b)) {
            (Some((_, Some(i))), Some((_, Some(j)))) => i == j,
            (Some((x, _)), Some((y, _))) => x == y,
            _ => false,
        },
    }
}

impl Dict {
    pub fn len(&self) -> usize {
        self.live
    }
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The entries in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.slots.iter().flatten().map(|(k, v)| (k, v))
    }
    /// The entries in insertion order, cloned (to iterate while running Python code).
    pub fn items(&self) -> Vec<(Value, Value)> {
        self.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }
    pub fn keys(&self) -> Vec<Value> {
        self.iter().map(|(k, _)| k.clone()).collect()
    }
    pub fn values(&self) -> Vec<Value> {
        self.iter().map(|(_, v)| v.clone()).collect()
    }

    /// The slots that may hold `key`, in insertion order: those with the same pure hash
    /// plus every opaque key (or every slot, for an opaque `key`).
    pub fn candidates(&self, key: &Value) -> Vec<usize> {
        let Some(h) = pure_hash(key) else {
            return (0..self.slots.len())
                .filter(|&i| self.slots[i].is_some())
                .collect();
        };
        let mut out: Vec<usize> = self
            .index
            .get(&h)
            .map(|b| b.slots().to_vec())
            .unwrap_or_default();
        if !self.opaque.is_empty() {
            out.extend(self.opaque.iter().copied());
            out.sort_unstable();
        }
        out
    }

    /// The slot holding a key equal to `key`, when deciding needs no Python code: Some(Ok)
    /// found, Some(Err) absent, None when an opaque key must be compared by the caller.
    pub fn find_pure(&self, key: &Value) -> Option<Result<usize, ()>> {
        let h = pure_hash(key)?;
        if !self.opaque.is_empty() {
            return None;
        }
        let found = self.index.get(&h).and_then(|b| {
            b.slots()
                .iter()
                .copied()
                .find(|&s| self.slots[s].as_ref().is_some_and(|(k, _)| pure_eq(k, key)))
        });
        Some(found.ok_or(()))
    }

    pub fn entry_at(&self, slot: usize) -> Option<(&Value, &Value)> {
        self.slots
            .get(slot)
            .and_then(|e| e.as_ref())
            .map(|(k, v)| (k, v))
    }

    /// Replace the value of an existing entry.
    pub fn set_value_at(&mut self, slot: usize, value: Value) {
        if let Some(Some(e)) = self.slots.get_mut(slot) {
            e.1 = value;
        }
    }

    /// Append an entry whose key the caller knows is absent.
    pub fn push(&mut self, key: Value, value: Value) {
        let slot = self.slots.len();
        match pure_hash(&key) {
            Some(h) => match self.index.get_mut(&h) {
                None => {
                    self.index.insert(h, Bucket::One(slot));
                }
                Some(Bucket::One(s)) => {
                    let first = *s;
                    self.index.insert(h, Bucket::Many(vec![first, slot]));
                }
                Some(Bucket::Many(v)) => v.push(slot),
            },
            None => self.opaque.push(slot),
        }
        self.slots.push(Some((key, value)));
        self.live += 1;
    }

    /// `d[key] = value` (`replace`) or `s.add(key)` (not `replace`: an equal key already
    /// there keeps its value), hashing the key once, when deciding needs no Python code.
    /// An equal key already there stays (CPython keeps the first key). Gives the entry back
    /// when the key has no pure hash or opaque keys must be compared by the caller.
    pub fn upsert_pure(
        &mut self,
        key: Value,
        value: Value,
        replace: bool,
    ) -> Result<(), (Value, Value)> {
        if !self.opaque.is_empty() {
            return Err((key, value));
        }
        let Some(h) = pure_hash(&key) else {
            return Err((key, value));
        };
        let slot = self.slots.len();
        match self.index.entry(h) {
            Entry::Vacant(e) => {
                e.insert(Bucket::One(slot));
            }
            Entry::Occupied(mut e) => {
                let slots = &mut self.slots;
                let found = e
                    .get()
                    .slots()
                    .iter()
                    .copied()
                    .find(|&s| slots[s].as_ref().is_some_and(|(k, _)| pure_eq(k, &key)));
                if let Some(s) = found {
                    if replace {
                        if let Some(entry) = &mut slots[s] {
                            entry.1 = value;
                        }
                    }
                    return Ok(());
                }
                match e.get_mut() {
                    Bucket::One(first) => {
                        let first = *first;
                        e.insert(Bucket::Many(vec![first, slot]));
                    }
                    Bucket::Many(v) => v.push(slot),
                }
            }
        }
        self.slots.push(Some((key, value)));
        self.live += 1;
        Ok(())
    }

    /// Remove the entry in `slot`, keeping the order of the others.
    pub fn remove_at(&mut self, slot: usize) -> Option<(Value, Value)> {
        let (k, v) = self.slots.get_mut(slot)?.take()?;
        self.live -= 1;
        match pure_hash(&k) {
            Some(h) => {
                let empty = match self.index.get_mut(&h) {
                    Some(Bucket::Many(list)) => {
                        list.retain(|&s| s != slot);
                        list.is_empty()
                    }
                    _ => true,
                };
                if empty {
                    self.index.remove(&h);
                }
            }
            None => self.opaque.retain(|&s| s != slot),
        }
        if self.slots.len() > 16 && self.live * 2 < self.slots.len() {
            self.compact();
        }
        Some((k, v))
    }

    /// The first entry, removed (`set.pop`).
    pub fn pop_first(&mut self) -> Option<(Value, Value)> {
        let slot = self.slots.iter().position(|e| e.is_some())?;
        self.remove_at(slot)
    }

    /// The last entry, removed (`popitem`).
    pub fn pop_last(&mut self) -> Option<(Value, Value)> {
        let slot = self.slots.iter().rposition(|e| e.is_some())?;
        self.remove_at(slot)
    }

    pub fn clear(&mut self) {
        *self = Dict::default();
    }

    /// Drop the holes left by deletions and rebuild the index.
    fn compact(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        *self = Dict::default();
        for (k, v) in slots.into_iter().flatten() {
            self.push(k, v);
        }
    }

    /// Take every entry out, leaving the dict empty (for non-recursive drops).
    pub fn take_entries(&mut self) -> Vec<(Value, Value)> {
        let slots = std::mem::take(&mut self.slots);
        self.clear();
        slots.into_iter().flatten().collect()
    }

    pub fn get_str(&self, key: &str) -> Option<&Value> {
        let probe = Value::str(key);
        match self.find_pure(&probe) {
            Some(Ok(slot)) => self.entry_at(slot).map(|(_, v)| v),
            Some(Err(())) => None,
            None => self.iter().find_map(|(k, v)| match k {
                Value::Str(s) if &**s == key => Some(v),
                _ => None,
            }),
        }
    }

    /// Insert or replace a string-keyed entry.
    pub fn insert_str(&mut self, key: &str, value: Value) {
        self.insert_pure(Value::str(key), value);
    }

    /// Insert or replace an entry whose key has a pure hash (native code's keys: strings,
    /// numbers, tuples of them); other keys are appended.
    pub fn insert_pure(&mut self, key: Value, value: Value) {
        let slot = match self.find_pure(&key) {
            Some(Ok(slot)) => Some(slot),
            Some(Err(())) => None,
            None => self.candidates(&key).into_iter().find(|&s| {
                self.entry_at(s)
                    .is_some_and(|(k, _)| pure_hash(k).is_some() && pure_eq(k, &key))
            }),
        };
        match slot {
            Some(s) => self.set_value_at(s, value),
            None => self.push(key, value),
        }
    }
}
