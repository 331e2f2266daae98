//! IPython magics, help and display.

mod common;
use common::Session;

#[test]
fn timeit_prints_ipython_line() {
    let mut s = Session::new();
    let out = s.stdout("%timeit -n 5 -r 3 sum(range(100))");
    let line = out.lines().last().expect("a timeit line");
    assert!(
        line.contains(" per loop (mean \u{b1} std. dev. of 3 runs, 5 loops each)"),
        "{line}"
    );
    let unit = line.split_whitespace().nth(1).unwrap();
    assert!(["ns", "\u{3bc}s", "ms", "s"].contains(&unit), "{line}");
}

#[test]
fn timeit_calibrates_loops_to_a_power_of_ten() {
    let mut s = Session::new();
    let c = s.run("r = %timeit -o -q x = 1\nr.loops, r.repeat, len(r.timings)");
    c.ok();
    assert_eq!(c.out.stdout, "", "-q prints nothing");
    let res = c.result().unwrap();
    let loops: u64 = res
        .trim_start_matches('(')
        .split(',')
        .next()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(
        loops
            .to_string()
            .trim_start_matches('1')
            .chars()
            .all(|c| c == '0'),
        "{res}"
    );
    assert!(res.ends_with(", 7, 7)"), "{res}");
}

#[test]
fn timeit_times_every_statement_on_the_line() {
    let mut s = Session::new();
    let out = s.stdout(
        "calls = []\n%timeit -n 2 -r 1 calls.append(1); calls.append(2)\nprint(len(calls))",
    );
    assert!(out.ends_with("4\n"), "{out}");
    assert!(out.contains("of 1 run, 2 loops each"), "{out}");
}

#[test]
fn cell_timeit_runs_setup_once_per_run() {
    let mut s = Session::new();
    s.run("shared = [0]").ok();
    let out = s.stdout(
        "%%timeit -n 3 -r 2 setup_runs = shared.append('setup') or [0]\nsetup_runs[0] += 1\nshared[0] += 1",
    );
    assert!(out.contains("of 2 runs, 3 loops each"), "{out}");
    // IPython runs the setup once per run (each run calls its timing function once); the
    // statement ran 2 x 3 times on the user's (shared) list.
    assert_eq!(s.eval("shared"), "[6, 'setup', 'setup']");
}

#[test]
fn timeit_locals_start_fresh_each_run() {
    // Each run is one call of IPython's timing function: the names the statement binds
    // last across that run's loops only (IPython 8 prints [0, 1, 0, 1, 0, 1]), whether the
    // statement runs compiled or, with a setup, in the walker.
    let mut s = Session::new();
    s.run("seen = []").ok();
    s.run("%timeit -q -n 2 -r 3 c = locals().get('c', -1) + 1; seen.append(c)")
        .ok();
    assert_eq!(s.eval("seen"), "[0, 1, 0, 1, 0, 1]");
    s.run("seen = []").ok();
    s.run("%%timeit -q -n 2 -r 3 base = 10\nc = locals().get('c', base) + 1\nseen.append(c)")
        .ok();
    assert_eq!(s.eval("seen"), "[11, 12, 11, 12, 11, 12]");
}

#[test]
fn timeit_bindings_stay_local_to_the_timing() {
    // IPython compiles the timed code into a function: names it binds are locals.
    let mut s = Session::new();
    s.run("x = 'user'\ndata = []").ok();
    s.run("%timeit -n 2 -r 1 x = 5; y = 6; data.append(x)").ok();
    assert_eq!(s.eval("x"), "'user'");
    assert_eq!(s.run("y").ename().as_deref(), Some("NameError"));
    assert_eq!(s.eval("data"), "[5, 5]");
    s.run("%%timeit -n 1 -r 1 z = 1; w = 2\nq = z + w\ndata.append(q)")
        .ok();
    for name in ["z", "w", "q"] {
        assert_eq!(s.run(name).ename().as_deref(), Some("NameError"), "{name}");
    }
    assert_eq!(s.eval("data[-1]"), "3");
    // Reading the user's names works from inside the timed code.
    s.run("%timeit -n 1 -r 1 data.append(x)").ok();
    assert_eq!(s.eval("data[-1]"), "'user'");
}

