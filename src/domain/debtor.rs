//! The debtor aggregate: who owes, how to reach them, and whether they can still be charged.

use std::collections::BTreeMap;

use time::{Date, OffsetDateTime};

use super::address::parse_cep;
use super::document::{PersonType, parse_document};
use super::email::parse_email;
use super::error::DomainError;
use super::money::Hundredths;
use super::phone::{parse_mobile, parse_phone};
use super::printable;
use super::rules::{RuleError, Violations};
use super::text;
use crate::types::{Address, AddressCountry, DebtorStatus};

/// A debtor of an organization.
#[derive(Debug, Clone, PartialEq)]
pub struct Debtor {
    pub id: String,
    pub organization_id: String,
    pub external_id: Option<String>,
    pub person_type: PersonType,
    pub name: String,
    /// CPF or CNPJ, normalised (digits, uppercase letters).
    pub document: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub mobile: Option<String>,
    /// Normalised: CEP digits only, complement present (maybe null), country BR.
    pub address: Option<Address>,
    pub birth_date: Option<Date>,
    pub opt_out: OptOut,
    pub credit_bureau_blocked: bool,
    pub status: DebtorStatus,
    pub archived_at: Option<OffsetDateTime>,
    /// The collection policy its new charges follow when they name none.
    pub default_cp_id: Option<String>,
    pub tags: Vec<String>,
    pub metadata: BTreeMap<String, String>,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    /// What the debtor's open charges add up to (read with the debtor, never written).
    pub balance: Balance,
}

/// The channels a debtor asked not to be contacted on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OptOut {
    pub email: bool,
    pub sms: bool,
    pub whatsapp: bool,
}

/// The open and overdue totals of a debtor's charges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Balance {
    /// Balance of pending and overdue charges.
    pub open: Hundredths,
    /// Balance of overdue charges.
    pub overdue: Hundredths,
    /// Number of pending and overdue charges.
    pub open_charges: i64,
    /// Number of overdue charges (those `overdue` sums).
    pub overdue_charges: i64,
}

/// A change of a debtor's data: `None` keeps a field, `Some(None)` clears a nullable one.
#[derive(Debug, Default)]
pub struct DebtorEdit {
    pub name: Option<String>,
    pub external_id: Option<Option<String>>,
    pub email: Option<Option<String>>,
    pub phone: Option<Option<String>>,
    pub mobile: Option<Option<String>>,
    pub address: Option<Option<Address>>,
    pub birth_date: Option<Option<Date>>,
    /// Channels given keep their new value; the others stay.
    pub opt_out: Option<(Option<bool>, Option<bool>, Option<bool>)>,
    pub credit_bureau_blocked: Option<bool>,
    /// Checked to be a live policy of the organization by the caller.
    pub default_cp_id: Option<Option<String>>,
    pub tags: Option<Vec<String>>,
    pub metadata: Option<BTreeMap<String, String>>,
}

impl Debtor {
    /// A new active debtor, identified by its CPF or CNPJ (which decides its person type).
    pub fn register(
        organization_id: &str,
        document: &str,
        edit: DebtorEdit,
        now: OffsetDateTime,
        zone: &super::dates::Zone,
    ) -> Result<Self, RuleError> {
        let mut violations = Violations::default();
        let document = violations.check("document", parse_document(document));
        let mut debtor = Self {
            id: super::ids::new_id("dbt"),
            organization_id: organization_id.to_string(),
            external_id: None,
            person_type: document.as_ref().map_or(PersonType::Natural, |d| d.person_type),
            name: String::new(),
            document: document.map(|d| d.value).unwrap_or_default(),
            email: None,
            phone: None,
            mobile: None,
            address: None,
            birth_date: None,
            opt_out: OptOut::default(),
            credit_bureau_blocked: false,
            default_cp_id: None,
            status: DebtorStatus::Active,
            archived_at: None,
            tags: Vec::new(),
            metadata: BTreeMap::new(),
            version: 1,
            created_at: now,
            updated_at: now,
            balance: Balance::default(),
        };
        debtor.apply(edit, zone.today(now), &mut violations);
        violations.finish()?;
        Ok(debtor)
    }

    /// Changes the debtor's data; every invalid field is reported at once.
    pub fn edit(
        &mut self,
        edit: DebtorEdit,
        now: OffsetDateTime,
        zone: &super::dates::Zone,
    ) -> Result<(), RuleError> {
        let mut violations = Violations::default();
        self.apply(edit, zone.today(now), &mut violations);
        violations.finish()
    }

    fn apply(&mut self, edit: DebtorEdit, today: Date, violations: &mut Violations) {
        if let Some(name) = edit.name {
            let name = name.trim();
            if name.is_empty() {
                violations.push("name", "must not be blank");
            } else if let Err(e) = text::check(name, false) {
                violations.push("name", e.to_string());
            } else if !text::has_letter(name) {
                // Only punctuation or digits names nobody a statement could be addressed to.
                violations.push("name", DomainError::NoLetter.to_string());
            } else if let Err(e) = printable::check(name) {
                violations.push("name", e.to_string());
            }
            self.name = name.to_string();
        }
        if let Some(v) = edit.external_id {
            self.external_id = v;
        }
        if let Some(v) = edit.email {
            self.email = v.and_then(|e| violations.check("email", parse_email(&e)));
        }
        if let Some(v) = edit.phone {
            self.phone = v.and_then(|p| violations.check("phone", parse_phone(&p)));
        }
        if let Some(v) = edit.mobile {
            self.mobile = v.and_then(|m| violations.check("mobile", parse_mobile(&m)));
        }
        if let Some(v) = edit.birth_date {
            if v.is_some_and(|d| d > today) {
                violations.push("birth_date", "must not be in the future");
            }
            self.birth_date = v;
        }
        if let Some(v) = edit.address {
            self.address = v.and_then(|a| normalised_address(a, violations));
        }
        if let Some((email, sms, whatsapp)) = edit.opt_out {
            self.opt_out.email = email.unwrap_or(self.opt_out.email);
            self.opt_out.sms = sms.unwrap_or(self.opt_out.sms);
            self.opt_out.whatsapp = whatsapp.unwrap_or(self.opt_out.whatsapp);
        }
        if let Some(v) = edit.default_cp_id {
            self.default_cp_id = v;
        }
        if let Some(v) = edit.credit_bureau_blocked {
            self.credit_bureau_blocked = v;
        }
        if let Some(v) = edit.tags {
            self.tags = v;
        }
        if let Some(v) = edit.metadata {
            self.metadata = v;
        }
    }

