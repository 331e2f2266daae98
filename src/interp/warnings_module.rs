//! The `warnings` module: Python's filter list (`filterwarnings`, `simplefilter`,
//! `resetwarnings`) and `catch_warnings`, which saves and restores it and can record
//! warnings instead of showing them. Native code warns through [`Runtime::warn`] with a
//! category name; the interpreter's hook ([`warn_hook`]) sends it through the same filters
//! as `warnings.warn`.
//!
//! Known difference: with no filter matching, a warning is shown once per cell for the
//! same category, message and location (CPython shows it once per location for the
//! session); `once` is once per session, as in CPython.

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

use crate::interp::objects::ExceptionType;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::{Clinic, Function};
use crate::py::value::{Args, Module, Object, Value};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Action {
    Error,
    Ignore,
    Always,
    Default,
    Module,
    Once,
}

impl Action {
    fn parse(v: &Value) -> PyResult<Action> {
        Ok(match v.as_str() {
            Some("error") => Action::Error,
            Some("ignore") => Action::Ignore,
            Some("always" | "all") => Action::Always,
            Some("default") => Action::Default,
            Some("module") => Action::Module,
            Some("once") => Action::Once,
            _ => {
                let shown = match v.as_str() {
                    Some(s) => format!("'{s}'"),
                    None => v.type_name(),
                };
                return Err(PyErr::new(
                    "AssertionError",
                    format!("invalid action: {shown}"),
                ));
            }
        })
    }
}

#[derive(Clone)]
struct Filter {
    action: Action,
    /// Matched case-insensitively at the start of the message, as CPython compiles it.
    message: Option<regex::Regex>,
    category: Value,
}

/// The session's filters and, inside `catch_warnings(record=True)`, the list recorded into.
/// The list `catch_warnings(record=True)` returned, which warnings are appended to.
type Recorded = Rc<RefCell<Vec<Value>>>;

#[derive(Default)]
struct WarningsState {
    filters: Vec<Filter>,
    record: Option<Recorded>,
    once: HashSet<String>,
}

fn warning_class() -> Value {
    Value::object(ExceptionType {
        name: "Warning".into(),
    })
}

/// The class object for a category nbcuda's native code names.
fn category_by_name(rt: &mut Runtime, name: &str) -> Value {
    match rt.hooks.and_then(|h| (h.builtin)(rt, name)) {
        Some(v) => v,
        None => Value::object(ExceptionType {
            name: name.to_string(),
        }),
    }
}

fn class_name(rt: &mut Runtime, class: &Value) -> PyResult<String> {
    Ok(
        match &crate::interp::attrs::get_attr(rt, class, "__name__")? {
            Value::Str(s) => s.to_string(),
            _ => "Warning".into(),
        },
    )
}

/// The installed [`crate::py::runtime::InterpHooks::warn`]: a native warning by category name.
pub fn warn_hook(rt: &mut Runtime, category: &str, message: &str, origin: &str) -> PyResult<()> {
    let class = category_by_name(rt, category);
    emit(rt, class, Value::str(message), origin)
}

/// Send one warning through the filters. `message` is the text, or a Warning instance.
fn emit(rt: &mut Runtime, category: Value, message: Value, origin: &str) -> PyResult<()> {
    let text = crate::interp::repr::to_str(rt, &message)?;
    let filters = rt.state::<WarningsState>().filters.clone();
    let mut action = Action::Default;
    for f in &filters {
        if f.message.as_ref().is_some_and(|re| !re.is_match(&text)) {
            continue;
        }
        if crate::interp::class_tools::is_subclass(rt, &category, &f.category)? {
            action = f.action;
            break;
        }
    }
    let name = class_name(rt, &category)?;
    let instance = if message.as_str().is_some() {
        crate::interp::expr::call_value(rt, &category, Args::new(vec![message]))?
    } else {
        message
    };
    let first_time = match action {
        Action::Ignore => return Ok(()),
        Action::Error => return Err(crate::interp::stmt::to_exception(rt, &instance)?),
        Action::Always => true,
        Action::Once => rt
            .state::<WarningsState>()
            .once
            .insert(format!("{name}\u{0}{text}")),
        Action::Default | Action::Module => rt.first_warning(&name, &text, origin),
    };
    if !first_time {
        return Ok(());
    }
    match rt.state::<WarningsState>().record.clone() {
        Some(list) => list.borrow_mut().push(Value::object(WarningMessage {
            message: instance,
            category,
            origin: origin.to_string(),
        })),
        None => rt.print_warning(&name, &text, origin),
    }
    Ok(())
}

/// One recorded warning (`warnings.WarningMessage`).
struct WarningMessage {
    message: Value,
    category: Value,
    origin: String,
}

