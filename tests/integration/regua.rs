//! The régua end to end: a policy, charges due on the Friday before Carnival, and the engine
//! run day by day for 30 days. Each step reaches each debtor once, on its business day, by its
//! channel; opt-outs and missing contacts are skipped with the reason; paying stops the rest;
//! the escalation waits for a human.

use std::collections::BTreeMap;

use kobana_dunning::engine::run_once;
use serde_json::{Value, json};
use time::macros::{date, time};
use time::{Date, Duration, OffsetDateTime};

use crate::common::{TestServer, cpf};

/// Noon in São Paulo on a day, as the engine's instant.
fn noon(day: Date) -> OffsetDateTime {
    day.with_time(time!(15:00)).assume_utc()
}

/// The régua of these tests, and of the engine crash tests: a message on each channel and a
/// credit-bureau step.
pub(crate) fn policy() -> Value {
    json!({
        "name": "Régua do teste",
        "steps": [
            { "offset_days": -3, "channel": "email",
              "template": { "subject": "Vence em {{due_date}}", "body": "Olá, {{debtor_name}}! {{amount}} vence em {{due_date}}." } },
            { "offset_days": 0, "channel": "sms", "template": { "body": "{{debtor_name}}, vence hoje: {{amount}}" } },
            { "offset_days": 1, "channel": "whatsapp", "template": { "body": "{{debtor_name}}, venceu: {{amount}}, {{days_overdue}} dia(s)." } },
            { "offset_days": 5, "channel": "letter", "template": { "body": "Prezado(a) {{debtor_name}}, {{amount}} em aberto." } },
            { "offset_days": 10, "action": "credit_bureau" },
        ],
    })
}

/// A full postal address, for letters.
pub(crate) fn address() -> Value {
    json!({ "zipcode": "01310100", "street": "Av. Paulista", "number": "1000", "neighborhood": "Bela Vista",
            "city": "São Paulo", "state": "SP" })
}

/// (channel, local send day, status, skip reason) of a charge's notifications, oldest first.
async fn timeline(
    server: &TestServer,
    token: &str,
    charge_id: &str,
) -> Vec<(String, String, String, Option<String>)> {
    let r = server
        .read(token, "notifications_list", &format!("charge_id={charge_id}&sort_order=asc&per_page=100"))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.data()
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["channel"].as_str().unwrap().to_string(),
                n["scheduled_for"].as_str().unwrap()[..10].to_string(),
                n["status"].as_str().unwrap().to_string(),
                n["skip_reason"].as_str().map(str::to_string),
            )
        })
        .collect()
}

fn sent(channel: &str, day: &str) -> (String, String, String, Option<String>) {
    (channel.into(), day.into(), "sent".into(), None)
}

fn skipped(channel: &str, day: &str, reason: &str) -> (String, String, String, Option<String>) {
    (channel.into(), day.into(), "skipped".into(), Some(reason.into()))
}

