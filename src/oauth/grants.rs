//! Issuing tokens from a grant, and revoking a grant with everything issued through it.

use poem::Request;
use time::OffsetDateTime;

use super::error::{OAuthError, OAuthResult};
use super::{ACCESS_TOKEN_LIFETIME, OAuthHost, REFRESH_PREFIX, REFRESH_TOKEN_LIFETIME};
use crate::auth::{address_key, client_address, mint_secret, mint_token};
use crate::domain::dates::format_timestamp;
use crate::domain::ids::new_id;
use crate::store::{GrantRow, NewRefresh, NewToken};

/// An access token and a refresh token to hand out, with what to store for them.
pub struct Issued {
    pub access_token: String,
    pub refresh_token: String,
    pub token: NewToken,
    pub refresh: NewRefresh,
}

/// Mints the next pair of tokens of a grant.
pub fn issue(grant: &GrantRow, scopes: &[String], now: OffsetDateTime) -> OAuthResult<Issued> {
    let (access_token, token_hash) = mint_token()?;
    let (refresh_token, refresh_hash) = mint_secret(REFRESH_PREFIX)?;
    let token = NewToken {
        id: new_id("tok"),
        token_hash,
        organization_id: grant.organization_id.clone(),
        user_id: Some(grant.user_id.clone()),
        client_id: Some(grant.client_id.clone()),
        scopes: scopes.to_vec(),
        audience: grant.audience.clone(),
        expires_at: format_timestamp(now + ACCESS_TOKEN_LIFETIME),
        created_at: format_timestamp(now),
        grant_id: Some(grant.id.clone()),
    };
    let refresh =
        NewRefresh { token_hash: refresh_hash, expires_at: format_timestamp(now + REFRESH_TOKEN_LIFETIME) };
    Ok(Issued { access_token, refresh_token, token, refresh })
}

/// Revokes a grant and its access tokens; they stop working at once on this process (the
/// token cache is emptied: a grant may have several tokens cached) and, on PostgreSQL, on
/// every replica (the tokens' revocation is announced, migration 0005). False when it was
/// not live.
pub async fn revoke(host: &dyn OAuthHost, grant_id: &str) -> OAuthResult<bool> {
    let revoked = host.store().revoke_grant(grant_id, &format_timestamp(OffsetDateTime::now_utc())).await?;
    if revoked && let Some(cache) = host.token_cache() {
        cache.clear();
    }
    if revoked {
        tracing::info!(grant_id, "oauth grant revoked");
    }
    Ok(revoked)
}

/// Counts a request of a client without a token against its address's limit (requests without
/// a token have their own per-address limit).
pub fn limit_anonymous(host: &dyn OAuthHost, req: &Request) -> OAuthResult<()> {
    if let Some(address) = client_address(req) {
        host.anonymous_rate()
            .check(&address_key(address))
            .map_err(|l| OAuthError::RateLimited(l.retry_after))?;
    }
    Ok(())
}
