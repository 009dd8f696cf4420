//! `serve --demo`: a sandbox organization with realistic Brazilian debtors and charges, created
//! once through the same store calls the API uses (events included).

pub mod data;
pub mod generate;
pub mod regua;
mod settling;

use std::sync::LazyLock;

use time::{Duration, OffsetDateTime};

use crate::admin::{self, AdminError};
use crate::domain::charge::{Charge, NewCharge, Payment, dunning_status_after};
use crate::domain::dates::{Zone, format_timestamp};
use crate::domain::debtor::{Debtor, DebtorEdit};
use crate::domain::ids::new_id;
use crate::domain::money::Hundredths;
use crate::domain::notification::Composing;
use crate::domain::pix_account::PixAccount;
use crate::store::{NewEvent, Store};
use crate::types::{self as wire, Address, DunningStatus};
use crate::views::charge::charge_event_view;
use crate::views::debtor::debtor_view;
use crate::views::event_data::{ObjectPayload, Payload, to_data};
use crate::views::policy::policy_view;
use data::{CHARGES, DEBTORS, DemoOutcome};

/// The demo organization's time zone: it is created in the default one.
pub(super) fn zone() -> Zone {
    Zone::default_zone()
}

/// The demo organization's Pix account (its CNPJ as the key): its charges show codes made for
/// it, and its messages carry them.
pub(super) fn pix_account() -> &'static PixAccount {
    static ACCOUNT: LazyLock<PixAccount> = LazyLock::new(|| {
        PixAccount::new(data::ORGANIZATION_DOCUMENT, data::PIX_MERCHANT_NAME, data::PIX_MERCHANT_CITY)
            .expect("the demo's Pix account is valid")
    });
    &ACCOUNT
}

/// How the demo's messages are made at `now`: in its zone, with its Pix account.
pub(super) fn composing(now: OffsetDateTime) -> Composing<'static> {
    static ZONE: LazyLock<Zone> = LazyLock::new(zone);
    Composing { now, zone: &ZONE, pix_account: Some(pix_account()) }
}

/// The demo organization's id, creating it with its data when it does not exist.
pub async fn ensure(store: &Store) -> Result<String, AdminError> {
    if let Some(org) = store.demo_organization().await? {
        return Ok(org.id);
    }
    let org_id = admin::create_organization(
        store,
        data::ORGANIZATION_NAME,
        "sandbox",
        Some(data::ORGANIZATION_DOCUMENT),
        true,
    )
    .await?;
    store.set_pix_account(&org_id, Some(pix_account()), None).await?;
    seed(store, &org_id).await?;
    // The seeded charges' next actions, before any engine pass reads them.
    crate::engine::reschedule_organization(store, &org_id, OffsetDateTime::now_utc()).await?;
    Ok(org_id)
}

/// An event the demo's seeding writes, carrying what the API's would.
pub(crate) fn system_event<P: Payload>(
    org_id: &str,
    code: &str,
    resource_id: &str,
    data: &P,
    at: &str,
) -> NewEvent {
    NewEvent {
        id: new_id("evt"),
        organization_id: org_id.to_string(),
        code: code.to_string(),
        resource_type: P::RESOURCE,
        resource_id: resource_id.to_string(),
        actor_type: "system".into(),
        actor_id: "demo".into(),
        data: to_data(data),
        request_id: None,
        occurred_at: at.to_string(),
    }
}

/// The archiving of a demo debtor, with its change.
fn archived_event(org_id: &str, before: &Debtor, after: &Debtor, at: &str) -> NewEvent {
    let data = wire::DebtorEventData::of(Some(&debtor_view(before)), debtor_view(after));
    system_event(org_id, "debtor.archived", &after.id, &data, at)
}

/// A demo address as the API takes it.
fn address(a: &data::DemoAddress) -> Result<Address, AdminError> {
    Ok(Address {
        zipcode: a.zipcode.to_string(),
        street: a.street.to_string(),
        number: a.number.to_string(),
        complement: Some(a.complement.map(str::to_string)),
        neighborhood: a.neighborhood.to_string(),
        city: a.city.to_string(),
        state: a.state.parse().map_err(|e| demo_error("state", e))?,
        country: None,
    })
}

/// The address of the first demo debtor that has one: generated debtors live there.
pub(super) fn generated_address() -> Result<Address, AdminError> {
    let first = DEBTORS.iter().find_map(|d| d.address.as_ref());
    address(first.ok_or_else(|| demo_error("address", "no demo debtor has one"))?)
}

pub(crate) fn demo_error(what: &str, err: impl std::fmt::Display) -> AdminError {
    AdminError::Invalid(format!("demo {what}: {err}"))
}

