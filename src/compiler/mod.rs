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

use std::rc::Rc;

use crate::language::Module;

/// Build the top-level `numba` module's kernel API: `vectorize`, `guvectorize`, `jit`,
/// `njit`, `prange`, and the Numba types (`float32`, `int32`, ...).
pub fn numba_module() -> Rc<Module> {
    Rc::new(Module::new(
        "numba",
        "Numba's API on nbcuda's kernel compiler.",
    ))
}

/// Add the kernel API to `numba.cuda`: `jit`, `reduce`, `Reduce`, `In`, `Out`, `InOut`,
/// `vectorize`, and the in-kernel names (`grid`, `threadIdx`, `shared`, `atomic`, ...).
pub fn register_cuda_api(_cuda: &Module) {}

/// Build `numba.cuda.random` (xoroshiro128p states and draws).
pub fn cuda_random_module() -> Rc<Module> {
    Rc::new(Module::new(
        "numba.cuda.random",
        "Random numbers in kernels (xoroshiro128p).",
    ))
}
