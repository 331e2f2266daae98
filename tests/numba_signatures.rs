//! Signature forms Numba accepts besides strings: a tuple of argument types, types built
//! with `numba.from_dtype`, and Fortran-order array types (accepted as any layout, since
//! nbcuda has no F layout type). Also `int.bit_count()` inside kernels.

mod common;
use common::Session;

#[test]
fn tuples_of_types_and_from_dtype_make_signatures() {
    let mut s = Session::new();
    s.run("import numba\nfrom numba import cuda, int32\nimport numpy as np")
        .ok();
    let out = s.stdout(
        "ty = numba.from_dtype(np.float32)\nprint(ty, ty is numba.float32 or ty == numba.float32)\n\
         @cuda.jit((numba.from_dtype(np.dtype('float64'))[::1], numba.float64[::1]))\n\
         def sq(a, out):\n    i = cuda.grid(1)\n    if i < a.size:\n        out[i] = a[i] * a[i]\n\
         o = np.zeros(3)\nsq[1, 3](np.array([1.0, 2.0, 3.0]), o)\nprint(o, len(sq.signatures) if hasattr(sq, 'signatures') else 1)",
    );
    assert_eq!(out, "float32 True\n[1. 4. 9.] 1\n");
    let c = s.run("numba.from_dtype('not a dtype')");
    assert!(c.ename().is_some());
    // Fortran-order arrays in signatures compile.
    let c = s.run(
        "@cuda.jit('void(int32[::1,:,:])')\ndef fill(a):\n    a[cuda.threadIdx.x, 0, 0] = 1\n\
         f = np.zeros((2, 2, 2), dtype=np.int32, order='F')\nfill[1, 2](f)\nprint(f[:, 0, 0])",
    );
    assert_eq!(c.out.stdout, "[1 1]\n", "{}", c.evalue());
}

#[test]
fn int_bit_count_in_kernels_counts_like_python() {
    let mut s = Session::new();
    s.run("from numba import cuda\nimport numpy as np").ok();
    // Python: (255).bit_count() == 8, (-5).bit_count() == 2 (bits of abs(n)).
    let out = s.stdout(
        "@cuda.jit\ndef k(x, out):\n    out[0] = x[0].bit_count()\n    out[1] = x[1].bit_count()\n\
         out = np.zeros(2, dtype=np.int64)\nk[1, 1](np.array([255, -5]), out)\nprint(out)",
    );
    assert_eq!(out, "[8 2]\n");
}

#[test]
fn numba_types_module_names_the_same_type_objects() {
    let mut s = Session::new();
    let out = s.stdout(
        "from numba import types, cuda\nimport numba\nfrom numba.core import types as core_types\nimport numpy as np\n\
         print(types.int32, types.float32[:], types.int32 == numba.int32, core_types.float64 == numba.float64)\n\
         @cuda.jit(types.void(types.float32[::1]))\ndef k(a):\n    s = cuda.shared.array(4, dtype=numba.types.int32)\n    s[0] = 3\n    a[0] = s[0]\n\
         x = np.zeros(1, dtype=np.float32)\nk[1, 1](x)\nprint(x)",
    );
    assert_eq!(out, "int32 array(float32, 1d, A) True True\n[3.]\n");
}

#[test]
fn decorators_and_helpers_take_numbas_parameter_names() {
    // Numba 0.68 names these parameters `value`, `functor`, `dtype` and
    // `signature_or_function`; the expected values are what it prints.
    let mut s = Session::new();
    s.run("import numba\nfrom numba import cuda\nimport numpy as np")
        .ok();
    assert_eq!(s.eval("numba.from_dtype(dtype=np.float32)"), "float32");
    s.run("h = cuda.In(value=np.zeros(2))\nr = cuda.reduce(functor=lambda a, b: a + b)")
        .ok();
    let c = s.run("cuda.In(ary=np.zeros(2))");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    let out = s.stdout(
        "def twice(x):\n    return x * 2\nprint(numba.jit(signature_or_function=twice)(3))",
    );
    assert_eq!(out, "6\n");
}
