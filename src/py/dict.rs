//! Python's `dict`: insertion-ordered entries with a hash index, so lookups, inserts and
//! deletes take constant time, as CPython's do.
//!
//! The layout is CPython's: the entries in insertion order, each with its key's hash, and
//! an open-addressing index of entry numbers probed with CPython's perturbation. Keys are
//! filed under `hash(key)` ([`crate::py::hash`]): small ints hash to themselves, as in
//! CPython, so a run of int keys fills the index in order (no cache misses), and growing
//! the index re-reads the stored hashes instead of hashing keys again.
//!
//! Every hashable key is indexed by its hash, as in CPython, and two keys are one only when
//! their hashes match and they are equal (identity first). Keys whose equality needs no
//! Python code (None, bools, numbers, strings, bytes, and tuples of them) are "pure": their
//! hash agrees with that equality (`1`, `1.0`, `True` and `np.int32(1)` hash alike), and
//! the table compares them itself. An instance of a user class is indexed by its
//! `__hash__` result (run by the interpreter, see `interp::subscript::key_hash`), and the
//! interpreter compares it with `__eq__` only on a hash match. The few keys the interpreter
//! cannot hash (native objects) stay on a "linear" list that every lookup compares.
//! Deleted entries leave a hole that later compaction removes, which keeps deletion O(1)
//! and the order intact.

use crate::py::value::Value;

/// An index position that never held an entry.
const EMPTY: u32 = u32::MAX;
/// An index position whose entry was deleted (probing goes on past it).
const DELETED: u32 = u32::MAX - 1;
/// CPython's `PERTURB_SHIFT`.
const PERTURB_SHIFT: u32 = 5;

#[derive(Clone)]
struct Entry {
    /// The key's hash (unused for a key on the `linear` list).
    hash: u64,
    key: Value,
    value: Value,
}

/// Insertion-ordered dict with Python key semantics. The interpreter decides key equality
/// (see `interp::subscript`); native code may use [`Dict::get_str`] and
/// [`Dict::insert_str`].
#[derive(Clone, Default)]
pub struct Dict {
    /// Entries in insertion order; None where one was deleted. One vector, not keys and
    /// values apart: two vectors growing side by side cannot grow in place, and copying
    /// and faulting in the pages made `d[i] = i` loops 60% slower.
    slots: Vec<Option<Entry>>,
    live: usize,
    /// Open addressing over the hashed entries: an entry number, [`EMPTY`] or
    /// [`DELETED`]. Its length is zero or a power of two. Entry numbers are u32, as
    /// CPython's are for tables this size, to halve the index's memory: four billion
    /// entries (over 100 GB of them) cannot be allocated before one would not fit.
    index: Vec<u32>,
    /// Index positions not [`EMPTY`] (entries and deletion marks).
    used: usize,
    /// Slots whose key has no hash the table can use (native objects compared by the
    /// interpreter), ascending: every lookup compares them.
    linear: Vec<usize>,
}

/// The index positions a hash probes, in CPython's order (`i = i*5 + perturb + 1`), which
/// visits every position of a power-of-two table.
struct Probe {
    pos: usize,
    perturb: u64,
    mask: usize,
}

impl Probe {
    fn new(hash: u64, len: usize) -> Probe {
        let mask = len.wrapping_sub(1);
        Probe {
            pos: hash as usize & mask,
            perturb: hash,
            mask,
        }
    }
    fn next(&mut self) {
        self.perturb >>= PERTURB_SHIFT;
        self.pos = (self.pos.wrapping_mul(5))
            .wrapping_add(self.perturb as usize)
            .wrapping_add(1)
            & self.mask;
    }
}

/// The hash a dict or set files `v` under: `hash(v)` ([`crate::py::hash::hash_value`]),
/// so an object whose `__hash__` returns `hash(k)` meets the key `k`; None for a value
/// that is not a hashable builtin (the interpreter hashes those).
#[inline]
pub fn pure_hash(v: &Value) -> Option<u64> {
    crate::py::hash::hash_value(v).map(|h| h as u64)
}

