//! `nbcuda run`: execute a notebook in-process, with no sockets, and write the executed
//! copy. Outputs are what nbclient would store from this kernel's IOPub messages: one
//! output per stream message (no coalescing), `display_data`, `execute_result` with its
//! execution count, `error` with its traceback; `clear_output` (with `wait`) and
//! `update_display_data` (by display id, across cells) are honoured.

use std::cell::RefCell;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde_json::{json, Map, Value as Json};

use crate::engine::{Engine, ErrorInfo, ExecuteRequest};
use crate::protocol::progress::{CellStatus, Progress};
use crate::py::runtime::{Frontend, StreamName};

pub struct RunOptions {
    pub input: PathBuf,
    pub output: Option<PathBuf>,
    pub allow_errors: bool,
}

#[derive(Debug, Default)]
pub struct RunSummary {
    pub output: PathBuf,
    pub cells_run: usize,
    /// A cell raised and errors were not allowed: the run stopped there.
    pub failed: bool,
}

/// Where `nbcuda run NB` writes when `-o` is not given: `NB.executed.ipynb` beside it.
pub fn default_output(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "notebook".into());
    input.with_file_name(format!("{stem}.executed.ipynb"))
}

/// The cells' outputs while they run, shared between the runner and the frontend.
#[derive(Default)]
struct Outputs {
    cells: Vec<Json>,
    current: usize,
    /// display_id → (cell, output index) of every output carrying it.
    display_ids: HashMap<String, Vec<(usize, usize)>>,
    /// `clear_output(wait=True)` seen: clear when the next output arrives.
    clear_pending: bool,
}

impl Outputs {
    fn outputs(&mut self, cell: usize) -> &mut Vec<Json> {
        let c = &mut self.cells[cell];
        if !c["outputs"].is_array() {
            c["outputs"] = json!([]);
        }
        // invariant: set to an array just above when it was not one
        c["outputs"].as_array_mut().expect("outputs is an array")
    }

    fn clear_now(&mut self) {
        let cur = self.current;
        self.outputs(cur).clear();
        // nbclient forgets the cleared cell's display ids.
        for v in self.display_ids.values_mut() {
            v.retain(|(c, _)| *c != cur);
        }
        self.clear_pending = false;
    }

    fn push(&mut self, output: Json, display_id: Option<&str>) {
        if self.clear_pending {
            self.clear_now();
        }
        let cur = self.current;
        let outs = self.outputs(cur);
        outs.push(output);
        let idx = outs.len() - 1;
        if let Some(id) = display_id {
            self.display_ids
                .entry(id.to_string())
                .or_default()
                .push((cur, idx));
        }
    }

    fn update(&mut self, id: &str, data: &Map<String, Json>, metadata: &Map<String, Json>) {
        let targets = self.display_ids.get(id).cloned().unwrap_or_default();
        for (cell, idx) in targets {
            if let Some(out) = self.outputs(cell).get_mut(idx) {
                out["data"] = Json::Object(split_bundle(data));
                out["metadata"] = Json::Object(metadata.clone());
            }
        }
    }
}

/// The frontend `nbcuda run` gives the engine: appends nbformat outputs.
struct NotebookFrontend(Rc<RefCell<Outputs>>);

impl Frontend for NotebookFrontend {
    fn stream(&mut self, name: StreamName, text: &str) {
        if text.is_empty() {
            return;
        }
        let mut o = self.0.borrow_mut();
        // The kernel merges back-to-back text of one stream into one message (see
        // protocol::outbox::Out::Stream); do the same so both write the same outputs.
        if !o.clear_pending {
            let cur = o.current;
            if let Some(last) = o.outputs(cur).last_mut() {
                if last["output_type"] == "stream" && last["name"] == name.as_str() {
                    let mut joined = json_text(&last["text"]);
                    joined.push_str(text);
                    last["text"] = split_lines(&joined);
                    return;
                }
            }
        }
        let out =
            json!({"output_type": "stream", "name": name.as_str(), "text": split_lines(text)});
        o.push(out, None);
    }

    fn display(
        &mut self,
        data: Map<String, Json>,
        metadata: Map<String, Json>,
        display_id: Option<&str>,
        update: bool,
    ) {
        let mut o = self.0.borrow_mut();
        match (update, display_id) {
            // An update only replaces earlier outputs; it adds none (as in nbclient).
            (true, Some(id)) => o.update(id, &data, &metadata),
            (true, None) => {}
            (false, _) => {
                let out = json!({
                    "output_type": "display_data",
                    "data": Json::Object(split_bundle(&data)),
                    "metadata": Json::Object(metadata),
                });
                o.push(out, display_id);
            }
        }
    }

    fn clear_output(&mut self, wait: bool) {
        let mut o = self.0.borrow_mut();
        if wait {
            o.clear_pending = true;
        } else {
            o.clear_now();
        }
    }

