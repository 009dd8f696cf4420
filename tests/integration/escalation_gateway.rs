//! A production organization's credit-bureau reports and protests through the HTTP gateway: the
//! engine sends what the bureau or the notary must be told, signed, with `X-Kobana-Event` and an
//! idempotency key, once; their steps come back as signed callbacks to /gateway/escalations; an
//! unsigned or forged callback changes nothing; a protest paid at the notary pays its charge.

use kobana_dunning::engine::run_once;
use kobana_dunning::providers::{ProviderConfig, Providers};
use serde_json::{Value, json};
use time::OffsetDateTime;
use tokio::sync::mpsc::UnboundedReceiver;

use crate::common::{ALL, TestServer, cpf, date_in};
use crate::receiver::{Posted, SECRET, gateway, sign};

/// A server whose gateway answers `status`, a production organization's token, and an overdue
/// charge of a debtor with an address whose letter went out.
async fn production(status: u16, seed: u32) -> (TestServer, String, String, UnboundedReceiver<Posted>) {
    let (port, mut posts) = gateway(status).await;
    let providers = Providers::new(&ProviderConfig {
        gateway_url: Some(format!("http://127.0.0.1:{port}/gw")),
        gateway_secret: Some(SECRET.into()),
        allow_insecure_targets: true,
        ..ProviderConfig::default()
    })
    .expect("providers");
    let server = TestServer::start_with_providers(providers).await;
    let org =
        kobana_dunning::admin::create_organization(&server.app.store, "Produção", "production", None, false)
            .await
            .unwrap();
    let token = server.token(&org, ALL).await;
    let address = json!({ "zipcode": "01310100", "street": "Av. Paulista", "number": "1000",
                          "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP" });
    let r = server
        .write(
            &token,
            "debtors_create",
            json!({ "name": "Gina Produção", "document": cpf(seed), "address": address }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let charge = server.create_charge(&token, r.data()["id"].as_str().unwrap(), 1250.0, &date_in(-40)).await;
    let charge = charge["id"].as_str().unwrap().to_string();
    if status < 300 {
        // A production letter is queued, and leaves through the gateway right after the answer.
        let r = server.write_id(&token, "charges_notify", &charge, json!({ "channel": "letter" })).await;
        assert_eq!(r.status, 201, "{}", r.body);
        let letter = r.data()["id"].as_str().unwrap().to_string();
        let mut status = String::new();
        for _ in 0..200 {
            status = server.read_id(&token, "notifications_get", &letter).await.data()["status"]
                .as_str()
                .unwrap()
                .into();
            if status == "sent" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        assert_eq!(status, "sent");
        let posted = posts.recv().await.expect("the gateway got the letter");
        assert!(posted.event.is_none() && posted.body["channel"] == "letter", "{}", posted.body);
    }
    (server, token, charge, posts)
}

async fn pass(server: &TestServer) {
    run_once(&server.app.store, &server.app.providers, OffsetDateTime::now_utc()).await.expect("pass");
}

/// Posts a callback, signed with the gateway's secret or with `forged` instead.
async fn callback(server: &TestServer, body: Value, signature: Option<&str>) -> (u16, Value) {
    let raw = body.to_string();
    let signature = signature.map_or_else(|| sign(raw.as_bytes()), str::to_string);
    let r = server
        .raw(reqwest::Method::POST, "/gateway/escalations")
        .header("Content-Type", "application/json")
        .header("X-Kobana-Signature", signature)
        .body(raw)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_goes_to_the_bureau_and_its_steps_come_back_signed() {
    let (server, token, charge, mut posts) = production(200, 9501).await;
    let r = server.write(&token, "credit_bureau_reports_create", json!({ "charge_id": charge })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.data()["id"].as_str().unwrap().to_string();

    pass(&server).await;
    let sent = posts.try_recv().expect("the gateway got the report");
    assert!(sent.signed, "HMAC-SHA256 of the raw body");
    assert_eq!(sent.event.as_deref(), Some("credit_bureau_report.add"));
    assert_eq!(sent.idempotency_key, Some(format!("{id}:credit_bureau_report.add")));
    assert_eq!(sent.body["id"], id.as_str());
    assert_eq!(sent.body["amount"], 1250.0);
    assert_eq!(sent.body["debtor"]["address"]["city"], "São Paulo");
    assert!(sent.body["notice_notification_id"].as_str().unwrap().starts_with("ntf_"), "{}", sent.body);
    pass(&server).await;
    assert!(posts.try_recv().is_err(), "a request the gateway took is not sent again");

    // Unsigned or forged callbacks change nothing.
    let notice = json!({ "object": "credit_bureau_report", "id": id, "status": "notice_sent" });
    let (status, body) = callback(&server, notice.clone(), Some("sha256=00")).await;
    assert_eq!((status, body["error"]["code"].as_str()), (401, Some("UNAUTHORIZED")), "{body}");
    let (status, _) = callback(&server, notice.clone(), Some("")).await;
    assert_eq!(status, 401);
    let other_key = {
        use hmac::{Hmac, Mac};
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(b"outro-segredo").unwrap();
        mac.update(notice.to_string().as_bytes());
        format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
    };
    let (status, _) = callback(&server, notice.clone(), Some(&other_key)).await;
    assert_eq!(status, 401, "signed with another secret");
    assert_eq!(server.read_id(&token, "credit_bureau_reports_get", &id).await.data()["status"], "requested");

    let (status, body) = callback(&server, notice.clone(), None).await;
    assert_eq!((status, body["data"]["status"].as_str()), (200, Some("notice_sent")), "{body}");
    let version = body["data"]["version"].clone();
    let (status, body) = callback(&server, notice, None).await;
    assert_eq!((status, &body["data"]["version"]), (200, &version), "the same step again: {body}");
    let skipped = json!({ "object": "credit_bureau_report", "id": id, "status": "removed" });
    let (status, body) = callback(&server, skipped, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("INVALID_STATE")), "{body}");
    let (status, _) = callback(
        &server,
        json!({ "object": "credit_bureau_report", "id": "cbr_x", "status": "reported" }),
        None,
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) =
        callback(&server, json!({ "object": "boleto", "id": id, "status": "reported" }), None).await;
    assert_eq!(status, 422);

    let included =
        json!({ "object": "credit_bureau_report", "id": id, "status": "reported", "protocol": "SER-778" });
    let (status, body) = callback(&server, included, None).await;
    assert_eq!((status, body["data"]["external_protocol"].as_str()), (200, Some("SER-778")), "{body}");
    assert_eq!(
        server.read_id(&token, "charges_get", &charge).await.data()["credit_bureau_status"],
        "reported"
    );

    // Paid: the removal goes to the bureau, and it says when it is done.
    let r = server.write_id(&token, "charges_settle", &charge, json!({})).await;
    assert_eq!(r.data()["credit_bureau_status"], "removal_requested", "{}", r.body);
    pass(&server).await;
    let removal = posts.try_recv().expect("the gateway got the removal");
    assert_eq!(removal.event.as_deref(), Some("credit_bureau_report.remove"));
    assert_eq!(removal.body["reason"], "paid");
    assert!(removal.body["removal_due_by"].is_string(), "{}", removal.body);
    let removed = json!({ "object": "credit_bureau_report", "id": id, "status": "removed" });
    let (status, body) = callback(&server, removed, None).await;
    assert_eq!((status, body["data"]["status"].as_str()), (200, Some("removed")), "{body}");
    pass(&server).await;
    assert!(posts.try_recv().is_err(), "nothing more is owed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_protest_paid_at_the_notary_pays_its_charge() {
    let (server, token, charge, mut posts) = production(200, 9502).await;
    // The charge also stands reported: the payment at the notary takes that back too.
    let r = server.write(&token, "credit_bureau_reports_create", json!({ "charge_id": charge })).await;
    let report = r.data()["id"].as_str().unwrap().to_string();
    pass(&server).await;
    let _ = posts.try_recv();
    let included = json!({ "object": "credit_bureau_report", "id": report, "status": "reported" });
    assert_eq!(callback(&server, included, None).await.0, 200);
    let r = server
        .write(
            &token,
            "protests_create",
            json!({ "charge_id": charge, "title_type": "DM", "document_number": "DM-1" }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.data()["id"].as_str().unwrap().to_string();
    pass(&server).await;
    let sent = posts.try_recv().expect("the gateway got the title");
    assert_eq!((sent.event.as_deref(), sent.body["title_type"].as_str()), (Some("protest.send"), Some("DM")));
    assert_eq!(sent.body["notary"]["city"], "São Paulo");

    for (status, extra) in [
        ("sent", json!({ "protocol": "CART-1" })),
        ("intimated", json!({})),
        ("paid", json!({ "costs_amount": 38.5 })),
    ] {
        let mut body = json!({ "object": "protest", "id": id, "status": status });
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let (code, answer) = callback(&server, body, None).await;
        assert_eq!((code, answer["data"]["status"].as_str()), (200, Some(status)), "{answer}");
    }
    let protest = server.read_id(&token, "protests_get", &id).await;
    assert_eq!(
        (protest.data()["protocol_number"].as_str(), protest.data()["costs_amount"].as_f64()),
        (Some("CART-1"), Some(38.5))
    );
    let paid = server.read_id(&token, "charges_get", &charge).await.data().clone();
    assert_eq!(
        (paid["status"].as_str(), paid["protest_status"].as_str()),
        (Some("paid"), Some("paid")),
        "{paid}"
    );
    assert_eq!(
        (paid["paid_amount"].as_f64(), paid["credit_bureau_status"].as_str()),
        (Some(1250.0), Some("removal_requested"))
    );
    pass(&server).await;
    let removal = posts.try_recv().expect("the bureau is asked to remove the report");
    assert_eq!(removal.event.as_deref(), Some("credit_bureau_report.remove"));
    assert!(posts.try_recv().is_err(), "a paid protest owes the notary nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_title_the_gateway_refuses_is_rejected_with_the_reason() {
    let (server, token, charge, _posts) = production(422, 9503).await;
    let r = server
        .write(
            &token,
            "protests_create",
            json!({ "charge_id": charge, "title_type": "DS", "document_number": "NF-9" }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    pass(&server).await;
    let protest = server.read_id(&token, "protests_get", r.data()["id"].as_str().unwrap()).await;
    assert_eq!(protest.data()["status"], "rejected", "{}", protest.body);
    assert!(protest.data()["failure_reason"].as_str().unwrap().contains("422"), "{}", protest.body);
    assert_eq!(server.read_id(&token, "charges_get", &charge).await.data()["protest_status"], "rejected");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_gateway_a_production_organization_files_nothing() {
    let server = TestServer::start().await;
    let org =
        kobana_dunning::admin::create_organization(&server.app.store, "Produção", "production", None, false)
            .await
            .unwrap();
    let token = server.token(&org, ALL).await;
    let debtor = server.create_debtor(&token, "Gina Produção", &cpf(9504)).await;
    let charge = server.create_charge(&token, debtor["id"].as_str().unwrap(), 10.0, &date_in(-40)).await;
    let r = server
        .write(
            &token,
            "protests_create",
            json!({ "charge_id": charge["id"], "title_type": "DS", "document_number": "1" }),
        )
        .await;
    // The address comes first among the rules; then the gateway.
    assert_eq!((r.status, r.code()), (409, "INVALID_STATE"), "{}", r.body);
    let address = json!({ "zipcode": "01310100", "street": "Av. Paulista", "number": "1000",
                          "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP" });
    let r = server
        .write_id(&token, "debtors_update", debtor["id"].as_str().unwrap(), json!({ "address": address }))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = server
        .write(
            &token,
            "protests_create",
            json!({ "charge_id": charge["id"], "title_type": "DS", "document_number": "1" }),
        )
        .await;
    assert_eq!(
        (r.status, r.body["error"]["details"]["status"].as_str()),
        (409, Some("no_gateway")),
        "{}",
        r.body
    );
    let (status, _) =
        callback(&server, json!({ "object": "protest", "id": "prt_x", "status": "sent" }), None).await;
    assert_eq!(status, 404, "no gateway, no callbacks");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_taken_back_before_the_outside_answers_is_still_taken_back() {
    let (server, token, charge, mut posts) = production(200, 9505).await;
    let r = server.write(&token, "credit_bureau_reports_create", json!({ "charge_id": charge })).await;
    let report = r.data()["id"].as_str().unwrap().to_string();
    let r = server
        .write(
            &token,
            "protests_create",
            json!({ "charge_id": charge, "title_type": "DS", "document_number": "NF-3" }),
        )
        .await;
    let protest = r.data()["id"].as_str().unwrap().to_string();
    pass(&server).await;
    let kinds: Vec<String> = std::iter::from_fn(|| posts.try_recv().ok()).filter_map(|p| p.event).collect();
    assert_eq!(kinds, ["credit_bureau_report.add", "protest.send"]);

    // Both taken back here before the bureau or the notary said anything: each is told.
    let r =
        server.write_id(&token, "credit_bureau_reports_remove", &report, json!({ "reason": "error" })).await;
    assert_eq!(r.data()["status"], "canceled", "{}", r.body);
    let r = server.write_id(&token, "protests_cancel", &protest, json!({})).await;
    assert_eq!(r.data()["status"], "withdrawn", "{}", r.body);
    pass(&server).await;
    let kinds: Vec<String> = std::iter::from_fn(|| posts.try_recv().ok()).filter_map(|p| p.event).collect();
    assert_eq!(kinds, ["credit_bureau_report.remove", "protest.withdraw"]);

    // The answers cross: the bureau included the debtor anyway, the notary drew the protest.
    let included = json!({ "object": "credit_bureau_report", "id": report, "status": "reported" });
    let (status, body) = callback(&server, included, None).await;
    assert_eq!((status, body["data"]["status"].as_str()), (200, Some("removal_requested")), "{body}");
    let drawn = json!({ "object": "protest", "id": protest, "status": "protested" });
    let (status, body) = callback(&server, drawn, None).await;
    assert_eq!((status, body["data"]["status"].as_str()), (200, Some("cancellation_requested")), "{body}");
    pass(&server).await;
    let kinds: Vec<String> = std::iter::from_fn(|| posts.try_recv().ok()).filter_map(|p| p.event).collect();
    assert_eq!(kinds, ["credit_bureau_report.remove", "protest.cancel"]);
    pass(&server).await;
    assert!(posts.try_recv().is_err(), "each told once");
}
