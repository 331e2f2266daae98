//! The builtin `open()`: text and binary files on `std::fs`, with CPython's modes, errors
//! and file methods (read, readline, readlines, write, writelines, seek, tell, close,
//! iteration over lines, `with`).
//!
//! Writes go straight to the file (no buffer to flush), and reads keep a small
//! read-ahead that is given back to the file before a write, seek or tell. Sizes a user
//! passes (`f.read(10**12)`) bound how far a read goes, never what is allocated up front.
//! Text mode knows UTF-8, ASCII and Latin-1, and reads `\r\n` as `\n`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::rc::Rc;

use crate::interp::shell::os_error;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Object, Value};

/// How much a read asks the OS for at a time.
const CHUNK: usize = 64 * 1024;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Utf8,
    Ascii,
    Latin1,
}

pub struct PyFile {
    name: String,
    mode: String,
    binary: bool,
    readable: bool,
    writable: bool,
    encoding: Option<(Encoding, String)>,
    state: RefCell<Option<Open>>,
}

struct Open {
    file: std::fs::File,
    /// Bytes read from the file but not yet returned.
    ahead: Vec<u8>,
    eof: bool,
}

impl Open {
    /// Read one more chunk (at most `want` bytes) into `ahead`; false at end of file.
    fn fill(&mut self, want: usize, name: &str) -> PyResult<bool> {
        if self.eof {
            return Ok(false);
        }
        let want = want.clamp(1, CHUNK);
        let start = self.ahead.len();
        self.ahead.resize(start + want, 0); // bounded: at most CHUNK bytes
        let n = loop {
            match self.file.read(&mut self.ahead[start..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.ahead.truncate(start);
                    return Err(os_error(&e, Some(name)));
                }
            }
        };
        self.ahead.truncate(start + n);
        if n == 0 {
            self.eof = true;
        }
        Ok(n > 0)
    }

    /// Give the read-ahead back to the file, so the file position is the user's.
    fn sync(&mut self, name: &str) -> PyResult<()> {
        if !self.ahead.is_empty() {
            let back = i64::try_from(self.ahead.len()).unwrap_or(i64::MAX);
            self.file
                .seek(SeekFrom::Current(-back))
                .map_err(|e| os_error(&e, Some(name)))?;
            self.ahead.clear();
        }
        self.eof = false;
        Ok(())
    }

    fn take(&mut self, n: usize) -> Vec<u8> {
        let rest = self.ahead.split_off(n.min(self.ahead.len()));
        std::mem::replace(&mut self.ahead, rest)
    }
}

/// `open(file, mode='r', buffering=-1, encoding=None, errors=None, newline=None)`.
fn open(rt: &mut Runtime, args: Args) -> PyResult<Value> {
    let a = args.bind(
        "open",
        &[
            "file",
            "mode=",
            "buffering=",
            "encoding=",
            "errors=",
            "newline=",
            "closefd=",
        ],
    )?;
    let name = match &a[0] {
        Some(Value::Str(s)) => s.to_string(),
        Some(p) if crate::interp::pathlib_module::fspath(p).is_some() => {
            crate::interp::pathlib_module::fspath(p).unwrap_or_default()
        }
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "expected str, bytes or os.PathLike object, not {}",
                other.type_name()
            )))
        }
        None => {
            return Err(PyErr::type_error(
                "open() missing required argument 'file' (pos 1)",
            ))
        }
    };
    let mode = match &a[1] {
        None | Some(Value::None) => "r".to_string(),
        Some(Value::Str(s)) => s.to_string(),
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "open() argument 'mode' must be str, not {}",
                other.type_name()
            )))
        }
    };
    let m = parse_mode(&mode)?;
    let encoding = match &a[3] {
        None | Some(Value::None) => None,
        Some(Value::Str(s)) => Some(s.to_string()),
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "open() argument 'encoding' must be str or None, not {}",
                other.type_name()
            )))
        }
    };
    let encoding = if m.binary {
        if encoding.is_some() {
            return Err(PyErr::value_error(
                "binary mode doesn't take an encoding argument",
            ));
        }
        None
    } else {
        Some(match encoding {
            None => (Encoding::Utf8, "UTF-8".to_string()),
            Some(e) => (encoding_of(&e)?, e),
        })
    };
    let _ = rt;
    let mut opts = std::fs::OpenOptions::new();
    match m.kind {
        'r' => opts.read(true).write(m.plus),
        'w' => opts.write(true).create(true).truncate(true).read(m.plus),
        'a' => opts.append(true).create(true).read(m.plus),
        _ => opts.write(true).create_new(true).read(m.plus),
    };
    let file = opts.open(&name).map_err(|e| os_error(&e, Some(&name)))?;
    // Linux opens a directory for reading; CPython refuses it at open time.
    if file.metadata().is_ok_and(|md| md.is_dir()) {
        return Err(PyErr::new(
            "IsADirectoryError",
            format!(
                "[Errno 21] Is a directory: {}",
                crate::interp::repr::str_repr(&name)
            ),
        ));
    }
    Ok(Value::object(PyFile {
        name,
        mode,
        binary: m.binary,
        readable: m.kind == 'r' || m.plus,
        writable: m.kind != 'r' || m.plus,
        encoding,
        state: RefCell::new(Some(Open {
            file,
            ahead: Vec::new(),
            eof: false,
        })),
    }))
}