#[tokio::test]
async fn thirty_days_of_the_regua_on_the_friday_before_carnival() {
    let server = TestServer::start().await;
    let (org_id, token) = server.tenant("Timeline").await;
    let r = server.write(&token, "collection_policies_create", policy()).await;
    assert_eq!(r.status, 201, "{}", r.body);

    let debtor = |name: &str, seed: u32, extra: Value| {
        let mut body = json!({ "name": name, "document": cpf(seed), "email": format!("{seed}@example.com.br"),
                               "mobile": "+5511987654321", "address": address() });
        for (k, v) in extra.as_object().unwrap() {
            if v.is_null() {
                body.as_object_mut().unwrap().remove(k);
            } else {
                body[k] = v.clone();
            }
        }
        body
    };
    let mut charges = BTreeMap::new();
    for (key, name, seed, extra) in [
        ("full", "Ana Completa", 7501, json!({})),
        ("opted_out", "Bia Sem SMS", 7502, json!({ "opt_out": { "sms": true } })),
        ("no_phone", "Caio Sem Celular", 7503, json!({ "mobile": null })),
        ("pays", "Davi Pagador", 7504, json!({})),
    ] {
        let r = server.write(&token, "debtors_create", debtor(name, seed, extra)).await;
        assert_eq!(r.status, 201, "{}", r.body);
        let charge =
            server.create_charge(&token, r.data()["id"].as_str().unwrap(), 1250.0, "2027-02-05").await;
        charges.insert(key, charge["id"].as_str().unwrap().to_string());
    }

    let start = date!(2027 - 01 - 27);
    for day in 0..30 {
        let today = start + Duration::days(day);
        run_once(&server.app.store, &server.app.providers, noon(today)).await.unwrap();
        if today == date!(2027 - 02 - 06) {
            let r = server.write_id(&token, "charges_settle", &charges["pays"], json!({})).await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
    }

    assert_eq!(
        timeline(&server, &token, &charges["full"]).await,
        [
            sent("email", "2027-02-02"),
            sent("sms", "2027-02-05"),
            sent("whatsapp", "2027-02-10"),
            sent("letter", "2027-02-10"),
        ]
    );
    assert_eq!(
        timeline(&server, &token, &charges["opted_out"]).await,
        [
            sent("email", "2027-02-02"),
            skipped("sms", "2027-02-05", "opted_out"),
            sent("whatsapp", "2027-02-10"),
            sent("letter", "2027-02-10"),
        ]
    );
    assert_eq!(
        timeline(&server, &token, &charges["no_phone"]).await,
        [
            sent("email", "2027-02-02"),
            skipped("sms", "2027-02-05", "missing_contact"),
            skipped("whatsapp", "2027-02-10", "missing_contact"),
            sent("letter", "2027-02-10"),
        ]
    );
    assert_eq!(
        timeline(&server, &token, &charges["pays"]).await,
        [sent("email", "2027-02-02"), sent("sms", "2027-02-05")],
        "paid on the 6th: nothing after"
    );

    for key in ["full", "opted_out", "no_phone"] {
        let r = server.read_id(&token, "charges_get", &charges[key]).await;
        assert_eq!(
            (r.data()["status"].as_str(), r.data()["dunning_status"].as_str()),
            (Some("overdue"), Some("awaiting_decision")),
            "{key}: {}",
            r.body
        );
    }
    let r = server.read_id(&token, "charges_get", &charges["pays"]).await;
    assert_eq!(
        (r.data()["status"].as_str(), r.data()["dunning_status"].as_str()),
        (Some("paid"), Some("closed"))
    );

    // The messages were rendered when sent, in the forms a debtor reads.
    let r = server
        .read(&token, "notifications_list", &format!("charge_id={}&channel=email", charges["full"]))
        .await;
    // A list row leaves the address and the message out; the notification has them.
    assert!(r.data()[0].get("body").is_none(), "{}", r.body);
    let r = server.read_id(&token, "notifications_get", r.data()[0]["id"].as_str().unwrap()).await;
    let email = r.data();
    assert_eq!(email["subject"], "Vence em 05/02/2027");
    assert_eq!(email["body"], "Olá, Ana Completa! R$ 1.250,00 vence em 05/02/2027.");
    assert_eq!(email["to"], "7501@example.com.br");
    assert_eq!((email["provider"].as_str(), email["attempts"].as_i64()), (Some("outbox"), Some(1)));
    let r = server
        .read(&token, "notifications_list", &format!("charge_id={}&channel=whatsapp", charges["full"]))
        .await;
    let r = server.read_id(&token, "notifications_get", r.data()[0]["id"].as_str().unwrap()).await;
    assert_eq!(r.data()["body"], "Ana Completa, venceu: R$ 1.250,00, 5 dia(s).");

    // The timeline is in the events too: each step sent moves the charge's current step
    // (the first also starts its régua), then the decision, with the step that asked for it.
    let events = server.app.store.events_of(&org_id, &charges["full"]).await.unwrap();
    let codes: Vec<&str> = events.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(
        codes,
        [
            "charge.db.created",
            "charge.db.updated",
            "charge.db.updated",
            "charge.overdue",
            "charge.db.updated",
            "charge.db.updated",
            "charge.decision_required"
        ]
    );
    assert_eq!(events[1].1["changes"]["dunning_status"], json!(["not_started", "active"]));
    assert!(events[2].1["changes"]["current_step_id"].is_array(), "{:?}", events[2]);
    assert_eq!(events[6].1["action"], "credit_bureau");

    // Running a day again sends nothing new.
    let again =
        run_once(&server.app.store, &server.app.providers, noon(date!(2027 - 02 - 10))).await.unwrap();
    assert_eq!((again.sent, again.skipped), (0, 0));

    // A charge back from a decision (the operations that decide come later) is not escalated
    // again by the same step.
    server
        .execute_sql(
            "UPDATE charges SET dunning_status = 'active' WHERE id = $1",
            &[charges["full"].as_str()],
        )
        .await;
    let again =
        run_once(&server.app.store, &server.app.providers, noon(date!(2027 - 02 - 16))).await.unwrap();
    assert_eq!(again.awaiting_decision, 0, "{again:?}");
    let r = server.read_id(&token, "charges_get", &charges["full"]).await;
    assert_eq!(r.data()["dunning_status"], "active");
}

#[tokio::test]
async fn a_late_pass_catches_up_but_never_replays_before_a_policy_changed() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Atraso").await;
    let r = server.write(&token, "collection_policies_create", policy()).await;
    let cp_id = r.data()["id"].as_str().unwrap().to_string();
    let r = server
        .write(
            &token,
            "debtors_create",
            json!({ "name": "Ivo Atrasado", "document": cpf(7540), "email": "ivo@example.com.br" }),
        )
        .await;
    let charge = server.create_charge(&token, r.data()["id"].as_str().unwrap(), 70.0, "2027-02-05").await;
    let id = charge["id"].as_str().unwrap();

    // The policy became what it is on the 3rd (a new default, a copy, a changed step): the
    // e-mail of the 2nd is not sent on the 4th. As after any change, the engine computes its
    // charges' next actions again (scheduled_version).
    server
        .execute_sql(
            "UPDATE collection_policies SET updated_at = $1, scheduled_version = NULL WHERE id = $2",
            &["2027-02-03T12:00:00.000000Z", cp_id.as_str()],
        )
        .await;
    let report =
        run_once(&server.app.store, &server.app.providers, noon(date!(2027 - 02 - 04))).await.unwrap();
    assert_eq!(report.sent, 0, "{report:?}");
    // Unchanged since long before, the engine that was down on the 2nd sends it late.
    server
        .execute_sql(
            "UPDATE collection_policies SET updated_at = $1, scheduled_version = NULL WHERE id = $2",
            &["2026-12-01T12:00:00.000000Z", cp_id.as_str()],
        )
        .await;
    let report =
        run_once(&server.app.store, &server.app.providers, noon(date!(2027 - 02 - 04))).await.unwrap();
    assert_eq!(report.sent, 1, "{report:?}");
    assert_eq!(timeline(&server, &token, id).await, [sent("email", "2027-02-02")]);
}

