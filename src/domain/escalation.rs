//! What stands against a debtor because of an overdue charge: a credit-bureau report or a
//! protest. Both live one life: filed for the charge (`requested`), told to the outside (the
//! bureau or the notary, through the gateway or the sandbox's simulation), moved by the steps
//! the outside reports, and taken back when the debt ends. [`Escalation`] is that life; each
//! [`Kind`] (`credit_bureau`, `protest`) says only what differs: its statuses, the steps its
//! outside takes, what it must be told and its own fields.

use std::fmt::Debug;
use std::ops::{Deref, DerefMut};
use std::str::FromStr;

use time::{Date, OffsetDateTime};

use super::calendar;
use super::charge::{Charge, Ending, Outcome};
use super::dates::Zone;
use super::debtor::Debtor;
use super::ids::new_id;
use super::money::Hundredths;
use super::rules::RuleError;
use crate::types::WebhookEventCode;

/// A status of an escalation, as the spec names it.
pub trait Status: Copy + Eq + Debug + FromStr + 'static {
    /// Every status, in the spec's order.
    const ALL: &'static [Self];
    /// Where every escalation starts: filed, the outside not yet told.
    const REQUESTED: Self;
    fn name(self) -> &'static str;
}

/// The spec's status enums of the kinds, named as the spec writes them.
macro_rules! statuses {
    ($($status:ty),*) => {$(
        impl Status for $status {
            const ALL: &'static [Self] = <$status>::ALL;
            const REQUESTED: Self = <$status>::Requested;
            fn name(self) -> &'static str {
                self.as_str()
            }
        }
    )*};
}
statuses!(crate::types::CreditBureauReportStatus, crate::types::ProtestStatus);

/// What one kind of escalation is beyond the shared life.
pub trait Kind: Clone + Debug + PartialEq + Eq + Sized {
    type Status: Status;
    /// The prefix of its ids.
    const PREFIX: &'static str;
    /// What a refusal calls one ("a failed report ...").
    const NOUN: &'static str;
    /// The gateway requests the outside answers, the filing first: each with the status that
    /// asks it and the one its confirmation reaches (see [`Escalation::event_code`]).
    const ANSWERED: &'static [(&'static str, Self::Status, Self::Status)];
    /// The gateway request that files a new one.
    const FILE_REQUEST: &'static str = Self::ANSWERED[0].0;
    /// The status a new one refused for good by the gateway ends in.
    const REFUSED: Self::Status;
    /// The status one taken back before the outside acted ends in, the statuses the outside
    /// may have heard of by then, and the gateway request that tells it.
    const RECALLED: (Self::Status, &'static [Self::Status], &'static str);
    /// The moments whose column (and field) is not named `<status>_at`.
    const MOMENTS: &'static [(Self::Status, &'static str)] = &[];
    /// The outside's steps as the sandbox plays them: from a status, after a wait counted from
    /// the day it was reached, to the next.
    const SANDBOX: &'static [(Self::Status, Wait, Self::Status)];

    /// How the outside's step `heard` moves `e`: its new status (the kind's own fields set; the
    /// moments are kept by [`Escalation::heard`]), or nothing, or the statuses it could have
    /// reported instead.
    fn take(e: &mut Escalation<Self>, heard: Heard<Self::Status>, now: OffsetDateTime) -> Step<Self::Status>;
    /// Takes `e` back because its debt ended on `day`.
    fn take_back(
        e: &mut Escalation<Self>,
        ending: Ending,
        day: Date,
        now: OffsetDateTime,
    ) -> Result<Outcome, RuleError>;
}

/// The debtor's full address, which one of `K` needs.
pub fn address<K: Kind>(debtor: &Debtor) -> Result<&crate::types::Address, RuleError> {
    debtor.address.as_ref().ok_or_else(|| RuleError::InvalidState {
        message: format!("A {} needs the debtor's full address: add it to the debtor first.", K::NOUN),
        status: "address_missing",
        allowed: vec!["address_complete"],
    })
}

/// The names of every status but `but`, in the spec's order.
pub fn all_but<S: Status>(but: &[S]) -> Vec<&'static str> {
    S::ALL.iter().filter(|s| !but.contains(s)).map(|s| s.name()).collect()
}

