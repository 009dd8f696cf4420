//! Events: one row per change, written in the same transaction as the change.

use serde_json::Value;

use super::StoreResult;
use super::backend::Step;
use super::listing::plain_page;
use super::value::{Row, Sql, args};

/// An event to record.
#[derive(Debug, Clone)]
pub struct NewEvent {
    /// `evt_…`
    pub id: String,
    /// Organization.
    pub organization_id: String,
    /// Event code (`charge.canceled`).
    pub code: String,
    /// `debtor`, `charge`, …
    pub resource_type: &'static str,
    /// Id of the object.
    pub resource_id: String,
    /// `user`, `client`, `token` or `system`.
    pub actor_type: String,
    /// Id of the actor.
    pub actor_id: String,
    /// `{object, changes}`.
    pub data: Value,
    /// The request that caused it.
    pub request_id: Option<String>,
    /// RFC 3339.
    pub occurred_at: String,
}

/// The insert of an event, as a step of the change's transaction.
pub fn insert_event(event: &NewEvent) -> Step {
    Step::new(
        "INSERT INTO events (id, organization_id, code, resource_type, resource_id, actor_type, actor_id, data, request_id, occurred_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        args![
            &event.id,
            &event.organization_id,
            &event.code,
            event.resource_type,
            &event.resource_id,
            &event.actor_type,
            &event.actor_id,
            event.data.to_string(),
            &event.request_id,
            &event.occurred_at,
        ],
    )
}

impl super::Store {
    /// Events of one object, oldest first (for tests and, later, the events API).
    pub async fn events_of(&self, org_id: &str, resource_id: &str) -> StoreResult<Vec<(String, Value)>> {
        let rows = self
            .db
            .rows(
                "SELECT code, data FROM events WHERE organization_id = $1 AND resource_id = $2 ORDER BY occurred_at, id",
                &args![org_id, resource_id],
            )
            .await?;
        rows.iter().map(|r| Ok((r.text("code")?, serde_json::from_str(&r.text("data")?)?))).collect()
    }

    /// The request ids of the events of one object, oldest first.
    pub async fn event_request_ids(&self, org_id: &str, resource_id: &str) -> StoreResult<Vec<String>> {
        let rows = self
            .db
            .rows(
                "SELECT request_id FROM events WHERE organization_id = $1 AND resource_id = $2 ORDER BY occurred_at, id",
                &args![org_id, resource_id],
            )
            .await?;
        let ids = rows.iter().map(|r| r.opt_text("request_id")).collect::<StoreResult<Vec<_>>>()?;
        Ok(ids.into_iter().flatten().collect())
    }
}

/// An event as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct EventRow {
    pub id: String,
    pub code: String,
    pub resource_type: String,
    pub resource_id: String,
    pub actor_type: String,
    pub actor_id: String,
    pub data: Value,
    pub request_id: Option<String>,
    pub occurred_at: String,
}

/// Which events a list shows.
#[derive(Debug, Default)]
pub struct EventFilter {
    /// Only this object's.
    pub resource_id: Option<String>,
    /// Only this code.
    pub code: Option<String>,
    /// Leave out the events whose code is of these families (`webhook` for `webhook.db.updated`).
    pub hidden_families: Vec<&'static str>,
    /// Oldest first.
    pub ascending: bool,
    /// Page size.
    pub limit: i64,
    /// Rows skipped.
    pub offset: i64,
}

pub(super) fn event_from_row(row: &Row) -> StoreResult<EventRow> {
    Ok(EventRow {
        id: row.text("id")?,
        code: row.text("code")?,
        resource_type: row.text("resource_type")?,
        resource_id: row.text("resource_id")?,
        actor_type: row.text("actor_type")?,
        actor_id: row.text("actor_id")?,
        data: serde_json::from_str(&row.text("data")?)?,
        request_id: row.opt_text("request_id")?,
        occurred_at: row.text("occurred_at")?,
    })
}

impl super::Store {
    /// One event of an organization.
    pub async fn event(&self, org_id: &str, id: &str) -> StoreResult<Option<EventRow>> {
        let row = self
            .db
            .find("SELECT * FROM events WHERE organization_id = $1 AND id = $2", &args![org_id, id])
            .await?;
        row.as_ref().map(event_from_row).transpose()
    }

    /// A page of an organization's events, newest first unless ascending, and the exact total.
    pub async fn events(&self, org_id: &str, filter: &EventFilter) -> StoreResult<(Vec<EventRow>, i64)> {
        let filters = |sql: &mut Sql| {
            sql.push(" WHERE organization_id = ").bind(org_id);
            if let Some(resource) = &filter.resource_id {
                sql.push(" AND resource_id = ").bind(resource);
            }
            if let Some(code) = &filter.code {
                sql.push(" AND code = ").bind(code);
            }
            for family in &filter.hidden_families {
                // The family and its dot: `webhook.` leaves `webhooks_x.…` alone.
                let start = format!("{family}.");
                sql.push(&format!(" AND substr(code, 1, {}) <> ", start.len())).bind(start);
            }
        };
        plain_page(
            &self.db,
            "events",
            "occurred_at",
            filters,
            filter.ascending,
            filter.limit,
            filter.offset,
            event_from_row,
        )
        .await
    }
}
