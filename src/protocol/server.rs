//! The kernel process: binds the five sockets from the connection file and serves them on
//! tokio tasks (heartbeat and control each on their own task, so they answer while a cell
//! computes), with cells running on a dedicated execution thread. The tasks share one
//! current-thread runtime that the execution thread drives between cells and a standby
//! thread during them (see [`crate::protocol::driver`]).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use bytes::Bytes;
use jupyter_protocol::JupyterMessageContent as C;
use jupyter_zmq_client::{parse_subscription_message, SubscriptionEvent};
use tokio::sync::mpsc;
use zeromq::{Socket, SocketRecv, SocketSend, ZmqMessage};

use crate::engine::Engine;
use crate::protocol::connection::{self, endpoint};
use crate::protocol::driver::Driver;
use crate::protocol::exec::{Executor, Inbox, Incoming};
use crate::protocol::outbox::{Out, Outbox};
use crate::protocol::request::{self, Request};
use crate::protocol::typed;
use crate::protocol::wire::Signer;

/// The execution thread's stack: the interpreter recurses for nested Python calls.
pub const EXEC_STACK: usize = 256 << 20;

use crate::protocol::log;

fn frames(m: ZmqMessage) -> Vec<Bytes> {
    m.into_vec()
}

fn to_zmq(f: Vec<Bytes>) -> Option<ZmqMessage> {
    ZmqMessage::try_from(f).ok()
}

/// Serve the Jupyter protocol for the connection file at `path` until shutdown.
pub fn serve(path: &Path) -> Result<()> {
    let info = connection::from_file(path)?;
    let session = uuid::Uuid::new_v4().to_string();
    let signer = Arc::new(Signer::new(&info.key));
    let interrupt = Arc::new(AtomicBool::new(false));
    let executing = Arc::new(AtomicBool::new(false));
    watch_sigint(interrupt.clone(), executing.clone())?;
    watch_parent();

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let driver = Arc::new(Driver::new(rt));

    let (iopub_tx, iopub_rx) = mpsc::unbounded_channel();
    let (shell_tx, shell_rx) = mpsc::unbounded_channel();
    let (stdin_tx, stdin_rx) = mpsc::unbounded_channel();
    let out = Outbox {
        session,
        signer: signer.clone(),
        iopub: iopub_tx,
        shell: shell_tx,
        stdin: stdin_tx,
        driver: Some(driver.clone()),
    };
    let (exec_tx, exec_rx) = mpsc::unbounded_channel::<Incoming>();
    let (input_tx, input_rx) = std::sync::mpsc::channel::<String>();
    let banner: Arc<OnceLock<String>> = Arc::new(OnceLock::new());

    // Bind everything before starting work, so a bad connection file fails fast.
    let (shell, control, stdin, iopub, hb) = driver.runtime().block_on(async {
        let mut shell = zeromq::RouterSocket::new();
        let mut control = zeromq::RouterSocket::new();
        let mut stdin = zeromq::RouterSocket::new();
        let mut iopub = zeromq::XPubSocket::new();
        let mut hb = zeromq::RepSocket::new();
        for (name, port, bind) in [
            (
                "shell",
                info.shell_port,
                shell.bind(&endpoint(&info, info.shell_port)).await,
            ),
            (
                "control",
                info.control_port,
                control.bind(&endpoint(&info, info.control_port)).await,
            ),
            (
                "stdin",
                info.stdin_port,
                stdin.bind(&endpoint(&info, info.stdin_port)).await,
            ),
            (
                "iopub",
                info.iopub_port,
                iopub.bind(&endpoint(&info, info.iopub_port)).await,
            ),
            (
                "hb",
                info.hb_port,
                hb.bind(&endpoint(&info, info.hb_port)).await,
            ),
        ] {
            bind.with_context(|| {
                format!("cannot bind the {name} socket to {}", endpoint(&info, port))
            })?;
        }
        anyhow::Ok((shell, control, stdin, iopub, hb))
    })?;

    {
        let rt = driver.runtime();
        let (shell_send, shell_recv) = shell.split();
        let (stdin_send, stdin_recv) = stdin.split();
        rt.spawn(heartbeat(hb));
        rt.spawn(iopub_task(iopub, iopub_rx, out.clone()));
        rt.spawn(sender("shell", shell_send, shell_rx));
        rt.spawn(sender("stdin", stdin_send, stdin_rx));
        rt.spawn(shell_reader(shell_recv, signer.clone(), exec_tx));
        rt.spawn(stdin_reader(stdin_recv, signer.clone(), input_tx));
        rt.spawn(control_loop(
            control,
            out.clone(),
            interrupt.clone(),
            executing.clone(),
            banner.clone(),
        ));
    }

    // The execution thread owns the Engine (it is !Send).
    {
        let driver = driver.clone();
        std::thread::Builder::new()
            .name("nbcuda-exec".into())
            .stack_size(EXEC_STACK)
            .spawn(move || {
                let engine = Engine::new(interrupt.clone());
                let _ = banner.set(engine.banner());
                let inbox = Inbox::new(exec_rx, Some(driver.clone()));
                Executor::new(engine, out, inbox, input_rx, interrupt, executing).run();
                // The standby thread serves control (shutdown) from now on.
                driver.leave();
            })
            .context("cannot start the execution thread")?;
    }
    driver.standby()
}

