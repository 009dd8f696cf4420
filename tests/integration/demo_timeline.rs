//! The demo organization shows a debt in each settling state (an agreement running with its down
//! payment paid, one broken, a charge reported to a credit bureau, a protest served, a charge
//! awaiting a decision that the daily briefing names), and sixty days of engine passes on its
//! calendar move them on: an agreement completes, another breaks and its charge returns to the
//! régua, a sandbox report goes from requested to reported and, once paid, to removed.

use kobana_dunning::domain::dates::Zone;
use kobana_dunning::engine::run_once;
use serde_json::{Value, json};
use time::macros::time;
use time::{Date, Duration, OffsetDateTime};

use crate::common::{ALL, TestServer, date_in};

fn today() -> Date {
    Zone::default_zone().today(OffsetDateTime::now_utc())
}

async fn demo(server: &TestServer) -> String {
    let org = kobana_dunning::demo::ensure(&server.app.store).await.expect("demo organization");
    server.token(&org, ALL).await
}

fn list(r: &crate::common::Resp) -> Vec<Value> {
    assert_eq!(r.status, 200, "{}", r.body);
    r.data().as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_has_a_debt_in_each_settling_state() {
    let server = TestServer::start().await;
    let token = demo(&server).await;

    let active = list(&server.read(&token, "agreements_list", "status=active").await);
    assert_eq!(active.len(), 1, "{active:?}");
    let installments =
        server.read_id(&token, "agreements_installments", active[0]["id"].as_str().unwrap()).await;
    let installments = list(&installments);
    assert_eq!(
        (installments[0]["number"].as_i64(), installments[0]["status"].as_str()),
        (Some(0), Some("paid"))
    );
    assert!(installments[1..].iter().all(|i| i["status"] == "pending"), "{installments:?}");
    // Each installment is a charge of its own origin; the charge renegotiated is not.
    let first = server.read_id(&token, "charges_get", installments[1]["charge_id"].as_str().unwrap()).await;
    assert_eq!(
        (first.data()["origin"].as_str(), first.data()["agreement_id"].as_str()),
        (Some("agreement"), active[0]["id"].as_str())
    );
    let source = server.read_id(&token, "charges_get", active[0]["charge_ids"][0].as_str().unwrap()).await;
    assert_eq!(
        (source.data()["origin"].as_str(), source.data()["status"].as_str()),
        (Some("direct"), Some("in_agreement"))
    );

    let broken = list(&server.read(&token, "agreements_list", "status=broken").await);
    assert_eq!(broken.len(), 1, "{broken:?}");
    let source = server.read_id(&token, "charges_get", broken[0]["charge_ids"][0].as_str().unwrap()).await;
    assert_eq!(
        (source.data()["status"].as_str(), source.data()["dunning_status"].as_str()),
        (Some("overdue"), Some("active"))
    );

    let reported = list(&server.read(&token, "credit_bureau_reports_list", "status=reported").await);
    assert_eq!(reported.len(), 1, "{reported:?}");
    let charge = server.read_id(&token, "charges_get", reported[0]["charge_id"].as_str().unwrap()).await;
    assert_eq!(charge.data()["credit_bureau_status"], "reported");
    let letter = server
        .read_id(&token, "notifications_get", reported[0]["notice_notification_id"].as_str().unwrap())
        .await;
    assert_eq!(
        (letter.data()["channel"].as_str(), letter.data()["status"].as_str()),
        (Some("letter"), Some("sent"))
    );

    let intimated = list(&server.read(&token, "protests_list", "status=intimated").await);
    assert_eq!(intimated.len(), 1, "{intimated:?}");

    // The briefing names the charges awaiting a decision.
    let awaiting = list(&server.read(&token, "charges_list", "dunning_status=awaiting_decision").await);
    assert!(!awaiting.is_empty());
    // Each names the escalation step that stopped it and what that step proposes.
    for charge in &awaiting {
        let step = charge["current_step_id"].as_str().unwrap_or_else(|| panic!("a step: {charge}"));
        let proposal = &charge["pending_decision"];
        assert_eq!(proposal["step_id"], step, "{charge}");
        assert!(
            matches!(proposal["action"].as_str(), Some("request_decision" | "credit_bureau" | "protest")),
            "{charge}"
        );
    }
    let r =
        server.mcp_2026(&token, "prompts/get", json!({ "name": "dunning_daily_briefing" }), json!({})).await;
    let text = r.result()["messages"][0]["content"]["text"].as_str().unwrap_or_default().to_string();
    assert!(
        text.contains("awaiting_decision") && text.contains(awaiting[0]["id"].as_str().unwrap()),
        "{}",
        r.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_days_on_the_demo_calendar() {
    let server = TestServer::start().await;
    let token = demo(&server).await;
    let start = today();

    // The running agreement: its debtor pays every installment now.
    let active = list(&server.read(&token, "agreements_list", "status=active").await);
    let completing = active[0]["id"].as_str().unwrap().to_string();
    for i in list(&server.read_id(&token, "agreements_installments", &completing).await) {
        if i["status"] != "paid" {
            let r =
                server.write_id(&token, "charges_settle", i["charge_id"].as_str().unwrap(), json!({})).await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
    }

    // Two open overdue charges of debtors with an address, outside every agreement and escalation:
    // one renegotiated into an agreement nobody pays, one reported after its letter.
    let mut picked = Vec::new();
    for c in list(
        &server
            .read(&token, "charges_list", "status=overdue&sort_by=due_date&sort_order=asc&per_page=100")
            .await,
    ) {
        let debtor = server.read_id(&token, "debtors_get", c["debtor_id"].as_str().unwrap()).await;
        let free = c["credit_bureau_status"].is_null()
            && c["protest_status"].is_null()
            && c["agreement_id"].is_null();
        let taken = picked.iter().any(|p: &Value| p["debtor_id"] == c["debtor_id"]);
        if free && !taken && !debtor.data()["address"].is_null() && c["dunning_status"] != "awaiting_decision"
        {
            picked.push(c);
        }
    }
    assert!(picked.len() >= 2, "{picked:?}");
    let (unpaid, reported) =
        (picked[0]["id"].as_str().unwrap().to_string(), picked[1]["id"].as_str().unwrap().to_string());
    let terms = json!({ "charge_ids": [unpaid], "installments_count": 2, "first_due_date": date_in(5) });
    let r = server.write(&token, "agreements_create", terms).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let breaking = r.data()["id"].as_str().unwrap().to_string();
    let r = server.write_id(&token, "charges_notify", &reported, json!({ "channel": "letter" })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = server.write(&token, "credit_bureau_reports_create", json!({ "charge_id": reported })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let report = r.data()["id"].as_str().unwrap().to_string();

    let mut seen = vec!["requested".to_string()];
    for day in 1..=60 {
        let noon = (start + Duration::days(day)).with_time(time!(15:00)).assume_utc();
        run_once(&server.app.store, &server.app.providers, noon).await.expect("pass");
        let r = server.read_id(&token, "credit_bureau_reports_get", &report).await;
        let status = r.data()["status"].as_str().unwrap().to_string();
        if seen.last() != Some(&status) {
            seen.push(status.clone());
        }
        // Once included, the debtor pays: the removal is asked and then done.
        if status == "reported" {
            let r = server.write_id(&token, "charges_settle", &reported, json!({})).await;
            assert_eq!(r.status, 200, "{}", r.body);
            seen.push(
                server.read_id(&token, "credit_bureau_reports_get", &report).await.data()["status"]
                    .as_str()
                    .unwrap()
                    .into(),
            );
        }
    }
    assert_eq!(seen, ["requested", "notice_sent", "reported", "removal_requested", "removed"]);

    let r = server.read_id(&token, "agreements_get", &completing).await;
    assert_eq!(r.data()["status"], "completed", "{}", r.body);
    for id in r.data()["charge_ids"].as_array().unwrap() {
        let c = server.read_id(&token, "charges_get", id.as_str().unwrap()).await;
        assert_eq!(c.data()["status"], "paid", "{}", c.body);
    }
    let r = server.read_id(&token, "agreements_get", &breaking).await;
    assert_eq!(r.data()["status"], "broken", "{}", r.body);
    let c = server.read_id(&token, "charges_get", &unpaid).await;
    assert_eq!(
        (c.data()["status"].as_str(), c.data()["dunning_status"].as_str()),
        (Some("overdue"), Some("active")),
        "{}",
        c.body
    );

    // The demo's served protest was drawn: nobody paid at the notary.
    let protested = list(&server.read(&token, "protests_list", "status=protested").await);
    assert_eq!(protested.len(), 1, "{protested:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_charges_carry_pix_codes_and_its_messages_show_them() {
    use kobana_dunning::domain::pix::BrCode;
    let server = TestServer::start().await;
    let token = demo(&server).await;
    let me = server.read(&token, "me", "").await;
    assert_eq!(me.data()["organization"]["pix"]["key_type"], "cnpj", "{}", me.body);

    let open = list(&server.read(&token, "charges_list", "status=pending,overdue&per_page=100").await);
    assert!(!open.is_empty());
    for charge in &open {
        let code = BrCode::parse(charge["pix"]["emv"].as_str().unwrap_or_default()).expect("a BR Code");
        assert_eq!(code.amount_cents, Some((charge["balance"].as_f64().unwrap() * 100.0).round() as i64));
    }
    // The régua's own messages in the demo history carry codes too.
    let sms = list(&server.read(&token, "notifications_list", "channel=sms&per_page=100").await);
    assert!(!sms.is_empty());
    let first = server.read_id(&token, "notifications_get", sms[0]["id"].as_str().unwrap()).await;
    let body = first.data()["body"].as_str().unwrap();
    let emv = &body[body.find("000201").expect("a Pix code in the message")..];
    BrCode::parse(emv.trim()).expect("the message's code reads back");
}
