//! Small standard modules notebooks import: `string` (its constants; `capwords` and
//! `Template` are in `string_template.rs`), `copy` (`copy`,
//! `deepcopy`) and the memoising decorators of `functools` (`lru_cache`, `cache`).

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use crate::interp::subscript::{check_hashable, dict_find};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Bound;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Dict, Module, Object, Value};

/// The `string` module's constants.
pub fn string_module() -> Rc<Module> {
    let m = Module::new("string", "Common string constants.");
    let lower = "abcdefghijklmnopqrstuvwxyz";
    let upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let digits = "0123456789";
    let punctuation = r##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"##;
    let whitespace = " \t\n\r\x0b\x0c";
    let letters = format!("{lower}{upper}");
    for (name, v) in [
        ("ascii_lowercase", lower.to_string()),
        ("ascii_uppercase", upper.to_string()),
        ("ascii_letters", letters.clone()),
        ("digits", digits.to_string()),
        ("hexdigits", format!("{digits}abcdefABCDEF")),
        ("octdigits", "01234567".to_string()),
        ("punctuation", punctuation.to_string()),
        ("whitespace", whitespace.to_string()),
        (
            "printable",
            format!("{digits}{letters}{punctuation}{whitespace}"),
        ),
    ] {
        m.set(name, Value::str(&v));
    }
    crate::interp::string_template::register(&m);
    Rc::new(m)
}

// ---- copy -----------------------------------------------------------------------------

/// The `copy` module.
pub fn copy_module() -> Rc<Module> {
    let m = Module::new("copy", "Shallow and deep copies of containers.");
    m.def(Function, "copy", "x", "A shallow copy of x.", |rt, b| {
        shallow(rt, &b.value(0))
    });
    m.def(
        Function,
        "deepcopy",
        "x, memo=None, _nil=[]",
        "A deep copy of x: nested containers are copied too, shared ones once.",
        |rt, b| {
            let mut memo = HashMap::new();
            deep(rt, &b.value(0), &mut memo, 0)
        },
    );
    Rc::new(m)
}

fn unsupported(v: &Value, what: &str) -> PyErr {
    PyErr::not_implemented(format!(
        "copy.{what}() of '{}' objects is not supported in nbcuda",
        v.type_name()
    ))
}

