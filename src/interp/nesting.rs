//! Limits checked before a cell is parsed. ruff's parser, the evaluator and dropping the
//! syntax tree all recurse once per nesting level, so a cell such as `"(" * 1_000_000`
//! would overflow the native stack and end the kernel. CPython refuses such cells too: more
//! than 200 nested brackets is a SyntaxError, and an expression of tens of thousands of
//! chained operators a RecursionError during compilation. Also here: the exception a parse
//! failure raises, with CPython's class and text for indentation mistakes.

use crate::py::error::PyErr;
use crate::py::value::Value;
use ruff_python_parser::{LexicalErrorType, ParseError, ParseErrorType};

/// CPython's tokenizer limit (`MAXLEVEL`): "too many nested parentheses".
const MAX_BRACKET_DEPTH: usize = 200;
/// Operators in one expression (between separators). CPython already fails below 10,000;
/// nbcuda's parser and evaluator manage far more, so only the pathological is refused.
const MAX_OPERATOR_CHAIN: usize = 50_000;
/// Prefix operators in a row (`- - - x`): each is one more level of recursion in the parser
/// (CPython gives up before 3,000).
const MAX_PREFIX_RUN: usize = 1_000;

/// The first limit `code` breaks, as the error to raise, with its byte offset.
pub fn check(code: &str) -> Result<(), (PyErr, usize)> {
    let b = code.as_bytes();
    let mut depth = 0usize;
    let mut chain = 0usize;
    let mut prefix_run = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'+' | b'-' | b'~' => prefix_run += 1,
            b' ' | b'\t' => {}
            _ => prefix_run = 0,
        }
        if prefix_run > MAX_PREFIX_RUN {
            let e = PyErr::new(
                "RecursionError",
                "maximum recursion depth exceeded during compilation",
            );
            return Err((e, i));
        }
        match c {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                i = skip_string(b, i);
                chain = 0;
                continue;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                chain = 0;
                if depth > MAX_BRACKET_DEPTH {
                    let e = PyErr::new("SyntaxError", "too many nested parentheses");
                    return Err((e, i));
                }
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                chain = 0;
            }
            b',' | b':' | b';' | b'\n' => chain = 0,
            b'+' | b'-' | b'~' | b'*' | b'/' | b'%' | b'@' | b'&' | b'|' | b'^' | b'<' | b'>' => {
                chain += 1;
                if chain > MAX_OPERATOR_CHAIN {
                    let e = PyErr::new(
                        "RecursionError",
                        "maximum recursion depth exceeded during compilation",
                    );
                    return Err((e, i));
                }
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// The index just past the string literal starting at `i` (a quote), triple-quoted or not;
/// the end of the code if it is unterminated (the parser reports that).
fn skip_string(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let triple = b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q);
    let mut j = i + if triple { 3 } else { 1 };
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            c if c == q && !triple => return j + 1,
            c if c == q && b.get(j + 1) == Some(&q) && b.get(j + 2) == Some(&q) => return j + 3,
            b'\n' if !triple => return j,
            _ => j += 1,
        }
    }
    b.len()
}

