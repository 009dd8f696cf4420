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

use std::future::Future;

use serde_json::{Value, json};

use super::{PassClock, committed, engine_event};
use crate::domain::charge::{Charge, Ending, Outcome};
use crate::domain::credit_bureau::{DEFAULT_BUREAU, DEFAULT_NATURE, Report, ReportDetails};
use crate::domain::dates::{Zone, format_timestamp};
use crate::domain::escalation::{Escalation, Heard, Kind};
use crate::domain::money::Hundredths;
use crate::domain::policy::Step;
use crate::domain::protest::{Protest, ProtestDetails};
use crate::error::ApiError;
use crate::providers::{ProviderError, Providers};
use crate::store::taken_back;
use crate::store::{Store, StoreResult};
use crate::types as wire;
use crate::views::escalation::{Shown, moved};

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

/// What one kind tells the outside through the gateway, and what a step it hears does beyond
/// the escalation itself.
trait Outside: Shown {
    /// What the gateway gets for `kind` of `e`.
    fn request(
        store: &Store,
        e: &Escalation<Self>,
        kind: &str,
    ) -> impl Future<Output = StoreResult<Value>> + Send;
    /// What a step heard from the outside does to the rest, before `e` is saved: nothing, for
    /// most.
    fn heard_beyond(
        _: &Store,
        _: &Escalation<Self>,
        _: time::OffsetDateTime,
        _: &Zone,
    ) -> impl Future<Output = Result<(), ApiError>> + Send {
        async { Ok(()) }
    }
}

impl Outside for ReportDetails {
    async fn request(store: &Store, r: &Report, kind: &str) -> StoreResult<Value> {
        let mut body = json!({
            "kind": kind, "id": r.id, "organization_id": r.organization_id, "charge_id": r.charge_id,
            "bureau": r.bureau.as_str(),
        });
        if kind == Self::FILE_REQUEST {
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
}

impl Outside for ProtestDetails {
    async fn request(store: &Store, p: &Protest, kind: &str) -> StoreResult<Value> {
        let mut body = json!({
            "kind": kind, "id": p.id, "organization_id": p.organization_id, "charge_id": p.charge_id,
            "protocol_number": p.protocol,
        });
        if kind == Self::FILE_REQUEST {
            body["amount"] = json!(p.amount);
            body["title_type"] = json!(p.title_type.as_str());
            body["document_number"] = json!(p.document_number);
            body["notary"] = json!({ "name": p.notary.name, "city": p.notary.city, "state": p.notary.state });
            body["debtor"] = debtor_part(store, &p.organization_id, &p.debtor_id).await?;
        }
        Ok(body)
    }

    /// Paid at the notary: the charge is paid.
    async fn heard_beyond(
        store: &Store,
        p: &Protest,
        now: time::OffsetDateTime,
        zone: &Zone,
    ) -> Result<(), ApiError> {
        if p.status == crate::types::ProtestStatus::Paid {
            paid_at_the_notary(store, p, now, zone).await?;
        }
        Ok(())
    }
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
            let reports = submit::<ReportDetails>(store, providers, org_id, clock).await?;
            moved.submitted = reports + submit::<ProtestDetails>(store, providers, org_id, clock).await?;
        }
        return Ok(moved);
    }
    moved.reports = play::<ReportDetails>(store, org_id, clock).await?;
    moved.protests = play::<ProtestDetails>(store, org_id, clock).await?;
    Ok(moved)
}