/// The demo data, made by the same aggregates and store calls the API uses: every rule the
/// API enforces holds for it too.
async fn seed(store: &Store, org_id: &str) -> Result<(), AdminError> {
    let now = OffsetDateTime::now_utc();
    let stamp = format_timestamp(now);
    let day = zone().today(now);
    let policy = regua::policy(org_id, now)?;
    store
        .insert_policy(
            &policy,
            &system_event(
                org_id,
                "collection_policy.db.created",
                &policy.id,
                &wire::CollectionPolicyEventData::of(None, policy_view(&policy, &zone())),
                &stamp,
            ),
        )
        .await?;
    // The nearest upcoming open charges are due three days after each of the next business
    // days, so that the régua's e-mail goes out every one of them.
    let mut upcoming: Vec<usize> = (0..CHARGES.len())
        .filter(|&i| CHARGES[i].outcome == DemoOutcome::Open && CHARGES[i].due_in_days > 0)
        .collect();
    upcoming.sort_by_key(|&i| CHARGES[i].due_in_days);
    let placed: std::collections::HashMap<usize, time::Date> =
        upcoming.into_iter().zip(regua::upcoming_due_dates(day)).collect();
    let mut debtors = Vec::with_capacity(DEBTORS.len());
    for d in DEBTORS {
        let address = d.address.as_ref().map(address).transpose()?;
        let edit = DebtorEdit {
            name: Some(d.name.to_string()),
            email: Some(d.email.map(str::to_string)),
            phone: Some(d.phone.map(str::to_string)),
            mobile: Some(d.mobile.map(str::to_string)),
            address: Some(address),
            tags: Some(d.tags.iter().map(|t| t.to_string()).collect()),
            ..DebtorEdit::default()
        };
        let debtor =
            Debtor::register(org_id, d.document, edit, now, &zone()).map_err(|e| demo_error(d.name, e))?;
        store
            .insert_debtor(
                &debtor,
                &system_event(
                    org_id,
                    "debtor.db.created",
                    &debtor.id,
                    &wire::DebtorEventData::of(None, debtor_view(&debtor)),
                    &stamp,
                ),
            )
            .await?;
        debtors.push(debtor);
    }
    for (i, c) in CHARGES.iter().enumerate() {
        let debtor =
            debtors.get(c.debtor).ok_or_else(|| AdminError::Invalid("demo charge of no debtor".into()))?;
        let due = placed.get(&i).copied().unwrap_or(day + Duration::days(i64::from(c.due_in_days)));
        let new = NewCharge {
            issue_date: Some(due.min(day) - Duration::days(30)),
            description: Some(c.description.to_string()),
            ..NewCharge::due(Hundredths(c.amount_cents), due)
        };
        let mut charge = Charge::open(debtor, new, now, &zone()).map_err(|e| demo_error(c.description, e))?;
        // Issued, and known to the server, on its issue date: the régua ran for it since.
        charge.created_at = zone().day_start(charge.issue_date);
        // The demo's régua already runs: open charges are in active dunning.
        charge.dunning_status = dunning_status_after(charge.status, DunningStatus::Active);
        let past = regua::history(&policy, &charge, debtor, day);
        let paid = |amount| Payment { amount, paid_at: None, method: None };
        match c.outcome {
            DemoOutcome::Open => Ok(()),
            DemoOutcome::PartiallyPaid { paid_cents } => {
                charge.settle(paid(Some(Hundredths(paid_cents))), now).map(|_| ())
            }
            DemoOutcome::Paid => charge.settle(paid(None), now).map(|_| ()),
            DemoOutcome::Canceled => charge.cancel(None, now).map(|_| ()),
            _ => Ok(()),
        }
        .map_err(|e| demo_error(c.description, e))?;
        if let Some(proposal) = past.awaits_decision
            && charge.dunning_status == DunningStatus::Active
        {
            // The step that stopped it, and what it proposes, as the engine would have kept them.
            charge.dunning_status = DunningStatus::AwaitingDecision;
            charge.current_step_id = Some(proposal.step_id.clone());
            charge.pending_decision = Some(proposal);
        }
        let settled = settling::settle(c.outcome, &mut charge, debtor, day)?;
        store
            .insert_charge(
                &charge,
                &system_event(
                    org_id,
                    "charge.db.created",
                    &charge.id,
                    &wire::ChargeEventData::of(None, charge_event_view(&charge, day)),
                    &stamp,
                ),
            )
            .await?;
        regua::record(store, &past.sent).await?;
        settling::record(store, org_id, &charge, settled, &stamp, day).await?;
    }
    // Archived last, as an operator would: after its charges were settled.
    for (d, debtor) in DEBTORS.iter().zip(&debtors) {
        if d.archived {
            let mut archived = debtor.clone();
            archived.archive(now);
            archived.touch(now);
            store
                .update_debtor(&archived, debtor.version, &archived_event(org_id, debtor, &archived, &stamp))
                .await?;
        }
    }
    Ok(())
}
