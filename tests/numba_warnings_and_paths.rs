//! Found by Numba's own CUDA tests and by code that imports Numba's internals: Python's
//! `warnings` filters applied to the warnings nbcuda itself issues (Numba's tests record
//! `NumbaPerformanceWarning` with `catch_warnings(record=True)`), submodule import paths
//! (`from numba.cuda.cudadrv import devicearray`), `numba.np` after `import numba`, class
//! reprs with their modules, the TypingError for a Python builtin a kernel cannot type,
//! CUDA gufunc signature selection by casting, and `np.can_cast`.
//! Expected outputs: CPython 3.11's `warnings` module, NumPy 2.3 and hardware Numba 0.62.

mod common;
use common::Session;

fn setup() -> Session {
    let mut s = Session::new();
    s.run(
        "import numpy as np, warnings\nfrom numba import cuda\n\
         @cuda.jit\ndef inc(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += 1",
    )
    .ok();
    s
}

#[test]
fn catch_warnings_records_the_host_array_performance_warning() {
    let mut s = setup();
    let c = s.run(
        "from numba.core.errors import NumbaPerformanceWarning\n\
         with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always', NumbaPerformanceWarning)\n\
         \x20   inc[128, 4](np.zeros(4))\n\
         print(len(w), w[0].category is NumbaPerformanceWarning, str(w[0].message))\n\
         print(issubclass(w[0].category, Warning), type(w[0].message).__name__)",
    );
    assert_eq!(
        c.out.stdout,
        "1 True Host array used in CUDA kernel will incur copy overhead to/from device.\nTrue NumbaPerformanceWarning\n"
    );
    // Recorded, so not shown.
    assert_eq!(c.out.stderr, "");
}

#[test]
fn error_and_ignore_filters_apply_to_warnings_nbcuda_issues() {
    let mut s = setup();
    let c = s.run(
        "with warnings.catch_warnings():\n    warnings.simplefilter('error')\n\
         \x20   try:\n        inc[1, 4](np.zeros(4))\n    except Warning as e:\n        print(type(e).__name__)\n\
         with warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n    inc[1, 4](np.zeros(4))\n\
         print(np.nanmax(np.array([np.nan])))",
    );
    assert_eq!(c.out.stdout, "NumbaPerformanceWarning\nnan\n");
    // The `ignore` block hid the kernel's warning; outside the block NumPy's shows.
    assert!(
        !c.out.stderr.contains("NumbaPerformanceWarning"),
        "{}",
        c.out.stderr
    );
    assert!(
        c.out
            .stderr
            .contains("RuntimeWarning: All-NaN slice encountered"),
        "{}",
        c.out.stderr
    );
    // Leaving catch_warnings restored the default: the next launch warns again.
    let c = s.run("inc[1, 4](np.zeros(4))");
    assert!(c.out.stderr.contains("NumbaPerformanceWarning"));
}

#[test]
fn the_warnings_module_filters_as_cpython_does() {
    let mut s = setup();
    let out = s.stdout(
        "with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n\
         \x20   warnings.warn('first')\n    warnings.warn('second', RuntimeWarning)\n\
         \x20   warnings.warn(DeprecationWarning('third'))\n\
         print(len(w), [x.category.__name__ for x in w], [str(x.message) for x in w], repr(w[2].message))\n\
         class MyWarning(UserWarning):\n    pass\n\
         with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n\
         \x20   warnings.filterwarnings('ignore', message='skip')\n\
         \x20   for m in ['skip me', 'keep me', 'SKIP too']:\n        warnings.warn(m, MyWarning)\n\
         print(len(w), w[0].category.__name__, str(w[0].message), issubclass(w[0].category, UserWarning))\n\
         with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('default')\n\
         \x20   for i in range(3):\n        warnings.warn('same')\n\
         print(len(w))\n\
         with warnings.catch_warnings(record=True, action='always') as w:\n    warnings.warn('a'); warnings.warn('a')\n\
         print(len(w))\n\
         with warnings.catch_warnings():\n    warnings.simplefilter('error')\n\
         \x20   try:\n        warnings.warn('boom', RuntimeWarning)\n    except RuntimeWarning as e:\n        print('caught', e)\n\
         try:\n    warnings.simplefilter('bogus')\nexcept AssertionError as e:\n    print(e)\n\
         print(warnings.catch_warnings(record=True))",
    );
    // CPython 3.11 prints exactly this.
    assert_eq!(
        out,
        "3 ['UserWarning', 'RuntimeWarning', 'DeprecationWarning'] ['first', 'second', 'third'] DeprecationWarning('third')\n\
         1 MyWarning keep me True\n1\n2\ncaught boom\ninvalid action: 'bogus'\ncatch_warnings(record=True)\n"
    );
}

