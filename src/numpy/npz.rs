//! `np.savez`/`np.savez_compressed` and the `.npz` archives `np.load` opens: a zip of
//! `.npy` files, stored or deflated. Every offset and size read from the archive is
//! checked against its length, and inflating stops at the size the entry declares.

use std::rc::Rc;

use crate::numpy::funcs::arg;
use crate::numpy::npy_io::{npy_bytes, read_npy, target, write_all, Target};
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const END: u32 = 0x0605_4b50;
/// 1980-01-01, the earliest date a zip entry can carry.
const DOS_DATE: u16 = 0x21;

/// Does this look like a zip archive?
pub fn is_npz(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// The CRC-32 (IEEE) zip stores for each member.
fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, slot) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *slot = c;
    }
    let mut crc = !0u32;
    for &b in data {
        crc = table[((crc ^ b as u32) & 0xff) as usize] ^ (crc >> 8);
    }
    !crc
}

fn u16_at(b: &[u8], i: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(i..i.checked_add(2)?)?.try_into().ok()?,
    ))
}
fn u32_at(b: &[u8], i: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(i..i.checked_add(4)?)?.try_into().ok()?,
    ))
}

/// A zip archive of the members, deflated when `compress` (as `np.savez_compressed`).
fn zip(members: &[(String, Vec<u8>)], compress: bool) -> PyResult<Vec<u8>> {
    let too_big = || PyErr::not_implemented("nbcuda writes .npz archives up to 4 GiB");
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in members {
        let offset = u32::try_from(out.len()).map_err(|_| too_big())?;
        let size = u32::try_from(data.len()).map_err(|_| too_big())?;
        let crc = crc32(data);
        let packed = compress.then(|| miniz_oxide::deflate::compress_to_vec(data, 6));
        let stored = packed.as_deref().unwrap_or(data);
        let csize = u32::try_from(stored.len()).map_err(|_| too_big())?;
        let method: u16 = if compress { 8 } else { 0 };
        let fields = |v: &mut Vec<u8>| {
            v.extend_from_slice(&20u16.to_le_bytes()); // version needed: 2.0
            v.extend_from_slice(&0u16.to_le_bytes()); // flags
            v.extend_from_slice(&method.to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes()); // time
            v.extend_from_slice(&DOS_DATE.to_le_bytes());
            v.extend_from_slice(&crc.to_le_bytes());
            v.extend_from_slice(&csize.to_le_bytes());
            v.extend_from_slice(&size.to_le_bytes());
            v.extend_from_slice(&(name.len() as u16).to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes()); // extra length
        };
        out.extend_from_slice(&LOCAL.to_le_bytes());
        fields(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(stored);
        central.extend_from_slice(&CENTRAL.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes()); // made by
        fields(&mut central);
        central.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let cd_offset = u32::try_from(out.len()).map_err(|_| too_big())?;
    let count = u16::try_from(members.len()).map_err(|_| too_big())?;
    out.extend_from_slice(&central);
    out.extend_from_slice(&END.to_le_bytes());
    out.extend_from_slice(&[0; 4]); // disk numbers
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    Ok(out)
}

fn bad_zip() -> PyErr {
    PyErr::new("BadZipFile", "File is not a zip file")
}

/// The members of a zip archive: name, and the bytes, or None for a compression method
/// other than stored and deflate.
fn unzip(b: &[u8]) -> PyResult<Vec<(String, Option<Vec<u8>>)>> {
    // The end record sits in the last 22 bytes plus up to 64 KiB of comment.
    let lowest = b.len().saturating_sub(22 + 65535);
    let end = (lowest..=b.len().saturating_sub(22))
        .rev()
        .find(|&i| u32_at(b, i) == Some(END))
        .ok_or_else(bad_zip)?;
    let count = u16_at(b, end + 10).ok_or_else(bad_zip)? as usize;
    let mut at = u32_at(b, end + 16).ok_or_else(bad_zip)? as usize;
    let mut members = Vec::new();
    for _ in 0..count {
        if u32_at(b, at) != Some(CENTRAL) {
            return Err(bad_zip());
        }
        let field = |off: usize| u16_at(b, at + off).map(usize::from).ok_or_else(bad_zip);
        let method = field(10)?;
        let csize = u32_at(b, at + 20).ok_or_else(bad_zip)? as usize;
        let usize_ = u32_at(b, at + 24).ok_or_else(bad_zip)? as usize;
        let (nlen, xlen, clen) = (field(28)?, field(30)?, field(32)?);
        let local = u32_at(b, at + 42).ok_or_else(bad_zip)? as usize;
        let name = b.get(at + 46..at + 46 + nlen).ok_or_else(bad_zip)?;
        let name = String::from_utf8_lossy(name).into_owned();
        at += 46 + nlen + xlen + clen;
        if u32_at(b, local) != Some(LOCAL) {
            return Err(bad_zip());
        }
        let lfield = |off: usize| u16_at(b, local + off).map(usize::from).ok_or_else(bad_zip);
        let data_at = local + 30 + lfield(26)? + lfield(28)?;
        let data = b
            .get(data_at..data_at.saturating_add(csize))
            .ok_or_else(bad_zip)?;
        let bytes = match method {
            0 => Some(data.to_vec()),
            // The declared size bounds the output, so a zip bomb stops there.
            8 => Some(
                miniz_oxide::inflate::decompress_to_vec_with_limit(data, usize_)
                    .map_err(|_| PyErr::new("BadZipFile", format!("Bad data in {name}")))?,
            ),
            _ => None,
        };
        members.push((name, bytes));
    }
    Ok(members)
}

/// What `np.load` gives for a `.npz` file: the archive's arrays by name.
pub struct NpzFile {
    members: Vec<(String, Option<Vec<u8>>)>,
    max_header: usize,
}

impl NpzFile {
    /// The member names without their `.npy` suffix, as `files` lists them.
    fn files(&self) -> Vec<String> {
        self.members
            .iter()
            .map(|(n, _)| n.strip_suffix(".npy").unwrap_or(n).to_string())
            .collect()
    }
    fn array(&self, key: &str) -> PyResult<Value> {
        let found = self
            .members
            .iter()
            .find(|(n, _)| n == key || n.strip_suffix(".npy") == Some(key));
        match found {
            Some((_, Some(data))) => Ok(Value::Array(Box::new(read_npy(data, self.max_header)?))),
            Some((_, None)) => Err(PyErr::not_implemented(format!(
                "'{key}' uses a zip compression other than stored or deflate"
            ))),
            None => Err(PyErr::key_error(format!(
                "'{key} is not a file in the archive'"
            ))),
        }
    }
}

impl crate::py::value::Object for NpzFile {
    fn type_name(&self) -> String {
        "NpzFile".into()
    }
    fn module_name(&self) -> String {
        "numpy.lib.npyio".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("NpzFile with keys: {}", self.files().join(", ")))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let me = self.clone();
        Ok(match name {
            "files" => Some(Value::list(
                self.files().iter().map(|s| Value::str(s)).collect(),
            )),
            "close" => Some(Value::builtin("close", "()", "Close the file.", |_, _| {
                Ok(Value::None)
            })),
            "keys" => Some(Value::builtin(
                "keys",
                "()",
                "The array names.",
                move |_, _| {
                    Ok(Value::list(
                        me.files().iter().map(|s| Value::str(s)).collect(),
                    ))
                },
            )),
            "items" => Some(Value::builtin(
                "items",
                "()",
                "(name, array) pairs.",
                move |_, _| {
                    let pairs = me
                        .files()
                        .iter()
                        .map(|k| Ok(Value::tuple(vec![Value::str(k), me.array(k)?])))
                        .collect::<PyResult<_>>()?;
                    Ok(Value::list(pairs))
                },
            )),
            _ => None,
        })
    }
    fn get_item(self: Rc<Self>, key: &Value, _rt: &mut Runtime) -> PyResult<Value> {
        match key {
            Value::Str(s) => self.array(s),
            other => Err(PyErr::key_error(format!(
                "'{} is not a file in the archive'",
                other.type_name()
            ))),
        }
    }
    fn iter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Option<Vec<Value>>> {
        Ok(Some(self.files().iter().map(|s| Value::str(s)).collect()))
    }
    fn len(&self, _rt: &mut Runtime) -> PyResult<Option<usize>> {
        Ok(Some(self.members.len()))
    }
    fn enter(self: Rc<Self>, _rt: &mut Runtime) -> PyResult<Value> {
        Ok(Value::Object(self))
    }
    fn dir(&self) -> Vec<String> {
        ["close", "files", "items", "keys"]
            .map(String::from)
            .to_vec()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `np.load` of a zip archive.
pub fn open(bytes: Vec<u8>, max_header: usize) -> PyResult<Value> {
    Ok(Value::object(NpzFile {
        members: unzip(&bytes)?,
        max_header,
    }))
}

/// `np.savez` and `np.savez_compressed`: positional arrays as `arr_0.npy`, ..., keyword
/// arrays under their names.
fn savez(rt: &mut Runtime, b: &crate::py::signature::Bound, compress: bool) -> PyResult<Value> {
    let t = match target(rt, arg(b, 0))? {
        Target::Path(p) if !p.ends_with(".npz") => Target::Path(p + ".npz"),
        t => t,
    };
    let mut members = Vec::new();
    for (i, v) in b.rest.iter().enumerate() {
        let a = crate::py::ndarray_attrs::to_ndarray(rt, v)?;
        members.push((format!("arr_{i}.npy"), npy_bytes(&a)?));
    }
    for (k, v) in &b.kw {
        let name = format!("{k}.npy");
        if members.iter().any(|(n, _)| *n == name) {
            return Err(PyErr::value_error(format!(
                "Cannot use un-named variables and keyword {k}"
            )));
        }
        let a = crate::py::ndarray_attrs::to_ndarray(rt, v)?;
        members.push((name, npy_bytes(&a)?));
    }
    write_all(rt, &t, zip(&members, compress)?)?;
    Ok(Value::None)
}

/// Register `np.savez` and `np.savez_compressed`.
pub fn register(m: &Module) {
    m.def(
        Function,
        "savez",
        "file, *args, allow_pickle=True, **kwds",
        "Save several arrays into a single file in uncompressed .npz format.",
        |rt, b| savez(rt, &b, false),
    );
    m.def(
        Function,
        "savez_compressed",
        "file, *args, allow_pickle=True, **kwds",
        "Save several arrays into a single file in compressed .npz format.",
        |rt, b| savez(rt, &b, true),
    );
}
