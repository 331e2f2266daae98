//! Every message this kernel sends is built here as jupyter-protocol typed content, made a
//! child of its request with `child_of`, and turned into a wire [`Message`] by
//! [`to_wire`] — the one place where jupyter-protocol's serialisation is corrected for
//! the official validators and where what it cannot express is filled in. Framing,
//! signing and replay protection stay in [`crate::protocol::wire`]: jupyter-zmq-client's connection
//! verifies signatures but keeps no history of them, so it cannot refuse a replay.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use bytes::Bytes;
use jupyter_protocol::{
    ClearOutput, CommClose, CommId, CommInfoReply, CompleteReply, DebugReply, DisplayData,
    ErrorOutput, ExecuteInput, ExecuteReply, ExecuteResult, ExecutionCount, ExecutionState, Header,
    HistoryReply, InputRequest, InspectReply, InterruptReply, IoPubWelcome, IsCompleteReply,
    IsCompleteReplyStatus, JupyterMessage, JupyterMessageContent, Media, Payload, ReplyError,
    ReplyStatus, ShutdownReply, Status, Stdio, StreamContent, Transient, UnknownMessage,
    UpdateDisplayData,
};
use serde_json::{json, Map, Value as Json};

use crate::engine::{Completeness, ErrorInfo};
use crate::protocol::kernel_info::{self, PROTOCOL_VERSION};
use crate::protocol::wire::{Message, Parts};

/// A typed message on its way out, with the content fields jupyter-protocol 2.0.3 cannot
/// hold; [`to_wire`] writes them over the typed serialisation.
pub struct Outgoing {
    pub msg: JupyterMessage,
    pub extra: Map<String, Json>,
}

impl From<JupyterMessage> for Outgoing {
    fn from(msg: JupyterMessage) -> Outgoing {
        Outgoing {
            msg,
            extra: Map::new(),
        }
    }
}

impl Outgoing {
    fn with(mut self, key: &str, v: Json) -> Outgoing {
        self.extra.insert(key.into(), v);
        self
    }
}

/// Fields the spec requires to be objects that jupyter-protocol 2.0.3 writes as `null`
/// when they are `None` (or leaves out); the official validators reject both.
const OBJECT_FIELDS: [&str; 2] = ["user_expressions", "transient"];

/// Messages whose `transient` the validators require even when there is no display id.
const WITH_TRANSIENT: [&str; 3] = ["display_data", "update_display_data", "execute_result"];

/// Typed content as the JSON that goes on the wire, with [`OBJECT_FIELDS`] never null.
pub fn wire_content(c: &JupyterMessageContent) -> Json {
    // Serialising these plain structs cannot fail; an empty object is still valid content.
    let mut v = serde_json::to_value(c).unwrap_or_else(|_| json!({}));
    if let Some(o) = v.as_object_mut() {
        for k in OBJECT_FIELDS {
            if o.get(k).is_some_and(Json::is_null) {
                o.insert(k.into(), json!({}));
            }
        }
        if WITH_TRANSIENT.contains(&c.message_type()) && !o.contains_key("transient") {
            o.insert("transient".into(), json!({}));
        }
    }
    v
}

/// What [`to_wire`] and [`to_parts`] share: everything but the parent header.
struct Pieces {
    identities: Vec<Bytes>,
    header: Header,
    metadata: Json,
    content: Json,
    buffers: Vec<Bytes>,
}

fn pieces(out: Outgoing, session: &str, topic: Option<Bytes>) -> Pieces {
    let Outgoing { msg, extra } = out;
    let mut header = msg.header;
    header.session = session.to_string();
    header.username = "nbcuda".into();
    header.version = PROTOCOL_VERSION.into();
    let mut content = wire_content(&msg.content);
    if let Some(o) = content.as_object_mut() {
        o.extend(extra);
    }
    Pieces {
        identities: match topic {
            Some(t) => vec![t],
            None => msg.zmq_identities,
        },
        header,
        metadata: if msg.metadata.is_object() {
            msg.metadata
        } else {
            json!({})
        },
        content,
        buffers: msg.buffers,
    }
}

/// The one conversion to the wire. `parent` is the request's header exactly as received
/// (jupyter-protocol's `Header` would re-format its date and drop fields it does not know,
/// such as `subshell_id`); `topic` replaces the routing identities on IOPub.
pub fn to_wire(
    out: Outgoing,
    session: &str,
    parent: Option<&Json>,
    topic: Option<Bytes>,
) -> Message {
    let p = pieces(out, session, topic);
    Message {
        identities: p.identities,
        header: serde_json::to_value(&p.header).unwrap_or_else(|_| json!({})),
        parent_header: parent
            .filter(|p| p.is_object())
            .cloned()
            .unwrap_or_else(|| json!({})),
        metadata: p.metadata,
        content: p.content,
        buffers: p.buffers,
        content_error: None,
    }
}