impl WarningMessage {
    /// The cell and line: "Cell In[3], line 7" gives ("<cell 3>", 7).
    fn place(&self) -> (String, i64) {
        let (cell, line) = match self.origin.split_once(", line ") {
            Some((c, l)) => (c, l.trim().parse().unwrap_or(0)),
            None => (self.origin.as_str(), 0),
        };
        (cell.to_string(), line)
    }
}

impl Object for WarningMessage {
    fn type_name(&self) -> String {
        "WarningMessage".into()
    }
    fn module_name(&self) -> String {
        "warnings".into()
    }
    fn str(&self, rt: &mut Runtime) -> PyResult<String> {
        let (file, line) = self.place();
        let message = crate::interp::repr::repr(rt, &self.message)?;
        let category = class_name(rt, &self.category)?;
        Ok(format!(
            "{{message : {message}, category : '{category}', filename : '{file}', lineno : {line}, line : None}}"
        ))
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "<warnings.WarningMessage object at {:#x}>",
            self as *const Self as usize
        ))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let (file, line) = self.place();
        Ok(match name {
            "message" => Some(self.message.clone()),
            "category" => Some(self.category.clone()),
            "filename" => Some(Value::str(&file)),
            "lineno" => Some(Value::Int(line)),
            "line" | "file" | "source" => Some(Value::None),
            _ => None,
        })
    }
    fn dir(&self) -> Vec<String> {
        [
            "category", "file", "filename", "line", "lineno", "message", "source",
        ]
        .map(String::from)
        .to_vec()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `with warnings.catch_warnings(record=...) as w:`.
struct CatchWarnings {
    record: bool,
    /// `action=`, `category=`: a `simplefilter` applied on entry (Python 3.11).
    filter: Option<Filter>,
    saved: RefCell<Option<(Vec<Filter>, Option<Recorded>)>>,
}

impl Object for CatchWarnings {
    fn type_name(&self) -> String {
        "catch_warnings".into()
    }
    fn module_name(&self) -> String {
        "warnings".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!(
            "catch_warnings(record={})",
            if self.record { "True" } else { "False" }
        ))
    }
    fn enter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Value> {
        if self.saved.borrow().is_some() {
            return Err(PyErr::runtime_error(format!(
                "Cannot enter {} twice",
                self.repr(rt)?
            )));
        }
        let st = rt.state::<WarningsState>();
        *self.saved.borrow_mut() = Some((st.filters.clone(), st.record.clone()));
        if let Some(f) = &self.filter {
            st.filters.insert(0, f.clone());
        }
        if !self.record {
            return Ok(Value::None);
        }
        let list = Rc::new(RefCell::new(Vec::new()));
        st.record = Some(list.clone());
        Ok(Value::List(list))
    }
    fn exit(&self, rt: &mut Runtime, _error: Option<&PyErr>) -> PyResult<bool> {
        let Some((filters, record)) = self.saved.borrow_mut().take() else {
            return Err(PyErr::runtime_error(
                "Cannot exit catch_warnings without entering first",
            ));
        };
        let st = rt.state::<WarningsState>();
        st.filters = filters;
        st.record = record;
        Ok(false)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn category_arg(v: Option<&Value>) -> PyResult<Value> {
    match v {
        None | Some(Value::None) => Ok(warning_class()),
        Some(Value::Str(_)) => Err(PyErr::new("AssertionError", "category must be a class")),
        Some(c) => Ok(c.clone()),
    }
}

fn add_filter(rt: &mut Runtime, f: Filter, append: bool) {
    let filters = &mut rt.state::<WarningsState>().filters;
    // CPython removes an equal filter before inserting it again.
    filters.retain(|g| {
        g.action != f.action
            || g.message.as_ref().map(|r| r.as_str().to_string())
                != f.message.as_ref().map(|r| r.as_str().to_string())
            || !same_object(&g.category, &f.category)
    });
    if append {
        filters.push(f);
    } else {
        filters.insert(0, f);
    }
}

fn same_object(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            if Rc::ptr_eq(x, y) {
                return true;
            }
            match (
                x.as_any().downcast_ref::<ExceptionType>(),
                y.as_any().downcast_ref::<ExceptionType>(),
            ) {
                (Some(p), Some(q)) => p.name == q.name,
                _ => false,
            }
        }
        _ => false,
    }
}

fn message_regex(pattern: &str) -> PyResult<Option<regex::Regex>> {
    if pattern.is_empty() {
        return Ok(None);
    }
    regex::Regex::new(&format!("(?i)^(?:{pattern})"))
        .map(Some)
        .map_err(|e| PyErr::new("re.error", e.to_string()))
}

