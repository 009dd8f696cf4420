//! Payments coming in: the organization's Pix account gives every open charge a code, messages
//! carry only the ways to pay a charge has, and a signed Kobana delivery settles its charge once.

use hmac::{Hmac, Mac};
use kobana_dunning::domain::pix::BrCode;
use reqwest::Method;
use serde_json::{Value, json};
use sha2::Sha256;

use crate::common::{Resp, TestServer, cpf, date_in, send};

const SECRET: &str = "whsec_3f9a1c7e5b2d4f6a8c0e";

fn id(v: &Value) -> String {
    v["id"].as_str().expect("an id").to_string()
}

/// A debtor with an e-mail and a charge of `amount` due in `days`.
async fn debtor_and_charge(
    s: &TestServer,
    token: &str,
    seed: u32,
    amount: f64,
    days: i64,
) -> (String, Value) {
    let debtor = s
        .write(
            token,
            "debtors_create",
            json!({
                "name": "Rosa Pagante",
                "document": cpf(seed),
                "email": "rosa@example.com.br",
                "address": {
                    "zipcode": "50030230", "street": "Rua do Bom Jesus", "number": "125",
                    "neighborhood": "Recife", "city": "Recife", "state": "PE"
                },
            }),
        )
        .await;
    let debtor = id(debtor.data());
    let charge = s.create_charge(token, &debtor, amount, &date_in(days)).await;
    (debtor, charge)
}

