//! Developer assistance: completion and inspection (`obj?`).

use crate::interp::frame::Ctx;
use crate::py::error::PyResult;
use crate::py::runtime::Runtime;
use crate::py::value::Value;

/// A complete_reply. Positions are in Unicode code points.
#[derive(Clone, Debug, Default)]
pub struct Completion {
    pub matches: Vec<String>,
    pub cursor_start: usize,
    pub cursor_end: usize,
    /// (text, type) pairs for `_jupyter_types_experimental`.
    pub types: Vec<(String, String)>,
}

/// The dotted name ending at byte `end` of `code` (`np.ze` → "np.ze").
fn dotted_before(code: &str, end: usize) -> (usize, &str) {
    let bytes = code.as_bytes();
    let mut start = end;
    while start > 0 {
        let c = bytes[start - 1];
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
            start -= 1;
        } else {
            break;
        }
    }
    (start, &code[start..end])
}

/// Resolve a dotted name without calling anything.
pub fn resolve(rt: &mut Runtime, ctx: &Ctx, dotted: &str) -> Option<Value> {
    let mut parts = dotted.split('.');
    let first = parts.next()?;
    let mut v = crate::interp::expr::lookup_name(rt, ctx, first).ok()?;
    for p in parts {
        v = crate::interp::attrs::get_attr(rt, &v, p).ok()?;
    }
    Some(v)
}

/// Completion at a code-point cursor position.
pub fn complete(rt: &mut Runtime, ctx: &Ctx, code: &str, cursor_pos: usize) -> Completion {
    let end = code
        .char_indices()
        .nth(cursor_pos)
        .map(|(i, _)| i)
        .unwrap_or(code.len());
    let (start, word) = dotted_before(code, end);
    let mut matches: Vec<String> = Vec::new();
    let mut types = Vec::new();
    let magic = start > 0 && code[..start].ends_with('%');
    if magic {
        let prefix_start = start - 1;
        let double = prefix_start > 0 && code[..prefix_start].ends_with('%');
        let list = if double {
            crate::interp::magics::cell_magics(rt)
        } else {
            crate::interp::magics::line_magics(rt)
        };
        for m in list {
            if m.starts_with(word) {
                matches.push(format!("{}{m}", if double { "%%" } else { "%" }));
                types.push((
                    matches.last().cloned().unwrap_or_default(),
                    "magic".to_string(),
                ));
            }
        }
        let s = if double {
            prefix_start - 1
        } else {
            prefix_start
        };
        return Completion {
            matches,
            cursor_start: code[..s].chars().count(),
            cursor_end: cursor_pos,
            types,
        };
    }
    let (base, partial) = match word.rfind('.') {
        Some(i) => (Some(&word[..i]), &word[i + 1..]),
        None => (None, word),
    };
    let candidates: Vec<String> = match base {
        Some(b) => match resolve(rt, ctx, b) {
            Some(v) => crate::interp::attrs::dir(&v),
            None => vec![],
        },
        None => {
            let mut names: Vec<String> = ctx.globals.borrow().keys().cloned().collect();
            names.extend(
                rt.state::<crate::interp::expr::InterpState>()
                    .builtins
                    .keys()
                    .cloned(),
            );
            names.extend(
                [
                    "import", "from", "def", "for", "while", "return", "lambda", "with", "True",
                    "False", "None",
                ]
                .iter()
                .map(|s| s.to_string()),
            );
            names
        }
    };
    let mut found: Vec<String> = candidates
        .into_iter()
        .filter(|c| c.starts_with(partial) && (partial.starts_with('_') || !c.starts_with('_')))
        .collect();
    found.sort();
    found.dedup();
    // Keyword arguments of the call the cursor is in.
    if base.is_none() {
        if let Some(callee) = enclosing_call(code, start) {
            if let Some(f) = resolve(rt, ctx, callee) {
                for p in param_names(&f) {
                    let kw = format!("{p}=");
                    if kw.starts_with(partial) && !found.contains(&kw) {
                        found.insert(0, kw);
                    }
                }
            }
        }
    }
    let start_cp = code[..end - partial.len()].chars().count();
    for m in &found {
        types.push((m.clone(), "completion".to_string()));
    }
    Completion {
        matches: found,
        cursor_start: start_cp,
        cursor_end: cursor_pos,
        types,
    }
}