/// Values that are their own copy (immutable, or copied by reference in CPython too).
fn is_atomic(v: &Value) -> bool {
    matches!(
        v,
        Value::None
            | Value::Bool(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::Str(_)
            | Value::Bytes(_)
            | Value::Ellipsis
            | Value::Slice(_)
            | Value::Scalar(_)
            | Value::DType(_)
            | Value::Module(_)
            | Value::Builtin(_)
    ) || v.downcast::<crate::py::function::Function>().is_some()
        || v.type_name() == "type"
}

fn call_method(rt: &mut Runtime, v: &Value, name: &str) -> PyResult<Option<Value>> {
    let m = match crate::interp::attrs::get_attr(rt, v, name) {
        Ok(m) => m,
        Err(e) if e.is_instance(crate::py::exceptions::ExcClass::AttributeError) => {
            return Ok(None)
        }
        Err(e) => return Err(e),
    };
    rt.call(&m, Args::default()).map(Some)
}

fn shallow(rt: &mut Runtime, v: &Value) -> PyResult<Value> {
    Ok(match v {
        Value::List(l) => Value::list(l.borrow().clone()),
        Value::Set(s) => Value::Set(Rc::new(RefCell::new(s.borrow().clone()))),
        Value::Dict(d) => Value::Dict(Rc::new(RefCell::new(d.borrow().clone()))),
        Value::Tuple(_) => v.clone(),
        Value::Array(_) => call_method(rt, v, "copy")?.ok_or_else(|| unsupported(v, "copy"))?,
        v if is_atomic(v) => v.clone(),
        Value::Object(_) => match call_method(rt, v, "__copy__")? {
            Some(c) => c,
            // A plain instance: a new one sharing the attribute values.
            None => match crate::interp::classes::as_instance(v) {
                Some(i) => {
                    let attrs = i.attrs.borrow().clone();
                    Value::Object(crate::interp::classes::clone_instance(&i, attrs))
                }
                None => return Err(unsupported(v, "copy")),
            },
        },
        _ => return Err(unsupported(v, "copy")),
    })
}

/// Deep copies nest as deep as the value; past CPython's recursion limit it raises as
/// CPython does, so the native stack stays bounded.
const MAX_DEPTH: usize = 1000;

fn deep(
    rt: &mut Runtime,
    v: &Value,
    memo: &mut HashMap<usize, Value>,
    depth: usize,
) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(PyErr::new(
            "RecursionError",
            "maximum recursion depth exceeded while calling a Python object",
        ));
    }
    let key = match v {
        Value::List(l) => Rc::as_ptr(l) as *const u8 as usize,
        Value::Dict(d) | Value::Set(d) => Rc::as_ptr(d) as *const u8 as usize,
        Value::Tuple(t) => t.as_ptr() as usize,
        Value::Object(o) => Rc::as_ptr(o) as *const u8 as usize,
        _ => 0,
    };
    if let Some(done) = memo.get(&key) {
        return Ok(done.clone());
    }
    Ok(match v {
        Value::List(l) => {
            // Registered before its items are copied, so a list that contains itself
            // copies to a list that contains the copy.
            let out = Rc::new(RefCell::new(Vec::new()));
            memo.insert(key, Value::List(out.clone()));
            let items = l.borrow().clone();
            for x in &items {
                let c = deep(rt, x, memo, depth + 1)?;
                out.borrow_mut().push(c);
            }
            Value::List(out)
        }
        Value::Set(s) => {
            // Set items are hashable, hence immutable: copying each keeps them distinct.
            let items = s.borrow().keys();
            let mut out = Dict::default();
            for x in &items {
                out.push(deep(rt, x, memo, depth + 1)?, Value::None);
            }
            Value::Set(Rc::new(RefCell::new(out)))
        }
        Value::Dict(d) => {
            let out = Rc::new(RefCell::new(Dict::default()));
            memo.insert(key, Value::Dict(out.clone()));
            let items = d.borrow().items();
            for (k, x) in &items {
                let k = deep(rt, k, memo, depth + 1)?;
                let x = deep(rt, x, memo, depth + 1)?;
                out.borrow_mut().push(k, x);
            }
            Value::Dict(out)
        }
        Value::Tuple(t) => {
            let mut out = Vec::new();
            for x in t.iter() {
                out.push(deep(rt, x, memo, depth + 1)?);
            }
            let copied = Value::tuple(out);
            memo.insert(key, copied.clone());
            copied
        }
        Value::Array(_) => call_method(rt, v, "copy")?.ok_or_else(|| unsupported(v, "deepcopy"))?,
        v if is_atomic(v) => v.clone(),
        Value::Object(_) => match crate::interp::classes::as_instance(v) {
            // A plain instance: a new one whose attributes are deep copies, registered
            // first so that cycles through it copy to cycles through the copy.
            Some(i) if i.class.find("__deepcopy__").is_none() => {
                let copy = crate::interp::classes::clone_instance(&i, Default::default());
                memo.insert(key, Value::Object(copy.clone()));
                let attrs: Vec<(String, Value)> = i
                    .attrs
                    .borrow()
                    .iter()
                    .map(|(k, x)| (k.clone(), x.clone()))
                    .collect();
                for (k, x) in attrs {
                    let c = deep(rt, &x, memo, depth + 1)?;
                    copy.attrs.borrow_mut().insert(k, c);
                }
                Value::Object(copy)
            }
            Some(_) => {
                let m = crate::interp::attrs::get_attr(rt, v, "__deepcopy__")?;
                rt.call(&m, Args::new(vec![Value::Dict(Default::default())]))?
            }
            None => return Err(unsupported(v, "deepcopy")),
        },
        _ => return Err(unsupported(v, "deepcopy")),
    })
}

// ---- functools.lru_cache --------------------------------------------------------------

/// `lru_cache(maxsize=128, typed=False)`, `lru_cache(func)` and `cache(func)`.
pub fn lru_cache(rt: &mut Runtime, b: Bound) -> PyResult<Value> {
    let typed = rt.truthy(&b.value(1))?;
    let maxsize = match &b[0] {
        None => Some(128),
        Some(Value::None) => None,
        Some(f @ (Value::Object(_) | Value::Builtin(_))) => {
            // `@lru_cache` without parentheses: the argument is the function.
            return Ok(wrap(f.clone(), Some(128), typed));
        }
        Some(v) => Some(v.as_index().map_err(|_| {
            PyErr::type_error("Expected first argument to be an integer, a callable, or None")
        })?),
    };
    let maxsize = maxsize.map(|n| n.max(0) as usize);
    Ok(Value::builtin(
        "functools.lru_cache.decorating_function",
        "decorating_function(user_function)",
        "Wrap user_function with the cache.",
        move |_, a| {
            let b = a.bind("decorating_function", &["user_function"])?;
            Ok(wrap(b[0].clone().unwrap_or(Value::None), maxsize, typed))
        },
    ))
}

/// `functools.cache(user_function)`: an unbounded `lru_cache`.
pub fn cache(_rt: &mut Runtime, b: Bound) -> PyResult<Value> {
    Ok(wrap(b.value(0), None, false))
}

fn wrap(func: Value, maxsize: Option<usize>, typed: bool) -> Value {
    Value::object(LruCache {
        func,
        maxsize,
        typed,
        entries: RefCell::new(Dict::default()),
        hits: Cell::new(0),
        misses: Cell::new(0),
    })
}

