//! The charge aggregate and its state machine.
//!
//! `pending -> overdue -> paid`, plus `canceled`, `written_off` and `in_agreement`; `paid`,
//! `canceled` and `written_off` are final. Each action lists the statuses it accepts, and an
//! action outside them is refused with those statuses, so callers learn what would work. The
//! legal rules live here: the 2 % fine cap for consumers (CDC art. 52 §1), an issue date no
//! later than the due date, no new charge for an archived debtor.

use std::borrow::Cow;
use std::collections::BTreeMap;

use time::{Date, OffsetDateTime};

use super::calendar;
use super::dates::{Timestamp, Zone};
use super::debtor::Debtor;
use super::money::Hundredths;
use super::payment_codes::{Boleto, BoletoGiven, Pix, stale};
use super::pix_account::PixAccount;
use super::printable;
use super::rules::{RuleError, Violations};
use crate::types::{
    ChargeOrigin, ChargeStatus, CreditBureauReportStatus, Decision, DunningStatus, PaymentMethod, PersonType,
    ProtestStatus, ProtestTitleType, StepAction,
};

/// The default late fee: 2 %, the most a consumer can be fined (CDC art. 52 §1).
pub const DEFAULT_FINE: Hundredths = Hundredths(200);
/// The most a natural person (a consumer) can be fined (CDC art. 52 §1).
pub const CONSUMER_MAX_FINE: Hundredths = Hundredths(200);
/// The default late interest: 1 % a month (CC art. 406).
pub const DEFAULT_INTEREST: Hundredths = Hundredths(100);
/// The default payment method.
pub const DEFAULT_PAYMENT_METHOD: PaymentMethod = PaymentMethod::BoletoPix;

/// Statuses from which a charge can still be collected.
pub const OPEN: &[ChargeStatus] = &[ChargeStatus::Pending, ChargeStatus::Overdue];

/// A charge: what a debtor owes by a due date.
#[derive(Debug, Clone, PartialEq)]
pub struct Charge {
    pub id: String,
    pub organization_id: String,
    pub debtor_id: String,
    /// The debtor's name (read with the charge, not kept on it).
    pub debtor_name: String,
    /// The collection policy it follows; `None` follows the organization's default.
    pub cp_id: Option<String>,
    pub external_id: Option<String>,
    pub description: Option<String>,
    pub amount: Hundredths,
    pub paid: Hundredths,
    pub issue_date: Date,
    pub due_date: Date,
    pub status: ChargeStatus,
    pub dunning_status: DunningStatus,
    pub payment_method: PaymentMethod,
    /// Its boleto, when one was given.
    pub boleto: Option<Boleto>,
    /// Its Pix code, when one was given.
    pub pix: Option<Pix>,
    pub fine: Hundredths,
    pub interest: Hundredths,
    pub paid_at: Option<OffsetDateTime>,
    pub canceled_at: Option<OffsetDateTime>,
    pub cancellation_reason: Option<String>,
    pub written_off_at: Option<OffsetDateTime>,
    pub write_off_reason: Option<String>,
    /// The last decision a person took after an escalation step stopped the régua.
    pub decision: Option<Decided>,
    pub agreement_id: Option<String>,
    /// Made on its own, or as an agreement's installment.
    pub origin: ChargeOrigin,
    /// The status of its latest credit-bureau report, kept with the report.
    pub credit_bureau_status: Option<CreditBureauReportStatus>,
    /// The status of its latest protest, kept with the protest.
    pub protest_status: Option<ProtestStatus>,
    /// The step of its policy that acted on it last (kept by the engine).
    pub current_step_id: Option<String>,
    /// What the escalation step that stopped its régua proposes, while it awaits a decision.
    pub pending_decision: Option<Proposal>,
    /// When the next step of its policy acts, while the régua runs (kept by the engine).
    pub next_action_at: Option<OffsetDateTime>,
    /// The day a pause ends by itself (the engine resumes the régua that day).
    pub paused_until: Option<Date>,
    pub tags: Vec<String>,
    pub metadata: BTreeMap<String, String>,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// What a new charge is made of; `None` takes the legal default.
#[derive(Debug)]
pub struct NewCharge {
    /// The collection policy to follow (checked to exist by the caller).
    pub cp_id: Option<String>,
    pub amount: Hundredths,
    pub due_date: Date,
    /// Default: today, or the due date when that has passed (an imported old debt).
    pub issue_date: Option<Date>,
    pub description: Option<String>,
    pub external_id: Option<String>,
    pub payment_method: Option<PaymentMethod>,
    pub boleto: Option<BoletoGiven>,
    /// A Pix BR Code.
    pub pix: Option<String>,
    pub fine: Option<Hundredths>,
    pub interest: Option<Hundredths>,
    pub tags: Option<Vec<String>>,
    pub metadata: Option<BTreeMap<String, String>>,
}

impl NewCharge {
    /// `amount` due on `due_date`, everything else the legal default.
    pub fn due(amount: Hundredths, due_date: Date) -> NewCharge {
        NewCharge {
            cp_id: None,
            amount,
            due_date,
            issue_date: None,
            description: None,
            external_id: None,
            payment_method: None,
            boleto: None,
            pix: None,
            fine: None,
            interest: None,
            tags: None,
            metadata: None,
        }
    }
}

/// A change of an open charge: `None` keeps a field, `Some(None)` clears a nullable one.
#[derive(Debug, Default)]
pub struct ChargeEdit {
    pub cp_id: Option<Option<String>>,
    pub amount: Option<Hundredths>,
    pub due_date: Option<Date>,
    pub description: Option<Option<String>>,
    pub external_id: Option<Option<String>>,
    pub boleto: Option<Option<BoletoGiven>>,
    pub pix: Option<Option<String>>,
    pub tags: Option<Vec<String>>,
    pub metadata: Option<BTreeMap<String, String>>,
}

/// A payment received for a charge.
#[derive(Debug)]
pub struct Payment {
    /// Default: the whole balance.
    pub amount: Option<Hundredths>,
    /// Default: now.
    pub paid_at: Option<OffsetDateTime>,
    /// Default: the charge's payment method.
    pub method: Option<PaymentMethod>,
}

/// A person's decision on a charge whose régua waited for one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Decided {
    /// What was decided.
    pub decision: Decision,
    /// Why, as given.
    pub reason: String,
    /// When.
    pub decided_at: Timestamp,
}

