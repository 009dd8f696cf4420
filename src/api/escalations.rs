//! What stands against a debtor because of a charge: its credit-bureau report and its protest.
//! Filing one (the create operations, a decision, the engine), and taking it back when the
//! debt ends (a charge paid, canceled or renegotiated), in the unit of work of the change.

use super::event_data::ObjectPayload;
use super::{ApiError, ApiResult, Call, ListArgs, csv, event};
use crate::domain::charge::Charge;
use crate::domain::credit_bureau::Report;
use crate::domain::dates::{Day, Timestamp};
use crate::domain::protest::Protest;
use crate::domain::text::Text;
use crate::store::EscalationFilter;
use crate::types::{self as wire, AmountListMeta, CreditBureau, ProtestTitleType, SortOrder};

/// The arguments of the report and protest lists.
pub(crate) struct ListInput {
    pub page: Option<i64>,
    pub per_page: Option<i64>,
    pub sort_order: Option<SortOrder>,
    pub charge_id: Option<Text>,
    pub debtor_id: Option<Text>,
    pub status: Option<Text>,
}

/// The filter of a report or protest list, and the page's meta once the total is known.
pub(crate) fn list_filter(
    input: ListInput,
    zone: &crate::domain::dates::Zone,
) -> (EscalationFilter, impl FnOnce(i64, i64) -> AmountListMeta) {
    let (window, pager) = ListArgs::plain(input.page, input.per_page, input.sort_order).page(zone);
    let filter = EscalationFilter {
        charge_ids: csv(input.charge_id),
        debtor_ids: csv(input.debtor_id),
        statuses: csv(input.status),
        ascending: input.sort_order == Some(SortOrder::Asc),
        limit: window.limit,
        offset: window.offset,
    };
    (filter, move |total, amount_cents| pager.amount_meta(total, amount_cents))
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

/// The public view of a report.
pub(crate) fn report_view(r: &Report) -> wire::CreditBureauReport {
    wire::CreditBureauReport {
        id: r.id.clone(),
        charge_id: r.charge_id.clone(),
        debtor_id: r.debtor_id.clone(),
        debtor_name: r.debtor_name.clone(),
        charge_description: r.charge_description.clone(),
        bureau: r.bureau,
        status: r.status,
        amount: r.amount,
        nature: r.nature.clone(),
        notice_notification_id: r.notice_notification_id.clone(),
        requested_at: Timestamp(r.requested_at),
        notice_sent_at: r.notice_sent_at.map(Timestamp),
        included_at: r.included_at.map(Timestamp),
        removal_requested_at: r.removal_requested_at.map(Timestamp),
        removal_due_by: r.removal_due_by.map(Day),
        removed_at: r.removed_at.map(Timestamp),
        canceled_at: r.canceled_at.map(Timestamp),
        remove_reason: r.remove_reason,
        failure_reason: r.failure_reason.clone(),
        external_protocol: r.external_protocol.clone(),
        version: r.version,
        created_at: Timestamp(r.created_at),
        updated_at: Timestamp(r.updated_at),
    }
}

/// The public view of a protest.
pub(crate) fn protest_view(p: &Protest) -> wire::Protest {
    wire::Protest {
        id: p.id.clone(),
        charge_id: p.charge_id.clone(),
        debtor_id: p.debtor_id.clone(),
        debtor_name: p.debtor_name.clone(),
        charge_description: p.charge_description.clone(),
        status: p.status,
        amount: p.amount,
        title_type: p.title_type,
        document_number: p.document_number.clone(),
        notary: wire::Notary {
            name: p.notary.name.clone(),
            city: p.notary.city.clone(),
            state: p.notary.state.clone(),
        },
        protocol_number: p.protocol_number.clone(),
        requested_at: Timestamp(p.requested_at),
        sent_at: p.sent_at.map(Timestamp),
        intimated_at: p.intimated_at.map(Timestamp),
        protested_at: p.protested_at.map(Timestamp),
        paid_at: p.paid_at.map(Timestamp),
        withdrawn_at: p.withdrawn_at.map(Timestamp),
        cancellation_requested_at: p.cancellation_requested_at.map(Timestamp),
        canceled_at: p.canceled_at.map(Timestamp),
        costs_amount: p.costs_amount,
        failure_reason: p.failure_reason.clone(),
        version: p.version,
        created_at: Timestamp(p.created_at),
        updated_at: Timestamp(p.updated_at),
    }
}

/// A sandbox organization's reports and protests are simulated; a production one's go through
/// the HTTP gateway, which the server must have to file them.
async fn check_provider(call: &Call, what: &str) -> ApiResult<()> {
    if call.app.providers.has_gateway() || call.store.is_sandbox(call.org_id()).await? {
        return Ok(());
    }
    Err(ApiError::InvalidState {
        message: format!(
            "this server has no gateway to reach a {what} (--gateway-url), so a production organization \
             cannot file one; a sandbox organization simulates it"
        ),
        status: "no_gateway".into(),
        allowed: vec!["gateway_configured"],
    })
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
    let debtor =
        call.store.debtor(call.org_id(), &charge.debtor_id).await?.ok_or(ApiError::NotFound("debtor"))?;
    let notice = call.store.letter_notice(call.org_id(), &charge.id).await?;
    let report = Report::file(charge, &debtor, notice.as_deref(), bureau, nature, call.now)?;
    check_provider(call, "credit-bureau").await?;
    if let Some(live) = call.store.live_credit_bureau_report(call.org_id(), &charge.id).await? {
        return Err(ApiError::Conflict(format!(
            "charge {} already has credit-bureau report {} ({})",
            charge.id,
            live.id,
            live.status.as_str()
        )));
    }
    let data = wire::CreditBureauReportEventData::of(None, report_view(&report));
    let evt = event(call, report.event_code(), &report.id, &data);
    if !call.store.insert_credit_bureau_report(&report, charge.version, &evt).await? {
        return Err(ApiError::Concurrent("charge"));
    }
    Ok(report)
}

/// Sends `charge` to protest on the title `title_type` number `document_number`.
pub(crate) async fn file_protest(
    call: &Call,
    charge: &Charge,
    title_type: ProtestTitleType,
    document_number: String,
) -> ApiResult<Protest> {
    let debtor =
        call.store.debtor(call.org_id(), &charge.debtor_id).await?.ok_or(ApiError::NotFound("debtor"))?;
    let protest = Protest::file(charge, &debtor, title_type, document_number, call.now)?;
    check_provider(call, "protest").await?;
    if let Some(live) = call.store.live_protest(call.org_id(), &charge.id).await? {
        return Err(ApiError::Conflict(format!(
            "charge {} already has protest {} ({})",
            charge.id,
            live.id,
            live.status.as_str()
        )));
    }
    let data = wire::ProtestEventData::of(None, protest_view(&protest));
    let evt = event(call, protest.event_code(), &protest.id, &data);
    if !call.store.insert_protest(&protest, charge.version, &evt).await? {
        return Err(ApiError::Concurrent("charge"));
    }
    Ok(protest)
}

/// Saves a report a person changed, with the event its new status calls for.
pub(crate) async fn save_report(call: &Call, before: &Report, after: &Report) -> ApiResult<()> {
    let data = wire::CreditBureauReportEventData::of(Some(&report_view(before)), report_view(after));
    let evt = event(call, after.event_code(), &after.id, &data);
    if !call.store.update_credit_bureau_report(after, before.version, &evt).await? {
        return Err(ApiError::Concurrent("credit-bureau report"));
    }
    Ok(())
}

/// Saves a protest a person changed, with the event its new status calls for.
pub(crate) async fn save_protest(call: &Call, before: &Protest, after: &Protest) -> ApiResult<()> {
    let data = wire::ProtestEventData::of(Some(&protest_view(before)), protest_view(after));
    let evt = event(call, after.event_code(), &after.id, &data);
    if !call.store.update_protest(after, before.version, &evt).await? {
        return Err(ApiError::Concurrent("protest"));
    }
    Ok(())
}

/// What the end of a debt does to its report and protest, worked out before the charge is
/// saved (the charge carries their new statuses) and saved after it.
#[derive(Default)]
pub(crate) struct Withdrawal {
    report: Option<(Report, Report)>,
    protest: Option<(Protest, Protest)>,
}

impl Withdrawal {
    /// The change from `before` to `after` ended the debt: its report is canceled or its removal
    /// requested (due 5 business days from today), its protest withdrawn or its cancellation
    /// requested; `after` gets their statuses.
    pub(crate) async fn of(call: &Call, before: &Charge, after: &mut Charge) -> ApiResult<Self> {
        let mut withdrawal = Self::default();
        let Some(ending) = after.ending(before) else { return Ok(withdrawal) };
        if after.credit_bureau_status.is_some()
            && let Some(report) = call.store.live_credit_bureau_report(call.org_id(), &after.id).await?
        {
            let mut removed = report.clone();
            // Removal is due 5 business days after the payment (which may be dated back).
            let ended = match (ending, after.paid_at) {
                (crate::domain::charge::Ending::Paid, Some(paid_at)) => {
                    call.zone().today(paid_at).min(call.today())
                }
                _ => call.today(),
            };
            if removed.debt_ended(ending, ended, call.now) {
                after.credit_bureau_status = Some(removed.status);
                withdrawal.report = Some((report, removed));
            }
        }
        if after.protest_status.is_some()
            && let Some(protest) = call.store.live_protest(call.org_id(), &after.id).await?
        {
            let mut withdrawn = protest.clone();
            if withdrawn.debt_ended(ending, call.now) {
                after.protest_status = Some(withdrawn.status);
                withdrawal.protest = Some((protest, withdrawn));
            }
        }
        Ok(withdrawal)
    }

    /// Saves the report and protest changed, once the charge is saved.
    pub(crate) async fn save(self, call: &Call) -> ApiResult<()> {
        if let Some((before, after)) = &self.report {
            save_report(call, before, after).await?;
        }
        if let Some((before, after)) = &self.protest {
            save_protest(call, before, after).await?;
        }
        Ok(())
    }
}
