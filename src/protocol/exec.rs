//! The execution thread: owns the (single-threaded) Engine and handles every shell request
//! in arrival order, each wrapped in IOPub busy/idle. Cell side effects go out on IOPub
//! while the cell runs; `input()` asks the requesting client over stdin.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use jupyter_protocol::{
    CompleteRequest, ExecuteRequest as ExecuteContent, InspectRequest, IsCompleteRequest,
    JupyterMessageContent as C,
};
use serde_json::{json, Map, Value as Json};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::engine::{Engine, ErrorInfo, ExecuteRequest};
use crate::protocol::cell_progress::CellProgress;
use crate::protocol::driver::Driver;
use crate::protocol::history::History;
use crate::protocol::notebook::{internal_error, panic_message};
use crate::protocol::outbox::Outbox;
use crate::protocol::request::Request;
use crate::protocol::typed;
use crate::protocol::wire::ContentError;
use crate::py::runtime::{Frontend, NullFrontend, StreamName};

/// A verified shell request and when the shell task received it.
pub struct Incoming {
    pub msg: Request,
    pub received: Instant,
}

/// Where the execution thread takes requests from: the shell task's queue, filled while
/// this thread drives the socket tasks (see [`Driver`]).
pub struct Inbox {
    rx: UnboundedReceiver<Incoming>,
    /// None in unit tests, where nothing serves sockets.
    driver: Option<Arc<Driver>>,
}

impl Inbox {
    pub fn new(rx: UnboundedReceiver<Incoming>, driver: Option<Arc<Driver>>) -> Inbox {
        Inbox { rx, driver }
    }

    /// The next request, or None once the shell task is gone.
    fn recv(&mut self) -> Option<Incoming> {
        let Inbox { rx, driver } = self;
        match driver {
            None => rx.blocking_recv(),
            Some(d) => d.drive(async {
                // Outputs of the last request go out before the next request is taken.
                if !rx.is_empty() {
                    tokio::task::yield_now().await;
                }
                rx.recv().await
            }),
        }
    }

    /// Let the shell task queue every request that has reached the socket.
    fn settle(&mut self) {
        let Inbox { rx, driver } = self;
        if let Some(d) = driver {
            d.drive(async {
                loop {
                    let before = rx.len();
                    // Twice: one turn reads the socket, the next runs what that woke.
                    tokio::task::yield_now().await;
                    tokio::task::yield_now().await;
                    if rx.len() == before {
                        break;
                    }
                }
            });
        }
    }

    fn try_recv(&mut self) -> Option<Incoming> {
        self.rx.try_recv().ok()
    }
}

/// The IOPub/stdin frontend for one execute_request.
struct WireFrontend {
    out: Outbox,
    parent: Request,
    silent: bool,
    allow_stdin: bool,
    input: Rc<Receiver<String>>,
    interrupt: Arc<AtomicBool>,
}

impl Frontend for WireFrontend {
    fn stream(&mut self, name: StreamName, text: &str) {
        if !self.silent && !text.is_empty() {
            self.out.stream(&self.parent, name.as_str(), text);
        }
    }

    fn display(
        &mut self,
        data: Map<String, Json>,
        metadata: Map<String, Json>,
        display_id: Option<&str>,
        update: bool,
    ) {
        if self.silent {
            return;
        }
        // update_display_data without an id cannot target anything.
        if update && display_id.is_none() {
            return;
        }
        let m = typed::display(&self.parent.msg, &data, &metadata, display_id, update);
        self.out.publish(Some(&self.parent), m);
    }

    fn clear_output(&mut self, wait: bool) {
        if !self.silent {
            let m = typed::clear_output(&self.parent.msg, wait);
            self.out.publish(Some(&self.parent), m);
        }
    }

