//! The connection file Jupyter writes for a kernel, and the endpoints it names.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
pub struct ConnectionInfo {
    #[serde(default = "default_transport")]
    pub transport: String,
    #[serde(default = "default_ip")]
    pub ip: String,
    pub shell_port: u16,
    pub iopub_port: u16,
    pub stdin_port: u16,
    pub control_port: u16,
    pub hb_port: u16,
    #[serde(default)]
    pub key: String,
    #[serde(default = "default_scheme")]
    pub signature_scheme: String,
    #[serde(default)]
    pub kernel_name: Option<String>,
}

fn default_transport() -> String {
    "tcp".into()
}
fn default_ip() -> String {
    "127.0.0.1".into()
}
fn default_scheme() -> String {
    "hmac-sha256".into()
}

impl ConnectionInfo {
    pub fn from_file(path: &Path) -> Result<ConnectionInfo> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read connection file {}", path.display()))?;
        let info: ConnectionInfo = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a valid connection file", path.display()))?;
        info.validate()?;
        Ok(info)
    }

    /// Refuse what this kernel cannot honour, loudly, instead of mis-signing messages.
    pub fn validate(&self) -> Result<()> {
        if !self.key.is_empty() && self.signature_scheme != "hmac-sha256" {
            bail!(
                "unsupported signature_scheme {:?}: nbcuda signs with hmac-sha256 only \
                 (set \"signature_scheme\": \"hmac-sha256\" in the connection file)",
                self.signature_scheme
            );
        }
        if self.transport != "tcp" && self.transport != "ipc" {
            bail!(
                "unsupported transport {:?}: use \"tcp\" or \"ipc\"",
                self.transport
            );
        }
        Ok(())
    }

    /// The endpoint to bind for `port`, as jupyter_client spells it.
    pub fn endpoint(&self, port: u16) -> String {
        if self.transport == "ipc" {
            format!("ipc://{}-{}", self.ip, port)
        } else {
            let ip = if self.ip == "*" { "0.0.0.0" } else { &self.ip };
            format!("tcp://{ip}:{port}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(scheme: &str, transport: &str) -> ConnectionInfo {
        serde_json::from_value(serde_json::json!({
            "shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5,
            "key": "k", "signature_scheme": scheme, "transport": transport, "ip": "/tmp/kern"
        }))
        .unwrap()
    }

    #[test]
    fn refuses_other_schemes() {
        assert!(info("hmac-md5", "tcp").validate().is_err());
        assert!(info("hmac-sha256", "tcp").validate().is_ok());
        assert!(info("hmac-sha256", "udp").validate().is_err());
    }

    #[test]
    fn ipc_endpoints_use_path_dash_port() {
        assert_eq!(info("hmac-sha256", "ipc").endpoint(7), "ipc:///tmp/kern-7");
    }
}