struct Mode {
    kind: char,
    plus: bool,
    binary: bool,
}

/// CPython's mode checks, with its messages.
fn parse_mode(mode: &str) -> PyResult<Mode> {
    let invalid = || PyErr::value_error(format!("invalid mode: '{mode}'"));
    let mut seen = String::new();
    for c in mode.chars() {
        if !"rwxabt+".contains(c) || seen.contains(c) {
            return Err(invalid());
        }
        seen.push(c);
    }
    let kinds: Vec<char> = seen.chars().filter(|c| "rwxa".contains(*c)).collect();
    if seen.contains('b') && seen.contains('t') {
        return Err(PyErr::value_error(
            "can't have text and binary mode at once",
        ));
    }
    let kind = match kinds.as_slice() {
        [kind] => *kind,
        [] => {
            return Err(PyErr::value_error(
                "Must have exactly one of create/read/write/append mode and at most one plus",
            ))
        }
        _ => {
            return Err(PyErr::value_error(
                "must have exactly one of create/read/write/append mode",
            ))
        }
    };
    Ok(Mode {
        kind,
        plus: seen.contains('+'),
        binary: seen.contains('b'),
    })
}

fn encoding_of(name: &str) -> PyResult<Encoding> {
    match name.to_ascii_lowercase().replace('_', "-").as_str() {
        "utf-8" | "utf8" | "u8" => Ok(Encoding::Utf8),
        "ascii" | "us-ascii" => Ok(Encoding::Ascii),
        "latin-1" | "latin1" | "iso-8859-1" | "iso8859-1" | "l1" => Ok(Encoding::Latin1),
        _ => Err(PyErr::new(
            "LookupError",
            format!("unknown encoding: {name}"),
        )),
    }
}

impl PyFile {
    fn with_open<T>(&self, f: impl FnOnce(&mut Open) -> PyResult<T>) -> PyResult<T> {
        let mut st = self.state.borrow_mut();
        match st.as_mut() {
            Some(o) => f(o),
            None => Err(PyErr::value_error("I/O operation on closed file.")),
        }
    }

    fn check_readable(&self) -> PyResult<()> {
        self.with_open(|_| Ok(()))?;
        if self.readable {
            Ok(())
        } else {
            Err(PyErr::new("UnsupportedOperation", "not readable"))
        }
    }

    fn check_writable(&self) -> PyResult<()> {
        self.with_open(|_| Ok(()))?;
        if self.writable {
            Ok(())
        } else {
            Err(PyErr::new("UnsupportedOperation", "not writable"))
        }
    }

    /// Bytes as the file's value type: `bytes` in binary mode, decoded `str` otherwise.
    fn value(&self, bytes: Vec<u8>) -> PyResult<Value> {
        match &self.encoding {
            None => Ok(Value::Bytes(Rc::from(bytes))),
            Some((enc, name)) => Ok(Value::str(&decode(&bytes, *enc, name)?)),
        }
    }