async fn set_pix(s: &TestServer, token: &str) -> Resp {
    s.call(
        token,
        "organization_pix_update",
        &[],
        "",
        Some(json!({ "key": "+55 (11) 98765-4321", "merchant_name": "Loja da Esquina", "merchant_city": "Recife" })),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_organization_pix_key_gives_each_open_charge_a_code_for_its_balance() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let (_, charge) = debtor_and_charge(&s, &token, 61, 250.0, 10).await;
    assert!(charge["pix"].is_null(), "no key, no code: {charge}");

    // Changing where payments go changes every message: it needs dunning.notify too.
    let writer = s.token(&org, "dunning.read dunning.write").await;
    let refused = set_pix(&s, &writer).await;
    assert_eq!((refused.status, refused.code()), (403, "INSUFFICIENT_SCOPE"), "{}", refused.body);
    let bad = s.call(&token, "organization_pix_update", &[], "", Some(json!({ "key": "123" }))).await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    let me = set_pix(&s, &token).await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.data()["organization"]["pix"]["key"], "+5511987654321");
    assert_eq!(me.data()["organization"]["pix"]["key_type"], "phone");

    let shown = s.read_id(&token, "charges_get", &id(&charge)).await;
    let pix = &shown.data()["pix"];
    let code = BrCode::parse(pix["emv"].as_str().unwrap()).expect("a valid BR Code");
    assert_eq!(code.key, "+5511987654321");
    assert_eq!(code.amount_cents, Some(25_000));
    assert_eq!(code.txid.as_deref(), pix["txid"].as_str());
    assert_eq!(code.txid.as_deref(), Some(&id(&charge)["chg_".len()..][..25]));

    // Its QR code, over /v1 and as the charge's MCP resource: the same PNG.
    let png = s
        .raw(Method::GET, &format!("/v1/charges/{}/pix", id(&charge)))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(png.status(), 200);
    assert_eq!(png.headers()["content-type"], "image/png");
    let disposition = format!("attachment; filename=\"pix-{}.png\"", id(&charge));
    assert_eq!(png.headers()["content-disposition"], disposition.as_str());
    let png = png.bytes().await.unwrap();
    let uri = format!("kobana://dunning/charges/{}/pix.png", id(&charge));
    let read = s.mcp_2026(&token, "resources/read", json!({ "uri": uri }), json!({})).await;
    let content = &read.result()["contents"][0];
    assert_eq!(content["mimeType"], "image/png", "{}", read.body);
    use base64::Engine;
    let blob = base64::engine::general_purpose::STANDARD.decode(content["blob"].as_str().unwrap()).unwrap();
    assert!(blob.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    assert_eq!(png.as_ref(), blob.as_slice());

    // A partial payment: the code asks for what is left, under the same reference.
    let paid = s.write_id(&token, "charges_settle", &id(&charge), json!({ "paid_amount": 100.0 })).await;
    assert_eq!(paid.status, 200, "{}", paid.body);
    let code = BrCode::parse(paid.data()["pix"]["emv"].as_str().unwrap()).unwrap();
    assert_eq!(code.amount_cents, Some(15_000));
    assert_eq!(code.txid.as_deref(), pix["txid"].as_str());

    // The standard message carries it; a template asking for a boleto line the charge lacks
    // is refused, not sent with a hole.
    let sent = s.write_id(&token, "charges_notify", &id(&charge), json!({ "channel": "email" })).await;
    assert_eq!(sent.status, 201, "{}", sent.body);
    let body = sent.data()["body"].as_str().unwrap();
    assert!(body.contains(paid.data()["pix"]["emv"].as_str().unwrap()), "{body}");
    assert!(!body.contains("Linha digitável"), "{body}");
    let holed = s
        .write_id(
            &token,
            "charges_notify",
            &id(&charge),
            json!({ "channel": "email", "template": { "subject": "Boleto", "body": "Linha: {{payment_line}}" } }),
        )
        .await;
    assert_eq!((holed.status, holed.code()), (409, "INVALID_STATE"), "{}", holed.body);
    assert!(holed.body["error"]["message"].as_str().unwrap().contains("{{payment_line}}"), "{}", holed.body);

    // Paid in full, the charge offers no code any more.
    let closed = s.write_id(&token, "charges_settle", &id(&charge), json!({})).await;
    assert!(closed.data()["pix"].is_null(), "{}", closed.body);
}

fn signature(secret: &str, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// Posts a delivery to the receiver at `path`, signed with `secret`.
async fn deliver(
    s: &TestServer,
    path: &str,
    secret: &str,
    event: &str,
    delivery: &str,
    body: &Value,
) -> Resp {
    let bytes = serde_json::to_vec(body).unwrap();
    let request = s
        .raw(Method::POST, path)
        .header("content-type", "application/json")
        .header("x-kobana-event", event)
        .header("x-kobana-delivery-id", delivery)
        .header("x-kobana-signature", signature(secret, &bytes))
        .body(bytes);
    send(request).await
}

fn paid(object: Value) -> Value {
    json!({ "event_code": "bank_billet.paid", "object": object, "changes": { "status": ["opened", "paid"] } })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_kobana_delivery_settles_its_charge_once_and_the_regua_stops() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let (debtor, charge) = debtor_and_charge(&s, &token, 62, 320.0, -20).await;
    let charge_id = id(&charge);
    s.write_id(&token, "charges_update", &charge_id, json!({ "external_id": "NF-2026-0042" })).await;
    // Reported to the credit bureau while it was overdue, after the prior notice.
    let letter = s.write_id(&token, "charges_notify", &charge_id, json!({ "channel": "letter" })).await;
    assert_eq!(letter.status, 201, "{}", letter.body);
    let report = s.write(&token, "credit_bureau_reports_create", json!({ "charge_id": charge_id })).await;
    assert_eq!(report.status, 201, "{}", report.body);

    let registered = s.write(&token, "payment_receiver_create", json!({ "secret": SECRET })).await;
    assert_eq!(registered.status, 201, "{}", registered.body);
    let url = registered.data()["url"].as_str().unwrap().to_string();
    let path = &url[url.find("/receivers/").expect("a receiver path")..];
    let kept = s.read(&token, "events_list", "code=payment_receiver.created").await;
    assert_eq!(kept.data().as_array().unwrap().len(), 1, "{}", kept.body);
    assert!(!kept.body.to_string().contains(&url[url.find("kd_rcv_").unwrap()..]), "the URL is not kept");

    // A bad signature: 498, nothing changes.
    let body = paid(
        json!({ "id": 4242, "external_id": "NF-2026-0042", "paid_amount": 320.0, "paid_at": date_in(0) }),
    );
    let forged = deliver(&s, path, "not-the-secret-at-all", "bank_billet.paid", "d-1", &body).await;
    assert_eq!(forged.status, 498, "{}", forged.body);
    assert_eq!(s.read_id(&token, "charges_get", &charge_id).await.data()["status"], "overdue");

    // An event the receiver does not handle: 204. A ping: 200.
    let other = deliver(&s, path, SECRET, "bank_billet.canceled", "d-0", &body).await;
    assert_eq!(other.status, 204);
    let unknown =
        deliver(&s, "/receivers/kobana/kd_rcv_nothing", SECRET, "bank_billet.paid", "d-1", &body).await;
    assert_eq!(unknown.status, 404);

    // Signed: the charge is paid, its dunning closed, its bureau record on its way out.
    let taken = deliver(&s, path, SECRET, "bank_billet.paid", "d-1", &body).await;
    assert_eq!(taken.status, 200, "{}", taken.body);
    assert_eq!(taken.body["data"]["status"], "matched");
    let settled = s.read_id(&token, "charges_get", &charge_id).await;
    assert_eq!(settled.data()["status"], "paid", "{}", settled.body);
    assert_eq!(settled.data()["paid_amount"], 320.0);
    let report = s.read_id(&token, "credit_bureau_reports_get", &id(report.data())).await;
    assert!(
        matches!(report.data()["status"].as_str(), Some("removal_requested" | "removed" | "canceled")),
        "{}",
        report.body
    );

    // The same delivery again, and the same signed body under another delivery id: taken once.
    let again = deliver(&s, path, SECRET, "bank_billet.paid", "d-1", &body).await;
    assert_eq!((again.status, &again.body["data"]["duplicate"]), (200, &json!(true)), "{}", again.body);
    let replayed = deliver(&s, path, SECRET, "bank_billet.paid", "d-1-replayed", &body).await;
    assert_eq!(replayed.body["data"]["duplicate"], json!(true), "{}", replayed.body);
    let events = s.read(&token, "events_list", &format!("resource_id={charge_id}&code=charge.paid")).await;
    assert_eq!(events.data().as_array().unwrap().len(), 1, "{}", events.body);
    assert_eq!(events.data()[0]["actor"]["type"], "system");

    // The next pass sends that debtor nothing.
    let before = s.read(&token, "notifications_list", &format!("debtor_id={debtor}")).await;
    kobana_dunning::engine::run_once(&s.app.store, &s.app.providers, time::OffsetDateTime::now_utc())
        .await
        .unwrap();
    let after = s.read(&token, "notifications_list", &format!("debtor_id={debtor}")).await;
    assert_eq!(after.body["meta"]["total"], before.body["meta"]["total"], "{}", after.body);

    // A payment naming no charge waits for a person, who assigns it.
    let (_, open) = debtor_and_charge(&s, &token, 63, 90.0, 5).await;
    let stray = paid(json!({ "external_id": "NF-unknown", "paid_amount": 90.0 }));
    let kept = deliver(&s, path, SECRET, "bank_billet.paid", "d-2", &stray).await;
    assert_eq!(kept.body["data"]["status"], "unmatched", "{}", kept.body);
    let waiting = s.read(&token, "payments_list", "status=unmatched").await;
    assert_eq!(waiting.data().as_array().unwrap().len(), 1, "{}", waiting.body);
    let payment = id(&waiting.data()[0]);
    let assigned = s.write_id(&token, "payments_assign", &payment, json!({ "charge_id": id(&open) })).await;
    assert_eq!(assigned.status, 200, "{}", assigned.body);
    assert_eq!(assigned.data()["status"], "assigned");
    assert_eq!(s.read_id(&token, "charges_get", &id(&open)).await.data()["status"], "paid");
    let twice = s.write_id(&token, "payments_assign", &payment, json!({ "charge_id": id(&open) })).await;
    assert_eq!(twice.status, 409, "{}", twice.body);

    // More than the balance is no settlement: a person decides.
    let (_, small) = debtor_and_charge(&s, &token, 64, 10.0, 5).await;
    let txid = &id(&small)["chg_".len()..][..25];
    let over = json!({ "event_code": "pix.paid", "object": { "txid": txid, "amount": 12.0 } });
    let kept = deliver(&s, path, SECRET, "pix.paid", "d-3", &over).await;
    assert_eq!(kept.body["data"]["status"], "unmatched", "{}", kept.body);
    assert_eq!(s.read_id(&token, "charges_get", &id(&small)).await.data()["status"], "pending");
    let exact = json!({ "event_code": "pix.paid", "object": { "txid": txid, "amount": 10.0 } });
    let taken = deliver(&s, path, SECRET, "pix.paid", "d-4", &exact).await;
    assert_eq!(taken.body["data"]["status"], "matched", "{}", taken.body);
    assert_eq!(s.read_id(&token, "charges_get", &id(&small)).await.data()["status"], "paid");
}

/// `1.234,56`, as a Brazilian spreadsheet writes reais.
fn brl(cents: i64) -> String {
    let whole = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(c);
    }
    format!("{grouped},{:02}", cents % 100)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payments_file_settles_ten_thousand_charges_once() {
    use kobana_dunning::payments_import::import;
    use kobana_dunning::store::{ChargeFilter, ListWindow};

    let s = TestServer::start().await;
    let made = kobana_dunning::demo::generate::generate(&s.app.store, 24_000, |_| {}).await.unwrap();
    let org = made.organization_id;
    let filter = ChargeFilter {
        statuses: vec!["pending".into(), "overdue".into()],
        window: ListWindow { sort_by: "created_at".into(), limit: 10_000, ..ListWindow::default() },
        ..ChargeFilter::default()
    };
    let open = s.app.store.charges(&org, &filter).await.unwrap().rows;
    assert_eq!(open.len(), 10_000);

    // A Latin-1 file with `;`, Brazilian amounts and dates, a row naming no charge and one
    // that cannot be read.
    // Today in the organization's zone (São Paulo), where the file's dates are read: the UTC
    // date is tomorrow there for three hours a day.
    let today = kobana_dunning::domain::dates::Zone::default_zone().today(time::OffsetDateTime::now_utc());
    let day = format!("{:02}/{:02}/{}", today.day(), u8::from(today.month()), today.year());
    let mut file = b"Data;Valor;TXID;Observa\xe7\xe3o\n".to_vec();
    for charge in &open {
        let txid = charge.generated_txid().unwrap();
        file.extend(format!("{day};{};{txid};pago\n", brl(charge.balance().0)).as_bytes());
    }
    file.extend(format!("{day};12,00;0000000000000000000000000;?\n").as_bytes());
    file.extend(b"amanh\xe3;12,00;0000000000000000000000001;?\n");

    let first = import(&s.app, &org, &file).await.unwrap();
    assert_eq!(first.matched, 10_000, "{:?}", &first.unmatched[..first.unmatched.len().min(3)]);
    assert_eq!(first.unmatched.len(), 1, "{:?}", first.unmatched);
    assert_eq!(first.unmatched[0].0, 10_002);
    assert_eq!(first.refused.len(), 1, "{:?}", first.refused);
    assert_eq!(first.refused[0].0, 10_003);
    let settled = s.app.store.charge(&org, &open[9_999].id).await.unwrap().unwrap();
    assert_eq!(settled.status.as_str(), "paid");

    // Again: nothing is settled twice.
    let second = import(&s.app, &org, &file).await.unwrap();
    assert_eq!((second.matched, second.already_imported, second.unmatched.len()), (0, 10_001, 0));
    let token = s.token(&org, "dunning.read").await;
    let paid = s.read(&token, "events_list", &format!("resource_id={}&code=charge.paid", open[0].id)).await;
    assert_eq!(paid.data().as_array().unwrap().len(), 1, "{}", paid.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_showing_a_code_the_charge_lacks_is_skipped_with_the_reason() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let policy = json!({
        "name": "Códigos",
        "steps": [
            { "offset_days": 0, "channel": "email", "template": { "subject": "Boleto", "body": "Linha: {{payment_line}}" } },
            { "offset_days": 0, "channel": "sms", "template": { "body": "Pix: {{pix_code}}" } },
        ],
    });
    let r = s.write(&token, "collection_policies_create", policy).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(set_pix(&s, &token).await.status, 200);
    let debtor = s
        .write(
            &token,
            "debtors_create",
            json!({ "name": "Téo Sem Boleto", "document": cpf(65), "email": "teo@example.com.br", "mobile": "+5511987654321" }),
        )
        .await;
    let charge = s.create_charge(&token, &id(debtor.data()), 80.0, "2027-02-05").await;

    let noon = time::macros::datetime!(2027-02-05 15:00 UTC);
    kobana_dunning::engine::run_once(&s.app.store, &s.app.providers, noon).await.unwrap();
    let sent =
        s.read(&token, "notifications_list", &format!("charge_id={}&sort_order=asc", id(&charge))).await;
    let mut outcomes: Vec<(String, String, Option<String>)> = sent
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["channel"].as_str().unwrap().into(),
                n["status"].as_str().unwrap().into(),
                n["skip_reason"].as_str().map(str::to_string),
            )
        })
        .collect();
    outcomes.sort();
    assert_eq!(
        outcomes,
        [
            ("email".into(), "skipped".into(), Some("missing_payment_line".into())),
            ("sms".into(), "sent".into(), None),
        ],
        "{}",
        sent.body
    );
}

