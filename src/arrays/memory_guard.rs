//! The session's guard against filling the machine's memory. Each allocation a cell sizes
//! is checked up front ([`crate::arrays::alloc`]), but memory also grows a little at a
//! time: `while True: x.append(...)`, a comprehension over a huge range, arrays allocated
//! one after another. Rust aborts the process when an allocation fails and Linux kills it
//! when touched pages run out, so without this the kernel dies where CPython would raise
//! MemoryError.
//!
//! A watcher thread samples the process's resident memory and the memory left (the
//! machine's `MemAvailable`, or the cgroup's limit where one is set) every 25 ms. When
//! little is left and this process holds a large share of it, it raises every session's
//! interrupt flag and marks the event as memory pressure: the interrupt checks that
//! already sit at loop back-edges, calls and array chunks then raise MemoryError instead
//! of KeyboardInterrupt, and the session keeps its state. It fires once per episode and
//! re-arms when the process's memory falls back (`del x`) or grows on past where it
//! fired, so the next cell can free what the last one built.
//!
//! `NBCUDA_MEMORY_LIMIT` (`2GiB`, `500MB`, written as `NBCUDA_CPU_DEVICE_MEMORY` is) caps
//! the process's resident memory as well: a session that should stay small fires there.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

/// How often the watcher samples.
const PERIOD: Duration = Duration::from_millis(25);

/// Set when the guard raised the interrupt flags; taken by the interrupt check that turns
/// it into MemoryError.
static PRESSURE: AtomicBool = AtomicBool::new(false);

/// The message the last firing left for the MemoryError.
static MESSAGE: Mutex<String> = Mutex::new(String::new());

/// The interrupt flags of the sessions in this process (weak: a dropped session's flag
/// goes away with it).
static FLAGS: Mutex<Vec<Weak<AtomicBool>>> = Mutex::new(Vec::new());

/// Watch `flag` too: memory pressure raises it. Starts the watcher on first use.
pub fn register(flag: &Arc<AtomicBool>) {
    static STARTED: OnceLock<()> = OnceLock::new();
    if let Ok(mut flags) = FLAGS.lock() {
        flags.retain(|w| w.strong_count() > 0);
        flags.push(Arc::downgrade(flag));
    }
    STARTED.get_or_init(|| {
        let limits = Limits::from_env();
        // No thread, no guard: the session still runs, as it did before the guard existed.
        let _ = std::thread::Builder::new()
            .name("nbcuda-memory-guard".into())
            .spawn(move || watch(limits));
    });
}

/// The MemoryError message, if the interrupt just seen was raised by the guard (and not
/// by the user); consumes the event.
pub fn take_pressure() -> Option<String> {
    if PRESSURE.swap(false, Ordering::SeqCst) {
        Some(MESSAGE.lock().map(|m| m.clone()).unwrap_or_default())
    } else {
        None
    }
}

/// Drop an event nobody consumed: called where a stale interrupt flag is cleared (between
/// cells), so a later interrupt from the user is not mistaken for memory pressure.
pub fn forget() {
    PRESSURE.store(false, Ordering::SeqCst);
}

/// When the guard fires.
#[derive(Clone, Copy)]
struct Limits {
    /// Fire when this little memory is left to the process...
    floor: u64,
    /// ...and the process holds at least this much (it is the one filling memory).
    share: u64,
    /// Fire whenever the process holds more than this (`NBCUDA_MEMORY_LIMIT`).
    cap: Option<u64>,
}

impl Limits {
    fn from_env() -> Limits {
        let total = crate::arrays::alloc::physical_memory() as u64;
        Limits {
            floor: (total / 16).max(512 << 20),
            share: total / 4,
            cap: std::env::var("NBCUDA_MEMORY_LIMIT")
                .ok()
                .and_then(|v| crate::arrays::alloc::parse_size(&v))
                .map(|b| b as u64),
        }
    }
}

fn watch(limits: Limits) {
    // Resident memory when the guard last fired; None while armed.
    let mut fired_at: Option<u64> = None;
    loop {
        std::thread::sleep(PERIOD);
        let Some(rss) = resident_bytes() else {
            continue;
        };
        let left = available_bytes();
        let over_cap = limits.cap.is_some_and(|c| rss > c);
        let starving = left.is_some_and(|l| l < limits.floor) && rss >= limits.share;
        if let Some(at) = fired_at {
            // Re-arm once the process gave an eighth back, or grew on past the firing
            // point (the MemoryError was caught and the loop went on).
            if rss < at - at / 8 || rss > at + (64 << 20) {
                fired_at = None;
            } else {
                continue;
            }
        }
        if !(over_cap || starving) {
            continue;
        }
        fired_at = Some(rss);
        let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
        let why = match (over_cap, limits.cap, left) {
            (true, Some(c), _) => format!("beyond NBCUDA_MEMORY_LIMIT ({:.2} GiB)", gib(c)),
            (_, _, Some(l)) => format!("with {:.2} GiB of memory left", gib(l)),
            _ => "with little memory left".to_string(),
        };
        if let Ok(mut m) = MESSAGE.lock() {
            *m = format!(
                "nbcuda stopped the cell: the session holds {:.2} GiB, {why}; \
                 free large objects (del) and run again",
                gib(rss)
            );
        }
        PRESSURE.store(true, Ordering::SeqCst);
        if let Ok(flags) = FLAGS.lock() {
            for f in flags.iter().filter_map(Weak::upgrade) {
                f.store(true, Ordering::SeqCst);
            }
        }
    }
}

/// This process's resident memory.
fn resident_bytes() -> Option<u64> {
    // VmRSS is in kB whatever the page size.
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// Memory still available to this process: the machine's, or less where a cgroup limit
/// is closer (containers, CI runners).
fn available_bytes() -> Option<u64> {
    let machine = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| {
        t.lines()
            .find(|l| l.starts_with("MemAvailable:"))
            .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .map(|kb| kb.saturating_mul(1024))
    });
    let read = |p: &str| std::fs::read_to_string(p).ok()?.trim().parse::<u64>().ok();
    let cgroup = match (
        read("/sys/fs/cgroup/memory.max"),
        read("/sys/fs/cgroup/memory.current"),
    ) {
        (Some(max), Some(cur)) => Some(max.saturating_sub(cur)),
        _ => None,
    };
    match (machine, cgroup) {
        (Some(m), Some(c)) => Some(m.min(c)),
        (m, c) => m.or(c),
    }
}