/// The SyntaxError (or IndentationError, as CPython raises for indentation mistakes) for a
/// failed parse of `code`.
pub fn parse_error(code: &str, e: &ParseError) -> PyErr {
    let at = e.location.start().to_usize().min(code.len());
    // Input that ends inside brackets is reported at the innermost open one, as CPython's
    // tokenizer does.
    let (err, at) = match unclosed_bracket(code).filter(|_| code[at..].trim().is_empty()) {
        Some(open) => (
            PyErr::new(
                "SyntaxError",
                format!("'{}' was never closed", code.as_bytes()[open] as char),
            ),
            open,
        ),
        None => (parse_error_kind(code, e, at), at),
    };
    // SyntaxError's args: (msg, (filename, lineno, offset, text, end_lineno, end_offset)).
    let mut at = at;
    while !code.is_char_boundary(at) {
        at -= 1;
    }
    let line_start = code[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = code[at..].find('\n').map_or(code.len(), |i| at + i);
    let lineno = code[..at].matches('\n').count() as i64 + 1;
    let offset = code[line_start..at].chars().count() as i64 + 1;
    let location = vec![
        Value::str("<string>"),
        Value::Int(lineno),
        Value::Int(offset),
        Value::str(&code[line_start..line_end]),
        Value::Int(lineno),
        Value::Int(offset),
    ];
    let msg = Value::str(&err.message);
    err.with_args(vec![msg, Value::tuple(location)])
}

/// The offset of the innermost bracket still open at the end of `code`.
fn unclosed_bracket(code: &str) -> Option<usize> {
    let b = code.as_bytes();
    let mut open = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                i = skip_string(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => open.push(i),
            b')' | b']' | b'}' => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    open.pop()
}

/// A syntax error's args with `filename` in place of the default `<string>`.
pub fn with_filename(mut err: PyErr, filename: &str) -> PyErr {
    if let Some(Value::Tuple(t)) = err
        .obj
        .as_mut()
        .and_then(|o| o.args.as_mut())
        .and_then(|a| a.get_mut(1))
    {
        let mut items = t.to_vec();
        if let Some(f) = items.first_mut() {
            *f = Value::str(filename);
        }
        *t = items.into();
    }
    err
}

fn parse_error_kind(code: &str, e: &ParseError, at: usize) -> PyErr {
    match &e.error {
        ParseErrorType::UnexpectedIndentation => {
            PyErr::new("IndentationError", "unexpected indent")
        }
        ParseErrorType::Lexical(LexicalErrorType::IndentationError) => PyErr::new(
            "IndentationError",
            "unindent does not match any outer indentation level",
        ),
        ParseErrorType::OtherError(m) => {
            match m.strip_prefix("Expected an indented block after ") {
                Some(clause) => PyErr::new(
                    "IndentationError",
                    format!(
                        "expected an indented block after {} on line {}",
                        cpython_clause(clause),
                        header_line(code, at)
                    ),
                ),
                None => PyErr::new("SyntaxError", m.clone()),
            }
        }
        // CPython's parser says no more than this for a missing operand (`1 +`, `x = = 2`).
        ParseErrorType::ExpectedExpression => PyErr::new("SyntaxError", "invalid syntax"),
        other => PyErr::new("SyntaxError", other.to_string()),
    }
}

/// ruff's name for a block's header (`` `if` statement ``, `` `else` clause ``) in CPython's
/// words (`'if' statement`, `'else' statement`, `class definition`).
fn cpython_clause(clause: &str) -> String {
    clause
        .replace('`', "'")
        .replace(" clause", " statement")
        .replace(" block", " statement")
        .replace("'class' definition", "class definition")
}

/// The 1-based line of the block header that the indented block should follow: the error is
/// reported at the first token after the header's line (or at its end), so this is the last
/// line before that token which is neither blank nor a comment.
fn header_line(code: &str, at: usize) -> usize {
    let before = &code[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    if !before[line_start..].trim().is_empty() {
        // The error is on the header's own line (the block is missing at the end of input).
        return before.matches('\n').count() + 1;
    }
    let lines: Vec<&str> = before[..line_start].lines().collect();
    let header = lines
        .iter()
        .rposition(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .unwrap_or(0);
    header + 1
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn brackets_deeper_than_cpythons_limit_are_refused_where_they_start() {
        assert!(check(&format!("{}1{}", "(".repeat(200), ")".repeat(200))).is_ok());
        let (e, at) = check(&format!("{}1{}", "(".repeat(201), ")".repeat(201))).unwrap_err();
        assert_eq!(
            (e.ename.as_str(), e.message.as_str(), at),
            ("SyntaxError", "too many nested parentheses", 200)
        );
        // Brackets inside strings and comments do not count.
        assert!(check(&format!(
            "s = '{}'  # {}\nt = \"\"\"{}\"\"\"",
            "(".repeat(300),
            "[".repeat(300),
            "{".repeat(300)
        ))
        .is_ok());
    }

    #[test]
    fn a_pathological_operator_chain_is_a_recursion_error() {
        assert!(check(&format!("x = {}1", "1+".repeat(50_000))).is_ok());
        let (e, _) = check(&format!("x = {}1", "1*".repeat(60_000))).unwrap_err();
        assert_eq!(e.ename, "RecursionError");
        assert!(check(&format!("x = {}1", "- ".repeat(1_000))).is_ok());
        let (e, at) = check(&format!("x = {}1", "- ".repeat(1_001))).unwrap_err();
        assert_eq!((e.ename.as_str(), at), ("RecursionError", 4 + 2 * 1_000));
        // Many short expressions are fine.
        assert!(check(&format!("x = [{}]", "-1, ".repeat(100_000))).is_ok());
    }
}
