//! The PDF documents the API hands out: the debtor's statement (extrato de débitos) and the
//! settlement letter (carta de quitação), rendered in-process from plain data.
//!
//! Each document is a function of its input alone: the same data gives the same bytes (no
//! clock, no random id), so a file can be hashed, cached and compared. The text is pt-BR with
//! its accents, in Helvetica written with WinAnsiEncoding, so nothing is embedded, files stay
//! small and the text extracts and searches as written. No input makes rendering panic: long
//! text wraps or is cut, long lists flow onto more pages, and the few inputs that cannot make
//! an honest document are a [`DocumentError`].
//!
//! Files, one concern each: `statement` and `settlement` say what each document shows,
//! `sections` holds what they share (the parties), `layout` places blocks on pages, `wrap`
//! breaks lines, `winansi` and `fonts` turn text into glyphs and measure them, and `pdf` writes
//! the file. A further document (the agreement term) adds one file beside the first two.

mod fonts;
mod layout;
mod pdf;
mod sections;
mod settlement;
mod statement;
mod winansi;
mod wrap;

#[cfg(test)]
mod tests;

/// A party to a document: the creditor who issues it or the debtor it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Party {
    pub name: String,
    /// The CPF (11 digits) or CNPJ (14 characters), unformatted, as the domain stores it.
    pub document: String,
    /// The address as the lines it prints on.
    pub address: Option<Vec<String>>,
}

/// One charge on a debtor's statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementLine {
    pub charge_id: String,
    pub description: Option<String>,
    pub due_date: time::Date,
    pub amount_cents: i64,
    pub paid_cents: i64,
    /// The charge's status as a person reads it, in pt-BR ("vencida", "paga").
    pub status: String,
    /// Days past the due date; zero or less when the charge is not overdue.
    pub days_overdue: i64,
}

/// A debtor's statement: every charge listed, with what was charged, paid, and is still owed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub creditor: Party,
    pub debtor: Party,
    pub issued_on: time::Date,
    pub lines: Vec<StatementLine>,
}

/// A settlement letter: the creditor declares one charge paid in full.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettlementLetter {
    pub creditor: Party,
    pub debtor: Party,
    pub issued_on: time::Date,
    pub charge_id: String,
    pub description: Option<String>,
    pub due_date: time::Date,
    pub amount_cents: i64,
    pub paid_cents: i64,
    pub paid_on: time::Date,
}

/// Why a document could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentError {
    /// The content would fill more pages than a document may have.
    #[error("the document would have more than {max} pages")]
    TooManyPages { max: usize },
    /// A total or balance does not fit in 64 bits of centavos.
    #[error("an amount of the document is too large to compute")]
    AmountOverflow,
    /// A settlement letter declares a debt paid; this one is not.
    #[error("the charge is not paid in full ({paid_cents} of {amount_cents} centavos paid)")]
    NotFullyPaid { amount_cents: i64, paid_cents: i64 },
}

/// The debtor's statement as a PDF file.
pub fn statement(statement: &Statement) -> Result<Vec<u8>, DocumentError> {
    statement::render(statement)
}

/// The settlement letter as a PDF file; [`DocumentError::NotFullyPaid`] unless the paid amount
/// covers the charge.
pub fn settlement_letter(letter: &SettlementLetter) -> Result<Vec<u8>, DocumentError> {
    settlement::render(letter)
}
