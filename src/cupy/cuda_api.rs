//! `cupy.cuda`: devices and streams, as far as notebooks use them to order and wait.

use std::any::Any;
use std::rc::Rc;

use crate::cupy::elementwise as ops;
use crate::device::api;
use crate::numba_cuda::stream_objects::StreamOwner;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Cython;
use crate::py::value::{Args, Module, Object, Value};

/// `cupy.cuda`: just what notebooks use to wait for the device.
pub fn cuda_submodule() -> Rc<Module> {
    let m = Module::new("cupy.cuda", "CuPy's CUDA runtime helpers.");
    m.def(
        Cython,
        "Device",
        "device=None",
        "The device; .synchronize() waits for all its work.",
        |_, _| Ok(Value::object(CupyDevice)),
    );
    let rt_mod = Module::new("cupy.cuda.runtime", "CUDA runtime calls.");
    rt_mod.def(
        Cython,
        "deviceSynchronize",
        "",
        "Wait for all work on the device.",
        |rt, _| {
            api::synchronize(rt)?;
            Ok(Value::None)
        },
    );
    m.set("runtime", Value::Module(Rc::new(rt_mod)));
    m.set("Stream", Value::object(StreamClass));
    Rc::new(m)
}

/// `cupy.cuda.Stream`: calling it makes a stream; `Stream.null` is the default stream.
struct StreamClass;

impl Object for StreamClass {
    fn type_name(&self) -> String {
        "type".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok("<class 'cupy.cuda.stream.Stream'>".into())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "null" => Some(Value::object(CupyStream { id: 0, owner: None })),
            _ => None,
        })
    }
    fn call(self: Rc<Self>, args: Args, rt: &mut Runtime) -> PyResult<Value> {
        args.bind("Stream", &["null=", "non_blocking=", "ptds="])?;
        let owner = StreamOwner::create(rt)?;
        Ok(Value::object(CupyStream {
            id: owner.id(),
            owner: Some(Rc::new(owner)),
        }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A CuPy stream; `with s:` makes it current for CuPy operations. The objects `Stream()`,
/// `with ... as s` and `use()` give for one stream share its owner: when the last is gone,
/// the stream's worker ends (without it every `Stream()` a loop makes keeps a thread).
struct CupyStream {
    id: u64,
    owner: Option<Rc<StreamOwner>>,
}

impl CupyStream {
    fn same(&self) -> Value {
        Value::object(CupyStream {
            id: self.id,
            owner: self.owner.clone(),
        })
    }
}

impl Object for CupyStream {
    fn type_name(&self) -> String {
        "Stream".into()
    }
    fn module_name(&self) -> String {
        "cupy.cuda.stream".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("<Stream {} (device 0)>", self.id))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "ptr" => Some(Value::Int(self.id as i64)),
            "synchronize" => Some(Value::method(
                &self,
                "Stream.synchronize",
                "synchronize()",
                "Wait for the work queued on this stream.",
                |s, rt, _| {
                    api::stream_synchronize(rt, s.id)?;
                    Ok(Value::None)
                },
            )),
            "use" => Some(Value::method(
                &self,
                "Stream.use",
                "use()",
                "Make this the current stream.",
                |s, rt, _| {
                    let st = rt.state::<ops::CupyStreams>();
                    st.stack.clear();
                    st.stack.push(s.id);
                    Ok(s.same())
                },
            )),
            "done" => Some(Value::Bool(
                crate::device::state::device(_rt)?
                    .backend()
                    .stream_tail(self.id)
                    .is_none_or(|t| t.done()),
            )),
            _ => None,
        })
    }
    fn enter(self: Rc<Self>, rt: &mut Runtime) -> PyResult<Value> {
        rt.state::<ops::CupyStreams>().stack.push(self.id);
        Ok(self.same())
    }
    fn exit(&self, rt: &mut Runtime, _e: Option<&PyErr>) -> PyResult<bool> {
        rt.state::<ops::CupyStreams>().stack.pop();
        Ok(false)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `cupy.cuda.Device`: the one device (also `ndarray.device`).
pub struct CupyDevice;

impl Object for CupyDevice {
    fn type_name(&self) -> String {
        "Device".into()
    }
    fn module_name(&self) -> String {
        "cupy.cuda.device".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok("<CUDA Device 0>".into())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "synchronize" => Some(Value::builtin(
                "Device.synchronize",
                "synchronize()",
                "Wait for all work on the device.",
                |rt, _| {
                    api::synchronize(rt)?;
                    Ok(Value::None)
                },
            )),
            "id" => Some(Value::Int(0)),
            _ => None,
        })
    }
    fn enter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Value> {
        Ok(Value::object(CupyDevice))
    }
    fn exit(&self, _rt: &mut Runtime, _e: Option<&PyErr>) -> PyResult<bool> {
        Ok(false)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