#[tokio::test]
async fn outside_the_window_and_on_holidays_nothing_is_sent() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Janela").await;
    let r = server.write(&token, "collection_policies_create", policy()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = server
        .write(
            &token,
            "debtors_create",
            json!({ "name": "Eva Janela", "document": cpf(7510), "email": "eva@example.com.br" }),
        )
        .await;
    let charge = server.create_charge(&token, r.data()["id"].as_str().unwrap(), 80.0, "2027-02-05").await;
    let id = charge["id"].as_str().unwrap();

    // 07:00 in São Paulo on the e-mail's day: before the window opens.
    let early = date!(2027 - 02 - 02).with_time(time!(10:00)).assume_utc();
    assert_eq!(run_once(&server.app.store, &server.app.providers, early).await.unwrap().sent, 0);
    // Carnival Monday is no business day, whatever is due.
    assert_eq!(
        run_once(&server.app.store, &server.app.providers, noon(date!(2027 - 02 - 08))).await.unwrap().sent,
        0
    );
    assert!(timeline(&server, &token, id).await.is_empty());
    // Late in the window on the same Tuesday, the e-mail goes.
    let late = date!(2027 - 02 - 02).with_time(time!(20:59)).assume_utc();
    assert_eq!(run_once(&server.app.store, &server.app.providers, late).await.unwrap().sent, 1);
}

