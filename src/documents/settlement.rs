//! The settlement letter (carta de quitação): the creditor declares that the debtor paid one
//! charge in full and that nothing more is owed on it.

use super::layout::{Layout, Page};
use super::pdf::{self, Metadata};
use super::sections::{header, registration, signature};
use super::{DocumentError, SettlementLetter};
use crate::domain::dates::format_date_br;
use crate::domain::money::format_brl;

const TITLE: &str = "Carta de quitação";

/// The letter as a PDF file.
pub fn render(letter: &SettlementLetter) -> Result<Vec<u8>, DocumentError> {
    let pages = layout(letter)?;
    let title = format!("{TITLE} — {}", letter.debtor.name);
    let metadata = Metadata { title: &title, author: &letter.creditor.name, created_on: letter.issued_on };
    pdf::write(&pages, &metadata)
}

/// The letter's pages; an error when the charge is not paid in full, since the letter would
/// declare what is not so.
pub fn layout(letter: &SettlementLetter) -> Result<Vec<Page>, DocumentError> {
    if letter.paid_cents < letter.amount_cents {
        return Err(DocumentError::NotFullyPaid {
            amount_cents: letter.amount_cents,
            paid_cents: letter.paid_cents,
        });
    }
    let mut layout = Layout::new();
    let issued = format!("Emitida em {}", format_date_br(letter.issued_on));
    header(&mut layout, TITLE, &issued, &letter.creditor, &letter.debtor);

    layout.heading("Declaração");
    layout.paragraph(&format!(
        "{creditor}{creditor_registration}, declara, para os devidos fins, que {debtor}\
         {debtor_registration} pagou integralmente o débito descrito abaixo, e dá a ele plena, geral \
         e irrevogável quitação, nada mais havendo a reclamar a esse título.",
        creditor = letter.creditor.name.trim(),
        creditor_registration = registration(&letter.creditor),
        debtor = letter.debtor.name.trim(),
        debtor_registration = registration(&letter.debtor),
    ));

    layout.heading("Débito quitado");
    let due = format_date_br(letter.due_date);
    let amount = format_brl(letter.amount_cents);
    let paid = format_brl(letter.paid_cents);
    let paid_on = format_date_br(letter.paid_on);
    let mut fields = vec![("Cobrança", letter.charge_id.as_str())];
    if let Some(description) = letter.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        fields.push(("Descrição", description));
    }
    fields.extend([
        ("Vencimento", due.as_str()),
        ("Valor original", amount.as_str()),
        ("Valor pago", paid.as_str()),
        ("Data do pagamento", paid_on.as_str()),
    ]);
    layout.fields(&fields);
    layout.gap(6.0);
    layout.paragraph(
        "Esta quitação se refere exclusivamente ao débito acima e não alcança outras obrigações que \
         porventura existam entre as partes.",
    );

    signature(&mut layout, &letter.creditor, None);
    layout.finish(&format!("{TITLE} · {}", letter.debtor.name))
}
