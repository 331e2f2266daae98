//! Declarative method tables for Python-facing types: each method's name, signature, doc
//! and body are written once, in a [`MethodSpec`], and the table answers attribute lookup
//! (a bound method), `dir()` and completion (the names), `obj.method?` (`name(sig)` and the
//! doc) and argument binding (by name, from the signature, with CPython's TypeErrors).
//!
//! The signature is a Python parameter list (see [`crate::py::signature`]), parsed on the
//! first call of the method and kept with the spec.

use std::sync::OnceLock;

use crate::py::error::PyResult;
use crate::py::runtime::Runtime;
use crate::py::signature::Params;
pub use crate::py::signature::{Bound, Style};
use crate::py::value::{Args, Value};

/// A method body: the receiver, the runtime, and the arguments bound to the signature.
pub type MethodFn<T> = fn(&T, &mut Runtime, Bound) -> PyResult<Value>;

/// One method of a Python-facing type.
pub struct MethodSpec<T: 'static> {
    pub name: &'static str,
    /// The parameter list as Python shows it, without `self`.
    pub sig: &'static str,
    pub doc: &'static str,
    pub call: MethodFn<T>,
    pub style: Style,
    /// The parameter list `?` shows where it differs from the one bound (NumPy documents
    /// `reshape(shape, /, *, order='C')` but takes the shape's integers one by one too).
    shown: Option<&'static str>,
    params: OnceLock<Params>,
    signature: OnceLock<String>,
}

impl<T: 'static> MethodSpec<T> {
    /// A C method whose argument errors are Argument Clinic's.
    pub const fn new(
        name: &'static str,
        sig: &'static str,
        doc: &'static str,
        call: MethodFn<T>,
    ) -> Self {
        Self::styled(Style::Clinic, name, sig, doc, call)
    }
    pub const fn styled(
        style: Style,
        name: &'static str,
        sig: &'static str,
        doc: &'static str,
        call: MethodFn<T>,
    ) -> Self {
        MethodSpec {
            name,
            sig,
            doc,
            call,
            style,
            shown: None,
            params: OnceLock::new(),
            signature: OnceLock::new(),
        }
    }
    /// The same method, shown by `?` with the parameter list `shown`.
    pub const fn showing(mut self, shown: &'static str) -> Self {
        self.shown = Some(shown);
        self
    }
    /// `name(sig)`, as `obj.method?` shows it.
    pub fn signature(&self) -> &str {
        self.signature.get_or_init(|| {
            let sig = self.shown.unwrap_or(self.sig);
            format!("{}({sig})", self.name)
        })
    }
    /// The parsed parameter list that binds the method's arguments.
    pub fn params(&self) -> &Params {
        self.params.get_or_init(|| Params::parse(self.sig))
    }
    /// Bind a call's arguments to the signature; `owner` is the type name used in the
    /// messages that CPython qualifies (`list.append() takes ...`).
    pub fn bind(&self, owner: &str, args: Args) -> PyResult<Bound> {
        self.params().bind(self.style, owner, self.name, args)
    }
}

/// The methods of one type.
pub struct MethodTable<T: 'static> {
    /// The Python type name (`list`, `DeviceNDArray`).
    pub owner: &'static str,
    pub methods: &'static [MethodSpec<T>],
}

impl<T: Clone + 'static> MethodTable<T> {
    pub fn find(&self, name: &str) -> Option<&'static MethodSpec<T>> {
        // Lengths first: most candidates are rejected without reading a byte.
        self.methods
            .iter()
            .find(|m| m.name.len() == name.len() && m.name == name)
    }
    /// The bound method `this.name`, or None when the type has no such method.
    pub fn bound(&'static self, this: &T, name: &str) -> Option<Value> {
        let spec = self.find(name)?;
        let this = this.clone();
        let owner = self.owner;
        Some(Value::builtin_static(
            format!("{owner}.{}", spec.name),
            spec.signature(),
            spec.doc,
            move |rt, args| (spec.call)(&this, rt, spec.bind(owner, args)?),
        ))
    }
    /// The method names, sorted as `dir()` lists them.
    pub fn names(&self) -> Vec<String> {
        self.names_with(&[])
    }
    /// The method names and the type's other attributes `attrs`, sorted as `dir()` lists
    /// them.
    pub fn names_with(&self, attrs: &[&str]) -> Vec<String> {
        let methods = self.methods.iter().map(|m| m.name);
        let mut v: Vec<String> = methods
            .chain(attrs.iter().copied())
            .map(String::from)
            .collect();
        v.sort();
        v
    }
}
