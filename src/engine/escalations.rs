//! The engine's part in credit-bureau reports and protests:
//! - a `credit_bureau` or `protest` step that needs no approval files the report or protest
//!   itself, once per charge and step (the escalation row and the filing commit together); a rule
//!   that refuses it (no letter sent, no full address, the debtor blocked, no document number,
//!   a production organization without a gateway) leaves the charge awaiting a decision, with
//!   the refusal in the event;
//! - in a sandbox organization, the bureau's and the notary's steps are played on the engine's
//!   clock, with the delays `domain::credit_bureau` and `domain::protest` document;
//! - in a production one, whatever the bureau or the notary must still be told (a new report or
//!   title, a removal, a withdrawal, an anuência) goes to the HTTP gateway, signed, once per
//!   pass until the gateway takes it (2xx; a refusal of a new one fails it with the reason); the
//!   steps they take come back as signed status callbacks ([`callback`]).

use serde_json::{Value, json};

use super::{PassClock, committed, engine_event};
use crate::api::ApiError;
use crate::api::escalations::{protest_view, report_view};
use crate::api::event_data::ObjectPayload;
use crate::domain::charge::{Charge, Outcome};
use crate::domain::credit_bureau::{DEFAULT_BUREAU, DEFAULT_NATURE, Report};
use crate::domain::dates::format_timestamp;
use crate::domain::policy::Step;
use crate::domain::protest::Protest;
use crate::providers::{ProviderError, Providers};
use crate::store::{Store, StoreResult};
use crate::types as wire;

/// What the sandbox's bureau and notary did in a pass, or what the gateway took.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Moved {
    pub reports: u64,
    pub protests: u64,
    /// Requests the gateway took.
    pub submitted: u64,
}

/// How a step's own report went.
pub enum Filed {
    /// The report is filed (or one was already under way) and the step is marked run.
    Done,
    /// The charge changed meanwhile, or the step already ran: the next pass looks again.
    Skipped,
    /// A rule refuses it: a person decides instead.
    Refused(String),
}

/// A report's move, as its event carries it.
fn report_moved(before: &Report, after: &Report) -> wire::CreditBureauReportEventData {
    wire::CreditBureauReportEventData::of(Some(&report_view(before)), report_view(after))
}

/// A protest's move, as its event carries it.
fn protest_moved(before: &Protest, after: &Protest) -> wire::ProtestEventData {
    wire::ProtestEventData::of(Some(&protest_view(before)), protest_view(after))
}

/// Plays the next step of a sandbox organization's reports and protests that wait on the bureau
/// or the notary; tells the gateway what a production organization's still owe.
pub async fn follow(
    store: &Store,
    providers: &Providers,
    org_id: &str,
    sandbox: bool,
    clock: &PassClock,
) -> StoreResult<Moved> {
    let mut moved = Moved::default();
    if !sandbox {
        if providers.has_gateway() {
            moved.submitted = submit(store, providers, org_id, clock).await?;
        }
        return Ok(moved);
    }
    let today = clock.today();
    for report in store.moving_credit_bureau_reports(org_id).await? {
        let stamp = clock.stamp(report.updated_at);
        let mut after = report.clone();
        if !after.advance_sandbox(today, stamp, &clock.zone) {
            continue;
        }
        let event =
            engine_event(after.event_code(), &after.id, org_id, &report_moved(&report, &after), stamp);
        if store.update_credit_bureau_report(&after, report.version, &event).await? {
            committed();
            moved.reports += 1;
        }
    }
    for protest in store.moving_protests(org_id).await? {
        let stamp = clock.stamp(protest.updated_at);
        let mut after = protest.clone();
        if !after.advance_sandbox(today, stamp, &clock.zone) {
            continue;
        }
        let event =
            engine_event(after.event_code(), &after.id, org_id, &protest_moved(&protest, &after), stamp);
        if store.update_protest(&after, protest.version, &event).await? {
            committed();
            moved.protests += 1;
        }
    }
    Ok(moved)
}

