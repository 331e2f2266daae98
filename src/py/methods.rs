//! Declarative method tables for Python-facing types: each method's name, signature, doc
//! and body are written once, in a [`MethodSpec`], and the table answers attribute lookup
//! (a bound method), `dir()` and completion (the names), `obj.method?` (`name(sig)` and the
//! doc) and argument binding (by name, from the signature, with CPython's TypeErrors).
//!
//! A signature is a Python parameter list: `"sep=None, maxsplit=-1"`, `"value, /"`,
//! `"*, key=None, reverse=False"`, `"*others"`, `"other=(), /, **kwds"`. A default that is a
//! literal (`None`, `True`, `False`, a number or a quoted string) is filled in when the
//! argument is not given; any other default (`sys.maxsize`, `()`) leaves the slot empty so
//! the body picks its own. The signature is parsed on the first call of the method and
//! kept with the spec.

use std::rc::Rc;
use std::sync::OnceLock;

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

/// Which family of TypeError messages the method's argument errors take: those of a C
/// method built by Argument Clinic (`list.insert`, `str.split`), those of the older
/// `PyArg_ParseTuple` methods (`str.find`, `str.startswith`), or those `Args::bind` gives
/// for methods written in Python (Numba's device arrays).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    Clinic,
    ParseTuple,
    Python,
}

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
            params: OnceLock::new(),
            signature: OnceLock::new(),
        }
    }
    /// `name(sig)`, as `obj.method?` shows it.
    pub fn signature(&self) -> &str {
        self.signature
            .get_or_init(|| format!("{}({})", self.name, self.sig))
    }
    fn params(&self) -> &Params {
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
        let mut v: Vec<String> = self.methods.iter().map(|m| m.name.to_string()).collect();
        v.sort();
        v
    }
}

/// The arguments of one call, bound to a signature.
pub struct Bound {
    /// One slot per named parameter, in signature order: the argument given, else the
    /// literal default, else None.
    pub slots: Vec<Option<Value>>,
    /// Positional arguments past the named ones (`*args`).
    pub rest: Vec<Value>,
    /// Keyword arguments matching no named parameter (`**kwargs`), in call order.
    pub kw: Vec<(Rc<str>, Value)>,
}

impl Bound {
    /// The argument in slot `i`, if given or defaulted.
    pub fn get(&self, i: usize) -> Option<&Value> {
        self.slots.get(i).and_then(|v| v.as_ref())
    }
    /// The argument in slot `i`, None when absent.
    pub fn value(&self, i: usize) -> Value {
        self.get(i).cloned().unwrap_or(Value::None)
    }
    /// The argument in slot `i` as an index, when given and not None.
    pub fn index(&self, i: usize) -> PyResult<Option<i64>> {
        match self.get(i) {
            None | Some(Value::None) => Ok(None),
            Some(v) => v.as_index().map(Some),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    PosOnly,
    PosOrKw,
    KwOnly,
}

struct Param {
    name: &'static str,
    kind: Kind,
    /// Whether a default is written (literal or not).
    optional: bool,
    default: Option<LitDefault>,
}

/// A literal default, kept as data so `Params` can live in a static.
#[derive(Clone)]
enum LitDefault {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'static str),
}

impl LitDefault {
    fn parse(s: &'static str) -> Option<LitDefault> {
        match s {
            "None" => return Some(LitDefault::None),
            "True" => return Some(LitDefault::Bool(true)),
            "False" => return Some(LitDefault::Bool(false)),
            _ => {}
        }
        for q in ['\'', '"'] {
            if let Some(inner) = s.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
                return Some(LitDefault::Str(inner));
            }
        }
        if let Ok(i) = s.parse::<i64>() {
            return Some(LitDefault::Int(i));
        }
        s.parse::<f64>().ok().map(LitDefault::Float)
    }
    fn value(&self) -> Value {
        match self {
            LitDefault::None => Value::None,
            LitDefault::Bool(b) => Value::Bool(*b),
            LitDefault::Int(i) => Value::Int(*i),
            LitDefault::Float(f) => Value::Float(*f),
            LitDefault::Str(s) => Value::str(s),
        }
    }
}

struct Params {
    params: Vec<Param>,
    varargs: bool,
    varkw: bool,
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl Params {
    fn parse(sig: &'static str) -> Params {
        let mut out = Params {
            params: Vec::new(),
            varargs: false,
            varkw: false,
        };
        let mut kind = Kind::PosOrKw;
        for item in sig.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if item == "/" {
                for p in &mut out.params {
                    p.kind = Kind::PosOnly;
                }
            } else if item == "*" {
                kind = Kind::KwOnly;
            } else if item.starts_with("**") {
                out.varkw = true;
            } else if item.starts_with('*') {
                out.varargs = true;
                kind = Kind::KwOnly;
            } else {
                let (name, default) = match item.split_once('=') {
                    Some((n, d)) => (n.trim(), Some(d.trim())),
                    None => (item, None),
                };
                out.params.push(Param {
                    name,
                    kind,
                    optional: default.is_some(),
                    default: default.and_then(LitDefault::parse),
                });
            }
        }
        out
    }

    fn positional(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| p.kind != Kind::KwOnly)
    }

