//! Lists that answer what a model would otherwise compute from every row: `fields` cuts each
//! row to the names asked for, notifications count by channel and status, a debtor's summary
//! counts its overdue charges, charges filter by their credit-bureau and protest status, and
//! report and protest rows name their debtor and charge.

use kobana_dunning::operations::OPERATIONS;
use serde_json::{Value, json};

use crate::common::{Resp, TestServer, cpf, date_in, error_fields};

/// A tool's answer through a 2026-07-28 client, and the text it came as.
async fn tool_text(s: &TestServer, token: &str, name: &str, arguments: Value) -> (Value, String) {
    let r = s.mcp_2026(token, "tools/call", json!({ "name": name, "arguments": arguments }), json!({})).await;
    assert!(!r.is_tool_error(), "{}", r.body);
    let text = r.result()["content"][0]["text"].as_str().expect("one text item").to_string();
    (r.tool_json(), text)
}

/// The bytes each row of `data` takes in a tool's text (JSON indented by 2 spaces), read off
/// the text: a row sits two levels deep, from its line `    {` to its line `    }`.
fn row_bytes(answer: &Value, text: &str) -> Vec<usize> {
    let mut sizes = Vec::new();
    let mut current: Option<usize> = None;
    for line in text.lines() {
        if line == "    {" {
            current = Some(0);
        }
        if let Some(size) = current.as_mut() {
            *size += line.len() + 1;
        }
        if line.starts_with("    }") {
            sizes.extend(current.take());
        }
    }
    assert_eq!(sizes.len(), answer["data"].as_array().expect("rows").len(), "{text}");
    sizes
}

fn keys(row: &Value) -> Vec<&str> {
    row.as_object().expect("a row").keys().map(String::as_str).collect()
}

fn field_errors(r: &Resp) -> Vec<Value> {
    r.body["error"]["details"]["fields"].as_array().cloned().unwrap_or_default()
}

const ADDRESS: fn() -> Value = || {
    json!({ "zipcode": "01310100", "street": "Av. Paulista", "number": "1000", "neighborhood": "Bela Vista",
            "city": "São Paulo", "state": "SP" })
};