#[test]
fn numba_internal_paths_import_as_in_numba() {
    let mut s = setup();
    let out = s.stdout(
        "import numba\nfrom numba.cuda.cudadrv import devicearray, driver\n\
         import numba.cuda.cudadrv.devicearray as da\n\
         print(da is devicearray, devicearray.is_contiguous(cuda.to_device(np.zeros(3))))\n\
         print(numba.np.numpy_support.from_dtype(np.float32), numba.core.errors.TypingError)\n\
         print(issubclass(driver.CudaAPIError, Exception), driver.CudaAPIError.__module__)\n\
         import json\nprint(json.JSONDecodeError, ValueError)",
    );
    assert_eq!(
        out,
        "True True\nfloat32 <class 'numba.core.errors.TypingError'>\nTrue numba.cuda.cudadrv.driver\n\
         <class 'json.decoder.JSONDecodeError'> <class 'ValueError'>\n"
    );
}

#[test]
fn a_python_builtin_a_kernel_cannot_type_is_an_untyped_global() {
    let mut s = setup();
    let c = s
        .run("@cuda.jit\ndef k(a):\n    a[0] = len(frozenset([1]))\nk[1, 1](cuda.device_array(1))");
    assert_eq!(c.ename().as_deref(), Some("TypingError"));
    assert!(
        c.evalue().contains(
            "Untyped global name 'frozenset': Cannot determine Numba type of <class 'type'>"
        ),
        "{}",
        c.evalue()
    );
    let c =
        s.run("@cuda.jit\ndef k2(a):\n    a[0] = undefined_thing\nk2[1, 1](cuda.device_array(1))");
    assert!(
        c.evalue()
            .contains("NameError: name 'undefined_thing' is not defined"),
        "{}",
        c.evalue()
    );
}

#[test]
fn cuda_gufuncs_pick_a_signature_by_casting_as_numba_does() {
    let mut s = setup();
    s.run(
        "from numba import guvectorize\n\
         @cuda.guvectorize(['void(float32[:], float32[:])'], '(n)->(n)')\n\
         def twice(a, out):\n    for i in range(a.shape[0]):\n        out[i] = a[i] * 2\n\
         @guvectorize(['void(float32[:], float32[:])'], '(n)->(n)')\n\
         def twice_cpu(a, out):\n    for i in range(a.shape[0]):\n        out[i] = a[i] * 2",
    )
    .ok();
    // Numba casts a float64 host array to the float32 loop (its signature search asks
    // np.can_cast(signature type, input type)).
    let out = s.stdout("r = twice(np.arange(3.0))\nprint(r, r.dtype)");
    assert_eq!(out, "[0. 2. 4.] float32\n");
    // A device array cannot be cast (Numba calls .astype, which DeviceNDArray lacks).
    let c = s.run("twice(cuda.to_device(np.arange(3.0)))");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert!(
        c.evalue().contains("does not support .astype()"),
        "{}",
        c.evalue()
    );
    // A CPU gufunc follows NumPy's safe casting: float64 does not reach a float32 loop.
    assert_eq!(
        s.run("twice_cpu(np.arange(3.0))").ename().as_deref(),
        Some("TypeError")
    );
    let c = s.run("x = np.zeros(3, np.float32)\ntwice(x, x, out=x)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(
        c.evalue(),
        "cannot specify argument 'out' as both positional and keyword"
    );
}

