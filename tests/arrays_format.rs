//! Printing of arrays and scalars compared with the real NumPy (numpy==2.3.5, installed in
//! .venv by tests/run.sh): the same expressions are evaluated by NumPy and by nbcuda.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

/// (id, setup statements, expression)
const CASES: &[(&str, &str, &str)] = &[
    ("f64_small", "", "np.array([1.0, 2.5, -3.25])"),
    ("f64_whole", "", "np.array([1.0, 2.0, 3.0])"),
    ("f32_arange", "", "np.arange(10, dtype=np.float32)"),
    (
        "f32_div",
        "",
        "np.arange(12, dtype=np.float32).reshape(3, 4) / 7",
    ),
    ("f64_third", "", "np.array([0.1, 1 / 3])"),
    ("mixed_mag", "", "np.array([1e-5, 1.0, 1000.0])"),
    ("big", "", "np.array([1e10, 1.0])"),
    ("exp_frac", "", "np.array([1.5e10, 2.25])"),
    ("tiny", "", "np.array([1e-20, 3e-5])"),
    ("ints", "", "np.arange(15)"),
    ("neg_ints", "", "np.array([-100, 5, 20000])"),
    ("int32", "", "np.array([1, 2, 3], dtype=np.int32)"),
    ("uint8", "", "np.arange(5).astype(np.uint8)"),
    ("bools", "", "np.array([True, False, True])"),
    ("cmp", "", "np.arange(5) > 2"),
    ("zeros2d", "", "np.zeros((2, 3))"),
    ("ones3d", "", "np.ones((2, 2, 3), dtype=np.float32)"),
    ("wrap", "", "np.arange(40) * 1000"),
    ("wrap_f", "", "np.linspace(0, 1, 30)"),
    ("wrap_f32", "", "np.linspace(0, 1, 20, dtype=np.float32)"),
    ("summary", "", "np.arange(5000, dtype=np.float32)"),
    ("summary2d", "", "np.arange(3000).reshape(100, 30)"),
    ("nan_inf", "", "np.array([np.nan, 1.5, -np.inf])"),
    ("empty_f32", "", "np.zeros(0, dtype=np.float32)"),
    ("empty", "", "np.array([])"),
    ("zero_d", "", "np.array(3.5)"),
    ("neg_zero", "", "np.array([-0.0, 1.0])"),
    ("scalar_f32", "", "np.float32(0.1)"),
    ("scalar_f64", "", "np.float64(2.5)"),
    ("scalar_i64", "", "np.int64(7)"),
    (
        "scalar_bool",
        "",
        "np.True_ if hasattr(np, 'True_') else np.bool_(True)",
    ),
    ("scalar_sum", "", "np.arange(10, dtype=np.float32).sum()"),
    ("scalar_mean", "", "np.arange(10).mean()"),
    ("elem", "", "np.arange(5, dtype=np.float32)[2]"),
    (
        "f32_sum_pairwise",
        "",
        "(np.arange(100000, dtype=np.float32) * np.float32(0.1)).sum()",
    ),
    (
        "f32_mean_std",
        "x = np.linspace(0, 3, 1001, dtype=np.float32)",
        "(x.mean(), x.std())",
    ),
    (
        "weak_scalar",
        "",
        "(2 * np.arange(3, dtype=np.float32)).dtype",
    ),
    ("int_div", "", "np.arange(4) / 2"),
    (
        "promote",
        "",
        "np.arange(3, dtype=np.uint8) + np.arange(3, dtype=np.int8)",
    ),
    ("slice_step", "", "np.arange(10)[::-3]"),
    ("mask", "x = np.arange(10)", "x[x % 3 == 0]"),
    ("fancy", "x = np.arange(10) * 1.5", "x[[1, 5, -1]]"),
    ("axis_sum", "", "np.arange(12).reshape(3, 4).sum(axis=0)"),
    ("axis_max", "", "np.arange(12.0).reshape(3, 4).max(axis=1)"),
    // float32 sqrt is correctly rounded everywhere; transcendental float32 results may
    // differ from NumPy's SIMD implementations in the last ulp, so those are compared in
    // float64 (glibc's libm on both sides).
    (
        "sqrt_f32",
        "",
        "np.sqrt(np.linspace(0, 2, 7, dtype=np.float32))",
    ),
    ("sin", "", "np.sin(np.linspace(0, np.pi, 5))"),
    ("big_f32_scalar", "", "np.float32(123456789.0)"),
    ("shape_empty", "", "np.zeros((2, 0))"),
    ("seed_rand", "np.random.seed(42)", "np.random.rand(4)"),
    (
        "seed_normal",
        "np.random.seed(0)",
        "np.random.normal(0, 1, 5)",
    ),
    (
        "seed_randint",
        "np.random.seed(1)",
        "np.random.randint(0, 100, size=8)",
    ),
    (
        "seed_uniform",
        "np.random.seed(7)",
        "np.random.uniform(-1, 1, size=3)",
    ),
    ("seed_scalar", "np.random.seed(3)", "np.random.normal()"),
    ("dtype_line", "", "np.arange(15, dtype=np.int32) * 100000"),
];

fn numpy_outputs() -> serde_json::Value {
    let python = std::env::var("NBCUDA_PYTHON").unwrap_or_else(|_| "python3".into());
    let cases: Vec<serde_json::Value> = CASES
        .iter()
        .map(|(id, setup, expr)| serde_json::json!({"id": id, "setup": setup, "expr": expr}))
        .collect();
    let gen = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/numpy_ref/gen.py");
    let mut child = Command::new(&python)
        .arg(gen)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot start {python}: {e}; run the tests through tests/run.sh")
        });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(&cases).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "NumPy reference generator failed (is numpy==2.3.5 installed for {python}? run tests/run.sh, which sets NBCUDA_PYTHON):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn repr_and_str_match_numpy() {
    let reference = numpy_outputs();
    let mut failures = Vec::new();
    for (id, setup, expr) in CASES {
        let mut s = common::Session::new();
        s.run("import numpy as np").ok();
        if !setup.is_empty() {
            s.run(setup).ok();
        }
        let c = s.run(&format!(
            "__v = {expr}\nprint(repr(__v))\nprint('\\x00')\nprint(str(__v))"
        ));
        if c.outcome.error.is_some() {
            failures.push(format!("{id}: nbcuda raised {}", c.traceback()));
            continue;
        }
        let text = c.out.stdout;
        let (r, st) = text.split_once("\n\u{0}\n").unwrap_or((&text, ""));
        let want = &reference[*id];
        if r != want["repr"].as_str().unwrap() {
            failures.push(format!(
                "{id} repr:\n  numpy:  {}\n  nbcuda: {}",
                want["repr"].as_str().unwrap(),
                r
            ));
        }
        if st.trim_end_matches('\n') != want["str"].as_str().unwrap() {
            failures.push(format!(
                "{id} str:\n  numpy:  {}\n  nbcuda: {}",
                want["str"].as_str().unwrap(),
                st.trim_end_matches('\n')
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
