//! /v1/charges over HTTP: every operation's success path, the events they write, lists, and
//! the guards of the charge state machine.

use kobana_dunning::domain::calendar::effective_due_date;
use kobana_dunning::domain::dates::parse_date;
use serde_json::{Value, json};

use crate::common::{TestServer, cnpj, cpf, date_in, error_fields, ids};

fn id(v: &Value) -> String {
    v["id"].as_str().expect("id").to_string()
}

/// The data of the one event with `code` written for an object.
async fn event_data(server: &TestServer, org: &str, id: &str, code: &str) -> Value {
    let events = server.app.store.events_of(org, id).await.expect("events");
    let matching: Vec<&Value> = events.iter().filter(|(c, _)| c == code).map(|(_, d)| d).collect();
    assert_eq!(matching.len(), 1, "exactly one {code} event for {id}: {events:?}");
    matching[0].clone()
}

async fn event_codes(server: &TestServer, org: &str, id: &str) -> Vec<String> {
    server.app.store.events_of(org, id).await.expect("events").into_iter().map(|(code, _)| code).collect()
}

/// Settles a charge fully and checks it is paid.
async fn pay(server: &TestServer, token: &str, charge: &str) -> Value {
    let r = server.write_id(token, "charges_settle", charge, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["status"], "paid");
    r.data().clone()
}

