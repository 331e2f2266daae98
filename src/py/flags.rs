//! `ndarray.flags`: NumPy's flags object, read both as a mapping (`a.flags['C_CONTIGUOUS']`,
//! `a.flags['C']`) and through attributes (`a.flags.c_contiguous`), for host, device and
//! CuPy arrays alike. Flags are a snapshot, except `writeable` of host arrays, which reads
//! and sets the memory's read-only mark (`a.flags.writeable = False`); arrays are always
//! aligned, and changing any other flag is refused as NumPy refuses flags it cannot honour.

use std::rc::Rc;
use std::sync::Arc;

use crate::arrays::buffer::Buffer;

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

pub struct Flags {
    pub c_contiguous: bool,
    pub f_contiguous: bool,
    pub owndata: bool,
    /// The host memory whose read-only mark `writeable` shows; None for device memory.
    pub memory: Option<Arc<Buffer>>,
}

impl Flags {
    pub fn value(
        c_contiguous: bool,
        f_contiguous: bool,
        owndata: bool,
        memory: Option<Arc<Buffer>>,
    ) -> Value {
        Value::object(Flags {
            c_contiguous,
            f_contiguous,
            owndata,
            memory,
        })
    }

    fn writeable(&self) -> bool {
        self.memory.as_ref().is_none_or(|m| !m.is_readonly())
    }

    fn set_writeable(&self, value: &Value, rt: &mut Runtime) -> PyResult<()> {
        let on = rt.truthy(value)?;
        let Some(m) = &self.memory else {
            return Err(PyErr::value_error(
                "nbcuda device arrays cannot change the writeable flag",
            ));
        };
        // As NumPy: a view cannot lift the mark its memory's owner set.
        if on && m.is_readonly() && !self.owndata {
            return Err(PyErr::value_error(
                "cannot set WRITEABLE flag to True of this array",
            ));
        }
        m.set_readonly(!on);
        Ok(())
    }

    /// A flag by any of NumPy's names for it (mapping keys and attribute names).
    fn get(&self, name: &str) -> Option<bool> {
        Some(match name {
            "C_CONTIGUOUS" | "C" | "CONTIGUOUS" | "c_contiguous" | "contiguous" => {
                self.c_contiguous
            }
            "F_CONTIGUOUS" | "F" | "FORTRAN" | "f_contiguous" | "fortran" => self.f_contiguous,
            "OWNDATA" | "O" | "owndata" => self.owndata,
            "WRITEABLE" | "W" | "writeable" => self.writeable(),
            "ALIGNED" | "A" | "aligned" => true,
            "BEHAVED" | "B" | "behaved" => self.writeable(),
            "WRITEBACKIFCOPY" | "X" | "writebackifcopy" => false,
            "FORC" | "forc" => self.c_contiguous || self.f_contiguous,
            "FNC" | "fnc" => self.f_contiguous && !self.c_contiguous,
            "CARRAY" | "CA" | "carray" => self.c_contiguous && self.writeable(),
            "FARRAY" | "FA" | "farray" => {
                self.f_contiguous && !self.c_contiguous && self.writeable()
            }
            _ => return None,
        })
    }
}

impl Object for Flags {
    fn type_name(&self) -> String {
        "flagsobj".into()
    }
    fn module_name(&self) -> String {
        "numpy".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let b = |x: bool| if x { "True" } else { "False" };
        Ok(format!(
            "  C_CONTIGUOUS : {}\n  F_CONTIGUOUS : {}\n  OWNDATA : {}\n  WRITEABLE : {}\n  ALIGNED : True\n  WRITEBACKIFCOPY : False\n",
            b(self.c_contiguous),
            b(self.f_contiguous),
            b(self.owndata),
            b(self.writeable())
        ))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let lower = name.bytes().all(|c| c.is_ascii_lowercase() || c == b'_');
        Ok(lower.then(|| self.get(name)).flatten().map(Value::Bool))
    }
    fn set_attr(&self, name: &str, value: Value, rt: &mut Runtime) -> PyResult<bool> {
        if name == "writeable" {
            self.set_writeable(&value, rt)?;
            return Ok(true);
        }
        match self.get(name) {
            Some(_) => Err(PyErr::value_error(format!(
                "nbcuda arrays cannot change the {name} flag"
            ))),
            None => Ok(false),
        }
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        let name = match key {
            Value::Str(s) => s.to_string(),
            _ => String::new(),
        };
        let upper = name.bytes().all(|c| c.is_ascii_uppercase() || c == b'_');
        match upper.then(|| self.get(&name)).flatten() {
            Some(b) => Ok(Value::Bool(b)),
            None => Err(PyErr::new("KeyError", "Unknown flag")),
        }
    }
    fn set_item(&self, key: &Value, value: Value, rt: &mut Runtime) -> PyResult<()> {
        match key {
            Value::Str(s) if matches!(&**s, "WRITEABLE" | "W") => self.set_writeable(&value, rt),
            Value::Str(s) if self.get(s).is_some() => Err(PyErr::value_error(format!(
                "nbcuda arrays cannot change the {s} flag"
            ))),
            _ => Err(PyErr::new("KeyError", "Unknown flag")),
        }
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
