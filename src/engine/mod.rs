//! The régua's engine: passes over every organization at an instant. In each pass:
//! - a pending charge turns overdue the day after its effective due date, in the organization's
//!   day, with the `charge.overdue` event the API writes for any other change;
//! - on a business day, inside a policy's send window, each active step whose day and time have
//!   come gives each open charge under the policy its notification (at most one per charge and
//!   step: the store's unique index), or stops the régua for a human (escalations);
//! - queued notifications whose attempt is due (retries, or a crashed sender's whose lease ran
//!   out) are sent again.
//!
//! Steps are not sent retroactively: a step whose day came before the charge existed, or more
//! than [`CATCH_UP_DAYS`] ago (the engine was down), is left out.
//!
//! A pass can run at any time and any number of times, on any number of processes: each change
//! is saved only if the charge is still at the version read, so two engines never turn one
//! charge twice. The work on one charge is one transaction (for a step: the notification, the
//! charge's change and their events), so a pass that dies midway leaves nothing half done, and
//! the next pass at the same instant writes what an uninterrupted one would have.
//!
//! For crash tests, `KOBANA_DUNNING_ABORT_AFTER_WRITES=N` makes the process abort right after
//! the engine's N-th committed write (see [`committed`]).

mod agreements;
pub mod background;
mod escalations;
pub mod exports;
pub mod webhooks;

pub use escalations::callback as gateway_callback;

use std::sync::Arc;
use std::time::Duration as StdDuration;

use time::OffsetDateTime;

use std::collections::HashMap;

use time::{Date, Duration};

use futures_util::StreamExt;

use crate::app::App;
use crate::domain::calendar;
use crate::domain::charge::Charge;
use crate::domain::dates::{Zone, format_date, format_timestamp};
use crate::domain::ids::new_id;
use crate::domain::notification::{Composing, NOTIFIABLE, Notification, Source};
use crate::domain::pix_account::PixAccount;
use crate::domain::policy::{Policy, Step};
use crate::outbound::delivery::{Actor, Courier, Recorded};
use crate::providers::Providers;
use crate::store::{NewEvent, Store, StoreResult, Unit};
use crate::types::{self as wire, NotificationOrigin, StepAction};
use crate::views::charge::charge_event_view;
use crate::views::event_data::{ObjectPayload, Payload, to_data};

/// How often `serve` runs a pass.
pub const PERIOD: StdDuration = StdDuration::from_secs(60);
/// Charges read and saved at a time.
const PAGE: i64 = 500;
/// Charges a message step sends to in one transaction.
const BATCH: usize = 100;
/// Charges in a unit whose messages go to an outside provider (the HTTP gateway, SMTP), all
/// handed over at once when it commits, so this is also the most messages in flight to one
/// provider: each starts as its unit commits and ends within its provider's time limit, well
/// inside the lease its record took.
pub const OUTSIDE_BATCH: usize = 16;
pub use crate::domain::policy::CATCH_UP_DAYS;

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PassReport {
    /// Charges turned overdue.
    pub turned_overdue: u64,
    /// Charges whose pause ended, their régua resumed.
    pub resumed: u64,
    /// Charges whose next action was computed again after their policy changed.
    pub rescheduled: u64,
    /// Notifications a provider took (first attempts and retries).
    pub sent: u64,
    /// Notifications that could not go (opt-out, missing contact, charge closed).
    pub skipped: u64,
    /// Notifications whose attempt failed (retried later, or failed for good).
    pub failed: u64,
    /// Charges an escalation step stopped for a human.
    pub awaiting_decision: u64,
    /// Agreements whose down payment was paid.
    pub agreements_activated: u64,
    /// Agreements paid in full (their renegotiated charges are paid).
    pub agreements_completed: u64,
    /// Agreements broken by an installment late past the grace days.
    pub agreements_broken: u64,
    /// Credit-bureau reports and protests the engine filed on its own (steps that need no
    /// approval).
    pub escalations_filed: u64,
    /// Steps of reports and protests the sandbox's bureau and notary took.
    pub escalations_moved: u64,
    /// Requests about reports and protests the gateway took (production).
    pub escalations_submitted: u64,
    /// Messages due that the pass left for the next send window: the window closed first.
    pub carried_over: u64,
    /// Charges the pass read from the store (what it found due, and each one read again as it
    /// acted): the work it did, not the size of the organizations.
    pub charges_read: u64,
}

