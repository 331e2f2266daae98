//! `numba.cuda.cudadrv.devicearray` helpers Numba's tests call: `is_contiguous` (C order,
//! ignoring broadcast and length-1 axes), `array_core` (the view without stride-0 axes)
//! and the contiguity error message.

mod common;
use common::Session;

#[test]
fn is_contiguous_agrees_with_the_core_of_the_array() {
    let mut s = Session::new();
    s.run("import numpy as np\nfrom numba import cuda\nda = cuda.cudadrv.devicearray")
        .ok();
    let cases = [
        ("np.zeros((10, 12))[::2, ::2]", "False False"),
        ("np.zeros((10, 12))[2:5]", "True True"),
        ("np.zeros((10, 12)).T", "False False"),
        ("np.broadcast_to(np.arange(4.0), (3, 4))", "True True"),
        ("np.zeros((1, 5))[:, ::1]", "True True"),
    ];
    for (expr, want) in cases {
        let out = s.stdout(&format!(
            "v = {expr}\nprint(da.is_contiguous(v), da.array_core(v).flags['C_CONTIGUOUS'])"
        ));
        assert_eq!(out, format!("{want}\n"), "{expr}");
    }
    assert_eq!(
        s.eval("da.is_contiguous(cuda.to_device(np.zeros((4, 4)))[:, 1])"),
        "False"
    );
    assert!(s
        .eval("da.errmsg_contiguous_buffer")
        .starts_with("'Array contains non-contiguous buffer"));
}