/// [`to_wire`], serialised for signing, with `parent` the request's header as serialised
/// once per request ([`crate::protocol::request::Request::header_json`]).
pub fn to_parts(
    out: Outgoing,
    session: &str,
    parent: Option<&Bytes>,
    topic: Option<Bytes>,
) -> Parts {
    let p = pieces(out, session, topic);
    fn json<T: serde::Serialize>(v: &T) -> Bytes {
        Bytes::from(serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec()))
    }
    Parts {
        identities: p.identities,
        header: json(&p.header),
        parent_header: parent.cloned().unwrap_or_else(|| Bytes::from_static(b"{}")),
        metadata: json(&p.metadata),
        content: json(&p.content),
        buffers: p.buffers,
    }
}

/// Message ids: the text of a version-4 UUID made from a random half drawn once per
/// process and a counter: as unique as jupyter-protocol's, without a system call for
/// randomness per message.
fn new_msg_id() -> String {
    static HIGH: OnceLock<u64> = OnceLock::new();
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let high = *HIGH.get_or_init(|| uuid::Uuid::new_v4().as_u64_pair().0);
    // The version and variant bits overwrite the counter's top two bits, out of reach.
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let bits = (u128::from(high) << 64) | u128::from(n);
    uuid::Builder::from_random_bytes(bits.to_be_bytes())
        .into_uuid()
        .to_string()
}

/// A message from this kernel, child of `parent` if any: jupyter-protocol's
/// `JupyterMessage::new` without what [`to_wire`] replaces (session, user name, version,
/// the parent's header) and with [`new_msg_id`].
fn new_message(
    content: impl Into<JupyterMessageContent>,
    parent: Option<&JupyterMessage>,
) -> JupyterMessage {
    let content = content.into();
    JupyterMessage {
        zmq_identities: parent.map_or_else(Vec::new, |p| p.zmq_identities.clone()),
        header: Header {
            msg_id: new_msg_id(),
            username: String::new(),
            session: String::new(),
            date: chrono::Utc::now(),
            msg_type: content.message_type().to_owned(),
            version: String::new(),
        },
        parent_header: None,
        metadata: json!({}),
        content,
        buffers: Vec::new(),
        channel: None,
    }
}

/// `.child_of(parent)` for the typed contents, in place of jupyter-protocol's
/// `as_child_of` (which also clones the content).
trait ChildOf {
    fn child_of(self, parent: &JupyterMessage) -> JupyterMessage;
}

impl<T: Into<JupyterMessageContent>> ChildOf for T {
    fn child_of(self, parent: &JupyterMessage) -> JupyterMessage {
        new_message(self, Some(parent))
    }
}

/// A MIME bundle as jupyter-protocol's [`Media`], or None when it does not fit its model
/// (the caller then sends the bundle as it is, through [`Outgoing::extra`]).
fn media(data: &Map<String, Json>) -> Option<Media> {
    serde_json::from_value(Json::Object(data.clone())).ok()
}

fn reply_error(e: &ErrorInfo) -> Option<Box<ReplyError>> {
    Some(Box::new(ReplyError {
        ename: e.ename.clone(),
        evalue: e.evalue.clone(),
        traceback: e.traceback.clone(),
    }))
}

fn child(c: impl Into<JupyterMessageContent>, parent: &JupyterMessage) -> Outgoing {
    new_message(c, Some(parent)).into()
}

pub fn status(parent: Option<&JupyterMessage>, state: &str) -> Outgoing {
    let execution_state = match state {
        "busy" => ExecutionState::Busy,
        "idle" => ExecutionState::Idle,
        "starting" => ExecutionState::Starting,
        other => ExecutionState::Other(other.to_string()),
    };
    new_message(Status { execution_state }, parent).into()
}

pub fn iopub_welcome(topic: &str) -> Outgoing {
    new_message(IoPubWelcome::new(topic.to_string()), None).into()
}

pub fn execute_input(parent: &JupyterMessage, code: &str, count: u32) -> Outgoing {
    ExecuteInput {
        code: code.to_string(),
        execution_count: ExecutionCount::new(count as usize),
    }
    .child_of(parent)
    .into()
}

