//! Imports of modules written in Python (issue 16): what CPython does is compared in
//! tests/python/parity_cells_imports.py; these are the cases a reference kernel cannot
//! share, where nbcuda must not die: a module that imports itself without end, one whose
//! code never ends, and a session that goes on after either.

mod common;
use common::Session;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A fresh folder on sys.path holding `files`.
fn folder(s: &mut Session, tag: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("nbcuda-imports-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, code) in files {
        std::fs::write(dir.join(name), code).unwrap();
    }
    s.stdout(&format!(
        "import sys\nsys.path.append({:?})",
        dir.to_str().unwrap()
    ));
    dir
}

#[test]
fn a_module_reloading_itself_forever_meets_the_recursion_limit() {
    let mut s = Session::new();
    let dir = folder(
        &mut s,
        "reload",
        &[(
            "selfload.py",
            "import importlib, selfload\nimportlib.reload(selfload)\n",
        )],
    );
    let c = s.run("import selfload");
    assert_eq!(
        c.ename().as_deref(),
        Some("RecursionError"),
        "{}",
        c.traceback()
    );
    // The failed module left the cache, so importing it again runs it again.
    let c = s.run("import selfload");
    assert_eq!(c.ename().as_deref(), Some("RecursionError"));
    s.stdout("x = 1");
    assert_eq!(s.eval("x + 1"), "2");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn an_interrupt_ends_a_module_whose_code_never_ends() {
    let flag = Arc::new(AtomicBool::new(false));
    let mut s = Session::with_interrupt(flag.clone());
    let dir = folder(
        &mut s,
        "spin",
        &[("spin.py", "n = 0\nwhile True:\n    n += 1\n")],
    );
    let setter = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            flag.store(true, Ordering::SeqCst);
        })
    };
    let start = Instant::now();
    let c = s.run("import spin");
    setter.join().unwrap();
    assert_eq!(c.ename().as_deref(), Some("KeyboardInterrupt"));
    assert!(start.elapsed() < Duration::from_secs(30));
    flag.store(false, Ordering::SeqCst);
    assert_eq!(s.eval("1 + 1"), "2");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_syntax_error_in_a_module_names_its_file() {
    let mut s = Session::new();
    let dir = folder(
        &mut s,
        "syntax",
        &[("broken_mod.py", "def f(:\n    pass\n")],
    );
    let c = s.run("import broken_mod");
    assert_eq!(c.ename().as_deref(), Some("SyntaxError"));
    assert!(c.traceback().contains("broken_mod.py"), "{}", c.traceback());
    let c = s.run("import broken_mod");
    assert_eq!(c.ename().as_deref(), Some("SyntaxError"));
    std::fs::remove_dir_all(dir).ok();
}
