//! Token revocation (RFC 7009, `POST /revoke`): a client revokes one of its access tokens, or
//! one of its refresh tokens, which revokes the whole grant. The answer is 200 whatever the
//! token was (RFC 7009 section 2.2: an unknown token is not an error); a token issued to
//! another client, or not through OAuth (the CLI's), is left alone.

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use serde_json::json;

use super::error::{OAuthResult, no_cache_json};
use super::form::Params;
use super::grants::{self, limit_anonymous};
use super::{Host, OAuthHost, REFRESH_PREFIX};
use crate::auth::{hash_token, looks_like_token, revoke_token};

/// `POST /revoke`.
#[handler]
pub async fn revoke(req: &Request, body: Body, Data(host): Data<&Host>) -> Response {
    match revocation(host.as_ref(), req, body).await {
        Ok(()) => no_cache_json(StatusCode::OK, json!({})),
        Err(err) => err.json_response(),
    }
}

async fn revocation(host: &dyn OAuthHost, req: &Request, body: Body) -> OAuthResult<()> {
    limit_anonymous(host, req)?;
    let params = Params::of_body(req, body).await?;
    let token = params.require("token")?;
    let client_id = params.require("client_id")?;
    let store = host.store();
    if token.starts_with(REFRESH_PREFIX) {
        if let Some(row) = store.refresh_by_hash(&hash_token(token)).await?
            && row.grant.client_id == client_id
        {
            grants::revoke(host, &row.grant.id).await?;
        }
    } else if looks_like_token(token)
        && let Some(row) = store.token_by_hash(&hash_token(token)).await?
        && row.client_id.as_deref() == Some(client_id)
    {
        revoke_token(store, host.token_cache(), token).await?;
    }
    Ok(())
}
