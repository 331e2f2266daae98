//! Preparing a launch for the CPU executor: CUDA's launch limits, arguments checked
//! against the compiled types and resolved to raw views, and which arrays each thread
//! reaches only at its own element.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use crate::arrays::buffer::Buffer;
use crate::arrays::dtype::DType;
use crate::kernel::abi::Storage;
use crate::kernel::abi::{ArgMem, Cancel, KernelArg, KernelFault, LaunchConfig};
use crate::kernel::exec::fault;
use crate::kernel::exec::mem::{RawMem, Run};
use crate::kernel::exec::scalar_ops::scalar_bits;
use crate::kernel::ir::Kernel;
use crate::kernel::types::Ty;

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
    /// [`crate::kernel::exec::plan::ExecHints::gid_exclusive`], checked against the launch
    /// and the other arguments by [`prepare`]), so runs may use plain accesses.
    pub exclusive: bool,
}

impl ArrDesc {
    /// Load a proved run of this array: plain, vectorised loads when it is `exclusive`,
    /// relaxed atomics otherwise.
    pub fn load_run(&self, run: Run, out: &mut [u64]) {
        if self.exclusive {
            // SAFETY: an exclusive array is reached only at each thread's own global id
            // (proved by exec_plan and `mark_exclusive`), so no other thread touches the
            // run's elements during this launch.
            unsafe { self.mem.load_run_exclusive(run, out) }
        } else {
            self.mem.load_run(run, out)
        }
    }

    /// Store a proved run of this array (see [`ArrDesc::load_run`]).
    pub fn store_run(&self, run: Run, vals: &[u64]) {
        if self.exclusive {
            // SAFETY: as in `load_run`: only each element's own thread reaches it.
            unsafe { self.mem.store_run_exclusive(run, vals) }
        } else {
            self.mem.store_run(run, vals)
        }
    }
}

pub struct Prepared<'a> {
    pub k: &'a Kernel,
    pub cfg: LaunchConfig,
    pub params: Vec<Option<ArrDesc>>,
    pub scalars: Vec<u64>,
    pub consts: Vec<ArrDesc>,
    /// Set when the launch is interrupted, or a fault's grace is over: every block stops at
    /// its next poll.
    pub stop: AtomicBool,
    /// The first block of the lowest-numbered chunk seen to fault (`usize::MAX`: none).
    /// Chunks from there on are skipped; chunks already running get a grace to finish
    /// ([`Prepared::with_fault_grace`]).
    pub faulted: AtomicUsize,
    /// What else ends the launch early (an interrupt, a device's cancel).
    pub cancel: Option<Cancel>,
    /// Run on the JIT tier when it covers the kernel (false: the interpreter only).
    pub jit: bool,
}

/// How long a launch that met a fault lets the blocks already running go on before it
/// stops them. Blocks run in parallel, so a later block may fault before an earlier one:
/// given the time to finish, the earlier one reports its own fault, and the fault shown
/// is the first in launch order on both executors, whichever worker met one first. A
/// block that would not finish (a loop waiting on a faulted block) is stopped at the end
/// of it, as a GPU ends a kernel at its first fault.
const FAULT_GRACE: Duration = Duration::from_millis(500);

impl Prepared<'_> {
    /// Whether a chunk starting at block `first` need not run: interrupted, or a chunk
    /// before it faulted.
    pub(crate) fn skip_from(&self, first: usize) -> bool {
        self.stop.load(Ordering::Relaxed) || first >= self.faulted.load(Ordering::Relaxed)
    }

    /// Run a launch's chunks, handing them what to call when the chunk starting at block
    /// `first` faults: chunks from there on are skipped, and the first call starts a
    /// watcher that sets the stop flag [`FAULT_GRACE`] later, unless the launch ended
    /// first. (A thread only when a launch faults: launches that do not pay nothing.)
    pub(crate) fn with_fault_grace<R>(
        &self,
        launch: impl FnOnce(&(dyn Fn(usize) + Sync)) -> R,
    ) -> R {
        let ended = (Mutex::new(false), Condvar::new());
        let watching = AtomicBool::new(false);
        std::thread::scope(|s| {
            let on_fault = |first: usize| {
                self.faulted.fetch_min(first, Ordering::Relaxed);
                if watching.swap(true, Ordering::AcqRel) {
                    return;
                }
                let watch = || {
                    let (lock, cv) = &ended;
                    let g = lock.lock().unwrap_or_else(|e| e.into_inner());
                    let (g, _) = cv
                        .wait_timeout_while(g, FAULT_GRACE, |ended| !*ended)
                        .unwrap_or_else(|e| e.into_inner());
                    if !*g {
                        self.stop.store(true, Ordering::Relaxed);
                    }
                };
                // Without a watcher, stop at once: the fault may then be a later block's.
                if std::thread::Builder::new().spawn_scoped(s, watch).is_err() {
                    self.stop.store(true, Ordering::Relaxed);
                }
            };
            let r = launch(&on_fault);
            *ended.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
            ended.1.notify_all();
            r
        })
    }
}

fn invalid_launch(why: &str) -> KernelFault {
    fault(
        "CudaAPIError",
        format!("[1] Call to cuLaunchKernel results in CUDA_ERROR_INVALID_VALUE ({why})"),
    )
}

pub(crate) fn desc(
    mem: RawMem,
    offset: isize,
    shape: &[usize],
    strides: &[isize],
    dtype: DType,
) -> ArrDesc {
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
    if cfg.grid[0] > i32::MAX as u32 {
        return Err(invalid_launch(&format!(
            "grid x of {}; the limit is 2147483647",
            cfg.grid[0]
        )));
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
        faulted: AtomicUsize::new(usize::MAX),
        cancel: None,
        jit: crate::kernel::jit::enabled_by_default(),
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
