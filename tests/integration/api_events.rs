//! /v1/events: every change can be read back, per object, in order, and only by its organization.

use serde_json::json;
use time::macros::time;

use crate::common::{TestServer, check_contract, cpf, date_in};

fn codes(r: &crate::common::Resp) -> Vec<String> {
    r.data().as_array().unwrap().iter().map(|e| e["code"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn an_objects_timeline_is_its_events_newest_first() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Events").await;
    let debtor = server.create_debtor(&token, "Maria Eventos", &cpf(7201)).await;
    let charge = server.create_charge(&token, debtor["id"].as_str().unwrap(), 80.0, &date_in(10)).await;
    let id = charge["id"].as_str().unwrap();
    let r = server.write_id(&token, "charges_update", id, json!({ "description": "Mensalidade" })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let due = kobana_dunning::domain::dates::parse_date(&date_in(40)).unwrap();
    kobana_dunning::engine::run_once(
        &server.app.store,
        &server.app.providers,
        due.with_time(time!(15:00)).assume_utc(),
    )
    .await
    .unwrap();

    let r = server.read(&token, "events_list", &format!("resource_id={id}")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    check_contract("events_list", &r);
    assert_eq!(codes(&r), ["charge.overdue", "charge.db.updated", "charge.db.created"]);
    assert_eq!(r.body["meta"]["total"], 3);
    let overdue = &r.data()[0];
    assert_eq!(overdue["actor"], json!({ "type": "system", "id": "engine" }));
    assert!(overdue["request_id"].is_null());
    assert_eq!(overdue["data"]["changes"]["status"], json!(["pending", "overdue"]));
    assert_eq!(overdue["data"]["object"]["status"], "overdue");
    let updated = &r.data()[1];
    assert_eq!(updated["actor"]["type"], "token");
    assert!(updated["request_id"].as_str().unwrap().starts_with("req_"), "{updated}");

    let r = server.read(&token, "events_list", &format!("resource_id={id}&sort_order=asc&per_page=2")).await;
    assert_eq!(codes(&r), ["charge.db.created", "charge.db.updated"]);
    assert_eq!(r.body["meta"], json!({ "total": 3, "page": 1, "per_page": 2, "total_pages": 2 }));

    let r = server.read(&token, "events_list", "code=charge.overdue").await;
    assert_eq!(codes(&r), ["charge.overdue"]);

    let event_id = overdue["id"].as_str().unwrap();
    let r = server.read_id(&token, "events_get", event_id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    check_contract("events_get", &r);
    assert_eq!(r.data()["id"], event_id);
    assert_eq!(r.data()["resource_id"], id);
}

#[tokio::test]
async fn another_organizations_events_are_not_there() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Owner").await;
    let (_, other) = server.tenant("Other").await;
    let debtor = server.create_debtor(&token, "Ana Privada", &cpf(7202)).await;
    let id = debtor["id"].as_str().unwrap();
    let r = server.read(&token, "events_list", &format!("resource_id={id}")).await;
    let event_id = r.data()[0]["id"].as_str().unwrap().to_string();

    let r = server.read_id(&other, "events_get", &event_id).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.code(), "NOT_FOUND");
    let r = server.read(&other, "events_list", &format!("resource_id={id}")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["meta"]["total"], 0);
    let r = server.read(&other, "events_list", "").await;
    assert_eq!(r.body["meta"]["total"], 0, "{}", r.body);
}

#[tokio::test]
async fn the_timeline_is_a_tool() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Tools").await;
    let debtor = server.create_debtor(&token, "João Ferramenta", &cpf(7203)).await;
    let id = debtor["id"].as_str().unwrap();
    let r = server
        .mcp_2025(
            &token,
            "tools/call",
            json!({ "name": "dunning_events_list", "arguments": { "resource_id": id } }),
        )
        .await;
    assert_ne!(r.result()["isError"], true, "{}", r.body);
    let answer = r.tool_json();
    assert_eq!(answer["data"][0]["code"], "debtor.db.created", "{answer}");
    let r = server
        .mcp_2025(
            &token,
            "tools/call",
            json!({ "name": "dunning_events_list", "arguments": { "per_page": 0 } }),
        )
        .await;
    assert_eq!(r.tool_json()["error"]["code"], "VALIDATION_ERROR");
}
