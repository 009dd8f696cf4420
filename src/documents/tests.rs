//! The documents as a reader gets them: rendered, then read back with poppler's `pdftotext`
//! (Debian's poppler-utils), so accents, amounts and dates are checked in the extracted text.

use std::io::Write;
use std::process::{Command, Stdio};

use time::macros::date;

use super::layout::{BODY_BOTTOM, FOOTER_BASELINE, MARGIN_X, MAX_PAGES, Op, PAGE_HEIGHT, PAGE_WIDTH, Page};
use super::{
    AgreementSum, AgreementTerm, DocumentError, Party, RenegotiatedCharge, SettlementLetter, Statement,
    StatementLine, TermPayment, agreement_term, settlement, settlement_letter, statement,
};

/// The text of a PDF as `pdftotext` extracts it, pages separated by form feeds. Fails the test
/// loudly when the tool is missing or finds anything wrong with the file.
fn pdf_text(pdf: &[u8]) -> String {
    let mut child = Command::new("pdftotext")
        .args(["-enc", "UTF-8", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run pdftotext ({e}): the document tests read PDFs back with it; install \
                 poppler-utils (apt-get install -y poppler-utils)"
            )
        });
    let mut stdin = child.stdin.take().expect("pdftotext's stdin");
    let input = pdf.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("pdftotext ran");
    writer.join().expect("the writer thread").expect("the PDF was written to pdftotext");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && stderr.is_empty(), "pdftotext: {} {stderr}", output.status);
    String::from_utf8(output.stdout).expect("pdftotext writes UTF-8")
}

/// How many pages `pdftotext` found (it ends each with a form feed).
fn page_count(text: &str) -> usize {
    text.matches('\u{c}').count()
}

fn creditor() -> Party {
    Party {
        name: "Cobranças Exemplo Ltda".into(),
        document: "11222333000181".into(),
        address: Some(vec!["Rua das Flores, 100, sala 12".into(), "Centro, São Paulo/SP, 01001-000".into()]),
    }
}

fn debtor() -> Party {
    Party {
        name: "João Conceição".into(),
        document: "52998224725".into(),
        address: Some(vec!["Avenida Brasil, 2000".into(), "Jardim Paulista, São Paulo/SP".into()]),
    }
}

fn overdue_line() -> StatementLine {
    StatementLine {
        charge_id: "chg_0192f1c2a3b47c8d9e0f1a2b3c4d5e6f".into(),
        description: Some("Mensalidade de outubro".into()),
        due_date: date!(2026 - 10 - 05),
        amount_cents: 125_000,
        paid_cents: 0,
        status: "vencida".into(),
        days_overdue: 15,
    }
}

fn paid_line() -> StatementLine {
    StatementLine {
        charge_id: "chg_0192e0b1a3b47c8d9e0f1a2b3c4d5e6f".into(),
        description: None,
        due_date: date!(2026 - 09 - 05),
        amount_cents: 99_90,
        paid_cents: 99_90,
        status: "paga".into(),
        days_overdue: 0,
    }
}

fn sample_statement() -> Statement {
    Statement {
        creditor: creditor(),
        debtor: debtor(),
        issued_on: date!(2026 - 10 - 20),
        lines: vec![overdue_line(), paid_line()],
    }
}

fn sample_letter() -> SettlementLetter {
    SettlementLetter {
        creditor: creditor(),
        debtor: debtor(),
        issued_on: date!(2026 - 10 - 21),
        charge_id: "chg_0192f1c2a3b47c8d9e0f1a2b3c4d5e6f".into(),
        description: Some("Mensalidade de outubro".into()),
        due_date: date!(2026 - 10 - 05),
        amount_cents: 125_000,
        paid_cents: 125_000,
        paid_on: date!(2026 - 10 - 20),
    }
}

/// Every piece of text lies within the page's margins, and all but the footer above it.
fn assert_within_margins(pages: &[Page]) {
    for (number, page) in pages.iter().enumerate() {
        for op in &page.ops {
            if let Op::Text { x, y, style, text, .. } = op {
                let right = x + style.font.width(text, style.size);
                let shown: String = text.iter().collect();
                assert!(*x >= MARGIN_X - 0.01, "page {number}: {shown:?} starts at {x}");
                assert!(right <= PAGE_WIDTH - MARGIN_X + 0.01, "page {number}: {shown:?} ends at {right}");
                let in_body = *y >= BODY_BOTTOM && *y < PAGE_HEIGHT;
                assert!(in_body || *y == FOOTER_BASELINE, "page {number}: {shown:?} at height {y}");
            }
        }
    }
}

