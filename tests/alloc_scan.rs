//! Every allocation in `src/` whose size is not obviously fixed says why it cannot abort.
//!
//! Rust aborts the whole process when an allocation fails, which kills the user's session.
//! A size a cell chooses (a count, a width, a repeat factor, a shape) must therefore go
//! through `nbcuda::arrays::alloc` (or `check_shape` / `new_array`), which turns an
//! oversized request into a Python MemoryError. This test finds every `with_capacity(`,
//! `vec![x; n]`, `.repeat(`, `.resize(`, `.reserve(`, `reserve_exact(` and `resize_with(`
//! whose size is neither an integer literal nor `something.len()`, and requires either a
//! call to an `alloc::` helper on that line or a `// bounded: <why>` comment on that line
//! or one of the two lines above. Scanning a file stops at its `#[cfg(test)]` line: unit
//! tests allocate what they like.

mod source_scan;

use source_scan::rs_files;
use std::path::Path;

const CALLS: [&str; 6] = [
    "with_capacity(",
    ".repeat(",
    ".resize(",
    ".reserve(",
    "reserve_exact(",
    "resize_with(",
];

/// The text from `s` up to the bracket that closes at depth 0 (or a top-level `stop`
/// character), or the rest of the line when it does not close here.
fn until_close(s: &str, stop: Option<char>) -> &str {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return &s[..i],
            ')' | ']' | '}' => depth -= 1,
            _ if depth == 0 && Some(c) == stop => return &s[..i],
            _ => {}
        }
    }
    s
}

/// The size arguments of every allocation call on `line`.
fn sizes(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for call in CALLS {
        for (at, _) in line.match_indices(call) {
            let name = line[..at].trim_end_matches(|c: char| c.is_alphanumeric() || c == '_');
            if name.ends_with("fn ") {
                continue; // a definition such as `fn string_with_capacity(bytes: usize)`
            }
            let rest = &line[at + call.len()..];
            let first_arg_only = call.starts_with(".resize") || call == "resize_with(";
            out.push(until_close(rest, first_arg_only.then_some(',')));
        }
    }
    for (at, _) in line.match_indices("vec![") {
        let body = until_close(&line[at + 5..], None);
        if let Some(semi) = body.find(';') {
            // `vec![x; n]`; a `;` nested inside `x` would be in a block, rare enough to flag.
            out.push(&body[semi + 1..]);
        }
    }
    out
}

fn fixed(size: &str) -> bool {
    let s = size.trim();
    let literal = !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '_');
    literal || s.ends_with(".len()")
}

#[test]
fn allocations_sized_by_user_input_are_checked() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rs_files(&root.join("src"), &mut files);
    assert!(files.len() > 50, "src/ not found under {}", root.display());
    let mut offenders = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.trim();
            if code == "#[cfg(test)]" {
                break;
            }
            if code.starts_with("//") || sizes(line).into_iter().all(fixed) {
                continue;
            }
            let explained = lines[i.saturating_sub(2)..=i]
                .iter()
                .any(|l| l.contains("// bounded:"));
            if !explained && !line.contains("alloc::") {
                let rel = path.strip_prefix(root).unwrap_or(path);
                offenders.push(format!("{}:{}: {}", rel.display(), i + 1, code));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "allocations sized by something other than a literal or `.len()`, with no \
         `// bounded: <why>` comment (on the line or the two above) and no `alloc::` helper; \
         route user-chosen sizes through nbcuda::arrays::alloc:\n{}",
        offenders.join("\n")
    );
}
