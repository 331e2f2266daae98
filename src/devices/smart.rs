//! `numba.SmartArray`: one logical array mirrored on host and device, copied lazily.

use std::any::Any;

use crate::devices::DeviceView;
use crate::language::{Object, PyErr, PyResult, Runtime};

pub struct SmartArray {}

impl SmartArray {
    pub fn gpu_view(&self, _rt: &mut Runtime) -> PyResult<DeviceView> {
        Err(PyErr::not_implemented("SmartArray"))
    }
}

impl Object for SmartArray {
    fn type_name(&self) -> String {
        "SmartArray".into()
    }
    fn module_name(&self) -> String {
        "numba".into()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