#[test]
fn timeit_flags_may_be_clustered_or_attached() {
    let mut s = Session::new();
    let c = s.run("r = %timeit -oq -n10 -r3 x = 1\nr.loops, r.repeat, r._precision");
    c.ok();
    assert_eq!(c.out.stdout, "", "-q prints nothing");
    assert_eq!(c.result().as_deref(), Some("(10, 3, 3)"));
    let c = s.run("r = %timeit -qon 4 -r2 -p5 x = 1\nr.loops, r.repeat, r._precision");
    assert_eq!(c.result().as_deref(), Some("(4, 2, 5)"));
    let c = s.run("%timeit -n x 1");
    assert_eq!(c.ename().as_deref(), Some("UsageError"));
    let c = s.run("%timeit -z 1");
    assert_eq!(c.ename().as_deref(), Some("UsageError"));
}

#[test]
fn timeit_warns_before_the_line_when_one_run_is_far_slower() {
    let mut s = Session::new();
    // Only the first run sleeps, so the slowest is thousands of times the fastest.
    let out = s.stdout(
        "import time\ncalls = [0]\ndef f():\n    calls[0] += 1\n    if calls[0] == 1:\n        time.sleep(0.02)\n%timeit -n 1 -r 4 f()",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let ratio: f64 = lines[0]
        .strip_prefix("The slowest run took ")
        .and_then(|r| r.split(' ').next())
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("no warning first in {out}"));
    assert!(ratio > 4.0, "{out}");
    assert!(
        lines[0].ends_with(" times longer than the fastest. This could mean that an intermediate result is being cached."),
        "{out}"
    );
    assert!(lines[1].contains(" per loop (mean "), "{out}");
}

#[test]
fn timeit_precision_sets_significant_digits() {
    let mut s = Session::new();
    let out = s.stdout("r = %timeit -n 3 -r 2 -p 6 -o sum(range(1000))\nprint(repr(r.average))");
    // IPython may print its "slowest run took N times longer" warning before
    // the timing line when the runs vary, so find the lines by what they say.
    let line = out
        .lines()
        .find(|l| l.contains(" per loop "))
        .unwrap_or_else(|| panic!("no timing line in {out:?}"));
    let avg: f64 = out
        .lines()
        .last()
        .and_then(|l| l.parse().ok())
        .unwrap_or_else(|| panic!("no average after the timing line in {out:?}"));
    let (num, unit) = {
        let mut w = line.split(' ');
        (w.next().unwrap_or(""), w.next().unwrap_or(""))
    };
    let scale = match unit {
        "s" => 1.0,
        "ms" => 1e3,
        "\u{3bc}s" => 1e6,
        "ns" => 1e9,
        other => panic!("unit {other} in {line}"),
    };
    let shown: f64 = num.parse().expect("a number");
    let digits = num.chars().filter(|c| c.is_ascii_digit()).count();
    assert!(digits <= 6, "{line}");
    // Six significant digits: the shown mean matches the real one to 1e-5 relative.
    let rel = (shown / scale - avg).abs() / avg;
    assert!(rel < 1e-5, "{line} vs {avg}");
}

#[test]
fn time_magic_prints_cpu_and_wall_and_returns_value() {
    let mut s = Session::new();
    let c = s.run("%time 6 * 7");
    c.ok();
    assert!(
        c.out.stdout.starts_with("CPU times: user "),
        "{}",
        c.out.stdout
    );
    assert!(c.out.stdout.contains("\nWall time: "), "{}", c.out.stdout);
    assert_eq!(c.result().as_deref(), Some("42"));
}

#[test]
fn unknown_magics_are_clear_errors() {
    let mut s = Session::new();
    let c = s.run("%frobnicate");
    assert_eq!(c.ename().as_deref(), Some("UsageError"));
    assert!(c.evalue().contains("%timeit"), "{}", c.evalue());
    // Shell escapes and %%bash run now (tests/language_shell.rs).
    let c = s.run("%%frobnicate\necho hi");
    assert_eq!(c.ename().as_deref(), Some("UsageError"));
    assert!(c.evalue().contains("%%bash"), "{}", c.evalue());
}

