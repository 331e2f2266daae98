//! The CPU executor's stream path for element-wise kernels: the shape of every
//! `@vectorize` ufunc and of `@cuda.jit` kernels such as `increment_by_one` — a global id,
//! a bounds guard, then straight-line code that loads and stores only at that id.
//!
//! Such a kernel has no interaction between threads and no control flow after the guard,
//! so it runs as a sequence of typed loops over chunks of consecutive threads instead of
//! through the lane interpreter: values keep their own width (float32 as f32), values
//! that are the same for every thread are computed once per launch, a load may read the
//! array in place, and the operation whose result is stored may write the array directly.
//! Bounds are proved once per launch for the whole guarded range; a launch that would
//! fault, or whose arguments break an assumption, goes to the interpreter, which reports
//! the fault exactly as before.

use std::sync::atomic::Ordering;

use rayon::prelude::*;

use crate::arrays::dtype::DType;
use crate::kernel::abi::{KernelFault, LaunchOutput};
use crate::kernel::exec::mem::Run;
use crate::kernel::exec::scalar_ops::{bin, cast, cmp, math, scalar_bits, un};
use crate::kernel::exec::stream_ops::{self as ops, with_elem, Elem, Opnd};
use crate::kernel::exec::stream_plan::{Step, StreamPlan};
use crate::kernel::exec::{cancelled, ArrDesc, Prepared};
use crate::kernel::ir::{ArrRef, Inst, Op, Reg, Special};

/// Threads per chunk: every chunk register then stays in the first-level cache.
const CHUNK: usize = 512;
/// Threads per task handed to a worker, at most: fewer, larger tasks cost less to hand
/// out; a launch is still cut into enough tasks to keep every worker busy.
const MAX_TASK: usize = 64 * CHUNK;
/// Launches of at most this many threads run on the calling thread.
const INLINE_THREADS: usize = 8192;

/// The value of a uniform instruction, from the uniform values before it.
fn eval(plan: &StreamPlan, p: &Prepared, i: &Inst, u: &[u64]) -> u64 {
    let regs = &plan.regs;
    let ty = |r: &Reg| regs[*r as usize];
    let at = |r: &Reg| u[*r as usize];
    let dt = i.dst.map(|d| regs[d as usize]).unwrap_or(DType::I64);
    match &i.op {
        Op::Const(s) => scalar_bits(s),
        Op::Param(j) => p.scalars[*j as usize],
        Op::Dim(ArrRef::Param(j), ax) => p.params[*j as usize]
            .map(|d| d.shape[*ax as usize] as u64)
            .unwrap_or(0),
        Op::Copy(a) => at(a),
        Op::Cast(a) => cast(at(a), ty(a), dt),
        Op::Bin(op, a, b) => bin(*op, dt, at(a), at(b)),
        Op::Cmp(c, a, b) => cmp(*c, ty(a), at(a), at(b)),
        Op::Un(op, a) => un(*op, dt, at(a)),
        Op::Select(c, a, b) => {
            if at(c) != 0 {
                at(a)
            } else {
                at(b)
            }
        }
        Op::Math(f, xs) => math(*f, ty(&xs[0]), at(&xs[0]), at(xs.get(1).unwrap_or(&xs[0]))),
        Op::Special(Special::Ntid(a)) => p.cfg.block[*a as usize] as u64,
        Op::Special(Special::Nctaid(a)) => p.cfg.grid[*a as usize] as u64,
        Op::Special(Special::WarpSize) => 32,
        _ => 0,
    }
}

/// One worker's chunk registers.
struct Scratch {
    bufs: Vec<Vec<u64>>,
    /// Stored results go to memory with non-temporal stores (a launch larger than the
    /// cache), through the register's buffer.
    stream_out: bool,
    /// Per register: the array memory it reads in place (a view load), or null.
    views: Vec<*const u8>,
    /// A chunk buffer a step writes before it becomes the destination register's, so a
    /// step may read the register it writes (`v = v * 2`).
    spare: Vec<u64>,
}

