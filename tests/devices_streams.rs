//! Streams, events, ordering, the ledger and end-of-cell behaviour.

mod devices_support;
use devices_support::*;

use nbcuda::arrays::dtype::DType;
use nbcuda::device::ledger::LedgerKind;
use nbcuda::py::value::{Args, Value};

const BIG: usize = 16 << 20; // elements of float32: 64 MB

#[test]
fn stream_reprs_and_handles() {
    let mut rt = runtime();
    let m = cuda();
    let s = call(&mut rt, &m, "stream", Args::default()).unwrap();
    let r = repr(&mut rt, &s);
    assert!(
        r.starts_with("<CUDA stream ") && !r.contains("Default"),
        "{r}"
    );
    assert!(!matches!(
        attr(&mut rt, &s, "handle").unwrap(),
        Value::Int(0)
    ));
    let d = call(&mut rt, &m, "default_stream", Args::default()).unwrap();
    assert_eq!(repr(&mut rt, &d), "<Default CUDA stream>");
    let l = call(&mut rt, &m, "legacy_default_stream", Args::default()).unwrap();
    assert_eq!(repr(&mut rt, &l), "<Legacy default CUDA stream>");
    assert!(matches!(
        attr(&mut rt, &l, "handle").unwrap(),
        Value::Int(1)
    ));
    let p = call(&mut rt, &m, "per_thread_default_stream", Args::default()).unwrap();
    assert!(matches!(
        attr(&mut rt, &p, "handle").unwrap(),
        Value::Int(2)
    ));
    let e = call(
        &mut rt,
        &m,
        "external_stream",
        Args::new(vec![Value::Int(0x12345678)]),
    )
    .unwrap();
    assert_eq!(
        repr(&mut rt, &e),
        format!("<External CUDA stream {}>", 0x12345678)
    );
    meth(&mut rt, &s, "synchronize", Args::default()).unwrap();
}

#[test]
fn async_copy_returns_before_completion_and_event_times_it() {
    let mut rt = runtime();
    let m = cuda();
    let s = call(&mut rt, &m, "stream", Args::default()).unwrap();
    // Page-locked host memory: copies on a stream are asynchronous.
    let host = call(
        &mut rt,
        &m,
        "pinned_array",
        Args::new(vec![Value::Int(BIG as i64)]).with_kw("dtype", Value::str("f4")),
    )
    .unwrap();
    let Value::Array(ref host) = host else {
        panic!()
    };
    let start = call(&mut rt, &m, "event", Args::default()).unwrap();
    let end = call(&mut rt, &m, "event", Args::default()).unwrap();
    meth(&mut rt, &start, "record", Args::new(vec![s.clone()])).unwrap();
    let d = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(host.clone())]).with_kw("stream", s.clone()),
    )
    .unwrap();
    // Several more copies so the stream is certainly still busy when we query.
    for _ in 0..8 {
        meth(
            &mut rt,
            &d,
            "copy_to_device",
            Args::new(vec![Value::Array(host.clone())]).with_kw("stream", s.clone()),
        )
        .unwrap();
    }
    meth(&mut rt, &end, "record", Args::new(vec![s.clone()])).unwrap();
    let q = meth(&mut rt, &end, "query", Args::default()).unwrap();
    assert!(
        matches!(q, Value::Bool(false)),
        "launch returned after the work was done"
    );
    meth(&mut rt, &end, "synchronize", Args::default()).unwrap();
    assert!(matches!(
        meth(&mut rt, &end, "query", Args::default()).unwrap(),
        Value::Bool(true)
    ));
    let ms = meth(
        &mut rt,
        &start,
        "elapsed_time",
        Args::new(vec![end.clone()]),
    )
    .unwrap();
    let Value::Float(ms) = ms else { panic!() };
    assert!(ms > 0.0);
    let ms2 = call(
        &mut rt,
        &m,
        "event_elapsed_time",
        Args::new(vec![start, end]),
    )
    .unwrap();
    assert!(matches!(ms2, Value::Float(x) if x == ms));
}

