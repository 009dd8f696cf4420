//! Pausing and resuming a charge's dunning: the régua's state moves, the charge's does not.

use serde_json::json;

use crate::common::{TestServer, cpf, date_in, error_fields};

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_is_capped_after_it_is_rendered() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Limites").await;
    let r = server
        .write(
            &token,
            "debtors_create",
            json!({ "name": "Ana Lima", "document": cpf(9601), "email": "ana@example.com.br", "mobile": "+5511987654321" }),
        )
        .await;
    let debtor = r.data()["id"].as_str().unwrap().to_string();
    let long = "x".repeat(500);
    let body = json!({ "debtor_id": debtor, "amount": 10.0, "due_date": date_in(-3), "description": long });
    let r = server.write(&token, "charges_create", body).await;
    let charge = r.data()["id"].as_str().unwrap().to_string();

    // 333 placeholders of a 500-character description: a short template, a 166,500-character
    // message. Refused at notify time, nothing stored.
    let template = json!({ "subject": "Cobrança", "body": "{{description}}".repeat(333) });
    let r = server
        .write_id(&token, "charges_notify", &charge, json!({ "channel": "email", "template": template }))
        .await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["template.body".to_string()]), "{}", r.body);
    let message = r.body["error"]["details"]["fields"][0]["message"].as_str().unwrap();
    assert!(message.contains("166500") && message.contains("10000"), "{message}");
    let r = server.read(&token, "notifications_list", &format!("charge_id={charge}")).await;
    assert_eq!(r.body["meta"]["total"], 0, "{}", r.body);

    // A subject is one line after rendering too.
    let body = json!({ "debtor_id": debtor, "amount": 10.0, "due_date": date_in(-3), "description": "Linha 1\nLinha 2" });
    let r = server.write(&token, "charges_create", body).await;
    let two_lines = r.data()["id"].as_str().unwrap().to_string();
    let template = json!({ "subject": "{{description}}", "body": "Olá" });
    let r = server
        .write_id(&token, "charges_notify", &two_lines, json!({ "channel": "email", "template": template }))
        .await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["template.subject".to_string()]), "{}", r.body);

    // The engine keeps a step's message that cannot be made as failed, with why, once.
    let policy = json!({ "name": "Longa", "steps": [
        { "offset_days": 0, "channel": "sms", "template": { "body": "{{description}} {{description}} {{description}} {{description}}" } } ] });
    let r = server.write(&token, "collection_policies_create", policy).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let due = kobana_dunning::domain::dates::Zone::default_zone().today(time::OffsetDateTime::now_utc());
    let due = kobana_dunning::domain::calendar::on_or_after(due);
    let body = json!({ "debtor_id": debtor, "amount": 10.0, "due_date": kobana_dunning::domain::dates::format_date(due),
                       "description": "y".repeat(500) });
    let r = server.write(&token, "charges_create", body).await;
    let stepped = r.data()["id"].as_str().unwrap().to_string();
    let noon = due.with_time(time::macros::time!(20:00)).assume_utc();
    for _ in 0..2 {
        kobana_dunning::engine::run_once(&server.app.store, &server.app.providers, noon).await.unwrap();
    }
    let r = server.read(&token, "notifications_list", &format!("charge_id={stepped}")).await;
    assert_eq!(r.body["meta"]["total"], 1, "{}", r.body);
    let failed = &r.data()[0];
    assert_eq!(failed["status"], "failed", "{failed}");
    assert!(
        failed["failure_reason"].as_str().unwrap().contains("sms message takes at most 1600"),
        "{failed}"
    );
}
