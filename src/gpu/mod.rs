//! The only code that calls cudarc: the driver (context, streams, allocations, copies,
//! modules, launches), device memory, the launch-argument layout and NVRTC. Like cudarc's
//! own `result`/`safe` split, it is a thin layer that the CUDA device builds on.
//!
//! | file | holds |
//! |---|---|
//! | `driver.rs` | The CUDA device on cudarc: allocations, copies on streams, events, NVRTC-compiled modules (cached by source hash and compute capability) and launches. |
//! | `launch_args.rs` | The argument layout shared by the CUDA C this crate emits (kernels/common.cuh's `nb_array`, and the compiler's generated kernels) and the launch code. |
//! | `memory.rs` | Device memory owned through the driver: freed when the last reference drops. |
//! | `nvrtc.rs` | NVRTC: CUDA C to PTX, on any machine where `libnvrtc` can be loaded — no GPU or driver needed, which is how the test suite verifies every generated kernel. |
pub mod attributes;
pub mod driver;
pub mod launch_args;
pub mod memory;
pub mod nvrtc;
