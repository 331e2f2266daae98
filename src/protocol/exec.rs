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

use serde_json::{json, Map, Value as Json};

use crate::engine::{Completeness, Engine, ErrorInfo, ExecuteRequest};
use crate::language::runtime::{Frontend, NullFrontend, StreamName};
use crate::protocol::cell_progress::CellProgress;
use crate::protocol::history::History;
use crate::protocol::kernel_info::kernel_info_content;
use crate::protocol::notebook::{internal_error, panic_message};
use crate::protocol::outbox::{reply_type, Out, Outbox};
use crate::protocol::typed;
use crate::protocol::wire::{new_message, Message};

/// A verified shell request and when the shell task received it.
pub struct Incoming {
    pub msg: Message,
    pub received: Instant,
}

/// The IOPub/stdin frontend for one execute_request.
struct WireFrontend {
    out: Outbox,
    parent: Json,
    identities: Vec<bytes::Bytes>,
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
        let transient = match display_id {
            Some(id) => json!({ "display_id": id }),
            None => json!({}),
        };
        if update {
            // update_display_data without an id cannot target anything.
            if display_id.is_some() {
                let c = json!({"data": data, "metadata": metadata, "transient": transient});
                self.out.publish(&self.parent, "update_display_data", c);
            }
        } else {
            let c = json!({"data": data, "metadata": metadata, "transient": transient});
            self.out.publish(&self.parent, "display_data", c);
        }
    }

    fn clear_output(&mut self, wait: bool) {
        if !self.silent {
            self.out
                .publish(&self.parent, "clear_output", json!({ "wait": wait }));
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
        let m = new_message(
            &self.out.session,
            self.identities.clone(),
            &self.parent,
            "input_request",
            json!({"prompt": prompt, "password": password}),
        );
        let _ = self.out.stdin.send(Out::Frames(self.out.signer.encode(&m)));
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
    pub rx: Receiver<Incoming>,
    pub input: Rc<Receiver<String>>,
    pub interrupt: Arc<AtomicBool>,
    /// True while a cell runs: interrupts arriving between cells are ignored.
    pub executing: Arc<AtomicBool>,
    pub count: u32,
    pub history: History,
    /// Requests pulled off the queue while aborting, to handle next.
    pending: VecDeque<Incoming>,
}

fn flag(c: &Json, key: &str, default: bool) -> bool {
    c[key].as_bool().unwrap_or(default)
}

impl Executor {
    pub fn new(
        engine: Engine,
        out: Outbox,
        rx: Receiver<Incoming>,
        input: Receiver<String>,
        interrupt: Arc<AtomicBool>,
        executing: Arc<AtomicBool>,
    ) -> Executor {
        Executor {
            engine,
            out,
            rx,
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
                None => match self.rx.recv() {
                    Ok(m) => m,
                    Err(_) => return,
                },
            };
            let req = next.msg;
            self.out.status(&req.header, "busy");
            // Cells are guarded inside execute(); this catches a bug in completion,
            // inspection or history so the thread, and the session, keep going.
            if let Err(p) = catch_unwind(AssertUnwindSafe(|| self.handle(&req))) {
                let msg = panic_message(&*p);
                eprintln!("[nbcuda] internal error handling {}: {msg}", req.msg_type());
                let reply = json!({"status": "error", "ename": "InternalError",
                                   "evalue": msg, "traceback": []});
                self.out
                    .reply_shell(&req, &reply_type(req.msg_type()), reply);
            }
            self.out.status(&req.header, "idle");
        }
    }

    /// Requests are dispatched on their JSON content, not on jupyter-protocol's typed
    /// requests: those are stricter than what jupyter_client sends (a history search
    /// without `unique` or `n`, an execute without `silent` fail to parse), and such
    /// requests must be served with ipykernel's defaults, not refused.
    fn handle(&mut self, req: &Message) {
        let c = &req.content;
        let t = req.msg_type().to_string();
        let reply = match t.as_str() {
            "execute_request" => return self.execute(req),
            "kernel_info_request" => kernel_info_content(&self.engine.banner()),
            "complete_request" => self.complete(c),
            "inspect_request" => self.inspect(c),
            "is_complete_request" => is_complete(&self.engine, c),
            "history_request" => json!({"status": "ok", "history": self.history.query(c)}),
            "comm_info_request" => json!({"status": "ok", "comms": {}}),
            "comm_open" => {
                // No comm targets exist: close it at once, as the spec asks.
                let id = c["comm_id"].clone();
                self.out.publish(
                    &req.header,
                    "comm_close",
                    json!({"comm_id": id, "data": {}}),
                );
                return;
            }
            "comm_msg" | "comm_close" => return,
            "shutdown_request" => {
                // Deprecated on shell since 5.4, still honoured.
                let restart = flag(c, "restart", false);
                let content = json!({"status": "ok", "restart": restart});
                self.out.reply_shell(req, "shutdown_reply", content.clone());
                self.out.publish(&req.header, "shutdown_reply", content);
                self.out.status(&req.header, "idle");
                Outbox::flush_blocking(&self.out.iopub);
                Outbox::flush_blocking(&self.out.shell);
                std::process::exit(0);
            }
            other => {
                eprintln!("nbcuda: unknown shell message type {other:?}; ignored");
                return;
            }
        };
        self.out.reply_shell(req, &reply_type(&t), reply);
    }

    fn complete(&mut self, c: &Json) -> Json {
        let code = c["code"].as_str().unwrap_or("");
        let len = code.chars().count();
        let pos = c["cursor_pos"]
            .as_u64()
            .map_or(len, |p| (p as usize).min(len));
        let comp = self.engine.complete(code, pos);
        let types: Vec<Json> = comp
            .types
            .iter()
            .map(|(text, ty)| {
                json!({"start": comp.cursor_start, "end": comp.cursor_end, "text": text, "type": ty, "signature": ""})
            })
            .collect();
        json!({
            "status": "ok",
            "matches": comp.matches,
            "cursor_start": comp.cursor_start,
            "cursor_end": comp.cursor_end,
            "metadata": {"_jupyter_types_experimental": types},
        })
    }

    fn inspect(&mut self, c: &Json) -> Json {
        let code = c["code"].as_str().unwrap_or("");
        let len = code.chars().count();
        let pos = c["cursor_pos"]
            .as_u64()
            .map_or(len, |p| (p as usize).min(len));
        let level = c["detail_level"].as_u64().unwrap_or(0).min(1) as u8;
        match self.engine.inspect(code, pos, level) {
            Some(data) => json!({"status": "ok", "found": true, "data": data, "metadata": {}}),
            None => json!({"status": "ok", "found": false, "data": {}, "metadata": {}}),
        }
    }

    /// From here on an interrupt_request or SIGINT stops the cell; a stale one is forgotten.
    fn arm_interrupt(&self) {
        self.interrupt.store(false, Ordering::SeqCst);
        self.executing.store(true, Ordering::SeqCst);
    }

    /// Run one cell under catch_unwind: a panic becomes an InternalError, the session lives.
    fn run_cell(
        &mut self,
        req: &ExecuteRequest<'_>,
        fe: Box<dyn Frontend>,
    ) -> crate::engine::ExecuteOutcome {
        if !self.executing.load(Ordering::SeqCst) {
            self.arm_interrupt();
        }
        let r = catch_unwind(AssertUnwindSafe(|| self.engine.execute(req, fe)));
        self.executing.store(false, Ordering::SeqCst);
        // An interrupt that arrived too late to stop this cell must not hit the next one.
        self.interrupt.store(false, Ordering::SeqCst);
        r.unwrap_or_else(|p| crate::engine::ExecuteOutcome {
            error: Some(internal_error(&panic_message(&*p))),
            ..Default::default()
        })
    }

    fn execute(&mut self, req: &Message) {
        let c = &req.content;
        let code = c["code"].as_str().unwrap_or("").to_string();
        let silent = flag(c, "silent", false);
        let store_history = flag(c, "store_history", !silent) && !silent;
        let allow_stdin = flag(c, "allow_stdin", true);
        let stop_on_error = flag(c, "stop_on_error", true);
        if store_history {
            self.count += 1;
        }
        let count = self.count;
        // Armed before execute_input goes out: a client that interrupts as soon as it sees
        // the cell start must not find the kernel still "between cells" and be ignored.
        self.arm_interrupt();
        if !silent {
            self.out
                .publish_typed(&req.header, &typed::execute_input(&code, count));
        }
        let fe = Box::new(WireFrontend {
            out: self.out.clone(),
            parent: req.header.clone(),
            identities: req.identities.clone(),
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
        let progress =
            (!silent).then(|| CellProgress::start(self.out.clone(), req.header.clone(), count));
        let outcome = self.run_cell(&ereq, fe);
        if let Some(p) = progress {
            p.finish();
        }
        let mut result_text = None;
        if let (Some((data, md)), false) = (&outcome.result, silent) {
            result_text = data
                .get("text/plain")
                .and_then(Json::as_str)
                .map(String::from);
            match typed::execute_result(count, data, md) {
                Some(c) => self.out.publish_typed(&req.header, &c),
                None => self.out.publish(
                    &req.header,
                    "execute_result",
                    json!({"execution_count": count, "data": data, "metadata": md, "transient": {}}),
                ),
            }
        }
        if store_history {
            self.history.record(count, &code, result_text);
        }
        let reply = match &outcome.error {
            Some(e) => {
                if !silent {
                    self.out.publish(&req.header, "error", error_content(e));
                }
                typed::execute_reply(count, Some(e), &json!([]), json!({}))
            }
            None => {
                let ue = self.user_expressions(&c["user_expressions"], count);
                typed::execute_reply(count, None, &json!(outcome.payload), ue)
            }
        };
        self.out.reply_shell(req, "execute_reply", reply);
        if outcome.error.is_some() && stop_on_error {
            self.abort_queued();
        }
    }

    /// Evaluate `user_expressions` quietly after a successful cell.
    fn user_expressions(&mut self, exprs: &Json, count: u32) -> Json {
        let mut out = Map::new();
        let Some(exprs) = exprs.as_object() else {
            return Json::Object(out);
        };
        for (name, expr) in exprs {
            let code = expr.as_str().unwrap_or("");
            let req = ExecuteRequest {
                code,
                silent: false,
                store_history: false,
                allow_stdin: false,
                execution_count: count,
            };
            let o = self.run_cell(&req, Box::new(NullFrontend));
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
    /// an error reply (status "error", ename "ExecutionAborted": the spec deprecated
    /// "aborted" in 5.1 and the official validator rejects it) without running them.
    /// Other requests queued meanwhile are still served, in order.
    fn abort_queued(&mut self) {
        let cutoff = Instant::now();
        let mut keep = VecDeque::new();
        let mut queued: Vec<Incoming> = self.pending.drain(..).collect();
        while let Ok(m) = self.rx.try_recv() {
            queued.push(m);
        }
        for inc in queued {
            if inc.msg.msg_type() == "execute_request" && inc.received <= cutoff {
                let req = &inc.msg;
                self.out.status(&req.header, "busy");
                let reply = json!({
                    "status": "error",
                    "ename": "ExecutionAborted",
                    "evalue": "not run: an earlier cell raised an error (stop_on_error)",
                    "traceback": [],
                    "execution_count": self.count,
                    "user_expressions": {},
                    "payload": [],
                });
                self.out.reply_shell(req, "execute_reply", reply);
                self.out.status(&req.header, "idle");
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

fn is_complete(engine: &Engine, c: &Json) -> Json {
    let code = c["code"].as_str().unwrap_or("");
    match engine.is_complete(code) {
        Completeness::Complete => json!({"status": "complete"}),
        Completeness::Incomplete(indent) => json!({"status": "incomplete", "indent": indent}),
        Completeness::Invalid => json!({"status": "invalid"}),
        Completeness::Unknown => json!({"status": "unknown"}),
    }
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
        };
        let (_tx, rx) = std::sync::mpsc::channel();
        let (_itx, irx) = std::sync::mpsc::channel();
        Executor::new(
            Engine::new(interrupt.clone()),
            out,
            rx,
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
            .run_cell(&req("x = 5"), Box::new(NullFrontend))
            .error
            .is_none());
        let o = ex.run_cell(&req("print('boom')"), Box::new(Exploding));
        let e = o.error.expect("the panic became an error");
        assert_eq!(e.ename, "InternalError");
        assert!(e.evalue.contains("frontend exploded"), "{}", e.evalue);
        assert!(!e.traceback.is_empty());
        let o = ex.run_cell(&req("x + 1"), Box::new(NullFrontend));
        assert!(o.error.is_none(), "{:?}", o.error);
        let (data, _) = o.result.expect("a result");
        assert_eq!(data["text/plain"], "6");
        assert!(!ex.executing.load(Ordering::SeqCst));
    }
}
