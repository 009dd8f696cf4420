//! /v1/debtors: the people and companies who owe.

use super::{ApiError, ApiResult, Call, ListArgs, NoContent, Reply, event};
use crate::domain::debtor::{Debtor, DebtorEdit};
use crate::domain::text;
use crate::store::DebtorFilter;
use crate::types::{self as wire, DebtorEnvelope, DebtorList};
use crate::views::debtor::{debtor_summary, debtor_view};
use crate::views::event_data::ObjectPayload;

/// The handlers of the `debtors` tag.
pub struct Debtors;

fn reply(d: &Debtor) -> Reply<DebtorEnvelope> {
    Reply::versioned(DebtorEnvelope { data: debtor_view(d) }, d.version)
}

/// Loads a debtor of the caller's organization, or NOT_FOUND.
async fn load(call: &Call, id: &str) -> ApiResult<Debtor> {
    call.store.debtor(call.org_id(), id).await?.ok_or(ApiError::NotFound("debtor"))
}

/// The opt-out channels a request sets (the others keep their value).
fn opt_out(o: Option<wire::OptOut>) -> Option<(Option<bool>, Option<bool>, Option<bool>)> {
    o.map(|o| (o.email, o.sms, o.whatsapp))
}

/// Saves a changed debtor with its event, answering the new debtor; a concurrent change is a
/// conflict to retry.
async fn save(
    call: &Call,
    before: &Debtor,
    mut after: Debtor,
    code: &str,
    reason: Option<Option<String>>,
) -> ApiResult<Reply<DebtorEnvelope>> {
    after.touch(call.now);
    let mut data = wire::DebtorEventData::of(Some(&debtor_view(before)), debtor_view(&after));
    data.reason = reason;
    let evt = event(call, code, &after.id, &data);
    if !call.store.update_debtor(&after, before.version, &evt).await? {
        return Err(ApiError::Concurrent("debtor"));
    }
    Ok(reply(&after))
}

impl super::handlers::DebtorsApi for Debtors {
    async fn debtors_list(call: Call, input: wire::DebtorsListInput) -> ApiResult<Reply<DebtorList>> {
        let (window, pager) = ListArgs {
            page: input.page,
            per_page: input.per_page,
            q: input.q.map(Into::into),
            created_from: input.created_from,
            created_to: input.created_to,
            sort_by: input.sort_by.map_or("created_at", |s| s.as_str()),
            sort_order: input.sort_order,
        }
        .page(call.zone());
        let filter = DebtorFilter {
            window,
            statuses: input
                .status
                .map(|s| s.split(',').map(str::trim).map(str::to_string).collect())
                .unwrap_or_default(),
            person_type: input.person_type.map(|p| p.as_str().to_string()),
        };
        let (debtors, total) = call.store.debtors(call.org_id(), &filter).await?;
        Ok(Reply::new(DebtorList {
            data: debtors.iter().map(debtor_summary).collect(),
            meta: pager.meta(total),
        }))
    }

    async fn debtors_create(call: Call, input: wire::DebtorsCreateInput) -> ApiResult<Reply<DebtorEnvelope>> {
        let edit = DebtorEdit {
            name: Some(input.name.into()),
            external_id: input.external_id.map(|e| Some(e.into())),
            email: input.email.map(|e| Some(e.into())),
            phone: input.phone.map(|p| Some(p.into())),
            mobile: input.mobile.map(|m| Some(m.into())),
            address: input.address.map(Some),
            birth_date: input.birth_date.map(|d| Some(d.0)),
            opt_out: opt_out(input.opt_out),
            credit_bureau_blocked: input.credit_bureau_blocked,
            default_cp_id: input.default_cp_id.map(|c| Some(c.into())),
            tags: input.tags.map(text::strings),
            metadata: input.metadata.map(text::string_map),
        };
        if let Some(Some(cp_id)) = &edit.default_cp_id {
            super::charges::check_policy(&call, "default_cp_id", cp_id).await?;
        }
        let debtor = Debtor::register(call.org_id(), &input.document, edit, call.now, call.zone())?;
        let evt = event(
            &call,
            "debtor.db.created",
            &debtor.id,
            &wire::DebtorEventData::of(None, debtor_view(&debtor)),
        );
        call.store.insert_debtor(&debtor, &evt).await?;
        Ok(reply(&debtor))
    }

    async fn debtors_get(call: Call, input: wire::DebtorsGetInput) -> ApiResult<Reply<DebtorEnvelope>> {
        Ok(reply(&load(&call, &input.id).await?))
    }

    async fn debtors_statement(
        call: Call,
        input: wire::DebtorsStatementInput,
    ) -> ApiResult<crate::api::File> {
        let debtor = load(&call, &input.id).await?;
        super::papers::statement(&call, &debtor).await
    }

    async fn debtors_update(call: Call, input: wire::DebtorsUpdateInput) -> ApiResult<Reply<DebtorEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        let edit = DebtorEdit {
            name: input.name.map(Into::into),
            external_id: input.external_id.map(|e| e.map(Into::into)),
            email: input.email.map(|e| e.map(Into::into)),
            phone: input.phone.map(|p| p.map(Into::into)),
            mobile: input.mobile.map(|m| m.map(Into::into)),
            address: input.address,
            birth_date: input.birth_date.map(|d| d.map(|d| d.0)),
            opt_out: opt_out(input.opt_out),
            credit_bureau_blocked: input.credit_bureau_blocked,
            default_cp_id: input.default_cp_id.map(|c| c.map(Into::into)),
            tags: input.tags.map(text::strings),
            metadata: input.metadata.map(text::string_map),
        };
        if let Some(Some(cp_id)) = &edit.default_cp_id {
            super::charges::check_policy(&call, "default_cp_id", cp_id).await?;
        }
        after.edit(edit, call.now, call.zone())?;
        if after == before {
            return Ok(reply(&before));
        }
        save(&call, &before, after, "debtor.db.updated", None).await
    }

    /// Archived debtors keep their charges but get no new ones.
    async fn debtors_archive(
        call: Call,
        input: wire::DebtorsArchiveInput,
    ) -> ApiResult<Reply<DebtorEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        if !after.archive(call.now) {
            return Ok(reply(&before));
        }
        let reason = Some(input.reason.map(Into::into));
        save(&call, &before, after, "debtor.archived", reason).await
    }

    /// Only a debtor without charges; others are archived instead.
    async fn debtors_delete(call: Call, input: wire::DebtorsDeleteInput) -> ApiResult<NoContent> {
        let d = load(&call, &input.id).await?;
        call.check_if_match(d.version)?;
        d.check_deletable(call.store.debtor_has_charges(call.org_id(), &d.id).await?)?;
        let evt = event(&call, "debtor.db.deleted", &d.id, &wire::DebtorEventData::of(None, debtor_view(&d)));
        if !call.store.delete_debtor(call.org_id(), &d.id, d.version, &evt).await? {
            return Err(ApiError::Concurrent("debtor"));
        }
        Ok(NoContent)
    }
}
