//! `cuda.stream()`, the default-stream objects and `cuda.event()`.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Weak};

use crate::device::api;
use crate::device::backend::EventMark;
use crate::device::cpu::Shared;
use crate::device::state::device;
use crate::device::StreamId;
use crate::py::error::{PyErr, PyResult};
use crate::py::methods::{MethodFn, MethodSpec, MethodTable, Style};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamKind {
    Default,
    Legacy,
    PerThread,
    User,
    External,
}

/// A CUDA stream handle.
pub struct Stream {
    pub id: StreamId,
    pub kind: StreamKind,
    /// Set on the object `cuda.stream()` returned: its drop ends the stream.
    _owner: Option<StreamOwner>,
}

/// Ends its stream on drop, through the device's list of released streams (the device
/// itself is out of reach where Python objects are dropped). CuPy's `Stream()` uses it too.
pub struct StreamOwner {
    id: StreamId,
    shared: Weak<Shared>,
}

impl StreamOwner {
    /// A new user stream on the device in use, and the owner that ends it.
    pub fn create(rt: &mut Runtime) -> PyResult<StreamOwner> {
        let dev = device(rt)?;
        let id = dev.backend().create_stream();
        Ok(StreamOwner {
            id,
            shared: Arc::downgrade(dev.shared()),
        })
    }
    pub fn id(&self) -> StreamId {
        self.id
    }
}

impl Drop for StreamOwner {
    fn drop(&mut self) {
        if let Some(shared) = self.shared.upgrade() {
            shared
                .released_streams
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(self.id);
        }
    }
}

impl Stream {
    pub fn value(id: StreamId, kind: StreamKind) -> Value {
        Value::object(Stream {
            id,
            kind,
            _owner: None,
        })
    }
    /// A new user stream on the device in use, ended when this object is dropped. Other
    /// objects for the same handle (an array's `.stream`) do not keep it alive; work
    /// queued on it through them later starts a new worker behind the old one's work.
    pub fn created(rt: &mut Runtime) -> PyResult<Value> {
        let owner = StreamOwner::create(rt)?;
        Ok(Value::object(Stream {
            id: owner.id,
            kind: StreamKind::User,
            _owner: Some(owner),
        }))
    }
    /// The object for an array's bound stream: 0 when none, else a Stream.
    pub fn bound(id: StreamId) -> Value {
        match id {
            0 => Value::Int(0),
            1 => Stream::value(1, StreamKind::Legacy),
            2 => Stream::value(2, StreamKind::PerThread),
            n => Stream::value(n, StreamKind::User),
        }
    }
}