/// SIGINT interrupts the running cell (and is ignored between cells); it never kills the
/// kernel.
fn watch_sigint(interrupt: Arc<AtomicBool>, executing: Arc<AtomicBool>) -> Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([signal_hook::consts::SIGINT])
        .context("cannot install the SIGINT handler")?;
    std::thread::Builder::new()
        .name("nbcuda-sigint".into())
        .spawn(move || {
            for _ in signals.forever() {
                if executing.load(Ordering::SeqCst) {
                    interrupt.store(true, Ordering::SeqCst);
                }
            }
        })?;
    Ok(())
}

/// Jupyter sets JPY_PARENT_PID; when that process goes away (we get re-parented), exit
/// instead of lingering as an orphan, as ipykernel does.
fn watch_parent() {
    let Some(parent) = std::env::var("JPY_PARENT_PID")
        .ok()
        .and_then(|p| p.parse::<u32>().ok())
    else {
        return;
    };
    if std::os::unix::process::parent_id() != parent {
        return; // started through a wrapper: nothing reliable to watch
    }
    let _ = std::thread::Builder::new()
        .name("nbcuda-parent".into())
        .spawn(move || loop {
            std::thread::sleep(Duration::from_secs(1));
            if std::os::unix::process::parent_id() != parent {
                log("the parent process is gone; exiting");
                std::process::exit(0);
            }
        });
}

