//! NumPy behaviour Numba's own tests rely on, checked against NumPy 2.3's output for the
//! same cells: `np.nanmin`/`np.nanmax` (NaNs skipped; an all-NaN slice gives NaN and one
//! RuntimeWarning), assigning `a.shape`, `np.matmul` over stacks of matrices, integer
//! matrix products (in the integer dtype, wrapping), `np.tile`, `np.finfo`,
//! `np.asfortranarray`, and `np.testing.assert_array_almost_equal`.

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

#[test]
fn assigning_shape_reshapes_a_view_in_place() {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    // NumPy 2.3 output for the same cells.
    let out = s.stdout("a = np.arange(20.0)\na.shape = (10, -1)\nprint(a.shape, a[9, 1])");
    assert_eq!(out, "(10, 2) 19.0\n");
    let c = s.run("b = np.arange(12.0).reshape(3, 4).T\nb.shape = (12,)");
    assert_eq!(c.ename().as_deref(), Some("AttributeError"));
    assert_eq!(
        c.evalue(),
        "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the desired shape."
    );
}

#[test]
fn assert_array_almost_equal_uses_six_decimals() {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    let c = s.run("np.testing.assert_array_almost_equal(np.array([1.0]), np.array([1.0000004]))");
    assert!(c.ename().is_none(), "{}", c.evalue());
    let c = s.run("np.testing.assert_array_almost_equal(np.array([1.0]), np.array([1.000002]))");
    assert_eq!(c.ename().as_deref(), Some("AssertionError"));
    assert!(
        c.evalue()
            .contains("Arrays are not almost equal to 6 decimals"),
        "{}",
        c.evalue()
    );
}

#[test]
fn matmul_broadcasts_stacks_of_matrices() {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    let out = s.stdout(
        "A = np.arange(12, dtype=np.float32).reshape(3, 2, 2)\nB = np.arange(4, dtype=np.float32).reshape(2, 2)\n\
         print(np.matmul(A, B).tolist(), np.matmul(np.arange(3.0), np.ones((2, 3, 2))).tolist(), repr(np.matmul(A, B).dtype))",
    );
    assert_eq!(
        out,
        "[[[2.0, 3.0], [6.0, 11.0]], [[10.0, 19.0], [14.0, 27.0]], [[18.0, 35.0], [22.0, 43.0]]] [[3.0, 3.0], [3.0, 3.0]] dtype('float32')\n"
    );
    let c = s.run("np.matmul(np.ones((2, 3)), np.ones((2, 3)))");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
}

#[test]
fn integer_matrix_products_wrap_in_the_integer_dtype() {
    // Expected outputs are NumPy 2.3's: integer products accumulate in the integer dtype
    // (exact past 2**53, wrapping on overflow), not in float64.
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    let out = s.stdout(
        "a = np.array([[2**53 + 1, 3], [5, 7]])\nb = np.array([[1, 1], [1, 2**62]])\n\
         print((a @ b).tolist(), np.dot(a[0], a[1]), np.matmul(np.stack([a, a]), b)[1, 1].tolist())\n\
         print(np.dot(np.array([2**62, 2**62]), np.array([4, 4])), np.array([200, 100], dtype=np.uint8) @ np.array([2, 1], dtype=np.uint8))\n\
         print(np.array([1j, 2]) @ np.array([1j, 3]), np.dot(np.array([False, True]), np.array([True, False])))",
    );
    assert_eq!(
        out,
        "[[9007199254740996, -4602678819172646911], [12, -4611686018427387899]] 45035996273704986 [12, -4611686018427387899]\n\
         0 244\n\
         (5+0j) False\n"
    );
}

#[test]
fn tile_repeats_along_each_axis() {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    let out = s.stdout(
        "print(np.tile(np.array([0, 1, 2]), 2).tolist(), np.tile(np.array([[1, 2], [3, 4]]), (2, 1)).tolist(), np.tile(np.array([1, 2]), (2, 2)).tolist(), np.tile(np.arange(3), 0).shape, np.tile(np.array([[1.5]]), 3).tolist())",
    );
    assert_eq!(
        out,
        "[0, 1, 2, 0, 1, 2] [[1, 2], [3, 4], [1, 2], [3, 4]] [[1, 2, 1, 2], [1, 2, 1, 2]] (0,) [[1.5, 1.5, 1.5]]\n"
    );
}

