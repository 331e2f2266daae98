//! The CPU device's JIT tier: kernels compiled from the typed IR to native code with
//! Cranelift, once per specialisation, and run block by block on rayon's workers as the
//! interpreter runs them. The interpreter ([`crate::kernel::exec`]) stays the reference:
//! every result of this tier must be bit-identical to it, which is why everything whose
//! semantics are more than one machine instruction calls the interpreter's own Rust
//! functions. Kernels with barriers or shared memory run block by block, region by region
//! (`regions.rs`, `blockwise.rs`). Kernels it does not cover (barriers threads may reach
//! apart, `print`, read-modify-writes threads may race on, grid-stride loops that cannot
//! run in lockstep: see `cover.rs`) and launches
//! whose arrays it cannot prove in range keep the interpreter. `NBCUDA_EXECUTOR=interp`
//! turns the tier off; `NBCUDA_JIT_LOG` logs each kernel's compile time or why it stays
//! interpreted, and `NBCUDA_JIT_DUMP` prints its typed IR, Cranelift IR and machine code.
//!
//! | file | holds |
//! |---|---|
//! | `affine.rs` | One bounds check per block: index registers that are a block-invariant value plus the thread index, the block's range of each checked before its threads run, and a copy of the thread loop without checks for blocks wholly in range. |
//! | `blockwise.rs` | Lowering of kernels with barriers or shared memory: each block's regions in order, each looped over the block's threads, registers a region reads before writing in per-thread slots, array addresses loaded afresh per region, returned threads sitting out, a barrier loop run once per block, regions of values every thread holds alike run once per block. |
//! | `access.rs` | Array accesses: the interpreter's bounds check and IndexError, offsets from strides or (C-contiguous arrays) from the shape alone, checks already made on the path reused, a constant part of an index left to the load's displacement, view checks, atomics. |
//! | `clamp.rs` | Thread loops cut to the counters below a guard's bound (`if y < out.shape[1]: ...`, `if tid < s: ...` as a body's last statement after pure code): the compare lowered as true inside, the threads past the bound never run. |
//! | `counted.rs` | Bounds checks hoisted out of innermost counted loops (`range` by one): array indices that are the counter plus loop-invariant values, or loop-invariant, checked over the whole loop before it starts, and a copy of the loop without their checks where that holds. |
//! | `cover.rs` | Which kernels the tier takes: no print, barriers only as `regions.rs` allows, and no read-modify-write of an element threads may share (where thread-by-thread order would hide the race the interpreter shows, as a GPU does), and no grid-stride loop without atomics that cannot run in lockstep (thread by thread its accesses miss the cache; the interpreter's lanes are faster). Also which kernels' faulting spans the interpreter may run again. |
//! | `flat.rs` | Grid-stride loops over `cuda.grid(1)` by `cuda.gridsize(1)` whose threads cannot see one another, on 1-D launches (order-free atomics on `private.rs`'s bins allowed, checked per iteration, a fault's thread following from the counter): each lockstep round of a chunk run as one contiguous run of the counter, no per-lane state; a chunk whose affine accesses are not proven in range before it starts keeps its lockstep rounds. |
//! | `lockstep.rs` | Which kernels run their grid-stride loop in lockstep rounds (one iteration of every lane of a chunk per round, the interpreter's order) rather than thread by thread. |
//! | `helpers.rs` | The launch context native code reads and writes, and the `extern "C"` helpers it calls: the interpreter's integer division, powers, math functions and odd casts, atomics other than integer add, xoroshiro128p draws, IndexError faults and the record of why a launch stopped. |
//! | `rng.rs` | xoroshiro128p uniform draws as native integer code (the interpreter's bits); normal draws and bad state indices call its helper. |
//! | `select.rs` | Branches shaped for Cranelift: the right operand of `and` / `or` run as selects where it is a few compares that cannot fault, and tests of branches that only leave naming the way out first (see `lower.rs`). |
//! | `unroll.rs` | Counted loops of a constant trip count, in the copy `counted.rs` proved in range, emitted as straight copies of the body (the tiled matmul's tile loop: two loads, a multiply and an add per iteration), every fourth copy's carried values pinned in place by a scratch store. |
//! | `poll.rs` | Polls for an interrupt or the end of a fault's grace: native code reads the launch's flags itself and calls a helper only to leave, so no loop holds a call. |
//! | `private.rs` | Per-worker private copies of integer arrays only updated by order-free atomics with unused results (histogram bins): plain load-op-store on the copy, folded into the real array when the launch ends. |
//! | `regions.rs` | Which barrier kernels the tier takes (barriers every running thread reaches, at the top of the body or of uniform loops; no shared element raced on within a region) and how their bodies split into regions; which registers live in per-thread slots, and which regions run once per block. |
//! | `ops.rs` | Lowering of value operations, loads and stores on canonical register bits, each as the interpreter's `scalar_ops` defines it. |
//! | `lower.rs` | The IR to Cranelift: a block's threads as nested loops around the body (in rounds for a lockstep kernel), global ids from a per-block base, registers as variables, structured control flow as blocks (sealed as soon as their predecessors are known, loop tests naming the way out first, so Cranelift hoists loop-invariant code), the right operand of `and` / `or` as selects where it is a few compares, bounds checks that raise the interpreter's IndexError. |
//! | `vector.rs` | Rows of `order.rs` whose body is loads at the row's id, float arithmetic and stores, run four threads a step in vector registers (the interpreter's bits), the scalar loop running what is left. |
//! | `compile.rs` | One kernel specialisation to native code: the analyses that pick its shape (blockwise, lockstep, any order, flat), the host ISA, the helper symbols, the function built by `lower.rs`, and the dump `NBCUDA_JIT_DUMP` asks for. |
//! | `order.rs` | Kernels whose threads cannot see one another: a strip of blocks run row by row along the axis the written arrays' last index follows, each row one counter of the global id along it (arrays reloaded per row), blocks not proven in range listed for the usual order. |
//!
//! `mod.rs`: the compile cache (general code, and variants for launches whose arrays share
//! shapes), the launch (which arrays qualify, C-layout parameters checked contiguous,
//! blocks spread over the workers, in any order strips first and then the blocks they
//! left, the first fault by block as the interpreter picks it, a faulting span run again on
//! the interpreter where it can be to name the thread the interpreter names).