/// Files the report or protest a `credit_bureau` or `protest` step that needs no approval
/// calls for, in one unit with the row that marks the step run for the charge; `reachable`
/// says whether a bureau or notary can be (a sandbox's simulated one, or the gateway). A
/// protest's title is the step's `title_type` numbered by the charge's `external_id`.
pub async fn escalate_on_its_own(
    store: &Store,
    step: &Step,
    charge: &Charge,
    reachable: bool,
    now: time::OffsetDateTime,
) -> StoreResult<Filed> {
    if !reachable {
        return Ok(Filed::Refused(
            "no gateway is configured to reach a bureau or a notary (--gateway-url)".into(),
        ));
    }
    let org_id = charge.organization_id.as_str();
    let unit = store.begin().await?;
    let in_unit = unit.store();
    match in_unit.charge(org_id, &charge.id).await? {
        Some(current) if current.version == charge.version => {}
        _ => return Ok(Filed::Skipped),
    }
    let Some(debtor) = in_unit.debtor(org_id, &charge.debtor_id).await? else { return Ok(Filed::Skipped) };
    let filed = match step.action {
        crate::types::StepAction::Protest => {
            let (Some(title_type), Some(number)) = (step.title_type, charge.external_id.clone()) else {
                return Ok(Filed::Refused(
                    "the charge has no external_id: a protest needs the number of the debt document".into(),
                ));
            };
            match Protest::file(charge, &debtor, title_type, number, now) {
                Ok(protest) => Escalation::Protest(protest),
                Err(refused) => return Ok(Filed::Refused(refused.to_string())),
            }
        }
        _ => {
            let notice = in_unit.letter_notice(org_id, &charge.id).await?;
            match Report::file(charge, &debtor, notice.as_deref(), DEFAULT_BUREAU, DEFAULT_NATURE.into(), now)
            {
                Ok(report) => Escalation::Report(report),
                Err(refused) => return Ok(Filed::Refused(refused.to_string())),
            }
        }
    };
    if !in_unit.record_escalation(&charge.id, &step.id, org_id, &format_timestamp(now)).await? {
        return Ok(Filed::Skipped);
    }
    // One a person filed already stands for the step.
    let inserted = match filed {
        Escalation::Report(report)
            if in_unit.live_credit_bureau_report(org_id, &charge.id).await?.is_none() =>
        {
            let mut data = wire::CreditBureauReportEventData::of(None, report_view(&report));
            data.step_id = Some(step.id.clone());
            let event = engine_event(report.event_code(), &report.id, org_id, &data, now);
            in_unit.insert_credit_bureau_report(&report, charge.version, &event).await?
        }
        Escalation::Protest(protest) if in_unit.live_protest(org_id, &charge.id).await?.is_none() => {
            let mut data = wire::ProtestEventData::of(None, protest_view(&protest));
            data.step_id = Some(step.id.clone());
            let event = engine_event(protest.event_code(), &protest.id, org_id, &data, now);
            in_unit.insert_protest(&protest, charge.version, &event).await?
        }
        _ => true,
    };
    if !inserted {
        return Ok(Filed::Skipped);
    }
    unit.commit().await?;
    Ok(Filed::Done)
}

/// What a step files on its own.
enum Escalation {
    Report(Report),
    Protest(Protest),
}

/// The debtor as the bureau and the notary need them.
async fn debtor_part(store: &Store, org_id: &str, debtor_id: &str) -> StoreResult<Value> {
    let Some(d) = store.debtor(org_id, debtor_id).await? else { return Ok(Value::Null) };
    Ok(json!({
        "name": d.name,
        "document": d.document,
        "person_type": d.person_type.as_str(),
        "address": d.address,
    }))
}

