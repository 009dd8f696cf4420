//! Outbound webhooks end to end: real deliveries to a receiver on loopback that checks what
//! Kobana's receivers check (the signature of the raw body, the headers, the body), retries on
//! 5xx with growing waits, none on 4xx, the target rules, a person's ping and retry, a crash
//! between an event and its delivery, and two senders on one database.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration as StdDuration;

use kobana_dunning::outbound::webhook_delivery::{SendReport, Sender};
use kobana_dunning::providers::{ProviderConfig, Providers, signed_by};
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

use crate::common::{ALL, TestServer, check_event_data, cpf, error_field};
use crate::exactly_once::Served;

/// One request as the receiver saw it.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    /// Lowercased names.
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", String::as_str)
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

/// A receiver on loopback answering the statuses of `script` in turn, then 200; its URL and
/// what it received.
pub async fn receiver(script: &[u16]) -> (String, mpsc::UnboundedReceiver<Received>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks/kobana", listener.local_addr().unwrap());
    let script = Arc::new(Mutex::new(script.iter().copied().collect::<VecDeque<u16>>()));
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let (tx, script) = (tx.clone(), script.clone());
            tokio::spawn(async move {
                let Some(received) = read_request(&mut stream).await else { return };
                let status = script.lock().unwrap().pop_front().unwrap_or(200);
                let _ = tx.send(received);
                let body = format!("{{\"status\":{status}}}");
                let answer = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
                     connection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(answer.as_bytes()).await;
            });
        }
    });
    (url, rx)
}

async fn read_request(stream: &mut tokio::net::TcpStream) -> Option<Received> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let path = lines.next()?.split(' ').nth(1)?.to_owned();
    let headers: BTreeMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut body = buf[head_end..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Received { path, headers, body })
}

/// Providers that may reach loopback over http (`--allow-insecure-targets`).
fn loopback_providers() -> Providers {
    Providers::new(&ProviderConfig { allow_insecure_targets: true, ..ProviderConfig::default() }).unwrap()
}

/// Runs the sender once at `at`.
async fn send_due(server: &TestServer, at: OffsetDateTime) -> SendReport {
    let app = &server.app;
    Sender { store: &app.store, providers: &app.providers, key: &app.key }.send_due(at).await.unwrap()
}

