//! `np.save` and `np.load`: NumPy's `.npy` format, written byte for byte as NumPy writes
//! version 1.0 (so the files round-trip with real NumPy), and read in versions 1.0 to 3.0,
//! C or Fortran order, little- or big-endian. Everything read from a file is checked
//! before it sizes anything: a malformed header is a ValueError, never a panic.

use crate::arrays::dtype::DType;
use crate::arrays::NdArray;
use crate::numpy::funcs::arg;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Value};

const MAGIC: &[u8] = b"\x93NUMPY";
/// NumPy aligns the data to this many bytes after the header.
const ALIGN: usize = 64;
/// NumPy leaves room in the header for the growing axis to reach this many digits, so a
/// file can be appended to in place.
const GROWTH_AXIS_MAX_DIGITS: usize = 21;

/// Where a file argument points: a path (`str`, `bytes`, `os.PathLike`) or a file object.
pub(crate) enum Target {
    Path(String),
    File(Value),
}

/// `os.fspath` where the argument has one, else the object itself (a file object).
pub(crate) fn target(rt: &mut Runtime, v: &Value) -> PyResult<Target> {
    match v {
        Value::Str(s) => return Ok(Target::Path(s.to_string())),
        Value::Bytes(b) => return Ok(Target::Path(String::from_utf8_lossy(b).into_owned())),
        _ => {}
    }
    match attr(rt, v, "__fspath__")? {
        Some(f) => match &rt.call(&f, Args::new(Vec::new()))? {
            Value::Str(s) => Ok(Target::Path(s.to_string())),
            other => Err(PyErr::type_error(format!(
                "expected str, bytes or os.PathLike object, not {}",
                other.type_name()
            ))),
        },
        None => Ok(Target::File(v.clone())),
    }
}

/// `getattr(v, name, None)`, None when absent.
pub(crate) fn attr(rt: &mut Runtime, v: &Value, name: &str) -> PyResult<Option<Value>> {
    let getattr = rt.builtin("getattr")?;
    let got = rt.call(
        &getattr,
        Args::new(vec![v.clone(), Value::str(name), Value::None]),
    )?;
    Ok((!got.is_none()).then_some(got))
}

/// Call the method `name` of a file object, TypeError when it has none.
pub(crate) fn call_method(
    rt: &mut Runtime,
    obj: &Value,
    name: &str,
    args: Vec<Value>,
) -> PyResult<Value> {
    let m = attr(rt, obj, name)?.ok_or_else(|| {
        PyErr::type_error(format!(
            "expected str, bytes or os.PathLike object, not {}",
            obj.type_name()
        ))
    })?;
    rt.call(&m, Args::new(args))
}

/// An OSError worded as CPython words it (`[Errno 2] No such file or directory: 'x'`).
pub(crate) fn io_error(e: &std::io::Error, path: &str) -> PyErr {
    let class = match e.kind() {
        std::io::ErrorKind::NotFound => "FileNotFoundError",
        std::io::ErrorKind::PermissionDenied => "PermissionError",
        std::io::ErrorKind::AlreadyExists => "FileExistsError",
        std::io::ErrorKind::IsADirectory => "IsADirectoryError",
        std::io::ErrorKind::NotADirectory => "NotADirectoryError",
        _ => "OSError",
    };
    let text = e.to_string();
    // io::Error's text is "No such file or directory (os error 2)"; CPython's is
    // "[Errno 2] No such file or directory: 'x'".
    let msg = match (e.raw_os_error(), text.rfind(" (os error")) {
        (Some(n), Some(cut)) => format!("[Errno {n}] {}: '{path}'", &text[..cut]),
        _ => format!("{text}: '{path}'"),
    };
    PyErr::new(class, msg)
}

/// The bytes of a whole file (path or file object's `read()`).
pub(crate) fn read_all(rt: &mut Runtime, t: &Target) -> PyResult<Vec<u8>> {
    match t {
        Target::Path(p) => std::fs::read(p).map_err(|e| io_error(&e, p)),
        Target::File(f) => match &call_method(rt, f, "read", Vec::new())? {
            Value::Bytes(b) => Ok(b.to_vec()),
            Value::Str(s) => Ok(s.as_bytes().to_vec()),
            other => Err(PyErr::type_error(format!(
                "read() should return bytes, not {}",
                other.type_name()
            ))),
        },
    }
}

