//! The memory guard: a cell that fills memory a little at a time gets MemoryError and the
//! session lives. One test per binary: the guard reads `NBCUDA_MEMORY_LIMIT` once per
//! process.

mod common;
use common::Session;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn resident_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace()
        .nth(1)
        .unwrap()
        .parse::<u64>()
        .unwrap()
        * 1024
}

#[test]
fn a_growing_list_stops_with_memory_error_and_the_session_lives() {
    // 300 MB above what the test process holds now, before any session exists.
    let cap = resident_bytes() + (300 << 20);
    std::env::set_var("NBCUDA_MEMORY_LIMIT", cap.to_string());
    // Without a guard the loops below would run until the machine ran out: an interrupt
    // after a minute turns that into a failure (KeyboardInterrupt) instead of a hang.
    let flag = Arc::new(AtomicBool::new(false));
    let watchdog = flag.clone();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(60));
        watchdog.store(true, Ordering::SeqCst);
    });
    let mut s = Session::with_interrupt(flag);
    s.stdout("kept = 41");
    let c = s.run("x = []\nwhile True:\n    x.append(' ' * 10**6)");
    assert_eq!(
        c.ename().as_deref(),
        Some("MemoryError"),
        "{}",
        c.traceback()
    );
    assert!(c.evalue().contains("NBCUDA_MEMORY_LIMIT"), "{}", c.evalue());
    // The state survives: what was built is still there to inspect and free.
    assert_eq!(s.stdout("print(kept + 1, len(x) > 100)"), "42 True\n");
    s.stdout("del x");
    // Freed, the guard re-arms and the next runaway cell is stopped again.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let c = s.run("y = []\nwhile True:\n    y.append(' ' * 10**6)");
    assert_eq!(
        c.ename().as_deref(),
        Some("MemoryError"),
        "{}",
        c.traceback()
    );
    assert_eq!(s.stdout("y = None\nprint('ok')"), "ok\n");
}