pub fn stream(parent: &JupyterMessage, name: &str, text: String) -> Outgoing {
    let name = if name == "stderr" {
        Stdio::Stderr
    } else {
        Stdio::Stdout
    };
    StreamContent { name, text }.child_of(parent).into()
}

fn transient(display_id: Option<&str>) -> Transient {
    Transient {
        display_id: display_id.map(String::from),
    }
}

/// display_data, or update_display_data when `update` (which needs a display id).
pub fn display(
    parent: &JupyterMessage,
    data: &Map<String, Json>,
    metadata: &Map<String, Json>,
    display_id: Option<&str>,
    update: bool,
) -> Outgoing {
    let typed = media(data);
    let m = typed.clone().unwrap_or_default();
    let out = if update {
        UpdateDisplayData {
            data: m,
            metadata: metadata.clone(),
            transient: transient(display_id),
        }
        .child_of(parent)
    } else {
        DisplayData {
            data: m,
            metadata: metadata.clone(),
            transient: Some(transient(display_id)),
        }
        .child_of(parent)
    };
    let out = Outgoing::from(out);
    match typed {
        Some(_) => out,
        None => out.with("data", Json::Object(data.clone())),
    }
}

pub fn clear_output(parent: &JupyterMessage, wait: bool) -> Outgoing {
    ClearOutput { wait }.child_of(parent).into()
}

pub fn error(parent: &JupyterMessage, e: &ErrorInfo) -> Outgoing {
    ErrorOutput {
        ename: e.ename.clone(),
        evalue: e.evalue.clone(),
        traceback: e.traceback.clone(),
    }
    .child_of(parent)
    .into()
}

pub fn input_request(parent: &JupyterMessage, prompt: &str, password: bool) -> Outgoing {
    InputRequest {
        prompt: prompt.to_string(),
        password,
    }
    .child_of(parent)
    .into()
}

pub fn execute_result(
    parent: &JupyterMessage,
    count: u32,
    data: &Map<String, Json>,
    metadata: &Map<String, Json>,
) -> Outgoing {
    let typed = media(data);
    let out: Outgoing = ExecuteResult {
        execution_count: ExecutionCount::new(count as usize),
        data: typed.clone().unwrap_or_default(),
        metadata: metadata.clone(),
        transient: None,
    }
    .child_of(parent)
    .into();
    match typed {
        Some(_) => out,
        None => out.with("data", Json::Object(data.clone())),
    }
}

/// An execute_reply. `payload` and `user_expressions` come from the interpreter as JSON and
/// are read into jupyter-protocol's [`Payload`] and `ExpressionResult` when they fit; what
/// does not (a payload source it has no variant for) is sent as the interpreter made it.
pub fn execute_reply(
    parent: &JupyterMessage,
    count: u32,
    error: Option<&ErrorInfo>,
    payload: &Json,
    user_expressions: &Json,
) -> Outgoing {
    let typed_payload: Option<Vec<Payload>> = serde_json::from_value(payload.clone()).ok();
    let typed_ue = serde_json::from_value(user_expressions.clone()).ok();
    let reply = ExecuteReply {
        status: if error.is_some() {
            ReplyStatus::Error
        } else {
            ReplyStatus::Ok
        },
        execution_count: ExecutionCount::new(count as usize),
        payload: typed_payload.clone().unwrap_or_default(),
        user_expressions: typed_ue.clone(),
        error: error.and_then(reply_error),
    };
    let mut out = child(reply, parent);
    if typed_payload.is_none() {
        out = out.with("payload", payload.clone());
    }
    if typed_ue.is_none() && user_expressions.is_object() {
        out = out.with("user_expressions", user_expressions.clone());
    }
    out
}

pub fn kernel_info_reply(parent: &JupyterMessage, banner: &str) -> Outgoing {
    // jupyter-protocol 2.0.3 has no `supported_features` (protocol 5.5, JEP 92).
    Outgoing::from(kernel_info::kernel_info(banner).child_of(parent))
        .with("supported_features", json!([]))
}

pub fn complete_reply(
    parent: &JupyterMessage,
    matches: Vec<String>,
    cursor_start: usize,
    cursor_end: usize,
    metadata: Map<String, Json>,
) -> Outgoing {
    CompleteReply {
        matches,
        cursor_start,
        cursor_end,
        metadata,
        status: ReplyStatus::Ok,
        error: None,
    }
    .child_of(parent)
    .into()
}