/// Plays the outside's next step of a sandbox organization's of one kind; how many moved.
async fn play<K: Shown>(store: &Store, org_id: &str, clock: &PassClock) -> StoreResult<u64> {
    let mut played = 0;
    for before in store.moving_escalations::<K>(org_id).await? {
        let stamp = clock.stamp(before.updated_at);
        let mut after = before.clone();
        if !after.advance_sandbox(clock.today(), stamp, &clock.zone) {
            continue;
        }
        let event = engine_event(after.event_code(), &after.id, org_id, &moved(Some(&before), &after), stamp);
        if store.update_escalation(&after, before.version, &event).await? {
            committed();
            played += 1;
        }
    }
    Ok(played)
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
            Protest::file(charge, &debtor, title_type, number, now).map(Filing::Protest)
        }
        _ => {
            let notice = in_unit.letter_notice(org_id, &charge.id).await?;
            let (bureau, nature) = (DEFAULT_BUREAU, DEFAULT_NATURE.into());
            Report::file(charge, &debtor, notice.as_deref(), bureau, nature, now).map(Filing::Report)
        }
    };
    let filed = match filed {
        Ok(filed) => filed,
        Err(refused) => return Ok(Filed::Refused(refused.to_string())),
    };
    if !in_unit.record_escalation(&charge.id, &step.id, org_id, &format_timestamp(now)).await? {
        return Ok(Filed::Skipped);
    }
    let inserted = match filed {
        Filing::Report(report) => {
            let data = |d: &mut wire::CreditBureauReportEventData| d.step_id = Some(step.id.clone());
            filed_by_step(in_unit, &report, data, charge.version, now).await?
        }
        Filing::Protest(protest) => {
            let data = |d: &mut wire::ProtestEventData| d.step_id = Some(step.id.clone());
            filed_by_step(in_unit, &protest, data, charge.version, now).await?
        }
    };
    if !inserted {
        return Ok(Filed::Skipped);
    }
    unit.commit().await?;
    Ok(Filed::Done)
}

/// What a step files on its own.
enum Filing {
    Report(Report),
    Protest(Protest),
}

