//! This session's input history, for `history_request` (tail, range and glob search), as
//! IPython's history manager answers it for the current session.

use jupyter_protocol::HistoryRequest;
use serde_json::{json, Value as Json};

/// History of the current process is session 1 (IPython numbers sessions from 1).
pub const SESSION: i64 = 1;

/// (line = execution count, input, text/plain of the result if any)
type Entry = (u32, String, Option<String>);

#[derive(Default)]
pub struct History {
    entries: Vec<Entry>,
}

impl History {
    pub fn record(&mut self, line: u32, input: &str, output: Option<String>) {
        self.entries.push((line, input.to_string(), output));
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    fn row(e: &Entry, output: bool) -> Json {
        if output {
            json!([SESSION, e.0, [e.1, e.2]])
        } else {
            json!([SESSION, e.0, e.1])
        }
    }

    /// Answer a history_request.
    pub fn query(&self, req: &HistoryRequest) -> Vec<Json> {
        let (picked, output): (Vec<&Entry>, bool) = match req {
            HistoryRequest::Tail { n, output, .. } => {
                (last(self.entries.iter().collect(), count(*n)), *output)
            }
            HistoryRequest::Search {
                pattern,
                unique,
                output,
                n,
                ..
            } => {
                let hits: Vec<_> = self
                    .entries
                    .iter()
                    .filter(|e| glob(pattern, &e.1))
                    .collect();
                let hits = if *unique { dedupe(hits) } else { hits };
                (last(hits, count(*n)), *output)
            }
            HistoryRequest::Range {
                session,
                start,
                stop,
                output,
                ..
            } => {
                // 0 (or none) and 1 both mean this session; earlier sessions do not exist here.
                let session = i64::from(session.unwrap_or(0));
                if session != 0 && session != SESSION {
                    return Vec::new();
                }
                let start = i64::from(*start);
                // 0 is "to the end" (what a request without `stop` is given).
                let stop = Some(i64::from(*stop)).filter(|&s| s > 0);
                let rows = self
                    .entries
                    .iter()
                    .filter(|e| i64::from(e.0) >= start && stop.is_none_or(|s| i64::from(e.0) < s))
                    .collect();
                (rows, *output)
            }
        };
        picked.into_iter().map(|e| Self::row(e, output)).collect()
    }
}

/// A request's `n` as a limit (a negative one keeps nothing).
fn count(n: i32) -> Option<usize> {
    Some(usize::try_from(n).unwrap_or(0))
}

fn last<T>(mut v: Vec<T>, n: Option<usize>) -> Vec<T> {
    if let Some(n) = n {
        let skip = v.len().saturating_sub(n);
        v.drain(..skip);
    }
    v
}

/// Keep the latest occurrence of each input, in order.
fn dedupe(v: Vec<&Entry>) -> Vec<&Entry> {
    let mut out: Vec<&Entry> = Vec::new();
    for e in v.into_iter().rev() {
        if !out.iter().any(|o| o.1 == e.1) {
            out.push(e);
        }
    }
    out.reverse();
    out
}

/// SQLite GLOB semantics (what IPython's search uses): `*`, `?`, `[...]`, case-sensitive,
/// matching the whole input.
pub fn glob(pat: &str, text: &str) -> bool {
    let p: Vec<char> = pat.chars().collect();
    let t: Vec<char> = text.chars().collect();
    glob_at(&p, &t)
}

fn glob_at(p: &[char], t: &[char]) -> bool {
    match p.first() {
        None => t.is_empty(),
        Some('*') => (0..=t.len()).any(|i| glob_at(&p[1..], &t[i..])),
        Some('?') => !t.is_empty() && glob_at(&p[1..], &t[1..]),
        Some('[') => {
            let Some(close) = p.iter().skip(2).position(|&c| c == ']').map(|i| i + 2) else {
                return !t.is_empty() && t[0] == '[' && glob_at(&p[1..], &t[1..]);
            };
            let Some(&c) = t.first() else { return false };
            let mut set = &p[1..close];
            let negate = set.first() == Some(&'^');
            if negate {
                set = &set[1..];
            }
            let mut hit = false;
            let mut i = 0;
            while i < set.len() {
                if i + 2 < set.len() && set[i + 1] == '-' {
                    hit |= set[i] <= c && c <= set[i + 2];
                    i += 3;
                } else {
                    hit |= set[i] == c;
                    i += 1;
                }
            }
            hit != negate && glob_at(&p[close + 1..], &t[1..])
        }
        Some(&ch) => t.first() == Some(&ch) && glob_at(&p[1..], &t[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Query with a request as a client sends it, through the defaults the server fills in.
    fn q(h: &History, c: Json) -> Vec<Json> {
        let c = crate::protocol::request::with_defaults("history_request", c);
        h.query(&serde_json::from_value(c).unwrap())
    }

    fn h() -> History {
        let mut h = History::default();
        for (i, s) in ["1+1", "x=2", "1+2", "1+1"].iter().enumerate() {
            h.record(i as u32 + 1, s, None);
        }
        h
    }

    #[test]
    fn tail_range_search() {
        let h = h();
        let tail = q(&h, json!({"hist_access_type": "tail", "n": 2}));
        assert_eq!(tail, vec![json!([1, 3, "1+2"]), json!([1, 4, "1+1"])]);
        let r = q(
            &h,
            json!({"hist_access_type": "range", "session": 1, "start": 2, "stop": 3}),
        );
        assert_eq!(r, vec![json!([1, 2, "x=2"])]);
        let s = q(&h, json!({"hist_access_type": "search", "pattern": "1+*"}));
        assert_eq!(s.len(), 3);
        let s = q(
            &h,
            json!({"hist_access_type": "search", "pattern": "1+1", "unique": true}),
        );
        assert_eq!(s, vec![json!([1, 4, "1+1"])]);
        let s = q(
            &h,
            json!({"hist_access_type": "search", "pattern": "*", "n": 2}),
        );
        assert_eq!(s.len(), 2);
        let o = q(
            &h,
            json!({"hist_access_type": "tail", "n": 1, "output": true}),
        );
        assert_eq!(o, vec![json!([1, 4, ["1+1", null]])]);
    }

    #[test]
    fn glob_classes() {
        assert!(glob("a[0-9]?", "a5z"));
        assert!(!glob("a[^0-9]", "a5"));
        assert!(glob("*", ""));
        assert!(!glob("abc", "abcd"));
    }
}