#[test]
fn can_cast_follows_numpy_2() {
    let mut s = setup();
    let out = s.stdout(
        "print(np.can_cast(np.int64, np.float64), np.can_cast('f8', 'f4'), np.can_cast(np.float64, np.float32, 'same_kind'))\n\
         print(np.can_cast(np.int8, np.uint8), np.can_cast(np.array([1], np.int16), np.int32), np.can_cast(np.uint8, np.int16))\n\
         print(np.can_cast(np.float32, np.int64, 'same_kind'), np.can_cast(np.bool_, np.int8), np.can_cast(np.float64, np.int8, 'unsafe'))\n\
         print(np.can_cast(np.uint64, np.int64), np.can_cast(np.int32, np.int32, 'no'), np.can_cast(np.int32, np.int64, 'equiv'))",
    );
    assert_eq!(
        out,
        "True False True\nFalse True True\nFalse True True\nFalse True False\n"
    );
    let c = s.run("np.can_cast(1, np.int8)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    let c = s.run("np.can_cast(np.int8, np.int8, 'bad')");
    assert_eq!(
        c.evalue(),
        "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got 'bad')"
    );
}

#[test]
fn small_grids_warn_of_low_occupancy_unless_numba_config_says_not_to() {
    let mut s = setup();
    let d = "d = cuda.device_array(4)\n";
    let c = s.run(&format!(
        "{d}inc[1, 4](d)\ninc[128, 1](cuda.device_array(128))"
    ));
    // Numba's words; 128 blocks is its threshold, so the second launch is quiet.
    assert_eq!(
        c.out.stderr.matches("Grid size").count(),
        1,
        "{}",
        c.out.stderr
    );
    assert!(
        c.out.stderr.contains(
            "NumbaPerformanceWarning: Grid size 1 will likely result in GPU under-utilization due to low occupancy."
        ),
        "{}",
        c.out.stderr
    );
    let c = s.run(&format!(
        "import numba\nnumba.config.CUDA_LOW_OCCUPANCY_WARNINGS = 0\nnumba.config.CUDA_WARN_ON_IMPLICIT_COPY = 0\n{d}inc[1, 4](d)\ninc[1, 4](np.zeros(4))"
    ));
    assert_eq!(c.out.stderr, "");
}

#[test]
fn a_shared_array_shape_that_is_not_constant_fails_typing_with_numbas_signature() {
    let mut s = setup();
    s.run("from numba import float32\nROWS, COLS = 5, 6").ok();
    // (kernel source, the signature line Numba prints for it)
    let cases = [
        (
            "def k(A):\n    s = cuda.shared.array(shape=A[0], dtype=float32)\n    A[0] = s[0]\n\
             cuda.jit((float32[:],))(k)",
            ">>> array(shape=float32, dtype=class(float32))",
        ),
        (
            "def k(A):\n    s = cuda.shared.array(shape=(1, A[0]), dtype=float32)\n    A[0, 0] = s[0, 0]\n\
             cuda.jit((float32[:, :],))(k)",
            ">>> array(shape=Tuple(Literal[int](1), array(float32, 1d, A)), dtype=class(float32))",
        ),
        (
            "def k(A):\n    s = cuda.shared.array(shape=[ROWS, COLS], dtype=float32)\n    A[0, 0] = s[0, 0]\n\
             cuda.jit((float32[:, :],))(k)",
            ">>> array(shape=list(int64)<iv=[5, 6]>, dtype=class(float32))",
        ),
    ];
    for (code, signature) in cases {
        let c = s.run(code);
        assert_eq!(c.ename().as_deref(), Some("TypingError"), "{code}");
        let e = c.evalue();
        assert!(
            e.contains("No implementation of function Function(<function shared.array"),
            "{e}"
        );
        assert!(
            e.contains(&format!("found for signature:\n \n {signature}")),
            "{e}"
        );
    }
}
