//! Collection policies and steps through /v1: one default per organization, steps in the order
//! they run, escalations that wait for a human, and the dated schedule of a due date.

use serde_json::{Value, json};

use crate::common::{TestServer, cpf, date_in, error_fields};

fn regua() -> Value {
    json!({
        "name": "Régua padrão",
        "steps": [
            { "offset_days": 10, "action": "credit_bureau" },
            { "offset_days": 1, "channel": "whatsapp", "template": { "body": "{{debtor_name}}, venceu ontem: {{amount}}." } },
            { "offset_days": -3, "channel": "email", "send_time": "10:30",
              "template": { "subject": "Vence em {{due_date}}", "body": "Olá, {{debtor_name}}!" } },
            { "offset_days": 0, "channel": "sms", "template": { "body": "Vence hoje: {{amount}}" } },
            { "offset_days": 5, "channel": "letter", "template": { "body": "Prezado(a) {{debtor_name}}" } },
        ],
    })
}

#[tokio::test]
async fn a_policy_keeps_its_steps_in_order_and_previews_business_days() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Réguas").await;
    let r = server.write(&token, "collection_policies_create", regua()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let policy = r.data().clone();
    assert_eq!(policy["is_default"], true, "the first policy is the default");
    assert_eq!(policy["status"], "active");
    assert_eq!(policy["send_window"], json!({ "start": "09:00", "end": "18:00" }));
    let offsets: Vec<i64> =
        policy["steps"].as_array().unwrap().iter().map(|s| s["offset_days"].as_i64().unwrap()).collect();
    assert_eq!(offsets, [-3, 0, 1, 5, 10]);
    assert_eq!(policy["steps"][4]["requires_approval"], true);
    assert_eq!(policy["steps"][4]["name"], "Negativação em D+10");
    let id = policy["id"].as_str().unwrap();
    let path = [("cp_id", id)];

    // Due Friday 5 Feb 2027, before Carnival (Monday 8 and Tuesday 9).
    let r = server.call(&token, "collection_policies_preview", &path, "due_date=2027-02-05", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let dates: Vec<(&str, &str)> = r.data()["schedule"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["send_date"].as_str().unwrap(), s["send_time"].as_str().unwrap()))
        .collect();
    assert_eq!(
        dates,
        [
            ("2027-02-02", "10:30"),
            ("2027-02-05", "09:00"),
            ("2027-02-10", "09:00"),
            ("2027-02-10", "09:00"),
            ("2027-02-15", "09:00")
        ]
    );
    // Due on a Sunday: positive offsets count from Monday, the effective due date.
    let r = server.call(&token, "collection_policies_preview", &path, "due_date=2026-12-06", None).await;
    assert_eq!(r.data()["effective_due_date"], "2026-12-07");
    assert_eq!(r.data()["schedule"][1]["send_date"], "2026-12-07");
    assert_eq!(r.data()["schedule"][2]["send_date"], "2026-12-08");

    // A step added at an existing offset goes after the others there; the policy moves on.
    let r = server
        .call(
            &token,
            "collection_policies_steps_create",
            &path,
            "",
            Some(json!({ "offset_days": 0, "channel": "email", "template": { "body": "Hoje." } })),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["position"], 1);
    let step_id = r.data()["id"].as_str().unwrap().to_string();
    let r = server.call(&token, "collection_policies_get", &path, "", None).await;
    assert_eq!((r.data()["version"].as_i64(), r.data()["steps_count"].as_i64()), (Some(2), Some(6)));
    assert_eq!(r.data()["steps"][2]["id"], step_id.as_str());

    let step_path = [("cp_id", id), ("step_id", step_id.as_str())];
    let r = server
        .call(
            &token,
            "collection_policies_steps_update",
            &step_path,
            "",
            Some(json!({ "send_time": "07:00" })),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["send_time"]);
    let r = server
        .call(&token, "collection_policies_steps_update", &step_path, "", Some(json!({ "offset_days": 2 })))
        .await;
    assert_eq!(
        (r.status, r.data()["offset_days"].as_i64(), r.data()["version"].as_i64()),
        (200, Some(2), Some(2))
    );
    let r = server.call(&token, "collection_policies_steps_delete", &step_path, "", None).await;
    assert_eq!(r.status, 204, "{}", r.body);
    let r = server.call(&token, "collection_policies_steps_get", &step_path, "", None).await;
    assert_eq!(r.status, 404);
    let r = server.call(&token, "collection_policies_steps_list", &path, "", None).await;
    assert_eq!(r.data().as_array().unwrap().len(), 5);
    assert_eq!(r.body["meta"]["total"], 5);
}

