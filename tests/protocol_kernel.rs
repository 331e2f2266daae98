//! The kernel binary over ZeroMQ: status and ordering, replies' shapes, stdin, history,
//! stop_on_error, control while a cell runs, interrupts that keep state, shutdown, and
//! both transports.

mod protocol_support;

use std::time::{Duration, Instant};

use protocol_support::*;
use serde_json::json;

const T: Duration = Duration::from_secs(30);

fn types(msgs: &[Msg]) -> Vec<String> {
    msgs.iter().map(|m| m.msg_type().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kernel_info_is_wrapped_in_busy_idle() {
    let mut k = Kernel::start().await;
    let id = k.send_shell("kernel_info_request", json!({})).await;
    let reply = k.shell_reply(T).await;
    assert_eq!(reply.msg_type(), "kernel_info_reply");
    assert_eq!(reply.parent_id(), id);
    let c = &reply.content;
    assert_eq!(c["status"], "ok");
    assert_eq!(c["implementation"], "nbcuda");
    assert_eq!(c["language_info"]["name"], "python");
    assert_eq!(c["language_info"]["file_extension"], ".py");
    assert_eq!(c["language_info"]["pygments_lexer"], "ipython3");
    assert_eq!(c["language_info"]["codemirror_mode"]["name"], "ipython");
    assert!(c["banner"].as_str().is_some_and(|b| !b.is_empty()));
    assert!(c["protocol_version"].as_str().unwrap().starts_with("5."));
    let links = c["help_links"].as_array().expect("help_links is a list");
    assert!(!links.is_empty());
    for l in links {
        assert!(l["text"].as_str().is_some_and(|t| !t.is_empty()), "{l}");
        assert!(
            l["url"].as_str().is_some_and(|u| u.starts_with("https://")),
            "{l}"
        );
    }
    let io = k.iopub_until_idle(&id, T).await;
    let mine: Vec<_> = io.iter().filter(|m| m.parent_id() == id).collect();
    assert_eq!(mine.len(), 2, "{io:?}");
    assert_eq!(mine[0].content["execution_state"], "busy");
    assert_eq!(mine[1].content["execution_state"], "idle");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn execute_publishes_in_order_and_replies() {
    let mut k = Kernel::start().await;
    let (reply, io) = k.execute("print('hello, world')\n1 + 1").await;
    assert_eq!(
        types(&io),
        [
            "status",
            "execute_input",
            "stream",
            "execute_result",
            "status"
        ]
    );
    assert_eq!(io[0].content["execution_state"], "busy");
    assert_eq!(io[1].content["code"], "print('hello, world')\n1 + 1");
    assert_eq!(io[1].content["execution_count"], 1);
    assert_eq!(
        io[2].content,
        json!({"name": "stdout", "text": "hello, world\n"})
    );
    assert_eq!(io[3].content["data"]["text/plain"], "2");
    assert_eq!(io[3].content["execution_count"], 1);
    assert_eq!(io[3].content["transient"], json!({}));
    assert_eq!(reply.content["status"], "ok");
    assert_eq!(reply.content["execution_count"], 1);
    assert_eq!(reply.content["user_expressions"], json!({}));
    assert_eq!(reply.content["payload"], json!([]));

    let (reply, io) = k.execute("import sys; print('x', file=sys.stderr)").await;
    assert_eq!(reply.content["execution_count"], 2);
    assert!(
        io.iter()
            .any(|m| m.msg_type() == "stream"
                && m.content == json!({"name": "stderr", "text": "x\n"}))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_go_to_iopub_and_reply_with_traceback() {
    let mut k = Kernel::start().await;
    let (reply, io) = k.execute("raise ValueError('boom')").await;
    assert_eq!(reply.content["status"], "error");
    assert_eq!(reply.content["ename"], "ValueError");
    assert_eq!(reply.content["evalue"], "boom");
    assert!(reply.content["traceback"]
        .as_array()
        .is_some_and(|t| !t.is_empty()));
    let errs: Vec<_> = io.iter().filter(|m| m.msg_type() == "error").collect();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].content["ename"], "ValueError");
    assert!(errs[0].content["traceback"].is_array());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_and_store_history_and_user_expressions() {
    let mut k = Kernel::start().await;
    let id = k
        .send_shell(
            "execute_request",
            json!({"code": "y = 3\nprint('quiet')\ny", "silent": true, "store_history": true,
                   "user_expressions": {}, "allow_stdin": false}),
        )
        .await;
    let reply = k.shell_reply(T).await;
    assert_eq!(reply.content["status"], "ok");
    assert_eq!(reply.content["execution_count"], 0);
    let io: Vec<_> = k
        .iopub_until_idle(&id, T)
        .await
        .into_iter()
        .filter(|m| m.parent_id() == id)
        .collect();
    assert_eq!(types(&io), ["status", "status"], "silent publishes nothing");

    k.send_shell(
        "execute_request",
        json!({"code": "z = y * 2", "silent": false, "store_history": true,
               "user_expressions": {"double": "z", "bad": "nope"}, "allow_stdin": false}),
    )
    .await;
    let reply = k.shell_reply(T).await;
    let ue = &reply.content["user_expressions"];
    assert_eq!(ue["double"]["status"], "ok");
    assert_eq!(ue["double"]["data"]["text/plain"], "6");
    assert_eq!(ue["bad"]["status"], "error");
    assert_eq!(ue["bad"]["ename"], "NameError");
    k.drain_iopub().await;

    // History holds the stored cell only, with its line number.
    let id = k
        .send_shell(
            "history_request",
            json!({"output": false, "raw": true, "hist_access_type": "tail", "n": 10}),
        )
        .await;
    let reply = k.shell_reply(T).await;
    assert_eq!(reply.parent_id(), id);
    assert_eq!(reply.content["history"], json!([[1, 1, "z = y * 2"]]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_on_error_aborts_queued_cells() {
    let mut k = Kernel::start().await;
    let a = k
        .execute_msg("import time; time.sleep(0.5); raise ValueError('first')")
        .await;
    let b = k.execute_msg("print('second')").await;
    let mut replies = vec![];
    for _ in 0..2 {
        replies.push(k.shell_reply(T).await);
    }
    assert_eq!(replies[0].parent_id(), a);
    assert_eq!(replies[0].content["ename"], "ValueError");
    assert_eq!(replies[1].parent_id(), b);
    // Exactly ipykernel's abort reply.
    assert_eq!(replies[1].content, json!({"status": "aborted"}));
    let io = k.iopub_until_idle(&b, T).await;
    assert!(!stdout_of(&io).contains("second"));
    // The kernel goes on normally afterwards.
    let (reply, io) = k.execute("print('third')").await;
    assert_eq!(reply.content["status"], "ok");
    assert_eq!(stdout_of(&io), "third\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_asks_the_client_over_stdin() {
    let mut k = Kernel::start().await;
    let id = k
        .send_shell(
            "execute_request",
            json!({"code": "name = input('name? ')\nprint('hi', name)", "silent": false,
                   "store_history": true, "user_expressions": {}, "allow_stdin": true}),
        )
        .await;
    let req = recv_timeout(&mut k.stdin, T).await.expect("input_request");
    assert_eq!(req.msg_type(), "input_request");
    assert_eq!(req.parent_id(), id);
    assert_eq!(req.content["prompt"], "name? ");
    assert_eq!(req.content["password"], false);
    k.send_stdin("input_reply", json!({"value": "Ada", "status": "ok"}))
        .await;
    let reply = k.shell_reply(T).await;
    assert_eq!(reply.content["status"], "ok");
    let io = k.iopub_until_idle(&id, T).await;
    assert!(stdout_of(&io).contains("hi Ada"), "{io:?}");

    // Without allow_stdin, input() fails at once instead of hanging.
    let (reply, _) = k.execute("input('never? ')").await;
    assert_eq!(reply.content["status"], "error");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn complete_inspect_is_complete_comm_info() {
    let mut k = Kernel::start().await;
    k.send_shell("complete_request", json!({"code": "pri", "cursor_pos": 3}))
        .await;
    let r = k.shell_reply(T).await;
    assert_eq!(r.msg_type(), "complete_reply");
    assert!(r.content["matches"]
        .as_array()
        .unwrap()
        .contains(&json!("print")));
    assert_eq!(r.content["cursor_start"], 0);
    assert_eq!(r.content["cursor_end"], 3);
    assert!(r.content["metadata"].is_object());

    k.send_shell(
        "inspect_request",
        json!({"code": "len", "cursor_pos": 3, "detail_level": 0}),
    )
    .await;
    let r = k.shell_reply(T).await;
    assert_eq!(r.content["found"], true);
    assert!(r.content["data"]["text/plain"]
        .as_str()
        .unwrap()
        .contains("len"));

    for (code, status) in [
        ("x = 1", "complete"),
        ("def f():", "incomplete"),
        (")", "invalid"),
    ] {
        k.send_shell("is_complete_request", json!({ "code": code }))
            .await;
        let r = k.shell_reply(T).await;
        assert_eq!(r.content["status"], status, "{code}");
    }

    k.send_shell("comm_info_request", json!({})).await;
    let r = k.shell_reply(T).await;
    assert_eq!(r.content, json!({"status": "ok", "comms": {}}));

    let (reply, _) = k.execute("len?").await;
    let p = &reply.content["payload"];
    assert_eq!(p.as_array().unwrap().len(), 1);
    assert_eq!(p[0]["source"], "page");
}

/// `obj??` pages the source of a function defined in the session; `obj?` only its
/// signature, as IPython does; inspect_request at detail_level 1 matches `??`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn double_question_mark_pages_the_source() {
    let mut k = Kernel::start().await;
    k.execute("def bump(a):\n    '''Add one.'''\n    return a + 1")
        .await;
    let page = |reply: &Msg| {
        let p = reply.content["payload"]
            .as_array()
            .expect("payload")
            .clone();
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0]["source"], "page");
        p[0]["data"]["text/plain"].as_str().unwrap().to_string()
    };
    let (reply, io) = k.execute("bump??").await;
    assert_eq!(reply.content["status"], "ok");
    assert!(!io.iter().any(|m| m.msg_type() == "execute_result"));
    let text = page(&reply);
    assert!(text.contains("Signature: bump(a)"), "{text}");
    assert!(text.contains("return a + 1"), "{text}");
    let (reply, _) = k.execute("bump?").await;
    let text = page(&reply);
    assert!(text.contains("Add one."), "{text}");
    assert!(!text.contains("return a + 1"), "{text}");
    k.send_shell(
        "inspect_request",
        json!({"code": "bump", "cursor_pos": 4, "detail_level": 1}),
    )
    .await;
    let r = k.shell_reply(T).await;
    assert_eq!(r.content["found"], true);
    let text = r.content["data"]["text/plain"].as_str().unwrap();
    assert!(text.contains("return a + 1"), "{text}");
    let (reply, _) = k.execute("no_such_name??").await;
    assert!(page(&reply).contains("not found"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn control_and_heartbeat_answer_while_a_cell_runs_and_interrupt_keeps_state() {
    let mut k = Kernel::start().await;
    k.execute("x = 5").await;
    let id = k.execute_msg("import time; time.sleep(10)").await;
    // Wait until the cell is running (its execute_input is out).
    let deadline = Instant::now() + T;
    loop {
        let m = recv_timeout(&mut k.iopub, Duration::from_secs(1)).await;
        if m.is_some_and(|m| m.parent_id() == id && m.msg_type() == "execute_input") {
            break;
        }
        assert!(Instant::now() < deadline, "cell never started");
    }
    let started = Instant::now();
    // The heartbeat answers long before the 10 s cell could finish: every ping within a
    // second, and the best of five within the 50 ms the issue asks for (the best, so a
    // busy shared test machine's scheduling hiccup cannot fail it).
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let rtt = k.ping().await.expect("heartbeat answered");
        assert!(rtt < Duration::from_secs(1), "heartbeat took {rtt:?}");
        best = best.min(rtt);
    }
    assert!(best < Duration::from_millis(50), "heartbeat took {best:?}");
    // So does control.
    let ki = k.send_control("kernel_info_request", json!({})).await;
    let r = recv_timeout(&mut k.control, Duration::from_secs(2))
        .await
        .expect("control kernel_info while busy");
    assert_eq!(r.parent_id(), ki);
    assert_eq!(r.content["language_info"]["name"], "python");

    k.send_control("interrupt_request", json!({})).await;
    let r = recv_timeout(&mut k.control, Duration::from_secs(2))
        .await
        .expect("interrupt_reply");
    assert_eq!(r.msg_type(), "interrupt_reply");
    assert_eq!(r.content["status"], "ok");
    let reply = k.shell_reply(T).await;
    assert_eq!(reply.parent_id(), id);
    assert_eq!(reply.content["ename"], "KeyboardInterrupt");
    assert!(
        started.elapsed() < Duration::from_secs(9),
        "the sleep was not interrupted"
    );
    k.iopub_until_idle(&id, T).await;
    let (reply, io) = k.execute("x").await;
    assert_eq!(reply.content["status"], "ok");
    let res = io
        .iter()
        .find(|m| m.msg_type() == "execute_result")
        .unwrap();
    assert_eq!(res.content["data"]["text/plain"], "5");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigint_interrupts_the_cell_and_never_kills_the_kernel() {
    let mut k = Kernel::start().await;
    let pid = k.child.id().to_string();
    // Between cells, SIGINT is harmless.
    assert!(std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    std::thread::sleep(Duration::from_millis(200));
    assert!(k.alive());
    k.execute("x = 7").await;
    let id = k.execute_msg("import time; time.sleep(10)").await;
    let deadline = Instant::now() + T;
    loop {
        let m = recv_timeout(&mut k.iopub, Duration::from_secs(1)).await;
        if m.is_some_and(|m| m.parent_id() == id && m.msg_type() == "execute_input") {
            break;
        }
        assert!(Instant::now() < deadline, "cell never started");
    }
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    let reply = k.shell_reply(T).await;
    assert_eq!(reply.content["ename"], "KeyboardInterrupt");
    assert!(started.elapsed() < Duration::from_secs(9));
    k.iopub_until_idle(&id, T).await;
    assert!(k.alive());
    let (_, io) = k.execute("print(x)").await;
    assert_eq!(stdout_of(&io), "7\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_on_control_replies_and_exits() {
    let mut k = Kernel::start().await;
    let id = k
        .send_control("shutdown_request", json!({"restart": false}))
        .await;
    let r = recv_timeout(&mut k.control, T)
        .await
        .expect("shutdown_reply");
    assert_eq!(r.msg_type(), "shutdown_reply");
    assert_eq!(r.parent_id(), id);
    assert_eq!(r.content, json!({"status": "ok", "restart": false}));
    assert_eq!(k.wait_exit(Duration::from_secs(5)), Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ipc_transport_works() {
    let mut k = Kernel::start_with(Options {
        transport: "ipc",
        ..Options::default()
    })
    .await;
    let (reply, io) = k.execute("print('over ipc')").await;
    assert_eq!(reply.content["status"], "ok");
    assert_eq!(stdout_of(&io), "over ipc\n");
}

#[test]
fn refuses_other_signature_schemes() {
    let (mut child, dir, _, log) = spawn(&Options {
        scheme: "hmac-md5",
        ..Options::default()
    });
    let status = child.wait().unwrap();
    assert!(!status.success());
    let err = std::fs::read_to_string(log).unwrap();
    assert!(err.contains("signature_scheme"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn printing_in_a_loop_is_merged_into_few_stream_messages() {
    let mut k = Kernel::start().await;
    let (reply, io) = k
        .execute("import sys\nfor i in range(2000):\n    print(i)\nprint('err', file=sys.stderr)\nprint('end')")
        .await;
    assert_eq!(reply.content["status"], "ok");
    let expected: String = (0..2000).map(|i| format!("{i}\n")).collect::<String>() + "end\n";
    assert_eq!(stdout_of(&io), expected);
    let streams: Vec<_> = io.iter().filter(|m| m.msg_type() == "stream").collect();
    assert!(streams.len() < 100, "{} stream messages", streams.len());
    // Order across streams is kept: stderr comes after all the numbers, before "end".
    let pos = |pred: &dyn Fn(&&Msg) -> bool| streams.iter().position(pred).unwrap();
    let err = pos(&|m| m.content["name"] == "stderr");
    let end = pos(&|m| m.content["text"].as_str().unwrap().contains("end"));
    let last_num = streams
        .iter()
        .rposition(|m| m.content["text"].as_str().unwrap().contains("1999\n"))
        .unwrap();
    assert!(last_num < err && err < end);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn comm_open_to_an_unknown_target_is_closed_politely() {
    let mut k = Kernel::start().await;
    let id = k
        .send_shell(
            "comm_open",
            json!({"comm_id": "c-1", "target_name": "jupyter.widget", "data": {}}),
        )
        .await;
    let io = k.iopub_until_idle(&id, T).await;
    let close: Vec<_> = io.iter().filter(|m| m.msg_type() == "comm_close").collect();
    assert_eq!(close.len(), 1, "{io:?}");
    assert_eq!(close[0].content["comm_id"], "c-1");
    assert_eq!(close[0].parent_id(), id);
    // comm_msg/comm_close from the frontend need no answer; the kernel carries on.
    let id = k
        .send_shell("comm_close", json!({"comm_id": "c-1", "data": {}}))
        .await;
    k.iopub_until_idle(&id, T).await;
    let (reply, _) = k.execute("1").await;
    assert_eq!(reply.content["status"], "ok");
}

/// Running (not exited, not a zombie waiting to be reaped).
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map(|s| {
            !s.lines()
                .any(|l| l.starts_with("State:") && l.contains('Z'))
        })
        .unwrap_or(false)
}

/// Start a kernel under a short-lived shell that plays the Jupyter server, after `setup`,
/// with the kernel's stderr redirected by `stderr`, and report whether it outlived its
/// parent.
fn outlives_its_parent(setup: &str, stderr: &str) -> bool {
    let (mut probe, dir, _, _) = spawn(&Options::default());
    // Reuse the connection file of a throwaway kernel.
    let _ = probe.kill();
    let _ = probe.wait();
    let cf = dir.join("kernel.json");
    let script = format!(
        "{setup} JPY_PARENT_PID=$$ \"$0\" kernel -f \"$1\" >/dev/null {stderr} & echo $!; sleep 1"
    );
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            &script,
            env!("CARGO_BIN_EXE_nbcuda"),
            cf.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let pid = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(!pid.is_empty());
    let deadline = Instant::now() + Duration::from_secs(15);
    while running(&pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    let alive = running(&pid);
    if alive {
        let _ = std::process::Command::new("kill").arg(&pid).status();
    }
    let _ = std::fs::remove_dir_all(dir);
    alive
}

#[test]
fn exits_when_the_jupyter_parent_dies() {
    assert!(
        !outlives_its_parent("", "2>/dev/null"),
        "the orphaned kernel kept running"
    );
}

#[test]
fn exits_when_the_jupyter_parent_dies_after_its_terminal_closed_stderr() {
    // `jupyter console` in a terminal that was closed: stderr is a pipe nobody reads any
    // more (EPIPE), and writing the exit line there must not stop the kernel from exiting.
    let fifo = std::env::temp_dir().join(format!("nbcuda-stderr-{}", uuid::Uuid::new_v4()));
    let setup = format!("mkfifo {f}; (exec 0<{f}; sleep 0.3) & ", f = fifo.display());
    let alive = outlives_its_parent(&setup, &format!("2>{}", fifo.display()));
    let _ = std::fs::remove_file(&fifo);
    assert!(!alive, "the orphaned kernel kept running");
}

/// In an interactive frontend a cell still running after 2 s gets a progress display,
/// updated in place and closed with the total before the reply; a quick cell gets none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_cells_show_a_progress_display_updated_in_place() {
    let mut k = Kernel::start().await;
    let (_, io) = k.execute_interactive("x = 1").await;
    assert!(
        !types(&io).iter().any(|t| t.contains("display")),
        "{:?}",
        types(&io)
    );
    let (reply, io) = k.execute_interactive("import time; time.sleep(3.2)").await;
    assert_eq!(reply.content["status"], "ok");
    let shown: Vec<&Msg> = io
        .iter()
        .filter(|m| m.msg_type() == "display_data")
        .collect();
    assert_eq!(shown.len(), 1, "{:?}", types(&io));
    let id = shown[0].content["transient"]["display_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(shown[0].content["data"]["text/plain"]
        .as_str()
        .unwrap()
        .contains("running for"));
    let updates: Vec<&Msg> = io
        .iter()
        .filter(|m| m.msg_type() == "update_display_data")
        .collect();
    assert!(!updates.is_empty(), "{:?}", types(&io));
    assert!(updates
        .iter()
        .all(|m| m.content["transient"]["display_id"] == id.as_str()));
    let last = updates.last().unwrap().content["data"]["text/plain"]
        .as_str()
        .unwrap();
    // The total covers the whole sleep; a loaded machine may take longer, never less.
    let secs: f64 = last
        .split("finished in ")
        .nth(1)
        .and_then(|t| t.strip_suffix(" s"))
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no total in {last}"));
    assert!(secs >= 3.2, "{last}");
    // The final update precedes the reply's idle: it is the last display message.
    let pos_last_update = io
        .iter()
        .rposition(|m| m.msg_type() == "update_display_data")
        .unwrap();
    let pos_idle = io.iter().rposition(|m| m.msg_type() == "status").unwrap();
    assert!(pos_last_update < pos_idle);
}

/// A client that cannot take input (nbclient, so nbconvert and papermill) is a headless
/// executor whose every display lands in the saved notebook: a long cell sends it exactly
/// what ipykernel would, and no progress display.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headless_clients_get_no_progress_display_on_long_cells() {
    let mut k = Kernel::start().await;
    let (reply, io) = k
        .execute("import time; time.sleep(2.6); print('done')")
        .await;
    assert_eq!(reply.content["status"], "ok");
    assert_eq!(
        types(&io),
        ["status", "execute_input", "stream", "status"],
        "{io:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_timeit_shows_which_run_it_is_on() {
    let mut k = Kernel::start().await;
    k.execute("import time").await;
    let (reply, io) = k
        .execute_interactive("%timeit -n 1 -r 5 time.sleep(0.7)")
        .await;
    assert_eq!(reply.content["status"], "ok");
    let notes: Vec<String> = io
        .iter()
        .filter(|m| m.msg_type().contains("display_data"))
        .filter_map(|m| m.content["data"]["text/plain"].as_str().map(String::from))
        .collect();
    assert!(
        notes
            .iter()
            .any(|t| t.contains("%timeit: run ") && t.contains(" of 5 (1 loop each)")),
        "{notes:?}"
    );
    // The final update says the cell finished, with no stale run note.
    let last = notes.last().unwrap();
    assert!(
        last.contains("finished in") && !last.contains("%timeit"),
        "{last}"
    );
}
