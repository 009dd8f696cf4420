//! What the end of a debt does to its credit-bureau report and protest, and saving one changed
//! with the event its new status calls for.

use super::Acting;
use crate::domain::charge::{Charge, Ending};
use crate::domain::credit_bureau::{Report, ReportDetails};
use crate::domain::escalation::Escalation;
use crate::domain::protest::{Protest, ProtestDetails};
use crate::error::{ApiError, ApiResult};
use crate::store::taken_back;
use crate::views::escalation::{Shown, moved};

/// Saves a report or protest changed, with the event its new status calls for.
pub(crate) async fn save_escalation<K: Shown>(
    acting: &Acting<'_>,
    before: &Escalation<K>,
    after: &Escalation<K>,
) -> ApiResult<()> {
    let evt = acting.event(after.event_code(), &after.id, &moved(Some(before), after));
    if !acting.store.update_escalation(after, before.version, &evt).await? {
        return Err(ApiError::Concurrent(K::NAME));
    }
    Ok(())
}

/// What the end of a debt does to its report and protest, worked out before the charge is
/// saved (the charge carries their new statuses) and saved after it.
#[derive(Default)]
pub(crate) struct Withdrawal {
    report: Option<(Report, Report)>,
    protest: Option<(Protest, Protest)>,
}

impl Withdrawal {
    /// The change from `before` to `after` ended the debt: its report is canceled or its removal
    /// requested (due 5 business days from today), its protest withdrawn or its cancellation
    /// requested; `after` gets their statuses.
    pub(crate) async fn of(acting: &Acting<'_>, before: &Charge, after: &mut Charge) -> ApiResult<Self> {
        let mut withdrawal = Self::default();
        let Some(ending) = after.ending(before) else { return Ok(withdrawal) };
        // Removal is due 5 business days after the payment (which may be dated back).
        let ended = match (ending, after.paid_at) {
            (Ending::Paid, Some(paid_at)) => acting.zone().today(paid_at).min(acting.today()),
            _ => acting.today(),
        };
        let (store, org_id, now) = (acting.store, acting.org_id(), acting.now);
        if after.credit_bureau_status.is_some() {
            withdrawal.report =
                taken_back::<ReportDetails>(store, org_id, &after.id, ending, ended, now).await?;
            if let Some((_, removed)) = &withdrawal.report {
                after.credit_bureau_status = Some(removed.status);
            }
        }
        if after.protest_status.is_some() {
            withdrawal.protest =
                taken_back::<ProtestDetails>(store, org_id, &after.id, ending, ended, now).await?;
            if let Some((_, withdrawn)) = &withdrawal.protest {
                after.protest_status = Some(withdrawn.status);
            }
        }
        Ok(withdrawal)
    }

    /// Saves the report and protest changed, once the charge is saved.
    pub(crate) async fn save(self, acting: &Acting<'_>) -> ApiResult<()> {
        if let Some((before, after)) = &self.report {
            save_escalation(acting, before, after).await?;
        }
        if let Some((before, after)) = &self.protest {
            save_escalation(acting, before, after).await?;
        }
        Ok(())
    }
}
