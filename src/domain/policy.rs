//! Collection policies (réguas) and their steps: what a charge goes through, a message or an
//! escalation on a day relative to its due date. The aggregate checks every step against its
//! policy's send window and templates when saved, so the engine only ever meets runnable ones.

use time::{Date, Duration, OffsetDateTime};

use super::calendar;
use super::charge::{Outcome, Proposal};
use super::dates::{Timestamp, Zone};
use super::ids::new_id;
use super::message::Template;
use super::rules::{RuleError, Violations};
use super::text;
use crate::types::{Channel, PolicyStatus, ProtestTitleType, StepAction};

/// How late a step may still be sent (the engine was down): older ones are left out.
pub const CATCH_UP_DAYS: i64 = 7;

/// Minutes since midnight, in the organization's time zone.
pub type Minute = u16;

/// Reads `HH:MM` (the spec's pattern already checked it).
pub fn parse_minute(text: &str) -> Option<Minute> {
    let (h, m) = text.split_once(':')?;
    let (h, m): (u16, u16) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

/// `HH:MM`.
pub fn format_minute(minute: Minute) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// The hours in which the régua sends, `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Opens at.
    pub start: Minute,
    /// Closes at (exclusive).
    pub end: Minute,
}

impl Window {
    /// Business hours, 09:00 to 18:00.
    pub const DEFAULT: Window = Window { start: 9 * 60, end: 18 * 60 };

    /// Whether `minute` falls inside.
    pub fn contains(&self, minute: Minute) -> bool {
        (self.start..self.end).contains(&minute)
    }
}

/// A message with placeholders, as stored (checked with [`Template::parse`] when saved).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageTemplate {
    /// The e-mail's subject.
    pub subject: Option<String>,
    /// The message.
    pub body: String,
}

impl From<crate::types::Template> for MessageTemplate {
    fn from(t: crate::types::Template) -> Self {
        Self { subject: t.subject.flatten(), body: t.body }
    }
}

impl MessageTemplate {
    /// Whether its subject or body shows `placeholder` (a template that does not parse shows
    /// nothing: rendering refuses it first).
    pub fn names(&self, placeholder: super::message::Placeholder) -> bool {
        let shows = |text: &str| super::message::Template::parse(text).is_ok_and(|t| t.names(placeholder));
        shows(&self.body) || self.subject.as_deref().is_some_and(shows)
    }

    /// The text rule (src/domain/text.rs) on a template as sent: its subject is one line, its
    /// body free text. A template is nested in its request, where the generated types do not
    /// reach, so it is checked here, under `prefix` (`template.`, `steps[0].template.`).
    pub fn check_text(&self, prefix: &str, v: &mut Violations) {
        if let Err(e) = text::check(&self.body, true) {
            v.push(&format!("{prefix}body"), e.to_string());
        }
        if let Some(Err(e)) = self.subject.as_deref().map(|s| text::check(s, false)) {
            v.push(&format!("{prefix}subject"), e.to_string());
        } else if self.subject.as_deref().is_some_and(super::message::has_encoded_word) {
            v.push(
                &format!("{prefix}subject"),
                "must not hold an RFC 2047 encoded word (=?…?=): write the text itself, it is encoded when sent",
            );
        }
    }
}

/// One step of a policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub id: String,
    pub organization_id: String,
    pub cp_id: String,
    pub name: String,
    /// Days from the due date (negative before it).
    pub offset_days: i64,
    /// Not before this minute on the send day; `None` is the window's start.
    pub send_time: Option<Minute>,
    /// Order among the steps with the same offset.
    pub position: i64,
    pub action: StepAction,
    pub channel: Option<Channel>,
    pub template: Option<MessageTemplate>,
    pub requires_approval: bool,
    /// The title a protest step without approval files (its number: the charge's external_id).
    pub title_type: Option<ProtestTitleType>,
    pub active: bool,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// The fields of a step as sent: everything optional, for create (with defaults) and edit.
#[derive(Debug, Clone, Default)]
pub struct StepDraft {
    pub name: Option<String>,
    pub offset_days: Option<i64>,
    pub send_time: Option<Option<String>>,
    pub position: Option<i64>,
    pub action: Option<StepAction>,
    pub channel: Option<Channel>,
    pub template: Option<MessageTemplate>,
    pub requires_approval: Option<bool>,
    pub title_type: Option<ProtestTitleType>,
    pub active: Option<bool>,
}

