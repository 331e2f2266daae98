//! A launch stops when its cancel token asks: the device's cancel generation moving on (an
//! interrupt cancelling queued work) ends a kernel that would never return by itself.

mod compiler_support;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use compiler_support::*;
use nbcuda::arrays::dtype::DType;
use nbcuda::kernel::abi::Cancel;

#[test]
fn a_cancelled_generation_stops_an_endless_kernel() {
    let k = kernel(
        "def spin(a):\n    i = 0\n    while True:\n        i += 1\n    a[0] = i\n",
        &[arr1(DType::I64, 1)],
    );
    let a = array_of(&[1], DType::I64, &[0.0]);
    let gen = Arc::new(AtomicU64::new(0));
    let token = Cancel::queued(&gen);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = nbcuda::kernel::execute_on_cpu_cancellable(&k, &cfg(4, 8), &[arg(&a)], token);
        let _ = tx.send(r.err().map(|e| e.ename().to_string()));
    });
    std::thread::sleep(std::time::Duration::from_millis(100));
    gen.fetch_add(1, Ordering::SeqCst);
    let ended = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("the launch outlived its cancel by 10 s");
    assert_eq!(ended.as_deref(), Some("KeyboardInterrupt"));
}

#[test]
fn a_token_from_an_earlier_generation_is_already_cancelled() {
    let k = kernel(
        "def spin(a):\n    while True:\n        a[0] += 1\n",
        &[arr1(DType::I64, 1)],
    );
    let a = array_of(&[1], DType::I64, &[0.0]);
    let gen = Arc::new(AtomicU64::new(7));
    let token = Cancel::queued(&gen);
    gen.fetch_add(1, Ordering::SeqCst);
    let err =
        nbcuda::kernel::execute_on_cpu_cancellable(&k, &cfg(1, 1), &[arg(&a)], token).unwrap_err();
    assert_eq!(err.ename(), "KeyboardInterrupt");
}
