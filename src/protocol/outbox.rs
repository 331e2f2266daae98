//! Where the execution thread and the socket tasks put outgoing messages. Each socket has
//! one sender task draining one queue, so messages on a channel keep their order (IOPub
//! outputs always come before the cell's `idle`).

use std::sync::Arc;

use bytes::Bytes;
use tokio::sync::{mpsc, oneshot};

use crate::protocol::driver::Driver;
use crate::protocol::request::Request;
use crate::protocol::typed::{self, Outgoing};
use crate::protocol::wire::Signer;

/// An item for a socket's sender task.
pub enum Out {
    Frames(Vec<Bytes>),
    /// Answered once everything queued before it has been handed to the socket.
    Flush(oneshot::Sender<()>),
    /// Cell output text (IOPub only): consecutive chunks for the same request and stream
    /// are sent as one `stream` message, like ipykernel's buffered stdout, so a loop of
    /// prints does not flood the frontend with thousands of messages.
    Stream {
        parent: Request,
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
    /// In the kernel, the driver of the socket tasks, which holds messages back while no
    /// thread drives them; None where nothing serves sockets (unit tests).
    pub driver: Option<Arc<Driver>>,
}

impl Outbox {
    /// Signed frames for a typed message: replies go to the identities `child_of`
    /// copied from the request, IOPub messages to their topic.
    pub fn encode(&self, out: Outgoing, parent: Option<&Request>, iopub: bool) -> Vec<Bytes> {
        let topic = iopub.then(|| {
            Bytes::from(format!(
                "kernel.{}.{}",
                self.session,
                out.msg.message_type()
            ))
        });
        let parent = parent.map(|p| &p.header_json);
        self.signer
            .encode_parts(typed::to_parts(out, &self.session, parent, topic))
    }

    /// Publish on IOPub; `parent` is the request the message belongs to, if any.
    pub fn publish(&self, parent: Option<&Request>, out: Outgoing) {
        self.send(&self.iopub, Out::Frames(self.encode(out, parent, true)));
    }

    /// Queue stream text for IOPub (merged with neighbouring chunks, see [`Out::Stream`]).
    pub fn stream(&self, parent: &Request, name: &'static str, text: &str) {
        let item = Out::Stream {
            parent: parent.clone(),
            name,
            text: text.to_string(),
        };
        self.send(&self.iopub, item);
    }

    pub fn status(&self, parent: &Request, state: &str) {
        self.publish(Some(parent), typed::status(Some(&parent.msg), state));
    }

    /// A reply to `req`, routed back to its sender's identities.
    pub fn reply_frames(&self, req: &Request, out: Outgoing) -> Vec<Bytes> {
        self.encode(out, Some(req), false)
    }

    pub fn reply_shell(&self, req: &Request, out: Outgoing) {
        self.send(&self.shell, Out::Frames(self.reply_frames(req, out)));
    }

    pub fn send_stdin(&self, req: &Request, out: Outgoing) {
        self.send(&self.stdin, Out::Frames(self.reply_frames(req, out)));
    }

    fn send(&self, queue: &mpsc::UnboundedSender<Out>, item: Out) {
        match &self.driver {
            Some(d) => d.send(queue, item),
            None => {
                let _ = queue.send(item);
            }
        }
    }

    /// Wait (from a plain thread) until `queue` has sent everything queued so far (at
    /// once when its task is gone: the answer is dropped with the request).
    pub fn flush_blocking(&self, queue: &mpsc::UnboundedSender<Out>) {
        let (tx, rx) = oneshot::channel();
        self.send(queue, Out::Flush(tx));
        let _ = rx.blocking_recv();
    }

    /// Wait (from a task) until `queue` has sent everything queued so far.
    pub async fn flush(&self, queue: &mpsc::UnboundedSender<Out>) {
        let (tx, rx) = oneshot::channel();
        self.send(queue, Out::Flush(tx));
        let _ = rx.await;
    }
}
