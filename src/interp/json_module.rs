//! The `json` module: `dumps`/`dump` with CPython's exact output (separators, `indent`,
//! `sort_keys`, `ensure_ascii`, `allow_nan`, `default=`) and `loads`/`load` with CPython's
//! scanner rules and `JSONDecodeError` messages and positions.
//!
//! Known differences from CPython: ints are 64-bit, so a JSON integer beyond that raises
//! OverflowError; a lone surrogate escape (`"\ud800"`) decodes to U+FFFD, since Rust strings
//! cannot hold one; `cls=` is not supported.

use std::cell::RefCell;
use std::rc::Rc;

use crate::interp::ops;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Bound;
use crate::py::signature::Style::Function;
use crate::py::value::{Args, Dict, Module, Value};

/// Nesting deeper than CPython's recursion limit raises RecursionError, so neither
/// direction can overflow the native stack.
const MAX_DEPTH: usize = 1000;

/// The `json` module.
pub fn module() -> Rc<Module> {
    let m = Module::new(
        "json",
        "JSON encoder and decoder with CPython's formatting and error messages.",
    );
    m.def(
        Function,
        "dumps",
        "obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None, indent=None, separators=None, default=None, sort_keys=False, **kw",
        "Serialize ``obj`` to a JSON formatted ``str``.",
        |rt, b| {
            encoder_kw(&b)?;
            Ok(Value::str(&dumps(rt, &b.value(0), &b[1..])?))
        },
    );
    m.def(
        Function,
        "dump",
        "obj, fp, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None, indent=None, separators=None, default=None, sort_keys=False, **kw",
        "Serialize ``obj`` as a JSON formatted stream to ``fp`` (a ``.write()``-supporting file-like object).",
        |rt, b| {
            encoder_kw(&b)?;
            let text = dumps(rt, &b.value(0), &b[2..])?;
            let write = crate::interp::attrs::get_attr(rt, &b.value(1), "write")?;
            rt.call(&write, Args::new(vec![Value::str(&text)]))?;
            Ok(Value::None)
        },
    );
    m.def(
        Function,
        "loads",
        "s, *, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None, object_pairs_hook=None, **kw",
        "Deserialize ``s`` (a ``str``, ``bytes`` or ``bytearray`` instance containing a JSON document) to a Python object.",
        |rt, b| {
            let strict = decoder_strict(rt, &b)?;
            loads(rt, &b.value(0), &b[1..], strict)
        },
    );
    m.def(
        Function,
        "load",
        "fp, *, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None, object_pairs_hook=None, **kw",
        "Deserialize ``fp`` (a ``.read()``-supporting file-like object containing a JSON document) to a Python object.",
        |rt, b| {
            let strict = decoder_strict(rt, &b)?;
            let read = crate::interp::attrs::get_attr(rt, &b.value(0), "read")?;
            let s = rt.call(&read, Args::default())?;
            loads(rt, &s, &b[1..], strict)
        },
    );
    m.set(
        "JSONDecodeError",
        Value::object(crate::interp::objects::ExceptionType {
            name: "JSONDecodeError".into(),
        }),
    );
    Rc::new(m)
}

/// `**kw` goes to `JSONEncoder(...)`, whose parameters are all named already.
fn encoder_kw(b: &Bound) -> PyResult<()> {
    match b.kw.first() {
        Some((k, _)) => Err(PyErr::type_error(format!(
            "JSONEncoder.__init__() got an unexpected keyword argument '{k}'"
        ))),
        None => Ok(()),
    }
}

/// `**kw` goes to `JSONDecoder(...)`, which takes `strict` besides the named options:
/// False lets control characters stand in strings.
fn decoder_strict(rt: &mut Runtime, b: &Bound) -> PyResult<bool> {
    let mut strict = true;
    for (k, v) in &b.kw {
        if &**k != "strict" {
            return Err(PyErr::type_error(format!(
                "JSONDecoder.__init__() got an unexpected keyword argument '{k}'"
            )));
        }
        strict = ops::truthy(rt, v)?;
    }
    Ok(strict)
}

fn flag(rt: &mut Runtime, v: &Option<Value>, default: bool) -> PyResult<bool> {
    match v {
        Some(v) => ops::truthy(rt, v),
        None => Ok(default),
    }
}

