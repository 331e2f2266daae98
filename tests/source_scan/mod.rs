//! What the source scans (`alloc_scan`, `panic_scan`) share: the `.rs` files under a
//! folder, in a stable order so that their reports list offenders the same way each run.

use std::path::{Path, PathBuf};

pub fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}
