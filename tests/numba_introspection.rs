//! What Numba's own tests inspect on dispatchers (`overloads` with their type annotations,
//! `signatures`, `compile_device`, `inspect_llvm`/`inspect_sass`), the errors they expect
//! by text, and NumPy's `np.vectorize`/`np.frompyfunc`, which they use as the reference
//! for CUDA ufuncs. Expected values are what Numba and NumPy 2 give.

mod common;
use common::Session;

#[test]
fn overloads_hold_one_specialisation_per_argument_types_with_a_typemap() {
    let mut s = Session::new();
    s.run("from numba import cuda, int32, void\nimport numpy as np")
        .ok();
    let out = s.stdout(
        "@cuda.jit\ndef f(a, out):\n    i = cuda.grid(1)\n    out[i] = a[i] * 2\n\
         a = np.ones(4)\nres = np.zeros(4)\nf[1, 4](a, res)\nf[1, 4](cuda.to_device(a), res)\n\
         print(len(f.overloads), res)\n\
         f[1, 4](np.ones(4, dtype=np.int32), np.zeros(4, dtype=np.int32))\nprint(len(f.overloads), len(f.signatures))",
    );
    assert_eq!(out, "1 [2. 2. 2. 2.]\n2 2\n");
    let out = s.stdout(
        "@cuda.jit(void(int32[::1]))\ndef g(x):\n    l = cuda.local.array(10, dtype=np.int32)\n    \
         s = cuda.shared.array(4, dtype='int32')\n    k = x[0] + 1.5\n    l[0] = x[0]\n    s[0] = l[0]\n    x[0] = s[0]\n\
         tm = next(iter(g.overloads.values()))._type_annotation.typemap\n\
         print(tm['l'].dtype == int32, tm['s'].dtype == int32, tm['l'].ndim, tm['k'], tm['x'])",
    );
    assert_eq!(out, "True True 1 float64 array(int32, 1d, C)\n");
}

#[test]
fn device_functions_compile_for_inspection_but_never_launch() {
    let mut s = Session::new();
    s.run(
        "from numba import cuda, int32\n@cuda.jit(device=True)\ndef foo(x, y):\n    return x + y",
    )
    .ok();
    let out = s.stdout(
        "cres = foo.compile_device((int32, int32))\nname = cres.fndesc.mangled_name\n\
         print('foo' in name, name in foo.inspect_llvm((int32, int32)))",
    );
    assert_eq!(out, "True True\n");
    let c = s.run("foo.inspect_sass((int32, int32))");
    assert_eq!(c.ename().as_deref(), Some("RuntimeError"));
    assert!(c
        .evalue()
        .contains("Cannot inspect SASS of a device function"));
    let c = s.run("foo[1, 1](1, 2)");
    assert_eq!(c.ename().as_deref(), Some("RuntimeError"));
    assert!(c
        .evalue()
        .contains("Cannot compile a device function as a kernel"));
}

#[test]
fn a_cpu_function_declared_with_a_signature_is_not_callable_from_kernels() {
    let mut s = Session::new();
    s.run("from numba import cuda, jit\nimport numpy as np")
        .ok();
    let c = s.run(
        "@jit('(i4, i4)')\ndef add(a, b):\n    return a + b\n\
         @cuda.jit\ndef k(a):\n    i = cuda.grid(1)\n    a[i] = add(a[i], 1)\nk[1, 4](np.arange(4))",
    );
    assert_eq!(c.ename().as_deref(), Some("TypingError"));
    assert!(c
        .evalue()
        .contains("Untyped global name 'add': using cpu function on device"));
    // Lazily compiled, the same function inlines.
    let out = s.stdout(
        "@jit\ndef add2(a, b):\n    return a + b\n@cuda.jit\ndef k2(a):\n    i = cuda.grid(1)\n    a[i] = add2(a[i], 1)\n\
         x = np.arange(4)\nk2[1, 4](x)\nprint(x)",
    );
    assert_eq!(out, "[1 2 3 4]\n");
}

