//! The `re` module: `compile`, `search`, `match`, `fullmatch`, `findall`, `finditer` (a
//! list), `sub`, `subn`, `split`, `escape`, and the Pattern and Match objects with character
//! positions. Compiling and searching are in `re_pattern.rs`.

use std::rc::Rc;

use fancy_regex::Captures;

use crate::interp::re_pattern::{
    window, Anchor, Pattern, ASCII, DOTALL, IGNORECASE, MULTILINE, VERBOSE,
};
use crate::py::error::{PyErr, PyResult};
use crate::py::methods::{Bound, MethodFn, MethodSpec, MethodTable};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Dict, Module, Object, Value};

/// The `re` module.
pub fn module() -> Rc<Module> {
    let m = Module::new("re", "Regular expressions (on the fancy-regex crate).");
    for (names, v) in [
        (["I", "IGNORECASE"], IGNORECASE),
        (["M", "MULTILINE"], MULTILINE),
        (["S", "DOTALL"], DOTALL),
        (["X", "VERBOSE"], VERBOSE),
        (["A", "ASCII"], ASCII),
    ] {
        for n in names {
            m.set(n, Value::Int(v));
        }
    }
    m.set(
        "error",
        Value::object(crate::interp::objects::ExceptionType {
            name: "error".into(),
        }),
    );
    m.def(
        Function,
        "compile",
        "pattern, flags=0",
        "Compile a regular expression pattern, returning a Pattern object.",
        |_, b| Ok(Value::object(pattern_arg(b.get(0), b.get(1))?)),
    );
    // Each function is the Pattern method of the same name, given the arguments between
    // the pattern and the flags.
    let functions: [(&str, &'static str, &str); 8] = [
        (
            "search",
            "pattern, string, flags=0",
            "Scan through string looking for a match to the pattern, returning a Match object, or None if no match was found.",
        ),
        (
            "match",
            "pattern, string, flags=0",
            "Try to apply the pattern at the start of the string, returning a Match object, or None if no match was found.",
        ),
        (
            "fullmatch",
            "pattern, string, flags=0",
            "Try to apply the pattern to all of the string, returning a Match object, or None if no match was found.",
        ),
        (
            "findall",
            "pattern, string, flags=0",
            "Return a list of all non-overlapping matches in the string.",
        ),
        (
            "finditer",
            "pattern, string, flags=0",
            "Return an iterator over all non-overlapping matches in the string.",
        ),
        (
            "split",
            "pattern, string, maxsplit=0, flags=0",
            "Split the source string by the occurrences of the pattern, returning a list containing the resulting substrings.",
        ),
        (
            "sub",
            "pattern, repl, string, count=0, flags=0",
            "Return the string obtained by replacing the leftmost non-overlapping occurrences of the pattern in string by the replacement repl.",
        ),
        (
            "subn",
            "pattern, repl, string, count=0, flags=0",
            "Return a 2-tuple containing (new_string, number).",
        ),
    ];
    for (name, sig, doc) in functions {
        m.def(Function, name, sig, doc, move |rt, b| {
            let last = b.len() - 1;
            let p = Rc::new(pattern_arg(b.get(0), b.get(last))?);
            let args = b[1..last].iter().map(|v| v.clone().unwrap_or(Value::None));
            // invariant: each function above is named after a PATTERN method.
            let spec = PATTERN.find(name).expect("a Pattern method");
            (spec.call)(&p, rt, spec.bind(PATTERN.owner, Args::new(args.collect()))?)
        });
    }
    m.def(
        Function,
        "escape",
        "pattern",
        "Escape special characters in a string.",
        |_, b| {
            let s = match b.get(0) {
                Some(Value::Str(s)) => s.to_string(),
                // str(pattern, 'latin1'), as re.escape does for anything not a str.
                other => {
                    return Err(PyErr::type_error(format!(
                        "decoding to str: need a bytes-like object, {} found",
                        other.map_or_else(|| "NoneType".into(), |v| v.type_name())
                    )))
                }
            };
            // Only the characters special in a pattern (Python 3.7 and later).
            let mut out = String::new();
            for c in s.chars() {
                if "()[]{}?*+-|^$\\.&~# \t\n\r\x0b\x0c".contains(c) {
                    out.push('\\');
                }
                out.push(c);
            }
            Ok(Value::str(&out))
        },
    );
    Rc::new(m)
}

fn str_of(v: Option<&Value>, func: &str, what: &str) -> PyResult<String> {
    crate::interp::text_modules::str_arg(v, func, what)
}

/// `pos`/`endpos`/`count`/`maxsplit`: absent means the default; None is a TypeError, as in
/// CPython (they are C integers there, not optional values).
fn index_arg(v: Option<&Value>) -> PyResult<Option<i64>> {
    match v {
        None => Ok(None),
        Some(v) => v.as_index().map(Some),
    }
}

fn pattern_arg(p: Option<&Value>, flags: Option<&Value>) -> PyResult<Pattern> {
    let flags = match flags {
        Some(Value::None) | None => 0,
        Some(v) => v.as_index()?,
    };
    if let Some(v) = p {
        if let Some(existing) = v.downcast::<Pattern>() {
            if flags != 0 {
                return Err(PyErr::value_error(
                    "cannot process flags argument with a compiled pattern",
                ));
            }
            return Ok(existing.clone());
        }
    }
    let source = str_of(p, "compile", "pattern")?;
    Pattern::new(&source, flags)
}

/// The methods of `re.Pattern` (C methods of `_sre`: Argument Clinic's argument errors).
pub static PATTERN: MethodTable<Rc<Pattern>> = MethodTable {
    owner: "Pattern",
    methods: &PATTERN_METHODS,
};

const fn pm(
    name: &'static str,
    sig: &'static str,
    doc: &'static str,
    call: MethodFn<Rc<Pattern>>,
) -> MethodSpec<Rc<Pattern>> {
    MethodSpec::new(name, sig, doc, call)
}

/// `pos` and `endpos` default to the string's bounds (`sys.maxsize` is no literal, so that
/// slot stays empty when not given).
const WINDOW: &str = "string, pos=0, endpos=sys.maxsize";

static PATTERN_METHODS: [MethodSpec<Rc<Pattern>>; 8] = [
    pm("findall", WINDOW,
        "Return a list of all non-overlapping matches of pattern in string.",
        |p, rt, b| find_all(p, rt, &b, false)),
    pm("finditer", WINDOW,
        "Return an iterator over all non-overlapping matches for the RE pattern in string. For each match, the iterator returns a match object.",
        |p, rt, b| find_all(p, rt, &b, true)),
    pm("fullmatch", WINDOW,
        "Matches against all of the string.",
        |p, _, b| search(p, &b, "fullmatch", Anchor::Full)),
    pm("match", WINDOW,
        "Matches zero or more characters at the beginning of the string.",
        |p, _, b| search(p, &b, "match", Anchor::Start)),
    pm("search", WINDOW,
        "Scan through string looking for a match, and return a corresponding match object instance. Return None if no position in the string matches.",
        |p, _, b| search(p, &b, "search", Anchor::Search)),
    pm("split", "string, maxsplit=0",
        "Split string by the occurrences of pattern.",
        |p, rt, b| split(p, rt, &b)),
    pm("sub", "repl, string, count=0",
        "Return the string obtained by replacing the leftmost non-overlapping occurrences of pattern in string by the replacement repl.",
        |p, rt, b| substitute(p, rt, &b, "sub")),
    pm("subn", "repl, string, count=0",
        "Return the tuple (new_string, number_of_subs_made) found by replacing the leftmost non-overlapping occurrences of pattern with the replacement repl.",
        |p, rt, b| substitute(p, rt, &b, "subn")),
];

/// The string and its `pos`/`endpos` window, as the searching methods take them.
fn window_args(b: &Bound, name: &str) -> PyResult<(String, Option<i64>, Option<i64>)> {
    let s = str_of(b.get(0), name, "string")?;
    Ok((s, index_arg(b.get(1))?, index_arg(b.get(2))?))
}

fn search(p: &Rc<Pattern>, b: &Bound, name: &str, anchor: Anchor) -> PyResult<Value> {
    let (s, pos, endpos) = window_args(b, name)?;
    let Some((text, start)) = window(&s, pos, endpos) else {
        return Ok(Value::None);
    };
    Ok(match p.find(text, start, anchor)? {
        Some(c) => Value::object(Match::new(p, &Subject::new(&s), &c, pos, endpos)),
        None => Value::None,
    })
}

fn find_all(p: &Rc<Pattern>, rt: &mut Runtime, b: &Bound, iter: bool) -> PyResult<Value> {
    let name = if iter { "finditer" } else { "findall" };
    let (s, pos, endpos) = window_args(b, name)?;
    let Some((text, start)) = window(&s, pos, endpos) else {
        return Ok(Value::list(Vec::new()));
    };
    let groups = p.groups();
    let subject = Subject::new(&s);
    let mut out = Vec::new();
    for c in p.matches(text, start) {
        let c = c?;
        rt.check_interrupt()?;
        out.push(if iter {
            Value::object(Match::new(p, &subject, &c, pos, endpos))
        } else {
            let g = |i: usize| Value::str(c.get(i).map(|m| m.as_str()).unwrap_or(""));
            match groups {
                0 => g(0),
                1 => g(1),
                n => Value::tuple((1..=n).map(g).collect()),
            }
        });
    }
    Ok(Value::list(out))
}

fn substitute(p: &Rc<Pattern>, rt: &mut Runtime, b: &Bound, name: &str) -> PyResult<Value> {
    let repl = b.value(0);
    let s = str_of(b.get(1), name, "string")?;
    let count = index_arg(b.get(2))?.unwrap_or(0).max(0) as usize;
    let template = match &repl {
        Value::Str(t) => Some(p.template(t)?),
        _ => None,
    };
    let mut out = String::new();
    let mut last = 0;
    let mut n = 0;
    let subject = Subject::new(&s);
    for c in p.matches(&s, 0) {
        if count != 0 && n == count {
            break;
        }
        let c = c?;
        rt.check_interrupt()?;
        // invariant: group 0 (the whole match) always participates
        let m = c.get(0).expect("group 0 always participates");
        out.push_str(&s[last..m.start()]);
        match &template {
            Some(t) => expand(t, &c, &mut out),
            None => {
                let mv = Value::object(Match::new(p, &subject, &c, None, None));
                match &rt.call(&repl, Args::new(vec![mv]))? {
                    Value::Str(r) => out.push_str(r),
                    other => {
                        return Err(PyErr::type_error(format!(
                            "expected str instance, {} found",
                            other.type_name()
                        )))
                    }
                }
            }
        }
        last = m.end();
        n += 1;
    }
    out.push_str(&s[last..]);
    Ok(if name == "subn" {
        Value::tuple(vec![Value::str(&out), Value::Int(n as i64)])
    } else {
        Value::str(&out)
    })
}

fn split(p: &Rc<Pattern>, rt: &mut Runtime, b: &Bound) -> PyResult<Value> {
    let s = str_of(b.get(0), "split", "string")?;
    let max = index_arg(b.get(1))?.unwrap_or(0).max(0) as usize;
    let mut out = Vec::new();
    let mut last = 0;
    for (n, c) in p.matches(&s, 0).enumerate() {
        if max != 0 && n == max {
            break;
        }
        let c = c?;
        rt.check_interrupt()?;
        // invariant: group 0 (the whole match) always participates
        let m = c.get(0).expect("group 0 always participates");
        out.push(Value::str(&s[last..m.start()]));
        // Groups in the pattern are returned between the pieces, as in Python.
        for i in 1..c.len() {
            out.push(match c.get(i) {
                Some(g) => Value::str(g.as_str()),
                None => Value::None,
            });
        }
        last = m.end();
    }
    out.push(Value::str(&s[last..]));
    Ok(Value::list(out))
}

/// A piece of a parsed replacement template.
enum Piece {
    Text(String),
    Group(usize),
}

/// `sub`'s replacement: the text with each piece's group (empty where it did not take part).
fn expand(t: &[Piece], c: &Captures<str>, out: &mut String) {
    for p in t {
        match p {
            Piece::Text(s) => out.push_str(s),
            Piece::Group(i) => out.push_str(c.get(*i).map(|m| m.as_str()).unwrap_or("")),
        }
    }
}

impl Pattern {
    /// A Python replacement template (`\1`, `\g<1>`, `\g<name>`, `\n`, `\\`, ...) as
    /// pieces, its group references checked against this pattern with CPython's errors.
    fn template(&self, t: &str) -> PyResult<Vec<Piece>> {
        let c: Vec<char> = t.chars().collect();
        let groups = self.groups();
        let at = |msg: String, pos: usize| PyErr::new("error", format!("{msg} at position {pos}"));
        let group = |n: usize, pos: usize| {
            if n > groups {
                Err(at(format!("invalid group reference {n}"), pos))
            } else {
                Ok(Piece::Group(n))
            }
        };
        let mut out = Vec::new();
        let mut text = String::new();
        let mut i = 0;
        while i < c.len() {
            if c[i] != '\\' {
                text.push(c[i]);
                i += 1;
                continue;
            }
            let Some(&e) = c.get(i + 1) else {
                return Err(at("bad escape (end of pattern)".into(), i));
            };
            let piece = match e {
                'g' => {
                    if c.get(i + 2) != Some(&'<') {
                        return Err(at("missing <".into(), i + 2));
                    }
                    let start = i + 3;
                    let Some(len) = c[start..].iter().position(|&x| x == '>') else {
                        return Err(at("missing >, unterminated name".into(), start));
                    };
                    let name: String = c[start..start + len].iter().collect();
                    i = start + len + 1;
                    if name.is_empty() {
                        return Err(at("missing group name".into(), start));
                    }
                    if name.chars().all(|d| d.is_ascii_digit()) {
                        group(name.parse().unwrap_or(usize::MAX), start)?
                    } else if is_identifier(&name) {
                        match self.capture_names().position(|n| n == Some(name.as_str())) {
                            Some(g) => Piece::Group(g),
                            None => {
                                return Err(PyErr::new(
                                    "IndexError",
                                    format!("unknown group name '{name}'"),
                                ))
                            }
                        }
                    } else {
                        return Err(at(format!("bad character in group name '{name}'"), start));
                    }
                }
                '0' => {
                    // An octal escape of up to three digits.
                    let digits: String = c[i + 1..]
                        .iter()
                        .take(3)
                        .take_while(|d| d.is_digit(8))
                        .collect();
                    i += 1 + digits.len();
                    let code = u32::from_str_radix(&digits, 8).unwrap_or(0);
                    text.push(char::from_u32(code).unwrap_or('\0'));
                    continue;
                }
                '1'..='9' => {
                    let mut n = e.to_digit(10).unwrap_or(0) as usize;
                    i += 2;
                    if let Some(d) = c.get(i).and_then(|d| d.to_digit(10)) {
                        n = n * 10 + d as usize;
                        i += 1;
                    }
                    group(n, i - 1 - usize::from(n >= 10))?
                }
                _ => {
                    i += 2;
                    match e {
                        'a' => text.push('\x07'),
                        'b' => text.push('\x08'),
                        'f' => text.push('\x0c'),
                        'n' => text.push('\n'),
                        'r' => text.push('\r'),
                        't' => text.push('\t'),
                        'v' => text.push('\x0b'),
                        '\\' => text.push('\\'),
                        e if e.is_ascii_alphabetic() => {
                            return Err(at(format!("bad escape \\{e}"), i - 2))
                        }
                        e => {
                            text.push('\\');
                            text.push(e);
                        }
                    }
                    continue;
                }
            };
            if !text.is_empty() {
                out.push(Piece::Text(std::mem::take(&mut text)));
            }
            out.push(piece);
        }
        if !text.is_empty() {
            out.push(Piece::Text(text));
        }
        Ok(out)
    }
}

fn is_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && cs.all(|c| c.is_alphanumeric() || c == '_')
}

