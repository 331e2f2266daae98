//! Display: `matplotlib.pyplot` drawn with plotters, timing charts and the transfer
//! timeline.

pub mod axes;
pub mod band;
pub mod charts;
pub mod data;
pub mod figure;
pub mod objects;
pub mod pyplot;
pub mod render;
pub mod style;

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
    pyplot::module()
}

/// `%timeit_chart`: draw the session's timeit results as a bar chart (display_data).
pub fn timeit_chart(rt: &mut Runtime) -> PyResult<()> {
    charts::timeit_chart(rt)
}

/// `%%timeline`: draw what the device did during a cell, per stream, and a table of bytes
/// and durations (display_data).
pub fn timeline(rt: &mut Runtime, events: &[LedgerEvent]) -> PyResult<()> {
    charts::timeline(rt, events)
}

/// One line for `%ledger on`: what moved in a cell; None when nothing moved.
pub fn ledger_summary(events: &[LedgerEvent]) -> Option<String> {
    charts::ledger_summary(events)
}
