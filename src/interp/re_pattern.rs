//! Compiled `re` patterns: Python's syntax translated for the `fancy-regex` crate, CPython's
//! compile errors, and the match sequence of `findall`, `sub` and `split`.
//!
//! Why fancy-regex: Python patterns use look-around (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`)
//! and backreferences (`\1`, `(?P=name)`), which a finite automaton cannot express. The
//! crate parses Python's syntax (`(?P<name>…)`, `(?P=name)`, `{,n}`, atomic groups) and
//! hands every piece without such features to the `regex` crate's automata, so plain
//! patterns keep their linear time and speed; only the look-around and backreference parts
//! run on its backtracking machine. Look-behind stays fixed-width, as CPython requires
//! (the crate's variable-width look-behind feature is off).
//!
//! Backtracking can take exponential time (`(a+)+(?=c)` on `'a' * 40`), and the kernel
//! must not hang on user input: each search may take at most [`BACKTRACK_LIMIT`]
//! backtracking steps. Past it CPython would keep running; here the search raises
//! `RuntimeError` naming the backtrack limit, which a cell can catch.

use fancy_regex::{Captures, Regex, RegexBuilder};

use crate::py::error::{PyErr, PyResult};

/// Backtracking steps one search may take: far above what a sane pattern needs on a
/// notebook's strings, and reached in well under a second by a catastrophic one.
pub const BACKTRACK_LIMIT: usize = 10_000_000;

pub const IGNORECASE: i64 = 2;
pub const MULTILINE: i64 = 8;
pub const DOTALL: i64 = 16;
pub const VERBOSE: i64 = 64;

/// A compiled pattern, with the anchored forms `match` and `fullmatch` use.
#[derive(Clone)]
pub struct Pattern {
    pub source: String,
    pub flags: i64,
    pub any: Regex,
    pub start: Regex,
    pub full: Regex,
    /// The pattern finding only non-empty matches, made when iteration first needs it;
    /// None when it can match only the empty string.
    non_empty: std::cell::OnceCell<Option<Regex>>,
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

impl Pattern {
    pub fn new(source: &str, flags: i64) -> PyResult<Pattern> {
        // Some patterns the crate takes are errors in CPython (`a**`): CPython's word
        // first. Verbose patterns are skipped, as their comments may hold any character.
        if flags & VERBOSE == 0 && !crate::interp::re_syntax::has_inline_verbose(source) {
            if let Some(msg) = crate::interp::re_syntax::cpython_error(source) {
                return Err(PyErr::new("error", msg));
            }
        }
        let body = python_to_fancy(source);
        // A verbose pattern's last line may be a comment, which would swallow the `)` of
        // the anchored forms' wrapping: end it first.
        let verbose = flags & VERBOSE != 0 || crate::interp::re_syntax::has_inline_verbose(source);
        let end = if verbose { "\n" } else { "" };
        let build = |p: String| {
            builder(&p, flags)
                .build()
                .map_err(|e| compile_error(source, &e))
        };
        Ok(Pattern {
            source: source.to_string(),
            flags,
            any: build(body.clone())?,
            start: build(format!("\\A(?:{body}{end})"))?,
            full: build(format!("\\A(?:{body}{end})\\z"))?,
            non_empty: Default::default(),
        })
    }
}

/// The pattern in fancy-regex's syntax: Python's `\Z` (the very end) is its `\z`, its own
/// `\Z` also matching before trailing newlines.
fn python_to_fancy(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut it = source.chars();
    while let Some(c) = it.next() {
        out.push(c);
        if c == '\\' {
            match it.next() {
                Some('Z') => out.push('z'),
                Some(d) => out.push(d),
                None => {}
            }
        }
    }
    out
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
pub fn run_error(e: fancy_regex::Error) -> PyErr {
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
    s: &'t str,
    pos: usize,
    after_empty: bool,
}

impl<'t> Iterator for Matches<'_, 't> {
    type Item = PyResult<Captures<'t, str>>;
    fn next(&mut self) -> Option<Self::Item> {
        while self.pos <= self.s.len() {
            let c = match self.p.any.captures_from_pos(self.s, self.pos) {
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
                let non_empty = self.p.non_empty.get_or_init(|| {
                    let body = python_to_fancy(&self.p.source);
                    builder(&body, self.p.flags)
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

impl Pattern {
    pub fn matches<'r, 't>(&'r self, s: &'t str) -> Matches<'r, 't> {
        Matches {
            p: self,
            s,
            pos: 0,
            after_empty: false,
        }
    }
}
