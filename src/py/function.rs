//! User-defined functions (`def` and `lambda`): what the interpreter calls and what the
//! kernel compiler lowers.

use std::cell::RefCell;
use std::rc::Rc;

use ruff_python_ast as ast;

use crate::py::value::Value;

/// The table under [`Names`]: insertion-ordered, as CPython's namespaces are (`globals()`
/// lists names in the order they were bound), with stable positions a site can remember
/// ([`NameCache`]). FxHash rather than SipHash: every name lookup and assignment hashes
/// here, and the keys are the program's own identifiers (no flooding to defend against;
/// user dict keys live in `py::dict`).
pub type NameMap = indexmap::IndexMap<Rc<str>, Value, rustc_hash::FxBuildHasher>;

/// Names bound in one scope, with two stamps: `stamp` changes whenever the table may have
/// changed (every mutable access takes a fresh one, so no write — a store, `del`, a `def`,
/// an import, `exec` — can leave it stale), `layout` whenever a name may have been added,
/// removed or moved (every mutable access but [`Names::set_cached`]'s rebinding of a name
/// in place). Stamps are never reused, by any table, so an unchanged stamp proves the same
/// contents, and an unchanged layout the same name at each position: a call site that
/// found its callee here checks one integer instead of hashing the name again, and a
/// cell's global reads and writes go straight to the name's position.
pub struct Names {
    map: NameMap,
    stamp: u64,
    layout: u64,
}

/// Where a name was last found in a [`Names`] table, with that table's layout stamp then.
/// One per site of a compiled cell that reads or binds a global name.
#[derive(Default)]
pub struct NameCache(std::cell::Cell<(u64, usize)>);

/// A stamp no table has had.
fn fresh_stamp() -> u64 {
    thread_local! {
        static NEXT: std::cell::Cell<u64> = const { std::cell::Cell::new(1) };
    }
    NEXT.with(|n| {
        let s = n.get();
        n.set(s + 1);
        s
    })
}

impl Names {
    pub fn with_capacity(n: usize) -> Names {
        // bounded: callers size it by a body's own local names, which the parser bounds
        Names::from(NameMap::with_capacity_and_hasher(n, Default::default()))
    }

    /// Equal stamps (read while the scope was not borrowed mutably) mean equal contents.
    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    /// The value bound to `name`, found at the position `cache` remembers while the
    /// layout is unchanged (no hashing), else looked up and remembered — its absence too
    /// (a builtin read from a cell looks here first on every read).
    pub fn get_cached(&self, name: &str, cache: &NameCache) -> Option<&Value> {
        let (layout, i) = cache.0.get();
        if layout == self.layout {
            return self.map.get_index(i).map(|(_, v)| v);
        }
        match self.map.get_full(name) {
            Some((i, _, v)) => {
                cache.0.set((self.layout, i));
                Some(v)
            }
            None => {
                cache.0.set((self.layout, usize::MAX));
                None
            }
        }
    }

    /// Bind `name` to `value`, in place at the position `cache` remembers while the layout
    /// is unchanged; returns the value it replaces (to be dropped after the borrow ends).
    pub fn set_cached(&mut self, name: &Rc<str>, value: Value, cache: &NameCache) -> Option<Value> {
        self.stamp = fresh_stamp();
        let (layout, i) = cache.0.get();
        if layout == self.layout {
            if let Some((_, slot)) = self.map.get_index_mut(i) {
                return Some(std::mem::replace(slot, value));
            }
        }
        if let Some((i, _, slot)) = self.map.get_full_mut(&**name) {
            cache.0.set((self.layout, i));
            return Some(std::mem::replace(slot, value));
        }
        let (i, _) = self.map.insert_full(name.clone(), value);
        self.layout = fresh_stamp();
        cache.0.set((self.layout, i));
        None
    }
}

impl From<NameMap> for Names {
    fn from(map: NameMap) -> Names {
        Names {
            map,
            stamp: fresh_stamp(),
            layout: fresh_stamp(),
        }
    }
}

