//! The device abstraction: one trait every device implements, and the enum the API
//! dispatches through. Everything from a cell to [`Backend::launch`] (dispatch, typing,
//! the IR, argument preparation) is shared; only the implementations of this trait differ:
//! the CPU device runs the IR in its executor, the CUDA device generates CUDA C from it,
//! compiles it with NVRTC and launches it ([`crate::device::cuda`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::arrays::dtype::Scalar;
use crate::device::cpu::{CpuDevice, Shared};
pub use crate::device::cpu_streams::{Ticket, Waitable};
use crate::device::cuda::backend::CudaBackend;
use crate::device::ledger::LedgerKind;
use crate::device::StreamId;
use crate::kernel::abi::Allocation;
use crate::kernel::abi::{ArrayArg, KernelArg, KernelFault, LaunchConfig};
use crate::kernel::CompiledKernel;
use crate::py::error::PyResult;

/// How a queued operation is written to the ledger.
#[derive(Clone, Debug)]
pub struct Record {
    pub kind: LedgerKind,
    pub label: String,
    pub explicit: bool,
}

/// An event's recorded position and, once reached, its timestamp.
#[derive(Clone)]
pub struct EventMark {
    pub ticket: Ticket,
    pub time: Arc<Mutex<Option<Instant>>>,
}

/// What the host-side API needs from a device.
pub trait Backend {
    /// Device name as `Device.name` shows it.
    fn name(&self) -> String;
    /// (free, total) bytes of device memory.
    fn memory_info(&self) -> (usize, usize);
    /// A device attribute by its `CU_DEVICE_ATTRIBUTE_*` short name (`WARP_SIZE`).
    fn attribute(&self, name: &str) -> Option<i64>;
    /// (major, minor) compute capability.
    fn compute_capability(&self) -> (i64, i64);
    /// Allocate `bytes` of device memory; CudaAPIError (out of memory) when it does not fit.
    fn alloc(&mut self, bytes: usize) -> PyResult<Arc<Allocation>>;
    /// A new stream handle.
    fn create_stream(&mut self) -> StreamId;
    /// End a stream from `create_stream` once its queued work is done (its last handle is gone).
    fn destroy_stream(&mut self, stream: StreamId);
    /// Queue a strided copy between two regions (host or device) of equal shape.
    fn copy(&mut self, src: ArrayArg, dst: ArrayArg, stream: StreamId, rec: Record) -> Ticket;
    /// Queue a fill of a region with one value.
    fn fill(&mut self, dst: ArrayArg, value: Scalar, stream: StreamId, rec: Record) -> Ticket;
    /// Queue a kernel launch.
    fn launch(
        &mut self,
        kernel: Arc<CompiledKernel>,
        config: LaunchConfig,
        args: Vec<KernelArg>,
        stream: StreamId,
    ) -> Ticket;
    /// Queue an arbitrary piece of device work (CuPy elementwise operations, reductions),
    /// recorded in the ledger as a kernel; its fault is reported as a kernel's.
    fn run(&mut self, stream: StreamId, rec: Record, bytes: usize, work: DeviceWork) -> Ticket;
    /// Record an event on `stream`.
    fn record_event(&mut self, stream: StreamId) -> EventMark;
    /// Make later work on `stream` wait for `mark`.
    fn wait_event(&mut self, stream: StreamId, mark: &EventMark);
    /// The point after all work queued so far on `stream` (None when nothing was queued).
    fn stream_tail(&mut self, stream: StreamId) -> Option<Ticket>;
    /// The points after all work queued so far on every stream.
    fn device_tails(&mut self) -> Vec<Ticket>;
    /// Like `device_tails`, less streams still running work an interrupt abandoned.
    fn live_tails(&mut self) -> Vec<Ticket>;
    /// Kernel print output and faults collected since the last call.
    fn take_pending(&mut self) -> (String, Vec<KernelFault>);
    /// Drop the work queued on every stream and stop running kernels where the device can
    /// (an interrupt); true when every stream is idle again (the cell says so otherwise).
    fn cancel(&mut self) -> bool;
}

static COLLECTING: AtomicBool = AtomicBool::new(false);
static LAUNCHED: Mutex<Vec<Arc<CompiledKernel>>> = Mutex::new(Vec::new());

/// Start (`true`) or stop collecting every kernel specialisation launched in this process,
/// and return those collected so far. The NVRTC tests use it to compile the generated CUDA
/// C of every kernel a notebook launches, whichever device ran it.
pub fn collect_launched(on: bool) -> Vec<Arc<CompiledKernel>> {
    COLLECTING.store(on, Ordering::SeqCst);
    std::mem::take(&mut *LAUNCHED.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Called by every [`Backend::launch`]; a relaxed load when collection is off.
pub fn note_launch(kernel: &Arc<CompiledKernel>) {
    if COLLECTING.load(Ordering::Relaxed) {
        LAUNCHED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(kernel.clone());
    }
}

/// The device in use.
/// A piece of device work written as a host closure over device memory.
pub type DeviceWork = Box<dyn FnOnce() -> Result<(), KernelFault> + Send>;

pub enum Device {
    Cpu(CpuDevice),
    Cuda(CudaBackend),
}

impl Device {
    pub fn backend(&mut self) -> &mut dyn Backend {
        match self {
            Device::Cpu(d) => d,
            Device::Cuda(d) => d,
        }
    }
    /// The state shared with the device's stream workers (ledger, accounting, faults).
    pub fn shared(&self) -> &Arc<Shared> {
        match self {
            Device::Cpu(d) => &d.shared,
            Device::Cuda(d) => &d.shared,
        }
    }
    /// A device attribute (see [`Backend::attribute`]).
    pub fn backend_ref_attr(&self, name: &str) -> Option<i64> {
        self.backend_ref().attribute(name)
    }
    pub fn backend_ref(&self) -> &dyn Backend {
        match self {
            Device::Cpu(d) => d,
            Device::Cuda(d) => d,
        }
    }
}