impl Step {
    /// When the step is sent for a charge due on `due`: the business day (and minute) after
    /// every move of the calendar.
    pub fn send_date(&self, due: Date) -> Date {
        calendar::send_date(due, self.offset_days)
    }

    /// The minute it goes out on its day, within `window`.
    pub fn send_minute(&self, window: Window) -> Minute {
        self.send_time.unwrap_or(window.start)
    }

    /// The time of day it goes out, within `window`.
    pub fn send_time(&self, window: Window) -> time::Time {
        let minute = self.send_minute(window);
        let hour = u8::try_from(minute / 60).unwrap_or(0);
        time::Time::from_hms(hour, u8::try_from(minute % 60).unwrap_or(0), 0).unwrap_or(time::Time::MIDNIGHT)
    }

    /// Whether the step stops the régua for a human (anything but a message).
    pub fn is_escalation(&self) -> bool {
        self.action != StepAction::Notify
    }

    /// What the step proposes to the person it stops a charge's régua for, at `now`;
    /// `refused`, why it could not file on its own.
    pub fn proposal(&self, refused: Option<String>, now: OffsetDateTime) -> Proposal {
        Proposal {
            step_id: self.id.clone(),
            step_name: self.name.clone(),
            cp_id: self.cp_id.clone(),
            action: self.action,
            title_type: self.title_type,
            refused,
            proposed_at: Timestamp(now),
        }
    }

    /// The checks of a step within its policy's window, with fields named under `prefix`.
    fn check(&self, window: Window, prefix: &str, v: &mut Violations) {
        let field = |name: &str| format!("{prefix}{name}");
        // Nested in a policy's steps, the name is not read by a generated text type.
        if let Err(e) = text::check(&self.name, false) {
            v.push(&field("name"), e.to_string());
        }
        if self.is_escalation() {
            if self.channel.is_some() {
                v.push(&field("channel"), "is only for notify steps");
            }
            if self.template.is_some() {
                v.push(&field("template"), "is only for notify steps");
            }
            // A decision step exists to ask a person; a protest goes out on its own only with the
            // type of the title behind each charge.
            if !self.requires_approval && self.action == StepAction::RequestDecision {
                v.push(
                    &field("requires_approval"),
                    "must be true for a request_decision step: it exists to ask a person",
                );
            }
            if !self.requires_approval && self.action == StepAction::Protest && self.title_type.is_none() {
                v.push(
                    &field("title_type"),
                    "is required for a protest step with requires_approval false: the type of the debt document behind each title",
                );
            }
        } else {
            match self.channel {
                None => v.push(&field("channel"), "is required for a notify step"),
                Some(channel) => {
                    if channel != Channel::Email
                        && self.template.as_ref().is_some_and(|t| t.subject.is_some())
                    {
                        v.push(&field("template.subject"), "is only for e-mail");
                    }
                }
            }
            match &self.template {
                None => v.push(&field("template"), "is required for a notify step"),
                Some(t) => {
                    t.check_text(&field("template."), v);
                    if let Err(e) = Template::parse(&t.body) {
                        v.push(&field("template.body"), e.to_string());
                    }
                    if let Some(Err(e)) = t.subject.as_deref().map(Template::parse) {
                        v.push(&field("template.subject"), e.to_string());
                    }
                }
            }
            if self.requires_approval {
                v.push(
                    &field("requires_approval"),
                    "must be false for a notify step: messages go out without approval",
                );
            }
        }
        if self.title_type.is_some() && self.action != StepAction::Protest {
            v.push(&field("title_type"), "is only for protest steps");
        }
        if !(-90..=365).contains(&self.offset_days) {
            v.push(&field("offset_days"), "must be between -90 and 365");
        }
        if let Some(minute) = self.send_time
            && !window.contains(minute)
        {
            v.push(
                &field("send_time"),
                format!(
                    "must be within the policy's send window ({} to {})",
                    format_minute(window.start),
                    format_minute(window.end)
                ),
            );
        }
    }

