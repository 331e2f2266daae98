//! The `numpy` module (`import numpy as np`).

use std::rc::Rc;

use crate::language::Module;

/// Build the `numpy` module (with `np.random` and `np.testing`).
pub fn module() -> Rc<Module> {
    Rc::new(Module::new(
        "numpy",
        "NumPy host arrays (nbcuda's implementation).",
    ))
}
