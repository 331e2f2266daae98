//! The runtime context handed to every native function: the output channel to the
//! frontend, the interrupt flag, and per-subsystem session state.

use std::any::{Any, TypeId};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::{Map, Value as Json};

use crate::py::error::{PyErr, PyResult};
use crate::py::value::{Args, Value};

/// Where a cell's side effects go. The protocol implements it with IOPub/stdin messages,
/// `nbcuda run` by appending notebook outputs, tests by recording.
pub trait Frontend {
    fn stream(&mut self, name: StreamName, text: &str);
    /// `display_data` (or `update_display_data` when `update` is true) with an optional
    /// `display_id` in `transient`.
    fn display(
        &mut self,
        data: Map<String, Json>,
        metadata: Map<String, Json>,
        display_id: Option<&str>,
        update: bool,
    );
    fn clear_output(&mut self, wait: bool);
    /// Ask the user for a line (`input()`); Err when stdin is not allowed.
    fn input(&mut self, prompt: &str, password: bool) -> Result<String, String>;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamName {
    Stdout,
    Stderr,
}

impl StreamName {
    pub fn as_str(self) -> &'static str {
        match self {
            StreamName::Stdout => "stdout",
            StreamName::Stderr => "stderr",
        }
    }
}

/// A frontend that discards everything (used before a cell starts and in benchmarks).
pub struct NullFrontend;

impl Frontend for NullFrontend {
    fn stream(&mut self, _: StreamName, _: &str) {}
    fn display(&mut self, _: Map<String, Json>, _: Map<String, Json>, _: Option<&str>, _: bool) {}
    fn clear_output(&mut self, _: bool) {}
    fn input(&mut self, _: &str, _: bool) -> Result<String, String> {
        Err("input is not available here".into())
    }
}

/// A hook run at the end of every cell.
pub type CellHook = fn(&mut Runtime) -> PyResult<()>;

/// What native code may ask of the interpreter. Native modules sit below the interpreter
/// and cannot import it; the interpreter installs these when a session starts.
#[derive(Clone, Copy)]
pub struct InterpHooks {
    /// Call any Python callable.
    pub call: fn(&mut Runtime, &Value, Args) -> PyResult<Value>,
    /// `list(v)`: the items of any iterable.
    pub iterate: fn(&mut Runtime, &Value) -> PyResult<Vec<Value>>,
    /// `bool(v)`.
    pub truthy: fn(&mut Runtime, &Value) -> PyResult<bool>,
    /// `str(v)`.
    pub to_str: fn(&mut Runtime, &Value) -> PyResult<String>,
    /// A builtin by name (`range`).
    pub builtin: fn(&mut Runtime, &str) -> Option<Value>,
    /// Issue a warning through the `warnings` filters: category name, message, origin.
    pub warn: fn(&mut Runtime, &str, &str, &str) -> PyResult<()>,
}

/// Per-session services for native code.
pub struct Runtime {
    pub frontend: Box<dyn Frontend>,
    /// Set by `interrupt_request` or SIGINT; checked at loop back-edges and in long operations.
    pub interrupt: Arc<AtomicBool>,
    /// The execution count of the running cell (`In[n]`).
    pub execution_count: u32,
    /// Warnings already shown in this cell, keyed by (category, message, origin): Python's
    /// default filter shows each once.
    shown_warnings: HashSet<String>,
    /// Typed per-subsystem state: each module keeps its own (see [`Runtime::state`]).
    /// FxHash: looked up on every call and builtin-name lookup; TypeIds are hashes already.
    ext: rustc_hash::FxHashMap<TypeId, Box<dyn Any>>,
    /// Hooks run at the end of every cell (pyplot figures, ledger summary), in order.
    pub end_of_cell_hooks: Vec<(String, CellHook)>,
    /// The interpreter's services (set by the interpreter so native code can call user code).
    pub hooks: Option<InterpHooks>,
    /// Python frames running now, and the most that may (`sys.setrecursionlimit`). Plain
    /// fields rather than [`Runtime::state`]: every Python call reads and writes them.
    pub call_depth: usize,
    pub recursion_limit: usize,
}

/// CPython's default recursion limit.
pub const DEFAULT_RECURSION_LIMIT: usize = 1000;

impl Runtime {
    pub fn new(frontend: Box<dyn Frontend>, interrupt: Arc<AtomicBool>) -> Runtime {
        // Array kernels cannot reach the runtime; they watch the flag per thread.
        crate::arrays::interrupt::watch(interrupt.clone());
        Runtime {
            frontend,
            interrupt,
            execution_count: 0,
            shown_warnings: HashSet::new(),
            ext: Default::default(),
            end_of_cell_hooks: Vec::new(),
            hooks: None,
            call_depth: 0,
            recursion_limit: DEFAULT_RECURSION_LIMIT,
        }
    }

