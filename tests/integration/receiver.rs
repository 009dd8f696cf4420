//! An HTTP gateway started on 127.0.0.1 for the tests: it checks the HMAC signature of each
//! request's raw body, hands what it got to the test, and answers with a fixed status.

use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

/// The secret the gateway and the server share.
pub const SECRET: &str = "segredo-do-gateway";

/// The signature of `body` with [`SECRET`], as the gateway's callbacks carry it.
pub fn sign(body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(SECRET.as_bytes()).unwrap();
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// A request the gateway received, its signature checked against the raw body.
pub struct Posted {
    pub body: Value,
    pub signed: bool,
    pub idempotency_key: Option<String>,
    /// `X-Kobana-Event`, sent with requests about reports and protests.
    pub event: Option<String>,
}

/// An HTTP gateway answering every POST with `status`.
pub async fn gateway(status: u16) -> (u16, mpsc::UnboundedReceiver<Posted>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut raw = Vec::new();
                let mut buf = [0u8; 4096];
                let head_end = loop {
                    let n = stream.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    raw.extend_from_slice(&buf[..n]);
                    if let Some(i) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
                        break i + 4;
                    }
                };
                let head = String::from_utf8_lossy(&raw[..head_end]).to_string();
                let header = |name: &str| {
                    head.lines().find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
                    })
                };
                let length: usize = header("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
                while raw.len() < head_end + length {
                    let n = stream.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    raw.extend_from_slice(&buf[..n]);
                }
                let body = &raw[head_end..(head_end + length).min(raw.len())];
                let expected = sign(body);
                let _ = tx.send(Posted {
                    body: serde_json::from_slice(body).unwrap_or(Value::Null),
                    signed: header("x-kobana-signature").as_deref() == Some(expected.as_str()),
                    idempotency_key: header("idempotency-key"),
                    event: header("x-kobana-event"),
                });
                let answer = if status < 300 { r#"{"id":"gw-42"}"# } else { r#"{"error":"unavailable"}"# };
                let reply = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                    answer.len()
                );
                let _ = stream.write_all(reply.as_bytes()).await;
            });
        }
    });
    (port, rx)
}
