//! CuPy arrays on nbcuda's devices.

use std::any::Any;

use crate::devices::DeviceView;
use crate::language::Object;

/// `cupy.ndarray`.
pub struct CupyArray {
    pub view: DeviceView,
}

impl Object for CupyArray {
    fn type_name(&self) -> String {
        "ndarray".into()
    }
    fn module_name(&self) -> String {
        "cupy".into()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
