//! `np.savetxt` and `np.loadtxt`: arrays as delimited text, with NumPy's defaults
//! (`'%.18e'`, a space between columns), its header/footer/comment handling, and its
//! reader's options (delimiter, comments, skiprows, usecols, dtype, unpack, ndmin,
//! max_rows) and error messages.

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::NdArray;
use crate::numpy::funcs::arg;
use crate::numpy::npy_io::{call_method, io_error, target, Target};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Module, Value};

/// A string argument, or the TypeError NumPy's string operations raise.
fn str_arg(v: Option<&Value>, default: &str, what: &str) -> PyResult<String> {
    match v {
        None | Some(Value::None) => Ok(default.to_string()),
        Some(Value::Str(s)) => Ok(s.to_string()),
        Some(other) => Err(PyErr::type_error(format!(
            "{what} must be str, not {}",
            other.type_name()
        ))),
    }
}

/// `fmt % args` for savetxt's row format. numpy cannot reach the interpreter's own
/// `%` operator (layers point down), so each `%` spec is rewritten as the equivalent
/// `format()` spec after the conversion `%` applies (`int()` for `%d`, `float()` for
/// `%e`, `str()`/`repr()` for `%s`/`%r`), which gives the same text.
fn percent(rt: &mut Runtime, fmt: &str, args: Vec<Value>) -> PyResult<String> {
    let format_fn = rt.builtin("format")?;
    let mut args = args.into_iter();
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let mut flags = String::new();
        while let Some(&f) = chars.peek().filter(|f| "-+ 0#".contains(**f)) {
            flags.push(f);
            chars.next();
        }
        let mut width = String::new();
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            width.push(d);
            chars.next();
        }
        let mut precision = String::new();
        if chars.peek() == Some(&'.') {
            chars.next();
            precision.push('.');
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                precision.push(d);
                chars.next();
            }
            if precision == "." {
                precision.push('0');
            }
        }
        let conv = chars
            .next()
            .ok_or_else(|| PyErr::value_error("incomplete format"))?;
        let v = args
            .next()
            .ok_or_else(|| PyErr::type_error("not enough arguments for format string"))?;
        let (convert, kind) = match conv {
            'd' | 'i' | 'u' => ("int", 'd'),
            'x' | 'X' | 'o' => ("int", conv),
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' => ("float", conv),
            's' => ("str", 's'),
            'r' | 'a' => ("repr", 's'),
            other => {
                return Err(PyErr::value_error(format!(
                    "unsupported format character '{other}' (0x{:x})",
                    other as u32
                )))
            }
        };
        let f = rt.builtin(convert)?;
        let v = rt.call(&f, Args::new(vec![v]))?;
        let mut spec = String::new();
        let left = flags.contains('-');
        if left {
            spec.push('<');
        } else if kind == 's' {
            spec.push('>');
        }
        if kind != 's' {
            if flags.contains('+') {
                spec.push('+');
            } else if flags.contains(' ') {
                spec.push(' ');
            }
            if flags.contains('#') {
                spec.push('#');
            }
            if flags.contains('0') && !left {
                spec.push('0');
            }
        }
        spec.push_str(&width);
        // `%.3d` pads digits, which format() refuses; NumPy's specs don't use it.
        if kind != 'd' {
            spec.push_str(&precision);
        }
        spec.push(kind);
        match &rt.call(&format_fn, Args::new(vec![v, Value::str(&spec)]))? {
            Value::Str(s) => out.push_str(s),
            other => out.push_str(&rt.to_str(other)?),
        }
    }
    if args.next().is_some() {
        return Err(PyErr::type_error(
            "not all arguments converted during string formatting",
        ));
    }
    Ok(out)
}

/// The row format of `savetxt`: one `%` spec repeated per column, a list of specs, or a
/// whole-row format.
fn row_format(
    rt: &mut Runtime,
    fmt: &Value,
    ncol: usize,
    delimiter: &str,
    complex: bool,
) -> PyResult<String> {
    match fmt {
        Value::List(_) | Value::Tuple(_) => {
            let items = rt.iterate(fmt)?;
            if items.len() != ncol {
                let shown = rt.to_str(fmt)?;
                return Err(PyErr::attribute_error(format!(
                    "fmt has wrong shape.  {shown}"
                )));
            }
            let parts: Vec<String> = items
                .iter()
                .map(|v| rt.to_str(v))
                .collect::<PyResult<_>>()?;
            Ok(parts.join(delimiter))
        }
        Value::Str(s) => {
            let n = s.matches('%').count();
            let wrong = || PyErr::value_error(format!("fmt has wrong number of % formats:  {s}"));
            if n == 1 {
                let one = if complex {
                    format!(" ({s}+{s}j)")
                } else {
                    s.to_string()
                };
                Ok(vec![one; ncol].join(delimiter)) // bounded: one spec per column of an existing array
            } else if (complex && n != 2 * ncol) || (!complex && n != ncol) {
                Err(wrong())
            } else {
                Ok(s.to_string())
            }
        }
        other => {
            let shown = rt.to_str(other)?;
            Err(PyErr::value_error(format!("invalid fmt: {shown}")))
        }
    }
}

