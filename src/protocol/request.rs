//! Incoming requests as jupyter-protocol's typed [`JupyterMessage`].
//!
//! jupyter-protocol's request structs require fields that the messaging spec marks optional
//! and that real clients leave out (jupyter_kernel_test sends a history search without
//! `unique` or `n`, older clients an execute_request without `stop_on_error`). So before
//! the typed parse, the spec's documented defaults (ipykernel's where the spec is silent)
//! are filled in for missing fields; dispatch then matches on [`JupyterMessageContent`].
//! Content that still does not fit (a `code` that is a number) becomes an
//! `UnknownMessage`: logged, wrapped in busy/idle, not answered, like an unknown type.

use std::sync::Arc;

use bytes::Bytes;
use serde::Deserialize;

use jupyter_protocol::{Header, JupyterMessage, JupyterMessageContent, UnknownMessage};
use serde_json::{json, Map, Value as Json};

use crate::protocol::wire::{ContentError, Message};

/// A verified request: the typed message (with the sender's routing identities) and its
/// header exactly as received, which replies echo as `parent_header`.
#[derive(Clone, Debug)]
pub struct Request {
    pub msg: Arc<JupyterMessage>,
    pub raw_header: Arc<Json>,
    /// `raw_header` serialised once, for the parent_header of every message it causes.
    pub header_json: Bytes,
    /// The content frame could not be read (answered with this error, never run).
    pub content_error: Option<ContentError>,
}

impl Request {
    pub fn msg_type(&self) -> &str {
        &self.msg.header.msg_type
    }

    pub fn msg_id(&self) -> &str {
        &self.msg.header.msg_id
    }

    pub fn content(&self) -> &JupyterMessageContent {
        &self.msg.content
    }
}

/// Header fields jupyter-protocol's `Header` requires; a client that leaves one out still
/// gets served (its own header is what the reply echoes anyway).
const HEADER_STRINGS: [&str; 4] = ["msg_id", "username", "session", "version"];

/// Turn a decoded, authenticated message into a typed request. Err only when the header
/// itself cannot be read (then there is nothing to answer to).
pub fn parse(m: Message) -> Result<Request, String> {
    let raw_header = m.header;
    let content_error = m.content_error;
    let msg_type = raw_header["msg_type"].as_str().unwrap_or("").to_string();
    let content = with_defaults(&msg_type, m.content);
    let typed =
        JupyterMessageContent::from_type_and_content(&msg_type, content).unwrap_or_else(|e| {
            crate::protocol::log(format!(
                "{msg_type}: content does not match the protocol ({e}); ignored"
            ));
            JupyterMessageContent::UnknownMessage(UnknownMessage {
                msg_type: msg_type.clone(),
                content: Json::Null,
            })
        });
    let header = typed_header(&raw_header)?;
    // The incoming parent_header is never used and may be anything a client chose, so the
    // typed message goes without it: a malformed one cannot make the request unreadable.
    let msg = JupyterMessage {
        zmq_identities: m.identities,
        header,
        parent_header: None,
        metadata: m.metadata,
        content: typed,
        buffers: m.buffers,
        channel: None,
    };
    let header_json =
        Bytes::from(serde_json::to_vec(&raw_header).unwrap_or_else(|_| b"{}".to_vec()));
    Ok(Request {
        msg: Arc::new(msg),
        raw_header: Arc::new(raw_header),
        header_json,
        content_error,
    })
}

/// The header as jupyter-protocol's `Header`, read in place when it is complete (the
/// usual case) and from a copy with [`HEADER_STRINGS`] filled in when it is not.
fn typed_header(raw: &Json) -> Result<Header, String> {
    if let Ok(h) = Header::deserialize(raw) {
        return Ok(h);
    }
    let mut header = raw.clone();
    if let Some(h) = header.as_object_mut() {
        for k in HEADER_STRINGS {
            if !h.get(k).is_some_and(Json::is_string) {
                h.insert(k.into(), json!(""));
            }
        }
    }
    serde_json::from_value(header).map_err(|e| format!("unreadable header: {e}"))
}

fn set_default(c: &mut Map<String, Json>, key: &str, v: Json) {
    if c.get(key).is_none_or(Json::is_null) {
        c.insert(key.into(), v);
    }
}