    fn input(&mut self, _prompt: &str, _password: bool) -> Result<String, String> {
        // nbclient runs with allow_stdin=False; so does `nbcuda run`.
        Err("input() is not available when a notebook runs headless (nbcuda run)".into())
    }
}

/// A string or list-of-lines field as one string.
fn json_text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Array(a) => a.iter().filter_map(Json::as_str).collect(),
        _ => String::new(),
    }
}

/// nbformat stores multi-line strings as lists of lines (each keeping its "\n").
pub fn split_lines(text: &str) -> Json {
    let mut lines: Vec<Json> = text
        .split_inclusive('\n')
        .map(|l| Json::String(l.to_string()))
        .collect();
    if lines.len() == 1 {
        lines.pop().unwrap_or_default()
    } else {
        Json::Array(lines)
    }
}

/// Split the text-like values of a MIME bundle as nbformat does on write; JSON and
/// base64 images stay as they are.
pub fn split_bundle(data: &Map<String, Json>) -> Map<String, Json> {
    data.iter()
        .map(|(k, v)| {
            let splittable = !k.starts_with("application/json")
                && !k.ends_with("+json")
                && (k.starts_with("text/")
                    || k == "application/javascript"
                    || k == "image/svg+xml");
            let v = match (splittable, v) {
                (true, Json::String(s)) => split_lines(s),
                _ => v.clone(),
            };
            (k.clone(), v)
        })
        .collect()
}

/// A cell's source as one string (nbformat allows a string or a list of lines).
pub fn cell_source(cell: &Json) -> String {
    match &cell["source"] {
        Json::String(s) => s.clone(),
        Json::Array(lines) => lines.iter().filter_map(Json::as_str).collect(),
        _ => String::new(),
    }
}

fn cell_tags(cell: &Json) -> Vec<String> {
    cell["metadata"]["tags"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

/// The error output (and IOPub `error` content) for an engine error.
pub fn error_output(e: &ErrorInfo) -> Json {
    json!({"output_type": "error", "ename": e.ename, "evalue": e.evalue, "traceback": e.traceback})
}

/// Turn a panic payload into its message.
pub fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// The error a panic inside a cell becomes: the session survives it.
pub fn internal_error(message: &str) -> ErrorInfo {
    ErrorInfo {
        ename: "InternalError".into(),
        evalue: message.to_string(),
        traceback: vec![
            format!("InternalError: {message}"),
            "nbcuda hit a bug while running this cell; the session's variables are kept. \
             Please report it with the cell's code."
                .into(),
        ],
    }
}

/// Serialise a notebook the way nbformat writes it (1-space indent, sorted keys).
pub fn notebook_to_string(nb: &Json) -> Result<String> {
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b" ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    serde::Serialize::serialize(nb, &mut ser)?;
    let mut s = String::from_utf8(buf)?;
    s.push('\n');
    Ok(s)
}

/// Execute the notebook at `opts.input` and write the executed copy. Cells run on a
/// thread with the same large stack as the kernel's execution thread, so deep user code
/// behaves the same headless and in Jupyter.
pub fn run_notebook(opts: &RunOptions) -> Result<RunSummary> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("nbcuda-run".into())
            .stack_size(crate::protocol::server::EXEC_STACK)
            .spawn_scoped(s, || run_notebook_here(opts))
            .context("cannot start the execution thread")?
            .join()
            .unwrap_or_else(|p| bail!("nbcuda run crashed: {}", panic_message(&*p)))
    })
}

