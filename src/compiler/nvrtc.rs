//! The compiler's view of NVRTC: `inspect_asm()` and the NVRTC tests compile through the
//! same wrapper and options as the CUDA device ([`crate::devices::cuda::nvrtc`]), so the
//! compile the tests verify is the one a launch performs.

use crate::compiler::codegen::cuda_source;
use crate::compiler::CompiledKernel;
use crate::devices::cuda::nvrtc as wrapper;
use crate::language::{PyErr, PyResult};

pub use wrapper::{default_arch, missing_nvrtc_message, Compiled, DEFAULT_ARCH};

/// True when NVRTC can be loaded.
pub fn available() -> bool {
    wrapper::nvrtc_available().is_ok()
}

/// Compile CUDA C for `arch` (e.g. `compute_80`) with the device's options.
pub fn compile(source: &str, arch: &str) -> Result<Compiled, String> {
    wrapper::compile_ptx(source, "nbcuda_kernel.cu", arch)
}

/// The error `inspect_asm()` and friends raise when NVRTC is missing or a compile fails.
pub fn nvrtc_error(message: String) -> PyErr {
    let missing = message == missing_nvrtc_message();
    let e = PyErr::new("RuntimeError", message);
    if missing {
        e.with_hint("pip install nvidia-cuda-nvrtc-cu12 (or install the CUDA toolkit), then restart the kernel.")
    } else {
        e
    }
}

/// PTX of a compiled kernel for `inspect_asm()`: for the GPU in use, or for
/// [`DEFAULT_ARCH`] on the CPU device.
pub fn ptx_of(kernel: &CompiledKernel) -> PyResult<String> {
    compile(&cuda_source(kernel), &default_arch())
        .map(|c| c.ptx)
        .map_err(nvrtc_error)
}
