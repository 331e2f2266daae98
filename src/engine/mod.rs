//! The composition root: a session (parsing, results, cell magics, end-of-cell work), the
//! registries it fills for the interpreter (modules, magics), and the session-level charts.
//! Uses every layer below; the protocol uses it.
//!
//! | file | holds |
//! |---|---|
//! | `bindings.rs` | What the engine plugs into a session's interpreter: every importable module under its import name, and the magics that need the device or the charts (`%timeit_chart`, `%ledger`, `%memory`, `%%timeline`). |
//! | `charts.rs` | Charts of the session itself: `%timeit_chart` (every `%timeit` side by side), the `%%timeline` of device work per stream, and the `%ledger` one-line summary. |
//! | `is_complete.rs` | `is_complete_request` answered as IPython's `TransformerManager.check_complete`, with its indent for incomplete code. |
//! | `session.rs` | A session: the interpreter state plus the cell-level protocol (parsing, the last expression's result, cell magics, end-of-cell hooks, completion and inspection). |
//!
//!
//! [`Engine`] is everything the protocol server and `nbcuda run` ask of a session. It is
//! single-threaded (`!Send`): create it on the thread that executes cells.

pub mod bindings;
pub mod charts;
pub mod is_complete;
pub mod session;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde_json::{Map, Value as Json};

pub use crate::engine::is_complete::Completeness;
pub use crate::interp::assist::Completion;

use crate::py::runtime::Frontend;

/// An execute_request, as the engine needs it.
pub struct ExecuteRequest<'a> {
    pub code: &'a str,
    pub silent: bool,
    pub store_history: bool,
    pub allow_stdin: bool,
    /// The execution count this cell runs as (`In[n]`).
    pub execution_count: u32,
}

/// An error as Jupyter shows it.
#[derive(Clone, Debug)]
pub struct ErrorInfo {
    pub ename: String,
    pub evalue: String,
    pub traceback: Vec<String>,
}

/// What a cell produced besides the side effects sent to the frontend while it ran.
#[derive(Clone, Debug, Default)]
pub struct ExecuteOutcome {
    /// The `execute_result` (data, metadata) of the last expression, if any.
    pub result: Option<(Map<String, Json>, Map<String, Json>)>,
    pub error: Option<ErrorInfo>,
    /// Reply payloads (`page` for `obj?`).
    pub payload: Vec<Json>,
}

/// One interactive session: interpreter state, device, history of results.
pub struct Engine {
    inner: crate::engine::session::Session,
}

impl Engine {
    pub fn new(interrupt: Arc<AtomicBool>) -> Engine {
        Engine {
            inner: crate::engine::session::Session::new(interrupt),
        }
    }

    /// Run one cell. Side effects go to `frontend` while it runs.
    pub fn execute(
        &mut self,
        req: &ExecuteRequest<'_>,
        frontend: Box<dyn Frontend>,
    ) -> ExecuteOutcome {
        self.inner.execute(req, frontend, &mut |_| {})
    }

    /// Run one cell as a frontend shows it: `shown` gets the cell's own result or error
    /// (to publish) before the end-of-cell hooks' output — pyplot's figures — goes to
    /// `frontend`, the order of IPython's displayhook and `post_execute`. The returned
    /// outcome is the whole cell's; its error differs from the one `shown` got only when
    /// the code raised none and a hook did.
    pub fn execute_shown(
        &mut self,
        req: &ExecuteRequest<'_>,
        frontend: Box<dyn Frontend>,
        shown: &mut dyn FnMut(&ExecuteOutcome),
    ) -> ExecuteOutcome {
        self.inner.execute(req, frontend, shown)
    }

    pub fn complete(&mut self, code: &str, cursor_pos: usize) -> Completion {
        self.inner.complete(code, cursor_pos)
    }

    /// An inspect_reply's data (MIME bundle), or None when nothing is found.
    pub fn inspect(
        &mut self,
        code: &str,
        cursor_pos: usize,
        detail_level: u8,
    ) -> Option<Map<String, Json>> {
        self.inner.inspect(code, cursor_pos, detail_level)
    }

    pub fn is_complete(&self, code: &str) -> Completeness {
        self.inner.is_complete(code)
    }

    /// The kernel_info banner (names the device in use).
    pub fn banner(&self) -> String {
        self.inner.banner()
    }

    /// Forget all session state (`%reset -f`, restart).
    pub fn reset(&mut self) {
        self.inner.reset()
    }
}
