//! `_hashlib`: the digest functions under the Python `hashlib` module (pylib/hashlib.py),
//! which keeps the data fed to a hash object and digests it here on demand.

use std::rc::Rc;

use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha224, Sha256, Sha384, Sha512};

use crate::py::error::PyErr;
use crate::py::signature::Style::Function;
use crate::py::value::{Module, Value};

fn digest_of<D: Digest>(parts: &[Vec<u8>]) -> Vec<u8> {
    let mut d = D::new();
    for p in parts {
        d.update(p);
    }
    d.finalize().to_vec()
}

/// The digest of the concatenated parts under the named algorithm; None for a name
/// this module does not know.
fn digest(name: &str, parts: &[Vec<u8>]) -> Option<Vec<u8>> {
    Some(match name {
        "md5" => digest_of::<Md5>(parts),
        "sha1" => digest_of::<Sha1>(parts),
        "sha224" => digest_of::<Sha224>(parts),
        "sha256" => digest_of::<Sha256>(parts),
        "sha384" => digest_of::<Sha384>(parts),
        "sha512" => digest_of::<Sha512>(parts),
        _ => return None,
    })
}

pub fn module() -> Rc<Module> {
    let m = Module::new("_hashlib", "Message digests for hashlib.");
    m.def(
        Function,
        "digest",
        "name, parts",
        "The digest of the bytes-like parts (a list) under the named algorithm.",
        |_, b| {
            let name = match &b.value(0) {
                Value::Str(s) => s.clone(),
                _ => return Err(PyErr::type_error("digest name must be a str")),
            };
            let parts = match &b.value(1) {
                Value::List(items) => items.borrow().clone(),
                _ => return Err(PyErr::type_error("digest parts must be a list")),
            };
            let mut bytes = Vec::new();
            for p in &parts {
                match crate::interp::bytearray::bytes_like(p) {
                    Some(v) => bytes.push(v),
                    None => {
                        return Err(PyErr::type_error(
                            "object supporting the buffer API required",
                        ))
                    }
                }
            }
            match digest(&name, &bytes) {
                Some(d) => Ok(Value::Bytes(Rc::from(d))),
                None => Err(PyErr::value_error(format!("unsupported hash type {name}"))),
            }
        },
    );
    Rc::new(m)
}

#[cfg(test)]
mod tests {
    use super::digest;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn known_digests_of_abc_split_in_parts() {
        // RFC 1321 / FIPS 180 test vectors for "abc".
        let parts = vec![b"a".to_vec(), b"bc".to_vec()];
        assert_eq!(
            hex(&digest("md5", &parts).unwrap()),
            "900150983cd24fb0d6963f7d28e17f72"
        );
        assert_eq!(
            hex(&digest("sha1", &parts).unwrap()),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
        assert!(digest("whirlpool", &parts).is_none());
    }
}