/// What an escalation step that stopped a charge's régua proposes, kept on the charge as the
/// step was then (a step edited or deleted since does not change what was proposed).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Proposal {
    pub step_id: String,
    pub step_name: String,
    pub cp_id: String,
    /// `request_decision`, `credit_bureau` or `protest`.
    pub action: StepAction,
    /// The title a protest step files.
    pub title_type: Option<ProtestTitleType>,
    /// Why a step that needs no approval could not file on its own.
    pub refused: Option<String>,
    /// When the step stopped the régua.
    pub proposed_at: Timestamp,
}

impl Proposal {
    /// The decision that carries the step out; none for a step that asks a person to choose.
    pub fn proposed_decision(&self) -> Option<Decision> {
        match self.action {
            StepAction::CreditBureau => Some(Decision::CreditBureau),
            StepAction::Protest => Some(Decision::Protest),
            StepAction::RequestDecision | StepAction::Notify => None,
        }
    }
}

/// What can be done to a charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargeAction {
    /// Change amount, due date, description, ids, tags, metadata.
    Update,
    /// Record a payment (settling a paid charge is a no-op).
    Settle,
    /// Cancel (canceling a canceled charge is a no-op).
    Cancel,
    /// Pause or resume the régua (the charge must be open).
    Pause,
    /// Write off as uncollectable (writing off a written-off charge is a no-op).
    WriteOff,
    /// Decide on a charge whose régua awaits a decision.
    Decide,
    /// Renegotiate in an agreement.
    Renegotiate,
    /// Report to a credit bureau or protest at a notary.
    Escalate,
}

impl ChargeAction {
    /// The statuses that allow the action (no-op statuses included).
    pub fn allowed(self) -> &'static [ChargeStatus] {
        use ChargeStatus::*;
        match self {
            Self::Update => OPEN,
            Self::Settle => &[Pending, Overdue, Paid],
            Self::Cancel => &[Pending, Overdue, Canceled],
            Self::Pause => OPEN,
            Self::WriteOff => &[Overdue, WrittenOff],
            Self::Decide => OPEN,
            Self::Renegotiate => OPEN,
            Self::Escalate => &[Overdue],
        }
    }

    /// The status in which the action changes nothing.
    pub fn no_op_status(self) -> Option<ChargeStatus> {
        match self {
            Self::Update => None,
            Self::Settle => Some(ChargeStatus::Paid),
            Self::Cancel => Some(ChargeStatus::Canceled),
            Self::Pause | Self::Decide | Self::Renegotiate | Self::Escalate => None,
            Self::WriteOff => Some(ChargeStatus::WrittenOff),
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Self::Update => "updated",
            Self::Settle => "settled",
            Self::Cancel => "canceled",
            Self::Pause => "paused or resumed",
            Self::WriteOff => "written off",
            Self::Decide => "decided on",
            Self::Renegotiate => "renegotiated",
            Self::Escalate => "reported or protested",
        }
    }
}

/// How a charge stopped being owed, for the report or protest that stood on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Paid,
    Canceled,
    /// Renegotiated in an agreement.
    Agreement,
}

/// The report statuses that keep a charge from being canceled or written off.
const BLOCKING_REPORT: &[CreditBureauReportStatus] = &[CreditBureauReportStatus::Reported];
/// The protest statuses that keep a charge from being canceled or written off.
const BLOCKING_PROTEST: &[ProtestStatus] =
    &[ProtestStatus::Sent, ProtestStatus::Intimated, ProtestStatus::Protested];

/// A payment as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Receipt {
    /// The amount recorded.
    pub amount: Hundredths,
    /// When it was received.
    pub paid_at: OffsetDateTime,
}

/// What a transition did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The charge changed.
    Changed,
    /// The charge already was in the action's end state: nothing changed.
    Unchanged,
}