#[test]
fn the_statement_reads_back_with_accents_amounts_and_dates() {
    let text = pdf_text(&statement(&sample_statement()).unwrap());
    for expected in [
        "Extrato de débitos",
        "João Conceição",
        "529.982.247-25",
        "Cobranças Exemplo Ltda",
        "11.222.333/0001-81",
        "Centro, São Paulo/SP, 01001-000",
        "R$ 1.250,00",
        "R$ 99,90",
        "05/10/2026",
        "Emitido em 20/10/2026",
        "Mensalidade de outubro",
        "chg_0192f1c2a3b47c8d9e0f1a2b3c4d5e6f",
        "vencida",
        "15 dias",
        "Situação",
        "Página 1 de 1",
    ] {
        assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
    }
    assert_eq!(page_count(&text), 1, "{text}");
}

#[test]
fn latin_greek_and_cyrillic_names_read_back_intact() {
    let name = "Łukasz Żółć Ørsted Ðorđe Σωκράτης Пётр";
    let debtor = Party { name: name.into(), ..debtor() };
    let mut data = Statement { debtor: debtor.clone(), ..sample_statement() };
    data.lines[0].description = Some("Аренда за октябрь · Ενοίκιο Οκτωβρίου".into());
    let text = pdf_text(&statement(&data).unwrap());
    for expected in [name, "Аренда за октябрь", "Ενοίκιο Οκτωβρίου", "Extrato de débitos"]
    {
        assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
    }
    assert!(!text.contains('?') && !text.contains('\u{FFFD}'), "{text}");
    let letter = SettlementLetter { debtor: debtor.clone(), ..sample_letter() };
    assert!(pdf_text(&settlement_letter(&letter).unwrap()).contains(name));
    let term = AgreementTerm { debtor, ..sample_term() };
    assert!(pdf_text(&agreement_term(&term).unwrap()).contains(name));
}

#[test]
fn the_statement_totals_what_is_owed_and_overdue() {
    let mut data = sample_statement();
    // A partly paid charge not yet due: open but not overdue.
    data.lines.push(StatementLine {
        charge_id: "chg_3".into(),
        description: None,
        due_date: date!(2026 - 11 - 05),
        amount_cents: 50_000,
        paid_cents: 20_000,
        status: "a vencer".into(),
        days_overdue: 0,
    });
    let text = pdf_text(&statement(&data).unwrap());
    // 1250 + 99.90 + 500 charged; 99.90 + 200 paid; 1250 + 300 open; 1250 overdue.
    for expected in ["R$ 1.849,90", "R$ 299,90", "R$ 1.550,00", "Saldo vencido"] {
        assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
    }
}

#[test]
fn the_settlement_letter_reads_back_with_accents_amounts_and_dates() {
    let text = pdf_text(&settlement_letter(&sample_letter()).unwrap());
    for expected in [
        "Carta de quitação",
        "João Conceição",
        "inscrito(a) no CPF sob o nº 529.982.247-25",
        "11.222.333/0001-81",
        "R$ 1.250,00",
        "05/10/2026",
        "20/10/2026",
        "Emitida em 21/10/2026",
        "irrevogável quitação",
        "chg_0192f1c2a3b47c8d9e0f1a2b3c4d5e6f",
        "Página 1 de 1",
    ] {
        assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
    }
}

#[test]
fn a_letter_for_a_charge_not_paid_in_full_is_refused() {
    let letter = SettlementLetter { paid_cents: 124_999, ..sample_letter() };
    assert_eq!(
        settlement_letter(&letter),
        Err(DocumentError::NotFullyPaid { amount_cents: 125_000, paid_cents: 124_999 })
    );
    // Paying more than the amount still settles it.
    assert!(settlement_letter(&SettlementLetter { paid_cents: 130_000, ..sample_letter() }).is_ok());
}

