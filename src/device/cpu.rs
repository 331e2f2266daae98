//! The embedded CPU device: "device memory" is `Buffer`s accounted against a separate
//! capacity; streams are worker threads; kernels run through the compiler's CPU executor.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::arrays::alloc::parse_size;
use crate::arrays::buffer::Buffer;
use crate::arrays::dtype::Scalar;
use crate::device::backend::{Backend, DeviceWork, EventMark, Record};
use crate::device::copy;
use crate::device::cpu_streams::{StreamSet, Ticket};
use crate::device::ledger::{LedgerEvent, LedgerKind};
use crate::device::StreamId;
use crate::kernel::abi::{Allocation, Storage};
use crate::kernel::abi::{ArrayArg, FaultKind, KernelArg, KernelFault, LaunchConfig};
use crate::kernel::CompiledKernel;
use crate::py::error::{PyErr, PyResult};

/// Kernel output and faults waiting for the next synchronising call.
#[derive(Default)]
pub struct Pending {
    pub printed: String,
    pub faults: Vec<KernelFault>,
}

/// State shared by the device, its stream workers and allocation drops.
pub struct Shared {
    pub epoch: Instant,
    pub ledger: Mutex<Vec<LedgerEvent>>,
    pub pending: Mutex<Pending>,
    /// Execution count of the cell currently running (stamped on ledger events).
    pub cell: AtomicU32,
    pub used: AtomicUsize,
    pub capacity: usize,
    /// Nesting depth of `cuda.defer_cleanup()`.
    pub defer_depth: AtomicUsize,
    /// Frees postponed by `defer_cleanup`: (allocation id, bytes).
    pub deferred: Mutex<Vec<(u64, usize)>>,
    /// Streams whose last Python object is gone, for the device to end on its next use
    /// (objects are dropped where the device is out of reach).
    pub released_streams: Mutex<Vec<StreamId>>,
}

impl Shared {
    pub fn log(&self, ev: LedgerEvent) {
        self.ledger
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(ev);
    }
    pub fn now(&self) -> f64 {
        self.epoch.elapsed().as_secs_f64()
    }
    pub fn event(
        &self,
        kind: LedgerKind,
        stream: StreamId,
        bytes: usize,
        label: &str,
    ) -> LedgerEvent {
        LedgerEvent {
            kind,
            stream,
            start: self.now(),
            duration: 0.0,
            bytes,
            label: label.to_string(),
            explicit: true,
            cell: self.cell.load(Ordering::Relaxed),
            grid: [1, 1, 1],
            block: [1, 1, 1],
        }
    }
    fn really_free(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::SeqCst);
        self.log(self.event(LedgerKind::Free, 0, bytes, "free"));
    }
    /// Return an allocation's bytes (or queue that while cleanup is deferred).
    pub fn release(&self, id: u64, bytes: usize) {
        if self.defer_depth.load(Ordering::SeqCst) > 0 {
            self.deferred
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((id, bytes));
        } else {
            self.really_free(bytes);
        }
    }
    /// Run the frees queued while cleanup was deferred.
    pub fn flush_deferred(&self) {
        let queued: Vec<_> =
            std::mem::take(&mut *self.deferred.lock().unwrap_or_else(|e| e.into_inner()));
        for (_, bytes) in queued {
            self.really_free(bytes);
        }
    }
}

/// Ids start high so that hand-made `Allocation`s with small ids (tests, other parts) can
/// never release an accounted allocation by accident.
static NEXT_ALLOC: AtomicU64 = AtomicU64::new(1 << 32);

/// Live accounted allocations by id, so that dropping an `Allocation` (on any thread)
/// returns its bytes to the device that made it.
type Owners = Mutex<HashMap<u64, (Arc<Shared>, usize)>>;

fn owners() -> &'static Owners {
    static OWNERS: OnceLock<Owners> = OnceLock::new();
    OWNERS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A fresh allocation id (also used for unaccounted wrappers of host memory).
pub fn next_alloc_id() -> u64 {
    NEXT_ALLOC.fetch_add(1, Ordering::Relaxed)
}

