//! The layering of `src/`: every folder is a layer, and dependencies point down only.
//!
//! ```text
//! protocol → engine → interp → numpy, numba, numba_cuda, cupy, pyplot → device → kernel → gpu → arrays
//! ```
//!
//! `py/` (the value model) is used by everything from `device` up and itself uses only
//! `arrays`. The Python-facing folders may use each other as long as no two of them form a
//! cycle. The test reads every `crate::` path (in `use` lines and inline) and every
//! `super::` path that leaves its folder, ignoring comments, and fails on an arrow the rule
//! forbids or on any cycle between folders, naming file and line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Folders by rank, top first. Folders of equal rank are one layer.
const LAYERS: &[(&str, u32)] = &[
    ("protocol", 0),
    ("engine", 1),
    ("interp", 2),
    ("numpy", 3),
    ("numba", 3),
    ("numba_cuda", 3),
    ("cupy", 3),
    ("pyplot", 3),
    ("device", 4),
    ("kernel", 6),
    ("gpu", 7),
    ("arrays", 8),
];

/// The value model: usable from every layer down to `device`, and using only `arrays`.
const PY: &str = "py";
const PY_LOWEST_USER: u32 = 4;

fn rank(folder: &str) -> Option<u32> {
    LAYERS.iter().find(|(f, _)| *f == folder).map(|(_, r)| *r)
}

/// Why the arrow `from → to` is forbidden, or None when it is allowed.
fn forbidden(from: &str, to: &str) -> Option<String> {
    if from == PY {
        return (to != "arrays").then(|| "py/ may use only arrays/".to_string());
    }
    if to == PY {
        let r = rank(from)?;
        return (r > PY_LOWEST_USER)
            .then(|| format!("{from}/ sits below the value model and may not use py/"));
    }
    let (a, b) = (rank(from)?, rank(to)?);
    (a > b).then(|| format!("{from}/ is below {to}/: arrows point down only"))
}

/// One dependency: the file and line that names another folder.
#[derive(Clone, Debug)]
struct Edge {
    from: String,
    to: String,
    at: String,
}

