//! Sizes a cell chooses (widths, precisions, counts, shapes, dpi) never abort the process:
//! each is CPython's or NumPy's error, or the exact result, and the session lives on.
//! Before, every cell here ended the kernel with "memory allocation of N bytes failed"
//! or a Rust panic.

mod common;
use common::Session;

#[track_caller]
fn raises(s: &mut Session, code: &str, ename: &str) -> String {
    let c = s.run(code);
    assert_eq!(c.ename().as_deref(), Some(ename), "{code}: {}", c.evalue());
    c.evalue()
}

#[test]
fn user_sized_strings_are_memory_errors() {
    let mut s = Session::new();
    s.run("kept = 1").ok();
    for code in [
        "f'{1:{10**12}}'",
        "'{:>1000000000000}'.format(1)",
        "'a'.center(10**12)",
        "'x'.ljust(10**11)",
        "'x'.rjust(10**11)",
        "'x'.zfill(10**11)",
        "format(1.5, '1' + '0' * 15)",
    ] {
        raises(&mut s, code, "MemoryError");
    }
    // More digits than any size: CPython's ValueError.
    assert_eq!(
        raises(&mut s, "format(1, '9' * 30)", "ValueError"),
        "Too many decimal digits in format string"
    );
    assert_eq!(s.eval("kept"), "1");
}

#[test]
fn precisions_past_rusts_formatter_limit_are_exact() {
    // Expected values are CPython 3.11's: every digit a double has, then zeros.
    let mut s = Session::new();
    let out = s.stdout(
        "x = format(2.0**-1074, '.1200f').rstrip('0'); print(len(x), x[-12:])\n\
         t = format(0.1, '.1300f'); print(len(t), t[:30], t.rstrip('0')[-10:], len(t.rstrip('0')))\n\
         u = format(1/3, '.1200e'); print(len(u), u[-12:])\n\
         print(len('%.2000g' % 0.1), ('%.2000g' % 0.1)[-11:])\n\
         print(len('%.70000f' % 1.5))",
    );
    assert_eq!(
        out,
        "1076 533447265625\n\
         1302 0.1000000000000000055511151231 4541015625 57\n\
         1206 00000000e-01\n\
         57 04541015625\n\
         70002\n"
    );
}

#[test]
fn user_sized_arrays_and_device_work_are_memory_errors() {
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda\nkept = 2")
        .ok();
    // NumPy 2's messages for the same calls.
    assert_eq!(
        raises(&mut s, "np.random.rand(10**12)", "MemoryError"),
        "Unable to allocate 7.28 TiB for an array with shape (1000000000000,) and data type float64"
    );
    assert_eq!(
        raises(&mut s, "np.zeros((0, 10**18)).sum(axis=0)", "MemoryError"),
        "Unable to allocate 6.94 EiB for an array with shape (1000000000000000000,) and data type float64"
    );
    raises(
        &mut s,
        "from numba.cuda.random import create_xoroshiro128p_states\ncreate_xoroshiro128p_states(2**40, seed=1)",
        "MemoryError",
    );
    // An empty reduction result is still fine.
    assert_eq!(
        s.eval("np.zeros((0, 3)).sum(axis=0)"),
        "array([0., 0., 0.])"
    );
    assert_eq!(s.eval("kept"), "2");
}

#[test]
fn figure_sizes_from_savefig_and_subplots_are_checked() {
    let mut s = Session::new();
    s.run("import matplotlib.pyplot as plt\nplt.plot([1, 2])")
        .ok();
    let e = raises(
        &mut s,
        "plt.savefig('/tmp/nbcuda-dpi.png', dpi=100000)",
        "ValueError",
    );
    assert!(e.contains("at most 8000 pixels"), "{e}");
    raises(&mut s, "plt.subplot(10**6, 10**6, 1)", "ValueError");
    raises(&mut s, "plt.subplot(2**62, 4, 1)", "ValueError");
    // The figure is unchanged and still draws.
    s.run("plt.savefig('/tmp/nbcuda-dpi-ok.png')").ok();
}

#[test]
fn what_the_fuzzer_found_is_cpythons_and_numpys_behaviour() {
    // Each of these was an InternalError (a Rust panic), an abort or a hang, found by
    // tests/python/test_fuzz.py; expected values are CPython 3.11 + NumPy 2's.
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda").ok();
    let too_big = "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.";
    assert_eq!(raises(&mut s, "np.ones((0, 2**62))", "ValueError"), too_big);
    assert_eq!(
        raises(&mut s, "np.ones((0, 3)).reshape((-1, 2**62))", "ValueError"),
        too_big
    );
    raises(&mut s, "cuda.device_array((2**62, 0))", "ValueError");
    raises(
        &mut s,
        "cuda.device_array(8).reshape((2**62, 10))",
        "ValueError",
    );
    assert_eq!(
        raises(&mut s, "np.array([-0.0, []])", "ValueError"),
        "setting an array element with a sequence. The requested array has an inhomogeneous shape after 1 dimensions. The detected shape was (2,) + inhomogeneous part."
    );
    assert_eq!(
        raises(&mut s, "np.histogram((1, 2), 2**40)", "MemoryError"),
        "cannot allocate bin edges of 1099511627777 items"
    );
    assert_eq!(
        raises(&mut s, "int('10', 1)", "ValueError"),
        "int() base must be >= 2 and <= 36, or 0"
    );
    assert_eq!(
        s.eval("(int('0x1f', 0), int('-0b11', 0), int('0x1f', 16), int('017', 0) if False else int('17', 0))"),
        "(31, -3, 31, 17)"
    );
    // An empty identity matrix with 10**18 rows is instant; a negative size is an error.
    assert_eq!(
        raises(&mut s, "np.eye(10**18, -1)", "ValueError"),
        "negative dimensions are not allowed"
    );
    assert_eq!(
        s.eval("np.eye(10**18, 0).shape"),
        "(1000000000000000000, 0)"
    );
    assert_eq!(s.eval("np.eye(2, 3, k=10**18).sum()"), "np.float64(0.0)");
    assert_eq!(
        s.eval("np.eye(3, 4, k=-1).tolist()"),
        "[[0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]"
    );
    assert_eq!(s.eval("np.eye(3, k=-(2**62) * 2).sum()"), "np.float64(0.0)");
    // Empty repeats are instant, however large the count.
    assert_eq!(
        s.eval("(() * 10**12, '' * 10**12, [] * 10**12)"),
        "((), '', [])"
    );
    // In-place arithmetic on an empty row of an empty array.
    assert_eq!(
        s.eval("d = np.ones((7, 0))[3]\nd += 1\nd //= []\nd"),
        "array([], dtype=float64)"
    );
}

