//! Device arrays of records: the array `create_xoroshiro128p_states` returns, shown as
//! Numba shows it (`shape` `(n,)`, dtype `xoroshiro128p_dtype`) while a kernel and the
//! transfers see the `(n, 2)` uint64 memory underneath. `copy_to_host()` gives a
//! [`RecordArray`], and `cuda.to_device` of a record array gives one of these back.

use std::any::Any;
use std::rc::Rc;

use crate::device::DeviceView;
use crate::numba_cuda::devicearray::{self as da, arg, DeviceNDArray};
use crate::numba_cuda::view_index::Indexed;
use crate::py::error::{PyErr, PyResult};
use crate::py::records::{RecordArray, RecordDType, RecordDTypeObj};
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

pub struct DeviceRecords {
    /// The fields as an array with one more axis; it owns the allocation.
    pub inner: DeviceNDArray,
    pub layout: &'static RecordDType,
}

impl DeviceRecords {
    pub fn value(view: DeviceView, layout: &'static RecordDType) -> Value {
        Value::object(DeviceRecords {
            inner: DeviceNDArray { view },
            layout,
        })
    }
    fn view(&self) -> &DeviceView {
        &self.inner.view
    }
    fn shape(&self) -> &[usize] {
        let s = &self.view().shape;
        &s[..s.len() - 1]
    }
    fn host(
        &self,
        rt: &mut Runtime,
        ary: Option<&Value>,
        stream: Option<&Value>,
    ) -> PyResult<Value> {
        match ary {
            None | Some(Value::None) => match da::copy_to_host(rt, self.view(), None, stream)? {
                Value::Array(ref a) => RecordArray::value(a.as_ref().clone(), self.layout),
                _ => Err(PyErr::type_error("copy_to_host() did not return an array")),
            },
            Some(v) => match RecordArray::of(v) {
                Some(r) => {
                    let target = Value::Array(Box::new(r.data.clone()));
                    da::copy_to_host(rt, self.view(), Some(&target), stream)?;
                    Ok(v.clone())
                }
                None => Err(PyErr::type_error(
                    "copy_to_host() of a record array needs a record array of the same dtype",
                )),
            },
        }
    }
}

impl Object for DeviceRecords {
    fn type_name(&self) -> String {
        "DeviceNDArray".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.cudadrv.devicearray".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, rt: &mut Runtime) -> PyResult<Option<Value>> {
        let v = self.view();
        let n = v.shape.len() - 1;
        let count: usize = self.shape().iter().product();
        Ok(Some(match name {
            "shape" => da::ints(self.shape()),
            "strides" => da::istrides(&v.strides[..n]),
            "dtype" => Value::object(RecordDTypeObj(self.layout)),
            "size" => Value::Int(count as i64),
            "ndim" => Value::Int(n as i64),
            "itemsize" => Value::Int(self.layout.itemsize() as i64),
            "nbytes" => Value::Int((count * self.layout.itemsize()) as i64),
            "copy_to_host" => Value::method(
                &self,
                "DeviceNDArray.copy_to_host",
                "copy_to_host(ary=None, stream=0)",
                "Copy the records to the host: a new NumPy record array, or into `ary`.",
                |d, rt, a| {
                    let b = a.bind("copy_to_host", &["ary=", "stream="])?;
                    d.host(rt, arg(&b, 0), arg(&b, 1))
                },
            ),
            "copy_to_device" => Value::method(
                &self,
                "DeviceNDArray.copy_to_device",
                "copy_to_device(ary, stream=0)",
                "Copy a host record array of the same dtype into this array.",
                |d, rt, a| {
                    let b = a.bind("copy_to_device", &["ary", "stream="])?;
                    let src = match arg(&b, 0).and_then(RecordArray::of) {
                        Some(r) => Value::Array(Box::new(r.data.clone())),
                        None => {
                            return Err(PyErr::type_error(
                                "copy_to_device() of a record array needs a record array",
                            ))
                        }
                    };
                    da::copy_to_device(rt, d.view(), &src, arg(&b, 1))?;
                    Ok(Value::None)
                },
            ),
            // What does not depend on the element type is the inner array's.
            "flags" | "stream" | "alloc_size" | "is_c_contiguous" | "is_f_contiguous" | "free"
            | "bind" => {
                let inner = Rc::new(DeviceNDArray { view: v.clone() });
                return inner.get_attr(name, rt);
            }
            _ => return Ok(None),
        }))
    }
    fn get_item(self: Rc<Self>, key: &Value, rt: &mut Runtime) -> PyResult<Value> {
        if !matches!(key, Value::Int(_) | Value::Slice(_) | Value::Scalar(_)) {
            return Err(PyErr::not_implemented(
                "device record arrays are indexed by an integer or a slice",
            ));
        }
        match da::getitem(rt, self.view(), key)? {
            Indexed::View(l) if l.shape.len() == self.view().shape.len() => {
                Ok(DeviceRecords::value(
                    DeviceView {
                        offset: l.offset,
                        shape: l.shape,
                        strides: l.strides,
                        ..self.view().clone()
                    },
                    self.layout,
                ))
            }
            Indexed::View(l) => {
                // One record: copied to the host as Numba does for `d[i]`.
                let one = DeviceView {
                    offset: l.offset,
                    shape: [vec![1], l.shape].concat(),
                    strides: [vec![0], l.strides].concat(),
                    ..self.view().clone()
                };
                let Value::Array(ref a) = da::copy_to_host(rt, &one, None, None)? else {
                    return Err(PyErr::type_error("copy_to_host() did not return an array"));
                };
                Rc::new(RecordArray::new(a.as_ref().clone(), self.layout)?)
                    .get_item(&Value::Int(0), rt)
            }
            Indexed::Element(_) => Err(PyErr::type_error("expected a record")),
        }
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        match self.shape().first() {
            Some(&n) => Ok(Some(n)),
            None => Err(PyErr::type_error("len() of unsized object")),
        }
    }
    fn dir(&self) -> Vec<String> {
        [
            "shape",
            "strides",
            "dtype",
            "size",
            "ndim",
            "itemsize",
            "nbytes",
            "copy_to_host",
            "copy_to_device",
            "flags",
            "stream",
            "alloc_size",
            "is_c_contiguous",
            "is_f_contiguous",
            "free",
            "bind",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
