//! Classes defined in cells: the `class` statement, class objects with their C3 method
//! resolution order, instances, attribute lookup with methods bound to their receiver, and
//! the special methods (`__init__`, `__repr__`, operators, `__len__`, `__iter__`, ...)
//! through which instances take part in Python's protocols. Descriptors, `super()` and
//! `dataclasses` are in `class_tools.rs`.
//!
//! Known differences from CPython: metaclasses only as `metaclasses.rs` describes; no
//! `__new__` on classes or `__getattribute__`; `__slots__` limits an instance's attributes but
//! makes no member descriptors on the class; built-in types other than the
//! exception classes, `object` and `type` cannot be subclassed.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use indexmap::IndexMap;
use ruff_python_ast::{self as ast, Expr, Stmt};

use crate::interp::class_tools::{bind, ClassMethod, Property, StaticMethod};
use crate::interp::frame::{Ctx, ScopeKind};
use crate::interp::metaclasses as meta;
use crate::interp::objects::ExceptionType;
use crate::py::error::{PyErr, PyResult};
use crate::py::exceptions::ExcClass;
use crate::py::function::Function;
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};

/// A class defined by a `class` statement.
pub struct UserClass {
    /// This class's own handle, for the trait methods that only get `&self`.
    this: std::rc::Weak<UserClass>,
    pub name: String,
    pub qualname: String,
    /// `__module__`: the `__name__` of the namespace the class statement ran in.
    pub module: String,
    pub doc: Option<String>,
    /// The direct bases that are cell-defined classes.
    pub bases: Vec<Rc<UserClass>>,
    /// The linearised bases (C3), this class excluded.
    pub mro: Vec<Rc<UserClass>>,
    /// The built-in exception class this class derives from, if it is an exception.
    pub exc_base: Option<ExcClass>,
    /// The namespace, in definition order.
    pub attrs: RefCell<IndexMap<String, Value>>,
    /// Names annotated in the class body, in order (what `@dataclass` makes fields of).
    pub annotations: Vec<String>,
    /// Set by `@dataclass(frozen=True)`: assigning an attribute raises.
    pub frozen: Cell<bool>,
    /// The attribute names an instance may hold when it has no `__dict__` (every class
    /// in the MRO declares `__slots__`, none of them naming `__dict__`); None: it has one.
    pub slots: RefCell<Option<Rc<[String]>>>,
    /// The class's metaclass when it is a cell-defined one (`class C(metaclass=M)`, or
    /// inherited from a base); None means `type`.
    pub metaclass: Option<Rc<UserClass>>,
    /// Whether this class derives from `type`, i.e. is itself a metaclass.
    pub is_type: bool,
}

impl UserClass {
    /// This class as a value, for the trait methods that only get `&self`.
    pub(crate) fn value(&self) -> PyResult<Value> {
        self.this
            .upgrade()
            .map(|c| Value::Object(c))
            .ok_or_else(|| PyErr::internal("class used while being dropped"))
    }

    /// The attribute `name` found along the MRO, unbound.
    pub fn find(&self, name: &str) -> Option<Value> {
        if let Some(v) = self.attrs.borrow().get(name) {
            return Some(v.clone());
        }
        self.mro
            .iter()
            .find_map(|c| c.attrs.borrow().get(name).cloned())
    }

    /// `issubclass(self, other)` among cell-defined classes.
    pub fn is_subclass_of(self: &Rc<Self>, other: &Rc<UserClass>) -> bool {
        Rc::ptr_eq(self, other) || self.mro.iter().any(|c| Rc::ptr_eq(c, other))
    }

    /// The built-in class at the root of this class's hierarchy (`object`, or the
    /// exception class it derives from).
    fn root(&self, rt: &mut Runtime) -> PyResult<Value> {
        match self.exc_base {
            Some(e) => rt.builtin(e.name()),
            None => rt.builtin("object"),
        }
    }

    fn base_values(&self, rt: &mut Runtime) -> PyResult<Value> {
        let mut out: Vec<Value> = self
            .bases
            .iter()
            .map(|b| Value::Object(b.clone()))
            .collect();
        if out.is_empty() {
            out.push(self.root(rt)?);
        }
        Ok(Value::tuple(out))
    }
}

/// An instance of a [`UserClass`].
pub struct Instance {
    /// This instance's own handle, for the trait methods that only get `&self`.
    this: std::rc::Weak<Instance>,
    pub class: Rc<UserClass>,
    pub attrs: RefCell<IndexMap<String, Value>>,
    /// `BaseException.args`, for instances of exception classes.
    pub exc_args: RefCell<Vec<Value>>,
}