impl Charge {
    /// A new open charge of `debtor`: pending, or overdue when its due date has passed.
    pub fn open(
        debtor: &Debtor,
        new: NewCharge,
        now: OffsetDateTime,
        zone: &Zone,
    ) -> Result<Self, RuleError> {
        let today = zone.today(now);
        let mut violations = Violations::default();
        let issue_date = new.issue_date.unwrap_or_else(|| new.due_date.min(today));
        if issue_date > new.due_date {
            violations.push("issue_date", "must not be after due_date");
        }
        // The description prints on the debtor's statement and letters.
        if let Some(description) = &new.description {
            violations.check("description", printable::check(description));
        }
        let fine = new.fine.unwrap_or(DEFAULT_FINE);
        if debtor.person_type == PersonType::Natural && fine > CONSUMER_MAX_FINE {
            violations.push("fine_percentage", "must be at most 2 for consumers (CDC art. 52 §1)");
        }
        let boleto = new.boleto.and_then(|b| Boleto::given(b, new.amount.0, new.due_date, &mut violations));
        let pix = new.pix.and_then(|emv| Pix::given(emv, new.amount.0, &mut violations));
        violations.finish()?;
        debtor.check_chargeable()?;
        Ok(Self {
            id: super::ids::new_id("chg"),
            organization_id: debtor.organization_id.clone(),
            debtor_id: debtor.id.clone(),
            debtor_name: debtor.name.clone(),
            cp_id: new.cp_id.clone(),
            external_id: new.external_id,
            description: new.description,
            amount: new.amount,
            paid: Hundredths::ZERO,
            issue_date,
            due_date: new.due_date,
            status: open_status_for(new.due_date, today),
            dunning_status: DunningStatus::NotStarted,
            payment_method: new.payment_method.unwrap_or(DEFAULT_PAYMENT_METHOD),
            boleto,
            pix,
            fine,
            interest: new.interest.unwrap_or(DEFAULT_INTEREST),
            paid_at: None,
            canceled_at: None,
            cancellation_reason: None,
            written_off_at: None,
            write_off_reason: None,
            decision: None,
            agreement_id: None,
            origin: ChargeOrigin::Direct,
            credit_bureau_status: None,
            protest_status: None,
            current_step_id: None,
            pending_decision: None,
            next_action_at: None,
            paused_until: None,
            tags: new.tags.unwrap_or_default(),
            metadata: new.metadata.unwrap_or_default(),
            version: 1,
            created_at: now,
            updated_at: now,
        })
    }

    /// Whether its régua runs: open, and neither paused, awaiting a person nor closed.
    pub fn regua_runs(&self) -> bool {
        OPEN.contains(&self.status)
            && matches!(self.dunning_status, DunningStatus::NotStarted | DunningStatus::Active)
    }

    /// The balance still owed.
    pub fn balance(&self) -> Hundredths {
        Hundredths(self.amount.0 - self.paid.0)
    }

    /// Whole days past the effective due date while open (0 when not overdue or closed): a
    /// charge due on a Saturday is one day late on Tuesday.
    pub fn days_overdue(&self, today: Date) -> i64 {
        let effective = calendar::effective_due_date(self.due_date);
        if OPEN.contains(&self.status) && effective < today { (today - effective).whole_days() } else { 0 }
    }

    /// Turns a pending charge overdue once `today` is past its effective due date; whether it
    /// changed.
    pub fn turn_overdue(&mut self, today: Date, now: OffsetDateTime) -> bool {
        if self.status != ChargeStatus::Pending
            || open_status_for(self.due_date, today) != ChargeStatus::Overdue
        {
            return false;
        }
        self.status = ChargeStatus::Overdue;
        self.dunning_status = dunning_status_after(self.status, self.dunning_status);
        self.touch(now);
        true
    }