#[test]
fn finfo_and_asfortranarray() {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    let out = s.stdout(
        "f = np.finfo(np.float32)\nprint(repr(f.max), repr(f.eps), repr(f.tiny), repr(f.min), f.bits, f.dtype, repr(f.resolution), f.precision)\n\
         g = np.finfo(np.float64)\nprint(repr(g.max), repr(g.eps), repr(g.tiny), g.bits, repr(g.resolution), g.precision)\nprint(repr(f))\n\
         a = np.asfortranarray(np.arange(6).reshape(2, 3))\nprint(a.flags['F_CONTIGUOUS'], a.flags['C_CONTIGUOUS'], a.tolist(), a.strides)",
    );
    assert_eq!(
        out,
        "np.float32(3.4028235e+38) np.float32(1.1920929e-07) np.float32(1.1754944e-38) np.float32(-3.4028235e+38) 32 float32 np.float32(1e-06) 6\n\
         np.float64(1.7976931348623157e+308) np.float64(2.220446049250313e-16) np.float64(2.2250738585072014e-308) 64 np.float64(1e-15) 15\n\
         finfo(resolution=1e-06, min=-3.4028235e+38, max=3.4028235e+38, dtype=float32)\n\
         True False [[0, 1, 2], [3, 4, 5]] (8, 16)\n"
    );
    let c = s.run("np.finfo(np.int32)");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
}

#[test]
fn fmod_copysign_nextafter_and_c_type_names_are_numpys() {
    // Numba's math tests compare kernels with these ufuncs; values from NumPy 2.3.
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    assert_eq!(
        s.stdout("print(np.fmod(np.array([-5, 5, 7]), 3), np.fmod(-5.5, 2))"),
        "[-2  2  1] -1.5\n"
    );
    assert_eq!(s.eval("np.fmod(np.array([4, -4]), 0)"), "array([0, 0])");
    assert_eq!(
        s.eval("np.fmod(np.array([True]), np.array([True]))"),
        "array([0], dtype=int8)"
    );
    assert_eq!(s.eval("np.copysign(3, -0.0)"), "np.float64(-3.0)");
    assert_eq!(
        s.eval("np.copysign(np.array([1, -2], dtype=np.float32), 1)"),
        "array([1., 2.], dtype=float32)"
    );
    assert_eq!(
        s.eval("np.nextafter(1.0, 2.0)"),
        "np.float64(1.0000000000000002)"
    );
    assert_eq!(
        s.eval("np.nextafter(np.float32(1), np.float32(0))"),
        "np.float32(0.99999994)"
    );
    assert_eq!(s.eval("np.nextafter(0.0, -1.0)"), "np.float64(-5e-324)");
    assert_eq!(
        s.stdout("print(np.byte, np.ubyte, np.short, np.uint)"),
        "<class 'numpy.int8'> <class 'numpy.uint8'> <class 'numpy.int16'> <class 'numpy.uint64'>\n"
    );
}

#[test]
fn ranges_convert_like_other_sequences() {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    assert_eq!(s.eval("np.array(range(5))"), "array([0, 1, 2, 3, 4])");
    assert_eq!(s.eval("np.array(range(0))"), "array([], dtype=float64)");
    assert_eq!(
        s.eval("np.asarray(range(2, 10, 3), dtype=np.float32)"),
        "array([2., 5., 8.], dtype=float32)"
    );
}

#[test]
fn flags_read_as_attributes_and_as_a_mapping() {
    let mut s = Session::new();
    s.run("import numpy as np\na = np.zeros((3, 4))\nf = np.asfortranarray(a)")
        .ok();
    assert_eq!(
        s.stdout("print(a.flags.c_contiguous, a.flags.f_contiguous, f.flags['F'], f.flags.fortran, a[:, 1].flags.contiguous, a.flags.owndata, a[1:].flags.owndata)"),
        "True False True True False True False\n"
    );
    assert_eq!(
        s.stdout("print(repr(a.flags))"),
        "  C_CONTIGUOUS : True\n  F_CONTIGUOUS : False\n  OWNDATA : True\n  WRITEABLE : True\n  ALIGNED : True\n  WRITEBACKIFCOPY : False\n\n"
    );
    assert_eq!(
        s.run("a.flags['c_contiguous']").ename().as_deref(),
        Some("KeyError")
    );
}