/// A function wrapped by `lru_cache`: results keyed by the arguments, the least recently
/// used dropped past `maxsize`.
pub struct LruCache {
    func: Value,
    maxsize: Option<usize>,
    /// `typed=True`: arguments of different types are cached apart (1 and 1.0).
    typed: bool,
    /// Oldest first: a hit moves its entry to the end.
    entries: RefCell<Dict>,
    hits: Cell<i64>,
    misses: Cell<i64>,
}

/// Separates positional from keyword arguments in a cache key, as CPython's `kwd_mark`.
const KW_MARK: &str = "\u{0}nbcuda-lru-kwd-mark";

impl Object for LruCache {
    fn type_name(&self) -> String {
        "functools._lru_cache_wrapper".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        crate::interp::repr::repr(rt, &self.func)
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let mut key = args.pos.clone();
        if !args.kw.is_empty() {
            key.push(Value::str(KW_MARK));
            for (k, v) in &args.kw {
                key.push(Value::Str(k.clone()));
                key.push(v.clone());
            }
        }
        if self.typed {
            // As CPython's _make_key: the arguments' types follow them, so the key's
            // length tells calls of different arity apart.
            let types: Vec<Value> = args
                .pos
                .iter()
                .chain(args.kw.iter().map(|(_, v)| v))
                .map(|v| Value::str(&format!("\u{0}type:{}", v.type_name())))
                .collect();
            key.extend(types);
        }
        for k in &key {
            check_hashable(rt, k)?;
        }
        // CPython's key for one int or str argument is the argument itself, so f(1) and
        // f(1.0) are cached apart even untyped (1 != (1.0,)).
        let key = match args.pos.as_slice() {
            [one @ (Value::Int(_) | Value::Str(_))] if !self.typed && args.kw.is_empty() => {
                one.clone()
            }
            _ => Value::tuple(key),
        };
        if let Some(slot) = dict_find(rt, &self.entries, &key)? {
            self.hits.set(self.hits.get() + 1);
            let mut d = self.entries.borrow_mut();
            let Some(v) = d.entry_at(slot).map(|(_, v)| v.clone()) else {
                return Err(PyErr::internal("lru_cache entry vanished"));
            };
            d.move_entry(slot, true);
            return Ok(v);
        }
        self.misses.set(self.misses.get() + 1);
        let v = rt.call(&self.func, args)?;
        if self.maxsize == Some(0) {
            return Ok(v);
        }
        let mut d = self.entries.borrow_mut();
        // A recursive call may have stored this key meanwhile: keep one entry.
        if let Some(Ok(slot)) = d.find_pure(&key) {
            d.remove_at(slot);
        }
        d.push(key, v.clone());
        if let Some(m) = self.maxsize {
            while d.len() > m {
                d.pop_first();
            }
        }
        Ok(v)
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(Some(match name {
            "cache_info" => Value::method(
                &self,
                "cache_info",
                "cache_info()",
                "Hits, misses, maxsize and current size of the cache.",
                |this, rt, _| {
                    let ty = cache_info_type(rt)?;
                    let maxsize = match this.maxsize {
                        Some(m) => Value::Int(m as i64),
                        None => Value::None,
                    };
                    rt.call(
                        &ty,
                        Args::new(vec![
                            Value::Int(this.hits.get()),
                            Value::Int(this.misses.get()),
                            maxsize,
                            Value::Int(this.entries.borrow().len() as i64),
                        ]),
                    )
                },
            ),
            "cache_clear" => Value::method(
                &self,
                "cache_clear",
                "cache_clear()",
                "Empty the cache and reset its statistics.",
                |this, _, _| {
                    this.entries.borrow_mut().clear();
                    this.hits.set(0);
                    this.misses.set(0);
                    Ok(Value::None)
                },
            ),
            "__wrapped__" => self.func.clone(),
            _ => return crate::interp::attrs::get_attr(rt, &self.func, name).map(Some),
        }))
    }
    fn doc(&self) -> Option<(String, String)> {
        match &self.func {
            Value::Object(o) => o.doc(),
            _ => None,
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The `CacheInfo` namedtuple class, made once per session.
fn cache_info_type(rt: &mut Runtime) -> PyResult<Value> {
    #[derive(Default)]
    struct CacheInfoType(Option<Value>);
    if let Some(t) = &rt.state::<CacheInfoType>().0 {
        return Ok(t.clone());
    }
    let m = crate::interp::collections_module::module();
    let nt = m
        .get("namedtuple")
        .ok_or_else(|| PyErr::internal("collections.namedtuple missing"))?;
    let fields = Value::list(
        ["hits", "misses", "maxsize", "currsize"]
            .iter()
            .map(|s| Value::str(s))
            .collect(),
    );
    let t = rt.call(
        &nt,
        Args::new(vec![Value::str("CacheInfo"), fields]).with_kw("module", Value::str("functools")),
    )?;
    rt.state::<CacheInfoType>().0 = Some(t.clone());
    Ok(t)
}
