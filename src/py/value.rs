//! The value model shared by the interpreter and every native module.
//!
//! Values are single-threaded (`Rc`): a session's interpreter lives on one thread. Anything
//! that crosses to device worker threads (array buffers, kernels) is `Arc`-based and lives in
//! [`crate::arrays`] / [`crate::device`].

use std::any::Any;
use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::index::SliceValue;
use crate::arrays::operator::{BinOp, UnaryOp};
use crate::arrays::NdArray;
use crate::py::error::{PyErr, PyResult};
use crate::py::function::Scope;
use crate::py::runtime::Runtime;
use crate::py::signature::{Bound, Params, Style};

/// `None` behind a `'static` reference, for `arg(..).unwrap_or(NONE)`: `Value` has a
/// destructor, so `&Value::None` is a temporary rather than a promoted constant.
pub const NONE: &Value = &Value::None;

/// A Python value.
pub enum Value {
    None,
    Bool(bool),
    /// Python `int` when it fits in an i64 (the fast path every small int takes).
    Int(i64),
    /// Python `int` beyond 64 bits; never holds a value that fits `Int` (see
    /// [`crate::py::bigint::from_big`]).
    BigInt(Rc<num_bigint::BigInt>),
    /// Python `complex`: the real and imaginary parts.
    Complex(f64, f64),
    Float(f64),
    Str(Rc<str>),
    Bytes(Rc<[u8]>),
    Tuple(Rc<[Value]>),
    List(Rc<RefCell<Vec<Value>>>),
    Dict(Rc<RefCell<Dict>>),
    /// A set: its items are the keys of the dict (values unused).
    Set(Rc<RefCell<Dict>>),
    /// `slice(start, stop, step)` objects, as built by subscripts.
    Slice(Rc<SliceValue>),
    /// The `...` literal.
    Ellipsis,
    /// A host NumPy array.
    Array(Box<NdArray>),
    /// A NumPy scalar (`np.float32(1.5)`), which keeps its dtype.
    Scalar(Scalar),
    /// A NumPy dtype object (`np.float32` used as a dtype is a [`Value::Native`] type object;
    /// `np.dtype('f4')` and `arr.dtype` are this).
    DType(DType),
    /// A module (`np`, `cuda`, `math`, ...).
    Module(Rc<Module>),
    /// A native (Rust) function.
    Builtin(Rc<Builtin>),
    /// Everything else: user functions, device arrays, streams, dispatchers, figures, ...
    Object(Rc<dyn Object>),
}

pub use crate::py::dict::Dict;

/// Cloning a number is a copy, done inline: reading a slot in a loop then costs no call
/// (the derived clone was an out-of-line jump table). Shared values go through
/// [`Value::clone_shared`].
impl Clone for Value {
    #[inline]
    fn clone(&self) -> Value {
        match self {
            Value::Int(n) => Value::Int(*n),
            Value::Float(f) => Value::Float(*f),
            Value::None => Value::None,
            Value::Bool(b) => Value::Bool(*b),
            _ => self.clone_shared(),
        }
    }
}

impl Value {
    #[inline(never)]
    fn clone_shared(&self) -> Value {
        match self {
            Value::None => Value::None,
            Value::Bool(b) => Value::Bool(*b),
            Value::Int(n) => Value::Int(*n),
            Value::BigInt(b) => Value::BigInt(b.clone()),
            Value::Complex(re, im) => Value::Complex(*re, *im),
            Value::Float(f) => Value::Float(*f),
            Value::Str(s) => Value::Str(s.clone()),
            Value::Bytes(b) => Value::Bytes(b.clone()),
            Value::Tuple(t) => Value::Tuple(t.clone()),
            Value::List(l) => Value::List(l.clone()),
            Value::Dict(d) => Value::Dict(d.clone()),
            Value::Set(d) => Value::Set(d.clone()),
            Value::Slice(s) => Value::Slice(s.clone()),
            Value::Ellipsis => Value::Ellipsis,
            Value::Array(a) => Value::Array(a.clone()),
            Value::Scalar(s) => Value::Scalar(*s),
            Value::DType(d) => Value::DType(*d),
            Value::Module(m) => Value::Module(m.clone()),
            Value::Builtin(b) => Value::Builtin(b.clone()),
            Value::Object(o) => Value::Object(o.clone()),
        }
    }
}

