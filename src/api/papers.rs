//! The PDF documents a debtor receives, from what the store holds: the statement of a debtor's
//! charges, the settlement letter of a paid charge and an agreement's term (`crate::documents`
//! lays them out). Each is dated by its data (the day it describes, the payment's day, the day
//! the agreement was made), so the same data gives the same bytes and a digest handed out
//! earlier still matches when the file is read again.

use super::{ApiError, ApiResult, Call, File};
use crate::documents::{
    self, AgreementTerm, DocumentError, Party, RenegotiatedCharge, SettlementLetter, Statement,
    StatementLine, TermPayment,
};
use crate::domain::agreement::Agreement;
use crate::domain::charge::Charge;
use crate::domain::debtor::Debtor;
use crate::types::{Address, ChargeStatus};

/// The most charges a statement lists (by due date); a debtor with more is a data problem
/// better seen in a list or an export.
const MAX_STATEMENT_LINES: i64 = 5_000;

const PDF: &str = "application/pdf";

/// The statement of `debtor`'s charges as of today.
pub async fn statement(call: &Call, debtor: &Debtor) -> ApiResult<File> {
    let charges = call.store.debtor_charges(call.org_id(), &debtor.id, MAX_STATEMENT_LINES).await?;
    let today = call.today();
    let lines = charges
        .iter()
        .map(|c| StatementLine {
            charge_id: c.id.clone(),
            description: c.description.clone(),
            due_date: c.due_date,
            amount_cents: c.amount.0,
            paid_cents: c.paid.0,
            status: status_text(c.status).to_string(),
            days_overdue: c.days_overdue(today),
        })
        .collect();
    let statement =
        Statement { creditor: creditor(call).await?, debtor: party(debtor), issued_on: today, lines };
    rendered(documents::statement(&statement), &format!("statement-{}", debtor.id))
}

/// The settlement letter of a paid charge, dated the day it was paid.
pub async fn settlement_letter(call: &Call, charge: &Charge, debtor: &Debtor) -> ApiResult<File> {
    let paid_at = match (charge.status, charge.paid_at) {
        (ChargeStatus::Paid, Some(paid_at)) => paid_at,
        _ => {
            return Err(ApiError::InvalidState {
                message: format!("a {} charge has no settlement letter; only a paid one has", charge.status),
                status: charge.status.as_str().to_string(),
                allowed: vec![ChargeStatus::Paid.as_str()],
            });
        }
    };
    let paid_on = call.zone().today(paid_at);
    let letter = SettlementLetter {
        creditor: creditor(call).await?,
        debtor: party(debtor),
        issued_on: paid_on,
        charge_id: charge.id.clone(),
        description: charge.description.clone(),
        due_date: charge.due_date,
        amount_cents: charge.amount.0,
        paid_cents: charge.paid.0,
        paid_on,
    };
    rendered(documents::settlement_letter(&letter), &format!("settlement-letter-{}", charge.id))
}

/// An agreement's term, dated the day it was made.
pub async fn agreement_term(call: &Call, agreement: &Agreement) -> ApiResult<File> {
    let org_id = call.org_id();
    let debtor =
        call.store.debtor(org_id, &agreement.debtor_id).await?.ok_or(ApiError::NotFound("debtor"))?;
    let mut renegotiated = Vec::with_capacity(agreement.charge_ids.len());
    for (id, balance) in agreement.charge_ids.iter().zip(&agreement.source_balances) {
        let charge = call.store.charge(org_id, id).await?.ok_or(ApiError::NotFound("charge"))?;
        renegotiated.push(RenegotiatedCharge {
            charge_id: charge.id,
            description: charge.description,
            due_date: charge.due_date,
            balance_cents: balance.0,
        });
    }
    let (mut down_payment, mut installments) = (None, Vec::new());
    for (number, id) in call.store.agreement_installments(&agreement.id).await? {
        let charge = call.store.charge(org_id, &id).await?.ok_or(ApiError::NotFound("charge"))?;
        let payment = TermPayment { amount_cents: charge.amount.0, due_date: charge.due_date };
        if number == 0 {
            down_payment = Some(payment);
        } else {
            installments.push(payment);
        }
    }
    let term = AgreementTerm {
        creditor: creditor(call).await?,
        debtor: party(&debtor),
        issued_on: call.zone().today(agreement.created_at),
        agreement_id: agreement.id.clone(),
        renegotiated,
        original_cents: agreement.original_amount.0,
        fine_cents: agreement.fine_amount.0,
        interest_cents: agreement.interest_amount.0,
        discount_cents: agreement.discount_amount.0,
        total_cents: agreement.total_amount.0,
        fine_waived: agreement.fine_waived,
        interest_waived: agreement.interest_waived,
        down_payment,
        installments,
        grace_days_before_broken: agreement.grace_days_before_broken,
    };
    rendered(documents::agreement_term(&term), &format!("term-{}", agreement.id))
}

/// The organization, as the creditor that issues the document.
async fn creditor(call: &Call) -> ApiResult<Party> {
    let org = call.store.organization(call.org_id()).await?.ok_or(ApiError::NotFound("organization"))?;
    Ok(Party { name: org.name, document: org.document.unwrap_or_default(), address: None })
}

fn party(debtor: &Debtor) -> Party {
    Party {
        name: debtor.name.clone(),
        document: debtor.document.clone(),
        address: debtor.address.as_ref().map(address_lines),
    }
}

/// An address as it is written on an envelope: street and number, complement and district,
/// city and state with the CEP.
fn address_lines(a: &Address) -> Vec<String> {
    let mut first = format!("{}, {}", a.street, a.number);
    if let Some(Some(complement)) = &a.complement {
        first.push_str(&format!(", {complement}"));
    }
    vec![
        first,
        a.neighborhood.clone(),
        format!("{}/{} - CEP {}", a.city, a.state.as_str(), crate::domain::address::format_cep(&a.zipcode)),
    ]
}

/// A charge's status as a debtor reads it.
fn status_text(status: ChargeStatus) -> &'static str {
    match status {
        ChargeStatus::Pending => "a vencer",
        ChargeStatus::Overdue => "vencida",
        ChargeStatus::Paid => "paga",
        ChargeStatus::Canceled => "cancelada",
        ChargeStatus::WrittenOff => "baixada",
        ChargeStatus::InAgreement => "em acordo",
    }
}

/// A PDF saved as `<stem>.pdf`.
fn rendered(bytes: Result<Vec<u8>, DocumentError>, stem: &str) -> ApiResult<File> {
    bytes.map(|bytes| File::named(PDF, stem, "pdf", bytes)).map_err(|e| ApiError::Internal(Box::new(e)))
}