    /// Raise KeyboardInterrupt if an interrupt was requested (and clear the request).
    pub fn check_interrupt(&self) -> PyResult<()> {
        // Every loop iteration and call checks: a plain load first keeps the common case
        // off the locked read-modify-write.
        if self.interrupt.load(Ordering::Relaxed) && self.interrupt.swap(false, Ordering::SeqCst) {
            Err(crate::arrays::interrupt::stopped().into())
        } else {
            Ok(())
        }
    }

    pub fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }

    pub fn print(&mut self, text: &str) {
        self.frontend.stream(StreamName::Stdout, text);
    }
    pub fn eprint(&mut self, text: &str) {
        self.frontend.stream(StreamName::Stderr, text);
    }

    /// Issue a Python warning of the named category from `origin` (a cell line). The
    /// interpreter's `warnings` filters decide whether it is shown, recorded, ignored or
    /// raised (`simplefilter('error')`), hence the result.
    pub fn warn(&mut self, category: &str, message: &str, origin: &str) -> PyResult<()> {
        if let Some(h) = self.hooks {
            return (h.warn)(self, category, message, origin);
        }
        if self.first_warning(category, message, origin) {
            self.print_warning(category, message, origin);
        }
        Ok(())
    }

    /// Whether this (category, message, origin) is new in this cell: Python's default
    /// filter shows each once.
    pub fn first_warning(&mut self, category: &str, message: &str, origin: &str) -> bool {
        self.shown_warnings
            .insert(format!("{category}\u{0}{message}\u{0}{origin}"))
    }

    /// Show a warning on stderr in the standard `warnings` format.
    pub fn print_warning(&mut self, category: &str, message: &str, origin: &str) {
        let text = format!("{origin}: {category}: {message}\n  warnings.warn({category}(msg))\n");
        self.eprint(&text);
    }

    /// Called by the engine when a new cell starts.
    pub fn begin_cell(&mut self, execution_count: u32) {
        self.execution_count = execution_count;
        self.shown_warnings.clear();
    }

    /// The state of subsystem `T`, created with `Default` on first use.
    pub fn state<T: Any + Default>(&mut self) -> &mut T {
        self.ext
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Box::new(T::default()))
            .downcast_mut::<T>()
            // invariant: the entry for TypeId::of::<T>() is only ever filled with a Box<T>
            .expect("state type matches its TypeId")
    }

    /// Take a subsystem's state out (to call back into the runtime while holding it); put
    /// it back with [`Runtime::put_state`].
    pub fn take_state<T: Any + Default>(&mut self) -> T {
        self.ext
            .remove(&TypeId::of::<T>())
            .and_then(|b| b.downcast::<T>().ok().map(|b| *b))
            .unwrap_or_default()
    }
    pub fn put_state<T: Any>(&mut self, value: T) {
        self.ext.insert(TypeId::of::<T>(), Box::new(value));
    }

    /// Register a hook run at the end of every cell (idempotent by name).
    pub fn on_end_of_cell(&mut self, name: &str, hook: fn(&mut Runtime) -> PyResult<()>) {
        if !self.end_of_cell_hooks.iter().any(|(n, _)| n == name) {
            self.end_of_cell_hooks.push((name.to_string(), hook));
        }
    }

    fn hooks(&self) -> PyResult<InterpHooks> {
        self.hooks
            .ok_or_else(|| PyErr::internal("no interpreter attached to call Python code"))
    }

    /// Call any Python callable from native code.
    pub fn call(&mut self, f: &Value, args: Args) -> PyResult<Value> {
        (self.hooks()?.call)(self, f, args)
    }

    /// The items of any iterable, as `list(v)` gives them.
    pub fn iterate(&mut self, v: &Value) -> PyResult<Vec<Value>> {
        (self.hooks()?.iterate)(self, v)
    }

    /// Python truth of a value.
    pub fn truthy(&mut self, v: &Value) -> PyResult<bool> {
        // The truth of None, a bool, an int and a float is fixed, so a runtime without an
        // interpreter (the device layers' tests) can still read flag arguments.
        match v {
            Value::None => Ok(false),
            Value::Bool(b) => Ok(*b),
            Value::Int(i) => Ok(*i != 0),
            Value::Float(f) => Ok(*f != 0.0),
            _ => (self.hooks()?.truthy)(self, v),
        }
    }

    /// A keyword flag such as `keepdims=`: absent is False, present is its truth.
    pub fn flag(&mut self, v: Option<&Value>) -> PyResult<bool> {
        match v {
            Some(v) => self.truthy(v),
            None => Ok(false),
        }
    }

    /// `str(v)`.
    pub fn to_str(&mut self, v: &Value) -> PyResult<String> {
        (self.hooks()?.to_str)(self, v)
    }

    /// A builtin function by name.
    pub fn builtin(&mut self, name: &str) -> PyResult<Value> {
        (self.hooks()?.builtin)(self, name)
            .ok_or_else(|| PyErr::internal(format!("builtin {name} is missing")))
    }
}
