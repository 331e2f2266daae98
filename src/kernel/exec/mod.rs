//! The CPU executor: the lane-vectorised interpreter over the IR (the reference executor),
//! its stream path for element-wise kernels, and `prange` loops. [`run`] takes the stream
//! path where it applies, then native code from the JIT tier ([`crate::kernel::jit`]) for
//! the kernels it covers, and the interpreter for everything else.
//!
//! | file | holds |
//! |---|---|
//! | `inst.rs` | The executor's instructions: arithmetic, special registers, loads and stores (with a contiguous fast path), atomics, barriers, print and RNG draws, each over a block's active lanes. |
//! | `math.rs` | Math over a whole set of lanes in loops the compiler can vectorise. |
//! | `mem.rs` | The executor's one window onto raw memory: element loads, stores and atomics at byte offsets of a buffer. |
//! | `plan.rs` | What the CPU executor may assume about a kernel, decided once when the kernel is built: whether its blocks are independent (so several blocks can run as one wide set of lanes), and which array parameters every thread touches only at its own global id (so contiguous runs of them can be copied with plain, vectorisable loads and stores). |
//! | `prange.rs` | `@njit(parallel=True)` with `prange`: which loops run in parallel, and how. |
//! | `prepare.rs` | Preparing a launch for the CPU executor: CUDA's launch limits, arguments checked against the compiled types and resolved to raw views, and which arrays each thread reaches only at its own element. |
//! | `scalar_ops.rs` | Scalar semantics of the executor on canonical register bits: integers are kept sign- or zero-extended to 64 bits, booleans are 0/1, float32 lives in the low 32 bits. |
//! | `stream.rs` | The CPU executor's stream path for element-wise kernels: the shape of every `@vectorize` ufunc and of `@cuda.jit` kernels such as `increment_by_one` — a global id, a bounds guard, then straight-line code that loads and stores only at that id. |
//! | `stream_ops.rs` | Typed element loops for the stream executor ([`crate::kernel::exec::stream`]): values held in their own width (float32 as f32, int8 as i8...), one loop per operation and type, each compiled twice (baseline and AVX2+FMA) and chosen at run time. |
//! | `stream_plan.rs` | Planning the stream path ([`crate::kernel::exec::stream`]) for one kernel: which registers are per thread and which per launch, the straight-line steps (conditional expressions turned into selects), float32 updates narrowed to float32 operations, and which loads may read arrays in place and which results may be written straight into the array they are stored to. |
//! | `tags.rs` | Uniform and affine registers. |
//!
//! `mod.rs`:
//! The lane-vectorised CPU executor. A block's threads are lanes; each IR instruction runs
//! over the block's active lanes (a sorted list of lane ids) with one register file of
//! `Vec<u64>` per register, so an instruction is a tight loop. Divergence splits the active
//! list; barriers require every live lane to be active (else a fault instead of a
//! deadlock); blocks run in parallel on rayon.

pub mod inst;
pub mod math;
pub mod mem;
pub mod plan;
pub mod prange;
pub mod prepare;
pub mod scalar_ops;
pub mod stream;
pub mod stream_ops;
pub mod stream_plan;
pub mod tags;

use std::sync::atomic::Ordering;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::arrays::buffer::Buffer;
use crate::kernel::abi::{
    fault_site, out_of_bounds_message, Cancel, FaultKind, KernelArg, KernelFault, LaunchConfig,
    LaunchOutput,
};
use crate::kernel::exec::mem::RawMem;
pub(crate) use crate::kernel::exec::prepare::desc;
pub use crate::kernel::exec::prepare::{check_launch, prepare, ArrDesc, Prepared};
use crate::kernel::exec::tags::{Split, Tag};
use crate::kernel::ir::{ArrRef, Inst, Kernel, Stmt};

/// Whether the launch was asked to stop (checked at loop back-edges and between blocks:
/// it then ends with KeyboardInterrupt).
pub(crate) fn cancelled(p: &Prepared) -> bool {
    p.cancel.as_ref().is_some_and(Cancel::requested)
}

pub(crate) fn fault(ename: &str, message: String) -> KernelFault {
    KernelFault::raise(ename, message)
}

