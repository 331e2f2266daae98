//! One interrupt ends any running device work on the CPU device — a kernel that never
//! returns, queued launches, a host blocked on a full launch queue, `@njit` and CPU-side
//! ufunc loops — and leaves the session and the device usable.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use nbcuda::engine::{Engine, ExecuteOutcome, ExecuteRequest};
use nbcuda::py::runtime::NullFrontend;

fn run(engine: &mut Engine, code: &str) -> ExecuteOutcome {
    let req = ExecuteRequest {
        code,
        silent: false,
        store_history: true,
        allow_stdin: false,
        execution_count: 1,
    };
    engine.execute(&req, Box::new(NullFrontend))
}

fn ename(o: &ExecuteOutcome) -> Option<String> {
    o.error.as_ref().map(|e| e.ename.clone())
}

const SETUP: &str = "import numpy as np\nfrom numba import cuda, njit, vectorize\nkept = 7\n\
@cuda.jit\ndef plus_one(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += 1\n";

/// After the interrupt: the session kept its names, and the device runs new work.
const CHECK: &str = "d2 = cuda.to_device(np.arange(4.0))\nplus_one[1, 4](d2)\n\
e = cuda.event()\ne.record()\ne.synchronize()\ncuda.synchronize()\n\
result = (kept, d2.copy_to_host().tolist())";

/// Run `cell` in a fresh session, set the interrupt flag once after 300 ms, and return
/// what the cell and the check after it gave. A cell that ignores the interrupt fails the
/// test instead of hanging it.
fn interrupted(cell: &'static str) -> (Option<String>, Option<String>, String) {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let flag = Arc::new(AtomicBool::new(false));
            let mut engine = Engine::new(flag.clone());
            assert_eq!(ename(&run(&mut engine, SETUP)), None);
            let f2 = flag.clone();
            let setter = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                f2.store(true, Ordering::SeqCst);
            });
            let first = ename(&run(&mut engine, cell));
            setter.join().unwrap();
            let check = run(&mut engine, CHECK);
            let after = ename(&check);
            let value = run(&mut engine, "result")
                .result
                .map(|(data, _)| data["text/plain"].as_str().unwrap_or("").to_string())
                .unwrap_or_default();
            tx.send((first, after, value)).unwrap();
        })
        .unwrap();
    rx.recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|_| panic!("the interrupt did not end the cell:\n{cell}"))
}

fn assert_stops(cell: &'static str) {
    let (first, after, value) = interrupted(cell);
    assert_eq!(first.as_deref(), Some("KeyboardInterrupt"), "{cell}");
    assert_eq!(after, None, "the device is not usable after:\n{cell}");
    assert_eq!(value, "(7, [1.0, 2.0, 3.0, 4.0])", "{cell}");
}

#[test]
fn an_endless_kernel_stops_at_the_first_interrupt() {
    assert_stops(
        "@cuda.jit\ndef spin(a):\n    while True:\n        a[0] += 1\n\
         d = cuda.device_array(4)\nspin[4, 64](d)\ncuda.synchronize()",
    );
}

#[test]
fn a_kernel_queued_before_host_work_is_cancelled_with_it() {
    // The interrupt lands in time.sleep; the endless kernel queued before must end too, or
    // every later cell (each ends with a synchronize) would wait for it.
    assert_stops(
        "@cuda.jit\ndef spin(a):\n    for k in range(10**12):\n        a[0] += 1.0\n\
         d = cuda.device_array(4)\nspin[1, 32](d)\nimport time\ntime.sleep(100)",
    );
}

