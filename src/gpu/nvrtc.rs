//! NVRTC: CUDA C to PTX, on any machine where `libnvrtc` can be loaded — no GPU or driver
//! needed, which is how the test suite verifies every generated kernel.

use std::ffi::CString;
use std::sync::{Mutex, OnceLock};

use cudarc::nvrtc::result;

/// What to tell a user who has no NVRTC.
pub const INSTALL_HINT: &str = "NVRTC (libnvrtc.so.12) could not be loaded: install it with \
`pip install nvidia-cuda-nvrtc-cu12` and add its lib/ folder \
(site-packages/nvidia/cuda_nvrtc/lib) to LD_LIBRARY_PATH, or install the CUDA toolkit (with only NVRTC 13, put a libnvrtc.so link to libnvrtc.so.13 on LD_LIBRARY_PATH)";

/// The message every NVRTC entry point returns when the library is missing.
pub fn missing_nvrtc_message() -> String {
    INSTALL_HINT.to_string()
}

/// The architecture PTX is produced for when no GPU is in use (`inspect_asm()` on the CPU
/// device): compute capability 8.0, the oldest the tests verify, so the PTX loads on
/// every GPU from the A100 on.
pub const DEFAULT_ARCH: &str = "compute_80";

static DEVICE_ARCH: Mutex<Option<String>> = Mutex::new(None);

/// Remember the compute capability of the GPU in use, for [`default_arch`].
pub fn set_device_arch(cc: (i32, i32)) {
    *DEVICE_ARCH.lock().unwrap_or_else(|e| e.into_inner()) = Some(arch_for(cc));
}

/// The GPU's architecture when one is in use, else [`DEFAULT_ARCH`].
pub fn default_arch() -> String {
    DEVICE_ARCH
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(|| DEFAULT_ARCH.to_string())
}

/// Whether NVRTC can be loaded. cudarc panics on first use when the library is missing, so
/// every entry point checks this first.
pub fn nvrtc_available() -> Result<(), String> {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    // SAFETY: `is_culib_present` only tries to dlopen candidate library names and drops
    // the handles; it has no preconditions.
    let present = *PRESENT.get_or_init(|| unsafe { cudarc::nvrtc::sys::is_culib_present() });
    if present {
        Ok(())
    } else {
        Err(missing_nvrtc_message())
    }
}

/// A compiled program: PTX text and NVRTC's log (warnings; empty when clean).
#[derive(Clone, Debug)]
pub struct Compiled {
    pub ptx: String,
    pub log: String,
}

fn c_chars_to_string(v: Vec<std::ffi::c_char>) -> String {
    let bytes: Vec<u8> = v
        .into_iter()
        .map(|c| c as u8)
        .take_while(|b| *b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Compile `source` for a virtual architecture such as `compute_80`. Errors carry NVRTC's
/// log, so a user sees the offending line of the generated CUDA C.
pub fn compile_ptx(source: &str, name: &str, arch: &str) -> Result<Compiled, String> {
    nvrtc_available()?;
    let src = CString::new(source).map_err(|_| "CUDA source contains a NUL byte".to_string())?;
    let cname = CString::new(name).map_err(|_| "program name contains a NUL byte".to_string())?;
    let prog = result::create_program(&src, Some(cname.as_c_str()))
        .map_err(|e| format!("nvrtcCreateProgram failed: {e:?}"))?;
    let mut options = vec![
        format!("--gpu-architecture={arch}"),
        "--std=c++17".to_string(),
        "--fmad=true".to_string(),
    ];
    // A user's options (say --fmad=false, or -lineinfo) replace a default of the same name.
    if let Ok(extra) = std::env::var("NBCUDA_NVRTC_OPTIONS") {
        for opt in extra.split_whitespace() {
            let name = opt.split('=').next().unwrap_or(opt);
            options.retain(|o| o.split('=').next() != Some(name));
            options.push(opt.to_string());
        }
    }
    // SAFETY: `prog` was just created by nvrtcCreateProgram and is destroyed exactly once
    // below; `options` outlives the call.
    let compiled = unsafe { result::compile_program(prog, &options) };
    // SAFETY: `prog` is a live program (created above, not yet destroyed).
    let log = unsafe { result::get_program_log(prog) }
        .map(c_chars_to_string)
        .unwrap_or_default();
    let outcome = match compiled {
        Ok(()) => {
            // SAFETY: the program compiled successfully, so its PTX can be read.
            unsafe { result::get_ptx(prog) }
                .map(|p| Compiled {
                    ptx: c_chars_to_string(p),
                    log: log.trim().to_string(),
                })
                .map_err(|e| format!("nvrtcGetPTX failed: {e:?}"))
        }
        Err(e) => Err(format!(
            "NVRTC could not compile {name} ({e:?}):\n{}",
            log.trim()
        )),
    };
    // SAFETY: destroyed once; nothing uses `prog` afterwards.
    unsafe {
        let _ = result::destroy_program(prog);
    }
    outcome
}

/// The virtual architecture for a device's compute capability (`(8, 0)` → `compute_80`).
pub fn arch_for(cc: (i32, i32)) -> String {
    format!("compute_{}{}", cc.0, cc.1)
}

/// NVRTC's version, e.g. (12, 8).
pub fn version() -> Result<(i32, i32), String> {
    nvrtc_available()?;
    let (mut major, mut minor) = (0, 0);
    // SAFETY: NVRTC is loaded (checked above) and both pointers are valid for writes.
    let r = unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) };
    if r == cudarc::nvrtc::sys::nvrtcResult::NVRTC_SUCCESS {
        Ok((major, minor))
    } else {
        Err(format!("nvrtcVersion failed: {r:?}"))
    }
}