fn given(v: &Option<Value>) -> Option<Value> {
    v.clone().filter(|v| !v.is_none())
}

// ---- encoding -------------------------------------------------------------------------

struct Encoder {
    skipkeys: bool,
    ensure_ascii: bool,
    check_circular: bool,
    allow_nan: bool,
    indent: Option<String>,
    item_sep: String,
    key_sep: String,
    default: Option<Value>,
    sort_keys: bool,
    /// Ids of the containers being encoded, for the circular-reference check.
    markers: Vec<usize>,
    out: String,
}

/// `opts` are the keyword slots after `obj` and `fp`: skipkeys .. sort_keys.
fn dumps(rt: &mut Runtime, obj: &Value, opts: &[Option<Value>]) -> PyResult<String> {
    if given(&opts[4]).is_some() {
        return Err(PyErr::not_implemented(
            "json.dumps(cls=...) is not supported in nbcuda; pass default= instead",
        ));
    }
    let indent = match &given(&opts[5]) {
        None => None,
        Some(Value::Str(s)) => Some(s.to_string()),
        Some(v @ (Value::Int(_) | Value::Bool(_))) => {
            let n = v.as_index()?.clamp(0, 10_000) as usize;
            Some(" ".repeat(n)) // bounded: clamped above
        }
        Some(v) => {
            return Err(PyErr::type_error(format!(
                "can't multiply sequence by non-int of type '{}'",
                v.type_name()
            )))
        }
    };
    let (item_sep, key_sep) = match given(&opts[6]) {
        Some(v) => {
            let parts = ops::iterate(rt, &v)?;
            match parts.as_slice() {
                [Value::Str(a), Value::Str(b)] => (a.to_string(), b.to_string()),
                [_, _] => {
                    return Err(PyErr::type_error(
                        "make_encoder() argument 6 must be str, not int",
                    ))
                }
                [] | [_] => {
                    return Err(PyErr::value_error(format!(
                        "not enough values to unpack (expected 2, got {})",
                        parts.len()
                    )))
                }
                _ => return Err(PyErr::value_error("too many values to unpack (expected 2)")),
            }
        }
        None if indent.is_some() => (",".into(), ": ".into()),
        None => (", ".into(), ": ".into()),
    };
    let mut e = Encoder {
        skipkeys: flag(rt, &opts[0], false)?,
        ensure_ascii: flag(rt, &opts[1], true)?,
        check_circular: flag(rt, &opts[2], true)?,
        allow_nan: flag(rt, &opts[3], true)?,
        indent,
        item_sep,
        key_sep,
        default: given(&opts[7]),
        sort_keys: flag(rt, &opts[8], false)?,
        markers: Vec::new(),
        out: String::new(),
    };
    e.encode(rt, obj, 0)?;
    Ok(e.out)
}

/// The id of a container for the circular-reference check.
fn container_id(v: &Value) -> usize {
    match v {
        Value::List(l) => Rc::as_ptr(l) as *const u8 as usize,
        Value::Dict(d) => Rc::as_ptr(d) as *const u8 as usize,
        Value::Tuple(t) => t.as_ptr() as *const u8 as usize,
        Value::Object(o) => Rc::as_ptr(o) as *const u8 as usize,
        _ => 0,
    }
}