/// What the gateway gets for `kind` of report `r`.
async fn report_request(store: &Store, r: &Report, kind: &str) -> StoreResult<Value> {
    let mut body = json!({
        "kind": kind, "id": r.id, "organization_id": r.organization_id, "charge_id": r.charge_id,
        "bureau": r.bureau.as_str(),
    });
    if kind == "credit_bureau_report.add" {
        let due_date =
            store.charge(&r.organization_id, &r.charge_id).await?.map(|c| format_date_value(c.due_date));
        body["amount"] = json!(r.amount);
        body["nature"] = json!(r.nature);
        body["due_date"] = due_date.unwrap_or(Value::Null);
        body["notice_notification_id"] = json!(r.notice_notification_id);
        body["debtor"] = debtor_part(store, &r.organization_id, &r.debtor_id).await?;
    } else {
        body["reason"] = json!(r.remove_reason.map(|reason| reason.as_str()));
        body["removal_due_by"] = json!(r.removal_due_by.map(format_date_value));
    }
    Ok(body)
}

/// What the gateway gets for `kind` of protest `p`.
async fn protest_request(store: &Store, p: &Protest, kind: &str) -> StoreResult<Value> {
    let mut body = json!({
        "kind": kind, "id": p.id, "organization_id": p.organization_id, "charge_id": p.charge_id,
        "protocol_number": p.protocol_number,
    });
    if kind == "protest.send" {
        body["amount"] = json!(p.amount);
        body["title_type"] = json!(p.title_type.as_str());
        body["document_number"] = json!(p.document_number);
        body["notary"] = json!({ "name": p.notary.name, "city": p.notary.city, "state": p.notary.state });
        body["debtor"] = debtor_part(store, &p.organization_id, &p.debtor_id).await?;
    }
    Ok(body)
}

fn format_date_value(day: time::Date) -> Value {
    Value::String(crate::domain::dates::format_date(day))
}

/// Sends the gateway what the organization's reports and protests owe; how many it took. A
/// transient failure is tried again on the next pass; a refused new report or title fails it.
async fn submit(store: &Store, providers: &Providers, org_id: &str, clock: &PassClock) -> StoreResult<u64> {
    let mut taken = 0;
    for r in store.owed_credit_bureau_reports(org_id).await? {
        let Some(kind) = r.owed_to_bureau() else {
            store.report_submitted(&r.id, r.status.as_str()).await?;
            continue;
        };
        let body = report_request(store, &r, kind).await?;
        match providers.escalate(kind, &format!("{}:{kind}", r.id), &body).await {
            Ok(_) => {
                store.report_submitted(&r.id, r.status.as_str()).await?;
                taken += 1;
            }
            Err(e) => refused_report(store, &r, kind, e, clock).await?,
        }
    }
    for p in store.owed_protests(org_id).await? {
        let Some(kind) = p.owed_to_notary() else {
            store.protest_submitted(&p.id, p.status.as_str()).await?;
            continue;
        };
        let body = protest_request(store, &p, kind).await?;
        match providers.escalate(kind, &format!("{}:{kind}", p.id), &body).await {
            Ok(_) => {
                store.protest_submitted(&p.id, p.status.as_str()).await?;
                taken += 1;
            }
            Err(e) => refused_protest(store, &p, kind, e, clock).await?,
        }
    }
    Ok(taken)
}

/// A request the gateway did not take: logged; a new report it refuses for good fails.
async fn refused_report(
    store: &Store,
    r: &Report,
    kind: &str,
    e: ProviderError,
    clock: &PassClock,
) -> StoreResult<()> {
    tracing::warn!(report = %r.id, kind, error = %e.reason(), transient = e.is_transient(), "gateway did not take a credit-bureau request");
    if e.is_transient() || kind != "credit_bureau_report.add" {
        return Ok(());
    }
    let stamp = clock.stamp(r.updated_at);
    let status = crate::types::CreditBureauReportStatus::Failed;
    let mut failed = r.clone();
    let reason = Some(e.reason().to_string());
    if failed.bureau_says(status, None, reason, clock.zone.today(stamp), stamp).is_ok() {
        let org_id = failed.organization_id.as_str();
        let event = engine_event(failed.event_code(), &failed.id, org_id, &report_moved(r, &failed), stamp);
        if store.update_credit_bureau_report(&failed, r.version, &event).await? {
            store.report_submitted(&failed.id, status.as_str()).await?;
        }
    }
    Ok(())
}

