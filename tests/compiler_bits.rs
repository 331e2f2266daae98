//! CUDA's bit intrinsics in kernels (`cuda.popc`, `cuda.clz`, `cuda.ffs`, `cuda.brev`) and
//! `cuda.cbrt`, with Numba's signatures: popc and clz keep the type and count in its width,
//! ffs gives uint32 (1-based, 0 for 0), brev works on uint32 or uint64. The CUDA C they
//! lower to compiles with NVRTC. Needs libnvrtc for the last part: run tests/run.sh.

mod common;
use common::Session;

#[test]
fn bit_intrinsics_count_in_the_width_of_the_type() {
    let mut s = Session::new();
    s.run("from numba import cuda\nimport numpy as np").ok();
    s.run(
        "@cuda.jit\ndef bits(x, pop, clz, ffs, brev):\n    i = cuda.grid(1)\n    if i < x.size:\n\
         \x20       pop[i] = cuda.popc(x[i])\n        clz[i] = cuda.clz(x[i])\n\
         \x20       ffs[i] = cuda.ffs(x[i])\n        brev[i] = cuda.brev(x[i])\n\
         def run(vals, dt):\n    x = np.array(vals, dtype=dt)\n    outs = [np.zeros(x.size, dtype=dt) for _ in range(3)]\n\
         \x20   wide = np.uint64 if x.itemsize == 8 else np.uint32\n    brev = np.zeros(x.size, dtype=wide)\n\
         \x20   bits[1, 32](x, outs[0], outs[1], outs[2], brev)\n    return [o.tolist() for o in outs] + [brev.tolist()]",
    )
    .ok();
    // 176 = 0b1011_0000 and 1 as uint8: three and one bits; 0 and 7 leading zeros;
    // lowest set bit 5 and 1; reversed through uint32: 0b1101 << 24 and 1 << 31.
    assert_eq!(
        s.eval("run([176, 1], np.uint8)"),
        "[[3, 1], [0, 7], [5, 1], [218103808, 2147483648]]"
    );
    // int16 -1 is sixteen bits; its brev goes through uint32 (0xffffffff).
    assert_eq!(
        s.eval("run([-1, 256], np.int16)"),
        "[[16, 1], [0, 7], [1, 9], [4294967295, 8388608]]"
    );
    assert_eq!(
        s.eval("run([0, 1 << 40], np.uint64)"),
        "[[0, 1], [64, 23], [0, 41], [0, 8388608]]"
    );
    let c = s.run("@cuda.jit\ndef bad(x):\n    x[0] = cuda.popc(x[0])\nbad[1, 1](np.zeros(1))");
    assert_eq!(c.ename().as_deref(), Some("TypingError"));
}

#[test]
fn cbrt_in_kernels_and_on_the_host() {
    let mut s = Session::new();
    s.run("from numba import cuda\nimport numpy as np\nimport math")
        .ok();
    let out = s.stdout(
        "@cuda.jit\ndef k(x):\n    x[0] = cuda.cbrt(x[0])\n    x[1] = math.cbrt(x[1])\n\
         a = np.array([-8.0, 64.0])\nk[1, 1](a)\nprint(a, math.cbrt(-8.0))",
    );
    assert_eq!(out, "[-2.  4.] -2.0\n");
}

#[test]
fn bit_intrinsics_compile_with_nvrtc() {
    assert!(
        nbcuda::numba::inspect_asm::available(),
        "NVRTC (libnvrtc.so) is not loadable. Run tests/run.sh."
    );
    let mut s = Session::new();
    s.run("from numba import cuda\nimport numpy as np").ok();
    for dt in ["uint8", "int16", "int32", "uint64"] {
        let c = s.run(&format!(
            "@cuda.jit('void({dt}[:], uint32[:])')\ndef k(x, o):\n    i = cuda.grid(1)\n\
             \x20   x[i] = cuda.popc(x[i]) + cuda.clz(x[i])\n    o[i] = cuda.ffs(x[i]) + cuda.cbrt(8.0)\n\
             ptx = k.inspect_asm()"
        ));
        assert!(c.ename().is_none(), "{dt}: {}", c.evalue());
    }
}
