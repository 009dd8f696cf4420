//! The agreement term (termo de acordo e confissão de dívida): the debtor acknowledges the debt
//! of the charges the agreement renegotiates, and the creditor grants its terms: the amounts,
//! waivers and discount, the down payment and the installments, and when the agreement breaks.

use super::layout::{Align, Column, Layout, Page};
use super::pdf::{self, Metadata};
use super::sections::{SIGNATURE_GAP, header, registration, signature, signature_height};
use super::{AgreementSum, AgreementTerm, DocumentError, RenegotiatedCharge, TermPayment};
use crate::domain::dates::format_date_br;
use crate::domain::money::format_brl;

const TITLE: &str = "Termo de Acordo";

/// The renegotiated charges: a charge id (36 characters) fits its column whole, as on the
/// statement, and a balance up to `R$ 999.999.999,99` fits on one line.
const CHARGE_COLUMNS: [Column; 4] = [
    Column { header: "Cobrança", weight: 176.0, align: Align::Left },
    Column { header: "Descrição", weight: 162.0, align: Align::Left },
    Column { header: "Vencimento", weight: 62.0, align: Align::Left },
    Column { header: "Saldo", weight: 82.0, align: Align::Right },
];

const INSTALLMENT_COLUMNS: [Column; 3] = [
    Column { header: "Parcela", weight: 1.0, align: Align::Left },
    Column { header: "Vencimento", weight: 1.0, align: Align::Left },
    Column { header: "Valor", weight: 1.0, align: Align::Right },
];

/// The term as a PDF file.
pub fn render(term: &AgreementTerm) -> Result<Vec<u8>, DocumentError> {
    let pages = layout(term)?;
    let title = format!("{TITLE} — {}", term.debtor.name);
    let metadata = Metadata { title: &title, author: &term.creditor.name, created_on: term.issued_on };
    pdf::write(&pages, &metadata)
}

/// The term's pages; an error when its data would not make an honest term (see [`check`]).
pub fn layout(term: &AgreementTerm) -> Result<Vec<Page>, DocumentError> {
    check(term)?;
    let mut layout = Layout::new();
    let agreement_id = term.agreement_id.trim();
    let issued_on = format_date_br(term.issued_on);
    let issued = if agreement_id.is_empty() {
        format!("Celebrado em {issued_on}")
    } else {
        format!("Acordo {agreement_id} · celebrado em {issued_on}")
    };
    header(&mut layout, TITLE, &issued, &term.creditor, &term.debtor);

    layout.heading("Confissão de dívida");
    layout.paragraph(&format!(
        "Pelo presente termo, {debtor}{debtor_registration}, doravante devedor(a), reconhece e \
         confessa, de forma irrevogável e irretratável, ser devedor(a) de {creditor}\
         {creditor_registration}, doravante credor(a), pelas cobranças relacionadas abaixo, no \
         valor original de {original}. O(A) credor(a), por sua vez, concede ao(à) devedor(a) as \
         condições deste acordo, pelas quais a dívida será quitada com o pagamento de {total}, na \
         forma e nos vencimentos a seguir.",
        debtor = term.debtor.name.trim(),
        debtor_registration = registration(&term.debtor),
        creditor = term.creditor.name.trim(),
        creditor_registration = registration(&term.creditor),
        original = format_brl(term.original_cents),
        total = format_brl(term.total_cents),
    ));

    layout.heading("Cobranças renegociadas");
    let rows: Vec<Vec<String>> = term.renegotiated.iter().map(charge_row).collect();
    layout.table(&CHARGE_COLUMNS, &rows);

    layout.heading("Valores");
    let fine = if term.fine_waived { "dispensada".to_owned() } else { format_brl(term.fine_cents) };
    let interest =
        if term.interest_waived { "dispensados".to_owned() } else { format_brl(term.interest_cents) };
    layout.fields(&[
        ("Valor original", &format_brl(term.original_cents)),
        ("Multa", &fine),
        ("Juros", &interest),
        ("Desconto", &format_brl(term.discount_cents)),
        ("Total do acordo", &format_brl(term.total_cents)),
    ]);

    layout.heading("Forma de pagamento");
    let count = term.installments.len();
    // Within range: `check` summed them with the down payment.
    let installments_sum: i64 = term.installments.iter().map(|p| p.amount_cents).sum();
    let down_payment = term
        .down_payment
        .map(|d| format!("{}, com vencimento em {}", format_brl(d.amount_cents), format_date_br(d.due_date)));
    let installments = match count {
        1 => format!("1, no valor de {}", format_brl(installments_sum)),
        n => format!("{n}, que somam {}", format_brl(installments_sum)),
    };
    let mut fields = Vec::new();
    if let Some(down_payment) = &down_payment {
        fields.push(("Entrada", down_payment.as_str()));
    }
    fields.push(("Parcelas", installments.as_str()));
    layout.fields(&fields);
    layout.gap(4.0);
    let rows: Vec<Vec<String>> = term
        .installments
        .iter()
        .enumerate()
        .map(|(i, payment)| installment_row(i + 1, count, payment))
        .collect();
    layout.table(&INSTALLMENT_COLUMNS, &rows);

    layout.heading("Quebra do acordo");
    let what = if term.down_payment.is_some() { "a entrada ou qualquer parcela" } else { "qualquer parcela" };
    layout.paragraph(&format!(
        "Se {what} {late}, o acordo estará quebrado: as parcelas em aberto serão canceladas, as \
         condições concedidas neste termo deixarão de valer e as cobranças originais voltarão a ser \
         devidas, nos seus valores e vencimentos originais, com os encargos previstos em cada uma.",
        late = late(term.grace_days_before_broken),
    ));

    layout.heading("Quitação");
    let paid = if term.down_payment.is_some() {
        "da entrada e de todas as parcelas"
    } else {
        "de todas as parcelas"
    };
    layout.paragraph(&format!(
        "O pagamento {paid} nos termos acima quita as cobranças renegociadas, nada mais havendo a \
         reclamar a esse título."
    ));
    layout.gap(6.0);
    layout.paragraph("E, por estarem de acordo, as partes assinam este termo.");

    // Both signatures on one page when they fit on what is left of this one or on the next.
    let creditor_role = Some("Credor(a)");
    let debtor_role = Some("Devedor(a)");
    layout.keep_together(
        SIGNATURE_GAP
            + signature_height(&term.creditor, creditor_role)
            + SIGNATURE_GAP
            + signature_height(&term.debtor, debtor_role),
    );
    signature(&mut layout, &term.creditor, creditor_role);
    signature(&mut layout, &term.debtor, debtor_role);
    let label = if agreement_id.is_empty() { TITLE.to_owned() } else { format!("{TITLE} {agreement_id}") };
    layout.finish(&format!("{label} · {}", term.debtor.name))
}