    /// The régua sent a step: the charge's régua is active, that step is its current one and
    /// `next` is when the next acts; whether it changed.
    pub fn start_dunning(
        &mut self,
        step_id: &str,
        next: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> bool {
        if !matches!(self.dunning_status, DunningStatus::NotStarted | DunningStatus::Active)
            || !OPEN.contains(&self.status)
        {
            return false;
        }
        let before = (self.dunning_status, self.current_step_id.clone(), self.next_action_at);
        self.dunning_status = DunningStatus::Active;
        self.current_step_id = Some(step_id.to_string());
        self.next_action_at = next;
        if before == (self.dunning_status, self.current_step_id.clone(), self.next_action_at) {
            return false;
        }
        self.touch(now);
        true
    }

    /// An escalation step came: the régua stops until a human decides on what it proposes;
    /// whether it changed.
    pub fn await_decision(&mut self, proposal: Proposal, now: OffsetDateTime) -> bool {
        if !matches!(self.dunning_status, DunningStatus::NotStarted | DunningStatus::Active)
            || !OPEN.contains(&self.status)
        {
            return false;
        }
        self.dunning_status = DunningStatus::AwaitingDecision;
        self.current_step_id = Some(proposal.step_id.clone());
        self.pending_decision = Some(proposal);
        self.next_action_at = None;
        self.touch(now);
        true
    }

    /// The day a pause was to end has come: the régua goes on; whether it changed.
    pub fn end_pause(&mut self, today: Date, now: OffsetDateTime) -> bool {
        if self.dunning_status != DunningStatus::Paused || self.paused_until.is_none_or(|day| day > today) {
            return false;
        }
        self.dunning_status = DunningStatus::Active;
        self.paused_until = None;
        self.touch(now);
        true
    }

    fn guard(&self, action: ChargeAction) -> Result<(), RuleError> {
        // An agreement's installment is paid, or goes with its agreement (canceled or broken),
        // never changed on its own: its agreement would wait for it forever.
        let installment = self.agreement_id.is_some() && OPEN.contains(&self.status);
        let own = matches!(action, ChargeAction::Settle | ChargeAction::Pause | ChargeAction::Decide);
        if installment && !own {
            return Err(RuleError::InvalidState {
                message: format!(
                    "this charge is an installment of agreement {}; it can only be paid, or canceled with its agreement",
                    self.agreement_id.as_deref().unwrap_or_default()
                ),
                status: self.status.as_str(),
                allowed: Vec::new(),
            });
        }
        if matches!(action, ChargeAction::Cancel | ChargeAction::WriteOff)
            && action.no_op_status() != Some(self.status)
        {
            self.check_not_escalated(action)?;
        }
        if action.allowed().contains(&self.status) {
            return Ok(());
        }
        Err(RuleError::InvalidState {
            message: format!("a {} charge cannot be {}", self.status, action.verb()),
            status: self.status.as_str(),
            allowed: action.allowed().iter().map(|s| s.as_str()).collect(),
        })
    }

    /// A charge standing in a bureau's records or before a notary is resolved there first:
    /// canceling or writing it off would leave the debtor reported for a debt that is gone.
    fn check_not_escalated(&self, action: ChargeAction) -> Result<(), RuleError> {
        let report = self.credit_bureau_status.filter(|s| BLOCKING_REPORT.contains(s));
        let protest = self.protest_status.filter(|s| BLOCKING_PROTEST.contains(s));
        let (what, status, fix) = match (report, protest) {
            (Some(_), _) => {
                ("its credit-bureau report is reported", "credit_bureau_reported", "remove the report first")
            }
            (_, Some(s)) => (
                match s {
                    ProtestStatus::Sent => "its protest is at the notary",
                    ProtestStatus::Intimated => "its protest is intimated",
                    _ => "it is protested",
                },
                "protest_pending",
                "cancel the protest first",
            ),
            (None, None) => return Ok(()),
        };
        Err(RuleError::InvalidState {
            message: format!("this charge cannot be {} while {what}: {fix}", action.verb()),
            status,
            allowed: vec!["not_reported", "not_protested"],
        })
    }

    /// Refuses a report or protest of a charge that is not its own overdue debt.
    pub fn check_escalation(&self, what: &str) -> Result<(), RuleError> {
        match self.guard(ChargeAction::Escalate) {
            Err(RuleError::InvalidState { status, allowed, .. }) if !allowed.is_empty() => {
                Err(RuleError::InvalidState {
                    message: format!("a {status} charge cannot be {what}: only an overdue one can"),
                    status,
                    allowed,
                })
            }
            other => other,
        }
    }

    /// How the change from `before` to `self` ended the debt, if it did.
    pub fn ending(&self, before: &Charge) -> Option<Ending> {
        if before.status == self.status {
            return None;
        }
        match self.status {
            ChargeStatus::Paid if before.status != ChargeStatus::InAgreement => Some(Ending::Paid),
            ChargeStatus::Canceled => Some(Ending::Canceled),
            ChargeStatus::InAgreement => Some(Ending::Agreement),
            _ => None,
        }
    }

    /// Changes an open charge; a new due date decides again whether it is overdue.
    pub fn edit(&mut self, edit: ChargeEdit, now: OffsetDateTime, zone: &Zone) -> Result<(), RuleError> {
        self.guard(ChargeAction::Update)?;
        let mut violations = Violations::default();
        if let Some(amount) = edit.amount {
            if amount <= self.paid {
                violations.push("amount", "must be greater than the amount already paid");
            }
            self.amount = amount;
        }
        if let Some(due) = edit.due_date {
            if due < self.issue_date {
                violations.push("due_date", "must not be before issue_date");
            }
            self.due_date = due;
            self.status = open_status_for(due, zone.today(now));
        }
        if let Some(v) = edit.cp_id {
            self.cp_id = v;
        }
        if let Some(v) = edit.description {
            if let Some(description) = &v {
                violations.check("description", printable::check(description));
            }
            self.description = v;
        }
        if let Some(v) = edit.external_id {
            self.external_id = v;
        }
        if let Some(v) = edit.tags {
            self.tags = v;
        }
        if let Some(v) = edit.metadata {
            self.metadata = v;
        }
        self.edit_payment_codes(edit.boleto, edit.pix, &mut violations);
        violations.finish()
    }

    /// Takes the boleto and Pix code given, checked against the charge as edited; a kept one
    /// that no longer fits the new amount or due date is refused, never left to mislead.
    fn edit_payment_codes(
        &mut self,
        boleto: Option<Option<BoletoGiven>>,
        pix: Option<Option<String>>,
        violations: &mut Violations,
    ) {
        let (amount, due, balance) = (self.amount.0, self.due_date, self.balance().0);
        match boleto {
            Some(given) => self.boleto = given.and_then(|b| Boleto::given(b, amount, due, violations)),
            None if self.boleto.as_ref().is_some_and(|b| !b.fits(amount, due)) => {
                violations.push("boleto", stale("boleto", amount));
            }
            None => {}
        }
        match pix {
            Some(given) => self.pix = given.and_then(|emv| Pix::given(emv, balance, violations)),
            None if self.pix.as_ref().is_some_and(|p| !p.fits(balance)) => {
                violations.push("pix", stale("pix", balance));
            }
            None => {}
        }
    }

    /// The digitable line to show the debtor, while its boleto pays the balance.
    pub fn payment_line(&self) -> Option<String> {
        self.boleto.as_ref()?.line_for(self.balance().0)
    }

    /// The Pix code to show the debtor for the balance: its own while it fits, else one made
    /// for the organization's account while the charge is open.
    pub fn pix_code(&self, account: Option<&PixAccount>) -> Option<Cow<'_, str>> {
        let balance = self.balance().0;
        if let Some(own) = self.pix.as_ref().and_then(|p| p.code_for(balance)) {
            return Some(Cow::Borrowed(own));
        }
        self.generated_pix(account).map(|(code, _)| Cow::Owned(code))
    }