/// Lanes the executor aims for when it runs several independent blocks as one set: enough
/// to amortise each instruction's dispatch, few enough that registers stay in cache.
const WIDE_LANES: usize = 1024;

/// Launches of at most this many threads run on the calling thread.
const SMALL_LAUNCH_LANES: usize = 8192;

/// Run every block of a prepared launch. Kernels whose blocks are independent run several
/// blocks per executor pass ("chunks" of about [`WIDE_LANES`] lanes); the others one
/// block per pass, so barriers and shared memory keep CUDA's per-block meaning.
pub fn run(p: &Prepared) -> Result<LaunchOutput, KernelFault> {
    if let Some(plan) = &p.k.hints.stream {
        if let Some(done) = crate::kernel::exec::stream::run(plan, p) {
            return done;
        }
    }
    if p.jit {
        if let Some(done) = crate::kernel::jit::run(p) {
            return done;
        }
    }
    let nblocks = p.cfg.blocks();
    let threads = p.cfg.threads_per_block();
    // A launch this small finishes in less time than waking the pool's workers takes,
    // unless its threads loop.
    let small = nblocks * threads <= SMALL_LAUNCH_LANES && !p.k.hints.loops;
    let per_chunk = blocks_per_chunk(p);
    let nchunks = nblocks.div_ceil(per_chunk);
    let printed: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
    let first_fault: Mutex<Option<(usize, KernelFault)>> = Mutex::new(None);
    p.with_fault_grace(|on_fault| {
        let body = |scratch: &mut Option<Block>, chunk: usize| {
            let first = chunk * per_chunk;
            if p.skip_from(first) {
                return;
            }
            if cancelled(p) {
                p.stop.store(true, Ordering::Relaxed);
                let mut ff = first_fault.lock().unwrap_or_else(|e| e.into_inner());
                *ff = Some((0, KernelFault::interrupted()));
                return;
            }
            let count = per_chunk.min(nblocks - first);
            // Chunks run in parallel, so a later chunk may fault first: it bars the chunks
            // after it, and one before it that faults too replaces it (`with_fault_grace`).
            let record = |f: KernelFault| {
                on_fault(first);
                let mut ff = first_fault.lock().unwrap_or_else(|e| e.into_inner());
                if ff.as_ref().is_none_or(|(b, _)| first < *b) {
                    *ff = Some((first, f));
                }
            };
            if scratch.is_none() {
                match Block::new(p, per_chunk) {
                    Ok(b) => *scratch = Some(b),
                    Err(f) => return record(f),
                }
            }
            let Some(blk) = scratch.as_mut() else { return };
            blk.reset(first, count);
            let all: Vec<u32> = (0..blk.live as u32).collect();
            match blk.run(p, &p.k.body, all) {
                Ok(_) => {
                    if !blk.printed.is_empty() {
                        let text = std::mem::take(&mut blk.printed);
                        printed
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((first, text));
                    }
                }
                Err(f) if f.kind == FaultKind::Stopped => {}
                Err(f) if f.kind == FaultKind::Interrupted => {
                    p.stop.store(true, Ordering::Relaxed);
                    let mut ff = first_fault.lock().unwrap_or_else(|e| e.into_inner());
                    *ff = Some((0, f));
                }
                Err(f) => record(f),
            }
        };
        if nchunks == 1 || small {
            let mut s = None;
            for chunk in 0..nchunks {
                body(&mut s, chunk);
            }
        } else {
            (0..nchunks).into_par_iter().for_each_init(|| None, body);
        }
    });
    if let Some((_, f)) = first_fault.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(f);
    }
    let mut parts = printed.into_inner().unwrap_or_else(|e| e.into_inner());
    parts.sort_by_key(|(b, _)| *b);
    Ok(LaunchOutput {
        printed: parts.into_iter().map(|(_, s)| s).collect(),
    })
}