#[test]
fn who_whos_reset() {
    let mut s = Session::new();
    s.run("alpha = 1\nbeta = 'x'").ok();
    // IPython's %who: `print(name + '\t', end=' ')` per name, then a newline.
    assert_eq!(s.stdout("%who"), "alpha\t beta\t \n");
    s.run("%reset -f").ok();
    assert_eq!(s.run("alpha").ename().as_deref(), Some("NameError"));
    assert_eq!(s.run("%reset").ename().as_deref(), Some("UsageError"));
}

#[test]
fn help_pages_signature_and_doc() {
    let mut s = Session::new();
    let c = s.run("len?");
    c.ok();
    let page = &c.outcome.payload[0];
    assert_eq!(page["source"], "page");
    let text = page["data"]["text/plain"].as_str().unwrap();
    assert!(text.contains("len(obj, /)"), "{text}");
    let c = s.run("def f(a, b=2):\n    'Adds.'\n    return a + b\n");
    c.ok();
    let c = s.run("f??");
    let text = c.page_text();
    assert!(
        text.contains("f(a, b)") && text.contains("Adds.") && text.contains("return a + b"),
        "{text}"
    );
}

#[test]
fn display_html_and_handles() {
    let mut s = Session::new();
    let c = s.run("from IPython.display import display, HTML, Markdown, clear_output\nh = display(HTML('<b>x</b>'), display_id=True)\nh.update(Markdown('*y*'))\nclear_output(wait=True)");
    c.ok();
    assert_eq!(c.out.displays.len(), 2);
    let (first, id1, upd1) = &c.out.displays[0];
    assert_eq!(first["text/html"], "<b>x</b>");
    assert!(!upd1);
    let (second, id2, upd2) = &c.out.displays[1];
    assert_eq!(second["text/markdown"], "*y*");
    assert!(upd2);
    assert_eq!(id1, id2);
    assert!(id1.is_some());
    assert_eq!(c.out.clears, 1);
}

#[test]
fn completion_names_attributes_magics_and_keywords() {
    let mut s = Session::new();
    s.run("import math\nmy_value = 3\ndef func(alpha, beta=1):\n    return alpha")
        .ok();
    let c = s.engine.complete("my_v", 4);
    assert_eq!(c.matches, vec!["my_value"]);
    assert_eq!((c.cursor_start, c.cursor_end), (0, 4));
    let c = s.engine.complete("math.sq", 7);
    assert_eq!(c.matches, vec!["sqrt"]);
    assert_eq!(c.cursor_start, 5);
    let c = s.engine.complete("%tim", 4);
    assert!(
        c.matches.contains(&"%timeit".to_string()),
        "{:?}",
        c.matches
    );
    assert_eq!(c.cursor_start, 0);
    let c = s.engine.complete("func(be", 7);
    assert!(c.matches.contains(&"beta=".to_string()), "{:?}", c.matches);
}

#[test]
fn is_complete_follows_the_console_rules() {
    use nbcuda::engine::Completeness;
    let s = Session::new();
    assert_eq!(s.engine.is_complete("x = 1"), Completeness::Complete);
    assert!(matches!(
        s.engine.is_complete("for i in range(3):"),
        Completeness::Incomplete(_)
    ));
    assert!(matches!(
        s.engine.is_complete("print(1,"),
        Completeness::Incomplete(_)
    ));
    assert!(matches!(
        s.engine.is_complete("def f():\n    return 1"),
        Completeness::Incomplete(_)
    ));
    assert_eq!(
        s.engine.is_complete("def f():\n    return 1\n\n"),
        Completeness::Complete
    );
    assert_eq!(s.engine.is_complete("x = = 2"), Completeness::Invalid);
}

#[test]
fn inspect_finds_builtins_and_user_functions() {
    let mut s = Session::new();
    let data = s.engine.inspect("print", 5, 0).expect("print is found");
    assert!(data["text/plain"]
        .as_str()
        .unwrap()
        .contains("print(*values"));
    assert!(s.engine.inspect("no_such_thing", 13, 0).is_none());
}

