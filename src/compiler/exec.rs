//! The lane-vectorised CPU executor. A block's threads are lanes; each IR instruction runs
//! over the block's active lanes (a sorted list of lane ids) with one register file of
//! `Vec<u64>` per register, so an instruction is a tight loop. Divergence splits the active
//! list; barriers require every live lane to be active (else a fault instead of a
//! deadlock); blocks run in parallel on rayon.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::arrays::{Buffer, DType};
use crate::compiler::exec_ops::*;
use crate::compiler::exec_tags::Tag;
use crate::compiler::ir::{ArrRef, Inst, Kernel, Stmt};
use crate::compiler::mem::RawMem;
use crate::compiler::types::Ty;
use crate::compiler::{ArgMem, KernelArg, KernelFault, LaunchConfig, LaunchOutput};
use crate::devices::Storage;

/// An array as the executor sees it.
#[derive(Clone, Copy)]
pub struct ArrDesc {
    pub mem: RawMem,
    pub offset: isize,
    pub shape: [i64; 3],
    pub strides: [isize; 3],
    pub ndim: usize,
    pub dtype: DType,
    /// Each thread of this launch touches only its own elements (see
    /// [`crate::compiler::exec_plan::ExecHints::gid_exclusive`], checked against the launch
    /// and the other arguments by [`prepare`]), so runs may use plain accesses.
    pub exclusive: bool,
}

pub struct Prepared<'a> {
    pub k: &'a Kernel,
    pub cfg: LaunchConfig,
    pub params: Vec<Option<ArrDesc>>,
    pub scalars: Vec<u64>,
    pub consts: Vec<ArrDesc>,
    pub stop: AtomicBool,
    /// [`CANCEL_EPOCH`] when the launch started.
    pub epoch: u64,
    /// The session's interrupt flag, when the launch runs on the interpreter thread.
    pub interrupt: Option<Arc<AtomicBool>>,
}

/// Bumped by [`cancel_running_kernels`]; running launches notice the change at loop
/// back-edges and between blocks and stop with KeyboardInterrupt.
pub static CANCEL_EPOCH: AtomicU64 = AtomicU64::new(0);

/// Stop every kernel running on the CPU executor (an interrupt request): they end with a
/// KeyboardInterrupt fault instead of running on, e.g. a `while True:` kernel.
pub fn cancel_running_kernels() {
    CANCEL_EPOCH.fetch_add(1, Ordering::SeqCst);
}

const STOPPED: &str = "$stopped";

fn cancelled(p: &Prepared) -> bool {
    CANCEL_EPOCH.load(Ordering::Relaxed) != p.epoch
        || p.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
}

pub(crate) fn fault(ename: &str, message: String) -> KernelFault {
    KernelFault {
        ename: ename.into(),
        message,
    }
}

fn invalid_launch(why: &str) -> KernelFault {
    fault(
        "CudaAPIError",
        format!("[1] Call to cuLaunchKernel results in CUDA_ERROR_INVALID_VALUE ({why})"),
    )
}

fn desc(mem: RawMem, offset: isize, shape: &[usize], strides: &[isize], dtype: DType) -> ArrDesc {
    let mut s = [1i64; 3];
    let mut st = [0isize; 3];
    for (i, d) in shape.iter().enumerate().take(3) {
        s[i] = *d as i64;
        st[i] = strides[i];
    }
    ArrDesc {
        mem,
        offset,
        shape: s,
        strides: st,
        ndim: shape.len(),
        dtype,
        exclusive: false,
    }
}

/// CUDA's launch limits for `k` under `cfg` (threads per block, grid extents, local and
/// shared memory). Checked when a launch is queued, so the error is raised by the launch
/// call itself as cuLaunchKernel does, and again by [`prepare`] for direct callers.
pub fn check_launch(k: &Kernel, cfg: &LaunchConfig) -> Result<(), KernelFault> {
    let threads = cfg.block.iter().map(|&x| x as u64).product::<u64>();
    if threads > 1024 {
        return Err(invalid_launch(&format!(
            "{threads} threads per block; the limit is 1024"
        )));
    }
    if threads == 0 || cfg.grid.contains(&0) {
        return Err(invalid_launch("a grid or block dimension is 0"));
    }
    if cfg.grid[1] > 65535 || cfg.grid[2] > 65535 || cfg.block[2] > 64 {
        return Err(invalid_launch(
            "grid y/z are limited to 65535 and block z to 64",
        ));
    }
    let local: usize = k.local.iter().map(|d| d.bytes()).sum();
    if local > 512 * 1024 {
        return Err(invalid_launch(&format!(
            "{local} bytes of local memory per thread; the limit is 524288"
        )));
    }
    let shared = k.static_shared_bytes() + cfg.dynamic_shared_bytes;
    if shared > 48 * 1024 {
        return Err(invalid_launch(&format!(
            "{shared} bytes of shared memory per block; the limit is 49152"
        )));
    }
    Ok(())
}

