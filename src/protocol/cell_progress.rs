//! A progress display for long cells in JupyterLab: a cell still running after 2 s gets a
//! display (with a `display_id`) that is updated every second with the elapsed time and,
//! when the cell ends, with its total — so a long `%timeit` or kernel launch shows signs of
//! life (a `%timeit` adds which run it is on). `nbcuda run` has its own progress bar on stderr instead.

use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value as Json};

use crate::protocol::outbox::Outbox;
use crate::protocol::request::Request;
use crate::protocol::typed;

const FIRST_SHOWN_AFTER: Duration = Duration::from_secs(2);
const UPDATE_EVERY: Duration = Duration::from_secs(1);

pub struct CellProgress {
    done: Arc<(Mutex<bool>, Condvar)>,
    handle: Option<JoinHandle<()>>,
}

fn bundle(count: u32, secs: f64, finished: bool) -> Map<String, Json> {
    let text = if finished {
        format!("In [{count}] finished in {secs:.1} s")
    } else {
        match crate::language::timing::activity() {
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

impl CellProgress {
    /// Start watching the cell `count` whose execute_request header is `parent`.
    pub fn start(out: Outbox, parent: Request, count: u32) -> CellProgress {
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let flag = done.clone();
        let handle = std::thread::Builder::new()
            .name("nbcuda-cell-progress".into())
            .spawn(move || {
                let start = Instant::now();
                let id = format!("nbcuda-progress-{}-{count}", out.session);
                let (lock, cv) = &*flag;
                let mut finished = lock.lock().unwrap_or_else(|e| e.into_inner());
                let mut shown = false;
                loop {
                    let wait = if shown {
                        UPDATE_EVERY
                    } else {
                        FIRST_SHOWN_AFTER
                    };
                    let (g, _) = cv
                        .wait_timeout_while(finished, wait, |d| !*d)
                        .unwrap_or_else(|e| e.into_inner());
                    finished = g;
                    let secs = start.elapsed().as_secs_f64();
                    if *finished {
                        if shown {
                            let b = bundle(count, secs, true);
                            let m = typed::display(&parent.msg, &b, &Map::new(), Some(&id), true);
                            out.publish(Some(&parent), m);
                        }
                        return;
                    }
                    let b = bundle(count, secs, false);
                    let m = typed::display(&parent.msg, &b, &Map::new(), Some(&id), shown);
                    out.publish(Some(&parent), m);
                    shown = true;
                }
            })
            .ok();
        CellProgress { done, handle }
    }

    /// The cell ended: publish the final update (if the display was shown) before the
    /// reply goes out, so it lands in the cell's outputs in order.
    pub fn finish(mut self) {
        let (lock, cv) = &*self.done;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        cv.notify_all();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