/// A delivery whose ids carry control characters (NUL, which PostgreSQL's text refuses) is
/// refused as invalid, naming the field, on both databases; nothing is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delivery_with_control_characters_in_its_ids_is_refused() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let registered = s.write(&token, "payment_receiver_create", json!({ "secret": SECRET })).await;
    assert_eq!(registered.status, 201, "{}", registered.body);
    let url = registered.data()["url"].as_str().unwrap().to_string();
    let path = &url[url.find("/receivers/").expect("a receiver path")..];
    for (field, value) in [("external_id", "NF\u{0}42"), ("txid", "tx\u{1b}[31m"), ("id", "4242\n")] {
        let mut object = json!({ "id": 4242, "paid_amount": 10.0, "paid_at": date_in(0) });
        object[field] = json!(value);
        let r = deliver(&s, path, SECRET, "bank_billet.paid", &format!("d-{field}"), &paid(object)).await;
        assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{field}: {}", r.body);
        assert!(r.body.to_string().contains(&format!("object.{field}")), "{}", r.body);
    }
}

/// A token of a user signed in with `role` (as the OAuth server issues them), with every scope.
async fn user_token(s: &TestServer, org: &str, role: &str) -> String {
    let email = format!("pessoa.{}@example.com", uuid::Uuid::now_v7().simple());
    let user =
        kobana_dunning::admin::create_user(&s.app.store, org, &email, role, "uma senha longa o bastante")
            .await
            .expect("user");
    let (token, token_hash) = kobana_dunning::auth::mint_token().unwrap();
    let now = time::OffsetDateTime::now_utc();
    let stamp = |t: time::OffsetDateTime| kobana_dunning::domain::dates::format_timestamp(t);
    s.app
        .store
        .insert_token(&kobana_dunning::store::NewToken {
            id: kobana_dunning::domain::ids::new_id("tok"),
            token_hash,
            organization_id: org.to_string(),
            user_id: Some(user),
            client_id: None,
            scopes: kobana_dunning::auth::ALL_SCOPES.iter().map(|s| s.to_string()).collect(),
            audience: "all".into(),
            expires_at: stamp(now + time::Duration::hours(1)),
            created_at: stamp(now),
            grant_id: None,
        })
        .await
        .unwrap();
    token
}

