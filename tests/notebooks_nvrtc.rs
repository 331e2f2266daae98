//! Every kernel the tutorial notebooks launch, emitted as CUDA C and compiled by NVRTC for
//! compute_80 and compute_90: any error or warning fails. The notebooks' code cells are
//! read at test time and run through the engine on the CPU device; each specialisation
//! launched is collected, so a new kernel cell (or a new argument type) is covered without
//! editing this test. Needs libnvrtc: run tests/run.sh.

mod common;
use common::Session;

use nbcuda::kernel::codegen::{cuda_source, entry_name};
use nbcuda::numba::inspect_asm;

fn code_cells(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let nb: serde_json::Value = serde_json::from_str(&text).expect("notebook JSON");
    nb["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .filter(|c| c["cell_type"] == "code")
        .map(|c| match &c["source"] {
            serde_json::Value::Array(lines) => lines.iter().filter_map(|l| l.as_str()).collect(),
            serde_json::Value::String(s) => s.clone(),
            _ => String::new(),
        })
        .collect()
}

#[test]
fn every_notebook_kernel_compiles_with_nvrtc_without_warnings() {
    assert!(
        inspect_asm::available(),
        "NVRTC (libnvrtc.so) is not loadable. Run tests/run.sh, which installs nvidia-cuda-nvrtc-cu12 from PyPI and sets LD_LIBRARY_PATH to its lib/ folder."
    );
    // This binary has one test, so nothing else launches kernels while collecting.
    std::env::set_var("NBCUDA_DEVICE", "cpu");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("notebooks");
    let mut notebooks: Vec<_> = std::fs::read_dir(&dir)
        .expect("notebooks/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ipynb"))
        .collect();
    notebooks.sort();
    assert!(notebooks.len() >= 4, "{notebooks:?}");
    let mut failures = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for path in &notebooks {
        nbcuda::device::backend::collect_launched(true);
        let mut s = Session::new();
        let cells = code_cells(path);
        let kernel_cells = cells
            .iter()
            .filter(|c| c.contains("cuda.jit") || c.contains("vectorize"))
            .count();
        for src in &cells {
            s.run(src);
        }
        let launched = nbcuda::device::backend::collect_launched(false);
        assert!(
            kernel_cells == 0 || !launched.is_empty(),
            "{path:?} defines kernels but none was launched"
        );
        for k in launched {
            let src = cuda_source(&k);
            if !seen.insert(src.clone()) {
                continue;
            }
            for arch in ["compute_80", "compute_90"] {
                match inspect_asm::compile(&src, arch) {
                    Ok(c) if c.log.is_empty() => assert!(
                        c.ptx.contains(&format!(".entry {}", entry_name(&k))),
                        "{}: PTX lacks the entry point",
                        k.name
                    ),
                    Ok(c) => failures.push(format!(
                        "{path:?} {} ({arch}) warnings:\n{}\n--- source ---\n{src}",
                        k.name, c.log
                    )),
                    Err(e) => failures.push(format!(
                        "{path:?} {} ({arch}): {e}\n--- source ---\n{src}",
                        k.name
                    )),
                }
            }
        }
    }
    assert!(
        seen.len() >= 8,
        "only {} kernels were collected",
        seen.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    std::env::remove_var("NBCUDA_DEVICE");
}
