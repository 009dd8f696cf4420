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

use super::ProviderError;
use super::http1::{Unread, exchange};
use super::target::Endpoint;

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
    let endpoint = Endpoint::parse(url, allow_insecure).map_err(|why| refuse(&why))?;
    let request = Request::builder()
        .method(Method::GET)
        .uri(endpoint.target.as_str())
        .header(hyper::header::HOST, endpoint.authority.as_str())
        .header(hyper::header::USER_AGENT, USER_AGENT)
        .header(hyper::header::ACCEPT, "application/json")
        .header(hyper::header::CONNECTION, "close")
        .body(Empty::<Bytes>::new())
        .map_err(|_| refuse("cannot build the request"))?;
    let exchange = async {
        let config = super::gateway::client_config(&[]).map_err(|e| refuse(&e.to_string()))?;
        let stream = endpoint.connect(NAME, &TlsConnector::from(config)).await?;
        let answer = exchange(NAME, stream, request, limit).await?;
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
