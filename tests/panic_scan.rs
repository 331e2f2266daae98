//! Every `.unwrap()` and `.expect(` in `src/` says why it cannot fail.
//!
//! A panic inside a cell becomes an InternalError carrying Rust's panic text, and one
//! outside a cell can end the session; neither is what a user should see for anything
//! they type, pass or open. So a value that user input can make absent or invalid must
//! become a Python exception (or a protocol error), and the unwraps that remain must be
//! true invariants: each needs an `// invariant: <why>` comment on its line or one of the
//! two lines above. Scanning stops at a file's `#[cfg(test)]` line and skips files named
//! `*_tests.rs`: tests unwrap what they like.

mod source_scan;

use source_scan::rs_files;
use std::path::Path;

fn unwraps(line: &str) -> bool {
    line.contains(".unwrap()") || line.contains(".expect(")
}

/// The 1-based numbers of the lines of `text` that unwrap with no `// invariant:` comment
/// on the line or one of the two lines above.
fn offenders(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim();
        if code == "#[cfg(test)]" {
            break;
        }
        if code.starts_with("//") || !unwraps(line) {
            continue;
        }
        let explained = lines[i.saturating_sub(2)..=i]
            .iter()
            .any(|l| l.contains("// invariant:"));
        if !explained {
            out.push(i + 1);
        }
    }
    out
}

#[test]
fn the_scanner_finds_unexplained_unwraps() {
    let fixture = "\
fn f(x: Option<u8>) -> u8 {
    let a = x.unwrap();
    // the comment says nothing
    let b = x.expect(\"b\");
    // invariant: planted justification
    let c = x.unwrap();
    let d = x
        // invariant: one line up, in a chain
        .expect(\"d\");
    // invariant: two lines up

    let e = x.unwrap();
    // invariant: three lines up is too far


    let g = x.unwrap();
    // x.unwrap() in a comment is not code
    let h = x.unwrap_or(0); // neither is a fallback
    a + b + c + d + e + g + h
}
#[cfg(test)]
mod tests {
    fn t() { None::<u8>.unwrap(); }
}
";
    assert_eq!(offenders(fixture), vec![2, 4, 16]);
}

#[test]
fn every_unwrap_in_src_is_a_stated_invariant() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rs_files(&root.join("src"), &mut files);
    assert!(files.len() > 50, "src/ not found under {}", root.display());
    let mut found = Vec::new();
    for path in &files {
        if path.to_string_lossy().ends_with("_tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for n in offenders(&text) {
            let rel = path.strip_prefix(root).unwrap_or(path);
            found.push(format!("{}:{}: {}", rel.display(), n, lines[n - 1].trim()));
        }
    }
    assert!(
        found.is_empty(),
        "`.unwrap()` / `.expect(` with no `// invariant: <why>` comment (on the line or the \
         two above); if user input can make it fail, raise a Python exception instead:\n{}",
        found.join("\n")
    );
}