/// A module: a name and an ordered attribute table, or, for a module written in Python,
/// the global namespace its code runs in (so `mod.x = 1` is what its functions see).
pub struct Module {
    pub name: String,
    pub doc: String,
    pub attrs: RefCell<Vec<(String, Value)>>,
    namespace: Option<Scope>,
}

impl Module {
    pub fn new(name: &str, doc: &str) -> Module {
        Module {
            name: name.to_string(),
            doc: doc.to_string(),
            attrs: RefCell::new(Vec::new()),
            namespace: None,
        }
    }
    /// A module whose attributes are the names in `namespace`.
    pub fn with_namespace(name: &str, doc: &str, namespace: Scope) -> Module {
        Module {
            namespace: Some(namespace),
            ..Module::new(name, doc)
        }
    }
    /// The global namespace of a module written in Python.
    pub fn namespace(&self) -> Option<&Scope> {
        self.namespace.as_ref()
    }
    pub fn get(&self, name: &str) -> Option<Value> {
        if let Some(ns) = &self.namespace {
            return ns.borrow().get(name).cloned();
        }
        self.attrs
            .borrow()
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    }
    /// Every attribute with its value (a Python module's in sorted order, as `dir` gives).
    pub fn items(&self) -> Vec<(String, Value)> {
        if let Some(ns) = &self.namespace {
            let mut items: Vec<(String, Value)> = ns
                .borrow()
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect();
            items.sort_by(|a, b| a.0.cmp(&b.0));
            return items;
        }
        self.attrs.borrow().clone()
    }
    pub fn set(&self, name: &str, value: Value) {
        if let Some(ns) = &self.namespace {
            let old = ns.borrow_mut().insert(name.into(), value);
            // Dropped after the borrow ends: a value's drop may reach this namespace.
            drop(old);
            return;
        }
        let mut attrs = self.attrs.borrow_mut();
        if let Some(slot) = attrs.iter_mut().find(|(k, _)| k == name) {
            slot.1 = value;
        } else {
            attrs.push((name.to_string(), value));
        }
    }
    /// Register a native function declared by its Python parameter list
    /// (`"a, dtype=None, *, like=None"`, see [`crate::py::signature`]), written once: `?`
    /// shows `name(sig)`, and the body gets the arguments bound by name, with the
    /// TypeErrors of `style`.
    pub fn def(
        &self,
        style: Style,
        name: &str,
        sig: &'static str,
        doc: &str,
        f: impl Fn(&mut Runtime, Bound) -> PyResult<Value> + 'static,
    ) {
        self.def_shown(style, name, sig, &format!("{name}({sig})"), doc, f)
    }
    /// As [`Module::def`], showing `shown` as the signature: for a C function whose
    /// documented signature is no parameter list Python could bind
    /// (`arange([start,] stop[, step,], dtype=None, *, device=None, like=None)`).
    pub fn def_shown(
        &self,
        style: Style,
        name: &str,
        sig: &'static str,
        shown: &str,
        doc: &str,
        f: impl Fn(&mut Runtime, Bound) -> PyResult<Value> + 'static,
    ) {
        let params = Params::parse(sig);
        let owner = self.name.clone();
        let fname = name.to_string();
        let qualname = format!("{}.{}", self.name, name);
        let body =
            move |rt: &mut Runtime, args: Args| f(rt, params.bind(style, &owner, &fname, args)?);
        self.set(name, Value::builtin(&qualname, shown, doc, body));
    }
    /// Remove an attribute; false when there is none.
    pub fn remove(&self, name: &str) -> bool {
        if let Some(ns) = &self.namespace {
            let old = ns.borrow_mut().shift_remove(name);
            return old.is_some();
        }
        let mut attrs = self.attrs.borrow_mut();
        let before = attrs.len();
        attrs.retain(|(k, _)| k != name);
        before != attrs.len()
    }
    pub fn names(&self) -> Vec<String> {
        self.items().into_iter().map(|(k, _)| k).collect()
    }
}

/// The names of CPython's builtins that are classes (`type(x)` is `type`), whichever of
/// them nbcuda has: the interpreter's `type()`/`isinstance(x, type)` and the kernel
/// front end's "Cannot determine Numba type of <class 'type'>" both read it.
pub const BUILTIN_CLASSES: &[&str] = &[
    "bool",
    "bytearray",
    "bytes",
    "classmethod",
    "complex",
    "dict",
    "enumerate",
    "filter",
    "float",
    "frozenset",
    "int",
    "list",
    "map",
    "memoryview",
    "object",
    "property",
    "range",
    "reversed",
    "set",
    "slice",
    "staticmethod",
    "str",
    "super",
    "tuple",
    "type",
    "zip",
];

