//! Collection policies and their steps. A step's change also moves its policy's version (the
//! policy's answer embeds its steps, so its ETag covers them), in the same transaction: two
//! concurrent step changes on one policy cannot both win.

use std::collections::HashMap;

use super::backend::Step as Statement;
use super::columns::{enumeration, optional_timestamp, timestamp, timestamp_text};
use super::events::{NewEvent, insert_event};
use super::listing::{plain_page, push_in};
use super::value::{Param, Row, Sql, args};
use super::{Store, StoreResult};
use crate::domain::dates::Zone;
use crate::domain::policy::{MessageTemplate, Policy, Step, Window, format_minute, parse_minute};
use crate::store::StoreError;

/// Which policies a list shows.
#[derive(Debug, Default)]
pub struct PolicyFilter {
    /// `status IN (…)`.
    pub statuses: Vec<String>,
    /// Oldest first.
    pub ascending: bool,
    /// Page size.
    pub limit: i64,
    /// Rows skipped.
    pub offset: i64,
}

fn minute(row: &Row, column: &str) -> StoreResult<u16> {
    parse_minute(&row.text(column)?).ok_or_else(|| StoreError::CorruptColumn(column.to_string()))
}

fn policy_from_row(row: &Row) -> StoreResult<Policy> {
    Ok(Policy {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        name: row.text("name")?,
        description: row.opt_text("description")?,
        status: enumeration(row, "status")?,
        is_default: row.flag("is_default")?,
        window: Window { start: minute(row, "send_window_start")?, end: minute(row, "send_window_end")? },
        zone: match row.opt_text("timezone")? {
            Some(name) => Some(Zone::named(&name).map_err(|_| StoreError::CorruptColumn("timezone".into()))?),
            None => None,
        },
        archived_at: optional_timestamp(row, "archived_at")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
        steps: Vec::new(),
    })
}

fn step_from_row(row: &Row) -> StoreResult<Step> {
    let send_time = match row.opt_text("send_time")? {
        Some(text) => Some(parse_minute(&text).ok_or_else(|| StoreError::CorruptColumn("send_time".into()))?),
        None => None,
    };
    let template = match row.opt_text("template_body")? {
        Some(body) => Some(MessageTemplate { subject: row.opt_text("template_subject")?, body }),
        None => None,
    };
    let channel = match row.opt_text("channel")? {
        Some(text) => Some(text.parse().map_err(|_| StoreError::CorruptColumn("channel".into()))?),
        None => None,
    };
    Ok(Step {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        cp_id: row.text("cp_id")?,
        name: row.text("name")?,
        offset_days: row.int("offset_days")?,
        send_time,
        position: row.int("position")?,
        action: enumeration(row, "action")?,
        channel,
        template,
        requires_approval: row.flag("requires_approval")?,
        title_type: super::columns::optional_enumeration(row, "title_type")?,
        active: row.flag("active")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
    })
}

const POLICY_COLUMNS: &str = "name, description, status, is_default, send_window_start, send_window_end, \
     archived_at, version, updated_at, timezone, id, organization_id, created_at";

/// The mutable columns of a policy ($1 to $10), then its keys.
fn policy_values(p: &Policy) -> Vec<Param> {
    Vec::from(args![
        &p.name,
        &p.description,
        p.status.as_str(),
        p.is_default,
        format_minute(p.window.start),
        format_minute(p.window.end),
        p.archived_at.as_ref().map(timestamp_text),
        p.version,
        timestamp_text(&p.updated_at),
        p.zone.as_ref().map(|z| z.name().to_string()),
        &p.id,
        &p.organization_id,
        timestamp_text(&p.created_at),
    ])
}

const STEP_COLUMNS: &str = "name, offset_days, send_time, position, action, channel, template_subject, \
     template_body, requires_approval, active, version, updated_at, title_type, id, organization_id, cp_id, created_at";

