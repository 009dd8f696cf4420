//! `GET /v1/me`: who the token belongs to.

use serde_json::json;

use super::{ApiError, ApiResult, Call, Reply};
use crate::domain::dates::format_timestamp;

/// `me`
pub async fn me(call: Call) -> ApiResult<Reply> {
    let org = call.app.store.organization(call.org_id()).await?.ok_or(ApiError::NotFound("organization"))?;
    let p = &call.principal;
    let data = json!({
        "organization": {
            "id": org.id,
            "name": org.name,
            "document": org.document,
            "environment": org.environment,
            "timezone": org.timezone,
        },
        "user": null,
        "token": {
            "scopes": p.scopes,
            "audience": p.audience,
            "expires_at": format_timestamp(p.expires_at),
            "client_id": p.client_id,
        },
    });
    Ok(Reply::Json { status: 200, body: json!({ "data": data }), etag: None })
}
