//! The PDF documents the API hands out: the debtor's statement (extrato de débitos), the
//! settlement letter (carta de quitação) and the agreement term (termo de acordo e confissão de
//! dívida), rendered in-process from plain data.
//!
//! Each document is a function of its input alone: the same data gives the same bytes (no
//! clock, no random id), so a file can be hashed, cached and compared. The text is pt-BR, and
//! names and descriptions may be in any Latin, Greek or Cyrillic script: it is set in DejaVu
//! Sans, of which each file embeds the glyphs it uses, and extracts and searches as written.
//! No input makes rendering panic: long
//! text wraps or is cut, long lists flow onto more pages, and the few inputs that cannot make
//! an honest document are a [`DocumentError`].
//!
//! Files, one concern each: `statement`, `settlement` and `agreement_term` say what each
//! document shows, `sections` holds what they share (the parties, a signature), `layout` places
//! blocks on pages, `wrap` breaks lines, `text` and `fonts` turn text into glyphs and measure
//! them, and `pdf` writes the file. A further document adds one file beside these three.

mod agreement_term;
mod fonts;
mod layout;
mod pdf;
pub mod qr;
mod sections;
mod settlement;
mod statement;
mod text;
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

/// A charge an agreement renegotiates, as it stood on the day the agreement was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenegotiatedCharge {
    pub charge_id: String,
    pub description: Option<String>,
    pub due_date: time::Date,
    /// What was left to pay of the charge when the agreement was made; the balances add up to
    /// the term's `original_cents`.
    pub balance_cents: i64,
}

/// A payment an agreement schedules: its down payment (entrada) or one of its installments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TermPayment {
    pub amount_cents: i64,
    pub due_date: time::Date,
}

/// An agreement term (termo de acordo e confissão de dívida): the debtor acknowledges the debt
/// of the renegotiated charges and the creditor grants the agreement's terms.
///
/// The amounts must add up, or the term is [`DocumentError::AgreementMismatch`]: the balances
/// to `original_cents`; `original_cents`, the fine and the interest (each counted as zero when
/// waived) less `discount_cents` to `total_cents`; and the down payment with the installments
/// to `total_cents` too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgreementTerm {
    pub creditor: Party,
    pub debtor: Party,
    /// The day the agreement was made.
    pub issued_on: time::Date,
    pub agreement_id: String,
    /// The charges the agreement replaces; at least one.
    pub renegotiated: Vec<RenegotiatedCharge>,
    /// The charges' balances.
    pub original_cents: i64,
    /// The late fine (multa); not charged, and printed `dispensada`, when `fine_waived`.
    pub fine_cents: i64,
    /// The late interest (juros); not charged, and printed `dispensados`, when
    /// `interest_waived`.
    pub interest_cents: i64,
    pub discount_cents: i64,
    /// What the debtor pays in all: the down payment and the installments.
    pub total_cents: i64,
    pub fine_waived: bool,
    pub interest_waived: bool,
    /// Paid first, before the installments; above zero when present.
    pub down_payment: Option<TermPayment>,
    /// In order, each above zero; at least one. Printed `n de N` by position.
    pub installments: Vec<TermPayment>,
    /// The days the down payment or an installment may stay unpaid after its due date before
    /// the agreement breaks; zero or more.
    pub grace_days_before_broken: i64,
}

/// Which sum of an agreement term does not add up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgreementSum {
    /// The renegotiated charges' balances, against the original amount.
    Balances,
    /// The original amount, fine and interest less the discount, against the total.
    Breakdown,
    /// The down payment and the installments, against the total.
    Schedule,
}

impl std::fmt::Display for AgreementSum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AgreementSum::Balances => "renegotiated charges' balances",
            AgreementSum::Breakdown => "original amount, fine and interest less the discount",
            AgreementSum::Schedule => "down payment and installments",
        })
    }
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
    /// An agreement term that would not be an honest one; the text says what is wrong
    /// (`lists no installment`, `has a negative amount`, ...).
    #[error("the agreement term {0}")]
    InvalidAgreement(&'static str),
    /// An agreement term whose amounts do not add up: `sum` comes to `sum_cents` where the
    /// term says `expected_cents` (its original amount or its total).
    #[error("the agreement's {sum} come to {sum_cents} centavos, not {expected_cents}")]
    AgreementMismatch { sum: AgreementSum, sum_cents: i64, expected_cents: i64 },
    /// The compiled-in font could not be cut to the document's glyphs (a fault of the font or
    /// of the subsetter, never of the data).
    #[error("the document's font could not be embedded: {0}")]
    Font(String),
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

/// The agreement term as a PDF file; [`DocumentError::InvalidAgreement`] or
/// [`DocumentError::AgreementMismatch`] when its data would not make an honest term.
pub fn agreement_term(term: &AgreementTerm) -> Result<Vec<u8>, DocumentError> {
    agreement_term::render(term)
}