/// The mutable columns of a step ($1 to $13), then its keys.
fn step_values(s: &Step) -> Vec<Param> {
    let template = s.template.as_ref();
    Vec::from(args![
        &s.name,
        s.offset_days,
        s.send_time.map(format_minute),
        s.position,
        s.action.as_str(),
        s.channel.map(|c| c.as_str().to_string()),
        template.and_then(|t| t.subject.clone()),
        template.map(|t| t.body.clone()),
        s.requires_approval,
        s.active,
        s.version,
        timestamp_text(&s.updated_at),
        s.title_type.map(|t| t.as_str().to_string()),
        &s.id,
        &s.organization_id,
        &s.cp_id,
        timestamp_text(&s.created_at),
    ])
}

fn insert_step(s: &Step) -> Statement {
    Statement::new(
        format!(
            "INSERT INTO collection_policy_steps ({STEP_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"
        ),
        step_values(s),
    )
}

/// Moves a policy to `p.version` if it is still at `expected`: the lock of every change to it
/// or to its steps.
fn bump_policy(p: &Policy, expected: i64) -> Statement {
    Statement::must_change(
        "UPDATE collection_policies SET version = $1, updated_at = $2 WHERE id = $3 AND organization_id = $4 AND version = $5",
        args![p.version, timestamp_text(&p.updated_at), &p.id, &p.organization_id, expected],
    )
}

/// Holds the organization's row while its default changes hands: on PostgreSQL two such
/// changes at once would otherwise both clear the old default, and the second then collide with
/// the first's new one on the unique index. SQLite runs one writer at a time.
fn lock_organization(p: &Policy) -> Statement {
    Statement::new("SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE", args![&p.organization_id])
}

/// Takes the default from whichever policy has it (before this one takes it).
fn clear_default(p: &Policy) -> Statement {
    Statement::new(
        "UPDATE collection_policies SET is_default = 0, version = version + 1, updated_at = $1 \
         WHERE organization_id = $2 AND is_default = 1 AND id <> $3",
        args![timestamp_text(&p.updated_at), &p.organization_id, &p.id],
    )
}

const ORDER: &str = "ORDER BY offset_days, position, id";

impl Store {
    /// Reads the steps of these policies into them, in the order they run.
    async fn with_steps(&self, mut policies: Vec<Policy>) -> StoreResult<Vec<Policy>> {
        if policies.is_empty() {
            return Ok(policies);
        }
        let mut sql = Sql::new("SELECT * FROM collection_policy_steps WHERE 1 = 1");
        let ids: Vec<String> = policies.iter().map(|p| p.id.clone()).collect();
        push_in(&mut sql, "cp_id", &ids);
        sql.push(&format!(" {ORDER}"));
        let mut by_policy: HashMap<String, Vec<Step>> = HashMap::new();
        for row in self.db.rows(&sql.text, &sql.params).await? {
            let step = step_from_row(&row)?;
            by_policy.entry(step.cp_id.clone()).or_default().push(step);
        }
        for p in &mut policies {
            p.steps = by_policy.remove(&p.id).unwrap_or_default();
        }
        Ok(policies)
    }

    /// One policy of an organization, with its steps.
    pub async fn policy(&self, org_id: &str, id: &str) -> StoreResult<Option<Policy>> {
        let row = self
            .db
            .find(
                "SELECT * FROM collection_policies WHERE organization_id = $1 AND id = $2",
                &args![org_id, id],
            )
            .await?;
        let Some(policy) = row.as_ref().map(policy_from_row).transpose()? else { return Ok(None) };
        Ok(self.with_steps(vec![policy]).await?.pop())
    }

    /// The policy a charge naming `cp_id` follows: that one, else the organization's default.
    pub async fn followed_policy(&self, org_id: &str, cp_id: Option<&str>) -> StoreResult<Option<Policy>> {
        match cp_id {
            Some(cp_id) => self.policy(org_id, cp_id).await,
            None => self.default_policy(org_id).await,
        }
    }

    /// The organization's default policy, with its steps.
    pub async fn default_policy(&self, org_id: &str) -> StoreResult<Option<Policy>> {
        // A lookup by a unique key: one default per organization (`collection_policies_one_default`).
        let row = self
            .db
            .find(
                "SELECT * FROM collection_policies WHERE organization_id = $1 AND is_default = 1",
                &args![org_id],
            )
            .await?;
        let Some(policy) = row.as_ref().map(policy_from_row).transpose()? else { return Ok(None) };
        Ok(self.with_steps(vec![policy]).await?.pop())
    }