    /// Applies the fields of `draft` that were sent.
    fn apply(&mut self, draft: StepDraft, v: &mut Violations, prefix: &str) {
        if let Some(name) = draft.name {
            self.name = name;
        }
        if let Some(offset) = draft.offset_days {
            self.offset_days = offset;
        }
        if let Some(time) = draft.send_time {
            self.send_time = match time {
                None => None,
                Some(text) => match parse_minute(&text) {
                    Some(m) => Some(m),
                    None => {
                        v.push(&format!("{prefix}send_time"), "must be HH:MM");
                        None
                    }
                },
            };
        }
        if let Some(position) = draft.position {
            self.position = position;
        }
        if let Some(action) = draft.action {
            self.action = action;
        }
        if let Some(channel) = draft.channel {
            self.channel = Some(channel);
        }
        if let Some(template) = draft.template {
            self.template = Some(template);
        }
        if let Some(requires) = draft.requires_approval {
            self.requires_approval = requires;
        }
        if let Some(title_type) = draft.title_type {
            self.title_type = Some(title_type);
        }
        if let Some(active) = draft.active {
            self.active = active;
        }
    }

    /// Changes the step; `window` is its policy's.
    pub fn edit(
        &mut self,
        draft: StepDraft,
        window: Window,
        now: OffsetDateTime,
    ) -> Result<Outcome, RuleError> {
        let before = self.clone();
        let mut v = Violations::default();
        self.apply(draft, &mut v, "");
        self.check(window, "", &mut v);
        v.finish()?;
        if *self == before {
            return Ok(Outcome::Unchanged);
        }
        self.version += 1;
        self.updated_at = now.max(self.updated_at);
        Ok(Outcome::Changed)
    }
}

/// A default name for people, in pt-BR: "E-mail em D-3", "Negativação em D+10".
fn default_name(action: StepAction, channel: Option<Channel>, offset: i64) -> String {
    let what = match (action, channel) {
        (StepAction::Notify, Some(Channel::Email)) => "E-mail",
        (StepAction::Notify, Some(Channel::Sms)) => "SMS",
        (StepAction::Notify, Some(Channel::Whatsapp)) => "WhatsApp",
        (StepAction::Notify, Some(Channel::Letter)) => "Carta",
        (StepAction::Notify, None) => "Mensagem",
        (StepAction::RequestDecision, _) => "Decisão",
        (StepAction::CreditBureau, _) => "Negativação",
        (StepAction::Protest, _) => "Protesto",
    };
    match offset {
        0 => format!("{what} no vencimento"),
        d if d < 0 => format!("{what} em D{d}"),
        d => format!("{what} em D+{d}"),
    }
}

/// A collection policy with its steps in the order they run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    pub id: String,
    pub organization_id: String,
    pub name: String,
    pub description: Option<String>,
    pub status: PolicyStatus,
    pub is_default: bool,
    pub window: Window,
    /// The zone its days and window count in, when not the organization's.
    pub zone: Option<Zone>,
    pub archived_at: Option<OffsetDateTime>,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    /// Ordered by (offset_days, position, id).
    pub steps: Vec<Step>,
}

/// A new policy as sent.
#[derive(Debug, Clone)]
pub struct NewPolicy {
    pub name: String,
    pub description: Option<String>,
    pub status: PolicyStatus,
    pub is_default: bool,
    pub window: Option<(String, String)>,
    /// An IANA zone name; `None` keeps the organization's.
    pub timezone: Option<String>,
    pub steps: Vec<StepDraft>,
}

/// Changes to a policy as sent.
#[derive(Debug, Clone, Default)]
pub struct PolicyEdit {
    pub name: Option<String>,
    pub description: Option<Option<String>>,
    pub status: Option<PolicyStatus>,
    pub window: Option<(String, String)>,
    /// `Some(None)` goes back to the organization's zone.
    pub timezone: Option<Option<String>>,
}

/// Reads a zone name, recording what is wrong under `timezone`.
fn parse_zone(name: Option<&str>, v: &mut Violations) -> Option<Zone> {
    name.and_then(|n| v.check("timezone", Zone::named(n)))
}

impl Policy {
    /// The zone its days and send window count in: its own, else the organization's.
    pub fn zone_or<'a>(&'a self, organization: &'a Zone) -> &'a Zone {
        self.zone.as_ref().unwrap_or(organization)
    }
}

