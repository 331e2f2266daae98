//! `bytes`: the builtin constructor and the methods binary files and `int.to_bytes` need
//! (`hex`, `decode`).

use std::collections::HashMap;
use std::rc::Rc;

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Args, Value};

/// `bytes()`, `bytes(n)`, `bytes(iterable_of_ints)`, `bytes(str, encoding)`.
fn construct(rt: &mut Runtime, a: Args) -> PyResult<Value> {
    let p = a.bind("bytes", &["source=", "encoding=", "errors="])?;
    let out: Vec<u8> = match (&p[0], &p[1]) {
        (None, _) => Vec::new(),
        (Some(Value::Str(s)), Some(enc)) => encode(s, enc.as_str().unwrap_or_default())?,
        (Some(Value::Str(_)), None) => {
            return Err(PyErr::type_error("string argument without an encoding"))
        }
        (Some(Value::Bytes(b)), _) => b.to_vec(),
        (Some(v), _)
            if v.downcast::<crate::interp::bytearray::ByteArray>()
                .is_some() =>
        {
            crate::interp::bytearray::bytes_like(v).unwrap_or_default()
        }
        (Some(n @ (Value::Int(_) | Value::Bool(_))), _) => {
            let n = n.as_index()?;
            if n < 0 {
                return Err(PyErr::value_error("negative count"));
            }
            crate::arrays::alloc::check(n as usize, 1, "bytes")?;
            // bounded: alloc::check above
            vec![0; n as usize]
        }
        (Some(v), _) => rt
            .iterate(v)?
            .iter()
            .map(|x| {
                let i = x.as_index()?;
                u8::try_from(i).map_err(|_| PyErr::value_error("bytes must be in range(0, 256)"))
            })
            .collect::<PyResult<_>>()?,
    };
    Ok(Value::Bytes(Rc::from(out)))
}

pub fn encode(s: &str, encoding: &str) -> PyResult<Vec<u8>> {
    match encoding.to_ascii_lowercase().replace('_', "-").as_str() {
        "utf-8" | "utf8" => Ok(s.as_bytes().to_vec()),
        "ascii" | "latin-1" | "latin1" | "iso-8859-1" => {
            let limit = if encoding.eq_ignore_ascii_case("ascii") {
                128
            } else {
                256
            };
            s.chars()
                .enumerate()
                .map(|(i, c)| {
                    u8::try_from(c as u32).ok().filter(|&b| (b as u32) < limit).ok_or_else(|| {
                        PyErr::new(
                            "UnicodeEncodeError",
                            format!(
                                "'{}' codec can't encode character '\\x{:02x}' in position {i}: ordinal not in range({limit})",
                                encoding.to_ascii_lowercase(),
                                c as u32
                            ),
                        )
                    })
                })
                .collect()
        }
        _ => Err(PyErr::new(
            "LookupError",
            format!("unknown encoding: {encoding}"),
        )),
    }
}

fn decode(b: &[u8], encoding: &str) -> PyResult<String> {
    match encoding.to_ascii_lowercase().replace('_', "-").as_str() {
        "utf-8" | "utf8" => String::from_utf8(b.to_vec()).map_err(|e| {
            let pos = e.utf8_error().valid_up_to();
            PyErr::new(
                "UnicodeDecodeError",
                format!(
                    "'utf-8' codec can't decode byte 0x{:02x} in position {pos}: invalid start byte",
                    b.get(pos).copied().unwrap_or(0)
                ),
            )
        }),
        "latin-1" | "latin1" | "iso-8859-1" => Ok(b.iter().map(|&c| c as char).collect()),
        "ascii" => match b.iter().position(|&c| c >= 128) {
            Some(pos) => Err(PyErr::new(
                "UnicodeDecodeError",
                format!(
                    "'ascii' codec can't decode byte 0x{:02x} in position {pos}: ordinal not in range(128)",
                    b[pos]
                ),
            )),
            None => Ok(b.iter().map(|&c| c as char).collect()),
        },
        _ => Err(PyErr::new(
            "LookupError",
            format!("unknown encoding: {encoding}"),
        )),
    }
}

/// The methods of a bytes value.
pub fn method(b: Rc<[u8]>, name: &str) -> Option<Value> {
    Some(match name {
        "hex" => Value::builtin(
            "bytes.hex",
            "hex()",
            "The bytes as two hexadecimal digits each.",
            move |_, _| {
                Ok(Value::str(
                    &b.iter().map(|c| format!("{c:02x}")).collect::<String>(),
                ))
            },
        ),
        "decode" => Value::builtin(
            "bytes.decode",
            "decode(encoding='utf-8', errors='strict')",
            "The string the bytes encode.",
            move |_, a| {
                let p = a.bind("decode", &["encoding=", "errors="])?;
                let enc = p[0].as_ref().and_then(|v| v.as_str()).unwrap_or("utf-8");
                Ok(Value::str(&decode(&b, enc)?))
            },
        ),
        _ => return None,
    })
}

/// The `bytes` builtin (a bytearray is built by it too).
pub fn constructor() -> Value {
    Value::builtin(
        "bytes",
        "bytes(source=b'', encoding=None, errors='strict')",
        "An immutable sequence of bytes: empty, n zero bytes, the ints of an iterable, or a string encoded.",
        construct,
    )
}

/// Adds `bytes` and `bytearray` to the builtins.
pub fn register(b: &mut HashMap<String, Value>) {
    b.insert("bytes".into(), constructor());
    b.insert(
        "bytearray".into(),
        Value::builtin(
            "bytearray",
            "bytearray(source=b'', encoding=None, errors='strict')",
            "A mutable sequence of bytes: empty, n zero bytes, the ints of an iterable, or a string encoded.",
            crate::interp::bytearray::construct,
        ),
    );
}