    /// The organization's policies changed since their charges' next actions were computed
    /// (see [`Store::policy_scheduled`]), with their steps.
    pub async fn policies_to_reschedule(&self, org_id: &str) -> StoreResult<Vec<Policy>> {
        let rows = self
            .db
            .rows(
                "SELECT * FROM collection_policies WHERE organization_id = $1 \
                 AND (scheduled_version IS NULL OR scheduled_version <> version) ORDER BY created_at, id",
                &args![org_id],
            )
            .await?;
        let policies = rows.iter().map(policy_from_row).collect::<StoreResult<Vec<_>>>()?;
        self.with_steps(policies).await
    }

    /// Has the next pass compute again the next actions of the charges of every policy of the
    /// organization (its time zone changed, and with it the instants of their days).
    pub async fn reschedule_policies(&self, org_id: &str) -> StoreResult<()> {
        self.db
            .write(&[Statement::new(
                "UPDATE collection_policies SET scheduled_version = NULL WHERE organization_id = $1",
                args![org_id],
            )])
            .await
            .map(drop)
    }

    /// Records that the charges of a policy at `version` have their next actions computed; a
    /// change meanwhile moved the version on, and the next pass computes them again.
    pub async fn policy_scheduled(&self, id: &str, version: i64) -> StoreResult<()> {
        self.db
            .write(&[Statement::new(
                "UPDATE collection_policies SET scheduled_version = $1 WHERE id = $2",
                args![version, id],
            )])
            .await
            .map(drop)
    }

    /// The organization's active policies, with their steps (what the engine runs).
    pub async fn active_policies(&self, org_id: &str) -> StoreResult<Vec<Policy>> {
        let rows = self
            .db
            .rows(
                "SELECT * FROM collection_policies WHERE organization_id = $1 AND status = 'active' ORDER BY created_at, id",
                &args![org_id],
            )
            .await?;
        let policies = rows.iter().map(policy_from_row).collect::<StoreResult<Vec<_>>>()?;
        self.with_steps(policies).await
    }

    /// A page of policies, with their steps, and the exact total.
    pub async fn policies(&self, org_id: &str, filter: &PolicyFilter) -> StoreResult<(Vec<Policy>, i64)> {
        let filters = |sql: &mut Sql| {
            sql.push(" WHERE organization_id = ").bind(org_id);
            push_in(sql, "status", &filter.statuses);
        };
        let (policies, total) = plain_page(
            &self.db,
            "collection_policies",
            "created_at",
            filters,
            filter.ascending,
            filter.limit,
            filter.offset,
            policy_from_row,
        )
        .await?;
        Ok((self.with_steps(policies).await?, total))
    }

    /// Whether charges follow the policy, and whether notifications came from it.
    pub async fn policy_use(&self, org_id: &str, id: &str) -> StoreResult<(bool, bool)> {
        let exists = |table: &str| {
            format!(
                "SELECT COUNT(*) FROM (SELECT 1 FROM {table} WHERE cp_id = $2 AND organization_id = $1 LIMIT 1) x"
            )
        };
        let (by_charges, by_notifications) = (exists("charges"), exists("notifications"));
        let params = args![org_id, id];
        let (charges, sent) =
            tokio::try_join!(self.db.row(&by_charges, &params), self.db.row(&by_notifications, &params))?;
        let found = |row: Option<Row>| -> StoreResult<bool> {
            Ok(row.map(|r| r.first_int()).transpose()?.unwrap_or(0) > 0)
        };
        Ok((found(charges)?, found(sent)?))
    }

    /// Inserts a policy with its steps and event; a default takes the default from the
    /// previous one in the same transaction.
    pub async fn insert_policy(&self, p: &Policy, event: &NewEvent) -> StoreResult<()> {
        let mut statements = Vec::with_capacity(p.steps.len() + 4);
        if p.is_default {
            if self.db.is_postgres() {
                statements.push(lock_organization(p));
            }
            statements.push(clear_default(p));
        }
        statements.push(Statement::new(
            format!("INSERT INTO collection_policies ({POLICY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"),
            policy_values(p),
        ));
        statements.extend(p.steps.iter().map(insert_step));
        statements.push(insert_event(event));
        self.db.write(&statements).await.map(drop)
    }

