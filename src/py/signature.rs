//! Python parameter lists, parsed once and used to bind a call's arguments by name with
//! the TypeErrors of the kind of callable being imitated. Both the method tables
//! ([`crate::py::methods`]) and declared module functions ([`crate::py::value::Module::def`])
//! bind through here, so a signature is written once and serves `?` and binding alike.
//!
//! A signature is a Python parameter list: `"sep=None, maxsplit=-1"`, `"value, /"`,
//! `"*, key=None, reverse=False"`, `"*others"`, `"other=(), /, **kwds"`. A default that is a
//! literal (`None`, `True`, `False`, a number or a quoted string) is filled in when the
//! argument is not given; any other default (`sys.maxsize`, `()`, `float`) leaves the slot
//! empty so the body picks its own.

use std::ops::Deref;
use std::rc::Rc;

use crate::py::error::{PyErr, PyResult};
use crate::py::value::{Args, Value};

/// Which family of TypeError messages a callable's argument errors take: those of a C
/// function built by Argument Clinic (`list.insert`, `str.split`, `math.isclose`), those of
/// the older `PyArg_ParseTuple` ones (`str.find`, `str.startswith`), those `Args::bind`
/// gives for methods written in Python (Numba's device arrays), those of a function
/// written in Python (`np.linspace`, `np.ones`: CPython's own binding), those of NumPy's
/// C argument parser (`np.zeros`, `np.array`: `npy_parse_arguments`), those of a
/// Cython function (`np.random.normal`), or those of a C type's constructor built by
/// Argument Clinic (`itertools.cycle`: positional-only ones are checked by
/// `_PyArg_NoKeywords` and `_PyArg_CheckPositional`, which name no owner).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    Clinic,
    ParseTuple,
    Python,
    Function,
    NumpyC,
    Cython,
    ClinicNew,
}

/// The arguments of one call, bound to a signature.
pub struct Bound {
    /// One slot per named parameter, in signature order: the argument given, else the
    /// literal default, else None. (For a module function's styles a `None` default
    /// stays None, the empty slot.)
    pub slots: Vec<Option<Value>>,
    /// Positional arguments past the named ones (`*args`).
    pub rest: Vec<Value>,
    /// Keyword arguments matching no named parameter (`**kwargs`), in call order.
    pub kw: Vec<(Rc<str>, Value)>,
}