fn savetxt(rt: &mut Runtime, b: &crate::py::signature::Bound) -> PyResult<Value> {
    let t = target(rt, arg(b, 0))?;
    let x = crate::py::ndarray_attrs::to_ndarray(rt, arg(b, 1))?;
    let delimiter = str_arg(b.get(3), " ", "delimiter")?;
    // The signature's default is None: signature strings keep `'\n'` as two characters.
    let newline = str_arg(b.get(4), "\n", "newline")?;
    let header = str_arg(b.get(5), "", "header")?;
    let footer = str_arg(b.get(6), "", "footer")?;
    let comments = str_arg(b.get(7), "# ", "comments")?;
    let (rows, ncol) = match x.ndim() {
        1 => (x.shape[0], 1),
        2 => (x.shape[0], x.shape[1]),
        n => {
            return Err(PyErr::value_error(format!(
                "Expected 1D or 2D array, got {n}D array instead"
            )))
        }
    };
    let complex = x.dtype.is_complex();
    let default_fmt = Value::str("%.18e");
    let fmt = b.get(2).unwrap_or(&default_fmt);
    let format = row_format(rt, fmt, ncol, &delimiter, complex)?;
    let mut text = String::new();
    if !header.is_empty() {
        text.push_str(&comments);
        text.push_str(&header.replace('\n', &format!("\n{comments}")));
        text.push_str(&newline);
    }
    let col_stride = if x.ndim() == 2 { x.strides[1] } else { 0 };
    for i in 0..rows {
        rt.check_interrupt()?;
        let mut vals = Vec::new();
        for j in 0..ncol {
            let off = x.offset as isize + i as isize * x.strides[0] + j as isize * col_stride;
            let s = crate::arrays::elem::read_scalar_at(&x, off as usize);
            match s {
                Scalar::C64(re, im) => {
                    vals.push(Value::Scalar(Scalar::F32(re)));
                    vals.push(Value::Scalar(Scalar::F32(im)));
                }
                Scalar::C128(re, im) => {
                    vals.push(Value::Scalar(Scalar::F64(re)));
                    vals.push(Value::Scalar(Scalar::F64(im)));
                }
                s => vals.push(Value::Scalar(s)),
            }
        }
        let line = percent(rt, &format, vals)?;
        // NumPy writes a negative imaginary part as `-`, not `+-`.
        let line = if complex {
            line.replace("+-", "-")
        } else {
            line
        };
        text.push_str(&line);
        text.push_str(&newline);
    }
    if !footer.is_empty() {
        text.push_str(&comments);
        text.push_str(&footer.replace('\n', &format!("\n{comments}")));
        text.push_str(&newline);
    }
    match &t {
        Target::Path(p) => {
            // NumPy's default encoding writes latin-1.
            let bytes: Vec<u8> = if text.chars().all(|c| (c as u32) < 256) {
                text.chars().map(|c| c as u8).collect()
            } else {
                text.into_bytes()
            };
            std::fs::write(p, bytes).map_err(|e| io_error(&e, p))?;
        }
        Target::File(f) => {
            call_method(rt, f, "write", vec![Value::str(&text)])?;
        }
    }
    Ok(Value::None)
}

/// The text lines of a path, a file object or any iterable of lines.
fn text_lines(rt: &mut Runtime, t: &Target) -> PyResult<Vec<String>> {
    match t {
        Target::Path(p) => {
            let bytes = std::fs::read(p).map_err(|e| io_error(&e, p))?;
            let text = match String::from_utf8(bytes) {
                Ok(s) => s,
                // Not UTF-8: latin-1, which every byte string is.
                Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
            };
            Ok(text.lines().map(str::to_string).collect())
        }
        Target::File(f) => {
            let items = rt.iterate(f)?;
            let mut lines = Vec::new();
            for v in items {
                let s = match &v {
                    Value::Str(s) => s.to_string(),
                    Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
                    other => {
                        return Err(PyErr::type_error(format!(
                            "non-string returned while reading data: {}",
                            other.type_name()
                        )))
                    }
                };
                // A chunk may hold several lines (a str passed as the whole input).
                lines.extend(s.lines().map(str::to_string));
            }
            Ok(lines)
        }
    }
}