/// Account `bytes` of a new allocation to `shared` (returned when the allocation drops),
/// log it, and return its id.
pub fn track_allocation(shared: &Arc<Shared>, bytes: usize) -> u64 {
    let id = next_alloc_id();
    owners()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, (shared.clone(), bytes));
    shared.log(shared.event(LedgerKind::Alloc, 0, bytes, "alloc"));
    id
}

/// Queue `work` on `stream` and log it with its measured start and duration (both
/// devices time their operations this way: a CUDA operation's job waits for its stream).
pub fn submit_timed(
    streams: &mut StreamSet,
    shared: &Arc<Shared>,
    stream: StreamId,
    mut ev: LedgerEvent,
    work: Box<dyn FnOnce() + Send>,
) -> Ticket {
    let shared = shared.clone();
    ev.cell = shared.cell.load(Ordering::Relaxed);
    streams.submit(
        stream,
        Vec::new(),
        Box::new(move || {
            let t0 = Instant::now();
            work();
            ev.start = t0.duration_since(shared.epoch).as_secs_f64();
            ev.duration = t0.elapsed().as_secs_f64();
            shared.log(ev);
        }),
    )
}

/// Release an allocation's accounting now (`free()`, or its last reference dropping).
/// Idempotent: returns false when it was already released or never accounted.
pub fn release_allocation(id: u64, bytes: usize) -> bool {
    let mut map = owners().lock().unwrap_or_else(|e| e.into_inner());
    match map.get(&id) {
        Some((_, b)) if *b == bytes => {}
        _ => return false,
    }
    let Some((shared, _)) = map.remove(&id) else {
        return false;
    };
    drop(map);
    shared.release(id, bytes);
    true
}

/// Capacity of the CPU device: `NBCUDA_CPU_DEVICE_MEMORY` (`4GiB`, `512MiB`, `1e9`, bytes)
/// or half of physical memory capped at 16 GiB.
pub fn default_capacity() -> usize {
    if let Ok(s) = std::env::var("NBCUDA_CPU_DEVICE_MEMORY") {
        if let Some(n) = parse_size(&s) {
            return n;
        }
    }
    let phys = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        })
        .map(|kb| kb * 1024)
        .unwrap_or(8 << 30);
    (phys / 2).min(16 << 30)
}

pub struct CpuDevice {
    pub shared: Arc<Shared>,
    streams: StreamSet,
}

impl Shared {
    pub fn new(capacity: usize) -> Arc<Shared> {
        Arc::new(Shared {
            epoch: Instant::now(),
            ledger: Mutex::new(Vec::new()),
            pending: Mutex::new(Pending::default()),
            cell: AtomicU32::new(0),
            used: AtomicUsize::new(0),
            capacity,
            defer_depth: AtomicUsize::new(0),
            deferred: Mutex::new(Vec::new()),
            released_streams: Mutex::new(Vec::new()),
        })
    }

    /// Record a fault for the next synchronising call.
    pub fn fault(&self, ename: &str, message: String) {
        self.push_fault(KernelFault::raise(ename, message));
    }

    /// Report a fault at the next synchronising call.
    pub fn push_fault(&self, fault: KernelFault) {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .faults
            .push(fault);
    }

    /// Stream workers for a device sharing this state: a panicking operation becomes an
    /// InternalError at the next synchronising call.
    pub fn stream_set(self: &Arc<Self>) -> StreamSet {
        let s = self.clone();
        StreamSet::new(Arc::new(move |msg: String| {
            s.fault("InternalError", format!("device operation failed: {msg}"))
        }))
    }

    /// Forget the faults of launches that a cancel stopped: the interrupt that cancelled
    /// them has been reported already.
    pub fn forget_interrupted(&self) {
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        p.faults.retain(|f| f.kind != FaultKind::Interrupted);
    }

    /// Kernel output and faults collected since the last call.
    pub fn take_pending(&self) -> (String, Vec<KernelFault>) {
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        (
            std::mem::take(&mut p.printed),
            std::mem::take(&mut p.faults),
        )
    }
}

impl CpuDevice {
    pub fn new(capacity: usize) -> CpuDevice {
        let shared = Shared::new(capacity);
        CpuDevice {
            streams: shared.stream_set(),
            shared,
        }
    }

