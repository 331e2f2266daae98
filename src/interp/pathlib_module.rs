//! `pathlib.Path` (a `PosixPath`): CPython's normalisation (repeated slashes and `.` parts
//! dropped), the `/` operator, the name parts (`name`, `stem`, `suffix`, `suffixes`,
//! `parent`, `parts`), and the file-system methods notebooks use (`exists`, `is_file`,
//! `is_dir`, `stat`, `read_text`/`write_text`, `read_bytes`/`write_bytes`, `mkdir`, `iterdir`,
//! `glob`/`rglob`, `unlink`, `rmdir`, `resolve`, `open`). `open()` and `os` accept a Path.
//!
//! Known differences: no `PureWindowsPath`, `relative_to()` or `match()`; `glob`
//! results come in sorted order (CPython's follow the directory order).

use std::rc::Rc;

use crate::arrays::operator::BinOp;
use crate::interp::shell::os_error;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Object, Value};

/// A file-system path.
pub struct PathObj {
    /// Normalised: `/` for the root, parts joined by `/`, `.` for the empty path.
    path: String,
}

/// The path string of `v` when it is a `pathlib.Path` (for `open()` and `os`).
pub fn fspath(v: &Value) -> Option<String> {
    v.downcast::<PathObj>().map(|p| p.path.clone())
}

fn normalise(s: &str) -> String {
    let root = s.starts_with('/');
    let parts: Vec<&str> = s
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    match (root, parts.is_empty()) {
        (true, _) => format!("/{}", parts.join("/")),
        (false, true) => ".".into(),
        (false, false) => parts.join("/"),
    }
}

fn join(base: &str, other: &str) -> String {
    if other.starts_with('/') || base == "." {
        normalise(other)
    } else {
        normalise(&format!("{base}/{other}"))
    }
}

fn path(s: String) -> Value {
    Value::object(PathObj { path: s })
}

fn part_of(v: &Value) -> PyResult<String> {
    match v {
        Value::Str(s) => Ok(s.to_string()),
        v => fspath(v).ok_or_else(|| {
            PyErr::type_error(format!(
                "expected str, bytes or os.PathLike object, not {}",
                v.type_name()
            ))
        }),
    }
}

fn new_path(parts: &[Value]) -> PyResult<Value> {
    let mut p = ".".to_string();
    for v in parts {
        p = join(&p, &part_of(v)?);
    }
    Ok(path(p))
}

/// The `pathlib` module.
pub fn module() -> Rc<Module> {
    let m = Module::new("pathlib", "Object-oriented file-system paths (POSIX).");
    for name in ["Path", "PosixPath", "PurePath", "PurePosixPath"] {
        m.def(
            Function,
            name,
            "*pathsegments",
            "A path made of the segments, joined and normalised.",
            |_, b| new_path(&b.rest),
        );
    }
    Rc::new(m)
}

impl PathObj {
    fn name(&self) -> &str {
        if self.path == "/" || self.path == "." {
            return "";
        }
        self.path.rsplit('/').next().unwrap_or("")
    }
    /// The index of the suffix's dot in the name, when it has one.
    fn suffix_at(&self) -> Option<usize> {
        let name = self.name();
        name.rfind('.').filter(|&i| i > 0 && i < name.len() - 1)
    }
    fn parent(&self) -> String {
        match self.path.rfind('/') {
            _ if self.path == "/" || self.path == "." => self.path.clone(),
            Some(0) => "/".into(),
            Some(i) => self.path[..i].to_string(),
            None => ".".into(),
        }
    }
    fn io<T>(&self, r: std::io::Result<T>) -> PyResult<T> {
        r.map_err(|e| os_error(&e, Some(&self.path)))
    }
}

