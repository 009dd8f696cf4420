//! A SQLite database migrated by sqlx's migrator (before the store moved to rusqlite) opens,
//! gets the new migrations, and its rows get search keys and counts.

use super::migrations::{MIGRATIONS, Migration};
use super::{ChargeFilter, DebtorFilter, ListWindow, Store};

/// A SQLite file at `path` with the first `count` migrations applied and recorded the way
/// sqlx's migrator recorded them.
fn migrated_by_sqlx(path: &std::path::Path, count: usize) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(
        "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, \
         installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL, \
         checksum BLOB NOT NULL, execution_time BIGINT NOT NULL);",
    )
    .unwrap();
    for m in &MIGRATIONS[..count] {
        conn.execute_batch(m.sqlite).unwrap();
        conn.execute(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) VALUES (?1, ?2, 1, ?3, 1)",
            rusqlite::params![m.version, m.description, Migration::checksum(m.sqlite)],
        )
        .unwrap();
    }
    conn
}

#[tokio::test]
async fn a_database_sqlx_migrated_opens_and_is_searchable() {
    let path = std::env::temp_dir().join(format!("kd-upgrade-{}.db", uuid::Uuid::now_v7().simple()));
    {
        let conn = migrated_by_sqlx(&path, 2);
        conn.execute_batch(
            "INSERT INTO organizations (id, name, environment, created_at) VALUES ('org_1', 'Org', 'sandbox', '2026-01-01T00:00:00.000000Z');
             INSERT INTO debtors (id, organization_id, person_type, name, document, status, created_at, updated_at)
               VALUES ('dbt_1', 'org_1', 'natural', 'Ângela Conceição', '52998224725', 'active', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z');
             INSERT INTO charges (id, organization_id, debtor_id, amount_cents, issue_date, due_date, status, dunning_status,
               payment_method, fine_hundredths, interest_hundredths, created_at, updated_at)
               VALUES ('chg_1', 'org_1', 'dbt_1', 1000, '2026-01-01', '2026-02-01', 'pending', 'active', 'boleto_pix', 200, 100,
               '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z');",
        )
        .unwrap();
    }
    let store = Store::open(&format!("sqlite://{}", path.display())).await.unwrap();
    let window = |q: &str| ListWindow { q: Some(q.into()), limit: 10, ..ListWindow::default() };
    // "conceição" is a later word: its count and sum come from the word rows the migrations
    // filled from the rows stored before.
    for q in ["ângela", "ANGELA con", "529.982", "conceição"] {
        let (found, total) =
            store.debtors("org_1", &DebtorFilter { window: window(q), ..Default::default() }).await.unwrap();
        assert_eq!((found.len(), total), (1, 1), "{q}");
        let page =
            store.charges("org_1", &ChargeFilter { window: window(q), ..Default::default() }).await.unwrap();
        assert_eq!((page.rows.len(), page.total, page.sums.amount), (1, 1, 1000), "{q}");
    }
    let pending = ChargeFilter {
        window: ListWindow { limit: 10, ..ListWindow::default() },
        statuses: vec!["pending".into(), "overdue".into()],
        ..ChargeFilter::default()
    };
    assert_eq!(
        store.charges("org_1", &pending).await.unwrap().total,
        1,
        "the counts include rows stored before"
    );
    drop(store);
    // Opening again applies nothing twice.
    Store::open(&format!("sqlite://{}", path.display())).await.unwrap();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

#[tokio::test]
async fn a_charge_awaiting_a_decision_before_proposals_were_kept_gets_its_step_s() {
    use crate::types::{DunningStatus, ProtestTitleType, StepAction};
    let path = std::env::temp_dir().join(format!("kd-proposal-{}.db", uuid::Uuid::now_v7().simple()));
    let before = MIGRATIONS.iter().position(|m| m.version == 33).expect("migration 33");
    {
        let conn = migrated_by_sqlx(&path, before);
        conn.execute_batch(
            "INSERT INTO organizations (id, name, environment, created_at) VALUES ('org_1', 'Org', 'sandbox', '2026-01-01T00:00:00.000000Z');
             INSERT INTO debtors (id, organization_id, person_type, name, document, status, created_at, updated_at)
               VALUES ('dbt_1', 'org_1', 'natural', 'Ângela Conceição', '52998224725', 'active', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z');
             INSERT INTO collection_policies (id, organization_id, name, status, send_window_start, send_window_end, created_at, updated_at)
               VALUES ('cp_1', 'org_1', 'Régua', 'active', '08:00', '20:00', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z');
             INSERT INTO collection_policy_steps (id, organization_id, cp_id, name, offset_days, position, action, requires_approval,
               active, title_type, created_at, updated_at)
               VALUES ('stp_1', 'org_1', 'cp_1', 'Protesto', 10, 0, 'protest', 1, 1, 'DM', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z');
             INSERT INTO charges (id, organization_id, debtor_id, amount_cents, issue_date, due_date, status, dunning_status,
               payment_method, fine_hundredths, interest_hundredths, current_step_id, created_at, updated_at)
               VALUES ('chg_1', 'org_1', 'dbt_1', 1000, '2026-01-01', '2026-02-01', 'overdue', 'awaiting_decision', 'boleto_pix', 200, 100,
               'stp_1', '2026-01-01T00:00:00.000000Z', '2026-02-11T12:00:00.000000Z');",
        )
        .unwrap();
    }
    let store = Store::open(&format!("sqlite://{}", path.display())).await.unwrap();
    let charge = store.charge("org_1", "chg_1").await.unwrap().expect("the charge");
    assert_eq!(charge.dunning_status, DunningStatus::AwaitingDecision);
    let proposal = charge.pending_decision.expect("the step's proposal");
    assert_eq!(
        (proposal.step_id.as_str(), proposal.step_name.as_str(), proposal.cp_id.as_str()),
        ("stp_1", "Protesto", "cp_1")
    );
    assert_eq!(
        (proposal.action, proposal.title_type, proposal.refused),
        (StepAction::Protest, Some(ProtestTitleType::Dm), None)
    );
    assert_eq!(proposal.proposed_at.0, time::macros::datetime!(2026-02-11 12:00 UTC), "when it last changed");
    drop(store);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}
