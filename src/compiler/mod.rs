//! Kernels: `@vectorize`, `@cuda.jit`, device functions, `@cuda.reduce` and `@njit` bodies
//! lowered to one typed IR; executed lane-vectorised on the CPU device, or emitted as CUDA C
//! for NVRTC.

pub mod abi;
pub mod builder;
pub mod codegen;
pub mod compile;
pub mod dispatch;
pub mod exec;
pub mod exec_inst;
pub mod exec_math;
pub mod exec_ops;
pub mod exec_plan;
pub mod exec_prepare;
pub mod exec_stream;
pub mod exec_stream_ops;
pub mod exec_stream_plan;
pub mod exec_tags;
pub mod frontend;
pub mod frontend_arrays;
pub mod frontend_calls;
pub mod frontend_expr;
pub mod gufunc;
pub mod intrinsics;
pub mod ir;
pub mod launch;
pub mod mem;
pub mod njit;
pub mod numba_types;
pub mod nvrtc;
pub mod prange;
pub mod printbuf;
pub mod reduce;
pub mod rng;
pub mod types;
pub mod ufunc;
mod ufunc_kernel;

pub use abi::{ArgMem, ArrayArg, KernelArg, KernelFault, LaunchConfig, LaunchOutput};
pub use codegen::{cuda_source, entry_name};

/// A kernel compiled for one argument-type specialisation. Both devices consume it: the CPU
/// device through [`execute_on_cpu`], the CUDA device through its generated CUDA C.
pub struct CompiledKernel {
    pub name: String,
    /// The typed IR (see [`ir::print_kernel`] for its text form).
    pub ir: ir::Kernel,
}

impl CompiledKernel {
    pub fn from_ir(ir: ir::Kernel) -> CompiledKernel {
        CompiledKernel {
            name: ir.name.clone(),
            ir,
        }
    }
}

/// Run a compiled kernel on the embedded CPU device, blocking the calling (stream worker)
/// thread until every block has finished.
pub fn execute_on_cpu(
    kernel: &CompiledKernel,
    config: &LaunchConfig,
    args: &[KernelArg],
) -> Result<LaunchOutput, KernelFault> {
    let prepared = exec::prepare(&kernel.ir, config, args)?;
    exec::run(&prepared)
}

/// CUDA's launch limits, for the dispatcher to raise at the launch call (as a GPU does)
/// rather than when the queued work runs.
pub fn check_launch(kernel: &CompiledKernel, config: &LaunchConfig) -> Result<(), KernelFault> {
    exec::check_launch(&kernel.ir, config)
}

/// [`execute_on_cpu`] that also stops (KeyboardInterrupt) when `interrupt` is set: for
/// launches that run on the interpreter thread.
pub fn execute_on_cpu_interruptible(
    kernel: &CompiledKernel,
    config: &LaunchConfig,
    args: &[KernelArg],
    interrupt: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Result<LaunchOutput, KernelFault> {
    let mut prepared = exec::prepare(&kernel.ir, config, args)?;
    prepared.interrupt = Some(interrupt);
    exec::run(&prepared)
}

pub use exec::cancel_running_kernels;

use std::rc::Rc;

use crate::language::{Module, Value};

/// Build the top-level `numba` module's kernel API: `vectorize`, `guvectorize`, `jit`,
/// `njit`, `prange`, and the Numba types (`float32`, `int32`, ...).
pub fn numba_module() -> Rc<Module> {
    let m = Module::new("numba", "Numba's API on nbcuda's kernel compiler.");
    numba_types::register_types(&m);
    dispatch::register_numba(&m);
    Rc::new(m)
}

/// Add the kernel API to `numba.cuda`: `jit`, `reduce`, `Reduce`, `In`, `Out`, `InOut`,
/// `vectorize`, and the in-kernel names (`grid`, `threadIdx`, `shared`, `atomic`, ...).
pub fn register_cuda_api(cuda: &Module) {
    intrinsics::register(cuda);
    dispatch::register_cuda(cuda);
}

/// Build `numba.cuda.random` (xoroshiro128p states and draws).
pub fn cuda_random_module() -> Rc<Module> {
    let m = Module::new(
        "numba.cuda.random",
        "Random numbers in kernels (xoroshiro128p).",
    );
    intrinsics::register_random(&m);
    dispatch::register_random(&m);
    let _ = Value::None;
    Rc::new(m)
}
