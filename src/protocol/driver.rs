//! Who runs the socket tasks. They live on one current-thread runtime, driven by the
//! execution thread whenever it waits for the next request, so a request is read, run and
//! answered on one thread with no hand-over between threads: for a trivial cell the
//! wake-ups of other threads cost more than the cell itself. While a cell runs, a standby
//! thread takes over after [`GRACE`], so heartbeat, control, stdin and the cell's outputs
//! keep flowing during long cells and while the cell waits (on `input()`, for example).

use std::future::Future;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::runtime::Runtime;
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::Notify;

use crate::protocol::outbox::Out;

/// How long the execution thread may be away (running a cell) before the standby thread
/// drives the sockets. Short enough that heartbeat and interrupt answers stay prompt; long
/// enough that a burst of short cells rarely wakes the standby thread.
pub const GRACE: Duration = Duration::from_millis(2);

pub struct Driver {
    rt: Runtime,
    state: Mutex<State>,
    /// Wakes the standby thread when it sleeps with no deadline.
    cv: Condvar,
    /// Asks the standby thread to hand the runtime back.
    release: Notify,
}

struct State {
    /// Since when the execution thread has not been driving; None while it drives.
    away_since: Option<Instant>,
    /// The standby thread drives (or is about to).
    standby_driving: bool,
    /// The standby thread sleeps with no deadline, so a departure must wake it; otherwise
    /// it wakes by itself at its next deadline, and a burst of short cells costs no wake-ups.
    parked: bool,
    /// How often the execution thread has left: while it keeps leaving, the standby thread
    /// looks again every [`GRACE`] rather than parking and having to be woken each time.
    departures: u64,
    /// Messages queued while no thread drives, in order; whoever drives next passes them
    /// on. Waking a socket task from outside the runtime costs a system call on each side,
    /// for a trivial cell the only ones besides the socket I/O.
    staged: Vec<(UnboundedSender<Out>, Out)>,
}

impl Driver {
    /// The execution thread counts as away, for long already, until it first drives: while
    /// it creates the engine the standby thread serves at once (client handshakes,
    /// kernel_info on control), as start-up time is measured from the first request.
    pub fn new(rt: Runtime) -> Driver {
        let now = Instant::now();
        Driver {
            rt,
            state: Mutex::new(State {
                away_since: Some(now.checked_sub(GRACE).unwrap_or(now)),
                standby_driving: false,
                parked: false,
                departures: 0,
                staged: Vec::new(),
            }),
            cv: Condvar::new(),
            release: Notify::new(),
        }
    }

    pub fn runtime(&self) -> &Runtime {
        &self.rt
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// On the execution thread: run the socket tasks here until `fut` completes.
    pub fn drive<F: Future>(&self, fut: F) -> F::Output {
        let out = self.rt.block_on(async {
            // Inside the runtime, so passing on staged messages wakes tasks in place.
            self.arrive();
            fut.await
        });
        self.leave();
        out
    }

    fn arrive(&self) {
        let mut g = self.lock();
        g.away_since = None;
        if g.standby_driving {
            self.release.notify_one();
        }
        pass_on(&mut g.staged);
    }

    /// Queue `item` for a socket task: at once while a thread drives, else staged for the
    /// next one (in order: what is staged is passed on under the same lock that makes a
    /// thread the driver, before anyone can queue directly).
    pub fn send(&self, queue: &UnboundedSender<Out>, item: Out) {
        let mut g = self.lock();
        if g.away_since.is_some() && !g.standby_driving {
            g.staged.push((queue.clone(), item));
        } else {
            drop(g);
            let _ = queue.send(item);
        }
    }

    /// The execution thread stops driving (also for good, when it ends).
    pub fn leave(&self) {
        let mut g = self.lock();
        g.away_since = Some(Instant::now());
        g.departures = g.departures.wrapping_add(1);
        if g.parked {
            self.cv.notify_one();
        }
    }

    /// On the standby thread, forever: drive whenever the execution thread has been away
    /// for [`GRACE`], until it comes back.
    pub fn standby(&self) -> ! {
        let mut g = self.lock();
        let mut seen = g.departures;
        loop {
            g = match g.away_since {
                None if g.departures != seen => {
                    seen = g.departures;
                    self.cv
                        .wait_timeout(g, GRACE)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
                None => {
                    g.parked = true;
                    let mut g = self.cv.wait(g).unwrap_or_else(|e| e.into_inner());
                    g.parked = false;
                    g
                }
                Some(since) => {
                    let now = Instant::now();
                    let due = since + GRACE;
                    if now < due {
                        self.cv
                            .wait_timeout(g, due - now)
                            .unwrap_or_else(|e| e.into_inner())
                            .0
                    } else {
                        g.standby_driving = true;
                        pass_on(&mut g.staged);
                        drop(g);
                        // A release requested before this point left a permit, so this
                        // returns at once rather than missing it.
                        self.rt.block_on(self.release.notified());
                        let mut g = self.lock();
                        g.standby_driving = false;
                        g
                    }
                }
            };
        }
    }
}

fn pass_on(staged: &mut Vec<(UnboundedSender<Out>, Out)>) {
    for (queue, item) in staged.drain(..) {
        // A closed queue means its socket task ended; there is no one left to tell.
        let _ = queue.send(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    fn driver() -> Arc<Driver> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let d = Arc::new(Driver::new(rt));
        let s = d.clone();
        std::thread::spawn(move || s.standby());
        d
    }

    #[test]
    fn tasks_run_while_the_execution_thread_is_away_and_when_it_drives() {
        let d = driver();
        let ticks = Arc::new(AtomicUsize::new(0));
        let t = ticks.clone();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        d.runtime().spawn(async move {
            loop {
                t.fetch_add(1, Ordering::SeqCst);
                let _ = tx.send(());
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        });
        // Away (as while a long cell runs): the standby thread keeps the task going.
        let start = ticks.load(Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(100));
        assert!(ticks.load(Ordering::SeqCst) > start + 5);
        // Driving: this thread gets the runtime back and the task still runs.
        for _ in 0..20 {
            assert_eq!(d.drive(rx.recv()), Some(()));
        }
        let start = ticks.load(Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(100));
        assert!(ticks.load(Ordering::SeqCst) > start + 5);
    }

    #[test]
    fn messages_queued_while_nobody_drives_arrive_in_order() {
        let d = driver();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let got = Arc::new(Mutex::new(Vec::new()));
        let g = got.clone();
        d.runtime().spawn(async move {
            while let Some(Out::Frames(f)) = rx.recv().await {
                g.lock().unwrap().push(f[0].clone());
            }
        });
        let frames = |n: usize| Out::Frames(vec![bytes::Bytes::from(n.to_string())]);
        let expect = |n: usize| -> Vec<bytes::Bytes> {
            (0..n).map(|i| bytes::Bytes::from(i.to_string())).collect()
        };
        // Away, as while a cell runs: staged, then passed on by the standby thread.
        for i in 0..3 {
            d.send(&tx, frames(i));
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while got.lock().unwrap().len() < 3 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(*got.lock().unwrap(), expect(3));
        // Back: the next drive passes on what was staged before anything else runs.
        d.drive(async {});
        for i in 3..6 {
            d.send(&tx, frames(i));
        }
        d.drive(async {
            while got.lock().unwrap().len() < 6 {
                tokio::task::yield_now().await;
            }
        });
        assert_eq!(*got.lock().unwrap(), expect(6));
    }
}
