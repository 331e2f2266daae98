//! The method tables of `list`, `tuple` and `dict`: each method's name, signature, doc and
//! body in one [`MethodSpec`], serving lookup, `dir()`, completion and `?`.

use std::cell::RefCell;
use std::rc::Rc;

use crate::interp::ops;
use crate::py::error::{PyErr, PyResult};
use crate::py::methods::{Bound, MethodSpec, MethodTable};
use crate::py::runtime::Runtime;
use crate::py::value::{Dict, Value};

type ListRef = Rc<RefCell<Vec<Value>>>;
type DictRef = Rc<RefCell<Dict>>;
type TupleRef = Rc<[Value]>;

pub static LIST: MethodTable<ListRef> = MethodTable {
    owner: "list",
    methods: &LIST_METHODS,
};

static LIST_METHODS: [MethodSpec<ListRef>; 11] = [
    MethodSpec::new(
        "append",
        "object, /",
        "Append object to the end of the list.",
        |l, _, b| {
            l.borrow_mut().push(b.value(0));
            Ok(Value::None)
        },
    ),
    MethodSpec::new(
        "clear",
        "",
        "Remove all items from list.",
        |l, _, _| {
            l.borrow_mut().clear();
            Ok(Value::None)
        },
    ),
    MethodSpec::new(
        "copy",
        "",
        "Return a shallow copy of the list.",
        |l, _, _| Ok(Value::list(l.borrow().clone())),
    ),
    MethodSpec::new(
        "count",
        "value, /",
        "Return number of occurrences of value.",
        |l, rt, b| {
            let items = l.borrow().clone();
            Ok(Value::Int(count(rt, &items, &b.value(0))?))
        },
    ),
    MethodSpec::new(
        "extend",
        "iterable, /",
        "Extend list by appending elements from the iterable.",
        |l, rt, b| {
            let items = ops::iterate(rt, &b.value(0))?;
            l.borrow_mut().extend(items);
            Ok(Value::None)
        },
    ),
    MethodSpec::new(
        "index",
        "value, start=0, stop=sys.maxsize, /",
        "Return first index of value.\n\nRaises ValueError if the value is not present.",
        |l, rt, b| {
            let items = l.borrow().clone();
            let x = b.value(0);
            match index_in(rt, &items, &b)? {
                Some(i) => Ok(Value::Int(i as i64)),
                None => Err(PyErr::value_error(format!(
                    "{} is not in list",
                    crate::interp::repr::repr(rt, &x)?
                ))),
            }
        },
    ),
    MethodSpec::new(
        "insert",
        "index, object, /",
        "Insert object before index.",
        |l, _, b| {
            let n = l.borrow().len() as i64;
            let mut i = b.value(0).as_index()?;
            if i < 0 {
                i = (i + n).max(0);
            }
            l.borrow_mut().insert(i.min(n) as usize, b.value(1));
            Ok(Value::None)
        },
    ),
    MethodSpec::new(
        "pop",
        "index=-1, /",
        "Remove and return item at index (default last).\n\nRaises IndexError if list is empty or index is out of range.",
        |l, _, b| {
            let n = l.borrow().len();
            if n == 0 {
                return Err(PyErr::index_error("pop from empty list"));
            }
            let i = ops::seq_index(b.value(0).as_index()?, n, "pop")?;
            Ok(l.borrow_mut().remove(i))
        },
    ),
    MethodSpec::new(
        "remove",
        "value, /",
        "Remove first occurrence of value.\n\nRaises ValueError if the value is not present.",
        |l, rt, b| {
            let items = l.borrow().clone();
            match position(rt, &items, &b.value(0))? {
                Some(i) => {
                    l.borrow_mut().remove(i);
                    Ok(Value::None)
                }
                None => Err(PyErr::value_error("list.remove(x): x not in list")),
            }
        },
    ),
    MethodSpec::new(
        "reverse",
        "",
        "Reverse *IN PLACE*.",
        |l, _, _| {
            l.borrow_mut().reverse();
            Ok(Value::None)
        },
    ),
    MethodSpec::new(
        "sort",
        "*, key=None, reverse=False",
        "Sort the list in ascending order and return None.\n\nThe sort is stable. If a key function is given, apply it once to each list item and sort them, ascending or descending, according to their function values. The reverse flag can be set to sort in descending order.",
        |l, rt, b| {
            let items = l.borrow().clone();
            let sorted = crate::interp::builtins::sort_values(rt, items, b.get(0), b.get(1))?;
            *l.borrow_mut() = sorted;
            Ok(Value::None)
        },
    ),
];