/// Reads a window, recording what is wrong under `send_window`.
fn parse_window(start: &str, end: &str, v: &mut Violations) -> Option<Window> {
    let (Some(start), Some(end)) = (parse_minute(start), parse_minute(end)) else {
        v.push("send_window", "start and end must be HH:MM");
        return None;
    };
    if start >= end {
        v.push("send_window.end", "must be after start");
        return None;
    }
    Some(Window { start, end })
}

impl Policy {
    /// A new policy with its steps, checked together.
    pub fn create(org_id: &str, new: NewPolicy, now: OffsetDateTime) -> Result<Policy, RuleError> {
        let mut v = Violations::default();
        if new.is_default && new.status != PolicyStatus::Active {
            v.push("is_default", "only an active policy can be the default");
        }
        let window = match &new.window {
            Some((start, end)) => parse_window(start, end, &mut v).unwrap_or(Window::DEFAULT),
            None => Window::DEFAULT,
        };
        let zone = parse_zone(new.timezone.as_deref(), &mut v);
        let mut policy = Policy {
            id: new_id("cp"),
            organization_id: org_id.to_string(),
            name: new.name,
            description: new.description,
            status: new.status,
            is_default: new.is_default,
            window,
            zone,
            archived_at: None,
            version: 1,
            created_at: now,
            updated_at: now,
            steps: Vec::new(),
        };
        for (i, draft) in new.steps.into_iter().enumerate() {
            let step = policy.new_step(draft, now, &format!("steps[{i}]."), &mut v);
            policy.steps.push(step);
        }
        v.finish()?;
        policy.sort_steps();
        Ok(policy)
    }

    /// A step of this policy from `draft`, with the defaults of a new step; its refusals are
    /// recorded in `v` under `prefix`.
    fn new_step(&self, draft: StepDraft, now: OffsetDateTime, prefix: &str, v: &mut Violations) -> Step {
        let offset = draft.offset_days.unwrap_or(0);
        let action = draft.action.unwrap_or(StepAction::Notify);
        let position = draft.position.unwrap_or_else(|| {
            self.steps.iter().filter(|s| s.offset_days == offset).map(|s| s.position + 1).max().unwrap_or(0)
        });
        let mut step = Step {
            id: new_id("stp"),
            organization_id: self.organization_id.clone(),
            cp_id: self.id.clone(),
            name: default_name(action, draft.channel, offset),
            offset_days: offset,
            send_time: None,
            position,
            action,
            channel: None,
            template: None,
            requires_approval: action != StepAction::Notify,
            title_type: None,
            active: true,
            version: 1,
            created_at: now,
            updated_at: now,
        };
        step.apply(StepDraft { position: None, ..draft }, v, prefix);
        step.check(self.window, prefix, v);
        step
    }

    /// Adds a step; refused on an archived policy.
    pub fn add_step(&mut self, draft: StepDraft, now: OffsetDateTime) -> Result<Step, RuleError> {
        self.ensure_editable("changed")?;
        let mut v = Violations::default();
        let step = self.new_step(draft, now, "", &mut v);
        v.finish()?;
        self.steps.push(step.clone());
        self.sort_steps();
        Ok(step)
    }

    /// Refuses changes to an archived policy.
    pub fn ensure_editable(&self, verb: &str) -> Result<(), RuleError> {
        if self.status == PolicyStatus::Archived {
            return Err(RuleError::InvalidState {
                message: format!("An archived policy cannot be {verb}."),
                status: "archived",
                allowed: vec!["draft", "active"],
            });
        }
        Ok(())
    }