impl Scratch {
    fn new(plan: &StreamPlan, stream_out: bool) -> Scratch {
        Scratch {
            stream_out,
            bufs: plan
                .varying
                .iter()
                // bounded: CHUNK, a constant
                .map(|&v| if v { vec![0; CHUNK] } else { Vec::new() })
                .collect(),
            views: vec![std::ptr::null(); plan.varying.len()],
            spare: vec![0; CHUNK], // bounded: CHUNK, a constant
        }
    }

    /// Register `r` as `n` values of `T`.
    fn opnd<T: Elem>(&self, plan: &StreamPlan, u: &[u64], r: Reg, n: usize) -> Opnd<'_, T> {
        let r = r as usize;
        if !plan.varying[r] {
            return Opnd::S(T::of(u[r]));
        }
        let v = self.views[r];
        if !v.is_null() {
            // SAFETY: a view points at `n` proved, aligned elements of type T of an array
            // no other thread touches, and the plan puts no store to it before this use.
            return Opnd::V(unsafe { std::slice::from_raw_parts(v as *const T, n) });
        }
        let buf = &self.bufs[r];
        assert!(n * size_of::<T>() <= buf.len() * 8);
        // SAFETY: the buffer holds at least n values of T (checked), is aligned for any
        // element type (u64 storage), and every bit pattern is a valid T.
        Opnd::V(unsafe { std::slice::from_raw_parts(buf.as_ptr() as *const T, n) })
    }

    /// The bytes register `r` reads in place, if it is a view.
    fn view_range(&self, plan_regs: &[DType], r: Reg, n: usize) -> Option<(usize, usize)> {
        let v = self.views[r as usize];
        (!v.is_null()).then(|| {
            (
                v as usize,
                v as usize + n * plan_regs[r as usize].itemsize(),
            )
        })
    }
}

/// The byte offset of thread `s`'s element of a 1-D array reached at the global id, and
/// the run of the elements of threads `s..s + n` (proved in range at launch).
fn chunk_run(d: &ArrDesc, s: usize, n: usize) -> (isize, Run) {
    let off = d.offset + s as isize * d.strides[0];
    let run = d
        .mem
        .run(off, d.strides[0], n, d.dtype)
        // invariant: run() checked that all threads' elements fit before streaming
        .expect("proved at launch");
    (off, run)
}

