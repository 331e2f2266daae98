//! Device selection and capacity from the environment (one test: env vars are global).

mod devices_support;
use devices_support::*;

use nbcuda::language::{Args, Value};

#[test]
fn environment_selects_device_and_capacity() {
    // SAFETY-free in edition 2021; this binary has a single test so nothing races.
    std::env::set_var("NBCUDA_DEVICE", "cuda");
    let mut rt = runtime();
    let m = cuda();
    let e = call(&mut rt, &m, "device_array", Args::new(vec![Value::Int(4)])).unwrap_err();
    assert_eq!(e.ename, "CudaSupportError");
    assert!(e.hint.unwrap().contains("NBCUDA_DEVICE=cpu"));
    // The end-of-cell hook does not fail when no device could be made.
    nbcuda::devices::end_of_cell(&mut rt).unwrap();

    std::env::set_var("NBCUDA_DEVICE", "cpu");
    std::env::set_var("NBCUDA_CPU_DEVICE_MEMORY", "1MiB");
    let mut rt = runtime();
    let ctx = call(&mut rt, &m, "current_context", Args::default()).unwrap();
    let mi = meth(&mut rt, &ctx, "get_memory_info", Args::default()).unwrap();
    assert_eq!(
        repr(&mut rt, &mi),
        "MemoryInfo(free=1048576, total=1048576)"
    );
    let e = call(
        &mut rt,
        &m,
        "device_array",
        Args::new(vec![Value::Int(200_000)]),
    )
    .unwrap_err();
    assert_eq!(e.ename, "CudaAPIError");
    assert!(e
        .hint
        .unwrap()
        .contains("requested 1600000 bytes, 1048576 bytes free of 1048576 bytes total"));
    std::env::remove_var("NBCUDA_DEVICE");
    std::env::remove_var("NBCUDA_CPU_DEVICE_MEMORY");
}
