//! Developer assistance: completion and inspection (`obj?`).
//!
//! Completion answers as IPython's (Jedi-backed) completer does: every item carries its
//! type for `_jupyter_types_experimental` (`function`, `module`, `class`, `instance`,
//! `keyword`, `statement`, `param`, `path`, `dict key`, `magic`); names bound earlier
//! in the cell being edited are offered before the cell has run (as Jedi's `statement`);
//! inside `d['` the dict's keys, inside any other string the file paths it starts, and in
//! a call the callee's parameters as `name=`.

use ruff_python_ast::{Expr, Mod, Stmt};
use ruff_python_parser::{parse_unchecked, Mode, ParseOptions};
use ruff_text_size::Ranged;

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
    if let Some(c) = complete_in_string(rt, ctx, code, end, cursor_pos) {
        return c;
    }
    if let Some(c) = complete_dict_key(rt, ctx, code, end, cursor_pos) {
        return c;
    }
    let (base, partial) = match word.rfind('.') {
        Some(i) => (Some(&word[..i]), &word[i + 1..]),
        None => (None, word),
    };
    let visible =
        |c: &str| c.starts_with(partial) && (partial.starts_with('_') || !c.starts_with('_'));
    // (name, type), sorted by name; the first type given for a name wins.
    let mut found: Vec<(String, String)> = Vec::new();
    match base {
        Some(b) => {
            if let Some(v) = resolve(rt, ctx, b) {
                for name in crate::interp::attrs::dir(&v)
                    .into_iter()
                    .filter(|c| visible(c))
                {
                    let ty = match crate::interp::attrs::get_attr(rt, &v, &name) {
                        Ok(a) => kind_of(&a),
                        Err(_) => "instance",
                    };
                    found.push((name, ty.into()));
                }
            }
        }
        None => {
            let globals: Vec<(String, Value)> = ctx
                .globals
                .borrow()
                .iter()
                .filter(|(k, _)| visible(k))
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect();
            for (k, v) in globals {
                found.push((k, kind_of(&v).into()));
            }
            for (k, ty) in cell_names(code, start) {
                if visible(&k) {
                    found.push((k, ty.into()));
                }
            }
            let builtins = &rt.state::<crate::interp::expr::InterpState>().builtins;
            for (k, v) in builtins.iter().filter(|(k, _)| visible(k)) {
                found.push((k.clone(), kind_of(v).into()));
            }
            for k in KEYWORDS.iter().filter(|k| visible(k)) {
                found.push((k.to_string(), "keyword".into()));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found.dedup_by(|a, b| a.0 == b.0);
    // Keyword arguments of the call the cursor is in.
    if base.is_none() {
        if let Some(callee) = enclosing_call(code, start) {
            if let Some(f) = resolve(rt, ctx, callee) {
                for p in param_names(&f) {
                    let kw = format!("{p}=");
                    if kw.starts_with(partial) && !found.iter().any(|(m, _)| *m == kw) {
                        found.insert(0, (kw, "param".into()));
                    }
                }
            }
        }
    }
    let start_cp = code[..end - partial.len()].chars().count();
    Completion {
        matches: found.iter().map(|(m, _)| m.clone()).collect(),
        cursor_start: start_cp,
        cursor_end: cursor_pos,
        types: found,
    }
}

/// Python's keywords that start statements or expressions, offered as completions.
const KEYWORDS: &[&str] = &[
    "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
    "else", "except", "False", "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "None", "nonlocal", "not", "or", "pass", "raise", "return", "True", "try", "while",
    "with", "yield",
];

/// A value's completion type, in Jedi's words.
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Module(_) => "module",
        Value::Builtin(_) => "function",
        Value::Object(o) => {
            if o.as_any().is::<crate::py::function::Function>() {
                return "function";
            }
            let ty = o.type_name();
            if ty == "type" {
                "class"
            } else if ty.contains("function") || ty.contains("method") || ty.ends_with("Dispatcher")
            {
                "function"
            } else {
                "instance"
            }
        }
        _ => "instance",
    }
}

/// Names the cell binds before byte `before`, with their completion type: the cell has
/// not run, so they are not in the namespace yet (`zzq_long_name = 1\nzzq_lo`).
fn cell_names(code: &str, before: usize) -> Vec<(String, &'static str)> {
    let parsed = parse_unchecked(code, ParseOptions::from(Mode::Ipython));
    let mut out = Vec::new();
    if let Mod::Module(m) = parsed.syntax() {
        bound_in(&m.body, before, &mut out);
    }
    out
}