/// Run one step over threads `s..s + n`.
fn step(
    plan: &StreamPlan,
    p: &Prepared,
    u: &[u64],
    sc: &mut Scratch,
    st: &Step,
    s: usize,
    n: usize,
) {
    let regs = &plan.regs;
    // invariant: the plan streams only kernels whose array parameters were given arrays
    let param = |j: &u32| p.params[*j as usize].expect("array parameter checked by the plan");
    match &st.inst.op {
        Op::Load(ArrRef::Param(j), _) => {
            let d = param(j);
            // invariant: a load always has a destination register
            let r = st.inst.dst.expect("a load has a destination") as usize;
            let (off, run) = chunk_run(&d, s, n);
            if st.view && d.strides[0] == d.dtype.itemsize() as isize {
                sc.views[r] = d.mem.ptr_at(off);
                return;
            }
            sc.views[r] = std::ptr::null();
            with_elem!(d.dtype, T, {
                let buf = &mut sc.bufs[r];
                // SAFETY: u64 storage of CHUNK >= n values, aligned for T.
                let out = unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr() as *mut T, n) };
                // SAFETY: the array is exclusive to each thread's own element (checked at
                // launch), so no other worker writes this run.
                unsafe { d.mem.read_run_exclusive(run, out) }
            })
        }
        Op::Store(ArrRef::Param(j), _, v) => {
            let d = param(j);
            let (_, run) = chunk_run(&d, s, n);
            with_elem!(d.dtype, T, {
                let src: &[T] = match sc.opnd::<T>(plan, u, *v, n) {
                    Opnd::V(x) => x,
                    Opnd::S(x) => {
                        // SAFETY: the spare buffer holds CHUNK >= n u64s, aligned for T;
                        // no operand reads it.
                        let fill = unsafe {
                            std::slice::from_raw_parts_mut(sc.spare.as_mut_ptr() as *mut T, n)
                        };
                        fill.fill(x);
                        fill
                    }
                };
                // SAFETY: as for loads; `src` may be a view of this very run (a copy onto
                // itself), which the exclusive write handles as a memmove.
                unsafe { d.mem.write_run_exclusive(run, src) }
            })
        }
        _ => {
            // invariant: the plan admits only computed steps that have a destination
            let d = st.inst.dst.expect("a computed step has a destination") as usize;
            let dt = regs[d];
            // Write straight into the stored array unless an operand reads it in place.
            let target = st.forward.and_then(|j| {
                let a = param(&j);
                if sc.stream_out || a.strides[0] != a.dtype.itemsize() as isize {
                    return None;
                }
                let ptr = a.mem.ptr_at(chunk_run(&a, s, n).0);
                let (lo, hi) = (ptr as usize, ptr as usize + n * a.dtype.itemsize());
                let clash = st
                    .args
                    .iter()
                    .filter_map(|r| sc.view_range(regs, *r, n))
                    .any(|(a0, a1)| a0 < hi && lo < a1);
                (!clash).then_some(ptr)
            });
            let mut buf = std::mem::take(&mut sc.spare);
            let out = target.unwrap_or(buf.as_mut_ptr() as *mut u8);
            // SAFETY: `out` is the spare buffer (CHUNK >= n values, aligned for any
            // element type, taken out of `sc` so no operand reads it), or the stored
            // array's proved run of n elements of type `dt`, private to this worker and
            // read in place by no operand (checked above).
            unsafe { compute(plan, p, u, sc, &st.inst, dt, s, n, out) };
            if target.is_none() {
                if let Some(j) = st.forward {
                    // The forward was refused for this chunk: store from the buffer.
                    let a = param(&j);
                    let (_, run) = chunk_run(&a, s, n);
                    with_elem!(dt, T, {
                        // SAFETY: the buffer holds the n values of T written just above.
                        let vals =
                            unsafe { std::slice::from_raw_parts(buf.as_ptr() as *const T, n) };
                        // SAFETY: exclusive run, as for stores; the buffer is ours, so
                        // it does not overlap the run.
                        unsafe {
                            if sc.stream_out {
                                a.mem.stream_run_exclusive(run, vals)
                            } else {
                                a.mem.write_run_exclusive(run, vals)
                            }
                        }
                    })
                }
            }
            // The buffer now holds the register's values (unless they went straight to
            // memory, and then nothing reads the register); its old one becomes the spare.
            sc.spare = if target.is_none() {
                std::mem::replace(&mut sc.bufs[d], buf)
            } else {
                buf
            };
            sc.views[d] = std::ptr::null();
        }
    }
}

/// Compute instruction `i` (destination type `dt`) for threads `s..s + n` into `out`.
///
/// # Safety
/// `out` must point to `n` writable values of `dt`'s native type, aligned, that no operand
/// of `i` reads and nothing else accesses during the call.
#[allow(clippy::too_many_arguments)]
unsafe fn compute(
    plan: &StreamPlan,
    p: &Prepared,
    u: &[u64],
    sc: &Scratch,
    i: &Inst,
    dt: DType,
    s: usize,
    n: usize,
    out: *mut u8,
) {
    let ty = |r: &Reg| plan.regs[*r as usize];
    macro_rules! out {
        ($t:ty) => {
            // SAFETY: the caller's guarantee on `out`, read as the destination type.
            unsafe { std::slice::from_raw_parts_mut(out as *mut $t, n) }
        };
    }
    macro_rules! arg {
        ($r:expr) => {
            sc.opnd(plan, u, $r, n)
        };
    }
    match &i.op {
        Op::Copy(a) | Op::Cast(a) => with_elem!(ty(a), F, {
            with_elem!(dt, U, ops::cast_loop::<F, U>(out!(U), arg!(*a)))
        }),
        Op::Bin(o, a, b) => with_elem!(dt, T, ops::bin_loop::<T>(*o, out!(T), arg!(*a), arg!(*b))),
        Op::Cmp(c, a, b) => {
            with_elem!(
                ty(a),
                T,
                ops::cmp_loop::<T>(*c, out!(B8), arg!(*a), arg!(*b))
            )
        }
        Op::Un(o, a) => with_elem!(dt, T, ops::un_loop::<T>(*o, out!(T), arg!(*a))),
        Op::Select(c, a, b) => {
            with_elem!(
                dt,
                T,
                ops::select_loop::<T>(out!(T), arg!(*c), arg!(*a), arg!(*b))
            )
        }
        Op::Math(f, xs) => {
            let (a, b) = (xs[0], *xs.get(1).unwrap_or(&xs[0]));
            if f.is_predicate() {
                with_elem!(ty(&a), T, ops::predicate_loop::<T>(*f, out!(B8), arg!(a)))
            } else if ty(&a) == DType::F32 {
                ops::math32_loop(*f, out!(f32), arg!(a), arg!(b))
            } else {
                ops::math64_loop(*f, out!(f64), arg!(a), arg!(b))
            }
        }
        Op::Special(Special::GlobalId(_)) => ops::iota(out!(i64), s as i64),
        // Constants, parameters and launch sizes assigned to a register that is also
        // assigned per thread: the same value for every thread of the chunk.
        _ => {
            let v = eval(plan, p, i, u);
            with_elem!(dt, T, out!(T).fill(T::of(v)))
        }
    }
}