/// What must hold for the term to be an honest one: something renegotiated and at least one
/// installment, no negative amount, payments above zero, and sums that add up, computed without
/// overflowing.
fn check(term: &AgreementTerm) -> Result<(), DocumentError> {
    if term.renegotiated.is_empty() {
        return Err(DocumentError::InvalidAgreement("lists no renegotiated charge"));
    }
    if term.installments.is_empty() {
        return Err(DocumentError::InvalidAgreement("lists no installment"));
    }
    let amounts =
        [term.original_cents, term.fine_cents, term.interest_cents, term.discount_cents, term.total_cents];
    if amounts.iter().chain(term.renegotiated.iter().map(|c| &c.balance_cents)).any(|&cents| cents < 0) {
        return Err(DocumentError::InvalidAgreement("has a negative amount"));
    }
    if term.down_payment.iter().chain(&term.installments).any(|p| p.amount_cents <= 0) {
        return Err(DocumentError::InvalidAgreement("has a down payment or installment of zero or less"));
    }
    if term.grace_days_before_broken < 0 {
        return Err(DocumentError::InvalidAgreement("has negative grace days"));
    }

    let balances = sum(term.renegotiated.iter().map(|c| c.balance_cents))?;
    agree(AgreementSum::Balances, balances, term.original_cents)?;
    let fine = if term.fine_waived { 0 } else { term.fine_cents };
    let interest = if term.interest_waived { 0 } else { term.interest_cents };
    let breakdown = sum([term.original_cents, fine, interest])?
        .checked_sub(term.discount_cents)
        .ok_or(DocumentError::AmountOverflow)?;
    agree(AgreementSum::Breakdown, breakdown, term.total_cents)?;
    let scheduled = sum(term.down_payment.iter().chain(&term.installments).map(|p| p.amount_cents))?;
    agree(AgreementSum::Schedule, scheduled, term.total_cents)
}

fn sum(amounts: impl IntoIterator<Item = i64>) -> Result<i64, DocumentError> {
    amounts
        .into_iter()
        .try_fold(0i64, |total, cents| total.checked_add(cents).ok_or(DocumentError::AmountOverflow))
}

fn agree(sum: AgreementSum, sum_cents: i64, expected_cents: i64) -> Result<(), DocumentError> {
    if sum_cents == expected_cents {
        Ok(())
    } else {
        Err(DocumentError::AgreementMismatch { sum, sum_cents, expected_cents })
    }
}

/// A renegotiated charge as the table's cells; a dash for no description.
fn charge_row(charge: &RenegotiatedCharge) -> Vec<String> {
    let description = charge.description.as_deref().map(str::trim).filter(|d| !d.is_empty()).unwrap_or("—");
    vec![
        charge.charge_id.clone(),
        description.to_owned(),
        format_date_br(charge.due_date),
        format_brl(charge.balance_cents),
    ]
}

/// Installment `number` of `count` as the table's cells: `3 de 12`, its due date and amount.
fn installment_row(number: usize, count: usize, payment: &TermPayment) -> Vec<String> {
    vec![format!("{number} de {count}"), format_date_br(payment.due_date), format_brl(payment.amount_cents)]
}

/// How late a payment breaks the agreement: unpaid past its due date, or for more than the
/// grace days after it.
fn late(grace_days: i64) -> String {
    match grace_days {
        ..=0 => "não for paga até o seu vencimento".to_owned(),
        1 => "ficar em aberto por mais de 1 dia após o seu vencimento".to_owned(),
        n => format!("ficar em aberto por mais de {n} dias após o seu vencimento"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grace_days_read_in_portuguese() {
        assert_eq!(late(0), "não for paga até o seu vencimento");
        assert_eq!(late(1), "ficar em aberto por mais de 1 dia após o seu vencimento");
        assert_eq!(late(30), "ficar em aberto por mais de 30 dias após o seu vencimento");
    }
}
