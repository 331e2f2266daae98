//! Jupyter messages on the wire: framing, HMAC-SHA256 signing, constant-time verification
//! and replay protection. Every way a frame list can be wrong is an `Err` here, never a
//! panic: the socket tasks log it and keep serving.

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

use bytes::Bytes;
use hmac::{Hmac, Mac};
use serde_json::Value as Json;
use sha2::Sha256;

/// Separates routing identities from the signed message parts.
pub const DELIMITER: &[u8] = b"<IDS|MSG>";

/// How many signatures the replay guard remembers (as jupyter_client's `digest_history`).
const REPLAY_CAPACITY: usize = 1 << 16;

/// One Jupyter message, decoded.
#[derive(Clone, Debug)]
pub struct Message {
    /// ROUTER identities (or the IOPub topic) before the delimiter.
    pub identities: Vec<Bytes>,
    pub header: Json,
    pub parent_header: Json,
    pub metadata: Json,
    pub content: Json,
    pub buffers: Vec<Bytes>,
    /// Set when the signed content frame is not JSON text: the request is still answered.
    pub content_error: Option<ContentError>,
}

/// Why a signed message's content frame could not be read. A client waits for the reply
/// to its request, so such a request is answered with an error instead of being dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContentError {
    /// Bytes that are not UTF-8: the first bad byte, its position in the frame, and what
    /// is wrong with it (Python's wording).
    NotUtf8 {
        byte: u8,
        at: usize,
        why: &'static str,
    },
    /// A `\uD800`-style escape without its partner: a string Python can hold but cannot
    /// encode, so compiling it fails.
    LoneSurrogate(u16),
    /// Anything else the JSON parser refused.
    Invalid(String),
}

impl ContentError {
    fn of(frame: &[u8], parse_error: String) -> ContentError {
        if let Err(e) = std::str::from_utf8(frame) {
            let at = e.valid_up_to();
            let byte = frame[at];
            let why = match (byte, e.error_len()) {
                (0x80..=0xbf | 0xf8..=0xff, _) => "invalid start byte",
                (_, Some(_)) => "invalid continuation byte",
                (_, None) => "unexpected end of data",
            };
            return ContentError::NotUtf8 { byte, at, why };
        }
        match lone_surrogate(frame) {
            Some(u) => ContentError::LoneSurrogate(u),
            None => ContentError::Invalid(parse_error),
        }
    }

    /// The Python exception (name, message) CPython raises for such input.
    pub fn python_error(&self) -> (&'static str, String) {
        match self {
            ContentError::NotUtf8 { byte, at, why } => (
                "UnicodeDecodeError",
                format!("'utf-8' codec can't decode byte 0x{byte:02x} in position {at}: {why}"),
            ),
            ContentError::LoneSurrogate(u) => (
                "UnicodeEncodeError",
                format!(
                    "'utf-8' codec can't encode character '\\u{u:04x}': surrogates not allowed"
                ),
            ),
            ContentError::Invalid(e) => (
                "ValueError",
                format!("the request's content is not valid JSON: {e}"),
            ),
        }
    }
}

/// The first `\uXXXX` escape in JSON text that is a surrogate without its partner.
fn lone_surrogate(text: &[u8]) -> Option<u16> {
    let hex = |at: usize| -> Option<u16> {
        let h = text.get(at..at + 4)?;
        u16::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    };
    let mut i = 0;
    while i + 1 < text.len() {
        if text[i] != b'\\' {
            i += 1;
            continue;
        }
        if text[i + 1] != b'u' {
            i += 2; // `\\`, `\"`, `\n`...: the escaped character cannot start an escape
            continue;
        }
        let Some(u) = hex(i + 2) else {
            i += 2;
            continue;
        };
        match u {
            0xd800..=0xdbff => {
                let low = (text.get(i + 6..i + 8) == Some(b"\\u"))
                    .then(|| hex(i + 8))
                    .flatten();
                if !matches!(low, Some(0xdc00..=0xdfff)) {
                    return Some(u);
                }
                i += 12;
            }
            0xdc00..=0xdfff => return Some(u),
            _ => i += 6,
        }
    }
    None
}

impl Message {
    pub fn msg_type(&self) -> &str {
        self.header["msg_type"].as_str().unwrap_or("")
    }
}

/// Why an incoming frame list was dropped.
#[derive(Debug, PartialEq, Eq)]
pub enum WireError {
    NoDelimiter,
    TooFewFrames(usize),
    BadSignature,
    MissingSignature,
    Replayed,
    BadJson(&'static str, String),
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::NoDelimiter => write!(f, "no <IDS|MSG> delimiter (not a Jupyter message)"),
            WireError::TooFewFrames(n) => {
                write!(f, "{n} frame(s) after the delimiter; a message needs 5")
            }
            WireError::BadSignature => write!(f, "invalid signature"),
            WireError::MissingSignature => write!(f, "unsigned message"),
            WireError::Replayed => write!(f, "duplicate signature (replayed message)"),
            WireError::BadJson(part, e) => write!(f, "bad JSON in {part}: {e}"),
        }
    }
}

