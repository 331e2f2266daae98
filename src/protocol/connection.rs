//! The connection file Jupyter writes for a kernel, read into jupyter-protocol's
//! [`ConnectionInfo`], and the endpoints it names.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde_json::Value as Json;

pub use jupyter_protocol::{ConnectionInfo, Transport};

/// What jupyter_client assumes for fields a hand-written connection file may leave out;
/// jupyter-protocol's struct requires them all.
const DEFAULTS: [(&str, &str); 4] = [
    ("transport", "tcp"),
    ("ip", "127.0.0.1"),
    ("key", ""),
    ("signature_scheme", "hmac-sha256"),
];

pub fn from_file(path: &Path) -> Result<ConnectionInfo> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read connection file {}", path.display()))?;
    let v: Json = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a valid connection file", path.display()))?;
    from_json(v).with_context(|| format!("{} is not a valid connection file", path.display()))
}

/// Complete the defaults, then refuse what this kernel cannot honour, loudly, instead of
/// mis-signing messages.
pub fn from_json(mut v: Json) -> Result<ConnectionInfo> {
    let Some(obj) = v.as_object_mut() else {
        bail!("the connection file must hold a JSON object");
    };
    for (k, d) in DEFAULTS {
        obj.entry(k).or_insert_with(|| Json::from(d));
    }
    // Checked before parsing so the message names the field, not a serde variant list.
    if let Some(t) = obj["transport"]
        .as_str()
        .filter(|t| !["tcp", "ipc"].contains(t))
    {
        bail!("unsupported transport {t:?}: use \"tcp\" or \"ipc\"");
    }
    let info: ConnectionInfo = serde_json::from_value(v)?;
    if !info.key.is_empty() && info.signature_scheme != "hmac-sha256" {
        bail!(
            "unsupported signature_scheme {:?}: nbcuda signs with hmac-sha256 only \
             (set \"signature_scheme\": \"hmac-sha256\" in the connection file)",
            info.signature_scheme
        );
    }
    Ok(info)
}

/// The endpoint to bind for `port`, as jupyter_client spells it. jupyter-protocol's
/// `*_url` helpers would pass a wildcard ip through unchanged, which the zeromq crate
/// cannot bind, so the wildcard becomes 0.0.0.0 here.
pub fn endpoint(info: &ConnectionInfo, port: u16) -> String {
    match info.transport {
        Transport::IPC => format!("ipc://{}-{}", info.ip, port),
        Transport::TCP => {
            let ip = if info.ip == "*" { "0.0.0.0" } else { &info.ip };
            format!("tcp://{ip}:{port}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(scheme: &str, transport: &str) -> Result<ConnectionInfo> {
        from_json(serde_json::json!({
            "shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5,
            "key": "k", "signature_scheme": scheme, "transport": transport, "ip": "/tmp/kern"
        }))
    }

    #[test]
    fn refuses_other_schemes_and_transports() {
        let e = info("hmac-md5", "tcp").unwrap_err().to_string();
        assert!(
            e.contains("signature_scheme") && e.contains("hmac-md5"),
            "{e}"
        );
        assert!(info("hmac-sha256", "tcp").is_ok());
        let e = info("hmac-sha256", "udp").unwrap_err().to_string();
        assert!(e.contains("transport") && e.contains("udp"), "{e}");
    }

    #[test]
    fn ipc_endpoints_use_path_dash_port() {
        let i = info("hmac-sha256", "ipc").unwrap();
        assert_eq!(endpoint(&i, 7), "ipc:///tmp/kern-7");
    }

    #[test]
    fn missing_fields_take_jupyter_clients_defaults() {
        let i = from_json(serde_json::json!({
            "shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5,
            "ip": "*"
        }))
        .unwrap();
        assert_eq!(i.transport, Transport::TCP);
        assert_eq!(i.key, "");
        assert_eq!(i.signature_scheme, "hmac-sha256");
        assert_eq!(endpoint(&i, 9), "tcp://0.0.0.0:9");
        assert!(from_json(serde_json::json!({"shell_port": 1})).is_err());
        assert!(from_json(serde_json::json!([1])).is_err());
    }
}
