//! Compiled `re` patterns: Python's syntax translated for the `fancy-regex` crate, CPython's
//! compile errors, and the searches (`search`, `match`, `fullmatch` and the match sequence of
//! `findall`, `sub` and `split`) within a `pos`/`endpos` window.
//!
//! Why fancy-regex: Python patterns use look-around (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`)
//! and backreferences (`\1`, `(?P=name)`), which a finite automaton cannot express. The
//! crate parses Python's syntax (`(?P<name>…)`, `(?P=name)`, `{,n}`, atomic groups) and
//! hands every piece without such features to the `regex` crate's automata, so plain
//! patterns keep their linear time and speed; only the look-around and backreference parts
//! run on its backtracking machine. Look-behind stays fixed-width, as CPython requires
//! (the crate's variable-width look-behind feature is off, and alternatives of different
//! widths, which the crate takes, are refused here).
//!
//! Python's `$` (without MULTILINE) also matches before a newline that ends the string; the
//! crate's only at the very end. Translating every `$` into a look-ahead would send plain
//! patterns to the backtracking machine, so the translated form is compiled, on first need,
//! only for strings that end in a newline: on any other string the two agree.
//!
//! Backtracking can take exponential time (`(a+)+(?=c)` on `'a' * 40`), and the kernel
//! must not hang on user input: each search may take at most [`BACKTRACK_LIMIT`]
//! backtracking steps. Past it CPython would keep running; here the search raises
//! `RuntimeError` naming the backtrack limit, which a cell can catch.

use std::cell::OnceCell;

use fancy_regex::{Captures, Expr, LookAround, Regex, RegexBuilder, RegexInput};

use crate::py::error::{PyErr, PyResult};

/// Backtracking steps one search may take: far above what a sane pattern needs on a
/// notebook's strings, and reached in well under a second by a catastrophic one.
pub const BACKTRACK_LIMIT: usize = 10_000_000;

pub const IGNORECASE: i64 = 2;
pub const MULTILINE: i64 = 8;
pub const DOTALL: i64 = 16;
pub const VERBOSE: i64 = 64;
pub const ASCII: i64 = 256;

/// The three ways to look for a match at or after a position.
#[derive(Clone, Copy)]
pub enum Anchor {
    /// Anywhere from the position on (`search`).
    Search,
    /// Starting at the position (`match`).
    Start,
    /// Starting at the position and ending at the window's end (`fullmatch`).
    Full,
}

/// A compiled pattern.
#[derive(Clone)]
pub struct Pattern {
    pub source: String,
    pub flags: i64,
    plain: Compiled,
    /// The pattern with `$` matching before a final newline too, when that differs.
    newline_body: Option<String>,
    newline: OnceCell<Option<Compiled>>,
}

/// One translation of a pattern, compiled for the searches.
#[derive(Clone)]
struct Compiled {
    body: String,
    any: Regex,
    /// The body followed by the end of the text, for `fullmatch` (run anchored).
    full: Regex,
    /// The body finding only non-empty matches, made when iteration first needs it; None
    /// when it can match only the empty string.
    non_empty: OnceCell<Option<Regex>>,
}

/// The crate's builder for `pattern` with Python's `flags`.
fn builder(pattern: &str, flags: i64) -> RegexBuilder {
    let mut b = RegexBuilder::new(pattern);
    b.case_insensitive(flags & IGNORECASE != 0)
        .multi_line(flags & MULTILINE != 0)
        .dot_matches_new_line(flags & DOTALL != 0)
        .ignore_whitespace(flags & VERBOSE != 0)
        .delegate_size_limit(1 << 24)
        .backtrack_limit(BACKTRACK_LIMIT);
    b
}

fn verbose(source: &str, flags: i64) -> bool {
    flags & VERBOSE != 0 || crate::interp::re_syntax::has_inline_flag(source, 'x')
}

impl Compiled {
    fn new(source: &str, body: String, flags: i64) -> PyResult<Compiled> {
        // A verbose pattern's last line may be a comment, which would swallow the `)` of
        // the wrapping: end it first.
        let end = if verbose(source, flags) { "\n" } else { "" };
        let build = |p: &str| {
            builder(p, flags)
                .build()
                .map_err(|e| compile_error(source, &e))
        };
        Ok(Compiled {
            any: build(&body)?,
            full: build(&format!("(?:{body}{end})\\z"))?,
            body,
            non_empty: Default::default(),
        })
    }
}

impl Pattern {
    pub fn new(source: &str, flags: i64) -> PyResult<Pattern> {
        // Some patterns the crate takes are errors in CPython (`a**`): CPython's word
        // first. Verbose patterns are skipped, as their comments may hold any character.
        let verbose = verbose(source, flags);
        if !verbose {
            if let Some(msg) = crate::interp::re_syntax::cpython_error(source) {
                return Err(PyErr::new("error", msg));
            }
        }
        let body = python_to_fancy(source, false);
        let plain = Compiled::new(source, body.clone(), flags)?;
        if !fixed_width_look_behinds(&body, verbose) {
            return Err(PyErr::new(
                "error",
                "look-behind requires fixed-width pattern",
            ));
        }
        let multiline =
            flags & MULTILINE != 0 || crate::interp::re_syntax::has_inline_flag(source, 'm');
        let newline_body = Some(python_to_fancy(source, true)).filter(|b| !multiline && *b != body);
        Ok(Pattern {
            source: source.to_string(),
            flags,
            plain,
            newline_body,
            newline: OnceCell::new(),
        })
    }