/// The fault the interpreter meets first in the chunks that hold blocks `first..end`, run
/// one after another on the calling thread (None when none faults). The JIT tier asks
/// this of a span it saw fault, to name the thread the interpreter names (`jit::run`).
pub(crate) fn first_fault_in(p: &Prepared, first: usize, end: usize) -> Option<KernelFault> {
    let nblocks = p.cfg.blocks();
    let per_chunk = blocks_per_chunk(p);
    let mut blk = match Block::new(p, per_chunk) {
        Ok(b) => b,
        Err(f) => return Some(f),
    };
    let mut at = first / per_chunk * per_chunk;
    while at < end.min(nblocks) {
        blk.reset(at, per_chunk.min(nblocks - at));
        let all: Vec<u32> = (0..blk.live as u32).collect();
        if let Err(f) = blk.run(p, &p.k.body, all) {
            return Some(f);
        }
        at += per_chunk;
    }
    None
}

/// How many blocks the interpreter runs as one set of lanes. The JIT tier's lockstep
/// kernels run the same chunks, so that their iterations come in the interpreter's order.
pub(crate) fn blocks_per_chunk(p: &Prepared) -> usize {
    let g = p.cfg.grid;
    let nblocks = p.cfg.blocks();
    let threads = p.cfg.threads_per_block().max(1);
    let wide = p.k.hints.wide && g[1] == 1 && g[2] == 1;
    let small = nblocks * threads <= SMALL_LAUNCH_LANES;
    if wide && small {
        (WIDE_LANES / threads).max(1)
    } else if wide {
        // Enough chunks to keep every worker busy, each as wide as the budget allows.
        let workers = rayon::current_num_threads().max(1);
        (WIDE_LANES / threads)
            .min(nblocks.div_ceil(workers * 4))
            .max(1)
    } else {
        1
    }
}

/// Run a one-thread launch and return the bits of the kernel's return register (`@njit`).
pub fn run_single(
    k: &Kernel,
    args: &[KernelArg],
) -> Result<(Option<u64>, LaunchOutput), KernelFault> {
    run_host(k, args, false, None)
}

/// Run a host function (one thread); with `parallel`, its independent `prange` loops are
/// split across cores (see [`crate::kernel::exec::prange`]). `cancel` stops it at a loop
/// back-edge (KeyboardInterrupt).
pub fn run_host(
    k: &Kernel,
    args: &[KernelArg],
    parallel: bool,
    cancel: Option<Cancel>,
) -> Result<(Option<u64>, LaunchOutput), KernelFault> {
    let cfg = LaunchConfig {
        grid: [1, 1, 1],
        block: [1, 1, 1],
        dynamic_shared_bytes: 0,
    };
    let mut p = prepare(k, &cfg, args)?;
    p.cancel = cancel;
    let mut blk = Block::new(&p, 1)?;
    blk.reset(0, 1);
    blk.par = parallel;
    blk.run(&p, &k.body, vec![0])?;
    blk.materialise_all();
    let ret = k.ret.map(|r| blk.regs[r as usize][0]);
    Ok((
        ret,
        LaunchOutput {
            printed: std::mem::take(&mut blk.printed),
        },
    ))
}

pub(crate) struct LoopCtx {
    id: u32,
    brk: Vec<u32>,
    cont: Vec<u32>,
}

pub struct Block {
    /// Lanes allocated: threads per block times blocks per chunk.
    pub(crate) n: usize,
    /// Lanes of the current chunk (its last chunk may hold fewer blocks).
    pub(crate) live: usize,
    pub(crate) threads: usize,
    /// Linear id of the chunk's first block.
    pub(crate) first: usize,
    /// More than one block per chunk (only for kernels whose blocks are independent).
    pub(crate) wide: bool,
    pub(crate) grid: [u32; 3],
    /// threadIdx.x/y/z of every lane (fixed for a launch), built by [`Block::ensure_tids`]
    /// for the kernels that read them.
    pub(crate) tids: [Vec<u64>; 3],
    pub(crate) bdim: [u32; 3],
    /// blockIdx of the chunk's first block.
    pub(crate) bidx: [u32; 3],
    pub(crate) regs: Vec<Vec<u64>>,
    pub(crate) tags: Vec<Tag>,
    /// Per register: its lane data is stale and its tag is the truth (see exec_tags).
    pub(crate) lazy: Vec<bool>,
    pub(crate) shared: Vec<Buffer>,
    pub(crate) local: Vec<Buffer>,
    pub(crate) exited: usize,
    pub(crate) loops: Vec<LoopCtx>,
    pub(crate) printed: String,
    /// Run independent `prange` loops in parallel (a host function with parallel=True).
    pub(crate) par: bool,
}

