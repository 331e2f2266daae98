//! The tutorial notebooks run in-process, and their tagged cells show the values the lesson
//! promises (computed here by hand or from NumPy semantics, not taken from nbcuda's output).

mod common;
use common::{Cell, Session};
use std::collections::HashMap;

/// Execute a notebook's code cells in order; return the cells that carry a `check-*` tag.
fn run_notebook(name: &str) -> HashMap<String, Cell> {
    let path = format!("{}/notebooks/{name}.ipynb", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let nb: serde_json::Value = serde_json::from_str(&text).expect("notebook JSON");
    let mut s = Session::new();
    let mut checked = HashMap::new();
    for cell in nb["cells"].as_array().expect("cells") {
        if cell["cell_type"] != "code" {
            continue;
        }
        let src: String = match &cell["source"] {
            serde_json::Value::Array(lines) => lines.iter().filter_map(|l| l.as_str()).collect(),
            serde_json::Value::String(s) => s.clone(),
            _ => String::new(),
        };
        let tags: Vec<String> = cell["metadata"]["tags"]
            .as_array()
            .map(|t| {
                t.iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let out = s.run(&src);
        if !tags.iter().any(|t| t == "raises-exception") {
            assert!(
                out.outcome.error.is_none(),
                "{name}: cell failed:\n{src}\n{}",
                out.traceback()
            );
        }
        if let Some(tag) = tags.iter().find(|t| t.starts_with("check-")) {
            checked.insert(tag.clone(), out);
        }
    }
    checked
}

fn has_png(c: &Cell) -> bool {
    c.out.displays.iter().any(|(d, _, _)| {
        d.get("image/png")
            .and_then(|v| v.as_str())
            .is_some_and(|s| s.len() > 100)
    })
}

#[test]
fn memory_management_notebook() {
    let cells = run_notebook("01-memory-management");
    assert_eq!(
        cells["check-inputs"].result().as_deref(),
        Some("(dtype('float32'), array([0., 2., 4., 6.], dtype=float32))")
    );
    let dev = &cells["check-device-array"].out.stdout;
    let lines: Vec<&str> = dev.lines().collect();
    assert!(
        lines[0].starts_with("<numba.cuda.cudadrv.devicearray.DeviceNDArray object at 0x"),
        "{dev}"
    );
    assert_eq!(&lines[1..], &["(5000000,)", "float32"]);
    // The lesson's own line: no synchronize, n = 5,000,000, 20 MB results queued faster
    // than they run; it must time, not run out of device memory.
    let lesson = &cells["check-lesson-timeit"].out.stdout;
    assert!(
        lesson.contains(" per loop (mean ± std. dev. of 7 runs, "),
        "{lesson}"
    );
    let ten = "[ 0.  3.  6.  9. 12. 15. 18. 21. 24. 27.]\n";
    assert_eq!(cells["check-out-host"].out.stdout, ten);
    assert_eq!(cells["check-cupy-result"].out.stdout, ten);
    let cai = cells["check-cai"].result().unwrap();
    for part in [
        "{'shape': (5000000,),",
        "'typestr': '<f4',",
        "'descr': [('', '<f4')],",
        "'version': 3,",
        "'strides': None,",
        "'data': (",
    ] {
        assert!(cai.contains(part), "{cai}");
    }
    assert!(cells["check-waveform"]
        .out
        .stdout
        .contains("device result matches the NumPy formula: (100000,) float32"));
    let plot = &cells["check-plot"];
    assert!(
        plot.result()
            .unwrap()
            .starts_with("[<matplotlib.lines.Line2D at 0x"),
        "{:?}",
        plot.result()
    );
    assert!(has_png(plot), "the waveform chart is shown");
    assert!(has_png(&cells["check-timeline-host"]) && has_png(&cells["check-timeline-device"]));
    let ledger = &cells["check-ledger"].out.stdout;
    assert!(
        ledger.contains("H\u{2192}D") && ledger.contains("D\u{2192}H"),
        "{ledger}"
    );
}

#[test]
fn writing_kernels_notebook() {
    let cells = run_notebook("02-writing-kernels");
    assert_eq!(
        cells["check-increment"].out.stdout,
        "[ 1  2  3  4  5  6  7  8  9 10]\n"
    );
    assert!(cells["check-histogram"]
        .out
        .stdout
        .ends_with("matches np.histogram: True\n"));
    let grid2d = &cells["check-2d"].out.stdout;
    assert!(
        grid2d.starts_with("[[ 0. 10. 20. 30. 40. 50. 60.]\n [ 1. 11. 21."),
        "{grid2d}"
    );
    assert_eq!(
        cells["check-device-function"].out.stdout,
        "[0.00443 0.05399 0.24197 0.39894 0.24197 0.05399 0.00443]\n"
    );
    let oob = &cells["check-oob"];
    assert_eq!(oob.ename().as_deref(), Some("IndexError"));
    let msg = oob.evalue();
    assert!(msg.contains("missing_guard") && msg.contains("10"), "{msg}");
}

#[test]
fn streams_notebook() {
    let cells = run_notebook("03-streams-and-pinned-memory");
    assert_eq!(
        cells["check-events"].out.stdout,
        "round trip took more than zero ms: True\ndata survived the round trip: True\n"
    );
    assert!(has_png(&cells["check-overlap"]));
    assert_eq!(
        cells["check-overlap-values"].out.stdout,
        "all chunks correct\n"
    );
}

#[test]
fn shared_memory_notebook() {
    let cells = run_notebook("04-shared-memory");
    assert_eq!(
        cells["check-transpose"].out.stdout,
        "transpose correct: True\n"
    );
    assert_eq!(cells["check-block-sum"].out.stdout, "100000.0\n");
    assert_eq!(cells["check-reduce"].out.stdout, "500500.0 500500.0\n");
}