    fn bind(&self, style: Style, owner: &str, name: &str, args: Args) -> PyResult<Bound> {
        let n = args.pos.len();
        let maxpos = self.positional().count();
        let minpos = self.positional().filter(|p| !p.optional).count();
        let posonly = self
            .params
            .iter()
            .filter(|p| p.kind == Kind::PosOnly)
            .count();
        let takes_kw = self.varkw || posonly < self.params.len();
        let err = |m: String| Err(PyErr::type_error(m));
        if style == Style::Python {
            if !self.varargs && !self.varkw {
                let names: Vec<String> = self
                    .params
                    .iter()
                    .map(|p| format!("{}{}", p.name, if p.optional { "=" } else { "" }))
                    .collect();
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                args.bind(name, &names)?;
            }
        } else if !takes_kw {
            // Positional-only methods: CPython checks keywords first, then the count.
            if !args.kw.is_empty() {
                return err(format!("{owner}.{name}() takes no keyword arguments"));
            }
            let (few, many) = (n < minpos, n > maxpos && !self.varargs);
            if maxpos == 0 && !self.varargs && many {
                return err(format!("{owner}.{name}() takes no arguments ({n} given)"));
            }
            if maxpos == 1 && minpos == 1 && !self.varargs && (few || many) {
                return err(format!(
                    "{owner}.{name}() takes exactly one argument ({n} given)"
                ));
            }
            if few || many {
                return err(match style {
                    Style::ParseTuple => format!(
                        "{name}() takes {} {} argument{} ({n} given)",
                        if few { "at least" } else { "at most" },
                        if few { minpos } else { maxpos },
                        plural(if few { minpos } else { maxpos }),
                    ),
                    _ => {
                        let k = if few { minpos } else { maxpos };
                        let bound = match (minpos == maxpos, few) {
                            (true, _) => "",
                            (false, true) => "at least ",
                            (false, false) => "at most ",
                        };
                        format!("{name} expected {bound}{k} argument{}, got {n}", plural(k))
                    }
                });
            }
        } else if !self.varargs && !self.varkw {
            // Argument Clinic's keyword parser (`_PyArg_UnpackKeywords`), in its order.
            let maxargs = self.params.len();
            let total = n + args.kw.len();
            if total > maxargs {
                return err(format!(
                    "{name}() takes at most {maxargs} {}argument{} ({total} given)",
                    if n == 0 { "keyword " } else { "" },
                    plural(maxargs)
                ));
            }
            if n > maxpos {
                return err(if maxpos == 0 {
                    format!("{name}() takes no positional arguments")
                } else {
                    format!(
                        "{name}() takes {} {maxpos} positional argument{} ({n} given)",
                        if minpos < maxpos {
                            "at most"
                        } else {
                            "exactly"
                        },
                        plural(maxpos)
                    )
                });
            }
            let minposonly = posonly.min(minpos);
            if n < minposonly {
                return err(format!(
                    "{name}() takes {} {minposonly} positional argument{} ({n} given)",
                    if minposonly < maxpos {
                        "at least"
                    } else {
                        "exactly"
                    },
                    plural(minposonly)
                ));
            }
            for (i, p) in self.params.iter().enumerate().skip(n.max(posonly)) {
                if !p.optional && !args.kw.iter().any(|(k, _)| &**k == p.name) {
                    return err(format!(
                        "{name}() missing required argument '{}' (pos {})",
                        p.name,
                        i + 1
                    ));
                }
            }
            for (i, p) in self.params.iter().enumerate().take(n).skip(posonly) {
                if args.kw.iter().any(|(k, _)| &**k == p.name) {
                    return err(format!(
                        "argument for {name}() given by name ('{}') and position ({})",
                        p.name,
                        i + 1
                    ));
                }
            }
            if let Some((k, _)) = args.kw.iter().find(|(k, _)| {
                !self
                    .params
                    .iter()
                    .any(|p| p.kind != Kind::PosOnly && p.name == &**k)
            }) {
                return err(format!("'{k}' is an invalid keyword argument for {name}()"));
            }
        } else if n > maxpos && !self.varargs {
            return err(format!(
                "{name} expected at most {maxpos} argument{}, got {n}",
                plural(maxpos)
            ));
        }
        self.fill(name, args)
    }

    /// Place the (already checked) arguments in their slots and fill the defaults.
    fn fill(&self, name: &str, args: Args) -> PyResult<Bound> {
        let mut slots: Vec<Option<Value>> = vec![None; self.params.len()];
        let mut pos = args.pos.into_iter();
        let mut rest = Vec::new();
        let npos = self.positional().count();
        for (i, v) in pos.by_ref().enumerate() {
            if i < npos {
                slots[i] = Some(v);
            } else {
                rest.push(v);
            }
        }
        let mut kw = Vec::new();
        for (k, v) in args.kw {
            match self
                .params
                .iter()
                .position(|p| p.kind != Kind::PosOnly && p.name == &*k)
            {
                Some(i) if slots[i].is_some() => {
                    return Err(PyErr::type_error(format!(
                        "{name}() got multiple values for argument '{k}'"
                    )))
                }
                Some(i) => slots[i] = Some(v),
                None => kw.push((k, v)),
            }
        }
        for (slot, p) in slots.iter_mut().zip(&self.params) {
            if slot.is_none() {
                *slot = p.default.as_ref().map(LitDefault::value);
            }
        }
        Ok(Bound { slots, rest, kw })
    }
}
