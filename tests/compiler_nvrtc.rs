//! Every kernel of the compiler tests, emitted as CUDA C and compiled by NVRTC for
//! compute_80 and compute_90: any error or warning fails. Needs libnvrtc: run
//! tests/run.sh, which installs nvidia-cuda-nvrtc-cu12 and sets LD_LIBRARY_PATH.

mod compiler_support;

use nbcuda::kernel::codegen::{cuda_source, entry_name};
use nbcuda::numba::inspect_asm;

#[test]
fn every_kernel_compiles_with_nvrtc_without_warnings() {
    assert!(
        inspect_asm::available(),
        "NVRTC (libnvrtc.so) is not loadable. Run tests/run.sh, which installs nvidia-cuda-nvrtc-cu12 from PyPI and sets LD_LIBRARY_PATH to its lib/ folder."
    );
    let mut failures = Vec::new();
    let kernels = compiler_support::catalog::all();
    assert!(kernels.len() >= 20);
    for (name, k) in &kernels {
        let src = cuda_source(k);
        assert!(src.contains(&format!("extern \"C\" __global__ void {}(", entry_name(k))));
        for arch in ["compute_80", "compute_90"] {
            match inspect_asm::compile(&src, arch) {
                Ok(c) if c.log.is_empty() => {
                    assert!(
                        c.ptx.contains(&format!(".entry {}", entry_name(k))),
                        "{name}: PTX lacks the entry point"
                    );
                }
                Ok(c) => failures.push(format!(
                    "{name} ({arch}) warnings:\n{}\n--- source ---\n{src}",
                    c.log
                )),
                Err(e) => failures.push(format!("{name} ({arch}): {e}\n--- source ---\n{src}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn nvrtc_warnings_are_visible_to_the_check() {
    assert!(
        inspect_asm::available(),
        "NVRTC is not loadable: run tests/run.sh"
    );
    // An unused variable draws a warning: the log the main test checks is not silently empty.
    let c = inspect_asm::compile(
        "extern \"C\" __global__ void w(int *p) { int unused = 1; p[0] = 2; }",
        "compute_80",
    )
    .unwrap();
    assert!(
        c.log.contains("warning"),
        "expected a warning, got log: {:?}",
        c.log
    );
    assert!(inspect_asm::compile(
        "extern \"C\" __global__ void e() { undefined_call(); }",
        "compute_80"
    )
    .is_err());
}

#[test]
fn float64_atomic_adds_on_arrays_use_generic_addressing_as_numba_does() {
    // Numba's PTX has `atom.add.f64` (or `red.add.f64` when the old value is unused), and
    // its users check `inspect_asm()` for it; nvcc's atomicAdd would say `atom.global`.
    let kernels = compiler_support::catalog::all();
    let (_, k) = kernels
        .iter()
        .find(|(n, _)| n == "float_atomics")
        .expect("float_atomics is in the catalog");
    let c = inspect_asm::compile(&cuda_source(k), "compute_80").unwrap();
    let has = |s: &str| c.ptx.contains(s);
    assert!(has("atom.add.f64") || has("red.add.f64"), "{}", c.ptx);
    assert!(!has("atom.global.add.f64") && !has("red.global.add.f64"));
}

#[test]
fn each_threadfence_has_its_own_reach_in_ptx() {
    // threadfence_block is membar.cta, threadfence membar.gl, threadfence_system
    // membar.sys (Numba's codegen tests look for `membar.cta;`).
    let kernels = compiler_support::catalog::all();
    let (_, k) = kernels.iter().find(|(n, _)| n == "fences").expect("fences");
    let c = inspect_asm::compile(&cuda_source(k), "compute_80").unwrap();
    for want in ["membar.cta;", "membar.gl;", "membar.sys;"] {
        assert!(c.ptx.contains(want), "{want} missing:\n{}", c.ptx);
    }
}

#[test]
fn cuda_reduce_kernels_compile_with_nvrtc_without_warnings() {
    assert!(
        inspect_asm::available(),
        "NVRTC (libnvrtc.so) is not loadable"
    );
    let f = compiler_support::function("def add(a, b):\n    return a + b\n");
    use nbcuda::arrays::dtype::DType;
    for dt in [DType::F32, DType::F64, DType::I32, DType::I64] {
        let partial = nbcuda::numba::cuda_reduce::partial_kernel(&f, dt).unwrap();
        let fold = nbcuda::numba::cuda_reduce::fold_kernel(&f, dt, true).unwrap();
        for k in [&partial, &fold] {
            let src = cuda_source(k);
            let c = inspect_asm::compile(&src, "compute_80")
                .unwrap_or_else(|e| panic!("{dt:?}: {e}\n{src}"));
            assert!(c.log.is_empty(), "{dt:?} warnings:\n{}\n{src}", c.log);
            assert!(c.ptx.contains(&format!(".entry {}", entry_name(k))));
        }
    }
}
