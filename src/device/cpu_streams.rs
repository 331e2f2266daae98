//! Stream workers of the embedded CPU device: one thread per stream runs queued operations
//! in order, asynchronously to the host. Ordering between streams follows CUDA's legacy
//! default stream: work on stream 0 waits for everything queued before it on every stream,
//! and work queued on other streams after it waits for it.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::device::backend::EventMark;
use crate::device::StreamId;
use crate::kernel::abi::Cancel;

/// How many operations of a stream have completed; the host and other streams wait on it.
#[derive(Default)]
pub struct Progress {
    done: Mutex<u64>,
    /// A lock-free copy of `done` for the spinning phase of a wait.
    seen: AtomicU64,
    cv: Condvar,
}

/// How long a waiter spins before it sleeps. A sleeping thread costs a futex wake-up of
/// several microseconds on each side, which would dominate the launch overhead of a small
/// kernel followed by `cuda.synchronize()`; a short spin hands over in well under one.
const SPIN: Duration = Duration::from_micros(50);

fn spin_until(mut ready: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    let mut k = 0u32;
    while start.elapsed() < SPIN {
        if ready() {
            return true;
        }
        k += 1;
        if k.is_multiple_of(64) {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
    ready()
}

impl Progress {
    pub fn completed(&self) -> u64 {
        *self.done.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn advance(&self) {
        let mut d = self.done.lock().unwrap_or_else(|e| e.into_inner());
        *d += 1;
        self.seen.store(*d, Ordering::Release);
        self.cv.notify_all();
    }
    /// Wait at most `timeout`; true when reached.
    pub fn wait_for(&self, seq: u64, timeout: Duration) -> bool {
        if spin_until(|| self.seen.load(Ordering::Acquire) >= seq) {
            return true;
        }
        let d = self.done.lock().unwrap_or_else(|e| e.into_inner());
        let (d, _) = self
            .cv
            .wait_timeout_while(d, timeout, |d| *d < seq)
            .unwrap_or_else(|e| e.into_inner());
        *d >= seq
    }
}

/// Something the host or a stream can wait for: a point in a CPU stream, or (for the CUDA
/// device) a recorded CUDA event.
pub trait Waitable: Send + Sync {
    fn done(&self) -> bool;
    /// Wait at most `timeout`; true when reached.
    fn wait_timeout(&self, timeout: Duration) -> bool;
}

/// A point in a stream that later work or the host can wait for.
#[derive(Clone)]
pub struct Ticket(Arc<dyn Waitable>);

impl Ticket {
    pub fn new(w: impl Waitable + 'static) -> Ticket {
        Ticket(Arc::new(w))
    }
    pub fn done(&self) -> bool {
        self.0.done()
    }
    pub fn wait(&self) {
        while !self.0.wait_timeout(Duration::from_secs(1)) {}
    }
    /// Wait while watching `interrupt`; false when interrupted first.
    pub fn wait_interruptible(&self, interrupt: &AtomicBool) -> bool {
        loop {
            if self.0.wait_timeout(Duration::from_millis(50)) {
                return true;
            }
            if interrupt.load(Ordering::Relaxed) {
                return false;
            }
        }
    }
}

/// A point in a CPU stream: reached when `progress` has completed `seq` operations.
struct CpuPoint {
    progress: Arc<Progress>,
    seq: u64,
}

impl Waitable for CpuPoint {
    fn done(&self) -> bool {
        self.progress.completed() >= self.seq
    }
    fn wait_timeout(&self, timeout: Duration) -> bool {
        self.progress.wait_for(self.seq, timeout)
    }
}

fn point(progress: &Arc<Progress>, seq: u64) -> Ticket {
    Ticket::new(CpuPoint {
        progress: progress.clone(),
        seq,
    })
}

pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// The worker's next operation: spin briefly for one (launches come in bursts), then
/// sleep; None once every sender is gone.
fn next_op(rx: &Receiver<Op>) -> Option<Op> {
    let mut got = None;
    let mut closed = false;
    spin_until(|| match rx.try_recv() {
        Ok(op) => {
            got = Some(op);
            true
        }
        Err(TryRecvError::Empty) => false,
        Err(TryRecvError::Disconnected) => {
            closed = true;
            true
        }
    });
    if got.is_some() || closed {
        return got;
    }
    rx.recv().ok()
}

/// Run a queued operation; a panic in it (a bug) goes to `on_panic` as a message.
fn run_job(job: Job, on_panic: &(dyn Fn(String) + Send + Sync)) {
    if let Err(e) = catch_unwind(AssertUnwindSafe(job)) {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown panic".into());
        on_panic(msg);
    }
}

/// Pending operations a stream holds before submitting blocks (CUDA's is about 1024).
const MAX_PENDING: u64 = 1024;

struct Op {
    deps: Vec<Ticket>,
    job: Job,
    /// The set's cancel generation when the op was queued; a later cancel skips it.
    gen: u64,
}

struct Queue {
    tx: Sender<Op>,
    progress: Arc<Progress>,
    submitted: u64,
    /// `submitted` when an interrupt gave up waiting for this stream (0: never): work a
    /// device cannot stop (a kernel already on the GPU) runs on, and the end of a cell
    /// must not wait for it unless something was queued behind it since.
    abandoned: u64,
}

/// The set of streams of one device.
pub struct StreamSet {
    queues: BTreeMap<StreamId, Queue>,
    next_id: StreamId,
    /// Called with a message when a queued job panics (a bug, reported as a fault).
    on_panic: Arc<dyn Fn(String) + Send + Sync>,
    /// Bumped by [`StreamSet::cancel`]: workers skip operations queued before, and
    /// launches running on the CPU executor watch it through their [`Cancel`] token.
    cancel_gen: Arc<AtomicU64>,
    /// Tails of streams ended by [`StreamSet::retire`] whose work may still be running:
    /// synchronisation, the legacy default stream and later work reusing the handle
    /// still wait for them.
    retired: BTreeMap<StreamId, Ticket>,
}

impl StreamSet {
    pub fn new(on_panic: Arc<dyn Fn(String) + Send + Sync>) -> StreamSet {
        StreamSet {
            queues: BTreeMap::new(),
            // Handles 1 and 2 mean the legacy and per-thread default streams, as on CUDA.
            next_id: 0x1000,
            on_panic,
            cancel_gen: Arc::new(AtomicU64::new(0)),
            retired: BTreeMap::new(),
        }
    }

    /// End `stream`'s worker once the work queued on it is done (`last` runs after that
    /// work, on the worker): without this every `cuda.stream()` a loop creates would keep
    /// a thread for the rest of the session. The default streams are never ended.
    pub fn retire(&mut self, stream: StreamId, last: Option<Job>) {
        let stream = Self::canonical(stream);
        if stream == 0 || !self.queues.contains_key(&stream) {
            return;
        }
        if let Some(job) = last {
            self.submit(stream, Vec::new(), job);
        }
        // Dropping the queue closes its channel: the worker finishes what was sent, then
        // its loop ends.
        if let Some(q) = self.queues.remove(&stream) {
            self.retired.insert(stream, point(&q.progress, q.submitted));
        }
        self.retired.retain(|_, t| !t.done());
    }

    /// A new stream handle (its worker starts on first use).
    pub fn create(&mut self) -> StreamId {
        let id = self.next_id;
        self.next_id += 0x10;
        id
    }

    /// The legacy (1) and per-thread (2) default stream handles behave as stream 0 here.
    fn canonical(stream: StreamId) -> StreamId {
        if stream <= 2 {
            0
        } else {
            stream
        }
    }

    /// The queue of `stream`, its worker started on first use; None when no thread can be
    /// started (the OS's limit on threads).
    fn queue(&mut self, stream: StreamId) -> Option<&mut Queue> {
        let on_panic = self.on_panic.clone();
        let cancel_gen = self.cancel_gen.clone();
        if let Entry::Vacant(slot) = self.queues.entry(stream) {
            let (tx, rx) = channel::<Op>();
            let progress = Arc::new(Progress::default());
            let p = progress.clone();
            std::thread::Builder::new()
                .name(format!("nbcuda-stream-{stream:#x}"))
                .spawn(move || {
                    while let Some(op) = next_op(&rx) {
                        for d in &op.deps {
                            d.wait();
                        }
                        if op.gen != cancel_gen.load(Ordering::SeqCst) {
                            // Cancelled before it started: dropped, but still counted, so
                            // whoever waits for this point goes on.
                            drop(op.job);
                            p.advance();
                            continue;
                        }
                        run_job(op.job, &*on_panic);
                        p.advance();
                    }
                })
                .ok()?;
            slot.insert(Queue {
                tx,
                progress,
                submitted: 0,
                abandoned: 0,
            });
        }
        self.queues.get_mut(&stream)
    }

    /// Queue `job` on `stream` after `extra` and the legacy-default-stream dependencies.
    pub fn submit(&mut self, stream: StreamId, extra: Vec<Ticket>, job: Job) -> Ticket {
        let stream = Self::canonical(stream);
        let mut deps = extra;
        if let Some(before) = self.retired.remove(&stream) {
            // The handle is in use again: its new worker starts after the old one's work.
            deps.push(before);
        }
        if stream == 0 {
            for (id, q) in &self.queues {
                if *id != 0 && q.submitted > 0 {
                    deps.push(point(&q.progress, q.submitted));
                }
            }
            self.retired.retain(|_, t| !t.done());
            deps.extend(self.retired.values().cloned());
        } else if let Some(q0) = self.queues.get(&0) {
            if q0.submitted > 0 {
                deps.push(point(&q0.progress, q0.submitted));
            }
        }
        let mut gen = self.cancel_gen.load(Ordering::SeqCst);
        let cancel_gen = self.cancel_gen.clone();
        let on_panic = self.on_panic.clone();
        let Some(q) = self.queue(stream) else {
            // No worker thread: run the work here, after what it waits for, so it still
            // happens in order, only synchronously.
            for d in &deps {
                d.wait();
            }
            run_job(job, &*on_panic);
            return point(&Arc::new(Progress::default()), 0);
        };
        // A GPU's launch queue is finite: once about a thousand operations are pending, the
        // next launch blocks the host until one completes. Without this, an unsynchronised
        // `%timeit` would measure only queueing and pile up unbounded work. An interrupt
        // while blocked cancels what is queued, this operation included.
        if q.submitted >= MAX_PENDING {
            let interrupt = crate::arrays::interrupt::flag();
            while !q
                .progress
                .wait_for(q.submitted + 1 - MAX_PENDING, Duration::from_millis(20))
            {
                if crate::arrays::interrupt::pending(&interrupt) {
                    gen = cancel_gen.fetch_add(1, Ordering::SeqCst);
                    break;
                }
            }
        }
        q.submitted += 1;
        let ticket = point(&q.progress, q.submitted);
        if q.tx.send(Op { deps, job, gen }).is_err() {
            // The worker is gone (cannot happen unless it was torn down); count it done.
            q.progress.advance();
        }
        ticket
    }

    /// The point after everything queued so far on `stream`.
    pub fn tail(&mut self, stream: StreamId) -> Option<Ticket> {
        let stream = Self::canonical(stream);
        match self.queues.get(&stream) {
            Some(q) => Some(point(&q.progress, q.submitted)),
            None => self.retired.get(&stream).cloned(),
        }
    }

    /// A token for work queued now: it asks the work to stop once the set is cancelled.
    pub fn cancel_token(&self) -> Cancel {
        Cancel::queued(&self.cancel_gen)
    }

    /// Drop every queued operation on every stream and ask running ones to stop; true when
    /// every stream was idle again within `patience`.
    /// A stream still busy after `patience` is marked abandoned (see [`StreamSet::live_tails`]).
    pub fn cancel(&mut self, patience: Duration) -> bool {
        self.cancel_gen.fetch_add(1, Ordering::SeqCst);
        let deadline = Instant::now() + patience;
        let mut idle = true;
        for q in self.queues.values_mut() {
            let left = deadline.saturating_duration_since(Instant::now());
            if !q.progress.wait_for(q.submitted, left) {
                q.abandoned = q.submitted;
                idle = false;
            }
        }
        // A retired stream still busy now is abandoned the same way: forgotten.
        self.retired.retain(|_, t| {
            let left = deadline.saturating_duration_since(Instant::now());
            let done = t.0.wait_timeout(left);
            idle &= done;
            false
        });
        idle
    }

    /// The tails of every stream except those an interrupt abandoned with nothing queued
    /// on them since: what the end of a cell waits for, so that a GPU kernel that cannot be
    /// stopped holds up only the cells that queue device work behind it.
    pub fn live_tails(&self) -> Vec<Ticket> {
        self.queues
            .values()
            .filter(|q| q.submitted != q.abandoned)
            .map(|q| point(&q.progress, q.submitted))
            .chain(self.retired.values().cloned())
            .collect()
    }

    /// An event on `stream`: it completes, and takes its timestamp, when the stream's
    /// worker reaches it (both devices' workers finish each operation before the next).
    pub fn record_event(&mut self, stream: StreamId) -> EventMark {
        let time = Arc::new(Mutex::new(None));
        let t = time.clone();
        let ticket = self.submit(
            stream,
            Vec::new(),
            Box::new(move || {
                *t.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
            }),
        );
        EventMark { ticket, time }
    }

    /// Make later work on `stream` wait for `mark`.
    pub fn wait_event(&mut self, stream: StreamId, mark: &EventMark) {
        self.submit(stream, vec![mark.ticket.clone()], Box::new(|| {}));
    }

    /// Tickets for the tails of every stream.
    pub fn all_tails(&self) -> Vec<Ticket> {
        self.queues
            .values()
            .map(|q| point(&q.progress, q.submitted))
            .chain(self.retired.values().cloned())
            .collect()
    }
}
