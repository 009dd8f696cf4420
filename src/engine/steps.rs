//! The steps of the organization's active policies whose day and time have come, each run over
//! the charges it is due for: a message, or a stop for a person (or a report or protest filed).

use futures_util::StreamExt;
use time::{Date, Duration, OffsetDateTime};

use super::clock::PassClock;
use super::escalations;
use super::events::charge_event;
use super::report::{PassReport, Progress};
use super::writes::committed;
use super::{CATCH_UP_DAYS, OUTSIDE_BATCH};
use crate::domain::calendar;
use crate::domain::charge::Charge;
use crate::domain::dates::{format_date, format_timestamp};
use crate::domain::notification::{Composing, Notification, Source};
use crate::domain::pix_account::PixAccount;
use crate::domain::policy::{Policy, Step};
use crate::outbound::delivery::{Courier, Recorded};
use crate::store::{NewEvent, StoreResult, Unit};
use crate::types::{NotificationOrigin, StepAction};

/// Charges a message step sends to in one transaction.
const BATCH: usize = 100;

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
pub(super) struct Sending<'a> {
    pub(super) sandbox: bool,
    pub(super) pix_account: Option<&'a PixAccount>,
}

/// Runs every due step of the organization's active policies.
pub(super) async fn run_steps(
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
        self.deliver(recorded, report).await
    }

    /// The messages of a committed batch, handed to their providers: every one at once (at most
    /// `OUTSIDE_BATCH` are for an outside one), each attempt saved by itself as it ends.
    async fn deliver(
        self,
        recorded: Vec<(Recorded, OffsetDateTime)>,
        report: &mut PassReport,
    ) -> StoreResult<()> {
        let courier = self.courier;
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
