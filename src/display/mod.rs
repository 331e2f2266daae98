//! Display: `matplotlib.pyplot` drawn with plotters, timing charts and the transfer
//! timeline.

use std::rc::Rc;

use crate::devices::LedgerEvent;
use crate::language::{Module, PyResult, Runtime};

/// One `%timeit` result, kept for the timing chart.
#[derive(Clone, Debug)]
pub struct TimeitRecord {
    pub stmt: String,
    /// Seconds per loop, one entry per run.
    pub per_loop: Vec<f64>,
    pub loops: u64,
    pub cell: u32,
}

/// Every `%timeit` result of the session (in `Runtime::state`).
#[derive(Default)]
pub struct TimeitHistory {
    pub records: Vec<TimeitRecord>,
}

/// Build `matplotlib.pyplot`.
pub fn pyplot_module() -> Rc<Module> {
    Rc::new(Module::new(
        "matplotlib.pyplot",
        "Charts drawn with plotters.",
    ))
}

/// `%timeit_chart`: draw the session's timeit results as a bar chart (display_data).
pub fn timeit_chart(_rt: &mut Runtime) -> PyResult<()> {
    Ok(())
}

/// `%%timeline`: draw what the device did during a cell, per stream, and a table of bytes
/// and durations (display_data).
pub fn timeline(_rt: &mut Runtime, _events: &[LedgerEvent]) -> PyResult<()> {
    Ok(())
}

/// One line for `%ledger on`: what moved in a cell; None when nothing moved.
pub fn ledger_summary(_events: &[LedgerEvent]) -> Option<String> {
    None
}