pub type NativeFn = dyn Fn(&mut Runtime, Args) -> PyResult<Value>;

/// A native function. `signature` is shown by inspection (`name(a, b=1)`), `doc` is our own
/// one-paragraph description.
pub struct Builtin {
    /// Qualified name, e.g. `numpy.zeros` or `DeviceNDArray.copy_to_host`.
    pub name: String,
    /// Borrowed for the methods of a `py::methods` table, so a bound method's lookup does
    /// not copy its signature and doc.
    pub signature: Cow<'static, str>,
    pub doc: Cow<'static, str>,
    pub f: Box<NativeFn>,
}

/// Call arguments: positional values and keyword pairs, in call order.
#[derive(Clone, Default)]
pub struct Args {
    pub pos: Vec<Value>,
    pub kw: Vec<(Rc<str>, Value)>,
}

impl Args {
    pub fn new(pos: Vec<Value>) -> Args {
        Args {
            pos,
            kw: Vec::new(),
        }
    }
    pub fn with_kw(mut self, name: &str, value: Value) -> Args {
        self.kw.push((Rc::from(name), value));
        self
    }
    /// Bind to a parameter list. `params` are names; a trailing `=` marks an optional one
    /// (`"dtype="`). Returns one slot per parameter (None when not given). Unknown keywords,
    /// too many positionals, duplicates and missing required arguments raise TypeError
    /// naming `fname`, as CPython does.
    pub fn bind(&self, fname: &str, params: &[&str]) -> PyResult<Vec<Option<Value>>> {
        let names: Vec<(&str, bool)> = params
            .iter()
            .map(|p| match p.strip_suffix('=') {
                Some(n) => (n, false),
                None => (*p, true),
            })
            .collect();
        if self.pos.len() > names.len() {
            return Err(PyErr::type_error(format!(
                "{fname}() takes {} positional arguments but {} were given",
                names.len(),
                self.pos.len()
            )));
        }
        let mut out: Vec<Option<Value>> = vec![None; names.len()];
        for (i, v) in self.pos.iter().enumerate() {
            out[i] = Some(v.clone());
        }
        for (k, v) in &self.kw {
            match names.iter().position(|(n, _)| *n == &**k) {
                Some(i) if out[i].is_some() => {
                    return Err(PyErr::type_error(format!(
                        "{fname}() got multiple values for argument '{k}'"
                    )))
                }
                Some(i) => out[i] = Some(v.clone()),
                None => {
                    return Err(PyErr::type_error(format!(
                        "{fname}() got an unexpected keyword argument '{k}'"
                    )))
                }
            }
        }
        for (i, (n, required)) in names.iter().enumerate() {
            if *required && out[i].is_none() {
                return Err(PyErr::type_error(format!(
                    "{fname}() missing required argument: '{n}'"
                )));
            }
        }
        Ok(out)
    }
    pub fn kwarg(&self, name: &str) -> Option<&Value> {
        self.kw.iter().find(|(k, _)| &**k == name).map(|(_, v)| v)
    }
}