/// The cell-defined class `v` is, if it is one.
pub fn as_class(v: &Value) -> Option<Rc<UserClass>> {
    v.downcast::<UserClass>().and_then(|c| c.this.upgrade())
}

/// The instance of a cell-defined class `v` is, if it is one.
pub fn as_instance(v: &Value) -> Option<Rc<Instance>> {
    v.downcast::<Instance>().and_then(|i| i.this.upgrade())
}

/// The class statement: evaluate the bases, run the body in its own namespace, build the
/// class, apply the decorators and bind the name.
pub fn exec_class(rt: &mut Runtime, ctx: &mut Ctx, c: &ast::StmtClassDef) -> PyResult<()> {
    if c.type_params.is_some() {
        return Err(PyErr::not_implemented(
            "generic class syntax (class C[T]) is not supported in nbcuda",
        ));
    }
    let mut bases = Vec::new();
    let mut exc_base = None;
    let mut is_type = false;
    let mut explicit_meta = None;
    let mut class_kwargs = Vec::new();
    if let Some(arguments) = &c.arguments {
        for k in arguments.keywords.iter() {
            let Some(arg) = &k.arg else {
                return Err(PyErr::not_implemented(
                    "class keyword arguments given as **mapping are not supported in nbcuda",
                ));
            };
            let v = crate::interp::expr::eval(rt, ctx, &k.value)?;
            if arg.as_str() == "metaclass" {
                explicit_meta = Some(crate::interp::metaclasses::metaclass_arg(&v)?);
            } else {
                class_kwargs.push((arg.to_string(), v));
            }
        }
        for b in arguments.args.iter() {
            let v = crate::interp::expr::eval(rt, ctx, b)?;
            if let Some(u) = as_class(&v) {
                exc_base = exc_base.or(u.exc_base);
                bases.push(u);
                continue;
            }
            if let Some(t) = v.downcast::<ExceptionType>() {
                exc_base = exc_base.or(Some(
                    ExcClass::from_name(&t.name).unwrap_or(ExcClass::Exception),
                ));
                continue;
            }
            match &v {
                Value::Builtin(b) if b.name == "object" => continue,
                Value::Builtin(b) if b.name == "type" => {
                    is_type = true;
                    continue;
                }
                Value::Builtin(b) => {
                    return Err(PyErr::not_implemented(format!(
                        "subclassing the built-in type '{}' is not supported in nbcuda",
                        b.name
                    )))
                }
                other => {
                    return Err(PyErr::type_error(format!(
                        "bases must be types, not '{}'",
                        other.type_name()
                    )))
                }
            }
        }
    }
    let mro = c3_linearize(&bases)?;
    is_type |= bases.iter().any(|b| b.is_type);
    let metaclass = crate::interp::metaclasses::resolve(explicit_meta, &bases)?;
    let qualname = match &ctx.kind {
        ScopeKind::ClassBody { qualname } => format!("{qualname}.{}", c.name),
        _ if ctx.locals.is_some() => format!("{}.<locals>.{}", ctx.fname, c.name),
        _ => c.name.to_string(),
    };
    let mut body_ctx = ctx.nested_scope();
    if ctx.locals.is_none() {
        // At module level the class body's enclosing scope is the globals, not a closure.
        body_ctx.enclosing.clear();
    }
    body_ctx.fname = Rc::from(c.name.as_str());
    body_ctx.kind = ScopeKind::ClassBody {
        qualname: qualname.clone(),
    };
    crate::interp::stmt::exec_block(rt, &mut body_ctx, &c.body)?;
    let namespace = body_ctx
        .locals
        .take()
        .map(|l| std::mem::take(&mut *l.borrow_mut()))
        .unwrap_or_default();
    let mut attrs = IndexMap::new();
    for name in bound_names(&c.body) {
        if let Some(v) = namespace.get(name.as_str()) {
            attrs.insert(name, v.clone());
        }
    }
    let mut rest: Vec<_> = namespace
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .filter(|(k, _)| !attrs.contains_key(k))
        .collect();
    rest.sort_by(|a, b| a.0.cmp(&b.0));
    attrs.extend(rest);
    // As CPython's type(): defining __eq__ without __hash__ makes instances unhashable.
    if attrs.contains_key("__eq__") && !attrs.contains_key("__hash__") {
        attrs.insert("__hash__".into(), Value::None);
    }
    let doc = match c.body.first() {
        Some(Stmt::Expr(e)) => match &*e.value {
            Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
            _ => None,
        },
        _ => None,
    };
    let annotations = c
        .body
        .iter()
        .filter_map(|s| match s {
            Stmt::AnnAssign(a) => match &*a.target {
                Expr::Name(n) => Some(n.id.to_string()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    // A class body may name its own module, as the standard modules split over private
    // helpers do, so that repr and pickling-style names show the public module.
    let module = match attrs.get("__module__") {
        Some(Value::Str(m)) => m.to_string(),
        _ => module_name(&ctx.globals),
    };
    let class = Rc::new_cyclic(|this| UserClass {
        this: this.clone(),
        name: c.name.to_string(),
        qualname,
        module,
        doc,
        bases,
        mro,
        exc_base,
        attrs: RefCell::new(attrs),
        annotations,
        frozen: Cell::new(false),
        slots: RefCell::new(None),
        metaclass,
        is_type,
    });
    let own_slots = class.attrs.borrow().get("__slots__").cloned();
    if let Some(own) = own_slots {
        let names = slot_names(rt, &own)?;
        *class.slots.borrow_mut() = crate::interp::class_slots::instance_slots(&class, names);
    }
    let weak: std::rc::Weak<dyn Object> = Rc::downgrade(&(class.clone() as Rc<dyn Object>));
    for v in class.attrs.borrow().values() {
        for f in defined_functions(v) {
            *f.class_cell.borrow_mut() = Some(weak.clone());
        }
    }
    crate::interp::metaclasses::init_subclass(rt, &class, class_kwargs)?;
    let mut v = Value::Object(class);
    for d in c.decorator_list.iter().rev() {
        let dec = crate::interp::expr::eval(rt, ctx, &d.expression)?;
        v = crate::interp::expr::call_value(rt, &dec, Args::new(vec![v]))?;
    }
    ctx.assign(c.name.as_str(), v);
    Ok(())
}

/// The names a `__slots__` value declares: one string, or an iterable of strings.
fn slot_names(rt: &mut Runtime, v: &Value) -> PyResult<Vec<String>> {
    if let Value::Str(s) = v {
        return Ok(vec![s.to_string()]);
    }
    rt.iterate(v)?
        .iter()
        .map(|n| match n {
            Value::Str(s) => Ok(s.to_string()),
            other => Err(PyErr::type_error(format!(
                "__slots__ items must be strings, not '{}'",
                other.type_name()
            ))),
        })
        .collect()
}

/// The functions a class attribute holds: a plain function, or one wrapped by
/// `staticmethod`, `classmethod` or `property`.
fn defined_functions(v: &Value) -> Vec<&Function> {
    let mut held: Vec<&Value> = vec![v];
    if let Some(s) = v.downcast::<StaticMethod>() {
        held.push(&s.0);
    }
    if let Some(c) = v.downcast::<ClassMethod>() {
        held.push(&c.0);
    }
    if let Some(p) = v.downcast::<Property>() {
        held.extend([&p.fget, &p.fset, &p.fdel].into_iter().flatten());
    }
    held.into_iter()
        .filter_map(|v| v.downcast::<Function>())
        .collect()
}

/// The names a class body binds at its top level, in order of first binding.
fn bound_names(body: &[Stmt]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |n: &str| {
        if !out.iter().any(|o| o == n) {
            out.push(n.to_string());
        }
    };
    for s in body {
        match s {
            Stmt::FunctionDef(f) => add(f.name.as_str()),
            Stmt::ClassDef(c) => add(c.name.as_str()),
            Stmt::Assign(a) => {
                for t in &a.targets {
                    if let Expr::Name(n) = t {
                        add(n.id.as_str());
                    }
                }
            }
            Stmt::AnnAssign(a) => {
                if let Expr::Name(n) = &*a.target {
                    add(n.id.as_str());
                }
            }
            _ => {}
        }
    }
    out
}

/// C3 linearisation of the bases, as CPython orders the MRO.
fn c3_linearize(bases: &[Rc<UserClass>]) -> PyResult<Vec<Rc<UserClass>>> {
    let mut seqs: Vec<Vec<Rc<UserClass>>> = bases
        .iter()
        .map(|b| {
            let mut s = vec![b.clone()];
            s.extend(b.mro.iter().cloned());
            s
        })
        .collect();
    seqs.push(bases.to_vec());
    let mut out: Vec<Rc<UserClass>> = Vec::new();
    loop {
        seqs.retain(|s| !s.is_empty());
        if seqs.is_empty() {
            return Ok(out);
        }
        let head = seqs.iter().find_map(|s| {
            let h = &s[0];
            let in_tail = seqs.iter().any(|t| t[1..].iter().any(|x| Rc::ptr_eq(x, h)));
            (!in_tail).then(|| h.clone())
        });
        let Some(head) = head else {
            return Err(PyErr::type_error(
                "Cannot create a consistent method resolution order (MRO) for bases",
            ));
        };
        for s in seqs.iter_mut() {
            if Rc::ptr_eq(&s[0], &head) {
                s.remove(0);
            }
        }
        out.push(head);
    }
}

/// Create an instance: the exception arguments are recorded, then `__init__` runs.
pub fn instantiate(rt: &mut Runtime, class: &Rc<UserClass>, args: Args) -> PyResult<Value> {
    if class.is_type {
        return Err(PyErr::not_implemented(
            "creating a class by calling its metaclass is not supported in nbcuda",
        ));
    }
    if class.find("__new__").is_some() {
        return Err(PyErr::not_implemented(
            "classes that define __new__ are not supported in nbcuda",
        ));
    }
    let missing = abstract_methods(rt, class)?;
    if !missing.is_empty() {
        return Err(PyErr::type_error(format!(
            "Can't instantiate abstract class {} with abstract method{} {}",
            class.name,
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", ")
        )));
    }
    let inst = Rc::new_cyclic(|this| Instance {
        this: this.clone(),
        class: class.clone(),
        attrs: RefCell::new(IndexMap::new()),
        exc_args: RefCell::new(if class.exc_base.is_some() {
            args.pos.clone()
        } else {
            Vec::new()
        }),
    });
    let this = Value::Object(inst.clone());
    match class.find("__init__") {
        Some(init) => {
            let r = crate::interp::expr::call_value(rt, &bind(init, &this, class), args)?;
            if !r.is_none() {
                return Err(PyErr::type_error(format!(
                    "__init__() should return None, not '{}'",
                    r.type_name()
                )));
            }
        }
        None if class.exc_base.is_none() && (!args.pos.is_empty() || !args.kw.is_empty()) => {
            return Err(PyErr::type_error(format!(
                "{}() takes no arguments",
                class.name
            )))
        }
        None => {}
    }
    Ok(this)
}

/// A new instance of `class` whose `__init__` has not run (`object.__new__(cls)`).
pub fn bare_instance(class: &Rc<UserClass>) -> Value {
    Value::Object(Rc::new_cyclic(|this| Instance {
        this: this.clone(),
        class: class.clone(),
        attrs: RefCell::new(IndexMap::new()),
        exc_args: RefCell::new(Vec::new()),
    }))
}

/// A new instance of `inst`'s class with the given attributes, made without calling
/// `__init__` (as `copy.copy` and `copy.deepcopy` make theirs).
pub fn clone_instance(inst: &Instance, attrs: IndexMap<String, Value>) -> Rc<Instance> {
    Rc::new_cyclic(|this| Instance {
        this: this.clone(),
        class: inst.class.clone(),
        attrs: RefCell::new(attrs),
        exc_args: RefCell::new(inst.exc_args.borrow().clone()),
    })
}

impl Instance {
    /// Call the special method `name` if the class defines it.
    pub fn call_special(
        self: &Rc<Self>,
        rt: &mut Runtime,
        name: &str,
        args: Vec<Value>,
    ) -> PyResult<Option<Value>> {
        let Some(m) = self.class.find(name) else {
            return Ok(None);
        };
        let this = Value::Object(self.clone());
        let f = bind(m, &this, &self.class);
        crate::interp::expr::call_value(rt, &f, Args::new(args)).map(Some)
    }

    /// `str(e)` of an exception instance: its arguments, as BaseException formats them.
    pub fn exc_str(&self, rt: &mut Runtime) -> PyResult<String> {
        let args = self.exc_args.borrow().clone();
        match args.as_slice() {
            [] => Ok(String::new()),
            [one] => crate::interp::repr::to_str(rt, one),
            many => crate::interp::repr::repr(rt, &Value::tuple(many.to_vec())),
        }
    }

    pub fn default_repr(&self, rt: &mut Runtime) -> PyResult<String> {
        if self.class.exc_base.is_some() {
            let args = self.exc_args.borrow().clone();
            let mut parts = Vec::new();
            for a in &args {
                parts.push(crate::interp::repr::repr(rt, a)?);
            }
            return Ok(format!("{}({})", self.class.name, parts.join(", ")));
        }
        Ok(format!(
            "<{}.{} object at {:#x}>",
            self.class.module, self.class.qualname, self as *const Self as usize
        ))
    }

    /// The raised form of this instance.
    pub fn to_error(self: &Rc<Self>, rt: &mut Runtime) -> PyResult<PyErr> {
        let Some(base) = self.class.exc_base else {
            return Err(PyErr::type_error(
                "exceptions must derive from BaseException",
            ));
        };
        let message = match self.call_special(rt, "__str__", vec![])? {
            Some(Value::Str(ref s)) => s.to_string(),
            Some(_) => return Err(PyErr::type_error("__str__ returned non-string")),
            None => self.exc_str(rt)?,
        };
        let mut err = PyErr::new(&self.class.name, message);
        err.user = Some(Box::new(crate::py::error::UserException {
            instance: Value::Object(self.clone()),
            base,
        }));
        Ok(err)
    }
}

impl Instance {
    /// This instance as a shared handle, for trait methods that only get `&self`.
    pub(crate) fn rc(&self) -> PyResult<Rc<Instance>> {
        self.this
            .upgrade()
            .ok_or_else(|| PyErr::internal("instance used while being dropped"))
    }
    pub(crate) fn rc_value(&self) -> PyResult<Value> {
        Ok(Value::Object(self.rc()?))
    }
}

impl Object for UserClass {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        if let Some(r) = meta::special(rt, self, "__repr__", vec![])? {
            return crate::interp::repr::to_str(rt, &r);
        }
        Ok(format!("<class '{}.{}'>", self.module, self.qualname))
    }
    fn str(&self, rt: &mut Runtime) -> PyResult<String> {
        if let Some(r) = meta::special(rt, self, "__str__", vec![])? {
            return crate::interp::repr::to_str(rt, &r);
        }
        self.repr(rt)
    }
    fn iter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        match meta::special(rt, &self, "__iter__", vec![])? {
            Some(it) => crate::interp::ops::iterate(rt, &it).map(Some),
            None => Ok(None),
        }
    }
    fn len(&self, rt: &mut Runtime) -> PyResult<Option<usize>> {
        match meta::special(rt, self, "__len__", vec![])? {
            Some(n) => match n.as_index()? {
                n if n < 0 => Err(PyErr::value_error("__len__() should return >= 0")),
                n => Ok(Some(n as usize)),
            },
            None => Ok(None),
        }
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        if self.find(name).is_none() {
            if let Some(v) = meta::attr(rt, &self, name)? {
                return Ok(Some(v));
            }
        }
        Ok(Some(match name {
            "__name__" => Value::str(&self.name),
            "__qualname__" => Value::str(&self.qualname),
            "__module__" => Value::str(&self.module),
            "__doc__" => self.doc.as_deref().map(Value::str).unwrap_or(Value::None),
            "__bases__" => self.base_values(rt)?,
            "__mro__" => {
                let mut out = vec![Value::Object(self.clone())];
                out.extend(self.mro.iter().map(|c| Value::Object(c.clone())));
                out.push(self.root(rt)?);
                Value::tuple(out)
            }
            "__dict__" => {
                let mut d = crate::py::value::Dict::default();
                for (k, v) in self.attrs.borrow().iter() {
                    d.insert_str(k, v.clone());
                }
                Value::Dict(Rc::new(RefCell::new(d)))
            }
            _ => match self.find(name) {
                Some(v) => {
                    if let Some(c) = v.downcast::<ClassMethod>() {
                        crate::interp::class_tools::bound(c.0.clone(), Value::Object(self))
                    } else if let Some(s) = v.downcast::<StaticMethod>() {
                        s.0.clone()
                    } else {
                        v
                    }
                }
                None => return Ok(None),
            },
        }))
    }
    fn set_attr(&self, name: &str, value: Value, _rt: &mut Runtime) -> PyResult<bool> {
        self.attrs.borrow_mut().insert(name.to_string(), value);
        Ok(true)
    }
    fn del_attr(&self, name: &str, _rt: &mut Runtime) -> PyResult<bool> {
        // Dropped after the borrow ends: the value's drop may reach this class.
        let old = self.attrs.borrow_mut().shift_remove(name);
        Ok(old.is_some())
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        if let Some(r) = meta::call(rt, &self, &args)? {
            return Ok(r);
        }
        instantiate(rt, &self, args)
    }
    /// `Class[key]` asks the metaclass's `__getitem__`, then `__class_getitem__` (a class
    /// method even when not declared one).
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        if let Some(r) = meta::special(rt, &self, "__getitem__", vec![key.clone()])? {
            return Ok(r);
        }
        let Some(f) = self.find("__class_getitem__") else {
            return Err(PyErr::type_error(format!(
                "type '{}' is not subscriptable",
                self.name
            )));
        };
        let f = crate::interp::class_tools::implicit_classmethod(f);
        let args = Args::new(vec![Value::Object(self), key.clone()]);
        crate::interp::expr::call_value(rt, &f, args)
    }
    fn dir(&self) -> Vec<String> {
        let mut names: Vec<String> = self.attrs.borrow().keys().cloned().collect();
        for c in &self.mro {
            names.extend(c.attrs.borrow().keys().cloned());
        }
        names.sort();
        names.dedup();
        names
    }
    fn doc(&self) -> Option<(String, String)> {
        Some((self.name.clone(), self.doc.clone().unwrap_or_default()))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The methods still marked `@abstractmethod` in a class deriving from `abc.ABC` (or whose
/// metaclass is `abc.ABCMeta`), sorted
/// (CPython's ABCMeta refuses to instantiate such a class).
fn abstract_methods(rt: &mut Runtime, class: &Rc<UserClass>) -> PyResult<Vec<String>> {
    let is_abc = |c: &UserClass| c.module == "abc" && c.name == "ABC";
    let is_abc_meta = |m: &Rc<UserClass>| {
        std::iter::once(m)
            .chain(m.mro.iter())
            .any(|c| c.module == "abc" && c.name == "ABCMeta")
    };
    if !class.mro.iter().any(|c| is_abc(c)) && !class.metaclass.as_ref().is_some_and(is_abc_meta) {
        return Ok(Vec::new());
    }
    let mut names: Vec<String> = class.attrs.borrow().keys().cloned().collect();
    for c in &class.mro {
        names.extend(c.attrs.borrow().keys().cloned());
    }
    names.sort();
    names.dedup();
    let mut missing = Vec::new();
    for name in names {
        let Some(v) = class.find(&name) else {
            continue;
        };
        if let Ok(flag) = crate::interp::attrs::get_attr(rt, &v, "__isabstractmethod__") {
            if crate::interp::ops::truthy(rt, &flag)? {
                missing.push(name);
            }
        }
    }
    Ok(missing)
}

/// The `__name__` of a global namespace (`__main__` for the session's).
pub fn module_name(globals: &crate::py::function::Scope) -> String {
    match globals.borrow().get("__name__") {
        Some(Value::Str(s)) => s.to_string(),
        _ => "__main__".into(),
    }
}

/// An exception value (built-in or cell-defined) raised by `raise v`.
/// `None` for values that are not cell-defined classes or instances.
pub fn raised(rt: &mut Runtime, v: &Value) -> PyResult<Option<PyErr>> {
    if let Some(class) = as_class(v) {
        let inst = instantiate(rt, &class, Args::default())?;
        return raised(rt, &inst);
    }
    match as_instance(v) {
        Some(inst) => inst.to_error(rt).map(Some),
        None => Ok(None),
    }
}

/// `hash(obj)`: `__hash__` when the class defines it; unhashable when it defines `__eq__`
/// alone (as CPython sets `__hash__ = None`); otherwise by identity.
pub fn hash_instance(rt: &mut Runtime, inst: &Rc<Instance>) -> PyResult<Value> {
    match inst.class.find("__hash__") {
        Some(Value::None) => {}
        Some(_) => {
            let h = inst.call_special(rt, "__hash__", vec![])?;
            return match h.as_ref().and_then(crate::py::hash::from_dunder) {
                Some(h) => Ok(Value::Int(h)),
                None => Err(PyErr::type_error(
                    "__hash__ method should return an integer",
                )),
            };
        }
        None if inst.class.find("__eq__").is_none() => {
            return Ok(Value::Int((Rc::as_ptr(inst) as usize >> 4) as i64))
        }
        None => {}
    }
    Err(PyErr::type_error(format!(
        "unhashable type: '{}'",
        inst.class.name
    )))
}
