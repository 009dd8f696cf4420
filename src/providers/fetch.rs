//! Reading a small document from a URL someone else named (OAuth client ID metadata
//! documents), under the same outbound rules as delivery (`target.rs`):
//! https to public addresses checked after DNS resolution, http only to loopback with
//! `--allow-insecure-targets`. One GET on a fresh connection, no redirects followed, a size cap
//! and a deadline on the whole exchange.

use std::time::Duration;

use http_body_util::Empty;
use hyper::body::Bytes;
use hyper::{Method, Request};
use tokio_rustls::TlsConnector;
use url::Url;

use super::http1::{Unread, authority_and_target, exchange, server_name};
use super::target::{self, Policy};
use super::{ProviderError, excerpt};

const NAME: &str = "document fetch";
const USER_AGENT: &str = concat!("kobana-dunning/", env!("CARGO_PKG_VERSION"));

/// GETs `url` (`Accept: application/json`) and returns its body when the answer is 200 and
/// at most `limit` bytes. Errors are fit to show to whoever named the URL: they say what went
/// wrong, never more than an excerpt of what the other side sent.
pub async fn fetch_document(
    url: &str,
    allow_insecure: bool,
    limit: usize,
    timeout: Duration,
) -> Result<Vec<u8>, ProviderError> {
    let refuse = |why: &str| ProviderError::Permanent(format!("{NAME}: {why}"));
    let parsed = Url::parse(url).map_err(|_| refuse("not a URL"))?;
    let encrypted = match parsed.scheme() {
        "https" => true,
        "http" => false,
        _ => return Err(refuse("the scheme must be https")),
    };
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(refuse("the URL carries credentials"));
    }
    let host = target::host(&parsed).ok_or_else(|| refuse("no host"))?;
    let port = parsed.port_or_known_default().ok_or_else(|| refuse("no port"))?;
    let policy = Policy::new(encrypted, allow_insecure).map_err(|why| refuse(&why))?;
    policy.check_host(&host).map_err(|why| refuse(&why))?;
    let (authority, path) = authority_and_target(&parsed, &host);
    let request = Request::builder()
        .method(Method::GET)
        .uri(path)
        .header(hyper::header::HOST, authority)
        .header(hyper::header::USER_AGENT, USER_AGENT)
        .header(hyper::header::ACCEPT, "application/json")
        .header(hyper::header::CONNECTION, "close")
        .body(Empty::<Bytes>::new())
        .map_err(|_| refuse("cannot build the request"))?;
    let exchange = async {
        let addrs = target::resolve(NAME, &host, port, policy).await?;
        let stream = target::connect(NAME, &addrs).await?;
        let answer = if encrypted {
            let name = server_name(&host).ok_or_else(|| refuse("the host is not a valid TLS server name"))?;
            let config = super::gateway::client_config(&[]).map_err(|e| refuse(&e.to_string()))?;
            let stream = TlsConnector::from(config).connect(name, stream).await.map_err(|e| {
                ProviderError::Transient(format!("{NAME}: TLS: {}", excerpt(&e.to_string(), 160)))
            })?;
            exchange(NAME, stream, request, limit).await?
        } else {
            exchange(NAME, stream, request, limit).await?
        };
        if answer.status != hyper::StatusCode::OK {
            // Redirects included: the document must be at the URL that names the client.
            return Err(ProviderError::Permanent(format!("{NAME}: answered {}", answer.status)));
        }
        answer.body.map_err(|unread| match unread {
            Unread::TooLarge => {
                ProviderError::Permanent(format!("{NAME}: the document is larger than {limit} bytes"))
            }
            Unread::Broken(why) => ProviderError::Transient(format!("{NAME}: {why}")),
        })
    };
    match tokio::time::timeout(timeout, exchange).await {
        Ok(outcome) => outcome,
        Err(_) => {
            Err(ProviderError::Transient(format!("{NAME}: no answer within {} s", timeout.as_secs_f32())))
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    /// A loopback server answering every request with `answer` (after `delay`); its URL.
    async fn serve(answer: String, delay: Duration) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/client.json", listener.local_addr().unwrap());
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let answer = answer.clone();
                tokio::spawn(async move {
                    let mut buf = [0u8; 2048];
                    let _ = stream.read(&mut buf).await;
                    tokio::time::sleep(delay).await;
                    let _ = stream.write_all(answer.as_bytes()).await;
                });
            }
        });
        url
    }

    fn ok_answer(body: &str) -> String {
        format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len())
    }

    #[tokio::test]
    async fn documents_are_read_within_their_limits() {
        let url = serve(ok_answer("{\"a\":1}"), Duration::ZERO).await;
        let secs = Duration::from_secs(5);
        assert_eq!(fetch_document(&url, true, 1024, secs).await.unwrap(), b"{\"a\":1}");
        let refused = fetch_document(&url, false, 1024, secs).await.unwrap_err();
        assert!(refused.reason().contains("allow-insecure-targets"), "{refused}");
        let big = serve(ok_answer(&"x".repeat(5000)), Duration::ZERO).await;
        assert!(fetch_document(&big, true, 1024, secs).await.unwrap_err().reason().contains("larger"));
        let moved = "HTTP/1.1 302 Found\r\nlocation: http://10.0.0.1/\r\ncontent-length: 0\r\n\r\n";
        let redirect = serve(moved.to_string(), Duration::ZERO).await;
        assert!(fetch_document(&redirect, true, 1024, secs).await.unwrap_err().reason().contains("302"));
        let slow = serve(ok_answer("{}"), Duration::from_secs(3)).await;
        let late = fetch_document(&slow, true, 1024, Duration::from_millis(200)).await.unwrap_err();
        assert!(late.is_transient() && late.reason().contains("no answer"), "{late}");
        for bad in ["ftp://127.0.0.1/x", "https://user:pw@example.com/x", "https://10.0.0.1/x", "not a url"] {
            assert!(fetch_document(bad, true, 1024, secs).await.is_err(), "{bad}");
        }
    }
}