    /// Changes the fields sent.
    pub fn edit(&mut self, edit: PolicyEdit, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        self.ensure_editable("changed")?;
        if self.is_default && edit.status == Some(PolicyStatus::Draft) {
            return Err(RuleError::Invalid(vec![super::rules::Violation {
                field: "status".into(),
                message: "the default policy must stay active: make another policy the default first".into(),
            }]));
        }
        let before = self.clone();
        let mut v = Violations::default();
        if let Some(name) = edit.name {
            self.name = name;
        }
        if let Some(description) = edit.description {
            self.description = description;
        }
        if let Some(status) = edit.status {
            self.status = status;
        }
        if let Some(timezone) = &edit.timezone {
            self.zone = parse_zone(timezone.as_deref(), &mut v);
        }
        if let Some((start, end)) = &edit.window
            && let Some(window) = parse_window(start, end, &mut v)
        {
            self.window = window;
            for step in &self.steps {
                if let Some(minute) = step.send_time
                    && !window.contains(minute)
                {
                    v.push(
                        "send_window",
                        format!("must contain the send_time {} of step {}", format_minute(minute), step.id),
                    );
                }
            }
        }
        v.finish()?;
        if *self == before {
            return Ok(Outcome::Unchanged);
        }
        self.touch(now);
        Ok(Outcome::Changed)
    }

    /// Makes this the default (the store clears the previous one in the same transaction).
    pub fn make_default(&mut self, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        if self.is_default {
            return Ok(Outcome::Unchanged);
        }
        if self.status != PolicyStatus::Active {
            return Err(RuleError::InvalidState {
                message: "Only an active policy can be the default.".into(),
                status: self.status.as_str(),
                allowed: vec!["active"],
            });
        }
        self.is_default = true;
        self.touch(now);
        Ok(Outcome::Changed)
    }

    /// Stops the policy for good; the default cannot be archived.
    pub fn archive(&mut self, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        if self.status == PolicyStatus::Archived {
            return Ok(Outcome::Unchanged);
        }
        if self.is_default {
            return Err(RuleError::Conflict(
                "The default policy cannot be archived: make another policy the default first.".into(),
            ));
        }
        self.status = PolicyStatus::Archived;
        self.archived_at = Some(now);
        self.touch(now);
        Ok(Outcome::Changed)
    }

    /// Whether it may be deleted: not the default, followed by no charge, and a draft or the
    /// source of no message (`followed`: charges name it; `sent`: notifications came from it).
    pub fn ensure_deletable(&self, followed: bool, sent: bool) -> Result<(), RuleError> {
        if self.is_default {
            return Err(RuleError::Conflict(
                "The default policy cannot be deleted: make another policy the default first.".into(),
            ));
        }
        if followed {
            return Err(RuleError::Conflict(
                "Charges follow this policy: give them another (charges_update cp_id) or archive it.".into(),
            ));
        }
        if sent && self.status != PolicyStatus::Draft {
            return Err(RuleError::Conflict(
                "This policy sent messages: archive it instead (collection_policies_archive).".into(),
            ));
        }
        Ok(())
    }

    /// A draft copy with new ids, never the default.
    pub fn duplicate(&self, name: Option<String>, now: OffsetDateTime) -> Policy {
        let id = new_id("cp");
        let steps = self
            .steps
            .iter()
            .map(|s| Step {
                id: new_id("stp"),
                cp_id: id.clone(),
                version: 1,
                created_at: now,
                updated_at: now,
                ..s.clone()
            })
            .collect();
        Policy {
            id,
            name: name.unwrap_or_else(|| format!("{} (cópia)", self.name)),
            status: PolicyStatus::Draft,
            is_default: false,
            archived_at: None,
            version: 1,
            created_at: now,
            updated_at: now,
            steps,
            ..self.clone()
        }
    }

    /// The active steps and the day each is sent for a charge due on `due`, in the order
    /// they run.
    pub fn schedule(&self, due: Date) -> Vec<(&Step, Date)> {
        self.steps.iter().filter(|s| s.active).map(|s| (s, s.send_date(due))).collect()
    }

    /// The first day `step` may be sent for a charge created at `created_at`: the régua is not
    /// retroactive, so nothing goes for a day before the charge existed, nor before the step or
    /// the policy last changed (a new default, a copy, a new step or offset replays nothing).
    pub fn first_send_day(&self, step: &Step, created_at: OffsetDateTime, zone: &Zone) -> Date {
        zone.today(created_at).max(zone.today(step.updated_at)).max(zone.today(self.updated_at))
    }

