//! Hostile and broken input on the wire: forged, unsigned and replayed messages are logged
//! and dropped (never executed); garbage frames, bad JSON, unknown types and a 100 MB
//! message are logged and the kernel keeps answering.

mod protocol_support;

use std::time::Duration;

use bytes::Bytes;
use protocol_support::*;
use serde_json::json;
use zeromq::SocketSend;

const T: Duration = Duration::from_secs(30);

fn exec_content(code: &str) -> serde_json::Value {
    json!({"code": code, "silent": false, "store_history": true,
           "user_expressions": {}, "allow_stdin": false, "stop_on_error": true})
}

/// Run a valid cell and return everything IOPub carried until its idle (including
/// messages for other parents, which must not exist for dropped requests).
async fn probe(k: &mut Kernel, code: &str) -> Vec<Msg> {
    let id = k.execute_msg(code).await;
    let reply = k.shell_reply(T).await;
    assert_eq!(
        reply.parent_id(),
        id,
        "the next reply belongs to the valid request"
    );
    assert_eq!(reply.content["status"], "ok");
    k.iopub_until_idle(&id, T).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_signature_is_never_executed() {
    let mut k = Kernel::start().await;
    let h = header(&k.session, "execute_request");
    let wrong = "0".repeat(64);
    k.send_raw_shell(frames(&h, &exec_content("print(\"forged\")"), Some(&wrong)))
        .await;
    let h = header(&k.session, "execute_request");
    k.send_raw_shell(frames(&h, &exec_content("print(\"unsigned\")"), Some("")))
        .await;
    let h = header(&k.session, "execute_request");
    k.send_raw_shell(frames(&h, &exec_content("print(\"nothex\")"), Some("xyz")))
        .await;
    let io = probe(&mut k, "print('valid')").await;
    let all = stdout_of(&io);
    assert_eq!(all, "valid\n");
    assert!(io.iter().all(|m| m.content["code"]
        .as_str()
        .is_none_or(|c| !c.contains("forged"))));
    let log = k.stderr();
    assert!(log.contains("invalid signature"), "{log}");
    assert!(log.contains("unsigned message"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replayed_message_is_dropped() {
    let mut k = Kernel::start().await;
    let h = header(&k.session, "execute_request");
    let f = frames(&h, &exec_content("print('once')"), None);
    k.send_raw_shell(f.clone()).await;
    let r = k.shell_reply(T).await;
    assert_eq!(r.content["status"], "ok");
    k.iopub_until_idle(h["msg_id"].as_str().unwrap(), T).await;
    k.send_raw_shell(f).await;
    let io = probe(&mut k, "print('after')").await;
    assert_eq!(stdout_of(&io), "after\n", "the replay must not print again");
    assert!(k.stderr().contains("duplicate signature"), "{}", k.stderr());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_frames_and_bad_json_are_survived() {
    let mut k = Kernel::start().await;
    k.send_raw_shell(vec![Bytes::from_static(b"garbage")]).await;
    k.send_raw_shell(vec![Bytes::from_static(b"<IDS|MSG>")])
        .await;
    k.send_raw_shell(vec![
        Bytes::from_static(b"<IDS|MSG>"),
        Bytes::from_static(b"ab"),
    ])
    .await;
    // Correctly signed, but not JSON / not objects / no msg_type.
    for parts in [
        [&b"{nope"[..], b"{}", b"{}", b"{}"],
        [&b"[1, 2]"[..], b"{}", b"{}", b"{}"],
        [&b"{\"msg_id\": \"x\"}"[..], b"{}", b"{}", b"{}"],
        [
            &br#"{"msg_type": "execute_request", "msg_id": "y", "session": "s", "username": "u", "version": "5.3", "date": "2026-01-01T00:00:00Z"}"#[..],
            b"{}",
            b"{}",
            b"\"str\"",
        ],
    ] {
        let sig = sign(&parts);
        let mut f = vec![Bytes::from_static(b"<IDS|MSG>"), Bytes::from(sig)];
        f.extend(parts.iter().map(|p| Bytes::copy_from_slice(p)));
        k.send_raw_shell(f).await;
    }
    // The last one has a readable header, so it is answered (an error), not dropped.
    let r = k.shell_reply(T).await;
    assert_eq!(r.parent_id(), "y");
    assert_eq!(r.content["status"], "error");
    assert_eq!(r.content["ename"], "ValueError");
    // Control gets garbage too.
    k.control
        .socket
        .send(zmsg(vec![
            Bytes::from_static(b"junk"),
            Bytes::from_static(b"more"),
        ]))
        .await
        .unwrap();
    let io = probe(&mut k, "print('still here')").await;
    assert_eq!(stdout_of(&io), "still here\n");
    let log = k.stderr();
    assert!(log.contains("bad JSON"), "{log}");
    assert!(log.contains("delimiter"), "{log}");
    assert!(k.alive());
}

/// A signed execute_request whose content frame is `content` (raw bytes).
async fn send_execute_bytes(k: &mut Kernel, content: &[u8]) -> String {
    let h = header("abuse", "execute_request");
    let hb = serde_json::to_vec(&h).unwrap();
    let parts = [&hb[..], b"{}", b"{}", content];
    let mut f = vec![Bytes::from_static(b"<IDS|MSG>"), Bytes::from(sign(&parts))];
    f.extend(parts.iter().map(|p| Bytes::copy_from_slice(p)));
    k.send_raw_shell(f).await;
    h["msg_id"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_that_is_not_utf8_text_is_answered_with_cpythons_error() {
    // Before, these were dropped with a log line and the client waited forever.
    let mut k = Kernel::start().await;
    for (content, ename, evalue) in [
        (
            &br#"{"code": "x = '\ud800'", "silent": false}"#[..],
            "UnicodeEncodeError",
            "'utf-8' codec can't encode character '\\ud800': surrogates not allowed",
        ),
        (
            &b"{\"code\": \"x = 1 \xff\"}"[..],
            "UnicodeDecodeError",
            "'utf-8' codec can't decode byte 0xff in position 16: invalid start byte",
        ),
    ] {
        let id = send_execute_bytes(&mut k, content).await;
        let r = k.shell_reply(T).await;
        assert_eq!(r.parent_id(), id);
        assert_eq!(r.content["status"], "error");
        assert_eq!(r.content["ename"], ename);
        assert_eq!(r.content["evalue"], evalue);
        let io = k.iopub_until_idle(&id, T).await;
        assert!(io.iter().any(|m| m.msg_type() == "error"
            && m.parent_id() == id
            && m.content["ename"] == ename));
    }
    // A paired surrogate is ordinary text.
    let id = send_execute_bytes(&mut k, br#"{"code": "print('\ud83d\ude00')"}"#).await;
    let r = k.shell_reply(T).await;
    assert_eq!(r.parent_id(), id);
    assert_eq!(r.content["status"], "ok");
    let io = k.iopub_until_idle(&id, T).await;
    assert_eq!(stdout_of(&io), "\u{1F600}\n");
    let io = probe(&mut k, "print('next')").await;
    assert_eq!(stdout_of(&io), "next\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_message_type_gets_busy_idle_and_no_reply() {
    let mut k = Kernel::start().await;
    let id = k.send_shell("frobnicate_request", json!({"x": 1})).await;
    let io = k.iopub_until_idle(&id, T).await;
    let mine: Vec<_> = io.iter().filter(|m| m.parent_id() == id).collect();
    assert_eq!(mine.len(), 2);
    assert_eq!(mine[0].content["execution_state"], "busy");
    let io = probe(&mut k, "print('next')").await;
    assert_eq!(stdout_of(&io), "next\n");
    assert!(k.stderr().contains("frobnicate_request"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundred_megabyte_messages_are_survived() {
    let mut k = Kernel::start().await;
    let blob = "x".repeat(100 << 20);
    // Forged and huge: dropped after the signature check.
    let h = header(&k.session, "execute_request");
    let wrong = "1".repeat(64);
    k.send_raw_shell(frames(&h, &json!({"code": blob}), Some(&wrong)))
        .await;
    // Genuine, huge, of an unknown type: logged and ignored.
    let id = k.send_shell("bulk_request", json!({"blob": blob})).await;
    drop(blob);
    k.iopub_until_idle(&id, Duration::from_secs(120)).await;
    let io = probe(&mut k, "print('ok after 100 MB')").await;
    assert_eq!(stdout_of(&io), "ok after 100 MB\n");
}
