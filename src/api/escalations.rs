//! What stands against a debtor because of a charge: its credit-bureau report and its protest.
//! Filing one (the create operations, a decision, the engine), reading, listing and taking it
//! back (a person; the debt ending, a charge paid, canceled or renegotiated, in
//! `changes::Withdrawal`), in the unit of work of the change. Each kind's tag file
//! (`credit_bureau_reports.rs`, `protests.rs`) has its view and its handlers.

use super::{ApiError, ApiResult, Call, ListArgs, Reply, csv, event};
use crate::changes::save_escalation;
use crate::domain::RuleError;
use crate::domain::charge::{Charge, Outcome};
use crate::domain::credit_bureau::Report;
use crate::domain::debtor::Debtor;
use crate::domain::escalation::{Escalation, Status};
use crate::domain::protest::Protest;
use crate::domain::text::Text;
use crate::store::EscalationFilter;
use crate::types::{CreditBureau, ProtestTitleType, SortOrder};
use crate::views::escalation::{Shown, moved};

/// The arguments of the report and protest lists.
pub(crate) struct ListInput {
    pub page: Option<i64>,
    pub per_page: Option<i64>,
    pub sort_order: Option<SortOrder>,
    pub charge_id: Option<Text>,
    pub debtor_id: Option<Text>,
    pub status: Option<Text>,
}

/// The [`ListInput`] of a generated list input.
macro_rules! list_input {
    ($input:expr) => {
        $crate::api::escalations::ListInput {
            page: $input.page,
            per_page: $input.per_page,
            sort_order: $input.sort_order,
            charge_id: $input.charge_id,
            debtor_id: $input.debtor_id,
            status: $input.status,
        }
    };
}
pub(crate) use list_input;

/// One as an answer: its view in its envelope, at its version.
pub(crate) fn reply<K: Shown>(e: &Escalation<K>) -> Reply<K::Envelope> {
    Reply::versioned((K::ENVELOPE)((K::VIEW)(e)), e.version)
}

/// A page of one kind, as views with the page's meta.
pub(crate) async fn list<K: Shown>(call: &Call, input: ListInput) -> ApiResult<Reply<K::List>> {
    let (window, pager) = ListArgs::plain(input.page, input.per_page, input.sort_order).page(call.zone());
    let filter = EscalationFilter {
        charge_ids: csv(input.charge_id),
        debtor_ids: csv(input.debtor_id),
        statuses: csv(input.status),
        ascending: input.sort_order == Some(SortOrder::Asc),
        limit: window.limit,
        offset: window.offset,
    };
    let (found, total, amount_cents) = call.store.escalations::<K>(call.org_id(), &filter).await?;
    Ok(Reply::new((K::LIST)(found.iter().map(K::VIEW).collect(), pager.amount_meta(total, amount_cents))))
}

/// One of the organization's.
pub(crate) async fn load<K: Shown>(call: &Call, id: &str) -> ApiResult<Escalation<K>> {
    call.store.escalation(call.org_id(), id).await?.ok_or(ApiError::NotFound(K::NAME))
}

/// A person takes one back as `take_back` does, at the version the request names: the one
/// changed, or as it was when it already was on its way out.
pub(crate) async fn take_back<K: Shown>(
    call: &Call,
    id: &str,
    take_back: impl FnOnce(&mut Escalation<K>) -> Result<Outcome, RuleError>,
) -> ApiResult<Escalation<K>> {
    let before = load::<K>(call, id).await?;
    call.check_if_match(before.version)?;
    let mut after = before.clone();
    if take_back(&mut after)? == Outcome::Unchanged {
        return Ok(before);
    }
    save_escalation(&call.acting(), &before, &after).await?;
    Ok(after)
}

/// The charge a new report or protest names in its body (one of the organization's).
pub(crate) async fn escalated_charge(call: &Call, charge_id: &str) -> ApiResult<Charge> {
    let found = call.store.charge(call.org_id(), charge_id).await?;
    found.ok_or_else(|| ApiError::field("charge_id", "no charge with this id exists"))
}

/// Files a credit-bureau report of `charge`, after its prior notice.
pub(crate) async fn file_report(
    call: &Call,
    charge: &Charge,
    bureau: CreditBureau,
    nature: String,
) -> ApiResult<Report> {
    let notice = call.store.letter_notice(call.org_id(), &charge.id).await?;
    file(call, charge, |debtor| Report::file(charge, debtor, notice.as_deref(), bureau, nature, call.now))
        .await
}

/// Sends `charge` to protest on the title `title_type` number `document_number`.
pub(crate) async fn file_protest(
    call: &Call,
    charge: &Charge,
    title_type: ProtestTitleType,
    document_number: String,
) -> ApiResult<Protest> {
    file(call, charge, |debtor| Protest::file(charge, debtor, title_type, document_number, call.now)).await
}

/// Files what `filed` makes of `charge` and its debtor, unless one stands already. A sandbox
/// organization's are simulated; a production one's go through the HTTP gateway, which the
/// server must have to file them.
async fn file<K: Shown>(
    call: &Call,
    charge: &Charge,
    filed: impl FnOnce(&Debtor) -> Result<Escalation<K>, RuleError>,
) -> ApiResult<Escalation<K>> {
    let debtor =
        call.store.debtor(call.org_id(), &charge.debtor_id).await?.ok_or(ApiError::NotFound("debtor"))?;
    let new = filed(&debtor)?;
    if !call.app.providers.has_gateway() && !call.store.is_sandbox(call.org_id()).await? {
        return Err(ApiError::InvalidState {
            message: format!(
                "this server has no gateway to reach a {} (--gateway-url), so a production organization \
                 cannot file one; a sandbox organization simulates it",
                K::REACHED
            ),
            status: "no_gateway".into(),
            allowed: vec!["gateway_configured"],
        });
    }
    if let Some(live) = call.store.live_escalation::<K>(call.org_id(), &charge.id).await? {
        let (id, status) = (&live.id, live.status.name());
        return Err(ApiError::Conflict(format!(
            "charge {} already has {} {id} ({status})",
            charge.id,
            K::NAME
        )));
    }
    let evt = event(call, new.event_code(), &new.id, &moved(None, &new));
    if !call.store.insert_escalation(&new, charge.version, &evt).await? {
        return Err(ApiError::Concurrent("charge"));
    }
    Ok(new)
}
