//! What a token may see of an object it did not read directly: an event, a row of an events
//! export, a completed id. One table says which operation reads each kind of object; whoever
//! shows an object of a kind (by its event code's family or its id's prefix) shows it only to a
//! token that may run that operation. An event of a kind the table does not name is shown to
//! nobody.

use crate::operations::{Operation, ops};

/// A kind of object: the family of its event codes (`webhook` of `webhook.db.updated`), the
/// prefix of its ids (`whk` of `whk_…`), and the operation that reads one.
#[derive(Debug)]
pub struct Kind {
    /// The first segment of its event codes.
    pub family: &'static str,
    /// The prefix of its ids, before `_`, when it has ids of its own.
    pub id_prefix: Option<&'static str>,
    /// The operation whose scopes a token needs to see it.
    pub read_by: &'static [&'static Operation],
}

const fn kind(
    family: &'static str,
    id_prefix: Option<&'static str>,
    read_by: &'static [&'static Operation],
) -> Kind {
    Kind { family, id_prefix, read_by }
}

/// Every kind of object an event, an export or a completion can name.
pub const KINDS: &[Kind] = &[
    kind("charge", Some("chg"), &[ops::CHARGES_GET]),
    kind("debtor", Some("dbt"), &[ops::DEBTORS_GET]),
    kind("collection_policy", Some("cp"), &[ops::COLLECTION_POLICIES_GET]),
    kind("step", Some("stp"), &[ops::COLLECTION_POLICIES_STEPS_GET]),
    kind("notification", Some("ntf"), &[ops::NOTIFICATIONS_GET]),
    kind("agreement", Some("agr"), &[ops::AGREEMENTS_GET]),
    kind("credit_bureau_report", Some("cbr"), &[ops::CREDIT_BUREAU_REPORTS_GET]),
    kind("protest", Some("prt"), &[ops::PROTESTS_GET]),
    kind("payment", Some("pay"), &[ops::PAYMENTS_LIST]),
    kind("event", Some("evt"), &[ops::EVENTS_GET]),
    // Approvals are read as their events; the organization and its receiver in `me`.
    // An approval's question can name any object (a webhook's URL): it is read by whoever may read
    // every kind.
    kind("approval", None, &[ops::EVENTS_GET, ops::WEBHOOKS_GET, ops::EXPORTS_GET]),
    kind("organization", Some("org"), &[ops::ME]),
    kind("payment_receiver", Some("rcv"), &[ops::PAYMENT_RECEIVERS_GET]),
    kind("webhook", Some("whk"), &[ops::WEBHOOKS_GET]),
    kind("delivery", Some("dlv"), &[ops::WEBHOOKS_DELIVERIES_GET]),
    kind("export", Some("exp"), &[ops::EXPORTS_GET]),
];

/// The family of an event code: its first segment.
fn family(code: &str) -> &str {
    code.split('.').next().unwrap_or(code)
}

/// The kind an event code is about.
pub fn kind_of_code(code: &str) -> Option<&'static Kind> {
    let family = family(code);
    KINDS.iter().find(|k| k.family == family)
}

/// The kind an id names, by its prefix.
pub fn kind_of_id(id: &str) -> Option<&'static Kind> {
    let prefix = id.split_once('_')?.0;
    KINDS.iter().find(|k| k.id_prefix == Some(prefix))
}

/// Whether `scopes` hold every scope `op` needs.
fn may_run(scopes: &[String], op: &Operation) -> bool {
    op.required_scopes().all(|needed| scopes.iter().any(|held| held == needed))
}

/// Whether `scopes` may run every operation that reads `kind`.
fn may_read(scopes: &[String], kind: &Kind) -> bool {
    kind.read_by.iter().all(|op| may_run(scopes, op))
}

/// Whether a token with `scopes` sees events of `code` (none of a code the table lacks).
pub fn sees_code(scopes: &[String], code: &str) -> bool {
    kind_of_code(code).is_some_and(|k| may_read(scopes, k))
}

/// Whether a token with `scopes` sees the object `id` names. An id of no kind in the table is
/// left to the operation that shows it.
pub fn sees_id(scopes: &[String], id: &str) -> bool {
    kind_of_id(id).is_none_or(|k| may_read(scopes, k))
}

/// The event code families a token with `scopes` does not see: what a list of events leaves out.
pub fn hidden_families(scopes: &[String]) -> Vec<&'static str> {
    KINDS.iter().filter(|k| !may_read(scopes, k)).map(|k| k.family).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::WebhookEventCode;

    fn scopes(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn every_event_code_is_of_a_kind_read_by_some_scope() {
        let everything: Vec<String> = crate::auth::ALL_SCOPES.iter().map(|s| s.to_string()).collect();
        for code in WebhookEventCode::ALL {
            let code = code.as_str();
            let kind = kind_of_code(code).unwrap_or_else(|| panic!("{code} is of no kind in KINDS"));
            assert!(sees_code(&everything, code), "{code}: {} needs a scope no token has", kind.family);
        }
    }

    #[test]
    fn a_read_token_sees_neither_webhooks_nor_exports() {
        let read = scopes("dunning.read");
        assert!(sees_code(&read, "charge.paid") && sees_code(&read, "organization.pix.updated"));
        assert!(!sees_code(&read, "webhook.db.updated") && !sees_code(&read, "export.db.created"));
        assert!(!sees_code(&read, "nothing.known"), "an unknown code is shown to nobody");
        assert!(sees_id(&read, "chg_01") && !sees_id(&read, "whk_01") && !sees_id(&read, "exp_01"));
        assert_eq!(hidden_families(&read), ["approval", "webhook", "delivery", "export"]);
        assert!(!sees_code(&read, "approval.approved"), "an approval may be about a webhook");
        let exports = scopes("dunning.read dunning.exports");
        assert!(sees_code(&exports, "export.db.updated") && !sees_code(&exports, "webhook.db.created"));
        assert!(hidden_families(&scopes("dunning.read dunning.webhooks dunning.exports")).is_empty());
    }

    #[test]
    fn families_and_prefixes_name_one_kind_each() {
        for (i, a) in KINDS.iter().enumerate() {
            for b in &KINDS[i + 1..] {
                assert_ne!(a.family, b.family);
                assert!(a.id_prefix.is_none() || a.id_prefix != b.id_prefix, "{}", a.family);
            }
        }
    }
}