fn method(p: &Rc<PathObj>, name: &'static str, rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let fs = std::path::Path::new(&p.path);
    match name {
        "exists" => Ok(Value::Bool(fs.exists())),
        "is_file" => Ok(Value::Bool(fs.is_file())),
        "is_dir" => Ok(Value::Bool(fs.is_dir())),
        "stat" => Ok(crate::interp::stat_result::stat_result(
            &p.io(std::fs::metadata(fs))?,
        )),
        "is_absolute" => Ok(Value::Bool(p.path.starts_with('/'))),
        "as_posix" | "__fspath__" => Ok(Value::str(&p.path)),
        "read_text" => {
            let bytes = p.io(std::fs::read(fs))?;
            String::from_utf8(bytes)
                .map(|s| Value::str(&s.replace("\r\n", "\n")))
                .map_err(|_| {
                    PyErr::new(
                        "UnicodeDecodeError",
                        "'utf-8' codec can't decode the file's bytes",
                    )
                })
        }
        "read_bytes" => Ok(Value::Bytes(p.io(std::fs::read(fs))?.into())),
        "write_text" | "write_bytes" => {
            let b = a.bind(name, &["data", "encoding=", "errors=", "newline="])?;
            let data = b[0].clone().unwrap_or(Value::None);
            let bytes: Vec<u8> = match (&data, name) {
                (Value::Str(s), "write_text") => s.as_bytes().to_vec(),
                (Value::Bytes(b), "write_bytes") => b.to_vec(),
                (v, "write_text") => {
                    return Err(PyErr::type_error(format!(
                        "data must be str, not {}",
                        v.type_name()
                    )))
                }
                (v, _) => {
                    return Err(PyErr::type_error(format!(
                        "memoryview: a bytes-like object is required, not '{}'",
                        v.type_name()
                    )))
                }
            };
            p.io(std::fs::write(fs, &bytes))?;
            let n = match &data {
                Value::Str(s) => s.chars().count(),
                _ => bytes.len(),
            };
            Ok(Value::Int(n as i64))
        }
        "mkdir" => {
            let b = a.bind("mkdir", &["mode=", "parents=", "exist_ok="])?;
            let flag = |rt: &mut Runtime, v: &Option<Value>| match v {
                Some(v) => crate::interp::ops::truthy(rt, v),
                None => Ok(false),
            };
            let (parents, exist_ok) = (flag(rt, &b[1])?, flag(rt, &b[2])?);
            let r = if parents {
                if fs.is_dir() && !exist_ok {
                    std::fs::create_dir(fs)
                } else {
                    std::fs::create_dir_all(fs)
                }
            } else {
                std::fs::create_dir(fs)
            };
            match r {
                Err(e)
                    if e.kind() == std::io::ErrorKind::AlreadyExists && exist_ok && fs.is_dir() =>
                {
                    Ok(Value::None)
                }
                r => p.io(r).map(|_| Value::None),
            }
        }
        "unlink" => {
            let b = a.bind("unlink", &["missing_ok="])?;
            let missing_ok = rt.flag(b[0].as_ref())?;
            match std::fs::remove_file(fs) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && missing_ok => Ok(Value::None),
                r => p.io(r).map(|_| Value::None),
            }
        }
        "rmdir" => p.io(std::fs::remove_dir(fs)).map(|_| Value::None),
        "iterdir" => {
            let mut out = Vec::new();
            for e in p.io(std::fs::read_dir(fs))? {
                let e = p.io(e)?;
                out.push(path(join(&p.path, &e.file_name().to_string_lossy())));
            }
            Ok(crate::interp::iterators::from_items("generator", out))
        }
        "glob" | "rglob" => {
            let b = a.bind(name, &["pattern"])?;
            let pat = part_of(b[0].as_ref().unwrap_or(&Value::None))?;
            if pat.is_empty() {
                return Err(PyErr::value_error("Unacceptable pattern: ''"));
            }
            let pat = if name == "rglob" {
                format!("**/{pat}")
            } else {
                pat
            };
            let segs: Vec<&str> = pat.split('/').filter(|s| !s.is_empty()).collect();
            if segs.iter().any(|s| s.contains("**") && *s != "**") {
                return Err(PyErr::value_error(
                    "Invalid pattern: '**' can only be an entire path component",
                ));
            }
            let mut found = Vec::new();
            glob(rt, &p.path, &segs, &mut found)?;
            found.sort();
            found.dedup();
            Ok(crate::interp::iterators::from_items(
                "generator",
                found.into_iter().map(path).collect(),
            ))
        }
        "resolve" | "absolute" => {
            let abs = if p.path.starts_with('/') {
                p.path.clone()
            } else {
                let cwd = std::env::current_dir().map_err(|e| os_error(&e, None))?;
                join(&cwd.to_string_lossy(), &p.path)
            };
            if name == "resolve" {
                if let Ok(c) = std::fs::canonicalize(&abs) {
                    return Ok(path(c.to_string_lossy().into_owned()));
                }
            }
            Ok(path(abs))
        }
        "with_suffix" | "with_name" | "with_stem" => {
            let b = a.bind(name, &["arg"])?;
            let arg = part_of(b[0].as_ref().unwrap_or(&Value::None))?;
            if p.name().is_empty() {
                return Err(PyErr::value_error(format!(
                    "{} has an empty name",
                    pyrepr(&p.path)
                )));
            }
            let stem = match p.suffix_at() {
                Some(i) => &p.name()[..i],
                None => p.name(),
            };
            let suffix = p.suffix_at().map_or("", |i| &p.name()[i..]);
            let new_name = match name {
                "with_suffix" => {
                    if !arg.is_empty() && (!arg.starts_with('.') || arg == ".") {
                        return Err(PyErr::value_error(format!(
                            "Invalid suffix {}",
                            pyrepr(&arg)
                        )));
                    }
                    format!("{stem}{arg}")
                }
                "with_stem" => format!("{arg}{suffix}"),
                _ => arg,
            };
            Ok(path(join(&p.parent(), &new_name)))
        }
        "joinpath" => {
            let mut s = p.path.clone();
            for v in &a.pos {
                s = join(&s, &part_of(v)?);
            }
            Ok(path(s))
        }
        "open" => {
            let mut args = a;
            args.pos.insert(0, Value::str(&p.path));
            let open = rt.builtin("open")?;
            rt.call(&open, args)
        }
        _ => Err(PyErr::internal(format!("Path has no method {name}"))),
    }
}