    /// When the régua acts next on a charge due on `due` and created at `created_at`: the instant
    /// of the first active step after `after_step` (from the first when `None`) that the engine
    /// would still send on `today` or later (see [`Policy::first_send_day`] and
    /// [`CATCH_UP_DAYS`]). An instant already past means the next pass acts; `None`, that no step
    /// is left. The engine reads only charges whose next action has come, so this must never be
    /// later than a step it would send.
    pub fn next_action(
        &self,
        due: Date,
        after_step: Option<&str>,
        created_at: OffsetDateTime,
        today: Date,
        zone: &Zone,
    ) -> Option<OffsetDateTime> {
        let earliest = today - Duration::days(CATCH_UP_DAYS);
        let schedule = self.schedule(due);
        let start =
            after_step.and_then(|id| schedule.iter().position(|(s, _)| s.id == id)).map_or(0, |i| i + 1);
        // The earliest instant, not the first step in order: steps of one day may have their
        // own times.
        schedule[start..]
            .iter()
            .filter(|(step, day)| *day >= earliest && *day >= self.first_send_day(step, created_at, zone))
            .map(|(step, day)| zone.instant(*day, step.send_time(self.window)))
            .min()
    }

    /// When the régua next acts on `charge`, which follows this policy, as seen at `now`, counted
    /// in the policy's zone or else `org_zone`; while paused until a day, when it resumes; `None`
    /// when its régua does not run or no step is left.
    pub fn next_action_for(
        &self,
        charge: &super::charge::Charge,
        org_zone: &Zone,
        now: OffsetDateTime,
    ) -> Option<OffsetDateTime> {
        // A pause with an end resumes in the organization's calendar, whatever the policy.
        if let Some(resumes) = charge.resumes_at(org_zone) {
            return Some(resumes);
        }
        if !charge.regua_runs() || self.status != PolicyStatus::Active {
            return None;
        }
        let zone = self.zone_or(org_zone);
        self.next_action(
            charge.due_date,
            charge.current_step_id.as_deref(),
            charge.created_at,
            zone.today(now),
            zone,
        )
    }

    /// Puts the steps in the order they run.
    pub fn sort_steps(&mut self) {
        self.steps
            .sort_by(|a, b| (a.offset_days, a.position, &a.id).cmp(&(b.offset_days, b.position, &b.id)));
    }