/// Whether `v` has a pure hash (its equality needs no Python code), without hashing it.
pub fn is_pure(v: &Value) -> bool {
    match v {
        Value::None
        | Value::Bool(_)
        | Value::Int(_)
        | Value::BigInt(_)
        | Value::Complex(..)
        | Value::Float(_)
        | Value::Str(_)
        | Value::Bytes(_) => true,
        Value::Scalar(s) => s.dtype().is_integer() || s.dtype().is_float(),
        Value::Tuple(t) => t.iter().all(is_pure),
        _ => false,
    }
}

/// Whether two keys with the same hash are equal, when that needs no Python code: pure
/// keys by [`pure_eq`], an object by identity (CPython's first test); None when the
/// interpreter must compare them.
fn fast_eq(a: &Value, b: &Value) -> Option<bool> {
    if let (Value::Object(x), Value::Object(y)) = (a, b) {
        if std::rc::Rc::ptr_eq(x, y) {
            return Some(true);
        }
    }
    if is_pure(a) && is_pure(b) {
        return Some(pure_eq(a, b));
    }
    None
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
        // The same string object is equal without reading it (CPython's first test): a
        // key looked up by the very string that was stored compares one pointer.
        (Value::Str(x), Value::Str(y)) => std::rc::Rc::ptr_eq(x, y) || x == y,
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
        self.slots.iter().flatten().map(|e| (&e.key, &e.value))
    }
    /// The keys in insertion order, with their hashes (None for a key the table cannot
    /// hash), to fill another dict without hashing them again.
    pub fn hashed_keys(&self) -> Vec<(Value, Option<u64>)> {
        let mut linear = self.linear.iter().peekable();
        // bounded: one per entry the dict already holds.
        let mut out = Vec::with_capacity(self.live);
        for (slot, e) in self.slots.iter().enumerate() {
            let is_linear = linear.next_if_eq(&&slot).is_some();
            if let Some(e) = e {
                out.push((e.key.clone(), (!is_linear).then_some(e.hash)));
            }
        }
        out
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

    /// The live slots whose stored hash is `h`, in probe order.
    fn same_hash(&self, h: u64) -> impl Iterator<Item = usize> + '_ {
        let mut probe = Probe::new(h, self.index.len());
        let mut left = self.index.len();
        std::iter::from_fn(move || loop {
            if left == 0 {
                return None;
            }
            left -= 1;
            let s = self.index[probe.pos];
            probe.next();
            match s {
                EMPTY => {
                    left = 0;
                    return None;
                }
                DELETED => {}
                s => match self.slots.get(s as usize) {
                    Some(Some(e)) if e.hash == h => return Some(s as usize),
                    _ => {}
                },
            }
        })
    }

    /// The slots that may hold a key whose hash is `h` (None: a key the table cannot
    /// hash), in insertion order: those with the same hash plus every unhashed key (or
    /// every slot, for an unhashed key).
    pub fn candidates(&self, h: Option<u64>) -> Vec<usize> {
        let Some(h) = h else {
            return (0..self.slots.len())
                .filter(|&i| self.slots[i].is_some())
                .collect();
        };
        let mut out: Vec<usize> = self.same_hash(h).collect();
        out.extend(self.linear.iter().copied());
        out.sort_unstable();
        out
    }

    /// The slot holding a key equal to `key` (whose hash is `h`), when deciding needs no
    /// Python code: Some(Ok) found, Some(Err) absent, None when the interpreter must
    /// compare keys.
    pub fn find_fast(&self, h: u64, key: &Value) -> Option<Result<usize, ()>> {
        if !self.linear.is_empty() {
            return None;
        }
        for s in self.same_hash(h) {
            let e = self.slots[s].as_ref()?;
            if fast_eq(&e.key, key)? {
                return Some(Ok(s));
            }
        }
        Some(Err(()))
    }

    /// [`Dict::find_fast`] for a key of pure hash.
    pub fn find_pure(&self, key: &Value) -> Option<Result<usize, ()>> {
        self.find_fast(pure_hash(key)?, key)
    }

    pub fn entry_at(&self, slot: usize) -> Option<(&Value, &Value)> {
        let e = self.slots.get(slot)?.as_ref()?;
        Some((&e.key, &e.value))
    }

    /// Replace the value of an existing entry.
    pub fn set_value_at(&mut self, slot: usize, value: Value) {
        if let Some(Some(e)) = self.slots.get_mut(slot) {
            e.value = value;
        }
    }

    /// Append an entry (its index position already set).
    fn append(&mut self, hash: u64, key: Value, value: Value) {
        self.slots.push(Some(Entry { hash, key, value }));
        self.live += 1;
    }

    /// Make room in the index for one more entry: past two thirds full (entries and
    /// deletion marks), rebuild it from the stored hashes at three times the entries.
    #[inline]
    fn reserve_one(&mut self) {
        if (self.used + 1) * 3 > self.index.len() * 2 {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let hashed = self.live - self.linear.len();
        let len = ((hashed + 1) * 3).next_power_of_two().max(8);
        // bounded: a few words for each entry the dict already holds.
        self.index = vec![EMPTY; len];
        self.used = 0;
        let mut linear = self.linear.iter().peekable();
        for (slot, e) in self.slots.iter().enumerate() {
            if linear.next_if_eq(&&slot).is_some() {
                continue;
            }
            if let Some(Entry { hash, .. }) = e {
                let mut probe = Probe::new(*hash, len);
                while self.index[probe.pos] != EMPTY {
                    probe.next();
                }
                self.index[probe.pos] = slot as u32;
                self.used += 1;
            }
        }
    }

    /// Index `slot` under hash `h`, whose key the caller knows is absent (room reserved).
    fn index_new(&mut self, h: u64, slot: usize) {
        let mut probe = Probe::new(h, self.index.len());
        loop {
            match self.index[probe.pos] {
                EMPTY => {
                    self.used += 1;
                    break;
                }
                DELETED => break,
                _ => probe.next(),
            }
        }
        self.index[probe.pos] = slot as u32;
    }

    /// Append an entry whose key the caller knows is absent, under its hash (None: a key
    /// the table cannot hash, which every lookup then compares).
    pub fn push_hashed(&mut self, key: Value, value: Value, hash: Option<u64>) {
        let slot = self.slots.len();
        let hash = match hash {
            Some(h) => {
                self.reserve_one();
                self.index_new(h, slot);
                h
            }
            None => {
                self.linear.push(slot);
                0
            }
        };
        self.append(hash, key, value);
    }

    /// Append an entry whose key the caller knows is absent (native code's keys; an
    /// object key goes on the list every lookup compares).
    pub fn push(&mut self, key: Value, value: Value) {
        let h = pure_hash(&key);
        self.push_hashed(key, value, h);
    }

    /// `d[key] = value` (`replace`) or `s.add(key)` (not `replace`: an equal key already
    /// there keeps its value) for a key of hash `h`, when deciding needs no Python code.
    /// An equal key already there stays (CPython keeps the first key). Gives the entry back
    /// when the interpreter must compare keys.
    #[inline]
    pub fn upsert_fast(
        &mut self,
        key: Value,
        value: Value,
        h: u64,
        replace: bool,
    ) -> Result<(), (Value, Value)> {
        if !self.linear.is_empty() {
            return Err((key, value));
        }
        self.reserve_one();
        let slot = self.slots.len();
        let mut probe = Probe::new(h, self.index.len());
        let mut free = None;
        loop {
            match self.index[probe.pos] {
                EMPTY => break,
                DELETED => {
                    free.get_or_insert(probe.pos);
                }
                s => {
                    if let Some(Some(e)) = self.slots.get(s as usize) {
                        if e.hash == h {
                            match fast_eq(&e.key, &key) {
                                Some(true) => {
                                    if replace {
                                        self.set_value_at(s as usize, value);
                                    }
                                    return Ok(());
                                }
                                Some(false) => {}
                                None => return Err((key, value)),
                            }
                        }
                    }
                }
            }
            probe.next();
        }
        let pos = match free {
            Some(p) => p,
            None => {
                self.used += 1;
                probe.pos
            }
        };
        self.index[pos] = slot as u32;
        self.append(h, key, value);
        Ok(())
    }

    /// [`Dict::upsert_fast`] for a key of pure hash (gives other keys back).
    pub fn upsert_pure(
        &mut self,
        key: Value,
        value: Value,
        replace: bool,
    ) -> Result<(), (Value, Value)> {
        match pure_hash(&key) {
            Some(h) => self.upsert_fast(key, value, h, replace),
            None => Err((key, value)),
        }
    }

    /// Remove the entry in `slot`, keeping the order of the others.
    pub fn remove_at(&mut self, slot: usize) -> Option<(Value, Value)> {
        let e = self.slots.get_mut(slot)?.take()?;
        self.live -= 1;
        match self.linear.binary_search(&slot) {
            Ok(at) => {
                self.linear.remove(at);
            }
            Err(_) => {
                let mut probe = Probe::new(e.hash, self.index.len());
                for _ in 0..self.index.len() {
                    match self.index[probe.pos] {
                        EMPTY => break,
                        s if s as usize == slot => {
                            self.index[probe.pos] = DELETED;
                            break;
                        }
                        _ => probe.next(),
                    }
                }
            }
        }
        if self.slots.len() > 16 && self.live * 2 < self.slots.len() {
            self.compact();
        }
        Some((e.key, e.value))
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

    /// Drop the holes left by deletions and rebuild the index (from the stored hashes).
    fn compact(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        let mut linear = std::mem::take(&mut self.linear).into_iter().peekable();
        for (slot, e) in slots.into_iter().enumerate() {
            let is_linear = linear.next_if_eq(&slot).is_some();
            if let Some(e) = e {
                if is_linear {
                    self.linear.push(self.slots.len());
                }
                self.slots.push(Some(e));
            }
        }
        self.index = Vec::new();
        self.used = 0;
        self.grow();
    }

    /// Move the entry in `slot` to the end (`last`) or the front, under the same hash.
    pub fn move_entry(&mut self, slot: usize, last: bool) {
        let Some(Some(e)) = self.slots.get(slot) else {
            return;
        };
        let h = self.linear.binary_search(&slot).is_err().then_some(e.hash);
        let Some((k, v)) = self.remove_at(slot) else {
            return;
        };
        if last {
            return self.push_hashed(k, v, h);
        }
        // bounded: one per entry the dict already holds.
        let mut rest = Vec::with_capacity(self.live);
        let linear = std::mem::take(&mut self.linear);
        let mut linear = linear.iter().peekable();
        for (slot, e) in std::mem::take(&mut self.slots).into_iter().enumerate() {
            let is_linear = linear.next_if_eq(&&slot).is_some();
            if let Some(e) = e {
                rest.push((e.key, e.value, (!is_linear).then_some(e.hash)));
            }
        }
        self.clear();
        self.push_hashed(k, v, h);
        for (k, v, h) in rest {
            self.push_hashed(k, v, h);
        }
    }

    /// Take every entry out, leaving the dict empty (for non-recursive drops).
    pub fn take_entries(&mut self) -> Vec<(Value, Value)> {
        let slots = std::mem::take(&mut self.slots);
        self.clear();
        slots
            .into_iter()
            .flatten()
            .map(|e| (e.key, e.value))
            .collect()
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
        let slot = match pure_hash(&key) {
            Some(h) => self.same_hash(h).find(|&s| {
                self.slots[s]
                    .as_ref()
                    .is_some_and(|e| pure_eq(&e.key, &key))
            }),
            None => None,
        };
        match slot {
            Some(s) => self.set_value_at(s, value),
            None => self.push(key, value),
        }
    }
}