/// A webhook taking `events`, its id and secret.
async fn webhook(server: &TestServer, token: &str, url: &str, events: &[&str]) -> (String, String) {
    let r =
        server.write(token, "webhooks_create", json!({ "url": url, "events": events, "name": "ERP" })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    (r.data()["id"].as_str().unwrap().to_owned(), r.data()["secret"].as_str().unwrap().to_owned())
}

async fn deliveries(server: &TestServer, token: &str, webhook: &str) -> Vec<Value> {
    let r = server.call(token, "webhooks_deliveries_list", &[("id", webhook)], "", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.data().as_array().unwrap().clone()
}

/// What arrived within a short wait, each event's body checked against what the spec says its
/// code carries (`x-event-payloads`, with the delivery's own fields).
async fn drain(rx: &mut mpsc::UnboundedReceiver<Received>) -> Vec<Received> {
    let mut got = Vec::new();
    while let Ok(Some(r)) = tokio::time::timeout(StdDuration::from_millis(200), rx.recv()).await {
        check_delivery(&r);
        got.push(r);
    }
    got
}

/// A delivery's body: the event's data, its code, id and time, and the webhook.
pub fn check_delivery(r: &Received) {
    let mut body = r.json();
    let code = r.header("x-kobana-event").to_owned();
    let fields = body.as_object_mut().expect("an object");
    assert_eq!(fields.remove("event_code"), Some(json!(code)), "{code}");
    let webhook = fields.remove("webhook").expect("webhook");
    assert!(webhook["id"].is_string() && webhook["url"].is_string() && webhook["first_try"].is_boolean());
    if code == "ping" {
        assert_eq!(body, json!({ "ping": "pong" }));
        return;
    }
    for field in ["event_id", "occurred_at"] {
        assert!(fields.remove(field).is_some_and(|v| v.is_string()), "{code}: {field}");
    }
    check_event_data(&code, &body);
}

fn later(seconds: i64) -> OffsetDateTime {
    OffsetDateTime::now_utc() + Duration::seconds(seconds)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deliveries_are_signed_kobana_requests_of_the_codes_taken() {
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let (_, token) = server.tenant("Ganchos").await;
    let (url, mut rx) = receiver(&[]).await;
    let (id, secret) = webhook(&server, &token, &url, &["debtor.db.created", "debtor.archived"]).await;
    let r = server.read_id(&token, "webhooks_get", &id).await;
    assert!(r.data().get("secret").is_none(), "the secret is shown only once: {}", r.body);

    let debtor = server.create_debtor(&token, "Helena Gancho", &cpf(8101)).await;
    let debtor_id = debtor["id"].as_str().unwrap();
    server.create_charge(&token, debtor_id, 10.0, &crate::common::date_in(10)).await;
    let report = send_due(&server, later(1)).await;
    assert_eq!(report, SendReport { delivered: 1, retrying: 0, failed: 0 }, "charge.db.created is not taken");

    let got = drain(&mut rx).await;
    assert_eq!(got.len(), 1);
    let req = &got[0];
    assert_eq!(req.path, "/hooks/kobana");
    assert!(signed_by(secret.as_bytes(), &req.body, req.header("x-kobana-signature")), "{req:?}");
    assert!(req.header("x-kobana-signature").starts_with("sha256="));
    assert_eq!(req.header("x-kobana-event"), "debtor.db.created");
    assert_eq!(req.header("x-kobana-environment"), "sandbox");
    assert_eq!(req.header("content-type"), "application/json");
    assert_eq!(req.header("user-agent"), "Kobana-Robot (sandbox)");
    let body = req.json();
    assert_eq!(body["event_code"], "debtor.db.created");
    assert_eq!(body["object"]["id"], debtor_id);
    assert_eq!(body["webhook"], json!({ "id": id, "url": url, "first_try": true }));
    assert!(body["changes"].is_object(), "{body}");

    let list = deliveries(&server, &token, &id).await;
    assert_eq!(list.len(), 1);
    let d = &list[0];
    assert_eq!((d["status"].as_str(), d["attempts"].as_i64()), (Some("delivered"), Some(1)));
    assert_eq!(d["uid"].as_str(), Some(req.header("x-kobana-delivery-id")));
    assert_eq!(d["event_id"].as_str().map(|e| &e[4..]), d["id"].as_str().map(|e| &e[4..]));
    assert_eq!(
        d["request"]["body"].as_str().unwrap().as_bytes(),
        req.body.as_slice(),
        "the raw body is kept"
    );
    assert_eq!(d["response"]["status"], 200);
    let event = server.read_id(&token, "events_get", d["event_id"].as_str().unwrap()).await;
    assert_eq!(event.data()["code"], "debtor.db.created");

    let r = server.write_id(&token, "debtors_archive", debtor_id, json!({ "reason": "Mudou-se" })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(send_due(&server, later(1)).await.delivered, 1);
    assert_eq!(drain(&mut rx).await[0].header("x-kobana-event"), "debtor.archived");
    assert_eq!(send_due(&server, later(3600)).await, SendReport::default(), "each delivery once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receiver_that_fails_twice_sees_three_attempts_with_growing_waits_and_a_4xx_one() {
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let (_, token) = server.tenant("Retentativas").await;
    let (flaky, mut flaky_rx) = receiver(&[500, 503]).await;
    let (gone, mut gone_rx) = receiver(&[404, 404, 404]).await;
    let (flaky_id, _) = webhook(&server, &token, &flaky, &["debtor.db.created"]).await;
    let (gone_id, _) = webhook(&server, &token, &gone, &["debtor.db.created"]).await;
    server.create_debtor(&token, "Iara Retentativa", &cpf(8102)).await;

    let t0 = later(1);
    assert_eq!(send_due(&server, t0).await, SendReport { delivered: 0, retrying: 1, failed: 1 });
    assert_eq!(
        send_due(&server, t0 + Duration::seconds(30)).await,
        SendReport::default(),
        "not before the wait"
    );
    let first_wait = Duration::minutes(1);
    let t1 = t0 + first_wait + Duration::seconds(1);
    assert_eq!(send_due(&server, t1).await.retrying, 1);
    assert_eq!(
        send_due(&server, t1 + first_wait + Duration::seconds(1)).await,
        SendReport::default(),
        "the wait grew"
    );
    let d = &deliveries(&server, &token, &flaky_id).await[0];
    let next = time::OffsetDateTime::parse(
        d["next_attempt_at"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    assert!(next - t1 > first_wait, "{d}");
    assert_eq!(send_due(&server, next).await.delivered, 1);

    let attempts = drain(&mut flaky_rx).await;
    assert_eq!(attempts.len(), 3, "exactly three attempts");
    let ids: Vec<&str> = attempts.iter().map(|a| a.header("x-kobana-delivery-id")).collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "one delivery id: {ids:?}");
    let first_try: Vec<Value> = attempts.iter().map(|a| a.json()["webhook"]["first_try"].clone()).collect();
    assert_eq!(first_try, [json!(true), json!(false), json!(false)]);
    let d = &deliveries(&server, &token, &flaky_id).await[0];
    assert_eq!((d["status"].as_str(), d["attempts"].as_i64()), (Some("delivered"), Some(3)), "{d}");

    assert_eq!(drain(&mut gone_rx).await.len(), 1, "no retry on 4xx");
    let d = &deliveries(&server, &token, &gone_id).await[0];
    assert_eq!((d["status"].as_str(), d["attempts"].as_i64()), (Some("failed"), Some(1)), "{d}");
    assert!(d["error"].as_str().unwrap().contains("404"), "{d}");
    assert_eq!(send_due(&server, t0 + Duration::hours(12)).await, SendReport::default());
    assert!(drain(&mut gone_rx).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_while_a_webhook_is_inactive_are_never_delivered() {
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let (_, token) = server.tenant("Pausado").await;
    let (url, mut rx) = receiver(&[]).await;
    let (id, _) = webhook(&server, &token, &url, &["debtor.db.created"]).await;
    let r = server.write_id(&token, "webhooks_update", &id, json!({ "active": false })).await;
    assert_eq!((r.status, &r.data()["active"]), (200, &json!(false)), "{}", r.body);
    server.create_debtor(&token, "Joana Pausada", &cpf(8103)).await;
    let r = server.write_id(&token, "webhooks_update", &id, json!({ "active": true })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(send_due(&server, later(1)).await, SendReport::default());
    assert!(drain(&mut rx).await.is_empty());
    assert!(deliveries(&server, &token, &id).await.is_empty());

    server.create_debtor(&token, "Karina Ativa", &cpf(8104)).await;
    assert_eq!(send_due(&server, later(1)).await.delivered, 1);
    let r = server.call(&token, "webhooks_delete", &[("id", &id)], "", None).await;
    assert_eq!(r.status, 204, "{}", r.body);
    server.create_debtor(&token, "Lara Depois", &cpf(8105)).await;
    assert_eq!(send_due(&server, later(1)).await, SendReport::default(), "a deleted webhook gets nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_loopback_link_local_and_metadata_targets_are_refused() {
    // No --allow-insecure-targets here.
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Alvos").await;
    for url in [
        "http://erp.example.com/hook",
        "https://127.0.0.1/hook",
        "https://[::1]:8443/hook",
        "https://10.1.2.3/hook",
        "https://192.168.0.10/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://[fe80::1]/hook",
        "https://[fd00::1]/hook",
        "https://user:pw@erp.example.com/hook",
    ] {
        let r =
            server.write(&token, "webhooks_create", json!({ "url": url, "events": ["charge.paid"] })).await;
        assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{url}: {}", r.body);
        assert!(error_field(&r, "url").is_some(), "{url}: {}", r.body);
    }
    // The rules hold again at send time: a URL on localhost saved while loopback was allowed,
    // sent by a sender that does not allow it, is refused without a connection.
    let loose = TestServer::start_with_providers(loopback_providers()).await;
    let (_, token) = loose.tenant("Alvos depois").await;
    let (url, mut rx) = receiver(&[]).await;
    let named = url.replace("http://127.0.0.1", "https://localhost");
    let (id, _) = webhook(&loose, &token, &named, &["debtor.db.created"]).await;
    loose.create_debtor(&token, "Marta Alvo", &cpf(8106)).await;
    let strict = Providers::new(&ProviderConfig::default()).unwrap();
    let app = &loose.app;
    let sender = Sender { store: &app.store, providers: &strict, key: &app.key };
    assert_eq!(sender.send_due(later(1)).await.unwrap().failed, 1);
    assert!(drain(&mut rx).await.is_empty(), "the receiver was reached");
    let d = &deliveries(&loose, &token, &id).await[0];
    assert_eq!(d["status"], "failed", "{d}");
    assert!(d["error"].as_str().unwrap().contains("loopback"), "{d}");
}

/// Polls a delivery until its attempts reach `attempts` and the last one's outcome is saved (an
/// attempt counts from when it starts).
async fn attempted(server: &TestServer, token: &str, webhook: &str, delivery: &str, attempts: i64) -> Value {
    for _ in 0..100 {
        let path = [("id", webhook), ("delivery_id", delivery)];
        let r = server.call(token, "webhooks_deliveries_get", &path, "", None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        if r.data()["attempts"] == attempts && r.data()["status"] != "pending" {
            return r.data().clone();
        }
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    }
    panic!("delivery {delivery} never reached {attempts} attempts");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ping_and_a_retry_by_hand_go_to_the_current_url_with_the_current_secret() {
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let (_, token) = server.tenant("Reenvio").await;
    let (old, mut old_rx) = receiver(&[410]).await;
    let (new, mut new_rx) = receiver(&[]).await;
    let (id, first_secret) = webhook(&server, &token, &old, &["debtor.db.created"]).await;

    let r = server.write_id(&token, "webhooks_test", &id, json!({})).await;
    assert_eq!(r.status, 202, "{}", r.body);
    let ping_id = r.data()["id"].as_str().unwrap().to_owned();
    let ping = attempted(&server, &token, &id, &ping_id, 1).await;
    assert_eq!(
        (ping["event_code"].as_str(), ping["status"].as_str()),
        (Some("ping"), Some("failed")),
        "{ping}"
    );
    let got = drain(&mut old_rx).await;
    assert_eq!(
        got[0].json(),
        json!({ "ping": "pong", "event_code": "ping", "webhook": { "id": id, "url": old, "first_try": true } })
    );
    assert!(signed_by(first_secret.as_bytes(), &got[0].body, got[0].header("x-kobana-signature")));

    server.create_debtor(&token, "Nina Reenvio", &cpf(8107)).await;
    assert_eq!(send_due(&server, later(1)).await.delivered, 1, "the 410 went to the ping");
    let delivery = deliveries(&server, &token, &id)
        .await
        .into_iter()
        .find(|d| d["event_code"] == "debtor.db.created")
        .unwrap();
    let r = server.write_id(&token, "webhooks_rotate_secret", &id, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let second_secret = r.data()["secret"].as_str().unwrap().to_owned();
    assert_ne!(second_secret, first_secret);
    let r = server.write_id(&token, "webhooks_update", &id, json!({ "url": new })).await;
    assert_eq!(r.status, 200, "{}", r.body);

    let delivery_id = delivery["id"].as_str().unwrap();
    let path = [("id", id.as_str()), ("delivery_id", delivery_id)];
    let r = server.call(&token, "webhooks_deliveries_retry", &path, "", Some(json!({}))).await;
    assert_eq!(r.status, 202, "{}", r.body);
    let retried = attempted(&server, &token, &id, delivery_id, 2).await;
    assert_eq!(
        (retried["status"].as_str(), retried["request"]["url"].as_str()),
        (Some("delivered"), Some(new.as_str()))
    );
    let got = drain(&mut new_rx).await;
    assert_eq!(got.len(), 1);
    assert!(signed_by(second_secret.as_bytes(), &got[0].body, got[0].header("x-kobana-signature")));
    assert!(!signed_by(first_secret.as_bytes(), &got[0].body, got[0].header("x-kobana-signature")));
    assert_eq!(
        got[0].header("x-kobana-delivery-id"),
        delivery["uid"].as_str().unwrap(),
        "the same delivery id"
    );
    assert_eq!(got[0].json()["webhook"]["url"], json!(new));
    assert!(drain(&mut old_rx).await.len() == 1, "the first attempt only");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_senders_on_one_database_deliver_each_attempt_once() {
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let replica = server.replica().await;
    let (_, token) = server.tenant("Dois remetentes").await;
    let (url, mut rx) = receiver(&[]).await;
    let (id, _) = webhook(&server, &token, &url, &["debtor.db.created"]).await;
    const DEBTORS: u32 = 60;
    for i in 0..DEBTORS {
        server.create_debtor(&token, &format!("Olga {i}"), &cpf(8200 + i)).await;
    }
    let at = later(1);
    let providers = loopback_providers();
    let other = Sender { store: &replica.app.store, providers: &providers, key: &replica.app.key };
    let (a, b) = tokio::join!(send_due(&server, at), other.send_due(at));
    let b = b.unwrap();
    assert_eq!(a.delivered + b.delivered, u64::from(DEBTORS), "{a:?} {b:?}");
    let mut seen: Vec<String> =
        drain(&mut rx).await.iter().map(|r| r.header("x-kobana-delivery-id").to_owned()).collect();
    assert_eq!(seen.len(), DEBTORS as usize);
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), DEBTORS as usize, "no delivery twice");
    assert!(deliveries(&server, &token, &id).await.iter().all(|d| d["attempts"] == 1));
}

/// A receiver on loopback that takes `hold` to answer each request 200; its URL and the most
/// requests it had open at once.
pub async fn slow_receiver(hold: StdDuration) -> (String, Arc<Mutex<(usize, usize)>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks/lento", listener.local_addr().unwrap());
    let open = Arc::new(Mutex::new((0, 0)));
    let counts = open.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let open = open.clone();
            tokio::spawn(async move {
                if read_request(&mut stream).await.is_none() {
                    return;
                }
                {
                    let mut open = open.lock().unwrap();
                    open.0 += 1;
                    open.1 = open.1.max(open.0);
                }
                tokio::time::sleep(hold).await;
                open.lock().unwrap().0 -= 1;
                let answer = "HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
                let _ = stream.write_all(answer.as_bytes()).await;
            });
        }
    });
    (url, counts)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_receiver_gets_a_bounded_number_of_attempts_at_once() {
    use kobana_dunning::outbound::webhook_delivery::PER_WEBHOOK;
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let (_, token) = server.tenant("Receptor lento").await;
    let (slow_url, slow) = slow_receiver(StdDuration::from_millis(300)).await;
    let (fast_url, mut fast) = receiver(&[]).await;
    webhook(&server, &token, &slow_url, &["debtor.db.created"]).await;
    webhook(&server, &token, &fast_url, &["debtor.db.created"]).await;
    const DEBTORS: u32 = 24;
    for i in 0..DEBTORS {
        server.create_debtor(&token, &format!("Lia {i}"), &cpf(8300 + i)).await;
    }
    let started = std::time::Instant::now();
    let report = send_due(&server, later(1)).await;
    assert_eq!(report.delivered, 2 * u64::from(DEBTORS), "{report:?}");
    let most = slow.lock().unwrap().1;
    assert!((2..=PER_WEBHOOK).contains(&most), "the slow receiver had {most} open at most");
    assert_eq!(drain(&mut fast).await.len(), DEBTORS as usize);
    // 24 attempts of 300 ms, 8 at a time: about 0.9 s, not 24 × 0.3 s.
    assert!(started.elapsed() < StdDuration::from_secs(5), "{:?}", started.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_belongs_to_its_organization() {
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let (_, token) = server.tenant("Dona").await;
    let (_, other) = server.tenant("Vizinha").await;
    let (url, _rx) = receiver(&[]).await;
    let (id, _) = webhook(&server, &token, &url, &["debtor.db.created"]).await;
    server.create_debtor(&token, "Paula Dona", &cpf(8108)).await;
    let r = server.read_id(&other, "webhooks_get", &id).await;
    assert_eq!(r.status, 404, "{}", r.body);
    let r = server.read(&other, "webhooks_list", "").await;
    assert!(r.data().as_array().unwrap().is_empty(), "{}", r.body);
    let narrow = server.token(&server.org("Sem escopo").await, "dunning.read dunning.write").await;
    let r = server.read(&narrow, "webhooks_list", "").await;
    assert_eq!(r.status, 403, "dunning.webhooks is needed: {}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_written_before_a_crash_is_delivered_after_the_restart() {
    let db = crate::common::fresh_database().await;
    let (url, mut rx) = receiver(&[]).await;
    // No sender in this process: the event is written, and the process dies before any send.
    let first = Served::start_with(&db.url, &["--no-engine", "--allow-insecure-targets"]);
    let client = reqwest::Client::new();
    let post = |path: &str, body: Value| {
        client.post(format!("{}{path}", first.base)).bearer_auth(&first.token).json(&body).send()
    };
    let r = post("/v1/webhooks", json!({ "url": url, "events": ["debtor.db.created"] })).await.unwrap();
    assert_eq!(r.status(), 201);
    let r = post("/v1/debtors", json!({ "name": "Quitéria Queda", "document": cpf(8109) })).await.unwrap();
    assert_eq!(r.status(), 201);
    first.kill();
    assert!(drain(&mut rx).await.is_empty());

    let _second = Served::start_with(&db.url, &["--allow-insecure-targets"]);
    let got =
        tokio::time::timeout(StdDuration::from_secs(20), rx.recv()).await.expect("delivered after restart");
    let got = got.expect("a request");
    assert_eq!(got.header("x-kobana-event"), "debtor.db.created");
    assert_eq!(got.json()["object"]["name"], "Quitéria Queda");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replayed_create_shows_its_secret_again_but_never_keeps_it_in_clear() {
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let (org, token) = server.tenant("Repetição").await;
    let (url, _rx) = receiver(&[]).await;
    let body = json!({ "url": url, "events": ["charge.paid"], "idempotency_key": "criar-gancho-1" });
    let first = server.write(&token, "webhooks_create", body.clone()).await;
    assert_eq!(first.status, 201, "{}", first.body);
    let again = server.write(&token, "webhooks_create", body).await;
    assert_eq!(again.body, first.body, "the retry replays the first answer, secret included");
    let r = server.read(&token, "webhooks_list", "").await;
    assert_eq!(r.body["meta"]["total"], 1, "one webhook");
    let record = server.app.store.idempotency_get(&org, "criar-gancho-1").await.unwrap().expect("kept");
    let stored = record.response.expect("answered");
    let secret = first.data()["secret"].as_str().unwrap();
    assert!(!stored.contains(secret) && stored.starts_with("sealed:"), "{stored}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_wait_while_their_webhook_is_inactive_and_a_retry_by_hand_is_queued() {
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let (_, token) = server.tenant("Em espera").await;
    let (url, mut rx) = receiver(&[503]).await;
    let (id, _) = webhook(&server, &token, &url, &["debtor.db.created"]).await;
    server.create_debtor(&token, "Vera Espera", &cpf(8110)).await;
    let t0 = later(1);
    assert_eq!(send_due(&server, t0).await.retrying, 1);
    let r = server.write_id(&token, "webhooks_update", &id, json!({ "active": false })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        send_due(&server, t0 + Duration::minutes(2)).await,
        SendReport::default(),
        "inactive: it waits"
    );
    let r = server.write_id(&token, "webhooks_update", &id, json!({ "active": true })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(send_due(&server, t0 + Duration::minutes(2)).await.delivered, 1, "active again: sent");
    assert_eq!(drain(&mut rx).await.len(), 2);

    // A retry by hand puts the delivered delivery back in the queue (pending, due now) and
    // attempts it once its unit commits.
    let delivery = &deliveries(&server, &token, &id).await[0];
    let delivery_id = delivery["id"].as_str().unwrap();
    let path = [("id", id.as_str()), ("delivery_id", delivery_id)];
    let r = server.call(&token, "webhooks_deliveries_retry", &path, "", Some(json!({}))).await;
    assert_eq!((r.status, r.data()["status"].as_str()), (202, Some("pending")), "{}", r.body);
    attempted(&server, &token, &id, delivery_id, 3).await;
    assert_eq!(drain(&mut rx).await.len(), 1);
}

/// A replay's data: the secret to the token that made the request, to any other the object
/// without it and a note to rotate.
fn shown_without_secret(first: &Value, replay: &Value) {
    assert_eq!(replay["id"], first["id"], "the same webhook");
    assert_eq!(replay["secret"], Value::Null, "{replay}");
    assert!(replay["secret_note"].as_str().is_some_and(|n| n.contains("rotate")), "{replay}");
}

/// A receiver on loopback answering every request 200 with `head` (header lines, each ending
/// in CRLF) and `body`.
async fn answering(head: String, body: Vec<u8>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks/kobana", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let (head, body) = (head.clone(), body.clone());
            tokio::spawn(async move {
                if read_request(&mut stream).await.is_none() {
                    return;
                }
                let start = format!(
                    "HTTP/1.1 200 OK\r\n{head}content-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(start.as_bytes()).await;
                let _ = stream.write_all(&body).await;
            });
        }
    });
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receivers_answer_is_kept_to_4_kib() {
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let (_, token) = server.tenant("Resposta longa").await;
    // 60 KiB of two-byte characters, one byte off so no cut at 4096 falls between characters
    // by luck, and 40 KiB of headers.
    let mut body = b"x".to_vec();
    body.extend("é".repeat(30 * 1024).as_bytes());
    let head: String = (0..40).map(|i| format!("x-filler-{i}: {}\r\n", "h".repeat(1000))).collect();
    let url = answering(head, body).await;
    let (id, _) = webhook(&server, &token, &url, &["debtor.db.created"]).await;
    let r = server.write_id(&token, "webhooks_test", &id, json!({})).await;
    assert_eq!(r.status, 202, "{}", r.body);
    let path = [("id", id.as_str()), ("delivery_id", r.data()["id"].as_str().unwrap())];
    let mut ping = Value::Null;
    for _ in 0..100 {
        ping = server.call(&token, "webhooks_deliveries_get", &path, "", None).await.data().clone();
        if ping["status"] != "pending" {
            break;
        }
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    }
    assert_eq!(ping["status"], "delivered", "{ping}");
    let response = &ping["response"];
    let kept = response["body"].as_str().unwrap();
    assert!(kept.len() <= 4096 && kept.len() > 4000, "{}", kept.len());
    assert!(kept.starts_with("xé") && kept[1..].chars().all(|c| c == 'é'));
    let headers = serde_json::to_string(&response["headers"]).unwrap();
    assert!(headers.len() <= 4096, "{} bytes of headers kept", headers.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replayed_secret_is_shown_only_to_the_token_that_made_the_request() {
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let (org, token) = server.tenant("Segredo único").await;
    let other = server.token(&org, ALL).await;
    let (url, _rx) = receiver(&[]).await;

    // Create over REST, replayed by another token of the organization.
    let body = json!({ "url": url, "events": ["charge.paid"], "idempotency_key": "gancho-um" });
    let first = server.write(&token, "webhooks_create", body.clone()).await;
    assert_eq!(first.status, 201, "{}", first.body);
    let secret = first.data()["secret"].as_str().expect("shown to its caller").to_owned();
    let stolen = server.write(&other, "webhooks_create", body.clone()).await;
    assert_eq!((stolen.status, stolen.header("idempotent-replayed")), (201, Some("true")));
    assert!(!stolen.body.to_string().contains(&secret), "{}", stolen.body);
    shown_without_secret(first.data(), stolen.data());
    let again = server.write(&token, "webhooks_create", body).await;
    assert_eq!(again.body, first.body, "its own token still gets it back");

    // Rotate, the same.
    let id = first.data()["id"].as_str().unwrap();
    let rotate = async |token: &str| {
        let key = [("Idempotency-Key", "girar-um")];
        server.call_with(token, "webhooks_rotate_secret", &[("id", id)], "", Some(json!({})), &key).await
    };
    let rotated = rotate(&token).await;
    assert_eq!(rotated.status, 200, "{}", rotated.body);
    let new_secret = rotated.data()["secret"].as_str().expect("shown").to_owned();
    let stolen = rotate(&other).await;
    assert_eq!(stolen.status, 200, "{}", stolen.body);
    assert!(!stolen.body.to_string().contains(&new_secret), "{}", stolen.body);
    shown_without_secret(rotated.data(), stolen.data());
    assert_eq!(rotate(&token).await.body, rotated.body);

    // The MCP tool with the idempotency key of a REST create, from another token.
    let body = json!({ "url": url, "events": ["charge.paid"], "idempotency_key": "gancho-dois" });
    let first = server.write(&token, "webhooks_create", body.clone()).await;
    assert_eq!(first.status, 201, "{}", first.body);
    let secret = first.data()["secret"].as_str().unwrap().to_owned();
    let call = json!({ "name": "dunning_webhooks_create", "arguments": body });
    let r = server.mcp_2025(&other, "tools/call", call.clone()).await;
    assert!(!r.is_tool_error(), "{}", r.body);
    assert!(!r.body.to_string().contains(&secret), "{}", r.body);
    shown_without_secret(first.data(), &r.tool_json()["data"]);
    let r = server.mcp_2025(&token, "tools/call", call).await;
    assert_eq!(r.tool_json()["data"]["secret"], secret.as_str(), "its own token, over MCP");
}

/// An attempt cut short (the sender dropped mid-request, as a kill -9 does) counts toward the
/// delivery's attempts: it was counted before the request was sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attempt_cut_short_counts() {
    let server = TestServer::start_with_providers(loopback_providers()).await;
    let (_, token) = server.tenant("Interrompida").await;
    // A receiver that takes the request and never answers.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", silent.local_addr().unwrap());
    let holding = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = silent.accept().await {
            held.push(stream);
        }
    });
    let (id, _) = webhook(&server, &token, &url, &["debtor.db.created"]).await;
    server.create_debtor(&token, "Helena Interrompida", &cpf(8190)).await;

    let cut = tokio::time::timeout(std::time::Duration::from_millis(700), send_due(&server, later(1))).await;
    assert!(cut.is_err(), "the attempt was still waiting for its answer");
    let d = &deliveries(&server, &token, &id).await[0];
    assert_eq!(d["attempts"].as_i64(), Some(1), "the interrupted attempt counts: {d}");
    holding.abort();
}