pub mod access;
pub mod affine;
pub mod blockwise;
pub mod clamp;
pub mod compile;
pub mod counted;
pub mod cover;
pub mod flat;
pub mod helpers;
pub mod lockstep;
pub mod lower;
pub mod ops;
pub mod order;
pub mod poll;
pub mod private;
pub mod regions;
pub mod rng;
pub mod select;
pub mod unroll;
pub mod vector;

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use cranelift_jit::JITModule;
use rayon::prelude::*;

use crate::arrays::buffer::Buffer;
use crate::kernel::abi::{KernelFault, LaunchOutput};
use crate::kernel::exec::mem::RawMem;
use crate::kernel::exec::{cancelled, desc, fault, ArrDesc, Prepared};
use crate::kernel::ir::Kernel;
use crate::kernel::jit::helpers::{Ctx, JArr};
use crate::kernel::types::{Layout, Ty};

/// Native code for one kernel specialisation.
pub struct JitCode {
    entry: unsafe extern "C" fn(*mut Ctx) -> i64,
    /// How long Cranelift took (for benchmarks and `NBCUDA_JIT_LOG`).
    pub compile_time: Duration,
    /// Whether the code runs its grid-stride loop in lockstep rounds (`lockstep.rs`).
    pub lockstep: bool,
    /// A blockwise kernel's slot words per thread (0 for other kernels).
    words: usize,
    /// Block axes whose extent must be 1 for this code (bit per axis, `regions.rs`).
    flat: u8,
    /// A blockwise kernel's regions that run once per block (`regions.rs`).
    once: usize,
    /// Set when the kernel's threads may run in any order (`order.rs`).
    order: Option<order::AnyOrder>,
    /// Set when the kernel's grid-stride loop may run flat (`flat.rs`).
    grid_stride: Option<flat::FlatLoop>,
    /// Owns the executable memory `entry` points into.
    module: Option<JITModule>,
}

