//! The HTTP gateway for sms, whatsapp and letters: one JSON POST per message to the configured
//! URL, signed like the outbound webhooks: `X-Kobana-Signature: sha256=<hex HMAC-SHA256 of the raw
//! body>`. The notification id travels as `X-Kobana-Notification-Id` and `Idempotency-Key`, so a
//! retry of the same notification can be deduplicated.
//!
//! One connection per message on hyper's HTTP/1.1 client, over rustls (ring, webpki roots) for
//! `https://`. 2xx is sent; 5xx, 408, 429, timeouts and connection or TLS errors are transient;
//! any other answer is permanent. Redirects are not followed.

use std::sync::Arc;
use std::time::Duration;

use hmac::{Hmac, Mac};
use http_body_util::Full;
use hyper::body::Bytes;
use hyper::{Method, Request, StatusCode};
use rustls::pki_types::CertificateDer;
use serde::Serialize;
use sha2::Sha256;
use tokio_rustls::TlsConnector;

use super::http1::exchange;
use super::target::Endpoint;
use super::{Channel, Outgoing, ProviderError, ProviderSetupError, Sent, excerpt};

pub(super) const NAME: &str = "gateway";

/// The whole exchange, connection included.
const TIMEOUT: Duration = Duration::from_secs(10);
/// What is read of an answer: enough for its `id`, or for the start of an error.
const ANSWER_LIMIT: usize = 64 * 1024;
const USER_AGENT: &str = concat!("kobana-dunning/", env!("CARGO_PKG_VERSION"));

pub(super) struct Gateway {
    endpoint: Endpoint,
    tls: TlsConnector,
    secret: Vec<u8>,
    timeout: Duration,
}

impl std::fmt::Debug for Gateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gateway")
            .field("authority", &self.endpoint.authority)
            .field("target", &self.endpoint.target)
            .finish_non_exhaustive()
    }
}

/// What the gateway receives; the field order is the wire order.
#[derive(Serialize)]
struct Payload<'a> {
    id: &'a str,
    organization_id: &'a str,
    charge_id: &'a str,
    channel: Channel,
    to: &'a str,
    subject: Option<&'a str>,
    body: &'a str,
}

impl Gateway {
    pub(super) fn new(
        url: &str,
        secret: Vec<u8>,
        allow_insecure: bool,
        extra_roots: &[Vec<u8>],
    ) -> Result<Gateway, ProviderSetupError> {
        let endpoint = Endpoint::parse(url, allow_insecure).map_err(ProviderSetupError::GatewayUrl)?;
        let tls = TlsConnector::from(client_config(extra_roots)?);
        Ok(Gateway { endpoint, tls, secret, timeout: TIMEOUT })
    }

    pub(super) async fn deliver(&self, msg: &Outgoing<'_>) -> Result<Sent, ProviderError> {
        let payload = Payload {
            id: msg.id,
            organization_id: msg.organization_id,
            charge_id: msg.charge_id,
            channel: msg.channel,
            to: msg.to,
            subject: msg.subject,
            body: msg.body,
        };
        let body = serde_json::to_vec(&payload)
            .map_err(|e| ProviderError::Permanent(format!("gateway: cannot encode the message: {e}")))?;
        self.post(&[("X-Kobana-Notification-Id", msg.id), ("Idempotency-Key", msg.id)], body).await
    }

    /// One signed JSON POST of `body` with the extra `headers`.
    pub(super) async fn post(&self, headers: &[(&str, &str)], body: Vec<u8>) -> Result<Sent, ProviderError> {
        let signature = sign(&self.secret, &body)?;
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(self.endpoint.target.as_str())
            .header(hyper::header::HOST, self.endpoint.authority.as_str())
            .header(hyper::header::USER_AGENT, USER_AGENT)
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .header(hyper::header::CONNECTION, "close");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request
            .header("X-Kobana-Signature", signature)
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| ProviderError::Permanent(format!("gateway: cannot build the request: {e}")))?;
        match tokio::time::timeout(self.timeout, self.exchange(request)).await {
            Ok(outcome) => outcome,
            Err(_) => Err(ProviderError::Transient(format!(
                "gateway: no answer within {} s",
                self.timeout.as_secs_f32()
            ))),
        }
    }

    /// Whether `signature` (`sha256=<hex>`) is this gateway's signature of `body`; compared in
    /// constant time.
    pub(super) fn verify(&self, body: &[u8], signature: &str) -> bool {
        signed_by(&self.secret, body, signature)
    }

    async fn exchange(&self, request: Request<Full<Bytes>>) -> Result<Sent, ProviderError> {
        let stream = self.endpoint.connect(NAME, &self.tls).await?;
        let answer = exchange(NAME, stream, request, ANSWER_LIMIT).await?;
        // A body too long, or broken off, is judged by the status alone.
        judge(answer.status, answer.body.ok().as_deref())
    }

    #[cfg(test)]
    pub(super) fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }
}

