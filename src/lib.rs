//! nbcuda: a Jupyter kernel for learning GPU memory management the Numba CUDA way.
//!
//! The crate is one folder per layer, dependencies pointing down only (`src/README.md` has
//! the table; `tests/layers.rs` keeps it so):
//! protocol → engine → interp → numpy, numba, numba_cuda, cupy, pyplot → device → kernel →
//! gpu → arrays, with the value model [`py`] used from `device` up and using only [`arrays`].

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