/// Check the launch and resolve arguments to raw views. Argument memory is kept alive by
/// `args` (borrowed for the whole launch).
pub fn prepare<'a>(
    k: &'a Kernel,
    cfg: &LaunchConfig,
    args: &'a [KernelArg],
) -> Result<Prepared<'a>, KernelFault> {
    check_launch(k, cfg)?;
    if args.len() != k.params.len() {
        return Err(fault(
            "TypeError",
            format!(
                "kernel {} takes {} arguments, {} given",
                k.name,
                k.params.len(),
                args.len()
            ),
        ));
    }
    let mut params = Vec::new();
    let mut scalars = Vec::new();
    for (i, (a, t)) in args.iter().zip(&k.params).enumerate() {
        // The arguments must be what the kernel was compiled for; anything else is a
        // caller bug reported as a TypeError instead of misread memory.
        let ok = match (a, t) {
            (KernelArg::Scalar(s), Ty::Scalar(d)) => s.dtype() == *d,
            (KernelArg::Array(arr), Ty::Array { dtype, ndim, .. }) => {
                arr.dtype == *dtype && arr.shape.len() == *ndim && arr.strides.len() == *ndim
            }
            _ => false,
        };
        if !ok {
            return Err(fault(
                "TypeError",
                format!(
                    "argument {i} of kernel {} does not match its compiled type {t}",
                    k.name
                ),
            ));
        }
        match a {
            KernelArg::Scalar(s) => {
                params.push(None);
                scalars.push(scalar_bits(s));
            }
            KernelArg::Array(arr) => {
                let buf: &Buffer = match &arr.mem {
                    ArgMem::Host(b) => b,
                    ArgMem::Device(alloc) => match &alloc.storage {
                        Storage::Cpu(b) => b,
                        Storage::Cuda(_) => {
                            return Err(fault(
                                "CudaSupportError",
                                format!(
                                    "kernel {} was given GPU memory to run on the CPU executor",
                                    k.name
                                ),
                            ))
                        }
                    },
                };
                // SAFETY: the buffer is borrowed from `args`, which outlives the launch.
                let mem = unsafe { RawMem::new(buf.as_ptr(), buf.len()) };
                params.push(Some(desc(
                    mem,
                    arr.offset as isize,
                    &arr.shape,
                    &arr.strides,
                    arr.dtype,
                )));
                scalars.push(0);
            }
        }
    }
    mark_exclusive(k, cfg, &mut params);
    let consts = k
        .consts
        .iter()
        .map(|c| {
            // SAFETY: constant data lives in the kernel, borrowed for the launch; the
            // front end rejects stores to constant arrays, so it is only read.
            let mem = unsafe { RawMem::new(c.data.as_ptr() as *mut u8, c.data.len()) };
            let strides = crate::arrays::NdArray::c_strides(&c.shape, c.dtype.itemsize());
            desc(mem, 0, &c.shape, &strides, c.dtype)
        })
        .collect();
    Ok(Prepared {
        k,
        cfg: *cfg,
        params,
        scalars,
        consts,
        stop: AtomicBool::new(false),
        epoch: CANCEL_EPOCH.load(Ordering::Relaxed),
        interrupt: None,
    })
}

/// Mark the parameters that each thread of this launch touches only at its own element.
/// The kernel's hint says every access is at `cuda.grid(1)`; that makes elements private
/// to threads only in a 1-D launch, and only if no other argument reaches the same memory
/// through a different view (an identical view is the same elements at the same indices).
fn mark_exclusive(k: &Kernel, cfg: &LaunchConfig, params: &mut [Option<ArrDesc>]) {
    let one_d = cfg.grid[1] == 1 && cfg.grid[2] == 1 && cfg.block[1] == 1 && cfg.block[2] == 1;
    if !one_d {
        return;
    }
    let hint = |j: usize| k.hints.gid_exclusive.get(j).copied().unwrap_or(false);
    for j in 0..params.len() {
        let Some(a) = params[j] else { continue };
        if !hint(j) {
            continue;
        }
        let ok = params.iter().enumerate().all(|(q, b)| match b {
            Some(b) if q != j && a.mem.overlaps(&b.mem) => {
                hint(q)
                    && b.offset == a.offset
                    && b.strides[0] == a.strides[0]
                    && b.dtype == a.dtype
                    && b.ndim == 1
            }
            _ => true,
        });
        if let Some(a) = params[j].as_mut() {
            a.exclusive = ok;
        }
    }
}

