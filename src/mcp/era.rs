//! Which protocol era a request speaks, decided by the body with the headers as a cross-check.

use std::borrow::Cow;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use poem::http::{HeaderMap, HeaderName, StatusCode};
use serde_json::{Map, Value, json};

use super::params::{META_CAPABILITIES, META_VERSION};
use super::wire::{HEADER_MISMATCH, INVALID_PARAMS, Message, RpcError, UNSUPPORTED_VERSION};

/// The stateless revision.
pub const V2026: &str = "2026-07-28";
/// The default 2025 revision.
pub const V2025_06: &str = "2025-06-18";
/// The older 2025 revision.
pub const V2025_03: &str = "2025-03-26";
/// Every version spoken, newest first (server/discover's `supportedVersions`, -32022's `data.supported`).
pub const SUPPORTED: [&str; 3] = [V2026, V2025_06, V2025_03];

/// The era of one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Era {
    /// 2026-07-28, with the client's capabilities from the envelope.
    Stateless {
        /// `io.modelcontextprotocol/clientCapabilities`.
        capabilities: Map<String, Value>,
    },
    /// 2025-06-18 or 2025-03-26.
    Legacy {
        /// The revision in use.
        version: &'static str,
    },
}

impl Era {
    /// The version on the `MCP-Protocol-Version` response header.
    pub fn version(&self) -> &'static str {
        match self {
            Self::Stateless { .. } => V2026,
            Self::Legacy { version } => version,
        }
    }

    /// Whether this is the 2026-07-28 era.
    pub fn is_stateless(&self) -> bool {
        matches!(self, Self::Stateless { .. })
    }

    /// Whether fields new in 2025-06-18 (titles, `_meta` on tools) may be sent.
    pub fn has_titles(&self) -> bool {
        !matches!(self, Self::Legacy { version: V2025_03 })
    }
}

/// `MCP-Protocol-Version`.
pub const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");

/// A request header by its name (a `HeaderName`, not text: no parse of the name per lookup).
/// `to_str` admits only visible ASCII, spaces and tabs, so trimming ASCII whitespace is
/// trimming whitespace (and skips the Unicode tables `str::trim` walks).
fn header<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim_ascii)
}

fn unsupported(requested: &str) -> RpcError {
    RpcError::new(
        StatusCode::BAD_REQUEST,
        UNSUPPORTED_VERSION,
        format!("Unsupported protocol version: {requested}"),
    )
    .with_data(json!({ "supported": SUPPORTED, "requested": requested }))
}

/// -32022 for an envelope version. The 2025 versions are spoken, but not in the envelope: they
/// are negotiated through `initialize`, so the message says so rather than "unsupported".
fn unsupported_in_envelope(requested: &str) -> RpcError {
    let mut err = unsupported(requested);
    if requested == V2025_06 || requested == V2025_03 {
        err.message = format!(
            "Unsupported envelope protocol version: {requested}. The params._meta envelope is the \
             {V2026} era; {V2025_06} and {V2025_03} are negotiated through initialize, without the \
             envelope"
        );
    }
    err
}

fn mismatch(message: String) -> RpcError {
    RpcError::new(StatusCode::BAD_REQUEST, HEADER_MISMATCH, message)
}

/// Decodes an `Mcp-Name` value: raw, or `=?base64?…?=` (markers case-sensitive). A value that
/// is not well-formed base64 inside the markers is refused. A raw value is borrowed.
pub fn decode_name(value: &str) -> Result<Cow<'_, str>, ()> {
    match value.strip_prefix("=?base64?").and_then(|rest| rest.strip_suffix("?=")) {
        Some(encoded) => {
            let bytes = STANDARD.decode(encoded).map_err(|_| ())?;
            String::from_utf8(bytes).map(Cow::Owned).map_err(|_| ())
        }
        None => Ok(Cow::Borrowed(value)),
    }
}