pub fn inspect_reply(parent: &JupyterMessage, data: Option<&Map<String, Json>>) -> Outgoing {
    let typed = data.map(media);
    let out: Outgoing = InspectReply {
        found: data.is_some(),
        data: typed.clone().flatten().unwrap_or_default(),
        metadata: Map::new(),
        status: ReplyStatus::Ok,
        error: None,
    }
    .child_of(parent)
    .into();
    match (data, typed) {
        (Some(d), Some(None)) => out.with("data", Json::Object(d.clone())),
        _ => out,
    }
}

pub fn is_complete_reply(parent: &JupyterMessage, c: Completeness) -> Outgoing {
    let reply = match c {
        Completeness::Complete => IsCompleteReply::new(IsCompleteReplyStatus::Complete, "".into()),
        Completeness::Incomplete(indent) => IsCompleteReply::incomplete(indent),
        Completeness::Invalid => IsCompleteReply::invalid(),
        Completeness::Unknown => IsCompleteReply::unknown(),
    };
    reply.child_of(parent).into()
}

/// `rows` as History::query makes them. jupyter-protocol's `HistoryEntry` has a string
/// output, but a cell without a result has `null` there (as in IPython), so such a
/// history is sent as it is.
pub fn history_reply(parent: &JupyterMessage, rows: Vec<Json>) -> Outgoing {
    let rows = Json::Array(rows);
    let typed = serde_json::from_value(rows.clone()).ok();
    let out = child(
        HistoryReply {
            history: typed.clone().unwrap_or_default(),
            status: ReplyStatus::Ok,
            error: None,
        },
        parent,
    );
    match typed {
        Some(_) => out,
        None => out.with("history", rows),
    }
}

pub fn comm_info_reply(parent: &JupyterMessage) -> Outgoing {
    CommInfoReply::default().child_of(parent).into()
}

pub fn comm_close(parent: &JupyterMessage, comm_id: CommId) -> Outgoing {
    CommClose {
        comm_id,
        data: Map::new(),
    }
    .child_of(parent)
    .into()
}

pub fn shutdown_reply(parent: &JupyterMessage, restart: bool) -> Outgoing {
    ShutdownReply {
        restart,
        status: ReplyStatus::Ok,
        error: None,
    }
    .child_of(parent)
    .into()
}

pub fn interrupt_reply(parent: &JupyterMessage) -> Outgoing {
    InterruptReply::new().child_of(parent).into()
}

pub fn debug_unsupported(parent: &JupyterMessage) -> Outgoing {
    DebugReply {
        content: json!({"status": "error", "ename": "NotImplementedError",
                        "evalue": "nbcuda has no debugger", "traceback": []}),
    }
    .child_of(parent)
    .into()
}

/// The reply type for a request type (`kernel_info_request` → `kernel_info_reply`).
pub fn reply_type(msg_type: &str) -> String {
    match msg_type.strip_suffix("_request") {
        Some(base) => format!("{base}_reply"),
        None => format!("{msg_type}_reply"),
    }
}

/// ipykernel's reply to a request it aborted (queued behind an error with stop_on_error):
/// the content is exactly `{"status": "aborted"}`.
pub fn aborted_reply(parent: &JupyterMessage) -> Outgoing {
    child(
        UnknownMessage {
            msg_type: reply_type(&parent.header.msg_type),
            content: json!({"status": "aborted"}),
        },
        parent,
    )
}

/// An error reply to any request whose handler failed (a bug caught by catch_unwind).
/// Typed where jupyter-protocol's reply has an error form; is_complete_reply and unknown
/// types have none, so those go out as `UnknownMessage` content.
pub fn error_reply(parent: &JupyterMessage, e: &ErrorInfo) -> Outgoing {
    let error = reply_error(e);
    let status = ReplyStatus::Error;
    match parent.header.msg_type.as_str() {
        "complete_request" => child(
            CompleteReply {
                status,
                error,
                ..Default::default()
            },
            parent,
        ),
        "inspect_request" => child(
            InspectReply {
                status,
                error,
                ..Default::default()
            },
            parent,
        ),
        "history_request" => child(
            HistoryReply {
                status,
                error,
                ..Default::default()
            },
            parent,
        ),
        "comm_info_request" => child(
            CommInfoReply {
                status,
                error,
                ..Default::default()
            },
            parent,
        ),
        "execute_request" => child(
            ExecuteReply {
                status,
                error,
                ..Default::default()
            },
            parent,
        ),
        other => child(
            UnknownMessage {
                msg_type: reply_type(other),
                content: json!({"status": "error", "ename": e.ename, "evalue": e.evalue,
                                "traceback": e.traceback}),
            },
            parent,
        ),
    }
}

#[cfg(test)]
#[path = "typed_tests.rs"]
mod tests;
