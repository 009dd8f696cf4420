//! Each organization, and each policy that names one, counts its days in its own IANA time
//! zone: what today is (for `me` and for the assistant), when a charge turns overdue, and when
//! the send window opens. Brazil has four offsets, so the tests use the two ends of it.

use kobana_dunning::admin;
use kobana_dunning::domain::dates::{Zone, format_date};
use kobana_dunning::engine::run_once;
use serde_json::json;
use time::macros::datetime;

use crate::common::{ALL, TestServer, cpf, error_fields};

/// An organization in `zone` with an all-scopes token (taken after the move, so it carries it).
async fn tenant_in(server: &TestServer, name: &str, zone: &str) -> String {
    let org = server.org(name).await;
    admin::set_timezone(&server.app.store, &org, zone).await.expect("timezone");
    server.token(&org, ALL).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn me_gives_today_in_the_organizations_own_zone() {
    let server = TestServer::start().await;
    for zone in ["America/Noronha", "America/Rio_Branco"] {
        let token = tenant_in(&server, zone, zone).await;
        let before = time::OffsetDateTime::now_utc();
        let r = server
            .mcp_2026(&token, "tools/call", json!({ "name": "dunning_me", "arguments": {} }), json!({}))
            .await;
        let after = time::OffsetDateTime::now_utc();
        let org = r.tool_json()["data"]["organization"].clone();
        assert_eq!(org["timezone"], zone, "{org}");
        let local = Zone::named(zone).unwrap();
        let today = [format_date(local.today(before)), format_date(local.today(after))];
        assert!(today.contains(&org["today"].as_str().unwrap().to_string()), "{zone}: {org}");
    }
    let refused = admin::set_timezone(&server.app.store, &server.org("X").await, "-03:00").await;
    assert!(refused.is_err(), "an offset is not a time zone");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_charge_turns_overdue_after_midnight_where_its_organization_is() {
    let server = TestServer::start().await;
    let east = tenant_in(&server, "Noronha", "America/Noronha").await;
    let west = tenant_in(&server, "Rio Branco", "America/Rio_Branco").await;
    let mut charges = Vec::new();
    for (n, token) in [&east, &west].into_iter().enumerate() {
        let debtor = server.create_debtor(token, "Mariana Costa Ribeiro", &cpf(7100 + n as u32)).await;
        // Due Monday 4 January 2027.
        let charge = server.create_charge(token, debtor["id"].as_str().unwrap(), 100.0, "2027-01-04").await;
        charges.push((token, charge["id"].as_str().unwrap().to_string()));
    }

    // 04:30 UTC on the 5th: 02:30 of the 5th in Noronha, still 23:30 of the 4th in Rio Branco.
    run_once(&server.app.store, &server.app.providers, datetime!(2027-01-05 04:30 UTC)).await.unwrap();
    assert_eq!(status(&server, charges[0].0, &charges[0].1).await, "overdue");
    assert_eq!(status(&server, charges[1].0, &charges[1].1).await, "pending");
    // An hour later it is the 5th in Rio Branco too.
    run_once(&server.app.store, &server.app.providers, datetime!(2027-01-05 05:30 UTC)).await.unwrap();
    assert_eq!(status(&server, charges[1].0, &charges[1].1).await, "overdue");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_policy_with_its_own_zone_opens_its_window_on_that_clock() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("São Paulo").await;
    let r = server
        .write(&token, "collection_policies_create", json!({ "name": "Acre", "timezone": "Mars/Olympus" }))
        .await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["timezone".to_string()]), "{}", r.body);
    let policy = json!({ "name": "Acre", "timezone": "America/Rio_Branco",
        "send_window": { "start": "09:00", "end": "18:00" },
        "steps": [ { "offset_days": 0, "channel": "email",
                     "template": { "subject": "Vence hoje", "body": "Olá {{debtor_name}}" } } ] });
    let r = server.write(&token, "collection_policies_create", policy).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["timezone"], "America/Rio_Branco", "{}", r.body);
    let cp = r.data()["id"].as_str().unwrap().to_string();
    let r = server
        .write(
            &token,
            "debtors_create",
            json!({ "name": "Mariana Costa Ribeiro", "document": cpf(7200), "email": "mariana@example.com" }),
        )
        .await;
    let debtor = r.data()["id"].as_str().unwrap().to_string();
    let charge = server.create_charge(&token, &debtor, 100.0, "2027-01-04").await;
    let charge = charge["id"].as_str().unwrap();

    // 13:30 UTC: 10:30 in São Paulo, but 08:30 in Rio Branco, before the policy's window.
    run_once(&server.app.store, &server.app.providers, datetime!(2027-01-04 13:30 UTC)).await.unwrap();
    assert_eq!(sent(&server, &token, charge).await, 0);
    // 14:30 UTC: 09:30 in Rio Branco.
    run_once(&server.app.store, &server.app.providers, datetime!(2027-01-04 14:30 UTC)).await.unwrap();
    assert_eq!(sent(&server, &token, charge).await, 1);

    // Back to the organization's zone with null.
    let r = server
        .call(&token, "collection_policies_update", &[("cp_id", &cp)], "", Some(json!({ "timezone": null })))
        .await;
    assert_eq!((r.status, r.data()["timezone"].clone()), (200, json!("America/Sao_Paulo")), "{}", r.body);
}

async fn status(server: &TestServer, token: &str, id: &str) -> serde_json::Value {
    server.read_id(token, "charges_get", id).await.data()["status"].clone()
}

async fn sent(server: &TestServer, token: &str, charge: &str) -> serde_json::Value {
    server.read(token, "notifications_list", &format!("charge_id={charge}")).await.body["meta"]["total"]
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_the_organization_east_brings_its_due_messages_forward() {
    let server = TestServer::start().await;
    let org = server.org("Muda de fuso").await;
    admin::set_timezone(&server.app.store, &org, "America/Rio_Branco").await.expect("timezone");
    let token = server.token(&org, ALL).await;
    let policy = json!({ "name": "Régua", "send_window": { "start": "09:00", "end": "18:00" },
        "steps": [ { "offset_days": 0, "channel": "email",
                     "template": { "subject": "Vence hoje", "body": "Olá {{debtor_name}}" } } ] });
    server.create_policy(&token, policy).await;
    let debtor = server
        .create_debtor_by_email(&token, "Mariana Costa Ribeiro", &cpf(7300), "mariana@example.com")
        .await;
    // Due on a business day a week or more ahead: its message waits for 09:00 in Rio Branco,
    // 14:00 UTC.
    let mut due = time::OffsetDateTime::now_utc().date() + time::Duration::days(7);
    while !kobana_dunning::domain::calendar::is_business_day(due) {
        due = due.next_day().unwrap();
    }
    let charge = server.create_charge(&token, &debtor, 100.0, &format_date(due)).await;
    let charge = charge["id"].as_str().unwrap();
    let noon = |day: time::Date| day.with_time(time::macros::time!(12:00)).assume_utc();

    // A pass the day before schedules the new policy's charges.
    let day_before = due.previous_day().unwrap();
    let report = run_once(&server.app.store, &server.app.providers, noon(day_before)).await.unwrap();
    assert_eq!(report.sent, 0, "{report:?}");

    // In Noronha the window opens at 11:00 UTC; the pass finds the message at 12:00 UTC only if
    // the move rescheduled it.
    admin::set_timezone(&server.app.store, &org, "America/Noronha").await.expect("timezone");
    let report = run_once(&server.app.store, &server.app.providers, noon(due)).await.unwrap();
    assert_eq!(report.sent, 1, "{report:?}");
    assert_eq!(sent(&server, &token, charge).await, 1);
}
