//! What a person decides once the régua stops at an escalation step (`charges_decide`:
//! write_off, restart, keep_open), and writing a charge off (`charges_write_off`): the guards of
//! each, what the charge and its events keep, what the engine does afterwards, and the same
//! decision taken by an assistant through MCP with its confirmation.

use kobana_dunning::engine::run_once;
use serde_json::{Value, json};
use time::macros::{date, time};
use time::{Date, OffsetDateTime};

use crate::common::{ALL, TestServer, cpf, date_in};

/// Noon in São Paulo on a day, as the engine's instant.
fn noon(day: Date) -> OffsetDateTime {
    day.with_time(time!(15:00)).assume_utc()
}

/// A default policy whose only step, ten days after the due date, asks a person to decide.
fn escalating_policy() -> Value {
    json!({ "name": "Régua com decisão", "steps": [ { "offset_days": 10, "action": "credit_bureau" } ] })
}

/// An organization with the escalating policy and `count` charges due on 25 January 2027,
/// left by the engine's pass of 4 February awaiting a decision.
async fn awaiting_decision(server: &TestServer, count: u32) -> (String, Vec<String>) {
    let (_, token) = server.tenant("Decisões").await;
    let r = server.write(&token, "collection_policies_create", escalating_policy()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let mut ids = Vec::new();
    for n in 0..count {
        let debtor = server.create_debtor(&token, "João Conceição", &cpf(8900 + n)).await;
        let charge = server.create_charge(&token, debtor["id"].as_str().unwrap(), 1250.0, "2027-01-25").await;
        ids.push(charge["id"].as_str().unwrap().to_string());
    }
    let report =
        run_once(&server.app.store, &server.app.providers, noon(date!(2027 - 02 - 04))).await.unwrap();
    assert_eq!(report.awaiting_decision, u64::from(count), "{report:?}");
    for id in &ids {
        let r = server.read_id(&token, "charges_get", id).await;
        assert_eq!(r.data()["dunning_status"], "awaiting_decision", "{}", r.body);
    }
    (token, ids)
}

/// The codes of a charge's events, oldest first.
async fn event_codes(server: &TestServer, token: &str, id: &str) -> Vec<String> {
    let r = server.read(token, "events_list", &format!("resource_id={id}&sort_order=asc&per_page=100")).await;
    r.data().as_array().unwrap().iter().map(|e| e["code"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_overdue_charge_is_written_off_once_with_its_reason() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Baixas").await;
    let debtor = server.create_debtor(&token, "João Conceição", &cpf(8801)).await;
    let debtor_id = debtor["id"].as_str().unwrap();
    let pending = server.create_charge(&token, debtor_id, 100.0, &date_in(10)).await;
    let overdue = server.create_charge(&token, debtor_id, 1250.0, &date_in(-40)).await;
    let (pending, overdue) = (pending["id"].as_str().unwrap(), overdue["id"].as_str().unwrap());

    // Only an overdue debt is written off.
    let r = server.write_id(&token, "charges_write_off", pending, json!({ "reason": "Incobrável" })).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["allowed"], json!(["overdue", "written_off"]));
    // The reason is required.
    let r = server.write_id(&token, "charges_write_off", overdue, json!({})).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    // It needs dunning.escalate, which a write token lacks.
    let write_only = server.token(&server.org("Outra").await, "dunning.read dunning.write").await;
    let r = server.write_id(&write_only, "charges_write_off", overdue, json!({ "reason": "x" })).await;
    assert_eq!(r.status, 403, "{}", r.body);

    let r = server
        .write_id(&token, "charges_write_off", overdue, json!({ "reason": "Devedor não localizado." }))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let charge = r.data().clone();
    assert_eq!(charge["status"], "written_off");
    assert_eq!(charge["dunning_status"], "closed");
    assert_eq!(charge["write_off_reason"], "Devedor não localizado.");
    assert!(charge["written_off_at"].is_string(), "{charge}");
    assert_eq!(charge["decision"], Value::Null);

    // Again: unchanged, and no second event.
    let r = server.write_id(&token, "charges_write_off", overdue, json!({ "reason": "de novo" })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["version"], charge["version"]);
    assert_eq!(r.data()["write_off_reason"], "Devedor não localizado.");
    let codes = event_codes(&server, &token, overdue).await;
    assert_eq!(codes.iter().filter(|c| *c == "charge.written_off").count(), 1, "{codes:?}");
    // A written-off charge is closed for good: neither canceled nor settled.
    let r = server.write_id(&token, "charges_cancel", overdue, json!({})).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_decision_moves_the_charge_as_it_says_and_is_kept_with_its_reason() {
    let server = TestServer::start().await;
    let (token, ids) = awaiting_decision(&server, 3).await;
    let [restart, keep_open, write_off] = [&ids[0], &ids[1], &ids[2]];

    // Refused without a known decision, and for a charge not awaiting one.
    let r =
        server.write_id(&token, "charges_decide", restart, json!({ "decision": "pay", "reason": "x" })).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);

    let r = server
        .write_id(
            &token,
            "charges_decide",
            restart,
            json!({ "decision": "restart", "reason": "Negociando." }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.data()["status"].as_str(), r.data()["dunning_status"].as_str()),
        (Some("overdue"), Some("active"))
    );
    assert_eq!(r.data()["decision"]["decision"], "restart");
    assert_eq!(r.data()["decision"]["reason"], "Negociando.");
    assert!(r.data()["decision"]["decided_at"].is_string(), "{}", r.body);
    // A second decision finds nothing awaiting one.
    let r = server
        .write_id(&token, "charges_decide", restart, json!({ "decision": "keep_open", "reason": "x" }))
        .await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["allowed"], json!(["awaiting_decision"]));

    let r = server
        .write_id(
            &token,
            "charges_decide",
            keep_open,
            json!({ "decision": "keep_open", "reason": "Disse que pagou." }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.data()["status"].as_str(), r.data()["dunning_status"].as_str()),
        (Some("overdue"), Some("closed"))
    );
    // Kept open for good: a part payment does not restart the régua, nor can it be resumed.
    let r = server.write_id(&token, "charges_settle", keep_open, json!({ "paid_amount": 100.0 })).await;
    assert_eq!((r.status, r.data()["dunning_status"].as_str()), (200, Some("closed")), "{}", r.body);
    let r = server.write_id(&token, "charges_resume", keep_open, json!({})).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);

    let r = server
        .write_id(
            &token,
            "charges_decide",
            write_off,
            json!({ "decision": "write_off", "reason": "Incobrável." }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.data()["status"].as_str(), r.data()["dunning_status"].as_str()),
        (Some("written_off"), Some("closed"))
    );
    assert_eq!(r.data()["write_off_reason"], "Incobrável.");

    // Each decision is an event with what was decided and why.
    for (id, decision) in [(restart, "restart"), (keep_open, "keep_open"), (write_off, "write_off")] {
        let r = server.read(&token, "events_list", &format!("resource_id={id}&code=charge.decided")).await;
        let events = r.data().as_array().unwrap();
        assert_eq!(events.len(), 1, "{id}: {}", r.body);
        assert_eq!(events[0]["data"]["decision"], decision, "{}", r.body);
        assert_eq!(events[0]["data"]["object"]["decision"]["decision"], decision, "{}", r.body);
    }

    // The engine goes on with the restarted charge and never asks about that step again.
    let report =
        run_once(&server.app.store, &server.app.providers, noon(date!(2027 - 02 - 05))).await.unwrap();
    assert_eq!(report.awaiting_decision, 0, "{report:?}");
    let r = server.read_id(&token, "charges_get", restart).await;
    assert_eq!(r.data()["dunning_status"], "active", "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assistant_stops_the_reminders_of_a_charge_awaiting_a_decision_after_confirming() {
    let server = TestServer::start().await;
    let (token, ids) = awaiting_decision(&server, 1).await;
    let id = &ids[0];
    // Pausing is refused while the charge awaits a decision: the decision is the way.
    let call = json!({ "name": "dunning_charges_pause", "arguments": { "id": id } });
    let r = server.mcp_2026(&token, "tools/call", call, json!({})).await;
    assert!(r.is_tool_error(), "{}", r.body);
    assert_eq!(r.tool_json()["error"]["code"], "INVALID_STATE");

    let elicitation = json!({ "elicitation": { "form": {} } });
    let call = json!({ "name": "dunning_charges_decide", "arguments": {
        "id": id, "decision": "keep_open", "reason": "A devedora disse que pagou; aguardando o comprovante." } });
    let first = server.mcp_2026(&token, "tools/call", call.clone(), elicitation.clone()).await;
    assert_eq!(first.result()["resultType"], "input_required", "{}", first.body);
    let message = first.result()["inputRequests"]["confirm"]["params"]["message"].as_str().unwrap();
    assert!(message.contains("R$ 1.250,00") && message.contains("João Conceição"), "{message}");
    // Nothing changed while the question is open.
    let r = server.read_id(&token, "charges_get", id).await;
    assert_eq!(r.data()["dunning_status"], "awaiting_decision");

    let mut answer = call.clone();
    answer["requestState"] = first.result()["requestState"].clone();
    answer["inputResponses"] = json!({ "confirm": { "action": "accept", "content": { "confirm": true } } });
    let r = server.mcp_2026(&token, "tools/call", answer, elicitation).await;
    assert!(!r.is_tool_error(), "{}", r.body);
    assert_eq!(r.tool_json()["data"]["dunning_status"], "closed", "{}", r.body);
    assert_eq!(r.tool_json()["data"]["decision"]["decision"], "keep_open", "{}", r.body);

    // The régua stays quiet for it.
    let report =
        run_once(&server.app.store, &server.app.providers, noon(date!(2027 - 02 - 10))).await.unwrap();
    assert_eq!((report.sent, report.awaiting_decision), (0, 0), "{report:?}");
    assert!(ALL.contains("dunning.escalate"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decision_to_renegotiate_makes_the_agreement_with_it() {
    let server = TestServer::start().await;
    let (token, ids) = awaiting_decision(&server, 1).await;
    let id = &ids[0];
    let terms = json!({ "installments_count": 4, "first_due_date": "2027-03-10", "fine_waived": true });

    // The terms go with decision agreement, and only with it.
    let r = server
        .write_id(&token, "charges_decide", id, json!({ "decision": "agreement", "reason": "x" }))
        .await;
    assert_eq!(
        (r.status, r.body["error"]["details"]["fields"][0]["field"].as_str()),
        (422, Some("agreement"))
    );
    let r = server
        .write_id(
            &token,
            "charges_decide",
            id,
            json!({ "decision": "keep_open", "reason": "x", "agreement": terms }),
        )
        .await;
    assert_eq!(
        (r.status, r.body["error"]["details"]["fields"][0]["field"].as_str()),
        (422, Some("agreement"))
    );

    let r = server
        .write_id(
            &token,
            "charges_decide",
            id,
            json!({ "decision": "agreement", "reason": "Propôs parcelar em 4 vezes.", "agreement": terms }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.data()["status"].as_str(), r.data()["dunning_status"].as_str()),
        (Some("in_agreement"), Some("closed"))
    );
    assert_eq!(r.data()["decision"]["decision"], "agreement");
    let agreement = r.data()["agreement_id"].as_str().expect("the agreement made").to_string();
    let r = server.read_id(&token, "agreements_get", &agreement).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.data()["installments_count"].as_i64(), r.data()["fine_waived"].as_bool()),
        (Some(4), Some(true))
    );
    assert_eq!(r.data()["charge_ids"], json!([id]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_charge_awaiting_a_decision_names_the_step_that_stopped_it_and_what_it_proposes() {
    let server = TestServer::start().await;
    let (token, ids) = awaiting_decision(&server, 1).await;
    let policies = server.read(&token, "collection_policies_list", "").await;
    let cp_id = policies.data()[0]["id"].as_str().unwrap();
    let policy = server.call(&token, "collection_policies_get", &[("cp_id", cp_id)], "", None).await;
    let policy = policy.data();
    let step = &policy["steps"][0];
    let step_id = step["id"].as_str().unwrap();

    let got = server.read_id(&token, "charges_get", &ids[0]).await;
    let charge = got.data();
    assert_eq!(charge["current_step_id"], step_id, "{charge}");
    assert_eq!(charge["next_action_at"], Value::Null, "a person acts next: {charge}");
    let proposal = &charge["pending_decision"];
    assert_eq!(
        *proposal,
        json!({
            "step_id": step_id,
            "step_name": step["name"],
            "cp_id": policy["id"],
            "action": "credit_bureau",
            "proposed_decision": "credit_bureau",
            "title_type": null,
            "refused": null,
            "proposed_at": proposal["proposed_at"],
        }),
        "{charge}"
    );
    let at =
        kobana_dunning::domain::dates::parse_timestamp(proposal["proposed_at"].as_str().unwrap()).unwrap();
    assert!(
        at >= noon(date!(2027 - 02 - 04)) && at < noon(date!(2027 - 02 - 05)),
        "the pass's instant: {at}"
    );

    // A list row says the same.
    let listed = server.read(&token, "charges_list", "dunning_status=awaiting_decision").await;
    let row = &listed.data()[0];
    assert_eq!((&row["current_step_id"], &row["pending_decision"]), (&json!(step_id), proposal), "{row}");

    // Decided, nothing is proposed any more; the step stays the last that acted.
    let r = server
        .write_id(
            &token,
            "charges_decide",
            &ids[0],
            json!({ "decision": "restart", "reason": "Negociando." }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (&r.data()["pending_decision"], &r.data()["current_step_id"]),
        (&Value::Null, &json!(step_id))
    );
    let got = server.read_id(&token, "charges_get", &ids[0]).await;
    assert_eq!(got.data()["pending_decision"], Value::Null, "{}", got.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_protest_step_that_cannot_file_on_its_own_proposes_its_title_and_says_why() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Protestos").await;
    let policy = json!({ "name": "Régua com protesto", "steps": [
        { "offset_days": 10, "action": "protest", "requires_approval": false, "title_type": "DM" } ] });
    let r = server.write(&token, "collection_policies_create", policy).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let step_id = r.data()["steps"][0]["id"].as_str().unwrap().to_string();
    let debtor = server.create_debtor(&token, "João Conceição", &cpf(8990)).await;
    let charge = server.create_charge(&token, debtor["id"].as_str().unwrap(), 1250.0, "2027-01-25").await;
    let id = charge["id"].as_str().unwrap();

    // No external_id: the step cannot name the debt's document, so a person decides.
    let report =
        run_once(&server.app.store, &server.app.providers, noon(date!(2027 - 02 - 04))).await.unwrap();
    assert_eq!(report.awaiting_decision, 1, "{report:?}");
    let got = server.read_id(&token, "charges_get", id).await;
    let proposal = &got.data()["pending_decision"];
    assert_eq!(got.data()["current_step_id"], step_id.as_str(), "{}", got.body);
    assert_eq!(
        (&proposal["step_id"], &proposal["action"], &proposal["proposed_decision"], &proposal["title_type"]),
        (&json!(step_id), &json!("protest"), &json!("protest"), &json!("DM")),
        "{}",
        got.body
    );
    assert!(proposal["refused"].as_str().unwrap().contains("external_id"), "{}", got.body);
}