/// Remove `//` comments (outside string literals) and `/* */` blocks, keeping line breaks.
fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let b = src.as_bytes();
    let (mut i, mut in_str, mut block) = (0, false, 0usize);
    while i < b.len() {
        let c = b[i];
        if block > 0 {
            if c == b'*' && b.get(i + 1) == Some(&b'/') {
                block -= 1;
                i += 2;
                continue;
            }
            if c == b'/' && b.get(i + 1) == Some(&b'*') {
                block += 1;
                i += 2;
                continue;
            }
            if c == b'\n' {
                out.push('\n');
            }
            i += 1;
            continue;
        }
        if in_str {
            if c == b'\\' {
                out.push_str(&src[i..(i + 2).min(src.len())]);
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
            out.push(c as char);
            i += 1;
            continue;
        }
        if c == b'"' && !(i > 0 && b[i - 1] == b'\'' && b.get(i + 1) == Some(&b'\'')) {
            in_str = true;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            block = 1;
            i += 2;
            continue;
        }
        // Non-ASCII bytes only occur inside strings and comments in this crate, but copy
        // whole characters to stay valid UTF-8 either way.
        let ch = src[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The folders a file names. `module` is the file's module path under `src/`.
fn folders_named(
    code: &str,
    module: &[String],
    macros: &BTreeMap<String, String>,
) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let mut rest = line;
        while let Some(p) = rest.find("crate::") {
            let preceded = rest[..p]
                .chars()
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            let after = &rest[p + "crate::".len()..];
            if !preceded {
                if let Some(group) = after.strip_prefix('{') {
                    // `use crate::{a::x, b::y}`: the first segment of each part.
                    let inner = &group[..group.find('}').unwrap_or(group.len())];
                    for part in inner.split(',') {
                        found.push((n + 1, ident_at(part.trim()).to_string()));
                    }
                } else {
                    let seg = ident_at(after).to_string();
                    found.push((n + 1, macros.get(&seg).cloned().unwrap_or(seg)));
                }
            }
            rest = after;
        }
        let mut rest = line;
        while let Some(p) = rest.find("super::") {
            let preceded = rest[..p]
                .chars()
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
            let mut after = &rest[p..];
            let mut ups = 0;
            while let Some(r) = after.strip_prefix("super::") {
                ups += 1;
                after = r;
            }
            if !preceded && ups >= module.len() {
                // Leaves the top folder: names whatever follows at the crate root.
                found.push((n + 1, ident_at(after).to_string()));
            }
            rest = after;
        }
    }
    found
}

fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    if last != "mod.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Every cross-folder dependency of the given files (path relative to `src/`, source).
fn edges(files: &[(std::path::PathBuf, String)]) -> Vec<Edge> {
    // `#[macro_export]` macros live at the crate root but belong to their file's folder.
    let mut macros = BTreeMap::new();
    for (rel, src) in files {
        let folder = rel.iter().next().unwrap().to_string_lossy().into_owned();
        let mut rest = src.as_str();
        while let Some(p) = rest.find("#[macro_export]") {
            rest = &rest[p + 15..];
            if let Some(m) = rest.trim_start().strip_prefix("macro_rules!") {
                macros.insert(ident_at(m.trim_start()).to_string(), folder.clone());
            }
        }
    }
    let mut out = Vec::new();
    for (rel, src) in files {
        if rel.components().count() < 2 {
            continue; // lib.rs and main.rs assemble the crate
        }
        let folder = rel.iter().next().unwrap().to_string_lossy().into_owned();
        let module = module_path(rel);
        for (line, to) in folders_named(&strip_comments(src), &module, &macros) {
            if to != folder && (rank(&to).is_some() || to == PY) {
                out.push(Edge {
                    from: folder.clone(),
                    to,
                    at: format!("src/{}:{line}", rel.display()),
                });
            }
        }
    }
    out
}

/// Cycles between folders (strongly connected components of more than one folder).
fn cycles(edges: &[Edge]) -> Vec<Vec<String>> {
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for e in edges {
        graph.entry(&e.from).or_default().insert(&e.to);
        graph.entry(&e.to).or_default();
    }
    let reach = |start: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![start];
        while let Some(n) = stack.pop() {
            for &m in &graph[n] {
                if seen.insert(m) {
                    stack.push(m);
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&str, BTreeSet<&str>> = graph.keys().map(|&n| (n, reach(n))).collect();
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for &n in graph.keys() {
        if done.contains(n) || !reachable[n].contains(n) {
            continue;
        }
        let scc: Vec<String> = graph
            .keys()
            .filter(|&&m| reachable[n].contains(m) && reachable[m].contains(n))
            .map(|m| m.to_string())
            .collect();
        done.extend(scc.iter().cloned());
        out.push(scc);
    }
    out
}

/// The report of everything wrong with `files`; empty when the layering holds.
fn violations(files: &[(std::path::PathBuf, String)]) -> Vec<String> {
    let edges = edges(files);
    let mut report = Vec::new();
    for e in &edges {
        if let Some(why) = forbidden(&e.from, &e.to) {
            report.push(format!("{}: {} → {}: {why}", e.at, e.from, e.to));
        }
    }
    for scc in cycles(&edges) {
        let inside: Vec<String> = edges
            .iter()
            .filter(|e| scc.contains(&e.from) && scc.contains(&e.to))
            .map(|e| format!("  {} ({} → {})", e.at, e.from, e.to))
            .collect();
        report.push(format!(
            "import cycle between {}:\n{}",
            scc.join(", "),
            inside.join("\n")
        ));
    }
    report
}

fn crate_files() -> Vec<(std::path::PathBuf, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("source file is UTF-8");
            (p.strip_prefix(&src).unwrap().to_path_buf(), text)
        })
        .collect()
}

#[test]
fn every_arrow_points_down_and_no_folders_form_a_cycle() {
    let report = violations(&crate_files());
    assert!(
        report.is_empty(),
        "layering violations:\n{}",
        report.join("\n")
    );
}

/// Files outside `gpu/` that name the foreign CUDA API (as cudarc's own `sys` layer is the
/// only one that touches the driver's symbols).
fn foreign_api_outside_gpu(files: &[(std::path::PathBuf, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, src) in files {
        if rel.starts_with("gpu") {
            continue;
        }
        for (n, line) in strip_comments(src).lines().enumerate() {
            if line.contains("cudarc::") {
                out.push(format!("src/{}:{}", rel.display(), n + 1));
            }
        }
    }
    out
}

#[test]
fn only_the_gpu_folder_calls_cudarc() {
    let outside = foreign_api_outside_gpu(&crate_files());
    assert!(
        outside.is_empty(),
        "cudarc named outside src/gpu/: {outside:?}"
    );
    let planted = vec![
        file("gpu/driver.rs", "use cudarc::driver::CudaContext;\n"),
        file("device/cuda/mod.rs", "// cudarc::driver is wrapped by gpu/\nfn f() { cudarc::driver::sys::is_culib_present(); }\n"),
    ];
    assert_eq!(
        foreign_api_outside_gpu(&planted),
        vec!["src/device/cuda/mod.rs:2"]
    );
}

#[test]
fn every_folder_of_src_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut unplaced = Vec::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() && rank(&name).is_none() && name != PY {
            unplaced.push(name);
        }
    }
    assert!(
        unplaced.is_empty(),
        "folders with no layer in tests/layers.rs: {unplaced:?}"
    );
}

fn file(path: &str, text: &str) -> (std::path::PathBuf, String) {
    (path.into(), text.to_string())
}

#[test]
fn the_check_reports_an_upward_use_with_its_file_and_line() {
    let files = vec![
        file(
            "arrays/elem.rs",
            "use crate::arrays::dtype::DType;\n\nuse crate::engine::Engine;\n",
        ),
        file("engine/mod.rs", "use crate::arrays::elem::x;\n"),
    ];
    let report = violations(&files);
    assert_eq!(report.len(), 2, "{report:#?}");
    assert!(
        report[0].starts_with("src/arrays/elem.rs:3: arrays → engine"),
        "{report:#?}"
    );
    assert!(
        report[1].starts_with("import cycle between arrays, engine"),
        "{report:#?}"
    );
}

#[test]
fn the_check_sees_inline_paths_super_paths_and_groups_but_not_comments() {
    let files = vec![
        file("kernel/ir.rs", "fn f() { crate::py::value::Value::None; }\n"),
        file("gpu/driver.rs", "use super::super::device::api;\n"),
        file("arrays/buffer.rs", "use crate::{dtype::X, interp::ops};\n"),
        file("py/value.rs", "// crate::engine is mentioned here only\n/* crate::numba */ fn g() {}\nconst S: &str = \"// not a comment\"; use crate::cupy::x;\n"),
    ];
    let report = violations(&files);
    let at: Vec<&str> = report
        .iter()
        .map(|r| r.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        at,
        vec![
            "src/kernel/ir.rs:1:",
            "src/gpu/driver.rs:1:",
            "src/arrays/buffer.rs:1:",
            "src/py/value.rs:3:"
        ],
        "{report:#?}"
    );
}

#[test]
fn bindings_may_use_each_other_but_not_in_a_cycle() {
    let ok = vec![file("cupy/mod.rs", "use crate::numba_cuda::interop;\n")];
    assert!(violations(&ok).is_empty());
    let cyclic = vec![
        file("cupy/mod.rs", "use crate::numba_cuda::interop;\n"),
        file(
            "numba_cuda/interop.rs",
            "use crate::cupy::ndarray::CupyArray;\n",
        ),
    ];
    let report = violations(&cyclic);
    assert_eq!(report.len(), 1, "{report:#?}");
    assert!(report[0].contains("import cycle between cupy, numba_cuda"));
}