#[test]
fn interrupt_flag_stops_a_loop_and_keeps_state() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let flag = Arc::new(AtomicBool::new(false));
    let mut engine = nbcuda::engine::Engine::new(flag.clone());
    let run = |engine: &mut nbcuda::engine::Engine, code: &str| {
        let req = nbcuda::engine::ExecuteRequest {
            code,
            silent: false,
            store_history: true,
            allow_stdin: false,
            execution_count: 1,
        };
        engine.execute(&req, Box::new(nbcuda::py::runtime::NullFrontend))
    };
    assert!(run(&mut engine, "kept = 7").error.is_none());
    let f2 = flag.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        f2.store(true, Ordering::SeqCst);
    });
    let out = run(&mut engine, "while True:\n    pass");
    t.join().unwrap();
    assert_eq!(
        out.error.as_ref().map(|e| e.ename.as_str()),
        Some("KeyboardInterrupt")
    );
    let out = run(&mut engine, "kept");
    assert_eq!(out.result.unwrap().0["text/plain"], "7");
}

#[test]
fn who_lists_sorted_names_nine_per_line_and_filters_by_type() {
    let mut s = Session::new();
    assert_eq!(s.stdout("%who"), "Interactive namespace is empty.\n");
    s.run("k, j, i, h, g, f, e, d, c, b, a = range(11)\nname = 'x'")
        .ok();
    assert_eq!(
        s.stdout("%who"),
        "a\t b\t c\t d\t e\t f\t g\t h\t i\t \nj\t k\t name\t \n"
    );
    assert_eq!(s.stdout("%who str"), "name\t \n");
    assert_eq!(
        s.stdout("%who float"),
        "No variables match your requested type.\n"
    );
}

#[test]
fn whos_table_is_ipythons() {
    // IPython's layout: columns padded to the longest entry + 3, a space before Data/Info,
    // dashes over all three, `n=len` for list/tuple/dict, a shape summary for arrays.
    let mut s = Session::new();
    s.run("import numpy as np\nalpha = 1\nitems = [1, 2, 3]\npair = (1, 2)\nm = np.zeros((2, 3))\nbig = np.zeros(20000)\ntext = 'y' * 60\nv = np.arange(3, dtype=np.int32)")
        .ok();
    let expected = [
        "Variable   Type       Data/Info",
        "-------------------------------",
        "alpha      int        1",
        "big        ndarray    20000: 20000 elems, type `float64`, 160000 bytes (156.25 kb)",
        "items      list       n=3",
        "m          ndarray    2x3: 6 elems, type `float64`, 48 bytes",
        "np         module     <module 'numpy'>",
        "pair       tuple      n=2",
        "text       str        yyyyyyyyyyyyyyyyyyyyyyyyy<...>yyyyyyyyyyyyyyyyyyyyyyyyy",
        "v          ndarray    3: 3 elems, type `int32`, 12 bytes",
    ];
    let out = s.stdout("%whos");
    let lines: Vec<&str> = out.lines().collect();
    for (i, want) in expected.iter().enumerate() {
        if i == 6 {
            // The module's str is nbcuda's own (no file path); only check the type column.
            assert!(
                lines[i].starts_with("np         module     <module 'numpy'"),
                "{out}"
            );
            continue;
        }
        assert_eq!(lines.get(i).copied(), Some(*want), "{out}");
    }
    assert_eq!(lines.len(), expected.len(), "{out}");
}

#[test]
fn ndarray_methods_have_signatures_docs_and_keyword_completion() {
    let mut s = Session::new();
    s.run("import numpy as np\na = np.zeros((2, 3))").ok();
    let c = s.engine.complete("a.sum(ax", 8);
    assert_eq!(
        c.matches.first().map(String::as_str),
        Some("axis="),
        "{:?}",
        c.matches
    );
    let c = s.engine.complete("a.std(dd", 8);
    assert!(c.matches.contains(&"ddof=".to_string()), "{:?}", c.matches);
    let c = s.engine.complete("a.reshape(a.sum(), or", 21);
    assert!(c.matches.contains(&"order=".to_string()), "{:?}", c.matches);
    for (method, sig) in [
        (
            "sum",
            "sum(axis=None, dtype=None, out=None, keepdims=False)",
        ),
        (
            "astype",
            "astype(dtype, order='K', casting='unsafe', subok=True, copy=True)",
        ),
        ("reshape", "reshape(shape, /, *, order='C')"),
    ] {
        let c = s.run(&format!("a.{method}?"));
        c.ok();
        let text = c.page_text();
        assert!(text.contains(sig), "{text}");
        assert!(!text.contains("NumPy's ndarray."), "a real doc: {text}");
    }
}