    /// The number of capture groups.
    pub fn groups(&self) -> usize {
        self.plain.any.captures_len() - 1
    }

    /// The group names, by group number.
    pub fn capture_names(&self) -> impl Iterator<Item = Option<&str>> {
        self.plain.any.capture_names()
    }

    /// The translation for a text (a window's, ending at `endpos`).
    fn compiled(&self, text: &str) -> &Compiled {
        let Some(body) = &self.newline_body else {
            return &self.plain;
        };
        if !text.ends_with('\n') {
            return &self.plain;
        }
        self.newline
            .get_or_init(|| Compiled::new(&self.source, body.clone(), self.flags).ok())
            .as_ref()
            .unwrap_or(&self.plain)
    }

    /// The first match in `text` from byte `start` on, as `anchor` asks. The text ends at
    /// the window's end; what precedes `start` stays visible to look-behind and `\b`.
    pub fn find<'t>(
        &self,
        text: &'t str,
        start: usize,
        anchor: Anchor,
    ) -> PyResult<Option<Captures<'t, str>>> {
        let c = self.compiled(text);
        let input = RegexInput::new(text).from_pos(start);
        match anchor {
            Anchor::Search => c.any.captures_input(input),
            Anchor::Start => c.any.captures_input(input.anchored(true)),
            Anchor::Full => c.full.captures_input(input.anchored(true)),
        }
        .map_err(run_error)
    }

    /// The matches of `findall`, `finditer`, `sub` and `split` in `text` from byte `start`.
    pub fn matches<'r, 't>(&'r self, text: &'t str, start: usize) -> Matches<'r, 't> {
        Matches {
            p: self,
            c: self.compiled(text),
            s: text,
            pos: start,
            after_empty: false,
        }
    }
}

/// The search window of `pos` and `endpos` (character indices, clamped to the string as
/// CPython clamps them): the text up to `endpos`, which the search sees as the string's
/// end, and `pos` in bytes. None when `pos` is past `endpos`, where nothing matches.
pub fn window(s: &str, pos: Option<i64>, endpos: Option<i64>) -> Option<(&str, usize)> {
    let byte = |i: Option<i64>, default: usize| match i {
        None => default,
        Some(i) => s
            .char_indices()
            .nth(i.max(0) as usize)
            .map_or(s.len(), |(b, _)| b),
    };
    let (start, end) = (byte(pos, 0), byte(endpos, s.len()));
    (start <= end).then(|| (&s[..end], start))
}

/// The pattern in fancy-regex's syntax: Python's `\Z` (the very end) is its `\z`, its own
/// `\Z` also matching before trailing newlines; with `final_newline`, a `$` outside a set
/// also matches before a newline that ends the text.
fn python_to_fancy(source: &str, final_newline: bool) -> String {
    let mut out = String::with_capacity(source.len());
    let mut it = source.chars().peekable();
    let mut in_set = false;
    while let Some(c) = it.next() {
        match c {
            '\\' => {
                out.push(c);
                match it.next() {
                    Some('Z') => out.push('z'),
                    Some(d) => out.push(d),
                    None => {}
                }
            }
            '[' if !in_set => {
                in_set = true;
                out.push(c);
                // A `]` first in a set (after any `^`) is a literal.
                if it.peek() == Some(&'^') {
                    out.push('^');
                    it.next();
                }
                if it.peek() == Some(&']') {
                    out.push(']');
                    it.next();
                }
            }
            ']' if in_set => {
                in_set = false;
                out.push(c);
            }
            '$' if final_newline && !in_set => out.push_str("(?=\\n?\\z)"),
            _ => out.push(c),
        }
    }
    out
}

/// Whether every look-behind in the translated pattern has one width, as CPython requires:
/// the crate takes alternatives of different fixed widths (`(?<=a|bc)`).
fn fixed_width_look_behinds(body: &str, verbose: bool) -> bool {
    let src = if verbose {
        format!("(?x){body}")
    } else {
        body.to_string()
    };
    match Expr::parse_tree(&src) {
        Ok(tree) => look_behinds_fixed(&tree.expr),
        Err(_) => true,
    }
}

fn look_behinds_fixed(e: &Expr) -> bool {
    if let Expr::LookAround(inner, LookAround::LookBehind | LookAround::LookBehindNeg) = e {
        if width(inner).is_some_and(|(lo, hi)| lo != hi) {
            return false;
        }
    }
    e.children_iter().all(look_behinds_fixed)
}