#[test]
fn default_stream_waits_for_other_streams() {
    let mut rt = runtime();
    let m = cuda();
    let s = call(&mut rt, &m, "stream", Args::default()).unwrap();
    let host = call(
        &mut rt,
        &m,
        "pinned_array",
        Args::new(vec![Value::Int(BIG as i64)]).with_kw("dtype", Value::str("f4")),
    )
    .unwrap();
    let Value::Array(ref host) = host else {
        panic!()
    };
    let last = (BIG - 1) * 4;
    host.buf.write(last, &((BIG - 1) as f32).to_le_bytes());
    let d = call(
        &mut rt,
        &m,
        "device_array",
        Args::new(vec![Value::Int(BIG as i64)]).with_kw("dtype", Value::str("f4")),
    )
    .unwrap();
    let end = call(&mut rt, &m, "event", Args::default()).unwrap();
    for _ in 0..6 {
        meth(
            &mut rt,
            &d,
            "copy_to_device",
            Args::new(vec![Value::Array(host.clone())]).with_kw("stream", s.clone()),
        )
        .unwrap();
    }
    meth(&mut rt, &end, "record", Args::new(vec![s.clone()])).unwrap();
    // A read on the default stream must see every copy queued before it on stream s.
    let Value::Object(o) = &d else { panic!() };
    let last = o
        .clone()
        .get_item(&Value::Int(BIG as i64 - 1), &mut rt)
        .unwrap();
    assert!(matches!(
        meth(&mut rt, &end, "query", Args::default()).unwrap(),
        Value::Bool(true)
    ));
    assert!(
        matches!(last, Value::Scalar(nbcuda::arrays::dtype::Scalar::F32(v)) if v == (BIG - 1) as f32)
    );
}

#[test]
fn timing_disabled_events_cannot_be_timed() {
    let mut rt = runtime();
    let m = cuda();
    let a = call(
        &mut rt,
        &m,
        "event",
        Args::default().with_kw("timing", Value::Bool(false)),
    )
    .unwrap();
    let b = call(&mut rt, &m, "event", Args::default()).unwrap();
    meth(&mut rt, &a, "record", Args::default()).unwrap();
    meth(&mut rt, &b, "record", Args::default()).unwrap();
    meth(&mut rt, &b, "synchronize", Args::default()).unwrap();
    let e = meth(&mut rt, &a, "elapsed_time", Args::new(vec![b])).unwrap_err();
    assert_eq!(e.ename, "CudaAPIError");
}

#[test]
fn ledger_records_allocations_and_transfers() {
    let mut rt = runtime();
    rt.begin_cell(7);
    let m = cuda();
    let h = arange(1000, DType::F64);
    let d = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(h))]),
    )
    .unwrap();
    meth(&mut rt, &d, "copy_to_host", Args::default()).unwrap();
    drop(d);
    nbcuda::device::api::synchronize(&mut rt).unwrap();
    let (events, next) = nbcuda::device::ledger::events_since(&mut rt, 0);
    let kinds: Vec<LedgerKind> = events.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        vec![
            LedgerKind::Alloc,
            LedgerKind::HtoD,
            LedgerKind::DtoH,
            LedgerKind::Free
        ]
    );
    assert!(events.iter().all(|e| e.cell == 7 && e.bytes == 8000));
    assert_eq!(events[1].label, "to_device");
    assert!(events[1].explicit);
    assert_eq!(events[2].label, "copy_to_host");
    let (more, _) = nbcuda::device::ledger::events_since(&mut rt, next);
    assert!(more.is_empty());
}

#[test]
fn implicit_transfers_are_marked() {
    let mut rt = runtime();
    let h = arange(10, DType::F32);
    let v = nbcuda::device::api::implicit_to_device(&mut rt, &h, 0, "add_ufunc").unwrap();
    let (events, _) = nbcuda::device::ledger::events_since(&mut rt, 0);
    let htod = events.iter().find(|e| e.kind == LedgerKind::HtoD).unwrap();
    assert!(!htod.explicit);
    assert_eq!(htod.label, "add_ufunc");
    assert_eq!(v.size(), 10);
}

#[test]
fn defer_cleanup_postpones_frees() {
    let mut rt = runtime();
    let m = cuda();
    let ctx = call(&mut rt, &m, "current_context", Args::default()).unwrap();
    let free = |rt: &mut nbcuda::py::runtime::Runtime| {
        let mi = meth(rt, &ctx, "get_memory_info", Args::default()).unwrap();
        match attr(rt, &mi, "free").unwrap() {
            Value::Int(f) => f,
            _ => panic!(),
        }
    };
    let before = free(&mut rt);
    let dc = call(&mut rt, &m, "defer_cleanup", Args::default()).unwrap();
    let Value::Object(o) = &dc else { panic!() };
    o.clone().enter(&mut rt).unwrap();
    let d = call(
        &mut rt,
        &m,
        "device_array",
        Args::new(vec![Value::Int(4096)]),
    )
    .unwrap();
    drop(d);
    assert_eq!(free(&mut rt), before - 4096 * 8);
    o.exit(&mut rt, None).unwrap();
    assert_eq!(free(&mut rt), before);
}