fn pyrepr(s: &str) -> String {
    crate::interp::repr::str_repr(s)
}

/// Match a name against a shell pattern (`*`, `?`, `[...]`), as fnmatch does: a table of
/// which pattern prefixes match which name prefixes, so no pattern can take exponential
/// time.
fn matches(name: &[char], pat: &[char]) -> bool {
    // One pattern token per entry: Some(set, negated) for classes, else the char itself.
    enum Tok {
        Star,
        Any,
        Char(char),
        Class(Vec<(char, char)>, bool),
    }
    let mut toks = Vec::new();
    let mut i = 0;
    while i < pat.len() {
        match pat[i] {
            '*' => toks.push(Tok::Star),
            '?' => toks.push(Tok::Any),
            '[' => match pat[i + 1..].iter().skip(1).position(|&c| c == ']') {
                Some(off) => {
                    let end = i + 2 + off;
                    let (neg, body) = match pat[i + 1] {
                        '!' => (true, &pat[i + 2..end]),
                        _ => (false, &pat[i + 1..end]),
                    };
                    let mut ranges = Vec::new();
                    let mut j = 0;
                    while j < body.len() {
                        if j + 2 < body.len() && body[j + 1] == '-' {
                            ranges.push((body[j], body[j + 2]));
                            j += 3;
                        } else {
                            ranges.push((body[j], body[j]));
                            j += 1;
                        }
                    }
                    toks.push(Tok::Class(ranges, neg));
                    i = end;
                }
                None => toks.push(Tok::Char('[')),
            },
            c => toks.push(Tok::Char(c)),
        }
        i += 1;
    }
    // row[j]: the pattern so far matches name[..j].
    let mut row = vec![false; name.len() + 1]; // bounded: a file name's length
    row[0] = true;
    for t in &toks {
        let mut next = vec![false; name.len() + 1]; // bounded: as above
        for j in 0..=name.len() {
            next[j] = match t {
                Tok::Star => row[j] || (j > 0 && next[j - 1]),
                _ if j == 0 => false,
                Tok::Any => row[j - 1],
                Tok::Char(c) => row[j - 1] && name[j - 1] == *c,
                Tok::Class(ranges, neg) => {
                    let c = name[j - 1];
                    row[j - 1] && (ranges.iter().any(|&(a, b)| a <= c && c <= b) != *neg)
                }
            };
        }
        row = next;
    }
    row[name.len()]
}

