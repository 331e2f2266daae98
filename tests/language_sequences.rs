//! Lists, tuples and strings: shared mutable lists, in-place operators, and sizes that do
//! not fit in memory (MemoryError, never an abort).

mod common;
use common::Session;

#[test]
fn huge_repetition_is_memory_error() {
    let mut s = Session::new();
    for code in [
        "[0] * 10**12",
        "'a' * 10**12",
        "(1, 2) * 10**12",
        "[1, 2, 3] * 2**62",
        "'abc' * 2**62",
        "x = [0]\nx *= 10**12",
    ] {
        let c = s.run(code);
        assert_eq!(c.ename().as_deref(), Some("MemoryError"), "{code}");
        assert!(c.traceback().contains("np.zeros"), "{}", c.traceback());
    }
    // The session is intact afterwards.
    assert_eq!(s.eval("len([0] * 1000)"), "1000");
    assert_eq!(s.eval("'ab' * 2 + 'c'"), "'ababc'");
    assert_eq!(s.eval("(1,) * 3 + (2,)"), "(1, 1, 1, 2)");
    assert_eq!(s.eval("[1] * -2"), "[]");
}
