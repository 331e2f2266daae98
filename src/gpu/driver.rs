//! The CUDA device on cudarc: allocations, copies on streams, events, NVRTC-compiled
//! modules (cached by source hash and compute capability) and launches.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cudarc::driver::sys::{CUdevice_attribute, CUevent_flags};
use cudarc::driver::{
    result, CudaContext, CudaEvent, CudaFunction, CudaModule, CudaStream, DriverError,
    LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;

use crate::gpu::launch_args::LaunchArg;
use crate::gpu::nvrtc;

/// A CUDA driver error, worded as Numba's `CudaAPIError`:
/// `[2] Call to cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CudaError {
    pub code: u32,
    pub call: String,
    pub name: String,
}

impl std::fmt::Display for CudaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "[{}] Call to {} results in {}",
            self.code, self.call, self.name
        )
    }
}

fn api(call: &str) -> impl Fn(DriverError) -> CudaError + '_ {
    move |e| CudaError {
        code: e.0 as u32,
        call: call.to_string(),
        name: e
            .error_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|_| format!("{:?}", e.0)),
    }
}

/// What `cuda.gpus`, `cuda.detect()` and the banner show.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    pub name: String,
    pub compute_capability: (i32, i32),
    pub multiprocessors: i32,
    pub total_memory: usize,
    pub pci_bus_id: i32,
}

/// The id of the private stream [`CudaDevice::zero`] uses; user streams count up from 1.
const ZEROING_STREAM: u64 = u64::MAX;

/// Loaded modules by (source hash, compute capability).
type ModuleCache = Mutex<HashMap<(u64, (i32, i32)), Arc<CudaModule>>>;

/// Grid, block and dynamic shared memory of one launch.
#[derive(Clone, Copy, Debug)]
pub struct Dims {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
}

/// Memory handed to the free thread (host pointers as addresses, so the message is `Send`).
enum Release {
    Device(u64),
    Host(usize),
}

/// `cuMemFree` and `cuMemFreeHost` wait for the whole device. A kernel that never ends (an
/// interrupted `while True` still on the GPU) would hang whoever drops the last reference,
/// the interpreter thread included, beyond any interrupt; so frees run on a thread of their
/// own, and the host only waits for them (interruptibly) when an allocation finds the
/// device full.
struct Reaper {
    tx: Mutex<Sender<Release>>,
    pending: Arc<AtomicUsize>,
    gate: Arc<FreeGate>,
}

/// Conditions that hold frees back. While a cuMemFree waits for a device that never goes
/// idle it also blocks every later cuMemAlloc (seen on an H200), so after an interrupt
/// leaves a kernel running, frees wait until it has ended.
#[derive(Default)]
pub struct FreeGate {
    holds: Mutex<Vec<Box<dyn Fn() -> bool + Send>>>,
}

impl FreeGate {
    /// Hold frees back until `done` returns true.
    pub fn hold_until(&self, done: Box<dyn Fn() -> bool + Send>) {
        self.holds
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(done);
    }

    /// Whether no condition holds frees back now (satisfied ones are dropped).
    pub fn open(&self) -> bool {
        let mut holds = self.holds.lock().unwrap_or_else(|p| p.into_inner());
        holds.retain(|done| !done());
        holds.is_empty()
    }
}