fn truthy(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Bool(true))) || matches!(v, Some(Value::Int(n)) if *n != 0)
}

pub fn module() -> Rc<Module> {
    let m = Module::new(
        "warnings",
        "Python's warning filters; warnings show on stderr.",
    );
    m.def(
        Clinic,
        "warn",
        "message, category=None, stacklevel=1, source=None",
        "Issue a warning, or maybe ignore it or raise an exception.",
        |rt, b| {
            let message = b[0].clone().unwrap_or(Value::None);
            let is_warning = |rt: &mut Runtime, c: &Value| {
                crate::interp::class_tools::is_subclass(rt, c, &warning_class())
            };
            let category = if message.as_str().is_none() {
                // A Warning instance carries its category.
                let class = match message.downcast::<crate::interp::objects::ExceptionValue>() {
                    Some(e) => Value::object(ExceptionType {
                        name: e.err.ename.clone(),
                    }),
                    None => crate::interp::builtins::type_of(rt, &message),
                };
                if is_warning(rt, &class).unwrap_or(false) {
                    class
                } else {
                    let text = crate::interp::repr::to_str(rt, &message)?;
                    return warn_text(rt, Value::str(&text), b[1].as_ref());
                }
            } else {
                return warn_text(rt, message, b[1].as_ref());
            };
            let origin = format!("Cell In[{}]", rt.execution_count);
            emit(rt, category, message, &origin)?;
            Ok(Value::None)
        },
    );
    m.def(
        Function,
        "filterwarnings",
        "action, message='', category=Warning, module='', lineno=0, append=False",
        "Insert an entry into the list of warnings filters (at the front by default).",
        |rt, b| {
            let action = Action::parse(b[0].as_ref().unwrap_or(&Value::None))?;
            let pattern = match &b[1] {
                None => String::new(),
                Some(Value::Str(s)) => s.to_string(),
                Some(_) => return Err(PyErr::new("AssertionError", "message must be a string")),
            };
            let f = Filter {
                action,
                message: message_regex(&pattern)?,
                category: category_arg(b[2].as_ref())?,
            };
            add_filter(rt, f, truthy(b[5].as_ref()));
            Ok(Value::None)
        },
    );
    m.def(
        Function,
        "simplefilter",
        "action, category=Warning, lineno=0, append=False",
        "Insert a simple entry into the list of warnings filters.",
        |rt, b| {
            let f = Filter {
                action: Action::parse(b[0].as_ref().unwrap_or(&Value::None))?,
                message: None,
                category: category_arg(b[1].as_ref())?,
            };
            add_filter(rt, f, truthy(b[3].as_ref()));
            Ok(Value::None)
        },
    );
    m.def(
        Function,
        "resetwarnings",
        "",
        "Clear the list of warning filters, so that no handlers match.",
        |rt, _| {
            rt.state::<WarningsState>().filters.clear();
            Ok(Value::None)
        },
    );
    // `*args` so a positional gets the message of CPython's `__init__(self, *, ...)`.
    m.def_shown(
        Function,
        "catch_warnings",
        "*args, record=False, module=None, action=None, category=Warning, lineno=0, append=False",
        "catch_warnings(*, record=False, module=None, action=None, category=Warning, lineno=0, append=False)",
        "A context manager that saves the warning filters on entry and restores them on exit; with record=True it returns the list warnings are appended to.",
        |_rt, b| {
            if !b.rest.is_empty() {
                return Err(PyErr::type_error(format!(
                    "catch_warnings.__init__() takes 1 positional argument but {} were given",
                    b.rest.len() + 1
                )));
            }
            let filter = match &b[2] {
                None | Some(Value::None) => None,
                Some(v) => Some(Filter {
                    action: Action::parse(v)?,
                    message: None,
                    category: category_arg(b[3].as_ref())?,
                }),
            };
            Ok(Value::object(CatchWarnings {
                record: truthy(b[0].as_ref()),
                filter,
                saved: RefCell::new(None),
            }))
        },
    );
    Rc::new(m)
}

/// `warnings.warn(text, category)`: the category defaults to UserWarning.
fn warn_text(rt: &mut Runtime, message: Value, category: Option<&Value>) -> PyResult<Value> {
    let category = match category {
        None | Some(Value::None) => category_by_name(rt, "UserWarning"),
        Some(c) => {
            if !crate::interp::class_tools::is_subclass(rt, c, &warning_class()).unwrap_or(false) {
                return Err(PyErr::type_error(format!(
                    "category must be a Warning subclass, not '{}'",
                    c.type_name()
                )));
            }
            c.clone()
        }
    };
    let origin = format!("Cell In[{}]", rt.execution_count);
    emit(rt, category, message, &origin)?;
    Ok(Value::None)
}
