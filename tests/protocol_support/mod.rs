//! The Jupyter client for the protocol tests: starts the real `nbcuda` binary with a
//! connection file on free loopback ports (or ipc paths) and connects with
//! jupyter-zmq-client's client connections. Requests go out as jupyter-protocol typed
//! messages through those connections (their signing, not the kernel's); what the kernel
//! sends is read from the connection's socket as raw frames, verified with this file's own
//! HMAC and kept as JSON, because the tests assert on the wire form the official
//! validators see (`{}` rather than null, fields jupyter-protocol has no place for), which a
//! typed read would reshape. Forged, replayed and broken messages are written to the same
//! sockets by hand.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bytes::Bytes;
use hmac::{Hmac, Mac};
use jupyter_protocol::{ConnectionInfo, JupyterMessage, JupyterMessageContent};
use jupyter_zmq_client::{
    create_client_control_connection, create_client_heartbeat_connection,
    create_client_iopub_connection, create_client_shell_connection_with_identity,
    create_client_stdin_connection_with_identity, peer_identity_for_session,
    ClientControlConnection, ClientHeartbeatConnection, ClientIoPubConnection,
    ClientShellConnection, ClientStdinConnection, Connection,
};
use serde_json::{json, Value as Json};
use sha2::Sha256;
use zeromq::{SocketRecv, SocketSend, ZmqMessage};

pub const KEY: &str = "a0436f6c-1916-498b-8eb9-e81ab9368e84";

pub struct Kernel {
    pub child: Child,
    pub dir: PathBuf,
    pub shell: ClientShellConnection,
    pub control: ClientControlConnection,
    pub stdin: ClientStdinConnection,
    pub iopub: ClientIoPubConnection,
    pub hb: ClientHeartbeatConnection,
    pub session: String,
    stderr_path: PathBuf,
}

fn free_ports(n: usize) -> Vec<u16> {
    let ls: Vec<_> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    ls.iter().map(|l| l.local_addr().unwrap().port()).collect()
}

pub fn sign(parts: &[&[u8]]) -> String {
    let mut m = Hmac::<Sha256>::new_from_slice(KEY.as_bytes()).unwrap();
    for p in parts {
        m.update(p);
    }
    hex::encode(m.finalize().into_bytes())
}

pub fn header(session: &str, msg_type: &str) -> Json {
    json!({
        "msg_id": uuid::Uuid::new_v4().to_string(),
        "session": session,
        "username": "test",
        "date": chrono::Utc::now().to_rfc3339(),
        "msg_type": msg_type,
        "version": "5.3",
    })
}

/// Frames (without identity) for a message; `sig` overrides the real signature.
pub fn frames(header: &Json, content: &Json, sig: Option<&str>) -> Vec<Bytes> {
    let parts: Vec<Vec<u8>> = [header, &json!({}), &json!({}), content]
        .iter()
        .map(|v| serde_json::to_vec(v).unwrap())
        .collect();
    let refs: Vec<&[u8]> = parts.iter().map(|p| p.as_slice()).collect();
    let s = sig.map(str::to_string).unwrap_or_else(|| sign(&refs));
    let mut f = vec![Bytes::from_static(b"<IDS|MSG>"), Bytes::from(s)];
    f.extend(parts.into_iter().map(Bytes::from));
    f
}

pub fn zmsg(f: Vec<Bytes>) -> ZmqMessage {
    ZmqMessage::try_from(f).unwrap()
}

/// A received message: (header, parent_header, content).
#[derive(Debug, Clone)]
pub struct Msg {
    pub header: Json,
    pub parent: Json,
    pub content: Json,
}

impl Msg {
    pub fn msg_type(&self) -> &str {
        self.header["msg_type"].as_str().unwrap_or("")
    }
    pub fn parent_id(&self) -> &str {
        self.parent["msg_id"].as_str().unwrap_or("")
    }
}