/// Signatures already accepted, and their arrival order for eviction.
type ReplayGuard = (HashSet<Vec<u8>>, VecDeque<Vec<u8>>);

/// Signs outgoing and verifies incoming messages with the connection file's key.
pub struct Signer {
    /// None when the key is empty: authentication disabled, as in jupyter_client.
    mac: Option<Hmac<Sha256>>,
    seen: Mutex<ReplayGuard>,
}

impl Signer {
    pub fn new(key: &str) -> Signer {
        let mac = if key.is_empty() {
            None
        } else {
            // invariant: HMAC takes keys of any length
            Some(Hmac::<Sha256>::new_from_slice(key.as_bytes()).expect("HMAC accepts any key"))
        };
        Signer {
            mac,
            seen: Mutex::new((HashSet::new(), VecDeque::new())),
        }
    }

    /// Lower-case hex HMAC of the four signed parts ("" when auth is disabled).
    pub fn sign(&self, parts: &[&[u8]]) -> String {
        match &self.mac {
            None => String::new(),
            Some(mac) => {
                let mut m = mac.clone();
                for p in parts {
                    m.update(p);
                }
                hex_lower(&m.finalize().into_bytes())
            }
        }
    }

    /// Check a signature in constant time, then reject it if it was seen before.
    pub fn verify(&self, signature: &[u8], parts: &[&[u8]]) -> Result<(), WireError> {
        let Some(mac) = &self.mac else {
            return Ok(());
        };
        if signature.is_empty() {
            return Err(WireError::MissingSignature);
        }
        let raw = hex::decode(signature).map_err(|_| WireError::BadSignature)?;
        let mut m = mac.clone();
        for p in parts {
            m.update(p);
        }
        m.verify_slice(&raw).map_err(|_| WireError::BadSignature)?;
        // Only genuine signatures enter the replay set, so forgeries cannot evict them.
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let (set, order) = &mut *seen;
        if !set.insert(raw.clone()) {
            return Err(WireError::Replayed);
        }
        order.push_back(raw);
        if order.len() > REPLAY_CAPACITY {
            if let Some(old) = order.pop_front() {
                set.remove(&old);
            }
        }
        Ok(())
    }

    /// Decode and authenticate a multipart message.
    pub fn decode(&self, frames: Vec<Bytes>) -> Result<Message, WireError> {
        let d = frames
            .iter()
            .position(|f| &f[..] == DELIMITER)
            .ok_or(WireError::NoDelimiter)?;
        let after = frames.len() - d - 1;
        if after < 5 {
            return Err(WireError::TooFewFrames(after));
        }
        let sig = &frames[d + 1];
        let signed: Vec<&[u8]> = frames[d + 2..d + 6].iter().map(|b| &b[..]).collect();
        self.verify(sig, &signed)?;
        let parse = |i: usize, name: &'static str| -> Result<Json, WireError> {
            let v: Json = serde_json::from_slice(&frames[d + 2 + i])
                .map_err(|e| WireError::BadJson(name, e.to_string()))?;
            if v.is_object() {
                Ok(v)
            } else {
                Err(WireError::BadJson(name, "not a JSON object".into()))
            }
        };
        let header = parse(0, "header")?;
        if !header["msg_type"].is_string() {
            return Err(WireError::BadJson("header", "no msg_type".into()));
        }
        let (content, content_error) = match parse(3, "content") {
            Ok(c) => (c, None),
            Err(WireError::BadJson(_, e)) => (
                Json::Object(Default::default()),
                Some(ContentError::of(&frames[d + 5], e)),
            ),
            Err(e) => return Err(e),
        };
        Ok(Message {
            identities: frames[..d].to_vec(),
            header,
            parent_header: parse(1, "parent_header")?,
            metadata: parse(2, "metadata")?,
            content,
            buffers: frames[d + 6..].to_vec(),
            content_error,
        })
    }

    /// Encode a message into signed frames.
    pub fn encode(&self, msg: &Message) -> Vec<Bytes> {
        let json = |v: &Json| Bytes::from(serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec()));
        self.encode_parts(Parts {
            identities: msg.identities.clone(),
            header: json(&msg.header),
            parent_header: json(&msg.parent_header),
            metadata: json(&msg.metadata),
            content: json(&msg.content),
            buffers: msg.buffers.clone(),
        })
    }

    /// Sign parts that are already serialised into frames.
    pub fn encode_parts(&self, p: Parts) -> Vec<Bytes> {
        let sig = self.sign(&[&p.header, &p.parent_header, &p.metadata, &p.content]);
        let mut frames = Vec::with_capacity(p.identities.len() + 6 + p.buffers.len());
        frames.extend(p.identities);
        frames.push(Bytes::from_static(DELIMITER));
        frames.push(Bytes::from(sig.into_bytes()));
        frames.extend([p.header, p.parent_header, p.metadata, p.content]);
        frames.extend(p.buffers);
        frames
    }
}

