//! jupyter-protocol's typed message content at the wire boundary.
//!
//! Outgoing status, execute_input, execute_result and execute_reply content is built as
//! jupyter-protocol structs and turned into wire JSON here, in one place, where its
//! serialisation is corrected. Framing, signing and replay protection stay in
//! [`super::wire`]: jupyter-zmq-client's connection verifies signatures but keeps no
//! history of them, so it cannot refuse a replayed message.

use jupyter_protocol::{
    ExecuteInput, ExecuteReply, ExecuteResult, ExecutionCount, ExecutionState,
    JupyterMessageContent, Media, Payload, ReplyError, ReplyStatus, Status,
};
use serde_json::{json, Map, Value as Json};

use crate::engine::ErrorInfo;

/// Fields the spec requires to be objects that jupyter-protocol 2.0.3 writes as `null`
/// when they are `None`; the official validators reject the null.
const OBJECT_FIELDS: [&str; 2] = ["user_expressions", "transient"];

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
    }
    v
}

pub fn status(state: &str) -> JupyterMessageContent {
    let execution_state = match state {
        "busy" => ExecutionState::Busy,
        "idle" => ExecutionState::Idle,
        "starting" => ExecutionState::Starting,
        other => ExecutionState::Other(other.to_string()),
    };
    Status { execution_state }.into()
}

pub fn execute_input(code: &str, count: u32) -> JupyterMessageContent {
    ExecuteInput {
        code: code.to_string(),
        execution_count: ExecutionCount::new(count as usize),
    }
    .into()
}

/// None when the bundle does not fit jupyter-protocol's media model; the caller then sends
/// it as it is.
pub fn execute_result(
    count: u32,
    data: &Map<String, Json>,
    metadata: &Map<String, Json>,
) -> Option<JupyterMessageContent> {
    let data: Media = serde_json::from_value(Json::Object(data.clone())).ok()?;
    Some(
        ExecuteResult {
            execution_count: ExecutionCount::new(count as usize),
            data,
            metadata: metadata.clone(),
            transient: None,
        }
        .into(),
    )
}

/// An execute_reply. `payload` and `user_expressions` come from the interpreter as JSON;
/// the payload is read into jupyter-protocol's [`Payload`] (pages) when it fits, the user expressions
/// are added after serialisation because their error form is ours.
pub fn execute_reply(
    count: u32,
    error: Option<&ErrorInfo>,
    payload: &Json,
    user_expressions: Json,
) -> Json {
    // A payload jupyter-protocol has no variant for is sent as the interpreter made it.
    let typed_payload: Option<Vec<Payload>> = serde_json::from_value(payload.clone()).ok();
    let reply = ExecuteReply {
        status: if error.is_some() {
            ReplyStatus::Error
        } else {
            ReplyStatus::Ok
        },
        execution_count: ExecutionCount::new(count as usize),
        payload: typed_payload.clone().unwrap_or_default(),
        user_expressions: None,
        error: error.map(|e| {
            Box::new(ReplyError {
                ename: e.ename.clone(),
                evalue: e.evalue.clone(),
                traceback: e.traceback.clone(),
            })
        }),
    };
    let mut v = wire_content(&reply.into());
    if typed_payload.is_none() {
        v["payload"] = payload.clone();
    }
    if user_expressions.is_object() {
        v["user_expressions"] = user_expressions;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_user_expressions_and_transient_are_empty_objects() {
        // The library's own output, for the record: null.
        let raw =
            serde_json::to_value(JupyterMessageContent::from(ExecuteReply::default())).unwrap();
        assert!(raw["user_expressions"].is_null());
        let r = execute_reply(3, None, &json!([]), Json::Null);
        assert_eq!(r["user_expressions"], json!({}));
        assert_eq!(r["status"], "ok");
        assert_eq!(r["execution_count"], 3);
        assert_eq!(r["payload"], json!([]));
        let mut data = Map::new();
        data.insert("text/plain".into(), json!("42"));
        let c = execute_result(3, &data, &Map::new()).unwrap();
        let v = wire_content(&c);
        assert_eq!(v["transient"], json!({}));
        assert_eq!(v["data"]["text/plain"], "42");
        assert_eq!(v["execution_count"], 3);
    }

    #[test]
    fn error_replies_carry_the_error_fields() {
        let e = ErrorInfo {
            ename: "ValueError".into(),
            evalue: "bad".into(),
            traceback: vec!["ValueError: bad".into()],
        };
        let r = execute_reply(1, Some(&e), &json!([]), json!({}));
        assert_eq!(r["status"], "error");
        assert_eq!(r["ename"], "ValueError");
        assert_eq!(r["evalue"], "bad");
        assert_eq!(r["traceback"], json!(["ValueError: bad"]));
        assert_eq!(r["user_expressions"], json!({}));
    }

    #[test]
    fn pages_survive_the_typed_payload() {
        let p = json!([{"source": "page", "data": {"text/plain": "Docstring"}, "start": 0}]);
        let r = execute_reply(2, None, &p, json!({}));
        assert_eq!(r["payload"], p);
        let odd = json!([{"source": "something_new", "x": 1}]);
        assert_eq!(execute_reply(2, None, &odd, json!({}))["payload"], odd);
    }

    #[test]
    fn status_and_execute_input_match_the_spec() {
        assert_eq!(
            wire_content(&status("busy")),
            json!({"execution_state": "busy"})
        );
        assert_eq!(
            wire_content(&execute_input("x = 1", 4)),
            json!({"code": "x = 1", "execution_count": 4})
        );
    }
}