/// A debtor with an e-mail, a mobile and a full address: reachable on every channel,
/// reportable and protestable. Its id.
async fn reachable_debtor(s: &TestServer, token: &str, name: &str, seed: u32) -> String {
    let body = json!({ "name": name, "document": cpf(seed), "email": "pessoa@example.com",
                       "mobile": "+5511912345678", "address": ADDRESS() });
    let r = s.write(token, "debtors_create", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.data()["id"].as_str().unwrap().to_string()
}

async fn charge(
    s: &TestServer,
    token: &str,
    debtor: &str,
    amount: f64,
    due: &str,
    description: &str,
) -> String {
    let body = json!({ "debtor_id": debtor, "amount": amount, "due_date": due, "description": description });
    let r = s.write(token, "charges_create", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.data()["id"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fields_cut_each_row_to_the_names_asked_and_its_id_leaving_meta_whole() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Campos").await;
    let debtor = reachable_debtor(&s, &token, "Maria Souza", 7101).await;
    charge(&s, &token, &debtor, 120.5, &date_in(-4), "Mensalidade").await;
    charge(&s, &token, &debtor, 80.0, &date_in(6), "Mensalidade").await;

    let whole = s.read(&token, "charges_list", "").await;
    let r = s.read(&token, "charges_list", "fields=debtor_name,balance,due_date,status").await;
    assert_eq!(r.status, 200, "{}", r.body);
    for row in r.data().as_array().unwrap() {
        assert_eq!(keys(row), ["id", "debtor_name", "balance", "due_date", "status"], "{row}");
    }
    assert_eq!(r.body["meta"], whole.body["meta"], "meta is never cut");
    assert_eq!(r.body["meta"]["balance_sum"], 200.5);
    // Spaces after the commas and a repeated name change nothing; id alone is a row of ids.
    let r = s.read(&token, "charges_list", "fields=status,%20status").await;
    assert_eq!(keys(&r.data()[0]), ["id", "status"], "{}", r.body);
    let r = s.read(&token, "debtors_list", "fields=id").await;
    assert_eq!(r.data()[0], json!({ "id": debtor }));

    // A nested name is not a row field: the summary comes whole or not at all.
    let r = s.read(&token, "debtors_list", "fields=name,summary").await;
    assert_eq!(keys(&r.data()[0]), ["id", "name", "summary"], "{}", r.body);
    assert!(r.data()[0]["summary"]["open_amount"].is_number(), "{}", r.body);

    // Unknown names: each named, with the nearest and the names a row has.
    let r = s.read(&token, "charges_list", "fields=debtor_name,balanse,duedate").await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    let errors = field_errors(&r);
    assert_eq!(errors.len(), 2, "{}", r.body);
    assert!(errors.iter().all(|e| e["field"] == "fields"), "{}", r.body);
    assert!(errors[0]["message"].as_str().unwrap().starts_with("balanse is not a field"), "{}", r.body);
    assert_eq!(errors[0]["suggestion"], "balance");
    assert_eq!(errors[1]["suggestion"], "due_date");
    assert!(errors[0]["message"].as_str().unwrap().contains("protest_status"), "lists the row's names");
    let r = s.read(&token, "charges_list", "fields=").await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["fields".to_string()]), "{}", r.body);

    // Every list takes it, and checks its names against its own rows.
    let mut lists = 0;
    for op in OPERATIONS.iter().filter(|op| !op.row_fields.is_empty()) {
        lists += 1;
        assert!(op.row_fields.contains(&"id"), "{}: every row has an id", op.operation_id);
        let path: Vec<(&str, &str)> = op.path_params.iter().map(|p| (*p, "x_0")).collect();
        let r = s.call(&token, op.operation_id, &path, "fields=id,no_such_field", None).await;
        assert_eq!(
            (r.status, error_fields(&r)),
            (422, vec!["fields".to_string()]),
            "{}: {}",
            op.operation_id,
            r.body
        );
        if op.path_params.is_empty() {
            let r = s.call(&token, op.operation_id, &[], "fields=id", None).await;
            assert_eq!(r.status, 200, "{}: {}", op.operation_id, r.body);
            for row in r.data().as_array().unwrap() {
                assert_eq!(keys(row), ["id"], "{}: {row}", op.operation_id);
            }
        }
    }
    assert_eq!(lists, 14, "every list of the spec");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_fields_a_tool_list_row_stays_under_300_bytes() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Campos MCP").await;
    let debtor = reachable_debtor(&s, &token, "Padaria Pão Quente Ltda", 7102).await;
    for n in 0..3 {
        let id = charge(&s, &token, &debtor, 3480.9 + n as f64, &date_in(-17 - n), "Fornecimento de insumos")
            .await;
        for channel in ["email", "sms"] {
            let r =
                s.write(&token, "notifications_create", json!({ "charge_id": id, "channel": channel })).await;
            assert_eq!(r.status, 201, "{}", r.body);
        }
    }

    let (whole, text) = tool_text(&s, &token, "dunning_charges_list", json!({})).await;
    let full = row_bytes(&whole, &text);
    let (cut, text) = tool_text(
        &s,
        &token,
        "dunning_charges_list",
        json!({ "fields": "id,debtor_name,balance,due_date,status" }),
    )
    .await;
    let small = row_bytes(&cut, &text);
    assert_eq!(small.len(), 3);
    println!("charges_list row bytes in the tool text: whole {full:?}, with fields {small:?}");
    assert!(small.iter().all(|&n| n < 300), "{small:?}: {text}");
    assert!(full.iter().all(|&n| n > 1000), "the whole row is the big one: {full:?}");

    let (whole, text) = tool_text(&s, &token, "dunning_notifications_list", json!({})).await;
    let full = row_bytes(&whole, &text);
    let (cut, text) = tool_text(
        &s,
        &token,
        "dunning_notifications_list",
        json!({ "fields": "charge_id,channel,status,sent_at" }),
    )
    .await;
    let small = row_bytes(&cut, &text);
    assert_eq!(small.len(), 6);
    println!("notifications_list row bytes in the tool text: whole {full:?}, with fields {small:?}");
    assert!(small.iter().all(|&n| n < 300), "{small:?}: {text}");
    assert_eq!(keys(&cut["data"][0]), ["id", "charge_id", "channel", "status", "sent_at"]);

    // An unknown name is the tool's error, naming it.
    let r = s
        .mcp_2026(
            &token,
            "tools/call",
            json!({ "name": "dunning_notifications_list", "arguments": { "fields": "chanel" } }),
            json!({}),
        )
        .await;
    assert!(r.is_tool_error(), "{}", r.body);
    let answer = r.tool_json();
    assert_eq!(answer["error"]["details"]["fields"][0]["suggestion"], "channel", "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notification_meta_counts_by_channel_and_status_over_every_page() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Contagens").await;
    let debtor = reachable_debtor(&s, &token, "Maria Souza", 7103).await;
    let other = reachable_debtor(&s, &token, "João Conceição", 7104).await;
    let first = charge(&s, &token, &debtor, 75.0, &date_in(-3), "Plano anual").await;
    let second = charge(&s, &token, &other, 90.0, &date_in(-3), "Plano anual").await;
    let mut sent = Vec::new();
    for (charge, channel) in [(&first, "email"), (&first, "email"), (&first, "sms"), (&second, "email")] {
        let r =
            s.write(&token, "notifications_create", json!({ "charge_id": charge, "channel": channel })).await;
        assert_eq!(r.status, 201, "{}", r.body);
        sent.push(r.data()["id"].as_str().unwrap().to_string());
    }
    // One that failed at its provider.
    s.execute_sql("UPDATE notifications SET status = 'failed' WHERE id = $1", &[&sent[1]]).await;

    let r = s.read(&token, "notifications_list", "per_page=1").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data().as_array().unwrap().len(), 1, "one row on the page");
    assert_eq!(r.body["meta"]["total"], 4);
    assert_eq!(r.body["meta"]["by_channel"], json!({ "email": 3, "sms": 1 }), "every page counted");
    assert_eq!(r.body["meta"]["by_status"], json!({ "failed": 1, "sent": 3 }));

    // The counts are those of the filtered set.
    let r = s.read(&token, "notifications_list", &format!("charge_id={first}&channel=email")).await;
    assert_eq!(r.body["meta"]["total"], 2, "{}", r.body);
    assert_eq!(r.body["meta"]["by_channel"], json!({ "email": 2 }));
    assert_eq!(r.body["meta"]["by_status"], json!({ "failed": 1, "sent": 1 }));
    let r = s.read(&token, "notifications_list", &format!("debtor_id={other}&status=failed")).await;
    assert_eq!(
        r.body["meta"],
        json!({ "total": 0, "page": 1, "per_page": 25, "total_pages": 0,
                                       "by_channel": {}, "by_status": {} })
    );

    // The same through the tool, in one call.
    let (answer, _) = tool_text(&s, &token, "dunning_notifications_list", json!({ "fields": "id" })).await;
    assert_eq!(answer["meta"]["by_channel"], json!({ "email": 3, "sms": 1 }), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debtor_summary_counts_its_overdue_charges_as_the_charge_list_does() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Atrasos").await;
    let debtor = reachable_debtor(&s, &token, "Maria Souza", 7105).await;
    let other = reachable_debtor(&s, &token, "João Conceição", 7106).await;
    charge(&s, &token, &debtor, 100.5, &date_in(-10), "Parcela 1").await;
    let paid_in_part = charge(&s, &token, &debtor, 200.25, &date_in(-5), "Parcela 2").await;
    charge(&s, &token, &debtor, 999.0, &date_in(5), "Parcela 3").await;
    charge(&s, &token, &other, 50.0, &date_in(-5), "Outra").await;
    let r = s.write_id(&token, "charges_settle", &paid_in_part, json!({ "paid_amount": 50.0 })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["status"], "overdue", "{}", r.body);

    let summary = s.read_id(&token, "debtors_get", &debtor).await.data()["summary"].clone();
    assert_eq!(summary["overdue_count"], 2, "{summary}");
    assert_eq!(summary["overdue_amount"], 250.75, "{summary}");
    assert_eq!(summary["open_charges"], 3, "{summary}");

    let listed = s.read(&token, "charges_list", &format!("debtor_id={debtor}&status=overdue")).await;
    assert_eq!(summary["overdue_count"], listed.body["meta"]["total"], "{}", listed.body);
    assert_eq!(summary["overdue_amount"], listed.body["meta"]["balance_sum"], "{}", listed.body);

    // The list's row carries the same summary.
    let rows = s.read(&token, "debtors_list", "fields=summary&sort_by=overdue_amount").await;
    assert_eq!(rows.data()[0], json!({ "id": debtor, "summary": summary }), "{}", rows.body);
    assert_eq!(rows.data()[1]["summary"]["overdue_count"], 1, "{}", rows.body);
}

/// A charge with the prior written notice mailed, reported to the bureau; another protested.
async fn escalated(s: &TestServer, token: &str, debtor: &str) -> (String, String, String) {
    let reported = charge(s, token, debtor, 1250.0, &date_in(-40), "Contrato 17").await;
    let protested = charge(s, token, debtor, 800.0, &date_in(-35), "Contrato 18").await;
    let plain = charge(s, token, debtor, 60.0, &date_in(-35), "Contrato 19").await;
    let r = s.write_id(token, "charges_notify", &reported, json!({ "channel": "letter" })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = s.write(token, "credit_bureau_reports_create", json!({ "charge_id": reported })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let body = json!({ "charge_id": protested, "title_type": "DS", "document_number": "NF-2026-0042" });
    let r = s.write(token, "protests_create", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    (reported, protested, plain)
}

fn row_ids(r: &Resp) -> Vec<String> {
    r.data().as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn charges_filter_by_credit_bureau_and_protest_status() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Escaladas").await;
    let debtor = reachable_debtor(&s, &token, "Maria Souza", 7107).await;
    let (reported, protested, _plain) = escalated(&s, &token, &debtor).await;

    let r = s.read(&token, "charges_list", "credit_bureau_status=requested").await;
    assert_eq!(row_ids(&r), [reported.as_str()], "{}", r.body);
    assert_eq!(r.body["meta"]["total"], 1);
    assert_eq!(r.body["meta"]["balance_sum"], 1250.0);
    let r = s.read(&token, "charges_list", "credit_bureau_status=reported,removed").await;
    assert_eq!(r.body["meta"]["total"], 0, "{}", r.body);
    let r = s.read(&token, "charges_list", "protest_status=requested,sent&status=overdue").await;
    assert_eq!(row_ids(&r), [protested.as_str()], "{}", r.body);
    let r = s.read(&token, "charges_list", "protest_status=requested&credit_bureau_status=requested").await;
    assert_eq!(r.body["meta"]["total"], 0, "both filters hold at once: {}", r.body);
    let r = s.read(&token, "charges_list", "").await;
    assert_eq!(r.body["meta"]["total"], 3, "no filter, every charge");

    let r = s.read(&token, "charges_list", "credit_bureau_status=negativado").await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["credit_bureau_status".to_string()]), "{}", r.body);
    let r = s.read(&token, "charges_list", "protest_status=protestado").await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["protest_status".to_string()]), "{}", r.body);

    // Through the tool, as a model asks "which charges are at the bureau?".
    let (answer, _) = tool_text(
        &s,
        &token,
        "dunning_charges_list",
        json!({ "credit_bureau_status": "requested,notice_sent,reported", "fields": "description,balance" }),
    )
    .await;
    assert_eq!(answer["data"], json!([{ "id": reported, "description": "Contrato 17", "balance": 1250.0 }]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_and_protest_rows_name_their_debtor_and_charge() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Nomes").await;
    let debtor = reachable_debtor(&s, &token, "Maria Souza", 7108).await;
    let (reported, protested, _) = escalated(&s, &token, &debtor).await;

    let r = s.read(&token, "credit_bureau_reports_list", "").await;
    let row = &r.data()[0];
    assert_eq!(
        (&row["charge_id"], &row["debtor_name"], &row["charge_description"], &row["amount"]),
        (&json!(reported), &json!("Maria Souza"), &json!("Contrato 17"), &json!(1250.0)),
        "{row}"
    );
    let one = s.read_id(&token, "credit_bureau_reports_get", row["id"].as_str().unwrap()).await;
    assert_eq!(one.data()["debtor_name"], "Maria Souza");
    assert_eq!(one.data()["charge_description"], "Contrato 17");

    let r = s.read(&token, "protests_list", "fields=debtor_name,charge_description,amount").await;
    assert_eq!(r.data().as_array().unwrap().len(), 1, "{}", r.body);
    let row = &r.data()[0];
    assert_eq!(keys(row), ["id", "debtor_name", "charge_description", "amount"], "{row}");
    assert_eq!(
        (&row["debtor_name"], &row["charge_description"], &row["amount"]),
        (&json!("Maria Souza"), &json!("Contrato 18"), &json!(800.0))
    );
    let one = s.read_id(&token, "protests_get", row["id"].as_str().unwrap()).await;
    assert_eq!(one.data()["charge_id"], json!(protested));
    assert_eq!(one.data()["debtor_name"], "Maria Souza");

    // They are read as they are now: a renamed debtor is named anew, a charge without a
    // description says so with null.
    let r = s.write_id(&token, "debtors_update", &debtor, json!({ "name": "Maria Souza Lima" })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.write_id(&token, "charges_update", &reported, json!({ "description": null })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.read(&token, "credit_bureau_reports_list", &format!("charge_id={reported}")).await;
    assert_eq!(r.data()[0]["debtor_name"], "Maria Souza Lima", "{}", r.body);
    assert_eq!(r.data()[0]["charge_description"], Value::Null, "{}", r.body);
}