/// The callee of the innermost unclosed `(` before `pos`.
fn enclosing_call(code: &str, pos: usize) -> Option<&str> {
    let mut depth = 0i32;
    for (i, c) in code[..pos].char_indices().rev() {
        match c {
            ')' | ']' => depth += 1,
            '(' | '[' if depth > 0 => depth -= 1,
            '(' => {
                let (_, name) = dotted_before(code, i);
                return if name.is_empty() { None } else { Some(name) };
            }
            _ => {}
        }
    }
    None
}

fn param_names(v: &Value) -> Vec<String> {
    let sig = match v {
        Value::Builtin(b) => b.signature.clone(),
        Value::Object(o) => match o.as_any().downcast_ref::<crate::py::function::Function>() {
            Some(f) => return f.param_names(),
            None => o.doc().map(|d| d.0).unwrap_or_default(),
        },
        _ => return vec![],
    };
    let Some(inner) = sig
        .split_once('(')
        .map(|(_, r)| r.rsplit_once(')').map(|(a, _)| a).unwrap_or(r))
    else {
        return vec![];
    };
    inner
        .split(',')
        .map(|p| {
            p.trim()
                .trim_start_matches('*')
                .split(['=', ':'])
                .next()
                .unwrap_or("")
                .trim()
                .to_string()
        })
        .filter(|p| !p.is_empty() && p != "/" && p.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .collect()
}

/// Signature and doc of a value: (signature line, docstring, type name).
pub fn describe(rt: &mut Runtime, v: &Value) -> PyResult<(String, String, String)> {
    let ty = v.type_name();
    Ok(match v {
        Value::Builtin(b) => (b.signature.clone(), b.doc.clone(), ty),
        Value::Module(m) => (String::new(), m.doc.clone(), ty),
        Value::Object(o) => match o.doc() {
            Some((sig, doc)) => (sig, doc, ty),
            None => (String::new(), crate::interp::repr::repr(rt, v)?, ty),
        },
        other => (String::new(), crate::interp::repr::repr(rt, other)?, ty),
    })
}

/// The text `obj?` pages (and inspect_request shows).
pub fn help_text(rt: &mut Runtime, ctx: &Ctx, name: &str, detail: bool) -> Option<String> {
    let v = resolve(rt, ctx, name)?;
    let (sig, doc, ty) = describe(rt, &v).ok()?;
    let mut out = String::new();
    if !sig.is_empty() {
        out.push_str(&format!("Signature: {sig}\n"));
    }
    out.push_str(&format!("Type:      {ty}\n"));
    if !doc.is_empty() {
        out.push_str(&format!("Docstring: {doc}\n"));
    }
    if detail {
        if let Some(f) = v.downcast::<crate::py::function::Function>() {
            out.push_str(&format!("Source:\n{}\n", f.def_source()));
        }
    }
    Some(out)
}

/// The name under (or just before) the cursor, for inspection.
pub fn name_at(code: &str, cursor_pos: usize) -> Option<String> {
    let pos = code
        .char_indices()
        .nth(cursor_pos)
        .map(|(i, _)| i)
        .unwrap_or(code.len());
    let bytes = code.as_bytes();
    let mut end = pos;
    while end < code.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
        end += 1;
    }
    let (_, mut word) = dotted_before(code, end);
    if word.is_empty() {
        // Inside a call's parentheses: inspect the callee.
        word = enclosing_call(code, pos)?;
    }
    let word = word.trim_matches('.');
    (!word.is_empty()).then(|| word.to_string())
}
