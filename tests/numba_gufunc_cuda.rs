//! `cuda.guvectorize`: generalized ufuncs called with host or device arrays. Device inputs
//! give device outputs (as Numba's CUDA gufuncs do), `out=` may be a device array, and
//! several loop dimensions are folded into one. Expected values are NumPy 2.3's
//! `np.matmul` and arithmetic on the same inputs; error texts are Numba's.

mod common;
use common::Session;

fn session() -> Session {
    let mut s = Session::new();
    s.run(
        "import numpy as np\nfrom numba import cuda, void, float32, float64, int32\n\
         @cuda.guvectorize([void(float32[:, :], float32[:, :], float32[:, :])], '(m,n),(n,p)->(m,p)', target='cuda')\n\
         def matmul(A, B, C):\n    m, n = A.shape\n    n, p = B.shape\n    for i in range(m):\n        for j in range(p):\n\
         \x20           C[i, j] = 0\n            for k in range(n):\n                C[i, j] += A[i, k] * B[k, j]\n\
         @cuda.guvectorize([void(float64[:], float64[:])], '(x)->(x)', target='cuda')\n\
         def double(a, out):\n    for i in range(a.shape[0]):\n        out[i] = 2 * a[i]",
    )
    .ok();
    s
}

#[test]
fn several_loop_dimensions_on_host_arrays() {
    let mut s = session();
    let out = s.stdout(
        "A = np.arange(2*3*2*2, dtype=np.float32).reshape(2, 3, 2, 2)\n\
         B = np.arange(2*3*2*1, dtype=np.float32).reshape(2, 3, 2, 1)\n\
         C = matmul(A, B)\nprint(type(C).__name__, C.shape, C.ravel().tolist())",
    );
    assert_eq!(
        out,
        "ndarray (2, 3, 2, 1) [1.0, 3.0, 23.0, 33.0, 77.0, 95.0, 163.0, 189.0, 281.0, 315.0, 431.0, 473.0]\n"
    );
}

#[test]
fn device_arrays_in_give_device_arrays_out() {
    let mut s = session();
    let out = s.stdout(
        "x = np.arange(6, dtype=np.float64).reshape(2, 3)\nd = cuda.to_device(x)\n\
         r = double(d)\nprint(type(r).__name__, r.copy_to_host().tolist())\n\
         o = cuda.device_array((2, 3))\ns = cuda.stream()\ndouble(d, out=o, stream=s)\ns.synchronize()\n\
         print(o.copy_to_host().tolist())\nh = np.zeros((2, 3))\ndouble(x, out=h)\nprint(h.tolist())",
    );
    assert_eq!(
        out,
        "DeviceNDArray [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]\n[[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]\n[[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]\n"
    );
}

#[test]
fn errors_say_what_numba_says() {
    let mut s = session();
    let c = s.run("double()");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert!(c.evalue().contains("gufunc accepts 1 positional arguments (for inputs) or 2 positional arguments (for inputs and outputs). Got 0 positional arguments."), "{}", c.evalue());
    let c = s.run("cuda.guvectorize([void(float32[:], float32[:])], '(x)->(x)', target='cuda', nopython=False)");
    assert_eq!(c.evalue(), "nopython flag must be True");
    let c = s.run(
        "cuda.guvectorize([void(float32[:], float32[:])], '(x)->(x)', target='cuda', what1=True)",
    );
    assert_eq!(
        c.evalue(),
        "The following target options are not supported: 'what1'"
    );
    let c = s.run("cuda.guvectorize([int32(int32[:], int32[:])], '(m)->(m)', target='cuda')");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert!(
        c.evalue()
            .contains("guvectorized functions cannot return values"),
        "{}",
        c.evalue()
    );
    assert!(
        c.evalue().contains("specifies int32 return type"),
        "{}",
        c.evalue()
    );
}
