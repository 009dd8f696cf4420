//! Outbound webhooks on the wire, Kobana's protocol so that receivers written for Kobana work:
//! one JSON POST per attempt to the URL the webhook names, with `X-Kobana-Event`,
//! `X-Kobana-Delivery-Id` (the same on every attempt), `X-Kobana-Environment` and
//! `X-Kobana-Signature: sha256=<hex HMAC-SHA256 of the raw body>` keyed with the webhook's secret;
//! 5 s for the whole exchange; redirects are not followed. The URL passes the same target rules
//! as the gateway (`target.rs`), checked again after DNS resolution on every attempt.
//!
//! What an answer means for the delivery (retry or not) is the delivery's rule
//! (`domain::webhook`); this module says what happened: the request as sent, the answer, or
//! why there was none, and how long it took.

use std::time::{Duration, Instant};

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::{Method, Request};
use tokio_rustls::TlsConnector;

use super::http1::{Unread, exchange};
use super::target::Endpoint;
use super::{ProviderError, excerpt};

const NAME: &str = "webhook";
/// Kobana's: the receiver has 5 s to answer.
pub const TIMEOUT: Duration = Duration::from_secs(5);
/// What is read of an answer; what is kept of its body is shorter.
const ANSWER_LIMIT: usize = 64 * 1024;
/// What is kept of an answer's body.
pub const KEPT_BODY: usize = 4 * 1024;

/// One attempt to make.
#[derive(Clone, Copy)]
pub struct WebhookPost<'a> {
    pub url: &'a str,
    pub secret: &'a [u8],
    /// `X-Kobana-Event`.
    pub event_code: &'a str,
    /// `X-Kobana-Delivery-Id`: a UUID, the same on every attempt of one delivery.
    pub delivery_uid: &'a str,
    /// `X-Kobana-Environment: sandbox` (and Kobana's sandbox user agent) rather than production.
    pub sandbox: bool,
    /// The raw JSON body that is signed.
    pub body: &'a [u8],
}

/// Leaves the secret and the body out.
impl std::fmt::Debug for WebhookPost<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookPost")
            .field("url", &self.url)
            .field("event_code", &self.event_code)
            .field("delivery_uid", &self.delivery_uid)
            .finish_non_exhaustive()
    }
}

/// The answer a receiver gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebhookAnswer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// At most [`KEPT_BODY`] bytes of it, as text.
    pub body: String,
}

/// What one attempt did.
#[derive(Debug)]
pub struct WebhookExchange {
    /// The request's headers, as sent (the signature included: it does not reveal the secret).
    pub request_headers: Vec<(String, String)>,
    /// The answer, whatever its status; an error when none came (transient: no connection,
    /// TLS, no answer in time) or the request could not be made (permanent: the URL or the
    /// address it resolves to is refused).
    pub answer: Result<WebhookAnswer, ProviderError>,
    pub duration: Duration,
}

/// Makes one attempt of `post` with `tls` for `https://`.
pub(super) async fn post(
    post: &WebhookPost<'_>,
    tls: &TlsConnector,
    allow_insecure: bool,
) -> WebhookExchange {
    let started = Instant::now();
    let signature = match super::gateway::sign(post.secret, post.body) {
        Ok(signature) => signature,
        Err(e) => {
            return WebhookExchange {
                request_headers: Vec::new(),
                answer: Err(e),
                duration: started.elapsed(),
            };
        }
    };
    let request_headers: Vec<(String, String)> = [
        ("Content-Type", "application/json"),
        ("User-Agent", if post.sandbox { "Kobana-Robot (sandbox)" } else { "Kobana-Robot" }),
        ("X-Kobana-Event", post.event_code),
        ("X-Kobana-Delivery-Id", post.delivery_uid),
        ("X-Kobana-Environment", if post.sandbox { "sandbox" } else { "production" }),
        ("X-Kobana-Signature", signature.as_str()),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value.to_owned()))
    .collect();
    let answer = match tokio::time::timeout(TIMEOUT, attempt(post, &request_headers, tls, allow_insecure))
        .await
    {
        Ok(answer) => answer,
        Err(_) => Err(ProviderError::Transient(format!("{NAME}: no answer within {} s", TIMEOUT.as_secs()))),
    };
    WebhookExchange { request_headers, answer, duration: started.elapsed() }
}

