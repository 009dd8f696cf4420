//! The ways a debtor pays a charge from a message: its boleto (the digitable line) and its Pix
//! "copia e cola". Each is checked against the charge when given and again when the charge's
//! amount or due date changes, and offered to the debtor only while it pays the balance.

use time::Date;

use super::boleto::Barcode;
use super::money::format_brl;
use super::pix::BrCode;
use super::rules::Violations;

/// A charge's boleto.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Boleto {
    pub barcode: Barcode,
    /// Where the debtor gets its PDF.
    pub url: Option<String>,
}

/// A boleto as a caller gives it: the line, the barcode or both, and the PDF's address.
#[derive(Debug, Default)]
pub struct BoletoGiven {
    pub line: Option<String>,
    pub barcode: Option<String>,
    pub url: Option<String>,
}

/// A charge's Pix code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pix {
    /// The BR Code as given.
    pub emv: String,
    /// What it says.
    pub code: BrCode,
}

impl Boleto {
    /// The boleto of `given`, for `amount_cents` due on `due`; each problem recorded under the
    /// field that has it (`boleto.line`, `boleto.barcode`).
    pub fn given(
        given: BoletoGiven,
        amount_cents: i64,
        due: Date,
        violations: &mut Violations,
    ) -> Option<Self> {
        let from_line = given.line.as_deref().map(Barcode::from_line);
        let from_barcode = given.barcode.as_deref().map(Barcode::parse);
        let (field, barcode) = match (from_line, from_barcode) {
            (None, None) => {
                violations.push("boleto", "needs its line or its barcode");
                return None;
            }
            (Some(Err(e)), _) => return refuse(violations, "boleto.line", e),
            (_, Some(Err(e))) => return refuse(violations, "boleto.barcode", e),
            (Some(Ok(line)), Some(Ok(barcode))) if line != barcode => {
                return refuse(violations, "boleto.barcode", super::boleto::BoletoError::OtherBarcode);
            }
            (Some(Ok(barcode)), _) => ("boleto.line", barcode),
            (None, Some(Ok(barcode))) => ("boleto.barcode", barcode),
        };
        if let Err(e) = barcode.check_against(amount_cents, due) {
            return refuse(violations, field, e);
        }
        Some(Self { barcode, url: given.url })
    }

    /// A boleto as stored or shown: its barcode's digits, checked again.
    pub fn read(barcode: &str, url: Option<String>) -> Result<Self, super::boleto::BoletoError> {
        Ok(Self { barcode: Barcode::parse(barcode)?, url })
    }

    /// Whether it still is the boleto of a charge of `amount_cents` due on `due`.
    pub fn fits(&self, amount_cents: i64, due: Date) -> bool {
        self.barcode.check_against(amount_cents, due).is_ok()
    }

    /// The digitable line, while paying it pays `balance_cents` (a boleto for the whole amount
    /// is not offered after a partial payment).
    pub fn line_for(&self, balance_cents: i64) -> Option<String> {
        let amount = self.barcode.amount_cents();
        (amount == 0 || amount == balance_cents).then(|| self.barcode.line())
    }
}

impl Pix {
    /// The Pix code `emv`, for `balance_cents` when it fixes an amount; a problem is recorded
    /// under `pix.emv`.
    pub fn given(emv: String, balance_cents: i64, violations: &mut Violations) -> Option<Self> {
        let checked = Self::read(emv.trim().to_string())
            .and_then(|pix| pix.code.check_against(balance_cents).map(|()| pix));
        match checked {
            Ok(pix) => Some(pix),
            Err(e) => refuse(violations, "pix.emv", e),
        }
    }

    /// A code as stored or shown, read again.
    pub fn read(emv: String) -> Result<Self, super::pix::PixError> {
        Ok(Self { code: BrCode::parse(&emv)?, emv })
    }

    /// The code, while it asks for `balance_cents` (or lets the payer type the amount).
    pub fn code_for(&self, balance_cents: i64) -> Option<&str> {
        self.fits(balance_cents).then_some(self.emv.as_str())
    }

    /// Whether it asks for `balance_cents` or for no amount in particular.
    pub fn fits(&self, balance_cents: i64) -> bool {
        self.code.check_against(balance_cents).is_ok()
    }

    /// Its reference, which matches an incoming payment to the charge.
    pub fn txid(&self) -> Option<&str> {
        self.code.txid.as_deref()
    }
}

/// Why a kept boleto or Pix code no longer fits a changed charge, and what to do.
pub fn stale(what: &str, now: i64) -> String {
    format!(
        "was made for another amount or due date (the charge now asks {}): send a new {what}, or null to remove it",
        format_brl(now)
    )
}

fn refuse<T>(violations: &mut Violations, field: &str, error: impl std::fmt::Display) -> Option<T> {
    violations.push(field, error.to_string());
    None
}