    /// `read(size=-1)`: `size` bytes in binary mode, `size` characters in text mode.
    fn read(&self, size: Option<usize>) -> PyResult<Value> {
        self.check_readable()?;
        let name = self.name.clone();
        let text = self.encoding.as_ref().map(|(e, _)| *e);
        let bytes = self.with_open(|o| {
            match size {
                None => {
                    while o.fill(CHUNK, &name)? {}
                    Ok(o.take(usize::MAX))
                }
                Some(n)
                    if text.is_none()
                        || text == Some(Encoding::Latin1)
                        || text == Some(Encoding::Ascii) =>
                {
                    while o.ahead.len() < n && o.fill(n - o.ahead.len(), &name)? {}
                    Ok(o.take(n))
                }
                Some(n) => {
                    // UTF-8: read until `n` characters are complete, then cut after them.
                    loop {
                        let (chars, cut) = utf8_prefix(&o.ahead, n);
                        if chars >= n || !o.fill(CHUNK, &name)? {
                            let cut = if chars >= n { cut } else { o.ahead.len() };
                            return Ok(o.take(cut));
                        }
                    }
                }
            }
        })?;
        self.value(bytes)
    }

    /// `readline(size=-1)`: up to and including the next `\n`.
    fn readline(&self, limit: Option<usize>) -> PyResult<Value> {
        self.check_readable()?;
        let name = self.name.clone();
        let limit = limit.unwrap_or(usize::MAX);
        let bytes = self.with_open(|o| loop {
            if let Some(at) = o.ahead.iter().position(|b| *b == b'\n') {
                return Ok(o.take((at + 1).min(limit)));
            }
            if o.ahead.len() >= limit || !o.fill(CHUNK, &name)? {
                return Ok(o.take(limit));
            }
        })?;
        self.value(bytes)
    }

    /// Every remaining line.
    fn lines(&self) -> PyResult<Vec<Value>> {
        let mut out = Vec::new();
        loop {
            let line = self.readline(None)?;
            let empty = match &line {
                Value::Str(s) => s.is_empty(),
                Value::Bytes(b) => b.is_empty(),
                _ => true,
            };
            if empty {
                return Ok(out);
            }
            out.push(line);
        }
    }

    fn write(&self, rt: &mut Runtime, v: &Value) -> PyResult<Value> {
        self.check_writable()?;
        let (bytes, count) = match (&self.encoding, v) {
            (None, Value::Bytes(b)) => (b.to_vec(), b.len()),
            (None, other) => {
                return Err(PyErr::type_error(format!(
                    "a bytes-like object is required, not '{}'",
                    other.type_name()
                )))
            }
            (Some((enc, name)), Value::Str(s)) => (encode(s, *enc, name)?, s.chars().count()),
            (Some(_), other) => {
                return Err(PyErr::type_error(format!(
                    "write() argument must be str, not {}",
                    other.type_name()
                )))
            }
        };
        let _ = rt;
        let name = self.name.clone();
        self.with_open(|o| {
            o.sync(&name)?;
            o.file
                .write_all(&bytes)
                .map_err(|e| os_error(&e, Some(&name)))
        })?;
        Ok(Value::Int(i64::try_from(count).unwrap_or(i64::MAX)))
    }

    fn seek(&self, offset: i64, whence: i64) -> PyResult<Value> {
        let name = self.name.clone();
        let text = self.encoding.is_some();
        let pos = match (whence, offset) {
            (0, o) if o >= 0 => SeekFrom::Start(o.unsigned_abs()),
            (0, o) => return Err(PyErr::value_error(format!("negative seek position {o}"))),
            (1, o) if !text || o == 0 => SeekFrom::Current(o),
            (2, o) if !text || o == 0 => SeekFrom::End(o),
            (1 | 2, _) => {
                return Err(PyErr::new(
                    "UnsupportedOperation",
                    "can't do nonzero cur-relative seeks",
                ))
            }
            (w, _) => {
                return Err(PyErr::value_error(format!(
                    "invalid whence ({w}, should be 0, 1 or 2)"
                )))
            }
        };
        let at = self.with_open(|o| {
            o.sync(&name)?;
            o.file.seek(pos).map_err(|e| os_error(&e, Some(&name)))
        })?;
        Ok(Value::Int(i64::try_from(at).unwrap_or(i64::MAX)))
    }

