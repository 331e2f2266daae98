//! Out-of-bounds accesses on the CUDA device: every generated kernel checks its indices and
//! the first faulting thread fills a fault area the host turns into an IndexError. Without a
//! GPU this checks the two halves that meet there: the CUDA C records each access with its
//! location (and compiles cleanly with NVRTC), and a fault area filled the way
//! `nb_index_fault` fills it reads back as exactly the CPU device's message for the same
//! kernel and thread. Needs libnvrtc: run tests/run.sh.

mod common;
use common::Session;

use nbcuda::device::cuda::ops::index_fault;
use nbcuda::kernel::codegen::{cuda_source, FAULT_WORDS};
use nbcuda::numba::inspect_asm;

/// `(loc, axes)` of every `nb_index_fault` call in generated CUDA C.
fn fault_sites(src: &str) -> Vec<(u64, usize)> {
    src.lines()
        .filter_map(|l| l.trim().strip_prefix("nb_index_fault(nb_fault, "))
        .map(|rest| {
            let mut parts = rest.split(", ");
            let loc = parts.next().unwrap().trim_end_matches('u').parse().unwrap();
            let axes = parts.next().unwrap().parse().unwrap();
            (loc, axes)
        })
        .collect()
}

/// The words `nb_index_fault` writes for one faulting access.
fn area(loc: u64, index: &[i64], shape: &[i64], block: [u64; 3], thread: [u64; 3]) -> Vec<u64> {
    let mut w = vec![0u64; FAULT_WORDS];
    w[0] = 1;
    w[1] = loc;
    w[2] = index.len() as u64;
    for (a, (i, n)) in index.iter().zip(shape).enumerate() {
        w[3 + a] = *i as u64;
        w[11 + a] = *n as u64;
    }
    w[19..22].copy_from_slice(&block);
    w[22..25].copy_from_slice(&thread);
    w
}

#[test]
fn a_gpu_fault_area_reads_back_as_the_cpu_devices_index_error() {
    assert!(
        inspect_asm::available(),
        "NVRTC (libnvrtc.so) is not loadable. Run tests/run.sh."
    );
    // One test in this binary, so nothing else launches kernels while collecting.
    std::env::set_var("NBCUDA_DEVICE", "cpu");
    let mut s = Session::new();
    s.run("from numba import cuda\nimport numpy as np").ok();

    // 1-D store past the end, as notebook 02 teaches.
    nbcuda::device::backend::collect_launched(true);
    let cell = s.run(
        "@cuda.jit\ndef missing_guard(arr):\n    pos = cuda.grid(1)\n    arr[pos] = pos\n\
         small = cuda.device_array(10, dtype=np.int64)\nmissing_guard[1, 16](small)\ncuda.synchronize()",
    );
    assert_eq!(cell.ename().as_deref(), Some("IndexError"));
    let cpu_message = cell.evalue();
    let launched = nbcuda::device::backend::collect_launched(false);
    let k = launched.last().expect("the kernel was launched");
    let src = cuda_source(k);
    let sites = fault_sites(&src);
    assert_eq!(sites.len(), 1, "one checked access:\n{src}");
    let (loc, axes) = sites[0];
    assert_eq!(axes, 1);
    // The CPU device reports the first faulting thread, thread 10 of block 0.
    let gpu_message = index_fault(k, &area(loc, &[10], &[10], [0, 0, 0], [10, 0, 0]))
        .map(|(ename, m)| format!("{ename}: {m}"));
    assert_eq!(gpu_message, Some(format!("IndexError: {cpu_message}")));
    let mut clear = area(loc, &[10], &[10], [0, 0, 0], [10, 0, 0]);
    clear[0] = 0;
    assert_eq!(index_fault(k, &clear), None, "a clear flag is no fault");

    // 2-D load with a negative index that stays out of range after wraparound, a shared
    // array and an atomic: each access is checked, the message names the failing axis.
    nbcuda::device::backend::collect_launched(true);
    let cell = s.run(
        "@cuda.jit\ndef reads(a, out):\n    i = cuda.threadIdx.x\n    tmp = cuda.shared.array(4, dtype=np.float64)\n\
         \x20   tmp[i % 4] = a[1, i - 7]\n    cuda.syncthreads()\n    cuda.atomic.add(out, 0, tmp[0])\n\
         a = cuda.to_device(np.ones((2, 3)))\nout = cuda.device_array(1)\nreads[1, 4](a, out)\ncuda.synchronize()",
    );
    assert_eq!(cell.ename().as_deref(), Some("IndexError"));
    let cpu_message = cell.evalue();
    let launched = nbcuda::device::backend::collect_launched(false);
    let k = launched.last().expect("the kernel was launched");
    let src = cuda_source(k);
    let sites = fault_sites(&src);
    assert_eq!(
        sites.len(),
        4,
        "load, shared store, shared load, atomic:\n{src}"
    );
    let (loc, axes) = sites[0];
    assert_eq!(axes, 2);
    // Thread 0 reads a[1, -7]: -7 + 3 is still negative, so axis 1 fails.
    let gpu_message = index_fault(k, &area(loc, &[1, -7], &[2, 3], [0, 0, 0], [0, 0, 0]))
        .map(|(ename, m)| format!("{ename}: {m}"));
    assert!(
        cpu_message.contains("index -7 is out of bounds for axis 1 with size 3"),
        "{cpu_message}"
    );
    assert_eq!(gpu_message, Some(format!("IndexError: {cpu_message}")));

    // The checks compile without warnings.
    for arch in ["compute_80", "compute_90"] {
        let out = nbcuda::gpu::nvrtc::compile_ptx(&src, "reads.cu", arch).expect("compiles");
        assert!(out.log.is_empty(), "NVRTC said:\n{}", out.log);
    }
}