#[test]
fn writeable_false_makes_every_write_raise_as_numpy_does() {
    // Messages and flags as NumPy 2.3 gives them.
    let mut s = Session::new();
    s.run(
        "import numpy as np\nfrom numba import cuda\na = np.arange(4.0)\na.flags.writeable = False",
    )
    .ok();
    let out = s.stdout(
        "for code in ['a[0] = 1', 'a += 1', 'np.add(a, 1, out=a)', 'a.sort()', 'a.fill(0)', 'a[:2][0] = 5', 'a[1:].flags.writeable = True']:\n\
         \x20   try:\n\
         \x20       exec(code)\n\
         \x20       print('ok')\n\
         \x20   except ValueError as e:\n\
         \x20       print(e)\n\
         print(a.flags.writeable, a.flags['W'], a[1:].flags.writeable, a.copy().flags.writeable, a.flags.carray, a)",
    );
    assert_eq!(
        out,
        "assignment destination is read-only\noutput array is read-only\noutput array is read-only\nsort array is read-only\nassignment destination is read-only\nassignment destination is read-only\ncannot set WRITEABLE flag to True of this array\nFalse False False True False [0. 1. 2. 3.]\n"
    );
    assert!(s
        .stdout("print(repr(a.flags))")
        .contains("WRITEABLE : False"));
    // Reading works, and so does copying to a device (Numba's test_device_array_from_readonly).
    assert_eq!(
        s.stdout("print(cuda.to_device(a).copy_to_host(), a.sum())"),
        "[0. 1. 2. 3.] 6.0\n"
    );
    // The owner may lift the mark again.
    assert_eq!(
        s.stdout("a.flags['WRITEABLE'] = True\na[0] = 9\nprint(a, a.flags.writeable)"),
        "[9. 1. 2. 3.] True\n"
    );
}

#[test]
fn array_takes_the_memory_order_it_is_asked_for() {
    // NumPy 2.3: order='F' copies column-major; 'K' and 'A' keep a Fortran-ordered
    // source Fortran-ordered; an unknown order is a ValueError.
    let mut s = Session::new();
    s.run("import numpy as np\na = np.arange(6).reshape(2, 3)")
        .ok();
    assert_eq!(
        s.stdout("for o in 'CFAK':\n    b = np.array(a.T, order=o)\n    print(o, b.flags.c_contiguous, b.flags.f_contiguous, (b == a.T).all())"),
        "C True False True\nF False True True\nA False True True\nK False True True\n"
    );
    assert_eq!(s.eval("np.array(a, order='F').strides"), "(8, 16)");
    let e = s.run("np.array(a, order='X')");
    assert_eq!(e.ename().as_deref(), Some("ValueError"));
    assert_eq!(
        e.evalue(),
        "order must be one of 'C', 'F', 'A', or 'K' (got 'X')"
    );
}

#[test]
fn modf_splits_like_numpy() {
    // NumPy 2.3's output for the same calls.
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    assert_eq!(
        s.stdout("print(np.modf(np.array([2.5, -2.0, np.inf, -np.inf, -0.25])))"),
        "(array([ 0.5 , -0.  ,  0.  , -0.  , -0.25]), array([  2.,  -2.,  inf, -inf,  -0.]))\n"
    );
    assert_eq!(
        s.stdout("print(np.modf(np.array([3, -7])), repr(np.modf(1.75)))"),
        "(array([ 0., -0.]), array([ 3., -7.])) (np.float64(0.75), np.float64(1.0))\n"
    );
    assert_eq!(
        s.stdout("print(np.modf(np.array([1.5], dtype=np.float32)))"),
        "(array([0.5], dtype=float32), array([1.], dtype=float32))\n"
    );
}

#[test]
fn ndarray_constructor_views_a_buffer_with_offset_and_strides() {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    // Values as NumPy 2 prints them for the same calls.
    let out = s.stdout(
        "x = np.arange(10, dtype=np.double)\ny = np.ndarray(shape=80, buffer=x, dtype=np.byte)\nprint(y[8:16])\n\
         z = np.ndarray(8, buffer=y[8:-8], dtype=np.double)\nz[0] = 100\nprint(z[:3], x[1])\n\
         print(np.ndarray((2, 2), buffer=x, dtype=np.double, strides=(16, 8), offset=16))\n\
         print(np.ndarray((2, 3), order='F').strides)",
    );
    assert_eq!(
        out,
        "[  0   0   0   0   0   0 -16  63]\n[100.   2.   3.] 100.0\n[[2. 3.]\n [4. 5.]]\n(8, 16)\n"
    );
    let c = s.run("np.ndarray(20, buffer=x)");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
    assert!(c.evalue().contains("buffer is too small"));
    // An unaligned view is refused (NumPy would allow it), never a crash.
    let c = s.run("np.ndarray(9, buffer=y[4:-4], dtype=np.double)");
    assert_eq!(c.ename().as_deref(), Some("NotImplementedError"));
}

