//! CSRF tokens for every form of the pages (a hidden field named `csrf`).
//!
//! A browser gets a random `kd_browser` cookie (HttpOnly, SameSite=Lax) the first time a page
//! with a form is rendered for it. A form's token is an HMAC, under a key kept in the database
//! (so every replica derives the same), of that cookie and of the session cookie when there is
//! one: another site can neither read the cookies nor compute the token, and a token stops
//! working when the browser signs in or out. A POST whose `csrf` field is missing or differs
//! is refused before anything happens ([`check_csrf`], then [`super::pages::csrf_refused`]).
//!
//! Use from a page handler:
//! ```ignore
//! let csrf = csrf_for(host, req).await?;                 // on GET, before rendering
//! let html = pages::form("/my/action", &csrf, &[("id", id)], "<button>…</button>");
//! pages::html_response(StatusCode::OK, pages::page(pt, en, &html), Some(&csrf))
//! // on POST:
//! check_csrf(host, req, params.get("csrf")).await?;      // Err(OAuthError::Csrf) → 403 page
//! ```

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use poem::{Request, Response};
use sha2::Sha256;
use time::OffsetDateTime;

use super::constant_time::constant_time_eq;
use super::cookies::{SESSION_COOKIE, cookie, set_cookie};
use super::error::{OAuthError, OAuthResult};
use super::{OAuthHost, SESSION_LIFETIME};
use crate::domain::dates::format_timestamp;

/// The cookie a browser's CSRF tokens are bound to.
pub const BROWSER_COOKIE: &str = "kd_browser";
/// The name of the server secret the CSRF key is kept under.
const KEY_NAME: &str = "oauth_csrf_key";
/// The shortest browser cookie accepted (the server makes them from 32 random bytes, 43
/// characters): a shorter one was not made here and is replaced, never checked against.
const MIN_BROWSER_COOKIE_LEN: usize = 32;

/// The CSRF token of one rendered page, and the cookie to set when the browser had none.
#[derive(Debug, Clone)]
pub struct Csrf {
    /// The value of the hidden `csrf` field.
    pub token: String,
    set_cookie: Option<String>,
}

impl Csrf {
    /// Adds the browser cookie to the page's answer when this page made it.
    pub fn apply(&self, response: &mut Response) {
        if let Some(cookie) = &self.set_cookie
            && let Ok(value) = cookie.parse()
        {
            response.headers_mut().append("set-cookie", value);
        }
    }
}

async fn key(host: &dyn OAuthHost) -> OAuthResult<&[u8]> {
    let key = host
        .oauth()
        .csrf_key
        .get_or_try_init(|| async {
            let mut fresh = [0u8; 32];
            getrandom::fill(&mut fresh)?;
            let now = format_timestamp(OffsetDateTime::now_utc());
            let stored = host.store().secret_or_insert(KEY_NAME, &hex::encode(fresh), &now).await?;
            hex::decode(stored)
                .map_err(|_| OAuthError::Store(crate::store::StoreError::CorruptColumn(KEY_NAME.into())))
        })
        .await?;
    Ok(key.as_slice())
}

fn derive(key: &[u8], browser: &str, session: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(b"kobana-dunning csrf\0");
    mac.update(browser.as_bytes());
    mac.update(b"\0");
    mac.update(session.as_bytes());
    URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
}

/// The request's browser cookie, if it is one this server could have made; [`csrf_for`] and
/// [`check_csrf`] both go by it, so a cookie a page would replace never passes a check.
fn browser_cookie(req: &Request) -> Option<String> {
    cookie(req, BROWSER_COOKIE).filter(|v| v.len() >= MIN_BROWSER_COOKIE_LEN)
}

/// The CSRF token for a page rendered for this request (making the browser cookie if needed).
pub async fn csrf_for(host: &dyn OAuthHost, req: &Request) -> OAuthResult<Csrf> {
    let key = key(host).await?;
    let session = cookie(req, SESSION_COOKIE).unwrap_or_default();
    match browser_cookie(req) {
        Some(browser) => Ok(Csrf { token: derive(key, &browser, &session), set_cookie: None }),
        None => {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes)?;
            let browser = URL_SAFE_NO_PAD.encode(bytes);
            let set = set_cookie(host, BROWSER_COOKIE, &browser, Some(SESSION_LIFETIME.whole_seconds()));
            Ok(Csrf { token: derive(key, &browser, &session), set_cookie: Some(set) })
        }
    }
}

/// Checks a submitted form's `csrf` field against this browser's cookies.
pub async fn check_csrf(host: &dyn OAuthHost, req: &Request, submitted: Option<&str>) -> OAuthResult<()> {
    let (Some(submitted), Some(browser)) = (submitted, browser_cookie(req)) else {
        return Err(OAuthError::Csrf);
    };
    let session = cookie(req, SESSION_COOKIE).unwrap_or_default();
    let expected = derive(key(host).await?, &browser, &session);
    if constant_time_eq(expected.as_bytes(), submitted.as_bytes()) { Ok(()) } else { Err(OAuthError::Csrf) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_bind_the_browser_and_the_session() {
        let key = [7u8; 32];
        let a = derive(&key, "browser-a", "");
        assert_eq!(a, derive(&key, "browser-a", ""));
        assert_ne!(a, derive(&key, "browser-b", ""));
        assert_ne!(a, derive(&key, "browser-a", "session"));
        assert_ne!(a, derive(&[8u8; 32], "browser-a", ""));
        assert_ne!(derive(&key, "ab", "c"), derive(&key, "a", "bc"), "the parts are delimited");
    }

    #[test]
    fn a_short_browser_cookie_is_no_browser_cookie() {
        let with =
            |value: &str| Request::builder().header("cookie", format!("{BROWSER_COOKIE}={value}")).finish();
        assert_eq!(browser_cookie(&with(&"a".repeat(31))), None);
        assert_eq!(browser_cookie(&with("")), None);
        let made = URL_SAFE_NO_PAD.encode([0u8; 32]);
        assert_eq!(browser_cookie(&with(&made)), Some(made));
    }
}