/// The statuses whose moment `K` keeps, in the spec's order: all but the request's (kept as
/// `requested_at`) and the refusal's; each moment is set when it reaches the status.
pub fn stamped<K: Kind>() -> impl Iterator<Item = K::Status> {
    K::Status::ALL.iter().copied().filter(|s| *s != K::Status::REQUESTED && *s != K::REFUSED)
}

/// The name the spec and the kind's table give the moment of `status` (`sent_at`).
pub fn moment<K: Kind>(status: K::Status) -> String {
    let renamed = K::MOMENTS.iter().find(|(s, _)| *s == status).map(|(_, column)| column.to_string());
    renamed.unwrap_or_else(|| format!("{}_at", status.name()))
}

/// How long the sandbox's outside takes over a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    BusinessDays(u32),
    Days(i64),
}

/// A step the outside reports (a gateway status callback, or the gateway refusing a new one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heard<S> {
    pub status: S,
    /// The outside's protocol for it, when it gives one.
    pub protocol: Option<String>,
    pub failure_reason: Option<String>,
    /// What the notary charges, when it says.
    pub costs: Option<Hundredths>,
    /// The day it is heard on, in the organization's zone.
    pub today: Date,
}

/// What a step heard does, as [`Kind::take`] works it out.
pub enum Step<S> {
    To(S),
    /// Heard for one taken back before the outside knew: nothing changes.
    Ignored,
    /// Not a step it can take from where it is: these are.
    Refused(&'static [&'static str]),
}

/// One escalation of one charge: the shared life and the kind's own fields (`details`, read
/// through it as its own, since a report or a protest is both).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Escalation<K: Kind> {
    pub id: String,
    pub organization_id: String,
    pub charge_id: String,
    pub debtor_id: String,
    /// The debtor's name and the charge's description, as they are now: read with the row (the
    /// store joins them), never stored on it, so that a list names what it shows.
    pub debtor_name: String,
    pub charge_description: Option<String>,
    pub status: K::Status,
    /// The charge's balance when it was filed.
    pub amount: Hundredths,
    pub requested_at: OffsetDateTime,
    /// When it reached each of [`stamped`], in that order (see [`Escalation::at`]).
    pub stamps: Vec<Option<OffsetDateTime>>,
    pub failure_reason: Option<String>,
    /// The outside's protocol for it (the bureau's for the inclusion, the notary's for the
    /// title), once it gives one.
    pub protocol: Option<String>,
    /// The last status the outside was told of or told us (production, through the gateway).
    pub submitted_status: Option<K::Status>,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    pub details: K,
}

impl<K: Kind> Deref for Escalation<K> {
    type Target = K;
    fn deref(&self) -> &K {
        &self.details
    }
}

impl<K: Kind> DerefMut for Escalation<K> {
    fn deref_mut(&mut self) -> &mut K {
        &mut self.details
    }
}

impl<K: Kind> Escalation<K> {
    /// A new one of `charge` with the kind's `details`, requested `now`.
    pub fn new(charge: &Charge, debtor: &Debtor, details: K, now: OffsetDateTime) -> Self {
        Self {
            id: new_id(K::PREFIX),
            organization_id: charge.organization_id.clone(),
            charge_id: charge.id.clone(),
            debtor_id: charge.debtor_id.clone(),
            debtor_name: debtor.name.clone(),
            charge_description: charge.description.clone(),
            status: K::Status::REQUESTED,
            amount: charge.balance(),
            requested_at: now,
            stamps: vec![None; stamped::<K>().count()],
            failure_reason: None,
            protocol: None,
            submitted_status: None,
            version: 1,
            created_at: now,
            updated_at: now,
            details,
        }
    }

    /// The outside's next step as the sandbox plays it on `today`. Whether it changed.
    pub fn advance_sandbox(&mut self, today: Date, now: OffsetDateTime, zone: &Zone) -> bool {
        let Some(&(_, wait, next)) = K::SANDBOX.iter().find(|(from, ..)| *from == self.status) else {
            return false;
        };
        let Some(since) = self.at(self.status).map(|t| zone.today(t)) else { return false };
        let due = match wait {
            Wait::BusinessDays(days) => calendar::add_business_days(since, days),
            Wait::Days(days) => since + time::Duration::days(days),
        };
        if due > today {
            return false;
        }
        self.reach(next, now);
        // The filing confirmed: the simulated outside's protocol.
        if next == K::ANSWERED[0].2 {
            let number = self.id.trim_start_matches(&format!("{}_", K::PREFIX));
            self.protocol = Some(format!("SBX-{number}"));
        }
        self.touch(now);
        true
    }

