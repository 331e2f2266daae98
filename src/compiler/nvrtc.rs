//! NVRTC through cudarc, used by `inspect_asm()` and the NVRTC test. cudarc panics when a
//! CUDA library is missing, so the library is probed with libloading first.

use crate::compiler::codegen::cuda_source;
use crate::compiler::CompiledKernel;
use crate::language::{PyErr, PyResult};

const HINT: &str = "NVRTC (libnvrtc.so) was not found: pip install nvidia-cuda-nvrtc-cu12 and add its lib/ folder to LD_LIBRARY_PATH (tests/run.sh does this).";

/// True when cudarc will be able to load libnvrtc.
pub fn available() -> bool {
    cudarc::get_lib_name_candidates("nvrtc").iter().any(|name| {
        // SAFETY: loading libnvrtc runs its initialisers only, which have no preconditions;
        // the handle is dropped at once (cudarc loads its own).
        unsafe { libloading::Library::new(name) }.is_ok()
    })
}

/// NVRTC output: PTX text and the compile log (warnings), or the log of a failed compile.
pub struct Compiled {
    pub ptx: String,
    pub log: String,
}

/// Compile CUDA C for `arch` (e.g. `compute_80`).
pub fn compile(source: &str, arch: &'static str) -> Result<Compiled, String> {
    if !available() {
        return Err(HINT.to_string());
    }
    use cudarc::nvrtc::result;
    let src = std::ffi::CString::new(source).map_err(|e| e.to_string())?;
    let prog = result::create_program(&src, None).map_err(|e| format!("{e:?}"))?;
    let opts = vec![format!("--gpu-architecture={arch}")];
    // SAFETY: `prog` was created above and is destroyed once below; the options outlive
    // the call.
    let compiled = unsafe { result::compile_program(prog, &opts) };
    // SAFETY: as above; the log is read before the program is destroyed.
    let log = unsafe { result::get_program_log(prog) }
        .map(|l| l.iter().map(|&c| c as u8 as char).collect::<String>())
        .unwrap_or_default();
    let log = log.trim_end_matches('\0').trim().to_string();
    let out = match compiled {
        Ok(()) => {
            // SAFETY: compilation succeeded, so the program holds PTX.
            let ptx = unsafe { result::get_ptx(prog) }
                .map(|p| p.iter().map(|&c| c as u8 as char).collect::<String>())
                .map_err(|e| format!("{e:?}"))?;
            Ok(Compiled {
                ptx: ptx.trim_end_matches('\0').to_string(),
                log,
            })
        }
        Err(e) => Err(format!("NVRTC failed ({e:?}):\n{log}")),
    };
    // SAFETY: destroyed exactly once, after its last use.
    let _ = unsafe { result::destroy_program(prog) };
    out
}

/// PTX of a compiled kernel for `inspect_asm()`.
pub fn ptx_of(kernel: &CompiledKernel) -> PyResult<String> {
    if !available() {
        return Err(PyErr::new("RuntimeError", HINT));
    }
    compile(&cuda_source(kernel), "compute_80")
        .map(|c| c.ptx)
        .map_err(|e| PyErr::new("RuntimeError", e))
}
