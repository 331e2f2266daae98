//! A minimal Jupyter client for the protocol tests: starts the real `nbcuda` binary with a
//! connection file on free loopback ports (or ipc paths) and talks raw ZeroMQ to it, signing
//! with its own HMAC code so tests can also send forged, replayed and broken messages.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bytes::Bytes;
use hmac::{Hmac, Mac};
use serde_json::{json, Value as Json};
use sha2::Sha256;
use zeromq::{Socket, SocketOptions, SocketRecv, SocketSend, ZmqMessage};

pub const KEY: &str = "a0436f6c-1916-498b-8eb9-e81ab9368e84";

pub struct Kernel {
    pub child: Child,
    pub dir: PathBuf,
    pub shell: zeromq::DealerSocket,
    pub control: zeromq::DealerSocket,
    pub stdin: zeromq::DealerSocket,
    pub iopub: zeromq::SubSocket,
    pub hb: zeromq::ReqSocket,
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
    Msg {
        header: j(0),
        parent: j(1),
        content: j(3),
    }
}

pub async fn recv_timeout<S: SocketRecv>(s: &mut S, t: Duration) -> Option<Msg> {
    match tokio::time::timeout(t, s.recv()).await {
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
        let (child, dir, info, stderr_path) = spawn(&opts);
        // Shell and stdin share one identity, as jupyter_client's sockets do.
        let id: zeromq::util::PeerIdentity = uuid::Uuid::new_v4()
            .to_string()
            .into_bytes()
            .try_into()
            .unwrap();
        let opts = || {
            let mut o = SocketOptions::default();
            o.peer_identity(id.clone());
            o
        };
        let mut shell = zeromq::DealerSocket::with_options(opts());
        let mut stdin = zeromq::DealerSocket::with_options(opts());
        let mut control = zeromq::DealerSocket::new();
        let mut iopub = zeromq::SubSocket::new();
        let mut hb = zeromq::ReqSocket::new();
        // The kernel may not have bound yet: retry connecting for a while.
        let deadline = Instant::now() + Duration::from_secs(30);
        macro_rules! conn {
            ($s:expr, $k:expr) => {
                loop {
                    match $s.connect(&endpoint(&info, $k)).await {
                        Ok(_) => break,
                        Err(e) if Instant::now() < deadline => {
                            let _ = e;
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        Err(e) => panic!("cannot connect {}: {e}", $k),
                    }
                }
            };
        }
        conn!(shell, "shell_port");
        conn!(stdin, "stdin_port");
        conn!(control, "control_port");
        conn!(iopub, "iopub_port");
        conn!(hb, "hb_port");
        iopub.subscribe("").await.unwrap();
        let mut k = Kernel {
            child,
            dir,
            shell,
            control,
            stdin,
            iopub,
            hb,
            session: uuid::Uuid::new_v4().to_string(),
            stderr_path,
        };
        k.wait_ready().await;
        k
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
        self.shell.send(zmsg(f)).await.unwrap();
    }

    pub async fn send_shell(&mut self, msg_type: &str, content: Json) -> String {
        let h = header(&self.session, msg_type);
        let id = h["msg_id"].as_str().unwrap().to_string();
        self.send_raw_shell(frames(&h, &content, None)).await;
        id
    }

    pub async fn send_control(&mut self, msg_type: &str, content: Json) -> String {
        let h = header(&self.session, msg_type);
        let id = h["msg_id"].as_str().unwrap().to_string();
        self.control
            .send(zmsg(frames(&h, &content, None)))
            .await
            .unwrap();
        id
    }

    pub async fn execute_msg(&mut self, code: &str) -> String {
        self.send_shell(
            "execute_request",
            json!({"code": code, "silent": false, "store_history": true,
                   "user_expressions": {}, "allow_stdin": false, "stop_on_error": true}),
        )
        .await
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
        let reply = self.shell_reply(Duration::from_secs(60)).await;
        assert_eq!(reply.parent_id(), id);
        let io = self.iopub_until_idle(&id, Duration::from_secs(60)).await;
        let io = io.into_iter().filter(|m| m.parent_id() == id).collect();
        (reply, io)
    }

    /// Heartbeat round trip.
    pub async fn ping(&mut self) -> Option<Duration> {
        let t = Instant::now();
        self.hb.send(ZmqMessage::from("ping")).await.ok()?;
        match tokio::time::timeout(Duration::from_secs(5), self.hb.recv()).await {
            Ok(Ok(_)) => Some(t.elapsed()),
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
