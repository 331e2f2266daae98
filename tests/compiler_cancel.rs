//! `cancel_running_kernels()` stops a running launch (alone in its own test binary, since
//! the request reaches every launch of the process).

mod compiler_support;

use compiler_support::*;
use nbcuda::arrays::dtype::DType;

#[test]
fn global_cancel_stops_an_endless_kernel() {
    let k = kernel(
        "def spin(a):\n    i = 0\n    while True:\n        i += 1\n    a[0] = i\n",
        &[arr1(DType::I64, 1)],
    );
    let a = array_of(&[1], DType::I64, &[0.0]);
    // The request reaches only launches already running, so keep asking until this one
    // returns: on a loaded machine the launch may begin after the first request.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let d2 = done.clone();
    let canceller = std::thread::spawn(move || {
        while !d2.load(std::sync::atomic::Ordering::SeqCst) {
            std::thread::sleep(std::time::Duration::from_millis(50));
            nbcuda::kernel::exec::cancel_running_kernels();
        }
    });
    let err = launch(&k, cfg(4, 8), &[arg(&a)]).unwrap_err();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    canceller.join().unwrap();
    assert_eq!(err.ename(), "KeyboardInterrupt");
}