/// The index of the first item equal to `x`.
fn position(rt: &mut Runtime, items: &[Value], x: &Value) -> PyResult<Option<usize>> {
    for (i, it) in items.iter().enumerate() {
        if ops::same_or_eq(rt, it, x)? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// `seq.index(value, start, stop)`: the search window clamps like a slice's bounds.
fn index_in(rt: &mut Runtime, items: &[Value], b: &Bound) -> PyResult<Option<usize>> {
    let n = items.len() as i64;
    let clamp = |i: i64| if i < 0 { (i + n).max(0) } else { i.min(n) } as usize;
    let start = clamp(b.index(1)?.unwrap_or(0));
    let stop = clamp(b.index(2)?.unwrap_or(n));
    if start >= stop {
        return Ok(None);
    }
    Ok(position(rt, &items[start..stop], &b.value(0))?.map(|i| i + start))
}

fn count(rt: &mut Runtime, items: &[Value], x: &Value) -> PyResult<i64> {
    let mut n = 0;
    for it in items {
        if ops::same_or_eq(rt, it, x)? {
            n += 1;
        }
    }
    Ok(n)
}

pub static TUPLE: MethodTable<TupleRef> = MethodTable {
    owner: "tuple",
    methods: &TUPLE_METHODS,
};

static TUPLE_METHODS: [MethodSpec<TupleRef>; 2] = [
    MethodSpec::new(
        "count",
        "value, /",
        "Return number of occurrences of value.",
        |t, rt, b| Ok(Value::Int(count(rt, t, &b.value(0))?)),
    ),
    MethodSpec::new(
        "index",
        "value, start=0, stop=sys.maxsize, /",
        "Return first index of value.\n\nRaises ValueError if the value is not present.",
        |t, rt, b| match index_in(rt, t, &b)? {
            Some(i) => Ok(Value::Int(i as i64)),
            None => Err(PyErr::value_error("tuple.index(x): x not in tuple")),
        },
    ),
];

pub static DICT: MethodTable<DictRef> = MethodTable {
    owner: "dict",
    methods: &DICT_METHODS,
};

static DICT_METHODS: [MethodSpec<DictRef>; 11] = [
    MethodSpec::new(
        "clear",
        "",
        "Remove all items from the dict.",
        |d, _, _| {
            d.borrow_mut().clear();
            Ok(Value::None)
        },
    ),
    MethodSpec::new(
        "copy",
        "",
        "Return a shallow copy of the dict.",
        |d, _, _| Ok(Value::Dict(Rc::new(RefCell::new(d.borrow().clone())))),
    ),
    MethodSpec::new(
        "fromkeys",
        "iterable, value=None, /",
        "Create a new dictionary with keys from iterable and values set to value.",
        |_, rt, b| {
            let d = Value::Dict(Default::default());
            for k in rt.iterate(&b.value(0))? {
                ops::set_item(rt, &d, &k, b.value(1))?;
            }
            Ok(d)
        },
    ),
    MethodSpec::new(
        "get",
        "key, default=None, /",
        "Return the value for key if key is in the dictionary, else default.",
        |d, rt, b| {
            let key = b.value(0);
            ops::check_hashable(rt, &key)?;
            Ok(ops::dict_lookup(rt, d, &key)?.unwrap_or_else(|| b.value(1)))
        },
    ),
    MethodSpec::new(
        "items",
        "",
        "The (key, value) pairs of the dict.",
        |d, _, _| {
            Ok(Value::list(
                d.borrow()
                    .iter()
                    .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
                    .collect(),
            ))
        },
    ),
    MethodSpec::new(
        "keys",
        "",
        "The keys of the dict.",
        |d, _, _| Ok(Value::list(d.borrow().keys())),
    ),
    MethodSpec::new(
        "pop",
        "key, default=<unrepresentable>, /",
        "Remove the key and return its value; without the key, return default if given, else raise KeyError.",
        |d, rt, b| {
            let key = b.value(0);
            ops::check_hashable(rt, &key)?;
            if let Some(v) = crate::interp::subscript::dict_remove(rt, d, &key)? {
                return Ok(v);
            }
            b.get(1).cloned().ok_or_else(|| {
                PyErr::key_error(crate::interp::repr::repr(rt, &key).unwrap_or_default())
            })
        },
    ),
    MethodSpec::new(
        "popitem",
        "",
        "Remove and return a (key, value) pair as a 2-tuple.\n\nPairs are returned in LIFO (last-in, first-out) order. Raises KeyError if the dict is empty.",
        |d, _, _| {
            let last = d.borrow_mut().pop_last();
            match last {
                Some((k, v)) => Ok(Value::tuple(vec![k, v])),
                None => Err(PyErr::key_error("'popitem(): dictionary is empty'")),
            }
        },
    ),
    MethodSpec::new(
        "setdefault",
        "key, default=None, /",
        "Insert key with a value of default if key is not in the dictionary.\n\nReturn the value for key if key is in the dictionary, else default.",
        |d, rt, b| {
            let key = b.value(0);
            ops::check_hashable(rt, &key)?;
            if let Some(v) = ops::dict_lookup(rt, d, &key)? {
                return Ok(v);
            }
            let v = b.value(1);
            ops::dict_store(rt, d, key, v.clone())?;
            Ok(v)
        },
    ),
    MethodSpec::new(
        "update",
        "other=(), /, **kwds",
        "Update the dict from a mapping or an iterable of pairs, then from the keywords.",
        dict_update,
    ),
    MethodSpec::new(
        "values",
        "",
        "The values of the dict.",
        |d, _, _| Ok(Value::list(d.borrow().values())),
    ),
];

fn dict_update(d: &DictRef, rt: &mut Runtime, b: Bound) -> PyResult<Value> {
    let mapping = b.get(0).and_then(crate::interp::collections_dicts::dict_of);
    let user = match b.get(0) {
        Some(src) => crate::interp::collections_dicts::user_mapping_items(rt, src)?,
        None => None,
    };
    let items = match (mapping, b.get(0)) {
        (Some(o), _) => o.borrow().items(),
        (None, Some(_)) if user.is_some() => user.unwrap_or_default(),
        (None, Some(other)) => {
            let mut pairs = Vec::new();
            for item in rt.iterate(other)? {
                match rt.iterate(&item)?.as_slice() {
                    [k, v] => pairs.push((k.clone(), v.clone())),
                    _ => return Err(PyErr::value_error(
                        "dictionary update sequence element has the wrong length; 2 is required",
                    )),
                }
            }
            pairs
        }
        (None, None) => Vec::new(),
    };
    for (k, v) in items {
        ops::dict_store(rt, d, k, v)?;
    }
    for (k, v) in b.kw {
        ops::dict_store(rt, d, Value::Str(k), v)?;
    }
    Ok(Value::None)
}
