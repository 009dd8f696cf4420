//! Notifications: one message to a debtor about a charge, rendered once when it is made and
//! kept as sent. Its life: `queued` until a provider takes it (`sent`), retried with backoff
//! on a passing failure until the attempts run out (`failed`), `skipped` with the reason when
//! it could not go at all, `canceled` by a person while it still waited.

use time::{Duration, OffsetDateTime};

use super::address::format_cep;
use super::charge::{Charge, Outcome};
use super::debtor::Debtor;
use super::ids::new_id;
use super::message::{MessageValues, Placeholder, Template};
use super::pix_account::PixAccount;
use super::policy::MessageTemplate;
use super::rules::RuleError;
use crate::types::{Address, Channel, ChargeStatus, NotificationOrigin, NotificationStatus};

/// The most characters a rendered subject may have; it is one line.
pub const SUBJECT_LIMIT: usize = 200;

/// The most characters a rendered message may have on `channel`: what the providers take (an
/// SMS of 10 concatenated segments, WhatsApp's text limit) and a page's worth for e-mail and
/// letters.
pub fn body_limit(channel: Channel) -> usize {
    match channel {
        Channel::Email | Channel::Letter => 10_000,
        Channel::Sms => 1_600,
        Channel::Whatsapp => 4_096,
    }
}

/// A rendered message within its channel's limits, or the fields that are not (the limits
/// apply to what is sent: placeholders can make a short template long).
fn check_rendered(channel: Channel, subject: Option<&str>, body: &str) -> Result<(), RuleError> {
    let mut violations = super::rules::Violations::default();
    if let Some(subject) = subject {
        let length = subject.chars().count();
        if length > SUBJECT_LIMIT {
            violations.push(
                "template.subject",
                format!("renders to {length} characters; a subject takes at most {SUBJECT_LIMIT}"),
            );
        }
        if subject.contains(['\n', '\r']) {
            violations.push(
                "template.subject",
                "renders to more than one line (a value put into it has a line break)",
            );
        }
    }
    let (length, limit) = (body.chars().count(), body_limit(channel));
    if length > limit {
        violations.push(
            "template.body",
            format!("renders to {length} characters; a {} message takes at most {limit}", channel.as_str()),
        );
    }
    violations.finish()
}

/// Why a message could not go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipReason {
    /// The debtor asked not to be contacted on the channel.
    OptedOut,
    /// The debtor has no address or number for the channel.
    MissingContact,
    /// The template shows the boleto's line and the charge has none that pays its balance.
    MissingPaymentLine,
    /// The template shows a Pix code and the charge has none (nor the organization a key).
    MissingPixCode,
}

impl SkipReason {
    /// As stored and answered.
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::OptedOut => "opted_out",
            SkipReason::MissingContact => "missing_contact",
            SkipReason::MissingPaymentLine => "missing_payment_line",
            SkipReason::MissingPixCode => "missing_pix_code",
        }
    }

    /// A reason as stored.
    pub fn parse(text: &str) -> Option<Self> {
        [Self::OptedOut, Self::MissingContact, Self::MissingPaymentLine, Self::MissingPixCode]
            .into_iter()
            .find(|r| r.as_str() == text)
    }

    /// The reason as a sentence for the person who asked for the message.
    pub fn sentence(self, channel: Channel) -> String {
        match self {
            SkipReason::OptedOut => format!("The debtor opted out of {}.", channel.as_str()),
            SkipReason::MissingContact => format!("The debtor has no contact for {}: add it first.", channel.as_str()),
            SkipReason::MissingPaymentLine => {
                "The message shows {{payment_line}} and the charge has no boleto that pays its balance.".into()
            }
            SkipReason::MissingPixCode => {
                "The message shows {{pix_code}} and the charge has no Pix code (nor the organization a Pix key)."
                    .into()
            }
        }
    }
}