impl PassReport {
    fn count(&mut self, n: &Notification) {
        use crate::types::NotificationStatus::*;
        match n.status {
            Sent => self.sent += 1,
            Skipped => self.skipped += 1,
            Queued | Failed => self.failed += 1,
            _ => {}
        }
    }
}

/// One pass at `now`.
/// `now` decides what is due (a test or an operator may pass another instant); changes are
/// stamped with the pass's clock, `now` plus the time the pass has taken, and never earlier
/// than the charge's last change. One organization's failure is logged and the others go on.
pub async fn run_once(store: &Store, providers: &Providers, now: OffsetDateTime) -> StoreResult<PassReport> {
    run_once_reporting(store, providers, now, &|_| {}).await
}

/// What hears a pass's counts as it goes (a terminal's progress line).
pub type Progress<'a> = &'a (dyn Fn(&PassReport) + Sync);

/// [`run_once`], telling `progress` the counts so far after each organization's housekeeping
/// and each batch of messages.
pub async fn run_once_reporting(
    store: &Store,
    providers: &Providers,
    now: OffsetDateTime,
    progress: Progress<'_>,
) -> StoreResult<PassReport> {
    let started = std::time::Instant::now();
    let mut report = PassReport::default();
    let courier = Courier { store, providers, actor: Actor::engine() };
    let mut organizations = HashMap::new();
    for org in store.organizations().await? {
        let clock = PassClock { now, started, zone: org.timezone.clone() };
        let sandbox = org.environment == "sandbox";
        let org_id = org.id.clone();
        let pix_account = org.pix_account.clone();
        organizations.insert(org.id, (sandbox, org.timezone));
        let result = async {
            turn_overdue(store, &org_id, &clock, &mut report).await?;
            end_pauses(store, &org_id, &clock, &mut report).await?;
            reschedule(store, &org_id, &clock, &mut report).await?;
            skip_missed(store, &org_id, &clock, &mut report).await?;
            let moved = agreements::follow(store, &org_id, &clock).await?;
            report.agreements_activated += moved.activated;
            report.agreements_completed += moved.completed;
            report.agreements_broken += moved.broken;
            let played = escalations::follow(store, providers, &org_id, sandbox, &clock).await?;
            report.escalations_moved += played.reports + played.protests;
            report.escalations_submitted += played.submitted;
            progress(&report);
            let sending = Sending { sandbox, pix_account: pix_account.as_ref() };
            run_steps(&courier, &org_id, sending, &clock, &mut report, progress).await
        }
        .await;
        if let Err(e) = result {
            tracing::warn!(organization = %org_id, error = %e, "engine pass failed for an organization");
        }
    }
    let clock = PassClock { now, started, zone: Zone::default_zone() };
    retry_due(&courier, &clock, &organizations, &mut report).await?;
    Ok(report)
}

/// The due dates whose send day for `offset` falls from `first` to `last`: the send day grows
/// with the due date and lies at most a couple of weeks of holidays after `due + offset`.
fn due_range(offset: i64, first: Date, last: Date) -> Option<(Date, Date)> {
    let mut found: Option<(Date, Date)> = None;
    let mut due = first - Duration::days(offset + 15);
    while due <= last - Duration::days(offset) {
        let day = calendar::send_date(due, offset);
        if (first..=last).contains(&day) {
            found = Some(found.map_or((due, due), |(lo, _)| (lo, due)));
        }
        due += Duration::days(1);
    }
    found
}

/// What the messages of an organization's pass need of it: whether it is a sandbox (nothing
/// leaves) and its Pix account (codes for charges without their own).
#[derive(Clone, Copy)]
struct Sending<'a> {
    sandbox: bool,
    pix_account: Option<&'a PixAccount>,
}

