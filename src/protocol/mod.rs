//! The Jupyter wire protocol: sockets, signing, message handling, kernelspec install and
//! headless notebook execution.
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
