//! `nbcuda install`: write the `nbcuda` kernelspec (kernel.json + logos) where Jupyter
//! looks for kernels.
//!
//! `interrupt_mode` is "message": Jupyter then sends `interrupt_request` on the control
//! channel, which this kernel serves on its own task while a cell runs. That is more robust
//! than "signal" for a Rust process (no reliance on process groups, works the same on every
//! OS, and the reply tells the client the request arrived). SIGINT is still handled the same
//! way for terminals and tools that send it anyway.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The kernelspec the pip wheel ships as data (pyproject.toml's `data = "kernelspec"`):
/// one copy serves both installs. Its `argv[0]`, `{resource_dir}/../../../../bin/nbcuda`,
/// is the wheel's script next to the kernelspec's prefix; `nbcuda install` replaces it with
/// the running binary's absolute path.
const KERNEL_JSON: &str =
    include_str!("../../kernelspec/data/share/jupyter/kernels/nbcuda/kernel.json");
const LOGO_32: &[u8] =
    include_bytes!("../../kernelspec/data/share/jupyter/kernels/nbcuda/logo-32x32.png");
const LOGO_64: &[u8] =
    include_bytes!("../../kernelspec/data/share/jupyter/kernels/nbcuda/logo-64x64.png");

/// The kernelspec's name (its directory name under `kernels/`).
pub const KERNEL_NAME: &str = "nbcuda";

/// Where to install, mirroring `jupyter kernelspec install`'s options.
#[derive(Clone, Debug)]
pub enum InstallTarget {
    /// The per-user Jupyter data dir (`$JUPYTER_DATA_DIR`, else the platform default).
    User,
    /// `sys.prefix` of the active Python environment.
    SysPrefix,
    /// `PREFIX/share/jupyter/kernels`.
    Prefix(PathBuf),
}

/// The `kernel.json` text for a binary at `bin`.
pub fn kernel_json(bin: &Path) -> Result<String> {
    // Substitute through JSON so paths with quotes or backslashes stay valid.
    let mut spec: serde_json::Value = serde_json::from_str(KERNEL_JSON)?;
    let bin = bin
        .to_str()
        .context("the nbcuda binary's path is not valid UTF-8")?;
    spec["argv"][0] = serde_json::Value::String(bin.to_string());
    Ok(serde_json::to_string_pretty(&spec)? + "\n")
}

/// The directory `kernels/` lives in for `target`.
pub fn data_dir(target: &InstallTarget) -> Result<PathBuf> {
    Ok(match target {
        InstallTarget::Prefix(p) => {
            let p = if p.is_absolute() {
                p.clone()
            } else {
                std::env::current_dir()?.join(p)
            };
            p.join("share").join("jupyter")
        }
        InstallTarget::SysPrefix => sys_prefix()?.join("share").join("jupyter"),
        InstallTarget::User => user_data_dir()?,
    })
}

/// Jupyter's per-user data dir, as `jupyter --data-dir` computes it.
fn user_data_dir() -> Result<PathBuf> {
    if let Some(d) = std::env::var_os("JUPYTER_DATA_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d));
    }
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .context("HOME is not set; use --prefix DIR to choose where to install")?;
    if cfg!(target_os = "macos") {
        return Ok(home.join("Library").join("Jupyter"));
    }
    if let Some(x) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(x).join("jupyter"));
    }
    Ok(home.join(".local").join("share").join("jupyter"))
}

/// The active Python environment's prefix: a virtualenv or conda env if one is active,
/// else what `python3` reports.
fn sys_prefix() -> Result<PathBuf> {
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        if let Some(p) = std::env::var_os(var).filter(|p| !p.is_empty()) {
            return Ok(PathBuf::from(p));
        }
    }
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.prefix)"])
        .output()
        .context("--sys-prefix needs an active environment or python3 on PATH")?;
    if !out.status.success() {
        bail!("python3 could not report sys.prefix; use --prefix DIR instead");
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

/// Install the kernelspec for the running binary; returns the kernelspec directory.
pub fn install_kernelspec(target: &InstallTarget) -> Result<PathBuf> {
    let bin = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .context("cannot locate the nbcuda binary")?;
    install_kernelspec_for(target, &bin)
}

/// Install the kernelspec pointing at `bin`.
pub fn install_kernelspec_for(target: &InstallTarget, bin: &Path) -> Result<PathBuf> {
    let dir = data_dir(target)?.join("kernels").join(KERNEL_NAME);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))
    };
    write("kernel.json", kernel_json(bin)?.as_bytes())?;
    write("logo-32x32.png", LOGO_32)?;
    write("logo-64x64.png", LOGO_64)?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_json_has_absolute_binary_and_python_language() {
        let text = kernel_json(Path::new("/opt/x \"y\"/nbcuda")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["argv"][0], "/opt/x \"y\"/nbcuda");
        assert_eq!(v["argv"][3], "{connection_file}");
        assert_eq!(v["language"], "python");
        assert_eq!(v["display_name"], "nbcuda (Numba CUDA, Rust)");
        assert_eq!(v["interrupt_mode"], "message");
    }

    #[test]
    fn wheel_kernelspec_finds_the_script_beside_its_prefix() {
        // pip puts wheel data under PREFIX/ and scripts under PREFIX/bin, and Jupyter
        // substitutes the kernelspec's directory, PREFIX/share/jupyter/kernels/nbcuda,
        // for {resource_dir}: four levels up is PREFIX.
        let v: serde_json::Value = serde_json::from_str(KERNEL_JSON).unwrap();
        let argv0 = v["argv"][0].as_str().unwrap();
        let resource_dir = Path::new("/p/share/jupyter/kernels").join(KERNEL_NAME);
        let resolved = argv0.replace("{resource_dir}", resource_dir.to_str().unwrap());
        let mut parts: Vec<&str> = Vec::new();
        for c in resolved.split('/') {
            match c {
                ".." => {
                    parts.pop();
                }
                c => parts.push(c),
            }
        }
        assert_eq!(parts.join("/"), "/p/bin/nbcuda");
    }

    #[test]
    fn logos_are_pngs() {
        for logo in [LOGO_32, LOGO_64] {
            assert_eq!(&logo[..8], b"\x89PNG\r\n\x1a\n");
        }
    }
}