/// Lanes the executor aims for when it runs several independent blocks as one set: enough
/// to amortise each instruction's dispatch, few enough that registers stay in cache.
const WIDE_LANES: usize = 1024;

/// Run every block of a prepared launch. Kernels whose blocks are independent run several
/// blocks per executor pass ("chunks" of about [`WIDE_LANES`] lanes); the others one
/// block per pass, so barriers and shared memory keep CUDA's per-block meaning.
pub fn run(p: &Prepared) -> Result<LaunchOutput, KernelFault> {
    let g = p.cfg.grid;
    let nblocks = g[0] as usize * g[1] as usize * g[2] as usize;
    let threads = p
        .cfg
        .block
        .iter()
        .map(|&b| b as usize)
        .product::<usize>()
        .max(1);
    let per_chunk = if p.k.hints.wide && g[1] == 1 && g[2] == 1 {
        // Enough chunks to keep every worker busy, each as wide as the budget allows.
        let workers = rayon::current_num_threads().max(1);
        (WIDE_LANES / threads)
            .min(nblocks.div_ceil(workers * 4))
            .max(1)
    } else {
        1
    };
    let nchunks = nblocks.div_ceil(per_chunk);
    let printed: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
    let first_fault: Mutex<Option<(usize, KernelFault)>> = Mutex::new(None);
    let body = |scratch: &mut Option<Block>, chunk: usize| {
        if p.stop.load(Ordering::Relaxed) {
            return;
        }
        if cancelled(p) {
            p.stop.store(true, Ordering::Relaxed);
            let mut ff = first_fault.lock().unwrap_or_else(|e| e.into_inner());
            *ff = Some((0, fault("KeyboardInterrupt", String::new())));
            return;
        }
        let first = chunk * per_chunk;
        let count = per_chunk.min(nblocks - first);
        if scratch.is_none() {
            match Block::new(p, per_chunk) {
                Ok(b) => *scratch = Some(b),
                Err(f) => {
                    p.stop.store(true, Ordering::Relaxed);
                    *first_fault.lock().unwrap_or_else(|e| e.into_inner()) = Some((first, f));
                    return;
                }
            }
        }
        let Some(blk) = scratch.as_mut() else { return };
        blk.reset(first, count, g);
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
            Err(f) if f.ename == STOPPED => {}
            Err(f) => {
                p.stop.store(true, Ordering::Relaxed);
                let mut ff = first_fault.lock().unwrap_or_else(|e| e.into_inner());
                if ff.as_ref().is_none_or(|(b, _)| first < *b) {
                    *ff = Some((first, f));
                }
            }
        }
    };
    if nchunks == 1 {
        let mut s = None;
        body(&mut s, 0);
    } else {
        (0..nchunks).into_par_iter().for_each_init(|| None, body);
    }
    if let Some((_, f)) = first_fault.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(f);
    }
    let mut parts = printed.into_inner().unwrap_or_else(|e| e.into_inner());
    parts.sort_by_key(|(b, _)| *b);
    Ok(LaunchOutput {
        printed: parts.into_iter().map(|(_, s)| s).collect(),
    })
}

/// Run a one-thread launch and return the bits of the kernel's return register (`@njit`).
pub fn run_single(
    k: &Kernel,
    args: &[KernelArg],
) -> Result<(Option<u64>, LaunchOutput), KernelFault> {
    run_host(k, args, false)
}