#[test]
fn the_same_data_gives_the_same_bytes_and_other_data_other_bytes() {
    let first = statement(&sample_statement()).unwrap();
    assert_eq!(first, statement(&sample_statement()).unwrap());
    let mut changed = sample_statement();
    changed.lines[0].amount_cents += 1;
    assert_ne!(first, statement(&changed).unwrap());

    let letter = settlement_letter(&sample_letter()).unwrap();
    assert_eq!(letter, settlement_letter(&sample_letter()).unwrap());
    let later = SettlementLetter { issued_on: date!(2026 - 10 - 22), ..sample_letter() };
    assert_ne!(letter, settlement_letter(&later).unwrap());

    // Nothing of the moment of rendering is in the file: its dates are the document's own.
    let raw = String::from_utf8_lossy(&first);
    // The fonts are embedded, as subsets named by their glyphs.
    assert_eq!(raw.matches("/FontFile2").count(), 2, "{raw}");
    assert!(raw.contains("+DejaVuSans-Bold") && raw.contains("+DejaVuSans"), "{raw}");
    assert!(raw.contains("/CreationDate (D:20261020"), "{raw}");
    assert!(!raw.contains("ModDate"), "{raw}");
}

#[test]
fn two_hundred_lines_flow_onto_several_pages() {
    let lines: Vec<StatementLine> = (0..200)
        .map(|i| StatementLine {
            charge_id: format!("chg_{i:032}"),
            description: Some(format!("Parcela {} de 200", i + 1)),
            amount_cents: 125_000,
            ..overdue_line()
        })
        .collect();
    let data = Statement { lines, ..sample_statement() };
    let pages = super::statement::layout(&data).unwrap();
    assert!(pages.len() >= 4, "{} pages", pages.len());
    assert_within_margins(&pages);

    let text = pdf_text(&statement(&data).unwrap());
    assert_eq!(page_count(&text), pages.len());
    assert!(text.contains(&format!("Página {0} de {0}", pages.len())), "{text}");
    for i in [0, 99, 199] {
        assert!(text.contains(&format!("chg_{i:032}")), "line {i} missing");
    }
    // The total of 200 charges of R$ 1.250,00, and the header repeated on every page.
    assert!(text.contains("R$ 250.000,00"), "{text}");
    assert_eq!(text.matches("Vencimento").count(), pages.len(), "{text}");
}

#[test]
fn a_long_description_wraps_inside_its_column() {
    let spaced = "Renegociação de débitos anteriores ".repeat(15);
    let unspaced = "x".repeat(500);
    for description in [&spaced[..500], &unspaced[..]] {
        let mut data = sample_statement();
        data.lines[0].description = Some(description.to_owned());
        data.debtor.name = format!("João Conceição {}", "da Silva ".repeat(30));
        assert_within_margins(&super::statement::layout(&data).unwrap());
        let text = pdf_text(&statement(&data).unwrap());
        assert!(text.contains("R$ 1.250,00") && text.contains("05/10/2026"), "{text}");

        let letter = SettlementLetter { description: Some(description.to_owned()), ..sample_letter() };
        assert_within_margins(&settlement::layout(&letter).unwrap());
        let text = pdf_text(&settlement_letter(&letter).unwrap());
        assert!(text.contains("R$ 1.250,00") && text.contains("João Conceição"), "{text}");
    }
}

#[test]
fn a_row_taller_than_a_page_is_split_between_pages() {
    let mut data = sample_statement();
    data.lines[0].description = Some("linha\n".repeat(150));
    let pages = super::statement::layout(&data).unwrap();
    assert!(pages.len() >= 2, "{} pages", pages.len());
    assert_within_margins(&pages);
    let text = pdf_text(&statement(&data).unwrap());
    assert_eq!(text.matches("linha").count(), 150);
}

#[test]
fn an_empty_statement_says_so() {
    let data = Statement { lines: Vec::new(), ..sample_statement() };
    let text = pdf_text(&statement(&data).unwrap());
    assert!(text.contains("Nenhuma cobrança"), "{text}");
    assert!(text.contains("R$ 0,00"), "{text}");
}

#[test]
fn odd_input_renders_without_panicking() {
    let odd = Party {
        name: "\u{0}\t😀 Łukasz Erdős \u{202e}\u{200b}\r\n".into(),
        document: String::new(),
        address: Some(vec![String::new(), "\n\n\n".into()]),
    };
    let data = Statement {
        creditor: odd.clone(),
        debtor: Party { document: "123".into(), address: None, ..odd.clone() },
        issued_on: time::Date::MIN,
        lines: vec![StatementLine {
            charge_id: String::new(),
            description: Some(" ".into()),
            due_date: time::Date::MAX,
            amount_cents: -5_50,
            paid_cents: i64::MAX / 2,
            status: String::new(),
            days_overdue: i64::MAX,
        }],
    };
    let text = pdf_text(&statement(&data).unwrap());
    // Saved before unprintable text was refused: the emoji prints as the replacement mark.
    assert!(text.contains("\u{FFFD} Łukasz Erdős"), "{text}");
    let letter = SettlementLetter {
        creditor: odd.clone(),
        debtor: odd,
        issued_on: time::Date::MAX,
        amount_cents: i64::MIN,
        paid_cents: i64::MIN,
        ..sample_letter()
    };
    pdf_text(&settlement_letter(&letter).unwrap());
}

