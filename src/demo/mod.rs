//! `serve --demo`: a sandbox organization with realistic Brazilian debtors and charges, created
//! once through the same store calls the API uses (events included).

pub mod data;

use serde_json::json;
use time::{Duration, OffsetDateTime};

use crate::admin::{self, AdminError};
use crate::domain::charge_state::{dunning_status_after, open_status_for};
use crate::domain::dates::format_timestamp;
use crate::domain::dates::organization_today as today;
use crate::domain::ids::new_id;
use crate::domain::parse_document;
use crate::store::{ChargeRow, DebtorRow, NewEvent, Store};
use data::{CHARGES, DEBTORS, DemoOutcome};

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
    seed(store, &org_id).await?;
    Ok(org_id)
}

fn system_event(
    org_id: &str,
    code: &str,
    resource_type: &'static str,
    resource_id: &str,
    at: &str,
) -> NewEvent {
    NewEvent {
        id: new_id("evt"),
        organization_id: org_id.to_string(),
        code: code.to_string(),
        resource_type,
        resource_id: resource_id.to_string(),
        actor_type: "system".into(),
        actor_id: "demo".into(),
        data: json!({ "changes": {} }),
        request_id: None,
        occurred_at: at.to_string(),
    }
}

async fn seed(store: &Store, org_id: &str) -> Result<(), AdminError> {
    let now = OffsetDateTime::now_utc();
    let stamp = format_timestamp(now);
    let day = today(now);
    let mut debtors = Vec::with_capacity(DEBTORS.len());
    for d in DEBTORS {
        let document = parse_document(d.document)
            .map_err(|e| AdminError::Invalid(format!("demo document {}: {e}", d.document)))?;
        let mut row =
            DebtorRow::new(org_id, document.person_type.as_str(), document.value, d.name.to_string(), &stamp);
        row.email = d.email.map(str::to_string);
        row.phone = d.phone.map(str::to_string);
        row.mobile = d.mobile.map(str::to_string);
        row.address = d.address.as_ref().map(|a| {
            json!({
                "zipcode": a.zipcode, "street": a.street, "number": a.number, "complement": a.complement,
                "neighborhood": a.neighborhood, "city": a.city, "state": a.state, "country": "BR",
            })
        });
        row.tags = json!(d.tags);
        store
            .insert_debtor(&row, &system_event(org_id, "debtor.db.created", "debtor", &row.id, &stamp))
            .await?;
        debtors.push(row);
    }
    for c in CHARGES {
        let debtor =
            debtors.get(c.debtor).ok_or_else(|| AdminError::Invalid("demo charge of no debtor".into()))?;
        let due = day + Duration::days(i64::from(c.due_in_days));
        let issue = due.min(day) - Duration::days(30);
        let (status, paid_cents, paid_at, canceled_at) = match c.outcome {
            DemoOutcome::Open => (open_status_for(due, day), 0, None, None),
            DemoOutcome::PartiallyPaid { paid_cents } => (open_status_for(due, day), paid_cents, None, None),
            DemoOutcome::Paid => ("paid", c.amount_cents, Some(stamp.clone()), None),
            DemoOutcome::Canceled => ("canceled", 0, None, Some(stamp.clone())),
        };
        let mut row = ChargeRow::new(debtor, c.amount_cents, issue, due, day, &stamp);
        row.description = Some(c.description.to_string());
        row.paid_cents = paid_cents;
        row.status = status.to_string();
        row.dunning_status = dunning_status_after(status, "active").to_string();
        row.paid_at = paid_at;
        row.canceled_at = canceled_at;
        store
            .insert_charge(&row, &system_event(org_id, "charge.db.created", "charge", &row.id, &stamp))
            .await?;
    }
    // Archived last, as an operator would: after its charges were settled.
    for (d, row) in DEBTORS.iter().zip(&debtors) {
        if d.archived {
            let mut archived = row.clone();
            archived.status = "archived".into();
            archived.archived_at = Some(stamp.clone());
            archived.version += 1;
            store
                .update_debtor(
                    &archived,
                    row.version,
                    &system_event(org_id, "debtor.archived", "debtor", &row.id, &stamp),
                )
                .await?;
        }
    }
    Ok(())
}
