//! Where the execution thread and the socket tasks put outgoing messages. Each socket has
//! one sender task draining one queue, so messages on a channel keep their order (IOPub
//! outputs always come before the cell's `idle`).

use std::sync::Arc;

use bytes::Bytes;
use jupyter_protocol::JupyterMessageContent;
use serde_json::Value as Json;
use tokio::sync::{mpsc, oneshot};

use crate::protocol::typed;
use crate::protocol::wire::{new_message, Message, Signer};

/// An item for a socket's sender task.
pub enum Out {
    Frames(Vec<Bytes>),
    /// Answered once everything queued before it has been handed to the socket.
    Flush(oneshot::Sender<()>),
    /// Cell output text (IOPub only): consecutive chunks for the same request and stream
    /// are sent as one `stream` message, like ipykernel's buffered stdout, so a loop of
    /// prints does not flood the frontend with thousands of messages.
    Stream {
        parent: Json,
        name: &'static str,
        text: String,
    },
}

#[derive(Clone)]
pub struct Outbox {
    pub session: String,
    pub signer: Arc<Signer>,
    pub iopub: mpsc::UnboundedSender<Out>,
    pub shell: mpsc::UnboundedSender<Out>,
    pub stdin: mpsc::UnboundedSender<Out>,
}

impl Outbox {
    /// Publish on IOPub with `parent` (a request header, or `{}`) as parent.
    pub fn publish(&self, parent: &Json, msg_type: &str, content: Json) {
        let topic = Bytes::from(format!("kernel.{}.{msg_type}", self.session));
        let m = new_message(&self.session, vec![topic], parent, msg_type, content);
        let _ = self.iopub.send(Out::Frames(self.signer.encode(&m)));
    }

    /// Queue stream text for IOPub (merged with neighbouring chunks, see [`Out::Stream`]).
    pub fn stream(&self, parent: &Json, name: &'static str, text: &str) {
        let _ = self.iopub.send(Out::Stream {
            parent: parent.clone(),
            name,
            text: text.to_string(),
        });
    }

    pub fn status(&self, parent: &Json, state: &str) {
        self.publish_typed(parent, &typed::status(state));
    }

    /// Publish jupyter-protocol typed content (see [`typed::wire_content`]).
    pub fn publish_typed(&self, parent: &Json, content: &JupyterMessageContent) {
        self.publish(parent, content.message_type(), typed::wire_content(content));
    }

    /// A reply to `req`, routed back to its sender's identities.
    pub fn reply_message(&self, req: &Message, msg_type: &str, content: Json) -> Vec<Bytes> {
        let m = new_message(
            &self.session,
            req.identities.clone(),
            &req.header,
            msg_type,
            content,
        );
        self.signer.encode(&m)
    }

    pub fn reply_shell(&self, req: &Message, msg_type: &str, content: Json) {
        let _ = self
            .shell
            .send(Out::Frames(self.reply_message(req, msg_type, content)));
    }

    /// Wait (from a plain thread) until `queue` has sent everything queued so far.
    pub fn flush_blocking(queue: &mpsc::UnboundedSender<Out>) {
        let (tx, rx) = oneshot::channel();
        if queue.send(Out::Flush(tx)).is_ok() {
            let _ = rx.blocking_recv();
        }
    }

    /// Wait (from a task) until `queue` has sent everything queued so far.
    pub async fn flush(queue: &mpsc::UnboundedSender<Out>) {
        let (tx, rx) = oneshot::channel();
        if queue.send(Out::Flush(tx)).is_ok() {
            let _ = rx.await;
        }
    }
}

/// The reply type for a request type (`kernel_info_request` → `kernel_info_reply`).
pub fn reply_type(msg_type: &str) -> String {
    match msg_type.strip_suffix("_request") {
        Some(base) => format!("{base}_reply"),
        None => format!("{msg_type}_reply"),
    }
}