/// Where a message on `channel` reaches the debtor: the e-mail, the mobile number (SMS and
/// WhatsApp), or the postal address on one line (letters).
pub fn contact(debtor: &Debtor, channel: Channel) -> Result<String, SkipReason> {
    let opted_out = match channel {
        Channel::Email => debtor.opt_out.email,
        Channel::Sms => debtor.opt_out.sms,
        Channel::Whatsapp => debtor.opt_out.whatsapp,
        Channel::Letter => false,
    };
    let contacts = Contacts {
        email: debtor.email.as_deref(),
        mobile: debtor.mobile.as_deref(),
        address: debtor.address.as_ref(),
    };
    reach(&contacts, channel, opted_out)
}

/// A debtor's ways to be reached, as kept.
pub struct Contacts<'a> {
    pub email: Option<&'a str>,
    pub mobile: Option<&'a str>,
    pub address: Option<&'a Address>,
}

/// The rule of [`contact`] over a debtor's contacts (also what a confirmation question shows as
/// where a message will go).
pub fn reach(contacts: &Contacts<'_>, channel: Channel, opted_out: bool) -> Result<String, SkipReason> {
    if opted_out && channel != Channel::Letter {
        return Err(SkipReason::OptedOut);
    }
    let found = match channel {
        Channel::Email => contacts.email.map(str::to_string),
        Channel::Sms | Channel::Whatsapp => contacts.mobile.map(str::to_string),
        Channel::Letter => contacts.address.map(|a| {
            let complement = a.complement.clone().flatten().map(|c| format!(", {c}")).unwrap_or_default();
            format!(
                "{}, {}{complement} - {}, {} - {}, CEP {}",
                a.street,
                a.number,
                a.neighborhood,
                a.city,
                a.state.as_str(),
                format_cep(&a.zipcode)
            )
        }),
    };
    found.ok_or(SkipReason::MissingContact)
}

/// The standard message of a channel, for a notification sent by hand without a template: it
/// shows the ways to pay the charge has (`line`: a boleto's line, `pix`: a Pix code), and no
/// empty one.
pub fn standard_template(channel: Channel, line: bool, pix: bool) -> MessageTemplate {
    // The ways there are, each after `separator` (a paragraph of their own in mail and letters,
    // a sentence more in short messages); nothing at all when there is none.
    let ways = |line_label: &str, pix_label: &str, separator: &str| {
        let mut ways = Vec::new();
        if line {
            ways.push(format!("{line_label}{{{{payment_line}}}}"));
        }
        if pix {
            ways.push(format!("{pix_label}{{{{pix_code}}}}"));
        }
        let between = if separator.contains('\n') { "\n" } else { " " };
        if ways.is_empty() { String::new() } else { format!("{separator}{}", ways.join(between)) }
    };
    let (subject, body) = match channel {
        Channel::Email => (
            Some("Cobrança de {{amount}} com vencimento em {{due_date}}"),
            format!(
                "Olá, {{{{debtor_name}}}}.\n\nConsta em aberto a cobrança de {{{{amount}}}}, com vencimento em {{{{due_date}}}}: {{{{description}}}}.{}\n\nSe já pagou, desconsidere esta mensagem.",
                ways("Linha digitável: ", "Pix copia e cola: ", "\n\n")
            ),
        ),
        Channel::Sms => (
            None,
            format!(
                "{{{{debtor_name}}}}, sua cobranca de {{{{amount}}}} vence/venceu em {{{{due_date}}}}.{}",
                ways("Boleto: ", "Pix: ", " ")
            ),
        ),
        Channel::Whatsapp => (
            None,
            format!(
                "Olá, {{{{debtor_name}}}}! A cobrança de {{{{amount}}}}, com vencimento em {{{{due_date}}}}, está em aberto.{}",
                ways("Linha digitável: ", "Pix copia e cola: ", " ")
            ),
        ),
        Channel::Letter => (
            None,
            format!(
                "Prezado(a) {{{{debtor_name}}}},\n\nComunicamos que a cobrança de {{{{amount}}}}, vencida em {{{{due_date}}}} ({{{{days_overdue}}}} dias em atraso), permanece em aberto: {{{{description}}}}.{}",
                ways("Linha digitável: ", "Pix copia e cola: ", "\n\n")
            ),
        ),
    };
    MessageTemplate { subject: subject.map(str::to_string), body }
}

