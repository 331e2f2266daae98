//! `is_complete_request` answered as IPython's `TransformerManager.check_complete`: the
//! same order of checks (a trailing backslash, cell magics closed by a blank line, open
//! brackets and triple-quoted strings, a line that opens a block, then the parser), and
//! the same indent for incomplete code. The one rule a user meets most is IPython's, not a
//! console's: a cell whose last line sits in an indented block is complete once it ends
//! with a newline (`def f(x):\n    return x\n`), and incomplete without one.

use ruff_python_ast::token::TokenKind;
use ruff_python_ast::{Mod, Stmt};
use ruff_python_parser::{parse_unchecked, Mode, ParseOptions};
use ruff_text_size::Ranged;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Completeness {
    Complete,
    /// Incomplete, with the indent to suggest for the next line.
    Incomplete(String),
    Invalid,
    Unknown,
}

/// IPython's `find_last_indent`: the last line's leading blanks, a tab counting four.
fn last_indent(lines: &[&str]) -> usize {
    let last = lines.last().copied().unwrap_or("");
    last.chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

fn incomplete(spaces: usize) -> Completeness {
    Completeness::Incomplete(" ".repeat(spaces.min(256))) // bounded: at most 256
}

/// What a token-level pass over the cell found (IPython uses Python's tokenizer here).
#[derive(Default)]
struct Scan {
    depth: i32,
    /// A closing bracket with nothing open (IPython's "sunken brackets").
    sunken: bool,
    /// The cell ends inside brackets, a triple-quoted string or a backslash continuation.
    continuing: bool,
    /// The last logical line: its indent, last significant character, and whether it
    /// ends on the cell's last physical line.
    last_indent: usize,
    last_char: char,
    last_ends_cell: bool,
}

fn scan(lines: &[&str]) -> Scan {
    let mut s = Scan::default();
    // The open string: its quote and whether it is triple-quoted.
    let mut string: Option<(char, bool)> = None;
    for (i, line) in lines.iter().enumerate() {
        if !s.continuing {
            let body = line.trim_start();
            if body.trim().is_empty() || body.starts_with('#') {
                continue;
            }
            s.last_indent = line.len() - body.len();
            if body.starts_with(['%', '!']) {
                // An IPython escape runs to the end of the line whatever it holds.
                s.last_char = body.trim_end().chars().last().unwrap_or(' ');
                s.last_ends_cell = i + 1 == lines.len();
                continue;
            }
        }
        let chars: Vec<char> = line.trim_end_matches(['\n', '\r']).chars().collect();
        let mut j = 0;
        let mut backslash = false;
        while j < chars.len() {
            let c = chars[j];
            backslash = false;
            match string {
                Some((q, triple)) => {
                    if c == '\\' {
                        j += 1;
                    } else if c == q && (!triple || chars[j..].starts_with(&[q, q, q])) {
                        string = None;
                        if triple {
                            j += 2;
                        }
                    }
                }
                None => match c {
                    '#' => break,
                    '\'' | '"' => {
                        let triple = chars[j..].starts_with(&[c, c, c]);
                        string = Some((c, triple));
                        if triple {
                            j += 2;
                        }
                        s.last_char = c;
                    }
                    '(' | '[' | '{' => {
                        s.depth += 1;
                        s.last_char = c;
                    }
                    ')' | ']' | '}' => {
                        s.depth -= 1;
                        s.sunken |= s.depth < 0;
                        s.last_char = c;
                    }
                    '\\' => backslash = true,
                    c if c.is_whitespace() => {}
                    c => s.last_char = c,
                },
            }
            j += 1;
        }
        let in_triple = matches!(string, Some((_, true)));
        if !in_triple {
            string = None;
        }
        s.continuing = in_triple || s.depth > 0 || backslash;
        if !s.continuing {
            s.last_ends_cell = i + 1 == lines.len();
        }
    }
    s
}

/// IPython's cleanup transforms: leading blank lines go, and the first line's indent is
/// removed from every line that has it.
fn cleanup(lines: Vec<&str>) -> Vec<&str> {
    let first = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
    let lines = &lines[first..];
    let Some(head) = lines.first() else {
        return vec![];
    };
    let indent = &head[..head.len() - head.trim_start().len()];
    if indent.is_empty() || head.trim().is_empty() {
        return lines.to_vec();
    }
    lines
        .iter()
        .map(|l| l.strip_prefix(indent).unwrap_or(l))
        .collect()
}

/// Statements CPython's compiler refuses at module level although they parse.
fn refused_at_top(body: &[Stmt]) -> bool {
    body.iter()
        .any(|s| matches!(s, Stmt::Return(_) | Stmt::Break(_) | Stmt::Continue(_)))
}

pub fn is_complete(code: &str) -> Completeness {
    if code.trim().is_empty() {
        return Completeness::Complete;
    }
    if crate::interp::nesting::check(code).is_err() {
        return Completeness::Invalid;
    }
    // Whether the last line break comes after the last non-blank character.
    let ends_with_newline = code
        .chars()
        .rev()
        .find(|c| *c == '\n' || !c.is_whitespace())
        == Some('\n');
    let cell = if ends_with_newline {
        code.to_string()
    } else {
        format!("{code}\n")
    };
    let raw: Vec<&str> = cell.split_inclusive('\n').collect();
    if let Some(last) = raw.iter().rev().find(|l| !l.trim().is_empty()) {
        if last.trim_end_matches(['\n', '\r']).ends_with('\\') {
            return incomplete(last_indent(&raw));
        }
    }
    let lines = cleanup(raw);
    if lines.first().is_some_and(|l| l.starts_with("%%")) {
        // A cell magic's body ends at a blank line.
        return match lines.last().is_some_and(|l| !l.trim().is_empty()) {
            true => incomplete(last_indent(&lines)),
            false => Completeness::Complete,
        };
    }
    let s = scan(&lines);
    if s.sunken {
        // Python's tokenizer gives up at the stray bracket; IPython calls one such line
        // invalid and a longer cell incomplete (its tokens end without an ENDMARKER).
        return match lines.len() {
            1 => Completeness::Invalid,
            _ => incomplete(last_indent(&lines)),
        };
    }
    if s.continuing {
        return incomplete(last_indent(&lines));
    }
    if s.last_ends_cell && s.last_char == ':' {
        return incomplete(last_indent(&lines) + 4);
    }
    let source: String = lines.concat();
    let parsed = parse_unchecked(&source, ParseOptions::from(Mode::Ipython));
    if let Some(first) = parsed.errors().iter().map(|e| e.location.start()).min() {
        // codeop's "incomplete input": the parser ran into the end of the cell, past its
        // last logical line break, still wanting more (`@decorator`, or a block header
        // whose body has not been typed, which ruff reports at the header's line break).
        // Any other error at a line break (`a = 1 +`) is invalid code.
        let tokens = parsed.tokens();
        let trivia_after = tokens.iter().filter(|t| t.start() > first).all(|t| {
            matches!(
                t.kind(),
                TokenKind::Comment
                    | TokenKind::NonLogicalNewline
                    | TokenKind::Indent
                    | TokenKind::Dedent
                    | TokenKind::EndOfFile
            )
        });
        let at = tokens.iter().position(|t| t.start() == first);
        let header_break = at.is_some_and(|i| {
            tokens[i].kind() == TokenKind::Newline
                && i > 0
                && tokens[i - 1].kind() == TokenKind::Colon
        });
        let at_break = at.is_some_and(|i| tokens[i].kind() == TokenKind::Newline);
        let at_end = trivia_after && (header_break || !at_break);
        return match at_end {
            true => incomplete(last_indent(&lines)),
            false => Completeness::Invalid,
        };
    }
    if let Mod::Module(m) = parsed.syntax() {
        if refused_at_top(&m.body) {
            return Completeness::Invalid;
        }
    }
    // The last statement sits in an indented block: Python's tokenizer ends the cell with
    // a DEDENT, which IPython takes as complete only once the cell ends with a newline.
    if s.last_indent > 0 && !ends_with_newline {
        return incomplete(last_indent(&lines));
    }
    Completeness::Complete
}
