//! End-to-end NumPy behaviour through the interpreter; expected values worked out by hand
//! or taken from NumPy 2.3.
mod common;
use common::Session;

fn out(code: &str) -> String {
    let mut s = Session::new();
    s.stdout(code)
}

#[test]
fn arange_times_two_and_sum() {
    assert_eq!(
        out("import numpy as np\nx = np.arange(10, dtype=np.float32)\nprint(x * 2, x.sum())"),
        "[ 0.  2.  4.  6.  8. 10. 12. 14. 16. 18.] 45.0\n"
    );
}

#[test]
fn nep50_promotion() {
    let o = out("import numpy as np\nx = np.arange(3, dtype=np.float32)\nprint((2*x).dtype, (x/2).dtype, (np.arange(3)/2).dtype, (x + np.float64(1)).dtype, (np.arange(3, dtype=np.uint8) + 1).dtype, (np.arange(3, dtype=np.int32) + 1.5).dtype)");
    assert_eq!(o, "float32 float32 float64 float64 uint8 float64\n");
}
