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

#[test]
fn isinstance_and_issubdtype() {
    assert_eq!(
        out("import numpy as np\nx = np.zeros(3, dtype=np.float32)\nprint(isinstance(x, np.ndarray), isinstance(x[0], np.float32), np.issubdtype(x.dtype, np.floating), np.issubdtype(np.int8, np.floating), x.dtype == np.float32, x.dtype == 'float32')"),
        "True True True False True True\n"
    );
}

#[test]
fn views_share_memory_and_masks_assign() {
    assert_eq!(
        out("import numpy as np\na = np.arange(10)\nv = a[2:8:2]\nv[:] = 0\na[a > 7] = -1\nprint(a.tolist(), v.flags['C_CONTIGUOUS'])"),
        "[0, 1, 0, 3, 0, 5, 0, 7, -1, -1] False\n"
    );
}

#[test]
fn seeded_legacy_stream_matches_numpy() {
    // np.random.seed(0); np.random.rand(3) and randint in NumPy 2.3.5.
    assert_eq!(
        out("import numpy as np\nnp.random.seed(0)\nprint(np.random.rand(3).tolist())\nnp.random.seed(0)\nprint(np.random.randint(0, 10, size=5).tolist())"),
        "[0.5488135039273248, 0.7151893663724195, 0.6027633760716439]\n[5, 0, 3, 3, 7]\n"
    );
}

#[test]
fn sort_in_place_unique_and_count() {
    assert_eq!(
        out("import numpy as np\na = np.array([3, 1, 2, 3, 1])\nprint(np.unique(a), np.count_nonzero(a > 1))\na.sort()\nprint(a, np.argsort(np.array([0.5, -1.0, 2.0])))"),
        "[1 2 3] 3\n[1 1 2 3 3] [1 0 2]\n"
    );
}

#[test]
fn matmul_operator() {
    assert_eq!(
        out("import numpy as np\nm = np.arange(6).reshape(2, 3)\nprint(m @ np.ones(3, dtype=np.int64), np.arange(3) @ np.arange(3))"),
        "[ 3 12] 5\n"
    );
}

#[test]
fn strided_and_converting_assignments_and_copies_match_numpy() {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    // Each line is what NumPy 2 prints for the same statements.
    let out = s.stdout(
        "a = np.arange(12, dtype=np.float64).reshape(3, 4)\nprint(a.T.copy().tolist())\nprint(a[::-1, ::2].copy().tolist())\n\
         h = np.zeros(8)\nh[::-2] = np.arange(4, dtype=np.float32)\nprint(h.tolist())\n\
         g = np.zeros((2, 3), dtype=np.int16)\ng[:] = np.array([[1.7, -2.9, 3.2], [4, 5, 6]], dtype=np.float32)\nprint(g.tolist())\n\
         k = np.arange(6, dtype=np.int32)\nk[1:] = k[:-1]\nprint(k.tolist())\n\
         m = np.zeros((3, 3))\nm[:, 1] = 7\nm[1] = np.float32(2.5)\nprint(m.tolist())\n\
         e = np.zeros((2, 0))\ne[:] = 1\nprint(e.shape)\n\
         x = np.arange(10, dtype=np.int64)\nprint(x[::3].astype(np.float32).tolist(), x[::-1][::2].tolist())",
    );
    assert_eq!(
        out,
        "[[0.0, 4.0, 8.0], [1.0, 5.0, 9.0], [2.0, 6.0, 10.0], [3.0, 7.0, 11.0]]\n\
         [[8.0, 10.0], [4.0, 6.0], [0.0, 2.0]]\n[0.0, 3.0, 0.0, 2.0, 0.0, 1.0, 0.0, 0.0]\n\
         [[1, -2, 3], [4, 5, 6]]\n[0, 0, 1, 2, 3, 4]\n[[0.0, 7.0, 0.0], [2.5, 2.5, 2.5], [0.0, 7.0, 0.0]]\n\
         (2, 0)\n[0.0, 3.0, 6.0, 9.0] [9, 7, 5, 3, 1]\n"
    );
}