fn receiver_path(registered: &Resp) -> String {
    let url = registered.data()["url"].as_str().expect("the URL, shown once").to_string();
    url[url.find("/receivers/").expect("a receiver path")..].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_notify_right_sets_the_receiver_and_a_replaced_one_keeps_hearing_until_revoked() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let ping = json!({ "event_code": "ping" });

    // A read+write token cannot move where payments are heard from.
    let writer = s.token(&org, "dunning.read dunning.write").await;
    let r = s.write(&writer, "payment_receiver_create", json!({ "secret": SECRET })).await;
    assert_eq!((r.status, r.code()), (403, "INSUFFICIENT_SCOPE"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["required"], "dunning.notify");
    // Nor a signed-in operator, whatever the token's scopes: only an admin.
    let operator = user_token(&s, &org, "operator").await;
    let r = s.write(&operator, "payment_receiver_create", json!({ "secret": SECRET })).await;
    assert_eq!((r.status, r.code()), (403, "FORBIDDEN"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["required_role"], "admin");
    let not_heard = json!({ "configured": false, "last_delivery_at": null });
    assert_eq!(s.read(&token, "me", "").await.data()["organization"]["payment_receiver"], not_heard);

    let admin = user_token(&s, &org, "admin").await;

    // The URL is the receiver's key: a replay of its request shows it only to the same token.
    let keyed = |t: &str| {
        s.raw(Method::POST, "/v1/payment_receiver")
            .bearer_auth(t)
            .header("content-type", "application/json")
            .header("idempotency-key", "receiver-once")
            .body(json!({ "secret": SECRET }).to_string())
    };
    let made = send(keyed(&admin)).await;
    assert_eq!(made.status, 201, "{}", made.body);
    let made_path = receiver_path(&made);
    let replayed = send(keyed(&admin)).await;
    assert_eq!(receiver_path(&replayed), made_path);
    let other = send(keyed(&token)).await;
    assert_eq!(other.header("idempotent-replayed"), Some("true"), "{}", other.body);
    assert_eq!(other.data()["id"], made.data()["id"]);
    assert_eq!(other.data()["url"], Value::Null, "{}", other.body);
    assert_eq!(made.data()["status"], "active");
    assert_eq!(made.data()["created_by"]["type"], "user");
    let first_id = made.data()["id"].as_str().unwrap().to_string();
    let first_path = made_path;

    // A second receiver: the first keeps hearing payments for 24 h, shown on it.
    let second = s.write(&token, "payment_receiver_create", json!({ "secret": SECRET })).await;
    assert_eq!(second.status, 201, "{}", second.body);
    let second_id = second.data()["id"].as_str().unwrap().to_string();
    let second_path = receiver_path(&second);
    assert_eq!(deliver(&s, &first_path, SECRET, "ping", "p-1", &ping).await.status, 200);
    assert_eq!(deliver(&s, &second_path, SECRET, "ping", "p-2", &ping).await.status, 200);
    let old = s.read_id(&token, "payment_receivers_get", &first_id).await;
    assert_eq!(old.data()["status"], "retiring", "{}", old.body);
    assert_eq!(old.data()["url"], Value::Null, "the URL is shown once");
    let retires = time::OffsetDateTime::parse(
        old.data()["retires_at"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let grace = retires - time::OffsetDateTime::now_utc();
    assert!(grace > time::Duration::hours(23) && grace <= time::Duration::hours(24), "{grace}");
    // `me` says payments are heard, and when the active receiver last took a delivery; who
    // set it is the receiver's own.
    let me = s.read(&token, "me", "").await;
    let shown = &me.data()["organization"]["payment_receiver"];
    let active = s.read_id(&token, "payment_receivers_get", &second_id).await;
    assert_eq!(active.data()["created_by"]["type"], "token", "{}", active.body);
    assert!(active.data()["last_delivery_at"].is_string(), "{}", active.body);
    assert_eq!(*shown, json!({ "configured": true, "last_delivery_at": active.data()["last_delivery_at"] }));
    let listed = s.read(&token, "payment_receivers_list", "").await;
    assert_eq!(crate::common::ids(&listed), [second_id.as_str(), first_id.as_str()]);
    assert!(!listed.body.to_string().contains("kd_rcv_"), "no URL in a list: {}", listed.body);

    // Revoked, the old URL stops at once; revoking again changes nothing.
    let r = s.call(&writer, "payment_receivers_revoke", &[("id", &first_id)], "", None).await;
    assert_eq!((r.status, r.code()), (403, "INSUFFICIENT_SCOPE"), "{}", r.body);
    let r = s.call(&token, "payment_receivers_revoke", &[("id", &first_id)], "", None).await;
    assert_eq!((r.status, r.data()["status"].as_str()), (200, Some("revoked")), "{}", r.body);
    assert_eq!(deliver(&s, &first_path, SECRET, "ping", "p-3", &ping).await.status, 404);
    assert_eq!(deliver(&s, &second_path, SECRET, "ping", "p-4", &ping).await.status, 200);
    let again = s.call(&token, "payment_receivers_revoke", &[("id", &first_id)], "", None).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.data()["revoked_at"], r.data()["revoked_at"]);
    let events = s.read(&token, "events_list", "code=payment_receiver.revoked").await;
    assert_eq!(crate::common::ids(&events).len(), 1, "{}", events.body);

    // A receiver outlives the token that made it: revoking the token does not stop payments.
    kobana_dunning::admin::revoke_token(&s.app.store, &token).await.unwrap();
    assert_eq!(deliver(&s, &second_path, SECRET, "ping", "p-5", &ping).await.status, 200);
}

/// What `me` says of the organization's payment receiver.
async fn receiver_in_me(s: &TestServer, token: &str) -> Value {
    s.read(token, "me", "").await.data()["organization"]["payment_receiver"].clone()
}

/// The events of `code` an organization has, newest first.
async fn events_of(s: &TestServer, token: &str, code: &str) -> Vec<Value> {
    let r = s.read(token, "events_list", &format!("code={code}&per_page=100")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let events = r.data().as_array().unwrap().clone();
    for e in &events {
        crate::common::check_event_data(code, &e["data"]);
    }
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_payment_heard_unmatched_or_assigned_is_an_event_once_and_a_webhook_takes_it() {
    use kobana_dunning::outbound::webhook_delivery::Sender;
    use kobana_dunning::providers::{ProviderConfig, Providers};
    let loopback = ProviderConfig { allow_insecure_targets: true, ..ProviderConfig::default() };
    let s = TestServer::start_with_providers(Providers::new(&loopback).unwrap()).await;
    let (_, token) = s.tenant("Org").await;
    assert_eq!(receiver_in_me(&s, &token).await, json!({ "configured": false, "last_delivery_at": null }));
    let (url, mut hooked) = crate::webhooks::receiver(&[]).await;
    let r = s
        .write(
            &token,
            "webhooks_create",
            json!({ "url": url, "events": ["payment.received"], "name": "ERP" }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);

    let registered = s.write(&token, "payment_receiver_create", json!({ "secret": SECRET })).await;
    let path = receiver_path(&registered);
    assert_eq!(
        receiver_in_me(&s, &token).await,
        json!({ "configured": true, "last_delivery_at": null }),
        "set up, nothing heard yet"
    );

    // Received and matched: one payment.received, no payment.unmatched.
    let (_, charge) = debtor_and_charge(&s, &token, 71, 150.0, -5).await;
    s.write_id(&token, "charges_update", &id(&charge), json!({ "external_id": "NF-71" })).await;
    let before = time::OffsetDateTime::now_utc();
    let body = paid(json!({ "id": 7101, "external_id": "NF-71", "paid_amount": 150.0 }));
    let taken = deliver(&s, &path, SECRET, "bank_billet.paid", "d-71", &body).await;
    assert_eq!(taken.body["data"]["status"], "matched", "{}", taken.body);
    let matched_id = taken.body["data"]["payment_id"].as_str().unwrap().to_string();
    let heard = receiver_in_me(&s, &token).await;
    assert_eq!(heard["configured"], true);
    let last = time::OffsetDateTime::parse(
        heard["last_delivery_at"].as_str().expect("a delivery was taken"),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    assert!(
        last >= before - time::Duration::seconds(1) && last <= time::OffsetDateTime::now_utc(),
        "{heard}"
    );
    // The same payment again is no new event.
    let again = deliver(&s, &path, SECRET, "bank_billet.paid", "d-71-again", &body).await;
    assert_eq!(again.body["data"]["duplicate"], true, "{}", again.body);
    let received = events_of(&s, &token, "payment.received").await;
    assert_eq!(received.len(), 1, "{received:?}");
    let event = &received[0];
    assert_eq!(
        (event["resource_id"].as_str(), event["actor"]["type"].as_str()),
        (Some(matched_id.as_str()), Some("system"))
    );
    let object = &event["data"]["object"];
    assert_eq!(
        (object["status"].as_str(), object["charge_id"].as_str(), object["amount"].as_f64()),
        (Some("matched"), Some(id(&charge).as_str()), Some(150.0)),
        "{event}"
    );
    assert!(events_of(&s, &token, "payment.unmatched").await.is_empty());

    // Unmatched: payment.received and payment.unmatched, once each, with the reason.
    let stray = paid(json!({ "id": 7102, "external_id": "NF-nowhere", "paid_amount": 60.0 }));
    let kept = deliver(&s, &path, SECRET, "bank_billet.paid", "d-72", &stray).await;
    assert_eq!(kept.body["data"]["status"], "unmatched", "{}", kept.body);
    let stray_id = kept.body["data"]["payment_id"].as_str().unwrap().to_string();
    let received = events_of(&s, &token, "payment.received").await;
    assert_eq!(received.len(), 2, "{received:?}");
    assert_eq!(received[0]["resource_id"], stray_id.as_str(), "newest first");
    let unmatched = events_of(&s, &token, "payment.unmatched").await;
    assert_eq!(unmatched.len(), 1, "{unmatched:?}");
    let object = &unmatched[0]["data"]["object"];
    assert_eq!(
        (object["id"].as_str(), object["status"].as_str()),
        (Some(stray_id.as_str()), Some("unmatched"))
    );
    assert!(object["reason"].as_str().unwrap().contains("external_id"), "{object}");
    assert!(events_of(&s, &token, "payment.assigned").await.is_empty());

    // Assigned by a person: payment.assigned once, with what changed, by the token.
    let (_, open) = debtor_and_charge(&s, &token, 72, 60.0, 5).await;
    let assigned = s.write_id(&token, "payments_assign", &stray_id, json!({ "charge_id": id(&open) })).await;
    assert_eq!(assigned.status, 200, "{}", assigned.body);
    let events = events_of(&s, &token, "payment.assigned").await;
    assert_eq!(events.len(), 1, "{events:?}");
    let event = &events[0];
    assert_eq!(
        (event["resource_id"].as_str(), event["actor"]["type"].as_str()),
        (Some(stray_id.as_str()), Some("token"))
    );
    assert_eq!(event["data"]["object"], *assigned.data(), "{event}");
    assert_eq!(event["data"]["changes"]["status"], json!(["unmatched", "assigned"]), "{event}");
    assert_eq!(event["data"]["changes"]["charge_id"], json!([null, id(&open)]), "{event}");
    assert_eq!(events_of(&s, &token, "payment.received").await.len(), 2, "assigning hears nothing new");

    // The webhook took payment.received only: both payments, each once.
    let app = &s.app;
    let report = Sender { store: &app.store, providers: &app.providers, key: &app.key }
        .send_due(time::OffsetDateTime::now_utc() + time::Duration::seconds(1))
        .await
        .unwrap();
    assert_eq!(report.delivered, 2, "{report:?}");
    let mut got = Vec::new();
    while let Ok(Some(r)) = tokio::time::timeout(std::time::Duration::from_millis(300), hooked.recv()).await {
        crate::webhooks::check_delivery(&r);
        got.push((
            r.header("x-kobana-event").to_string(),
            r.json()["object"]["id"].as_str().unwrap().to_string(),
        ));
    }
    got.sort();
    let mut want =
        vec![("payment.received".to_string(), matched_id), ("payment.received".to_string(), stray_id)];
    want.sort();
    assert_eq!(got, want);

    // An export of the events carries them too.
    let r = s
        .write(
            &token,
            "exports_create",
            json!({ "kind": "events", "filters": { "code": "payment.received" } }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let export = id(r.data());
    kobana_dunning::engine::exports::run_once(&s.app.store, time::OffsetDateTime::now_utc()).await.unwrap();
    let file = s
        .raw(Method::GET, &format!("/v1/exports/{export}/download"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(file.status(), 200);
    let text = file.text().await.unwrap();
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let code = reader.headers().unwrap().iter().position(|h| h == "code").expect("a code column");
    let codes: Vec<String> = reader.records().map(|r| r.unwrap()[code].to_string()).collect();
    assert_eq!(codes, ["payment.received", "payment.received"], "{text}");
}