impl Deref for Bound {
    type Target = [Option<Value>];
    fn deref(&self) -> &[Option<Value>] {
        &self.slots
    }
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
    /// The arguments past the named ones, as a call to forward to a callable that binds
    /// them itself (a `*args, **kwargs` wrapper such as `plt.plot` over `Axes.plot`).
    pub fn forward(self) -> Args {
        Args {
            pos: self.rest,
            kw: self.kw,
        }
    }
    /// The call rebuilt for a decorator that sorts out its own options: the named slots
    /// given (as positionals, up to the first empty one), the rest, and the keywords. For
    /// a signature such as `func_or_sig=None, **kws`, whose first parameter may come by
    /// name.
    pub fn forward_all(self) -> Args {
        let mut pos: Vec<Value> = self.slots.into_iter().map_while(|s| s).collect();
        pos.extend(self.rest);
        Args { pos, kw: self.kw }
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

/// A parameter list less its first parameter: a method's, from the module function that
/// takes the array first (`"a, axis=None"` gives `"axis=None"`).
pub const fn after_first(sig: &'static str) -> &'static str {
    let b = sig.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b',' {
            // The parameter after the comma, without the spaces that follow it.
            let mut j = i + 1;
            while j < b.len() && b[j] == b' ' {
                j += 1;
            }
            return sig.split_at(j).1;
        }
        i += 1;
    }
    ""
}

pub struct Params {
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
    pub fn parse(sig: &'static str) -> Params {
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

    /// The slot of the named parameter `name`, as [`Bound::get`] reads it.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }
    /// The named parameters in slot order, each with whether it is keyword-only.
    pub fn names(&self) -> impl Iterator<Item = (&'static str, bool)> + '_ {
        self.params.iter().map(|p| (p.name, p.kind == Kind::KwOnly))
    }

    fn positional(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| p.kind != Kind::KwOnly)
    }

    /// Bind a call's arguments; `owner` is the type or module name that CPython puts in
    /// some messages (`list.append() takes ...`, `math.sqrt() takes ...`).
    pub fn bind(&self, style: Style, owner: &str, name: &str, args: Args) -> PyResult<Bound> {
        match style {
            Style::Function => self.check_function(name, &args)?,
            Style::NumpyC => self.check_numpy(name, &args)?,
            Style::Cython => self.check_cython(name, &args)?,
            _ => {}
        }
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
        if matches!(style, Style::Function | Style::NumpyC | Style::Cython) {
            // Checked above.
        } else if style == Style::Python {
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
            let new = style == Style::ClinicNew;
            if !args.kw.is_empty() {
                return err(if new {
                    format!("{name}() takes no keyword arguments")
                } else {
                    format!("{owner}.{name}() takes no keyword arguments")
                });
            }
            let (few, many) = (n < minpos, n > maxpos && !self.varargs);
            if !new && maxpos == 0 && !self.varargs && many {
                return err(format!("{owner}.{name}() takes no arguments ({n} given)"));
            }
            if !new && maxpos == 1 && minpos == 1 && !self.varargs && (few || many) {
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
        // A module function's body treats an absent argument as its None default, so
        // only the other literals are filled in for it.
        let fill_none = !matches!(style, Style::Function | Style::NumpyC | Style::Cython);
        self.fill(name, args, fill_none)
    }

    /// Place the (already checked) arguments in their slots and fill the defaults.
    fn fill(&self, name: &str, args: Args, fill_none: bool) -> PyResult<Bound> {
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
            match &p.default {
                Some(LitDefault::None) if !fill_none => {}
                Some(d) if slot.is_none() => *slot = Some(d.value()),
                _ => {}
            }
        }
        Ok(Bound { slots, rest, kw })
    }
    /// Whether the call gives parameter `i`, by position or by name (a positional-only
    /// one only by position: its name as a keyword belongs to `**kwargs`).
    fn given(&self, args: &Args, i: usize) -> bool {
        let p = &self.params[i];
        (i < args.pos.len() && p.kind != Kind::KwOnly)
            || (p.kind != Kind::PosOnly && args.kw.iter().any(|(k, _)| &**k == p.name))
    }

    /// CPython's binding of a function written in Python (`ceval.c`'s order): keyword
    /// errors in call order, then surplus positionals, then missing arguments.
    fn check_function(&self, name: &str, args: &Args) -> PyResult<()> {
        let err = |m: String| Err(PyErr::type_error(m));
        let n = args.pos.len();
        let given_pos = |i: usize| i < n && self.params[i].kind != Kind::KwOnly;
        for (k, _) in &args.kw {
            match self.params.iter().position(|p| p.name == &**k) {
                Some(i) if self.params[i].kind == Kind::PosOnly => {
                    if self.varkw {
                        continue;
                    }
                    let names: Vec<String> = args
                        .kw
                        .iter()
                        .filter(|(k, _)| {
                            self.params
                                .iter()
                                .any(|p| p.kind == Kind::PosOnly && p.name == &**k)
                        })
                        .map(|(k, _)| format!("'{k}'"))
                        .collect();
                    return err(format!(
                        "{name}() got some positional-only arguments passed as keyword arguments: {}",
                        names.join(", ")
                    ));
                }
                Some(i) if given_pos(i) => {
                    return err(format!("{name}() got multiple values for argument '{k}'"))
                }
                Some(_) => {}
                None if self.varkw => {}
                None => return err(format!("{name}() got an unexpected keyword argument '{k}'")),
            }
        }
        let maxpos = self.positional().count();
        let minpos = self.positional().filter(|p| !p.optional).count();
        let by_name = |p: &Param| args.kw.iter().any(|(k, _)| &**k == p.name);
        if n > maxpos && !self.varargs {
            let takes = if minpos < maxpos {
                format!("from {minpos} to {maxpos} positional arguments")
            } else {
                format!("{maxpos} positional argument{}", plural(maxpos))
            };
            let kwonly = self
                .params
                .iter()
                .filter(|p| p.kind == Kind::KwOnly && by_name(p))
                .count();
            let given = if kwonly > 0 {
                format!(
                    "{n} positional argument{} (and {kwonly} keyword-only argument{}) were",
                    plural(n),
                    plural(kwonly)
                )
            } else if n == 1 {
                "1 was".to_string()
            } else {
                format!("{n} were")
            };
            return err(format!("{name}() takes {takes} but {given} given"));
        }
        for (kind, word) in [(false, "positional"), (true, "keyword-only")] {
            let missing: Vec<String> = self
                .params
                .iter()
                .enumerate()
                .filter(|(i, p)| {
                    (p.kind == Kind::KwOnly) == kind && !p.optional && !self.given(args, *i)
                })
                .map(|(_, p)| format!("'{}'", p.name))
                .collect();
            if !missing.is_empty() {
                let list = match missing.as_slice() {
                    [one] => one.clone(),
                    [a, b] => format!("{a} and {b}"),
                    [init @ .., last] => format!("{}, and {last}", init.join(", ")),
                    [] => String::new(),
                };
                return err(format!(
                    "{name}() missing {} required {word} argument{}: {list}",
                    missing.len(),
                    plural(missing.len())
                ));
            }
        }
        Ok(())
    }

    /// NumPy's C argument parser (`npy_parse_arguments`): positionals are counted first,
    /// then each keyword is placed, then the required arguments are checked; positions in
    /// its messages count from 0.
    fn check_numpy(&self, name: &str, args: &Args) -> PyResult<()> {
        let err = |m: String| Err(PyErr::type_error(m));
        let n = args.pos.len();
        let maxpos = self.positional().count();
        let minpos = self.positional().filter(|p| !p.optional).count();
        if n > maxpos && !self.varargs {
            return err(if minpos == maxpos {
                format!("{name}() takes {maxpos} positional arguments but {n} were given")
            } else {
                format!(
                    "{name}() takes from {minpos} to {maxpos} positional arguments but {n} were given"
                )
            });
        }
        self.check_keywords(name, args, |k, i| {
            format!("argument for {name}() given by name ('{k}') and position (position {i})")
        })?;
        for (i, p) in self.params.iter().enumerate() {
            if !p.optional && !self.given(args, i) {
                return err(format!(
                    "{name}() missing required argument '{}' (pos {i})",
                    p.name
                ));
            }
        }
        Ok(())
    }
    /// Each keyword names a parameter not already filled by position (`twice` words that
    /// error, given the keyword and the position), or lands in `**kwargs`.
    fn check_keywords(
        &self,
        name: &str,
        args: &Args,
        twice: impl Fn(&str, usize) -> String,
    ) -> PyResult<()> {
        let n = args.pos.len();
        for (k, _) in &args.kw {
            match self
                .params
                .iter()
                .position(|p| p.kind != Kind::PosOnly && p.name == &**k)
            {
                Some(i) if i < n && self.params[i].kind != Kind::KwOnly => {
                    return Err(PyErr::type_error(twice(k, i)))
                }
                Some(_) => {}
                None if self.varkw => {}
                None => {
                    return Err(PyErr::type_error(format!(
                        "{name}() got an unexpected keyword argument '{k}'"
                    )))
                }
            }
        }
        Ok(())
    }
    /// Cython's argument parsing: surplus positionals first, then each keyword, then the
    /// required arguments, which it reports as a count of positionals.
    fn check_cython(&self, name: &str, args: &Args) -> PyResult<()> {
        let err = |m: String| Err(PyErr::type_error(m));
        let n = args.pos.len();
        let maxpos = self.positional().count();
        let minpos = self.positional().filter(|p| !p.optional).count();
        let count = |at: &str, k: usize| {
            format!(
                "{name}() takes {} {k} positional argument{} ({n} given)",
                if minpos == maxpos { "exactly" } else { at },
                plural(k)
            )
        };
        if n > maxpos && !self.varargs {
            return err(count("at most", maxpos));
        }
        self.check_keywords(name, args, |k, _| {
            format!("{name}() got multiple values for keyword argument '{k}'")
        })?;
        let missing =
            (0..self.params.len()).any(|i| !self.params[i].optional && !self.given(args, i));
        if missing {
            return err(count("at least", minpos));
        }
        Ok(())
    }
}
