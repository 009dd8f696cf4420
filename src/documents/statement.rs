//! The debtor's statement (extrato de débitos): the parties, a table of every charge with
//! what it was, what was paid and what is still open, and the totals owed and overdue.

use super::layout::{Align, Column, Layout, Page, Style};
use super::pdf::{self, Metadata};
use super::sections::header;
use super::{DocumentError, Statement, StatementLine};
use crate::domain::dates::format_date_br;
use crate::domain::money::format_brl;

const TITLE: &str = "Extrato de débitos";

/// The charges table: the charge (description over its id), then dates, status and amounts.
/// The weights are points of the 482 available: a charge id (36 characters) fits its column
/// whole, and an amount up to `R$ 999.999,99` fits on one line.
const COLUMNS: [Column; 7] = [
    Column { header: "Cobrança", weight: 175.0, align: Align::Left },
    Column { header: "Vencimento", weight: 54.0, align: Align::Left },
    Column { header: "Situação", weight: 42.0, align: Align::Left },
    Column { header: "Atraso", weight: 34.0, align: Align::Right },
    Column { header: "Valor", weight: 59.0, align: Align::Right },
    Column { header: "Pago", weight: 59.0, align: Align::Right },
    Column { header: "Em aberto", weight: 59.0, align: Align::Right },
];

/// The statement as a PDF file.
pub fn render(statement: &Statement) -> Result<Vec<u8>, DocumentError> {
    let pages = layout(statement)?;
    let title = format!("{TITLE} — {}", statement.debtor.name);
    let metadata =
        Metadata { title: &title, author: &statement.creditor.name, created_on: statement.issued_on };
    pdf::write(&pages, &metadata)
}

/// The statement's pages.
pub fn layout(statement: &Statement) -> Result<Vec<Page>, DocumentError> {
    let totals = Totals::of(&statement.lines)?;
    let mut layout = Layout::new();
    let issued = format!("Emitido em {}", format_date_br(statement.issued_on));
    header(&mut layout, TITLE, &issued, &statement.creditor, &statement.debtor);

    layout.heading("Cobranças");
    if statement.lines.is_empty() {
        layout.paragraph("Nenhuma cobrança em aberto ou paga para este devedor na data de emissão.");
    } else {
        let rows = statement.lines.iter().map(row).collect::<Result<Vec<_>, _>>()?;
        layout.table(&COLUMNS, &rows);
    }

    layout.heading("Resumo");
    let count = statement.lines.len().to_string();
    layout.fields(&[
        ("Cobranças", count.as_str()),
        ("Valor total", &format_brl(totals.amount)),
        ("Total pago", &format_brl(totals.paid)),
        ("Saldo em aberto", &format_brl(totals.open)),
        ("Saldo vencido", &format_brl(totals.overdue)),
    ]);
    layout.gap(6.0);
    layout.text(
        "Valores em reais na data de emissão. O saldo vencido é a parte do saldo em aberto cujo \
         vencimento já passou; pagamentos feitos depois da emissão não constam deste extrato.",
        Style::SMALL,
        Align::Left,
    );
    layout.finish(&format!("{TITLE} · {}", statement.debtor.name))
}

/// The sums over the statement's lines, in centavos.
#[derive(Debug, Default, PartialEq, Eq)]
struct Totals {
    amount: i64,
    paid: i64,
    /// What is still owed: each line's amount less what was paid, never below zero.
    open: i64,
    /// The part of `open` already past its due date.
    overdue: i64,
}

impl Totals {
    fn of(lines: &[StatementLine]) -> Result<Totals, DocumentError> {
        let mut totals = Totals::default();
        for line in lines {
            let open = open_cents(line)?;
            totals.amount = add(totals.amount, line.amount_cents)?;
            totals.paid = add(totals.paid, line.paid_cents)?;
            totals.open = add(totals.open, open)?;
            if line.days_overdue > 0 {
                totals.overdue = add(totals.overdue, open)?;
            }
        }
        Ok(totals)
    }
}

fn add(a: i64, b: i64) -> Result<i64, DocumentError> {
    a.checked_add(b).ok_or(DocumentError::AmountOverflow)
}

/// What is still owed on a line: its amount less what was paid, never below zero.
fn open_cents(line: &StatementLine) -> Result<i64, DocumentError> {
    let open = line.amount_cents.checked_sub(line.paid_cents).ok_or(DocumentError::AmountOverflow)?;
    Ok(open.max(0))
}

/// A line as the table's cells.
fn row(line: &StatementLine) -> Result<Vec<String>, DocumentError> {
    let charge = match line.description.as_deref().map(str::trim) {
        Some(description) if !description.is_empty() => format!("{description}\n{}", line.charge_id),
        _ => line.charge_id.clone(),
    };
    Ok(vec![
        charge,
        format_date_br(line.due_date),
        line.status.clone(),
        days(line.days_overdue),
        format_brl(line.amount_cents),
        format_brl(line.paid_cents),
        format_brl(open_cents(line)?),
    ])
}

/// Days overdue as they read: `1 dia`, `12 dias`, a dash when not overdue.
fn days(days: i64) -> String {
    match days {
        ..=0 => "—".to_owned(),
        1 => "1 dia".to_owned(),
        n => format!("{n} dias"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_read_in_portuguese() {
        assert_eq!(days(0), "—");
        assert_eq!(days(-3), "—");
        assert_eq!(days(1), "1 dia");
        assert_eq!(days(45), "45 dias");
    }
}