/// Write all of `data` to a path (created or truncated) or a file object.
pub(crate) fn write_all(rt: &mut Runtime, t: &Target, data: Vec<u8>) -> PyResult<()> {
    match t {
        Target::Path(p) => std::fs::write(p, data).map_err(|e| io_error(&e, p)),
        Target::File(f) => {
            call_method(rt, f, "write", vec![Value::Bytes(data.into())])?;
            Ok(())
        }
    }
}

/// Python's repr of a shape tuple: `()`, `(3,)`, `(2, 3)`.
fn shape_repr(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => {
            let parts: Vec<String> = shape.iter().map(|n| n.to_string()).collect();
            format!("({})", parts.join(", "))
        }
    }
}

/// The `.npy` bytes of an array, as `np.save` writes them.
pub fn npy_bytes(a: &NdArray) -> PyResult<Vec<u8>> {
    // NumPy stores an array that is Fortran- but not C-contiguous in Fortran order.
    let fortran = a.ndim() > 1 && a.is_f_contiguous() && !a.is_c_contiguous();
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': {}, 'shape': {}, }}",
        a.dtype.typestr(),
        if fortran { "True" } else { "False" },
        shape_repr(&a.shape)
    );
    if let Some(&grow) = if fortran {
        a.shape.last()
    } else {
        a.shape.first()
    } {
        let digits = grow.to_string().len();
        // bounded: at most GROWTH_AXIS_MAX_DIGITS spaces
        header.push_str(&" ".repeat(GROWTH_AXIS_MAX_DIGITS.saturating_sub(digits)));
    }
    // Version 1.0 stores the header length in two bytes; longer headers need 2.0.
    let (version, len_bytes) = if header.len() + 1 + ALIGN < 65536 {
        (1u8, 2usize)
    } else {
        (2u8, 4usize)
    };
    let prefix = MAGIC.len() + 2 + len_bytes;
    let pad = ALIGN - (prefix + header.len() + 1) % ALIGN;
    // bounded: fewer than ALIGN spaces
    header.push_str(&" ".repeat(pad % ALIGN));
    header.push('\n');
    let data = if fortran {
        crate::py::ndarray_shape::transpose(a, None)?
    } else {
        a.clone()
    };
    let data = crate::arrays::elem::contiguous_copy(&data)?;
    let nbytes = data.nbytes();
    let mut out = crate::arrays::alloc::vec_with_capacity::<u8>(
        prefix.saturating_add(header.len()).saturating_add(nbytes),
        "the .npy file",
    )?;
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    let hlen = header.len();
    if len_bytes == 2 {
        out.extend_from_slice(&(hlen as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(hlen as u32).to_le_bytes());
    }
    out.extend_from_slice(header.as_bytes());
    let start = out.len();
    out.resize(start + nbytes, 0); // bounded: reserved above through alloc
    data.buf.read(data.offset, &mut out[start..]);
    Ok(out)
}

/// A parsed `.npy` header.
struct Header {
    dtype: DType,
    big_endian: bool,
    fortran: bool,
    shape: Vec<usize>,
}

fn parse_error(text: &str) -> PyErr {
    PyErr::value_error(format!("Cannot parse header: {}", quoted(text)))
}

/// A string in quotes, its backslashes, quotes and control characters escaped.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::from("'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// A literal in the header dict: a string, a bool, or a tuple of non-negative ints.
enum Lit {
    Str(String),
    Bool(bool),
    Tuple(Vec<usize>),
}

/// A reader of the Python dict literal NumPy writes as the header (no `eval`).
struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
}

