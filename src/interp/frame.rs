//! Execution frames: where names live while a cell or a function body runs, and how errors
//! get their source positions.

use std::rc::Rc;

use ruff_text_size::TextRange;

use crate::py::error::Frame;
use crate::py::error::PyErr;
use crate::py::function::{NameSet, Scope};
use crate::py::value::Value;

/// Control flow out of a statement.
pub enum Flow {
    Normal,
    Break,
    Continue,
    Return(Value),
}

/// What kind of code a frame runs, for the two things that depend on it.
#[derive(Clone, Default)]
pub enum ScopeKind {
    /// A cell, a function body, `exec`.
    #[default]
    Plain,
    /// A class body: functions defined here are methods (they do not see the class
    /// namespace as a closure, and their qualname is `Class.method`).
    ClassBody { qualname: String },
    /// A method body: zero-argument `super()` uses the defining class and the first
    /// parameter.
    Method {
        class: Value,
        self_param: ruff_python_ast::name::Name,
    },
}

/// Bind `name` in `scope`, reusing the key when the name is already bound (loops rebind
/// the same names on every iteration), else taking it from `keys` (a function body's own
/// local names) so that a call's first bindings allocate no names.
fn bind(scope: &Scope, name: &str, value: Value, keys: Option<&NameSet>) {
    let mut names = scope.borrow_mut();
    let old = match names.get_mut(name) {
        Some(slot) => Some(std::mem::replace(slot, value)),
        None => {
            let key = keys.and_then(|k| k.get(name)).cloned();
            names.insert(key.unwrap_or_else(|| name.into()), value)
        }
    };
    // The old value goes after the borrow ends: dropping it may reach this scope again.
    drop(names);
    drop(old);
}

/// Attach a frame's position to an error, once per frame: the innermost node that
/// locates it wins, and a frame already named by the error's last entry adds nothing.
pub fn locate_in(
    origin: &Rc<str>,
    fname: &Rc<str>,
    source: &Rc<str>,
    mut err: PyErr,
    range: TextRange,
) -> PyErr {
    let same = err.frames.last().is_some_and(|f| {
        *f.origin == **origin && *f.function == **fname && Rc::ptr_eq(&f.source, source)
    });
    if !same {
        err.frames.push(Frame {
            origin: origin.to_string(),
            source: source.clone(),
            start: range.start().to_usize(),
            end: range.end().to_usize(),
            function: fname.to_string(),
        });
    }
    err
}

/// One activation: a cell (module level) or a function call.
pub struct Ctx {
    /// Function locals; None at module level, where globals are the locals.
    pub locals: Option<Scope>,
    pub globals: Scope,
    /// Enclosing function scopes, innermost first.
    pub enclosing: Vec<Scope>,
    pub declared_global: crate::py::function::NameSet,
    pub declared_nonlocal: crate::py::function::NameSet,
    /// A function body's local names: these never fall through to enclosing scopes or
    /// globals. None outside function bodies.
    pub static_locals: Option<Rc<crate::py::function::NameSet>>,
    /// The source the AST ranges index into.
    pub source: Rc<str>,
    /// `Cell In[3]`.
    pub origin: Rc<str>,
    /// `<module>` or the function's name.
    pub fname: Rc<str>,
    /// Exceptions being handled (for bare `raise`), innermost last.
    pub handling: Vec<PyErr>,
    pub kind: ScopeKind,
}

impl Ctx {
    /// A module-level frame: `globals` are its locals, nothing encloses it, no exception
    /// is being handled.
    pub fn module(globals: Scope, source: Rc<str>, origin: Rc<str>) -> Ctx {
        Ctx {
            locals: None,
            globals,
            enclosing: Vec::new(),
            declared_global: Default::default(),
            declared_nonlocal: Default::default(),
            static_locals: None,
            source,
            origin,
            fname: "<module>".into(),
            handling: Vec::new(),
            kind: Default::default(),
        }
    }

    /// A fresh local scope nested in this one (comprehensions, `%timeit` bodies): names
    /// bound inside stay local, while this scope's locals and enclosing scopes stay
    /// visible as closures see them.
    pub fn nested_scope(&self) -> Ctx {
        let mut enclosing: Vec<Scope> = self.locals.iter().cloned().collect();
        enclosing.extend(self.enclosing.iter().cloned());
        Ctx {
            locals: Some(Default::default()),
            globals: self.globals.clone(),
            enclosing,
            declared_global: Default::default(),
            declared_nonlocal: Default::default(),
            static_locals: None,
            source: self.source.clone(),
            origin: self.origin.clone(),
            fname: self.fname.clone(),
            handling: Vec::new(),
            kind: match &self.kind {
                ScopeKind::Method { .. } => self.kind.clone(),
                _ => ScopeKind::Plain,
            },
        }
    }

    /// Attach this frame's position to an error, once per frame.
    pub fn locate(&self, err: PyErr, range: TextRange) -> PyErr {
        locate_in(&self.origin, &self.fname, &self.source, err, range)
    }

    pub fn lookup(&self, name: &str) -> Option<Value> {
        if let Some(l) = &self.locals {
            // A bound local is found with one hash. A body's own locals are never declared
            // global (`scopes::local_names` leaves those out), so this finds what the
            // static-local check would.
            if !self.declared_global.contains(name) {
                if let Some(v) = l.borrow().get(name) {
                    return Some(v.clone());
                }
            }
            if self.is_static_local(name) {
                return None;
            }
        }
        for s in &self.enclosing {
            if let Some(v) = s.borrow().get(name) {
                return Some(v.clone());
            }
        }
        self.globals.borrow().get(name).cloned()
    }

    /// Whether `name` is one of the function body's own locals.
    pub fn is_static_local(&self, name: &str) -> bool {
        self.static_locals
            .as_ref()
            .is_some_and(|s| s.contains(name))
    }

    pub fn assign(&self, name: &str, value: Value) {
        if self.declared_nonlocal.contains(name) {
            for s in &self.enclosing {
                if s.borrow().contains_key(name) {
                    s.borrow_mut().insert(name.into(), value);
                    return;
                }
            }
        }
        match &self.locals {
            Some(l) if !self.declared_global.contains(name) => {
                bind(l, name, value, self.static_locals.as_deref())
            }
            _ => {
                bind(&self.globals, name, value, None);
            }
        }
    }

    /// Remove a binding; false when it did not exist.
    pub fn delete(&self, name: &str) -> bool {
        match &self.locals {
            Some(l) if !self.declared_global.contains(name) => {
                l.borrow_mut().shift_remove(name).is_some()
            }
            _ => self.globals.borrow_mut().shift_remove(name).is_some(),
        }
    }
}
