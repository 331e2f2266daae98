//! An allocation that finds the device full waits for queued work and tries again, as
//! Numba's `_attempt_allocation` flushes pending frees: results the host has already
//! dropped (`%timeit add_ufunc(x, y)` without a synchronize) are still held by their queued
//! launches until those run. This file's process gets a small CPU device.

mod common;
use common::Session;

#[test]
fn results_held_by_queued_launches_are_freed_when_an_allocation_needs_them() {
    // Before any device exists in this process (each test file is its own process).
    std::env::set_var("NBCUDA_DEVICE", "cpu");
    std::env::set_var("NBCUDA_CPU_DEVICE_MEMORY", "64MiB");
    let mut s = Session::new();
    s.run(
        "import numpy as np\nfrom numba import cuda, vectorize\n\
         @vectorize(['float32(float32, float32)'], target='cuda')\n\
         def add_ufunc(x, y):\n    return x + y\n\
         @cuda.jit\n\
         def slow(out, n):\n    acc = 0\n    for i in range(n):\n        acc += i % 7\n    out[0] = acc\n\
         n = 1_000_000\n\
         x = cuda.to_device(np.ones(n, np.float32))\n\
         y = cuda.to_device(np.ones(n, np.float32))\n\
         flag = cuda.device_array(1, np.int64)",
    )
    .ok();
    // The slow kernel keeps the default stream busy while 40 results of 4 MB each (160 MB,
    // more than the device holds) are queued behind it and dropped by the host.
    let out = s.stdout(
        "slow[1, 1](flag, 3_000_000)\n\
         for _ in range(40):\n    add_ufunc(x, y)\n\
         r = add_ufunc(x, y)\n\
         print(r.copy_to_host()[:3], flag.copy_to_host()[0])",
    );
    let expected_acc: i64 = (0..3_000_000i64).map(|i| i % 7).sum();
    assert_eq!(out, format!("[2. 2. 2.] {expected_acc}\n"));
    // A request that can never fit still raises the device's out-of-memory error.
    let c = s.run("big = cuda.device_array(100_000_000, np.float32)");
    assert_eq!(c.ename().as_deref(), Some("CudaAPIError"));
}