    /// What the outside must still be told (the gateway request's kind), if anything: its
    /// status's request, or the recall of one it heard of before it was taken back.
    pub fn owed(&self) -> Option<&'static str> {
        let told = self.submitted_status;
        if told == Some(self.status) {
            return None;
        }
        let (recalled, heard_of, recall) = K::RECALLED;
        if self.status == recalled && told.is_some_and(|told| heard_of.contains(&told)) {
            return Some(recall);
        }
        // The filing is owed only while the outside has heard nothing.
        let mut answered = K::ANSWERED.iter().skip(usize::from(told.is_some()));
        answered.find(|(_, asked, _)| *asked == self.status).map(|(request, ..)| *request)
    }

    /// A step the outside reports. The same status again changes nothing; a step it cannot take
    /// from where it is is refused.
    pub fn heard(&mut self, heard: Heard<K::Status>, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        let status = heard.status;
        if status == self.status {
            return Ok(Outcome::Unchanged);
        }
        let next = match K::take(self, heard, now) {
            Step::To(next) => next,
            Step::Ignored => return Ok(Outcome::Unchanged),
            Step::Refused(allowed) => {
                return Err(RuleError::InvalidState {
                    message: format!("a {} {} cannot become {}", self.status.name(), K::NOUN, status.name()),
                    status: self.status.name(),
                    allowed: allowed.to_vec(),
                });
            }
        };
        // What the outside did is reached even when the kind moves on from it.
        self.stamp(status, now);
        self.reach(next, now);
        self.submitted_status = Some(status);
        self.touch(now);
        Ok(Outcome::Changed)
    }

    /// The event code of the step it just took, one of the spec's `WebhookEventCode`: a status
    /// that asks or confirms a request of [`Kind::ANSWERED`] is `<request>.requested` or
    /// `.confirmed`, a refused filing `<filing>.failed`, any other `<resource>.<status>`.
    pub fn event_code(&self) -> &'static str {
        let status = self.status;
        let code = match K::ANSWERED.iter().find(|(_, asked, done)| *asked == status || *done == status) {
            Some((request, asked, _)) if *asked == status => format!("{request}.requested"),
            Some((request, ..)) => format!("{request}.confirmed"),
            None if status == K::REFUSED => format!("{}.failed", K::FILE_REQUEST),
            None => {
                let resource = K::FILE_REQUEST.split('.').next().unwrap_or_default();
                format!("{resource}.{}", status.name())
            }
        };
        let declared = WebhookEventCode::ALL.iter().map(|c| c.as_str()).find(|c| *c == code);
        declared.unwrap_or_else(|| unreachable!("the spec declares no event {code}"))
    }

    /// When it reached `status`, if it did and its kind keeps that moment (the request's is
    /// `requested_at`).
    pub fn at(&self, status: K::Status) -> Option<OffsetDateTime> {
        if status == K::Status::REQUESTED {
            return Some(self.requested_at);
        }
        stamped::<K>().position(|s| s == status).and_then(|i| self.stamps.get(i).copied().flatten())
    }

    /// Moves it to `status`, reached `now`.
    pub fn reach(&mut self, status: K::Status, now: OffsetDateTime) {
        self.status = status;
        self.stamp(status, now);
    }

    /// Keeps `now` as the moment of `status`, if its kind keeps that one.
    fn stamp(&mut self, status: K::Status, now: OffsetDateTime) {
        let slot = stamped::<K>().position(|s| s == status).and_then(|i| self.stamps.get_mut(i));
        if let Some(slot) = slot {
            *slot = Some(now);
        }
    }

    /// Takes it back because its debt ended on `day` (a report's removal is due counted from
    /// it). Whether it changed.
    pub fn debt_ended(&mut self, ending: Ending, day: Date, now: OffsetDateTime) -> bool {
        matches!(K::take_back(self, ending, day, now), Ok(Outcome::Changed))
    }

    /// Marks a saved change.
    pub fn touch(&mut self, now: OffsetDateTime) {
        self.version += 1;
        self.updated_at = now;
    }
}