impl Object for Stream {
    fn type_name(&self) -> String {
        "Stream".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.cudadrv.driver".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(match self.kind {
            StreamKind::Default => "<Default CUDA stream>".into(),
            StreamKind::Legacy => "<Legacy default CUDA stream>".into(),
            StreamKind::PerThread => "<Per-thread default CUDA stream>".into(),
            StreamKind::User => format!("<CUDA stream {}>", self.id),
            StreamKind::External => format!("<External CUDA stream {}>", self.id),
        })
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "handle" => Some(Value::Int(self.id as i64)),
            "external" => Some(Value::Bool(self.kind == StreamKind::External)),
            _ => STREAM.bound(&self, name),
        })
    }
    fn py_eq(&self, other: &Value, _rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(Some(match other.downcast::<Stream>() {
            Some(o) => o.id == self.id,
            None => matches!(other, Value::Int(n) if *n as u64 == self.id),
        }))
    }
    fn dir(&self) -> Vec<String> {
        STREAM.names_with(&["handle", "external"])
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Numba's stream and event methods are Python functions (`numba/cuda/cudadrv/driver.py`):
/// their argument errors read as CPython's for methods written in Python.
const fn m<T>(
    name: &'static str,
    sig: &'static str,
    doc: &'static str,
    call: MethodFn<T>,
) -> MethodSpec<T> {
    MethodSpec::styled(Style::Python, name, sig, doc, call)
}

pub static STREAM: MethodTable<Rc<Stream>> = MethodTable {
    owner: "Stream",
    methods: &STREAM_METHODS,
};

static STREAM_METHODS: [MethodSpec<Rc<Stream>>; 5] = [
    m(
        "__index__",
        "",
        "The stream handle as an int.",
        |s, _, _| Ok(Value::Int(s.id as i64)),
    ),
    m("__int__", "", "The stream handle as an int.", |s, _, _| {
        Ok(Value::Int(s.id as i64))
    }),
    m(
        "add_callback",
        "callback, arg=None",
        "Call callback(stream, status, arg) once the work queued so far is done.",
        |s, rt, b| {
            api::stream_synchronize(rt, s.id)?;
            let args = Args::new(vec![Stream::value(s.id, s.kind), Value::Int(0), b.value(1)]);
            rt.call(&b.value(0), args)?;
            Ok(Value::None)
        },
    ),
    m(
        "auto_synchronize",
        "",
        "A context manager that yields the stream and synchronizes it on exit.",
        |s, _, _| {
            Ok(Value::object(AutoSync {
                stream: Stream::value(s.id, s.kind),
                id: s.id,
            }))
        },
    ),
    m(
        "synchronize",
        "",
        "Wait until all work queued on this stream has finished.",
        |s, rt, _| {
            api::stream_synchronize(rt, s.id)?;
            Ok(Value::None)
        },
    ),
];

pub static EVENT: MethodTable<Rc<Event>> = MethodTable {
    owner: "Event",
    methods: &EVENT_METHODS,
};

static EVENT_METHODS: [MethodSpec<Rc<Event>>; 5] = [
    m(
        "elapsed_time",
        "evtend",
        "Milliseconds between this event and evtend (both recorded and completed).",
        |e, _, b| {
            let end = b
                .get(0)
                .and_then(|v| v.downcast::<Event>())
                .ok_or_else(|| PyErr::type_error("elapsed_time() expects another cuda.event()"))?;
            Ok(Value::Float(Event::elapsed(e, end)?))
        },
    ),
    m(
        "query",
        "",
        "True when the work before the event's last record has completed.",
        |e, _, _| {
            Ok(Value::Bool(
                e.mark.borrow().as_ref().is_none_or(|m| m.ticket.done()),
            ))
        },
    ),
    m(
        "record",
        "stream=0",
        "Mark the current point of a stream; the event completes when the stream gets there.",
        |e, rt, b| {
            let s = parse_stream(rt, b.get(0))?;
            let mark = device(rt)?.backend().record_event(s);
            *e.mark.borrow_mut() = Some(mark);
            Ok(Value::None)
        },
    ),
    m(
        "synchronize",
        "",
        "Wait on the host until the event has completed.",
        |e, rt, _| {
            let t = e.mark.borrow().as_ref().map(|m| m.ticket.clone());
            api::wait(rt, t.into_iter().collect())?;
            Ok(Value::None)
        },
    ),
    m(
        "wait",
        "stream=0",
        "Make later work on a stream wait until this event has completed.",
        |e, rt, b| {
            let s = parse_stream(rt, b.get(0))?;
            let m = e.mark.borrow().clone();
            if let Some(m) = m {
                device(rt)?.backend().wait_event(s, &m);
            }
            Ok(Value::None)
        },
    ),
];

/// `with stream.auto_synchronize() as s:`
struct AutoSync {
    stream: Value,
    id: StreamId,
}

impl Object for AutoSync {
    fn type_name(&self) -> String {
        "_GeneratorContextManager".into()
    }
    fn module_name(&self) -> String {
        "contextlib".into()
    }
    fn enter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Value> {
        Ok(self.stream.clone())
    }
    fn exit(&self, rt: &mut Runtime, error: Option<&PyErr>) -> PyResult<bool> {
        if error.is_none() {
            api::stream_synchronize(rt, self.id)?;
        }
        Ok(false)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `cuda.event(timing=True)`.
pub struct Event {
    pub timing: bool,
    pub mark: RefCell<Option<EventMark>>,
}

fn invalid_handle(call: &str) -> PyErr {
    PyErr::new(
        "CudaAPIError",
        format!("[400] Call to {call} results in CUDA_ERROR_INVALID_HANDLE"),
    )
}

impl Event {
    /// Milliseconds between two recorded, completed events.
    pub fn elapsed(start: &Event, end: &Event) -> PyResult<f64> {
        if !start.timing || !end.timing {
            return Err(invalid_handle("cuEventElapsedTime").with_hint(
                "Events made with cuda.event(timing=False) cannot be timed; use cuda.event() for timing.",
            ));
        }
        let (a, b) = match (&*start.mark.borrow(), &*end.mark.borrow()) {
            (Some(a), Some(b)) => (a.clone(), b.clone()),
            _ => {
                return Err(invalid_handle("cuEventElapsedTime").with_hint(
                    "Call .record() on both events before asking for the time between them.",
                ))
            }
        };
        let ta = *a.time.lock().unwrap_or_else(|e| e.into_inner());
        let tb = *b.time.lock().unwrap_or_else(|e| e.into_inner());
        match (ta, tb) {
            (Some(ta), Some(tb)) => Ok(if tb >= ta {
                tb.duration_since(ta).as_secs_f64() * 1e3
            } else {
                -(ta.duration_since(tb).as_secs_f64() * 1e3)
            }),
            _ => Err(PyErr::new(
                "CudaAPIError",
                "[600] Call to cuEventElapsedTime results in CUDA_ERROR_NOT_READY",
            )
            .with_hint("Wait for the end event first with evt.synchronize().")),
        }
    }
}

impl Object for Event {
    fn type_name(&self) -> String {
        "Event".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.cudadrv.driver".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(EVENT.bound(&self, name))
    }
    fn dir(&self) -> Vec<String> {
        EVENT.names()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Interpret a `stream=` argument: None/0 → the default stream, a Stream object → its id.
pub fn parse_stream(_rt: &mut Runtime, v: Option<&Value>) -> PyResult<StreamId> {
    match v {
        None | Some(Value::None) | Some(Value::Int(0)) => Ok(0),
        Some(v) => match v.downcast::<Stream>() {
            Some(s) => Ok(s.id),
            None => Err(PyErr::type_error(format!(
                "expected a CUDA stream, got {}",
                v.type_name()
            ))
            .with_hint("Pass a stream made by cuda.stream(), or 0 for the default stream.")),
        },
    }
}