/// Runs every due step of the organization's active policies.
async fn run_steps(
    courier: &Courier<'_>,
    org_id: &str,
    sending: Sending<'_>,
    clock: &PassClock,
    report: &mut PassReport,
    progress: Progress<'_>,
) -> StoreResult<()> {
    for policy in courier.store.active_policies(org_id).await? {
        // The policy's days and window count in its own zone when it has one.
        let clock = clock.in_zone(policy.zone_or(&clock.zone).clone());
        if !calendar::is_business_day(clock.today()) || !policy.window.contains(clock.minute()) {
            continue;
        }
        for step in policy.steps.iter().filter(|s| s.active) {
            StepRun { courier, policy: &policy, step, sending, clock: &clock, progress }.run(report).await?;
        }
    }
    Ok(())
}

/// One active step of a policy whose day and window are open, in a pass.
#[derive(Clone, Copy)]
struct StepRun<'a> {
    courier: &'a Courier<'a>,
    policy: &'a Policy,
    step: &'a Step,
    sending: Sending<'a>,
    clock: &'a PassClock,
    progress: Progress<'a>,
}

impl StepRun<'_> {
    /// The step over the charges it is due for, in due order. When the policy's send window closes
    /// meanwhile, the rest waits for the next window, where it comes first (it is due earliest).
    async fn run(self, report: &mut PassReport) -> StoreResult<()> {
        let StepRun { courier, policy, step, clock, .. } = self;
        let today = clock.today();
        let minute = clock.minute();
        let earliest = today - Duration::days(CATCH_UP_DAYS);
        let Some((from, to)) = due_range(step.offset_days, earliest, today) else { return Ok(()) };
        let listed = courier
            .store
            .charges_for_step(
                &policy.organization_id,
                (&policy.id, policy.is_default),
                (&format_date(from), &format_date(to)),
                &step.id,
                &format_timestamp(clock.now),
            )
            .await?;
        report.charges_read += listed.len() as u64;
        let send_minute = step.send_minute(policy.window);
        let due: Vec<Charge> = listed
            .into_iter()
            .filter(|charge| {
                let day = step.send_date(charge.due_date);
                let first_day = policy.first_send_day(step, charge.created_at, &clock.zone);
                (earliest.max(first_day)..=today).contains(&day) && (day < today || minute >= send_minute)
            })
            .collect();
        let files = matches!(step.action, StepAction::CreditBureau | StepAction::Protest);
        // A report or protest filed on its own runs in a unit of its own, one charge at a time.
        let on_its_own = files && !step.requires_approval;
        let outside = step.channel.is_some_and(|c| !courier.providers.records_only(self.sending.sandbox, c));
        let batch = if on_its_own {
            1
        } else if step.action == StepAction::Notify && outside {
            OUTSIDE_BATCH
        } else {
            BATCH
        };
        for (i, charges) in due.chunks(batch).enumerate() {
            if !policy.window.contains(clock.minute_as_it_runs()) {
                let left = (due.len() - i * batch) as u64;
                tracing::warn!(policy = %policy.id, step = %step.id, left, "send window closed before the step's messages all left; they go in the next window");
                report.carried_over += left;
                return Ok(());
            }
            match charges {
                [charge] if on_its_own => self.file(charge, report).await?,
                _ if step.action == StepAction::Notify => self.send_batch(charges, report).await?,
                _ => self.await_decisions(charges, report).await?,
            }
            (self.progress)(report);
        }
        Ok(())
    }

    /// A report or protest step that needs no approval, for one charge: files it when it can,
    /// else stops the régua for a person, saying why.
    async fn file(self, charge: &Charge, report: &mut PassReport) -> StoreResult<()> {
        let StepRun { courier, step, sending, clock, .. } = self;
        let store = courier.store;
        let stamp = clock.stamp(charge.updated_at);
        let reachable = sending.sandbox || courier.providers.has_gateway();
        let refusal = match escalations::escalate_on_its_own(store, step, charge, reachable, stamp).await? {
            escalations::Filed::Done => {
                committed();
                report.escalations_filed += 1;
                return Ok(());
            }
            escalations::Filed::Skipped => return Ok(()),
            escalations::Filed::Refused(why) => why,
        };
        let mut after = charge.clone();
        if after.await_decision(step.proposal(Some(refusal.clone()), stamp), stamp) {
            let event = self.decision_event(charge, &after, Some(refusal), stamp);
            if store.escalate_charge(&after, charge.version, &step.id, &event).await? {
                committed();
                report.awaiting_decision += 1;
            }
        }
        Ok(())
    }

    /// An escalation step that waits for a person, for a batch of charges in one transaction:
    /// each charge still at the version listed (and not held by another engine) stops for a
    /// decision.
    async fn await_decisions(self, batch: &[Charge], report: &mut PassReport) -> StoreResult<()> {
        let (unit, held) = self.claim(batch, report).await?;
        let mut stopped = 0;
        for charge in held {
            let stamp = self.clock.stamp(charge.updated_at);
            let mut after = charge.clone();
            if !after.await_decision(self.step.proposal(None, stamp), stamp) {
                continue;
            }
            let event = self.decision_event(charge, &after, None, stamp);
            // The unit holds its charges, so this cannot miss; were it to, nothing of the batch
            // is kept and the next pass stops them.
            if !unit.store().escalate_charge(&after, charge.version, &self.step.id, &event).await? {
                return Ok(());
            }
            stopped += 1;
        }
        unit.commit().await?;
        committed();
        report.awaiting_decision += stopped;
        Ok(())
    }

    /// The `charge.decision_required` event of a charge this step stopped; `refusal`, why it
    /// could not act on its own.
    fn decision_event(
        self,
        before: &Charge,
        after: &Charge,
        refusal: Option<String>,
        stamp: OffsetDateTime,
    ) -> NewEvent {
        let StepRun { policy, step, clock, .. } = self;
        charge_event(before, after, "charge.decision_required", clock.today(), stamp, |data| {
            data.step_id = Some(step.id.clone());
            data.action = Some(step.action);
            data.cp_id = Some(policy.id.clone());
            data.refused = refusal;
        })
    }

    /// A unit holding the charges of `batch` still at the version listed: on PostgreSQL, those
    /// another engine holds are left to it.
    async fn claim<'b>(
        self,
        batch: &'b [Charge],
        report: &mut PassReport,
    ) -> StoreResult<(Unit, Vec<&'b Charge>)> {
        let unit = self.courier.store.begin().await?;
        let ids: Vec<&str> = batch.iter().map(|c| c.id.as_str()).collect();
        let held = unit.store().claim_charges(&self.policy.organization_id, &ids).await?;
        report.charges_read += held.len() as u64;
        let current = batch
            .iter()
            .filter(|charge| held.iter().any(|c| c.id == charge.id && c.version == charge.version))
            .collect();
        Ok((unit, current))
    }

    /// A message step for a batch of charges, in one transaction: each charge still at the version
    /// listed (and, on PostgreSQL, not held by another engine, which takes the next batch) gets its
    /// notification and the régua's start (the first step sent starts it); the messages leave once
    /// it commits. A charge changed meanwhile gets nothing: the next pass judges it again.
    async fn send_batch(self, batch: &[Charge], report: &mut PassReport) -> StoreResult<()> {
        let StepRun { courier, policy, step, sending, clock, .. } = self;
        let (Some(channel), Some(template)) = (step.channel, step.template.as_ref()) else { return Ok(()) };
        let org_id = policy.organization_id.as_str();
        let today = clock.today();
        let (unit, held) = self.claim(batch, report).await?;
        let in_unit = unit.store();
        let recording =
            Courier { store: in_unit, providers: courier.providers, actor: courier.actor.clone() };
        let mut recorded = Vec::with_capacity(held.len());
        for charge in held {
            let Some(debtor) = in_unit.debtor(org_id, &charge.debtor_id).await? else { continue };
            let stamp = clock.stamp(charge.updated_at);
            let day = step.send_date(charge.due_date);
            let source = Source {
                origin: NotificationOrigin::Policy,
                cp_id: Some(policy.id.clone()),
                step_id: Some(step.id.clone()),
                resend_of_id: None,
                scheduled_for: clock.zone.instant(day, step.send_time(policy.window)),
            };
            // A step whose message cannot be made for this charge (it renders past its channel's
            // limits) is kept failed with the reason, once, rather than sent cut or tried each pass.
            let composing = Composing { now: stamp, zone: &clock.zone, pix_account: sending.pix_account };
            let n = match Notification::compose(charge, &debtor, channel, template, source.clone(), composing)
            {
                Ok(n) => n,
                Err(e) => {
                    let reason = unsendable_reason(e);
                    tracing::warn!(step = %step.id, charge = %charge.id, %reason, "step message cannot be made");
                    Notification::unsendable(charge, &debtor, channel, source, reason, stamp)
                }
            };
            let Some(made) = recording.record(n, sending.sandbox, Vec::new(), stamp).await? else { continue };
            let mut after = charge.clone();
            let next =
                policy.next_action(charge.due_date, Some(&step.id), charge.created_at, today, &clock.zone);
            if after.start_dunning(&step.id, next, stamp) {
                let event = charge_event(charge, &after, "charge.db.updated", today, stamp, |_| {});
                // The batch holds its charges, so this cannot miss; were it to, nothing of the batch
                // is kept (the unit rolls back) and the next pass sends it.
                if !in_unit.update_charge(&after, charge.version, &event).await? {
                    return Ok(());
                }
            }
            recorded.push((made, stamp));
        }
        unit.commit().await?;
        committed();
        // Every message of the batch goes to its provider at once (at most `OUTSIDE_BATCH` are
        // for an outside one), each attempt saved by itself as it ends.
        let delivered: Vec<StoreResult<Notification>> = futures_util::stream::iter(recorded)
            .map(|(made, stamp)| async move {
                match made {
                    Recorded::Done(n) => Ok(n),
                    Recorded::Deliver(pending) => {
                        let n = courier.deliver(pending, stamp).await?;
                        committed();
                        Ok(n)
                    }
                }
            })
            .buffer_unordered(OUTSIDE_BATCH)
            .collect()
            .await;
        // Each outcome was saved (or stays leased for a retry) on its own: count them all, then
        // say the first failure.
        let mut failure = None;
        for n in delivered {
            match n {
                Ok(n) => report.count(&n),
                Err(e) => failure = failure.or(Some(e)),
            }
        }
        failure.map_or(Ok(()), Err)
    }
}

