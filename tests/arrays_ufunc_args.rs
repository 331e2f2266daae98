//! The keyword arguments of ufuncs and reductions (out=, dtype=, where=, casting=) and
//! in-place operators: honoured as NumPy honours them, or a clear error, never ignored.

mod common;
use common::Session;

fn session() -> Session {
    let mut s = Session::new();
    s.run("import numpy as np").ok();
    s
}

const CAST_ADD: &str = "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64') with casting rule 'same_kind'";

#[test]
fn in_place_operators_write_into_the_array() {
    let mut s = session();
    s.run("a = np.arange(4)\nv = a[1:]\nv += 10\nb = a\nb *= 2")
        .ok();
    assert_eq!(s.eval("a"), "array([ 0, 22, 24, 26])");
    s.run("f = np.ones(3, dtype=np.float32)\nf += 1.5").ok();
    assert_eq!(s.eval("f"), "array([2.5, 2.5, 2.5], dtype=float32)");
    s.run("g = np.ones(3)\ng += np.arange(3)").ok();
    assert_eq!(s.eval("g"), "array([1., 2., 3.])");
}

#[test]
fn int_array_plus_equals_float_is_a_casting_error() {
    let mut s = session();
    s.run("a = np.arange(3)").ok();
    let c = s.run("a += 1.5");
    assert_eq!(c.ename().as_deref(), Some("UFuncTypeError"));
    assert_eq!(c.evalue(), CAST_ADD);
    // Nothing was written, and the error is a TypeError for `except`.
    assert_eq!(s.eval("a"), "array([0, 1, 2])");
    assert_eq!(
        s.stdout("try:\n    a += np.ones(3)\nexcept TypeError:\n    print('caught')"),
        "caught\n"
    );
    let c = s.run("np.add(a, 0.5, out=a)");
    assert_eq!(c.evalue(), CAST_ADD);
    let c = s.run("np.sqrt(a, out=a)");
    assert_eq!(
        c.evalue(),
        "Cannot cast ufunc 'sqrt' output from dtype('float64') to dtype('int64') with casting rule 'same_kind'"
    );
    // casting='unsafe' asks for the truncation explicitly.
    s.run("np.add(a, 0.5, out=a, casting='unsafe')").ok();
    assert_eq!(s.eval("a"), "array([0, 1, 2])");
    // Shrinking within a kind is allowed ('same_kind').
    s.run("i8 = np.zeros(3, dtype=np.int8)\nnp.add(a, 1, out=i8)")
        .ok();
    assert_eq!(s.eval("i8"), "array([1, 2, 3], dtype=int8)");
}

#[test]
fn ufunc_where_leaves_unselected_out_elements() {
    let mut s = session();
    s.run("o = np.full(4, -1.0)\nx = np.arange(4.0)\nnp.add(x, 10, out=o, where=x > 1)")
        .ok();
    assert_eq!(s.eval("o"), "array([-1., -1., 12., 13.])");
    s.run("o2 = np.full(3, 7.0)\nnp.sqrt(np.array([4.0, 9.0, 16.0]), out=o2, where=[True, False, True])")
        .ok();
    assert_eq!(s.eval("o2"), "array([2., 7., 4.])");
    let c = s.run("np.add(x, 1, where=np.arange(4))");
    assert_eq!(c.ename().as_deref(), Some("TypeError"));
}

#[test]
fn ufunc_dtype_sets_the_computation_dtype() {
    let mut s = session();
    assert_eq!(
        s.eval("np.add(np.arange(3), 1, dtype=np.float32)"),
        "array([1., 2., 3.], dtype=float32)"
    );
    assert_eq!(
        s.eval("np.multiply(np.array([1.5, 2.5]), 2, dtype=np.float32).dtype"),
        "dtype('float32')"
    );
    assert_eq!(
        s.eval("np.sqrt(np.array([4, 9]), dtype=np.float32)"),
        "array([2., 3.], dtype=float32)"
    );
    let c = s.run("np.add(np.array([1.5]), 1, dtype=np.int64)");
    assert_eq!(c.ename().as_deref(), Some("UFuncTypeError"));
    assert_eq!(
        c.evalue(),
        "Cannot cast ufunc 'add' input 0 from dtype('float64') to dtype('int64') with casting rule 'same_kind'"
    );
    let c = s.run("np.add(np.arange(3), 1, casting='no')");
    assert_eq!(c.ename().as_deref(), Some("NotImplementedError"));
}

#[test]
fn reductions_honour_out_and_dtype() {
    let mut s = session();
    s.run("m = np.arange(6.0).reshape(2, 3)\no = np.zeros(3)\nr = np.sum(m, axis=0, out=o)")
        .ok();
    assert_eq!(s.eval("o"), "array([3., 5., 7.])");
    assert_eq!(s.eval("r is o"), "True");
    s.run("o1 = np.zeros(2)\nm.mean(axis=1, out=o1)").ok();
    assert_eq!(s.eval("o1"), "array([1., 4.])");
    s.run("z = np.zeros(())\nnp.max(m, out=z)").ok();
    assert_eq!(s.eval("z"), "array(5.)");
    let c = s.run("np.sum(m, axis=0, out=np.zeros(2))");
    assert_eq!(c.ename().as_deref(), Some("ValueError"));
    assert_eq!(
        s.eval("np.std(np.array([1, 2, 3, 4]), dtype=np.float32).dtype"),
        "dtype('float32')"
    );
}