    /// The Pix code the charge shows, with its reference: its own, else one made for the
    /// organization's account while the charge is open.
    pub fn pix_shown(&self, account: Option<&PixAccount>) -> Option<(String, Option<String>)> {
        let own = self.pix.as_ref().map(|p| (p.emv.clone(), p.txid().map(str::to_string)));
        if self.pix.as_ref().is_some_and(|p| p.fits(self.balance().0)) {
            return own;
        }
        // The code that pays the balance, as messages and the QR code show it; else the one
        // given, as it was given.
        self.generated_pix(account).map(|(code, txid)| (code, Some(txid))).or(own)
    }

    /// A static code for the balance to `account`, labelled with [`Charge::generated_txid`]:
    /// only while the charge can still be paid.
    fn generated_pix(&self, account: Option<&PixAccount>) -> Option<(String, String)> {
        let balance = self.balance().0;
        // Only a charge a payment can settle: one in an agreement is paid by its installments.
        if balance <= 0 || !OPEN.contains(&self.status) {
            return None;
        }
        let txid = self.generated_txid()?;
        Some((account?.code(balance, &txid), txid))
    }

    /// The reference of the codes made for this charge: the first 25 hexadecimal digits of its
    /// id (its creation time and sequence), unique in the organization and found by id prefix.
    pub fn generated_txid(&self) -> Option<String> {
        txid_of(&self.id)
    }

    /// Records a payment; the whole balance makes the charge paid and closes its dunning.
    /// Returns what was recorded (None when the charge already was paid).
    pub fn settle(&mut self, payment: Payment, now: OffsetDateTime) -> Result<Option<Receipt>, RuleError> {
        self.guard(ChargeAction::Settle)?;
        if Some(self.status) == ChargeAction::Settle.no_op_status() {
            return Ok(None);
        }
        let balance = self.balance();
        let amount = payment.amount.unwrap_or(balance);
        let paid_at = payment.paid_at.unwrap_or(now);
        let mut violations = Violations::default();
        if amount > balance {
            violations.push("paid_amount", "must not exceed the balance of the charge");
        }
        if paid_at > now {
            violations.push("paid_at", "must not be in the future");
        }
        violations.finish()?;
        self.paid = Hundredths(self.paid.0 + amount.0);
        if let Some(method) = payment.method {
            self.payment_method = method;
        }
        if self.paid >= self.amount {
            self.status = ChargeStatus::Paid;
            self.paid_at = Some(paid_at);
        }
        self.dunning_status = dunning_status_after(self.status, self.dunning_status);
        Ok(Some(Receipt { amount, paid_at }))
    }

    /// Cancels the charge and closes its dunning.
    pub fn cancel(&mut self, reason: Option<String>, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        self.guard(ChargeAction::Cancel)?;
        if Some(self.status) == ChargeAction::Cancel.no_op_status() {
            return Ok(Outcome::Unchanged);
        }
        self.status = ChargeStatus::Canceled;
        self.canceled_at = Some(now);
        self.cancellation_reason = reason;
        self.dunning_status = dunning_status_after(self.status, self.dunning_status);
        Ok(Outcome::Changed)
    }

    /// Writes off an overdue charge as uncollectable and closes its dunning.
    pub fn write_off(&mut self, reason: String, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        self.guard(ChargeAction::WriteOff)?;
        if Some(self.status) == ChargeAction::WriteOff.no_op_status() {
            return Ok(Outcome::Unchanged);
        }
        self.status = ChargeStatus::WrittenOff;
        self.written_off_at = Some(now);
        self.write_off_reason = Some(reason);
        self.dunning_status = dunning_status_after(self.status, self.dunning_status);
        Ok(Outcome::Changed)
    }

    /// Decides on an overdue charge whose régua stopped at an escalation step: `write_off`
    /// writes it off, `restart` lets the régua go on from its next step, `keep_open` leaves it
    /// overdue with the régua stopped for good, `agreement` leaves the charge to the agreement
    /// made with it. The decision is kept on the charge.
    pub fn decide(
        &mut self,
        decision: Decision,
        reason: String,
        now: OffsetDateTime,
    ) -> Result<(), RuleError> {
        self.guard(ChargeAction::Decide)?;
        if self.dunning_status != DunningStatus::AwaitingDecision {
            return Err(self.dunning_refusal("decided on", &[DunningStatus::AwaitingDecision]));
        }
        match decision {
            Decision::WriteOff => {
                self.write_off(reason.clone(), now)?;
            }
            // The report or protest made with the decision is the step done; the régua goes on.
            Decision::Restart | Decision::CreditBureau | Decision::Protest => {
                self.dunning_status = DunningStatus::Active;
            }
            Decision::KeepOpen => self.dunning_status = DunningStatus::Closed,
            // The agreement made with the decision renegotiates the charge and closes its régua.
            Decision::Agreement => {}
        }
        self.decision = Some(Decided { decision, reason, decided_at: Timestamp(now) });
        Ok(())
    }