/// When and for whom a message is made: the instant, the organization's calendar, and its Pix
/// account (codes for charges that have none of their own).
#[derive(Debug, Clone, Copy)]
pub struct Composing<'a> {
    pub now: OffsetDateTime,
    pub zone: &'a super::dates::Zone,
    pub pix_account: Option<&'a PixAccount>,
}

/// Passing provider failures are retried this many times in all before the message fails.
pub const MAX_ATTEMPTS: i64 = 5;

/// The wait before attempt `attempt + 1` (1 minute, then 5, 30 and 120).
pub fn retry_delay(attempt: i64) -> Duration {
    match attempt {
        ..=1 => Duration::minutes(1),
        2 => Duration::minutes(5),
        3 => Duration::minutes(30),
        _ => Duration::minutes(120),
    }
}

/// What a provider said of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// Accepted: by which provider, under which id.
    Sent { provider: String, provider_message_id: Option<String> },
    /// Refused for now (retry) or for good.
    Failed { reason: String, permanent: bool },
}

/// One message to a debtor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    pub id: String,
    pub organization_id: String,
    pub charge_id: String,
    pub debtor_id: String,
    pub cp_id: Option<String>,
    pub step_id: Option<String>,
    pub origin: NotificationOrigin,
    pub resend_of_id: Option<String>,
    pub channel: Channel,
    pub to: Option<String>,
    pub subject: Option<String>,
    pub body: String,
    pub status: NotificationStatus,
    pub skip_reason: Option<String>,
    pub failure_reason: Option<String>,
    pub attempts: i64,
    pub next_attempt_at: Option<OffsetDateTime>,
    pub provider: Option<String>,
    pub provider_message_id: Option<String>,
    pub scheduled_for: OffsetDateTime,
    pub sent_at: Option<OffsetDateTime>,
    pub failed_at: Option<OffsetDateTime>,
    pub canceled_at: Option<OffsetDateTime>,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// Where a notification comes from.
#[derive(Debug, Clone)]
pub struct Source {
    pub origin: NotificationOrigin,
    pub cp_id: Option<String>,
    pub step_id: Option<String>,
    pub resend_of_id: Option<String>,
    /// When it was due to go out.
    pub scheduled_for: OffsetDateTime,
}

/// The charge states a message may be sent in.
pub const NOTIFIABLE: [ChargeStatus; 3] =
    [ChargeStatus::Pending, ChargeStatus::Overdue, ChargeStatus::InAgreement];

/// The subject (e-mail only) and body of `template` filled with `values`, as `channel` sends
/// them; a template that does not parse is refused under its field.
pub fn render(
    channel: Channel,
    template: &MessageTemplate,
    values: &MessageValues<'_>,
) -> Result<(Option<String>, String), RuleError> {
    let fill = |text: &str, field: &str| {
        Template::parse(text).map(|t| t.render(values)).map_err(|e| {
            RuleError::Invalid(vec![super::rules::Violation {
                field: field.to_string(),
                message: e.to_string(),
            }])
        })
    };
    let body = fill(&template.body, "template.body")?;
    let subject = match (&template.subject, channel) {
        (Some(subject), Channel::Email) => Some(fill(subject, "template.subject")?),
        _ => None,
    };
    Ok((subject, body))
}

