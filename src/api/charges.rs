//! /v1/charges: what a debtor owes, and its life from pending to paid or canceled.

use super::{ApiError, ApiResult, Call, ListArgs, Reply, csv, event};
use crate::changes::{next_action, save_change, settle};
use crate::domain::charge::{Charge, ChargeEdit, NewCharge, Outcome, Payment};
use crate::domain::money::Hundredths;
use crate::domain::payment_codes::BoletoGiven;
use crate::domain::text;
use crate::store::ChargeFilter;
use crate::types::{self as wire, ChargeEnvelope, ChargeList};
use crate::views::charge::{charge_event_view, into_view};
use crate::views::event_data::ObjectPayload;

/// The handlers of the `charges` tag.
pub struct Charges;

/// One charge as the answer, with its ETag.
fn reply(call: &Call, c: Charge) -> Reply<ChargeEnvelope> {
    let version = c.version;
    Reply::versioned(ChargeEnvelope { data: into_view(c, call.today(), call.pix_account()) }, version)
}

async fn load(call: &Call, id: &str) -> ApiResult<Charge> {
    call.store.charge(call.org_id(), id).await?.ok_or(ApiError::NotFound("charge"))
}

/// Saves a changed charge with its event, answering the new charge; a concurrent change is a
/// conflict to retry.
async fn save(
    call: &Call,
    before: &Charge,
    after: Charge,
    code: &str,
    extra: impl FnOnce(&mut wire::ChargeEventData),
) -> ApiResult<Reply<ChargeEnvelope>> {
    let saved = save_change(&call.acting(), before, after, code, extra).await?;
    Ok(reply(call, saved))
}

/// A policy charges are put under (`field`): one of the organization's, not archived.
pub(crate) async fn check_policy(call: &Call, field: &str, cp_id: &str) -> ApiResult<()> {
    match call.store.policy(call.org_id(), cp_id).await? {
        None => Err(ApiError::field(field, "no collection policy with this id exists")),
        Some(p) if p.status == wire::PolicyStatus::Archived => {
            Err(ApiError::field(field, "the collection policy is archived"))
        }
        Some(_) => Ok(()),
    }
}

impl super::handlers::ChargesApi for Charges {
    async fn portfolio_get(
        call: Call,
        _input: wire::PortfolioGetInput,
    ) -> ApiResult<Reply<wire::PortfolioEnvelope>> {
        super::portfolio::portfolio(&call).await
    }

    async fn charges_list(call: Call, input: wire::ChargesListInput) -> ApiResult<Reply<ChargeList>> {
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
        let filter = ChargeFilter {
            statuses: csv(input.status),
            dunning_statuses: csv(input.dunning_status),
            debtor_ids: csv(input.debtor_id),
            due_from: input.due_date_from.map(|d| crate::domain::dates::format_date(d.0)),
            due_to: input.due_date_to.map(|d| crate::domain::dates::format_date(d.0)),
            credit_bureau_statuses: csv(input.credit_bureau_status),
            protest_statuses: csv(input.protest_status),
            window,
        };
        let page = call.store.charges(call.org_id(), &filter).await?;
        let day = call.today();
        let data = page.rows.into_iter().map(|c| into_view(c, day, call.pix_account())).collect();
        let pages = pager.meta(page.total);
        let meta = wire::ChargeListMeta {
            total: pages.total,
            page: pages.page,
            per_page: pages.per_page,
            total_pages: pages.total_pages,
            amount_sum: Hundredths(page.sums.amount),
            balance_sum: Hundredths(page.sums.amount - page.sums.paid),
        };
        Ok(Reply::new(ChargeList { data, meta }))
    }