async fn cancel(server: &TestServer, token: &str, charge: &str) -> Value {
    let r = server.write_id(token, "charges_cancel", charge, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["status"], "canceled");
    r.data().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn charge_create_get_update() {
    let server = TestServer::start().await;
    let (org, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let due = date_in(15);

    let r = server
        .write(&token, "charges_create", json!({ "debtor_id": id(&debtor), "amount": 1250.0, "due_date": due, "description": "Mensalidade outubro", "external_id": "NF-871", "tags": ["mensalidade"], "metadata": {"contrato": "CT-1"} }))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v1\""));
    let c = r.data().clone();
    let cid = id(&c);
    assert!(cid.starts_with("chg_") && cid.len() == 36, "{cid}");
    assert_eq!(c["debtor_id"], debtor["id"]);
    assert_eq!(c["debtor_name"], "Maria Souza");
    assert_eq!(c["amount"], 1250.0);
    assert_eq!(c["paid_amount"], 0.0);
    assert_eq!(c["balance"], 1250.0);
    assert_eq!(c["currency"], "BRL");
    assert_eq!(c["issue_date"], date_in(0));
    assert_eq!(c["due_date"], due);
    assert_eq!(c["days_overdue"], 0);
    assert_eq!(c["status"], "pending");
    assert_eq!(c["dunning_status"], "not_started");
    assert_eq!(c["payment_method"], "boleto_pix");
    assert_eq!(c["fine_percentage"], 2.0);
    assert_eq!(c["interest_monthly_percentage"], 1.0);
    assert_eq!(c["version"], 1);
    let created = event_data(&server, &org, &cid, "charge.db.created").await;
    assert!(created.get("changes").is_some(), "{created}");
    assert_eq!(created["object"]["id"], cid.as_str());

    // The debtor's summary counts it.
    let r = server.read_id(&token, "debtors_get", &id(&debtor)).await;
    assert_eq!(
        r.data()["summary"],
        json!({"open_amount": 1250.0, "overdue_amount": 0.0, "overdue_count": 0, "open_charges": 1})
    );

    let r = server.read_id(&token, "charges_get", &cid).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v1\""));
    assert_eq!(r.data(), &c);

    let r = server
        .write_id(
            &token,
            "charges_update",
            &cid,
            json!({"amount": 1300.5, "description": null, "due_date": date_in(20)}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v2\""));
    assert_eq!(r.data()["amount"], 1300.5);
    assert_eq!(r.data()["balance"], 1300.5);
    assert_eq!(r.data()["description"], Value::Null);
    assert_eq!(r.data()["external_id"], "NF-871");
    assert_eq!(r.data()["due_date"], date_in(20));
    assert_eq!(r.data()["version"], 2);
    let updated = event_data(&server, &org, &cid, "charge.db.updated").await;
    assert_eq!(
        updated["changes"],
        json!({
            "description": ["Mensalidade outubro", null],
            "amount": [1250.0, 1300.5],
            "balance": [1250.0, 1300.5],
            "due_date": [due, date_in(20)],
        })
    );

    // The status follows the due date: due today is not overdue yet.
    let r = server.write_id(&token, "charges_update", &cid, json!({"due_date": date_in(0)})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["status"], "pending", "due today is not overdue yet");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_past_due_date_creates_an_overdue_charge() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;

    let c = server.create_charge(&token, &id(&debtor), 99.9, &date_in(-10)).await;
    assert_eq!(c["status"], "overdue", "{c}");
    // Counted from the effective due date: ten days ago may have been a weekend or a holiday
    // (on 30 November 2026 it was 20 November, a holiday: 7 days).
    let due = parse_date(&date_in(-10)).unwrap();
    let today = parse_date(&date_in(0)).unwrap();
    assert_eq!(c["days_overdue"], (today - effective_due_date(due)).whole_days(), "{c}");
    assert_eq!(c["due_date"], date_in(-10));

    // With an explicit issue date too.
    let r = server
        .write(&token, "charges_create", json!({"debtor_id": id(&debtor), "amount": 10.0, "due_date": date_in(-5), "issue_date": date_in(-40)}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["status"], "overdue");
    assert_eq!(r.data()["issue_date"], date_in(-40));

    // An issue date after the due date is refused.
    let r = server
        .write(&token, "charges_create", json!({"debtor_id": id(&debtor), "amount": 10.0, "due_date": date_in(-5), "issue_date": date_in(-1)}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["issue_date"]);

    // Moving a due date into the past makes a pending charge overdue.
    let r = server
        .write(&token, "charges_create", json!({"debtor_id": id(&debtor), "amount": 10.0, "due_date": date_in(5), "issue_date": date_in(-40)}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["status"], "pending");
    let r = server.write_id(&token, "charges_update", &id(r.data()), json!({"due_date": date_in(-5)})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["status"], "overdue");
    // Five days back: never a run of non-business days long enough to be due today.
    let due = parse_date(&date_in(-5)).unwrap();
    let today = parse_date(&date_in(0)).unwrap();
    assert_eq!(r.data()["days_overdue"], (today - effective_due_date(due)).whole_days());

    let r = server.read_id(&token, "debtors_get", &id(&debtor)).await;
    assert_eq!(
        r.data()["summary"],
        json!({"open_amount": 119.9, "overdue_amount": 119.9, "overdue_count": 3, "open_charges": 3})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settle_partially_then_fully() {
    let server = TestServer::start().await;
    let (org, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let c = server.create_charge(&token, &id(&debtor), 100.0, &date_in(-3)).await;
    let cid = id(&c);

    // More than the balance: refused, naming paid_amount; nothing changes.
    let r = server.write_id(&token, "charges_settle", &cid, json!({"paid_amount": 100.01})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "VALIDATION_ERROR");
    assert_eq!(error_fields(&r), ["paid_amount"]);

    let r = server
        .write_id(&token, "charges_settle", &cid, json!({"paid_amount": 30.5, "payment_method": "pix"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v2\""));
    let partial = r.data().clone();
    assert_eq!(partial["status"], "overdue");
    assert_eq!(partial["paid_amount"], 30.5);
    assert_eq!(partial["balance"], 69.5);
    assert_eq!(partial["paid_at"], Value::Null);
    assert_eq!(partial["payment_method"], "pix");

    // More than what is left: refused.
    let r = server.write_id(&token, "charges_settle", &cid, json!({"paid_amount": 69.51})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["paid_amount"]);

    // The rest, by default.
    let paid = pay(&server, &token, &cid).await;
    assert_eq!(paid["paid_amount"], 100.0);
    assert_eq!(paid["balance"], 0.0);
    assert_eq!(paid["days_overdue"], 0);
    assert_eq!(paid["dunning_status"], "closed");
    assert!(paid["paid_at"].is_string(), "{paid}");
    assert_eq!(paid["version"], 3);
    let event = event_data(&server, &org, &cid, "charge.paid").await;
    assert_eq!(event["changes"]["status"], json!(["overdue", "paid"]));
    assert_eq!(event["payment"]["amount"], 69.5);

    // Settling a paid charge is a no-op.
    let r = server.write_id(&token, "charges_settle", &cid, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v3\""));
    assert_eq!(r.data(), &paid);
    assert_eq!(
        event_codes(&server, &org, &cid).await,
        ["charge.db.created", "charge.db.updated", "charge.paid"]
    );

    let r = server.read_id(&token, "debtors_get", &id(&debtor)).await;
    assert_eq!(
        r.data()["summary"],
        json!({"open_amount": 0.0, "overdue_amount": 0.0, "overdue_count": 0, "open_charges": 0})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_and_cancel_again() {
    let server = TestServer::start().await;
    let (org, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let c = server.create_charge(&token, &id(&debtor), 80.0, &date_in(5)).await;
    let cid = id(&c);

    let r =
        server.write_id(&token, "charges_cancel", &cid, json!({"reason": "Emitida em duplicidade"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v2\""));
    let canceled = r.data().clone();
    assert_eq!(canceled["status"], "canceled");
    assert_eq!(canceled["dunning_status"], "closed");
    assert_eq!(canceled["cancellation_reason"], "Emitida em duplicidade");
    assert!(canceled["canceled_at"].is_string(), "{canceled}");
    let event = event_data(&server, &org, &cid, "charge.canceled").await;
    assert_eq!(event["changes"]["status"], json!(["pending", "canceled"]));

    // A second cancel: 200, nothing changes, no event.
    let r = server.write_id(&token, "charges_cancel", &cid, json!({"reason": "de novo"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v2\""));
    assert_eq!(r.data()["version"], 2);
    assert_eq!(r.data(), &canceled);
    assert_eq!(event_codes(&server, &org, &cid).await, ["charge.db.created", "charge.canceled"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_guards_refuse_actions_outside_the_allowed_statuses() {
    let server = TestServer::start().await;
    let (org, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let paid = id(&server.create_charge(&token, &id(&debtor), 50.0, &date_in(5)).await);
    pay(&server, &token, &paid).await;
    let canceled = id(&server.create_charge(&token, &id(&debtor), 60.0, &date_in(5)).await);
    cancel(&server, &token, &canceled).await;

    let invalid_state = |r: &crate::common::Resp, status: &str| {
        assert_eq!(r.status, 409, "{}", r.body);
        assert_eq!(r.code(), "INVALID_STATE", "{}", r.body);
        assert_eq!(r.body["error"]["details"]["status"], status, "{}", r.body);
        let allowed: Vec<&str> = r.body["error"]["details"]["allowed"]
            .as_array()
            .expect("allowed")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(allowed.contains(&"pending") && allowed.contains(&"overdue"), "{}", r.body);
        assert!(!allowed.contains(&status), "{}", r.body);
    };

    // Cancel a paid charge.
    let r = server.write_id(&token, "charges_cancel", &paid, json!({})).await;
    invalid_state(&r, "paid");
    // Settle a canceled one.
    let r = server.write_id(&token, "charges_settle", &canceled, json!({})).await;
    invalid_state(&r, "canceled");
    // Update a paid one, and a canceled one.
    let r = server.write_id(&token, "charges_update", &paid, json!({"amount": 70.0})).await;
    invalid_state(&r, "paid");
    assert_eq!(r.body["error"]["details"]["allowed"], json!(["pending", "overdue"]));
    let r = server.write_id(&token, "charges_update", &canceled, json!({"description": "x"})).await;
    invalid_state(&r, "canceled");

    // Nothing changed.
    for (cid, status) in [(&paid, "paid"), (&canceled, "canceled")] {
        let r = server.read_id(&token, "charges_get", cid).await;
        assert_eq!(r.data()["status"], status);
        assert_eq!(r.data()["version"], 2);
        assert_eq!(event_codes(&server, &org, cid).await.len(), 2);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archived_debtor_gets_no_new_charge() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let old = server.create_charge(&token, &id(&debtor), 10.0, &date_in(5)).await;
    let r = server.read_id(&token, "debtors_archive", &id(&debtor)).await;
    assert_eq!(r.status, 200, "{}", r.body);

    let r = server
        .write(
            &token,
            "charges_create",
            json!({"debtor_id": id(&debtor), "amount": 10.0, "due_date": date_in(5)}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.code(), "INVALID_STATE");
    assert_eq!(r.body["error"]["details"]["status"], "archived");
    assert_eq!(r.body["error"]["details"]["allowed"], json!(["active"]));

    // Its existing charges are untouched and listed.
    let r = server.read(&token, "charges_list", &format!("debtor_id={}", id(&debtor))).await;
    assert_eq!(ids(&r), [id(&old)]);
    assert_eq!(r.data()[0]["status"], "pending");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_consumer_fine_is_capped_at_two_percent() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let person = server.create_debtor(&token, "Maria Souza", &cpf(11)).await;
    let company = server.create_debtor(&token, "Mercado Central Ltda", &cnpj(12)).await;
    let body = |debtor: &Value, fine: f64| json!({"debtor_id": id(debtor), "amount": 100.0, "due_date": date_in(5), "fine_percentage": fine});

    let r = server.write(&token, "charges_create", body(&person, 3.0)).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "VALIDATION_ERROR");
    assert_eq!(error_fields(&r), ["fine_percentage"]);

    let r = server.write(&token, "charges_create", body(&person, 2.0)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["fine_percentage"], 2.0);

    // A company is not a consumer.
    let r = server.write(&token, "charges_create", body(&company, 3.0)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["fine_percentage"], 3.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_debtor_is_a_validation_error() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let r = server
        .write(&token, "charges_create", json!({"debtor_id": "dbt_0192f1b0e5d27a4c8b3e6f1a2d4c7e90", "amount": 10.0, "due_date": date_in(5)}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["debtor_id"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn charge_list_pagination_sorting_filters_and_search() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let joana = server.create_debtor(&token, "Joana Ribeiro", &cpf(21)).await;
    let pedro = server.create_debtor(&token, "Pedro Alves", &cpf(22)).await;

    let in30 = id(&server.create_charge(&token, &id(&joana), 30.0, &date_in(30)).await);
    let in10 = id(&server.create_charge(&token, &id(&joana), 10.0, &date_in(10)).await);
    let overdue = id(&server.create_charge(&token, &id(&pedro), 5.0, &date_in(-20)).await);
    let in20 = id(&server.create_charge(&token, &id(&pedro), 20.0, &date_in(20)).await);
    let paid = id(&server.create_charge(&token, &id(&pedro), 40.0, &date_in(40)).await);
    pay(&server, &token, &paid).await;
    let canceled = id(&server.create_charge(&token, &id(&joana), 50.0, &date_in(50)).await);
    cancel(&server, &token, &canceled).await;

    // Default order: newest first.
    let r = server.read(&token, "charges_list", "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        ids(&r),
        [canceled.as_str(), paid.as_str(), in20.as_str(), overdue.as_str(), in10.as_str(), in30.as_str()]
    );
    // The sums cover every charge listed: 155 charged, of which the paid one's 40 is paid.
    assert_eq!(
        r.body["meta"],
        json!({"total": 6, "page": 1, "per_page": 25, "total_pages": 1, "amount_sum": 155.0, "balance_sum": 115.0})
    );

    let r = server.read(&token, "charges_list", "sort_by=due_date&sort_order=asc").await;
    assert_eq!(
        ids(&r),
        [overdue.as_str(), in10.as_str(), in20.as_str(), in30.as_str(), paid.as_str(), canceled.as_str()]
    );
    let r = server.read(&token, "charges_list", "sort_by=amount&sort_order=desc&per_page=2&page=2").await;
    assert_eq!(ids(&r), [in30.as_str(), in20.as_str()]);
    assert_eq!(
        r.body["meta"],
        json!({"total": 6, "page": 2, "per_page": 2, "total_pages": 3, "amount_sum": 155.0, "balance_sum": 115.0})
    );

    // Bounds.
    let r = server.read(&token, "charges_list", "per_page=101").await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["per_page"]);
    let r = server.read(&token, "charges_list", "page=0").await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["page"]);
    let r = server.read(&token, "charges_list", "per_page=5&page=3").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data(), &json!([]));
    assert_eq!(
        r.body["meta"],
        json!({"total": 6, "page": 3, "per_page": 5, "total_pages": 2, "amount_sum": 155.0, "balance_sum": 115.0})
    );

    // CSV filters.
    let r =
        server.read(&token, "charges_list", "status=pending,overdue&sort_by=due_date&sort_order=asc").await;
    assert_eq!(ids(&r), [overdue.as_str(), in10.as_str(), in20.as_str(), in30.as_str()]);
    assert_eq!(r.body["meta"]["total"], 4);
    let r = server.read(&token, "charges_list", "status=overdue").await;
    assert_eq!(ids(&r), [overdue.as_str()]);
    let r = server.read(&token, "charges_list", "status=paid,canceled&sort_by=amount&sort_order=asc").await;
    assert_eq!(ids(&r), [paid.as_str(), canceled.as_str()]);
    let r = server.read(&token, "charges_list", "status=pending,unpaid").await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["status"]);
    let r = server.read(&token, "charges_list", "dunning_status=closed").await;
    assert_eq!(r.body["meta"]["total"], 2);
    let r = server
        .read(&token, "charges_list", &format!("debtor_id={},{}&status=pending", id(&joana), id(&pedro)))
        .await;
    assert_eq!(r.body["meta"]["total"], 3);
    let r = server
        .read(
            &token,
            "charges_list",
            &format!(
                "due_date_from={}&due_date_to={}&sort_by=due_date&sort_order=asc",
                date_in(10),
                date_in(30)
            ),
        )
        .await;
    assert_eq!(ids(&r), [in10.as_str(), in20.as_str(), in30.as_str()]);

    // q: the start of any word of the debtor's name, or of the document, any case.
    let r = server.read(&token, "charges_list", "q=joa&sort_by=amount&sort_order=asc").await;
    assert_eq!(ids(&r), [in10.as_str(), in30.as_str(), canceled.as_str()]);
    let r = server.read(&token, "charges_list", "q=Ribeiro&sort_by=amount&sort_order=asc").await;
    assert_eq!(ids(&r), [in10.as_str(), in30.as_str(), canceled.as_str()], "a later word: {}", r.body);
    let r = server.read(&token, "charges_list", "q=beiro").await;
    assert_eq!(r.body["meta"]["total"], 0, "not the middle of a word: {}", r.body);
    let doc = pedro["document"].as_str().unwrap();
    let r = server.read(&token, "charges_list", &format!("q={}&status=overdue,pending", &doc[..9])).await;
    let mut found = ids(&r);
    found.sort();
    let mut expected = vec![overdue.clone(), in20.clone()];
    expected.sort();
    assert_eq!(found, expected);
    let r = server.read(&token, "charges_list", &format!("q={}", &in10[..30])).await;
    assert_eq!(ids(&r), [in10.as_str()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn charge_amounts_are_validated() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    for amount in [json!(0), json!(-5), json!(100_000_000)] {
        let r = server
            .write(
                &token,
                "charges_create",
                json!({"debtor_id": id(&debtor), "amount": amount, "due_date": date_in(5)}),
            )
            .await;
        assert_eq!(r.status, 422, "{amount}: {}", r.body);
        assert_eq!(error_fields(&r), ["amount"], "{amount}: {}", r.body);
    }
    let c = server.create_charge(&token, &id(&debtor), 19.99, &date_in(5)).await;
    assert_eq!(c["amount"], 19.99);
    let r = server.write_id(&token, "charges_update", &id(&c), json!({"amount": 1.001})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["amount"]);
    let r = server.write_id(&token, "charges_update", &id(&c), json!({"due_date": "2026-02-30"})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["due_date"]);
    let r = server.read_id(&token, "charges_get", &id(&c)).await;
    assert_eq!(r.data()["version"], 1, "nothing changed");
}

/// `q` on charges reads the debtor's search keys copied onto each charge: a rename moves them
/// in the same transaction, a charge that matches on two keys counts once, and every page size
/// gives the same order (a long page gathers the matches from the search indexes, a short one
/// walks the sort order and tests each charge).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn charge_search_follows_the_debtor_and_counts_each_charge_once() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let ines = id(&server.create_debtor(&token, "Inês Vasconcelos", &cpf(31)).await);
    let bruno = id(&server.create_debtor(&token, "Bruno Lima", &cpf(32)).await);
    let charge = |debtor: &str, amount: f64, external: Option<&str>| {
        let mut body = json!({ "debtor_id": debtor, "amount": amount, "due_date": date_in(10) });
        if let Some(external) = external {
            body["external_id"] = json!(external);
        }
        let (server, token) = (&server, &token);
        async move {
            let r = server.write(token, "charges_create", body).await;
            assert_eq!(r.status, 201, "{}", r.body);
            id(r.data())
        }
    };
    let both = charge(&ines, 30.0, Some("INES-7")).await;
    let small = charge(&ines, 10.0, None).await;
    let large = charge(&ines, 50.0, None).await;
    let external = charge(&bruno, 20.0, Some("INES-8")).await;
    charge(&bruno, 40.0, None).await;

    let by_amount = [small.as_str(), external.as_str(), both.as_str(), large.as_str()];
    let r = server.read(&token, "charges_list", "q=ines&sort_by=amount&sort_order=asc&per_page=100").await;
    assert_eq!(ids(&r), by_amount, "{}", r.body);
    assert_eq!(r.body["meta"]["total"], 4, "the charge found by name and by external id counts once");
    for page in 1..=5 {
        let r = server
            .read(
                &token,
                "charges_list",
                &format!("q=ines&sort_by=amount&sort_order=asc&per_page=1&page={page}"),
            )
            .await;
        assert_eq!(r.body["meta"]["total"], 4, "{}", r.body);
        let expected: Vec<&str> = by_amount.iter().skip(page - 1).take(1).copied().collect();
        assert_eq!(ids(&r), expected, "page {page}");
    }
    let r =
        server.read(&token, "charges_list", "q=ines&sort_by=amount&sort_order=desc&per_page=2&page=2").await;
    assert_eq!(ids(&r), [external.as_str(), small.as_str()]);
    let r = server.read(&token, "charges_list", "q=ines&status=paid").await;
    assert_eq!(r.body["meta"]["total"], 0, "{}", r.body);

    // The debtor's new name finds its charges at once; the old one only the external ids.
    let r = server.write_id(&token, "debtors_update", &ines, json!({"name": "Beatriz Nunes"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = server.read(&token, "charges_list", "q=beatriz&sort_by=amount&sort_order=asc").await;
    assert_eq!(ids(&r), [small.as_str(), both.as_str(), large.as_str()]);
    let r = server.read(&token, "charges_list", "q=ines&sort_by=amount&sort_order=asc").await;
    assert_eq!(ids(&r), [external.as_str(), both.as_str()]);
    assert_eq!(r.body["meta"]["total"], 2);
    // The charges themselves did not change: same version.
    let r = server.read_id(&token, "charges_get", &small).await;
    assert_eq!(r.data()["version"], 1);
    assert_eq!(r.data()["debtor_name"], "Beatriz Nunes");
}

/// A later word's count and sums come from the debtors' word rows, kept by the database as
/// charges are created, paid and renamed away: each stays equal to what the charges say, and a
/// debtor with two words that start alike ("silva silveira") counts its charges once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_later_word_counts_and_sums_each_charge_once_as_charges_change() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let mariana = id(&server.create_debtor(&token, "Mariana Silva Silveira", &cpf(41)).await);
    let ana = id(&server.create_debtor(&token, "Ana Silva", &cpf(42)).await);
    let silvio = id(&server.create_debtor(&token, "Sílvio Costa", &cpf(43)).await);
    let first = id(&server.create_charge(&token, &mariana, 100.0, &date_in(10)).await);
    let second = id(&server.create_charge(&token, &mariana, 50.0, &date_in(20)).await);
    server.create_charge(&token, &ana, 30.0, &date_in(10)).await;
    server.create_charge(&token, &silvio, 20.0, &date_in(10)).await;
    let meta = |query: &'static str| {
        let (server, token) = (&server, &token);
        async move {
            let r = server.read(token, "charges_list", query).await;
            assert_eq!(r.status, 200, "{}", r.body);
            let m = &r.body["meta"];
            (m["total"].clone(), m["amount_sum"].clone(), m["balance_sum"].clone())
        }
    };

    assert_eq!(meta("q=silv").await, (json!(4), json!(200.0), json!(200.0)), "each charge once");
    assert_eq!(meta("q=silveira").await, (json!(2), json!(150.0), json!(150.0)));
    assert_eq!(meta("q=silva").await, (json!(3), json!(180.0), json!(180.0)));

    // Paid in part, then in full: the counts by status and the balances follow.
    let r = server.write_id(&token, "charges_settle", &first, json!({"paid_amount": 40.0})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    pay(&server, &token, &second).await;
    assert_eq!(meta("q=silva").await, (json!(3), json!(180.0), json!(90.0)));
    assert_eq!(meta("q=silva&status=paid").await, (json!(1), json!(50.0), json!(0.0)));
    assert_eq!(meta("q=silva&status=pending").await, (json!(2), json!(130.0), json!(90.0)));

    // A new name takes the debtor's charges out of the old word and into the new one.
    let r = server.write_id(&token, "debtors_update", &ana, json!({"name": "Ana Souza"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(meta("q=silva").await, (json!(2), json!(150.0), json!(60.0)));
    assert_eq!(meta("q=souza").await, (json!(1), json!(30.0), json!(30.0)));
    // A filter the word rows do not hold is counted from the charges, with the same answer.
    let due = date_in(15);
    let r = server.read(&token, "charges_list", &format!("q=silva&due_date_to={due}")).await;
    assert_eq!(r.body["meta"]["total"], 1, "{}", r.body);
    assert_eq!(r.body["meta"]["balance_sum"], 60.0);
}

#[tokio::test]
async fn a_short_search_is_a_name_prefix_not_every_charge_id() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Busca curta").await;
    let carla = server.create_debtor(&token, "Carla Dias", &cpf(7401)).await;
    let bruno = server.create_debtor(&token, "Bruno Lima", &cpf(7402)).await;
    let c1 = server.create_charge(&token, &id(&carla), 10.0, &date_in(5)).await;
    server.create_charge(&token, &id(&bruno), 20.0, &date_in(5)).await;
    // Every charge id starts with "chg_0…": "c", "ch" and "chg_01" are not taken for ids.
    for q in ["c", "C", "car"] {
        let r = server.read(&token, "charges_list", &format!("q={q}")).await;
        assert_eq!(ids(&r), [id(&c1)], "q={q}: {}", r.body);
    }
    for q in ["ch", "chg_01"] {
        let r = server.read(&token, "charges_list", &format!("q={q}")).await;
        assert_eq!(r.body["meta"]["total"], 0, "q={q}: {}", r.body);
    }
    // A pasted id (or enough of one) still finds its charge.
    let r = server.read(&token, "charges_list", &format!("q={}", &id(&c1)[..30])).await;
    assert_eq!(ids(&r), [id(&c1)]);
}