impl Notification {
    /// A message about `charge` to `debtor` on `channel`, rendered now from `template`: queued
    /// when the debtor can be reached there, skipped with the reason otherwise.
    pub fn compose(
        charge: &Charge,
        debtor: &Debtor,
        channel: Channel,
        template: &MessageTemplate,
        source: Source,
        at: Composing<'_>,
    ) -> Result<Notification, RuleError> {
        let now = at.now;
        let today = at.zone.today(now);
        let payment_line = charge.payment_line();
        let pix_code = charge.pix_code(at.pix_account);
        let values = MessageValues {
            debtor_name: &debtor.name,
            balance_cents: charge.balance().0,
            due_date: charge.due_date,
            days_overdue: charge.days_overdue(today),
            description: charge.description.as_deref(),
            payment_line: payment_line.as_deref(),
            pix_code: pix_code.as_deref(),
        };
        let (subject, body) = render(channel, template, &values)?;
        check_rendered(channel, subject.as_deref(), &body)?;
        // A way to pay the template shows and the charge lacks is no message with a hole in it.
        let missing_code = if payment_line.is_none() && template.names(Placeholder::PaymentLine) {
            Some(SkipReason::MissingPaymentLine)
        } else if pix_code.is_none() && template.names(Placeholder::PixCode) {
            Some(SkipReason::MissingPixCode)
        } else {
            None
        };
        let reachable = match missing_code {
            Some(reason) => Err(reason),
            None => contact(debtor, channel),
        };
        let (to, status, skip_reason, next_attempt_at) = match reachable {
            Ok(to) => (Some(to), NotificationStatus::Queued, None, Some(now)),
            Err(reason) => (None, NotificationStatus::Skipped, Some(reason.as_str().to_string()), None),
        };
        Ok(Notification {
            id: new_id("ntf"),
            organization_id: charge.organization_id.clone(),
            charge_id: charge.id.clone(),
            debtor_id: debtor.id.clone(),
            cp_id: source.cp_id,
            step_id: source.step_id,
            origin: source.origin,
            resend_of_id: source.resend_of_id,
            channel,
            to,
            subject,
            body,
            status,
            skip_reason,
            failure_reason: None,
            attempts: 0,
            next_attempt_at,
            provider: None,
            provider_message_id: None,
            scheduled_for: source.scheduled_for,
            sent_at: None,
            failed_at: None,
            canceled_at: None,
            version: 1,
            created_at: now,
            updated_at: now,
        })
    }

    /// A message a person asks for: refused, rather than skipped, when the charge is closed
    /// or the debtor cannot be reached on the channel.
    pub fn check_manual(charge: &Charge, debtor: &Debtor, channel: Channel) -> Result<(), RuleError> {
        if !NOTIFIABLE.contains(&charge.status) {
            return Err(RuleError::InvalidState {
                message: format!("A {} charge gets no messages.", charge.status.as_str()),
                status: charge.status.as_str(),
                allowed: NOTIFIABLE.iter().map(|s| s.as_str()).collect(),
            });
        }
        match contact(debtor, channel) {
            Ok(_) => Ok(()),
            Err(reason) => Err(RuleError::InvalidState {
                message: reason.sentence(channel),
                status: reason.as_str(),
                allowed: vec!["reachable"],
            }),
        }
    }

    /// The same message again, as a new notification to the debtor's current contact
    /// (checked with [`Notification::check_manual`] first).
    pub fn resend(&self, debtor: &Debtor, now: OffsetDateTime) -> Notification {
        let to = contact(debtor, self.channel).ok();
        Notification {
            id: new_id("ntf"),
            cp_id: None,
            step_id: None,
            origin: NotificationOrigin::Resend,
            resend_of_id: Some(self.id.clone()),
            status: if to.is_some() { NotificationStatus::Queued } else { NotificationStatus::Skipped },
            skip_reason: None,
            failure_reason: None,
            attempts: 0,
            next_attempt_at: Some(now),
            provider: None,
            provider_message_id: None,
            scheduled_for: now,
            sent_at: None,
            failed_at: None,
            canceled_at: None,
            version: 1,
            created_at: now,
            updated_at: now,
            to,
            ..self.clone()
        }
    }