#[test]
fn totals_that_overflow_are_an_error() {
    let huge = StatementLine { amount_cents: i64::MAX, ..overdue_line() };
    let data = Statement { lines: vec![huge.clone(), huge], ..sample_statement() };
    assert_eq!(statement(&data), Err(DocumentError::AmountOverflow));
    let negative = StatementLine { amount_cents: i64::MIN, paid_cents: 1, ..overdue_line() };
    let data = Statement { lines: vec![negative], ..sample_statement() };
    assert_eq!(statement(&data), Err(DocumentError::AmountOverflow));
}

#[test]
fn a_document_stops_at_the_page_limit() {
    let mut data = sample_statement();
    data.lines[0].description = Some("linha\n".repeat(MAX_PAGES * 80));
    assert_eq!(statement(&data), Err(DocumentError::TooManyPages { max: MAX_PAGES }));
}

/// Two charges (R$ 1.250,00 and R$ 750,00) with a fine of R$ 40,00 and interest of R$ 10,00,
/// less R$ 150,00: R$ 1.900,00, as R$ 400,00 down and three installments.
fn sample_term() -> AgreementTerm {
    AgreementTerm {
        creditor: creditor(),
        debtor: debtor(),
        issued_on: date!(2026 - 10 - 20),
        agreement_id: "agr_0192f3d4a3b47c8d9e0f1a2b3c4d5e6f".into(),
        renegotiated: vec![
            RenegotiatedCharge {
                charge_id: "chg_0192f1c2a3b47c8d9e0f1a2b3c4d5e6f".into(),
                description: Some("Mensalidade de outubro".into()),
                due_date: date!(2026 - 10 - 05),
                balance_cents: 125_000,
            },
            RenegotiatedCharge {
                charge_id: "chg_0192e0b1a3b47c8d9e0f1a2b3c4d5e6f".into(),
                description: None,
                due_date: date!(2026 - 09 - 05),
                balance_cents: 75_000,
            },
        ],
        original_cents: 200_000,
        fine_cents: 4_000,
        interest_cents: 1_000,
        discount_cents: 15_000,
        total_cents: 190_000,
        fine_waived: false,
        interest_waived: false,
        down_payment: Some(TermPayment { amount_cents: 40_000, due_date: date!(2026 - 10 - 21) }),
        installments: vec![
            TermPayment { amount_cents: 49_999, due_date: date!(2026 - 11 - 05) },
            TermPayment { amount_cents: 49_999, due_date: date!(2026 - 12 - 07) },
            TermPayment { amount_cents: 50_002, due_date: date!(2027 - 01 - 05) },
        ],
        grace_days_before_broken: 30,
    }
}

#[test]
fn the_agreement_term_reads_back_with_accents_amounts_and_dates() {
    let pages = super::agreement_term::layout(&sample_term()).unwrap();
    assert_within_margins(&pages);
    let text = pdf_text(&agreement_term(&sample_term()).unwrap());
    for expected in [
        "Termo de Acordo",
        "Acordo agr_0192f3d4a3b47c8d9e0f1a2b3c4d5e6f · celebrado em 20/10/2026",
        "João Conceição",
        "529.982.247-25",
        "Cobranças Exemplo Ltda",
        "11.222.333/0001-81",
        "Confissão de dívida",
        "confessa",
        "Cobranças renegociadas",
        "chg_0192f1c2a3b47c8d9e0f1a2b3c4d5e6f",
        "chg_0192e0b1a3b47c8d9e0f1a2b3c4d5e6f",
        "Mensalidade de outubro",
        "R$ 1.250,00",
        "05/10/2026",
        "R$ 750,00",
        "05/09/2026",
        "Valor original",
        "R$ 2.000,00",
        "R$ 40,00",
        "R$ 10,00",
        "R$ 150,00",
        "Total do acordo",
        "R$ 1.900,00",
        "R$ 400,00, com vencimento em 21/10/2026",
        "3, que somam R$ 1.500,00",
        "1 de 3",
        "2 de 3",
        "3 de 3",
        "R$ 499,99",
        "R$ 500,02",
        "05/11/2026",
        "07/12/2026",
        "05/01/2027",
        "Quebra do acordo",
        "mais de 30 dias",
        "Credor(a)",
        "Devedor(a)",
    ] {
        assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
    }
    assert!(!text.contains("dispensad"), "{text}");
    assert!(text.contains(&format!("Página {0} de {0}", pages.len())), "{text}");
    assert_eq!(page_count(&text), pages.len());
    // The debtor signs below the creditor.
    let creditor_signs = text.rfind("Credor(a)").unwrap();
    assert!(creditor_signs < text.rfind("Devedor(a)").unwrap(), "{text}");
}

