//! This session's input history, for `history_request` (tail, range and glob search), as
//! IPython's history manager answers it for the current session.

use serde_json::{json, Value as Json};

/// History of the current process is session 1 (IPython numbers sessions from 1).
pub const SESSION: i64 = 1;

#[derive(Default)]
pub struct History {
    /// (line = execution count, input, text/plain of the result if any)
    entries: Vec<(u32, String, Option<String>)>,
}

impl History {
    pub fn record(&mut self, line: u32, input: &str, output: Option<String>) {
        self.entries.push((line, input.to_string(), output));
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    fn row(e: &(u32, String, Option<String>), output: bool) -> Json {
        if output {
            json!([SESSION, e.0, [e.1, e.2]])
        } else {
            json!([SESSION, e.0, e.1])
        }
    }

    /// Answer a history_request's content.
    pub fn query(&self, c: &Json) -> Vec<Json> {
        let output = c["output"].as_bool().unwrap_or(false);
        let unique = c["unique"].as_bool().unwrap_or(false);
        let n = c["n"].as_u64().map(|n| n as usize);
        let picked: Vec<&(u32, String, Option<String>)> = match c["hist_access_type"]
            .as_str()
            .unwrap_or("range")
        {
            "tail" => {
                let all = if unique {
                    dedupe(self.entries.iter().collect())
                } else {
                    self.entries.iter().collect()
                };
                last(all, Some(n.unwrap_or(10)))
            }
            "search" => {
                let pat = c["pattern"].as_str().unwrap_or("*");
                let hits: Vec<_> = self.entries.iter().filter(|e| glob(pat, &e.1)).collect();
                let hits = if unique { dedupe(hits) } else { hits };
                last(hits, n)
            }
            _ => {
                let session = c["session"].as_i64().unwrap_or(0);
                // 0 and 1 both mean this session; earlier sessions do not exist here.
                if session != 0 && session != SESSION {
                    return Vec::new();
                }
                let start = c["start"].as_u64().unwrap_or(0);
                let stop = c["stop"].as_u64().filter(|&s| s > 0);
                self.entries
                    .iter()
                    .filter(|e| u64::from(e.0) >= start && stop.is_none_or(|s| u64::from(e.0) < s))
                    .collect()
            }
        };
        picked.into_iter().map(|e| Self::row(e, output)).collect()
    }
}

fn last<T>(mut v: Vec<T>, n: Option<usize>) -> Vec<T> {
    if let Some(n) = n {
        let skip = v.len().saturating_sub(n);
        v.drain(..skip);
    }
    v
}

/// Keep the latest occurrence of each input, in order.
fn dedupe(v: Vec<&(u32, String, Option<String>)>) -> Vec<&(u32, String, Option<String>)> {
    let mut out: Vec<&(u32, String, Option<String>)> = Vec::new();
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
        let tail = h.query(&json!({"hist_access_type": "tail", "n": 2}));
        assert_eq!(tail, vec![json!([1, 3, "1+2"]), json!([1, 4, "1+1"])]);
        let r = h.query(&json!({"hist_access_type": "range", "session": 1, "start": 2, "stop": 3}));
        assert_eq!(r, vec![json!([1, 2, "x=2"])]);
        let s = h.query(&json!({"hist_access_type": "search", "pattern": "1+*"}));
        assert_eq!(s.len(), 3);
        let s = h.query(&json!({"hist_access_type": "search", "pattern": "1+1", "unique": true}));
        assert_eq!(s, vec![json!([1, 4, "1+1"])]);
        let s = h.query(&json!({"hist_access_type": "search", "pattern": "*", "n": 2}));
        assert_eq!(s.len(), 2);
        let o = h.query(&json!({"hist_access_type": "tail", "n": 1, "output": true}));
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
