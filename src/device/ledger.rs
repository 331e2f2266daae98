//! The ledger: every allocation, free, transfer and launch, with timings, for the per-cell
//! account and the transfer timeline.

use crate::device::StreamId;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LedgerKind {
    Alloc,
    Free,
    HtoD,
    DtoH,
    DtoD,
    Memset,
    Kernel,
}

/// One thing the device did.
#[derive(Clone, Debug)]
pub struct LedgerEvent {
    pub kind: LedgerKind,
    pub stream: StreamId,
    /// Seconds since the session's device epoch.
    pub start: f64,
    /// Seconds (0 for instant events such as allocations).
    pub duration: f64,
    pub bytes: usize,
    /// Kernel name, or the call that caused a transfer (`to_device`, `add_ufunc`).
    pub label: String,
    /// False for implicit transfers (a host array passed to a kernel or ufunc).
    pub explicit: bool,
    /// Execution count of the cell that caused it.
    pub cell: u32,
    /// For kernels: grid and block.
    pub grid: [u32; 3],
    pub block: [u32; 3],
}

/// Events recorded since index `since` (the ledger only grows within a session); the
/// second value is the index to pass next time.
pub fn events_since(
    rt: &mut crate::py::runtime::Runtime,
    since: usize,
) -> (Vec<LedgerEvent>, usize) {
    let Some(shared) = crate::device::state::shared(rt) else {
        return (Vec::new(), 0);
    };
    let ledger = shared.ledger.lock().unwrap_or_else(|e| e.into_inner());
    let start = since.min(ledger.len());
    (ledger[start..].to_vec(), ledger.len())
}