/// Inserts what a step filed, with its event (`step` names the step in it); one a person filed
/// already stands for the step. False when the charge moved on.
async fn filed_by_step<K: Shown>(
    store: &Store,
    e: &Escalation<K>,
    step: impl FnOnce(&mut K::Payload),
    charge_version: i64,
    now: time::OffsetDateTime,
) -> StoreResult<bool> {
    if store.live_escalation::<K>(&e.organization_id, &e.charge_id).await?.is_some() {
        return Ok(true);
    }
    let mut data = moved(None, e);
    step(&mut data);
    let event = engine_event(e.event_code(), &e.id, &e.organization_id, &data, now);
    store.insert_escalation(e, charge_version, &event).await
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

fn format_date_value(day: time::Date) -> Value {
    Value::String(crate::domain::dates::format_date(day))
}

/// Sends the gateway what the organization's of one kind owe; how many it took. A transient
/// failure is tried again on the next pass; a refused new one fails.
async fn submit<K: Outside>(
    store: &Store,
    providers: &Providers,
    org_id: &str,
    clock: &PassClock,
) -> StoreResult<u64> {
    let mut taken = 0;
    for e in store.owed_escalations::<K>(org_id).await? {
        let Some(kind) = e.owed() else {
            store.escalation_submitted::<K>(&e.id, e.status).await?;
            continue;
        };
        let body = K::request(store, &e, kind).await?;
        match providers.escalate(kind, &format!("{}:{kind}", e.id), &body).await {
            Ok(_) => {
                store.escalation_submitted::<K>(&e.id, e.status).await?;
                taken += 1;
            }
            Err(err) => refused(store, &e, kind, err, clock).await?,
        }
    }
    Ok(taken)
}

/// A request the gateway did not take: logged; a new one it refuses for good fails.
async fn refused<K: Shown>(
    store: &Store,
    e: &Escalation<K>,
    kind: &str,
    err: ProviderError,
    clock: &PassClock,
) -> StoreResult<()> {
    let (error, transient) = (err.reason(), err.is_transient());
    tracing::warn!(id = %e.id, kind, %error, transient, "gateway did not take a {} request", K::REACHED);
    if transient || kind != K::FILE_REQUEST {
        return Ok(());
    }
    let stamp = clock.stamp(e.updated_at);
    let mut failed = e.clone();
    let (status, failure_reason) = (K::REFUSED, Some(error.to_string()));
    let heard = Heard { status, protocol: None, failure_reason, costs: None, today: clock.zone.today(stamp) };
    if failed.heard(heard, stamp).is_ok() {
        let org_id = failed.organization_id.as_str();
        let event = engine_event(failed.event_code(), &failed.id, org_id, &moved(Some(e), &failed), stamp);
        if store.update_escalation(&failed, e.version, &event).await? {
            store.escalation_submitted::<K>(&failed.id, status).await?;
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
        Some(Ok(cents)) if cents >= 0 => Some(Hundredths(cents)),
        Some(Ok(_)) => return Err(ApiError::field("costs_amount", "must not be negative")),
        Some(Err(e)) => return Err(ApiError::field("costs_amount", e.to_string())),
    };
    let unit = store.begin().await?;
    let in_unit = unit.store();
    let said = (callback.status.as_str(), protocol, failure_reason, costs);
    let answer = match callback.object.as_str() {
        "credit_bureau_report" => heard::<ReportDetails>(in_unit, &callback.id, said, now).await?,
        "protest" => heard::<ProtestDetails>(in_unit, &callback.id, said, now).await?,
        _ => return Err(ApiError::field("object", "must be credit_bureau_report or protest")),
    };
    unit.commit().await?;
    Ok(answer)
}

/// What the outside said of escalation `id`: its status, protocol, failure reason and costs.
type Said<'a> = (&'a str, Option<String>, Option<String>, Option<Hundredths>);

/// Applies what the outside `said` of escalation `id`, with its event, in the caller's unit of
/// work; the escalation as the API shows it.
async fn heard<K: Outside>(
    store: &Store,
    id: &str,
    said: Said<'_>,
    now: time::OffsetDateTime,
) -> Result<Value, ApiError> {
    let (status, protocol, failure_reason, costs) = said;
    let status: K::Status =
        status.parse().map_err(|_| ApiError::field("status", format!("is not a {} status", K::NOUN)))?;
    let found = store.escalation_by_id::<K>(id).await?;
    let org_id = found.as_ref().map(|e| e.organization_id.as_str());
    let (Some(before), Some(zone)) = (found.as_ref(), production_zone(store, org_id).await?) else {
        return Err(ApiError::NotFound(K::NAME));
    };
    let mut after = before.clone();
    let stamp = now.max(before.updated_at);
    let heard = Heard { status, protocol, failure_reason, costs, today: zone.today(stamp) };
    if after.heard(heard, stamp)? == Outcome::Changed {
        K::heard_beyond(store, &after, stamp, &zone).await?;
        let event = engine_event(
            after.event_code(),
            &after.id,
            &after.organization_id,
            &moved(Some(before), &after),
            stamp,
        );
        if !store.update_escalation(&after, before.version, &event).await? {
            return Err(ApiError::Concurrent(K::NAME));
        }
        store.escalation_submitted::<K>(&after.id, status).await?;
    }
    Ok(crate::views::to_json(&(K::VIEW)(&after)))
}

/// The time zone of a production organization; `None` for a sandbox (whose escalations the
/// engine plays, so a gateway never speaks for them) or an organization that does not exist.
async fn production_zone(store: &Store, org_id: Option<&str>) -> StoreResult<Option<Zone>> {
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
    zone: &Zone,
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
    let report_change =
        taken_back::<ReportDetails>(store, org_id, &after.id, Ending::Paid, today, now).await?;
    if let Some((_, removed)) = &report_change {
        after.credit_bureau_status = Some(removed.status);
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
            engine_event(removed.event_code(), &removed.id, org_id, &moved(Some(&report), &removed), now);
        if !store.update_escalation(&removed, report.version, &event).await? {
            return Err(ApiError::Concurrent("credit-bureau report"));
        }
    }
    Ok(())
}
