//! Tuples as kernel arguments, as Numba takes them: numbers, arrays and nested tuples,
//! read by constant index and `len()`. Kernels receive each item as a parameter of its
//! own; host arrays inside a tuple are copied in and back like top-level ones.

mod common;
use common::Session;

#[test]
fn tuples_of_numbers_arrays_and_tuples_reach_kernels() {
    let mut s = Session::new();
    s.run("from numba import cuda\nimport numpy as np").ok();
    let out = s.stdout(
        "@cuda.jit\ndef f(r, x):\n    r[0] = len(x)\n    r[1] = x[0][1]\n    r[2] = x[1]\n    r[3] = x[2][0] + x[2][1]\n    r[4] = len(x[3])\n\
         z = np.arange(2, dtype=np.int64)\nr = np.zeros(5, dtype=np.int64)\n\
         f[1, 1](r, (2 * z, 10, (4, 3), ()))\nprint(r)",
    );
    assert_eq!(out, "[ 4  2 10  7  0]\n");
    // Writes through an array inside a tuple reach the caller's array.
    let out = s.stdout(
        "@cuda.jit\ndef g(t):\n    a, k = t\n    a[0] = k\n\
         h = np.zeros(1)\ng[1, 1]((h, 2.5))\nd = cuda.to_device(np.zeros(1))\ng[1, 1]((d, 4.0))\nprint(h, d.copy_to_host())",
    );
    assert_eq!(out, "[2.5] [4.]\n");
    // A different tuple shape is a different specialisation.
    let out = s.stdout(
        "@cuda.jit\ndef n(r, t):\n    r[0] = len(t)\nr = np.zeros(1, dtype=np.int64)\n\
         n[1, 1](r, (1, 2))\na = r[0]\nn[1, 1](r, (1, 2, 3))\nprint(a, r[0])",
    );
    assert_eq!(out, "2 3\n");
    let c = s.run("n[1, 1](r, tuple(range(300)))");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
}