// SAFETY: after `finalize_definitions` the module is never used again except to free its
// memory in `Drop` (which has exclusive access); `entry` is a plain code pointer into
// immutable executable memory, callable from any thread.
unsafe impl Send for JitCode {}
// SAFETY: see `Send`: shared references only read `entry` and `compile_time`.
unsafe impl Sync for JitCode {}

impl JitCode {
    /// The thread axis run innermost when a launch may run the threads in any order
    /// (`order.rs`); None when the kernel keeps the usual order.
    pub fn any_order_axis(&self) -> Option<u8> {
        self.order.as_ref().map(|o| o.inner)
    }

    /// Whether the rows of a launch run in any order take several threads per step in
    /// vector registers (`vector.rs`).
    pub fn vector_rows(&self) -> bool {
        self.order.as_ref().is_some_and(|o| o.lanes.is_some())
    }

    /// How many of a blockwise kernel's regions run once per block rather than once per
    /// thread (`Plan::runs_once` in `regions.rs`).
    pub fn regions_run_once(&self) -> usize {
        self.once
    }

    /// Whether launches that allow it run the kernel's grid-stride loop as plain runs of
    /// its counter (`flat.rs`) rather than in lockstep rounds.
    pub fn flat_grid_stride(&self) -> bool {
        self.grid_stride.is_some()
    }
}

impl Drop for JitCode {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: the last reference to this code is going away (every launch holds
            // an `Arc<JitCode>` while it runs), so nothing can call into the memory freed.
            unsafe { m.free_memory() };
        }
    }
}

/// The per-kernel cache of its native code (None once compiling failed or was refused):
/// the general code, and the code for launches whose arrays share shapes (keyed by which
/// parameter's shape each array parameter has, see [`shape_classes`]).
#[derive(Clone, Default)]
pub struct JitCache(
    Arc<OnceLock<Option<Arc<JitCode>>>>,
    Arc<Mutex<Vec<Variant>>>,
    /// Whether the tier takes the kernel at all ([`unsupported`], decided once).
    Arc<OnceLock<bool>>,
);

/// Code compiled for one sharing of shapes (None: compiling it failed).
type Variant = (Vec<usize>, Option<Arc<JitCode>>);

/// Shape-sharing variants compiled per kernel at most; launches past them use the
/// general code.
const MAX_VARIANTS: usize = 8;

impl std::fmt::Debug for JitCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match self.0.get() {
            None => "not compiled",
            Some(None) => "interpreted",
            Some(Some(_)) => "native",
        };
        write!(f, "JitCache({state})")
    }
}

/// [`set_enabled`]'s choice: 0 follows the environment, 1 on, 2 off.
static CHOICE: AtomicU8 = AtomicU8::new(0);

/// Whether launches prepared from now on use the JIT tier: false when
/// `NBCUDA_EXECUTOR=interp` asks for the interpreter everywhere, or [`set_enabled`] said so.
pub fn enabled_by_default() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    match CHOICE.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => *ON.get_or_init(|| std::env::var("NBCUDA_EXECUTOR").map_or(true, |v| v != "interp")),
    }
}

/// Turn the JIT tier on or off for the whole process (None: as the environment says), so
/// one process can run the same cells on both executors and compare them.
pub fn set_enabled(on: Option<bool>) {
    let v = match on {
        None => 0,
        Some(true) => 1,
        Some(false) => 2,
    };
    CHOICE.store(v, Ordering::Relaxed);
}

fn log_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("NBCUDA_JIT_LOG").is_some())
}

pub use cover::unsupported;