    /// Saves a changed policy (not its steps) if it is still at `expected`.
    pub async fn update_policy(&self, p: &Policy, expected: i64, event: &NewEvent) -> StoreResult<bool> {
        let mut params = policy_values(p);
        params.truncate(10);
        params.extend(args![&p.id, &p.organization_id, expected]);
        let mut statements = Vec::with_capacity(4);
        if p.is_default {
            if self.db.is_postgres() {
                statements.push(lock_organization(p));
            }
            statements.push(clear_default(p));
        }
        statements.push(Statement::must_change(
            "UPDATE collection_policies SET name = $1, description = $2, status = $3, is_default = $4, \
             send_window_start = $5, send_window_end = $6, archived_at = $7, version = $8, updated_at = $9, \
             timezone = $10 WHERE id = $11 AND organization_id = $12 AND version = $13",
            params,
        ));
        statements.push(insert_event(event));
        self.db.write(&statements).await
    }

    /// Deletes a policy and its steps if it is still at `expected`, not the default, followed by
    /// no charge and (unless `drafted`) the source of no notification: checked again inside the
    /// transaction, so a charge attached meanwhile keeps it.
    pub async fn delete_policy(
        &self,
        p: &Policy,
        expected: i64,
        drafted: bool,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let unsent =
            if drafted { "" } else { " AND NOT EXISTS (SELECT 1 FROM notifications WHERE cp_id = $1)" };
        self.db
            .write(&[
                // Undone with the rest when the policy's own delete changes nothing.
                Statement::new(
                    "DELETE FROM collection_policy_steps WHERE cp_id = $1 AND organization_id = $2",
                    args![&p.id, &p.organization_id],
                ),
                Statement::must_change(
                    format!(
                        "DELETE FROM collection_policies WHERE id = $1 AND organization_id = $2 AND version = $3 \
                         AND is_default = 0 AND NOT EXISTS (SELECT 1 FROM charges WHERE cp_id = $1){unsent}"
                    ),
                    args![&p.id, &p.organization_id, expected],
                ),
                insert_event(event),
            ])
            .await
    }

    /// One step of one policy of an organization.
    pub async fn step(&self, org_id: &str, cp_id: &str, id: &str) -> StoreResult<Option<Step>> {
        let row = self
            .db
            .find(
                "SELECT * FROM collection_policy_steps WHERE organization_id = $1 AND cp_id = $2 AND id = $3",
                &args![org_id, cp_id, id],
            )
            .await?;
        row.as_ref().map(step_from_row).transpose()
    }

    /// Inserts a step, moving its policy from `expected` to `p.version`.
    pub async fn insert_step(
        &self,
        p: &Policy,
        expected: i64,
        s: &Step,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        self.db.write(&[bump_policy(p, expected), insert_step(s), insert_event(event)]).await
    }

    /// Saves a changed step if it and its policy are still as read.
    pub async fn update_step(
        &self,
        p: &Policy,
        expected_policy: i64,
        s: &Step,
        expected_step: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut params = step_values(s);
        params.truncate(13);
        params.extend(args![&s.id, &s.cp_id, expected_step]);
        self.db
            .write(&[
                bump_policy(p, expected_policy),
                Statement::must_change(
                    "UPDATE collection_policy_steps SET name = $1, offset_days = $2, send_time = $3, position = $4, \
                     action = $5, channel = $6, template_subject = $7, template_body = $8, requires_approval = $9, \
                     active = $10, version = $11, updated_at = $12, title_type = $13 \
                     WHERE id = $14 AND cp_id = $15 AND version = $16",
                    params,
                ),
                insert_event(event),
            ])
            .await
    }

    /// Deletes a step, moving its policy from `expected` to `p.version`.
    pub async fn delete_step(
        &self,
        p: &Policy,
        expected: i64,
        s: &Step,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        self.db
            .write(&[
                bump_policy(p, expected),
                Statement::must_change(
                    "DELETE FROM collection_policy_steps WHERE id = $1 AND cp_id = $2",
                    args![&s.id, &s.cp_id],
                ),
                insert_event(event),
            ])
            .await
    }
}
