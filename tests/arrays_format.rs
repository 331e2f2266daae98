//! nbcuda's repr()/str() of arrays, scalars and seeded np.random results compared with
//! NumPy 2.3.5's, produced by tests/numpy_ref/gen.py under the Python named by
//! NBCUDA_PYTHON (tests/run.sh points it at a venv with numpy==2.3.5).
mod common;
use std::io::Write;
use std::process::{Command, Stdio};

use common::Session;
use serde_json::{json, Value as Json};

/// (id, setup statements, expression).
const CASES: &[(&str, &str, &str)] = &[
    ("f32_small", "", "np.arange(10, dtype=np.float32) * 2"),
    (
        "f32_div7",
        "",
        "np.arange(12, dtype=np.float32).reshape(3, 4) / 7",
    ),
    ("f64_div7", "", "np.arange(12).reshape(3, 4) / 7"),
    ("half", "", "np.array([1.0, 0.5])"),
    ("mixed_mag", "", "np.array([1.0, 1000.5, 0.001])"),
    ("exp_big", "", "np.array([1.0, 1e10])"),
    ("exp_small", "", "np.array([1.5e-5, 1.0, 3.0])"),
    ("exp_1e8", "", "np.array([1e8, 2.0])"),
    ("neg_float", "", "np.array([-1.5, 2.25, -0.125])"),
    ("neg_zero", "", "np.array([-0.0, 1.0])"),
    ("ints", "", "np.arange(15)"),
    ("neg_ints", "", "np.array([-5, 10, 300])"),
    ("int32", "", "np.arange(5, dtype=np.int32)"),
    ("uint8", "", "np.array([0, 255, 7], dtype=np.uint8)"),
    ("bool", "", "np.array([True, False, True])"),
    ("bool_cmp", "", "np.arange(5) > 2"),
    ("two_d", "", "np.arange(6, dtype=np.float64).reshape(2, 3)"),
    ("three_d", "", "np.arange(24).reshape(2, 3, 4)"),
    (
        "three_d_f32",
        "",
        "np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 3",
    ),
    ("summarised", "", "np.arange(5000, dtype=np.float32)"),
    ("summarised_int", "", "np.arange(5000)"),
    ("summarised_2d", "", "np.arange(5000.0).reshape(50, 100)"),
    ("wrap_long", "", "np.linspace(0, 1, 30)"),
    (
        "wrap_long_f32",
        "",
        "np.linspace(0, 1, 30, dtype=np.float32)",
    ),
    ("wrap_ints", "", "np.arange(100) * 1000"),
    ("nan_inf", "", "np.array([np.nan, np.inf, -np.inf, 1.5])"),
    ("nan_only", "", "np.array([np.nan, 1.0])"),
    ("empty", "", "np.zeros(0)"),
    ("empty_2d", "", "np.zeros((0, 3), dtype=np.float32)"),
    ("zero_d", "", "np.array(1.5)"),
    ("zeros", "", "np.zeros((2, 2), dtype=np.float32)"),
    ("ones_int", "", "np.ones(4, dtype=np.int64)"),
    ("sqrt", "", "np.sqrt(np.arange(6, dtype=np.float32))"),
    ("sin", "", "np.sin(np.linspace(0, np.pi, 5))"),
    ("sci_mixed", "", "np.array([1e-10, 1.0, 12345.678])"),
    ("scalar_f32", "", "np.float32(1.5)"),
    ("scalar_f32_third", "", "np.float32(1) / np.float32(3)"),
    ("scalar_f64", "", "np.float64(0.1) + np.float64(0.2)"),
    ("scalar_i64", "", "np.int64(42)"),
    ("scalar_bool", "", "np.bool_(True)"),
    ("scalar_big", "", "np.float64(1e20)"),
    ("scalar_small", "", "np.float64(1.5e-7)"),
    (
        "scalar_sum_f32",
        "",
        "np.arange(1000, dtype=np.float32).sum()",
    ),
    ("scalar_mean", "", "np.arange(10).mean()"),
    (
        "pairwise_f32",
        "",
        "(np.arange(100000, dtype=np.float32) * np.float32(0.1)).sum()",
    ),
    (
        "std_f32",
        "",
        "np.linspace(0, 1, 1001, dtype=np.float32).std()",
    ),
    ("seed_rand", "np.random.seed(0)", "np.random.rand(5)"),
    ("seed_rand_2d", "np.random.seed(42)", "np.random.rand(3, 4)"),
    (
        "seed_normal",
        "np.random.seed(1)",
        "np.random.normal(size=7)",
    ),
    (
        "seed_normal_loc",
        "np.random.seed(3)",
        "np.random.normal(2.0, 0.5, size=(2, 3))",
    ),
    (
        "seed_randn_odd",
        "np.random.seed(5); np.random.randn(3)",
        "np.random.randn(4)",
    ),
    (
        "seed_randint",
        "np.random.seed(0)",
        "np.random.randint(0, 100, size=10)",
    ),
    (
        "seed_randint_small",
        "np.random.seed(7)",
        "np.random.randint(5, size=12)",
    ),
    (
        "seed_uniform",
        "np.random.seed(2)",
        "np.random.uniform(-1, 1, 6)",
    ),
    (
        "seed_random_f32",
        "np.random.seed(9)",
        "np.random.random(6).astype(np.float32)",
    ),
    ("seed_rand_scalar", "np.random.seed(0)", "np.random.rand()"),
    (
        "seed_scalar_mix",
        "np.random.seed(0)",
        "(np.random.randint(10), np.random.normal(), np.random.rand(), np.random.uniform())",
    ),
    (
        "numpy_scalar_results",
        "",
        "(np.sum([1, 2]), np.sin(0.5), np.float32(3) * np.int64(2), np.arange(3)[1] * 2.5)",
    ),
    ("seed_big", "np.random.seed(123)", "np.random.rand(2000)"),
    // indexing, views, masks
    ("slice_step", "a = np.arange(10)", "a[1:8:3]"),
    ("slice_neg", "a = np.arange(10)", "a[::-2]"),
    ("slice_2d", "a = np.arange(20).reshape(4, 5)", "a[1:3, ::2]"),
    ("col", "a = np.arange(20).reshape(4, 5)", "a[:, 2]"),
    ("row_neg", "a = np.arange(20).reshape(4, 5)", "a[-1]"),
    ("elem", "a = np.arange(20).reshape(4, 5)", "a[2, 3]"),
    ("newaxis", "a = np.arange(3)", "a[:, np.newaxis] * a"),
    (
        "ellipsis",
        "a = np.arange(24).reshape(2, 3, 4)",
        "a[..., 1]",
    ),
    ("fancy", "a = np.arange(10) * 10", "a[[1, 3, -1]]"),
    (
        "fancy_2d",
        "a = np.arange(12).reshape(3, 4)",
        "a[np.array([2, 0])]",
    ),
    (
        "fancy_pairs",
        "a = np.arange(12).reshape(3, 4)",
        "a[[0, 2], [1, 3]]",
    ),
    (
        "fancy_cols",
        "a = np.arange(12).reshape(3, 4)",
        "a[:, [3, 0]]",
    ),
    ("mask", "a = np.arange(10)", "a[a % 3 == 0]"),
    ("mask_2d", "a = np.arange(12).reshape(3, 4)", "a[a > 6]"),
    ("set_view", "a = np.zeros(6); a[::2] = 7", "a"),
    ("set_mask", "a = np.arange(8); a[a > 4] = -1", "a"),
    (
        "set_fancy",
        "a = np.zeros((3, 3), dtype=np.int32); a[[0, 2]] = 5",
        "a",
    ),
    (
        "set_broadcast",
        "a = np.zeros((2, 3)); a[:] = np.arange(3)",
        "a",
    ),
    ("set_float_into_int", "a = np.arange(4); a[1] = 2.7", "a"),
    ("view_shares", "a = np.arange(5.0); v = a[1:4]; v *= 2", "a"),
    ("transpose", "a = np.arange(6).reshape(2, 3)", "a.T"),
    (
        "transpose_copy",
        "a = np.arange(6).reshape(2, 3)",
        "a.T.copy().ravel()",
    ),
    ("reshape_neg", "a = np.arange(12)", "a.reshape(-1, 4)"),
    (
        "reshape_f",
        "a = np.arange(6)",
        "a.reshape((2, 3), order='F')",
    ),
    ("squeeze", "a = np.zeros((1, 3, 1))", "a.squeeze().shape"),
    (
        "flatten",
        "a = np.arange(6).reshape(2, 3)[:, ::-1]",
        "a.flatten()",
    ),
    // broadcasting and promotion
    ("bcast", "", "np.arange(3).reshape(3, 1) + np.arange(4)"),
    ("int_div", "", "np.arange(5) / 2"),
    ("floordiv_neg", "", "np.array([-7, 7, -8]) // 2"),
    ("mod_neg", "", "np.array([-7, 7, -8]) % 3"),
    ("fmod_float", "", "np.array([-7.5, 7.5]) % 2"),
    ("pow_int", "", "np.arange(5) ** 2"),
    ("pow_f32", "", "np.arange(4, dtype=np.float32) ** 0.5"),
    ("u8_wrap", "", "np.array([250, 5], dtype=np.uint8) + 10"),
    (
        "i8_f32",
        "",
        "np.arange(3, dtype=np.int8) * np.float32(1.5)",
    ),
    (
        "i32_f32",
        "",
        "np.arange(3, dtype=np.int32) * np.arange(3, dtype=np.float32)",
    ),
    (
        "u32_i32",
        "",
        "np.arange(3, dtype=np.uint32) + np.arange(3, dtype=np.int32)",
    ),
    (
        "bool_add",
        "",
        "np.array([True, False]) + np.array([True, True])",
    ),
    ("bool_int", "", "np.array([True, False]) + 1"),
    ("neg", "", "-np.arange(3, dtype=np.float32)"),
    ("invert_bool", "", "~(np.arange(4) > 1)"),
    ("scalar_ops", "", "np.float32(2.5) * 2"),
    ("scalar_int_div", "", "np.int32(7) // 2"),
    ("scalar_cmp", "", "np.float32(2.5) > 2"),
    ("maximum", "", "np.maximum(np.array([1.0, np.nan, 3.0]), 2)"),
    ("clip", "", "np.clip(np.arange(10), 2, 7)"),
    ("round2", "", "np.round(np.array([1.2345, 2.5, -0.555]), 2)"),
    ("round0", "", "np.round(np.array([0.5, 1.5, 2.5]))"),
    ("exp_log", "", "np.log(np.exp(np.arange(4.0)))"),
    ("abs_int", "", "np.abs(np.array([-3, 4]))"),
    ("isnan", "", "np.isnan(np.array([1.0, np.nan]))"),
    ("where3", "a = np.arange(6)", "np.where(a > 2, a, -1.5)"),
    ("where1", "a = np.array([0, 3, 0, 4])", "np.where(a)"),
    (
        "concat",
        "",
        "np.concatenate([np.arange(3), np.arange(2.0)])",
    ),
    (
        "concat_ax1",
        "",
        "np.concatenate([np.zeros((2, 1)), np.ones((2, 2))], axis=1)",
    ),
    (
        "stack",
        "",
        "np.stack([np.arange(3), np.arange(3)], axis=1)",
    ),
    ("broadcast_to", "", "np.broadcast_to(np.arange(3), (2, 3))"),
    ("linspace", "", "np.linspace(0, 2, 9)"),
    ("arange_f", "", "np.arange(0, 1, 0.1)"),
    (
        "arange_f32_step",
        "",
        "np.arange(0, 2, 0.25, dtype=np.float32)",
    ),
    ("full", "", "np.full((2, 2), 7)"),
    ("full_f32", "", "np.full(3, 1.5, dtype=np.float32)"),
    ("astype", "", "np.array([1.7, -2.7, 3.2]).astype(np.int32)"),
    ("eye", "", "np.eye(3, dtype=np.int32)"),
    (
        "dot",
        "",
        "np.dot(np.arange(6).reshape(2, 3), np.arange(3))",
    ),
    // reductions
    (
        "sum_ax0",
        "a = np.arange(12).reshape(3, 4)",
        "a.sum(axis=0)",
    ),
    (
        "sum_ax1",
        "a = np.arange(12).reshape(3, 4)",
        "a.sum(axis=1)",
    ),
    ("sum_i32", "", "np.arange(5, dtype=np.int32).sum()"),
    ("sum_u8", "", "np.arange(5, dtype=np.uint8).sum()"),
    (
        "mean_ax",
        "a = np.arange(12, dtype=np.float32).reshape(3, 4)",
        "a.mean(axis=1)",
    ),
    (
        "mean_f32",
        "",
        "np.linspace(0, 1, 100, dtype=np.float32).mean()",
    ),
    (
        "min_max",
        "a = np.array([3, -1, 7])",
        "(a.min(), a.max(), a.argmin(), a.argmax())",
    ),
    ("max_nan", "", "np.max(np.array([1.0, np.nan, 3.0]))"),
    (
        "argmax_ax",
        "a = np.array([[1, 9, 2], [8, 0, 3]])",
        "a.argmax(axis=0)",
    ),
    (
        "std_var",
        "a = np.arange(10.0)",
        "(a.std(), a.var(), a.var(ddof=1))",
    ),
    ("prod", "", "np.prod(np.arange(1, 6))"),
    (
        "any_all",
        "a = np.arange(4)",
        "(a.any(), a.all(), np.any(a > 5))",
    ),
    (
        "cumsum",
        "",
        "np.cumsum(np.arange(6).reshape(2, 3), axis=1)",
    ),
    ("cumsum_flat", "", "np.arange(5, dtype=np.float32).cumsum()"),
    (
        "keepdims",
        "a = np.arange(6).reshape(2, 3)",
        "a.sum(axis=1, keepdims=True)",
    ),
    (
        "sum_neg_axis",
        "a = np.arange(24).reshape(2, 3, 4)",
        "a.sum(axis=-2)",
    ),
    (
        "allclose",
        "",
        "(np.allclose([1.0, 2.0], [1.0, 2.0000001]), np.isclose([1.0, np.nan], [1.1, np.nan]))",
    ),
    ("tolist", "", "np.arange(6).reshape(2, 3).tolist()"),
    ("item", "", "np.arange(6, dtype=np.float32)[2].item()"),
    (
        "iter_rows",
        "",
        "[r.sum() for r in np.arange(6).reshape(3, 2)]",
    ),
    (
        "shape_attrs",
        "a = np.zeros((3, 4), dtype=np.float32)",
        "(a.shape, a.ndim, a.size, a.nbytes, a.itemsize, a.strides, a.T.strides)",
    ),
    (
        "dtype_repr",
        "",
        "(np.dtype('f4'), np.zeros(2, dtype='int16').dtype, np.float32)",
    ),
    (
        "out_param",
        "a = np.arange(4.0); np.multiply(a, 2, out=a)",
        "a",
    ),
    (
        "seed_default_shape",
        "np.random.seed(11)",
        "np.random.random_sample((2, 2))",
    ),
    (
        "seed_array",
        "np.random.seed([1, 2, 3])",
        "np.random.rand(3)",
    ),
];