fn bound_in(body: &[Stmt], before: usize, out: &mut Vec<(String, &'static str)>) {
    for s in body {
        if s.range().start().to_usize() >= before {
            break;
        }
        match s {
            Stmt::Assign(a) => a.targets.iter().for_each(|t| targets(t, out)),
            Stmt::AnnAssign(a) => targets(&a.target, out),
            Stmt::AugAssign(a) => targets(&a.target, out),
            Stmt::For(f) => {
                targets(&f.target, out);
                bound_in(&f.body, before, out);
                bound_in(&f.orelse, before, out);
            }
            Stmt::While(w) => {
                bound_in(&w.body, before, out);
                bound_in(&w.orelse, before, out);
            }
            Stmt::If(i) => {
                bound_in(&i.body, before, out);
                for c in &i.elif_else_clauses {
                    bound_in(&c.body, before, out);
                }
            }
            Stmt::With(w) => {
                for item in &w.items {
                    if let Some(t) = &item.optional_vars {
                        targets(t, out);
                    }
                }
                bound_in(&w.body, before, out);
            }
            Stmt::Try(t) => {
                bound_in(&t.body, before, out);
                for h in &t.handlers {
                    let ruff_python_ast::ExceptHandler::ExceptHandler(h) = h;
                    bound_in(&h.body, before, out);
                }
                bound_in(&t.orelse, before, out);
                bound_in(&t.finalbody, before, out);
            }
            Stmt::FunctionDef(f) => out.push((f.name.to_string(), "function")),
            Stmt::ClassDef(c) => out.push((c.name.to_string(), "class")),
            Stmt::Import(i) => {
                for a in &i.names {
                    let name = match &a.asname {
                        Some(n) => n.to_string(),
                        None => a.name.split('.').next().unwrap_or("").to_string(),
                    };
                    out.push((name, "module"));
                }
            }
            Stmt::ImportFrom(i) => {
                for a in &i.names {
                    let n = a.asname.as_ref().unwrap_or(&a.name);
                    out.push((n.to_string(), "statement"));
                }
            }
            _ => {}
        }
    }
}

fn targets(e: &Expr, out: &mut Vec<(String, &'static str)>) {
    match e {
        Expr::Name(n) => out.push((n.id.to_string(), "statement")),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| targets(e, out)),
        Expr::List(l) => l.elts.iter().for_each(|e| targets(e, out)),
        Expr::Starred(s) => targets(&s.value, out),
        _ => {}
    }
}

/// The string literal the cursor (byte `end`) is in, on its line: (byte offset just after
/// the opening quote, the quote). Triple-quoted strings count as not being in one.
fn open_string(code: &str, end: usize) -> Option<(usize, char)> {
    let line_start = code[..end].rfind('\n').map_or(0, |i| i + 1);
    let mut open: Option<(usize, char)> = None;
    let mut escaped = false;
    for (i, c) in code[line_start..end].char_indices() {
        match open {
            Some((_, q)) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    open = None;
                }
            }
            None if c == '#' => return None,
            None if c == '\'' || c == '"' => open = Some((line_start + i + 1, c)),
            None => {}
        }
    }
    open
}

/// Completion inside a string: the subscripted dict's keys after `d['`, else the paths
/// that start with what the string holds so far (relative to the kernel's directory, as
/// IPython's are).
fn complete_in_string(
    rt: &mut Runtime,
    ctx: &Ctx,
    code: &str,
    end: usize,
    cursor_pos: usize,
) -> Option<Completion> {
    let (content_start, quote) = open_string(code, end)?;
    let typed = &code[content_start..end];
    let before_quote = code[..content_start - quote.len_utf8()].trim_end();
    let start_cp = code[..content_start].chars().count();
    if let Some(keys) = before_quote
        .strip_suffix('[')
        .and_then(|b| dict_keys(rt, ctx, b))
    {
        let found: Vec<(String, String)> = keys
            .into_iter()
            .filter(|k| k.starts_with(typed))
            .map(|k| (k, "dict key".to_string()))
            .collect();
        return Some(Completion {
            matches: found.iter().map(|(m, _)| m.clone()).collect(),
            cursor_start: start_cp,
            cursor_end: cursor_pos,
            types: found,
        });
    }
    let found: Vec<(String, String)> = paths(typed)
        .into_iter()
        .map(|p| (p, "path".to_string()))
        .collect();
    Some(Completion {
        matches: found.iter().map(|(m, _)| m.clone()).collect(),
        cursor_start: start_cp,
        cursor_end: cursor_pos,
        types: found,
    })
}

/// `d[` with no quote yet: the keys, quoted (IPython's answer there).
fn complete_dict_key(
    rt: &mut Runtime,
    ctx: &Ctx,
    code: &str,
    end: usize,
    cursor_pos: usize,
) -> Option<Completion> {
    let before = code[..end].strip_suffix('[')?;
    let keys = dict_keys(rt, ctx, before)?;
    let found: Vec<(String, String)> = keys
        .into_iter()
        .map(|k| (format!("'{k}'"), "dict key".to_string()))
        .collect();
    Some(Completion {
        matches: found.iter().map(|(m, _)| m.clone()).collect(),
        cursor_start: cursor_pos,
        cursor_end: cursor_pos,
        types: found,
    })
}

/// The string keys of the dict that `code` ends with the name of, in insertion order.
fn dict_keys(rt: &mut Runtime, ctx: &Ctx, code: &str) -> Option<Vec<String>> {
    let (_, name) = dotted_before(code, code.len());
    if name.is_empty() {
        return None;
    }
    let v = resolve(rt, ctx, name)?;
    let Value::Dict(d) = &v else {
        return None;
    };
    let keys = d
        .borrow()
        .iter()
        .filter_map(|(k, _)| match k {
            Value::Str(s) => Some(s.to_string()),
            _ => None,
        })
        .collect();
    Some(keys)
}

/// Paths starting with `typed`: a directory's entries whose names continue its last part,
/// directories with a trailing `/`; hidden ones only when asked for with a leading dot.
fn paths(typed: &str) -> Vec<String> {
    let (dir, stem) = match typed.rfind('/') {
        Some(i) => (&typed[..=i], &typed[i + 1..]),
        None => ("", typed),
    };
    let read = match std::fs::read_dir(if dir.is_empty() { "." } else { dir }) {
        Ok(r) => r,
        Err(_) => return vec![],
    };
    let mut out: Vec<String> = read
        .flatten()
        .take(10_000) // bounded: a directory's first 10,000 entries
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            if !name.starts_with(stem) || (name.starts_with('.') && !stem.starts_with('.')) {
                return None;
            }
            let slash = if e.path().is_dir() { "/" } else { "" };
            Some(format!("{dir}{name}{slash}"))
        })
        .collect();
    out.sort();
    out
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
        Value::Builtin(b) => b.signature.to_string(),
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
        Value::Builtin(b) => (b.signature.to_string(), b.doc.to_string(), ty),
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