/// Walk `dir` matching the pattern segments; `**` matches this directory and every one
/// below it. Hidden names match like any other, as in CPython's pathlib.
fn glob(rt: &mut Runtime, dir: &str, segs: &[&str], out: &mut Vec<String>) -> PyResult<()> {
    rt.check_interrupt()?;
    let Some((first, rest)) = segs.split_first() else {
        out.push(dir.to_string());
        return Ok(());
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    let mut children: Vec<(String, bool)> = entries
        .flatten()
        .map(|e| {
            let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
            (e.file_name().to_string_lossy().into_owned(), is_dir)
        })
        .collect();
    children.sort();
    if *first == "**" {
        glob(rt, dir, rest, out)?;
        for (name, is_dir) in &children {
            if *is_dir {
                glob(rt, &join(dir, name), segs, out)?;
            }
        }
        return Ok(());
    }
    let pat: Vec<char> = first.chars().collect();
    for (name, is_dir) in &children {
        let chars: Vec<char> = name.chars().collect();
        if matches(&chars, &pat) && (rest.is_empty() || *is_dir) {
            glob(rt, &join(dir, name), rest, out)?;
        }
    }
    Ok(())
}

const METHODS: &[&str] = &[
    "exists",
    "stat",
    "is_file",
    "is_dir",
    "is_absolute",
    "as_posix",
    "__fspath__",
    "read_text",
    "read_bytes",
    "write_text",
    "write_bytes",
    "mkdir",
    "unlink",
    "rmdir",
    "iterdir",
    "glob",
    "rglob",
    "resolve",
    "absolute",
    "with_suffix",
    "with_name",
    "with_stem",
    "joinpath",
    "open",
];

impl Object for PathObj {
    fn type_name(&self) -> String {
        "PosixPath".into()
    }
    fn module_name(&self) -> String {
        "pathlib".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("PosixPath({})", pyrepr(&self.path)))
    }
    fn str(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(self.path.clone())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let suffix = self.suffix_at().map_or("", |i| &self.name()[i..]);
        Ok(Some(match name {
            "name" => Value::str(self.name()),
            "suffix" => Value::str(suffix),
            "stem" => Value::str(match self.suffix_at() {
                Some(i) => &self.name()[..i],
                None => self.name(),
            }),
            "suffixes" => {
                let name = self.name();
                let items = if name.ends_with('.') {
                    Vec::new()
                } else {
                    name.trim_start_matches('.')
                        .split('.')
                        .skip(1)
                        .map(|s| Value::str(&format!(".{s}")))
                        .collect()
                };
                Value::list(items)
            }
            "parent" => path(self.parent()),
            "parts" => {
                let mut parts = Vec::new();
                if self.path.starts_with('/') {
                    parts.push(Value::str("/"));
                }
                if self.path != "." {
                    parts.extend(
                        self.path
                            .split('/')
                            .filter(|s| !s.is_empty())
                            .map(Value::str),
                    );
                }
                Value::tuple(parts)
            }
            _ => match METHODS.iter().find(|m| **m == name) {
                Some(&m) => Value::method(
                    &self,
                    &format!("PosixPath.{m}"),
                    &format!("{m}(...)"),
                    "A pathlib.Path method.",
                    move |p, rt, a| method(p, m, rt, a),
                ),
                None => return Ok(None),
            },
        }))
    }
    fn binary_op(
        self: Rc<Self>,
        op: BinOp,
        other: &Value,
        reflected: bool,
        _rt: &mut Runtime,
    ) -> PyResult<Option<Value>> {
        let other = match other {
            Value::Str(s) => s.to_string(),
            v => match fspath(v) {
                Some(s) => s,
                None => return Ok(None),
            },
        };
        // Paths order by their parts, as CPython's PurePath does.
        let order = || {
            let (a, b) = if reflected {
                (other.as_str(), self.path.as_str())
            } else {
                (self.path.as_str(), other.as_str())
            };
            a.split('/').cmp(b.split('/'))
        };
        use std::cmp::Ordering::*;
        Ok(match op {
            BinOp::Div if reflected => Some(path(join(&normalise(&other), &self.path))),
            BinOp::Div => Some(path(join(&self.path, &other))),
            BinOp::Lt => Some(Value::Bool(order() == Less)),
            BinOp::Le => Some(Value::Bool(order() != Greater)),
            BinOp::Gt => Some(Value::Bool(order() == Greater)),
            BinOp::Ge => Some(Value::Bool(order() != Less)),
            _ => None,
        })
    }
    fn py_eq(&self, other: &Value, _rt: &mut Runtime) -> PyResult<Option<bool>> {
        Ok(Some(
            other
                .downcast::<PathObj>()
                .is_some_and(|o| o.path == self.path),
        ))
    }
    fn dir(&self) -> Vec<String> {
        let mut d: Vec<String> = METHODS.iter().map(|s| s.to_string()).collect();
        d.extend(["name", "stem", "suffix", "suffixes", "parent", "parts"].map(String::from));
        d
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