impl Encoder {
    fn encode(&mut self, rt: &mut Runtime, v: &Value, depth: usize) -> PyResult<()> {
        if depth > MAX_DEPTH {
            return Err(PyErr::new(
                "RecursionError",
                "maximum recursion depth exceeded while encoding a JSON object",
            ));
        }
        rt.check_interrupt()?;
        match v {
            Value::None => self.out.push_str("null"),
            Value::Bool(true) => self.out.push_str("true"),
            Value::Bool(false) => self.out.push_str("false"),
            Value::Int(i) => self.out.push_str(&i.to_string()),
            Value::BigInt(b) => self.out.push_str(&crate::py::bigint::to_decimal(b)?),
            Value::Float(f) => {
                let s = self.float(*f)?;
                self.out.push_str(&s);
            }
            Value::Scalar(crate::arrays::dtype::Scalar::F64(f)) => {
                // np.float64 is a float subclass, so CPython encodes it as a float.
                let s = self.float(*f)?;
                self.out.push_str(&s);
            }
            Value::Str(s) => {
                let q = quote(s, self.ensure_ascii);
                self.out.push_str(&q);
            }
            Value::List(l) => {
                let items = l.borrow().clone();
                self.nested(rt, v, |e, rt| e.list(rt, &items, depth))?;
            }
            Value::Tuple(t) => {
                let items = t.to_vec();
                self.nested(rt, v, |e, rt| e.list(rt, &items, depth))?;
            }
            _ => {
                if let Some(d) = crate::interp::collections_dicts::dict_of(v) {
                    let items = d.borrow().items();
                    return self.nested(rt, v, |e, rt| e.dict(rt, items, depth));
                }
                if let Some(t) = v.downcast::<crate::interp::collections_module::NamedTuple>() {
                    let items = t.items().to_vec();
                    return self.nested(rt, v, |e, rt| e.list(rt, &items, depth));
                }
                let Some(default) = self.default.clone() else {
                    // CPython names the class without its module (`int64`, `partial`).
                    let ty = v.type_name();
                    let short = ty.rsplit('.').next().unwrap_or(&ty);
                    return Err(PyErr::type_error(format!(
                        "Object of type {short} is not JSON serializable"
                    )));
                };
                // The object stays marked while its replacement is encoded, so a default
                // that returns its argument is caught as circular.
                self.nested(rt, v, |e, rt| {
                    let r = rt.call(&default, Args::new(vec![v.clone()]))?;
                    e.encode(rt, &r, depth + 1)
                })?;
            }
        }
        Ok(())
    }

    /// Encode a container with `v`'s id marked, as CPython's circular check does.
    fn nested(
        &mut self,
        rt: &mut Runtime,
        v: &Value,
        body: impl FnOnce(&mut Encoder, &mut Runtime) -> PyResult<()>,
    ) -> PyResult<()> {
        let id = container_id(v);
        let mark = self.check_circular && id != 0;
        if mark {
            if self.markers.contains(&id) {
                return Err(PyErr::value_error("Circular reference detected"));
            }
            self.markers.push(id);
        }
        let r = body(self, rt);
        if mark {
            self.markers.pop();
        }
        r
    }

    fn float(&self, f: f64) -> PyResult<String> {
        if f.is_finite() {
            return Ok(crate::arrays::format::float_repr(f));
        }
        if !self.allow_nan {
            return Err(PyErr::value_error(
                "Out of range float values are not JSON compliant",
            ));
        }
        Ok(if f.is_nan() {
            "NaN"
        } else if f > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        }
        .into())
    }

    /// The newline and indentation before an item at `level`, when indenting.
    fn newline(&mut self, level: usize) {
        if let Some(ind) = &self.indent {
            self.out.push('\n');
            for _ in 0..level {
                self.out.push_str(ind);
            }
        }
    }

    fn list(&mut self, rt: &mut Runtime, items: &[Value], depth: usize) -> PyResult<()> {
        if items.is_empty() {
            self.out.push_str("[]");
            return Ok(());
        }
        self.out.push('[');
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                let sep = self.item_sep.clone();
                self.out.push_str(&sep);
            }
            self.newline(depth + 1);
            self.encode(rt, x, depth + 1)?;
        }
        self.newline(depth);
        self.out.push(']');
        Ok(())
    }

    fn dict(&mut self, rt: &mut Runtime, items: Vec<(Value, Value)>, depth: usize) -> PyResult<()> {
        if items.is_empty() {
            self.out.push_str("{}");
            return Ok(());
        }
        let items = if self.sort_keys {
            sort_items(rt, items)?
        } else {
            items
        };
        self.out.push('{');
        let mut first = true;
        for (k, x) in &items {
            let key = match k {
                Value::Str(s) => s.to_string(),
                Value::Float(f) => self.float(*f)?,
                Value::Bool(true) => "true".into(),
                Value::Bool(false) => "false".into(),
                Value::None => "null".into(),
                Value::Int(i) => i.to_string(),
                Value::BigInt(b) => crate::py::bigint::to_decimal(b)?,
                _ if self.skipkeys => continue,
                _ => {
                    return Err(PyErr::type_error(format!(
                        "keys must be str, int, float, bool or None, not {}",
                        k.type_name()
                    )))
                }
            };
            if !first {
                let sep = self.item_sep.clone();
                self.out.push_str(&sep);
            }
            first = false;
            self.newline(depth + 1);
            let q = quote(&key, self.ensure_ascii);
            self.out.push_str(&q);
            let sep = self.key_sep.clone();
            self.out.push_str(&sep);
            self.encode(rt, x, depth + 1)?;
        }
        self.newline(depth);
        self.out.push('}');
        Ok(())
    }
}