    fn timed(
        &mut self,
        stream: StreamId,
        ev: LedgerEvent,
        work: Box<dyn FnOnce() + Send>,
    ) -> Ticket {
        submit_timed(&mut self.streams, &self.shared, stream, ev, work)
    }
}

/// What the CPU device reports as its compute capability (a common, fully featured one).
pub const CPU_COMPUTE_CAPABILITY: (i64, i64) = (7, 5);

pub fn cpu_count() -> i64 {
    std::thread::available_parallelism()
        .map(|n| n.get() as i64)
        .unwrap_or(1)
}

/// A CPU-device attribute by its `CU_DEVICE_ATTRIBUTE_*` short name.
pub fn cpu_attribute(name: &str) -> Option<i64> {
    Some(match name {
        "MULTIPROCESSOR_COUNT" => cpu_count(),
        "MAX_THREADS_PER_BLOCK" => 1024,
        "MAX_BLOCK_DIM_X" | "MAX_BLOCK_DIM_Y" => 1024,
        "MAX_BLOCK_DIM_Z" => 64,
        "MAX_GRID_DIM_X" => 2147483647,
        "MAX_GRID_DIM_Y" | "MAX_GRID_DIM_Z" => 65535,
        "MAX_SHARED_MEMORY_PER_BLOCK" => 49152,
        "WARP_SIZE" => 32,
        "MAX_THREADS_PER_MULTIPROCESSOR" => 2048,
        "COMPUTE_CAPABILITY_MAJOR" => CPU_COMPUTE_CAPABILITY.0,
        "COMPUTE_CAPABILITY_MINOR" => CPU_COMPUTE_CAPABILITY.1,
        "PCI_BUS_ID" | "PCI_DEVICE_ID" | "PCI_DOMAIN_ID" => 0,
        "ASYNC_ENGINE_COUNT" => 1,
        "UNIFIED_ADDRESSING" | "CAN_MAP_HOST_MEMORY" | "MANAGED_MEMORY" => 1,
        "CONCURRENT_KERNELS" => 1,
        "KERNEL_EXEC_TIMEOUT" => 0,
        _ => return None,
    })
}

impl Backend for CpuDevice {
    fn name(&self) -> String {
        "nbcuda CPU device".to_string()
    }

    fn attribute(&self, name: &str) -> Option<i64> {
        cpu_attribute(name)
    }

    fn compute_capability(&self) -> (i64, i64) {
        CPU_COMPUTE_CAPABILITY
    }

    fn memory_info(&self) -> (usize, usize) {
        let used = self.shared.used.load(Ordering::SeqCst);
        (
            self.shared.capacity.saturating_sub(used),
            self.shared.capacity,
        )
    }

    fn alloc(&mut self, bytes: usize) -> PyResult<Arc<Allocation>> {
        let (free, total) = self.memory_info();
        let oom = || {
            PyErr::new(
                "CudaAPIError",
                "[2] Call to cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY",
            )
            .with_hint(format!(
                "The device cannot hold this array: requested {bytes} bytes, {free} bytes free of {total} bytes total. Free device arrays you no longer need (del d, or d.free()), allocate smaller arrays, or give the CPU device more memory with NBCUDA_CPU_DEVICE_MEMORY (e.g. 8GiB)."
            ))
        };
        // Reserve first so concurrent frees cannot make us overshoot.
        let prev = self.shared.used.fetch_add(bytes, Ordering::SeqCst);
        if prev.checked_add(bytes).is_none_or(|u| u > total) {
            self.shared.used.fetch_sub(bytes, Ordering::SeqCst);
            return Err(oom());
        }
        let buf = match Buffer::zeroed(bytes) {
            Ok(b) => b,
            Err(_) => {
                self.shared.used.fetch_sub(bytes, Ordering::SeqCst);
                return Err(oom());
            }
        };
        let id = track_allocation(&self.shared, bytes);
        Ok(Arc::new(Allocation {
            id,
            bytes,
            storage: Storage::Cpu(Arc::new(buf)),
            release: release_allocation,
        }))
    }

