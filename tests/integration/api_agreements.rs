//! Agreements (acordos) over REST and MCP: a simulation shows what the charges are worth today,
//! what the terms take off, and installments that sum to the centavo on business days; it
//! changes nothing, and refuses charges that are closed, of another debtor or of another
//! organization, naming them.

use kobana_dunning::domain::calendar::is_business_day;
use kobana_dunning::domain::dates::parse_date;
use serde_json::{Value, json};

use crate::common::{TestServer, cpf, date_in};

/// A debtor with a charge of R$ 1.000,00 thirty days overdue and one of R$ 500,00 due ahead.
async fn debtor_with_charges(server: &TestServer, token: &str, seed: u32) -> (String, String, String) {
    let debtor = server.create_debtor(token, "João Conceição", &cpf(seed)).await;
    let debtor = debtor["id"].as_str().unwrap().to_string();
    let late = server.create_charge(token, &debtor, 1000.0, &date_in(-30)).await;
    let ahead = server.create_charge(token, &debtor, 500.0, &date_in(20)).await;
    (debtor, late["id"].as_str().unwrap().to_string(), ahead["id"].as_str().unwrap().to_string())
}

fn cents(v: &Value) -> i64 {
    (v.as_f64().expect("a number") * 100.0).round() as i64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_simulation_works_out_the_debt_and_installments_to_the_centavo() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Acordos").await;
    let (debtor, late, ahead) = debtor_with_charges(&server, &token, 9301).await;
    let terms = json!({ "charge_ids": [late, ahead], "discount_percentage": 10, "interest_waived": true,
                        "down_payment_amount": 100, "installments_count": 7, "first_due_date": date_in(35) });
    let r = server.write(&token, "agreements_simulate", terms.clone()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let s = r.data();
    assert_eq!(s["debtor_id"], debtor.as_str());
    assert_eq!(cents(&s["original_amount"]), 150_000);
    // The late charge's 2 % fine, once; interest waived; the charge ahead adds nothing.
    assert_eq!(cents(&s["fine_amount"]), 2_000);
    assert_eq!(cents(&s["interest_amount"]), 0);
    assert_eq!(cents(&s["discount_amount"]), 15_200);
    assert_eq!(cents(&s["total_amount"]), 136_800);
    assert_eq!(cents(&s["down_payment_amount"]), 10_000);
    let installments = s["installments"].as_array().unwrap();
    assert_eq!(installments.len(), 7);
    let sum: i64 = installments.iter().map(|i| cents(&i["amount"])).sum();
    assert_eq!(sum + 10_000, 136_800, "the installments and the down payment make the total");
    for (n, i) in installments.iter().enumerate() {
        assert_eq!(i["number"], n + 1);
        let due = parse_date(i["due_date"].as_str().unwrap()).unwrap();
        assert!(is_business_day(due), "{i}");
    }

    // Nothing changed: the charges are as they were.
    let r = server.read_id(&token, "charges_get", &late).await;
    assert_eq!((r.data()["status"].as_str(), r.data()["version"].as_i64()), (Some("overdue"), Some(1)));

    // The same through MCP: a read, answered at once.
    let call = json!({ "name": "dunning_agreements_simulate", "arguments": terms });
    let r = server.mcp_2026(&token, "tools/call", call, json!({})).await;
    assert!(!r.is_tool_error(), "{}", r.body);
    assert_eq!(cents(&r.tool_json()["data"]["total_amount"]), 136_800);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_simulation_refuses_what_cannot_be_renegotiated_and_says_why() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Acordos").await;
    let (_, late, _) = debtor_with_charges(&server, &token, 9302).await;
    let (_, other_debtors, _) = debtor_with_charges(&server, &token, 9303).await;
    let (_, stranger) = server.tenant("Outra").await;
    let (_, strangers_charge, _) = debtor_with_charges(&server, &stranger, 9304).await;
    let simulate = |charge_ids: Value, extra: Value| {
        let mut body =
            json!({ "charge_ids": charge_ids, "installments_count": 3, "first_due_date": date_in(30) });
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        server.write(&token, "agreements_simulate", body)
    };

    let r = simulate(json!([late, other_debtors]), json!({})).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["fields"][0]["field"], "charge_ids");

    // Another organization's charge is no charge at all here.
    let r = simulate(json!([late, strangers_charge]), json!({})).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["fields"][0]["field"], "charge_ids.1");

    let r = simulate(json!([late]), json!({ "discount_amount": 10, "discount_percentage": 5 })).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    let r = simulate(json!([late]), json!({ "installments_count": 61 })).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    let r = simulate(json!([late]), json!({ "first_due_date": date_in(-1) })).await;
    assert_eq!(r.body["error"]["details"]["fields"][0]["field"], "first_due_date", "{}", r.body);
    let r = simulate(json!([late]), json!({ "discount_amount": 5000 })).await;
    assert_eq!(r.body["error"]["details"]["fields"][0]["field"], "discount", "{}", r.body);

    // A paid charge is not renegotiated.
    let r = server.write_id(&token, "charges_settle", &late, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = simulate(json!([late]), json!({})).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    assert!(r.body["error"]["message"].as_str().unwrap().contains(&late), "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agreement_turns_the_charges_into_installments_and_canceling_reopens_them() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Acordos").await;
    let (debtor, late, ahead) = debtor_with_charges(&server, &token, 9305).await;
    let terms = json!({ "charge_ids": [late, ahead], "discount_percentage": 10, "interest_waived": true,
                        "down_payment_amount": 100, "installments_count": 3, "first_due_date": date_in(35) });
    let key = [("Idempotency-Key", "acordo-1")];
    let r = server.call_with(&token, "agreements_create", &[], "", Some(terms.clone()), &key).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let agreement = r.data().clone();
    let id = agreement["id"].as_str().unwrap().to_string();
    assert!(id.starts_with("agr_"), "{id}");
    assert_eq!(agreement["status"], "awaiting_down_payment");
    assert_eq!(cents(&agreement["total_amount"]), 136_800);
    assert_eq!(r.header("etag"), Some("\"v1\""));
    // A retry with the key answers the same agreement; the same charges again are a conflict.
    let again = server.call_with(&token, "agreements_create", &[], "", Some(terms.clone()), &key).await;
    assert_eq!((again.status, again.header("idempotent-replayed")), (201, Some("true")));
    assert_eq!(again.data()["id"], id.as_str());
    let r = server.write(&token, "agreements_create", terms.clone()).await;
    assert_eq!((r.status, r.code()), (409, "CONFLICT"), "{}", r.body);

    // The charges renegotiated wait in the agreement, their régua closed.
    for charge in [&late, &ahead] {
        let r = server.read_id(&token, "charges_get", charge).await;
        assert_eq!(r.data()["status"], "in_agreement", "{}", r.body);
        assert_eq!(r.data()["dunning_status"], "closed");
        assert_eq!(r.data()["agreement_id"], id.as_str());
    }
    // The down payment and the installments are charges of the agreement.
    let r = server.read_id(&token, "agreements_installments", &id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let installments = r.data().as_array().unwrap().clone();
    let numbers: Vec<i64> = installments.iter().map(|i| i["number"].as_i64().unwrap()).collect();
    assert_eq!(numbers, [0, 1, 2, 3]);
    let sum: i64 = installments.iter().map(|i| cents(&i["amount"])).sum();
    assert_eq!(sum, 136_800);
    for i in &installments {
        let r = server.read_id(&token, "charges_get", i["charge_id"].as_str().unwrap()).await;
        assert_eq!(
            (r.data()["status"].as_str(), r.data()["agreement_id"].as_str()),
            (Some("pending"), Some(id.as_str()))
        );
        assert_eq!(cents(&r.data()["amount"]), cents(&i["amount"]));
    }
    let r = server.read(&token, "charges_list", &format!("debtor_id={debtor}")).await;
    assert_eq!(r.data().as_array().unwrap().len(), 6, "two renegotiated and four installments");
    // What the debtor owes is the installments, not the renegotiated charges besides.
    let r = server.read_id(&token, "debtors_get", &debtor).await;
    assert_eq!(
        r.data()["summary"],
        json!({ "open_amount": 1368.0, "overdue_amount": 0.0, "overdue_count": 0, "open_charges": 4 })
    );

    let r = server
        .read(&token, "agreements_list", &format!("debtor_id={debtor}&status=awaiting_down_payment"))
        .await;
    assert_eq!(r.data().as_array().unwrap().len(), 1, "{}", r.body);
    assert_eq!(r.body["meta"]["total"], 1);
    assert_eq!(r.body["meta"]["amount_sum"], json!(1368.0), "the agreements' totals: {}", r.body);
    let r = server.read(&token, "agreements_list", "status=active").await;
    assert_eq!(r.body["meta"]["total"], 0, "{}", r.body);
    assert_eq!(r.body["meta"]["amount_sum"], json!(0.0), "{}", r.body);

    // Canceling: the installments are canceled, the charges open again with their régua.
    let r = server.write_id(&token, "agreements_cancel", &id, json!({ "reason": "Desistiu." })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.data()["status"].as_str(), r.data()["cancellation_reason"].as_str()),
        (Some("canceled"), Some("Desistiu."))
    );
    let version = r.data()["version"].clone();
    for i in &installments {
        let r = server.read_id(&token, "charges_get", i["charge_id"].as_str().unwrap()).await;
        assert_eq!(r.data()["status"], "canceled", "{}", r.body);
    }
    for (charge, status) in [(&late, "overdue"), (&ahead, "pending")] {
        let r = server.read_id(&token, "charges_get", charge).await;
        assert_eq!(r.data()["status"], status, "{}", r.body);
        assert_eq!(
            (r.data()["dunning_status"].as_str(), r.data()["agreement_id"].as_str()),
            (Some("active"), None)
        );
    }
    let r = server.write_id(&token, "agreements_cancel", &id, json!({})).await;
    assert_eq!((r.status, r.data()["version"].clone()), (200, version), "canceling twice changes nothing");
    let r = server.read(&token, "events_list", &format!("resource_id={id}&sort_order=asc")).await;
    let codes: Vec<&str> = r.data().as_array().unwrap().iter().map(|e| e["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["agreement.created", "agreement.canceled"]);
}

/// Noon in São Paulo `days` from today, as the engine's instant.
fn noon_in(days: i64) -> time::OffsetDateTime {
    parse_date(&date_in(days)).unwrap().with_time(time::macros::time!(15:00)).assume_utc()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_activates_completes_and_breaks_agreements_as_their_installments_are_paid() {
    use kobana_dunning::engine::run_once;
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Acordos").await;
    let run = |days: i64| run_once(&server.app.store, &server.app.providers, noon_in(days));

    // One agreement paid in full: down payment, then both installments.
    let (_, late, ahead) = debtor_with_charges(&server, &token, 9306).await;
    let terms = json!({ "charge_ids": [late, ahead], "down_payment_amount": 100, "installments_count": 2,
                        "first_due_date": date_in(30), "grace_days_before_broken": 5 });
    let r = server.write(&token, "agreements_create", terms).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let paid_off = r.data()["id"].as_str().unwrap().to_string();
    let installments = server.read_id(&token, "agreements_installments", &paid_off).await;
    let charge_of = |n: usize| installments.data()[n]["charge_id"].as_str().unwrap().to_string();

    // One left unpaid: it breaks once an installment is late past its grace days.
    let (_, other_late, _) = debtor_with_charges(&server, &token, 9307).await;
    let terms = json!({ "charge_ids": [other_late], "installments_count": 2, "first_due_date": date_in(10),
                        "grace_days_before_broken": 5 });
    let r = server.write(&token, "agreements_create", terms).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let unpaid = r.data()["id"].as_str().unwrap().to_string();

    let report = run(0).await.unwrap();
    assert_eq!(
        (report.agreements_activated, report.agreements_completed, report.agreements_broken),
        (0, 0, 0)
    );

    let r = server.write_id(&token, "charges_settle", &charge_of(0), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let report = run(0).await.unwrap();
    assert_eq!(report.agreements_activated, 1, "{report:?}");
    let r = server.read_id(&token, "agreements_get", &paid_off).await;
    assert_eq!(r.data()["status"], "active", "{}", r.body);

    for n in [1, 2] {
        let r = server.write_id(&token, "charges_settle", &charge_of(n), json!({})).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // Ten days past the unpaid agreement's first installment, five of grace: it breaks too.
    let report = run(18).await.unwrap();
    assert_eq!((report.agreements_completed, report.agreements_broken), (1, 1), "{report:?}");

    let r = server.read_id(&token, "agreements_get", &paid_off).await;
    assert_eq!(r.data()["status"], "completed", "{}", r.body);
    assert!(r.data()["completed_at"].is_string());
    for charge in [&late, &ahead] {
        let r = server.read_id(&token, "charges_get", charge).await;
        assert_eq!(
            (r.data()["status"].as_str(), r.data()["dunning_status"].as_str()),
            (Some("paid"), Some("closed"))
        );
        assert_eq!(r.data()["balance"], 0.0, "{}", r.body);
    }

    let r = server.read_id(&token, "agreements_get", &unpaid).await;
    assert_eq!(r.data()["status"], "broken", "{}", r.body);
    let r = server.read_id(&token, "charges_get", &other_late).await;
    assert_eq!(
        (r.data()["status"].as_str(), r.data()["dunning_status"].as_str()),
        (Some("overdue"), Some("active"))
    );
    let r = server.read_id(&token, "agreements_installments", &unpaid).await;
    let statuses: Vec<&str> =
        r.data().as_array().unwrap().iter().map(|i| i["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["canceled", "canceled"], "no installment left to dun beside the reopened charge");

    // Nothing more to do.
    let report = run(18).await.unwrap();
    assert_eq!(
        (report.agreements_activated, report.agreements_completed, report.agreements_broken),
        (0, 0, 0)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_negotiation_prompt_brings_the_open_charges_and_a_simulation() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Acordos").await;
    let (debtor, late, ahead) = debtor_with_charges(&server, &token, 9308).await;
    let get = |arguments: Value| {
        server.mcp_2026(
            &token,
            "prompts/get",
            json!({ "name": "dunning_negotiate_agreement", "arguments": arguments }),
            json!({}),
        )
    };
    let r = get(json!({ "debtor_id": debtor, "max_installments": "6" })).await;
    let text = r.result()["messages"][0]["content"]["text"].as_str().unwrap_or_default().to_string();
    assert!(text.contains("6 installments") && text.contains("dunning_agreements_simulate"), "{}", r.body);
    for shown in [late.as_str(), ahead.as_str(), "João Conceição", "\"total_amount\""] {
        assert!(text.contains(shown), "{shown} in the prompt: {text}");
    }
    // Twelve by default; a count out of range is refused.
    let r = get(json!({ "debtor_id": debtor })).await;
    assert!(
        r.result()["messages"][0]["content"]["text"].as_str().unwrap().contains("12 installments"),
        "{}",
        r.body
    );
    let r = get(json!({ "debtor_id": debtor, "max_installments": "61" })).await;
    assert_eq!(r.body["error"]["code"], -32602, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_charge_reopened_by_a_broken_agreement_is_dunned_again_by_its_policy() {
    use kobana_dunning::engine::run_once;
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Acordo rompido").await;
    let policy = json!({ "name": "Régua", "steps": [ { "offset_days": 20, "channel": "email",
        "template": { "subject": "Em atraso", "body": "Olá {{debtor_name}}" } } ] });
    server.create_policy(&token, policy).await;
    let debtor =
        server.create_debtor_by_email(&token, "João Conceição", &cpf(9320), "joao@example.com.br").await;
    let charge = server.create_charge(&token, &debtor, 1000.0, &date_in(-3)).await;
    let charge = charge["id"].as_str().unwrap().to_string();
    let terms = json!({ "charge_ids": [charge], "installments_count": 1, "first_due_date": date_in(5),
                        "grace_days_before_broken": 2 });
    let r = server.write(&token, "agreements_create", terms).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let agreement = r.data()["id"].as_str().unwrap().to_string();
    let messages = || async {
        server.read(&token, "notifications_list", &format!("charge_id={charge}")).await.body["meta"]["total"]
            .as_u64()
            .unwrap()
    };

    let run = |days: i64| run_once(&server.app.store, &server.app.providers, noon_in(days));
    let report = run(14).await.unwrap();
    assert_eq!(report.agreements_broken, 1, "{report:?}");
    let r = server.read_id(&token, "agreements_get", &agreement).await;
    assert_eq!(r.data()["status"], "broken", "{}", r.body);
    assert_eq!(messages().await, 0);

    // The step twenty days after the charge's due date is still ahead: the reopened charge has
    // it as its next action, and the pass of its send day sends it, once.
    for day in 15..=26 {
        run(day).await.unwrap();
    }
    assert_eq!(messages().await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installment_is_paid_or_goes_with_its_agreement_never_changed_alone() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Acordos").await;
    let (_, late, _) = debtor_with_charges(&server, &token, 9309).await;
    let terms = json!({ "charge_ids": [late], "installments_count": 2, "first_due_date": date_in(30) });
    let r = server.write(&token, "agreements_create", terms).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.data()["id"].as_str().unwrap().to_string();
    let r = server.read_id(&token, "agreements_installments", &id).await;
    let installment = r.data()[0]["charge_id"].as_str().unwrap().to_string();

    for (op, body) in [
        ("charges_cancel", json!({})),
        ("charges_update", json!({ "amount": 1.0 })),
        ("charges_write_off", json!({ "reason": "x" })),
    ] {
        let r = server.write_id(&token, op, &installment, body).await;
        assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{op}: {}", r.body);
        assert!(r.body["error"]["message"].as_str().unwrap().contains(&id), "{op}: {}", r.body);
    }
    // Nor renegotiated into another agreement.
    let r = server
        .write(
            &token,
            "agreements_simulate",
            json!({ "charge_ids": [installment], "installments_count": 2, "first_due_date": date_in(40) }),
        )
        .await;
    assert_eq!(r.status, 200, "a simulation changes nothing: {}", r.body);
    let r = server
        .write(
            &token,
            "agreements_create",
            json!({ "charge_ids": [installment], "installments_count": 2, "first_due_date": date_in(40) }),
        )
        .await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    // Paying it is what it is for.
    let r = server.write_id(&token, "charges_settle", &installment, json!({})).await;
    assert_eq!((r.status, r.data()["status"].as_str()), (200, Some("paid")), "{}", r.body);
}
