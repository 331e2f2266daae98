//! The CUDA device without a GPU: every built-in kernel compiles cleanly with NVRTC for
//! sm_80 and sm_90, and probing for a GPU on a machine without one fails politely.

use nbcuda::device::cuda::{self, builtin_kernels};
use nbcuda::gpu::nvrtc;

const ARCHS: [&str; 2] = ["compute_80", "compute_90"];

fn require_nvrtc() {
    if let Err(why) = nvrtc::nvrtc_available() {
        panic!(
            "{why}.\nRun the test suite through tests/run.sh, which installs the pinned \
             nvidia-cuda-nvrtc-cu12 into .venv and sets LD_LIBRARY_PATH."
        );
    }
}

#[test]
fn every_builtin_kernel_module_compiles_without_warnings() {
    require_nvrtc();
    for (name, _) in builtin_kernels::SOURCES {
        let src = builtin_kernels::source(name).unwrap();
        for arch in ARCHS {
            let out = nvrtc::compile_ptx(&src, &format!("{name}.cu"), arch)
                .unwrap_or_else(|e| panic!("{name}.cu for {arch}: {e}"));
            assert!(
                out.log.is_empty(),
                "{name}.cu for {arch}: NVRTC said:\n{}",
                out.log
            );
            assert!(out.ptx.contains(".entry"), "{name}.cu has kernels");
        }
    }
}

#[test]
fn builtin_modules_define_the_entry_points_the_device_calls() {
    require_nvrtc();
    let entries = |m: &str| {
        let out =
            nvrtc::compile_ptx(&builtin_kernels::source(m).unwrap(), m, "compute_80").unwrap();
        builtin_kernels::entries_in_ptx(&out.ptx)
    };
    let fill = entries("fill");
    for d in nbcuda::arrays::dtype::DType::ALL {
        let want = format!("nb_fill_{}", builtin_kernels::dtype_suffix(d));
        assert!(fill.contains(&want), "missing {want}");
    }
    // Every (from, to) pair of the 11 dtypes.
    assert_eq!(entries("cast").len(), 11 * 11);
    let ew = entries("elementwise");
    for k in [
        "nb_add_f32",
        "nb_true_divide_f64",
        "nb_less_i32",
        "nb_sqrt_f32",
        "nb_floor_divide_i64",
    ] {
        assert!(ew.contains(&k.to_string()), "missing {k}");
    }
    let red = entries("reduce");
    for k in ["nb_sum_f32", "nb_sum_i64", "nb_min_u8", "nb_max_f64"] {
        assert!(red.contains(&k.to_string()), "missing {k}");
    }
    assert_eq!(entries("copy").len(), 4);
}

#[test]
fn compile_errors_carry_nvrtcs_log() {
    require_nvrtc();
    let err = nvrtc::compile_ptx(
        "extern \"C\" __global__ void k(float *a) { a[0] = undefined_name; }",
        "broken.cu",
        "compute_80",
    )
    .unwrap_err();
    assert!(err.contains("broken.cu"), "{err}");
    assert!(err.contains("undefined_name"), "{err}");
    let (major, _) = nvrtc::version().unwrap();
    assert!(major >= 12);
}

/// One test owns NBCUDA_DEVICE, since the environment is shared by the test threads.
#[test]
fn device_selection_without_a_gpu() {
    // SAFETY: no other test in this binary reads or writes NBCUDA_DEVICE.
    let set = |v: Option<&str>| unsafe {
        match v {
            Some(v) => std::env::set_var("NBCUDA_DEVICE", v),
            None => std::env::remove_var("NBCUDA_DEVICE"),
        }
    };
    let has_gpu = cuda::probe().is_ok();
    set(Some("cpu"));
    assert!(
        matches!(cuda::select(), Ok(None)),
        "cpu is always available"
    );
    set(Some("tpu"));
    let e = cuda::select().err().expect("unknown choice is an error");
    assert!(
        e.contains("NBCUDA_DEVICE=tpu") && e.contains("NBCUDA_DEVICE=cpu"),
        "{e}"
    );
    if !has_gpu {
        set(None);
        assert!(
            matches!(cuda::select(), Ok(None)),
            "auto falls back to the CPU device"
        );
        set(Some("cuda"));
        let e = cuda::select()
            .err()
            .expect("forcing cuda without a GPU is an error");
        assert!(e.contains("NBCUDA_DEVICE=cuda"), "{e}");
        assert!(e.contains("unset NBCUDA_DEVICE"), "{e}");
    }
    set(None);
}

#[test]
fn a_missing_nvrtc_names_the_package_to_install() {
    let msg = nvrtc::missing_nvrtc_message();
    assert!(msg.contains("pip install nvidia-cuda-nvrtc-cu12"), "{msg}");
    assert!(msg.contains("CUDA toolkit"), "{msg}");
    // inspect_asm() raises it as a Python error with the same advice in the hint.
    let e = nbcuda::numba::inspect_asm::nvrtc_error(msg.clone());
    assert_eq!(e.ename, "RuntimeError");
    assert!(e.hint.as_ref().unwrap().contains("nvidia-cuda-nvrtc-cu12"));
    // Other failures (a compile error) keep NVRTC's log and get no install hint.
    let other = nbcuda::numba::inspect_asm::nvrtc_error("NVRTC could not compile x".into());
    assert!(other.hint.is_none());
}

#[test]
fn ptx_is_produced_for_the_documented_default_without_a_gpu() {
    require_nvrtc();
    if cuda::probe().is_ok() {
        return;
    }
    assert_eq!(nbcuda::numba::inspect_asm::default_arch(), "compute_80");
    let out = nbcuda::numba::inspect_asm::compile(
        "extern \"C\" __global__ void k(int *p) { p[0] = 1; }",
        &nbcuda::numba::inspect_asm::default_arch(),
    )
    .unwrap();
    assert!(out.ptx.contains(".target sm_80"), "{}", out.ptx);
}