/// A request the gateway did not take: logged; a new title it refuses for good is rejected.
async fn refused_protest(
    store: &Store,
    p: &Protest,
    kind: &str,
    e: ProviderError,
    clock: &PassClock,
) -> StoreResult<()> {
    tracing::warn!(protest = %p.id, kind, error = %e.reason(), transient = e.is_transient(), "gateway did not take a protest request");
    if e.is_transient() || kind != "protest.send" {
        return Ok(());
    }
    let stamp = clock.stamp(p.updated_at);
    let status = crate::types::ProtestStatus::Rejected;
    let mut rejected = p.clone();
    if rejected.notary_says(status, None, Some(e.reason().to_string()), None, stamp).is_ok() {
        let org_id = rejected.organization_id.as_str();
        let event =
            engine_event(rejected.event_code(), &rejected.id, org_id, &protest_moved(p, &rejected), stamp);
        if store.update_protest(&rejected, p.version, &event).await? {
            store.protest_submitted(&rejected.id, status.as_str()).await?;
        }
    }
    Ok(())
}

/// A status callback from the gateway: a step the bureau or the notary took.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Callback {
    /// `credit_bureau_report` or `protest`.
    object: String,
    id: String,
    status: String,
    #[serde(default)]
    protocol: Option<String>,
    #[serde(default)]
    failure_reason: Option<String>,
    /// The notary's costs, in reais.
    #[serde(default)]
    costs_amount: Option<Value>,
}

/// A short line of text from the gateway, or why it is refused.
fn line(field: &str, value: Option<String>) -> Result<Option<String>, ApiError> {
    match value {
        Some(v) if v.chars().count() > 200 => Err(ApiError::field(field, "must be at most 200 characters")),
        Some(v) => crate::domain::text::check(&v, false)
            .map(|()| Some(v))
            .map_err(|e| ApiError::field(field, e.to_string())),
        None => Ok(None),
    }
}

/// Applies a status callback whose signature the caller checked: the report or protest takes
/// the step, with its event and the charge's mirrored status, in one unit of work. A protest
/// paid at the notary pays its charge (and takes back the charge's credit-bureau report). The
/// answer is the object as the API shows it. A sandbox organization's objects are the engine's
/// simulation: no callback reaches them.
pub async fn callback(store: &Store, body: &[u8], now: time::OffsetDateTime) -> Result<Value, ApiError> {
    let callback: Callback = serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(format!("the callback is not the expected JSON: {e}")))?;
    let protocol = line("protocol", callback.protocol)?;
    let failure_reason = line("failure_reason", callback.failure_reason)?;
    let costs = match callback.costs_amount.as_ref().map(crate::domain::cents_from_json) {
        None => None,
        Some(Ok(cents)) if cents >= 0 => Some(crate::domain::money::Hundredths(cents)),
        Some(Ok(_)) => return Err(ApiError::field("costs_amount", "must not be negative")),
        Some(Err(e)) => return Err(ApiError::field("costs_amount", e.to_string())),
    };
    let unit = store.begin().await?;
    let in_unit = unit.store();
    let answer = match callback.object.as_str() {
        "credit_bureau_report" => {
            let status =
                callback.status.parse().map_err(|_| ApiError::field("status", "is not a report status"))?;
            let report = in_unit.report_by_id(&callback.id).await?;
            let (Some(before), Some(zone)) = (
                report.as_ref(),
                production_zone(in_unit, report.as_ref().map(|r| r.organization_id.as_str())).await?,
            ) else {
                return Err(ApiError::NotFound("credit-bureau report"));
            };
            let mut after = before.clone();
            let stamp = now.max(before.updated_at);
            let today = zone.today(stamp);
            if after.bureau_says(status, protocol, failure_reason, today, stamp)? == Outcome::Changed {
                let org_id = after.organization_id.as_str();
                let event =
                    engine_event(after.event_code(), &after.id, org_id, &report_moved(before, &after), stamp);
                if !in_unit.update_credit_bureau_report(&after, before.version, &event).await? {
                    return Err(ApiError::Concurrent("credit-bureau report"));
                }
                in_unit.report_submitted(&after.id, status.as_str()).await?;
            }
            crate::api::to_json(&report_view(&after))
        }
        "protest" => {
            let status =
                callback.status.parse().map_err(|_| ApiError::field("status", "is not a protest status"))?;
            let protest = in_unit.protest_by_id(&callback.id).await?;
            let (Some(before), Some(zone)) = (
                protest.as_ref(),
                production_zone(in_unit, protest.as_ref().map(|p| p.organization_id.as_str())).await?,
            ) else {
                return Err(ApiError::NotFound("protest"));
            };
            let mut after = before.clone();
            let stamp = now.max(before.updated_at);
            if after.notary_says(status, protocol, failure_reason, costs, stamp)? == Outcome::Changed {
                if after.status == crate::types::ProtestStatus::Paid {
                    paid_at_the_notary(in_unit, &after, stamp, &zone).await?;
                }
                let data = protest_moved(before, &after);
                let event = engine_event(after.event_code(), &after.id, &after.organization_id, &data, stamp);
                if !in_unit.update_protest(&after, before.version, &event).await? {
                    return Err(ApiError::Concurrent("protest"));
                }
                in_unit.protest_submitted(&after.id, status.as_str()).await?;
            }
            crate::api::to_json(&crate::api::escalations::protest_view(&after))
        }
        _ => return Err(ApiError::field("object", "must be credit_bureau_report or protest")),
    };
    unit.commit().await?;
    Ok(answer)
}