/// Whether `signature` (`sha256=<hex>`, as Kobana signs webhooks) is the HMAC-SHA256 of `body`
/// under `secret`; compared in constant time.
pub fn signed_by(secret: &[u8], body: &[u8], signature: &str) -> bool {
    let Some(Ok(given)) = signature.trim().strip_prefix("sha256=").map(hex::decode) else { return false };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else { return false };
    mac.update(body);
    mac.verify_slice(&given).is_ok()
}

/// `sha256=<hex HMAC-SHA256 of body>`, as webhooks are signed.
pub(super) fn sign(secret: &[u8], body: &[u8]) -> Result<String, ProviderError> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret)
        .map_err(|_| ProviderError::Permanent("the secret cannot key HMAC-SHA256".into()))?;
    mac.update(body);
    Ok(format!("sha256={}", hex::encode(mac.finalize().into_bytes())))
}

/// rustls with ring and the webpki roots, plus `extra_roots` (DER; tests).
pub(super) fn client_config(
    extra_roots: &[Vec<u8>],
) -> Result<Arc<rustls::ClientConfig>, ProviderSetupError> {
    let tls_error = |e: rustls::Error| ProviderSetupError::Tls(e.to_string());
    let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    for der in extra_roots {
        roots.add(CertificateDer::from(der.clone())).map_err(tls_error)?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(tls_error)?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

fn judge(status: StatusCode, answer: Option<&[u8]>) -> Result<Sent, ProviderError> {
    if status.is_success() {
        let id =
            answer.and_then(|bytes| serde_json::from_slice::<serde_json::Value>(bytes).ok()).and_then(|v| {
                match v.get("id")? {
                    serde_json::Value::String(id) if !id.is_empty() => Some(excerpt(id, 200)),
                    serde_json::Value::Number(id) => Some(id.to_string()),
                    _ => None,
                }
            });
        return Ok(Sent { provider: NAME, provider_message_id: id });
    }
    let said = answer.map(|bytes| excerpt(&String::from_utf8_lossy(bytes), 200)).unwrap_or_default();
    let reason = if said.is_empty() {
        format!("gateway answered {status}")
    } else {
        format!("gateway answered {status}: {said}")
    };
    let transient = status.is_server_error()
        || status == StatusCode::TOO_MANY_REQUESTS
        || status == StatusCode::REQUEST_TIMEOUT;
    Err(if transient { ProviderError::Transient(reason) } else { ProviderError::Permanent(reason) })
}

#[cfg(test)]
mod tests {
    //! The receiver here is a few lines of HTTP/1.1 on a tokio listener: it reads one request per
    //! connection (head, then `Content-Length` bytes), checks nothing itself, hands the request
    //! to the test through a channel and answers with a fixed status and body. With a rustls
    //! acceptor it serves https with the test certificate in `testdata/`.

    use std::net::SocketAddr;

    use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
    use tokio::net::TcpListener;
    use tokio::sync::mpsc;
    use tokio_rustls::TlsAcceptor;

    use super::super::tests::{message, test_acceptor, test_ca};
    use super::super::{ProviderConfig, Providers};
    use super::*;

    const SECRET: &str = "whsec_test_0123456789";

    /// One request as the receiver saw it.
    #[derive(Debug)]
    struct Received {
        method: String,
        path: String,
        /// Lowercased names.
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    }

    impl Received {
        fn header(&self, name: &str) -> Option<&str> {
            self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
        }
    }

    async fn receiver(
        status: u16,
        answer: &'static str,
        tls: Option<TlsAcceptor>,
    ) -> (SocketAddr, mpsc::UnboundedReceiver<Received>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (tx, tls) = (tx.clone(), tls.clone());
                tokio::spawn(async move {
                    match tls {
                        // A client that does not trust the certificate gives up here.
                        Some(acceptor) => {
                            if let Ok(stream) = acceptor.accept(stream).await {
                                serve_one(stream, status, answer, tx).await;
                            }
                        }
                        None => serve_one(stream, status, answer, tx).await,
                    }
                });
            }
        });
        (addr, rx)
    }

    async fn serve_one<S: AsyncRead + AsyncWrite + Unpin>(
        mut stream: S,
        status: u16,
        answer: &str,
        tx: mpsc::UnboundedSender<Received>,
    ) {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        let (head_len, mut received) = loop {
            let n = stream.read(&mut chunk).await.unwrap();
            assert!(n > 0, "the client closed before its request was complete");
            buf.extend_from_slice(&chunk[..n]);
            let mut headers = [httparse::EMPTY_HEADER; 32];
            let mut request = httparse::Request::new(&mut headers);
            if let httparse::Status::Complete(len) = request.parse(&buf).unwrap() {
                let received = Received {
                    method: request.method.unwrap().to_owned(),
                    path: request.path.unwrap().to_owned(),
                    headers: request
                        .headers
                        .iter()
                        .map(|h| (h.name.to_ascii_lowercase(), String::from_utf8_lossy(h.value).into_owned()))
                        .collect(),
                    body: Vec::new(),
                };
                break (len, received);
            }
        };
        let length: usize = received.header("content-length").unwrap().parse().unwrap();
        while buf.len() < head_len + length {
            let n = stream.read(&mut chunk).await.unwrap();
            assert!(n > 0, "the client closed before its body was complete");
            buf.extend_from_slice(&chunk[..n]);
        }
        received.body = buf[head_len..head_len + length].to_vec();
        tx.send(received).unwrap();
        let reply = format!(
            "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
            answer.len()
        );
        stream.write_all(reply.as_bytes()).await.unwrap();
        stream.shutdown().await.ok();
    }

    fn gateway(url: String) -> Gateway {
        Gateway::new(&url, SECRET.as_bytes().to_vec(), true, &[test_ca()]).unwrap()
    }

    /// What the receiver checks in every test: the signature of the raw body and the keys.
    fn assert_signed(received: &Received) -> serde_json::Value {
        let mut mac = Hmac::<Sha256>::new_from_slice(SECRET.as_bytes()).unwrap();
        mac.update(&received.body);
        let expected = format!("sha256={}", hex::encode(mac.finalize().into_bytes()));
        assert_eq!(received.header("x-kobana-signature"), Some(expected.as_str()));
        let id = "ntf_0192f1c2a0b07c3d8e9f00112233aabb";
        assert_eq!(received.header("x-kobana-notification-id"), Some(id));
        assert_eq!(received.header("idempotency-key"), Some(id));
        assert_eq!(received.header("content-type"), Some("application/json"));
        serde_json::from_slice(&received.body).unwrap()
    }

    #[tokio::test]
    async fn gateway_signs_the_raw_body_and_sends_the_idempotency_key() {
        let (addr, mut requests) = receiver(202, r#"{"id":"msg_42","status":"queued"}"#, None).await;
        let msg = message(Channel::Sms, "+5511988887777");
        let sent = gateway(format!("http://{addr}/v1/messages?tenant=kd")).deliver(&msg).await.unwrap();
        assert_eq!(sent, Sent { provider: "gateway", provider_message_id: Some("msg_42".into()) });

        let received = requests.recv().await.unwrap();
        assert_eq!((received.method.as_str(), received.path.as_str()), ("POST", "/v1/messages?tenant=kd"));
        assert_eq!(received.header("host"), Some(addr.to_string().as_str()));
        let body = assert_signed(&received);
        assert_eq!(
            body,
            serde_json::json!({
                "id": "ntf_0192f1c2a0b07c3d8e9f00112233aabb",
                "organization_id": "org_0192f1c2a0b07c3d8e9f00112233aabb",
                "charge_id": "chg_0192f1c2a0b07c3d8e9f00112233aabb",
                "channel": "sms",
                "to": "+5511988887777",
                "subject": "Sua cobrança vence em 3 dias",
                "body": "Olá, Maria! O boleto de R$ 1.250,00 vence em 05/10/2026.",
            })
        );
        let keys: Vec<_> = body.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["id", "organization_id", "charge_id", "channel", "to", "subject", "body"]);

        // An answer without an id, and a letter without a subject.
        let (addr, mut requests) = receiver(200, "ok", None).await;
        let msg =
            Outgoing { subject: None, ..message(Channel::Letter, "Rua das Flores, 10, São Paulo - SP") };
        let sent = gateway(format!("http://{addr}/")).deliver(&msg).await.unwrap();
        assert_eq!(sent.provider_message_id, None);
        let body = assert_signed(&requests.recv().await.unwrap());
        assert_eq!(
            (&body["channel"], &body["subject"]),
            (&serde_json::json!("letter"), &serde_json::Value::Null)
        );
    }

    #[tokio::test]
    async fn gateway_5xx_and_429_are_transient_and_other_4xx_permanent() {
        let msg = message(Channel::Whatsapp, "+5511988887777");
        for (status, answer, transient) in [
            (500, "internal error", true),
            (503, "", true),
            (429, "slow down", true),
            (400, r#"{"error":"invalid phone"}"#, false),
            (401, "bad signature", false),
            (302, "", false),
        ] {
            let (addr, mut requests) = receiver(status, answer, None).await;
            let error = gateway(format!("http://{addr}/send")).deliver(&msg).await.unwrap_err();
            assert_eq!(error.is_transient(), transient, "{status}: {error}");
            assert!(error.reason().starts_with(&format!("gateway answered {status}")), "{error}");
            assert!(error.reason().contains(&excerpt(answer, 200)), "{error}");
            assert_signed(&requests.recv().await.unwrap());
        }
        // A long answer is cut, never stored whole.
        let long: &'static str = "x".repeat(5000).leak();
        let (addr, _requests) = receiver(400, long, None).await;
        let error = gateway(format!("http://{addr}/send")).deliver(&msg).await.unwrap_err();
        assert!(error.reason().chars().count() < 250, "{error}");
    }

    #[tokio::test]
    async fn gateway_silence_and_refusal_are_transient() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let held = tokio::spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            tokio::time::sleep(Duration::from_secs(5)).await;
            drop(stream);
        });
        let mut silent = gateway(format!("http://{addr}/send"));
        silent.set_timeout(Duration::from_millis(300));
        let msg = message(Channel::Sms, "+5511988887777");
        let error = silent.deliver(&msg).await.unwrap_err();
        assert!(error.is_transient() && error.reason().contains("no answer"), "{error}");
        held.abort();

        let closed = TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();
        let error = gateway(format!("http://{closed}/send")).deliver(&msg).await.unwrap_err();
        assert!(error.is_transient() && error.reason().contains("cannot connect"), "{error}");
    }

    #[tokio::test]
    async fn gateway_over_https_with_rustls() {
        let (addr, mut requests) = receiver(201, r#"{"id":7}"#, Some(test_acceptor())).await;
        let msg = message(Channel::Sms, "+5511988887777");
        // By address and by name: the test certificate is for 127.0.0.1 and localhost.
        for url in [format!("https://{addr}/send"), format!("https://localhost:{}/send", addr.port())] {
            let sent = gateway(url).deliver(&msg).await.unwrap();
            assert_eq!(sent.provider_message_id.as_deref(), Some("7"));
            assert_signed(&requests.recv().await.unwrap());
        }
        // Without the test root, the certificate is not trusted: transient (it may be fixed).
        let untrusted = Gateway::new(&format!("https://{addr}/send"), b"k".to_vec(), true, &[]).unwrap();
        let error = untrusted.deliver(&msg).await.unwrap_err();
        assert!(error.is_transient() && error.reason().contains("TLS"), "{error}");
    }

    #[tokio::test]
    async fn gateway_on_loopback_needs_the_flag() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let config = ProviderConfig {
            gateway_url: Some(format!("https://localhost:{port}/send")),
            gateway_secret: Some(SECRET.into()),
            ..Default::default()
        };
        // localhost is refused when the settings are read; a name found to resolve to loopback
        // only at send time is refused then (target.rs).
        let error = Providers::new(&config).unwrap_err().to_string();
        assert!(error.contains("allow-insecure-targets"), "{error}");
        let by_address =
            ProviderConfig { gateway_url: Some(format!("https://127.0.0.1:{port}/send")), ..config };
        let error = Providers::new(&by_address).unwrap_err().to_string();
        assert!(error.contains("loopback"), "{error}");
        let quiet = Duration::from_millis(100);
        assert!(tokio::time::timeout(quiet, listener.accept()).await.is_err(), "the gateway was reached");
    }
}
