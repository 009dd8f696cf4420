//! The PDF documents: rendering a debtor's statement (2 and 200 charges) and a settlement
//! letter, and the size of each file, printed before the timings.
//!
//! `cargo bench --bench documents`

use kobana_dunning::documents::{self, Party, SettlementLetter, Statement, StatementLine};
use time::macros::date;

fn party(name: &str, document: &str) -> Party {
    Party {
        name: name.into(),
        document: document.into(),
        address: Some(vec!["Rua das Flores, 100, sala 12".into(), "Centro, São Paulo/SP, 01001-000".into()]),
    }
}

fn statement(lines: usize) -> Statement {
    Statement {
        creditor: party("Cobranças Exemplo Ltda", "11222333000181"),
        debtor: party("João Conceição", "52998224725"),
        issued_on: date!(2026 - 10 - 20),
        lines: (0..lines)
            .map(|i| StatementLine {
                charge_id: format!("chg_{i:032}"),
                description: Some(format!("Mensalidade {} de {lines}", i + 1)),
                due_date: date!(2026 - 10 - 05),
                amount_cents: 125_000,
                paid_cents: if i % 3 == 0 { 125_000 } else { 0 },
                status: if i % 3 == 0 { "paga" } else { "vencida" }.into(),
                days_overdue: if i % 3 == 0 { 0 } else { 15 },
            })
            .collect(),
    }
}

fn letter() -> SettlementLetter {
    SettlementLetter {
        creditor: party("Cobranças Exemplo Ltda", "11222333000181"),
        debtor: party("João Conceição", "52998224725"),
        issued_on: date!(2026 - 10 - 21),
        charge_id: "chg_0192f1c2a3b47c8d9e0f1a2b3c4d5e6f".into(),
        description: Some("Mensalidade de outubro".into()),
        due_date: date!(2026 - 10 - 05),
        amount_cents: 125_000,
        paid_cents: 125_000,
        paid_on: date!(2026 - 10 - 20),
    }
}

#[divan::bench(args = [2, 200])]
fn statement_pdf(bencher: divan::Bencher, lines: usize) {
    let data = statement(lines);
    bencher.bench(|| documents::statement(divan::black_box(&data)).unwrap());
}

#[divan::bench]
fn settlement_letter_pdf(bencher: divan::Bencher) {
    let data = letter();
    bencher.bench(|| documents::settlement_letter(divan::black_box(&data)).unwrap());
}

fn main() {
    for lines in [2, 200] {
        let bytes = documents::statement(&statement(lines)).unwrap().len();
        println!("statement of {lines} charges: {bytes} bytes");
    }
    println!("settlement letter: {} bytes", documents::settlement_letter(&letter()).unwrap().len());
    divan::main();
}