    fn input(&mut self, prompt: &str, password: bool) -> Result<String, String> {
        if !self.allow_stdin {
            return Err(
                "raw_input was called, but this frontend does not support input requests".into(),
            );
        }
        // Forget answers to earlier, abandoned requests.
        while self.input.try_recv().is_ok() {}
        let m = typed::input_request(&self.parent.msg, prompt, password);
        self.out.send_stdin(&self.parent, m);
        loop {
            match self.input.recv_timeout(Duration::from_millis(20)) {
                Ok(v) => return Ok(v),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("the stdin channel is closed".into())
                }
                // Leave the flag set: the interpreter raises KeyboardInterrupt next.
                Err(RecvTimeoutError::Timeout) if self.interrupt.load(Ordering::SeqCst) => {
                    return Err("KeyboardInterrupt".into())
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

pub struct Executor {
    pub engine: Engine,
    pub out: Outbox,
    pub inbox: Inbox,
    pub input: Rc<Receiver<String>>,
    pub interrupt: Arc<AtomicBool>,
    /// True while a cell runs: interrupts arriving between cells are ignored.
    pub executing: Arc<AtomicBool>,
    pub count: u32,
    pub history: History,
    /// Requests pulled off the queue while aborting, to handle next.
    pending: VecDeque<Incoming>,
}

impl Executor {
    pub fn new(
        engine: Engine,
        out: Outbox,
        inbox: Inbox,
        input: Receiver<String>,
        interrupt: Arc<AtomicBool>,
        executing: Arc<AtomicBool>,
    ) -> Executor {
        Executor {
            engine,
            out,
            inbox,
            input: Rc::new(input),
            interrupt,
            executing,
            count: 0,
            history: History::default(),
            pending: VecDeque::new(),
        }
    }

    /// Serve requests until the shell task goes away.
    pub fn run(mut self) {
        loop {
            let next = match self.pending.pop_front() {
                Some(m) => m,
                None => match self.inbox.recv() {
                    Some(m) => m,
                    None => return,
                },
            };
            let req = next.msg;
            self.out.status(&req, "busy");
            // Cells are guarded inside execute(); this catches a bug in completion,
            // inspection or history so the thread, and the session, keep going.
            if let Err(p) = catch_unwind(AssertUnwindSafe(|| self.handle(&req))) {
                let msg = panic_message(&*p);
                crate::protocol::log(format!("internal error handling {}: {msg}", req.msg_type()));
                let e = ErrorInfo {
                    ename: "InternalError".into(),
                    evalue: msg,
                    traceback: vec![],
                };
                self.out.reply_shell(&req, typed::error_reply(&req.msg, &e));
            }
            self.out.status(&req, "idle");
        }
    }

    /// Dispatch on the typed content (see [`crate::protocol::request`] for the defaults
    /// filled in before parsing).
    fn handle(&mut self, req: &Request) {
        if let Some(e) = &req.content_error {
            return self.unreadable(req, e);
        }
        let p = &req.msg;
        let reply = match req.content() {
            C::ExecuteRequest(c) => return self.execute(req, c),
            C::KernelInfoRequest(_) => typed::kernel_info_reply(p, &self.engine.banner()),
            C::CompleteRequest(c) => self.complete(req, c),
            C::InspectRequest(c) => self.inspect(req, c),
            C::IsCompleteRequest(IsCompleteRequest { code }) => {
                typed::is_complete_reply(p, self.engine.is_complete(code))
            }
            C::HistoryRequest(h) => typed::history_reply(p, self.history.query(h)),
            C::CommInfoRequest(_) => typed::comm_info_reply(p),
            C::CommOpen(c) => {
                // No comm targets exist: close it at once, as the spec asks.
                let m = typed::comm_close(p, c.comm_id.clone());
                self.out.publish(Some(req), m);
                return;
            }
            C::CommMsg(_) | C::CommClose(_) => return,
            C::ShutdownRequest(c) => {
                // Deprecated on shell since 5.4, still honoured.
                self.out
                    .reply_shell(req, typed::shutdown_reply(p, c.restart));
                self.out
                    .publish(Some(req), typed::shutdown_reply(p, c.restart));
                self.out.status(req, "idle");
                self.out.flush_blocking(&self.out.iopub);
                self.out.flush_blocking(&self.out.shell);
                std::process::exit(0);
            }
            _ => {
                crate::protocol::log(format!(
                    "unknown shell message type {:?}; ignored",
                    req.msg_type()
                ));
                return;
            }
        };
        self.out.reply_shell(req, reply);
    }

    /// A request whose content frame could not be read still gets its reply: for an
    /// execute_request the error that CPython raises for such text, shown and counted as a
    /// cell's error; for other requests an error reply. Queued cells still run: whether the
    /// client asked for stop_on_error was in the content that could not be read.
    fn unreadable(&mut self, req: &Request, problem: &ContentError) {
        let (ename, evalue) = problem.python_error();
        let e = ErrorInfo {
            ename: ename.into(),
            traceback: vec![format!("{ename}: {evalue}")],
            evalue,
        };
        if req.msg_type() != "execute_request" {
            self.out.reply_shell(req, typed::error_reply(&req.msg, &e));
            return;
        }
        self.count += 1;
        self.out.publish(Some(req), typed::error(&req.msg, &e));
        let reply = typed::execute_reply(&req.msg, self.count, Some(&e), &json!([]), &json!({}));
        self.out.reply_shell(req, reply);
    }

    fn complete(&mut self, req: &Request, c: &CompleteRequest) -> typed::Outgoing {
        let len = c.code.chars().count();
        let comp = self.engine.complete(&c.code, c.cursor_pos.min(len));
        let types: Vec<Json> = comp
            .types
            .iter()
            .map(|(text, ty)| {
                json!({"start": comp.cursor_start, "end": comp.cursor_end, "text": text, "type": ty, "signature": ""})
            })
            .collect();
        let mut metadata = Map::new();
        metadata.insert("_jupyter_types_experimental".into(), Json::Array(types));
        typed::complete_reply(
            &req.msg,
            comp.matches,
            comp.cursor_start,
            comp.cursor_end,
            metadata,
        )
    }

    fn inspect(&mut self, req: &Request, c: &InspectRequest) -> typed::Outgoing {
        let len = c.code.chars().count();
        let level = c.detail_level.unwrap_or(0).min(1) as u8;
        let data = self.engine.inspect(&c.code, c.cursor_pos.min(len), level);
        typed::inspect_reply(&req.msg, data.as_ref())
    }

    /// From here on an interrupt_request or SIGINT stops the cell; a stale one is forgotten.
    fn arm_interrupt(&self) {
        self.interrupt.store(false, Ordering::SeqCst);
        crate::arrays::memory_guard::forget();
        self.executing.store(true, Ordering::SeqCst);
    }

    /// Run one cell under catch_unwind: a panic becomes an InternalError, the session lives.
    /// `shown` gets the cell's own result or error before the end-of-cell hooks run.
    fn run_cell(
        &mut self,
        req: &ExecuteRequest<'_>,
        fe: Box<dyn Frontend>,
        shown: &mut dyn FnMut(&crate::engine::ExecuteOutcome),
    ) -> crate::engine::ExecuteOutcome {
        if !self.executing.load(Ordering::SeqCst) {
            self.arm_interrupt();
        }
        let r = catch_unwind(AssertUnwindSafe(|| {
            self.engine.execute_shown(req, fe, shown)
        }));
        self.executing.store(false, Ordering::SeqCst);
        // An interrupt that arrived too late to stop this cell must not hit the next one.
        self.interrupt.store(false, Ordering::SeqCst);
        r.unwrap_or_else(|p| crate::engine::ExecuteOutcome {
            error: Some(internal_error(&panic_message(&*p))),
            ..Default::default()
        })
    }

    fn execute(&mut self, req: &Request, c: &ExecuteContent) {
        let code = c.code.clone();
        let silent = c.silent;
        let store_history = c.store_history && !silent;
        let allow_stdin = c.allow_stdin;
        let stop_on_error = c.stop_on_error;
        if store_history {
            self.count += 1;
        }
        let count = self.count;
        // Armed before execute_input goes out: a client that interrupts as soon as it sees
        // the cell start must not find the kernel still "between cells" and be ignored.
        self.arm_interrupt();
        if !silent {
            self.out
                .publish(Some(req), typed::execute_input(&req.msg, &code, count));
        }
        let fe = Box::new(WireFrontend {
            out: self.out.clone(),
            parent: req.clone(),
            silent,
            allow_stdin,
            input: self.input.clone(),
            interrupt: self.interrupt.clone(),
        });
        let ereq = ExecuteRequest {
            code: &code,
            silent,
            store_history,
            allow_stdin,
            execution_count: count,
        };
        // Only a client with a person at it gets the progress display: see cell_progress.
        let progress = (!silent && allow_stdin)
            .then(|| CellProgress::start(self.out.clone(), req.clone(), count));
        // The result and the code's own error go out as soon as the code is done, before
        // the end-of-cell hooks draw pyplot's figures (IPython's order).
        let mut result_text = None;
        let mut shown_error = false;
        let (out, parent) = (self.out.clone(), req.clone());
        let outcome = self.run_cell(&ereq, fe, &mut |o| {
            if silent {
                return;
            }
            if let Some((data, md)) = &o.result {
                result_text = data
                    .get("text/plain")
                    .and_then(Json::as_str)
                    .map(String::from);
                out.publish(
                    Some(&parent),
                    typed::execute_result(&parent.msg, count, data, md),
                );
            }
            if let Some(e) = &o.error {
                out.publish(Some(&parent), typed::error(&parent.msg, e));
                shown_error = true;
            }
        });
        if let Some(p) = progress {
            p.finish();
        }
        if store_history {
            self.history.record(count, &code, result_text);
        }
        let reply = match &outcome.error {
            Some(e) => {
                if !silent && !shown_error {
                    self.out.publish(Some(req), typed::error(&req.msg, e));
                }
                typed::execute_reply(&req.msg, count, Some(e), &json!([]), &json!({}))
            }
            None => {
                let ue = self.user_expressions(c.user_expressions.as_ref(), count);
                typed::execute_reply(&req.msg, count, None, &json!(outcome.payload), &ue)
            }
        };
        self.out.reply_shell(req, reply);
        if outcome.error.is_some() && stop_on_error {
            self.abort_queued();
        }
    }

    /// Evaluate `user_expressions` quietly after a successful cell.
    fn user_expressions(
        &mut self,
        exprs: Option<&std::collections::HashMap<String, String>>,
        count: u32,
    ) -> Json {
        let mut out = Map::new();
        let Some(exprs) = exprs else {
            return Json::Object(out);
        };
        for (name, code) in exprs {
            let req = ExecuteRequest {
                code,
                silent: false,
                store_history: false,
                allow_stdin: false,
                execution_count: count,
            };
            let o = self.run_cell(&req, Box::new(NullFrontend), &mut |_| {});
            let v = match (o.error, o.result) {
                (Some(e), _) => {
                    let mut v = error_content(&e);
                    v["status"] = json!("error");
                    v
                }
                (None, Some((data, md))) => json!({"status": "ok", "data": data, "metadata": md}),
                (None, None) => {
                    json!({"status": "ok", "data": {"text/plain": "None"}, "metadata": {}})
                }
            };
            out.insert(name.clone(), v);
        }
        Json::Object(out)
    }

    /// After an error with stop_on_error, answer the execute_requests already queued with
    /// `{"status": "aborted"}` without running them, exactly as ipykernel does (JupyterLab
    /// then leaves those cells without an execution count). Other requests queued
    /// meanwhile are still served, in order.
    fn abort_queued(&mut self) {
        // What has reached the socket by now counts as queued, as in ipykernel.
        self.inbox.settle();
        let cutoff = Instant::now();
        let mut keep = VecDeque::new();
        let mut queued: Vec<Incoming> = self.pending.drain(..).collect();
        while let Some(m) = self.inbox.try_recv() {
            queued.push(m);
        }
        for inc in queued {
            if inc.msg.msg_type() == "execute_request" && inc.received <= cutoff {
                let req = &inc.msg;
                self.out.status(req, "busy");
                self.out.reply_shell(req, typed::aborted_reply(&req.msg));
                self.out.status(req, "idle");
            } else {
                keep.push_back(inc);
            }
        }
        self.pending = keep;
    }
}

pub fn error_content(e: &ErrorInfo) -> Json {
    json!({"ename": e.ename, "evalue": e.evalue, "traceback": e.traceback})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::wire::Signer;
    use tokio::sync::mpsc::unbounded_channel;

    /// A frontend that panics when the cell prints: stands in for any bug below the cell.
    struct Exploding;
    impl Frontend for Exploding {
        fn stream(&mut self, _: StreamName, _: &str) {
            panic!("frontend exploded");
        }
        fn display(
            &mut self,
            _: Map<String, Json>,
            _: Map<String, Json>,
            _: Option<&str>,
            _: bool,
        ) {
        }
        fn clear_output(&mut self, _: bool) {}
        fn input(&mut self, _: &str, _: bool) -> Result<String, String> {
            Err("no".into())
        }
    }

    fn executor() -> Executor {
        let interrupt = Arc::new(AtomicBool::new(false));
        let out = Outbox {
            session: "s".into(),
            signer: Arc::new(Signer::new("k")),
            iopub: unbounded_channel().0,
            shell: unbounded_channel().0,
            stdin: unbounded_channel().0,
            driver: None,
        };
        let (_tx, rx) = unbounded_channel();
        let (_itx, irx) = std::sync::mpsc::channel();
        Executor::new(
            Engine::new(interrupt.clone()),
            out,
            Inbox::new(rx, None),
            irx,
            interrupt,
            Arc::new(AtomicBool::new(false)),
        )
    }

    fn req(code: &str) -> ExecuteRequest<'_> {
        ExecuteRequest {
            code,
            silent: false,
            store_history: true,
            allow_stdin: false,
            execution_count: 1,
        }
    }

    #[test]
    fn a_panic_in_a_cell_is_an_internal_error_and_state_survives() {
        let mut ex = executor();
        assert!(ex
            .run_cell(&req("x = 5"), Box::new(NullFrontend), &mut |_| {})
            .error
            .is_none());
        let o = ex.run_cell(&req("print('boom')"), Box::new(Exploding), &mut |_| {});
        let e = o.error.expect("the panic became an error");
        assert_eq!(e.ename, "InternalError");
        assert!(e.evalue.contains("frontend exploded"), "{}", e.evalue);
        assert!(!e.traceback.is_empty());
        let o = ex.run_cell(&req("x + 1"), Box::new(NullFrontend), &mut |_| {});
        assert!(o.error.is_none(), "{:?}", o.error);
        let (data, _) = o.result.expect("a result");
        assert_eq!(data["text/plain"], "6");
        assert!(!ex.executing.load(Ordering::SeqCst));
    }
}