fn run_notebook_here(opts: &RunOptions) -> Result<RunSummary> {
    let text = std::fs::read_to_string(&opts.input)
        .with_context(|| format!("cannot read notebook {}", opts.input.display()))?;
    let mut nb: Json = serde_json::from_str(&text)
        .with_context(|| format!("{} is not valid notebook JSON", opts.input.display()))?;
    if nb["nbformat"].as_u64() != Some(4) {
        bail!(
            "{} is not an nbformat 4 notebook (convert it with `jupyter nbconvert --to notebook`)",
            opts.input.display()
        );
    }
    let Some(cells) = nb["cells"].as_array().cloned() else {
        bail!("{} has no \"cells\" list", opts.input.display());
    };
    let output = opts
        .output
        .clone()
        .unwrap_or_else(|| default_output(&opts.input));

    let interrupt = Arc::new(AtomicBool::new(false));
    // Ctrl-C interrupts the running cell; a second Ctrl-C before it stops exits.
    let _ = signal_hook::flag::register_conditional_shutdown(
        signal_hook::consts::SIGINT,
        130,
        interrupt.clone(),
    );
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, interrupt.clone());
    let mut engine = Engine::new(interrupt.clone());

    let code_cells: Vec<usize> = (0..cells.len())
        .filter(|&i| cells[i]["cell_type"] == "code")
        .collect();
    let state = Rc::new(RefCell::new(Outputs {
        cells,
        ..Outputs::default()
    }));
    let mut progress = Progress::new(code_cells.len());
    let mut summary = RunSummary {
        output: output.clone(),
        ..RunSummary::default()
    };
    let mut count = 0u32;
    for &i in &code_cells {
        let (source, tags) = {
            let st = state.borrow();
            (cell_source(&st.cells[i]), cell_tags(&st.cells[i]))
        };
        // Like nbclient: blank and skip-execution cells are not run.
        if source.trim().is_empty() || tags.iter().any(|t| t == "skip-execution") {
            progress.cell(i, &source, CellStatus::Skipped, Default::default());
            continue;
        }
        {
            let mut st = state.borrow_mut();
            st.current = i;
            st.clear_pending = false;
            st.outputs(i).clear();
            for v in st.display_ids.values_mut() {
                v.retain(|(c, _)| *c != i);
            }
        }
        count += 1;
        let started = Instant::now();
        let busy = now();
        let req = ExecuteRequest {
            code: &source,
            silent: false,
            store_history: true,
            allow_stdin: false,
            execution_count: count,
        };
        let frontend = Box::new(NotebookFrontend(state.clone()));
        // The result and the code's error are outputs before the end-of-cell hooks'
        // figures, as the kernel publishes them (IPython's order).
        let shown_state = state.clone();
        let mut shown_error = false;
        let mut shown = |o: &crate::engine::ExecuteOutcome| {
            let mut st = shown_state.borrow_mut();
            if let Some((data, md)) = &o.result {
                let out = json!({
                    "output_type": "execute_result",
                    "execution_count": count,
                    "data": Json::Object(split_bundle(data)),
                    "metadata": Json::Object(md.clone()),
                });
                st.push(out, None);
            }
            if let Some(e) = &o.error {
                st.push(error_output(e), None);
                shown_error = true;
            }
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            engine.execute_shown(&req, frontend, &mut shown)
        }));
        interrupt.store(false, std::sync::atomic::Ordering::SeqCst);
        let error = match outcome {
            Ok(o) => o.error,
            Err(p) => Some(internal_error(&panic_message(&*p))),
        };
        let reply = now();
        {
            let mut st = state.borrow_mut();
            if let (Some(e), false) = (&error, shown_error) {
                st.push(error_output(e), None);
            }
            let cell = &mut st.cells[i];
            cell["execution_count"] = json!(count);
            if !cell["metadata"].is_object() {
                cell["metadata"] = json!({});
            }
            cell["metadata"]["execution"] = json!({
                "iopub.status.busy": busy,
                "iopub.execute_input": busy,
                "shell.execute_reply": reply,
                "iopub.status.idle": now(),
            });
        }
        summary.cells_run += 1;
        let took = started.elapsed();
        match &error {
            None => progress.cell(i, &source, CellStatus::Ok, took),
            Some(e) => {
                progress.cell(i, &source, CellStatus::Error(&e.ename), took);
                let expected = tags.iter().any(|t| t == "raises-exception");
                if !opts.allow_errors && !expected {
                    progress.finish();
                    eprintln!(
                        "nbcuda run: cell {} raised {}: {}\n{}",
                        i + 1,
                        e.ename,
                        e.evalue,
                        crate::py::error::strip_ansi(&e.traceback.join("\n"))
                    );
                    summary.failed = true;
                    break;
                }
            }
        }
    }
    progress.finish();

    nb["cells"] = Json::Array(std::mem::take(&mut state.borrow_mut().cells));
    nb["metadata"]["language_info"] =
        serde_json::to_value(crate::protocol::kernel_info::language_info()).unwrap_or_default();
    if !nb["metadata"]["kernelspec"].is_object() {
        nb["metadata"]["kernelspec"] = json!({
            "name": crate::protocol::install::KERNEL_NAME,
            "display_name": "nbcuda (Numba CUDA, Rust)",
            "language": "python",
        });
    }
    std::fs::write(&output, notebook_to_string(&nb)?)
        .with_context(|| format!("cannot write {}", output.display()))?;
    eprintln!(
        "nbcuda run: {} cell(s) executed, wrote {}",
        summary.cells_run,
        output.display()
    );
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_lines_keeps_newlines() {
        assert_eq!(split_lines("a\nb\n"), json!(["a\n", "b\n"]));
        assert_eq!(split_lines("a\nb"), json!(["a\n", "b"]));
        assert_eq!(split_lines("one"), json!("one"));
    }

    #[test]
    fn split_bundle_leaves_json_and_png() {
        let mut m = Map::new();
        m.insert("text/plain".into(), json!("x\ny"));
        m.insert("image/png".into(), json!("iVBOR\nw0"));
        m.insert("application/json".into(), json!({"a": 1}));
        let s = split_bundle(&m);
        assert_eq!(s["text/plain"], json!(["x\n", "y"]));
        assert_eq!(s["image/png"], json!("iVBOR\nw0"));
        assert_eq!(s["application/json"], json!({"a": 1}));
    }

    #[test]
    fn default_output_sits_beside_input() {
        assert_eq!(
            default_output(Path::new("/a/b/nb.ipynb")),
            PathBuf::from("/a/b/nb.executed.ipynb")
        );
    }
}