    /// Puts an open charge into agreement `agreement_id`: it is owed through the agreement's
    /// installments now, and its régua closes.
    pub fn renegotiate(&mut self, agreement_id: &str) -> Result<(), RuleError> {
        self.guard(ChargeAction::Renegotiate)?;
        self.status = ChargeStatus::InAgreement;
        self.agreement_id = Some(agreement_id.to_string());
        self.dunning_status = dunning_status_after(self.status, self.dunning_status);
        Ok(())
    }

    /// Marks a charge in an agreement paid: the agreement that renegotiated it was paid in
    /// full. Whether it was in one.
    pub fn settled_by_agreement(&mut self, now: OffsetDateTime) -> bool {
        if self.status != ChargeStatus::InAgreement {
            return false;
        }
        self.status = ChargeStatus::Paid;
        self.paid = self.amount;
        self.paid_at = Some(now);
        self.dunning_status = dunning_status_after(self.status, self.dunning_status);
        true
    }

    /// Takes a charge out of an agreement that ended without paying it (canceled or broken):
    /// it is pending or overdue again, by its own due date, and its régua resumes, unless a
    /// person had decided to keep it open with the régua stopped. Whether it was in one.
    pub fn leave_agreement(&mut self, today: Date) -> bool {
        if self.status != ChargeStatus::InAgreement {
            return false;
        }
        self.status = open_status_for(self.due_date, today);
        self.agreement_id = None;
        let kept_open = self.decision.as_ref().is_some_and(|d| d.decision == Decision::KeepOpen);
        self.dunning_status = if kept_open { DunningStatus::Closed } else { DunningStatus::Active };
        true
    }

    /// Cancels an open installment whose agreement ended (canceled or broken); whether it was
    /// open.
    pub fn cancel_with_agreement(&mut self, reason: String, now: OffsetDateTime) -> bool {
        if !OPEN.contains(&self.status) {
            return false;
        }
        self.status = ChargeStatus::Canceled;
        self.canceled_at = Some(now);
        self.cancellation_reason = Some(reason);
        self.dunning_status = dunning_status_after(self.status, self.dunning_status);
        true
    }

    /// Stops the régua for an open charge: `not_started` or `active` becomes `paused`; a paused
    /// charge is unchanged; one awaiting a decision must get its decision first.
    pub fn pause(&mut self, until: Option<Date>, today: Date) -> Result<Outcome, RuleError> {
        self.guard(ChargeAction::Pause)?;
        if until.is_some_and(|day| day <= today) {
            return Err(RuleError::Invalid(vec![super::rules::Violation {
                field: "until".into(),
                message: "must be after today (the organization's calendar)".into(),
            }]));
        }
        match self.dunning_status {
            DunningStatus::Paused if self.paused_until == until => Ok(Outcome::Unchanged),
            DunningStatus::Paused => {
                self.paused_until = until;
                Ok(Outcome::Changed)
            }
            DunningStatus::NotStarted | DunningStatus::Active => {
                self.dunning_status = DunningStatus::Paused;
                self.paused_until = until;
                Ok(Outcome::Changed)
            }
            DunningStatus::AwaitingDecision | DunningStatus::Closed => Err(self.dunning_refusal(
                "paused",
                &[DunningStatus::NotStarted, DunningStatus::Active, DunningStatus::Paused],
            )),
        }
    }

    /// Lets the régua continue: `paused` becomes `active`; `not_started` and `active` are
    /// unchanged.
    pub fn resume(&mut self) -> Result<Outcome, RuleError> {
        self.guard(ChargeAction::Pause)?;
        match self.dunning_status {
            DunningStatus::Paused => {
                self.dunning_status = DunningStatus::Active;
                self.paused_until = None;
                Ok(Outcome::Changed)
            }
            DunningStatus::NotStarted | DunningStatus::Active => Ok(Outcome::Unchanged),
            DunningStatus::AwaitingDecision | DunningStatus::Closed => Err(self.dunning_refusal(
                "resumed",
                &[DunningStatus::NotStarted, DunningStatus::Active, DunningStatus::Paused],
            )),
        }
    }

    fn dunning_refusal(&self, verb: &str, allowed: &[DunningStatus]) -> RuleError {
        RuleError::InvalidState {
            message: format!("a charge whose dunning is {} cannot be {verb}", self.dunning_status),
            status: self.dunning_status.as_str(),
            allowed: allowed.iter().map(|s| s.as_str()).collect(),
        }
    }

    /// Marks a saved change: the next version, changed now. A proposal outlives no decision:
    /// once the charge no longer awaits one (decided, paid, canceled, renegotiated), it goes.
    pub fn touch(&mut self, now: OffsetDateTime) {
        self.version += 1;
        self.updated_at = now;
        if self.dunning_status != DunningStatus::AwaitingDecision {
            self.pending_decision = None;
        }
    }

