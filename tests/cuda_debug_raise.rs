//! `@cuda.jit(debug=True)`: `raise` in a kernel (or in a device function it calls) and a
//! division by zero raise the Python exception on the host, as Numba's Python error model
//! does; without debug both are ignored. The CPU device runs the kernels; for the CUDA
//! device this checks the generated CUDA C (each raise recorded in the fault area by its
//! site number, compiled by NVRTC) and that a fault area filled the way `nb_raise` fills
//! it reads back as the same exception. Needs libnvrtc: run tests/run.sh.

mod common;
use common::Session;

use nbcuda::device::cuda::ops::index_fault;
use nbcuda::kernel::codegen::{cuda_source, FAULT_WORDS};

/// The words `nb_raise` writes for raise site `site`.
fn raised_area(site: u64) -> Vec<u64> {
    let mut w = vec![0u64; FAULT_WORDS];
    w[0] = 2;
    w[1] = site;
    w
}

#[test]
fn debug_kernels_raise_on_the_host_on_both_devices() {
    assert!(
        nbcuda::numba::inspect_asm::available(),
        "NVRTC (libnvrtc.so) is not loadable. Run tests/run.sh."
    );
    // One test in this binary, so nothing else launches kernels while collecting.
    std::env::set_var("NBCUDA_DEVICE", "cpu");
    let mut s = Session::new();
    s.run("from numba import cuda\nimport numpy as np").ok();

    nbcuda::device::backend::collect_launched(true);
    let cell = s.run(
        "MSG = 'flag was set'\n\
         @cuda.jit(device=True)\ndef check(v):\n    if v > 1:\n        raise RuntimeError(MSG)\n    return v\n\
         @cuda.jit(debug=True, opt=False)\ndef k(r, flag):\n    if flag == 1:\n        raise ValueError\n    r[0] = check(flag)\n\
         r = np.zeros(1, dtype=np.int64)\nk[1, 1](r, 0)\nprint(r[0])\n\
         try:\n    k[1, 1](r, 1)\nexcept ValueError as e:\n    print('ValueError', repr(str(e)))\n\
         try:\n    k[1, 1](r, 2)\nexcept RuntimeError as e:\n    print('RuntimeError', e)",
    );
    cell.ok();
    assert_eq!(
        cell.out.stdout,
        "0\nValueError ''\nRuntimeError flag was set\n"
    );
    let launched = nbcuda::device::backend::collect_launched(false);
    let k = launched.last().expect("the kernel was launched");
    let src = cuda_source(k);
    assert!(src.contains("nb_raise(nb_fault, 0u);"), "{src}");
    assert!(src.contains("nb_raise(nb_fault, 1u);"), "{src}");
    assert_eq!(
        index_fault(k, &raised_area(0)),
        Some(("ValueError".to_string(), String::new()))
    );
    assert_eq!(
        index_fault(k, &raised_area(1)),
        Some(("RuntimeError".to_string(), "flag was set".to_string()))
    );
    for arch in ["compute_80", "compute_90"] {
        let out = nbcuda::gpu::nvrtc::compile_ptx(&src, "k.cu", arch).expect("compiles");
        assert!(out.log.is_empty(), "NVRTC said:\n{}", out.log);
    }

    // Division by zero stops the thread before the store, with Numba's messages.
    nbcuda::device::backend::collect_launched(true);
    let cell = s.run(
        "@cuda.jit(debug=True, opt=False)\ndef div(r, x, y):\n    r[0] = y[0] / x[0]\n    r[1] = y[0]\n\
         r = np.zeros(2)\ndiv[1, 1](r, np.zeros(1), np.ones(1))",
    );
    assert_eq!(cell.ename().as_deref(), Some("ZeroDivisionError"));
    assert_eq!(cell.evalue(), "division by zero");
    assert_eq!(s.eval("r.tolist()"), "[0.0, 0.0]");
    let launched = nbcuda::device::backend::collect_launched(false);
    let k = launched.last().expect("the kernel was launched");
    assert_eq!(
        index_fault(k, &raised_area(0)),
        Some((
            "ZeroDivisionError".to_string(),
            "division by zero".to_string()
        ))
    );
    let c = s.run(
        "@cuda.jit(debug=True)\ndef idiv(r, a, b):\n    r[0] = a // b\n\
         r = np.zeros(1, dtype=np.int64)\nidiv[1, 1](r, 7, 0)",
    );
    assert_eq!(c.ename().as_deref(), Some("ZeroDivisionError"));
    assert_eq!(c.evalue(), "integer division by zero");
    let c =
        s.run("@cuda.jit(debug=True)\ndef imod(r, a, b):\n    r[0] = a % b\nimod[1, 1](r, 7, 0)");
    assert_eq!(c.evalue(), "integer modulo by zero");

    // Without debug=True neither raises: the kernel runs on.
    let out = s.stdout(
        "@cuda.jit\ndef quiet(r, flag):\n    if flag == 1:\n        raise ValueError('x')\n    r[0] = 7 // flag\n\
         r = np.zeros(1, dtype=np.int64)\nquiet[1, 1](r, 1)\nquiet[1, 1](r, 0)\ncuda.synchronize()\nprint('ran')",
    );
    assert_eq!(out, "ran\n");
}
