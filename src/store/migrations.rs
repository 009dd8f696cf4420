//! The migrations of both databases, embedded in the binary and applied at open. Versions are
//! recorded in `_sqlx_migrations`, sqlx's table, with the same SHA-384 of the file's text:
//! PostgreSQL's are applied by sqlx's own migrator; SQLite's by `backend::sqlite::migrate`, which
//! writes that table the same way because the SQLite store is rusqlite and sqlx's migrator needs
//! sqlx's own SQLite driver (databases sqlx migrated before the move keep working).

use sha2::{Digest, Sha384};

/// One migration, in both dialects (same version, same tables).
pub struct Migration {
    /// Version (the file's number).
    pub version: i64,
    /// The file's name after the number.
    pub description: &'static str,
    /// `migrations/sqlite/…`
    pub sqlite: &'static str,
    /// `migrations/postgres/…`
    pub postgres: &'static str,
}

impl Migration {
    /// SHA-384 of a dialect's text, as sqlx recorded it.
    pub fn checksum(sql: &str) -> Vec<u8> {
        Sha384::digest(sql.as_bytes()).to_vec()
    }
}

macro_rules! migration {
    ($version:literal, $number:literal, $name:literal) => {
        Migration {
            version: $version,
            description: $name,
            sqlite: include_str!(concat!("../../migrations/sqlite/", $number, "_", $name, ".sql")),
            postgres: include_str!(concat!("../../migrations/postgres/", $number, "_", $name, ".sql")),
        }
    };
}

/// Every migration, oldest first.
pub const MIGRATIONS: &[Migration] = &[
    migration!(1, "0001", "foundation"),
    migration!(2, "0002", "confirmation"),
    migration!(3, "0003", "search_and_counts"),
    migration!(4, "0004", "charge_debtor_search"),
    migration!(5, "0005", "token_revocation"),
    migration!(6, "0006", "regua"),
    migration!(7, "0007", "debtor_name_order"),
    migration!(8, "0008", "oauth"),
    migration!(9, "0009", "approvals"),
    migration!(10, "0010", "oauth_housekeeping"),
    migration!(11, "0011", "readiness"),
    migration!(12, "0012", "decisions"),
    migration!(13, "0013", "agreements"),
    migration!(14, "0014", "escalations"),
    migration!(15, "0015", "charge_origin"),
    migration!(16, "0016", "escalation_submissions"),
    migration!(17, "0017", "protest_steps"),
    migration!(18, "0018", "policy_timezone"),
    migration!(19, "0019", "charge_sums"),
    migration!(20, "0020", "debtor_words"),
    migration!(21, "0021", "what_a_charge_waits_for"),
    migration!(22, "0022", "debtor_charge_sums"),
    migration!(23, "0023", "policy_scheduled_version"),
    migration!(24, "0024", "debtor_word_totals"),
    migration!(25, "0025", "payment_codes"),
    migration!(26, "0026", "payments_in"),
    migration!(27, "0027", "webhooks"),
    migration!(28, "0028", "exports"),
    migration!(29, "0029", "engine_reads_due_work"),
    migration!(30, "0030", "payment_receivers"),
    migration!(31, "0031", "export_scopes"),
    migration!(32, "0032", "export_attempts"),
    migration!(33, "0033", "what_is_proposed_and_heard"),
    migration!(34, "0034", "escalated_charges"),
    migration!(35, "0035", "portfolio_counters"),
];

/// The version after which stored rows need their search keys computed (SQL cannot fold
/// accents, so the store does it once, in Rust), before any later migration reads them.
pub const SEARCH_KEYS: i64 = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_listed_in_both_dialects() {
        for dialect in ["sqlite", "postgres"] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(dialect);
            let count = std::fs::read_dir(dir).unwrap().filter(|e| e.is_ok()).count();
            assert_eq!(count, MIGRATIONS.len(), "{dialect}");
        }
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1);
        }
    }
}
