//! The `numba` module and the kernel front end: Python functions lowered to the typed IR
//! (`@cuda.jit`, device functions, `@vectorize`, `@guvectorize`, `@cuda.reduce`, `@njit`),
//! dispatchers and launches.
//!
//! | file | holds |
//! |---|---|
//! | `compile.rs` | Compiling a user function for one argument-type specialisation, and typing host arguments the way Numba's `typeof` does. |
//! | `cuda_reduce.rs` | Reductions with a binary device function: `cuda.reduce(binop)` / `cuda.Reduce`, and `ufunc.reduce`. |
//! | `dispatch.rs` | `@cuda.jit` dispatchers: kernels (lazily specialised per argument types, launched with `kernel[grid, block, stream, shared]`), device functions, `cuda.In/Out/InOut`, and the decorator plumbing shared by `jit`, `njit` and `vectorize`. |
//! | `frontend/` | AST → IR: statements, names, variables and the fixpoint that settles variable types (Numba unifies every assignment of a variable, so `s = 0; s += x[i]` with float32 `x` makes `s` float64). |
//! | `guvectorize.rs` | `@guvectorize` (basic): generalized ufuncs with a layout such as `'(n),(n)->(n)'` or `'(n)->()'`. |
//! | `inspect_asm.rs` | The compiler's view of NVRTC: `inspect_asm()` and the NVRTC tests compile through the same wrapper and options as the CUDA device ([`crate::gpu::nvrtc`]), so the compile the tests verify is the one a launch performs. |
//! | `intrinsics.rs` | Host-side placeholders for names that only mean something inside a kernel (`cuda.grid`, `cuda.threadIdx`, `cuda.shared.array`, `cuda.atomic.add`, the xoroshiro128p draws). |
//! | `launch.rs` | Launching a `@cuda.jit` kernel from host code: argument classification (device arrays by reference, host arrays copied in and back, `cuda.In/Out/InOut`, scalars by value), specialisation, and the launch through the devices API. |
//! | `njit.rs` | `@njit` / `@jit(nopython=True)` (and `parallel=True` with `prange`): the kernel front end compiled for the host and run as one thread over host arrays by reference; with `parallel=True`, independent `prange` loops are split across cores (see [`crate::kernel::exec::prange`] for which loops qualify). |
//! | `numba_types.rs` | Numba's type objects as Python values: `numba.float32`, `int32[:]`, `float32(float32, float32)` (a signature), each with a `dtype` attribute; and the host placeholders for in-kernel names. |
//! | `overloads.rs` | A dispatcher's compiled specialisations as Numba shows them: `overloads` (keyed by the argument types) with `_type_annotation.typemap`, `signatures`, and `compile_device(args)` with `fndesc.mangled_name`. |
//! | `vectorize.rs` | `@vectorize`: element-wise functions compiled into a 1-D kernel over the broadcast output (`i = cuda.grid(1); out[idx(i)] = f(in0[idx(i)], ...)`), for `target='cuda'` (through the device) and `'cpu'`/`'parallel'` (on host arrays directly). |
//! | `vectorize_kernel.rs` | The element-wise kernel behind `@vectorize`, built once per (input kinds, dtypes, rank), and the layout decisions of a call: broadcast strides, and when the arrays may be viewed as 1-D so the simpler kernel runs. |
//!

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
pub mod overloads;
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

/// Build `numba.types` (also `numba.core.types`): the Numba type objects by name, as in
/// `types.int32`, `types.float32[:]`, `types.void(types.int32)`.
pub fn types_module() -> Rc<Module> {
    let m = Module::new("numba.types", "Numba's type objects.");
    numba_types::register_types(&m);
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