impl Object for Pattern {
    fn type_name(&self) -> String {
        "re.Pattern".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let names: Vec<&str> = [
            (IGNORECASE, "re.IGNORECASE"),
            (MULTILINE, "re.MULTILINE"),
            (DOTALL, "re.DOTALL"),
            (VERBOSE, "re.VERBOSE"),
            (ASCII, "re.ASCII"),
        ]
        .iter()
        .filter(|(f, _)| self.flags & f != 0)
        .map(|(_, n)| *n)
        .collect();
        let source = crate::interp::repr::str_repr(&self.source);
        Ok(if names.is_empty() {
            format!("re.compile({source})")
        } else {
            format!("re.compile({source}, {})", names.join("|"))
        })
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(Some(match name {
            "pattern" => Value::str(&self.source),
            "flags" => Value::Int(self.flags | 32),
            "groups" => Value::Int(self.groups() as i64),
            _ => return Ok(PATTERN.bound(&self, name)),
        }))
    }
    fn dir(&self) -> Vec<String> {
        PATTERN.names_with(&["flags", "groups", "pattern"])
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The string a search runs over, shared by all the matches it makes (each used to copy
/// it, and count characters from its start: quadratic over a long `finditer`).
struct Subject {
    text: Rc<str>,
    ascii: bool,
    len_chars: i64,
    /// The last (byte, character) position converted: matches come in order, so the next
    /// conversion counts on from here.
    cursor: std::cell::Cell<(usize, usize)>,
}

impl Subject {
    fn new(s: &str) -> Rc<Subject> {
        let ascii = s.is_ascii();
        Rc::new(Subject {
            text: s.into(),
            ascii,
            len_chars: if ascii { s.len() } else { s.chars().count() } as i64,
            cursor: std::cell::Cell::new((0, 0)),
        })
    }

    /// The character index of byte offset `b` (a char boundary).
    fn chars(&self, b: usize) -> usize {
        if self.ascii {
            return b;
        }
        let (cb, cc) = self.cursor.get();
        let (from_b, from_c) = if b >= cb { (cb, cc) } else { (0, 0) };
        let c = from_c + self.text[from_b..b].chars().count();
        self.cursor.set((b, c));
        c
    }
}

/// A match: the groups' text and character positions, taken when it was made.
pub struct Match {
    pattern: Rc<Pattern>,
    string: Rc<str>,
    /// The search window as given (clamped), for the `pos` and `endpos` attributes.
    pos: i64,
    endpos: i64,
    /// Per group: (start, end) in characters, or None when it did not participate.
    spans: Vec<Option<(usize, usize)>>,
    texts: Vec<Option<String>>,
    names: Vec<(String, usize)>,
}

impl Match {
    /// The match `c` found in `s` (or in a window of it, which starts where `s` does).
    fn new(
        p: &Rc<Pattern>,
        s: &Subject,
        c: &Captures<str>,
        pos: Option<i64>,
        endpos: Option<i64>,
    ) -> Match {
        let chars = |b: usize| s.chars(b);
        let mut spans = Vec::new();
        let mut texts = Vec::new();
        for i in 0..c.len() {
            match c.get(i) {
                Some(m) => {
                    spans.push(Some((chars(m.start()), chars(m.end()))));
                    texts.push(Some(m.as_str().to_string()));
                }
                None => {
                    spans.push(None);
                    texts.push(None);
                }
            }
        }
        let names = p
            .capture_names()
            .enumerate()
            .filter_map(|(i, n)| n.map(|n| (n.to_string(), i)))
            .collect();
        let len = s.len_chars;
        let clamp = |i: Option<i64>, default: i64| i.map_or(default, |i| i.clamp(0, len));
        Match {
            pattern: p.clone(),
            string: s.text.clone(),
            pos: clamp(pos, 0),
            endpos: clamp(endpos, len),
            spans,
            texts,
            names,
        }
    }

    fn index(&self, g: Option<&Value>) -> PyResult<usize> {
        let i = match g {
            None => 0,
            Some(Value::Str(n)) => self
                .names
                .iter()
                .find(|(k, _)| **k == **n)
                .map(|(_, i)| *i)
                .ok_or_else(|| PyErr::new("IndexError", "no such group"))?,
            Some(v) => v.as_index()? as usize,
        };
        if i >= self.spans.len() {
            return Err(PyErr::new("IndexError", "no such group"));
        }
        Ok(i)
    }

    fn text(&self, i: usize) -> Value {
        self.text_or(i, &Value::None)
    }

    /// Group `i`'s text, or `default` when the group took no part in the match.
    fn text_or(&self, i: usize, default: &Value) -> Value {
        match &self.texts[i] {
            Some(t) => Value::str(t),
            None => default.clone(),
        }
    }

    fn span(&self, i: usize) -> (i64, i64) {
        self.spans[i]
            .map(|(a, b)| (a as i64, b as i64))
            .unwrap_or((-1, -1))
    }
}

impl Object for Match {
    fn type_name(&self) -> String {
        "re.Match".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let (a, b) = self.span(0);
        Ok(format!(
            "<re.Match object; span=({a}, {b}), match={}>",
            crate::interp::repr::str_repr(self.texts[0].as_deref().unwrap_or(""))
        ))
    }
    fn truthy(&self, _rt: &mut Runtime) -> PyResult<bool> {
        Ok(true)
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        let i = self.index(Some(key))?;
        Ok(self.text(i))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(Some(match name {
            "string" => Value::str(&self.string),
            "pos" => Value::Int(self.pos),
            "endpos" => Value::Int(self.endpos),
            "re" => Value::Object(self.pattern.clone()),
            "lastindex" => match (1..self.spans.len())
                .rev()
                .find(|&i| self.spans[i].is_some())
            {
                Some(i) => Value::Int(i as i64),
                None => Value::None,
            },
            _ => return Ok(MATCH.bound(&self, name)),
        }))
    }
    fn dir(&self) -> Vec<String> {
        MATCH.names_with(&["endpos", "lastindex", "pos", "re", "string"])
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The methods of `re.Match` (C methods of `_sre`: Argument Clinic's argument errors).
pub static MATCH: MethodTable<Rc<Match>> = MethodTable {
    owner: "Match",
    methods: &MATCH_METHODS,
};

static MATCH_METHODS: [MethodSpec<Rc<Match>>; 6] = [
    MethodSpec::new("end", "group=0, /", "Return index of the end of the substring matched by group.",
        |m, _, b| Ok(Value::Int(m.span(m.index(b.get(0))?).1))),
    MethodSpec::new("group", "*groups",
        "Return one or more subgroups of the match: a string for one group, a tuple for several.",
        |m, _, b| match b.rest.as_slice() {
            [] => Ok(m.text(0)),
            [g] => Ok(m.text(m.index(Some(g))?)),
            gs => Ok(Value::tuple(
                gs.iter().map(|g| Ok(m.text(m.index(Some(g))?))).collect::<PyResult<_>>()?,
            )),
        }),
    MethodSpec::new("groupdict", "default=None",
        "Return a dictionary containing all the named subgroups of the match, keyed by the subgroup name.",
        |m, _, b| {
            let mut d = Dict::default();
            for (n, i) in &m.names {
                d.insert_str(n, m.text_or(*i, &b.value(0)));
            }
            Ok(Value::Dict(Rc::new(std::cell::RefCell::new(d))))
        }),
    MethodSpec::new("groups", "default=None",
        "Return a tuple containing all the subgroups of the match, from 1 up to however many groups are in the pattern.",
        |m, _, b| {
            let default = b.value(0);
            Ok(Value::tuple((1..m.texts.len()).map(|i| m.text_or(i, &default)).collect()))
        }),
    MethodSpec::new("span", "group=0, /", "For match object m, return the 2-tuple (m.start(group), m.end(group)).",
        |m, _, b| {
            let (s, e) = m.span(m.index(b.get(0))?);
            Ok(Value::tuple(vec![Value::Int(s), Value::Int(e)]))
        }),
    MethodSpec::new("start", "group=0, /", "Return index of the start of the substring matched by group.",
        |m, _, b| Ok(Value::Int(m.span(m.index(b.get(0))?).0))),
];
