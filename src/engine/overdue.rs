//! Pending charges turned overdue the day after their effective due date.

use super::PAGE;
use super::clock::PassClock;
use super::events::overdue_event;
use super::report::PassReport;
use super::writes::committed;
use crate::domain::dates::format_date;
use crate::store::{Store, StoreResult};

/// Turns the organization's late pending charges overdue.
pub(super) async fn turn_overdue(
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