/// The kernel's native code, compiled on first use; None when it stays interpreted.
pub fn code_for(k: &Kernel) -> Option<Arc<JitCode>> {
    k.hints
        .jit
        .0
        .get_or_init(|| compile_logged(k, &[]).map(Arc::new))
        .clone()
}

/// The code for a launch whose array parameters have the shapes `share` says (each the
/// index of the first parameter with the same shape), compiled on first use.
/// A launch whose arrays share shapes compiles only its variant: the general code only
/// when the variant fails or too many variants exist.
fn code_for_shapes(k: &Kernel, share: &[usize]) -> Option<Arc<JitCode>> {
    if share.iter().enumerate().all(|(i, &j)| i == j) {
        return code_for(k);
    }
    let mut variants = k.hints.jit.1.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, c)) = variants.iter().find(|(s, _)| s == share) {
        return c.clone().or_else(|| code_for(k));
    }
    if variants.len() >= MAX_VARIANTS {
        return code_for(k);
    }
    let c = compile_logged(k, share).map(Arc::new);
    variants.push((share.to_vec(), c.clone()));
    c.or_else(|| code_for(k))
}

/// Whether the tier takes `k` (its analysis made once per kernel).
fn supported(k: &Kernel) -> bool {
    *k.hints.jit.2.get_or_init(|| unsupported(k).is_none())
}

fn compile_logged(k: &Kernel, share: &[usize]) -> Option<JitCode> {
    if let Some(why) = unsupported(k) {
        if log_enabled() {
            eprintln!("nbcuda jit: {} interpreted ({why})", k.name);
        }
        return None;
    }
    // A Cranelift bug must cost speed, not the session: the kernel stays interpreted.
    let compiled =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compile::compile(k, share)))
            .unwrap_or_else(|_| Err("the code generator panicked".into()));
    match compiled {
        Ok(c) => {
            if log_enabled() {
                eprintln!(
                    "nbcuda jit: {} compiled in {:.2} ms",
                    k.name,
                    c.compile_time.as_secs_f64() * 1e3
                );
            }
            Some(c)
        }
        Err(why) => {
            if log_enabled() {
                eprintln!("nbcuda jit: {} interpreted ({why})", k.name);
            }
            None
        }
    }
}

/// For each parameter, the first array parameter with the same shape (itself when none
/// before it has; scalars map to themselves).
fn shape_classes(k: &Kernel, descs: &[ArrDesc]) -> Vec<usize> {
    let shape = |i: usize| {
        let d = &descs[i];
        &d.shape[..d.ndim.min(3)]
    };
    (0..k.params.len())
        .map(|i| {
            if !matches!(k.params[i], Ty::Array { .. }) {
                return i;
            }
            (0..i)
                .find(|&j| matches!(k.params[j], Ty::Array { .. }) && shape(j) == shape(i))
                .unwrap_or(i)
        })
        .collect()
}

/// True when `d` is laid out as a C-contiguous array (the code of a C-layout parameter
/// computes offsets from the shape alone). Axes of length 1 may have any stride.
fn c_contiguous(d: &ArrDesc) -> bool {
    let mut want = d.dtype.itemsize() as isize;
    for ax in (0..d.ndim.min(3)).rev() {
        let n = d.shape[ax];
        if n > 1 && d.strides[ax] != want {
            return false;
        }
        want *= n.max(1) as isize;
    }
    true
}

/// True when every in-range element of `d` lies inside its memory, naturally aligned: the
/// shape check native code makes is then the whole of the interpreter's check.
fn in_range(d: &ArrDesc) -> bool {
    let isz = d.dtype.itemsize() as i128;
    let shape = &d.shape[..d.ndim.min(3)];
    if shape.contains(&0) {
        return true;
    }
    let (mut lo, mut hi) = (d.offset as i128, d.offset as i128);
    for (ax, &n) in shape.iter().enumerate() {
        let st = d.strides[ax] as i128;
        if st % isz != 0 {
            return false;
        }
        let span = (n as i128 - 1) * st;
        if span < 0 {
            lo += span;
        } else {
            hi += span;
        }
    }
    let base = d.mem.ptr_at(0) as usize as i128;
    lo >= 0 && hi + isz <= d.mem.len() as i128 && (base + d.offset as i128) % isz == 0
}