impl Lexer<'_> {
    fn skip_ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn string(&mut self) -> Option<String> {
        self.skip_ws();
        let q = *self.s.get(self.i).filter(|c| **c == b'\'' || **c == b'"')?;
        let start = self.i + 1;
        let len = self.s[start..].iter().position(|&c| c == q)?;
        self.i = start + len + 1;
        Some(String::from_utf8_lossy(&self.s[start..start + len]).into_owned())
    }
    fn int(&mut self) -> Option<usize> {
        self.skip_ws();
        let start = self.i;
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let n = std::str::from_utf8(&self.s[start..self.i])
            .ok()?
            .parse()
            .ok()?;
        // Python 2 wrote long ints with an `L` suffix.
        if self.s.get(self.i) == Some(&b'L') {
            self.i += 1;
        }
        Some(n)
    }
    fn literal(&mut self) -> Option<Lit> {
        self.skip_ws();
        let rest = &self.s[self.i..];
        if rest.starts_with(b"True") || rest.starts_with(b"False") {
            let t = rest.starts_with(b"True");
            self.i += if t { 4 } else { 5 };
            return Some(Lit::Bool(t));
        }
        if self.eat(b'(') {
            let mut items = Vec::new();
            loop {
                if self.eat(b')') {
                    return Some(Lit::Tuple(items));
                }
                items.push(self.int()?);
                if !self.eat(b',') {
                    return self.eat(b')').then_some(Lit::Tuple(items));
                }
            }
        }
        self.string().map(Lit::Str)
    }
}

/// The dict's three entries, or None when the text is no such dict literal.
fn header_items(text: &str) -> Option<Vec<(String, Lit)>> {
    let mut lx = Lexer {
        s: text.as_bytes(),
        i: 0,
    };
    if !lx.eat(b'{') {
        return None;
    }
    let mut items = Vec::new();
    loop {
        if lx.eat(b'}') {
            break;
        }
        let key = lx.string()?;
        if !lx.eat(b':') {
            return None;
        }
        items.push((key, lx.literal()?));
        if !lx.eat(b',') {
            if !lx.eat(b'}') {
                return None;
            }
            break;
        }
    }
    lx.skip_ws();
    (lx.i == lx.s.len()).then_some(items)
}

/// The dtype of a `descr` string such as `<f8`, `|b1`, `>i4`, and whether it is big-endian.
fn descr_dtype(descr: &str) -> Option<(DType, bool)> {
    let b = descr.as_bytes();
    let (order, rest) = match b.first()? {
        c @ (b'<' | b'>' | b'|' | b'=') => (*c, &descr[1..]),
        _ => (b'=', descr),
    };
    let d = match rest {
        "b1" | "?" => DType::Bool,
        "i1" => DType::I8,
        "i2" => DType::I16,
        "i4" => DType::I32,
        "i8" => DType::I64,
        "u1" => DType::U8,
        "u2" => DType::U16,
        "u4" => DType::U32,
        "u8" => DType::U64,
        "f2" => DType::F16,
        "f4" => DType::F32,
        "f8" => DType::F64,
        "c8" => DType::C64,
        "c16" => DType::C128,
        _ => return None,
    };
    Some((d, order == b'>' && d.itemsize() > 1))
}

fn parse_header(text: &str) -> PyResult<Header> {
    let items = header_items(text).ok_or_else(|| parse_error(text))?;
    let mut keys: Vec<&str> = items.iter().map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    if keys != ["descr", "fortran_order", "shape"] {
        return Err(PyErr::value_error(format!(
            "Header does not contain the correct keys: {keys:?}"
        )));
    }
    let (mut dtype, mut fortran, mut shape) = (None, None, None);
    for (k, v) in items {
        match (k.as_str(), v) {
            ("descr", Lit::Str(s)) => {
                dtype = Some(descr_dtype(&s).ok_or_else(|| {
                    PyErr::value_error(format!(
                        "descr is not a valid dtype descriptor (or one nbcuda supports): '{s}'"
                    ))
                })?)
            }
            ("fortran_order", Lit::Bool(b)) => fortran = Some(b),
            ("shape", Lit::Tuple(t)) => shape = Some(t),
            _ => return Err(parse_error(text)),
        }
    }
    match (dtype, fortran, shape) {
        (Some((dtype, big_endian)), Some(fortran), Some(shape)) => Ok(Header {
            dtype,
            big_endian,
            fortran,
            shape,
        }),
        _ => Err(parse_error(text)),
    }
}

