//! Charts of the session itself: `%timeit_chart`, the `%%timeline` of device work, and the
//! `%ledger` one-line summary.

use crate::devices::LedgerEvent;
use crate::language::{PyResult, Runtime};

pub fn timeit_chart(_rt: &mut Runtime) -> PyResult<()> {
    Ok(())
}

pub fn timeline(_rt: &mut Runtime, _events: &[LedgerEvent]) -> PyResult<()> {
    Ok(())
}

pub fn ledger_summary(_events: &[LedgerEvent]) -> Option<String> {
    None
}