    /// A past due date starts the charge overdue (importing old debts).
    async fn charges_create(call: Call, input: wire::ChargesCreateInput) -> ApiResult<Reply<ChargeEnvelope>> {
        let debtor = call
            .store
            .debtor_without_balance(call.org_id(), &input.debtor_id)
            .await?
            .ok_or_else(|| ApiError::field("debtor_id", "no debtor with this id exists"))?;
        let cp_id: Option<String> = match input.cp_id.map(String::from) {
            Some(cp_id) => {
                check_policy(&call, "cp_id", &cp_id).await?;
                Some(cp_id)
            }
            // The debtor's own policy, while it is one to follow; else the organization's default.
            None => match &debtor.default_cp_id {
                Some(cp_id) if check_policy(&call, "default_cp_id", cp_id).await.is_ok() => {
                    Some(cp_id.clone())
                }
                _ => None,
            },
        };
        let new = NewCharge {
            cp_id,
            amount: input.amount,
            due_date: input.due_date.0,
            issue_date: input.issue_date.map(|d| d.0),
            description: input.description.map(Into::into),
            external_id: input.external_id.map(Into::into),
            payment_method: input.payment_method,
            boleto: input.boleto.map(boleto_given),
            pix: input.pix.map(|p| p.emv),
            fine: input.fine_percentage,
            interest: input.interest_monthly_percentage,
            tags: input.tags.map(text::strings),
            metadata: input.metadata.map(text::string_map),
        };
        let mut charge = Charge::open(&debtor, new, call.now, call.zone())?;
        charge.next_action_at = next_action(&call.acting(), &charge).await?;
        let data = wire::ChargeEventData::of(None, charge_event_view(&charge, call.today()));
        let evt = event(&call, "charge.db.created", &charge.id, &data);
        call.store.insert_charge(&charge, &evt).await?;
        Ok(reply(&call, charge))
    }

    async fn charges_get(call: Call, input: wire::ChargesGetInput) -> ApiResult<Reply<ChargeEnvelope>> {
        let charge = load(&call, &input.id).await?;
        Ok(reply(&call, charge))
    }

