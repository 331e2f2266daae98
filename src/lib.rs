//! nbcuda: a Jupyter kernel for learning GPU memory management the Numba CUDA way.
//!
//! The crate is split by concern:
//! - [`protocol`]: the Jupyter wire protocol, kernelspec install and headless `run`.
//! - [`language`]: the Python-syntax cell interpreter, its values, errors and magics.
//! - [`arrays`]: host-side NumPy arrays (dtypes, views, ufuncs, formatting).
//! - [`devices`]: the device trait, the embedded CPU device, the CUDA device, and the
//!   `numba.cuda` / `cupy` memory APIs built on them.
//! - [`compiler`]: kernels (`@vectorize`, `@cuda.jit`, device functions, `@cuda.reduce`,
//!   `@njit`) lowered to one typed IR, run lane-vectorised on the CPU or emitted as CUDA C.
//! - [`display`]: `matplotlib.pyplot`, timing charts and the transfer timeline.
//! - [`engine`]: the boundary between the wire and the language.

pub mod arrays;
pub mod cupy;
pub mod device;
pub mod engine;
pub mod gpu;
pub mod interp;
pub mod kernel;
pub mod numba;
pub mod numba_cuda;
pub mod numpy;
pub mod protocol;
pub mod py;
pub mod pyplot;
