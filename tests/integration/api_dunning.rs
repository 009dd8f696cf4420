//! Pausing and resuming a charge's dunning: the régua's state moves, the charge's does not.

use serde_json::json;

use crate::common::{TestServer, cpf, date_in};

#[tokio::test]
async fn pause_and_resume_move_the_dunning_status_and_record_why() {
    let server = TestServer::start().await;
    let (org_id, token) = server.tenant("Pausas").await;
    let debtor = server.create_debtor(&token, "Carla Pausada", &cpf(7301)).await;
    let charge = server.create_charge(&token, debtor["id"].as_str().unwrap(), 45.0, &date_in(8)).await;
    let id = charge["id"].as_str().unwrap();

    let reason = "Cliente negociando com o financeiro.";
    let r = server.write_id(&token, "charges_pause", id, json!({ "reason": reason })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.data()["status"].as_str(), r.data()["dunning_status"].as_str()),
        (Some("pending"), Some("paused"))
    );
    assert_eq!(r.data()["version"], 2);
    assert_eq!(r.header("etag"), Some("\"v2\""));

    // Pausing a paused charge changes nothing.
    let r = server.write_id(&token, "charges_pause", id, json!({})).await;
    assert_eq!((r.status, r.data()["version"].as_i64()), (200, Some(2)));

    // A stale If-Match is refused before anything changes.
    let r = server
        .call_with(&token, "charges_resume", &[("id", id)], "", Some(json!({})), &[("If-Match", "\"v1\"")])
        .await;
    assert_eq!(r.status, 412, "{}", r.body);

    let r = server.write_id(&token, "charges_resume", id, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.data()["dunning_status"].as_str(), r.data()["version"].as_i64()),
        (Some("active"), Some(3))
    );

    let events = server.app.store.events_of(&org_id, id).await.unwrap();
    let codes: Vec<&str> = events.iter().map(|(code, _)| code.as_str()).collect();
    assert_eq!(codes, ["charge.db.created", "charge.paused", "charge.resumed"]);
    assert_eq!(events[1].1["reason"], reason);
    assert_eq!(events[1].1["changes"]["dunning_status"], json!(["not_started", "paused"]));
}

#[tokio::test]
async fn a_closed_charge_cannot_be_paused() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Fechadas").await;
    let debtor = server.create_debtor(&token, "Bruno Fechado", &cpf(7302)).await;
    let charge = server.create_charge(&token, debtor["id"].as_str().unwrap(), 45.0, &date_in(8)).await;
    let id = charge["id"].as_str().unwrap();
    let r = server.write_id(&token, "charges_cancel", id, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);

    for op in ["charges_pause", "charges_resume"] {
        let r = server.write_id(&token, op, id, json!({})).await;
        assert_eq!(r.status, 409, "{op}: {}", r.body);
        assert_eq!(r.code(), "INVALID_STATE");
        assert_eq!(r.body["error"]["details"]["allowed"], json!(["pending", "overdue"]), "{op}");
    }
}

#[tokio::test]
async fn the_tools_are_writes_that_are_neither_destructive_nor_idempotent() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Ferramentas").await;
    let r = server.mcp_2025(&token, "tools/list", json!({})).await;
    for name in ["dunning_charges_pause", "dunning_charges_resume"] {
        let tool = r.result()["tools"].as_array().unwrap().iter().find(|t| t["name"] == name).expect(name);
        let a = &tool["annotations"];
        assert_eq!(
            (&a["readOnlyHint"], &a["destructiveHint"], &a["idempotentHint"]),
            (&json!(false), &json!(false), &json!(false)),
            "{name}: {tool}"
        );
    }
}
