//! `is_complete` answers as IPython's `TransformerManager.check_complete`. The table below
//! is IPython 9's output for each cell (regenerated and compared by
//! `the_table_is_what_ipython_answers` when NBCUDA_PYTHON has IPython, as tests/run.sh's
//! venv does), so the kernel is checked against the real thing, not against itself.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use nbcuda::engine::{Completeness, Engine};

/// (cell, IPython's status, IPython's indent in spaces).
const IPYTHON: &[(&str, &str, Option<usize>)] = &[
    ("", "complete", None),
    ("x = 1", "complete", None),
    ("x = 1\n", "complete", None),
    ("def f(x):\n    return x\n", "complete", None),
    ("def f(x):\n    return x", "incomplete", Some(4)),
    ("def f(x):\n    return x\n\n", "complete", None),
    ("def f(x):", "incomplete", Some(4)),
    ("def f(x):\n", "incomplete", Some(4)),
    ("for i in range(3):\n    print(i)", "incomplete", Some(4)),
    ("for i in range(3):\n    print(i)\n", "complete", None),
    ("if x:\n    if y:", "incomplete", Some(8)),
    ("x = (1,", "incomplete", Some(0)),
    ("x = [1,\n  2", "incomplete", Some(2)),
    ("a = 1 +", "invalid", None),
    ("a = 1 + \\", "incomplete", Some(0)),
    ("print('hi'", "incomplete", Some(0)),
    ("x = '''abc", "incomplete", Some(0)),
    ("1 +* 2", "invalid", None),
    (")", "invalid", None),
    ("%timeit x", "complete", None),
    ("%%timeit\nx = 1", "incomplete", Some(0)),
    ("%%timeit\nx = 1\n\n", "complete", None),
    ("class A:\n    def f(self):\n        pass\n", "complete", None),
    ("class A:\n    def f(self):", "incomplete", Some(8)),
    ("try:\n    x = 1\nexcept:", "incomplete", Some(4)),
    ("x = {", "incomplete", Some(0)),
    ("x = {'a':", "incomplete", Some(0)),
    ("  x = 1", "complete", None),
    ("if True:\n    x = 1\nelse:", "incomplete", Some(4)),
    ("def f():\n    return (1,\n", "incomplete", Some(4)),
    ("x = 1;", "complete", None),
    ("import numpy as np\n", "complete", None),
    ("def f(x):\n    return x\n    ", "complete", None),
    ("@decorator", "incomplete", Some(0)),
    ("@decorator\n", "incomplete", Some(0)),
    ("@cuda.jit\ndef k(a):\n    a[0] = 1\n", "complete", None),
    ("for i in range(3):\n", "incomplete", Some(4)),
    ("while True:\n    pass\n", "complete", None),
    ("with open('f') as f:\n    pass\n", "complete", None),
    ("x = 1\n\n", "complete", None),
    ("if x:\n    pass\nelif y:\n    pass\n", "complete", None),
    ("def f(x):\n        return x\n", "complete", None),
    ("def f(x):\n  return x\n", "complete", None),
    ("lambda:", "incomplete", Some(4)),
    ("x = \"abc", "invalid", None),
    ("x = 1 \\\n", "incomplete", Some(0)),
    ("if x:\n    pass\nelse", "invalid", None),
    ("def f(x):\n\treturn x", "incomplete", Some(4)),
    ("x = 1\n  y = 2", "invalid", None),
    ("def f():\n    return (1,\n2)", "incomplete", Some(0)),
    ("def f():\n    x = '''\nabc", "incomplete", Some(0)),
    ("x = (1,\n     2", "incomplete", Some(5)),
    ("!ls 'foo", "complete", None),
    ("x = %time 1", "complete", None),
    ("obj?", "complete", None),
    ("# comment", "complete", None),
    ("def f():\n    # c\n", "incomplete", Some(4)),
    ("if x:\n    pass\n# c", "incomplete", Some(0)),
    ("def f():\n    pass\n  \n", "complete", None),
    ("for x in y: print(x)", "complete", None),
    ("x = [\n", "incomplete", Some(0)),
    ("class A: pass", "complete", None),
    ("  if x:", "incomplete", Some(4)),
    ("  if x:\n      y", "incomplete", Some(4)),
    ("def f(x):\n    return x  # done", "incomplete", Some(4)),
    ("def f():\n    x = 1 + \\\n        2", "incomplete", Some(8)),
    ("\n\nx = 1", "complete", None),
    ("return", "invalid", None),
    ("import", "invalid", None),
    ("x = 1 # c", "complete", None),
    ("if x:  # c", "incomplete", Some(4)),
    ("s = 'a:'", "complete", None),
    ("d = {1:\n2}", "complete", None),
    ("x = f(a)(b", "incomplete", Some(0)),
    ("x = (1))", "invalid", None),
    ("x = (1))\ny = 2", "incomplete", Some(0)),
    ("def f(x):\n    '''doc\n", "incomplete", Some(4)),
    ("if x:\n\n", "incomplete", Some(0)),
    ("if x:\n# c", "incomplete", Some(0)),
    ("import numpy as np\nfrom numba import cuda\n\n@cuda.jit\ndef add(a, b):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += b[i]\n", "complete", None),
    ("x = 1 if y else", "invalid", None),
    ("print(f'{x}')", "complete", None),
    ("x = f'{'", "invalid", None),
    ("def", "invalid", None),
];

fn answer(c: &Completeness) -> (&'static str, Option<usize>) {
    match c {
        Completeness::Complete => ("complete", None),
        Completeness::Incomplete(indent) => ("incomplete", Some(indent.len())),
        Completeness::Invalid => ("invalid", None),
        Completeness::Unknown => ("unknown", None),
    }
}

#[test]
fn is_complete_answers_as_ipython_check_complete() {
    let engine = Engine::new(Arc::new(AtomicBool::new(false)));
    let wrong: Vec<String> = IPYTHON
        .iter()
        .filter_map(|&(code, status, indent)| {
            let got = answer(&engine.is_complete(code));
            (got != (status, indent))
                .then(|| format!("{code:?}: IPython {status} {indent:?}, nbcuda {got:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_issue_s_function_definition_is_complete() {
    let engine = Engine::new(Arc::new(AtomicBool::new(false)));
    assert_eq!(
        engine.is_complete("def f(x):\n    return x\n"),
        Completeness::Complete
    );
    assert_eq!(
        engine.is_complete("def f(x):\n    return x"),
        Completeness::Incomplete("    ".into())
    );
}

#[test]
fn the_table_is_what_ipython_answers() {
    let py = std::env::var("NBCUDA_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = "import json, sys\n\
        from IPython.core.inputtransformer2 import TransformerManager\n\
        t = TransformerManager()\n\
        print(json.dumps([t.check_complete(c) for c in json.load(sys.stdin)]))\n";
    let mut child = Command::new(&py)
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run {py}: {e}; run tests/run.sh (it sets NBCUDA_PYTHON)")
        });
    let cells: Vec<&str> = IPYTHON.iter().map(|c| c.0).collect();
    let input = serde_json::to_string(&cells).unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{py} has no IPython; run tests/run.sh"
    );
    let live: Vec<(String, Option<usize>)> = serde_json::from_slice(&out.stdout).unwrap();
    for (row, (status, indent)) in IPYTHON.iter().zip(&live) {
        assert_eq!((row.1, row.2), (status.as_str(), *indent), "{:?}", row.0);
    }
}
