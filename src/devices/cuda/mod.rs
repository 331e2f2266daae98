//! The CUDA device: cudarc with dynamic loading, so every build carries it and runs
//! without CUDA; `probe` decides at session start whether a GPU is there to use.

pub mod abi;
pub mod device;
pub mod kernels;
pub mod nvrtc;

pub use device::{CudaBuffer, CudaDevice, CudaError, DeviceInfo, Dims};

/// Which device a session should use, from `NBCUDA_DEVICE` (cpu | cuda | unset = auto).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Auto,
    Cpu,
    Cuda,
}

pub fn choice_from_env() -> Result<Choice, String> {
    match std::env::var("NBCUDA_DEVICE").ok().as_deref().map(str::trim) {
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
pub fn probe() -> Result<CudaDevice, String> {
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

/// The device a session starts on: Ok(Some(gpu)), Ok(None) for the CPU device, or Err when
/// `NBCUDA_DEVICE=cuda` was asked for and cannot be had (shown in the first cell that
/// touches the device).
pub fn select() -> Result<Option<CudaDevice>, String> {
    match choice_from_env()? {
        Choice::Cpu => Ok(None),
        Choice::Auto => Ok(probe().ok()),
        Choice::Cuda => probe().map(Some).map_err(|why| {
            format!(
                "NBCUDA_DEVICE=cuda but {why}: install the NVIDIA driver on a machine with a GPU, or unset NBCUDA_DEVICE to use the embedded CPU device"
            )
        }),
    }
}
