//! `os.stat_result`, which `os.stat(path)` and `Path.stat()` return: the fields of the
//! file's metadata by name and by index, with CPython's repr.

use std::os::unix::fs::MetadataExt;
use std::rc::Rc;

use crate::py::error::PyResult;
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

/// The ten integer fields, in CPython's order (the tuple part of `os.stat_result`).
const FIELDS: [&str; 10] = [
    "st_mode", "st_ino", "st_dev", "st_nlink", "st_uid", "st_gid", "st_size", "st_atime",
    "st_mtime", "st_ctime",
];

pub struct StatResult {
    ints: [i64; 10],
    /// Access, modification and change times in nanoseconds.
    ns: [i128; 3],
}

/// The stat result of a file's metadata.
pub fn stat_result(m: &std::fs::Metadata) -> Value {
    let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
    Value::object(StatResult {
        ints: [
            i64::from(m.mode()),
            m.ino() as i64,
            m.dev() as i64,
            m.nlink() as i64,
            i64::from(m.uid()),
            i64::from(m.gid()),
            m.size() as i64,
            m.atime(),
            m.mtime(),
            m.ctime(),
        ],
        ns: [
            ns(m.atime(), m.atime_nsec()),
            ns(m.mtime(), m.mtime_nsec()),
            ns(m.ctime(), m.ctime_nsec()),
        ],
    })
}

impl Object for StatResult {
    fn type_name(&self) -> String {
        "stat_result".into()
    }
    fn module_name(&self) -> String {
        "os".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let fields: Vec<String> = FIELDS
            .iter()
            .zip(self.ints)
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        Ok(format!("os.stat_result({})", fields.join(", ")))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        if let Some(i) = FIELDS.iter().position(|f| *f == name) {
            // The times are floats as attributes and ints in the tuple, as CPython's.
            return Ok(Some(if i >= 7 {
                Value::Float(self.ns[i - 7] as f64 / 1e9)
            } else {
                Value::Int(self.ints[i])
            }));
        }
        Ok(match name {
            "st_atime_ns" | "st_mtime_ns" | "st_ctime_ns" => {
                let i = ["st_atime_ns", "st_mtime_ns", "st_ctime_ns"]
                    .iter()
                    .position(|f| *f == name)
                    .unwrap_or(0);
                Some(Value::Int(self.ns[i] as i64))
            }
            _ => None,
        })
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        let i = key.as_index()?;
        let j = if i < 0 { i + 10 } else { i };
        match usize::try_from(j).ok().and_then(|j| self.ints.get(j)) {
            Some(v) => Ok(Value::Int(*v)),
            None => Err(crate::py::error::PyErr::index_error(
                "tuple index out of range",
            )),
        }
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(10))
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(self.ints.iter().map(|v| Value::Int(*v)).collect()))
    }
    fn dir(&self) -> Vec<String> {
        FIELDS.iter().map(|s| s.to_string()).collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
