//! The OAuth 2.1 authorization server: its issuer is the public URL. Clients find it from the
//! protected-resource metadata, register (RFC 7591) or present a client ID metadata document, send
//! their user to `/authorize` (sign-in and consent pages rendered here), and exchange the code at
//! `/token` with PKCE S256. Refresh tokens rotate; a reused one revokes its whole grant.
//!
//! One concern per file: `metadata` (RFC 8414), `register` (RFC 7591), `client_metadata`
//! (documents), `client` (the type) and `clients` (who a client_id is), `cookies`, `redirect`
//! (redirect URI rules), `resource` (RFC 8707 audiences), `scopes` (the scope parameter),
//! `authorize`, `signin`, `connections`, `token`, `revoke`, `grants`, `pkce`, `throttle`,
//! `session` and `csrf` (what other pages reuse), `pages` (HTML), `form` (urlencoded
//! parameters), `methods` (the methods each route takes), `constant_time` (comparing secrets),
//! `error`.
//!
//! Other pages (approval links, for one) reuse the sign-in: `session::require_user` (or the
//! `SignedInUser` extractor) for the signed-in user, its organization, role and the scopes the
//! role allows; `csrf::csrf_for` / `csrf::check_csrf` for their forms; `pages::{page, form,
//! html_response, error_page, csrf_refused}` to render; `form::Params::of_body` to read a
//! posted form; [`with_host`] to mount the page. A browser that is not signed in is sent to
//! `/signin?next=<the page>` and comes back after signing in.
//!
//! Layering: this module uses `auth` (tokens, roles, passwords), `store` and `providers`
//! (outbound fetches); it never imports `app`. The state it needs is the [`OAuthHost`] trait,
//! which `App` implements; handlers find it in the request data as `Arc<dyn OAuthHost>`
//! ([`Host`]), put there by [`with_host`] on these routes only.

mod authorize;
mod client;
mod client_metadata;
mod clients;
mod connections;
mod constant_time;
pub mod cookies;
pub mod csrf;
mod error;
pub mod form;
mod grants;
mod metadata;
mod methods;
pub mod pages;
mod pkce;
mod redirect;
mod register;
mod resource;
mod revoke;
mod scopes;
pub mod session;
mod signin;
mod throttle;
mod token;

use std::sync::Arc;
use std::time::Duration as StdDuration;

use poem::{Endpoint, EndpointExt, Response, Route};
use time::Duration;

pub use client_metadata::DocumentCache;
pub use csrf::{Csrf, check_csrf, csrf_for};
pub use error::{ErrorCode, OAuthError};
pub use metadata::metadata_document;
pub use methods::Methods;
pub use session::{SignedInUser, require_user, signed_in};

use crate::auth::AuthState;

/// Access tokens issued here live an hour; clients refresh.
pub const ACCESS_TOKEN_LIFETIME: Duration = Duration::hours(1);
/// A refresh token not used for 30 days expires (each rotation starts a new 30 days).
pub const REFRESH_TOKEN_LIFETIME: Duration = Duration::days(30);
/// Authorization codes are exchanged at once by the client: a minute is plenty.
pub const CODE_LIFETIME: Duration = Duration::seconds(60);
/// A browser stays signed in for 12 hours.
pub const SESSION_LIFETIME: Duration = Duration::hours(12);
/// Client ID metadata documents are trusted this long before being fetched again.
pub const DOCUMENT_CACHE_TTL: StdDuration = StdDuration::from_secs(300);

/// Prefixes of the secrets issued here (access tokens keep `kd_at_`).
pub const REFRESH_PREFIX: &str = "kd_rt_";
pub const CODE_PREFIX: &str = "kd_ac_";
pub const SESSION_PREFIX: &str = "kd_ss_";

/// What the authorization server needs of the server's state, beyond authentication's.
pub trait OAuthHost: AuthState {
    /// The authorization server's own settings and caches.
    fn oauth(&self) -> &OAuthConfig;
}

/// Settings and per-process caches of the authorization server.
pub struct OAuthConfig {
    /// `--allow-insecure-targets`: client ID metadata documents may be fetched over http from
    /// loopback (development and tests).
    pub allow_insecure_targets: bool,
    /// The key CSRF tokens are derived with, read once from the database (shared by replicas).
    csrf_key: tokio::sync::OnceCell<Vec<u8>>,
    /// Client ID metadata documents fetched recently.
    pub documents: DocumentCache,
}

impl Default for OAuthConfig {
    fn default() -> Self {
        Self::new(false)
    }
}

impl OAuthConfig {
    /// The settings; `allow_insecure_targets` as the flag of that name.
    pub fn new(allow_insecure_targets: bool) -> Self {
        Self {
            allow_insecure_targets,
            csrf_key: tokio::sync::OnceCell::new(),
            documents: DocumentCache::default(),
        }
    }
}

/// Whether cookies must be `Secure`: the public URL is https.
pub fn secure_cookies(host: &dyn OAuthHost) -> bool {
    host.public_url().starts_with("https://")
}

/// The issuer: the public URL, exactly as the protected-resource metadata names it.
pub fn issuer(host: &dyn OAuthHost) -> &str {
    host.public_url()
}

/// Adds the authorization server's routes to `route`. Each answers its own errors (a page, a
/// redirect or RFC 6749 JSON), a method it does not take included ([`Methods`]), so nothing
/// reaches the /v1 error envelope.
pub fn add_routes(route: Route, host: &Host) -> Route {
    route
        .at("/authorize", with_host(Methods::page().get(authorize::show).post(authorize::decide), host))
        .at("/token", with_host(Methods::json().post(token::token), host))
        .at("/register", with_host(Methods::json().post(register::register), host))
        .at("/revoke", with_host(Methods::json().post(revoke::revoke), host))
        .at("/signin", with_host(Methods::page().get(signin::show).post(signin::submit), host))
        .at("/signout", with_host(Methods::page().post(signin::sign_out), host))
        .at("/connections", with_host(Methods::page().get(connections::show), host))
        .at("/connections/disconnect", with_host(Methods::page().post(connections::disconnect), host))
}

/// An endpoint of a page or of the authorization server, with the state in its request data
/// (as `Host`: what [`session::require_user`], the [`SignedInUser`] extractor and the handlers'
/// `Data<&Host>` read) and its errors, an extractor's rejection included, turned into the
/// answer itself. Only these routes pay for it, not /v1 or /mcp.
pub fn with_host<E: Endpoint + 'static>(
    endpoint: E,
    host: &Host,
) -> impl Endpoint<Output = Response> + use<E> {
    let host = host.clone();
    endpoint.map_to_response().around(move |ep, mut req| {
        req.set_data(host.clone());
        async move { ep.call(req).await }
    })
}

/// The RFC 8414 metadata endpoint, to mount at `/.well-known/oauth-authorization-server`.
pub fn metadata_endpoint(public_url: &str) -> impl poem::Endpoint<Output = poem::Response> + use<> {
    let document = metadata_document(public_url);
    Methods::json().get(poem::endpoint::make_sync(move |_| poem::web::Json(document.clone())))
}

/// The state handlers see.
pub type Host = Arc<dyn OAuthHost>;