#[tokio::test]
async fn an_escalation_that_asks_no_approval_and_a_bad_template_are_refused() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Recusas").await;
    let r = server
        .write(
            &token,
            "collection_policies_create",
            json!({
                "name": "Errada",
                "steps": [
                    { "offset_days": 10, "action": "request_decision", "requires_approval": false },
                    { "offset_days": 0, "channel": "sms", "template": { "body": "Olá {{nome}}" } },
                    { "offset_days": 1, "template": { "body": "sem canal" } },
                ],
            }),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        error_fields(&r),
        ["steps[0].requires_approval", "steps[1].template.body", "steps[2].channel"]
    );
    let r = server.read(&token, "collection_policies_list", "").await;
    assert_eq!(r.body["meta"]["total"], 0, "nothing was saved");
}

#[tokio::test]
async fn a_subject_holding_an_encoded_word_is_refused() {
    // `=?utf-8?B?4oCu?=` is U+202E once a mail reader decodes it: the text rule would pass
    // ASCII that shows a bidi override.
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Assuntos").await;
    let step = |subject: &str| {
        json!({ "offset_days": 0, "channel": "email",
                "template": { "subject": subject, "body": "Olá, {{debtor_name}}" } })
    };
    let r = server
        .write(
            &token,
            "collection_policies_create",
            json!({ "name": "Codificada", "steps": [step("Fatura =?utf-8?B?4oCu?= {{amount}}")] }),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.body["error"]["code"], "VALIDATION_ERROR", "{}", r.body);
    assert_eq!(error_fields(&r), ["steps[0].template.subject"]);
    let r = server
        .write(
            &token,
            "collection_policies_create",
            json!({ "name": "Simples", "steps": [step("Fatura ç =? sim")] }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
}

#[tokio::test]
async fn one_default_per_organization_and_deletes_only_what_no_charge_used() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Padrões").await;
    let first = server.write(&token, "collection_policies_create", regua()).await.data().clone();
    let first_id = first["id"].as_str().unwrap();
    let r =
        server.call(&token, "collection_policies_archive", &[("cp_id", first_id)], "", Some(json!({}))).await;
    assert_eq!((r.status, r.code()), (409, "CONFLICT"), "the default cannot be archived: {}", r.body);

    let r = server
        .call(&token, "collection_policies_duplicate", &[("cp_id", first_id)], "", Some(json!({})))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let copy = r.data().clone();
    assert_eq!(
        (copy["name"].as_str(), copy["status"].as_str(), copy["is_default"].as_bool()),
        (Some("Régua padrão (cópia)"), Some("draft"), Some(false))
    );
    assert_eq!(copy["steps_count"], 5);
    let copy_id = copy["id"].as_str().unwrap();

    // A draft cannot be the default; once active it takes the default from the first.
    let r = server
        .call(
            &token,
            "collection_policies_update",
            &[("cp_id", copy_id)],
            "",
            Some(json!({ "is_default": true })),
        )
        .await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    let r = server
        .call(
            &token,
            "collection_policies_update",
            &[("cp_id", copy_id)],
            "",
            Some(json!({ "status": "active", "is_default": true })),
        )
        .await;
    assert_eq!((r.status, r.data()["is_default"].as_bool()), (200, Some(true)), "{}", r.body);
    let r = server.call(&token, "collection_policies_get", &[("cp_id", first_id)], "", None).await;
    assert_eq!((r.data()["is_default"].as_bool(), r.data()["version"].as_i64()), (Some(false), Some(2)));

    // A charge that follows the first keeps it from being deleted; archiving is the way.
    let debtor = server.create_debtor(&token, "Rui Régua", &cpf(7401)).await;
    let r = server
        .write(
            &token,
            "charges_create",
            json!({ "debtor_id": debtor["id"], "amount": 10.0, "due_date": date_in(10), "cp_id": first_id }),
        )
        .await;
    assert_eq!((r.status, r.data()["cp_id"].as_str()), (201, Some(first_id)), "{}", r.body);
    let r = server.call(&token, "collection_policies_delete", &[("cp_id", first_id)], "", None).await;
    assert_eq!((r.status, r.code()), (409, "CONFLICT"), "{}", r.body);
    let r =
        server.call(&token, "collection_policies_archive", &[("cp_id", first_id)], "", Some(json!({}))).await;
    assert_eq!((r.status, r.data()["status"].as_str()), (200, Some("archived")), "{}", r.body);
    let r = server
        .write(
            &token,
            "charges_create",
            json!({ "debtor_id": debtor["id"], "amount": 10.0, "due_date": date_in(10), "cp_id": first_id }),
        )
        .await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["cp_id".to_string()]), "{}", r.body);
    let r = server.read(&token, "collection_policies_list", "").await;
    assert_eq!(r.body["meta"]["total"], 1, "archived policies are listed only when asked: {}", r.body);
    let r = server.read(&token, "collection_policies_list", "status=archived").await;
    assert_eq!(r.data()[0]["id"], first_id);

    // Not even a draft goes while a charge follows it.
    let followed = server
        .write(&token, "collection_policies_create", json!({ "name": "Seguida", "status": "draft" }))
        .await
        .data()
        .clone();
    let r = server
        .write(
            &token,
            "charges_create",
            json!({ "debtor_id": debtor["id"], "amount": 10.0, "due_date": date_in(10), "cp_id": followed["id"] }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = server
        .call(&token, "collection_policies_delete", &[("cp_id", followed["id"].as_str().unwrap())], "", None)
        .await;
    assert_eq!((r.status, r.code()), (409, "CONFLICT"), "{}", r.body);

    // A draft nobody used goes away, with its steps.
    let draft = server
        .write(&token, "collection_policies_create", json!({ "name": "Rascunho", "status": "draft" }))
        .await
        .data()
        .clone();
    assert_eq!(draft["is_default"], false);
    let draft_id = draft["id"].as_str().unwrap();
    let r = server.call(&token, "collection_policies_delete", &[("cp_id", draft_id)], "", None).await;
    assert_eq!(r.status, 204, "{}", r.body);
    let r = server.call(&token, "collection_policies_get", &[("cp_id", draft_id)], "", None).await;
    assert_eq!(r.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changing_what_the_engine_sends_needs_the_notify_scope() {
    let server = TestServer::start().await;
    let (org, token) = server.tenant("Escopos").await;
    let write_only = server.token(&org, "dunning.read dunning.write").await;
    let step =
        json!({ "offset_days": 0, "channel": "sms", "template": { "body": "{{debtor_name}}, vence hoje." } });
    let refused = |r: &crate::common::Resp| {
        assert_eq!((r.status, r.code()), (403, "INSUFFICIENT_SCOPE"), "{}", r.body);
        assert_eq!(r.body["error"]["details"]["required"], "dunning.notify", "{}", r.body);
    };

    // An active policy sends: a write-only token cannot make one, nor activate a draft.
    let r = server
        .write(&write_only, "collection_policies_create", json!({ "name": "Ativa", "steps": [step] }))
        .await;
    refused(&r);
    let draft = json!({ "name": "Rascunho", "status": "draft", "steps": [step] });
    let r = server.write(&write_only, "collection_policies_create", draft).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let cp = r.data()["id"].as_str().unwrap().to_string();
    let path = [("cp_id", cp.as_str())];
    // A draft's steps are the token's to shape.
    let r = server.call(&write_only, "collection_policies_steps_create", &path, "", Some(step.clone())).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let step_id = r.data()["id"].as_str().unwrap().to_string();
    let activate = json!({ "status": "active" });
    let r = server.call(&write_only, "collection_policies_update", &path, "", Some(activate.clone())).await;
    refused(&r);
    let r = server.call(&token, "collection_policies_update", &path, "", Some(activate)).await;
    assert_eq!(r.status, 200, "{}", r.body);

    // Once active, its steps are not: neither a new one nor a new text.
    let r = server.call(&write_only, "collection_policies_steps_create", &path, "", Some(step)).await;
    refused(&r);
    let path = [("cp_id", cp.as_str()), ("step_id", step_id.as_str())];
    let text = json!({ "template": { "body": "Pague já: outro texto." } });
    let r = server.call(&write_only, "collection_policies_steps_update", &path, "", Some(text.clone())).await;
    refused(&r);
    let r = server.call(&token, "collection_policies_steps_update", &path, "", Some(text)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Renaming the policy changes nothing sent.
    let path = [("cp_id", cp.as_str())];
    let r = server
        .call(&write_only, "collection_policies_update", &path, "", Some(json!({ "name": "Outro nome" })))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}