/// Why a step's message cannot be made, in one line.
fn unsendable_reason(e: crate::domain::RuleError) -> String {
    match e {
        crate::domain::RuleError::Invalid(found) => {
            found.iter().map(|v| format!("{} {}", v.field, v.message)).collect::<Vec<_>>().join("; ")
        }
        other => other.to_string(),
    }
}

/// Counts a write the engine committed; aborts the process after the N-th when
/// `KOBANA_DUNNING_ABORT_AFTER_WRITES=N` is set (crash tests: whatever the pass had left to do
/// is then left undone, as after a crash at that point).
fn committed() {
    use std::sync::LazyLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    static LIMIT: LazyLock<Option<u64>> = LazyLock::new(|| {
        std::env::var("KOBANA_DUNNING_ABORT_AFTER_WRITES").ok().and_then(|n| n.parse().ok())
    });
    static WRITES: AtomicU64 = AtomicU64::new(0);
    if let Some(limit) = *LIMIT
        && WRITES.fetch_add(1, Ordering::SeqCst) + 1 >= limit
    {
        std::process::abort();
    }
}

/// What to do with a queued notification whose attempt is due.
enum Due {
    /// Send it now.
    Send,
    /// Not now: outside its policy's window or business days, or its charge's régua is paused
    /// or waits for a decision.
    Wait,
    /// Never: the charge closed, or the policy was archived.
    Skip(&'static str),
}

/// Whether a due notification goes now. A person's message goes while its charge takes
/// messages; the régua's follows the régua's rules, as its first attempt did.
fn judge(n: &Notification, charge: Option<&Charge>, policy: Option<&Policy>, clock: &PassClock) -> Due {
    use crate::types::{ChargeStatus, DunningStatus};
    let Some(charge) = charge else { return Due::Skip("charge_closed") };
    if n.origin != NotificationOrigin::Policy {
        return if NOTIFIABLE.contains(&charge.status) { Due::Send } else { Due::Skip("charge_closed") };
    }
    if !matches!(charge.status, ChargeStatus::Pending | ChargeStatus::Overdue)
        || charge.dunning_status == DunningStatus::Closed
    {
        return Due::Skip("charge_closed");
    }
    let Some(policy) = policy.filter(|p| p.status == crate::types::PolicyStatus::Active) else {
        return Due::Skip("policy_archived");
    };
    let clock = clock.in_zone(policy.zone_or(&clock.zone).clone());
    let open_now = calendar::is_business_day(clock.today()) && policy.window.contains(clock.minute());
    let runs = matches!(charge.dunning_status, DunningStatus::NotStarted | DunningStatus::Active);
    if open_now && runs { Due::Send } else { Due::Wait }
}

/// Sends again the queued notifications whose attempt is due, when [`judge`] says so.
async fn retry_due(
    courier: &Courier<'_>,
    clock: &PassClock,
    organizations: &HashMap<String, (bool, Zone)>,
    report: &mut PassReport,
) -> StoreResult<()> {
    let store = courier.store;
    let mut seen = std::collections::HashSet::new();
    let mut policies: HashMap<String, Option<Policy>> = HashMap::new();
    loop {
        let due = store.due_notifications(clock.now, PAGE).await?;
        let fresh: Vec<Notification> = due.into_iter().filter(|n| seen.insert(n.id.clone())).collect();
        if fresh.is_empty() {
            return Ok(());
        }
        for n in fresh {
            let stamp = clock.stamp(n.updated_at);
            let charge = store.charge(&n.organization_id, &n.charge_id).await?;
            let policy = match &n.cp_id {
                Some(cp_id) if !policies.contains_key(cp_id) => {
                    let p = store.policy(&n.organization_id, cp_id).await?;
                    policies.entry(cp_id.clone()).or_insert(p).as_ref()
                }
                Some(cp_id) => policies.get(cp_id).and_then(Option::as_ref),
                None => None,
            };
            // An organization created during the pass waits for the next one.
            let Some((sandbox, zone)) = organizations.get(&n.organization_id) else { continue };
            match judge(&n, charge.as_ref(), policy, &clock.in_zone(zone.clone())) {
                Due::Wait => {}
                Due::Skip(reason) => {
                    let mut after = n.clone();
                    after.skip(reason, stamp);
                    let event = courier.actor.event("notification.skipped", Some(&n), &after, stamp);
                    if store.update_notification(&after, n.version, &[event]).await? {
                        committed();
                        report.skipped += 1;
                    }
                }
                Due::Send => {
                    if let Some(after) = courier.retry(n, *sandbox, stamp).await? {
                        committed();
                        report.count(&after);
                    }
                }
            }
        }
    }
}

/// The instant a pass runs as, advancing with real time while it runs, and the zone the
/// organization (or policy) at hand counts its days in.
struct PassClock {
    now: OffsetDateTime,
    started: std::time::Instant,
    zone: Zone,
}

impl PassClock {
    /// The same instant, counted in another zone.
    fn in_zone(&self, zone: Zone) -> PassClock {
        PassClock { now: self.now, started: self.started, zone }
    }