    fn tell(&self) -> PyResult<Value> {
        self.seek(0, 1)
    }

    fn close(&self) {
        self.state.borrow_mut().take();
    }
}

/// How many of the first `n` characters of `bytes` are complete UTF-8, and where they end.
fn utf8_prefix(bytes: &[u8], n: usize) -> (usize, usize) {
    let valid = match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
    };
    match valid.char_indices().nth(n) {
        Some((at, _)) => (n, at),
        None => (valid.chars().count(), valid.len()),
    }
}

fn decode(bytes: &[u8], enc: Encoding, name: &str) -> PyResult<String> {
    let text = match enc {
        Encoding::Latin1 => bytes.iter().map(|b| char::from(*b)).collect(),
        Encoding::Ascii => match bytes.iter().position(|b| *b >= 0x80) {
            Some(at) => {
                return Err(PyErr::new(
                    "UnicodeDecodeError",
                    format!(
                        "'{}' codec can't decode byte {:#04x} in position {at}: ordinal not in range(128)",
                        name.to_ascii_lowercase(),
                        bytes[at]
                    ),
                ))
            }
            None => String::from_utf8_lossy(bytes).into_owned(),
        },
        Encoding::Utf8 => match std::str::from_utf8(bytes) {
            Ok(s) => s.to_string(),
            Err(e) => {
                let at = e.valid_up_to();
                let why = match e.error_len() {
                    None => "unexpected end of data",
                    Some(_) if !(0xc2..0xf5).contains(&bytes[at]) => "invalid start byte",
                    Some(_) => "invalid continuation byte",
                };
                return Err(PyErr::new(
                    "UnicodeDecodeError",
                    format!(
                        "'utf-8' codec can't decode byte {:#04x} in position {at}: {why}",
                        bytes[at]
                    ),
                ));
            }
        },
    };
    // Universal newlines, as text files read by default.
    Ok(if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    })
}

fn encode(s: &str, enc: Encoding, name: &str) -> PyResult<Vec<u8>> {
    let limit = if enc == Encoding::Ascii { 0x80 } else { 0x100 };
    match enc {
        Encoding::Utf8 => Ok(s.as_bytes().to_vec()),
        _ => s
            .chars()
            .enumerate()
            .map(|(i, c)| {
                u8::try_from(u32::from(c))
                    .ok()
                    .filter(|b| u32::from(*b) < limit)
                    .ok_or_else(|| {
                        PyErr::new(
                            "UnicodeEncodeError",
                            format!(
                                "'{}' codec can't encode character {:?} in position {i}: ordinal not in range({limit})",
                                name.to_ascii_lowercase(),
                                c
                            ),
                        )
                    })
            })
            .collect(),
    }
}

fn opt_size(v: Option<&Value>) -> PyResult<Option<usize>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => {
            let n = v.as_index()?;
            Ok(usize::try_from(n).ok())
        }
    }
}