/// The least and most characters `e` matches (`usize::MAX`: unbounded); None where this
/// does not know, which is taken as fixed.
fn width(e: &Expr) -> Option<(usize, usize)> {
    Some(match e {
        Expr::Empty | Expr::Assertion(_) | Expr::LookAround(..) => (0, 0),
        Expr::Any { .. } | Expr::Delegate { .. } => (1, 1),
        Expr::Literal { val, .. } => {
            let n = val.chars().count();
            (n, n)
        }
        Expr::Concat(v) => v.iter().try_fold((0usize, 0usize), |(lo, hi), x| {
            let (l, h) = width(x)?;
            Some((lo.saturating_add(l), hi.saturating_add(h)))
        })?,
        Expr::Alt(v) => v.iter().try_fold((usize::MAX, 0usize), |(lo, hi), x| {
            let (l, h) = width(x)?;
            Some((lo.min(l), hi.max(h)))
        })?,
        Expr::Group(x) => width(x)?,
        Expr::AtomicGroup(x) => width(x)?,
        Expr::Repeat { child, lo, hi, .. } => {
            let (l, h) = width(child)?;
            let hi = if *hi == usize::MAX && h > 0 {
                usize::MAX
            } else {
                h.saturating_mul(*hi)
            };
            (l.saturating_mul(*lo), hi)
        }
        _ => return None,
    })
}

/// `re.error` for a pattern the crate refuses: CPython's wording where `re_syntax` knows
/// the mistake, else the crate's last line.
fn compile_error(source: &str, e: &fancy_regex::Error) -> PyErr {
    use fancy_regex::{CompileError, Error};
    if let Some(msg) = crate::interp::re_syntax::cpython_error(source) {
        return PyErr::new("error", msg);
    }
    let msg = match e {
        Error::CompileError(c)
            if matches!(
                **c,
                CompileError::LookBehindNotConst | CompileError::VariableLookBehindRequiresFeature
            ) =>
        {
            "look-behind requires fixed-width pattern".to_string()
        }
        other => other
            .to_string()
            .lines()
            .last()
            .unwrap_or("bad pattern")
            .trim()
            .to_string(),
    };
    PyErr::new("error", msg)
}

/// The Python exception for a search the backtracking machine gave up on.
fn run_error(e: fancy_regex::Error) -> PyErr {
    use fancy_regex::{Error, RuntimeError};
    let what = match e {
        Error::RuntimeError(RuntimeError::BacktrackLimitExceeded) => {
            format!("the backtrack limit ({BACKTRACK_LIMIT} steps)")
        }
        Error::RuntimeError(RuntimeError::StackOverflow) => "the backtracking stack limit".into(),
        other => return PyErr::new("RuntimeError", format!("re: {other}")),
    };
    PyErr::new(
        "RuntimeError",
        format!(
            "re: the search exceeded {what}; the pattern backtracks catastrophically on this \
             string (nested repeats such as (a+)+ next to look-around or backreferences)"
        ),
    )
}

/// The matches of `findall`, `sub` and `split` in CPython's order (3.7+): an empty match
/// may follow a non-empty one where it ends, but not another empty one at the same place.
pub struct Matches<'r, 't> {
    p: &'r Pattern,
    c: &'r Compiled,
    s: &'t str,
    pos: usize,
    after_empty: bool,
}

impl<'t> Iterator for Matches<'_, 't> {
    type Item = PyResult<Captures<'t, str>>;
    fn next(&mut self) -> Option<Self::Item> {
        while self.pos <= self.s.len() {
            let c = match self.c.any.captures_from_pos(self.s, self.pos) {
                Ok(Some(c)) => c,
                Ok(None) => break,
                Err(e) => {
                    self.pos = self.s.len() + 1;
                    return Some(Err(run_error(e)));
                }
            };
            let (start, end) = c
                .get(0)
                .map_or((self.pos, self.pos), |m| (m.start(), m.end()));
            if self.after_empty && start == self.pos && end == self.pos {
                // CPython takes a non-empty match starting here where the pattern has one
                // (`(?<=a)|b` on 'ab'), else the next match from the following character.
                let non_empty = self.c.non_empty.get_or_init(|| {
                    builder(&self.c.body, self.p.flags)
                        .find_not_empty(true)
                        .build()
                        .ok()
                });
                if let Some(re) = non_empty {
                    match re.captures_from_pos(self.s, self.pos) {
                        Ok(Some(c)) if c.get(0).is_some_and(|m| m.start() == self.pos) => {
                            self.after_empty = false;
                            self.pos = c.get(0).map_or(self.pos, |m| m.end());
                            return Some(Ok(c));
                        }
                        Ok(_) => {}
                        Err(e) => {
                            self.pos = self.s.len() + 1;
                            return Some(Err(run_error(e)));
                        }
                    }
                }
                self.pos += self.s[self.pos..].chars().next().map_or(1, char::len_utf8);
                self.after_empty = false;
                continue;
            }
            self.after_empty = start == end;
            self.pos = end;
            return Some(Ok(c));
        }
        self.pos = self.s.len() + 1;
        None
    }
}