#[test]
fn a_waived_fine_and_interest_read_as_waived() {
    let term = AgreementTerm {
        fine_cents: 0,
        interest_cents: 0,
        fine_waived: true,
        interest_waived: true,
        total_cents: 185_000,
        down_payment: Some(TermPayment { amount_cents: 35_000, due_date: date!(2026 - 10 - 21) }),
        ..sample_term()
    };
    let text = pdf_text(&agreement_term(&term).unwrap());
    for expected in ["dispensada", "dispensados", "R$ 1.850,00", "R$ 350,00"] {
        assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
    }
    // A waived fine is not charged, whatever amount comes with it: the total must leave it out.
    let counted = AgreementTerm { fine_cents: 4_000, ..term.clone() };
    assert!(agreement_term(&counted).is_ok());
    let included = AgreementTerm { total_cents: 189_000, ..counted };
    assert_eq!(
        agreement_term(&included),
        Err(DocumentError::AgreementMismatch {
            sum: AgreementSum::Breakdown,
            sum_cents: 185_000,
            expected_cents: 189_000,
        })
    );
}

#[test]
fn a_term_without_a_down_payment_or_grace_days_says_so() {
    let term = AgreementTerm {
        down_payment: None,
        installments: vec![TermPayment { amount_cents: 190_000, due_date: date!(2026 - 11 - 05) }],
        grace_days_before_broken: 0,
        agreement_id: " ".into(),
        ..sample_term()
    };
    let text = pdf_text(&agreement_term(&term).unwrap());
    for expected in ["Celebrado em 20/10/2026", "1, no valor de R$ 1.900,00", "1 de 1", "Se qualquer parcela"]
    {
        assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
    }
    assert!(!text.contains("Entrada") && !text.contains("Acordo  "), "{text}");
}

#[test]
fn the_same_term_gives_the_same_bytes_and_another_other_bytes() {
    let first = agreement_term(&sample_term()).unwrap();
    assert_eq!(first, agreement_term(&sample_term()).unwrap());
    // A centavo moved from one installment to another: still consistent, another file.
    let mut changed = sample_term();
    changed.installments[0].amount_cents += 1;
    changed.installments[1].amount_cents -= 1;
    assert_ne!(first, agreement_term(&changed).unwrap());
    let later = AgreementTerm { issued_on: date!(2026 - 10 - 22), ..sample_term() };
    assert_ne!(first, agreement_term(&later).unwrap());

    let raw = String::from_utf8_lossy(&first);
    assert!(raw.contains("/CreationDate (D:20261020"), "{raw}");
    assert!(!raw.contains("ModDate"), "{raw}");
}

#[test]
fn sixty_installments_and_fifty_charges_flow_onto_several_pages() {
    let renegotiated: Vec<RenegotiatedCharge> = (0..50)
        .map(|i| RenegotiatedCharge {
            charge_id: format!("chg_{i:032}"),
            description: Some(format!("Mensalidade {} de 50, com uma descrição um pouco mais longa", i + 1)),
            due_date: date!(2026 - 10 - 05),
            balance_cents: 10_000,
        })
        .collect();
    // R$ 5.000,00 in 60: 59 of R$ 83,33 and a last one of R$ 83,53.
    let installments: Vec<TermPayment> = (0..60)
        .map(|i| TermPayment {
            amount_cents: if i == 59 { 8_353 } else { 8_333 },
            due_date: date!(2026 - 11 - 05) + time::Duration::days(30 * i),
        })
        .collect();
    let term = AgreementTerm {
        renegotiated,
        original_cents: 500_000,
        fine_cents: 0,
        interest_cents: 0,
        discount_cents: 0,
        total_cents: 500_000,
        down_payment: None,
        installments,
        ..sample_term()
    };
    let pages = super::agreement_term::layout(&term).unwrap();
    assert!(pages.len() >= 3, "{} pages", pages.len());
    assert_within_margins(&pages);

    let text = pdf_text(&agreement_term(&term).unwrap());
    assert_eq!(page_count(&text), pages.len());
    assert!(text.contains(&format!("Página {0} de {0}", pages.len())), "{text}");
    for i in [0, 24, 49] {
        assert!(text.contains(&format!("chg_{i:032}")), "charge {i} missing");
    }
    for n in [1, 30, 60] {
        assert!(text.contains(&format!("{n} de 60")), "installment {n} missing");
    }
    assert_eq!(text.matches("R$ 83,33").count(), 59, "{text}");
    assert!(text.contains("R$ 83,53") && text.contains("R$ 5.000,00"), "{text}");
    // Both signatures on the last page, together.
    let last = text.split('\u{c}').rfind(|page| !page.trim().is_empty()).unwrap();
    assert!(last.contains("Credor(a)") && last.contains("Devedor(a)"), "{last}");
}