/// Is this the start of a `.npy` file?
pub fn is_npy(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The array a `.npy` file's bytes hold.
pub fn read_npy(bytes: &[u8], max_header_size: usize) -> PyResult<NdArray> {
    let major = bytes.get(6).copied().unwrap_or(0);
    let minor = bytes.get(7).copied().unwrap_or(0);
    let len_bytes = match (major, minor) {
        (1, 0) => 2,
        (2, 0) | (3, 0) => 4,
        _ => {
            return Err(PyErr::value_error(format!(
                "we only support format version (1,0), (2,0), and (3,0), not ({major}, {minor})"
            )))
        }
    };
    let start = MAGIC.len() + 2;
    let len_field = bytes
        .get(start..start + len_bytes)
        .ok_or_else(|| PyErr::value_error("EOF: reading array header length"))?;
    let hlen = len_field
        .iter()
        .rev()
        .fold(0usize, |acc, &b| (acc << 8) | b as usize);
    if hlen > max_header_size {
        return Err(PyErr::value_error(format!(
            "Header info length ({hlen}) is large and may not be safe to load securely.  To allow loading, adjust `max_header_size` or fully trust the `.npy` file using `allow_pickle=True`."
        )));
    }
    let hstart = start + len_bytes;
    let raw = bytes
        .get(hstart..hstart.saturating_add(hlen))
        .ok_or_else(|| PyErr::value_error("EOF: reading array header"))?;
    // Versions 1 and 2 are latin-1, 3 is UTF-8; the dict itself is ASCII either way.
    let text: String = if major == 3 {
        String::from_utf8_lossy(raw).into_owned()
    } else {
        raw.iter().map(|&b| b as char).collect()
    };
    let h = parse_header(&text)?;
    let data = &bytes[hstart + hlen..];
    let isz = h.dtype.itemsize();
    let count = h
        .shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d));
    let have = data.len() / isz;
    let need = match count {
        Some(n) if n <= have => n,
        _ => {
            let dims: Vec<String> = h.shape.iter().map(|d| d.to_string()).collect();
            return Err(PyErr::value_error(format!(
                "cannot reshape array of size {have} into shape ({})",
                dims.join(",")
            )));
        }
    };
    let stored: Vec<usize> = if h.fortran {
        h.shape.iter().rev().copied().collect()
    } else {
        h.shape.clone()
    };
    let a = crate::arrays::elem::new_array_for_overwrite(&stored, h.dtype)?;
    let mut body = data[..need * isz].to_vec();
    if h.big_endian {
        // A complex number is two floats, each swapped on its own.
        let part = h.dtype.real_part().itemsize();
        for chunk in body.chunks_mut(part) {
            chunk.reverse();
        }
    }
    a.buf.write(0, &body);
    if h.fortran {
        Ok(crate::py::ndarray_shape::transpose(&a, None)?)
    } else {
        Ok(a)
    }
}

/// `np.save`'s file name: `.npy` is appended to a path without it.
fn npy_path(t: Target) -> Target {
    match t {
        Target::Path(p) if !p.ends_with(".npy") => Target::Path(p + ".npy"),
        t => t,
    }
}

/// Register `np.save` and `np.load`.
pub fn register(m: &Module) {
    m.def(
        Function,
        "save",
        "file, arr, allow_pickle=True, fix_imports=<no value>",
        "Save an array to a binary file in NumPy .npy format.",
        |rt, b| {
            let t = npy_path(target(rt, arg(&b, 0))?);
            let a = crate::py::ndarray_attrs::to_ndarray(rt, arg(&b, 1))?;
            let bytes = npy_bytes(&a)?;
            write_all(rt, &t, bytes)?;
            Ok(Value::None)
        },
    );
    m.def(
        Function,
        "load",
        "file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding='ASCII', *, max_header_size=10000",
        "Load arrays from .npy or .npz files.",
        |rt, b| {
            let t = target(rt, arg(&b, 0))?;
            let bytes = read_all(rt, &t)?;
            let allow_pickle = rt.flag(b.get(2))?;
            let max_header = if allow_pickle {
                usize::MAX
            } else {
                b.get(5)
                    .map(|v| v.as_index())
                    .transpose()?
                    .unwrap_or(10000)
                    .max(0) as usize
            };
            if bytes.is_empty() {
                return Err(PyErr::new("EOFError", "No data left in file"));
            }
            if is_npy(&bytes) {
                return Ok(Value::Array(Box::new(read_npy(&bytes, max_header)?)));
            }
            if crate::numpy::npz::is_npz(&bytes) {
                return crate::numpy::npz::open(bytes, max_header);
            }
            Err(if allow_pickle {
                PyErr::not_implemented(
                    "this file is no .npy or .npz file; nbcuda cannot load pickled data",
                )
            } else {
                PyErr::value_error(
                    "Cannot load file containing pickled data when allow_pickle=False",
                )
            })
        },
    );
}