fn chunk(plan: &StreamPlan, p: &Prepared, u: &[u64], sc: &mut Scratch, s: usize, n: usize) {
    for st in plan.steps.iter().filter(|st| !st.forwarded) {
        step(plan, p, u, sc, st, s, n);
    }
}

/// Run a launch on the stream path; None when this launch cannot take it (not 1-D, an
/// array shared in a way that breaks per-thread privacy, or a thread that would fault),
/// and the caller then runs the interpreter.
pub fn run(plan: &StreamPlan, p: &Prepared) -> Option<Result<LaunchOutput, KernelFault>> {
    let c = &p.cfg;
    if c.grid[1] != 1 || c.grid[2] != 1 || c.block[1] != 1 || c.block[2] != 1 {
        return None;
    }
    let mut u = vec![0u64; plan.regs.len()];
    for i in &plan.uniform {
        let d = i.dst? as usize;
        u[d] = eval(plan, p, i, &u);
    }
    let total = c.grid[0] as i64 * c.block[0] as i64;
    let hi = match plan.bound {
        Some((r, add)) => (u[r as usize] as i64).saturating_add(add).clamp(0, total),
        None => total,
    } as usize;
    for &j in &plan.arrays {
        let d = p.params.get(j as usize).copied().flatten()?;
        if !d.exclusive || d.ndim != 1 {
            return None;
        }
        let fits = d.mem.run(d.offset, d.strides[0], hi, d.dtype).is_some();
        if hi > 0 && (hi as i64 > d.shape[0] || !fits) {
            return None;
        }
    }
    let footprint: usize = plan
        .arrays
        .iter()
        .filter_map(|j| p.params[*j as usize].map(|d| d.dtype.itemsize() * hi))
        .sum();
    let stream_out = footprint > crate::kernel::exec::mem::cache_bytes();
    let workers = rayon::current_num_threads().max(1);
    let task = hi
        .div_ceil(workers * 8)
        .next_multiple_of(CHUNK)
        .clamp(CHUNK, MAX_TASK);
    let done = |sc: &mut Scratch, t: usize| -> bool {
        if cancelled(p) {
            return false;
        }
        let end = ((t + 1) * task).min(hi);
        let mut s = t * task;
        while s < end {
            let n = CHUNK.min(end - s);
            chunk(plan, p, &u, sc, s, n);
            s += n;
        }
        if sc.stream_out {
            crate::kernel::exec::mem::store_fence();
        }
        true
    };
    let tasks = hi.div_ceil(task);
    let finished = if hi <= INLINE_THREADS {
        let mut sc = Scratch::new(plan, stream_out);
        (0..tasks).all(|t| done(&mut sc, t))
    } else {
        (0..tasks)
            .into_par_iter()
            .map_init(|| Scratch::new(plan, stream_out), done)
            .all(|ok| ok)
    };
    if !finished {
        p.stop.store(true, Ordering::Relaxed);
        return Some(Err(KernelFault::interrupted()));
    }
    Some(Ok(LaunchOutput {
        printed: String::new(),
    }))
}
