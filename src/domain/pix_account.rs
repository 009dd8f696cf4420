//! An organization's Pix account: the key payments go to, of one of the four kinds Banco
//! Central's DICT registers (CPF or CNPJ, e-mail, phone, random key), and the merchant name and
//! city every BR Code carries. With one, each open charge without a code of its own offers a
//! static BR Code for its balance.

use super::pix::static_code;
use super::rules::{RuleError, Violations};

/// The kind of a Pix key, as the API names it.
pub use crate::types::PixAccountKeyType as PixKeyKind;

/// The longest key a BR Code holds (field 26, subfield 01).
pub const MAX_KEY: usize = 77;

/// The longest merchant name and city a BR Code holds (fields 59 and 60).
pub const MAX_MERCHANT_NAME: usize = 25;
pub const MAX_MERCHANT_CITY: usize = 15;

/// A Pix account, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PixAccount {
    /// The key, normalised as the DICT keeps it.
    pub key: String,
    pub kind: PixKeyKind,
    /// The name the payer's bank shows.
    pub merchant_name: String,
    /// The merchant's city.
    pub merchant_city: String,
}

impl PixAccount {
    /// The account of `key` for `merchant_name` in `merchant_city`; each problem named under its
    /// field.
    pub fn new(key: &str, merchant_name: &str, merchant_city: &str) -> Result<Self, RuleError> {
        let mut violations = Violations::default();
        let parsed = parse_key(key);
        if let Err(message) = &parsed {
            violations.push("key", message.clone());
        }
        for (field, value, max) in [
            ("merchant_name", merchant_name, MAX_MERCHANT_NAME),
            ("merchant_city", merchant_city, MAX_MERCHANT_CITY),
        ] {
            let letters = super::pix::plain(value, usize::MAX);
            if letters.is_empty() {
                violations.push(field, "must hold letters or digits (accents are dropped in the code)");
            } else if letters.chars().count() > max {
                violations.push(field, format!("must be at most {max} characters, as the BR Code holds it"));
            }
        }
        violations.finish()?;
        let (key, kind) = parsed.map_err(|_| RuleError::Invalid(Vec::new()))?;
        Ok(Self {
            key,
            kind,
            merchant_name: merchant_name.trim().into(),
            merchant_city: merchant_city.trim().into(),
        })
    }

    /// An account as stored, read again; `None` when a stored part no longer passes.
    pub fn read(key: &str, merchant_name: &str, merchant_city: &str) -> Option<Self> {
        Self::new(key, merchant_name, merchant_city).ok()
    }

    /// The static BR Code of a payment of `amount_cents` to this account, labelled `txid`.
    pub fn code(&self, amount_cents: i64, txid: &str) -> String {
        static_code(&self.key, &self.merchant_name, &self.merchant_city, amount_cents, txid)
    }
}

/// A key as the DICT keeps it, and its kind: the phone needs its `+55` (eleven digits alone
/// are a CPF), a random key is a UUID.
fn parse_key(input: &str) -> Result<(String, PixKeyKind), String> {
    let key = input.trim();
    if key.is_empty() {
        return Err("is required: a CPF, CNPJ, e-mail, phone (+55…) or random key".into());
    }
    // A BR Code holds a key of up to 77 characters, as the DICT registers them (ASCII).
    if key.chars().count() > MAX_KEY || !key.is_ascii() {
        return Err(format!("must be at most {MAX_KEY} characters without accents, as a Pix key is"));
    }
    if let Some(rest) = key.strip_prefix('+') {
        let digits: String = rest.chars().filter(char::is_ascii_digit).collect();
        let shaped = rest.chars().all(|c| c.is_ascii_digit() || " ()-".contains(c));
        return match (shaped, super::phone::parse_phone(key)) {
            (true, Ok(e164)) if digits.starts_with("55") => Ok((e164, PixKeyKind::Phone)),
            _ => Err("is not a Brazilian phone key: write it as +55, the area code and the number".into()),
        };
    }
    if key.contains('@') {
        return super::email::parse_email(key)
            .map(|email| (email.to_lowercase(), PixKeyKind::Email))
            .map_err(|e| format!("is not an e-mail key: {e}"));
    }
    if is_uuid(key) {
        return Ok((key.to_ascii_lowercase(), PixKeyKind::Random));
    }
    match super::document::parse_document(key) {
        Ok(document) if document.value.len() == 11 => Ok((document.value, PixKeyKind::Cpf)),
        Ok(document) => Ok((document.value, PixKeyKind::Cnpj)),
        Err(e) => Err(format!(
            "is neither a valid CPF or CNPJ ({e}), an e-mail, a phone (+55…) nor a random key (a UUID)"
        )),
    }
}

/// `8-4-4-4-12` hexadecimal digits.
fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    let lengths = [8, 4, 4, 4, 12];
    groups.len() == lengths.len()
        && groups.iter().zip(lengths).all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::pix::BrCode;

    fn kind(key: &str) -> Result<PixKeyKind, String> {
        parse_key(key).map(|(_, k)| k)
    }

    #[test]
    fn reads_each_kind_of_key() {
        assert_eq!(parse_key("529.982.247-25"), Ok(("52998224725".into(), PixKeyKind::Cpf)));
        assert_eq!(kind("11.222.333/0001-81"), Ok(PixKeyKind::Cnpj));
        assert_eq!(parse_key("Pix@Padaria.com.br").map(|(k, _)| k), Ok("pix@padaria.com.br".into()));
        assert_eq!(parse_key("+55 (11) 98765-4321"), Ok(("+5511987654321".into(), PixKeyKind::Phone)));
        assert_eq!(kind("123E4567-E89B-12D3-A456-426614174000"), Ok(PixKeyKind::Random));
    }

    #[test]
    fn refuses_what_is_no_key() {
        let long = format!("{}@example.com", "a".repeat(70));
        let bad = [
            "",
            "529.982.247-26",
            "+1 415 555 0100",
            "pix@",
            "123e4567-e89b-12d3-a456",
            "chave",
            "joão@example.com",
        ];
        for bad in bad.iter().copied().chain([long.as_str()]) {
            assert!(parse_key(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_each_field_that_does_not_fit_a_code() {
        let Err(RuleError::Invalid(v)) = PixAccount::new("x", "Padaria e Mercearia Boa Vista Ltda", "  ")
        else {
            panic!("accepted");
        };
        let fields: Vec<&str> = v.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(fields, ["key", "merchant_name", "merchant_city"]);
    }

    #[test]
    fn its_code_reads_back_with_its_key_amount_and_txid() {
        let account = PixAccount::new("+55 11 98765-4321", "Padaria Boa Vista", "São Paulo").unwrap();
        let code = BrCode::parse(&account.code(12_550, "0192f1c27a3b7c11a2b3c4d5e")).unwrap();
        assert_eq!(code.key, "+5511987654321");
        assert_eq!(code.amount_cents, Some(12_550));
        assert_eq!(code.txid.as_deref(), Some("0192f1c27a3b7c11a2b3c4d5e"));
        assert_eq!(code.merchant_city, "SAO PAULO");
    }
}
