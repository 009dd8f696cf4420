//! The token endpoint (`POST /token`): the authorization code grant with PKCE, and refresh
//! tokens that rotate on every use. A code or refresh token presented a second time is
//! treated as stolen (OAuth 2.1 sections 4.1.3 and 4.3.1): the grant it led to is revoked with
//! every token issued through it. Errors are RFC 6749 section 5.2 JSON; every answer carries
//! `Cache-Control: no-store` (the server adds it to all) and `Pragma: no-cache`.

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use serde_json::json;
use time::OffsetDateTime;

use super::error::{ErrorCode, OAuthError, OAuthResult, no_cache_json};
use super::form::Params;
use super::grants::{self, Issued, limit_anonymous};
use super::resource::audience_of;
use super::scopes::Asked;
use super::{ACCESS_TOKEN_LIFETIME, Host, OAuthHost, pkce};
use crate::auth::hash_token;
use crate::domain::dates::{format_timestamp, parse_timestamp};
use crate::domain::ids::new_id;
use crate::store::GrantRow;

fn grant_error(description: &str) -> OAuthError {
    OAuthError::protocol(ErrorCode::InvalidGrant, description)
}

/// `POST /token`.
#[handler]
pub async fn token(req: &Request, body: Body, Data(host): Data<&Host>) -> Response {
    match exchange(host.as_ref(), req, body).await {
        Ok(answer) => answer,
        Err(err) => err.json_response(),
    }
}

async fn exchange(host: &dyn OAuthHost, req: &Request, body: Body) -> OAuthResult<Response> {
    limit_anonymous(host, req)?;
    let params = Params::of_body(req, body).await?;
    let client_id = params.require("client_id")?;
    match params.require("grant_type")? {
        "authorization_code" => authorization_code(host, &params, client_id).await,
        "refresh_token" => refresh_token(host, &params, client_id).await,
        other => Err(OAuthError::protocol(
            ErrorCode::UnsupportedGrantType,
            format!("grant_type {other} is not supported (authorization_code, refresh_token)"),
        )),
    }
}

fn expired(at: &str, now: OffsetDateTime) -> bool {
    parse_timestamp(at).map_or(true, |t| t <= now)
}

fn answer(issued: &Issued, scopes: &str) -> Response {
    no_cache_json(
        StatusCode::OK,
        json!({
            "access_token": issued.access_token,
            "token_type": "Bearer",
            "expires_in": ACCESS_TOKEN_LIFETIME.whole_seconds(),
            "refresh_token": issued.refresh_token,
            "scope": scopes,
        }),
    )
}