    /// Whether it waits for a provider.
    /// A message of a step that cannot be made (it renders past its channel's limits): kept
    /// `failed` with `reason`, so the charge's timeline says why nothing went, and the step is
    /// not tried again for the charge.
    pub fn unsendable(
        charge: &Charge,
        debtor: &Debtor,
        channel: Channel,
        source: Source,
        reason: String,
        now: OffsetDateTime,
    ) -> Notification {
        Notification {
            id: new_id("ntf"),
            organization_id: charge.organization_id.clone(),
            charge_id: charge.id.clone(),
            debtor_id: debtor.id.clone(),
            cp_id: source.cp_id,
            step_id: source.step_id,
            origin: source.origin,
            resend_of_id: source.resend_of_id,
            channel,
            to: contact(debtor, channel).ok(),
            subject: None,
            body: String::new(),
            status: NotificationStatus::Failed,
            skip_reason: None,
            failure_reason: Some(reason),
            attempts: 0,
            next_attempt_at: None,
            provider: None,
            provider_message_id: None,
            scheduled_for: source.scheduled_for,
            sent_at: None,
            failed_at: Some(now),
            canceled_at: None,
            version: 1,
            created_at: now,
            updated_at: now,
        }
    }

    pub fn is_pending(&self) -> bool {
        self.status == NotificationStatus::Queued
    }

    /// Records what a provider said of one attempt.
    pub fn record(&mut self, attempt: Attempt, now: OffsetDateTime) {
        self.attempts += 1;
        match attempt {
            Attempt::Sent { provider, provider_message_id } => {
                self.status = NotificationStatus::Sent;
                self.provider = Some(provider);
                self.provider_message_id = provider_message_id;
                self.sent_at = Some(now);
                self.next_attempt_at = None;
                self.failure_reason = None;
            }
            Attempt::Failed { reason, permanent } => {
                self.failure_reason = Some(reason);
                if permanent || self.attempts >= MAX_ATTEMPTS {
                    self.status = NotificationStatus::Failed;
                    self.failed_at = Some(now);
                    self.next_attempt_at = None;
                } else {
                    self.next_attempt_at = Some(now + retry_delay(self.attempts));
                }
            }
        }
        self.touch(now);
    }

    /// Gives up a queued message that should no longer go (its charge closed meanwhile).
    pub fn skip(&mut self, reason: &str, now: OffsetDateTime) {
        self.status = NotificationStatus::Skipped;
        self.skip_reason = Some(reason.to_string());
        self.next_attempt_at = None;
        self.touch(now);
    }

    /// Stops a message that has not gone yet.
    pub fn cancel(&mut self, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        match self.status {
            NotificationStatus::Canceled => Ok(Outcome::Unchanged),
            NotificationStatus::Scheduled | NotificationStatus::Queued => {
                self.status = NotificationStatus::Canceled;
                self.canceled_at = Some(now);
                self.next_attempt_at = None;
                self.touch(now);
                Ok(Outcome::Changed)
            }
            other => Err(RuleError::InvalidState {
                message: format!("A {} notification cannot be canceled.", other.as_str()),
                status: other.as_str(),
                allowed: vec!["scheduled", "queued", "canceled"],
            }),
        }
    }

