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

/// The events of a list answer, as (code, resource_id).
fn listed(r: &crate::common::Resp) -> Vec<(String, String)> {
    let data = r.data().as_array().unwrap();
    data.iter()
        .map(|e| (e["code"].as_str().unwrap().into(), e["resource_id"].as_str().unwrap().into()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_sees_no_event_of_an_object_it_could_not_get() {
    use kobana_dunning::providers::{ProviderConfig, Providers};
    let config = ProviderConfig { allow_insecure_targets: true, ..ProviderConfig::default() };
    let server = TestServer::start_with_providers(Providers::new(&config).unwrap()).await;
    let (org, admin) = server.tenant("Escopos").await;
    let read = server.token(&org, "dunning.read").await;
    let exporter = server.token(&org, "dunning.read dunning.exports").await;
    let hook = json!({ "url": "http://127.0.0.1:9/hooks?token=segredo-um", "events": ["charge.paid"] });
    let r = server.write(&admin, "webhooks_create", hook).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let hook_id = r.data()["id"].as_str().unwrap().to_owned();
    let moved = json!({ "url": "http://127.0.0.1:9/outro?token=segredo-dois" });
    assert_eq!(server.write_id(&admin, "webhooks_update", &hook_id, moved).await.status, 200);
    server.create_debtor(&admin, "Dora Visível", &cpf(7290)).await;
    let r = server.write(&admin, "exports_create", json!({ "kind": "debtors" })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let export_id = r.data()["id"].as_str().unwrap().to_owned();

    // A token with every scope sees them all.
    let r = server.read(&admin, "events_list", &format!("resource_id={hook_id}")).await;
    assert_eq!(codes(&r), ["webhook.db.updated", "webhook.db.created"]);
    let hook_event = r.data()[0]["id"].as_str().unwrap().to_owned();
    let r = server.read(&admin, "events_list", &format!("resource_id={export_id}")).await;
    let export_event = r.data()[0]["id"].as_str().unwrap().to_owned();

    // A read token, refused the webhook itself, sees none of its events nor the export's.
    assert_eq!(server.read_id(&read, "webhooks_get", &hook_id).await.status, 403);
    let r = server.read(&read, "events_list", &format!("resource_id={hook_id}")).await;
    assert_eq!((r.status, r.body["meta"]["total"].as_i64()), (200, Some(0)), "{}", r.body);
    let r = server.read(&read, "events_list", "per_page=100").await;
    let seen = listed(&r);
    assert_eq!(r.body["meta"]["total"].as_u64(), Some(seen.len() as u64), "the total counts what is shown");
    assert!(seen.iter().any(|(code, _)| code == "debtor.db.created"), "{seen:?}");
    assert!(seen.iter().all(|(code, _)| !code.starts_with("webhook.") && !code.starts_with("export.")));
    assert!(!r.body.to_string().contains("segredo"), "{}", r.body);
    for id in [&hook_event, &export_event] {
        let r = server.read_id(&read, "events_get", id).await;
        assert_eq!((r.status, r.code()), (404, "NOT_FOUND"), "{}", r.body);
    }
    assert_eq!(server.read_id(&admin, "events_get", &hook_event).await.status, 200);

    // The exports scope shows export events, never webhook ones, in a list or a file it queues.
    let r = server.read(&exporter, "events_list", "per_page=100").await;
    let seen = listed(&r);
    assert!(seen.iter().any(|(_, id)| *id == export_id), "{seen:?}");
    assert!(seen.iter().all(|(code, _)| !code.starts_with("webhook.")), "{seen:?}");
    let r = server.write(&exporter, "exports_create", json!({ "kind": "events" })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let file = r.data()["id"].as_str().unwrap().to_owned();
    let r = server.write(&admin, "exports_create", json!({ "kind": "events" })).await;
    let full_file = r.data()["id"].as_str().unwrap().to_owned();
    kobana_dunning::engine::exports::run_once(&server.app.store, time::OffsetDateTime::now_utc())
        .await
        .unwrap();
    let download = async |id: &str| {
        let r = server.raw(reqwest::Method::GET, &format!("/v1/exports/{id}/download"));
        let r = r.bearer_auth(&admin).send().await.unwrap();
        assert_eq!(r.status(), 200);
        r.text().await.unwrap()
    };
    let text = download(&file).await;
    assert!(text.contains("debtor.db.created") && text.contains(&export_id), "{text}");
    assert!(!text.contains("webhook.") && !text.contains("segredo"), "{text}");
    let text = download(&full_file).await;
    assert!(text.contains("webhook.db.updated") && text.contains("segredo-dois"), "{text}");
}