async fn authorization_code(host: &dyn OAuthHost, params: &Params, client_id: &str) -> OAuthResult<Response> {
    let code = params.require("code")?;
    let verifier = params.require("code_verifier")?;
    // Required when the authorization request named one (then identical), absent otherwise.
    let redirect_uri = params.get("redirect_uri").unwrap_or("");
    let code_hash = hash_token(code);
    let now = OffsetDateTime::now_utc();
    let store = host.store();
    let Some(row) = store.code_by_hash(&code_hash).await? else {
        return Err(grant_error("the authorization code is not valid"));
    };
    if row.used_at.is_some() {
        // A replayed code: whatever it was exchanged for is revoked.
        if let Some(grant_id) = &row.grant_id {
            grants::revoke(host, grant_id).await?;
        }
        return Err(grant_error(
            "the authorization code was already used; the tokens issued from it are revoked",
        ));
    }
    if row.client_id != client_id {
        return Err(grant_error("the authorization code was issued to another client"));
    }
    if expired(&row.expires_at, now) {
        return Err(grant_error("the authorization code has expired"));
    }
    if row.redirect_uri != redirect_uri {
        return Err(grant_error("the redirect_uri differs from the authorization request's"));
    }
    if !pkce::verify(verifier, &row.code_challenge) {
        // Burnt: a verifier cannot be guessed at one code many times.
        store.burn_code(&code_hash, &format_timestamp(now)).await?;
        return Err(grant_error("the code_verifier does not match the code_challenge"));
    }
    if let Some(resource) = params.get("resource")
        && audience_of(host.public_url(), Some(resource))? != row.audience
    {
        return Err(OAuthError::protocol(
            ErrorCode::InvalidTarget,
            "the resource differs from the authorization request's",
        ));
    }
    let stamp = format_timestamp(now);
    let grant = GrantRow {
        id: new_id("grt"),
        organization_id: row.organization_id.clone(),
        user_id: row.user_id.clone(),
        client_id: row.client_id.clone(),
        client_name: row.client_name.clone(),
        scopes: row.scopes.clone(),
        audience: row.audience.clone(),
        created_at: stamp.clone(),
        last_used_at: stamp.clone(),
        revoked_at: None,
    };
    let scopes: Vec<String> = row.scopes.split(' ').map(str::to_string).collect();
    let issued = grants::issue(&grant, &scopes, now)?;
    if !store.exchange_code(&code_hash, &stamp, &grant, &issued.refresh, &issued.token).await? {
        // Another request exchanged it first: this one is the replay.
        if let Some(grant_id) = store.code_by_hash(&code_hash).await?.and_then(|r| r.grant_id) {
            grants::revoke(host, &grant_id).await?;
        }
        return Err(grant_error(
            "the authorization code was already used; the tokens issued from it are revoked",
        ));
    }
    tracing::info!(grant_id = grant.id.as_str(), client_id, "oauth grant created");
    Ok(answer(&issued, &row.scopes))
}

async fn refresh_token(host: &dyn OAuthHost, params: &Params, client_id: &str) -> OAuthResult<Response> {
    let presented = params.require("refresh_token")?;
    let hash = hash_token(presented);
    let now = OffsetDateTime::now_utc();
    let store = host.store();
    let Some(row) = store.refresh_by_hash(&hash).await? else {
        return Err(grant_error("the refresh token is not valid"));
    };
    let grant = row.grant;
    if grant.client_id != client_id {
        return Err(grant_error("the refresh token was issued to another client"));
    }
    if grant.revoked_at.is_some() {
        return Err(grant_error("the grant was revoked"));
    }
    if row.used_at.is_some() {
        grants::revoke(host, &grant.id).await?;
        tracing::warn!(
            grant_id = grant.id.as_str(),
            "a used refresh token was presented again: grant revoked"
        );
        return Err(grant_error("the refresh token was already used; the whole grant is revoked"));
    }
    if expired(&row.expires_at, now) {
        return Err(grant_error("the refresh token has expired"));
    }
    if let Some(resource) = params.get("resource")
        && audience_of(host.public_url(), Some(resource))? != grant.audience
    {
        return Err(OAuthError::protocol(ErrorCode::InvalidTarget, "the resource differs from the grant's"));
    }
    let granted: Vec<String> =
        grant.scopes.split(' ').filter(|s| !s.is_empty()).map(str::to_string).collect();
    // A refresh may narrow the scopes of the new access token, never widen them. Scopes unknown
    // here are ignored, as at /authorize (a client may repeat its first request's scope).
    let scopes = match Asked::parse(params.get("scope")).known_or_refuse()? {
        asked if asked.is_empty() => granted.clone(),
        asked => {
            if let Some(extra) = asked.iter().find(|s| !granted.contains(s)) {
                return Err(OAuthError::protocol(
                    ErrorCode::InvalidScope,
                    format!("{extra} was not granted"),
                ));
            }
            asked
        }
    };
    let issued = grants::issue(&grant, &scopes, now)?;
    let stamp = format_timestamp(now);
    if !store.rotate_refresh(&hash, &grant.id, &stamp, &issued.refresh, &issued.token).await? {
        // Used by a concurrent request (or the grant was revoked meanwhile): reuse.
        grants::revoke(host, &grant.id).await?;
        return Err(grant_error("the refresh token was already used; the whole grant is revoked"));
    }
    Ok(answer(&issued, &scopes.join(" ")))
}
