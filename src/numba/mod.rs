//! Kernels: `@vectorize`, `@cuda.jit`, device functions, `@cuda.reduce` and `@njit` bodies
//! lowered to one typed IR; executed lane-vectorised on the CPU device, or emitted as CUDA C
//! for NVRTC.

pub mod compile;
pub mod cuda_reduce;
pub mod dispatch;
pub mod frontend;
pub mod guvectorize;
pub mod inspect_asm;
pub mod intrinsics;
pub mod launch;
pub mod njit;
pub mod numba_types;
pub mod vectorize;
pub mod vectorize_kernel;

use std::rc::Rc;

use crate::py::value::{Module, Value};

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