/// Parse and verify a message the kernel sent.
pub fn parse(m: ZmqMessage) -> Msg {
    let f = m.into_vec();
    let d = f
        .iter()
        .position(|x| &x[..] == b"<IDS|MSG>")
        .expect("delimiter");
    let parts: Vec<&[u8]> = f[d + 2..d + 6].iter().map(|b| &b[..]).collect();
    assert_eq!(&f[d + 1][..], sign(&parts).as_bytes(), "kernel signature");
    let j = |i: usize| serde_json::from_slice::<Json>(&f[d + 2 + i]).unwrap();
    let m = Msg {
        header: j(0),
        parent: j(1),
        content: j(3),
    };
    // Every message must also read as jupyter-protocol's typed message, as a runtimed
    // client would read it. Exception: a history row without output has `null` there (as
    // IPython sends it), where jupyter-protocol 2.0.3 expects a string.
    let no_output_row = m.msg_type() == "history_reply" && m.content.to_string().contains("null");
    if !no_output_row {
        let whole = json!({"header": m.header, "parent_header": m.parent,
                           "metadata": j(2), "content": m.content});
        if let Err(e) = JupyterMessage::from_value(whole) {
            panic!("{} does not parse as jupyter-protocol: {e}", m.msg_type());
        }
    }
    m
}

/// The next message on a connection's socket, read raw (see the module docs).
pub async fn recv_timeout<S: SocketRecv>(c: &mut Connection<S>, t: Duration) -> Option<Msg> {
    match tokio::time::timeout(t, c.socket.recv()).await {
        Ok(Ok(m)) => Some(parse(m)),
        _ => None,
    }
}

pub struct Options {
    pub transport: &'static str,
    pub scheme: &'static str,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            transport: "tcp",
            scheme: "hmac-sha256",
        }
    }
}

