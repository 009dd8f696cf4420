//! Events: one row per change, written in the same transaction as the change.

use serde_json::Value;
use sqlx::SqliteConnection;

use super::StoreResult;

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

/// Inserts an event on an open connection or transaction.
pub async fn insert_event(conn: &mut SqliteConnection, event: &NewEvent) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO events (id, organization_id, code, resource_type, resource_id, actor_type, actor_id, data, request_id, occurred_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(&event.id)
    .bind(&event.organization_id)
    .bind(&event.code)
    .bind(event.resource_type)
    .bind(&event.resource_id)
    .bind(&event.actor_type)
    .bind(&event.actor_id)
    .bind(event.data.to_string())
    .bind(&event.request_id)
    .bind(&event.occurred_at)
    .execute(conn)
    .await?;
    Ok(())
}

impl super::Store {
    /// Events of one object, oldest first (for tests and, later, the events API).
    pub async fn events_of(&self, org_id: &str, resource_id: &str) -> StoreResult<Vec<(String, Value)>> {
        use sqlx::Row;
        let rows = sqlx::query(
            "SELECT code, data FROM events WHERE organization_id = $1 AND resource_id = $2 ORDER BY occurred_at, id",
        )
        .bind(org_id)
        .bind(resource_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("code")?, serde_json::from_str(&r.try_get::<String, _>("data")?)?)))
            .collect()
    }

    /// The request ids of the events of one object, oldest first.
    pub async fn event_request_ids(&self, org_id: &str, resource_id: &str) -> StoreResult<Vec<String>> {
        let ids: Vec<Option<String>> = sqlx::query_scalar(
            "SELECT request_id FROM events WHERE organization_id = $1 AND resource_id = $2 ORDER BY occurred_at, id",
        )
        .bind(org_id)
        .bind(resource_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(ids.into_iter().flatten().collect())
    }
}
