//! CPython's `re.error` messages for the mistakes people make in patterns (an unclosed
//! group or set, a stray `)`, nothing or too much to repeat, a bad escape, a backreference
//! to an unknown or still open group), with CPython's "at position N". Consulted only after
//! `fancy-regex` refuses a pattern, to word the error as CPython does, and before it for
//! non-verbose patterns, since the crate takes some that CPython refuses (`a**`, `(a\1)`).

/// Escapes CPython's parser accepts after a backslash outside a set (besides digits and
/// punctuation).
const KNOWN_ESCAPES: &str = "abBdDfnrsStvwWZAxuUN";

/// What the previous pattern item was, for the repeat rules.
#[derive(Clone, Copy, PartialEq)]
enum Prev {
    /// Start of the pattern, of a group, or after `|`: nothing to repeat.
    Nothing,
    Atom,
    /// A quantifier, possibly with its lazy/possessive modifier already taken.
    Repeat {
        modified: bool,
    },
}

/// CPython's message for `pattern`, when it is one of the mistakes this file knows.
pub fn cpython_error(pattern: &str) -> Option<String> {
    let c: Vec<char> = pattern.chars().collect();
    let at = |msg: &str, pos: usize| Some(format!("{msg} at position {pos}"));
    let mut open: Vec<usize> = Vec::new();
    // Per open group: its number when it captures. Capturing groups opened so far, and
    // their names, for backreferences.
    let mut open_groups: Vec<Option<usize>> = Vec::new();
    let mut groups = 0;
    let mut names: Vec<String> = Vec::new();
    let mut prev = Prev::Nothing;
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '\\' => {
                let Some(&e) = c.get(i + 1) else {
                    return at("bad escape (end of pattern)", i);
                };
                if e.is_ascii_alphabetic() && !KNOWN_ESCAPES.contains(e) {
                    return at(&format!("bad escape \\{e}"), i);
                }
                if let Some(n) = backref_number(&c[i + 1..]) {
                    if open_groups.contains(&Some(n)) {
                        return at("cannot refer to an open group", i);
                    }
                    if n > groups {
                        return at(&format!("invalid group reference {n}"), i + 1);
                    }
                }
                i += 2;
                prev = Prev::Atom;
                continue;
            }
            '[' => {
                let mut j = i + 1;
                if c.get(j) == Some(&'^') {
                    j += 1;
                }
                if c.get(j) == Some(&']') {
                    j += 1;
                }
                loop {
                    match c.get(j) {
                        None => return at("unterminated character set", i),
                        Some('\\') => j += 2,
                        Some(']') => break,
                        Some(_) => j += 1,
                    }
                }
                i = j + 1;
                prev = Prev::Atom;
                continue;
            }
            '(' => {
                open.push(i);
                i += 1;
                let captures = c.get(i) != Some(&'?')
                    || (c.get(i + 1) == Some(&'P') && c.get(i + 2) == Some(&'<'));
                if captures {
                    groups += 1;
                }
                open_groups.push(captures.then_some(groups));
                // Skip a group's `?...` prefix up to its body.
                if c.get(i) == Some(&'?') {
                    match c.get(i + 1) {
                        Some('P') if c.get(i + 2) == Some(&'<') => {
                            let start = i + 3;
                            while i < c.len() && c[i] != '>' {
                                i += 1;
                            }
                            names.push(c[start.min(i)..i].iter().collect());
                            i += 1;
                        }
                        Some('P') if c.get(i + 2) == Some(&'=') => {
                            let name: String =
                                c[i + 3..].iter().take_while(|&&x| x != ')').collect();
                            if !names.contains(&name) {
                                return at(&format!("unknown group name '{name}'"), i + 3);
                            }
                            i += 2;
                        }
                        Some('<') => i += 3,
                        Some('#') => {
                            while i < c.len() && c[i] != ')' {
                                i += 1;
                            }
                        }
                        _ => i += 2,
                    }
                }
                prev = Prev::Nothing;
                continue;
            }
            ')' => {
                open_groups.pop();
                if open.pop().is_none() {
                    return at("unbalanced parenthesis", i);
                }
                prev = Prev::Atom;
            }
            '|' => prev = Prev::Nothing,
            '*' | '+' | '?' | '{' => {
                let len = if c[i] == '{' {
                    match repeat_braces(&c[i..]) {
                        Some((len, lo, hi)) => {
                            if hi.is_some_and(|hi| lo > hi) {
                                return at("min repeat greater than max repeat", i + 1);
                            }
                            len
                        }
                        // Not a repeat: a literal `{`.
                        None => {
                            prev = Prev::Atom;
                            i += 1;
                            continue;
                        }
                    }
                } else {
                    1
                };
                match prev {
                    Prev::Nothing => return at("nothing to repeat", i),
                    Prev::Repeat { modified: false } if matches!(c[i], '?' | '+') => {
                        prev = Prev::Repeat { modified: true };
                    }
                    Prev::Repeat { .. } => return at("multiple repeat", i),
                    Prev::Atom => prev = Prev::Repeat { modified: false },
                }
                i += len;
                continue;
            }
            _ => prev = Prev::Atom,
        }
        i += 1;
    }
    let last = open.pop()?;
    at("missing ), unterminated subpattern", last)
}

/// The group a backreference escape refers to, `c` starting after the backslash: one or
/// two digits, not starting with 0 and not a three-digit octal escape.
fn backref_number(c: &[char]) -> Option<usize> {
    let d: Vec<u32> = c.iter().take(3).map_while(|x| x.to_digit(10)).collect();
    match d[..] {
        [] | [0, ..] => None,
        [a, b, e] if a < 8 && b < 8 && e < 8 => None,
        [a] => Some(a as usize),
        [a, b, ..] => Some((a * 10 + b) as usize),
    }
}

/// Whether the pattern turns on a flag inline (`(?x)`, `(?ix)`, `(?m:...)`, ...).
pub fn has_inline_flag(pattern: &str, flag: char) -> bool {
    pattern.match_indices("(?").any(|(i, _)| {
        pattern[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .any(|c| c == flag)
    })
}

/// `{m}`, `{m,}`, `{,n}` or `{m,n}` at the start of `c`: its length and bounds.
fn repeat_braces(c: &[char]) -> Option<(usize, u64, Option<u64>)> {
    let close = c.iter().position(|&x| x == '}')?;
    let body: String = c[1..close].iter().collect();
    let num = |s: &str| -> Option<Option<u64>> {
        if s.is_empty() {
            Some(None)
        } else if s.chars().all(|d| d.is_ascii_digit()) {
            s.parse().ok().map(Some)
        } else {
            None
        }
    };
    let (lo, hi) = match body.split_once(',') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => {
            let v = num(&body)??;
            (Some(v), Some(v))
        }
    };
    Some((close + 1, lo.unwrap_or(0), hi))
}