/// A message whose signed parts are serialised already: the parent header of a request's
/// children is serialised once per request rather than once per child.
pub struct Parts {
    pub identities: Vec<Bytes>,
    pub header: Bytes,
    pub parent_header: Bytes,
    pub metadata: Bytes,
    pub content: Bytes,
    pub buffers: Vec<Bytes>,
}

/// Lower-case hex, without the per-character iterator of `hex::encode`.
fn hex_lower(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2); // bounded: hex of a frame
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map};

    /// A message as a client would send it.
    fn new_header(session: &str, msg_type: &str) -> Json {
        json!({
            "msg_id": uuid::Uuid::new_v4().to_string(),
            "session": session,
            "username": "nbcuda",
            "date": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            "msg_type": msg_type,
            "version": "5.3",
        })
    }

    /// A message from this kernel: `parent` is the request's header (or `{}`).
    fn new_message(
        session: &str,
        identities: Vec<Bytes>,
        parent: &Json,
        msg_type: &str,
        content: Json,
    ) -> Message {
        Message {
            identities,
            header: new_header(session, msg_type),
            parent_header: if parent.is_object() {
                parent.clone()
            } else {
                Json::Object(Map::new())
            },
            metadata: Json::Object(Map::new()),
            content,
            buffers: Vec::new(),
            content_error: None,
        }
    }

    fn sample(s: &Signer) -> Vec<Bytes> {
        let m = new_message(
            "s",
            vec![Bytes::from_static(b"id")],
            &json!({}),
            "kernel_info_request",
            json!({}),
        );
        s.encode(&m)
    }

    #[test]
    fn roundtrip_and_replay() {
        let s = Signer::new("secret");
        let frames = sample(&s);
        let m = s.decode(frames.clone()).unwrap();
        assert_eq!(m.msg_type(), "kernel_info_request");
        assert_eq!(m.identities, vec![Bytes::from_static(b"id")]);
        assert_eq!(s.decode(frames).unwrap_err(), WireError::Replayed);
    }

    #[test]
    fn forged_and_malformed_are_rejected() {
        let s = Signer::new("secret");
        let other = Signer::new("other");
        assert_eq!(
            s.decode(sample(&other)).unwrap_err(),
            WireError::BadSignature
        );
        let mut f = sample(&s);
        f[2] = Bytes::from_static(b"");
        assert_eq!(s.decode(f).unwrap_err(), WireError::MissingSignature);
        let mut f = sample(&s);
        f[2] = Bytes::from_static(b"zz-not-hex");
        assert_eq!(s.decode(f).unwrap_err(), WireError::BadSignature);
        assert_eq!(
            s.decode(vec![Bytes::from_static(b"junk")]).unwrap_err(),
            WireError::NoDelimiter
        );
        let f = vec![Bytes::from_static(DELIMITER), Bytes::from_static(b"ab")];
        assert_eq!(s.decode(f).unwrap_err(), WireError::TooFewFrames(1));
        assert_eq!(s.decode(vec![]).unwrap_err(), WireError::NoDelimiter);
    }

    #[test]
    fn bad_json_is_an_error_when_signed_correctly() {
        let s = Signer::new("k");
        let parts: [&[u8]; 4] = [b"{not json", b"{}", b"{}", b"{}"];
        let sig = s.sign(&parts);
        let mut f = vec![Bytes::from_static(DELIMITER), Bytes::from(sig)];
        f.extend(parts.iter().map(|p| Bytes::copy_from_slice(p)));
        assert!(matches!(s.decode(f), Err(WireError::BadJson("header", _))));
    }

    #[test]
    fn signature_matches_known_hmac() {
        // HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog") from RFC test data.
        let s = Signer::new("key");
        assert_eq!(
            s.sign(&[b"The quick brown fox ", b"jumps over the lazy dog"]),
            "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"
        );
    }

    #[test]
    fn empty_key_disables_auth() {
        let s = Signer::new("");
        let f = sample(&s);
        assert_eq!(&f[2][..], b"");
        assert!(s.decode(f).is_ok());
    }
}
