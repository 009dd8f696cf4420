//! Credit-bureau reports and protests over REST: the guards of each (an overdue charge of its
//! own, the mailed notice, the full address, the debtor not blocked), one under way per charge,
//! the sandbox's bureau and notary played by the engine's passes, what the end of a debt does
//! to them (removal due 5 business days later, a protest withdrawn or its cancellation asked),
//! the charge kept from being canceled or written off while it stands reported or protested,
//! a decision that reports or protests, and a step that reports on its own.

use kobana_dunning::domain::calendar::add_business_days;
use kobana_dunning::domain::dates::{Zone, format_date};
use kobana_dunning::engine::{PassReport, run_once};
use serde_json::{Value, json};
use time::macros::time;
use time::{Date, Duration, OffsetDateTime};

use crate::common::{TestServer, cpf, date_in, error_fields};

fn address() -> Value {
    json!({ "zipcode": "01310100", "street": "Av. Paulista", "number": "1000", "neighborhood": "Bela Vista",
            "city": "São Paulo", "state": "SP" })
}

fn today() -> Date {
    Zone::default_zone().today(OffsetDateTime::now_utc())
}

/// An overdue due date whose step at `offset` days falls today or on the next business day
/// (never before today: steps are not sent for days before a charge existed), and that day.
fn due_for_step(offset: i64) -> (Date, Date) {
    let mut due = today() - Duration::days(offset + 7);
    loop {
        let day = kobana_dunning::domain::calendar::send_date(due, offset);
        if day >= today() {
            return (due, day);
        }
        due += Duration::days(1);
    }
}

/// An engine pass at noon in São Paulo on `day`.
async fn pass(server: &TestServer, day: Date) -> PassReport {
    let noon = day.with_time(time!(15:00)).assume_utc();
    run_once(&server.app.store, &server.app.providers, noon).await.expect("pass")
}