/// The extension point for every non-core Python object: user functions, device arrays,
/// streams, events, dispatchers, figures. Default methods raise the TypeError / AttributeError
/// CPython would.
pub trait Object: Any {
    /// The Python class name, e.g. `DeviceNDArray`.
    fn type_name(&self) -> String;
    /// The Python module of the class, used by the default repr
    /// (`<numba.cuda.cudadrv.devicearray.DeviceNDArray object at 0x...>`).
    fn module_name(&self) -> String {
        "builtins".to_string()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "<{}.{} object at {:#x}>",
            self.module_name(),
            self.type_name(),
            self as *const Self as *const u8 as usize
        ))
    }
    fn str(&self, rt: &mut Runtime) -> PyResult<String> {
        self.repr(rt)
    }
    /// Attribute lookup. Methods are returned as bound builtins (see [`Value::method`]).
    /// `Ok(None)` means "no such attribute" and becomes AttributeError.
    fn get_attr(self: Rc<Self>, _name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(None)
    }
    /// Attribute assignment; `Ok(false)` means unsupported (AttributeError).
    fn set_attr(&self, _name: &str, _value: Value, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(false)
    }
    /// `del obj.name`; `Ok(false)` means there is no such attribute to delete.
    fn del_attr(&self, _name: &str, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(false)
    }
    fn call(self: Rc<Self>, _args: Args, _rt: &mut Runtime) -> PyResult<Value> {
        Err(PyErr::type_error(format!(
            "'{}' object is not callable",
            self.type_name()
        )))
    }
    fn get_item(self: Rc<Self>, _key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        Err(PyErr::type_error(format!(
            "'{}' object is not subscriptable",
            self.type_name()
        )))
    }
    fn set_item(&self, _key: &Value, _value: Value, _rt: &mut Runtime) -> PyResult<()> {
        Err(PyErr::type_error(format!(
            "'{}' object does not support item assignment",
            self.type_name()
        )))
    }
    fn del_item(&self, _key: &Value, _rt: &mut Runtime) -> PyResult<()> {
        Err(PyErr::type_error(format!(
            "'{}' object does not support item deletion",
            self.type_name()
        )))
    }
    /// Binary operator with `self` on the left (`reflected == false`) or right. `Ok(None)`
    /// is Python's NotImplemented; the interpreter then tries the other operand and finally
    /// raises TypeError ("unsupported operand type(s)").
    fn binary_op(
        self: Rc<Self>,
        _op: BinOp,
        _other: &Value,
        _reflected: bool,
        _rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        Ok(None)
    }
    fn unary_op(self: Rc<Self>, _op: UnaryOp, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(None)
    }
    /// `iter(obj)`: Ok(None) means not iterable.
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(None)
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(None)
    }
    fn truthy(&self, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(true)
    }
    /// `with obj as x:` — the value bound to `x`.
    fn enter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Value> {
        Err(PyErr::new(
            "AttributeError",
            format!(
                "'{}' object does not support the context manager protocol",
                self.type_name()
            ),
        ))
    }
    /// Leaving a `with` block; `error` is the exception in flight. Return true to swallow it.
    fn exit(&self, _rt: &mut Runtime, _error: Option<&PyErr>) -> PyResult<bool> {
        Ok(false)
    }
    /// Attribute names for completion and `dir()`.
    fn dir(&self) -> Vec<String> {
        Vec::new()
    }
    /// Signature and doc for inspection (`obj?`).
    fn doc(&self) -> Option<(String, String)> {
        None
    }
    /// A rich MIME bundle for display (`image/png`, `text/html`, ...); `text/plain` is added
    /// from `repr` when missing.
    fn mime_bundle(
        &self,
        _rt: &mut Runtime,
    ) -> PyResult<Option<serde_json::Map<String, serde_json::Value>>> {
        Ok(None)
    }
    /// Identity-based equality by default.
    fn py_eq(&self, _other: &Value, _rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(None)
    }
    /// True for a type whose `==` is identity (it keeps `py_eq`'s default) and whose
    /// instances CPython hashes by address (functions, dispatchers, `object()`): dicts and
    /// sets then index it by its address instead of comparing it with every key.
    fn hashed_by_identity(&self) -> bool {
        false
    }
    /// A namedtuple instance's field names and items, for code below the interpreter
    /// (kernel arguments, array conversion) that takes namedtuples as tuples.
    fn named_tuple(&self) -> Option<(Vec<String>, Vec<Value>)> {
        None
    }
    fn as_any(&self) -> &dyn Any;
}