thread_local! {
    /// Register lane vectors of finished launches, reused by the next launch on this
    /// thread: a fresh zeroed allocation per register costs page faults that dominate
    /// the launch of a small kernel.
    static LANE_POOL: std::cell::RefCell<Vec<Vec<u64>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// At most this many lane values are kept in a thread's pool.
const LANE_POOL_MAX: usize = 1 << 20;

/// A register of `n` lanes. Its values are left over from an earlier launch (like a GPU's
/// registers before the first write), never uninitialised memory.
fn take_lanes(n: usize) -> Vec<u64> {
    let mut v = LANE_POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default();
    v.truncate(n);
    v.resize(n, 0); // bounded: <= 1024 lanes (prepare)
    v
}

impl Drop for Block {
    fn drop(&mut self) {
        let regs = std::mem::take(&mut self.regs);
        LANE_POOL.with(|p| {
            let mut pool = p.borrow_mut();
            let mut held: usize = pool.iter().map(|v| v.capacity()).sum();
            for r in regs {
                if held + r.capacity() > LANE_POOL_MAX {
                    break;
                }
                held += r.capacity();
                pool.push(r);
            }
        });
    }
}

fn merge(a: Vec<u32>, b: Vec<u32>) -> Vec<u32> {
    if a.is_empty() {
        return b;
    }
    if b.is_empty() {
        return a;
    }
    // The usual result of a bounds guard: every taken lane before every other one.
    if a[a.len() - 1] < b[0] {
        let mut a = a;
        a.extend_from_slice(&b);
        return a;
    }
    if b[b.len() - 1] < a[0] {
        let mut b = b;
        b.extend_from_slice(&a);
        return b;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] < b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

impl Block {
    /// Scratch state for one block; a MemoryError fault when shared or local memory
    /// cannot be allocated.
    fn new(p: &Prepared, per_chunk: usize) -> Result<Block, KernelFault> {
        let b = p.cfg.block;
        let threads = (b[0] * b[1] * b[2]) as usize;
        let n = threads * per_chunk;
        let dyn_bytes = p.cfg.dynamic_shared_bytes;
        let shared =
            p.k.shared
                .iter()
                .map(|d| {
                    Buffer::zeroed(if d.dynamic {
                        dyn_bytes.max(8)
                    } else {
                        d.bytes().max(8)
                    })
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| {
                    fault(
                        "MemoryError",
                        format!("cannot allocate {} bytes of shared memory", e.bytes),
                    )
                })?;
        let local =
            p.k.local
                .iter()
                .map(|d| Buffer::zeroed((d.bytes() * n).max(8)))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| {
                    fault(
                        "MemoryError",
                        format!("cannot allocate {} bytes of local memory", e.bytes),
                    )
                })?;
        Ok(Block {
            n,
            live: n,
            threads,
            first: 0,
            wide: per_chunk > 1,
            grid: p.cfg.grid,
            tids: Default::default(),
            bdim: b,
            bidx: [0; 3],
            regs: (0..p.k.regs.len()).map(|_| take_lanes(n)).collect(),
            tags: vec![Tag::Var; p.k.regs.len()],
            lazy: vec![false; p.k.regs.len()],
            shared,
            local,
            exited: 0,
            loops: Vec::new(),
            printed: String::new(),
            par: false,
        })
    }

    /// Start a chunk of `count` blocks beginning at linear block id `first`.
    fn reset(&mut self, first: usize, count: usize) {
        self.first = first;
        self.bidx = block_coords(first, self.grid);
        self.live = count * self.threads;
        self.tags.fill(Tag::Var);
        self.lazy.fill(false);
        self.exited = 0;
        self.loops.clear();
    }

    /// A copy for running part of a `prange` loop on another worker (no shared or local
    /// memory, no tags: the fork's registers are about to be changed directly).
    pub(crate) fn fork(&self) -> Block {
        Block {
            n: self.n,
            live: self.live,
            threads: self.threads,
            first: self.first,
            wide: self.wide,
            grid: self.grid,
            tids: self.tids.clone(),
            bdim: self.bdim,
            bidx: self.bidx,
            regs: self.regs.clone(),
            tags: vec![Tag::Var; self.tags.len()],
            lazy: vec![false; self.tags.len()],
            shared: Vec::new(),
            local: Vec::new(),
            exited: 0,
            loops: Vec::new(),
            printed: String::new(),
            par: false,
        }
    }

    /// Build the per-lane thread indices on first use: most element-wise kernels only read
    /// `cuda.grid(1)`, which needs none, and small launches should not pay for them.
    pub(crate) fn ensure_tids(&mut self) {
        if !self.tids[0].is_empty() || self.n == 0 {
            return;
        }
        let b = self.bdim;
        // Nested loops instead of a division per lane.
        for _ in 0..self.n / self.threads {
            for z in 0..b[2] as u64 {
                for y in 0..b[1] as u64 {
                    self.tids[0].extend(0..b[0] as u64);
                    self.tids[1].extend(std::iter::repeat_n(y, b[0] as usize));
                    self.tids[2].extend(std::iter::repeat_n(z, b[0] as usize));
                }
            }
        }
    }

    /// threadIdx of lane `l`.
    pub(crate) fn tid(&self, l: usize) -> [u32; 3] {
        let l = (l % self.threads) as u32;
        [
            l % self.bdim[0],
            (l / self.bdim[0]) % self.bdim[1],
            l / (self.bdim[0] * self.bdim[1]),
        ]
    }

    /// blockIdx of lane `l`.
    pub(crate) fn block_of(&self, l: usize) -> [u32; 3] {
        if self.wide {
            block_coords(self.first + l / self.threads, self.grid)
        } else {
            self.bidx
        }
    }

    pub(crate) fn run(
        &mut self,
        p: &Prepared,
        stmts: &[Stmt],
        active: Vec<u32>,
    ) -> Result<Vec<u32>, KernelFault> {
        let mut act = active;
        for s in stmts {
            if act.is_empty() {
                break;
            }
            if let Stmt::Loop { id, .. } = s {
                if self.par && act.len() == 1 {
                    if let Some(pl) = p.k.par_loops.iter().find(|pl| pl.id == *id) {
                        if self.run_par_loop(p, s, pl, act[0] as usize)? {
                            continue;
                        }
                    }
                }
            }
            match s {
                Stmt::Inst(i) => self.inst(p, i, &act)?,
                Stmt::If(c, t, e) => {
                    act = match self.split(*c, std::mem::take(&mut act)) {
                        Split::All(all) => self.run(p, t, all)?,
                        Split::None(all) => self.run(p, e, all)?,
                        Split::Both(yes, no) => {
                            let ry = self.run(p, t, yes)?;
                            let rn = self.run(p, e, no)?;
                            merge(ry, rn)
                        }
                    };
                }
                Stmt::Loop { id, body, latch } => {
                    let mut cur = std::mem::take(&mut act);
                    let mut out = Vec::new();
                    let mut iters: u64 = 0;
                    while !cur.is_empty() {
                        self.loops.push(LoopCtx {
                            id: *id,
                            brk: Vec::new(),
                            cont: Vec::new(),
                        });
                        let rem = self.run(p, body, cur)?;
                        // invariant: pushed just above; run() pops only what it pushes
                        let ctx = self.loops.pop().expect("loop context pushed above");
                        out = merge(out, ctx.brk);
                        let next = merge(rem, ctx.cont);
                        cur = if latch.is_empty() || next.is_empty() {
                            next
                        } else {
                            self.run(p, latch, next)?
                        };
                        iters += 1;
                        if iters.is_multiple_of(4096) {
                            if cancelled(p) {
                                return Err(KernelFault::interrupted());
                            }
                            if p.stop.load(Ordering::Relaxed) {
                                return Err(KernelFault::stopped());
                            }
                        }
                    }
                    act = out;
                }
                Stmt::Break(id) | Stmt::Continue(id) => {
                    let is_break = matches!(s, Stmt::Break(_));
                    match self.loops.iter_mut().rev().find(|c| c.id == *id) {
                        Some(ctx) => {
                            let moved = std::mem::take(&mut act);
                            if is_break {
                                ctx.brk = merge(std::mem::take(&mut ctx.brk), moved);
                            } else {
                                ctx.cont = merge(std::mem::take(&mut ctx.cont), moved);
                            }
                        }
                        None => {
                            self.exited += act.len();
                            act.clear();
                        }
                    }
                }
                Stmt::Exit => {
                    self.exited += act.len();
                    act.clear();
                }
            }
        }
        Ok(act)
    }

    pub(crate) fn where_(&self, p: &Prepared, inst: &Inst, lane: usize) -> String {
        let loc = p.k.locs.get(inst.loc as usize).cloned().unwrap_or_default();
        let t = self.tid(lane);
        let b = self.block_of(lane);
        fault_site(&p.k.name, &loc, b, t)
    }

    pub(crate) fn arr(&self, p: &Prepared, a: ArrRef) -> (ArrDesc, isize) {
        match a {
            // invariant: ArrRef::Param refers only to array parameters, which prepare fills
            ArrRef::Param(i) => (p.params[i as usize].expect("array parameter"), 0),
            ArrRef::Const(i) => (p.consts[i as usize], 0),
            ArrRef::Shared(i) => {
                let d = &p.k.shared[i as usize];
                let b = &self.shared[i as usize];
                // SAFETY: the block owns this buffer for the whole block run.
                let mem = unsafe { RawMem::new(b.as_ptr(), b.len()) };
                let shape = if d.dynamic {
                    vec![p.cfg.dynamic_shared_bytes / d.dtype.itemsize()]
                } else {
                    d.shape.clone()
                };
                let st = crate::arrays::NdArray::c_strides(&shape, d.dtype.itemsize());
                (desc(mem, 0, &shape, &st, d.dtype), 0)
            }
            ArrRef::Local(i) => {
                let d = &p.k.local[i as usize];
                let b = &self.local[i as usize];
                // SAFETY: as for shared arrays.
                let mem = unsafe { RawMem::new(b.as_ptr(), b.len()) };
                let st = crate::arrays::NdArray::c_strides(&d.shape, d.dtype.itemsize());
                (desc(mem, 0, &d.shape, &st, d.dtype), d.bytes() as isize)
            }
        }
    }

    /// Byte offset of element `idx` for one lane, with negative-index wraparound and a
    /// bounds check that names the kernel, line, index and thread.
    #[inline(always)]
    pub(crate) fn offset(
        &self,
        p: &Prepared,
        inst: &Inst,
        d: &ArrDesc,
        per_lane: isize,
        idx: &[u32],
        l: usize,
    ) -> Result<isize, KernelFault> {
        let mut off = d.offset + per_lane * l as isize;
        for (ax, r) in idx.iter().enumerate() {
            let mut i = self.regs[*r as usize][l] as i64;
            let n = d.shape[ax];
            if i < 0 {
                i += n;
            }
            if i < 0 || i >= n {
                let index: Vec<i64> = idx
                    .iter()
                    .map(|r| self.regs[*r as usize][l] as i64)
                    .collect();
                let shape: Vec<i64> = d.shape[..d.ndim].to_vec();
                return Err(fault(
                    "IndexError",
                    out_of_bounds_message(&index, &shape, &self.where_(p, inst, l)),
                ));
            }
            off = off.wrapping_add((i as isize).wrapping_mul(d.strides[ax]));
        }
        if !d.mem.fits(off, d.dtype.itemsize()) {
            return Err(fault(
                "IndexError",
                format!(
                    "access outside the array's memory {}",
                    self.where_(p, inst, l)
                ),
            ));
        }
        Ok(off)
    }
}

/// blockIdx of the block with linear id `id` in `grid`.
fn block_coords(id: usize, grid: [u32; 3]) -> [u32; 3] {
    let (gx, gy) = (grid[0].max(1) as usize, grid[1].max(1) as usize);
    [
        (id % gx) as u32,
        ((id / gx) % gy) as u32,
        (id / (gx * gy)) as u32,
    ]
}
