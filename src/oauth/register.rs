//! RFC 7591 dynamic client registration (`POST /register`). Clients are public: they prove
//! nothing at the token endpoint but the PKCE verifier, so whatever authentication method a
//! client asks for, it is registered with `none` (RFC 7591 section 3.2.1 lets the server
//! replace requested metadata; the answer says so).

use poem::http::StatusCode;
use poem::web::{Data, Json};
use poem::{Body, IntoResponse, Request, Response, handler};
use serde::Deserialize;
use serde_json::json;
use time::OffsetDateTime;

use super::client::clean_name;
use super::error::{ErrorCode, OAuthError, OAuthResult};
use super::redirect::check_redirect_uri;
use super::{Host, OAuthHost, form::MAX_FORM_BYTES, grants::limit_anonymous};
use crate::domain::dates::format_timestamp;
use crate::domain::ids::new_id;
use crate::store::ClientRow;

#[derive(Deserialize)]
struct Registration {
    #[serde(default)]
    redirect_uris: Option<Vec<String>>,
    #[serde(default)]
    client_name: Option<String>,
    #[serde(default)]
    grant_types: Option<Vec<String>>,
    #[serde(default)]
    response_types: Option<Vec<String>>,
}

fn metadata_error(description: impl Into<String>) -> OAuthError {
    OAuthError::protocol(ErrorCode::InvalidClientMetadata, description)
}

/// `POST /register`.
#[handler]
pub async fn register(req: &Request, body: Body, Data(host): Data<&Host>) -> Response {
    match registration(host.as_ref(), req, body).await {
        Ok(answer) => answer,
        Err(err) => err.json_response(),
    }
}

async fn registration(host: &dyn OAuthHost, req: &Request, body: Body) -> OAuthResult<Response> {
    limit_anonymous(host, req)?;
    let bytes = body
        .into_bytes_limit(MAX_FORM_BYTES)
        .await
        .map_err(|_| metadata_error("the registration is too large or could not be read"))?;
    let asked: Registration = serde_json::from_slice(&bytes)
        .map_err(|e| metadata_error(format!("the registration is not valid JSON metadata: {e}")))?;
    let redirect_uris = asked.redirect_uris.unwrap_or_default();
    if redirect_uris.is_empty() || redirect_uris.len() > 10 {
        return Err(OAuthError::protocol(ErrorCode::InvalidRedirectUri, "give 1 to 10 redirect_uris"));
    }
    for uri in &redirect_uris {
        check_redirect_uri(uri).map_err(|why| OAuthError::protocol(ErrorCode::InvalidRedirectUri, why))?;
    }
    let grant_types =
        asked.grant_types.unwrap_or_else(|| vec!["authorization_code".into(), "refresh_token".into()]);
    if let Some(other) =
        grant_types.iter().find(|g| !matches!(g.as_str(), "authorization_code" | "refresh_token"))
    {
        return Err(metadata_error(format!("grant type {other} is not supported")));
    }
    if let Some(types) = &asked.response_types
        && types.iter().any(|t| t != "code")
    {
        return Err(metadata_error("only the response type code is supported"));
    }
    let client_name = clean_name(asked.client_name);
    let now = OffsetDateTime::now_utc();
    let row = ClientRow {
        id: new_id("cli"),
        client_name: client_name.clone(),
        redirect_uris: redirect_uris.clone(),
        created_at: format_timestamp(now),
    };
    host.store().insert_oauth_client(&row).await?;
    let mut answer = json!({
        "client_id": row.id,
        "client_id_issued_at": now.unix_timestamp(),
        "redirect_uris": redirect_uris,
        "grant_types": grant_types,
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    });
    if let Some(name) = client_name {
        answer["client_name"] = json!(name);
    }
    Ok(Json(answer).with_status(StatusCode::CREATED).into_response())
}