/// A debtor with a full address and a charge of R$ 1.250,00 forty days overdue.
async fn overdue_charge(server: &TestServer, token: &str, seed: u32) -> (String, String) {
    let debtor = server.create_debtor(token, "João Conceição", &cpf(seed)).await;
    let debtor = debtor["id"].as_str().unwrap().to_string();
    let r = server.write_id(token, "debtors_update", &debtor, json!({ "address": address() })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let charge = server.create_charge(token, &debtor, 1250.0, &date_in(-40)).await;
    (debtor, charge["id"].as_str().unwrap().to_string())
}

/// The prior written notice: a letter sent for the charge.
async fn send_letter(server: &TestServer, token: &str, charge: &str) {
    let r = server.write_id(token, "charges_notify", charge, json!({ "channel": "letter" })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["status"], "sent", "{}", r.body);
}

async fn charge(server: &TestServer, token: &str, id: &str) -> Value {
    let r = server.read_id(token, "charges_get", id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.data().clone()
}

async fn report(server: &TestServer, token: &str, id: &str) -> Value {
    let r = server.read_id(token, "credit_bureau_reports_get", id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.data().clone()
}

async fn protest(server: &TestServer, token: &str, id: &str) -> Value {
    let r = server.read_id(token, "protests_get", id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.data().clone()
}

/// The codes of a report's or protest's events, in the order of the versions they made (the
/// engine's passes run on days ahead of the requests' clock, so their times do not say it).
async fn event_codes(server: &TestServer, token: &str, id: &str) -> Vec<String> {
    let r = server.read(token, "events_list", &format!("resource_id={id}&per_page=100")).await;
    let mut events: Vec<(i64, String)> = r
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["data"]["object"]["version"].as_i64().unwrap(), e["code"].as_str().unwrap().to_string()))
        .collect();
    events.sort();
    events.into_iter().map(|(_, code)| code).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_needs_an_overdue_charge_a_full_address_no_block_and_a_mailed_notice() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Negativações").await;
    let (debtor, overdue) = overdue_charge(&server, &token, 9401).await;
    let pending = server.create_charge(&token, &debtor, 300.0, &date_in(10)).await;
    let create =
        |charge: &str| server.write(&token, "credit_bureau_reports_create", json!({ "charge_id": charge }));

    let r = create(pending["id"].as_str().unwrap()).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["allowed"], json!(["overdue"]));
    let r = create("chg_nao_existe").await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["charge_id".to_string()]), "{}", r.body);

    // No letter yet: e-mail or SMS alone is not the notice the law asks for.
    let r = server.write_id(&token, "charges_notify", &overdue, json!({ "channel": "email" })).await;
    assert!(matches!(r.status, 201 | 409), "{}", r.body);
    let r = create(&overdue).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["status"], "no_prior_notice", "{}", r.body);
    send_letter(&server, &token, &overdue).await;

    // A blocked debtor is never reported.
    let r =
        server.write_id(&token, "debtors_update", &debtor, json!({ "credit_bureau_blocked": true })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = create(&overdue).await;
    assert_eq!(r.body["error"]["details"]["status"], "credit_bureau_blocked", "{}", r.body);
    let r =
        server.write_id(&token, "debtors_update", &debtor, json!({ "credit_bureau_blocked": false })).await;
    assert_eq!(r.status, 200, "{}", r.body);

    // Nor one without an address.
    let r = server.write_id(&token, "debtors_update", &debtor, json!({ "address": null })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = create(&overdue).await;
    assert_eq!(r.body["error"]["details"]["status"], "address_missing", "{}", r.body);
    let r = server.write_id(&token, "debtors_update", &debtor, json!({ "address": address() })).await;
    assert_eq!(r.status, 200, "{}", r.body);

    let r = create(&overdue).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let filed = r.data().clone();
    assert_eq!(filed["status"], "requested");
    assert_eq!(filed["bureau"], "serasa");
    assert_eq!(filed["nature"], "duplicata");
    assert_eq!(filed["amount"], 1250.0);
    assert!(filed["notice_notification_id"].as_str().unwrap().starts_with("ntf_"), "{filed}");
    assert_eq!(charge(&server, &token, &overdue).await["credit_bureau_status"], "requested");

    // One under way per charge: a second request is a conflict, not a second report.
    let r = create(&overdue).await;
    assert_eq!((r.status, r.code()), (409, "CONFLICT"), "{}", r.body);
    let r = server.read(&token, "credit_bureau_reports_list", &format!("charge_id={overdue}")).await;
    assert_eq!(r.data().as_array().unwrap().len(), 1, "{}", r.body);
    assert_eq!(r.body["meta"]["amount_sum"], json!(1250.0), "{}", r.body);

    // Another organization sees nothing of it.
    let (_, stranger) = server.tenant("Outra").await;
    let r = server.read_id(&stranger, "credit_bureau_reports_get", filed["id"].as_str().unwrap()).await;
    assert_eq!(r.status, 404, "{}", r.body);
    let r = server.read(&stranger, "credit_bureau_reports_list", "").await;
    assert_eq!(r.data().as_array().unwrap().len(), 0, "{}", r.body);
    assert_eq!(r.body["meta"]["amount_sum"], json!(0.0), "{}", r.body);
    let r = server.write(&stranger, "credit_bureau_reports_create", json!({ "charge_id": overdue })).await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["charge_id".to_string()]), "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paid_charge_has_its_report_removed_within_five_business_days() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Negativações").await;
    let (_, id) = overdue_charge(&server, &token, 9402).await;
    send_letter(&server, &token, &id).await;
    let r = server.write(&token, "credit_bureau_reports_create", json!({ "charge_id": id })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let report_id = r.data()["id"].as_str().unwrap().to_string();

    // The sandbox's bureau: its notice a business day later, the inclusion ten days after it.
    let notice_day = add_business_days(today(), 1);
    pass(&server, notice_day - Duration::days(1)).await;
    assert_eq!(report(&server, &token, &report_id).await["status"], "requested");
    pass(&server, notice_day).await;
    assert_eq!(report(&server, &token, &report_id).await["status"], "notice_sent");
    pass(&server, notice_day + Duration::days(9)).await;
    assert_eq!(report(&server, &token, &report_id).await["status"], "notice_sent");
    let included = notice_day + Duration::days(10);
    pass(&server, included).await;
    let reported = report(&server, &token, &report_id).await;
    assert_eq!(reported["status"], "reported", "{reported}");
    assert!(reported["external_protocol"].is_string(), "{reported}");
    assert_eq!(charge(&server, &token, &id).await["credit_bureau_status"], "reported");

    // While reported the charge is neither canceled nor written off.
    let r = server.write_id(&token, "charges_cancel", &id, json!({})).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["status"], "credit_bureau_reported", "{}", r.body);
    let r = server.write_id(&token, "charges_write_off", &id, json!({ "reason": "Incobrável" })).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);

    // Paid: the removal is requested at once, due 5 business days after the payment.
    let r = server.write_id(&token, "charges_settle", &id, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["credit_bureau_status"], "removal_requested", "{}", r.body);
    let removing = report(&server, &token, &report_id).await;
    assert_eq!(removing["status"], "removal_requested");
    assert_eq!(removing["remove_reason"], "paid");
    assert_eq!(removing["removal_due_by"], format_date(add_business_days(today(), 5)));

    pass(&server, add_business_days(today(), 1)).await;
    let removed = report(&server, &token, &report_id).await;
    assert_eq!(removed["status"], "removed", "{removed}");
    assert_eq!(charge(&server, &token, &id).await["credit_bureau_status"], "removed");
    assert_eq!(
        event_codes(&server, &token, &report_id).await,
        [
            "credit_bureau_report.add.requested",
            "credit_bureau_report.notice_sent",
            "credit_bureau_report.add.confirmed",
            "credit_bureau_report.remove.requested",
            "credit_bureau_report.remove.confirmed",
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_taken_back_before_the_inclusion_is_canceled() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Negativações").await;
    let (_, id) = overdue_charge(&server, &token, 9403).await;
    send_letter(&server, &token, &id).await;
    let r = server
        .write(&token, "credit_bureau_reports_create", json!({ "charge_id": id, "bureau": "boa_vista" }))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let report_id = r.data()["id"].as_str().unwrap().to_string();
    let r = server.write_id(&token, "credit_bureau_reports_remove", &report_id, json!({})).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "the reason is required: {}", r.body);
    let r = server
        .write_id(&token, "credit_bureau_reports_remove", &report_id, json!({ "reason": "contested" }))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["status"], "canceled");
    assert_eq!(r.data()["remove_reason"], "contested");
    let version = r.data()["version"].clone();
    // Again: unchanged.
    let r = server
        .write_id(&token, "credit_bureau_reports_remove", &report_id, json!({ "reason": "manual" }))
        .await;
    assert_eq!((r.status, &r.data()["version"]), (200, &version), "{}", r.body);
    // The charge may be reported again, and canceled now that nothing stands on it.
    let r = server.write(&token, "credit_bureau_reports_create", json!({ "charge_id": id })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = server.write_id(&token, "charges_cancel", &id, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["credit_bureau_status"], "canceled", "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_protest_goes_to_the_notary_and_the_end_of_the_debt_takes_it_back() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Protestos").await;
    let (debtor, first) = overdue_charge(&server, &token, 9404).await;
    let second = server.create_charge(&token, &debtor, 800.0, &date_in(-35)).await;
    let second = second["id"].as_str().unwrap().to_string();
    let create = |charge: &str| {
        server.write(
            &token,
            "protests_create",
            json!({ "charge_id": charge, "title_type": "DS", "document_number": "NF-2026-0042" }),
        )
    };
    // The title's debt document is required.
    let r = server.write(&token, "protests_create", json!({ "charge_id": first, "title_type": "DS" })).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);

    let r = create(&first).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let p1 = r.data().clone();
    assert_eq!(p1["status"], "requested");
    assert_eq!(p1["notary"]["city"], "São Paulo");
    assert_eq!(p1["notary"]["state"], "SP");
    let r = create(&first).await;
    assert_eq!((r.status, r.code()), (409, "CONFLICT"), "{}", r.body);
    let p2 = create(&second).await;
    assert_eq!(p2.status, 201, "{}", p2.body);
    let p2 = p2.data()["id"].as_str().unwrap().to_string();
    let p1 = p1["id"].as_str().unwrap().to_string();

    // The notary takes both in a business day later, serves the intimação the next.
    let sent = add_business_days(today(), 1);
    pass(&server, sent).await;
    assert_eq!(protest(&server, &token, &p1).await["status"], "sent");
    assert!(protest(&server, &token, &p1).await["protocol_number"].is_string());
    let intimated = add_business_days(sent, 1);
    pass(&server, intimated).await;
    assert_eq!(protest(&server, &token, &p1).await["status"], "intimated");
    assert_eq!(charge(&server, &token, &first).await["protest_status"], "intimated");

    // While at the notary the charge is not canceled.
    let r = server.write_id(&token, "charges_cancel", &first, json!({})).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["status"], "protest_pending", "{}", r.body);

    // Renegotiating the first charge withdraws its protest in the same change.
    let terms = json!({ "charge_ids": [first], "installments_count": 2, "first_due_date": date_in(30) });
    let r = server.write(&token, "agreements_create", terms).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let withdrawn = protest(&server, &token, &p1).await;
    assert_eq!(withdrawn["status"], "withdrawn", "{withdrawn}");
    assert!(withdrawn["withdrawn_at"].is_string(), "{withdrawn}");
    assert_eq!(charge(&server, &token, &first).await["protest_status"], "withdrawn");

    // The second is drawn when 3 business days pass without payment…
    let drawn = add_business_days(intimated, 3);
    pass(&server, drawn - Duration::days(1)).await;
    pass(&server, drawn).await;
    assert_eq!(protest(&server, &token, &p2).await["status"], "protested");
    assert_eq!(protest(&server, &token, &p1).await["status"], "withdrawn", "a withdrawn title stays so");
    // …and paying it asks for its cancellation (carta de anuência), done 2 business days later.
    let r = server.write_id(&token, "charges_settle", &second, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["protest_status"], "cancellation_requested", "{}", r.body);
    let asked = today().max(drawn);
    pass(&server, add_business_days(asked, 2)).await;
    assert_eq!(protest(&server, &token, &p2).await["status"], "canceled");
    assert_eq!(
        event_codes(&server, &token, &p2).await,
        [
            "protest.send.requested",
            "protest.send.confirmed",
            "protest.intimated",
            "protest.protested",
            "protest.cancel.requested",
            "protest.cancel.confirmed",
        ]
    );
    // A canceled protest is canceled again without change; the list filters by status.
    let r = server.write_id(&token, "protests_cancel", &p2, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = server.read(&token, "protests_list", "status=withdrawn").await;
    let ids: Vec<&str> = r.data().as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [p1.as_str()], "{}", r.body);
    assert_eq!(r.body["meta"]["amount_sum"], r.data()[0]["amount"], "{}", r.body);
    assert!(r.data()[0]["amount"].as_f64().unwrap() > 0.0, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decision_reports_or_protests_and_a_step_without_approval_reports_on_its_own() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Escalações").await;
    // A régua whose only step, ten days after the due date, reports without asking.
    let policy = json!({ "name": "Régua que negativa", "steps": [
        { "offset_days": 10, "action": "credit_bureau", "requires_approval": false } ] });
    let r = server.write(&token, "collection_policies_create", policy).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let (due, step_day) = due_for_step(10);
    let make = |seed: u32| {
        let (server, token) = (&server, &token);
        async move {
            let debtor = server.create_debtor(token, "Maria Ribeiro", &cpf(seed)).await;
            let debtor = debtor["id"].as_str().unwrap().to_string();
            let r = server.write_id(token, "debtors_update", &debtor, json!({ "address": address() })).await;
            assert_eq!(r.status, 200, "{}", r.body);
            let c = server.create_charge(token, &debtor, 990.0, &format_date(due)).await;
            c["id"].as_str().unwrap().to_string()
        }
    };
    let (noticed, silent, reported) = (make(9405).await, make(9406).await, make(9407).await);
    send_letter(&server, &token, &noticed).await;

    // The step's day: the charge with its letter is reported, once; the other waits for a
    // person, told why.
    for _ in 0..2 {
        pass(&server, step_day).await;
    }
    let r = server.read(&token, "credit_bureau_reports_list", &format!("charge_id={noticed}")).await;
    assert_eq!(r.data().as_array().unwrap().len(), 1, "{}", r.body);
    assert_eq!(charge(&server, &token, &noticed).await["credit_bureau_status"], "requested");
    let waiting = charge(&server, &token, &silent).await;
    assert_eq!(waiting["dunning_status"], "awaiting_decision", "{waiting}");
    let r = server
        .read(&token, "events_list", &format!("resource_id={silent}&code=charge.decision_required"))
        .await;
    let refused = r.data()[0]["data"]["refused"].as_str().unwrap_or_default().to_string();
    assert!(refused.contains("letter"), "{}", r.body);

    // A person decides to protest it instead: the title is required, then the protest is made.
    let r = server
        .write_id(&token, "charges_decide", &silent, json!({ "decision": "protest", "reason": "x" }))
        .await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    let decision = json!({ "decision": "protest", "reason": "Sem resposta às cobranças.",
                           "protest": { "title_type": "DM", "document_number": "DM-778" } });
    let r = server.write_id(&token, "charges_decide", &silent, decision).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["protest_status"], "requested", "{}", r.body);
    assert_eq!(r.data()["dunning_status"], "active", "{}", r.body);
    assert_eq!(r.data()["decision"]["decision"], "protest", "{}", r.body);
    let r = server.read(&token, "protests_list", &format!("charge_id={silent}")).await;
    assert_eq!(r.data()[0]["document_number"], "DM-778", "{}", r.body);

    // A decision to report follows the report's rules: refused without the letter, and then
    // nothing of the decision is kept; after the letter it reports to the bureau chosen.
    let decision = json!({ "decision": "credit_bureau", "reason": "Sem acordo.", "credit_bureau": { "bureau": "boa_vista" } });
    let r = server.write_id(&token, "charges_decide", &reported, decision.clone()).await;
    assert_eq!(
        (r.status, r.body["error"]["details"]["status"].as_str()),
        (409, Some("no_prior_notice")),
        "{}",
        r.body
    );
    let kept = charge(&server, &token, &reported).await;
    assert_eq!(
        (kept["dunning_status"].as_str(), &kept["decision"]),
        (Some("awaiting_decision"), &Value::Null),
        "{kept}"
    );
    send_letter(&server, &token, &reported).await;
    let r = server.write_id(&token, "charges_decide", &reported, decision).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.data()["credit_bureau_status"].as_str(), r.data()["dunning_status"].as_str()),
        (Some("requested"), Some("active"))
    );
    let r = server.read(&token, "credit_bureau_reports_list", &format!("charge_id={reported}")).await;
    assert_eq!(r.data()[0]["bureau"], "boa_vista", "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agreements_installment_is_neither_reported_nor_protested() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Negativações").await;
    let (_, id) = overdue_charge(&server, &token, 9408).await;
    let terms = json!({ "charge_ids": [id], "installments_count": 2, "first_due_date": date_in(10) });
    let r = server.write(&token, "agreements_create", terms).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = server.read_id(&token, "agreements_installments", r.data()["id"].as_str().unwrap()).await;
    let installment = r.data()[0]["charge_id"].as_str().unwrap().to_string();
    send_letter(&server, &token, &installment).await;
    let r = server.write(&token, "credit_bureau_reports_create", json!({ "charge_id": installment })).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    assert!(r.body["error"]["message"].as_str().unwrap().contains("installment"), "{}", r.body);
    let body = json!({ "charge_id": installment, "title_type": "DS", "document_number": "NF-1" });
    let r = server.write(&token, "protests_create", body).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    // Nor the charge it renegotiated: it is in the agreement now.
    let r = server.write(&token, "credit_bureau_reports_create", json!({ "charge_id": id })).await;
    assert_eq!(
        (r.status, r.body["error"]["details"]["status"].as_str()),
        (409, Some("in_agreement")),
        "{}",
        r.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_protest_step_without_approval_protests_on_its_title_once() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Protestos automáticos").await;
    // Without the title's type, a protest step cannot go on its own.
    let untitled = json!({ "name": "Régua que protesta", "steps": [
        { "offset_days": 15, "action": "protest", "requires_approval": false } ] });
    let r = server.write(&token, "collection_policies_create", untitled).await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["steps[0].title_type".to_string()]), "{}", r.body);
    let policy = json!({ "name": "Régua que protesta", "steps": [
        { "offset_days": 15, "action": "protest", "requires_approval": false, "title_type": "DM" } ] });
    let r = server.write(&token, "collection_policies_create", policy).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["steps"][0]["title_type"], "DM", "{}", r.body);

    let (due, step_day) = due_for_step(15);
    let debtor = server.create_debtor(&token, "Maria Ribeiro", &cpf(9409)).await;
    let debtor = debtor["id"].as_str().unwrap().to_string();
    let r = server.write_id(&token, "debtors_update", &debtor, json!({ "address": address() })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let with_number = json!({ "debtor_id": debtor, "amount": 700.0, "due_date": format_date(due), "external_id": "DM-2026-15" });
    let r = server.write(&token, "charges_create", with_number).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let numbered = r.data()["id"].as_str().unwrap().to_string();
    let unnumbered = server.create_charge(&token, &debtor, 300.0, &format_date(due)).await;
    let unnumbered = unnumbered["id"].as_str().unwrap().to_string();

    for _ in 0..2 {
        pass(&server, step_day).await;
    }
    let r = server.read(&token, "protests_list", &format!("charge_id={numbered}")).await;
    let protests = r.data().as_array().unwrap();
    assert_eq!(protests.len(), 1, "once: {}", r.body);
    assert_eq!(
        (protests[0]["title_type"].as_str(), protests[0]["document_number"].as_str()),
        (Some("DM"), Some("DM-2026-15"))
    );
    let waiting = charge(&server, &token, &unnumbered).await;
    assert_eq!(waiting["dunning_status"], "awaiting_decision", "{waiting}");
    let r = server
        .read(&token, "events_list", &format!("resource_id={unnumbered}&code=charge.decision_required"))
        .await;
    assert!(
        r.data()[0]["data"]["refused"].as_str().unwrap_or_default().contains("external_id"),
        "{}",
        r.body
    );
}
