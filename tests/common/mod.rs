//! Shared helpers for integration tests: run cells through an Engine and record what a
//! frontend would see.
#![allow(dead_code)]

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use nbcuda::engine::{Engine, ExecuteOutcome, ExecuteRequest};
use nbcuda::py::runtime::{Frontend, StreamName};
use serde_json::{Map, Value as Json};

/// Everything a cell sent to the frontend.
#[derive(Default, Clone, Debug)]
pub struct Recorded {
    pub stdout: String,
    pub stderr: String,
    pub displays: Vec<(Map<String, Json>, Option<String>, bool)>,
    pub clears: usize,
}

struct Recorder(Rc<RefCell<Recorded>>);

impl Frontend for Recorder {
    fn stream(&mut self, name: StreamName, text: &str) {
        let mut r = self.0.borrow_mut();
        match name {
            StreamName::Stdout => r.stdout.push_str(text),
            StreamName::Stderr => r.stderr.push_str(text),
        }
    }
    fn display(
        &mut self,
        data: Map<String, Json>,
        _md: Map<String, Json>,
        id: Option<&str>,
        update: bool,
    ) {
        self.0
            .borrow_mut()
            .displays
            .push((data, id.map(str::to_string), update));
    }
    fn clear_output(&mut self, _wait: bool) {
        self.0.borrow_mut().clears += 1;
    }
    fn input(&mut self, _prompt: &str, _password: bool) -> Result<String, String> {
        Ok("typed".into())
    }
}

/// One executed cell.
pub struct Cell {
    pub out: Recorded,
    pub outcome: ExecuteOutcome,
}

impl Cell {
    /// The `text/plain` of the execute_result.
    pub fn result(&self) -> Option<String> {
        self.outcome
            .result
            .as_ref()
            .and_then(|(d, _)| d.get("text/plain"))
            .and_then(|v| v.as_str())
            .map(str::to_string)
    }
    /// The `text/plain` of the first page payload (what `obj?` shows), empty if none.
    pub fn page_text(&self) -> String {
        self.outcome
            .payload
            .first()
            .and_then(|p| p["data"]["text/plain"].as_str())
            .unwrap_or_default()
            .to_string()
    }
    pub fn ename(&self) -> Option<String> {
        self.outcome.error.as_ref().map(|e| e.ename.clone())
    }
    pub fn evalue(&self) -> String {
        self.outcome
            .error
            .as_ref()
            .map(|e| e.evalue.clone())
            .unwrap_or_default()
    }
    pub fn traceback(&self) -> String {
        self.outcome
            .error
            .as_ref()
            .map(|e| nbcuda::py::error::strip_ansi(&e.traceback.join("\n")))
            .unwrap_or_default()
    }
    #[track_caller]
    pub fn ok(&self) -> &Self {
        assert!(
            self.outcome.error.is_none(),
            "cell failed: {}",
            self.traceback()
        );
        self
    }
}

/// A session for tests.
pub struct Session {
    pub engine: Engine,
    count: u32,
}

impl Session {
    pub fn new() -> Session {
        Session {
            engine: Engine::new(Arc::new(AtomicBool::new(false))),
            count: 0,
        }
    }
    /// A session whose interrupt flag the test holds (as the kernel's SIGINT handler does).
    pub fn with_interrupt(flag: Arc<AtomicBool>) -> Session {
        Session {
            engine: Engine::new(flag),
            count: 0,
        }
    }
    pub fn run(&mut self, code: &str) -> Cell {
        self.count += 1;
        let rec = Rc::new(RefCell::new(Recorded::default()));
        let req = ExecuteRequest {
            code,
            silent: false,
            store_history: true,
            allow_stdin: true,
            execution_count: self.count,
        };
        let outcome = self.engine.execute(&req, Box::new(Recorder(rec.clone())));
        let out = rec.borrow().clone();
        Cell { out, outcome }
    }
    /// Run a cell that must succeed and return its stdout.
    #[track_caller]
    pub fn stdout(&mut self, code: &str) -> String {
        let c = self.run(code);
        c.ok();
        c.out.stdout
    }
    /// Run a cell that must succeed and return its result's text/plain.
    #[track_caller]
    pub fn eval(&mut self, code: &str) -> String {
        let c = self.run(code);
        c.ok();
        c.result().unwrap_or_default()
    }
}

/// What CPython's `repr((expr))` prints, or `Name: message` for the exception it raises:
/// one line per case, so a table of expressions compares against CPython's output.
pub fn outcome(s: &mut Session, expr: &str) -> String {
    let c = s.run(&format!("_r = repr(({expr}))"));
    match c.ename() {
        Some(name) => format!("{name}: {}", c.evalue()),
        None => s.stdout("print(_r, end='')"),
    }
}