impl Default for Names {
    fn default() -> Names {
        Names::from(NameMap::default())
    }
}

impl Clone for Names {
    fn clone(&self) -> Names {
        Names::from(self.map.clone())
    }
}

impl std::ops::Deref for Names {
    type Target = NameMap;
    fn deref(&self) -> &NameMap {
        &self.map
    }
}

impl std::ops::DerefMut for Names {
    fn deref_mut(&mut self) -> &mut NameMap {
        self.stamp = fresh_stamp();
        self.layout = fresh_stamp();
        &mut self.map
    }
}

impl FromIterator<(Rc<str>, Value)> for Names {
    fn from_iter<I: IntoIterator<Item = (Rc<str>, Value)>>(iter: I) -> Names {
        Names::from(NameMap::from_iter(iter))
    }
}

impl IntoIterator for Names {
    type Item = (Rc<str>, Value);
    type IntoIter = indexmap::map::IntoIter<Rc<str>, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.map.into_iter()
    }
}

impl<'a> IntoIterator for &'a Names {
    type Item = (&'a Rc<str>, &'a Value);
    type IntoIter = indexmap::map::Iter<'a, Rc<str>, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.map.iter()
    }
}

/// A variable scope (module globals, or a function's locals captured by a closure).
pub type Scope = Rc<RefCell<Names>>;
/// A set of names (a function's locals), hashed like [`Names`]: every name a function body
/// reads is checked against it.
pub type NameSet = rustc_hash::FxHashSet<Rc<str>>;

/// The names a function body declares `global` and `nonlocal`.
#[derive(Default)]
pub struct Declarations {
    pub global: NameSet,
    pub nonlocal: NameSet,
}

/// A Python function defined in a cell.
pub struct Function {
    /// Shared with every call's frame (tracebacks name it).
    pub name: Rc<str>,
    /// `outer.<locals>.inner` for nested functions, as Python's `__qualname__`.
    pub qualname: String,
    /// The `def` statement (for `lambda`, a synthesised def whose body is `return <expr>`).
    /// Text ranges index into `source`.
    pub def: Rc<ast::StmtFunctionDef>,
    /// The whole source of the cell the function was defined in.
    pub source: Rc<str>,
    /// Where it was defined, as tracebacks print it: `Cell In[3]`.
    pub origin: Rc<str>,
    /// The module globals the function sees.
    pub globals: Scope,
    /// Enclosing function scopes (closures), innermost first.
    pub enclosing: Vec<Scope>,
    /// Default values of positional-or-keyword parameters, aligned to the last parameters.
    pub defaults: Vec<Value>,
    /// Defaults of keyword-only parameters.
    pub kw_defaults: Vec<(String, Value)>,
    pub doc: Option<String>,
    /// The class whose body defined this function (CPython's `__class__` cell), set when
    /// the class is created; zero-argument `super()` reads it. Weak: the class holds the
    /// function.
    pub class_cell: std::cell::RefCell<Option<std::rc::Weak<dyn crate::py::value::Object>>>,
    /// The body contains `yield`: calling the function makes a generator.
    pub is_generator: bool,
    /// The names local to the body (parameters and what it binds, less `global` and
    /// `nonlocal` ones), decided once at definition.
    pub local_names: Rc<NameSet>,
    /// The body's `global` and `nonlocal` names, decided once at definition.
    pub declared: Rc<Declarations>,
    /// The function's `__dict__`: attributes set on it (`f.calls = 0`, `__wrapped__`),
    /// and `__name__`/`__qualname__`/`__doc__`/`__module__` once reassigned (as
    /// `functools.wraps` does; those are not part of `__dict__`).
    pub attrs: RefCell<Vec<(String, Value)>>,
    /// The body compiled for the interpreter's fast path on first call (an
    /// `interp::slots::Code`; `py` cannot name it), or None when the walker runs it.
    pub compiled: std::cell::OnceCell<Option<Rc<dyn std::any::Any>>>,
}

