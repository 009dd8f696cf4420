//! The charge state machine and its guards (kobana-domain.md section 5).
//!
//! `pending -> overdue -> paid`, plus `canceled`, `written_off` and `in_agreement`; `paid`,
//! `canceled` and `written_off` are terminal. Each action lists the statuses it accepts, and an
//! action outside them is refused with those statuses, so callers learn what would work.

use time::Date;

/// The default late fee, in hundredths of a percent: 2 %, the most a consumer can be fined
/// (CDC art. 52 §1).
pub const DEFAULT_FINE_HUNDREDTHS: i64 = 200;
/// The default late interest, in hundredths of a percent a month: 1 % (CC art. 406).
pub const DEFAULT_INTEREST_HUNDREDTHS: i64 = 100;

/// Statuses from which a charge can still be collected.
pub const OPEN: &[&str] = &["pending", "overdue"];

/// What can be done to a charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargeAction {
    /// Change amount, due date, description, ids, tags, metadata.
    Update,
    /// Record a payment (settling a paid charge is a no-op).
    Settle,
    /// Cancel (canceling a canceled charge is a no-op).
    Cancel,
}

impl ChargeAction {
    /// The statuses that allow the action (no-op statuses included).
    pub fn allowed(self) -> &'static [&'static str] {
        match self {
            Self::Update => OPEN,
            Self::Settle => &["pending", "overdue", "paid"],
            Self::Cancel => &["pending", "overdue", "canceled"],
        }
    }

    /// The status in which the action changes nothing.
    pub fn no_op_status(self) -> Option<&'static str> {
        match self {
            Self::Update => None,
            Self::Settle => Some("paid"),
            Self::Cancel => Some("canceled"),
        }
    }

    /// The verb, for messages.
    pub fn verb(self) -> &'static str {
        match self {
            Self::Update => "updated",
            Self::Settle => "settled",
            Self::Cancel => "canceled",
        }
    }
}

/// Whether the action may run on a charge in `status`.
pub fn allows(action: ChargeAction, status: &str) -> bool {
    action.allowed().contains(&status)
}

/// The status an open charge has on `today`: overdue the day after its due date.
pub fn open_status_for(due_date: Date, today: Date) -> &'static str {
    if due_date < today { "overdue" } else { "pending" }
}

/// Whole days past the due date of an open charge (0 when not overdue or closed).
pub fn days_overdue(status: &str, due_date: Date, today: Date) -> i64 {
    if OPEN.contains(&status) && due_date < today { (today - due_date).whole_days() } else { 0 }
}

/// The dunning status once the charge status changes: closed when the charge closes.
pub fn dunning_status_after(status: &str, current: &str) -> &'static str {
    match status {
        "paid" | "canceled" | "written_off" | "in_agreement" => "closed",
        _ if current == "not_started" => "not_started",
        _ if current == "paused" => "paused",
        _ if current == "awaiting_decision" => "awaiting_decision",
        _ => "active",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn guards_follow_the_table() {
        assert!(allows(ChargeAction::Cancel, "overdue"));
        assert!(allows(ChargeAction::Cancel, "canceled"));
        assert!(!allows(ChargeAction::Cancel, "paid"));
        assert!(!allows(ChargeAction::Settle, "canceled"));
        assert!(allows(ChargeAction::Settle, "paid"));
        assert!(!allows(ChargeAction::Update, "paid"));
        assert!(!allows(ChargeAction::Update, "in_agreement"));
    }

    #[test]
    fn overdue_starts_the_day_after_the_due_date() {
        let due = date!(2026 - 10 - 05);
        assert_eq!(open_status_for(due, date!(2026 - 10 - 05)), "pending");
        assert_eq!(open_status_for(due, date!(2026 - 10 - 06)), "overdue");
        assert_eq!(days_overdue("overdue", due, date!(2026 - 10 - 15)), 10);
        assert_eq!(days_overdue("paid", due, date!(2026 - 10 - 15)), 0);
    }

    #[test]
    fn closing_a_charge_closes_its_dunning() {
        assert_eq!(dunning_status_after("paid", "active"), "closed");
        assert_eq!(dunning_status_after("overdue", "paused"), "paused");
        assert_eq!(dunning_status_after("overdue", "active"), "active");
    }
}
