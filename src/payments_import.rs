//! `payments import FILE.csv --org ORG`: a bank's or a payment platform's file of payments, one
//! per row (its date, its amount and what names its charge: a Pix txid, a boleto's digitable line
//! or the charge's external_id), each settling its charge in a transaction of its own, through
//! the path of `charges_settle`. A row is kept once: importing a file again settles nothing again.
//!
//! Files come from spreadsheets as often as from systems: UTF-8 (with or without a byte order
//! mark) or Latin-1, `;` or `,` between fields, amounts as `1250.00` or `1.250,00`, dates as
//! `2026-12-03` or `03/12/2026`.

use std::collections::HashMap;
use std::sync::Arc;

use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::app::App;
use crate::changes::take;
use crate::domain::dates::parse_date;
use crate::domain::ids::new_id;
use crate::domain::money::{Hundredths, cents_from_decimal};
use crate::domain::received_payment::{PaymentFacts, ReceivedPayment};
use crate::error::ApiError;
use crate::types::{PaymentSource, PaymentStatus};

/// Why a file cannot be imported at all.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("no organization {0}")]
    UnknownOrganization(String),
    #[error("the file has no header row")]
    Empty,
    #[error("the header names no {0} column (expected one of: {1})")]
    MissingColumn(&'static str, &'static str),
    #[error("the header names none of txid, line or external_id: nothing would find the charges")]
    NoIdentifier,
    #[error("the file cannot be read as CSV: {0}")]
    Csv(String),
    #[error(transparent)]
    Api(#[from] ApiError),
}

/// What became of the rows.
#[derive(Debug, Default)]
pub struct ImportReport {
    /// Rows that settled their charge.
    pub matched: usize,
    /// Rows kept for a person, with their line number and reason.
    pub unmatched: Vec<(usize, String)>,
    /// Rows that could not be read, with their line number and reason (nothing kept).
    pub refused: Vec<(usize, String)>,
    /// Rows imported before.
    pub already_imported: usize,
}

/// The columns a file may name, each under its English or Portuguese name.
const DATE: &[&str] = &["date", "paid_at", "data", "data_pagamento"];
const AMOUNT: &[&str] = &["amount", "paid_amount", "valor", "valor_pago"];
const TXID: &[&str] = &["txid"];
const LINE: &[&str] = &["line", "digitable_line", "linha_digitavel"];
const EXTERNAL_ID: &[&str] = &["external_id", "id_externo"];

/// Imports `bytes` into organization `org_id`.
pub async fn import(app: &Arc<App>, org_id: &str, bytes: &[u8]) -> Result<ImportReport, ImportError> {
    let org = app.store.organization(org_id).await.map_err(ApiError::from)?;
    let org = org.ok_or_else(|| ImportError::UnknownOrganization(org_id.to_string()))?;
    let text = decode(bytes);
    let first_line = text.lines().next().ok_or(ImportError::Empty)?;
    let delimiter =
        if first_line.matches(';').count() >= first_line.matches(',').count() { b';' } else { b',' };
    let mut reader =
        csv::ReaderBuilder::new().delimiter(delimiter).flexible(true).from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| ImportError::Csv(e.to_string()))?
        .iter()
        .map(|h| h.trim().to_lowercase())
        .collect();
    let column = |names: &[&str]| header.iter().position(|h| names.contains(&h.as_str()));
    let date = column(DATE).ok_or(ImportError::MissingColumn("date", "date, paid_at, data"))?;
    let amount = column(AMOUNT).ok_or(ImportError::MissingColumn("amount", "amount, paid_amount, valor"))?;
    let (txid, line, external_id) = (column(TXID), column(LINE), column(EXTERNAL_ID));
    if txid.is_none() && line.is_none() && external_id.is_none() {
        return Err(ImportError::NoIdentifier);
    }

    let mut report = ImportReport::default();
    // The same row twice in one file is two payments: the second is told apart by its count.
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (index, record) in reader.records().enumerate() {
        let line_number = index + 2;
        let record = match record {
            Ok(record) => record,
            Err(e) => {
                report.refused.push((line_number, e.to_string()));
                continue;
            }
        };
        let cell =
            |at: Option<usize>| at.and_then(|i| record.get(i)).map(str::trim).filter(|v| !v.is_empty());
        let row = Row {
            date: cell(Some(date)),
            amount: cell(Some(amount)),
            txid: cell(txid),
            line: cell(line),
            external_id: cell(external_id),
        };
        let (facts, paid_at) = match row.read(&org.timezone) {
            Ok(read) => read,
            Err(reason) => {
                report.refused.push((line_number, reason));
                continue;
            }
        };
        let key = row.key(&facts);
        let occurrence = seen.entry(key.clone()).and_modify(|n| *n += 1).or_insert(1);
        let reference = format!("{key}#{occurrence}");
        let now = OffsetDateTime::now_utc();
        let payment = ReceivedPayment::heard(&org.id, PaymentSource::Import, reference, facts, paid_at, now);
        match take(&app.store, &org, payment, "payments_import", new_id("req"), None).await {
            Ok(None) => report.already_imported += 1,
            Ok(Some(p)) if p.status == PaymentStatus::Matched => report.matched += 1,
            Ok(Some(p)) => report.unmatched.push((line_number, p.reason.unwrap_or_default())),
            // Nothing of the row was kept, or maybe it was: the next import takes it again or
            // finds it imported (the reference is the same).
            Err(ApiError::Concurrent(_) | ApiError::DatabaseUnavailable(_) | ApiError::OutcomeUnknown(_)) => {
                report.refused.push((line_number, "could not be saved now: import the file again".into()))
            }
            Err(other) => return Err(other.into()),
        }
    }
    Ok(report)
}

