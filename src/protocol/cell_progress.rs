//! A progress display for long cells in JupyterLab: a cell still running after 2 s gets a
//! display (with a `display_id`) that is updated every second with the elapsed time and,
//! when the cell ends, with its total — so a long `%timeit` or kernel launch shows signs of
//! life (a `%timeit` adds which run it is on). `nbcuda run` has its own progress bar on stderr instead.
//!
//! Only execute_requests with `allow_stdin: true` get it. A saved notebook must hold the
//! outputs ipykernel would have written, and every display this module sends is an output
//! to a headless executor: nbclient (and so nbconvert and papermill, which run on it)
//! records display_data as an output and applies update_display_data to it in place, so
//! "In [n] finished in X s" would stay in the file whatever the display's last update
//! said, and a clear_output would erase the cell's real outputs too. What tells the
//! clients apart is what they promise in the request: nbclient sets its client's
//! `allow_stdin` to false unconditionally (it cannot answer an `input()`), while
//! JupyterLab, Notebook 7 and `jupyter console` send true because a person is there to
//! answer — the same person who wants to see that a long cell is alive. Request metadata
//! (JupyterLab's `recordTiming`, `deletedCells`) was rejected as the signal: those keys
//! are one frontend's private business and other interactive frontends do not send them.

use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value as Json};

use crate::protocol::outbox::Outbox;
use crate::protocol::request::Request;
use crate::protocol::typed;

const FIRST_SHOWN_AFTER: Duration = Duration::from_secs(2);
const UPDATE_EVERY: Duration = Duration::from_secs(1);

fn bundle(count: u32, secs: f64, finished: bool) -> Map<String, Json> {
    let text = if finished {
        format!("In [{count}] finished in {secs:.1} s")
    } else {
        match crate::interp::timing::activity() {
            Some(note) => format!("In [{count}] running for {secs:.0} s … {note}"),
            None => format!("In [{count}] running for {secs:.0} s …"),
        }
    };
    // An indeterminate <progress> pulses in the browser while the cell runs.
    let html = if finished {
        format!("<div><progress value=\"1\" max=\"1\"></progress> {text}</div>")
    } else {
        format!("<div><progress></progress> {text}</div>")
    };
    let mut b = Map::new();
    b.insert("text/plain".into(), json!(text));
    b.insert("text/html".into(), json!(html));
    b
}

/// The cell being watched.
struct Watched {
    out: Outbox,
    parent: Request,
    count: u32,
    start: Instant,
    /// When the display is next due (first shown, then updated).
    due: Instant,
    shown: bool,
}

impl Watched {
    fn id(&self) -> String {
        format!("nbcuda-progress-{}-{}", self.out.session, self.count)
    }
    fn publish(&self, finished: bool) {
        let b = bundle(self.count, self.start.elapsed().as_secs_f64(), finished);
        let update = self.shown;
        let m = typed::display(&self.parent.msg, &b, &Map::new(), Some(&self.id()), update);
        self.out.publish(Some(&self.parent), m);
    }
}

/// One watcher thread for the whole process: spawning a thread per cell cost more than
/// the rest of a trivial cell's round trip. Every state change happens under the lock,
/// publishing included, so the end of a cell never races the watcher's first display.
struct Watcher {
    state: Mutex<State>,
    cv: Condvar,
}

#[derive(Default)]
struct State {
    cell: Option<Watched>,
    /// The watcher sleeps with no deadline, so a new cell must wake it; otherwise it wakes
    /// by itself at its next deadline, and a burst of short cells costs no wake-ups.
    parked: bool,
}

fn watcher() -> &'static Watcher {
    static W: OnceLock<&'static Watcher> = OnceLock::new();
    W.get_or_init(|| {
        let w: &'static Watcher = Box::leak(Box::new(Watcher {
            state: Mutex::new(State::default()),
            cv: Condvar::new(),
        }));
        let spawned = std::thread::Builder::new()
            .name("nbcuda-cell-progress".into())
            .spawn(move || watch(w));
        if spawned.is_err() {
            crate::protocol::log("no progress display: cannot start its thread");
        }
        w
    })
}

fn watch(w: &'static Watcher) {
    let mut g = w.state.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let wait = match g.cell.as_mut() {
            None => None,
            Some(c) => {
                let now = Instant::now();
                if now >= c.due {
                    c.publish(false);
                    c.shown = true;
                    c.due = now + UPDATE_EVERY;
                    continue;
                }
                Some(c.due - now)
            }
        };
        g = match wait {
            None => {
                g.parked = true;
                let mut g = w.cv.wait(g).unwrap_or_else(|e| e.into_inner());
                g.parked = false;
                g
            }
            Some(d) => w.cv.wait_timeout(g, d).unwrap_or_else(|e| e.into_inner()).0,
        };
    }
}

/// The watch over one running cell; [`CellProgress::finish`] ends it.
pub struct CellProgress(());

impl CellProgress {
    /// Start watching the cell `count` whose execute_request is `parent`.
    pub fn start(out: Outbox, parent: Request, count: u32) -> CellProgress {
        let w = watcher();
        let now = Instant::now();
        let mut g = w.state.lock().unwrap_or_else(|e| e.into_inner());
        g.cell = Some(Watched {
            out,
            parent,
            count,
            start: now,
            due: now + FIRST_SHOWN_AFTER,
            shown: false,
        });
        if g.parked {
            w.cv.notify_one();
        }
        CellProgress(())
    }

    /// The cell ended: publish the final update (if the display was shown) before the
    /// reply goes out, so it lands in the cell's outputs in order.
    pub fn finish(self) {
        let taken = watcher()
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .cell
            .take();
        if let Some(c) = taken.filter(|c| c.shown) {
            c.publish(true);
        }
    }
}
