//! `np.nanmin` / `np.nanmax` as NumPy 2 computes them (expected values are NumPy 2.3's
//! output): NaNs are skipped, an all-NaN slice gives NaN and one RuntimeWarning.

mod common;
use common::Session;

#[test]
fn nan_reductions_skip_nans() {
    let mut s = Session::new();
    s.run("import numpy as np\na = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]])")
        .ok();
    let c = s.run(
        "print(np.nanmax(a), np.nanmin(a), np.nanmax(a, axis=1), np.nanmin(a, axis=0), np.nanmax(np.array([1, 5, 2])))",
    );
    assert_eq!(c.out.stdout, "3.0 1.0 [ 3. nan] [ 1. nan  3.] 5\n");
    assert!(
        c.out
            .stderr
            .contains("RuntimeWarning: All-NaN slice encountered"),
        "{}",
        c.out.stderr
    );
    assert_eq!(
        s.eval("np.nanmin(np.array([np.nan, 2.5], dtype=np.float32))"),
        "np.float32(2.5)"
    );
}