#[test]
fn binary_ufuncs_are_objects_with_reduce_accumulate_and_outer() {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    // Expected lines are NumPy 2's output for the same expressions.
    let out = s.stdout(
        "print(np.add.reduce(np.arange(8, dtype=np.int32)).dtype, np.maximum.reduce(np.arange(8, dtype=np.int8)).dtype)\n\
         print(np.subtract.reduce(np.arange(6).reshape(2, 3)), np.subtract.reduce(np.arange(6).reshape(2, 3), axis=1), np.add.reduce(np.ones((2, 3)), axis=None))\n\
         print(np.maximum.accumulate([1, 3, 2, 5, 4]), np.subtract.accumulate([[1, 2], [3, 4]]).tolist())\n\
         print(np.multiply.outer([1, 2], [3, 4, 5]).tolist(), repr(np.add), type(np.add), np.add.nin, np.add.identity, np.maximum.identity)\n\
         print(np.add.reduce([]), np.add.reduce(np.ones((2, 3)), keepdims=True).shape, np.equal.reduce([True, False, True]), np.add(1, 2))",
    );
    assert_eq!(
        out,
        "int64 int8\n[-3 -3 -3] [-3 -6] 6.0\n[1 3 3 5 5] [[1, 2], [-2, -2]]\n\
         [[3, 4, 5], [6, 8, 10]] <ufunc 'add'> <class 'numpy.ufunc'> 2 0 None\n0.0 (1, 3) False 3\n"
    );
    let c = s.run("np.maximum.reduce([])");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert!(c.evalue().contains("which has no identity"));
}

#[test]
fn repeat_matches_numpy() {
    // Expected output: NumPy 2's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import numpy as np\nprint(np.repeat([1, 2], 2), np.repeat(np.array([[1, 2], [3, 4]]), 2, axis=0).tolist(), np.repeat([[1, 2], [3, 4]], [1, 2], axis=1).tolist())\nprint(np.repeat(3, 2), np.repeat([[1, 2], [3, 4]], 2), np.array([1.5, 2.5]).repeat(2), np.array([[1, 2]]).repeat([2], axis=0).tolist(), np.repeat([1, 2], 0))\nfor f in [lambda: np.repeat([1, 2], -1), lambda: np.repeat([1, 2], [1, 2, 3]), lambda: np.repeat([[1, 2]], 2, axis=2), lambda: np.repeat([1, 2], [1, -1])]:\n    try:\n        f()\n    except Exception as e:\n        print(type(e).__name__, e)");
    assert_eq!(out, "[1 1 2 2] [[1, 2], [1, 2], [3, 4], [3, 4]] [[1, 2, 2], [3, 4, 4]]\n[3 3] [1 1 2 2 3 3 4 4] [1.5 1.5 2.5 2.5] [[1, 2], [1, 2]] []\nValueError negative dimensions are not allowed\nValueError operands could not be broadcast together with shape (2,) (3,)\nAxisError axis 2 is out of bounds for array of dimension 2\nValueError repeats may not contain negative values.\n");
}

#[test]
fn seeded_legacy_permutation_and_choice_match_numpy() {
    // Expected output: NumPy 2's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import numpy as np\nnp.random.seed(0)\nprint(np.random.rand(3))\nprint(np.random.randint(0, 10, size=5), np.random.permutation(5))\na = np.arange(6)\nnp.random.shuffle(a)\nprint(a, np.random.choice(5, 3), np.random.choice(['a', 'b', 'c']))\nnp.random.seed(1)\nprint(np.random.permutation([10, 20, 30, 40]), np.random.permutation(np.arange(6).reshape(3, 2)).tolist(), np.random.choice(10, 4, replace=False), np.random.choice(3, 5, p=[0.1, 0.2, 0.7]), np.random.choice([1.5, 2.5], size=(2, 2)).tolist())");
    assert_eq!(out, "[0.5488135  0.71518937 0.60276338]\n[3 7 9 3 5] [1 3 4 0 2]\n[3 5 1 2 4 0] [0 1 1] b\n[40 30 10 20] [[0, 1], [4, 5], [2, 3]] [3 7 6 2] [2 2 2 2 1] [[1.5, 1.5], [1.5, 2.5]]\n");
}

