//! Client ID metadata documents: a client whose `client_id` is an https URL publishes, at that
//! URL, JSON naming itself (`client_id` equal to the URL), its `redirect_uris` and its
//! `client_name`. The document is fetched under the outbound rules of `providers::target`
//! (public addresses over TLS; http to loopback only with `--allow-insecure-targets`), at most
//! 16 KiB within 5 s, and kept [`super::DOCUMENT_CACHE_TTL`] per process.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Deserialize;

use super::client::{Client, clean_name};
use super::error::{ErrorCode, OAuthError, OAuthResult};
use super::redirect::check_redirect_uri;
use super::{DOCUMENT_CACHE_TTL, OAuthHost};
use crate::providers::fetch_document;

const MAX_DOCUMENT_BYTES: usize = 16 * 1024;
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);
const MAX_CACHED: usize = 1000;
/// What a client and its user are told when the document could not be fetched.
const FETCH_FAILED: &str = "the client's metadata document could not be fetched";

/// Documents fetched recently, by URL.
#[derive(Default)]
pub struct DocumentCache(Mutex<HashMap<String, (Client, Instant)>>);

impl DocumentCache {
    fn get(&self, url: &str) -> Option<Client> {
        let entries = self.0.lock().unwrap_or_else(|p| p.into_inner());
        entries.get(url).filter(|(_, at)| at.elapsed() < DOCUMENT_CACHE_TTL).map(|(c, _)| c.clone())
    }

    fn put(&self, url: &str, client: Client) {
        let mut entries = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if entries.len() >= MAX_CACHED {
            entries.retain(|_, (_, at)| at.elapsed() < DOCUMENT_CACHE_TTL);
            if entries.len() >= MAX_CACHED {
                entries.clear();
            }
        }
        entries.insert(url.to_string(), (client, Instant::now()));
    }
}

#[derive(Deserialize)]
struct Document {
    client_id: String,
    redirect_uris: Vec<String>,
    #[serde(default)]
    client_name: Option<String>,
    #[serde(default)]
    token_endpoint_auth_method: Option<String>,
}

fn invalid(why: impl Into<String>) -> OAuthError {
    OAuthError::protocol(ErrorCode::InvalidClient, why)
}

/// Checks the URL itself before anything is fetched: https (http only on loopback with the
/// flag, which the fetch enforces), a path other than `/`, no fragment or credentials.
fn check_url(url: &str, allow_insecure: bool) -> OAuthResult<()> {
    let parsed = url::Url::parse(url).map_err(|_| invalid("the client_id is not a URL"))?;
    let scheme_ok = parsed.scheme() == "https" || (allow_insecure && parsed.scheme() == "http");
    if !scheme_ok {
        return Err(invalid("a client_id URL must be https"));
    }
    if parsed.path() == "/" || parsed.fragment().is_some() || url.contains('#') {
        return Err(invalid("a client_id URL needs a path and no fragment"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(invalid("a client_id URL carries no credentials"));
    }
    if url.len() > 2000 {
        return Err(invalid("the client_id URL is too long"));
    }
    Ok(())
}

/// Reads and checks a document's text for the client `url`.
fn client_of(url: &str, bytes: &[u8]) -> OAuthResult<Client> {
    let doc: Document = serde_json::from_slice(bytes)
        .map_err(|e| invalid(format!("the client metadata document is not valid: {e}")))?;
    if doc.client_id != url {
        return Err(invalid("the client metadata document names another client_id"));
    }
    if doc.redirect_uris.is_empty() || doc.redirect_uris.len() > 10 {
        return Err(invalid("the client metadata document must list 1 to 10 redirect_uris"));
    }
    for uri in &doc.redirect_uris {
        check_redirect_uri(uri).map_err(invalid)?;
    }
    if let Some(method) = doc.token_endpoint_auth_method.as_deref()
        && method != "none"
    {
        return Err(invalid(format!("token_endpoint_auth_method {method} is not supported; use none")));
    }
    let name = clean_name(doc.client_name).unwrap_or_else(|| url.to_string());
    Ok(Client { id: url.to_string(), name, redirect_uris: doc.redirect_uris })
}

/// The client a document URL names, fetched (or from the cache).
pub async fn client_from_document(host: &dyn OAuthHost, url: &str) -> OAuthResult<Client> {
    let config = host.oauth();
    check_url(url, config.allow_insecure_targets)?;
    if let Some(client) = config.documents.get(url) {
        return Ok(client);
    }
    // Why a fetch failed (a private address, a refused connection, TLS, a status) is for the
    // log: shown on a page, it would let anyone probe what this server can reach.
    let fetched = fetch_document(url, config.allow_insecure_targets, MAX_DOCUMENT_BYTES, FETCH_TIMEOUT).await;
    let bytes = fetched.map_err(|e| {
        tracing::warn!(client_id = url, error = %e, "a client metadata document could not be fetched");
        invalid(FETCH_FAILED)
    })?;
    let client = client_of(url, &bytes)?;
    config.documents.put(url, client.clone());
    Ok(client)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_must_name_themselves_and_valid_redirects() {
        let url = "https://app.example/oauth/client.json";
        let good =
            format!(r#"{{"client_id":"{url}","redirect_uris":["http://127.0.0.1/cb"],"client_name":"App"}}"#);
        let client = client_of(url, good.as_bytes()).unwrap();
        assert_eq!((client.name.as_str(), client.redirect_uris.len()), ("App", 1));
        let other = r#"{"client_id":"https://evil.example/c.json","redirect_uris":["http://127.0.0.1/cb"]}"#;
        assert!(client_of(url, other.as_bytes()).is_err());
        let bad_redirect = format!(r#"{{"client_id":"{url}","redirect_uris":["http://evil.example/cb"]}}"#);
        assert!(client_of(url, bad_redirect.as_bytes()).is_err());
        let planted = format!(r#"{{"client_id":"{url}","redirect_uris":["https://a.example/cb?state=x"]}}"#);
        assert!(client_of(url, planted.as_bytes()).is_err());
        let secret = format!(
            r#"{{"client_id":"{url}","redirect_uris":["https://a.example/cb"],"token_endpoint_auth_method":"private_key_jwt"}}"#
        );
        assert!(client_of(url, secret.as_bytes()).is_err());
        assert!(client_of(url, b"not json").is_err());
    }

    #[test]
    fn urls_are_checked_before_fetching() {
        assert!(check_url("https://app.example/client.json", false).is_ok());
        assert!(check_url("https://app.example/", false).is_err());
        assert!(check_url("https://app.example/c.json#x", false).is_err());
        assert!(check_url("http://127.0.0.1:9000/c.json", false).is_err());
        assert!(check_url("http://127.0.0.1:9000/c.json", true).is_ok());
        assert!(check_url("https://u:p@app.example/c.json", false).is_err());
    }
}
