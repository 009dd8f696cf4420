//! The demo's régua: a default policy (e-mail at -3 days, SMS on the due date, WhatsApp at +1,
//! a letter at +5, a credit-bureau decision at +10), the notifications it would have sent over
//! the last 30 days, and upcoming charges placed so that a step falls on each of the next ten
//! business days: a new user sees a working régua at once, and `engine run-once` on any of
//! those days sends something.

use time::{Date, Duration, OffsetDateTime};

use crate::admin::AdminError;
use crate::domain::calendar;
use crate::domain::charge::{Charge, Proposal};
use crate::domain::debtor::Debtor;
use crate::domain::notification::{Attempt, Notification, Source};
use crate::domain::policy::{MessageTemplate, NewPolicy, Policy, StepDraft};
use crate::outbound::delivery::Actor;
use crate::store::Store;
use crate::types::{Channel, NotificationOrigin, NotificationStatus, PolicyStatus, StepAction};

/// How far back the demo's history of messages goes.
pub const HISTORY_DAYS: i64 = 30;

/// Business days ahead with a step due.
pub const UPCOMING_DAYS: usize = 10;

fn message(offset: i64, channel: Channel, subject: Option<&str>, body: &str) -> StepDraft {
    StepDraft {
        offset_days: Some(offset),
        channel: Some(channel),
        template: Some(MessageTemplate { subject: subject.map(str::to_string), body: body.to_string() }),
        ..StepDraft::default()
    }
}

/// The demo's default policy.
pub fn policy(org_id: &str, now: OffsetDateTime) -> Result<Policy, AdminError> {
    let steps = vec![
        message(
            -3,
            Channel::Email,
            Some("Sua cobrança de {{amount}} vence em {{due_date}}"),
            "Olá, {{debtor_name}}!\n\nLembramos que {{description}}, no valor de {{amount}}, vence em {{due_date}}.\n\nPix copia e cola: {{pix_code}}\n\nPadaria e Mercearia Boa Vista",
        ),
        message(
            0,
            Channel::Sms,
            None,
            "Boa Vista: {{debtor_name}}, sua cobranca de {{amount}} vence hoje ({{due_date}}). Pix: {{pix_code}}",
        ),
        message(
            1,
            Channel::Whatsapp,
            None,
            "Olá, {{debtor_name}}! A cobrança de {{amount}} venceu em {{due_date}}. Pix copia e cola: {{pix_code}}\nSe já pagou, desconsidere. Padaria Boa Vista",
        ),
        message(
            5,
            Channel::Letter,
            None,
            "Prezado(a) {{debtor_name}},\n\nConsta em aberto {{description}}, no valor de {{amount}}, vencida em {{due_date}} ({{days_overdue}} dias). Pedimos a regularização.",
        ),
        StepDraft { offset_days: Some(10), action: Some(StepAction::CreditBureau), ..StepDraft::default() },
    ];
    let new = NewPolicy {
        timezone: None,
        name: "Régua padrão".into(),
        description: Some(
            "Lembrete, vencimento, cobrança amigável, carta e decisão sobre negativação.".into(),
        ),
        status: PolicyStatus::Active,
        is_default: true,
        window: None,
        steps,
    };
    Policy::create(org_id, new, now).map_err(|e| AdminError::Invalid(format!("demo policy: {e}")))
}

/// Due dates whose e-mail (three days before) falls on each of the next ten business days
/// after `today`.
pub fn upcoming_due_dates(today: Date) -> Vec<Date> {
    let mut out = Vec::with_capacity(UPCOMING_DAYS);
    let mut day = today;
    while out.len() < UPCOMING_DAYS {
        day = calendar::add_business_days(day, 1);
        out.push(day + Duration::days(3));
    }
    out
}

/// The instant a step goes out on `day` at `minute` in the organization's time zone.
fn moment(day: Date, minute: u16) -> OffsetDateTime {
    let time = time::Time::from_hms(
        u8::try_from(minute / 60).unwrap_or(9),
        u8::try_from(minute % 60).unwrap_or(0),
        0,
    )
    .unwrap_or(time::Time::MIDNIGHT);
    super::zone().instant(day, time)
}

/// What the policy did for `open` (the charge as it was before any payment) before `today`:
/// the messages it sent in the last [`HISTORY_DAYS`], and whether an escalation came.
pub struct History {
    pub sent: Vec<Notification>,
    /// What the escalation step that came proposes, when one came.
    pub awaits_decision: Option<Proposal>,
}

/// The policy's past for one charge.
pub fn history(policy: &Policy, open: &Charge, debtor: &Debtor, today: Date) -> History {
    let created = super::zone().today(open.created_at);
    let mut out = History { sent: Vec::new(), awaits_decision: None };
    for (step, day) in policy.schedule(open.due_date) {
        if day >= today || day < created {
            continue;
        }
        if step.is_escalation() {
            // The first escalation stopped the régua: it is the one that proposes.
            if out.awaits_decision.is_none() {
                out.awaits_decision = Some(step.proposal(None, moment(day, step.send_minute(policy.window))));
            }
            continue;
        }
        let (Some(channel), Some(template)) = (step.channel, &step.template) else { continue };
        if day < today - Duration::days(HISTORY_DAYS) {
            continue;
        }
        let at = moment(day, step.send_minute(policy.window));
        let source = Source {
            origin: NotificationOrigin::Policy,
            cp_id: Some(policy.id.clone()),
            step_id: Some(step.id.clone()),
            resend_of_id: None,
            scheduled_for: at,
        };
        let Ok(mut n) = Notification::compose(open, debtor, channel, template, source, super::composing(at))
        else {
            continue;
        };
        if n.is_pending() {
            n.record(Attempt::Sent { provider: "outbox".into(), provider_message_id: None }, at);
        }
        out.sent.push(n);
    }
    out
}

/// Stores the past messages with their events, as the engine would have.
pub async fn record(store: &Store, sent: &[Notification]) -> Result<(), AdminError> {
    let actor = Actor { kind: "system".into(), id: "demo".into(), request_id: None };
    for n in sent {
        let code = if n.status == NotificationStatus::Sent {
            "notification.sent"
        } else {
            "notification.db.created"
        };
        let event = actor.event(code, None, n, n.updated_at);
        store.insert_notification(n, None, &[event]).await?;
    }
    Ok(())
}
