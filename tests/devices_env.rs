//! Device selection and capacity from the environment (one test: env vars are global).

mod devices_support;
use devices_support::*;

use nbcuda::py::value::{Args, Value};

#[test]
fn environment_selects_device_and_capacity() {
    // SAFETY-free in edition 2021; this binary has a single test so nothing races.
    let m = cuda();
    // This test runs where no GPU is usable; on a GPU machine tests/gpu/smoke.sh covers it.
    let gpu = nbcuda::device::cuda::probe().is_ok();

    // Automatic choice: no GPU, so the embedded CPU device, and the banner says so.
    std::env::remove_var("NBCUDA_DEVICE");
    if !gpu {
        let mut rt = runtime();
        let line = nbcuda::device::describe(&mut rt);
        assert!(line.starts_with("nbcuda CPU device ("), "{line}");
        let banner = nbcuda::device::cuda::banner_line();
        assert!(
            banner.starts_with("Device: the embedded CPU device (no GPU: "),
            "{banner}"
        );
    }

    // Forcing CUDA without a GPU: a clear error in the cell, with the probe's reason.
    std::env::set_var("NBCUDA_DEVICE", "cuda");
    if !gpu {
        let mut rt = runtime();
        let e = call(&mut rt, &m, "device_array", Args::new(vec![Value::Int(4)])).unwrap_err();
        assert_eq!(e.ename, "CudaSupportError");
        let reasons = [
            "no CUDA driver (libcuda.so) was found",
            "the CUDA driver reports no GPU",
            "the CUDA driver could not list devices",
            "the CUDA driver failed while starting",
        ];
        assert!(
            e.message.starts_with("NBCUDA_DEVICE=cuda but ")
                && reasons.iter().any(|r| e.message.contains(r)),
            "{}",
            e.message
        );
        assert!(e.hint.as_ref().unwrap().contains("NBCUDA_DEVICE=cpu"));
        // Every later cell says the same; the end-of-cell hook does not fail.
        let again = call(&mut rt, &m, "device_array", Args::new(vec![Value::Int(4)])).unwrap_err();
        assert_eq!(again.ename, "CudaSupportError");
        nbcuda::device::end_of_cell(&mut rt).unwrap();
    }

    // A value nbcuda does not know is a ValueError naming it.
    std::env::set_var("NBCUDA_DEVICE", "tpu");
    let mut rt = runtime();
    let e = call(&mut rt, &m, "device_array", Args::new(vec![Value::Int(4)])).unwrap_err();
    assert_eq!(e.ename, "ValueError");
    assert!(e.message.contains("NBCUDA_DEVICE=tpu"), "{}", e.message);

    // Case does not matter.
    std::env::set_var("NBCUDA_DEVICE", "CPU");
    let mut rt = runtime();
    assert!(call(&mut rt, &m, "device_array", Args::new(vec![Value::Int(4)])).is_ok());

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
        .as_ref()
        .unwrap()
        .contains("requested 1600000 bytes, 1048576 bytes free of 1048576 bytes total"));
    std::env::remove_var("NBCUDA_DEVICE");
    std::env::remove_var("NBCUDA_CPU_DEVICE_MEMORY");
}