/// One field converted to the dtype's column value, or None when it does not parse.
enum Parsed {
    Float(Vec<f64>),
    Int(Vec<i128>),
}

fn int_range(d: DType) -> (i128, i128) {
    match d {
        DType::Bool => (i64::MIN as i128, i64::MAX as i128),
        DType::I8 => (i8::MIN as i128, i8::MAX as i128),
        DType::I16 => (i16::MIN as i128, i16::MAX as i128),
        DType::I32 => (i32::MIN as i128, i32::MAX as i128),
        DType::U8 => (0, u8::MAX as i128),
        DType::U16 => (0, u16::MAX as i128),
        DType::U32 => (0, u32::MAX as i128),
        DType::U64 => (0, u64::MAX as i128),
        _ => (i64::MIN as i128, i64::MAX as i128),
    }
}

fn parse_float(s: &str) -> Option<f64> {
    let t = s.trim();
    // Rust's parser takes forms Python's float() refuses ("infinity" is Python's too).
    if t.is_empty() || t.ends_with(['e', 'E']) {
        return None;
    }
    t.parse::<f64>().ok()
}

fn parse_int(s: &str) -> Option<i128> {
    let t = s.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    t.parse::<i128>().ok()
}

/// A `comments` argument: None, one string, or a sequence of strings.
fn comment_marks(rt: &mut Runtime, v: Option<&Value>) -> PyResult<Vec<String>> {
    match v {
        None => Ok(vec!["#".to_string()]),
        Some(Value::None) => Ok(Vec::new()),
        Some(Value::Str(s)) => Ok(vec![s.to_string()]),
        Some(other) => rt
            .iterate(other)?
            .iter()
            .map(|c| str_arg(Some(c), "", "comments"))
            .collect(),
    }
}