/// Decides the era of a request (or the 400 that refuses it).
pub fn select(message: &Message, headers: &HeaderMap) -> Result<Era, RpcError> {
    let method = message.method.as_deref().unwrap_or_default();
    let header_version = header(headers, &PROTOCOL_VERSION);
    let meta = message.params.meta();
    let envelope = meta.and_then(|m| m.get(META_VERSION));

    let Some(envelope) = envelope else {
        // The 2025 handshake, whatever the header says (real clients send 2025-11-25 there).
        if method == "initialize" {
            // Only the 2025 revisions are negotiated: an older one is echoed, anything else
            // (2025-11-25, 2026-07-28, unknown) gets the default.
            let requested = message.params.get("protocolVersion").and_then(Value::as_str);
            let version = if requested == Some(V2025_03) { V2025_03 } else { V2025_06 };
            return Ok(Era::Legacy { version });
        }
        return match header_version {
            None => Ok(Era::Legacy { version: V2025_06 }),
            Some(V2025_06) => Ok(Era::Legacy { version: V2025_06 }),
            Some(V2025_03) => Ok(Era::Legacy { version: V2025_03 }),
            Some(V2026) => Err(RpcError::new(
                StatusCode::BAD_REQUEST,
                INVALID_PARAMS,
                format!(
                    "MCP-Protocol-Version {V2026} requires params._meta[\"{META_VERSION}\"] and [\"{META_CAPABILITIES}\"]"
                ),
            )),
            Some(other) => Err(unsupported(other)),
        };
    };

    let Some(envelope) = envelope.as_str() else {
        return Err(RpcError::new(
            StatusCode::BAD_REQUEST,
            INVALID_PARAMS,
            format!("_meta[\"{META_VERSION}\"] must be a string"),
        ));
    };
    let capabilities = match meta.and_then(|m| m.get(META_CAPABILITIES)) {
        Some(Value::Object(c)) => c.clone(),
        Some(_) => {
            return Err(RpcError::new(
                StatusCode::BAD_REQUEST,
                INVALID_PARAMS,
                format!("_meta[\"{META_CAPABILITIES}\"] must be an object"),
            ));
        }
        None => {
            return Err(RpcError::new(
                StatusCode::BAD_REQUEST,
                INVALID_PARAMS,
                format!("_meta[\"{META_CAPABILITIES}\"] is required"),
            ));
        }
    };
    // The header must repeat the envelope (the conformance suite checks that an unknown
    // envelope version under a 2026-07-28 header is a disagreement, -32020); once they agree, a
    // version this envelope never carries (a 2025 one, or an unknown one) is -32022.
    match header_version {
        None => return Err(mismatch("MCP-Protocol-Version header is required".into())),
        Some(h) if h != envelope => {
            if !SUPPORTED.contains(&h) {
                return Err(unsupported(h));
            }
            return Err(mismatch(format!(
                "MCP-Protocol-Version header {h} does not match the envelope version {envelope}"
            )));
        }
        Some(_) => {}
    }
    if envelope != V2026 {
        return Err(unsupported_in_envelope(envelope));
    }
    match header(headers, &MCP_METHOD) {
        None => return Err(mismatch("Mcp-Method header is required".into())),
        Some(h) if h != method => {
            return Err(mismatch(format!("Mcp-Method header {h} does not match the method {method}")));
        }
        Some(_) => {}
    }
    let body_name = match method {
        "tools/call" | "prompts/get" => message.params.get("name").and_then(Value::as_str),
        "resources/read" => message.params.get("uri").and_then(Value::as_str),
        _ => None,
    };
    // Mcp-Name on tools/call repeats params.name: without a string name there, the header has
    // nothing to agree with, which is the same disagreement as naming another tool.
    if method == "tools/call" && body_name.is_none() {
        return Err(mismatch(match header(headers, &MCP_NAME) {
            Some(_) => "Mcp-Name header is sent but params.name is not a string".into(),
            None => "tools/call needs params.name (a string) and the Mcp-Name header".into(),
        }));
    }
    if let Some(body_name) = body_name {
        match header(headers, &MCP_NAME) {
            None if method == "tools/call" => {
                return Err(mismatch("Mcp-Name header is required on tools/call".into()));
            }
            None => {}
            Some(raw) => match decode_name(raw) {
                Ok(name) if name == body_name => {}
                Ok(name) => {
                    return Err(mismatch(format!("Mcp-Name header {name} does not match {body_name}")));
                }
                Err(()) => return Err(mismatch("Mcp-Name header is not valid base64".into())),
            },
        }
    }
    Ok(Era::Stateless { capabilities })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_decode_raw_or_base64() {
        assert_eq!(decode_name("dunning_me").unwrap(), "dunning_me");
        assert_eq!(decode_name("=?base64?SGVsbG8sIOS4lueVjA==?=").unwrap(), "Hello, 世界");
        assert_eq!(decode_name("=?base64?SGVsbG8").unwrap(), "=?base64?SGVsbG8");
        assert!(decode_name("=?base64?!!!?=").is_err());
    }
}