async fn attempt(
    post: &WebhookPost<'_>,
    headers: &[(String, String)],
    tls: &TlsConnector,
    allow_insecure: bool,
) -> Result<WebhookAnswer, ProviderError> {
    let endpoint = Endpoint::parse(post.url, allow_insecure)
        .map_err(|why| ProviderError::Permanent(format!("{NAME}: {why}")))?;
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(endpoint.target.as_str())
        .header(hyper::header::HOST, endpoint.authority.as_str())
        .header(hyper::header::CONNECTION, "close");
    for (name, value) in headers {
        request = request.header(name.as_str(), value.as_str());
    }
    let request = request
        .body(Full::new(Bytes::copy_from_slice(post.body)))
        .map_err(|e| ProviderError::Permanent(format!("{NAME}: cannot build the request: {e}")))?;
    let stream = endpoint.connect(NAME, tls).await?;
    let answer = exchange(NAME, stream, request, ANSWER_LIMIT).await?;
    let body = match answer.body {
        Ok(bytes) => kept(&bytes),
        Err(Unread::TooLarge) => format!("(a body longer than {} KiB, not kept)", ANSWER_LIMIT / 1024),
        Err(Unread::Broken(why)) => format!("(the body broke off: {})", excerpt(&why, 120)),
    };
    let headers = kept_headers(&answer.headers);
    Ok(WebhookAnswer { status: answer.status.as_u16(), headers, body })
}

/// The answer's headers, in order, as long as their names and values add up to at most
/// [`KEPT_BODY`] bytes: a receiver's headers are kept no longer than its body (hyper reads
/// hundreds of KiB of them).
fn kept_headers(headers: &hyper::HeaderMap) -> Vec<(String, String)> {
    let mut room = KEPT_BODY;
    let mut kept = Vec::new();
    for (name, value) in headers {
        let size = name.as_str().len() + value.len();
        if size > room {
            break;
        }
        room -= size;
        kept.push((name.as_str().to_owned(), String::from_utf8_lossy(value.as_bytes()).into_owned()));
    }
    kept
}

/// The first [`KEPT_BODY`] bytes of a body as text, cut on a character boundary.
fn kept(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(KEPT_BODY)]).into_owned();
    match text.char_indices().map(|(i, c)| i + c.len_utf8()).take_while(|end| *end <= KEPT_BODY).last() {
        Some(end) => text[..end].to_owned(),
        None => String::new(),
    }
}

/// Whether `url` may be a webhook's: the target rules (the scheme, credentials, the host name,
/// an address written in the URL or the addresses the name resolves to now; a name that does
/// not resolve yet is checked at delivery). The error says why not.
pub async fn check_url(url: &str, allow_insecure: bool) -> Result<(), String> {
    super::target::check_given(url, allow_insecure).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_kept_to_the_body_size() {
        let mut headers = hyper::HeaderMap::new();
        headers.insert("content-type", hyper::header::HeaderValue::from_static("application/json"));
        for i in 0..10 {
            let name = hyper::header::HeaderName::try_from(format!("x-filler-{i}")).unwrap();
            headers.insert(name, hyper::header::HeaderValue::from_str(&"h".repeat(1000)).unwrap());
        }
        let kept = kept_headers(&headers);
        assert_eq!(kept[0], ("content-type".to_owned(), "application/json".to_owned()));
        let size: usize = kept.iter().map(|(n, v)| n.len() + v.len()).sum();
        assert!(size <= KEPT_BODY && kept.len() == 5, "{size} bytes in {}", kept.len());
    }

    #[test]
    fn bodies_are_kept_short_on_a_character_boundary() {
        assert_eq!(kept(b"ok"), "ok");
        let long = "é".repeat(KEPT_BODY);
        let cut = kept(long.as_bytes());
        assert!(cut.len() <= KEPT_BODY && cut.chars().all(|c| c == 'é'), "{}", cut.len());
    }

    #[tokio::test]
    async fn webhook_urls_follow_the_target_rules() {
        for bad in [
            "http://example.com/hook",
            "https://user:pw@example.com/hook",
            "https://10.0.0.1/hook",
            "https://169.254.169.254/latest/meta-data",
            "https://[fe80::1]/hook",
            "https://127.0.0.1/hook",
            "ftp://example.com/hook",
            "https://localhost/hook",
            "https://metadata.google.internal/computeMetadata/v1/",
            "https://[::ffff:0:7f00:1]/hook",
            "https://[64:ff9b:1::7f00:1]/hook",
        ] {
            assert!(check_url(bad, false).await.is_err(), "{bad}");
        }
        assert!(check_url("https://erp.example.com.br/hooks?x=1", false).await.is_ok());
        assert!(check_url("http://127.0.0.1:9000/hook", true).await.is_ok());
        assert!(check_url("http://10.0.0.1/hook", true).await.is_err(), "the flag opens loopback only");
        assert!(check_url("http://example.com/hook", true).await.is_err(), "the flag opens loopback only");
    }
}