#[test]
fn default_rng_draws_numpys_stream() {
    // Expected output: NumPy 2's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import numpy as np\nrng = np.random.default_rng(42)\nprint(rng.integers(0, 10, 5), rng.random(2), rng.permutation(4))\nrng = np.random.default_rng(12345)\nprint(rng.integers(-5, 100, 3), rng.integers(0, 2**40, 2), rng.random(), rng.permutation(10), rng.permutation([1.5, 2.5, 3.5]))\nrng = np.random.default_rng(2**70 + 3)\nx = np.arange(5)\nrng.shuffle(x)\nprint(x, rng.integers(3))");
    assert_eq!(out, "[0 7 6 4 4] [0.69736803 0.09417735] [3 1 0 2]\n[68 18 77] [876712591924 743549873828] 0.391109550601909 [0 2 8 6 4 1 9 7 3 5] [1.5 3.5 2.5]\n[4 3 1 0 2] 0\n");
}

#[test]
fn matmul_shape_error_is_numpys() {
    // Expected output: NumPy 2's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import numpy as np\nfor a, b in [((2, 3), (2, 3)), ((3,), (2,)), ((2, 2, 3), (2, 2))]:\n    try:\n        np.ones(a) @ np.ones(b)\n    except ValueError as e:\n        print(e)\nprint(np.ones((2, 3)) @ np.ones(3), np.matmul(np.ones((2, 1, 2)), np.ones((2, 2))).shape)");
    assert_eq!(out, "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 2 is different from 3)\nmatmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 2 is different from 3)\nmatmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 2 is different from 3)\n[3. 3.] (2, 1, 2)\n");
}

#[test]
fn views_do_not_own_their_data() {
    // Expected output: NumPy 2's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import numpy as np\na = np.arange(6).reshape(2, 3)\nprint(np.arange(6).flags.owndata, a.flags.owndata, a[0].flags.owndata, a.T.flags.owndata, a.copy().flags.owndata, a.ravel().flags.owndata, a.flatten().flags.owndata, np.zeros(3).flags['OWNDATA'])");
    assert_eq!(out, "True False False False True False True True\n");
}

#[test]
fn storing_nan_or_inf_into_int_arrays_raises() {
    // Expected output: NumPy 2's for the same cell.
    let mut s = Session::new();
    let out = s.stdout("import numpy as np\nfor v in [np.nan, np.inf, -np.inf, np.float64('nan'), np.float32('nan'), 1e30]:\n    a = np.array([1, 2], dtype=int)\n    try:\n        a[0] = v\n    except (ValueError, OverflowError) as e:\n        print(type(e).__name__, e)\na = np.array([1, 2])\na[0] = 2.7\na[1:] = -1.5\nb = np.array([1.0, 2.0])\nb[0] = np.nan\nprint(a, b)");
    assert_eq!(out, "ValueError cannot convert float NaN to integer\nOverflowError cannot convert float infinity to integer\nOverflowError cannot convert float infinity to integer\nValueError cannot convert float NaN to integer\nValueError cannot convert float NaN to integer\nOverflowError Python int too large to convert to C long\n[ 2 -1] [nan  2.]\n");
}

#[test]
fn error_modes_that_promise_an_action_are_refused_not_ignored() {
    // nbcuda detects no floating-point errors, so `'raise'` could never raise: it is
    // refused, and the session's modes stay as they were.
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    for cell in [
        "np.seterr(divide='raise')",
        "np.seterr(all='call')",
        "np.errstate(invalid='raise')",
        "np.errstate(call=print)",
    ] {
        let c = s.run(cell);
        assert_eq!(c.ename().as_deref(), Some("NotImplementedError"), "{cell}");
    }
    assert_eq!(
        s.eval("np.geterr()"),
        "{'divide': 'warn', 'over': 'warn', 'under': 'ignore', 'invalid': 'warn'}"
    );
}