fn loadtxt(rt: &mut Runtime, b: &crate::py::signature::Bound) -> PyResult<Value> {
    let src = arg(b, 0);
    let t = target(rt, src)?;
    let dtype = match b.get(1) {
        None | Some(Value::None) => DType::F64,
        Some(v) => crate::py::ndarray_attrs::dtype_from_value(rt, v)?,
    };
    let marks = comment_marks(rt, b.get(2))?;
    let delimiter = match b.get(3) {
        None | Some(Value::None) => None,
        v => Some(str_arg(v, "", "delimiter")?),
    };
    let skiprows = b
        .get(5)
        .map(|v| v.as_index())
        .transpose()?
        .unwrap_or(0)
        .max(0) as usize;
    let usecols: Option<Vec<i64>> = match b.get(6) {
        None | Some(Value::None) => None,
        Some(v @ (Value::Int(_) | Value::Scalar(_) | Value::Bool(_))) => Some(vec![v.as_index()?]),
        Some(v) => Some(
            rt.iterate(v)?
                .iter()
                .map(|c| c.as_index())
                .collect::<PyResult<_>>()?,
        ),
    };
    let unpack = rt.flag(b.get(7))?;
    let ndmin = b.get(8).map(|v| v.as_index()).transpose()?.unwrap_or(0);
    if !(0..=2).contains(&ndmin) {
        return Err(PyErr::value_error(format!(
            "Illegal value of ndmin keyword: {ndmin}"
        )));
    }
    let max_rows = match b.get(10) {
        None | Some(Value::None) => None,
        Some(v) => Some(v.as_index()?).filter(|&n| n >= 0).map(|n| n as usize),
    };
    let lines = text_lines(rt, &t)?;
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut ncols: Option<usize> = None;
    for line in lines.iter().skip(skiprows) {
        if max_rows.is_some_and(|m| rows.len() >= m) {
            break;
        }
        let cut = marks
            .iter()
            .filter(|m| !m.is_empty())
            .filter_map(|m| line.find(m.as_str()))
            .min()
            .unwrap_or(line.len());
        let body = line[..cut].trim_end_matches('\r');
        if body.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = match &delimiter {
            None => body.split_whitespace().collect(),
            Some(d) if d.is_empty() => vec![body],
            Some(d) => body.split(d.as_str()).collect(),
        };
        let row_no = rows.len() + 1;
        let picked: Vec<String> = match &usecols {
            None => {
                match ncols {
                    Some(n) if n != fields.len() => {
                        return Err(PyErr::value_error(format!(
                            "the number of columns changed from {n} to {} at row {row_no}; use `usecols` to select a subset and avoid this error",
                            fields.len()
                        )))
                    }
                    _ => ncols = Some(fields.len()),
                }
                fields.iter().map(|s| s.to_string()).collect()
            }
            Some(cols) => cols
                .iter()
                .map(|&c| {
                    let n = fields.len() as i64;
                    let k = if c < 0 { c + n } else { c };
                    if !(0..n).contains(&k) {
                        return Err(PyErr::value_error(format!(
                            "invalid column index {c} at row {row_no} with {n} columns"
                        )));
                    }
                    Ok(fields[k as usize].to_string())
                })
                .collect::<PyResult<_>>()?,
        };
        rows.push(picked);
    }
    let width = rows.first().map_or(0, |r| r.len());
    let is_int = dtype.is_integer() || dtype == DType::Bool;
    let (lo, hi) = int_range(dtype);
    let mut parsed = if is_int {
        Parsed::Int(Vec::new())
    } else {
        Parsed::Float(Vec::new())
    };
    for (i, row) in rows.iter().enumerate() {
        for (j, field) in row.iter().enumerate() {
            let bad = || {
                PyErr::value_error(format!(
                    "could not convert string {} to {} at row {i}, column {}.",
                    crate::numpy::npy_io::quoted(field),
                    dtype.name(),
                    j + 1
                ))
            };
            match &mut parsed {
                Parsed::Int(v) => {
                    let n = parse_int(field).filter(|n| (lo..=hi).contains(n));
                    v.push(n.ok_or_else(bad)?);
                }
                Parsed::Float(v) => v.push(parse_float(field).ok_or_else(bad)?),
            }
        }
    }
    let shape2 = [rows.len(), width];
    let arr: NdArray = match parsed {
        Parsed::Float(v) => {
            crate::arrays::elem::cast(&crate::arrays::elem::from_vec(&shape2, &v)?, dtype)?
        }
        Parsed::Int(v) if dtype == DType::U64 => {
            let v: Vec<u64> = v.iter().map(|&n| n as u64).collect();
            crate::arrays::elem::from_vec(&shape2, &v)?
        }
        Parsed::Int(v) => {
            let v: Vec<i64> = v.iter().map(|&n| n as i64).collect();
            crate::arrays::elem::cast(&crate::arrays::elem::from_vec(&shape2, &v)?, dtype)?
        }
    };
    let mut arr = if rows.is_empty() {
        let shown = match &t {
            Target::Path(p) => p.clone(),
            Target::File(f) => {
                let repr = rt.builtin("repr")?;
                let r = rt.call(&repr, Args::new(vec![f.clone()]))?;
                rt.to_str(&r)?
            }
        };
        let origin = format!("Cell In[{}]", rt.execution_count);
        rt.warn(
            "UserWarning",
            &format!("loadtxt: input contained no data: \"{shown}\""),
            &origin,
        )?;
        crate::arrays::elem::new_array(&[0], dtype)?
    } else {
        arr
    };
    // NumPy's _ensure_ndmin_ndarray: squeeze down to ndmin, then pad up to it.
    if arr.ndim() as i64 > ndmin {
        arr = crate::py::ndarray_shape::squeeze(&arr, None)?;
    }
    while (arr.ndim() as i64) < ndmin {
        arr = if ndmin == 2 && arr.ndim() == 1 {
            // atleast_2d(a).T: a 1-D result becomes one column.
            crate::numpy::funcs::expand(&arr, 1)
        } else {
            crate::numpy::funcs::expand(&arr, 0)
        };
    }
    if unpack {
        arr = crate::py::ndarray_shape::transpose(&arr, None)?;
    }
    Ok(Value::Array(Box::new(arr)))
}

/// Register `np.savetxt` and `np.loadtxt`.
pub fn register(m: &Module) {
    m.def(
        Function,
        "savetxt",
        "fname, X, fmt='%.18e', delimiter=' ', newline=None, header='', footer='', comments='# ', encoding=None",
        "Save an array to a text file.",
        |rt, b| savetxt(rt, &b),
    );
    m.def(
        Function,
        "loadtxt",
        "fname, dtype=<class 'float'>, comments='#', delimiter=None, converters=None, skiprows=0, usecols=None, unpack=False, ndmin=0, encoding=None, max_rows=None, *, quotechar=None, like=None",
        "Load data from a text file.",
        |rt, b| loadtxt(rt, &b),
    );
}
