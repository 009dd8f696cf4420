//! One pass over every organization: its charges moved on, its due steps run, then the retries
//! due.

use std::collections::HashMap;

use time::OffsetDateTime;

use super::clock::PassClock;
use super::overdue::turn_overdue;
use super::report::{PassReport, Progress};
use super::retries::retry_due;
use super::schedule::{end_pauses, reschedule, skip_missed};
use super::steps::{Sending, run_steps};
use super::{agreements, escalations};
use crate::domain::dates::Zone;
use crate::outbound::delivery::{Actor, Courier};
use crate::providers::Providers;
use crate::store::{Store, StoreResult};

/// The pass of [`run_once_reporting`](super::run_once_reporting): each organization's charges
/// moved on and its due steps run (one organization's failure is logged and the others go on),
/// then the retries due.
pub(super) async fn run(
    store: &Store,
    providers: &Providers,
    now: OffsetDateTime,
    progress: Progress<'_>,
) -> StoreResult<PassReport> {
    let started = std::time::Instant::now();
    let mut report = PassReport::default();
    let courier = Courier { store, providers, actor: Actor::engine() };
    let mut organizations = HashMap::new();
    for org in store.organizations().await? {
        let clock = PassClock { now, started, zone: org.timezone.clone() };
        let sandbox = org.environment == "sandbox";
        let org_id = org.id.clone();
        let pix_account = org.pix_account.clone();
        organizations.insert(org.id, (sandbox, org.timezone));
        let result = async {
            turn_overdue(store, &org_id, &clock, &mut report).await?;
            end_pauses(store, &org_id, &clock, &mut report).await?;
            reschedule(store, &org_id, &clock, &mut report).await?;
            skip_missed(store, &org_id, &clock, &mut report).await?;
            let moved = agreements::follow(store, &org_id, &clock).await?;
            report.agreements_activated += moved.activated;
            report.agreements_completed += moved.completed;
            report.agreements_broken += moved.broken;
            let played = escalations::follow(store, providers, &org_id, sandbox, &clock).await?;
            report.escalations_moved += played.reports + played.protests;
            report.escalations_submitted += played.submitted;
            progress(&report);
            let sending = Sending { sandbox, pix_account: pix_account.as_ref() };
            run_steps(&courier, &org_id, sending, &clock, &mut report, progress).await
        }
        .await;
        if let Err(e) = result {
            tracing::warn!(organization = %org_id, error = %e, "engine pass failed for an organization");
        }
    }
    let clock = PassClock { now, started, zone: Zone::default_zone() };
    retry_due(&courier, &clock, &organizations, &mut report).await?;
    Ok(report)
}