impl Object for PyFile {
    fn type_name(&self) -> String {
        match (self.binary, self.readable, self.writable) {
            (false, _, _) => "TextIOWrapper",
            (true, true, true) => "BufferedRandom",
            (true, true, false) => "BufferedReader",
            (true, _, _) => "BufferedWriter",
        }
        .into()
    }
    fn module_name(&self) -> String {
        "_io".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let name = crate::interp::repr::str_repr(&self.name);
        Ok(match &self.encoding {
            Some((_, enc)) => format!(
                "<_io.TextIOWrapper name={name} mode={} encoding={}>",
                crate::interp::repr::str_repr(&self.mode),
                crate::interp::repr::str_repr(enc)
            ),
            None => format!("<_io.{} name={name}>", self.type_name()),
        })
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let q = |m: &str| format!("{}.{m}", self.type_name());
        Ok(Some(match name {
            "name" => Value::str(&self.name),
            "mode" => Value::str(&self.mode),
            "closed" => Value::Bool(self.state.borrow().is_none()),
            "encoding" if self.encoding.is_some() => {
                Value::str(self.encoding.as_ref().map_or("", |(_, e)| e.as_str()))
            }
            "read" => Value::method(
                &self,
                &q("read"),
                "read(size=-1, /)",
                "Read up to size bytes or characters, or to the end.",
                |f, _, a| f.read(opt_size(a.pos.first())?),
            ),
            "readline" => Value::method(
                &self,
                &q("readline"),
                "readline(size=-1, /)",
                "Read one line, with its newline.",
                |f, _, a| f.readline(opt_size(a.pos.first())?),
            ),
            "readlines" => Value::method(
                &self,
                &q("readlines"),
                "readlines(hint=-1, /)",
                "The remaining lines, as a list.",
                |f, _, _| Ok(Value::list(f.lines()?)),
            ),
            "write" => Value::method(
                &self,
                &q("write"),
                "write(s, /)",
                "Write s; returns how many characters (bytes in binary mode).",
                |f, rt, a| {
                    let [v] = a.pos.as_slice() else {
                        return Err(PyErr::type_error(format!(
                            "write() takes exactly one argument ({} given)",
                            a.pos.len()
                        )));
                    };
                    f.write(rt, v)
                },
            ),
            "writelines" => Value::method(
                &self,
                &q("writelines"),
                "writelines(lines, /)",
                "Write every string of an iterable (no newlines added).",
                |f, rt, a| {
                    let items = match a.pos.first() {
                        Some(v) => rt.iterate(v)?,
                        None => {
                            return Err(PyErr::type_error(
                                "writelines() takes exactly one argument (0 given)",
                            ))
                        }
                    };
                    for v in &items {
                        f.write(rt, v)?;
                    }
                    Ok(Value::None)
                },
            ),
            "close" => Value::method(
                &self,
                &q("close"),
                "close()",
                "Close the file; closing again does nothing.",
                |f, _, _| {
                    f.close();
                    Ok(Value::None)
                },
            ),
            "flush" => Value::method(
                &self,
                &q("flush"),
                "flush()",
                "Nothing to do: nbcuda writes go straight to the file.",
                |f, _, _| f.with_open(|_| Ok(Value::None)),
            ),
            "seek" => Value::method(
                &self,
                &q("seek"),
                "seek(offset, whence=0, /)",
                "Move to a position; returns it.",
                |f, _, a| {
                    let off = a.pos.first().map(Value::as_index).transpose()?.unwrap_or(0);
                    let whence = a.pos.get(1).map(Value::as_index).transpose()?.unwrap_or(0);
                    f.seek(off, whence)
                },
            ),
            "tell" => Value::method(
                &self,
                &q("tell"),
                "tell()",
                "The current position.",
                |f, _, _| f.tell(),
            ),
            "readable" => Value::method(
                &self,
                &q("readable"),
                "readable()",
                "Whether reads are allowed.",
                |f, _, _| f.with_open(|_| Ok(Value::Bool(f.readable))),
            ),
            "writable" => Value::method(
                &self,
                &q("writable"),
                "writable()",
                "Whether writes are allowed.",
                |f, _, _| f.with_open(|_| Ok(Value::Bool(f.writable))),
            ),
            _ => return Ok(None),
        }))
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(self.lines()?))
    }
    fn enter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Value> {
        self.with_open(|_| Ok(()))?;
        Ok(Value::Object(self))
    }
    fn exit(&self, _rt: &mut Runtime, _error: Option<&crate::py::error::PyErr>) -> PyResult<bool> {
        self.close();
        Ok(false)
    }
    fn dir(&self) -> Vec<String> {
        [
            "close",
            "closed",
            "flush",
            "mode",
            "name",
            "read",
            "readable",
            "readline",
            "readlines",
            "seek",
            "tell",
            "writable",
            "write",
            "writelines",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Register `open` among the builtins.
pub fn register(b: &mut HashMap<String, Value>) {
    b.insert(
        "open".into(),
        Value::builtin(
            "open",
            "open(file, mode='r', buffering=-1, encoding=None, errors=None, newline=None, closefd=True)",
            "Open a file; returns a text file, or a binary one with 'b' in the mode.",
            open,
        ),
    );
}
