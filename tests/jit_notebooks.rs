//! The tutorial notebooks on both CPU executors: every code cell's output (text, result,
//! error) with the JIT tier must equal the interpreter's, apart from timings. Alone in its
//! own test binary because it switches the executor for the whole process.

mod common;
use common::Session;

/// `text` with every address blanked (`0x7f...`, or a pointer as a long decimal number):
/// objects live elsewhere in each run.
fn no_addresses(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let (len, hex) = if let Some(digits) = rest.strip_prefix("0x") {
            let n = digits
                .find(|c: char| !c.is_ascii_hexdigit())
                .unwrap_or(digits.len());
            (n + 2, true)
        } else {
            (
                rest.find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len()),
                false,
            )
        };
        if hex || len >= 12 {
            out.push('?');
        } else {
            out.push_str(&rest[..len]);
        }
        rest = &rest[len..];
    }
    out.push_str(rest);
    out
}

/// [`no_addresses`], and lines that report durations blanked.
fn no_timings(text: &str) -> String {
    text.split('\n')
        .map(|l| {
            let timed = [" μs", " ms", " ns", " s)", " s,"]
                .iter()
                .any(|u| l.contains(u));
            if timed {
                "(timed)".to_string()
            } else {
                no_addresses(l)
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text of every code cell's outcome in notebook `name`, timings and addresses blanked.
fn outputs(name: &str) -> Vec<(String, String)> {
    let path = format!("{}/notebooks/{name}.ipynb", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let nb: serde_json::Value = serde_json::from_str(&text).expect("notebook JSON");
    let mut s = Session::new();
    let mut out = Vec::new();
    for cell in nb["cells"].as_array().expect("cells") {
        if cell["cell_type"] != "code" {
            continue;
        }
        let src: String = match &cell["source"] {
            serde_json::Value::Array(lines) => lines.iter().filter_map(|l| l.as_str()).collect(),
            serde_json::Value::String(s) => s.clone(),
            _ => String::new(),
        };
        let c = s.run(&src);
        let timed = src.contains("time") || src.contains("%%timeline");
        let shown = if timed {
            String::from("(timed)")
        } else {
            no_timings(&format!(
                "{}|{:?}|{:?}|{}",
                c.out.stdout,
                c.result(),
                c.ename(),
                c.evalue()
            ))
        };
        out.push((src, shown));
    }
    out
}

#[test]
fn every_notebook_cell_prints_the_same_on_both_executors() {
    for name in [
        "01-memory-management",
        "02-writing-kernels",
        "03-streams-and-pinned-memory",
        "04-shared-memory",
    ] {
        nbcuda::kernel::jit::set_enabled(Some(false));
        let interp = outputs(name);
        nbcuda::kernel::jit::set_enabled(Some(true));
        let jit = outputs(name);
        nbcuda::kernel::jit::set_enabled(None);
        assert_eq!(interp.len(), jit.len());
        for ((src, a), (_, b)) in interp.iter().zip(&jit) {
            assert_eq!(a, b, "{name}: cell differs:\n{src}");
        }
    }
}
