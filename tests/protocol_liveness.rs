//! The kernel stays responsive under load: control answers while a CPU-bound Python loop
//! runs, interrupting that loop keeps the session, and a valid 100 MB execute_request is
//! run like any other.

mod protocol_support;

use std::time::{Duration, Instant};

use protocol_support::*;
use serde_json::json;

const T: Duration = Duration::from_secs(30);

/// Wait until `id`'s execute_input is on IOPub: the cell is running.
async fn wait_started(k: &mut Kernel, id: &str) {
    let deadline = Instant::now() + T;
    loop {
        let m = recv_timeout(&mut k.iopub, Duration::from_secs(1)).await;
        if m.is_some_and(|m| m.parent_id() == id && m.msg_type() == "execute_input") {
            return;
        }
        assert!(Instant::now() < deadline, "cell never started");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn control_answers_during_a_cpu_bound_loop_and_interrupt_keeps_state() {
    let mut k = Kernel::start().await;
    k.execute("x = 5").await;
    // Pure interpreter work, never sleeping: nothing yields but the safe points.
    let id = k.execute_msg("n = 0\nwhile True:\n    n = n + 1").await;
    wait_started(&mut k, &id).await;
    // Every control round trip well within a second, and the best of five within the
    // 50 ms the issue asks for (the best, so one scheduling hiccup on a shared machine
    // cannot fail it).
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let ki = k.send_control("kernel_info_request", json!({})).await;
        let r = recv_timeout(&mut k.control, Duration::from_secs(2))
            .await
            .expect("control kernel_info while the loop runs");
        let rtt = t.elapsed();
        assert_eq!(r.parent_id(), ki);
        assert_eq!(r.msg_type(), "kernel_info_reply");
        assert!(rtt < Duration::from_secs(1), "control took {rtt:?}");
        best = best.min(rtt);
    }
    assert!(best < Duration::from_millis(50), "control took {best:?}");
    assert!(k.ping().await.is_some(), "heartbeat answers too");

    k.send_control("interrupt_request", json!({})).await;
    let r = recv_timeout(&mut k.control, Duration::from_secs(2))
        .await
        .expect("interrupt_reply");
    assert_eq!(r.msg_type(), "interrupt_reply");
    let reply = k.shell_reply(T).await;
    assert_eq!(reply.parent_id(), id);
    assert_eq!(reply.content["status"], "error");
    assert_eq!(reply.content["ename"], "KeyboardInterrupt");
    k.iopub_until_idle(&id, T).await;
    // Variables from before survive, and so does what the loop had done when stopped.
    let (reply, io) = k.execute("print(x, n > 1000)").await;
    assert_eq!(reply.content["status"], "ok");
    assert_eq!(stdout_of(&io), "5 True\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_valid_hundred_megabyte_execute_request_runs() {
    let mut k = Kernel::start().await;
    let mut code = String::with_capacity((100 << 20) + 64);
    code.push_str("# ");
    code.push_str(&"x".repeat(100 << 20));
    code.push_str("\nprint('after the comment')");
    let id = k.execute_msg(&code).await;
    drop(code);
    let reply = k.shell_reply(Duration::from_secs(120)).await;
    assert_eq!(reply.parent_id(), id);
    assert_eq!(reply.content["status"], "ok", "{:?}", reply.content);
    let io = k.iopub_until_idle(&id, Duration::from_secs(120)).await;
    let mine: Vec<Msg> = io.into_iter().filter(|m| m.parent_id() == id).collect();
    assert_eq!(stdout_of(&mine), "after the comment\n");
    // And the kernel keeps serving.
    let (reply, io) = k.execute("print(6 * 7)").await;
    assert_eq!(reply.content["status"], "ok");
    assert_eq!(stdout_of(&io), "42\n");
    assert!(k.alive());
}
