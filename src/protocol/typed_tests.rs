use super::*;
use crate::protocol::request;
use crate::protocol::wire::Message as WireMessage;

fn parent(msg_type: &str) -> JupyterMessage {
    let m = WireMessage {
        identities: vec![Bytes::from_static(b"client")],
        header: json!({"msg_id": "p1", "msg_type": msg_type, "session": "client-session",
                       "username": "u", "version": "5.3", "date": "2026-01-01T00:00:00.123456Z"}),
        parent_header: json!({}),
        metadata: json!({}),
        content: json!({}),
        buffers: vec![],
        content_error: None,
    };
    (*request::parse(m).unwrap().msg).clone()
}

fn wire(o: Outgoing) -> WireMessage {
    let raw = json!({"msg_id": "p1", "date": "2026-01-01T00:00:00.123456Z", "x": 1});
    to_wire(o, "kernel-session", Some(&raw), None)
}

#[test]
fn replies_are_children_of_the_request_in_our_session() {
    let p = parent("kernel_info_request");
    let m = wire(kernel_info_reply(&p, "hello"));
    assert_eq!(m.identities, vec![Bytes::from_static(b"client")]);
    assert_eq!(m.header["msg_type"], "kernel_info_reply");
    assert_eq!(m.header["session"], "kernel-session");
    assert_eq!(m.header["version"], PROTOCOL_VERSION);
    // The parent header goes back exactly as the client sent it.
    assert_eq!(m.parent_header["date"], "2026-01-01T00:00:00.123456Z");
    assert_eq!(m.parent_header["x"], 1);
    let c = &m.content;
    assert_eq!(c["status"], "ok");
    assert_eq!(c["banner"], "hello");
    assert_eq!(c["supported_features"], json!([]));
    assert_eq!(
        c["language_info"]["codemirror_mode"],
        json!({"name": "ipython", "version": 3})
    );
    assert_eq!(c["language_info"]["pygments_lexer"], "ipython3");
}

#[test]
fn absent_user_expressions_and_transient_are_empty_objects() {
    // The library's own output, for the record: null.
    let raw = serde_json::to_value(JupyterMessageContent::from(ExecuteReply::default())).unwrap();
    assert!(raw["user_expressions"].is_null());
    let p = parent("execute_request");
    let r = wire(execute_reply(&p, 3, None, &json!([]), &Json::Null)).content;
    assert_eq!(r["user_expressions"], json!({}));
    assert_eq!(r["status"], "ok");
    assert_eq!(r["execution_count"], 3);
    assert_eq!(r["payload"], json!([]));
    let mut data = Map::new();
    data.insert("text/plain".into(), json!("42"));
    let v = wire(execute_result(&p, 3, &data, &Map::new())).content;
    assert_eq!(v["transient"], json!({}));
    assert_eq!(v["data"]["text/plain"], "42");
    let v = wire(display(&p, &data, &Map::new(), None, false)).content;
    assert_eq!(v["transient"], json!({}));
    let v = wire(display(&p, &data, &Map::new(), Some("d1"), true)).content;
    assert_eq!(v["transient"], json!({"display_id": "d1"}));
}

#[test]
fn error_replies_carry_the_error_fields() {
    let e = ErrorInfo {
        ename: "ValueError".into(),
        evalue: "bad".into(),
        traceback: vec!["ValueError: bad".into()],
    };
    let p = parent("execute_request");
    let r = wire(execute_reply(&p, 1, Some(&e), &json!([]), &json!({}))).content;
    assert_eq!(r["status"], "error");
    assert_eq!(r["ename"], "ValueError");
    assert_eq!(r["traceback"], json!(["ValueError: bad"]));
    assert_eq!(r["user_expressions"], json!({}));
    let r = wire(error_reply(&parent("is_complete_request"), &e));
    assert_eq!(r.header["msg_type"], "is_complete_reply");
    assert_eq!(r.content["ename"], "ValueError");
    let r = wire(error_reply(&parent("complete_request"), &e)).content;
    assert_eq!(
        (r["status"].as_str(), r["evalue"].as_str()),
        (Some("error"), Some("bad"))
    );
}

#[test]
fn what_the_types_cannot_hold_is_sent_as_made() {
    let p = parent("execute_request");
    let pages = json!([{"source": "page", "data": {"text/plain": "Docstring"}, "start": 0}]);
    let r = wire(execute_reply(&p, 2, None, &pages, &json!({}))).content;
    assert_eq!(r["payload"], pages);
    let odd = json!([{"source": "something_new", "x": 1}]);
    let r = wire(execute_reply(&p, 2, None, &odd, &json!({}))).content;
    assert_eq!(r["payload"], odd);
    let ue = json!({"a": {"status": "ok", "data": {"text/plain": "1"}, "metadata": {}},
                    "b": {"status": "error", "ename": "NameError", "evalue": "x", "traceback": []}});
    let r = wire(execute_reply(&p, 2, None, &json!([]), &ue)).content;
    assert_eq!(r["user_expressions"], ue);
    let h = parent("history_request");
    let rows = vec![json!([1, 1, ["x = 1", null]]), json!([1, 2, ["1+1", "2"]])];
    let r = wire(history_reply(&h, rows.clone())).content;
    assert_eq!(r["history"], Json::Array(rows));
    assert_eq!(r["status"], "ok");
}

#[test]
fn iopub_messages_match_the_spec() {
    let p = parent("execute_request");
    let s = to_wire(
        status(Some(&p), "busy"),
        "k",
        None,
        Some(Bytes::from_static(b"t")),
    );
    assert_eq!(s.content, json!({"execution_state": "busy"}));
    assert_eq!(s.identities, vec![Bytes::from_static(b"t")]);
    assert_eq!(s.parent_header, json!({}));
    assert_eq!(
        wire(execute_input(&p, "x = 1", 4)).content,
        json!({"code": "x = 1", "execution_count": 4})
    );
    assert_eq!(
        wire(stream(&p, "stderr", "oops".into())).content,
        json!({"name": "stderr", "text": "oops"})
    );
    assert_eq!(wire(clear_output(&p, true)).content, json!({"wait": true}));
    assert_eq!(wire(iopub_welcome("")).content, json!({"subscription": ""}));
    let c = wire(is_complete_reply(
        &parent("is_complete_request"),
        Completeness::Incomplete("    ".into()),
    ))
    .content;
    assert_eq!(
        (c["status"].as_str(), c["indent"].as_str()),
        (Some("incomplete"), Some("    "))
    );
}