/// Threads a chunk of blocks aims for: enough to amortise the call and the cancel check,
/// few enough that the chunks balance over the workers.
const CHUNK_THREADS: usize = 16 * 1024;
/// Blocks a launch run in any order may have (`order.rs`): each may be deferred, and the
/// list of deferred blocks must stay small.
const MAX_DEFERRED: usize = 1 << 22;
/// Launches of at most this many threads, and no loop, run on the calling thread.
const SMALL_LAUNCH: usize = 8192;

/// Per-worker state: the array tables with this worker's local memory.
struct Worker {
    arrs: Vec<JArr>,
    descs: Vec<ArrDesc>,
    _local: Option<Buffer>,
    _shared: Vec<Buffer>,
    /// A blockwise kernel's per-thread slots (`blockwise.rs`).
    slots: Vec<u64>,
    local_ptr: *mut u8,
    /// A lockstep kernel's per-lane state: two words per lane of a chunk.
    lanes: Vec<i64>,
    /// `Ctx::private` for this worker.
    private: u64,
    /// `Ctx::deferred`: room for a span's blocks.
    deferred: Vec<i64>,
}

fn worker(
    p: &Prepared,
    base: &[JArr],
    descs: &[ArrDesc],
    lanes: usize,
    words: usize,
    per_chunk: usize,
    privates: &private::Privates,
) -> Result<Worker, KernelFault> {
    let k = p.k;
    let (offs, total) = lower::local_offsets(k);
    let mut arrs = base.to_vec();
    let private = privates.attach(&mut arrs);
    let mut ds = descs.to_vec();
    let local = if total > 0 {
        Some(Buffer::zeroed(total).map_err(|e| {
            fault(
                "MemoryError",
                format!("cannot allocate {} bytes of local memory", e.bytes),
            )
        })?)
    } else {
        None
    };
    let local_ptr = local.as_ref().map_or(std::ptr::null_mut(), |b| b.as_ptr());
    for (j, d) in k.local.iter().enumerate() {
        let Some(buf) = local.as_ref() else { break };
        // SAFETY: the worker owns this buffer for as long as these descriptors are used.
        let mem = unsafe { RawMem::new(buf.as_ptr(), buf.len()) };
        let st = crate::arrays::NdArray::c_strides(&d.shape, d.dtype.itemsize());
        let dd = desc(mem, offs[j] as isize, &d.shape, &st, d.dtype);
        arrs.push(jarr(&dd));
        ds.push(dd);
    }
    // Shared memory as the interpreter's: zeroed once per worker, then left as each
    // block leaves it for the next block the worker runs.
    let dyn_bytes = p.cfg.dynamic_shared_bytes;
    let mut shared = Vec::new();
    for d in &k.shared {
        let bytes = if d.dynamic { dyn_bytes } else { d.bytes() };
        let buf = Buffer::zeroed(bytes.max(8)).map_err(|e| {
            fault(
                "MemoryError",
                format!("cannot allocate {} bytes of shared memory", e.bytes),
            )
        })?;
        // SAFETY: the worker owns this buffer for as long as these descriptors are used.
        let mem = unsafe { RawMem::new(buf.as_ptr(), buf.len()) };
        let shape = if d.dynamic {
            vec![dyn_bytes / d.dtype.itemsize()]
        } else {
            d.shape.clone()
        };
        let st = crate::arrays::NdArray::c_strides(&shape, d.dtype.itemsize());
        let dd = desc(mem, 0, &shape, &st, d.dtype);
        arrs.push(jarr(&dd));
        ds.push(dd);
        shared.push(buf);
    }
    Ok(Worker {
        arrs,
        descs: ds,
        _local: local,
        _shared: shared,
        // bounded: at most 1024 threads (prepare) times the kernel's registers.
        slots: vec![0; words * p.cfg.threads_per_block()],
        local_ptr,
        // bounded: a chunk's lanes, at most the interpreter's WIDE_LANES or one block.
        lanes: vec![0; 2 * lanes],
        private,
        // bounded: a span's blocks, at most CHUNK_THREADS or a quarter of a worker's share.
        deferred: vec![0; per_chunk],
    })
}