#[test]
fn queued_launches_are_dropped() {
    let cell = "big = cuda.device_array(2**22, dtype=np.float32)\nfor _ in range(2000):\n    \
                plus_one[2**22 // 256, 256](big)\ncuda.synchronize()";
    assert_stops(cell);
    // Dropped, not merely waited for in the background: fewer than 2000 ran.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let flag = Arc::new(AtomicBool::new(false));
        let mut engine = Engine::new(flag.clone());
        run(&mut engine, SETUP);
        let f2 = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            f2.store(true, Ordering::SeqCst);
        });
        run(&mut engine, cell);
        let ran = run(&mut engine, "int(big.copy_to_host()[0])").result;
        tx.send(ran.map(|(d, _)| d["text/plain"].as_str().unwrap_or("").to_string()))
            .unwrap();
    });
    let ran: i64 = rx
        .recv_timeout(Duration::from_secs(120))
        .expect("no answer")
        .expect("a value")
        .parse()
        .unwrap();
    assert!(
        ran < 2000,
        "all {ran} queued launches ran after the interrupt"
    );
}

#[test]
fn a_host_blocked_on_a_full_launch_queue_is_released() {
    // Past about a thousand pending launches the host waits in the launch call itself.
    assert_stops(
        "big = cuda.device_array(2**20, dtype=np.float32)\n@cuda.jit\ndef slow(a):\n    \
         for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):\n        a[i] += 1\n\
         for _ in range(100000):\n    slow[4, 64](big)\ncuda.synchronize()",
    );
}

#[test]
fn njit_loops_stop() {
    assert_stops("@njit\ndef forever():\n    while True:\n        pass\nforever()");
    assert_stops(
        "@njit\ndef count(n):\n    s = 0\n    for i in range(n):\n        s += i % 7\n    return s\n\
         count(10**15)",
    );
}

#[test]
fn a_looping_cuda_ufunc_stops() {
    assert_stops(
        "@vectorize(['float32(float32)'], target='cuda')\ndef climb(x):\n    while x >= 0:\n        \
         x += 1\n    return x\nclimb(np.ones(100000, np.float32))",
    );
}

/// Work a device cannot stop (a kernel already running on the GPU) outlives an interrupt.
/// The end of a cell then stops waiting for it — found on an H200, where every later cell,
/// host-only ones too, hung at its end — until device work is queued behind it again;
/// `cuda.synchronize()` (all tails) still waits for it.
#[test]
fn work_an_interrupt_abandons_holds_up_only_work_queued_behind_it() {
    use nbcuda::device::cpu_streams::StreamSet;
    let mut set = StreamSet::new(Arc::new(|_| {}));
    let (release, blocked) = mpsc::channel::<()>();
    let (started, running) = mpsc::channel::<()>();
    set.submit(
        0,
        Vec::new(),
        Box::new(move || {
            let _ = started.send(());
            let _ = blocked.recv();
        }),
    );
    // Like a kernel already on the GPU: it started before the interrupt.
    running.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(set.live_tails().len(), 1);
    assert!(
        !set.cancel(Duration::from_millis(20)),
        "the stuck stream is not idle"
    );
    assert!(
        set.live_tails().is_empty(),
        "nothing queued since the interrupt"
    );
    assert!(
        !set.all_tails()[0].done(),
        "cuda.synchronize() still waits for it"
    );
    let behind = set.submit(0, Vec::new(), Box::new(|| {}));
    let live = set.live_tails();
    assert_eq!(
        live.len(),
        1,
        "new work behind the stuck kernel is waited for"
    );
    assert!(!live[0].done());
    release.send(()).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !behind.done() {
        assert!(
            std::time::Instant::now() < deadline,
            "queued work never ran"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(set.all_tails().iter().all(|t| t.done()));
}

/// On the GPU a cuMemFree waits for the device, and while it waits every cuMemAlloc does
/// too (seen on an H200); after an interrupt leaves a kernel running, frees are held back
/// until it ends, so the session can still allocate.
#[test]
fn frees_are_held_back_while_interrupted_work_still_runs() {
    use nbcuda::gpu::driver::FreeGate;
    let gate = FreeGate::default();
    assert!(gate.open());
    let ended = Arc::new(AtomicBool::new(false));
    let e = ended.clone();
    gate.hold_until(Box::new(move || e.load(Ordering::SeqCst)));
    assert!(!gate.open(), "the kernel still runs");
    ended.store(true, Ordering::SeqCst);
    assert!(gate.open(), "the kernel ended");
    assert!(gate.open(), "a satisfied hold is dropped");
}