    /// The pass's day in the zone.
    fn today(&self) -> Date {
        self.zone.today(self.now)
    }

    /// The pass's minute of the day in the zone.
    fn minute(&self) -> u16 {
        minute_of(self.zone.local(self.now))
    }

    /// The minute of the day in the zone now that the pass has run for a while: when it passes
    /// a window's end, the messages left wait for the next window.
    fn minute_as_it_runs(&self) -> u16 {
        minute_of(self.zone.local(self.stamp(self.now)))
    }

    /// The stamp of a change to something last changed at `last`.
    fn stamp(&self, last: OffsetDateTime) -> OffsetDateTime {
        let elapsed = time::Duration::try_from(self.started.elapsed()).unwrap_or(time::Duration::ZERO);
        (self.now + elapsed).max(last)
    }
}

fn minute_of(local: OffsetDateTime) -> u16 {
    u16::from(local.hour()) * 60 + u16::from(local.minute())
}

/// Turns the organization's late pending charges overdue.
async fn turn_overdue(
    store: &Store,
    org_id: &str,
    clock: &PassClock,
    report: &mut PassReport,
) -> StoreResult<()> {
    let today = clock.today();
    let before = format_date(today);
    let mut after: Option<(String, String)> = None;
    loop {
        let cursor = after.as_ref().map(|(d, i)| (d.as_str(), i.as_str()));
        let page = store.pending_due_before(org_id, &before, cursor, PAGE).await?;
        report.charges_read += page.len() as u64;
        let Some(last) = page.last() else { return Ok(()) };
        after = Some((format_date(last.due_date), last.id.clone()));
        let full = page.len() as i64 == PAGE;
        for before in page {
            let mut charge = before.clone();
            let stamp = clock.stamp(before.updated_at);
            if !charge.turn_overdue(today, stamp) {
                continue;
            }
            // Saved only at the version read: a charge changed meanwhile (paid, edited, turned
            // by another engine) is left to that change and judged again next pass.
            let event = overdue_event(&before, &charge, today, stamp);
            if store.update_charge(&charge, before.version, &event).await? {
                committed();
                report.turned_overdue += 1;
            }
        }
        if !full {
            return Ok(());
        }
    }
}

/// Resumes the régua of the organization's charges whose pause ends today.
async fn end_pauses(
    store: &Store,
    org_id: &str,
    clock: &PassClock,
    report: &mut PassReport,
) -> StoreResult<()> {
    let today = clock.today();
    // Each resumed charge leaves the query, so pages follow until one comes back short.
    loop {
        let page = store.pauses_ending(org_id, &format_date(today), PAGE).await?;
        report.charges_read += page.len() as u64;
        let full = page.len() as i64 == PAGE;
        let mut changed = 0;
        for before in page {
            let mut after = before.clone();
            let stamp = clock.stamp(before.updated_at);
            if !after.end_pause(today, stamp) {
                continue;
            }
            let policy = store.followed_policy(org_id, after.cp_id.as_deref()).await?;
            after.next_action_at = policy.and_then(|p| p.next_action_for(&after, &clock.zone, clock.now));
            let event = charge_event(&before, &after, "charge.resumed", today, stamp, |_| {});
            if store.update_charge(&after, before.version, &event).await? {
                committed();
                changed += 1;
            }
        }
        report.resumed += changed;
        if !full || changed == 0 {
            return Ok(());
        }
    }
}

/// Computes again when the régua acts next on the charges of each policy changed since the
/// last time (a step added, moved or removed; the window, zone or status changed; the default
/// passed to it). A charge changed meanwhile keeps the next action its own change computed.
async fn reschedule(
    store: &Store,
    org_id: &str,
    clock: &PassClock,
    report: &mut PassReport,
) -> StoreResult<()> {
    use crate::types::ChargeStatus;
    for policy in store.policies_to_reschedule(org_id).await? {
        let following = (policy.id.as_str(), policy.is_default);
        for status in [ChargeStatus::Pending, ChargeStatus::Overdue] {
            let mut after = (String::new(), String::new());
            loop {
                let cursor = (after.0.as_str(), after.1.as_str());
                let page = store.charges_following(org_id, following, status, cursor, PAGE).await?;
                report.charges_read += page.len() as u64;
                let changes: Vec<(&Charge, Option<OffsetDateTime>)> = page
                    .iter()
                    .map(|c| (c, policy.next_action_for(c, &clock.zone, clock.now)))
                    .filter(|(c, next)| c.next_action_at != *next)
                    .collect();
                store.reschedule_charges(&changes).await?;
                report.rescheduled += changes.len() as u64;
                match page.last() {
                    Some(last) if page.len() as i64 == PAGE => {
                        after = (format_date(last.due_date), last.id.clone())
                    }
                    _ => break,
                }
            }
        }
        store.policy_scheduled(&policy.id, policy.version).await?;
    }
    Ok(())
}

/// [`reschedule`] for one organization at `now`, outside a pass (after a bulk load); how many
/// charges' next action moved.
pub async fn reschedule_organization(store: &Store, org_id: &str, now: OffsetDateTime) -> StoreResult<u64> {
    let Some(org) = store.organization(org_id).await? else { return Ok(0) };
    let clock = PassClock { now, started: std::time::Instant::now(), zone: org.timezone };
    let mut report = PassReport::default();
    reschedule(store, org_id, &clock, &mut report).await?;
    Ok(report.rescheduled)
}

/// Moves on the next action of the organization's charges whose next step came more than
/// [`CATCH_UP_DAYS`] ago (the engine was down, or the step went without moving the charge on):
/// the engine no longer sends it, and a charge left waiting for it would be read every pass.
async fn skip_missed(
    store: &Store,
    org_id: &str,
    clock: &PassClock,
    report: &mut PassReport,
) -> StoreResult<()> {
    let earliest = clock.today() - Duration::days(CATCH_UP_DAYS);
    let before = format_timestamp(clock.zone.instant(earliest, time::Time::MIDNIGHT));
    let mut policies: HashMap<Option<String>, Option<Policy>> = HashMap::new();
    // Each moved charge leaves the query, so pages follow until one changes nothing.
    loop {
        let page = store.actions_missed(org_id, &before, PAGE).await?;
        report.charges_read += page.len() as u64;
        let mut changes = Vec::with_capacity(page.len());
        for charge in &page {
            if !policies.contains_key(&charge.cp_id) {
                let policy = store.followed_policy(org_id, charge.cp_id.as_deref()).await?;
                policies.insert(charge.cp_id.clone(), policy);
            }
            let policy = policies.get(&charge.cp_id).and_then(Option::as_ref);
            let next = policy.and_then(|p| p.next_action_for(charge, &clock.zone, clock.now));
            if next != charge.next_action_at {
                changes.push((charge, next));
            }
        }
        store.reschedule_charges(&changes).await?;
        report.rescheduled += changes.len() as u64;
        if page.len() as i64 != PAGE || changes.is_empty() {
            return Ok(());
        }
    }
}

/// The `charge.overdue` event, in the shape the API writes for changes.
fn overdue_event(before: &Charge, after: &Charge, today: time::Date, now: OffsetDateTime) -> NewEvent {
    charge_event(before, after, "charge.overdue", today, now, |_| {})
}

/// An event of the engine's about a charge, in the shape the API writes for changes.
fn charge_event(
    before: &Charge,
    after: &Charge,
    code: &str,
    today: time::Date,
    now: OffsetDateTime,
    extra: impl FnOnce(&mut wire::ChargeEventData),
) -> NewEvent {
    let mut data =
        wire::ChargeEventData::of(Some(&charge_event_view(before, today)), charge_event_view(after, today));
    extra(&mut data);
    engine_event(code, &after.id, &after.organization_id, &data, now)
}

/// An event the engine caused, carrying `data`.
fn engine_event<P: Payload>(
    code: &str,
    id: &str,
    organization_id: &str,
    data: &P,
    now: OffsetDateTime,
) -> NewEvent {
    NewEvent {
        id: new_id("evt"),
        organization_id: organization_id.to_string(),
        code: code.into(),
        resource_type: P::RESOURCE,
        resource_id: id.to_string(),
        actor_type: "system".into(),
        actor_id: "engine".into(),
        data: to_data(data),
        request_id: None,
        occurred_at: format_timestamp(now),
    }
}

/// Runs a pass on `store` every [`PERIOD`] until the process ends; `/metrics` hears of each.
/// `serve` runs it on the background thread ([`background::start`]).
pub fn spawn(app: Arc<App>, store: Store) -> tokio::task::JoinHandle<()> {
    every(PERIOD, "engine pass", move || {
        let app = app.clone();
        let store = store.clone();
        async move {
            let started = std::time::Instant::now();
            let report = run_once(&store, &app.providers, OffsetDateTime::now_utc()).await?;
            app.metrics.record_pass(started.elapsed(), report.carried_over);
            Ok(report)
        }
    })
}

/// Runs `run` every `period` for as long as the process lives: a run that did something, or took
/// a second or more, logs one line as `what` with its report and duration; one that failed logs
/// why (the next run tries again). A run longer than the period is followed by one period of
/// rest, not a burst.
pub(crate) fn every<R, F, Fut>(period: StdDuration, what: &'static str, run: F) -> tokio::task::JoinHandle<()>
where
    R: std::fmt::Debug + Default + PartialEq + Send,
    F: Fn() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = StoreResult<R>> + Send,
{
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let started = std::time::Instant::now();
            let result = run().await;
            let seconds = started.elapsed().as_secs_f64();
            match result {
                Ok(report) if report != R::default() || seconds >= 1.0 => {
                    tracing::info!(?report, seconds, "{what}")
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "{what} failed; the next run tries again"),
            }
        }
    })
}