    /// Only while the charge is pending or overdue.
    async fn charges_update(call: Call, input: wire::ChargesUpdateInput) -> ApiResult<Reply<ChargeEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        let cp_id: Option<Option<String>> = input.cp_id.map(|c| c.map(Into::into));
        if let Some(Some(cp_id)) = &cp_id {
            check_policy(&call, "cp_id", cp_id).await?;
        }
        let edit = ChargeEdit {
            cp_id,
            amount: input.amount,
            due_date: input.due_date.map(|d| d.0),
            description: input.description.map(|d| d.map(Into::into)),
            external_id: input.external_id.map(|e| e.map(Into::into)),
            boleto: input.boleto.map(|b| b.map(boleto_given)),
            pix: input.pix.map(|p| p.map(|p| p.emv)),
            tags: input.tags.map(text::strings),
            metadata: input.metadata.map(text::string_map),
        };
        after.edit(edit, call.now, call.zone())?;
        if after == before {
            return Ok(reply(&call, before));
        }
        save(&call, &before, after, "charge.db.updated", |_| {}).await
    }

    /// Records a payment; the full balance makes the charge paid.
    async fn charges_settle(call: Call, input: wire::ChargesSettleInput) -> ApiResult<Reply<ChargeEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let payment = Payment {
            amount: input.paid_amount,
            paid_at: input.paid_at.map(|t| t.0),
            method: input.payment_method,
        };
        Ok(reply(&call, settle(&call.acting(), before, payment).await?))
    }

    /// Canceling a canceled charge is a no-op.
    async fn charges_cancel(call: Call, input: wire::ChargesCancelInput) -> ApiResult<Reply<ChargeEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        match after.cancel(input.reason.map(Into::into), call.now)? {
            Outcome::Unchanged => Ok(reply(&call, before)),
            Outcome::Changed => save(&call, &before, after, "charge.canceled", |_| {}).await,
        }
    }

    /// Writing off a written-off charge is a no-op.
    async fn charges_write_off(
        call: Call,
        input: wire::ChargesWriteOffInput,
    ) -> ApiResult<Reply<ChargeEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        match after.write_off(input.reason.into(), call.now)? {
            Outcome::Unchanged => Ok(reply(&call, before)),
            Outcome::Changed => save(&call, &before, after, "charge.written_off", |_| {}).await,
        }
    }

    /// A decision to renegotiate, report or protest makes the agreement, report or protest in
    /// the same unit of work.
    async fn charges_decide(call: Call, input: wire::ChargesDecideInput) -> ApiResult<Reply<ChargeEnvelope>> {
        use wire::Decision;
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let details = [
            ("agreement", input.agreement.is_some(), Decision::Agreement, true),
            ("credit_bureau", input.credit_bureau.is_some(), Decision::CreditBureau, false),
            ("protest", input.protest.is_some(), Decision::Protest, true),
        ];
        for (field, given, decision, required) in details {
            if given && input.decision != decision {
                return Err(ApiError::field(
                    field,
                    format!("is only taken with decision {}", decision.as_str()),
                ));
            }
            if required && !given && input.decision == decision {
                return Err(ApiError::field(
                    field,
                    format!("is required with decision {}", decision.as_str()),
                ));
            }
        }
        if let Some(protest) = &input.protest {
            text_field("protest.document_number", &protest.document_number)?;
        }
        if let Some(nature) = input.credit_bureau.as_ref().and_then(|c| c.nature.as_ref()) {
            text_field("credit_bureau.nature", nature)?;
        }
        let mut after = before.clone();
        let reason: String = input.reason.into();
        after.decide(input.decision, reason.clone(), call.now)?;
        let decision = input.decision;
        let decided = save_change(&call.acting(), &before, after, "charge.decided", |data| {
            data.decision = Some(decision);
            data.reason = Some(Some(reason));
        })
        .await?;
        use super::escalations::{file_protest, file_report};
        if let Some(terms) = input.agreement {
            let grace_days = terms.grace_days_before_broken;
            let terms = super::agreements::terms_input!(terms);
            super::agreements::make_agreement(&call, &[decided.id.as_str()], terms, grace_days).await?;
        } else if input.decision == Decision::CreditBureau {
            let chosen =
                input.credit_bureau.unwrap_or(wire::DecisionCreditBureau { bureau: None, nature: None });
            let bureau = chosen.bureau.unwrap_or(crate::domain::credit_bureau::DEFAULT_BUREAU);
            let nature =
                chosen.nature.unwrap_or_else(|| crate::domain::credit_bureau::DEFAULT_NATURE.to_string());
            file_report(&call, &decided, bureau, nature).await?;
        } else if let Some(protest) = input.protest {
            file_protest(&call, &decided, protest.title_type, protest.document_number).await?;
        } else {
            return Ok(reply(&call, decided));
        }
        Ok(reply(&call, load(&call, &decided.id).await?))
    }

    async fn charges_pause(call: Call, input: wire::ChargesPauseInput) -> ApiResult<Reply<ChargeEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        match after.pause(input.until.map(|d| d.0), call.today())? {
            Outcome::Unchanged => Ok(reply(&call, before)),
            Outcome::Changed => {
                let reason: Option<String> = input.reason.map(Into::into);
                save(&call, &before, after, "charge.paused", |data| data.reason = Some(reason)).await
            }
        }
    }

    async fn charges_resume(call: Call, input: wire::ChargesResumeInput) -> ApiResult<Reply<ChargeEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        match after.resume()? {
            Outcome::Unchanged => Ok(reply(&call, before)),
            Outcome::Changed => save(&call, &before, after, "charge.resumed", |_| {}).await,
        }
    }

    async fn charges_settlement_letter(
        call: Call,
        input: wire::ChargesSettlementLetterInput,
    ) -> ApiResult<crate::api::File> {
        let charge = load(&call, &input.id).await?;
        let debtor =
            call.store.debtor(call.org_id(), &charge.debtor_id).await?.ok_or(ApiError::NotFound("debtor"))?;
        super::papers::settlement_letter(&call, &charge, &debtor).await
    }

    /// The QR code of the Pix code the charge shows now.
    async fn charges_pix_qr(call: Call, input: wire::ChargesPixQrInput) -> ApiResult<crate::api::File> {
        let charge = load(&call, &input.id).await?;
        let Some(code) = charge.pix_code(call.pix_account()) else {
            return Err(ApiError::InvalidState {
                message: "The charge has no Pix code to pay: give it one, or set the organization's Pix key \
                          (organization_pix_update). A closed charge has none."
                    .into(),
                status: charge.status.as_str().to_string(),
                allowed: vec!["pix_code"],
            });
        };
        let bytes = crate::documents::qr::png(&code).map_err(|e| ApiError::Internal(e.to_string().into()))?;
        Ok(crate::api::File::named("image/png", &format!("pix-{}", charge.id), "png", bytes))
    }

    /// A message now, outside the régua.
    async fn charges_notify(
        call: Call,
        input: wire::ChargesNotifyInput,
    ) -> ApiResult<Reply<wire::NotificationEnvelope>> {
        let charge = load(&call, &input.id).await?;
        super::notifications::notify_now(&call, &charge, input.channel, input.template).await
    }
}

/// A free-text field nested in a body, which no generated text type reads.
fn text_field(field: &str, value: &str) -> ApiResult<()> {
    crate::domain::text::check(value, false).map_err(|e| ApiError::field(field, e.to_string()))
}

/// A boleto as the API received it.
fn boleto_given(b: wire::BoletoInput) -> BoletoGiven {
    BoletoGiven { line: b.line, barcode: b.barcode, url: b.url }
}
