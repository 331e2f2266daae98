//! What crosses from the host side to a device at launch: the launch configuration and
//! the kernel arguments. Shared by the compiler's dispatchers, the CPU executor and the
//! CUDA device.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use crate::arrays::buffer::Buffer;
use crate::arrays::dtype::{DType, Scalar};
use crate::gpu::memory::CudaMem;

/// What ends running or queued device work early, so an interrupt stops it.
#[derive(Clone)]
pub enum Cancel {
    /// The session's interrupt flag: work on the interpreter thread (`@njit`, CPU ufuncs).
    Interrupt(Arc<AtomicBool>),
    /// A device's cancel generation and its value when the work was queued: cancelling
    /// bumps it, which ends everything queued before.
    Generation(Arc<AtomicU64>, u64),
}

impl Cancel {
    /// A token for work queued now on a device whose cancel generation is `gen`.
    pub fn queued(gen: &Arc<AtomicU64>) -> Cancel {
        Cancel::Generation(gen.clone(), gen.load(Ordering::SeqCst))
    }

    pub fn requested(&self) -> bool {
        match self {
            Cancel::Interrupt(f) => f.load(Ordering::Relaxed),
            Cancel::Generation(g, at) => g.load(Ordering::Relaxed) != *at,
        }
    }
}

/// One device allocation. Dropping the last reference returns its bytes to the device.
pub struct Allocation {
    pub id: u64,
    pub bytes: usize,
    pub storage: Storage,
    /// Gives the bytes back to the accounting of the device that made the allocation when
    /// the last reference drops (idempotent: `.free()` may have released them already).
    pub release: fn(u64, usize) -> bool,
}

/// The memory behind an allocation.
pub enum Storage {
    /// Embedded CPU device memory (and host memory a device view wraps: mapped, managed).
    Cpu(Arc<Buffer>),
    /// GPU memory of the CUDA device.
    Cuda(Arc<CudaMem>),
}

impl Drop for Allocation {
    fn drop(&mut self) {
        (self.release)(self.id, self.bytes);
    }
}

/// Grid and block dimensions (x, y, z; unused dimensions are 1) and dynamic shared bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared_bytes: usize,
}

impl LaunchConfig {
    /// Blocks in the grid.
    pub fn blocks(&self) -> usize {
        self.grid.iter().map(|&g| g as usize).product()
    }
    /// Threads in one block (at least 1, so per-block loops always make progress).
    pub fn threads_per_block(&self) -> usize {
        self.block
            .iter()
            .map(|&b| b as usize)
            .product::<usize>()
            .max(1)
    }
}

/// Where an array argument's memory lives.
#[derive(Clone)]
pub enum ArgMem {
    /// Host memory (a host array the CPU device works on directly, pinned/mapped memory).
    Host(Arc<Buffer>),
    /// A device allocation (kept alive by the launch until it completes).
    Device(Arc<Allocation>),
}

/// A strided array argument.
#[derive(Clone)]
pub struct ArrayArg {
    pub mem: ArgMem,
    /// Byte offset of element 0 within the memory.
    pub offset: usize,
    pub shape: Vec<usize>,
    /// Byte strides (may be negative for reversed views).
    pub strides: Vec<isize>,
    pub dtype: DType,
}

#[derive(Clone)]
pub enum KernelArg {
    Array(ArrayArg),
    Scalar(Scalar),
}

/// What a kernel fault means for the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// Raised in the cell as the named Python exception (IndexError, ZeroDivisionError, ...).
    Raise(String),
    /// The launch was interrupted: KeyboardInterrupt.
    Interrupted,
    /// The block stopped for another block's interrupt or fault; never shown.
    Stopped,
}

/// A fault raised by a kernel (bounds violation, divergent barrier): surfaced on the host
/// as the named Python exception at the next synchronising call.
#[derive(Clone, Debug)]
pub struct KernelFault {
    pub kind: FaultKind,
    pub message: String,
}

impl KernelFault {
    /// A fault raised in the cell as the Python exception `ename`.
    pub fn raise(ename: &str, message: String) -> KernelFault {
        KernelFault {
            kind: FaultKind::Raise(ename.to_string()),
            message,
        }
    }
    pub fn interrupted() -> KernelFault {
        KernelFault {
            kind: FaultKind::Interrupted,
            message: String::new(),
        }
    }
    pub fn stopped() -> KernelFault {
        KernelFault {
            kind: FaultKind::Stopped,
            message: String::new(),
        }
    }
    /// The Python exception class the fault is shown as.
    pub fn ename(&self) -> &str {
        match &self.kind {
            FaultKind::Raise(n) => n,
            FaultKind::Interrupted => "KeyboardInterrupt",
            FaultKind::Stopped => "InternalError",
        }
    }
}

/// Where a fault happened, as both devices word it: `in kernel 'k', line 4: `arr[i] = i`
/// (block (0, 0, 0), thread (10, 0, 0))`.
pub fn fault_site(
    kernel: &str,
    loc: &crate::kernel::ir::Loc,
    block: [u32; 3],
    thread: [u32; 3],
) -> String {
    format!(
        "in kernel '{kernel}', line {}: `{}` (block ({}, {}, {}), thread ({}, {}, {}))",
        loc.line, loc.text, block[0], block[1], block[2], thread[0], thread[1], thread[2]
    )
}

/// The IndexError text for an element access outside an array, on either device: the first
/// axis whose index (after Python's negative wraparound) is out of range, then the whole
/// index and shape.
pub fn out_of_bounds_message(index: &[i64], shape: &[i64], site: &str) -> String {
    let tuple = |v: &[i64]| {
        let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        if items.len() == 1 {
            format!("({},)", items[0])
        } else {
            format!("({})", items.join(", "))
        }
    };
    let (ax, raw, n) = index
        .iter()
        .zip(shape)
        .enumerate()
        .find(|(_, (i, n))| {
            let w = if **i < 0 { i.wrapping_add(**n) } else { **i };
            w < 0 || w >= **n
        })
        .map(|(ax, (i, n))| (ax, *i, *n))
        .unwrap_or((
            0,
            index.first().copied().unwrap_or(0),
            shape.first().copied().unwrap_or(0),
        ));
    format!(
        "index {raw} is out of bounds for axis {ax} with size {n}: index {} into an array of shape {} {site}",
        tuple(index),
        tuple(shape)
    )
}

/// What a completed launch leaves behind besides memory effects.
#[derive(Clone, Debug, Default)]
pub struct LaunchOutput {
    /// Text printed by `print()` inside the kernel, in completion order.
    pub printed: String,
}
