//! One HTTP/1.1 request on a fresh connection, as the gateway (`gateway.rs`) and document
//! fetches (`fetch.rs`) make it: hyper's client, the connection driven here rather than spawned
//! (a timeout around the call drops it with the exchange), at most `limit` bytes of the answer
//! read. Also what both need to aim a request at a URL: its `Host` header, its request target,
//! and the TLS server name of its host.

use http_body_util::BodyExt;
use hyper::body::{Body, Incoming};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite};
use url::{Host, Url};

use super::{ProviderError, excerpt};

/// What came back.
#[derive(Debug)]
pub(super) struct Answer {
    pub status: StatusCode,
    pub headers: hyper::HeaderMap,
    /// The body, when it was read whole within the limit.
    pub body: Result<Vec<u8>, Unread>,
}

/// Why an answer's body was not read.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Unread {
    /// It is longer than the limit.
    TooLarge,
    /// The connection broke off while it was read (what hyper said, in short).
    Broken(String),
}

/// Sends `request` over `stream` (already connected, and encrypted when it must be) and reads
/// the answer. A failure before the answer's head arrived is transient; `name` (the provider)
/// starts its text.
pub(super) async fn exchange<S, B>(
    name: &str,
    stream: S,
    request: Request<B>,
    limit: usize,
) -> Result<Answer, ProviderError>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let broken =
        |e: hyper::Error| ProviderError::Transient(format!("{name}: {}", excerpt(&e.to_string(), 160)));
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(broken)?;
    let exchange = async move {
        let response = sender.send_request(request).await.map_err(broken)?;
        drop(sender);
        let status = response.status();
        let headers = response.headers().clone();
        let body = read_capped(response.into_body(), limit).await;
        Ok(Answer { status, headers, body })
    };
    let (outcome, _closed) = tokio::join!(exchange, connection);
    outcome
}

/// A body of at most `limit` bytes.
async fn read_capped(mut body: Incoming, limit: usize) -> Result<Vec<u8>, Unread> {
    if body.size_hint().lower() > limit as u64 {
        return Err(Unread::TooLarge);
    }
    let mut out = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| Unread::Broken(excerpt(&e.to_string(), 160)))?;
        let Ok(data) = frame.into_data() else { continue };
        if out.len() + data.len() > limit {
            return Err(Unread::TooLarge);
        }
        out.extend_from_slice(&data);
    }
    Ok(out)
}

/// The `Host` header of a request to `url` (its host, and its port when the URL names one) and
/// the request target (path and query).
pub(super) fn authority_and_target(url: &Url, host: &Host<String>) -> (String, String) {
    let authority = match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    };
    let target = match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    };
    (authority, target)
}

/// The name TLS checks the certificate against: the host's name or address. `None` when the
/// name cannot be one.
pub(super) fn server_name(host: &Host<String>) -> Option<ServerName<'static>> {
    match host {
        Host::Domain(name) => ServerName::try_from(name.clone()).ok(),
        Host::Ipv4(v4) => Some(ServerName::from(std::net::IpAddr::V4(*v4))),
        Host::Ipv6(v6) => Some(ServerName::from(std::net::IpAddr::V6(*v6))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_gives_its_host_header_and_target() {
        let url = Url::parse("https://Gateway.Example:8443/v1/send?x=1&y=2").unwrap();
        let host = super::super::target::host(&url).unwrap();
        assert_eq!(
            authority_and_target(&url, &host),
            ("gateway.example:8443".to_string(), "/v1/send?x=1&y=2".to_string())
        );
        let url = Url::parse("https://[::1]/client.json").unwrap();
        let host = super::super::target::host(&url).unwrap();
        assert_eq!(authority_and_target(&url, &host), ("[::1]".to_string(), "/client.json".to_string()));
        assert!(server_name(&host).is_some(), "an address is a server name");
    }
}
