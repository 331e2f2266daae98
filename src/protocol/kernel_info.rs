//! What the kernel says about itself: `kernel_info_reply` content and `language_info`
//! (also copied into notebooks that `nbcuda run` executes, as nbclient does).

use serde_json::{json, Value as Json};

/// The protocol version this kernel speaks: 5.5 because IOPub is XPUB with
/// `iopub_welcome` and kernel_info is answered on control too.
pub const PROTOCOL_VERSION: &str = "5.5";

/// Cells are Python syntax, so frontends highlight and export them as Python.
pub fn language_info() -> Json {
    json!({
        "name": "python",
        "version": "3.12",
        "mimetype": "text/x-python",
        "file_extension": ".py",
        "pygments_lexer": "ipython3",
        "codemirror_mode": {"name": "ipython", "version": 3},
        "nbconvert_exporter": "python",
    })
}

/// The full `kernel_info_reply` content, with the engine's banner.
pub fn kernel_info_content(banner: &str) -> Json {
    json!({
        "status": "ok",
        "protocol_version": PROTOCOL_VERSION,
        "implementation": "nbcuda",
        "implementation_version": env!("CARGO_PKG_VERSION"),
        "language_info": language_info(),
        "banner": banner,
        "help_links": [
            {"text": "Numba CUDA", "url": "https://nvidia.github.io/numba-cuda/"},
            {"text": "NumPy", "url": "https://numpy.org/doc/stable/"},
            {"text": "Jupyter messaging", "url": "https://jupyter-client.readthedocs.io/en/latest/messaging.html"},
        ],
        "debugger": false,
        "supported_features": [],
    })
}
