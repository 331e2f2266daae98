//! The command line: --help/--version, `install` and `run` (headless notebooks).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value as Json};

fn nbcuda(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nbcuda"))
        .args(args)
        .output()
        .unwrap()
}

fn tmp() -> PathBuf {
    let d = std::env::temp_dir().join(format!("nbcuda-cli-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn notebook(dir: &Path, cells: &[(&str, &[&str])]) -> PathBuf {
    let cells: Vec<Json> = cells
        .iter()
        .map(|(src, tags)| {
            json!({"cell_type": "code", "execution_count": null, "metadata": {"tags": tags},
                   "outputs": [], "source": src})
        })
        .collect();
    let mut all = vec![json!({"cell_type": "markdown", "metadata": {}, "source": "# Title"})];
    all.extend(cells);
    let nb = json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": all});
    let p = dir.join("nb.ipynb");
    std::fs::write(&p, nb.to_string()).unwrap();
    p
}

fn read(p: &Path) -> Json {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn text(v: &Json) -> String {
    match v {
        Json::Array(a) => a.iter().filter_map(Json::as_str).collect(),
        Json::String(s) => s.clone(),
        _ => String::new(),
    }
}

#[test]
fn help_and_version() {
    let o = nbcuda(&["--version"]);
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        format!("nbcuda {}", env!("CARGO_PKG_VERSION"))
    );
    let o = nbcuda(&["--help"]);
    let h = String::from_utf8_lossy(&o.stdout);
    for sub in ["kernel", "install", "run"] {
        assert!(h.contains(sub), "{h}");
    }
    assert!(!nbcuda(&["frobnicate"]).status.success());
}

#[test]
fn install_writes_kernelspec_with_absolute_binary_and_logos() {
    let d = tmp();
    let o = nbcuda(&["install", "--prefix", d.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let spec = d.join("share/jupyter/kernels/nbcuda");
    let k = read(&spec.join("kernel.json"));
    let bin = Path::new(k["argv"][0].as_str().unwrap());
    assert!(bin.is_absolute() && bin.exists(), "{bin:?}");
    assert_eq!(
        k["argv"].as_array().unwrap()[1..],
        [json!("kernel"), json!("-f"), json!("{connection_file}")]
    );
    assert_eq!(k["language"], "python");
    assert_eq!(k["display_name"], "nbcuda (Numba CUDA, Rust)");
    assert!(k["interrupt_mode"].is_string());
    for logo in ["logo-32x32.png", "logo-64x64.png"] {
        let b = std::fs::read(spec.join(logo)).unwrap();
        assert_eq!(&b[..4], b"\x89PNG");
    }
    // --user honours JUPYTER_DATA_DIR.
    let u = tmp();
    let o = Command::new(env!("CARGO_BIN_EXE_nbcuda"))
        .args(["install", "--user"])
        .env("JUPYTER_DATA_DIR", &u)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(u.join("kernels/nbcuda/kernel.json").exists());
    assert!(!nbcuda(&["install", "--user", "--sys-prefix"])
        .status
        .success());
    let _ = std::fs::remove_dir_all(d);
    let _ = std::fs::remove_dir_all(u);
}

#[test]
fn run_writes_outputs_as_the_kernel_sends_them() {
    let d = tmp();
    let nb = notebook(
        &d,
        &[
            ("print('hello, world')\nx = 5", &[]),
            ("x * 2", &[]),
            ("import sys; print('e', file=sys.stderr)", &[]),
            ("from IPython.display import display, HTML, clear_output\ndisplay(HTML('<b>x</b>'))", &[]),
            ("print('gone')\nclear_output()\nprint('kept')", &[]),
            ("raise ValueError('boom')", &["raises-exception"]),
            ("", &[]),
            ("x", &[]),
        ],
    );
    let out = d.join("out.ipynb");
    let o = nbcuda(&["run", nb.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // One progress line per code cell.
    assert_eq!(
        err.lines().filter(|l| l.starts_with("cell ")).count(),
        8,
        "{err}"
    );
    let nb = read(&out);
    let cells = nb["cells"].as_array().unwrap();
    assert_eq!(nb["metadata"]["language_info"]["name"], "python");
    assert_eq!(cells[1]["execution_count"], 1);
    let o1 = &cells[1]["outputs"][0];
    assert_eq!(o1["output_type"], "stream");
    assert_eq!(o1["name"], "stdout");
    assert_eq!(text(&o1["text"]), "hello, world\n");
    let o2 = &cells[2]["outputs"][0];
    assert_eq!(o2["output_type"], "execute_result");
    assert_eq!(o2["execution_count"], 2);
    assert_eq!(text(&o2["data"]["text/plain"]), "10");
    assert_eq!(cells[3]["outputs"][0]["name"], "stderr");
    let o4 = &cells[4]["outputs"][0];
    assert_eq!(o4["output_type"], "display_data");
    assert_eq!(text(&o4["data"]["text/html"]), "<b>x</b>");
    assert!(o4.get("transient").is_none());
    let o5 = cells[5]["outputs"].as_array().unwrap();
    assert_eq!(o5.len(), 1);
    assert_eq!(text(&o5[0]["text"]), "kept\n");
    let o6 = &cells[6]["outputs"][0];
    assert_eq!(o6["output_type"], "error");
    assert_eq!(o6["ename"], "ValueError");
    assert!(o6["traceback"].as_array().is_some_and(|t| !t.is_empty()));
    assert_eq!(
        cells[7]["execution_count"],
        Json::Null,
        "blank cells are not run"
    );
    assert_eq!(cells[8]["execution_count"], 7);
    assert_eq!(text(&cells[8]["outputs"][0]["data"]["text/plain"]), "5");
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn run_stops_at_first_error_unless_allowed() {
    let d = tmp();
    let nb = notebook(&d, &[("print(1)", &[]), ("1/0", &[]), ("print(3)", &[])]);
    let out = d.join("out.ipynb");
    let o = nbcuda(&["run", nb.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("ZeroDivisionError"));
    let cells = read(&out)["cells"].as_array().unwrap().clone();
    assert_eq!(cells[2]["outputs"][0]["ename"], "ZeroDivisionError");
    assert_eq!(
        cells[3]["outputs"],
        json!([]),
        "cells after the error are not run"
    );

    let o = nbcuda(&[
        "run",
        nb.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--allow-errors",
    ]);
    assert!(o.status.success());
    let cells = read(&out)["cells"].as_array().unwrap().clone();
    assert_eq!(text(&cells[3]["outputs"][0]["text"]), "3\n");

    // Without -o the result lands beside the input.
    let o = nbcuda(&["run", nb.to_str().unwrap(), "--allow-errors"]);
    assert!(o.status.success());
    assert!(d.join("nb.executed.ipynb").exists());
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn run_reports_unreadable_notebooks_clearly() {
    let d = tmp();
    let o = nbcuda(&["run", d.join("missing.ipynb").to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read notebook"));
    let bad = d.join("bad.ipynb");
    std::fs::write(&bad, "{not json").unwrap();
    let o = nbcuda(&["run", bad.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("not valid notebook JSON"));
    std::fs::write(&bad, r#"{"nbformat": 3, "worksheets": []}"#).unwrap();
    let o = nbcuda(&["run", bad.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("nbformat 4"));
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn install_sys_prefix_uses_the_active_environment() {
    // An active virtualenv wins.
    let venv = tmp();
    let o = Command::new(env!("CARGO_BIN_EXE_nbcuda"))
        .args(["install", "--sys-prefix"])
        .env("VIRTUAL_ENV", &venv)
        .env_remove("CONDA_PREFIX")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let k = read(&venv.join("share/jupyter/kernels/nbcuda/kernel.json"));
    assert_eq!(k["language"], "python");
    assert!(Path::new(k["argv"][0].as_str().unwrap()).is_absolute());
    // Without one, the prefix is what python3 on PATH reports (a stand-in here).
    let prefix = tmp();
    let bin = tmp();
    let py = bin.join("python3");
    std::fs::write(&py, format!("#!/bin/sh\necho {}\n", prefix.display())).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&py, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new(env!("CARGO_BIN_EXE_nbcuda"))
        .args(["install", "--sys-prefix"])
        .env_remove("VIRTUAL_ENV")
        .env_remove("CONDA_PREFIX")
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(prefix
        .join("share/jupyter/kernels/nbcuda/kernel.json")
        .exists());
    for d in [venv, prefix, bin] {
        let _ = std::fs::remove_dir_all(d);
    }
}