#[test]
fn mapped_arrays_are_device_views_of_host_memory() {
    let mut rt = runtime();
    let m = cuda();
    let a = call(
        &mut rt,
        &m,
        "mapped_array",
        Args::new(vec![Value::Int(10)]).with_kw("dtype", Value::str("u4")),
    )
    .unwrap();
    let Value::Array(arr) = &a else {
        panic!("mapped_array gives a host ndarray")
    };
    let view = nbcuda::numba_cuda::interop::view_of(&mut rt, &a)
        .unwrap()
        .expect("mapped arrays are device memory");
    let d = nbcuda::numba_cuda::devicearray::DeviceNDArray::value(view);
    let Value::Object(o) = &d else { panic!() };
    let all = Value::Slice(std::rc::Rc::new(nbcuda::arrays::index::SliceValue {
        start: None,
        stop: None,
        step: None,
    }));
    o.set_item(&all, Value::Int(123), &mut rt).unwrap();
    assert_eq!(arr.to_f64_vec(), vec![123.0; 10]);
    let p = call(&mut rt, &m, "pinned_array", Args::new(vec![Value::Int(3)])).unwrap();
    assert!(nbcuda::numba_cuda::interop::view_of(&mut rt, &p)
        .unwrap()
        .is_none());
}

#[test]
fn pinned_context_used_as_array_explains_itself() {
    let mut rt = runtime();
    let m = cuda();
    let ctx = call(
        &mut rt,
        &m,
        "pinned",
        Args::new(vec![Value::Array(Box::new(arange(4, DType::F32)))]),
    )
    .unwrap();
    let e = call(&mut rt, &m, "to_device", Args::new(vec![ctx.clone()])).unwrap_err();
    assert_eq!(e.ename, "TypeError");
    assert!(e.message.contains("context manager"));
    assert!(e.hint.as_ref().unwrap().contains("pinned_array"));
}

#[test]
fn detect_prints_the_device() {
    struct Capture(std::rc::Rc<std::cell::RefCell<String>>);
    impl nbcuda::py::runtime::Frontend for Capture {
        fn stream(&mut self, _: nbcuda::py::runtime::StreamName, t: &str) {
            self.0.borrow_mut().push_str(t)
        }
        fn display(
            &mut self,
            _: serde_json::Map<String, serde_json::Value>,
            _: serde_json::Map<String, serde_json::Value>,
            _: Option<&str>,
            _: bool,
        ) {
        }
        fn clear_output(&mut self, _: bool) {}
        fn input(&mut self, _: &str, _: bool) -> Result<String, String> {
            Err(String::new())
        }
    }
    let out = std::rc::Rc::new(std::cell::RefCell::new(String::new()));
    let mut rt = nbcuda::py::runtime::Runtime::new(
        Box::new(Capture(out.clone())),
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    );
    let m = cuda();
    let r = call(&mut rt, &m, "detect", Args::default()).unwrap();
    assert!(matches!(r, Value::Bool(true)));
    let text = out.borrow().clone();
    assert!(text.starts_with("Found 1 CUDA devices\nid 0    "), "{text}");
    assert!(text.contains("[SUPPORTED]") && text.contains("Summary:\n\t1/1 devices are supported"));
}

#[test]
fn pageable_copies_on_a_stream_complete_before_returning() {
    let mut rt = runtime();
    let m = cuda();
    let s = call(&mut rt, &m, "stream", Args::default()).unwrap();
    let sid = match attr(&mut rt, &s, "handle").unwrap() {
        Value::Int(i) => i as u64,
        _ => panic!(),
    };
    let host = arange(BIG, DType::F32);
    let d = call(
        &mut rt,
        &m,
        "to_device",
        Args::new(vec![Value::Array(Box::new(host.clone()))]).with_kw("stream", s.clone()),
    )
    .unwrap();
    let tail = nbcuda::device::state::device(&mut rt)
        .unwrap()
        .backend()
        .stream_tail(sid)
        .unwrap();
    assert!(
        tail.done(),
        "a pageable H->D copy must be finished when to_device returns"
    );
    // Changing the host array afterwards does not affect the device copy.
    host.buf.fill(0, BIG * 4, 0);
    let Value::Object(o) = &d else { panic!() };
    let last = o
        .clone()
        .get_item(&Value::Int(BIG as i64 - 1), &mut rt)
        .unwrap();
    assert!(
        matches!(last, Value::Scalar(nbcuda::arrays::dtype::Scalar::F32(v)) if v == (BIG - 1) as f32)
    );
}