impl Value {
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::from(items))
    }
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(RefCell::new(items)))
    }
    pub fn object(o: impl Object) -> Value {
        Value::Object(Rc::new(o))
    }
    pub fn builtin(
        name: &str,
        signature: &str,
        doc: &str,
        f: impl Fn(&mut Runtime, Args) -> PyResult<Value> + 'static,
    ) -> Value {
        Value::Builtin(Rc::new(Builtin {
            name: name.to_string(),
            signature: Cow::Owned(signature.to_string()),
            doc: Cow::Owned(doc.to_string()),
            f: Box::new(f),
        }))
    }
    /// A builtin whose signature and doc are static text (a method table's).
    pub fn builtin_static(
        name: String,
        signature: &'static str,
        doc: &'static str,
        f: impl Fn(&mut Runtime, Args) -> PyResult<Value> + 'static,
    ) -> Value {
        Value::Builtin(Rc::new(Builtin {
            name,
            signature: Cow::Borrowed(signature),
            doc: Cow::Borrowed(doc),
            f: Box::new(f),
        }))
    }
    /// A bound method: a builtin that captures its receiver.
    pub fn method<T: ?Sized + 'static>(
        this: &Rc<T>,
        qualname: &str,
        signature: &str,
        doc: &str,
        f: impl Fn(&Rc<T>, &mut Runtime, Args) -> PyResult<Value> + 'static,
    ) -> Value {
        let this = this.clone();
        Value::builtin(qualname, signature, doc, move |rt, args| f(&this, rt, args))
    }

    /// The Python type name, as used in error messages (`'int' object ...`).
    pub fn type_name(&self) -> String {
        match self {
            Value::None => "NoneType".into(),
            Value::Bool(_) => "bool".into(),
            Value::Int(_) | Value::BigInt(_) => "int".into(),
            Value::Float(_) => "float".into(),
            Value::Complex(..) => "complex".into(),
            Value::Str(_) => "str".into(),
            Value::Bytes(_) => "bytes".into(),
            Value::Tuple(_) => "tuple".into(),
            Value::List(_) => "list".into(),
            Value::Dict(_) => "dict".into(),
            Value::Set(_) => "set".into(),
            Value::Slice(_) => "slice".into(),
            Value::Ellipsis => "ellipsis".into(),
            Value::Array(_) => "numpy.ndarray".into(),
            Value::Scalar(s) => format!("numpy.{}", s.dtype().name()),
            Value::DType(_) => "numpy.dtype".into(),
            Value::Module(_) => "module".into(),
            Value::Builtin(_) => "builtin_function_or_method".into(),
            Value::Object(o) => o.type_name(),
        }
    }

    pub fn is_none(&self) -> bool {
        matches!(self, Value::None)
    }

    /// Downcast an object value to a concrete Rust type.
    pub fn downcast<T: Object>(&self) -> Option<&T> {
        match self {
            Value::Object(o) => o.as_any().downcast_ref::<T>(),
            _ => None,
        }
    }

    /// An integer for an index/size argument: Python int, bool, or an integer NumPy scalar.
    /// Floats raise TypeError, as NumPy does for shapes.
    pub fn as_index(&self) -> PyResult<i64> {
        match self {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(*b as i64),
            Value::Scalar(s) if s.dtype().is_integer() || s.dtype() == DType::Bool => {
                Ok(s.as_i64())
            }
            Value::BigInt(_) => Err(PyErr::overflow(
                "Python int too large to convert to C ssize_t",
            )),
            other => Err(PyErr::type_error(format!(
                "'{}' object cannot be interpreted as an integer",
                other.type_name()
            ))),
        }
    }

    /// A float for a numeric argument (int, float, bool, NumPy scalar).
    pub fn as_f64(&self) -> PyResult<f64> {
        match self {
            Value::Int(i) => Ok(*i as f64),
            Value::Bool(b) => Ok(*b as i64 as f64),
            Value::Float(f) => Ok(*f),
            Value::Scalar(s) => Ok(s.as_f64()),
            Value::BigInt(b) => crate::py::bigint::to_f64(b),
            other => Err(PyErr::type_error(format!(
                "must be real number, not {}",
                other.type_name()
            ))),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::None => write!(f, "None"),
            Value::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            Value::Int(i) => write!(f, "{i}"),
            Value::BigInt(b) => write!(f, "{b}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s:?}"),
            other => write!(f, "<{}>", other.type_name()),
        }
    }
}

/// A class object for non-builtin types (`type(d)` of a device array).
pub struct ClassObj {
    pub module: String,
    pub name: String,
    /// What calling the class does (its constructor); None: not callable from Python.
    pub ctor: Option<Value>,
}