/// Write a connection file and start the kernel binary (without connecting).
pub fn spawn(opts: &Options) -> (Child, PathBuf, Json, PathBuf) {
    let dir = std::env::temp_dir().join(format!("nbcuda-proto-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = free_ports(5);
    let ip = if opts.transport == "ipc" {
        dir.join("k").to_string_lossy().into_owned()
    } else {
        "127.0.0.1".into()
    };
    let info = json!({
        "transport": opts.transport, "ip": ip,
        "shell_port": p[0], "iopub_port": p[1], "stdin_port": p[2],
        "control_port": p[3], "hb_port": p[4],
        "key": KEY, "signature_scheme": opts.scheme, "kernel_name": "nbcuda",
    });
    let cf = dir.join("kernel.json");
    std::fs::write(&cf, info.to_string()).unwrap();
    let stderr_path = dir.join("stderr.log");
    let child = Command::new(env!("CARGO_BIN_EXE_nbcuda"))
        .args(["kernel", "-f"])
        .arg(&cf)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap();
    (child, dir, info, stderr_path)
}

fn endpoint(info: &Json, key: &str) -> String {
    let port = info[key].as_u64().unwrap();
    let ip = info["ip"].as_str().unwrap();
    if info["transport"] == "ipc" {
        format!("ipc://{ip}-{port}")
    } else {
        format!("tcp://{ip}:{port}")
    }
}

impl Kernel {
    pub async fn start() -> Kernel {
        Self::start_with(Options::default()).await
    }

    pub async fn start_with(opts: Options) -> Kernel {
        // The free ports are released before the kernel binds them, so another process
        // can take one in between (a client's outgoing connection, on a busy CI machine):
        // the kernel then exits with a bind error. Start again on fresh ports, as a
        // person restarting the kernel would, rather than wait out zeromq's connect.
        let mut logs = String::new();
        for _ in 0..3 {
            match Self::try_start(&opts).await {
                Ok(k) => return k,
                Err(log) => logs.push_str(&log),
            }
        }
        panic!("the kernel exited before it could be reached, three times; stderr:\n{logs}");
    }

    /// One start: `Err(stderr)` when the kernel process exited before every socket
    /// connected.
    async fn try_start(opts: &Options) -> Result<Kernel, String> {
        let (mut child, dir, info, stderr_path) = spawn(opts);
        let ci: ConnectionInfo = serde_json::from_value(info).unwrap();
        let session = uuid::Uuid::new_v4().to_string();
        // Shell and stdin share one identity, as jupyter_client's sockets do.
        let id = peer_identity_for_session(&session).unwrap();
        // The kernel may not have bound yet: retry connecting for a while, in short
        // attempts so that a kernel that exited is noticed.
        let deadline = Instant::now() + Duration::from_secs(30);
        macro_rules! conn {
            ($what:literal, $make:expr) => {
                loop {
                    if let Ok(Some(_)) = child.try_wait() {
                        let log = std::fs::read_to_string(&stderr_path).unwrap_or_default();
                        let _ = std::fs::remove_dir_all(&dir);
                        return Err(log);
                    }
                    match tokio::time::timeout(Duration::from_secs(1), $make).await {
                        Ok(Ok(c)) => break c,
                        _ if Instant::now() < deadline => {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        Ok(Err(e)) => panic!("cannot connect {}: {e}", $what),
                        Err(_) => panic!("cannot connect {}: timed out", $what),
                    }
                }
            };
        }
        let shell = conn!(
            "shell",
            create_client_shell_connection_with_identity(&ci, &session, id.clone())
        );
        let stdin = conn!(
            "stdin",
            create_client_stdin_connection_with_identity(&ci, &session, id.clone())
        );
        let control = conn!("control", create_client_control_connection(&ci, &session));
        let iopub = conn!("iopub", create_client_iopub_connection(&ci, "", &session));
        let hb = conn!("hb", create_client_heartbeat_connection(&ci));
        let mut k = Kernel {
            child,
            dir,
            shell,
            control,
            stdin,
            iopub,
            hb,
            session,
            stderr_path,
        };
        k.wait_ready().await;
        Ok(k)
    }

    /// Like jupyter_client's wait_for_ready: kernel_info until IOPub shows its idle.
    async fn wait_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            let id = self.send_shell("kernel_info_request", json!({})).await;
            let _ = recv_timeout(&mut self.shell, Duration::from_secs(2)).await;
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if let Some(m) = recv_timeout(&mut self.iopub, Duration::from_millis(100)).await {
                    if m.msg_type() == "status"
                        && m.parent_id() == id
                        && m.content["execution_state"] == "idle"
                    {
                        self.drain_iopub().await;
                        return;
                    }
                }
            }
        }
        panic!("kernel never became ready; stderr:\n{}", self.stderr());
    }

    pub async fn drain_iopub(&mut self) {
        while recv_timeout(&mut self.iopub, Duration::from_millis(100))
            .await
            .is_some()
        {}
    }

    pub fn stderr(&self) -> String {
        let mut s = String::new();
        if let Ok(mut f) = std::fs::File::open(&self.stderr_path) {
            let _ = f.read_to_string(&mut s);
        }
        s
    }

    pub async fn send_raw_shell(&mut self, f: Vec<Bytes>) {
        self.shell.socket.send(zmsg(f)).await.unwrap();
    }

    pub async fn send_shell(&mut self, msg_type: &str, content: Json) -> String {
        send_on(&mut self.shell, msg_type, content).await
    }

    pub async fn send_control(&mut self, msg_type: &str, content: Json) -> String {
        send_on(&mut self.control, msg_type, content).await
    }

    pub async fn send_stdin(&mut self, msg_type: &str, content: Json) -> String {
        send_on(&mut self.stdin, msg_type, content).await
    }

    pub async fn execute_msg(&mut self, code: &str) -> String {
        self.send_shell(
            "execute_request",
            json!({"code": code, "silent": false, "store_history": true,
                   "user_expressions": {}, "allow_stdin": false, "stop_on_error": true}),
        )
        .await
    }

    /// Run a cell as an interactive frontend (JupyterLab, `jupyter console`) asks for it:
    /// with `allow_stdin: true`. (reply, iopub messages with this parent up to idle).
    pub async fn execute_interactive(&mut self, code: &str) -> (Msg, Vec<Msg>) {
        let id = self
            .send_shell(
                "execute_request",
                json!({"code": code, "silent": false, "store_history": true,
                       "user_expressions": {}, "allow_stdin": true, "stop_on_error": true}),
            )
            .await;
        self.collect(id).await
    }

    pub async fn shell_reply(&mut self, t: Duration) -> Msg {
        recv_timeout(&mut self.shell, t)
            .await
            .unwrap_or_else(|| panic!("no shell reply; stderr:\n{}", self.stderr()))
    }

    /// IOPub messages for `parent` up to and including its idle status.
    pub async fn iopub_until_idle(&mut self, parent: &str, t: Duration) -> Vec<Msg> {
        let deadline = Instant::now() + t;
        let mut out = Vec::new();
        while Instant::now() < deadline {
            let Some(m) = recv_timeout(&mut self.iopub, Duration::from_millis(200)).await else {
                continue;
            };
            if m.parent_id() != parent {
                out.push(m);
                continue;
            }
            let idle = m.msg_type() == "status" && m.content["execution_state"] == "idle";
            out.push(m);
            if idle {
                return out;
            }
        }
        panic!(
            "no idle for {parent}; got {out:?}; stderr:\n{}",
            self.stderr()
        );
    }

    /// Run a cell: (reply, iopub messages with this parent up to idle).
    pub async fn execute(&mut self, code: &str) -> (Msg, Vec<Msg>) {
        let id = self.execute_msg(code).await;
        self.collect(id).await
    }

    async fn collect(&mut self, id: String) -> (Msg, Vec<Msg>) {
        let reply = self.shell_reply(Duration::from_secs(60)).await;
        assert_eq!(reply.parent_id(), id);
        let io = self.iopub_until_idle(&id, Duration::from_secs(60)).await;
        let io = io.into_iter().filter(|m| m.parent_id() == id).collect();
        (reply, io)
    }

    /// Heartbeat round trip.
    pub async fn ping(&mut self) -> Option<Duration> {
        let t = Instant::now();
        match tokio::time::timeout(Duration::from_secs(5), self.hb.single_heartbeat()).await {
            Ok(Ok(())) => Some(t.elapsed()),
            _ => None,
        }
    }

    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Wait for the process to exit; its status code.
    pub fn wait_exit(&mut self, t: Duration) -> Option<i32> {
        let deadline = Instant::now() + t;
        while Instant::now() < deadline {
            if let Ok(Some(s)) = self.child.try_wait() {
                return Some(s.code().unwrap_or(-1));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

/// Send a request as a jupyter-protocol typed message through a jupyter-zmq-client
/// connection; its msg_id. Content the typed model refuses although the spec allows it
/// (a history search without `unique` or `n`, as jupyter_kernel_test sends) is signed and
/// framed here instead, so the kernel's handling of such requests stays tested.
async fn send_on(
    c: &mut Connection<zeromq::DealerSocket>,
    msg_type: &str,
    content: Json,
) -> String {
    match JupyterMessageContent::from_type_and_content(msg_type, content.clone()) {
        Ok(typed) => {
            let m = JupyterMessage::new(typed, None);
            let id = m.header.msg_id.clone();
            c.send(m).await.unwrap();
            id
        }
        Err(_) => {
            let h = header(&c.session_id, msg_type);
            let id = h["msg_id"].as_str().unwrap().to_string();
            c.socket
                .send(zmsg(frames(&h, &content, None)))
                .await
                .unwrap();
            id
        }
    }
}

/// Stream text of a message list.
pub fn stdout_of(msgs: &[Msg]) -> String {
    msgs.iter()
        .filter(|m| m.msg_type() == "stream" && m.content["name"] == "stdout")
        .map(|m| m.content["text"].as_str().unwrap_or("").to_string())
        .collect()
}

impl Drop for Kernel {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