    /// When a pause with an end resumes the régua: the start of the day it ends, in the
    /// organization's calendar (the engine's first pass that day); none for any other charge.
    pub fn resumes_at(&self, zone: &Zone) -> Option<OffsetDateTime> {
        if self.dunning_status != DunningStatus::Paused || !OPEN.contains(&self.status) {
            return None;
        }
        self.paused_until.map(|day| zone.day_start(day))
    }
}

/// The status an open charge has on `today`: overdue the day after its effective due date (the
/// next business day when it falls on another day, Código Civil art. 132 §1).
pub fn open_status_for(due_date: Date, today: Date) -> ChargeStatus {
    if calendar::overdue_from(due_date) <= today { ChargeStatus::Overdue } else { ChargeStatus::Pending }
}

/// The dunning status once the charge status changes: closed when the charge closes.
pub fn dunning_status_after(status: ChargeStatus, current: DunningStatus) -> DunningStatus {
    use ChargeStatus::*;
    match status {
        Paid | Canceled | WrittenOff | InAgreement => DunningStatus::Closed,
        // A régua closed on an open charge (a decision to keep it open) stays closed.
        Pending | Overdue => current,
    }
}

/// The length of a generated txid: a BR Code's reference label holds at most 25 characters.
pub const GENERATED_TXID_LEN: usize = 25;