#[tokio::test]
async fn two_engines_at_once_send_each_step_once() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Dois motores").await;
    let r = server.write(&token, "collection_policies_create", policy()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let mut ids = Vec::new();
    for seed in 0..6 {
        let r = server
            .write(
                &token,
                "debtors_create",
                json!({ "name": format!("Devedor {seed}"), "document": cpf(7520 + seed), "email": "d@example.com.br" }),
            )
            .await;
        let c = server.create_charge(&token, r.data()["id"].as_str().unwrap(), 50.0, "2027-02-05").await;
        ids.push(c["id"].as_str().unwrap().to_string());
    }
    let replica = server.replica().await;
    let day = noon(date!(2027 - 02 - 02));
    let (a, b) = tokio::join!(
        run_once(&server.app.store, &server.app.providers, day),
        run_once(&replica.app.store, &replica.app.providers, day)
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.sent + b.sent, 6, "{a:?} {b:?}");
    for id in &ids {
        let r = server.read(&token, "notifications_list", &format!("charge_id={id}")).await;
        assert_eq!(r.body["meta"]["total"], 1, "one e-mail per charge: {}", r.body);
    }
}

#[tokio::test]
async fn a_person_sends_resends_and_cannot_cancel_what_went() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Manual").await;
    let r = server
        .write(
            &token,
            "debtors_create",
            json!({ "name": "Fábio Manual", "document": cpf(7530), "email": "fabio@example.com.br",
                    "opt_out": { "whatsapp": true } }),
        )
        .await;
    let debtor_id = r.data()["id"].as_str().unwrap().to_string();
    let charge = server.create_charge(&token, &debtor_id, 321.5, "2027-03-10").await;
    let id = charge["id"].as_str().unwrap();

    let r = server.write_id(&token, "charges_notify", id, json!({ "channel": "email" })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let n = r.data().clone();
    assert_eq!(
        (n["origin"].as_str(), n["status"].as_str(), n["provider"].as_str()),
        (Some("manual"), Some("sent"), Some("outbox"))
    );
    assert_eq!(n["subject"], "Cobrança de R$ 321,50 com vencimento em 10/03/2027");

    for (channel, code) in [("whatsapp", "INVALID_STATE"), ("sms", "INVALID_STATE")] {
        let r = server
            .write(&token, "notifications_create", json!({ "charge_id": id, "channel": channel }))
            .await;
        assert_eq!((r.status, r.code()), (409, code), "{channel}: {}", r.body);
    }
    let r = server
        .write(&token, "notifications_create", json!({ "charge_id": "chg_nope", "channel": "email" }))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);

    let n_id = n["id"].as_str().unwrap();
    let r = server.write_id(&token, "notifications_resend", n_id, json!({})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        (r.data()["resend_of_id"].as_str(), r.data()["origin"].as_str()),
        (Some(n_id), Some("resend"))
    );
    assert_eq!(r.data()["body"], n["body"]);

    let r = server.write_id(&token, "notifications_cancel", n_id, json!({})).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);

    let r = server.write_id(&token, "charges_cancel", id, json!({})).await;
    assert_eq!(r.status, 200);
    let r = server.write_id(&token, "charges_notify", id, json!({ "channel": "email" })).await;
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "a canceled charge gets no message: {}", r.body);
    let r = server.read(&token, "notifications_list", &format!("charge_id={id}")).await;
    assert_eq!(r.body["meta"]["total"], 2);
}
