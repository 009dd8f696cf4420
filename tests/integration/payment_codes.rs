//! A charge's boleto and Pix code: checked as the banks check them when given, kept in step with
//! the charge, and written into the messages that offer them.

use kobana_dunning::domain::boleto::Barcode;
use kobana_dunning::domain::dates::parse_date;
use kobana_dunning::domain::pix::static_code;
use serde_json::json;

use crate::common::{TestServer, cpf, date_in, error_fields};

fn id(v: &serde_json::Value) -> String {
    v["id"].as_str().expect("an id").to_string()
}

/// Banco do Brasil's boleto for R$ 1.250,00 due on `due`.
fn boleto(due: &str, cents: i64) -> Barcode {
    Barcode::issue("0019", cents, parse_date(due).unwrap(), "0000000000000000000000017").unwrap()
}

/// Replaces the digit at `at` of a line by the next one.
fn mistyped(line: &str, at: usize) -> String {
    line.char_indices()
        .map(|(i, c)| if i == at { char::from(b'0' + (c as u8 - b'0' + 1) % 10) } else { c })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_charge_takes_a_boleto_and_a_pix_code_checked_as_the_banks_check_them() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server
        .write(
            &token,
            "debtors_create",
            json!({ "name": "Paula Pagadora", "document": cpf(51), "email": "paula@example.com.br" }),
        )
        .await;
    let debtor = id(debtor.data());
    let due = date_in(12);
    let barcode = boleto(&due, 125_000);
    let pix = static_code("paula@example.com.br", "Org", "Sao Paulo", 125_000, "CHG0001");

    // A typo in the line and a Pix code for another amount: both said in one answer.
    let wrong_pix = static_code("paula@example.com.br", "Org", "Sao Paulo", 12_500, "CHG0001");
    let body = json!({ "debtor_id": debtor, "amount": 1250.00, "due_date": due,
                       "boleto": { "line": mistyped(&barcode.line(), 2) }, "pix": { "emv": wrong_pix } });
    let r = server.write(&token, "charges_create", body).await;
    assert_eq!(
        (r.status, error_fields(&r)),
        (422, vec!["boleto.line".to_string(), "pix.emv".to_string()]),
        "{}",
        r.body
    );
    assert!(r.body.to_string().contains("check digit"), "{}", r.body);
    // A boleto for another due date names it.
    let body = json!({ "debtor_id": debtor, "amount": 1250.00, "due_date": due,
                       "boleto": { "barcode": boleto(&date_in(13), 125_000).digits() } });
    let r = server.write(&token, "charges_create", body).await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["boleto.barcode".to_string()]), "{}", r.body);
    assert!(r.body.to_string().contains("due factor"), "{}", r.body);

    let body = json!({ "debtor_id": debtor, "amount": 1250.00, "due_date": due,
                       "boleto": { "line": barcode.line(), "url": "https://boletos.example.com.br/1.pdf" },
                       "pix": { "emv": pix } });
    let r = server.write(&token, "charges_create", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let charge = id(r.data());
    assert_eq!(r.data()["boleto"]["barcode"], barcode.digits());
    assert_eq!(r.data()["boleto"]["line"], barcode.line());
    assert_eq!(r.data()["pix"]["txid"], "CHG0001");

    // The message offers both.
    let template = json!({ "subject": "Pagamento", "body": "Linha: {{payment_line}}\nPix: {{pix_code}}" });
    let r = server
        .write_id(&token, "charges_notify", &charge, json!({ "channel": "email", "template": template }))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let notification = server.read_id(&token, "notifications_get", &id(r.data())).await;
    assert_eq!(
        notification.data()["body"],
        format!("Linha: {}\nPix: {pix}", barcode.line()),
        "{}",
        notification.body
    );

    // A new amount makes both stale: refused until new ones (or null) come with it.
    let r = server.write_id(&token, "charges_update", &charge, json!({ "amount": 1300.00 })).await;
    assert_eq!(
        (r.status, error_fields(&r)),
        (422, vec!["boleto".to_string(), "pix".to_string()]),
        "{}",
        r.body
    );
    let new_pix = static_code("paula@example.com.br", "Org", "Sao Paulo", 130_000, "CHG0002");
    let body = json!({ "amount": 1300.00, "boleto": null, "pix": { "emv": new_pix } });
    let r = server.write_id(&token, "charges_update", &charge, body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.data()["boleto"].clone(), r.data()["pix"]["txid"].clone()),
        (json!(null), json!("CHG0002"))
    );

    // Paid in part, the code for the whole amount is no longer offered.
    let r = server.write_id(&token, "charges_settle", &charge, json!({ "paid_amount": 300.00 })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // A message showing them would have holes: it is refused, saying which code is missing.
    let r = server
        .write_id(&token, "charges_notify", &charge, json!({ "channel": "email", "template": template }))
        .await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["status"], "missing_payment_line", "{}", r.body);
}