#[test]
fn hashing_a_tuple_nested_millions_deep_is_a_recursion_error() {
    // It recursed once per level on the native stack and the kernel died; CPython hashes
    // 100,000 levels, and so does nbcuda (on the kernel's 256 MiB execution stack).
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut s = Session::new();
            let ok =
                s.eval("u = ()\nfor i in range(50000):\n    u = (u,)\nisinstance(hash(u), int)");
            let deep = s.run("v = ()\nfor i in range(300000):\n    v = (v,)\nhash(v)");
            tx.send((ok, deep.ename())).unwrap();
        })
        .unwrap();
    let (ok, deep) = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .unwrap();
    assert_eq!(ok, "True");
    assert_eq!(deep.as_deref(), Some("RecursionError"));
}

#[test]
fn dropping_containers_nested_millions_deep_never_recurses() {
    // `l = [l]` in a loop, then `del l`, dropped one level per native frame and the kernel
    // died of a stack overflow. Dropped here on a 256 KiB stack, which a recursive drop
    // would overflow within a few thousand levels.
    use nbcuda::py::value::{Dict, Value};
    use std::cell::RefCell;
    use std::rc::Rc;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let mut l = Value::list(vec![]);
            let mut t = Value::tuple(vec![]);
            let mut d = Value::None;
            for i in 0..2_000_000 {
                l = Value::list(vec![Value::Int(i), l]);
                t = Value::tuple(vec![t, Value::Int(i)]);
                let mut entries = Dict::default();
                entries.push(Value::Int(i), d);
                d = Value::Dict(Rc::new(RefCell::new(entries)));
            }
            let mixed = Value::list(vec![l, t.clone(), d]);
            drop(mixed);
            // A container still referenced elsewhere is not torn down by the drop.
            let kept = Value::tuple(vec![t.clone()]);
            drop(kept);
            let Value::Tuple(ref items) = t else {
                unreachable!()
            };
            tx.send(items.len()).unwrap();
        })
        .unwrap();
    let outer = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("the drop finished");
    assert_eq!(outer, 2);
}

#[test]
fn a_cell_can_delete_a_list_nested_a_million_deep() {
    let mut s = Session::new();
    assert_eq!(
        s.eval("l = []\nfor i in range(1000000):\n    l = [l]\ndel l\nm = [[1, [2]], (3, {4: [5]})]\ndel m\n'alive'"),
        "'alive'"
    );
}

#[test]
fn zero_dimensional_arrays_in_kernels_are_typing_errors_not_panics() {
    // Found by the fuzzer after kernels learnt array views: `a.size` and `len(a)` of a 0-d
    // array indexed an empty shape in the compiler.
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda").ok();
    let filled = s.run(
        "@cuda.jit\ndef fill_k(a, v):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = v\n\
         d = cuda.device_array((), dtype=np.bool_)\nfill_k[1, 1](d, 7)",
    );
    assert_eq!(
        filled.ename().as_deref(),
        Some("TypingError"),
        "{}",
        filled.evalue()
    );
    assert!(
        filled.evalue().contains("0-dimensional"),
        "{}",
        filled.evalue()
    );
    let sized = s.run(
        "@cuda.jit\ndef count(a, out):\n    out[0] = a.size\nout = cuda.device_array(1, dtype=np.int64)\n\
         count[1, 1](cuda.device_array(()), out)\nprint(out.copy_to_host()[0])",
    );
    assert_eq!(sized.out.stdout, "1\n");
    let lenned = s.run("@cuda.jit\ndef k(a):\n    print(len(a))\nk[1, 1](cuda.device_array(()))");
    assert_eq!(lenned.ename().as_deref(), Some("TypingError"));
    assert!(lenned.evalue().contains("len() of unsized object"));
}

#[test]
fn searching_megabytes_of_bytes_finishes() {
    // A window-by-window search is quadratic: these cells took minutes (no interrupt
    // check ran meanwhile). CPython answers them at once.
    let mut s = Session::new();
    let out = s.stdout(
        "hay = bytes(3_000_000)\nneedle = bytes(1_000_000) + b'b'\n\
         print(needle in hay, needle in bytearray(hay), needle[:-1] in hay, b'' in hay, 98 in needle)",
    );
    assert_eq!(out, "False False True True True\n");
}
