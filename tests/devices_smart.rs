//! SmartArray lazy mirroring, kernel fault surfacing and the %memory report.

mod devices_support;
use devices_support::*;

use nbcuda::arrays::dtype::DType;
use nbcuda::device::ledger::LedgerKind;
use nbcuda::py::value::{Args, Module, Value};

fn numba_with_smart() -> Module {
    let m = Module::new("numba", "");
    nbcuda::numba_cuda::smart::register(&m);
    m
}

fn count(rt: &mut nbcuda::py::runtime::Runtime, kind: LedgerKind) -> usize {
    nbcuda::device::api::synchronize(rt).unwrap();
    let (ev, _) = nbcuda::device::ledger::events_since(rt, 0);
    ev.iter().filter(|e| e.kind == kind).count()
}

#[test]
fn smart_array_copies_only_stale_sides() {
    let mut rt = runtime();
    let m = numba_with_smart();
    let h = arange(8, DType::F32);
    let s = call(
        &mut rt,
        &m,
        "SmartArray",
        Args::new(vec![Value::Array(Box::new(h))]),
    )
    .unwrap();
    let g = meth(&mut rt, &s, "get", Args::new(vec![Value::str("gpu")])).unwrap();
    assert_eq!(count(&mut rt, LedgerKind::HtoD), 1);
    meth(&mut rt, &s, "get", Args::new(vec![Value::str("gpu")])).unwrap();
    assert_eq!(
        count(&mut rt, LedgerKind::HtoD),
        1,
        "device side was already current"
    );
    // Change the device side, then read the host side: one copy back.
    let Value::Object(o) = &g else { panic!() };
    o.set_item(&Value::Int(0), Value::Float(99.0), &mut rt)
        .unwrap();
    meth(
        &mut rt,
        &s,
        "mark_changed",
        Args::new(vec![Value::str("gpu")]),
    )
    .unwrap();
    let before = count(&mut rt, LedgerKind::DtoH);
    let host = meth(&mut rt, &s, "get", Args::new(vec![Value::str("host")])).unwrap();
    assert_eq!(values(&host)[0], 99.0);
    assert_eq!(count(&mut rt, LedgerKind::DtoH), before + 1);
    meth(&mut rt, &s, "get", Args::default()).unwrap();
    assert_eq!(
        count(&mut rt, LedgerKind::DtoH),
        before + 1,
        "host side was already current"
    );
    let e = meth(&mut rt, &s, "get", Args::new(vec![Value::str("disk")])).unwrap_err();
    assert_eq!(e.ename, "ValueError");
}

#[test]
fn kernel_faults_and_output_surface_at_synchronize() {
    let mut rt = runtime();
    let m = cuda();
    call(&mut rt, &m, "device_array", Args::new(vec![Value::Int(1)])).unwrap();
    let shared = nbcuda::device::state::shared(&mut rt).unwrap();
    {
        let mut p = shared.pending.lock().unwrap();
        p.printed.push_str("hello from a thread\n");
        p.faults.push(nbcuda::kernel::abi::KernelFault::raise(
            "IndexError",
            "index 10 is out of bounds for axis 0 with size 10".into(),
        ));
    }
    let e = call(&mut rt, &m, "synchronize", Args::default()).unwrap_err();
    assert_eq!(e.ename, "IndexError");
    // Reported once.
    call(&mut rt, &m, "synchronize", Args::default()).unwrap();
    nbcuda::device::end_of_cell(&mut rt).unwrap();
}

#[test]
fn memory_report_names_variables_and_totals() {
    let mut rt = runtime();
    let m = cuda();
    let d = call(
        &mut rt,
        &m,
        "device_array",
        Args::new(vec![tuple(&[100, 10])]).with_kw("dtype", Value::str("f4")),
    )
    .unwrap();
    let names = vec![("d_x".to_string(), d), ("n".to_string(), Value::Int(3))];
    let r = nbcuda::numba_cuda::memory_report::memory_report(&mut rt, &names);
    let line = r
        .lines()
        .find(|l| l.starts_with("d_x"))
        .unwrap_or_else(|| panic!("{r}"));
    assert!(
        line.contains("(100, 10) float32") && line.trim_end().ends_with("4000"),
        "{line}"
    );
    assert!(r.contains("Device memory: 3.9 KiB used"), "{r}");
    assert!(!r.contains("\nn "));
}

#[test]
fn memory_report_has_no_side_effects_and_skips_freed_arrays() {
    let mut rt = runtime();
    let m = numba_with_smart();
    let c = cuda();
    let s = call(
        &mut rt,
        &m,
        "SmartArray",
        Args::new(vec![Value::Array(Box::new(arange(4, DType::F64)))]),
    )
    .unwrap();
    let before = count(&mut rt, LedgerKind::HtoD);
    let d = call(&mut rt, &c, "device_array", Args::new(vec![Value::Int(8)])).unwrap();
    meth(&mut rt, &d, "free", Args::default()).unwrap();
    let r = nbcuda::numba_cuda::memory_report::memory_report(
        &mut rt,
        &[("s".into(), s), ("d".into(), d)],
    );
    assert_eq!(
        count(&mut rt, LedgerKind::HtoD),
        before,
        "the report copied data"
    );
    assert!(r.contains("No device arrays are held by variables."), "{r}");
}

#[test]
fn ledger_before_the_device_exists_and_banner_line() {
    let mut rt = runtime();
    let (ev, next) = nbcuda::device::ledger::events_since(&mut rt, usize::MAX);
    assert!(ev.is_empty());
    assert_eq!(
        next, 0,
        "no device yet: everything from the start belongs to the next cell"
    );
    let line = nbcuda::device::describe(&mut rt);
    assert!(
        line.starts_with("nbcuda CPU device (") && line.ends_with(" GiB of device memory)"),
        "{line}"
    );
    let d = call(
        &mut rt,
        &cuda(),
        "device_array",
        Args::new(vec![Value::Int(2)]),
    )
    .unwrap();
    let (ev, _) = nbcuda::device::ledger::events_since(&mut rt, next);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].kind, LedgerKind::Alloc);
    drop(d);
}
