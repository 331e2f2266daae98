//! The Jupyter wire protocol: sockets, signing, message handling, kernelspec install and
//! headless notebook execution.

pub mod cell_progress;
pub mod connection;
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
