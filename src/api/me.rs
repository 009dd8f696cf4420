//! `GET /v1/me`: who the token belongs to.

use super::{ApiError, ApiResult, Call, Reply};
use crate::domain::dates::{Day, Timestamp};
use crate::types::{self as wire, MeEnvelope, MeInput};

/// The handlers of the `me` tag.
pub struct Me;

/// A stored value that is none of its enum's values is a server fault, not the caller's.
fn stored<T: std::str::FromStr>(value: &str, what: &str) -> ApiResult<T> {
    value.parse().map_err(|_| ApiError::Internal(format!("stored {what} is not a known value").into()))
}

impl super::handlers::MeApi for Me {
    async fn me(call: Call, _input: MeInput) -> ApiResult<Reply<MeEnvelope>> {
        let org = call.store.organization(call.org_id()).await?.ok_or(ApiError::NotFound("organization"))?;
        let p = &call.principal;
        let data = wire::Me {
            organization: wire::MeOrganization {
                id: org.id,
                name: org.name,
                document: org.document,
                environment: stored(&org.environment, "environment")?,
                today: Day(org.timezone.today(call.now)),
                timezone: org.timezone.name().to_string(),
                now: Timestamp(call.now),
            },
            user: None,
            token: wire::MeToken {
                scopes: p.scopes.clone(),
                audience: stored(&p.audience, "audience")?,
                expires_at: Timestamp(p.expires_at),
                client_id: p.client_id.clone(),
            },
        };
        Ok(Reply::new(MeEnvelope { data }))
    }
}
