//! A session: the interpreter plus the cell-level protocol (execution counts, last-expression
//! results, completion, inspection).
//!
//! Placeholder until the interpreter lands: it understands `print("...")` lines, bare
//! literals as results, and raises NameError for anything else, so the wire can be tested.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde_json::{Map, Value as Json};

use crate::engine::{Completeness, Completion, ErrorInfo, ExecuteOutcome, ExecuteRequest};
use crate::language::runtime::{Frontend, NullFrontend, Runtime, StreamName};

pub struct Session {
    rt: Runtime,
}

impl Session {
    pub fn new(interrupt: Arc<AtomicBool>) -> Session {
        Session {
            rt: Runtime::new(Box::new(NullFrontend), interrupt),
        }
    }

    pub fn execute(
        &mut self,
        req: &ExecuteRequest<'_>,
        frontend: Box<dyn Frontend>,
    ) -> ExecuteOutcome {
        self.rt.frontend = frontend;
        self.rt.begin_cell(req.execution_count);
        let mut outcome = ExecuteOutcome::default();
        for line in req.code.lines() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(rest) = line
                .strip_prefix("print(")
                .and_then(|r| r.strip_suffix(')'))
            {
                let text = rest.trim_matches(|c| c == '"' || c == '\'');
                self.rt
                    .frontend
                    .stream(StreamName::Stdout, &format!("{text}\n"));
            } else if line.parse::<i64>().is_ok() {
                let mut data = Map::new();
                data.insert("text/plain".into(), Json::String(line.to_string()));
                outcome.result = Some((data, Map::new()));
            } else {
                outcome.error = Some(ErrorInfo {
                    ename: "NameError".into(),
                    evalue: format!("name '{line}' is not defined"),
                    traceback: vec![format!("NameError: name '{line}' is not defined")],
                });
                break;
            }
        }
        self.rt.frontend = Box::new(NullFrontend);
        outcome
    }

    pub fn complete(&mut self, _code: &str, cursor_pos: usize) -> Completion {
        Completion {
            cursor_start: cursor_pos,
            cursor_end: cursor_pos,
            ..Default::default()
        }
    }

    pub fn inspect(
        &mut self,
        _code: &str,
        _cursor_pos: usize,
        _detail: u8,
    ) -> Option<Map<String, Json>> {
        None
    }

    pub fn is_complete(&self, _code: &str) -> Completeness {
        Completeness::Unknown
    }

    pub fn banner(&self) -> String {
        format!(
            "nbcuda {} — Numba CUDA memory management, on the embedded CPU device",
            env!("CARGO_PKG_VERSION")
        )
    }

    pub fn reset(&mut self) {}
}
