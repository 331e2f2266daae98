//! `float16` (NumPy's half): host arrays and scalars compute as NumPy's half loops do, and
//! the places that cannot take one (devices, kernels, `@njit`) say so instead of reading
//! its bits as another type. Expected values were printed by NumPy 2.3 and Numba 0.61 for
//! the same expressions.

mod common;
use common::{outcome, Session};

/// What the expression gives: its repr, or `Name: message` for an exception.
#[test]
fn float16_arithmetic_rounds_as_numpy_does() {
    let mut s = Session::new();
    s.run("import numpy as np");
    let cases = [
        ("np.float16(0.1) * 3", "np.float16(0.2998)"),
        (
            "np.array([0.1, 0.2], dtype=np.float16).sum()",
            "np.float16(0.2998)",
        ),
        (
            "np.array([1, 2049, 65520], dtype=np.float64).astype(np.float16)",
            "array([1.000e+00, 2.048e+03,       inf], dtype=float16)",
        ),
        ("np.float16(2.5) + np.int8(1)", "np.float16(3.5)"),
        ("(np.float16(1) + np.int16(1)).dtype", "dtype('float32')"),
        (
            "np.sqrt(np.arange(3, dtype=np.uint8))",
            "array([0.   , 1.   , 1.414], dtype=float16)",
        ),
        (
            "np.nextafter(np.float16(0), np.float16(-1))",
            "np.float16(-6e-08)",
        ),
        (
            "np.abs(np.array([-0.0, -1.5], dtype=np.float16))",
            "array([0. , 1.5], dtype=float16)",
        ),
        (
            "np.array([3.14159], dtype=np.float16).astype(np.float32)",
            "array([3.140625], dtype=float32)",
        ),
        (
            "np.copysign(np.float16(2), np.float16(-0.0))",
            "np.float16(-2.0)",
        ),
        (
            "np.arange(3, dtype=np.float16).view(np.uint16)",
            "array([    0, 15360, 16384], dtype=uint16)",
        ),
        ("np.float16(7) % np.float16(-3)", "np.float16(-2.0)"),
        (
            "np.maximum(np.array([np.nan, 1], dtype=np.float16), np.float16(2))",
            "array([nan,  2.], dtype=float16)",
        ),
        (
            "np.array([0.5, 1.5, 2.5], dtype=np.float16).round()",
            "array([0., 2., 2.], dtype=float16)",
        ),
        ("np.float16(1e-8) == 0", "np.True_"),
        ("np.isinf(np.float16(70000))", "np.True_"),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(e, want)| {
            let got = outcome(&mut s, e);
            (got != *want).then(|| format!("{e}: got {got:?}, NumPy {want:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn float16_is_refused_where_kernels_would_misread_it() {
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda, njit, vectorize\nh = np.ones(4, dtype=np.float16)");
    for expr in [
        "cuda.to_device(h)",
        "cuda.device_array(3, dtype=np.float16)",
    ] {
        let got = outcome(&mut s, expr);
        assert!(
            got.starts_with("TypeError: nbcuda's devices do not support float16 arrays"),
            "{expr}: {got}"
        );
    }
    s.run("@njit\ndef first(a):\n    return a[0]");
    let got = outcome(&mut s, "first(h)");
    assert!(
        got.starts_with("TypeError: first(): argument 'a' is a float16 array"),
        "{got}"
    );
    let got = outcome(&mut s, "first(np.ones(2, dtype=np.complex64))");
    assert!(
        got.starts_with("TypeError: first(): argument 'a' is a complex64 array"),
        "{got}"
    );
    // A CPU ufunc casts a float16 input to its float32 loop, as NumPy's loops do.
    s.run("@vectorize(['float32(float32)'])\ndef twice(x):\n    return x * 2");
    assert_eq!(
        outcome(&mut s, "twice(np.array([1.5, 3], dtype=np.float16))"),
        "array([3., 6.], dtype=float32)"
    );
}