    fn create_stream(&mut self) -> StreamId {
        self.streams.create()
    }

    fn destroy_stream(&mut self, stream: StreamId) {
        self.streams.retire(stream, None)
    }

    fn copy(&mut self, src: ArrayArg, dst: ArrayArg, stream: StreamId, rec: Record) -> Ticket {
        let bytes = dst.shape.iter().product::<usize>() * dst.dtype.itemsize();
        let mut ev = self.shared.event(rec.kind, stream, bytes, &rec.label);
        ev.explicit = rec.explicit;
        self.timed(stream, ev, Box::new(move || copy::copy_region(&src, &dst)))
    }

    fn fill(&mut self, dst: ArrayArg, value: Scalar, stream: StreamId, rec: Record) -> Ticket {
        let bytes = dst.shape.iter().product::<usize>() * dst.dtype.itemsize();
        let mut ev = self.shared.event(rec.kind, stream, bytes, &rec.label);
        ev.explicit = rec.explicit;
        self.timed(stream, ev, Box::new(move || copy::fill_region(&dst, value)))
    }

    fn launch(
        &mut self,
        kernel: Arc<CompiledKernel>,
        config: LaunchConfig,
        args: Vec<KernelArg>,
        stream: StreamId,
    ) -> Ticket {
        crate::device::backend::note_launch(&kernel);
        let mut ev = self
            .shared
            .event(LedgerKind::Kernel, stream, 0, &kernel.name);
        ev.grid = config.grid;
        ev.block = config.block;
        let shared = self.shared.clone();
        let cancel = self.streams.cancel_token();
        self.timed(
            stream,
            ev,
            Box::new(move || {
                let r = crate::kernel::execute_on_cpu_cancellable(&kernel, &config, &args, cancel);
                let mut p = shared.pending.lock().unwrap_or_else(|e| e.into_inner());
                match r {
                    Ok(out) => p.printed.push_str(&out.printed),
                    Err(fault) => p.faults.push(fault),
                }
            }),
        )
    }

    fn run(&mut self, stream: StreamId, rec: Record, bytes: usize, work: DeviceWork) -> Ticket {
        let mut ev = self.shared.event(rec.kind, stream, bytes, &rec.label);
        ev.explicit = rec.explicit;
        let shared = self.shared.clone();
        self.timed(
            stream,
            ev,
            Box::new(move || {
                if let Err(fault) = work() {
                    shared.push_fault(fault);
                }
            }),
        )
    }

    fn record_event(&mut self, stream: StreamId) -> EventMark {
        self.streams.record_event(stream)
    }

    fn wait_event(&mut self, stream: StreamId, mark: &EventMark) {
        self.streams.wait_event(stream, mark)
    }

    fn stream_tail(&mut self, stream: StreamId) -> Option<Ticket> {
        self.streams.tail(stream)
    }

    fn device_tails(&mut self) -> Vec<Ticket> {
        self.streams.all_tails()
    }

    fn live_tails(&mut self) -> Vec<Ticket> {
        self.streams.live_tails()
    }

    fn take_pending(&mut self) -> (String, Vec<KernelFault>) {
        self.shared.take_pending()
    }

    fn cancel(&mut self) -> bool {
        // Running launches notice at their next loop back-edge or block, well within this.
        let idle = self.streams.cancel(Duration::from_secs(5));
        self.shared.forget_interrupted();
        idle
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!(parse_size("4GiB"), Some(4 << 30));
        assert_eq!(parse_size("512MiB"), Some(512 << 20));
        assert_eq!(parse_size("1000"), Some(1000));
        assert_eq!(parse_size("2 GB"), Some(2_000_000_000));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("-1GiB"), None);
    }

    #[test]
    fn allocations_return_their_bytes_once() {
        let mut dev = CpuDevice::new(1000);
        let a = dev.alloc(600).unwrap();
        assert_eq!(dev.memory_info(), (400, 1000));
        assert!(dev.alloc(500).is_err());
        assert!(release_allocation(a.id, a.bytes));
        assert!(!release_allocation(a.id, a.bytes));
        drop(a);
        assert_eq!(dev.memory_info(), (1000, 1000));
    }
}