/// Fill the optional fields of a request's content with the protocol's defaults.
pub fn with_defaults(msg_type: &str, content: Json) -> Json {
    let Json::Object(mut c) = content else {
        return content;
    };
    let code_len = c
        .get("code")
        .and_then(Json::as_str)
        .map(|s| s.chars().count());
    match msg_type {
        "execute_request" => {
            set_default(&mut c, "code", json!(""));
            set_default(&mut c, "silent", json!(false));
            let silent = c["silent"].as_bool().unwrap_or(false);
            // The spec: store_history defaults to true and is forced off when silent.
            set_default(&mut c, "store_history", json!(!silent));
            set_default(&mut c, "user_expressions", json!({}));
            // Spec defaults (jupyter-protocol's own default for allow_stdin is false).
            set_default(&mut c, "allow_stdin", json!(true));
            set_default(&mut c, "stop_on_error", json!(true));
        }
        "complete_request" | "inspect_request" => {
            set_default(&mut c, "code", json!(""));
            // No cursor: the end of the code, where a frontend's cursor usually is.
            set_default(&mut c, "cursor_pos", json!(code_len.unwrap_or(0)));
            if msg_type == "inspect_request" {
                set_default(&mut c, "detail_level", json!(0));
            }
        }
        "is_complete_request" => set_default(&mut c, "code", json!("")),
        "history_request" => {
            set_default(&mut c, "hist_access_type", json!("range"));
            set_default(&mut c, "output", json!(false));
            // ipykernel's do_history defaults to raw input.
            set_default(&mut c, "raw", json!(true));
            match c["hist_access_type"].as_str() {
                Some("tail") => set_default(&mut c, "n", json!(10)),
                Some("search") => {
                    set_default(&mut c, "pattern", json!("*"));
                    set_default(&mut c, "unique", json!(false));
                    // No `n`: every match (IPython's n=None); the typed field is an i32.
                    set_default(&mut c, "n", json!(i32::MAX));
                }
                _ => {
                    set_default(&mut c, "start", json!(0));
                    // No `stop`: to the end of the session.
                    set_default(&mut c, "stop", json!(0));
                }
            }
        }
        "shutdown_request" => set_default(&mut c, "restart", json!(false)),
        "comm_open" => {
            set_default(&mut c, "target_name", json!(""));
            set_default(&mut c, "data", json!({}));
        }
        "comm_msg" | "comm_close" => set_default(&mut c, "data", json!({})),
        "input_reply" => set_default(&mut c, "value", json!("")),
        _ => {}
    }
    Json::Object(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use jupyter_protocol::HistoryRequest;

    fn msg(msg_type: &str, content: Json) -> Message {
        Message {
            identities: vec![Bytes::from_static(b"client")],
            header: json!({"msg_id": "m1", "msg_type": msg_type, "session": "s",
                           "username": "u", "version": "5.3", "date": "2026-01-01T00:00:00.5Z",
                           "subshell_id": null}),
            parent_header: json!("not a header"),
            metadata: json!({}),
            content,
            buffers: vec![],
            content_error: None,
        }
    }

    #[test]
    fn sparse_requests_parse_with_the_spec_defaults() {
        let r = parse(msg("execute_request", json!({"code": "1+1"}))).unwrap();
        let JupyterMessageContent::ExecuteRequest(e) = r.content() else {
            panic!("{:?}", r.content())
        };
        assert!(!e.silent && e.store_history && e.allow_stdin && e.stop_on_error);
        let r = parse(msg("execute_request", json!({"code": "", "silent": true}))).unwrap();
        let JupyterMessageContent::ExecuteRequest(e) = r.content() else {
            panic!()
        };
        assert!(e.silent && !e.store_history);
        let r = parse(msg(
            "history_request",
            json!({"hist_access_type": "search", "pattern": "a*"}),
        ))
        .unwrap();
        let JupyterMessageContent::HistoryRequest(HistoryRequest::Search { n, unique, .. }) =
            r.content()
        else {
            panic!("{:?}", r.content())
        };
        assert_eq!((*n, *unique), (i32::MAX, false));
        assert_eq!(r.msg.zmq_identities, vec![Bytes::from_static(b"client")]);
        // The header is kept as sent, extra fields and all.
        assert!(r.raw_header.get("subshell_id").is_some());
        assert_eq!(r.msg_id(), "m1");
    }

    #[test]
    fn ill_typed_content_becomes_an_unknown_message() {
        let r = parse(msg("execute_request", json!({"code": 5}))).unwrap();
        assert!(matches!(
            r.content(),
            JupyterMessageContent::UnknownMessage(_)
        ));
        assert_eq!(r.msg_type(), "execute_request");
        let r = parse(msg("frobnicate_request", json!({"x": 1}))).unwrap();
        assert!(matches!(
            r.content(),
            JupyterMessageContent::UnknownMessage(_)
        ));
    }

    #[test]
    fn a_header_with_only_a_type_is_still_served() {
        let mut m = msg("kernel_info_request", json!({}));
        m.header = json!({"msg_type": "kernel_info_request"});
        let r = parse(m).unwrap();
        assert!(matches!(
            r.content(),
            JupyterMessageContent::KernelInfoRequest(_)
        ));
    }
}
