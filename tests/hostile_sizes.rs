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