/// The time zone of a production organization; `None` for a sandbox (whose escalations the
/// engine plays, so a gateway never speaks for them) or an organization that does not exist.
async fn production_zone(
    store: &Store,
    org_id: Option<&str>,
) -> StoreResult<Option<crate::domain::dates::Zone>> {
    let Some(org_id) = org_id else { return Ok(None) };
    Ok(store.organization(org_id).await?.filter(|o| o.environment != "sandbox").map(|o| o.timezone))
}

/// The debtor paid the title at the notary: the charge is paid, and its credit-bureau report
/// (if one stands) is taken back, due 5 business days later. A charge no longer open (written
/// off, canceled) keeps its state: the payment shows on the protest, for a person to settle.
async fn paid_at_the_notary(
    store: &Store,
    protest: &Protest,
    now: time::OffsetDateTime,
    zone: &crate::domain::dates::Zone,
) -> Result<(), ApiError> {
    let org_id = protest.organization_id.as_str();
    let Some(before) = store.charge(org_id, &protest.charge_id).await? else { return Ok(()) };
    if !crate::domain::charge::OPEN.contains(&before.status) {
        return Ok(());
    }
    let mut after = before.clone();
    let payment = crate::domain::charge::Payment { amount: None, paid_at: Some(now), method: None };
    if after.settle(payment, now)?.is_none() {
        return Ok(());
    }
    after.protest_status = Some(protest.status);
    let today = zone.today(now);
    let mut report_change = None;
    if let Some(report) = store.live_credit_bureau_report(org_id, &after.id).await? {
        let mut removed = report.clone();
        if removed.debt_ended(crate::domain::charge::Ending::Paid, today, now) {
            after.credit_bureau_status = Some(removed.status);
            report_change = Some((report, removed));
        }
    }
    after.touch(now);
    let protest_id = protest.id.clone();
    let event = super::charge_event(&before, &after, "charge.paid", today, now, |data| {
        data.protest_id = Some(protest_id)
    });
    if !store.update_charge(&after, before.version, &event).await? {
        return Err(ApiError::Concurrent("charge"));
    }
    if let Some((report, removed)) = report_change {
        let event =
            engine_event(removed.event_code(), &removed.id, org_id, &report_moved(&report, &removed), now);
        if !store.update_credit_bureau_report(&removed, report.version, &event).await? {
            return Err(ApiError::Concurrent("credit-bureau report"));
        }
    }
    Ok(())
}
