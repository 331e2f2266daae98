//! `np.seterr`, `np.geterr` and `np.errstate`: how NumPy treats floating-point errors
//! (division by zero, overflow, underflow, invalid operations).
//!
//! nbcuda's element-wise loops do not detect these errors, so no mode can take effect:
//! `'ignore'`, `'warn'` and `'print'` are kept and reported back exactly as NumPy does (code
//! that silences warnings around `np.log(x)` runs unchanged), while `'raise'`, `'call'` and
//! `'log'`, which promise an action on an error, are refused with a NotImplementedError
//! instead of silently never acting.

use std::cell::RefCell;
use std::rc::Rc;

use crate::py::dict::Dict;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::{Bound, Style::Function};
use crate::py::value::{Module, Object, Value};

/// The four error kinds in NumPy's order (`geterr()`'s keys).
const KINDS: [&str; 4] = ["divide", "over", "under", "invalid"];
const MODES: [&str; 6] = ["ignore", "warn", "raise", "call", "print", "log"];

/// The session's modes, by `KINDS` index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Modes([&'static str; 4]);

impl Default for Modes {
    fn default() -> Self {
        Modes(["warn", "warn", "ignore", "warn"])
    }
}

impl Modes {
    fn to_value(self) -> Value {
        let mut d = Dict::default();
        for (k, m) in KINDS.iter().zip(self.0) {
            d.insert_str(k, Value::str(m));
        }
        Value::Dict(Rc::new(RefCell::new(d)))
    }

    /// These modes with `all=` then each named kind applied (parameters 0..5 of `b`).
    fn updated(self, b: &Bound) -> PyResult<Modes> {
        let mut out = self;
        if let Some(m) = mode(b.get(0))? {
            out.0 = [m; 4];
        }
        for i in 0..4 {
            if let Some(m) = mode(b.get(i + 1))? {
                out.0[i] = m;
            }
        }
        Ok(out)
    }
}

/// A mode argument: None when absent or None, else one of NumPy's modes.
fn mode(v: Option<&Value>) -> PyResult<Option<&'static str>> {
    let s = match v {
        None | Some(Value::None) => return Ok(None),
        Some(Value::Str(s)) => s.to_string(),
        Some(other) => {
            return Err(PyErr::value_error(format!(
                "invalid error mode of type {}",
                other.type_name()
            )))
        }
    };
    match MODES.iter().find(|m| **m == s) {
        Some(m) if matches!(*m, "raise" | "call" | "log") => Err(PyErr::new(
            "NotImplementedError",
            format!(
                "floating-point error mode '{m}' is not supported: nbcuda does not detect floating-point errors in array operations; check results with np.isfinite instead"
            ),
        )),
        Some(m) => Ok(Some(m)),
        None => Err(PyErr::value_error(format!("invalid error mode '{s}'"))),
    }
}

const SIG: &str = "all=None, divide=None, over=None, under=None, invalid=None";

/// Register `np.seterr`, `np.geterr` and `np.errstate`.
pub fn register(m: &Module) {
    m.def(
        Function,
        "seterr",
        SIG,
        "Set how floating-point errors are handled; returns the previous settings.",
        |rt, b| {
            let old = *rt.state::<Modes>();
            *rt.state::<Modes>() = old.updated(&b)?;
            Ok(old.to_value())
        },
    );
    m.def(
        Function,
        "geterr",
        "",
        "How floating-point errors are handled, by kind.",
        |rt, _| Ok(rt.state::<Modes>().to_value()),
    );
    m.def(
        Function,
        "errstate",
        "*, call=None, all=None, divide=None, over=None, under=None, invalid=None",
        "Context manager setting how floating-point errors are handled inside a with block.",
        |_, b| {
            if !matches!(b.get(0), None | Some(Value::None)) {
                return Err(PyErr::new(
                    "NotImplementedError",
                    "np.errstate(call=...) is not supported: nbcuda does not detect floating-point errors in array operations",
                ));
            }
            // Validate now, as NumPy's constructor does; apply on entry.
            let shifted = Bound { slots: b.slots[1..].to_vec(), rest: vec![], kw: vec![] };
            Modes::default().updated(&shifted)?;
            Ok(Value::object(ErrState { args: shifted, saved: RefCell::new(Vec::new()) }))
        },
    );
}

/// `with np.errstate(...):` — the modes it sets, and those it restores on exit (a stack,
/// so one object can be entered again inside itself).
struct ErrState {
    args: Bound,
    saved: RefCell<Vec<Modes>>,
}

impl Object for ErrState {
    fn type_name(&self) -> String {
        "errstate".into()
    }
    fn module_name(&self) -> String {
        "numpy".into()
    }
    fn enter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Value> {
        let old = *rt.state::<Modes>();
        *rt.state::<Modes>() = old.updated(&self.args)?;
        self.saved.borrow_mut().push(old);
        Ok(Value::None)
    }
    fn exit(&self, rt: &mut Runtime, _error: Option<&PyErr>) -> PyResult<bool> {
        if let Some(old) = self.saved.borrow_mut().pop() {
            *rt.state::<Modes>() = old;
        }
        Ok(false)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
