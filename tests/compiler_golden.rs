//! Golden tests of the printed IR. The files in tests/golden/ were reviewed by hand for
//! correct typing (Numba's rules) and control flow; a mismatch means the front end
//! changed what it emits. Set NBCUDA_WRITE_GOLDEN=1 to write the current output next to
//! the golden file (as .ir.new) for review.

mod compiler_support;

use compiler_support::*;
use nbcuda::arrays::dtype::DType;
use nbcuda::kernel::ir::print_kernel;
use nbcuda::kernel::types::Ty;

fn check(name: &str, text: &str) {
    let path = format!("{}/tests/golden/{name}.ir", env!("CARGO_MANIFEST_DIR"));
    if std::env::var("NBCUDA_WRITE_GOLDEN").is_ok() {
        std::fs::write(format!("{path}.new"), text).unwrap();
    }
    let want =
        std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("missing golden file {path}"));
    assert_eq!(text, want, "IR of {name} differs from {path}");
}

#[test]
fn golden_increment_by_one() {
    let k = kernel(
        "def increment_by_one(an_array):\n    pos = cuda.grid(1)\n    if pos < an_array.size:\n        an_array[pos] += 1\n",
        &[arr1(DType::F32, 1)],
    );
    check("increment_by_one", &print_kernel(&k.ir));
}

#[test]
fn golden_loop_with_unified_accumulator() {
    let k = kernel(
        "def row_sums(a, out):\n    i = cuda.grid(1)\n    if i >= out.size:\n        return\n    s = 0\n    for j in range(a.shape[1]):\n        if a[i, j] < 0:\n            continue\n        s += a[i, j]\n    out[i] = s\n",
        &[arr1(DType::F32, 2), arr1(DType::F32, 1)],
    );
    check("row_sums", &print_kernel(&k.ir));
}

#[test]
fn golden_add_ufunc_wrapper() {
    use nbcuda::numba::vectorize::{build_kernel, InKind};
    let f = function("def add_ufunc(x, y):\n    return x + y\n");
    let k = build_kernel(
        &f,
        &[InKind::Array(DType::F32), InKind::Array(DType::F32)],
        &[DType::F32, DType::F32],
        Some(DType::F32),
        1,
    )
    .unwrap();
    check("add_ufunc", &print_kernel(&k.ir));
    let _ = Ty::Void;
}