/// `sorted(d.items())`: keys are distinct, so ordering the keys orders the items, and mixed
/// key types raise the TypeError CPython's comparison does.
fn sort_items(rt: &mut Runtime, items: Vec<(Value, Value)>) -> PyResult<Vec<(Value, Value)>> {
    let mut idx: Vec<usize> = (0..items.len()).collect();
    let mut err = None;
    idx.sort_by(|&a, &b| match ops::py_cmp(rt, &items[a].0, &items[b].0) {
        Ok(o) => o,
        Err(e) => {
            err.get_or_insert(e);
            std::cmp::Ordering::Equal
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    Ok(idx.into_iter().map(|i| items[i].clone()).collect())
}

/// A JSON string literal as CPython's encoder writes it.
fn quote(s: &str, ensure_ascii: bool) -> String {
    let mut out = String::with_capacity(s.len() + 2); // bounded: s already exists
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (ensure_ascii && (c as u32) > 0x7e) => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

// ---- decoding -------------------------------------------------------------------------

struct Decoder<'a> {
    s: &'a [char],
    object_hook: Option<Value>,
    pairs_hook: Option<Value>,
    parse_float: Option<Value>,
    parse_int: Option<Value>,
    parse_constant: Option<Value>,
    /// `strict=False`: control characters may stand unescaped in strings.
    strict: bool,
}

fn loads(rt: &mut Runtime, s: &Value, opts: &[Option<Value>], strict: bool) -> PyResult<Value> {
    if given(&opts[0]).is_some() {
        return Err(PyErr::not_implemented(
            "json.loads(cls=...) is not supported in nbcuda; pass object_hook= instead",
        ));
    }
    let text: String = match s {
        Value::Str(s) => s.to_string(),
        Value::Bytes(b) => String::from_utf8(b.to_vec()).map_err(|e| {
            PyErr::new(
                "UnicodeDecodeError",
                format!(
                    "'utf-8' codec can't decode byte {:#04x} in position {}: invalid start byte",
                    b.get(e.utf8_error().valid_up_to()).copied().unwrap_or(0),
                    e.utf8_error().valid_up_to()
                ),
            )
        })?,
        other => {
            return Err(PyErr::type_error(format!(
                "the JSON object must be str, bytes or bytearray, not {}",
                other.type_name()
            )))
        }
    };
    let chars: Vec<char> = text.chars().collect();
    if matches!(s, Value::Str(_)) && chars.first() == Some(&'\u{feff}') {
        return Err(decode_error(
            &chars,
            "Unexpected UTF-8 BOM (decode using utf-8-sig)",
            0,
        ));
    }
    let chars: Vec<char> = if chars.first() == Some(&'\u{feff}') {
        chars[1..].to_vec()
    } else {
        chars
    };
    let d = Decoder {
        s: &chars,
        object_hook: given(&opts[1]),
        parse_float: given(&opts[2]),
        parse_int: given(&opts[3]),
        parse_constant: given(&opts[4]),
        pairs_hook: given(&opts[5]),
        strict,
    };
    let start = d.skip_ws(0);
    let (v, end) = d.value(rt, start, 0)?;
    let end = d.skip_ws(end);
    if end != chars.len() {
        return Err(decode_error(&chars, "Extra data", end));
    }
    Ok(v)
}

/// CPython's `JSONDecodeError`: the message with the line, column and character offset.
fn decode_error(s: &[char], msg: &str, pos: usize) -> PyErr {
    let before = &s[..pos.min(s.len())];
    let lineno = before.iter().filter(|&&c| c == '\n').count() + 1;
    let colno = match before.iter().rposition(|&c| c == '\n') {
        Some(nl) => pos - nl,
        None => pos + 1,
    };
    PyErr::new(
        "JSONDecodeError",
        format!("{msg}: line {lineno} column {colno} (char {pos})"),
    )
}

impl Decoder<'_> {
    fn err(&self, msg: &str, pos: usize) -> PyErr {
        decode_error(self.s, msg, pos)
    }

    fn skip_ws(&self, mut i: usize) -> usize {
        while i < self.s.len() && matches!(self.s[i], ' ' | '\t' | '\n' | '\r') {
            i += 1;
        }
        i
    }

    fn starts_with(&self, i: usize, word: &str) -> bool {
        let n = word.chars().count();
        i + n <= self.s.len() && self.s[i..i + n].iter().copied().eq(word.chars())
    }

    /// The value starting at `i` (whitespace already skipped) and the index after it.
    fn value(&self, rt: &mut Runtime, i: usize, depth: usize) -> PyResult<(Value, usize)> {
        if depth > MAX_DEPTH {
            return Err(PyErr::new(
                "RecursionError",
                "maximum recursion depth exceeded while decoding a JSON document",
            ));
        }
        let Some(&c) = self.s.get(i) else {
            return Err(self.err("Expecting value", i));
        };
        match c {
            '"' => {
                let (s, end) = self.string(i + 1)?;
                Ok((Value::str(&s), end))
            }
            '{' => self.object(rt, i + 1, depth),
            '[' => self.array(rt, i + 1, depth),
            'n' if self.starts_with(i, "null") => Ok((Value::None, i + 4)),
            't' if self.starts_with(i, "true") => Ok((Value::Bool(true), i + 4)),
            'f' if self.starts_with(i, "false") => Ok((Value::Bool(false), i + 5)),
            'N' if self.starts_with(i, "NaN") => self.constant(rt, "NaN", f64::NAN, i),
            'I' if self.starts_with(i, "Infinity") => {
                self.constant(rt, "Infinity", f64::INFINITY, i)
            }
            '-' if self.starts_with(i, "-Infinity") => {
                self.constant(rt, "-Infinity", f64::NEG_INFINITY, i)
            }
            '-' | '0'..='9' => self.number(rt, i),
            _ => Err(self.err("Expecting value", i)),
        }
    }

    fn constant(&self, rt: &mut Runtime, name: &str, x: f64, i: usize) -> PyResult<(Value, usize)> {
        let end = i + name.len();
        match &self.parse_constant {
            Some(f) => Ok((rt.call(f, Args::new(vec![Value::str(name)]))?, end)),
            None => Ok((Value::Float(x), end)),
        }
    }

    /// CPython's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`; a
    /// fraction or exponent that does not complete is left for the caller ("Extra data").
    fn number(&self, rt: &mut Runtime, start: usize) -> PyResult<(Value, usize)> {
        let s = self.s;
        let digits = |mut i: usize| {
            while i < s.len() && s[i].is_ascii_digit() {
                i += 1;
            }
            i
        };
        let mut i = start;
        if s[i] == '-' {
            i += 1;
        }
        match s.get(i) {
            Some('0') => i += 1,
            Some('1'..='9') => i = digits(i),
            _ => return Err(self.err("Expecting value", start)),
        }
        let int_end = i;
        if s.get(i) == Some(&'.') && s.get(i + 1).is_some_and(|c| c.is_ascii_digit()) {
            i = digits(i + 1);
        }
        if matches!(s.get(i), Some('e' | 'E')) {
            let mut j = i + 1;
            if matches!(s.get(j), Some('+' | '-')) {
                j += 1;
            }
            if s.get(j).is_some_and(|c| c.is_ascii_digit()) {
                i = digits(j);
            }
        }
        let text: String = s[start..i].iter().collect();
        let is_int = i == int_end;
        let v = match (is_int, &self.parse_int, &self.parse_float) {
            (true, Some(f), _) | (false, _, Some(f)) => {
                rt.call(f, Args::new(vec![Value::str(&text)]))?
            }
            (true, None, _) => crate::interp::bigint::parse(&text, 10)?.ok_or_else(|| {
                PyErr::internal(format!("the JSON number {text} did not parse as an int"))
            })?,
            (false, _, None) => Value::Float(text.parse::<f64>().map_err(|_| {
                PyErr::internal(format!("the JSON number {text} did not parse as a float"))
            })?),
        };
        Ok((v, i))
    }

    /// The string whose body starts at `i` (after the opening quote), and the index after
    /// the closing quote.
    fn string(&self, i: usize) -> PyResult<(String, usize)> {
        let s = self.s;
        let begin = i - 1;
        let unterminated = || self.err("Unterminated string starting at", begin);
        let mut out = String::new();
        let mut i = i;
        loop {
            let Some(&c) = s.get(i) else {
                return Err(unterminated());
            };
            match c {
                '"' => return Ok((out, i + 1)),
                '\\' => {
                    let Some(&e) = s.get(i + 1) else {
                        return Err(unterminated());
                    };
                    let simple = match e {
                        '"' => Some('"'),
                        '\\' => Some('\\'),
                        '/' => Some('/'),
                        'b' => Some('\u{8}'),
                        'f' => Some('\u{c}'),
                        'n' => Some('\n'),
                        'r' => Some('\r'),
                        't' => Some('\t'),
                        _ => None,
                    };
                    if let Some(ch) = simple {
                        out.push(ch);
                        i += 2;
                        continue;
                    }
                    if e != 'u' {
                        return Err(self.err("Invalid \\escape", i));
                    }
                    let hi = self
                        .hex4(i + 2)
                        .ok_or_else(|| self.err("Invalid \\uXXXX escape", i + 1))?;
                    i += 6;
                    let mut code = hi;
                    if (0xd800..0xdc00).contains(&hi) && self.starts_with(i, "\\u") {
                        if let Some(lo) = self.hex4(i + 2) {
                            if (0xdc00..0xe000).contains(&lo) {
                                code = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
                                i += 6;
                            }
                        } else {
                            return Err(self.err("Invalid \\uXXXX escape", i + 1));
                        }
                    }
                    out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                }
                c if (c as u32) < 0x20 && self.strict => {
                    return Err(self.err("Invalid control character at", i));
                }
                c => {
                    out.push(c);
                    i += 1;
                }
            }
        }
    }

    fn hex4(&self, i: usize) -> Option<u32> {
        let digits = self.s.get(i..i + 4)?;
        digits
            .iter()
            .try_fold(0u32, |acc, c| c.to_digit(16).map(|d| acc * 16 + d))
    }

    fn array(&self, rt: &mut Runtime, i: usize, depth: usize) -> PyResult<(Value, usize)> {
        let mut items = Vec::new();
        let mut i = self.skip_ws(i);
        if self.s.get(i) == Some(&']') {
            return Ok((Value::list(items), i + 1));
        }
        loop {
            let (v, end) = self.value(rt, i, depth + 1)?;
            items.push(v);
            i = self.skip_ws(end);
            match self.s.get(i) {
                Some(']') => return Ok((Value::list(items), i + 1)),
                Some(',') => i = self.skip_ws(i + 1),
                _ => return Err(self.err("Expecting ',' delimiter", i)),
            }
        }
    }

    fn object(&self, rt: &mut Runtime, i: usize, depth: usize) -> PyResult<(Value, usize)> {
        let mut pairs: Vec<(String, Value)> = Vec::new();
        let mut i = self.skip_ws(i);
        let end = if self.s.get(i) == Some(&'}') {
            i + 1
        } else {
            loop {
                if self.s.get(i) != Some(&'"') {
                    return Err(self.err("Expecting property name enclosed in double quotes", i));
                }
                let (key, after) = self.string(i + 1)?;
                i = self.skip_ws(after);
                if self.s.get(i) != Some(&':') {
                    return Err(self.err("Expecting ':' delimiter", i));
                }
                i = self.skip_ws(i + 1);
                let (v, after) = self.value(rt, i, depth + 1)?;
                pairs.push((key, v));
                i = self.skip_ws(after);
                match self.s.get(i) {
                    Some('}') => break i + 1,
                    Some(',') => i = self.skip_ws(i + 1),
                    _ => return Err(self.err("Expecting ',' delimiter", i)),
                }
            }
        };
        if let Some(hook) = &self.pairs_hook {
            let list = pairs
                .into_iter()
                .map(|(k, v)| Value::tuple(vec![Value::str(&k), v]))
                .collect();
            return Ok((rt.call(hook, Args::new(vec![Value::list(list)]))?, end));
        }
        let mut d = Dict::default();
        for (k, v) in pairs {
            d.insert_str(&k, v);
        }
        let v = Value::Dict(Rc::new(RefCell::new(d)));
        match &self.object_hook {
            Some(hook) => Ok((rt.call(hook, Args::new(vec![v]))?, end)),
            None => Ok((v, end)),
        }
    }
}