/// True when array argument `i` shares no memory with any other argument, nor any of its
/// elements with another of its elements (a zero stride, as `broadcast_to` and
/// `as_strided` make, or strides that interleave): threads that write distinct indices
/// then write distinct memory, so the order they run in cannot change the bytes.
fn alone(descs: &[ArrDesc], i: usize) -> bool {
    let d = &descs[i];
    distinct_elements(d)
        && descs
            .iter()
            .enumerate()
            .all(|(j, o)| j == i || o.mem.is_empty() || !o.mem.overlaps(&d.mem))
}

/// True when no two elements of `d` share a byte: each axis, taken by growing stride,
/// steps past everything the axes before it span.
fn distinct_elements(d: &ArrDesc) -> bool {
    let shape = &d.shape[..d.ndim.min(3)];
    if shape.contains(&0) {
        return true;
    }
    let mut axes: Vec<(u128, u128)> = (0..shape.len())
        .filter(|&ax| shape[ax] > 1)
        .map(|ax| (d.strides[ax].unsigned_abs() as u128, shape[ax] as u128))
        .collect();
    axes.sort_unstable();
    let mut span = d.dtype.itemsize() as u128;
    for (stride, n) in axes {
        if stride < span {
            return false;
        }
        span += stride * (n - 1);
    }
    true
}

/// `blocks` (deferred ones, at most [`MAX_DEFERRED`]) in spans of at most `per` blocks.
fn chunks(blocks: std::ops::Range<usize>, per: usize) -> Vec<(usize, usize)> {
    // bounded: one span per `per` of at most MAX_DEFERRED blocks.
    blocks
        .clone()
        .step_by(per.max(1))
        .map(|f| (f, (f + per).min(blocks.end)))
        .collect()
}

fn jarr(d: &ArrDesc) -> JArr {
    JArr {
        base: d.mem.ptr_at(d.offset),
        offset: d.offset as i64,
        shape: d.shape,
        strides: d.strides.map(|s| s as i64),
    }
}

