//! What the kernel says about itself: `kernel_info_reply` content and `language_info`
//! (also copied into notebooks that `nbcuda run` executes, as nbclient does).

use jupyter_protocol::{CodeMirrorMode, HelpLink, KernelInfoReply, LanguageInfo, ReplyStatus};

/// The protocol version this kernel speaks: 5.5 because IOPub is XPUB with
/// `iopub_welcome` and kernel_info is answered on control too.
pub const PROTOCOL_VERSION: &str = "5.5";

/// Cells are Python syntax, so frontends highlight and export them as Python.
pub fn language_info() -> LanguageInfo {
    LanguageInfo {
        name: "python".into(),
        version: "3.12".into(),
        mimetype: Some("text/x-python".into()),
        file_extension: Some(".py".into()),
        pygments_lexer: Some("ipython3".into()),
        codemirror_mode: Some(CodeMirrorMode::ipython_code_mirror_mode()),
        nbconvert_exporter: Some("python".into()),
    }
}

/// The `kernel_info_reply` content, with the engine's banner.
pub fn kernel_info(banner: &str) -> KernelInfoReply {
    let link = |text: &str, url: &str| HelpLink {
        text: text.into(),
        url: url.into(),
    };
    KernelInfoReply {
        status: ReplyStatus::Ok,
        protocol_version: PROTOCOL_VERSION.into(),
        implementation: "nbcuda".into(),
        implementation_version: env!("CARGO_PKG_VERSION").into(),
        language_info: language_info(),
        banner: banner.into(),
        help_links: vec![
            link("Numba CUDA", "https://nvidia.github.io/numba-cuda/"),
            link("NumPy", "https://numpy.org/doc/stable/"),
            link(
                "Jupyter messaging",
                "https://jupyter-client.readthedocs.io/en/latest/messaging.html",
            ),
        ],
        debugger: false,
        error: None,
    }
}
