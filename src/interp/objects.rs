//! Small built-in object types: `range`, exception classes and instances, `dict` views.

use std::any::Any;
use std::rc::Rc;

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};

/// `range(start, stop, step)`, iterated lazily by `for`.
pub struct RangeObj {
    pub start: i64,
    pub stop: i64,
    pub step: i64,
}

impl RangeObj {
    pub fn len(&self) -> usize {
        let (s, e, st) = (self.start as i128, self.stop as i128, self.step as i128);
        let n = if st > 0 {
            (e - s + st - 1) / st
        } else {
            (s - e - st - 1) / (-st)
        };
        n.max(0) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn get(&self, i: usize) -> i64 {
        self.start + self.step * i as i64
    }
}

impl Object for RangeObj {
    fn type_name(&self) -> String {
        "range".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(if self.step == 1 {
            format!("range({}, {})", self.start, self.stop)
        } else {
            format!("range({}, {}, {})", self.start, self.stop, self.step)
        })
    }
    fn iter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        let n = self.len();
        if n > 50_000_000 {
            return Err(PyErr::memory_error(format!(
                "range of {n} items is too long to materialise; iterate it with a for loop"
            )));
        }
        let mut out = Vec::with_capacity(n); // bounded: n <= 50M, checked above
        for i in 0..n {
            if i % 1_000_000 == 0 {
                rt.check_interrupt()?;
            }
            out.push(Value::Int(self.get(i)));
        }
        Ok(Some(out))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(RangeObj::len(self)))
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        let n = RangeObj::len(&self) as i64;
        let mut i = key.as_index()?;
        if i < 0 {
            i += n;
        }
        if i < 0 || i >= n {
            return Err(PyErr::index_error("range object index out of range"));
        }
        Ok(Value::Int(self.get(i as usize)))
    }
    fn truthy(&self, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(RangeObj::len(self) > 0)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Exception classes, with a single-inheritance chain for `except` matching.
pub struct ExceptionType {
    pub name: String,
}

impl Object for ExceptionType {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("<class '{}'>", self.name))
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        let msg = match args.pos.as_slice() {
            [] => String::new(),
            [one] => crate::interp::repr::to_str(rt, one)?,
            many => crate::interp::repr::repr(rt, &Value::tuple(many.to_vec()))?,
        };
        Ok(Value::object(ExceptionValue {
            err: PyErr::new(&self.name, msg),
            args: args.pos,
        }))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "__name__" => Some(Value::str(&self.name)),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// An exception instance (`ValueError('x')`, or the `e` in `except ... as e`).
pub struct ExceptionValue {
    pub err: PyErr,
    pub args: Vec<Value>,
}

impl Object for ExceptionValue {
    fn type_name(&self) -> String {
        self.err.ename.clone()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("{}({:?})", self.err.ename, self.err.message))
    }
    fn str(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(self.err.message.clone())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "args" => Some(Value::tuple(
                if self.args.is_empty() && !self.err.message.is_empty() {
                    vec![Value::str(&self.err.message)]
                } else {
                    self.args.clone()
                },
            )),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
