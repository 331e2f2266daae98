//! Kernels as data: the typed IR, its builder and types, the launch ABI, the print buffer,
//! xoroshiro128p, CUDA C generation, the CPU executor and its JIT tier. Nothing here knows
//! Python values.
//!
//! | file | holds |
//! |---|---|
//! | `abi.rs` | What crosses from the host side to a device at launch: the launch configuration and the kernel arguments. |
//! | `builder.rs` | Emitting IR: register allocation, nested statement blocks and source locations. |
//! | `codegen/` | CUDA C generation from the IR: one `extern "C" __global__` function per kernel, array arguments as `nb_arr` structs (pointer, shape, byte strides), registers as locals, structured control flow with labelled gotos for break/continue, and helpers for Python's integer division/modulo, atomics CUDA lacks natively (CAS loops) and xoroshiro128+ draws. |
//! | `exec/` | The lane-vectorised CPU executor. |
//! | `jit/` | The JIT tier of the CPU device: kernels without barriers, shared memory or print compiled to native code with Cranelift, bit-identical to the interpreter (which it falls back to). |
//! | `ir.rs` | The kernel IR: typed virtual registers, structured control flow (if / loop with labelled break and continue), array accesses that carry their source location for bounds messages, special registers, barriers, atomics, shared/local/const arrays, print and RNG draws. |
//! | `printbuf.rs` | `print()` inside kernels on the CUDA device: the generated CUDA C appends one record per printing thread to a device buffer (a hidden last kernel parameter, only for kernels that print), and after the launch the host turns the records into the same text the CPU executor prints, so the lines reach the cell's output on both devices. |
//! | `rng.rs` | xoroshiro128+ as Numba's `numba.cuda.random` defines it: SplitMix64 seeding (both state words get the same value), 2**64-step jumps between per-thread states, and the same uint64 → float conversions and Box-Muller draws, so seeded results match Numba's. |
//! | `types.rs` | Numba's kernel types and typing rules: scalar promotion for arithmetic, variable unification, and the signature strings users write (`'float32(float32, float32)'`, `'void(float32[:], int32)'`, `'f4(f4, f4)'`). |
//!

pub mod abi;
pub mod builder;
pub mod codegen;
pub mod exec;
pub mod ir;
pub mod jit;
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
    /// The type of each named variable of the source function (parameters and locals,
    /// arrays included), for Numba's `overloads[...]._type_annotation.typemap`.
    pub typemap: Vec<(String, types::Ty)>,
}

impl CompiledKernel {
    pub fn from_ir(ir: ir::Kernel) -> CompiledKernel {
        CompiledKernel {
            name: ir.name.clone(),
            ir,
            typemap: Vec::new(),
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

/// [`execute_on_cpu`] on a chosen executor: `jit` false runs the interpreter (the
/// reference) even where the JIT tier covers the kernel, for comparing the two.
pub fn execute_on_cpu_with(
    kernel: &CompiledKernel,
    config: &LaunchConfig,
    args: &[KernelArg],
    jit: bool,
) -> Result<LaunchOutput, KernelFault> {
    let mut prepared = exec::prepare(&kernel.ir, config, args)?;
    prepared.jit = jit;
    exec::run(&prepared)
}

/// CUDA's launch limits, for the dispatcher to raise at the launch call (as a GPU does)
/// rather than when the queued work runs.
pub fn check_launch(kernel: &CompiledKernel, config: &LaunchConfig) -> Result<(), KernelFault> {
    exec::check_launch(&kernel.ir, config)
}

/// [`execute_on_cpu`] that also stops (KeyboardInterrupt) when `cancel` asks: an
/// interrupt of the interpreter thread, or a device cancelling its queued work.
pub fn execute_on_cpu_cancellable(
    kernel: &CompiledKernel,
    config: &LaunchConfig,
    args: &[KernelArg],
    cancel: crate::kernel::abi::Cancel,
) -> Result<LaunchOutput, KernelFault> {
    let mut prepared = exec::prepare(&kernel.ir, config, args)?;
    prepared.cancel = Some(cancel);
    exec::run(&prepared)
}
