//! `GET /v1/me`: who the token belongs to.

use super::{ApiError, ApiResult, Call, FieldError, Reply};
use crate::domain::dates::{Day, Timestamp};
use crate::domain::pix_account::PixAccount;
use crate::store::OrganizationRow;
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
        answer(&call, org).await
    }

    /// Where Pix payments go changes what every debtor is sent: its `x-mcp.scope` names
    /// `dunning.notify` too, checked with the others before the handler runs.
    async fn organization_pix_update(
        call: Call,
        input: wire::OrganizationPixUpdateInput,
    ) -> ApiResult<Reply<MeEnvelope>> {
        let account = match input.key {
            None => None,
            Some(key) => {
                let (Some(name), Some(city)) = (&input.merchant_name, &input.merchant_city) else {
                    return Err(ApiError::Validation(
                        [
                            ("merchant_name", input.merchant_name.is_none()),
                            ("merchant_city", input.merchant_city.is_none()),
                        ]
                        .into_iter()
                        .filter(|(_, missing)| *missing)
                        .map(|(field, _)| FieldError::new(field, "is required with a key"))
                        .collect(),
                    ));
                };
                Some(PixAccount::new(&key, name, city)?)
            }
        };
        use crate::views::event_data::ObjectPayload;
        let before = wire::OrganizationPix { pix: call.pix_account().map(pix_view) };
        let after = wire::OrganizationPix { pix: account.as_ref().map(pix_view) };
        let data = wire::OrganizationPixEventData::of(Some(&before), after);
        let evt = super::event(&call, "organization.pix.updated", call.org_id(), &data);
        if !call.store.set_pix_account(call.org_id(), account.as_ref(), Some(&evt)).await? {
            return Err(ApiError::NotFound("organization"));
        }
        // Tokens looked up before carry the old account: this process forgets them now (the
        // caller's next request, sent after the answer, reads the committed account) and again
        // once the change commits (a request in between may have cached the old one); other
        // processes within the token cache's lifetime.
        call.app.tokens.clear();
        let tokens = call.app.tokens.clone();
        call.store.after_commit(async move { tokens.clear() });
        let org = call.store.organization(call.org_id()).await?.ok_or(ApiError::NotFound("organization"))?;
        answer(&call, org).await
    }
}

/// The organization and the token, as `me` shows them.
async fn answer(call: &Call, org: OrganizationRow) -> ApiResult<Reply<MeEnvelope>> {
    let receiver = call.store.active_payment_receiver(&org.id).await?;
    let p = &call.principal;
    let today = org.timezone.today(call.now);
    let data = wire::Me {
        organization: wire::MeOrganization {
            id: org.id,
            name: org.name,
            document: org.document,
            environment: stored(&org.environment, "environment")?,
            today: Day(today),
            weekday: weekday(today.weekday()),
            timezone: org.timezone.name().to_string(),
            now: Timestamp(call.now),
            pix: org.pix_account.as_ref().map(pix_view),
            payment_receiver: wire::MeOrganizationPaymentReceiver {
                configured: receiver.is_some(),
                last_delivery_at: receiver.and_then(|r| r.last_delivery_at).map(Timestamp),
            },
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

/// A day of the week as `me` names it.
fn weekday(day: time::Weekday) -> wire::MeOrganizationWeekday {
    use time::Weekday::*;
    use wire::MeOrganizationWeekday as W;
    match day {
        Monday => W::Monday,
        Tuesday => W::Tuesday,
        Wednesday => W::Wednesday,
        Thursday => W::Thursday,
        Friday => W::Friday,
        Saturday => W::Saturday,
        Sunday => W::Sunday,
    }
}

fn pix_view(a: &PixAccount) -> wire::PixAccount {
    wire::PixAccount {
        key: a.key.clone(),
        key_type: a.kind,
        merchant_name: a.merchant_name.clone(),
        merchant_city: a.merchant_city.clone(),
    }
}
