//! Kernels: `@vectorize`, `@cuda.jit`, device functions, `@cuda.reduce` and `@njit` bodies
//! lowered to one typed IR; executed lane-vectorised on the CPU device, or emitted as CUDA C
//! for NVRTC.

pub mod abi;

pub use abi::{ArgMem, ArrayArg, KernelArg, KernelFault, LaunchConfig, LaunchOutput};

/// A kernel compiled for one argument-type specialisation. Both devices consume it: the CPU
/// device through [`execute_on_cpu`], the CUDA device through its generated CUDA C.
pub struct CompiledKernel {
    pub name: String,
}

/// Run a compiled kernel on the embedded CPU device, blocking the calling (stream worker)
/// thread until every block has finished.
pub fn execute_on_cpu(
    kernel: &CompiledKernel,
    config: &LaunchConfig,
    args: &[KernelArg],
) -> Result<LaunchOutput, KernelFault> {
    let _ = (config, args);
    Err(KernelFault {
        ename: "NotImplementedError".into(),
        message: format!("kernel {} cannot run yet", kernel.name),
    })
}