    /// A change (its own or a step's): one more version, stamped no earlier than the last.
    pub fn touch(&mut self, now: OffsetDateTime) {
        self.version += 1;
        self.updated_at = now.max(self.updated_at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::{date, datetime};

    const NOW: OffsetDateTime = datetime!(2026-11-30 12:00 UTC);

    fn notify(offset: i64, channel: Channel) -> StepDraft {
        StepDraft {
            offset_days: Some(offset),
            channel: Some(channel),
            template: Some(MessageTemplate { subject: None, body: "Olá, {{debtor_name}}".into() }),
            ..StepDraft::default()
        }
    }

    fn new_policy(steps: Vec<StepDraft>) -> NewPolicy {
        NewPolicy {
            timezone: None,
            name: "Régua".into(),
            description: None,
            status: PolicyStatus::Active,
            is_default: true,
            window: None,
            steps,
        }
    }

    fn fields(err: RuleError) -> Vec<String> {
        match err {
            RuleError::Invalid(v) => v.into_iter().map(|v| v.field).collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn steps_run_by_offset_then_position() {
        let policy = Policy::create(
            "org_1",
            new_policy(vec![
                notify(1, Channel::Whatsapp),
                notify(-3, Channel::Email),
                notify(1, Channel::Sms),
            ]),
            NOW,
        )
        .unwrap();
        let order: Vec<_> = policy.steps.iter().map(|s| (s.offset_days, s.channel)).collect();
        assert_eq!(
            order,
            [(-3, Some(Channel::Email)), (1, Some(Channel::Whatsapp)), (1, Some(Channel::Sms))],
            "equal offsets keep the order they were given in"
        );
        assert_eq!(policy.steps[0].name, "E-mail em D-3");
    }

    #[test]
    fn only_a_report_step_may_go_without_approval() {
        let step = |action| StepDraft {
            offset_days: Some(10),
            action: Some(action),
            requires_approval: Some(false),
            ..StepDraft::default()
        };
        let policy = Policy::create("org_1", new_policy(vec![step(StepAction::CreditBureau)]), NOW).unwrap();
        assert!(!policy.steps[0].requires_approval);
        let err =
            Policy::create("org_1", new_policy(vec![step(StepAction::RequestDecision)]), NOW).unwrap_err();
        assert_eq!(fields(err), ["steps[0].requires_approval"]);
        // A protest step on its own needs the title's type; only a protest step takes one.
        let err = Policy::create("org_1", new_policy(vec![step(StepAction::Protest)]), NOW).unwrap_err();
        assert_eq!(fields(err), ["steps[0].title_type"]);
        let titled = |action| StepDraft { title_type: Some(ProtestTitleType::Ds), ..step(action) };
        let policy = Policy::create("org_1", new_policy(vec![titled(StepAction::Protest)]), NOW).unwrap();
        assert_eq!(policy.steps[0].title_type, Some(ProtestTitleType::Ds));
        let err =
            Policy::create("org_1", new_policy(vec![titled(StepAction::CreditBureau)]), NOW).unwrap_err();
        assert_eq!(fields(err), ["steps[0].title_type"]);
    }

    #[test]
    fn a_message_needs_a_channel_and_a_known_template() {
        let draft = StepDraft {
            offset_days: Some(0),
            template: Some(MessageTemplate { subject: Some("x".into()), body: "{{nome}}".into() }),
            ..StepDraft::default()
        };
        let err = Policy::create("org_1", new_policy(vec![draft]), NOW).unwrap_err();
        assert_eq!(fields(err), ["steps[0].channel", "steps[0].template.body"]);
    }

    #[test]
    fn the_send_time_stays_in_the_window() {
        let mut draft = notify(0, Channel::Sms);
        draft.send_time = Some(Some("20:00".into()));
        let err = Policy::create("org_1", new_policy(vec![draft]), NOW).unwrap_err();
        assert_eq!(fields(err), ["steps[0].send_time"]);
        let mut policy = Policy::create("org_1", new_policy(vec![]), NOW).unwrap();
        let err = policy
            .edit(PolicyEdit { window: Some(("18:00".into(), "09:00".into())), ..Default::default() }, NOW);
        assert_eq!(fields(err.unwrap_err()), ["send_window.end"]);
    }

    #[test]
    fn the_schedule_moves_to_business_days() {
        // Due Friday 5 Feb 2027; Carnival is Monday 8 and Tuesday 9.
        let policy = Policy::create(
            "org_1",
            new_policy(vec![notify(-3, Channel::Email), notify(1, Channel::Whatsapp)]),
            NOW,
        )
        .unwrap();
        let days: Vec<Date> = policy.schedule(date!(2027 - 02 - 05)).into_iter().map(|(_, d)| d).collect();
        assert_eq!(days, [date!(2027 - 02 - 02), date!(2027 - 02 - 10)]);
    }

    #[test]
    fn the_default_is_neither_archived_nor_deleted() {
        let mut policy = Policy::create("org_1", new_policy(vec![]), NOW).unwrap();
        assert!(matches!(policy.archive(NOW), Err(RuleError::Conflict(_))));
        assert!(matches!(policy.ensure_deletable(false, false), Err(RuleError::Conflict(_))));
        policy.is_default = false;
        assert!(matches!(policy.ensure_deletable(true, false), Err(RuleError::Conflict(_))));
        assert!(matches!(policy.ensure_deletable(false, true), Err(RuleError::Conflict(_))));
        policy.status = PolicyStatus::Draft;
        assert!(matches!(policy.ensure_deletable(true, false), Err(RuleError::Conflict(_))));
        assert_eq!(policy.ensure_deletable(false, true), Ok(()));
        policy.status = PolicyStatus::Active;
        assert_eq!(policy.archive(NOW), Ok(Outcome::Changed));
        assert!(matches!(policy.add_step(notify(0, Channel::Sms), NOW), Err(RuleError::InvalidState { .. })));
    }

    #[test]
    fn a_copy_is_a_draft_with_new_ids() {
        let policy = Policy::create("org_1", new_policy(vec![notify(0, Channel::Sms)]), NOW).unwrap();
        let copy = policy.duplicate(None, NOW);
        assert_eq!(copy.name, "Régua (cópia)");
        assert_eq!(copy.status, PolicyStatus::Draft);
        assert!(!copy.is_default);
        assert_ne!(copy.steps[0].id, policy.steps[0].id);
        assert_eq!(copy.steps[0].cp_id, copy.id);
    }
}
