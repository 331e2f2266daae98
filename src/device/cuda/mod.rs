//! The CUDA device behind the `Backend` trait, built on `gpu/` (cudarc with dynamic
//! loading, so every build carries it and runs without CUDA); `probe` decides at session
//! start whether a GPU is there to use.
//!
//! | file | holds |
//! |---|---|
//! | `backend.rs` | The CUDA device behind the `Backend` trait. |
//! | `builtin_kernels.rs` | The built-in device kernels (kernels/*.cu), embedded in the binary. |
//! | `mem.rs` | Device memory of the CUDA device, and the host staging that lets work written as Rust closures over host buffers run on it. |
//! | `ops.rs` | The bodies of the CUDA device's queued operations: copies (cuMemcpy when both sides are dense, the built-in copy/cast kernels for strided device regions, host staging otherwise), fills (the built-in fill kernel) and launches of generated kernels. |
//! | `pinned.rs` | Page-locked host memory of the CUDA device: `cuda.pinned_array` and `cuda.mapped_array` allocate with cuMemHostAlloc, so copies from and to them are DMA transfers without the driver's pageable staging, and a kernel reaches mapped memory in place through its device address. |
//!
//! Kernel `print()` reaches the cell as on the CPU device: printing kernels take a hidden
//! buffer parameter the host decodes after the launch (see [`crate::kernel::printbuf`]).
//! Out-of-bounds element accesses raise the CPU device's IndexError: generated kernels
//! check every index and the first faulting thread records itself in a mapped fault area
//! (`ops::FaultAreas`), which Numba on a real GPU does not do (it reads and writes outside
//! the array silently). Known differences from the CPU device, by design or not yet done:
//! a faulting thread ends while the launch's other threads run to completion; host arrays page-locked by the
//! `cuda.pinned(...)`/`cuda.mapped(...)` context managers stay ordinary host memory (copies
//! from them are pageable copies, and a kernel reaching them gets a temporary device copy);
//! every queued operation waits for its CUDA stream before the next starts, so pinned copies
//! overlap work of other streams, not later work of their own; CuPy operations without a
//! built-in kernel run staged through host mirrors; an interrupt drops only the operations
//! not yet handed to the driver, and a kernel already on the GPU runs to its end (the end
//! of a cell stops waiting for it, and frees are held back until it ends, because a
//! cuMemFree waiting for the device also blocks every cuMemAlloc; see `gpu::driver`).
//!
//! Checked on an H200 (CUDA 13 driver, NVRTC 13): `tests/gpu/smoke.sh` matches the CPU
//! device on every notebook, and Numba's own tests give the same results on both devices.

pub mod backend;
pub mod builtin_kernels;
pub mod mem;
pub mod ops;
pub mod pinned;

use std::sync::{Arc, OnceLock};

use crate::gpu::driver::CudaDevice;

/// Which device a session should use, from `NBCUDA_DEVICE` (cpu | cuda | unset = auto).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Auto,
    Cpu,
    Cuda,
}

pub fn choice_from_env() -> Result<Choice, String> {
    let want = std::env::var("NBCUDA_DEVICE")
        .ok()
        .map(|s| s.trim().to_ascii_lowercase());
    match want.as_deref() {
        None | Some("") | Some("auto") => Ok(Choice::Auto),
        Some("cpu") => Ok(Choice::Cpu),
        Some("cuda") | Some("gpu") => Ok(Choice::Cuda),
        Some(other) => Err(format!(
            "NBCUDA_DEVICE={other} is not understood: use NBCUDA_DEVICE=cpu for the embedded CPU device or NBCUDA_DEVICE=cuda for a GPU"
        )),
    }
}

/// Open the first CUDA device, or say why not. Never panics: cudarc panics when
/// libcuda is missing, so presence is checked first and the rest runs under catch_unwind.
/// Probed once per process; sessions share the device (and its module cache).
pub fn probe() -> Result<Arc<CudaDevice>, String> {
    static PROBED: OnceLock<Result<Arc<CudaDevice>, String>> = OnceLock::new();
    PROBED
        .get_or_init(|| crate::gpu::driver::open_first().map(Arc::new))
        .clone()
}

/// The device a session starts on: Ok(Some(gpu)), Ok(None) for the CPU device, or Err when
/// `NBCUDA_DEVICE=cuda` was asked for and cannot be had (shown in the first cell that
/// touches the device).
pub fn select() -> Result<Option<Arc<CudaDevice>>, String> {
    match choice_from_env()? {
        Choice::Cpu => Ok(None),
        Choice::Auto => Ok(probe().ok()),
        Choice::Cuda => probe().map(Some).map_err(|why| cuda_unavailable(&why)),
    }
}

/// The error text for `NBCUDA_DEVICE=cuda` when the probe failed with `why`.
pub fn cuda_unavailable(why: &str) -> String {
    format!(
        "NBCUDA_DEVICE=cuda but {why}: install the NVIDIA driver on a machine with a GPU, or unset NBCUDA_DEVICE to use the embedded CPU device"
    )
}

/// The banner's line about the device a new session will use.
pub fn banner_line() -> String {
    match select() {
        Ok(Some(d)) => {
            let (a, b) = d.info().compute_capability;
            format!(
                "Device: {} (CUDA, compute capability {a}.{b})",
                d.info().name
            )
        }
        Ok(None) => match (choice_from_env(), probe()) {
            (Ok(Choice::Cpu), _) => {
                "Device: the embedded CPU device (NBCUDA_DEVICE=cpu)".to_string()
            }
            (_, Err(why)) => format!("Device: the embedded CPU device (no GPU: {why})"),
            _ => "Device: the embedded CPU device".to_string(),
        },
        Err(why) => format!("Device: none usable ({why})"),
    }
}