fn python() -> String {
    std::env::var("NBCUDA_PYTHON").unwrap_or_else(|_| "python3".into())
}

fn numpy_reference() -> Vec<Json> {
    let cases: Vec<Json> = CASES
        .iter()
        .map(|(id, setup, expr)| json!({"id": id, "setup": setup, "expr": expr}))
        .collect();
    let py = python();
    let mut child = Command::new(&py)
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/numpy_ref/gen.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {py}: {e}; run tests/run.sh (it sets NBCUDA_PYTHON to a venv with numpy==2.3.5)"));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(serde_json::to_string(&cases).expect("json").as_bytes())
        .expect("write cases");
    let out = child.wait_with_output().expect("generator output");
    assert!(
        out.status.success(),
        "the NumPy reference generator failed under {py} (numpy missing? run tests/run.sh, which provides numpy==2.3.5):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Vec<Json> = serde_json::from_slice(&out.stdout).expect("generator JSON");
    let ver = v.first().and_then(|c| c["numpy"].as_str()).unwrap_or("");
    assert_eq!(
        ver, "2.3.5",
        "reference NumPy must be 2.3.5 (run tests/run.sh)"
    );
    v
}

#[test]
fn repr_and_str_match_numpy() {
    let reference = numpy_reference();
    assert_eq!(reference.len(), CASES.len(), "one reference per case");
    let mut failures = Vec::new();
    for ((id, setup, expr), r) in CASES.iter().zip(&reference) {
        let mut s = Session::new();
        let code = format!(
            "import numpy as np\n{}\n_v = {expr}\nprint(repr(_v))\nprint('@@SEP@@')\nprint(str(_v))",
            setup.replace("; ", "\n")
        );
        let cell = s.run(&code);
        if cell.outcome.error.is_some() {
            failures.push(format!("{id}: nbcuda raised {}", cell.traceback()));
            continue;
        }
        let o = cell.out.stdout;
        let (rep, st) = o.split_once("\n@@SEP@@\n").unwrap_or((&o, ""));
        let st = st.strip_suffix('\n').unwrap_or(st);
        if rep != r["repr"].as_str().unwrap_or("") {
            failures.push(format!(
                "{id} repr:\n nbcuda: {rep}\n numpy:  {}",
                r["repr"].as_str().unwrap_or("")
            ));
        }
        if st != r["str"].as_str().unwrap_or("") {
            failures.push(format!(
                "{id} str:\n nbcuda: {st}\n numpy:  {}",
                r["str"].as_str().unwrap_or("")
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