impl Reaper {
    fn start(ctx: Arc<CudaContext>) -> Reaper {
        let (tx, rx) = channel::<Release>();
        let pending = Arc::new(AtomicUsize::new(0));
        let count = pending.clone();
        let gate = Arc::new(FreeGate::default());
        let shut = gate.clone();
        // If no thread can be started, the channel is closed and `release` frees inline.
        let _ = std::thread::Builder::new()
            .name("nbcuda-cuda-free".into())
            .spawn(move || {
                let bound = ctx.bind_to_thread().is_ok();
                for r in rx {
                    while !shut.open() {
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    if bound {
                        // SAFETY: each address came from `alloc`/`alloc_host` on `ctx` and is
                        // sent here exactly once, by its owner's `Drop`, after the last stream
                        // operation using it completed.
                        let _ = unsafe {
                            match r {
                                Release::Device(p) => result::free_sync(p),
                                Release::Host(h) => result::free_host(h as *mut std::ffi::c_void),
                            }
                        };
                    }
                    count.fetch_sub(1, Ordering::SeqCst);
                }
            });
        Reaper {
            tx: Mutex::new(tx),
            pending,
            gate,
        }
    }

    /// Queue `r`; false when the free thread is gone (the caller frees inline).
    fn release(&self, r: Release) -> bool {
        self.pending.fetch_add(1, Ordering::SeqCst);
        let sent = self
            .tx
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send(r)
            .is_ok();
        if !sent {
            self.pending.fetch_sub(1, Ordering::SeqCst);
        }
        sent
    }
}

/// Poll `done` until it holds (true) or `stop` does (false): a short spin, then sleeps, so
/// that a quick GPU operation costs microseconds and a stuck one costs no CPU.
fn poll_until(
    mut done: impl FnMut() -> Result<bool, CudaError>,
    stop: &dyn Fn() -> bool,
) -> Result<bool, CudaError> {
    let start = Instant::now();
    loop {
        if done()? {
            return Ok(true);
        }
        if stop() {
            return Ok(false);
        }
        if start.elapsed() < Duration::from_micros(50) {
            std::hint::spin_loop();
        } else {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
}

pub struct CudaDevice {
    reaper: Reaper,
    ctx: Arc<CudaContext>,
    streams: Mutex<HashMap<u64, Arc<CudaStream>>>,
    modules: ModuleCache,
    info: DeviceInfo,
    /// Idle print buffers (device addresses), reused by launches of kernels that print.
    print_buffers: Mutex<Vec<u64>>,
}

impl CudaDevice {
    /// Open device `ordinal`. The caller has already checked that libcuda is present.
    pub fn open(ordinal: usize) -> Result<CudaDevice, CudaError> {
        let ctx = CudaContext::new(ordinal).map_err(api("cuCtxCreate"))?;
        // nbcuda orders work the way CUDA and Numba do (streams, events, synchronize); the
        // per-slice event tracking of cudarc would add ordering a Numba user does not expect.
        // SAFETY: called before any allocation or stream exists in this context.
        unsafe { ctx.disable_event_tracking() };
        let attr = |a| ctx.attribute(a).map_err(api("cuDeviceGetAttribute"));
        let info = DeviceInfo {
            name: ctx.name().map_err(api("cuDeviceGetName"))?,
            compute_capability: ctx
                .compute_capability()
                .map_err(api("cuDeviceGetAttribute"))?,
            multiprocessors: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            total_memory: ctx.total_mem().map_err(api("cuDeviceTotalMem"))?,
            pci_bus_id: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)?,
        };
        let mut streams = HashMap::new();
        streams.insert(0, ctx.default_stream());
        Ok(CudaDevice {
            reaper: Reaper::start(ctx.clone()),
            ctx,
            streams: Mutex::new(streams),
            modules: Mutex::new(HashMap::new()),
            info,
            print_buffers: Mutex::new(Vec::new()),
        })
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// (free, total) bytes.
    pub fn mem_info(&self) -> Result<(usize, usize), CudaError> {
        self.ctx.mem_get_info().map_err(api("cuMemGetInfo"))
    }

    /// The stream with this id, created on first use (0 is the legacy default stream).
    pub fn stream(&self, id: u64) -> Result<Arc<CudaStream>, CudaError> {
        let mut streams = self.streams.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = streams.get(&id) {
            return Ok(s.clone());
        }
        let s = self.ctx.new_stream().map_err(api("cuStreamCreate"))?;
        streams.insert(id, s.clone());
        Ok(s)
    }

    /// Drop the CUDA stream of nbcuda stream `id` (the driver destroys it once its work is
    /// done); a later use of `id` creates a new one.
    pub fn forget_stream(&self, id: u64) {
        if id != 0 {
            let mut streams = self.streams.lock().unwrap_or_else(|p| p.into_inner());
            streams.remove(&id);
        }
    }

    /// Allocate `bytes` (at least one) of device memory; returns its device address.
    pub fn alloc(&self, bytes: usize) -> Result<u64, CudaError> {
        self.bind()?;
        // SAFETY: the context is current on this thread (bound above); the memory is
        // returned uninitialised and nbcuda zeroes or overwrites it before any read.
        unsafe { result::malloc_sync(bytes.max(1)) }.map_err(api("cuMemAlloc"))
    }

    /// Release memory returned by [`CudaDevice::alloc`], on the free thread ([`Reaper`]).
    /// Errors are ignored: this runs from `Drop`, where there is nobody to tell.
    pub fn free(&self, ptr: u64) {
        if !self.reaper.release(Release::Device(ptr)) && self.bind().is_ok() {
            // SAFETY: `ptr` came from `alloc` on this context and is freed exactly once,
            // by the owner's `Drop`, after the last stream operation using it completed
            // (every queued operation waits for its stream before it finishes).
            let _ = unsafe { result::free_sync(ptr) };
        }
    }

    /// A device buffer of `bytes` for a launch's `print()` records: an idle one when there
    /// is one (launches of printing kernels on different streams each take their own).
    /// Every buffer has the same size, so reuse never needs a size check.
    pub fn take_print_buffer(&self, bytes: usize) -> Result<u64, CudaError> {
        let idle = self
            .print_buffers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pop();
        match idle {
            Some(p) => Ok(p),
            None => self.alloc(bytes),
        }
    }

    /// Return a buffer from [`CudaDevice::take_print_buffer`] after its launch finished.
    pub fn give_print_buffer(&self, ptr: u64) {
        self.print_buffers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(ptr);
    }

    /// Allocate `bytes` (at least one) of zeroed page-locked host memory, usable by every
    /// context (CU_MEMHOSTALLOC_PORTABLE) and, when `mapped`, mapped into the device's
    /// address space (CU_MEMHOSTALLOC_DEVICEMAP). Returns the host address and, for mapped
    /// memory, the device address kernels use for it.
    pub fn alloc_host(
        &self,
        bytes: usize,
        mapped: bool,
    ) -> Result<(*mut u8, Option<u64>), CudaError> {
        use cudarc::driver::sys::{CU_MEMHOSTALLOC_DEVICEMAP, CU_MEMHOSTALLOC_PORTABLE};
        self.bind()?;
        let mut flags = CU_MEMHOSTALLOC_PORTABLE;
        if mapped {
            flags |= CU_MEMHOSTALLOC_DEVICEMAP;
        }
        let bytes = bytes.max(1);
        // SAFETY: the context is current on this thread (bound above); the driver returns
        // `bytes` bytes of host memory or an error.
        let host =
            unsafe { result::malloc_host(bytes, flags) }.map_err(api("cuMemHostAlloc"))? as *mut u8;
        // SAFETY: `host` points to the `bytes` bytes just allocated, which nothing else uses yet.
        unsafe { std::ptr::write_bytes(host, 0, bytes) };
        if !mapped {
            return Ok((host, None));
        }
        let mut dptr: cudarc::driver::sys::CUdeviceptr = 0;
        // SAFETY: `host` was allocated with CU_MEMHOSTALLOC_DEVICEMAP in this context; the
        // driver writes the device address into `dptr` (flags must be 0).
        let got =
            unsafe { cudarc::driver::sys::cuMemHostGetDevicePointer_v2(&mut dptr, host.cast(), 0) }
                .result()
                .map_err(api("cuMemHostGetDevicePointer"));
        match got {
            Ok(()) => Ok((host, Some(dptr))),
            Err(e) => {
                self.free_host(host);
                Err(e)
            }
        }
    }

    /// Release memory returned by [`CudaDevice::alloc_host`]. Errors are ignored, as in
    /// [`CudaDevice::free`].
    pub fn free_host(&self, host: *mut u8) {
        if !self.reaper.release(Release::Host(host as usize)) && self.bind().is_ok() {
            // SAFETY: `host` came from `alloc_host` and is freed exactly once, by its
            // owner's `Drop`, when the last buffer over it is gone; operations using it
            // synchronise their stream before they complete.
            let _ = unsafe { result::free_host(host.cast()) };
        }
    }

    /// Memory handed to the free thread and not yet returned to the driver.
    pub fn frees_pending(&self) -> usize {
        self.reaper.pending.load(Ordering::SeqCst)
    }

    /// Hold frees back until `done` returns true (see [`FreeGate`]).
    pub fn hold_frees_until(&self, done: Box<dyn Fn() -> bool + Send>) {
        self.reaper.gate.hold_until(done)
    }

    /// Wait until the free thread is idle; false when `stop` asked to give up first.
    pub fn wait_for_frees(&self, stop: &dyn Fn() -> bool) -> Result<bool, CudaError> {
        poll_until(|| Ok(self.frees_pending() == 0), stop)
    }

    /// Set `bytes` at `ptr` to zero and wait until the GPU has done it; false when `stop`
    /// asked to give up first (the memory must then not be handed out). The plain cuMemsetD8
    /// would be queued on the legacy default stream and return at once, and the streams
    /// nbcuda creates do not wait for that stream (cudarc makes them non-blocking): a copy
    /// on another stream could land first and then be zeroed. So the memset runs on a stream
    /// of its own, polled rather than synchronised so that an interrupt ends the wait.
    pub fn zero(&self, ptr: u64, bytes: usize, stop: &dyn Fn() -> bool) -> Result<bool, CudaError> {
        let s = self.stream(ZEROING_STREAM)?;
        self.bind()?;
        // SAFETY: `ptr..ptr + bytes` is a live allocation made by `alloc` on this context,
        // which no other operation uses before this returns.
        unsafe { result::memset_d8_async(ptr, 0, bytes, s.cu_stream()) }
            .map_err(api("cuMemsetD8Async"))?;
        let query = || {
            // SAFETY: `s` is a live stream of this context, which is current (bound above).
            match unsafe { cudarc::driver::sys::cuStreamQuery(s.cu_stream()) } {
                cudarc::driver::sys::CUresult::CUDA_SUCCESS => Ok(true),
                cudarc::driver::sys::CUresult::CUDA_ERROR_NOT_READY => Ok(false),
                e => Err(api("cuStreamQuery")(DriverError(e))),
            }
        };
        poll_until(query, stop)
    }

    /// A device attribute.
    pub fn attribute(&self, a: CUdevice_attribute) -> Result<i32, CudaError> {
        self.ctx.attribute(a).map_err(api("cuDeviceGetAttribute"))
    }

    /// Make this device's context current on the calling thread (stream workers).
    pub fn bind(&self) -> Result<(), CudaError> {
        self.ctx.bind_to_thread().map_err(api("cuCtxSetCurrent"))
    }

    /// Copy host bytes to device address `dst` on `stream` and wait for the copy.
    pub fn htod(&self, dst: u64, src: &[u8], stream: u64) -> Result<(), CudaError> {
        let s = self.stream(stream)?;
        self.bind()?;
        // SAFETY: `dst` points into a live allocation with room for `src.len()` bytes (the
        // caller bounds-checks views against their allocation); `src` stays borrowed until
        // the stream is synchronised below.
        unsafe { result::memcpy_htod_async(dst, src, s.cu_stream()) }
            .map_err(api("cuMemcpyHtoDAsync"))?;
        s.synchronize().map_err(api("cuStreamSynchronize"))
    }

    /// Copy device bytes at `src` to host memory on `stream` and wait for the copy.
    pub fn dtoh(&self, dst: &mut [u8], src: u64, stream: u64) -> Result<(), CudaError> {
        let s = self.stream(stream)?;
        self.bind()?;
        // SAFETY: `src` points into a live allocation holding `dst.len()` bytes; `dst` stays
        // borrowed until the stream is synchronised below.
        unsafe { result::memcpy_dtoh_async(dst, src, s.cu_stream()) }
            .map_err(api("cuMemcpyDtoHAsync"))?;
        s.synchronize().map_err(api("cuStreamSynchronize"))
    }

    /// Copy `len` bytes between device addresses on `stream` and wait for the copy.
    pub fn dtod(&self, dst: u64, src: u64, len: usize, stream: u64) -> Result<(), CudaError> {
        let s = self.stream(stream)?;
        self.bind()?;
        // SAFETY: both ranges lie in live allocations (checked by the caller); overlapping
        // ranges are only passed for identical addresses, where the copy is a no-op.
        unsafe { result::memcpy_dtod_async(dst, src, len, s.cu_stream()) }
            .map_err(api("cuMemcpyDtoDAsync"))?;
        s.synchronize().map_err(api("cuStreamSynchronize"))
    }

    pub fn synchronize(&self) -> Result<(), CudaError> {
        self.ctx.synchronize().map_err(api("cuCtxSynchronize"))
    }

    pub fn stream_synchronize(&self, stream: u64) -> Result<(), CudaError> {
        self.stream(stream)?
            .synchronize()
            .map_err(api("cuStreamSynchronize"))
    }

    /// Record a timing event on `stream`.
    pub fn record_event(&self, stream: u64) -> Result<CudaEvent, CudaError> {
        let ev = self
            .ctx
            .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(api("cuEventCreate"))?;
        let s = self.stream(stream)?;
        ev.record(&s).map_err(api("cuEventRecord"))?;
        Ok(ev)
    }

    /// Compile (through NVRTC, for this device's compute capability) and load a module,
    /// or return the cached one for the same source.
    pub fn load_module(&self, source: &str) -> Result<Arc<CudaModule>, String> {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        source.hash(&mut h);
        let key = (h.finish(), self.info.compute_capability);
        let mut modules = self.modules.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(m) = modules.get(&key) {
            return Ok(m.clone());
        }
        let arch = nvrtc::arch_for(self.info.compute_capability);
        let compiled = nvrtc::compile_ptx(source, "nbcuda_module.cu", &arch)?;
        let module = self
            .ctx
            .load_module(Ptx::from_src(compiled.ptx))
            .map_err(|e| api("cuModuleLoadData")(e).to_string())?;
        modules.insert(key, module.clone());
        Ok(module)
    }

    /// Launch `entry` of `module` asynchronously on `stream`.
    pub fn launch(
        &self,
        module: &Arc<CudaModule>,
        entry: &str,
        dims: Dims,
        stream: u64,
        args: &[LaunchArg],
    ) -> Result<(), CudaError> {
        let f: CudaFunction = module
            .load_function(entry)
            .map_err(api("cuModuleGetFunction"))?;
        let s = self.stream(stream)?;
        let mut b = s.launch_builder(&f);
        for a in args {
            match a {
                LaunchArg::Array(d) => b.arg(d),
                LaunchArg::Ptr(p) | LaunchArg::U64(p) => b.arg(p),
                LaunchArg::I8(v) => b.arg(v),
                LaunchArg::I16(v) => b.arg(v),
                LaunchArg::I32(v) => b.arg(v),
                LaunchArg::U8(v) => b.arg(v),
                LaunchArg::U16(v) => b.arg(v),
                LaunchArg::U32(v) => b.arg(v),
                LaunchArg::I64(v) => b.arg(v),
                LaunchArg::F32(v) => b.arg(v),
                LaunchArg::F64(v) => b.arg(v),
                LaunchArg::Bool(v) => b.arg(v),
            };
        }
        let cfg = LaunchConfig {
            grid_dim: (dims.grid[0], dims.grid[1], dims.grid[2]),
            block_dim: (dims.block[0], dims.block[1], dims.block[2]),
            shared_mem_bytes: dims.shared_bytes,
        };
        // SAFETY: every kernel launched here is CUDA C that nbcuda generated (kernels/ or
        // the compiler's code generator) together with the argument list, so the number,
        // order and types of `args` match the kernel's parameters; array descriptors point
        // into live allocations that the caller keeps alive until the stream passes this
        // launch.
        unsafe { b.launch(cfg) }.map_err(api("cuLaunchKernel"))?;
        Ok(())
    }
}

/// Open the first CUDA device, or say why not. Never panics: cudarc panics when libcuda is
/// missing, so presence is checked first and the rest runs under catch_unwind.
pub fn open_first() -> Result<CudaDevice, String> {
    // SAFETY: only dlopens candidate names of libcuda and drops the handles.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("no CUDA driver (libcuda.so) was found".into());
    }
    let opened = std::panic::catch_unwind(|| {
        let count = cudarc::driver::CudaContext::device_count()
            .map_err(|e| format!("the CUDA driver could not list devices ({e:?})"))?;
        if count < 1 {
            return Err("the CUDA driver reports no GPU".to_string());
        }
        CudaDevice::open(0).map_err(|e| format!("CudaAPIError: {e}"))
    });
    opened.unwrap_or_else(|_| Err("the CUDA driver failed while starting".into()))
}
