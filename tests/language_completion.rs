//! Completion as IPython's: the expected items below are what IPython 9's completer
//! (Jedi) answers for the same namespace and code — text, type, start and end — and
//! `the_expected_items_are_what_ipython_answers` asks the venv's IPython again so the
//! table cannot drift from the real thing. Paths are relative to the crate root, the
//! working directory of both.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

const SETUP: &str = "import numpy as np\nimport math\nd = {'alpha': 1, 'beta': 2}\n\
                     def f(alpha, beta=2): pass\nzzq_cls = type(np.zeros(1))\n\
                     zzq_obj = np.zeros(3)";

/// An item of a complete_reply: text, type, start, end.
type Item<'a> = (&'a str, &'a str, usize, usize);

/// (code, an item IPython offers there).
const IPYTHON: &[(&str, Item)] = &[
    (
        "zzq_long_name = 1\nzzq_lo",
        ("zzq_long_name", "statement", 18, 24),
    ),
    (
        "for zzq_item in []:\n    zzq_it",
        ("zzq_item", "statement", 24, 30),
    ),
    ("def zzq_fn(): pass\nzzq_f", ("zzq_fn", "function", 19, 24)),
    ("np.ar", ("arange", "function", 3, 5)),
    ("mat", ("math", "module", 0, 3)),
    ("zzq_c", ("zzq_cls", "class", 0, 5)),
    ("np.ndar", ("ndarray", "class", 3, 7)),
    ("class Zq: pass\nZ", ("Zq", "class", 15, 16)),
    ("zzq_o", ("zzq_obj", "instance", 0, 5)),
    ("impo", ("import", "keyword", 0, 4)),
    ("whi", ("while", "keyword", 0, 3)),
    ("f(al", ("alpha=", "param", 2, 4)),
    ("f(al", ("all", "function", 2, 4)),
    ("f(1, be", ("beta=", "param", 5, 7)),
    ("d['", ("alpha", "dict key", 3, 3)),
    ("d['", ("beta", "dict key", 3, 3)),
    ("d[\"", ("beta", "dict key", 3, 3)),
    ("d['al", ("alpha", "dict key", 3, 5)),
    ("d[", ("'alpha'", "dict key", 2, 2)),
    ("open('tes", ("tests/", "path", 6, 9)),
    ("'src/en", ("src/engine/", "path", 1, 7)),
    ("x = 'Cargo.to", ("Cargo.toml", "path", 5, 13)),
];

fn items(s: &mut common::Session, code: &str) -> Vec<(String, String, usize, usize)> {
    let c = s.engine.complete(code, code.chars().count());
    c.types
        .iter()
        .map(|(text, ty)| (text.clone(), ty.clone(), c.cursor_start, c.cursor_end))
        .collect()
}

#[test]
fn completion_items_are_ipythons_with_their_types() {
    let mut s = common::Session::new();
    s.run(SETUP).ok();
    let mut wrong = Vec::new();
    for (code, (text, ty, start, end)) in IPYTHON {
        let got = items(&mut s, code);
        let want = (text.to_string(), ty.to_string(), *start, *end);
        if !got.contains(&want) {
            wrong.push(format!("{code:?}: IPython offers {want:?}; nbcuda {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn inside_strings_only_keys_or_paths_are_offered() {
    let mut s = common::Session::new();
    s.run(SETUP).ok();
    let got = items(&mut s, "d['");
    assert_eq!(got.len(), 2, "{got:?}");
    let got = items(&mut s, "open('zzq_no_such_file");
    assert!(got.is_empty(), "{got:?}");
    // A closed string is not completed as a path.
    let got = items(&mut s, "x = 'tes' + zzq_o");
    assert_eq!(got, [("zzq_obj".into(), "instance".into(), 12, 17)]);
}

#[test]
fn every_item_has_a_type() {
    let mut s = common::Session::new();
    s.run(SETUP).ok();
    for code in ["np.", "", "f(", "%ti", "d['"] {
        let c = s.engine.complete(code, code.chars().count());
        assert_eq!(c.types.len(), c.matches.len(), "{code:?}");
        for (text, ty) in &c.types {
            assert!(
                [
                    "function",
                    "module",
                    "class",
                    "instance",
                    "keyword",
                    "statement",
                    "param",
                    "path",
                    "dict key",
                    "magic"
                ]
                .contains(&ty.as_str()),
                "{code:?}: {text} has type {ty}"
            );
        }
    }
}

#[test]
fn the_expected_items_are_what_ipython_answers() {
    let py = std::env::var("NBCUDA_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = "import json, sys\n\
        from IPython.core.interactiveshell import InteractiveShell\n\
        from IPython.core.completer import provisionalcompleter\n\
        cases = json.load(sys.stdin)\n\
        sh = InteractiveShell.instance()\n\
        sh.run_cell(cases['setup'])\n\
        out = []\n\
        for code in cases['codes']:\n\
        \x20   with provisionalcompleter():\n\
        \x20       cs = sh.Completer.completions(code, len(code))\n\
        \x20       out.append([[c.text, c.type, c.start, c.end] for c in cs])\n\
        print(json.dumps(out))\n";
    let mut child = Command::new(&py)
        .args(["-c", script])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run {py}: {e}; run tests/run.sh (it sets NBCUDA_PYTHON)")
        });
    let codes: Vec<&str> = IPYTHON.iter().map(|c| c.0).collect();
    let input = serde_json::json!({"setup": SETUP, "codes": codes});
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{py} has no IPython; run tests/run.sh"
    );
    let live: Vec<Vec<(String, String, usize, usize)>> =
        serde_json::from_slice(&out.stdout).unwrap();
    for ((code, (text, ty, start, end)), got) in IPYTHON.iter().zip(&live) {
        let want = (text.to_string(), ty.to_string(), *start, *end);
        assert!(got.contains(&want), "{code:?}: IPython answers {got:?}");
    }
}