async fn heartbeat(mut hb: zeromq::RepSocket) {
    loop {
        match hb.recv().await {
            Ok(m) => {
                if let Err(e) = hb.send(m).await {
                    log(format!("heartbeat send failed: {e}"));
                }
            }
            Err(e) => {
                log(format!("heartbeat receive failed: {e}"));
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
}

/// Sends what the execution thread queued for a ROUTER socket.
async fn sender<S: SocketSend>(name: &str, mut sock: S, mut rx: mpsc::UnboundedReceiver<Out>) {
    while let Some(item) = rx.recv().await {
        match item {
            Out::Frames(f) => {
                if let Some(m) = to_zmq(f) {
                    if let Err(e) = sock.send(m).await {
                        log(format!("{name}: send failed: {e}"));
                    }
                }
            }
            Out::Flush(done) => {
                let _ = done.send(());
            }
            Out::Stream { .. } => log(format!("{name}: stream text is for IOPub only")),
        }
    }
}

/// Stream text waiting to be merged with the next chunk.
struct PendingStream {
    parent: Request,
    name: &'static str,
    text: String,
    since: tokio::time::Instant,
}

/// How long stream text may wait for more before it is sent.
const STREAM_MERGE: Duration = Duration::from_millis(10);
/// Send merged stream text at least at this size.
const STREAM_MERGE_MAX: usize = 1 << 20;

async fn send_pending(sock: &mut zeromq::XPubSocket, out: &Outbox, p: Option<PendingStream>) {
    let Some(p) = p else { return };
    let m = typed::stream(&p.parent.msg, p.name, p.text);
    if let Some(z) = to_zmq(out.encode(m, Some(&p.parent), true)) {
        if let Err(e) = sock.send(z).await {
            log(format!("iopub: send failed: {e}"));
        }
    }
}

/// IOPub is XPUB: every subscription gets an `iopub_welcome` (JEP 65), so clients know
/// when they are connected; outputs go out in queue order.
async fn iopub_task(
    mut sock: zeromq::XPubSocket,
    mut rx: mpsc::UnboundedReceiver<Out>,
    out: Outbox,
) {
    let mut pending: Option<PendingStream> = None;
    loop {
        let deadline = pending.as_ref().map(|p| p.since + STREAM_MERGE);
        tokio::select! {
            sub = sock.recv() => match sub {
                Ok(m) => {
                    let Some(SubscriptionEvent::Subscribe(topic)) = parse_subscription_message(&m)
                    else {
                        continue;
                    };
                    // Sent on the subscriber's own topic, so its filter lets it through.
                    let w = typed::to_wire(
                        typed::iopub_welcome(&topic),
                        &out.session,
                        None,
                        Some(Bytes::from(topic.into_bytes())),
                    );
                    if let Some(z) = to_zmq(out.signer.encode(&w)) {
                        if let Err(e) = sock.send(z).await {
                            log(format!("iopub: welcome failed: {e}"));
                        }
                    }
                }
                Err(e) => {
                    log(format!("iopub: receive failed: {e}"));
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            },
            _ = tokio::time::sleep_until(deadline.unwrap_or_else(tokio::time::Instant::now)),
                if deadline.is_some() => {
                send_pending(&mut sock, &out, pending.take()).await;
            }
            item = rx.recv() => match item {
                Some(Out::Stream { parent, name, text }) => {
                    if let Some(p) = pending.as_mut() {
                        if p.name == name && p.parent.msg_id() == parent.msg_id() {
                            p.text.push_str(&text);
                            if p.text.len() >= STREAM_MERGE_MAX {
                                send_pending(&mut sock, &out, pending.take()).await;
                            }
                            continue;
                        }
                    }
                    send_pending(&mut sock, &out, pending.take()).await;
                    pending = Some(PendingStream { parent, name, text, since: tokio::time::Instant::now() });
                }
                // Anything else goes out after the text queued before it.
                Some(Out::Frames(f)) => {
                    send_pending(&mut sock, &out, pending.take()).await;
                    if let Some(z) = to_zmq(f) {
                        if let Err(e) = sock.send(z).await {
                            log(format!("iopub: send failed: {e}"));
                        }
                    }
                }
                Some(Out::Flush(done)) => {
                    send_pending(&mut sock, &out, pending.take()).await;
                    let _ = done.send(());
                }
                None => return,
            },
        }
    }
}

/// Verified shell requests go to the execution thread; anything else is logged and
/// dropped, and the loop keeps serving.
async fn shell_reader(
    mut sock: zeromq::RouterRecvHalf,
    signer: Arc<Signer>,
    exec: mpsc::UnboundedSender<Incoming>,
) {
    loop {
        match sock.recv().await {
            Ok(m) => match signer
                .decode(frames(m))
                .map_err(|e| e.to_string())
                .and_then(request::parse)
            {
                Ok(msg) => {
                    let inc = Incoming {
                        msg,
                        received: Instant::now(),
                    };
                    if exec.send(inc).is_err() {
                        log("shell: the execution thread has stopped");
                        return;
                    }
                }
                Err(e) => log(format!("shell: dropped invalid message: {e}")),
            },
            Err(e) => {
                log(format!("shell: receive failed: {e}"));
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
}

/// `input_reply` values go to the cell waiting in `input()`.
async fn stdin_reader(
    mut sock: zeromq::RouterRecvHalf,
    signer: Arc<Signer>,
    input: std::sync::mpsc::Sender<String>,
) {
    loop {
        match sock.recv().await {
            Ok(m) => match signer
                .decode(frames(m))
                .map_err(|e| e.to_string())
                .and_then(request::parse)
            {
                Ok(msg) if matches!(msg.content(), C::InputReply(_)) => {
                    if let C::InputReply(r) = msg.content() {
                        let _ = input.send(r.value.clone());
                    }
                }
                Ok(msg) => log(format!("stdin: ignored {:?}", msg.msg_type())),
                Err(e) => log(format!("stdin: dropped invalid message: {e}")),
            },
            Err(e) => {
                log(format!("stdin: receive failed: {e}"));
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
}

/// Control is served here, independent of the execution thread: interrupt, shutdown and
/// kernel_info answer at once even while a cell runs.
async fn control_loop(
    mut sock: zeromq::RouterSocket,
    out: Outbox,
    interrupt: Arc<AtomicBool>,
    executing: Arc<AtomicBool>,
    banner: Arc<OnceLock<String>>,
) {
    loop {
        let m = match sock.recv().await {
            Ok(m) => m,
            Err(e) => {
                log(format!("control: receive failed: {e}"));
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let req = match out
            .signer
            .decode(frames(m))
            .map_err(|e| e.to_string())
            .and_then(request::parse)
        {
            Ok(r) => r,
            Err(e) => {
                log(format!("control: dropped invalid message: {e}"));
                continue;
            }
        };
        let p = &req.msg;
        out.status(&req, "busy");
        let content: Option<typed::Outgoing> = match req.content() {
            C::InterruptRequest(_) => {
                if executing.load(Ordering::SeqCst) {
                    interrupt.store(true, Ordering::SeqCst);
                }
                Some(typed::interrupt_reply(p))
            }
            C::KernelInfoRequest(_) => {
                let b = banner.get().cloned().unwrap_or_else(|| "nbcuda".into());
                Some(typed::kernel_info_reply(p, &b))
            }
            C::ShutdownRequest(c) => {
                // The kernel manager starts a new process for a restart, so both cases
                // exit; a restarted kernel gets the same connection settings and a fresh
                // session.
                let reply = out.reply_frames(&req, typed::shutdown_reply(p, c.restart));
                if let Some(z) = to_zmq(reply) {
                    let _ = sock.send(z).await;
                }
                out.publish(Some(&req), typed::shutdown_reply(p, c.restart));
                out.status(&req, "idle");
                out.flush(&out.iopub).await;
                tokio::time::sleep(Duration::from_millis(20)).await;
                std::process::exit(0);
            }
            C::DebugRequest(_) => Some(typed::debug_unsupported(p)),
            _ => {
                log(format!(
                    "control: unknown message type {:?}; ignored",
                    req.msg_type()
                ));
                None
            }
        };
        if let Some(c) = content {
            let reply = out.reply_frames(&req, c);
            if let Some(z) = to_zmq(reply) {
                if let Err(e) = sock.send(z).await {
                    log(format!("control: send failed: {e}"));
                }
            }
        }
        out.status(&req, "idle");
    }
}