    /// Archives the debtor: it keeps its charges but gets no new ones. False when it already
    /// was archived (nothing changes).
    pub fn archive(&mut self, now: OffsetDateTime) -> bool {
        if self.status == DebtorStatus::Archived {
            return false;
        }
        self.status = DebtorStatus::Archived;
        self.archived_at = Some(now);
        true
    }

    /// Refuses to delete a debtor that has charges: its history must stay; archive it instead.
    pub fn check_deletable(&self, has_charges: bool) -> Result<(), RuleError> {
        if has_charges {
            return Err(RuleError::Conflict(
                "the debtor has charges and cannot be deleted; archive it instead".into(),
            ));
        }
        Ok(())
    }

    /// Refuses new charges for an archived debtor.
    pub fn check_chargeable(&self) -> Result<(), RuleError> {
        match self.status {
            DebtorStatus::Active => Ok(()),
            DebtorStatus::Archived => Err(RuleError::InvalidState {
                message: "an archived debtor cannot get new charges".into(),
                status: self.status.as_str(),
                allowed: vec![DebtorStatus::Active.as_str()],
            }),
        }
    }

    /// Marks a saved change: the next version, changed now.
    pub fn touch(&mut self, now: OffsetDateTime) {
        self.version += 1;
        self.updated_at = now;
    }
}

/// The address as kept: CEP as 8 digits, the complement present (null when not given), Brazil.
fn normalised_address(mut address: Address, violations: &mut Violations) -> Option<Address> {
    // The address is a component shared with the answers, so its strings are checked here.
    let lines = [
        ("address.street", Some(&address.street)),
        ("address.number", Some(&address.number)),
        ("address.complement", address.complement.as_ref().and_then(Option::as_ref)),
        ("address.neighborhood", Some(&address.neighborhood)),
        ("address.city", Some(&address.city)),
    ];
    let mut clean = true;
    for (field, value) in lines {
        // Each line prints on the debtor's documents.
        if let Some(Err(e)) = value.map(|v| text::check(v, false).and_then(|()| printable::check(v))) {
            violations.push(field, e.to_string());
            clean = false;
        }
    }
    address.zipcode = violations.check("address.zipcode", parse_cep(&address.zipcode))?;
    if !clean {
        return None;
    }
    address.complement = Some(address.complement.flatten());
    address.country = Some(AddressCountry::Br);
    Some(address)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::dates::Zone;
    use crate::domain::rules::Violation;

    fn refusal(edit: DebtorEdit) -> Vec<Violation> {
        match Debtor::register(
            "org_1",
            "52998224725",
            edit,
            OffsetDateTime::UNIX_EPOCH,
            &Zone::default_zone(),
        ) {
            Ok(_) => Vec::new(),
            Err(RuleError::Invalid(v)) => v,
            Err(other) => panic!("unexpected {other:?}"),
        }
    }

    fn name_refusal(name: &str) -> Option<String> {
        let found = refusal(DebtorEdit { name: Some(name.into()), ..DebtorEdit::default() });
        found.into_iter().find(|v| v.field == "name").map(|v| v.message)
    }

    #[test]
    fn a_name_needs_a_visible_letter() {
        assert_eq!(name_refusal("Maria Souza"), None);
        assert_eq!(name_refusal("  José  "), None);
        assert_eq!(name_refusal("..."), Some("must contain a letter".into()));
        assert_eq!(name_refusal("123"), Some("must contain a letter".into()));
        assert_eq!(name_refusal(" "), Some("must not be blank".into()));
        assert!(name_refusal("\u{200b}\u{200b}").is_some());
        assert!(name_refusal("Maria\u{202e}Souza").is_some());
        assert!(name_refusal("Maria\nSouza").is_some());
    }

    #[test]
    fn a_name_the_documents_cannot_print_is_refused_naming_the_character() {
        assert_eq!(name_refusal("Łukasz Żółć Ørsted Ðorđe Σωκράτης Пётр"), None);
        assert_eq!(
            name_refusal("Maria 日本"),
            Some("contains '日' (U+65E5), which the documents' font cannot print".into())
        );
        assert!(name_refusal("Maria 😀").is_some_and(|m| m.contains("U+1F600")));
    }

    #[test]
    fn address_lines_are_checked_text() {
        let address = Address {
            zipcode: "01310-100".into(),
            street: "Av. Paulista\u{202e}".into(),
            number: "1000".into(),
            complement: Some(Some("a\u{200b}".into())),
            neighborhood: "Bela Vista".into(),
            city: "São Paulo 東京".into(),
            state: crate::types::AddressState::Sp,
            country: None,
        };
        let found = refusal(DebtorEdit {
            name: Some("Maria".into()),
            address: Some(Some(address)),
            ..DebtorEdit::default()
        });
        let fields: Vec<&str> = found.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(fields, ["address.street", "address.complement", "address.city"]);
        assert!(found[2].message.contains("'東' (U+6771)"), "{found:?}");
    }
}