/// Run a prepared launch natively: None when the kernel or its arguments stay with the
/// interpreter (nothing has run then).
pub fn run(p: &Prepared) -> Option<Result<LaunchOutput, KernelFault>> {
    if !supported(p.k) {
        // Compiling logs why the kernel stays interpreted.
        code_for(p.k)?;
    }
    let mut descs = Vec::new();
    for d in &p.params {
        // Scalars get an empty placeholder slot so slots stay parameter indices.
        let d = d.unwrap_or_else(|| {
            // SAFETY: a zero-length view of no memory; never dereferenced.
            let mem = unsafe { RawMem::new(std::ptr::null_mut(), 0) };
            desc(mem, 0, &[0], &[0], crate::arrays::dtype::DType::U8)
        });
        descs.push(d);
    }
    descs.extend(p.consts.iter().copied());
    if !descs.iter().all(in_range) {
        return None;
    }
    let c_ok = p.k.params.iter().zip(&descs).all(|(t, d)| match t {
        Ty::Array { layout, .. } => *layout != Layout::C || c_contiguous(d),
        _ => true,
    });
    if !c_ok {
        return None;
    }
    let code = code_for_shapes(p.k, &shape_classes(p.k, &descs))?;
    let long = (0..3)
        .filter(|&ax| p.cfg.block[ax] > 1)
        .fold(0u8, |m, ax| m | 1 << ax);
    if code.flat & long != 0 {
        return None;
    }
    let base: Vec<JArr> = descs.iter().map(jarr).collect();
    let nblocks = p.cfg.blocks();
    let threads = p.cfg.threads_per_block();
    let small = nblocks * threads <= SMALL_LAUNCH && !p.k.hints.loops;
    let workers = rayon::current_num_threads().max(1);
    // In any order, a chunk is a run of one strip's blocks (`order.rs`); the usual order
    // is one strip of every block. Launches of more blocks than the deferred list may
    // hold keep the usual order.
    let any = code
        .order
        .as_ref()
        .filter(|o| nblocks <= MAX_DEFERRED && o.fits(&p.cfg, &descs));
    let strip = any.map_or(nblocks, |o| o.strip(&p.cfg));
    let per_chunk = if code.lockstep {
        crate::kernel::exec::blocks_per_chunk(p)
    } else if any.is_some()
        && strip * threads <= 4 * CHUNK_THREADS
        && nblocks / strip >= workers * 4
    {
        // A whole strip where one is not much longer than a chunk and there are strips
        // enough to share: its rows then run as one contiguous run of each array (a C
        // array's rows follow one another), which the hardware prefetcher streams, rather
        // than as pieces of a page or two that it meets cold.
        strip
    } else {
        (CHUNK_THREADS / threads)
            .max(1)
            .min(nblocks.div_ceil(workers * 4).max(1))
    };
    let lanes = if code.lockstep {
        per_chunk * threads
    } else {
        0
    };
    let pieces = strip.div_ceil(per_chunk);
    let nspans = nblocks / strip.max(1) * pieces;
    // Span `i`: its blocks, computed rather than listed (a launch may have 2^60 blocks).
    let span = |i: usize| {
        let (s, f) = (i / pieces, i / pieces * strip + i % pieces * per_chunk);
        (f, (f + per_chunk).min((s + 1) * strip))
    };
    let poll = poll::PollFlags::of(p);
    let privates = private::Privates::new(p.k, &descs, nblocks * threads);
    // The first fault by block: the span's first block, its end, the fault.
    let first_fault: Mutex<Option<(usize, usize, KernelFault)>> = Mutex::new(None);
    let later: Mutex<Vec<usize>> = Mutex::new(Vec::new());
    p.with_fault_grace(|on_fault| {
        // Spans run in parallel, so a later span may fault first: it bars the spans after it
        // (`Prepared::with_fault_grace`), and one before it that faults too replaces it. An interrupt
        // stops every span and is recorded at 0.
        let record = |at: usize, end: usize, f: KernelFault| {
            match f.kind {
                crate::kernel::abi::FaultKind::Stopped => return,
                crate::kernel::abi::FaultKind::Interrupted => p.stop.store(true, Ordering::Relaxed),
                _ => on_fault(at),
            }
            let mut ff = first_fault.lock().unwrap_or_else(|e| e.into_inner());
            if ff.as_ref().is_none_or(|(b, _, _)| at < *b) {
                *ff = Some((at, end, f));
            }
        };
        let body = |w: &mut Option<Result<Worker, KernelFault>>,
                    (first, end): (usize, usize),
                    order: bool| {
            if p.skip_from(first) {
                return;
            }
            if cancelled(p) {
                record(0, 0, KernelFault::interrupted());
                return;
            }
            let w = match w.get_or_insert_with(|| {
                worker(p, &base, &descs, lanes, code.words, per_chunk, &privates)
            }) {
                Ok(w) => w,
                Err(f) => {
                    record(first, end, f.clone());
                    return;
                }
            };
            let mut ctx = Ctx {
                arrs: w.arrs.as_ptr(),
                scalars: p.scalars.as_ptr(),
                grid: p.cfg.grid.map(|v| v as i64),
                block: p.cfg.block.map(|v| v as i64),
                first: first as i64,
                end: end as i64,
                local: w.local_ptr,
                lanes: w.lanes.as_mut_ptr(),
                slots: w.slots.as_mut_ptr().cast(),
                poll: &poll,
                private: w.private,
                order: order as i64,
                deferred: w.deferred.as_mut_ptr(),
                ndeferred: 0,
                status: 0,
                p,
                descs: &w.descs,
                fault: None,
            };
            // SAFETY: `entry` was compiled for this kernel; the context's tables describe
            // every array slot the code reads (parameters and constants proved `in_range`,
            // local arrays inside this worker's buffer) and stay alive for the call; in any
            // order a span has at most `per_chunk` blocks to list in `deferred`.
            let status = unsafe { (code.entry)(&mut ctx) };
            let n = (ctx.ndeferred.max(0) as usize).min(w.deferred.len());
            if n > 0 {
                let mut l = later.lock().unwrap_or_else(|e| e.into_inner());
                l.extend(w.deferred[..n].iter().map(|&b| b as usize));
            }
            if status != 0 {
                let f = ctx
                    .fault
                    .take()
                    .unwrap_or_else(|| fault("InternalError", "native kernel failed".into()));
                let at = if f.kind == crate::kernel::abi::FaultKind::Interrupted {
                    0
                } else {
                    first
                };
                record(at, end, f);
            }
        };
        let run_spans = |n: usize, span: &(dyn Fn(usize) -> (usize, usize) + Sync), order: bool| {
            if n == 1 || small {
                let mut w = None;
                for i in 0..n {
                    body(&mut w, span(i), order);
                }
            } else {
                (0..n)
                    .into_par_iter()
                    .for_each_init(|| None, |w, i| body(w, span(i), order));
            }
        };
        // A flat grid-stride launch (`flat.rs`) is told so the same way: its threads cannot
        // see one another either.
        let flat = code
            .grid_stride
            .as_ref()
            .is_some_and(|f| code.lockstep && f.fits(&p.cfg, &descs));
        run_spans(nspans, &span, any.is_some() || flat);
        // The blocks left for the usual order, in it.
        let mut later = std::mem::take(&mut *later.lock().unwrap_or_else(|e| e.into_inner()));
        // Those before a fault still run, so that the fault reported is the first in order.
        later.retain(|&b| b < p.faulted.load(Ordering::Relaxed));
        if !later.is_empty() && !p.stop.load(Ordering::Relaxed) {
            later.sort_unstable();
            let mut spans = Vec::new();
            let mut k = 0;
            while k < later.len() {
                let mut e = k + 1;
                while e < later.len() && later[e] == later[e - 1] + 1 {
                    e += 1;
                }
                spans.extend(chunks(later[k]..later[e - 1] + 1, per_chunk));
                k = e;
            }
            run_spans(spans.len(), &|i| spans[i], false);
        }
    });
    // Faulted or not, the copies hold atomics the interpreter would have made.
    privates.fold(&descs);
    if let Some((at, end, f)) = first_fault.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Some(Err(interpreters_fault(p, &descs, at, end, f)));
    }
    Some(Ok(LaunchOutput::default()))
}

/// The fault to report for a launch whose span `at..end` faulted natively with `f`. Native
/// code runs a block's threads one after another (or region by region), the interpreter
/// each step across all of them: where threads fault at different steps (iterations of a
/// loop) the first thread to fault differs, although each fault is right. The
/// interpreter is the reference, so where it can run the span again and see what it saw
/// the first time (`cover::rerunnable`), its fault is reported; an in-place kernel keeps
/// native code's (the threads' lowest that faults, each run to its end).
fn interpreters_fault(
    p: &Prepared,
    descs: &[ArrDesc],
    at: usize,
    end: usize,
    f: KernelFault,
) -> KernelFault {
    use crate::kernel::abi::FaultKind;
    if !matches!(f.kind, FaultKind::Raise(_)) || !cover::rerunnable(p.k, |i| alone(descs, i)) {
        return f;
    }
    // The launch has ended: a stop flag its fault set would end this run at once.
    if !crate::kernel::exec::cancelled(p) {
        p.stop.store(false, Ordering::Relaxed);
    }
    crate::kernel::exec::first_fault_in(p, at, end)
        .filter(|g| matches!(g.kind, FaultKind::Raise(_)))
        .unwrap_or(f)
}