#[test]
fn a_term_whose_amounts_do_not_add_up_is_refused() {
    let mismatch = |sum, sum_cents, expected_cents| {
        Err(DocumentError::AgreementMismatch { sum, sum_cents, expected_cents })
    };
    // The installments and down payment a centavo over the total.
    let mut term = sample_term();
    term.installments[2].amount_cents += 1;
    assert_eq!(agreement_term(&term), mismatch(AgreementSum::Schedule, 190_001, 190_000));
    // No down payment, and the installments alone short of the total.
    let term = AgreementTerm { down_payment: None, ..sample_term() };
    assert_eq!(agreement_term(&term), mismatch(AgreementSum::Schedule, 150_000, 190_000));
    // A discount the total does not reflect.
    let term = AgreementTerm { discount_cents: 10_000, ..sample_term() };
    assert_eq!(agreement_term(&term), mismatch(AgreementSum::Breakdown, 195_000, 190_000));
    // Balances that are not the original amount.
    let mut term = sample_term();
    term.renegotiated[1].balance_cents = 70_000;
    assert_eq!(agreement_term(&term), mismatch(AgreementSum::Balances, 195_000, 200_000));
}

#[test]
fn a_term_that_would_not_be_honest_is_refused() {
    let invalid = |term: AgreementTerm| match agreement_term(&term) {
        Err(DocumentError::InvalidAgreement(reason)) => reason,
        other => panic!("{other:?}"),
    };
    assert_eq!(invalid(AgreementTerm { installments: Vec::new(), ..sample_term() }), "lists no installment");
    assert_eq!(
        invalid(AgreementTerm { renegotiated: Vec::new(), ..sample_term() }),
        "lists no renegotiated charge"
    );
    assert_eq!(invalid(AgreementTerm { discount_cents: -1, ..sample_term() }), "has a negative amount");
    let mut term = sample_term();
    term.installments[0].amount_cents = 0;
    term.installments[1].amount_cents += 49_999;
    assert_eq!(invalid(term), "has a down payment or installment of zero or less");
    assert_eq!(
        invalid(AgreementTerm { grace_days_before_broken: -1, ..sample_term() }),
        "has negative grace days"
    );

    let mut huge = sample_term();
    huge.renegotiated[0].balance_cents = i64::MAX;
    assert_eq!(agreement_term(&huge), Err(DocumentError::AmountOverflow));
    let mut huge = sample_term();
    huge.installments[0].amount_cents = i64::MAX;
    assert_eq!(agreement_term(&huge), Err(DocumentError::AmountOverflow));
}

#[test]
fn an_odd_term_renders_without_panicking() {
    let odd = Party {
        name: "\u{0}\t😀 Łukasz Erdős \u{202e}\u{200b}\r\n".into(),
        document: String::new(),
        address: Some(vec![String::new(), "\n\n\n".into()]),
    };
    let mut term = AgreementTerm {
        creditor: odd.clone(),
        debtor: Party { document: "123".into(), ..odd },
        issued_on: time::Date::MIN,
        agreement_id: "x".repeat(300),
        grace_days_before_broken: i64::MAX,
        ..sample_term()
    };
    term.renegotiated[0].charge_id = String::new();
    term.renegotiated[0].description = Some("linha\n".repeat(150));
    term.renegotiated[1].due_date = time::Date::MAX;
    let pages = super::agreement_term::layout(&term).unwrap();
    assert_within_margins(&pages);
    let text = pdf_text(&agreement_term(&term).unwrap());
    assert!(text.contains("\u{FFFD} Łukasz Erdős") && text.contains("R$ 1.900,00"), "{text}");
}
