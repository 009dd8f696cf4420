//! What a pass did, counted as it goes.

use crate::domain::notification::Notification;

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
    pub(super) fn count(&mut self, n: &Notification) {
        use crate::types::NotificationStatus::*;
        match n.status {
            Sent => self.sent += 1,
            Skipped => self.skipped += 1,
            Queued | Failed => self.failed += 1,
            _ => {}
        }
    }
}

/// What hears a pass's counts as it goes (a terminal's progress line).
pub type Progress<'a> = &'a (dyn Fn(&PassReport) + Sync);
