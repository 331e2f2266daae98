//! Small built-in object types: `object()` instances, `range`, exception classes and
//! instances, `dict` views, and the `types` module (`ModuleType`, `SimpleNamespace`).

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use crate::py::error::{Chain, PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::{Clinic, Function};
use crate::py::value::{Args, Module, Object, Value};

/// What `object()` returns: an object with no attributes, equal and hashed by identity,
/// whose point is to be unlike every other value (the `_MISSING = object()` sentinel).
pub struct PlainObject;

impl Object for PlainObject {
    fn hashed_by_identity(&self) -> bool {
        true
    }
    fn type_name(&self) -> String {
        "object".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "<object object at {:#x}>",
            self as *const Self as usize
        ))
    }
    fn set_attr(&self, name: &str, _value: Value, _rt: &mut Runtime) -> PyResult<bool> {
        // CPython's text: an `object()` has no `__dict__`, so no attribute exists to set.
        Err(PyErr::attribute_error(format!(
            "'object' object has no attribute '{name}'"
        )))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `object()`.
pub fn new_object(_rt: &mut Runtime, args: Args) -> PyResult<Value> {
    if !args.pos.is_empty() || !args.kw.is_empty() {
        return Err(PyErr::type_error("object() takes no arguments"));
    }
    Ok(Value::Object(Rc::new(PlainObject)))
}

/// `range(start, stop, step)`, iterated lazily by `for`.
pub struct RangeObj {
    pub start: i64,
    pub stop: i64,
    pub step: i64,
}

impl RangeObj {
    pub fn len(&self) -> usize {
        let (s, e, st) = (self.start as i128, self.stop as i128, self.step as i128);
        let n = if st > 0 {
            (e - s + st - 1) / st
        } else {
            (s - e - st - 1) / (-st)
        };
        n.max(0) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Element `i < len()`. It lies between `start` and `stop`, so it fits an i64 even
    /// where `step * i` alone does not (`range(-2**63, 2**63 - 1, 2**63 - 1)[2]`): the
    /// wrapping sum is the exact value.
    pub fn get(&self, i: usize) -> i64 {
        self.start.wrapping_add(self.step.wrapping_mul(i as i64))
    }
}

impl Object for RangeObj {
    fn type_name(&self) -> String {
        "range".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(if self.step == 1 {
            format!("range({}, {})", self.start, self.stop)
        } else {
            format!("range({}, {}, {})", self.start, self.stop, self.step)
        })
    }
    fn iter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        let n = self.len();
        // Listing is what `list(range(n))` asks for; loops, comprehensions and lazy
        // consumers count through a range instead of coming here.
        let mut out = crate::arrays::alloc::vec_with_capacity(n, "a list")?;
        for i in 0..n {
            if i % 1_000_000 == 0 {
                rt.check_interrupt()?;
            }
            out.push(Value::Int(self.get(i)));
        }
        Ok(Some(out))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(RangeObj::len(self)))
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        let n = RangeObj::len(&self) as i64;
        let mut i = key.as_index()?;
        if i < 0 {
            i += n;
        }
        if i < 0 || i >= n {
            return Err(PyErr::index_error("range object index out of range"));
        }
        Ok(Value::Int(self.get(i as usize)))
    }
    fn truthy(&self, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(RangeObj::len(self) > 0)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Exception classes, with a single-inheritance chain for `except` matching.
pub struct ExceptionType {
    pub name: String,
}

impl Object for ExceptionType {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        match crate::py::exceptions::ExcClass::from_name(&self.name).map(|c| c.module()) {
            Some(module) if module != "builtins" => Ok(format!("<class '{module}.{}'>", self.name)),
            _ => Ok(format!("<class '{}'>", self.name)),
        }
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let is_key_error = crate::py::exceptions::name_is_subclass(&self.name, "KeyError");
        let msg = match args.pos.as_slice() {
            [] => String::new(),
            // str(KeyError(k)) is repr(k), so a missing key shows its quotes.
            [one] if is_key_error => crate::interp::repr::repr(rt, one)?,
            [one] => crate::interp::repr::to_str(rt, one)?,
            many => crate::interp::repr::repr(rt, &Value::tuple(many.to_vec()))?,
        };
        Ok(Value::object(ExceptionValue::new(
            PyErr::new(&self.name, msg),
            args.pos,
        )))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "__name__" | "__qualname__" => Some(Value::str(&self.name)),
            "__module__" => Some(Value::str(
                crate::py::exceptions::ExcClass::from_name(&self.name)
                    .map_or("builtins", |c| c.module()),
            )),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// An exception instance (`ValueError('x')`, or the `e` in `except ... as e`).
pub struct ExceptionValue {
    pub err: PyErr,
    pub args: Vec<Value>,
    /// `__cause__`, `__context__` and `__suppress_context__`, set as it is raised.
    pub chain: RefCell<Chain>,
}

impl ExceptionValue {
    pub fn new(err: PyErr, args: Vec<Value>) -> ExceptionValue {
        let chain = err
            .obj
            .as_ref()
            .map(|o| o.chain.clone())
            .unwrap_or_default();
        ExceptionValue {
            err,
            args,
            chain: RefCell::new(chain),
        }
    }

    /// `e.args`: the arguments it was made with, or its message.
    pub fn args(&self) -> Vec<Value> {
        if !self.args.is_empty() {
            return self.args.clone();
        }
        match self.err.obj.as_ref().and_then(|o| o.args.clone()) {
            Some(args) => args,
            None if self.err.message.is_empty() => vec![],
            None => vec![Value::str(&self.err.message)],
        }
    }
}

/// The object Python code sees for a caught error: the instance it was raised as, or a new
/// exception object for an error nbcuda raised. The error keeps it, so that a re-raise and
/// `__context__` keep its identity.
pub fn caught(mut err: PyErr) -> (PyErr, Value) {
    if let Some(u) = &err.user {
        let v = u.instance.clone();
        return (err, v);
    }
    if let Some(v) = err.obj.as_ref().and_then(|o| o.instance.clone()) {
        return (err, v);
    }
    let v = Value::object(ExceptionValue::new(err.clone(), vec![]));
    err.obj_mut().instance = Some(v.clone());
    (err, v)
}

/// The object an error was raised as or caught as, if it has one yet.
fn identity(err: &PyErr) -> Option<Value> {
    match &err.user {
        Some(u) => Some(u.instance.clone()),
        None => err.obj.as_ref().and_then(|o| o.instance.clone()),
    }
}

/// Set a link of the chain on the error and on its object.
fn set_chain(err: &mut PyErr, f: impl Fn(&mut Chain)) {
    f(&mut err.obj_mut().chain);
    let Some(v) = identity(err) else { return };
    if let Some(e) = v.downcast::<ExceptionValue>() {
        f(&mut e.chain.borrow_mut());
    } else if let Some(inst) = crate::interp::classes::as_instance(&v) {
        let mut chain = Chain::default();
        f(&mut chain);
        let mut attrs = inst.attrs.borrow_mut();
        let link = |l: Option<(Value, Rc<PyErr>)>| l.map_or(Value::None, |(v, _)| v);
        attrs.insert("__cause__".into(), link(chain.cause));
        attrs.insert("__context__".into(), link(chain.context));
        attrs.insert(
            "__suppress_context__".into(),
            Value::Bool(chain.suppress_context),
        );
    }
}

/// `raise err from cause`: the cause (an exception object, or None to suppress the context).
pub fn set_cause(rt: &mut Runtime, err: &mut PyErr, cause: &Value) -> PyResult<()> {
    let link = match cause {
        Value::None => None,
        v => {
            let (cerr, cv) = caught(crate::interp::stmt::to_exception(rt, v).map_err(|_| {
                PyErr::type_error("exception causes must derive from BaseException")
            })?);
            Some((cv, Rc::new(cerr)))
        }
    };
    let context = err.obj.as_ref().and_then(|o| o.chain.context.clone());
    set_chain(err, |c| {
        c.cause = link.clone();
        c.context = context.clone();
        c.suppress_context = true;
    });
    Ok(())
}

/// An error that escapes an `except` block gets the exception being handled as its
/// `__context__`, unless it already has one or is that exception re-raised.
pub fn chain_context(mut err: PyErr, handled: &PyErr) -> PyErr {
    let Some(hv) = identity(handled) else {
        return err;
    };
    if err.obj.as_ref().is_some_and(|o| o.chain.context.is_some()) {
        return err;
    }
    if let (Some(Value::Object(a)), Value::Object(b)) = (&identity(&err), &hv) {
        if Rc::ptr_eq(a, b) {
            return err;
        }
    }
    let (cause, suppress) = err
        .obj
        .as_ref()
        .map(|o| (o.chain.cause.clone(), o.chain.suppress_context))
        .unwrap_or_default();
    let link = Some((hv, Rc::new(handled.clone())));
    set_chain(&mut err, |c| {
        c.cause = cause.clone();
        c.context = link.clone();
        c.suppress_context = suppress;
    });
    err
}

/// A `JSONDecodeError`'s `msg`, `pos`, `lineno` or `colno`, from the
/// "MSG: line L column C (char P)" text the decoder builds it with.
fn json_error_part(message: &str, name: &str) -> Option<Value> {
    let (msg, tail) = message.rsplit_once(": line ")?;
    let (lineno, rest) = tail.split_once(" column ")?;
    let (colno, rest) = rest.split_once(" (char ")?;
    let pos = rest.strip_suffix(')')?;
    let int = |t: &str| t.parse::<i64>().ok().map(Value::Int);
    match name {
        "msg" => Some(Value::str(msg)),
        "pos" => int(pos),
        "lineno" => int(lineno),
        _ => int(colno),
    }
}

impl Object for ExceptionValue {
    fn hashed_by_identity(&self) -> bool {
        true
    }
    fn type_name(&self) -> String {
        self.err.ename.clone()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        if self.args.is_empty()
            && self
                .err
                .is_instance(crate::py::exceptions::ExcClass::KeyError)
        {
            // A KeyError's message is already the repr of its key.
            return Ok(format!("{}({})", self.err.ename, self.err.message));
        }
        let args = self.args();
        let mut parts = Vec::new();
        for a in &args {
            parts.push(crate::interp::repr::repr(rt, a)?);
        }
        Ok(format!("{}({})", self.err.ename, parts.join(", ")))
    }
    fn str(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(self.err.message.clone())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "args" => Some(Value::tuple(self.args())),
            "__cause__" => Some(link(&self.chain.borrow().cause)),
            "__context__" => Some(link(&self.chain.borrow().context)),
            "__suppress_context__" => Some(Value::Bool(self.chain.borrow().suppress_context)),
            "__traceback__" => Some(crate::interp::traceback_obj::of(&self.err)),
            "msg" | "filename" | "lineno" | "offset" | "text" | "end_lineno" | "end_offset"
                if self
                    .err
                    .is_instance(crate::py::exceptions::ExcClass::SyntaxError) =>
            {
                Some(syntax_attr(&self.args(), name))
            }
            // A StopIteration's value is what the generator returned.
            "value"
                if self
                    .err
                    .is_instance(crate::py::exceptions::ExcClass::StopIteration) =>
            {
                Some(self.args().first().cloned().unwrap_or(Value::None))
            }
            // An OSError's number, from the "[Errno N] ..." text nbcuda builds it with.
            "errno"
                if self
                    .err
                    .is_instance(crate::py::exceptions::ExcClass::OSError) =>
            {
                Some(
                    self.err
                        .message
                        .strip_prefix("[Errno ")
                        .and_then(|r| r.split(']').next())
                        .and_then(|n| n.parse::<i64>().ok())
                        .map_or(Value::None, Value::Int),
                )
            }
            "msg" | "pos" | "lineno" | "colno"
                if self
                    .err
                    .is_instance(crate::py::exceptions::ExcClass::JSONDecodeError) =>
            {
                json_error_part(&self.err.message, name)
            }
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A SyntaxError's fields, from its args `(msg, (filename, lineno, offset, text,
/// end_lineno, end_offset))`.
fn syntax_attr(args: &[Value], name: &str) -> Value {
    let field = |i: usize| match args.get(1) {
        Some(Value::Tuple(t)) => t.get(i).cloned().unwrap_or(Value::None),
        _ => Value::None,
    };
    match name {
        "msg" => args.first().cloned().unwrap_or(Value::None),
        "filename" => field(0),
        "lineno" => field(1),
        "offset" => field(2),
        "text" => field(3),
        "end_lineno" => field(4),
        _ => field(5),
    }
}

fn link(l: &Option<(Value, Rc<PyErr>)>) -> Value {
    l.as_ref().map_or(Value::None, |(v, _)| v.clone())
}

/// The `types` module: `ModuleType` (a new, empty module object) and `SimpleNamespace`.
pub fn types_module() -> Rc<Module> {
    let m = Module::new("types", "Names for built-in types, and their constructors.");
    m.def(
        Clinic,
        "ModuleType",
        "name, doc=None",
        "A new, empty module object.",
        |_rt, b| {
            let name = match &b[0] {
                Some(Value::Str(s)) => s.to_string(),
                Some(other) => {
                    return Err(PyErr::type_error(format!(
                        "ModuleType() argument 'name' must be str, not {}",
                        other.type_name()
                    )))
                }
                None => {
                    return Err(PyErr::type_error(
                        "ModuleType() missing required argument 'name'",
                    ))
                }
            };
            let doc = match &b[1] {
                Some(Value::Str(s)) => s.to_string(),
                _ => String::new(),
            };
            Ok(Value::Module(Rc::new(Module::new(&name, &doc))))
        },
    );
    // `*args` so a positional gets CPython 3.11's own message.
    m.def_shown(
        Function,
        "SimpleNamespace",
        "*args, **kwargs",
        "SimpleNamespace(**kwargs)",
        "An object whose attributes are the keyword arguments, settable and deletable.",
        |_rt, b| {
            if !b.rest.is_empty() {
                return Err(PyErr::type_error("no positional arguments expected"));
            }
            let attrs =
                b.kw.iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect();
            Ok(Value::object(Namespace {
                attrs: std::cell::RefCell::new(attrs),
            }))
        },
    );
    Rc::new(m)
}

/// `types.SimpleNamespace`: attributes in assignment order.
pub struct Namespace {
    attrs: std::cell::RefCell<Vec<(String, Value)>>,
}

impl Object for Namespace {
    fn type_name(&self) -> String {
        "SimpleNamespace".into()
    }
    fn module_name(&self) -> String {
        "types".into()
    }
    fn repr(&self, rt: &mut Runtime) -> PyResult<String> {
        let items = self.attrs.borrow().clone();
        let mut parts = Vec::new();
        for (k, v) in items {
            parts.push(format!("{k}={}", crate::interp::repr::repr(rt, &v)?));
        }
        Ok(format!("namespace({})", parts.join(", ")))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(self
            .attrs
            .borrow()
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone()))
    }
    fn set_attr(&self, name: &str, value: Value, _rt: &mut Runtime) -> PyResult<bool> {
        let mut attrs = self.attrs.borrow_mut();
        match attrs.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value,
            None => attrs.push((name.to_string(), value)),
        }
        Ok(true)
    }
    fn dir(&self) -> Vec<String> {
        self.attrs.borrow().iter().map(|(k, _)| k.clone()).collect()
    }
    fn py_eq(&self, other: &Value, rt: &mut Runtime) -> PyResult<Option<bool>> {
        let Some(o) = other.downcast::<Namespace>() else {
            return Ok(Some(false));
        };
        let (a, b) = (self.attrs.borrow().clone(), o.attrs.borrow().clone());
        if a.len() != b.len() {
            return Ok(Some(false));
        }
        for (k, v) in &a {
            match b.iter().find(|(k2, _)| k2 == k) {
                Some((_, w)) if crate::interp::ops::py_eq(rt, v, w)? => {}
                _ => return Ok(Some(false)),
            }
        }
        Ok(Some(true))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