    fn touch(&mut self, now: OffsetDateTime) {
        self.version += 1;
        self.updated_at = now.max(self.updated_at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-30 15:00 UTC);

    fn fields(result: Result<(), RuleError>) -> Vec<String> {
        match result {
            Ok(()) => Vec::new(),
            Err(RuleError::Invalid(found)) => found.into_iter().map(|v| v.field).collect(),
            Err(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_rendered_message_stays_within_its_channels_limits() {
        let at = |n: usize| "á".repeat(n);
        assert!(fields(check_rendered(Channel::Sms, None, &at(1_600))).is_empty(), "characters, not bytes");
        assert_eq!(fields(check_rendered(Channel::Sms, None, &at(1_601))), ["template.body"]);
        assert!(fields(check_rendered(Channel::Whatsapp, None, &at(4_096))).is_empty());
        assert_eq!(fields(check_rendered(Channel::Whatsapp, None, &at(4_097))), ["template.body"]);
        assert!(fields(check_rendered(Channel::Email, Some(&at(200)), &at(10_000))).is_empty());
        assert_eq!(
            fields(check_rendered(Channel::Email, Some(&at(201)), &at(10_001))),
            ["template.subject", "template.body"]
        );
        assert_eq!(
            fields(check_rendered(Channel::Email, Some("Linha 1\nLinha 2"), "ok")),
            ["template.subject"]
        );
        assert_eq!(fields(check_rendered(Channel::Letter, None, &at(10_001))), ["template.body"]);
    }

    fn queued() -> Notification {
        Notification {
            id: "ntf_1".into(),
            organization_id: "org_1".into(),
            charge_id: "chg_1".into(),
            debtor_id: "dbt_1".into(),
            cp_id: None,
            step_id: None,
            origin: NotificationOrigin::Manual,
            resend_of_id: None,
            channel: Channel::Email,
            to: Some("a@b.com.br".into()),
            subject: None,
            body: "x".into(),
            status: NotificationStatus::Queued,
            skip_reason: None,
            failure_reason: None,
            attempts: 0,
            next_attempt_at: Some(NOW),
            provider: None,
            provider_message_id: None,
            scheduled_for: NOW,
            sent_at: None,
            failed_at: None,
            canceled_at: None,
            version: 1,
            created_at: NOW,
            updated_at: NOW,
        }
    }

    #[test]
    fn passing_failures_back_off_then_fail() {
        let mut n = queued();
        let mut waits = Vec::new();
        for _ in 0..MAX_ATTEMPTS {
            n.record(Attempt::Failed { reason: "451 try later".into(), permanent: false }, NOW);
            waits.push(n.next_attempt_at.map(|t| (t - NOW).whole_minutes()));
        }
        assert_eq!(waits, [Some(1), Some(5), Some(30), Some(120), None]);
        assert_eq!(n.status, NotificationStatus::Failed);
        assert_eq!(n.failure_reason.as_deref(), Some("451 try later"));
    }

    #[test]
    fn a_permanent_failure_fails_at_once_and_a_sent_one_cannot_be_canceled() {
        let mut n = queued();
        n.record(Attempt::Failed { reason: "550 no such user".into(), permanent: true }, NOW);
        assert_eq!((n.status, n.attempts), (NotificationStatus::Failed, 1));
        let mut sent = queued();
        sent.record(Attempt::Sent { provider: "outbox".into(), provider_message_id: None }, NOW);
        assert!(matches!(sent.cancel(NOW), Err(RuleError::InvalidState { .. })));
        let mut waiting = queued();
        assert_eq!(waiting.cancel(NOW), Ok(Outcome::Changed));
        assert_eq!(waiting.cancel(NOW), Ok(Outcome::Unchanged));
    }

    #[test]
    fn every_standard_template_parses_and_shows_only_the_ways_to_pay_there_are() {
        use crate::domain::message::Placeholder;
        for channel in [Channel::Email, Channel::Sms, Channel::Whatsapp, Channel::Letter] {
            for (line, pix) in [(false, false), (true, false), (false, true), (true, true)] {
                let t = standard_template(channel, line, pix);
                Template::parse(&t.body).unwrap();
                if let Some(s) = &t.subject {
                    Template::parse(s).unwrap();
                }
                assert_eq!(t.names(Placeholder::PaymentLine), line, "{channel:?} {line} {pix}");
                assert_eq!(t.names(Placeholder::PixCode), pix, "{channel:?} {line} {pix}");
                assert!(!t.body.contains("\n\n\n") && !t.body.ends_with('\n'), "{channel:?}: {:?}", t.body);
            }
        }
    }
}
