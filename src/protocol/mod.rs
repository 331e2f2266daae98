//! The Jupyter wire protocol: sockets, signing, message handling, kernelspec install and
//! headless notebook execution. The top layer: it uses the engine and nothing uses it.
//!
//! | file | holds |
//! |---|---|
//! | `cell_progress.rs` | A progress display for long cells in JupyterLab: a cell still running after 2 s gets a display (with a `display_id`) that is updated every second with the elapsed time and, when the cell ends, with its total — so a long `%timeit` or kernel launch shows signs of life (a `%timeit` adds which run it is on). Only requests with `allow_stdin` get it, so nbclient, nbconvert and papermill save none. |
//! | `connection.rs` | The connection file Jupyter writes for a kernel, read into jupyter-protocol's `ConnectionInfo`, and the endpoints it names. |
//! | `driver.rs` | Who runs the socket tasks. |
//! | `exec.rs` | The execution thread: owns the (single-threaded) Engine and handles every shell request in arrival order, each wrapped in IOPub busy/idle. |
//! | `history.rs` | This session's input history, for `history_request` (tail, range and glob search), as IPython's history manager answers it for the current session. |
//! | `install.rs` | `nbcuda install`: write the `nbcuda` kernelspec (kernel.json + logos) where Jupyter looks for kernels. |
//! | `kernel_info.rs` | What the kernel says about itself: `kernel_info_reply` content and `language_info` (also copied into notebooks that `nbcuda run` executes, as nbclient does). |
//! | `notebook.rs` | `nbcuda run`: execute a notebook in-process, with no sockets, and write the executed copy. |
//! | `outbox.rs` | Where the execution thread and the socket tasks put outgoing messages. |
//! | `progress.rs` | Progress reporting for `nbcuda run`: one line per cell on stderr, plus a notebook-wide bar that is redrawn in place on a terminal (plain lines when stderr is a file or pipe, so CI logs stay readable). |
//! | `request.rs` | Incoming requests as jupyter-protocol's typed `JupyterMessage`. |
//! | `server.rs` | The kernel process: binds the five sockets from the connection file and serves them on tokio tasks (heartbeat and control each on their own task, so they answer while a cell computes), with cells running on a dedicated execution thread. |
//! | `typed.rs` | Every message this kernel sends is built here as jupyter-protocol typed content, made a child of its request with `child_of`, and turned into a wire `Message` by `to_wire` — the one place where jupyter-protocol's serialisation is corrected for the official validators and where what it cannot express is filled in. |
//! | `wire.rs` | Jupyter messages on the wire: framing, HMAC-SHA256 signing, constant-time verification and replay protection. |
//!
//!
//! A message comes in through [`wire`] (frames, HMAC, replay guard), becomes a
//! jupyter-protocol typed request in [`request`], is served by [`exec`] or the control
//! loop in [`server`], and every answer is built as typed content in [`typed`], which
//! also owns the one conversion back to the wire.

pub mod cell_progress;
pub mod connection;
pub mod driver;
pub mod exec;
pub mod history;
pub mod install;
pub mod kernel_info;
pub mod notebook;
pub mod outbox;
pub mod progress;
pub mod request;
pub mod server;
pub mod typed;
pub mod wire;

pub use server::serve;

/// A line for the kernel's log on stderr. Never panics: when the terminal that started the
/// kernel has closed, stderr is gone, and `eprintln!` would panic in the thread that
/// logs (the parent watcher among them, leaving the kernel orphaned).
pub fn log(msg: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "[nbcuda] {msg}");
}