/// One row's cells, trimmed; empty ones are absent.
struct Row<'a> {
    date: Option<&'a str>,
    amount: Option<&'a str>,
    txid: Option<&'a str>,
    line: Option<&'a str>,
    external_id: Option<&'a str>,
}

impl Row<'_> {
    /// What the row says, or why it cannot be read.
    fn read(&self, zone: &crate::domain::dates::Zone) -> Result<(PaymentFacts, OffsetDateTime), String> {
        let day = self.date.ok_or("has no date")?;
        let day =
            read_day(day).ok_or_else(|| format!("has the date {day:?}, not YYYY-MM-DD or DD/MM/YYYY"))?;
        let amount = self.amount.ok_or("has no amount")?;
        let cents = read_cents(amount)
            .filter(|c| *c > 0)
            .ok_or_else(|| format!("has the amount {amount:?}, not reais like 1250.00 or 1.250,00"))?;
        if self.txid.is_none() && self.line.is_none() && self.external_id.is_none() {
            return Err("names no charge (txid, line or external_id)".into());
        }
        let facts = PaymentFacts {
            external_id: self.external_id.map(str::to_string),
            line: self.line.map(|l| l.chars().filter(char::is_ascii_digit).collect()),
            txid: self.txid.map(str::to_string),
            amount: Hundredths(cents),
        };
        Ok((facts, zone.day_start(day)))
    }

    /// What makes the row the same payment in another import of the file.
    fn key(&self, facts: &PaymentFacts) -> String {
        // The date as written is read to a day, whatever the organization's zone.
        let day = self.date.and_then(read_day).map(crate::domain::format_date).unwrap_or_default();
        let text = format!(
            "{}|{}|{}|{}|{}",
            day,
            facts.amount.0,
            facts.txid.as_deref().unwrap_or_default(),
            facts.line.as_deref().unwrap_or_default(),
            facts.external_id.as_deref().unwrap_or_default(),
        );
        hex::encode(Sha256::digest(text.as_bytes()))
    }
}

/// UTF-8 (a byte order mark dropped), else Latin-1: every byte is the character of that code.
fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.strip_prefix('\u{feff}').unwrap_or(text).to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// `2026-12-03` or `03/12/2026`.
fn read_day(text: &str) -> Option<time::Date> {
    if let Ok(day) = parse_date(text) {
        return Some(day);
    }
    let mut parts = text.split('/');
    let (d, m, y) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || d.len() != 2 || m.len() != 2 || y.len() != 4 {
        return None;
    }
    parse_date(&format!("{y}-{m}-{d}")).ok()
}

/// `1250.00`, `1250,00`, `1.250,00` or `R$ 1.250,00` as centavos: a comma is the decimal
/// separator when there is one (the dots then group thousands).
fn read_cents(text: &str) -> Option<i64> {
    let text = text.trim().trim_start_matches("R$").trim();
    let plain = if text.contains(',') { text.replace('.', "").replace(',', ".") } else { text.to_string() };
    cents_from_decimal(&plain).filter(|c| *c <= crate::domain::MAX_CENTS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_amounts_as_spreadsheets_write_them() {
        assert_eq!(read_cents("1250.00"), Some(125_000));
        assert_eq!(read_cents("1.250,00"), Some(125_000));
        assert_eq!(read_cents("R$ 1.250,5"), Some(125_050));
        assert_eq!(read_cents("90"), Some(9_000));
        for bad in ["", "1,2,3", "12.345", "abc", "-5,00", "1.250.00"] {
            assert_eq!(read_cents(bad), None, "{bad}");
        }
    }

    #[test]
    fn reads_dates_either_way() {
        assert_eq!(read_day("2026-12-03"), read_day("03/12/2026"));
        assert!(read_day("3/12/2026").is_none());
        assert!(read_day("31/02/2026").is_none());
    }

    #[test]
    fn reads_latin_1_when_the_bytes_are_not_utf_8() {
        assert_eq!(decode(b"S\xe3o Paulo"), "São Paulo");
        assert_eq!(decode("\u{feff}data;valor".as_bytes()), "data;valor");
    }
}