#[test]
fn np_vectorize_loops_in_python_with_the_first_result_deciding_the_dtype() {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    let out = s.stdout(
        "f = np.vectorize(lambda x, y: x * y)\nprint(f(np.arange(4), 2.5))\n\
         print(np.vectorize(lambda x: x // 2)([1.0, 2.5, 7.0]))\n\
         print(np.vectorize(lambda x: 1 if x > 1 else 0.5)([3, 0]))\n\
         print(np.vectorize(lambda x: x > 1, otypes=[float])([3, 0]))\n\
         print(np.vectorize(lambda x: (x, x * 2))([1, 2]))\n\
         @np.vectorize\ndef clip(v):\n    return min(v, 2)\nprint(clip(np.array([[1, 5], [3, 0]])))\n\
         print(np.frompyfunc(lambda a, b: a + b, 2, 1)(1, 2))",
    );
    // The int first result makes the output int64, so 0.5 truncates to 0, as in NumPy.
    assert_eq!(
        out,
        "[0.  2.5 5.  7.5]\n[0. 1. 3.]\n[1 0]\n[1. 0.]\n(array([1, 2]), array([2, 4]))\n[[1 2]\n [2 0]]\n3\n"
    );
    let c = s.run("np.vectorize(lambda x: x)(np.array([]))");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
}

#[test]
fn cuda_ufuncs_resolve_python_scalars_as_numba_does() {
    let mut s = Session::new();
    s.run(
        "import numpy as np\nfrom numba import cuda, vectorize, int32, float32, float64\n\
         @vectorize([int32(int32, int32), float32(float32, float32), float64(float64, float64)], target='cuda')\n\
         def add(a, b):\n    return a + b",
    )
    .ok();
    // Python floats are float64: the float64 loop, not the first (int32) one.
    let out = s.stdout(
        "c = add(1.2, 2.3)\nprint(c, c.dtype)\nprint(add(np.float32(1.5), np.float32(2)).dtype)",
    );
    assert_eq!(out, "[3.5] float64\nfloat32\n");
    let c = s.run("vectorize(['float32(float32)'], target='cuda', nonexistent=2)");
    assert_eq!(c.ename().as_deref(), Some("KeyError"));
    assert!(c.evalue().contains("Unrecognized options"));
}

#[test]
fn fortran_order_creation_and_copy_false_on_device_arrays() {
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda").ok();
    let out = s.stdout(
        "a = np.zeros((2, 10), order='F')\nprint(a.strides, a.flags.f_contiguous, np.ones((2, 3), order='F').strides, np.full((2, 2), 7, order='F').strides)\n\
         d = cuda.to_device(a)\nprint(d._numba_type_.layout)",
    );
    assert_eq!(out, "(8, 16) True (8, 16) (8, 16)\nF\n");
    let c = s.run("np.array(d, copy=False)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert!(c.evalue().contains("`copy=False` is not"));
    assert_eq!(s.stdout("print(np.array(d, copy=None).shape)"), "(2, 10)\n");
}

#[test]
fn kernel_typing_errors_name_what_numba_names() {
    let mut s = Session::new();
    s.run("from numba import cuda, void, int32").ok();
    let c = s.run("def g(x):\n    cuda.grid(x)\ncuda.jit('void(int32)')(g)");
    assert_eq!(c.ename().as_deref(), Some("TypingError"));
    assert!(c.evalue().contains("RequireLiteralValue"));
    let c = s.run(
        "@cuda.jit(void(int32[::1]))\ndef f(x):\n    s = cuda.shared.array(10, dtype='int33')\n    x[0] = s[0]",
    );
    assert_eq!(c.ename().as_deref(), Some("TypingError"));
    assert!(c
        .evalue()
        .contains("Invalid NumPy dtype specified: 'int33'"));
}

#[test]
fn a_device_function_with_a_signature_converts_its_arguments() {
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda").ok();
    // Numba's test_device_casting: float32 channels pass through an int32 signature.
    let out = s.stdout(
        "@cuda.jit('int32(int32, int32, int32, int32)', device=True)\n\
         def rgba(r, g, b, a):\n    return (r & 255) << 16 | (g & 255) << 8 | (b & 255) << 0 | (a & 255) << 24\n\
         @cuda.jit\ndef caller(x, ch):\n    x[0] = rgba(ch[0], ch[1], ch[2], ch[3])\n\
         x = cuda.device_array(1, dtype=np.int32)\ncaller[1, 1](x, cuda.to_device(np.asarray([1.0, 2.0, 3.0, 4.0], dtype=np.float32)))\n\
         print(x[0], 1 << 16 | 2 << 8 | 3 | 4 << 24)",
    );
    assert_eq!(out, "67174915 67174915\n");
}
