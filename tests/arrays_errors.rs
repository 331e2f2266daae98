//! Error types and messages of bad array operations, as NumPy words them.
mod common;
use common::Session;

fn err(code: &str) -> (String, String) {
    let mut s = Session::new();
    let c = s.run(&format!("import numpy as np\n{code}"));
    (c.ename().unwrap_or_default(), c.evalue())
}

#[test]
fn index_out_of_bounds() {
    assert_eq!(
        err("np.arange(10)[10]"),
        (
            "IndexError".into(),
            "index 10 is out of bounds for axis 0 with size 10".into()
        )
    );
    assert_eq!(
        err("np.zeros((2, 3))[0, -4]"),
        (
            "IndexError".into(),
            "index -4 is out of bounds for axis 1 with size 3".into()
        )
    );
    assert_eq!(
        err("np.zeros(3)[0, 0]"),
        (
            "IndexError".into(),
            "too many indices for array: array is 1-dimensional, but 2 were indexed".into()
        )
    );
}

#[test]
fn broadcast_and_reshape_errors() {
    assert_eq!(
        err("np.zeros(3) + np.zeros(4)"),
        (
            "ValueError".into(),
            "operands could not be broadcast together with shapes (3,) (4,) ".into()
        )
    );
    assert_eq!(
        err("np.arange(6).reshape(4)"),
        (
            "ValueError".into(),
            "cannot reshape array of size 6 into shape (4,)".into()
        )
    );
    assert_eq!(
        err("a = np.zeros(3)\na[:] = np.ones(2)"),
        (
            "ValueError".into(),
            "could not broadcast input array from shape (2,) into shape (3,)".into()
        )
    );
}

#[test]
fn truth_value_and_overflow() {
    assert_eq!(
        err("bool(np.arange(3))"),
        (
            "ValueError".into(),
            "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()".into()
        )
    );
    assert_eq!(
        err("np.arange(3, dtype=np.uint8) + 300"),
        (
            "OverflowError".into(),
            "Python integer 300 out of bounds for uint8".into()
        )
    );
    assert_eq!(
        err("np.arange(3).sum(axis=2)"),
        (
            "AxisError".into(),
            "axis 2 is out of bounds for array of dimension 1".into()
        )
    );
    assert_eq!(err("np.array([True]) - np.array([False])").0, "TypeError");
}

#[test]
fn huge_allocation_is_memory_error() {
    let (ename, msg) = err("np.zeros((10**7, 10**7))");
    assert_eq!(ename, "MemoryError");
    assert_eq!(
        msg,
        "Unable to allocate 728. TiB for an array with shape (10000000, 10000000) and data type float64"
    );
}

#[test]
fn testing_assertions() {
    let (ename, msg) =
        err("np.testing.assert_allclose(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 4.0]))");
    assert_eq!(ename, "AssertionError");
    assert!(
        msg.contains("Not equal to tolerance rtol=1e-07, atol=0"),
        "{msg}"
    );
    assert!(msg.contains("Mismatched elements: 1 / 3 (33.3%)"), "{msg}");
    assert!(msg.contains(" DESIRED: array([1., 2., 4.])"), "{msg}");
    let mut s = Session::new();
    s.run("import numpy as np\nnp.testing.assert_array_equal(np.arange(3), [0, 1, 2])")
        .ok();
}

#[test]
fn absurd_sizes_raise_instead_of_aborting() {
    // Past isize::MAX bytes NumPy 2 says ValueError, not MemoryError.
    let too_big = "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.";
    assert_eq!(
        err("np.zeros((2**40, 2**40))"),
        ("ValueError".to_string(), too_big.to_string())
    );
    assert_eq!(err("np.linspace(0, 1, 2**60)").0, "ValueError");
    assert_eq!(err("np.zeros((2**20, 2**20, 2**10))").0, "MemoryError");
    assert_eq!(err("np.arange(6).reshape(2**62, 2**62)").0, "ValueError");
    assert_eq!(err("np.zeros(-1)").0, "ValueError");
}