impl Function {
    /// Resolve a free name as the function body would see it: enclosing scopes, then
    /// globals. Builtins are not included (None means "a builtin or undefined").
    pub fn lookup(&self, name: &str) -> Option<Value> {
        for scope in &self.enclosing {
            if let Some(v) = scope.borrow().get(name) {
                return Some(v.clone());
            }
        }
        self.globals.borrow().get(name).cloned()
    }

    /// The parameter names, in order.
    pub fn param_names(&self) -> Vec<String> {
        let p = &self.def.parameters;
        p.posonlyargs
            .iter()
            .chain(p.args.iter())
            .map(|a| a.parameter.name.id.to_string())
            .chain(p.vararg.iter().map(|a| a.name.id.to_string()))
            .chain(p.kwonlyargs.iter().map(|a| a.parameter.name.id.to_string()))
            .chain(p.kwarg.iter().map(|a| a.name.id.to_string()))
            .collect()
    }

    /// The source text of the `def` (decorators excluded).
    pub fn def_source(&self) -> &str {
        use ruff_text_size::Ranged;
        let r = self.def.range();
        &self.source[r.start().to_usize()..r.end().to_usize().min(self.source.len())]
    }
}

impl Function {
    /// An attribute set on the function, if any.
    pub fn attr(&self, name: &str) -> Option<Value> {
        self.attrs
            .borrow()
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    }
}

impl crate::py::value::Object for Function {
    fn hashed_by_identity(&self) -> bool {
        true
    }
    fn type_name(&self) -> String {
        "function".into()
    }
    fn repr(&self, _rt: &mut crate::py::runtime::Runtime) -> crate::py::error::PyResult<String> {
        let qualname = match &self.attr("__qualname__") {
            Some(Value::Str(q)) => q.to_string(),
            _ => self.qualname.clone(),
        };
        Ok(format!(
            "<function {} at {:#x}>",
            qualname, self as *const Self as usize
        ))
    }
    fn get_attr(
        self: Rc<Self>,
        name: &str,
        _rt: &mut crate::py::runtime::Runtime,
    ) -> crate::py::error::PyResult<Option<Value>> {
        if let Some(v) = self.attr(name) {
            return Ok(Some(v));
        }
        Ok(match name {
            "__module__" => Some(match self.globals.borrow().get("__name__") {
                Some(v @ Value::Str(_)) => v.clone(),
                _ => Value::str("__main__"),
            }),
            "__dict__" => {
                let mut d = crate::py::dict::Dict::default();
                for (k, v) in self.attrs.borrow().iter() {
                    if !matches!(
                        k.as_str(),
                        "__name__" | "__qualname__" | "__doc__" | "__module__"
                    ) {
                        d.insert_str(k, v.clone());
                    }
                }
                Some(Value::Dict(Rc::new(RefCell::new(d))))
            }
            _ => None,
        })
    }
    fn set_attr(
        &self,
        name: &str,
        value: Value,
        _rt: &mut crate::py::runtime::Runtime,
    ) -> crate::py::error::PyResult<bool> {
        if matches!(name, "__name__" | "__qualname__") && !matches!(value, Value::Str(_)) {
            return Err(crate::py::error::PyErr::type_error(format!(
                "{name} must be set to a string object"
            )));
        }
        if name == "__dict__" {
            return Ok(false);
        }
        let mut attrs = self.attrs.borrow_mut();
        match attrs.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value,
            None => attrs.push((name.to_string(), value)),
        }
        Ok(true)
    }
    fn call(
        self: Rc<Self>,
        args: crate::py::value::Args,
        rt: &mut crate::py::runtime::Runtime,
    ) -> crate::py::error::PyResult<Value> {
        rt.call(&Value::Object(self), args)
    }
    fn doc(&self) -> Option<(String, String)> {
        let params = self.param_names().join(", ");
        let doc = match &self.attr("__doc__") {
            Some(Value::Str(d)) => d.to_string(),
            Some(_) => String::new(),
            None => self.doc.clone().unwrap_or_default(),
        };
        Some((format!("{}({})", self.name, params), doc))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
