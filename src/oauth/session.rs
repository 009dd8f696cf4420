//! Signed-in browsers: the `kd_session` cookie (random, HttpOnly, SameSite=Lax, Secure when
//! the public URL is https; stored only as its SHA-256), and the user it signs in.
//!
//! What other pages use (for example approval pages):
//! - [`signed_in`]: the [`SignedInUser`] of a request, or `None`;
//! - [`require_user`]: the user, or the answer to send instead (a redirect to the sign-in page
//!   that comes back to this page afterwards);
//! - the [`SignedInUser`] poem extractor, which does the same as `require_user` inside a
//!   `#[handler]` (its rejection is the redirect).
//!
//! Mount such a page with [`super::with_host`]: it puts the state in the request data as
//! `Arc<dyn OAuthHost>` (what all of these read) and turns a rejection into the answer itself.

use std::sync::Arc;

use poem::http::StatusCode;
use poem::{FromRequest, Request, RequestBody, Response};
use time::OffsetDateTime;

use super::cookies::{SESSION_COOKIE, cookie, set_cookie};
use super::error::OAuthResult;
use super::{OAuthHost, SESSION_LIFETIME, SESSION_PREFIX, pages};
use crate::auth::{Role, hash_token, mint_secret};
use crate::domain::dates::format_timestamp;

/// The user a browser is signed in as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedInUser {
    /// `usr_…`
    pub id: String,
    /// The organization the user acts for.
    pub organization_id: String,
    /// Case-folded e-mail.
    pub email: String,
    /// The user's role.
    pub role: Role,
    /// The scopes the role allows (what this user may grant or approve).
    pub scopes: Vec<&'static str>,
}

impl SignedInUser {
    /// Whether the user's role allows a scope.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.contains(&scope)
    }
}

/// The signed-in user of a request, if its session cookie names a live session.
pub async fn signed_in(host: &dyn OAuthHost, req: &Request) -> OAuthResult<Option<SignedInUser>> {
    let Some(value) = cookie(req, SESSION_COOKIE).filter(|v| v.starts_with(SESSION_PREFIX)) else {
        return Ok(None);
    };
    let now = format_timestamp(OffsetDateTime::now_utc());
    let Some(user) = host.store().browser_session_user(&hash_token(&value), &now).await? else {
        return Ok(None);
    };
    let Some(role) = Role::parse(&user.role) else {
        tracing::warn!(user_id = user.id.as_str(), "a stored user has an unknown role");
        return Ok(None);
    };
    Ok(Some(SignedInUser {
        id: user.id,
        organization_id: user.organization_id,
        email: user.email,
        role,
        scopes: role.scopes(),
    }))
}

/// Where a browser that must sign in goes: the sign-in page, which comes back to this
/// request's path and query afterwards.
pub fn sign_in_location(req: &Request) -> String {
    let back = req.uri().path_and_query().map_or("/", |pq| pq.as_str());
    let next: String = form_urlencoded::byte_serialize(back.as_bytes()).collect();
    format!("/signin?next={next}")
}

/// A `303 See Other` to a path of this server.
pub fn see_other(location: &str) -> Response {
    Response::builder().status(StatusCode::SEE_OTHER).header("location", location).finish()
}

/// The signed-in user, or the answer to send instead: the sign-in redirect, or an error page.
pub async fn require_user(host: &dyn OAuthHost, req: &Request) -> Result<SignedInUser, Response> {
    match signed_in(host, req).await {
        Ok(Some(user)) => Ok(user),
        Ok(None) => Err(see_other(&sign_in_location(req))),
        Err(err) => {
            err.log();
            Err(pages::error_page(
                StatusCode::INTERNAL_SERVER_ERROR,
                "O servidor não conseguiu concluir o pedido.",
                "The server could not complete the request.",
            ))
        }
    }
}

impl<'a> FromRequest<'a> for SignedInUser {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> poem::Result<Self> {
        let Some(host) = req.data::<Arc<dyn OAuthHost>>() else {
            return Err(poem::Error::from_status(StatusCode::INTERNAL_SERVER_ERROR));
        };
        require_user(host.as_ref(), req).await.map_err(poem::Error::from_response)
    }
}

/// Starts a session for a user; returns the `Set-Cookie` value.
pub async fn start_session(host: &dyn OAuthHost, user_id: &str) -> OAuthResult<String> {
    let (value, hash) = mint_secret(SESSION_PREFIX)?;
    let now = OffsetDateTime::now_utc();
    host.store()
        .insert_browser_session(
            &hash,
            user_id,
            &format_timestamp(now + SESSION_LIFETIME),
            &format_timestamp(now),
        )
        .await?;
    Ok(set_cookie(host, SESSION_COOKIE, &value, Some(SESSION_LIFETIME.whole_seconds())))
}

/// Ends the request's session, if any; returns the `Set-Cookie` value that deletes it.
pub async fn end_session(host: &dyn OAuthHost, req: &Request) -> OAuthResult<String> {
    if let Some(value) = cookie(req, SESSION_COOKIE) {
        host.store().delete_browser_session(&hash_token(&value)).await?;
    }
    Ok(set_cookie(host, SESSION_COOKIE, "", Some(0)))
}
