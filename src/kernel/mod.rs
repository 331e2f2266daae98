//! Kernels as data: the typed IR, its builder and types, the launch ABI, the print buffer,
//! xoroshiro128p, CUDA C generation and the CPU executor. Nothing here knows Python values.

pub mod abi;
pub mod builder;
pub mod codegen;
pub mod exec;
pub mod ir;
pub mod printbuf;
pub mod rng;
pub mod types;

use crate::kernel::abi::{KernelArg, KernelFault, LaunchConfig, LaunchOutput};

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