/// The txid of codes made for the charge `id` (`chg_` and 32 hexadecimal digits).
pub fn txid_of(id: &str) -> Option<String> {
    let hex = id.strip_prefix("chg_")?;
    (hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| hex[..GENERATED_TXID_LEN].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::{date, datetime};

    fn debtor(person_type: PersonType) -> Debtor {
        let document = if person_type == PersonType::Natural { "52998224725" } else { "11222333000181" };
        let edit = super::super::debtor::DebtorEdit { name: Some("Maria".into()), ..Default::default() };
        Debtor::register("org_1", document, edit, datetime!(2026-10-01 12:00 UTC), &Zone::default_zone())
            .unwrap()
    }

    fn new_charge(due: Date) -> NewCharge {
        NewCharge::due(Hundredths(10_000), due)
    }

    #[test]
    fn a_charge_due_on_a_non_business_day_is_late_from_the_day_after_the_next_business_day() {
        // Due Saturday 10 October 2026; Monday 12 is a holiday: due Tuesday 13, late on 14.
        let due = date!(2026 - 10 - 10);
        assert_eq!(open_status_for(due, date!(2026 - 10 - 13)), ChargeStatus::Pending);
        assert_eq!(open_status_for(due, date!(2026 - 10 - 14)), ChargeStatus::Overdue);
        let created = datetime!(2026-10-01 15:00 UTC);
        let mut c =
            Charge::open(&debtor(PersonType::Natural), new_charge(due), created, &Zone::default_zone())
                .unwrap();
        assert_eq!(c.status, ChargeStatus::Pending);
        let later = datetime!(2026-10-14 15:00 UTC);
        assert!(!c.turn_overdue(date!(2026 - 10 - 13), later));
        assert_eq!((c.status, c.version), (ChargeStatus::Pending, 1));
        assert!(c.turn_overdue(date!(2026 - 10 - 14), later));
        assert_eq!((c.status, c.version, c.updated_at), (ChargeStatus::Overdue, 2, later));
        assert_eq!(c.days_overdue(date!(2026 - 10 - 14)), 1);
        assert!(!c.turn_overdue(date!(2026 - 10 - 15), later), "only a pending charge turns");
    }

    #[test]
    fn leaving_an_agreement_resumes_the_regua_unless_a_person_stopped_it() {
        let now = datetime!(2026-10-20 15:00 UTC);
        let mut c = Charge::open(
            &debtor(PersonType::Natural),
            new_charge(date!(2026 - 10 - 05)),
            now,
            &Zone::default_zone(),
        )
        .unwrap();
        c.renegotiate("agr_1").unwrap();
        assert_eq!((c.status, c.dunning_status), (ChargeStatus::InAgreement, DunningStatus::Closed));
        assert!(c.leave_agreement(date!(2026 - 10 - 20)));
        assert_eq!(
            (c.status, c.dunning_status, c.agreement_id.as_deref()),
            (ChargeStatus::Overdue, DunningStatus::Active, None)
        );
        assert!(!c.leave_agreement(date!(2026 - 10 - 20)), "only a charge in an agreement leaves one");

        c.dunning_status = DunningStatus::AwaitingDecision;
        c.decide(Decision::KeepOpen, "Disse que pagou.".into(), now).unwrap();
        c.renegotiate("agr_2").unwrap();
        assert!(c.leave_agreement(date!(2026 - 10 - 20)));
        assert_eq!(c.dunning_status, DunningStatus::Closed, "kept open by a person: the régua stays stopped");
    }

    #[test]
    fn pausing_and_resuming_move_the_dunning_status_only() {
        let now = datetime!(2026-10-01 15:00 UTC);
        let mut c = Charge::open(
            &debtor(PersonType::Natural),
            new_charge(date!(2026 - 10 - 20)),
            now,
            &Zone::default_zone(),
        )
        .unwrap();
        assert_eq!(c.dunning_status, DunningStatus::NotStarted);
        assert_eq!(c.resume(), Ok(Outcome::Unchanged));
        assert_eq!(c.pause(None, date!(2026 - 10 - 01)), Ok(Outcome::Changed));
        assert_eq!((c.status, c.dunning_status), (ChargeStatus::Pending, DunningStatus::Paused));
        assert_eq!(c.pause(None, date!(2026 - 10 - 01)), Ok(Outcome::Unchanged));
        assert_eq!(c.resume(), Ok(Outcome::Changed));
        assert_eq!(c.dunning_status, DunningStatus::Active);

        c.dunning_status = DunningStatus::AwaitingDecision;
        let Err(RuleError::InvalidState { status, allowed, .. }) = c.pause(None, date!(2026 - 10 - 01))
        else {
            panic!("refused")
        };
        assert_eq!((status, allowed), ("awaiting_decision", vec!["not_started", "active", "paused"]));
        assert!(c.resume().is_err());

        c.dunning_status = DunningStatus::Active;
        c.cancel(None, now).unwrap();
        let Err(RuleError::InvalidState { status, .. }) = c.pause(None, date!(2026 - 10 - 01)) else {
            panic!("refused")
        };
        assert_eq!(status, "canceled");
    }

    #[test]
    fn overdue_starts_the_day_after_the_due_date() {
        let due = date!(2026 - 10 - 05);
        assert_eq!(open_status_for(due, date!(2026 - 10 - 05)), ChargeStatus::Pending);
        assert_eq!(open_status_for(due, date!(2026 - 10 - 06)), ChargeStatus::Overdue);
        let now = datetime!(2026-10-15 15:00 UTC);
        let c =
            Charge::open(&debtor(PersonType::Natural), new_charge(due), now, &Zone::default_zone()).unwrap();
        assert_eq!(c.status, ChargeStatus::Overdue);
        assert_eq!(c.days_overdue(date!(2026 - 10 - 15)), 10);
        assert_eq!(c.issue_date, due, "an imported old debt is issued on its due date");
    }

    #[test]
    fn consumers_are_fined_at_most_two_percent() {
        let now = datetime!(2026-10-01 15:00 UTC);
        let mut new = new_charge(date!(2026 - 11 - 05));
        new.fine = Some(Hundredths(250));
        let refused =
            Charge::open(&debtor(PersonType::Natural), new, now, &Zone::default_zone()).unwrap_err();
        assert!(matches!(refused, RuleError::Invalid(v) if v[0].field == "fine_percentage"));
        let mut new = new_charge(date!(2026 - 11 - 05));
        new.fine = Some(Hundredths(250));
        assert!(
            Charge::open(&debtor(PersonType::Legal), new, now, &Zone::default_zone()).is_ok(),
            "companies may agree to more"
        );
    }

    #[test]
    fn an_archived_debtor_gets_no_new_charge() {
        let now = datetime!(2026-10-01 15:00 UTC);
        let mut d = debtor(PersonType::Natural);
        assert!(d.archive(now));
        assert!(!d.archive(now), "archiving twice changes nothing");
        let refused =
            Charge::open(&d, new_charge(date!(2026 - 11 - 05)), now, &Zone::default_zone()).unwrap_err();
        assert!(matches!(refused, RuleError::InvalidState { status: "archived", .. }));
    }

    #[test]
    fn transitions_follow_the_table() {
        let now = datetime!(2026-10-01 15:00 UTC);
        let mut c = Charge::open(
            &debtor(PersonType::Natural),
            new_charge(date!(2026 - 11 - 05)),
            now,
            &Zone::default_zone(),
        )
        .unwrap();
        let partial = Payment { amount: Some(Hundredths(4_000)), paid_at: None, method: None };
        assert_eq!(c.settle(partial, now).unwrap().map(|r| r.amount), Some(Hundredths(4_000)));
        assert_eq!(c.status, ChargeStatus::Pending, "a partial payment keeps the charge open");
        let too_much = Payment { amount: Some(Hundredths(6_001)), paid_at: None, method: None };
        assert!(c.settle(too_much, now).is_err());
        let rest = c.settle(Payment { amount: None, paid_at: None, method: None }, now).unwrap();
        assert_eq!(rest.map(|r| r.amount), Some(Hundredths(6_000)));
        assert_eq!((c.status, c.dunning_status), (ChargeStatus::Paid, DunningStatus::Closed));
        assert_eq!(c.settle(Payment { amount: None, paid_at: None, method: None }, now).unwrap(), None);
        let refused = c.cancel(None, now).unwrap_err();
        assert!(
            matches!(refused, RuleError::InvalidState { status: "paid", ref allowed, .. } if allowed == &["pending", "overdue", "canceled"])
        );
        assert!(
            c.edit(ChargeEdit::default(), now, &Zone::default_zone()).is_err(),
            "a paid charge cannot be updated"
        );
    }

    #[test]
    fn closing_a_charge_closes_its_dunning() {
        assert_eq!(dunning_status_after(ChargeStatus::Paid, DunningStatus::Active), DunningStatus::Closed);
        assert_eq!(dunning_status_after(ChargeStatus::Overdue, DunningStatus::Paused), DunningStatus::Paused);
        assert_eq!(dunning_status_after(ChargeStatus::Overdue, DunningStatus::Active), DunningStatus::Active);
    }
}