/// Run a host function (one thread); with `parallel`, its independent `prange` loops are
/// split across cores (see [`crate::compiler::prange`]).
pub fn run_host(
    k: &Kernel,
    args: &[KernelArg],
    parallel: bool,
) -> Result<(Option<u64>, LaunchOutput), KernelFault> {
    let cfg = LaunchConfig {
        grid: [1, 1, 1],
        block: [1, 1, 1],
        dynamic_shared_bytes: 0,
    };
    let p = prepare(k, &cfg, args)?;
    let mut blk = Block::new(&p, 1)?;
    blk.reset(0, 1, [1, 1, 1]);
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
    /// threadIdx.x/y/z of every lane (fixed for a launch).
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

fn merge(a: Vec<u32>, b: Vec<u32>) -> Vec<u32> {
    if a.is_empty() {
        return b;
    }
    if b.is_empty() {
        return a;
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
        // Nested loops instead of a division per lane: this runs once per launch and
        // is part of the launch overhead of small kernels.
        let mut tids: [Vec<u64>; 3] = [
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        ];
        for _ in 0..per_chunk {
            for z in 0..b[2] as u64 {
                for y in 0..b[1] as u64 {
                    tids[0].extend(0..b[0] as u64);
                    tids[1].extend(std::iter::repeat_n(y, b[0] as usize));
                    tids[2].extend(std::iter::repeat_n(z, b[0] as usize));
                }
            }
        }
        Ok(Block {
            n,
            live: n,
            threads,
            first: 0,
            wide: per_chunk > 1,
            grid: p.cfg.grid,
            tids,
            bdim: b,
            bidx: [0; 3],
            regs: vec![vec![0u64; n]; p.k.regs.len()],
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
    fn reset(&mut self, first: usize, count: usize, grid: [u32; 3]) {
        self.first = first;
        self.grid = grid;
        self.bidx = block_coords(first, grid);
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
                    if let Some((yes, no)) = self.split_by_tag(*c, &act) {
                        act = match (yes.is_empty(), no.is_empty()) {
                            (_, true) => self.run(p, t, yes)?,
                            (true, _) => self.run(p, e, no)?,
                            _ => {
                                let ry = self.run(p, t, yes)?;
                                let rn = self.run(p, e, no)?;
                                merge(ry, rn)
                            }
                        };
                        continue;
                    }
                    self.materialise(*c);
                    let cr = &self.regs[*c as usize];
                    // Uniform conditions (a bounds guard in every block but the last) keep
                    // the active list as it is: no split, no merge, no allocation.
                    let taken = act.iter().filter(|&&l| cr[l as usize] != 0).count();
                    if taken == act.len() {
                        act = self.run(p, t, act)?;
                        continue;
                    }
                    if taken == 0 {
                        act = self.run(p, e, act)?;
                        continue;
                    }
                    let (mut yes, mut no) = (
                        Vec::with_capacity(taken),
                        Vec::with_capacity(act.len() - taken),
                    );
                    for &l in &act {
                        if cr[l as usize] != 0 {
                            yes.push(l)
                        } else {
                            no.push(l)
                        }
                    }
                    let ry = if yes.is_empty() {
                        yes
                    } else {
                        self.run(p, t, yes)?
                    };
                    let rn = if no.is_empty() {
                        no
                    } else {
                        self.run(p, e, no)?
                    };
                    act = merge(ry, rn);
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
                                return Err(fault("KeyboardInterrupt", String::new()));
                            }
                            if p.stop.load(Ordering::Relaxed) {
                                return Err(fault(STOPPED, String::new()));
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
        format!(
            "in kernel '{}', line {}: `{}` (block ({}, {}, {}), thread ({}, {}, {}))",
            p.k.name, loc.line, loc.text, b[0], b[1], b[2], t[0], t[1], t[2]
        )
    }

    pub(crate) fn arr(&self, p: &Prepared, a: ArrRef) -> (ArrDesc, isize) {
        match a {
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
                let raw = self.regs[*r as usize][l] as i64;
                let index: Vec<String> = idx
                    .iter()
                    .map(|r| (self.regs[*r as usize][l] as i64).to_string())
                    .collect();
                return Err(fault(
                    "IndexError",
                    format!(
                        "index {raw} is out of bounds for axis {ax} with size {n}: index {} into an array of shape {} {}",
                        tuple_text(&index),
                        tuple_text(&d.shape[..d.ndim].iter().map(|s| s.to_string()).collect::<Vec<_>>()),
                        self.where_(p, inst, l)
                    ),
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

/// Python's tuple text: `(3,)`, `(3, 4)`.
fn tuple_text(items: &[String]) -> String {
    if items.len() == 1 {
        format!("({},)", items[0])
    } else {
        format!("({})", items.join(", "))
    }
}