impl Object for ClassObj {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(if self.module == "builtins" {
            format!("<class '{}'>", self.name)
        } else {
            format!("<class '{}.{}'>", self.module, self.name)
        })
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "__name__" | "__qualname__" => Some(Value::str(&self.name)),
            "__module__" => Some(Value::str(&self.module)),
            _ => None,
        })
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        match &self.ctor {
            Some(f) => rt.call(f, args),
            None => Err(PyErr::type_error(format!(
                "cannot create '{}.{}' instances",
                self.module, self.name
            ))),
        }
    }
    fn py_eq(&self, other: &Value, _rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(Some(other.downcast::<ClassObj>().is_some_and(|o| {
            o.name == self.name && o.module == self.module
        })))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A Python number as a NumPy scalar of its default dtype.
pub fn python_scalar(v: &Value) -> PyResult<Scalar> {
    Ok(match v {
        Value::Int(i) => Scalar::I64(*i),
        Value::Float(f) => Scalar::F64(*f),
        Value::Complex(r, i) => Scalar::C128(*r, *i),
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Scalar(s) => *s,
        // NumPy takes ints up to 2**64 - 1 as uint64; beyond, it would need object arrays.
        Value::BigInt(b) => match num_traits::ToPrimitive::to_u64(&**b) {
            Some(u) => Scalar::U64(u),
            None => return Err(PyErr::overflow("Python int too large to convert to C long")),
        },
        other => {
            return Err(PyErr::type_error(format!(
                "expected a number, got '{}'",
                other.type_name()
            )))
        }
    })
}

/// A scalar as a Python number of the closest kind (for `.item()`, `.tolist()`).
pub fn scalar_to_python(s: Scalar) -> Value {
    match s {
        Scalar::Bool(b) => Value::Bool(b),
        Scalar::F16(_) | Scalar::F32(_) | Scalar::F64(_) => Value::Float(s.as_f64()),
        Scalar::C64(..) | Scalar::C128(..) => {
            let (r, i) = s.as_c128();
            Value::Complex(r, i)
        }
        Scalar::U64(v) if v > i64::MAX as u64 => Value::BigInt(Rc::new(v.into())),
        _ => Value::Int(s.as_i64()),
    }
}

impl From<crate::arrays::reduce::Reduced> for Value {
    fn from(r: crate::arrays::reduce::Reduced) -> Value {
        match r {
            crate::arrays::reduce::Reduced::Scalar(s) => Value::Scalar(s),
            crate::arrays::reduce::Reduced::Array(a) => Value::Array(Box::new(a)),
        }
    }
}

thread_local! {
    /// Containers left to drop by the outermost drop in progress (see `Drop for Value`).
    static DROP_QUEUE: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
    static DRAINING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Drop `v` in place when it owns nothing (a number, None, a bool): the enum's drop glue
/// is an out-of-line call even then, and the hot paths (a call's result discarded, a
/// loop variable rebound, a frame's slots) mostly drop small ints.
#[inline(always)]
pub fn release(v: Value) {
    match v {
        Value::None | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Complex(..) => {
            std::mem::forget(v)
        }
        other => drop(other),
    }
}

fn is_container(v: &Value) -> bool {
    matches!(
        v,
        Value::List(_) | Value::Set(_) | Value::Tuple(_) | Value::Dict(_)
    )
}

/// Dropping a container drops its items, which for a list nested millions deep (built by
/// `l = [l]` in a loop) recurses once per level and overflows the stack. As CPython's
/// "trashcan" does, the outermost drop takes the nested containers over and drops them
/// one at a time from a queue, so no drop recurses more than one level.
impl Drop for Value {
    // Inline so that dropping a number or a string (every temporary the interpreter makes)
    // costs a tag test, not a call.
    #[inline]
    fn drop(&mut self) {
        if is_container(self) {
            drop_container(self);
        }
    }
}

#[inline(never)]
fn drop_container(v: &mut Value) {
    let children: Vec<Value> = match v {
        Value::List(l) => match Rc::get_mut(l) {
            Some(cell) if cell.borrow().iter().any(is_container) => std::mem::take(cell.get_mut()),
            _ => return,
        },
        Value::Tuple(t) => match Rc::get_mut(t) {
            Some(items) if items.iter().any(is_container) => items
                .iter_mut()
                .map(|v| std::mem::replace(v, Value::None))
                .collect(),
            _ => return,
        },
        Value::Dict(d) | Value::Set(d) => match Rc::get_mut(d) {
            Some(cell)
                if cell
                    .borrow()
                    .iter()
                    .any(|(k, v)| is_container(k) || is_container(v)) =>
            {
                cell.get_mut()
                    .take_entries()
                    .into_iter()
                    .flat_map(|(k, v)| [k, v])
                    .collect()
            }
            _ => return,
        },
        _ => return,
    };
    // During thread teardown the queue may be gone: drop the plain way.
    let Ok(draining) = DRAINING.try_with(|d| d.replace(true)) else {
        return;
    };
    if draining {
        let _ = DROP_QUEUE.try_with(|q| q.borrow_mut().extend(children));
        return;
    }
    drop(children);
    while let Some(next) = DROP_QUEUE.with(|q| q.borrow_mut().pop()) {
        drop(next);
    }
    DRAINING.with(|d| d.set(false));
}
