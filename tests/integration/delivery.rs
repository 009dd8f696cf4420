//! The régua's messages leaving a production organization: e-mail to an SMTP server and SMS to
//! the HTTP gateway, both started here on 127.0.0.1. The receiver checks the HMAC signature of
//! the raw body; a failing receiver gets the retries, then the notification fails with why.

use kobana_dunning::engine::run_once;
use kobana_dunning::providers::{ProviderConfig, Providers};
use serde_json::{Value, json};
use time::macros::{date, time};
use time::{Duration, OffsetDateTime};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

use crate::common::{TestServer, cpf};
use crate::receiver::{SECRET, gateway};

/// A message the SMTP server accepted: its envelope recipients and raw data.
struct Mail {
    rcpt: Vec<String>,
    data: String,
}

/// An SMTP server that accepts every message (enough of RFC 5321 for one client).
async fn smtp_server() -> (u16, mpsc::UnboundedReceiver<Mail>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut stream = BufReader::new(stream);
                let _ = stream.write_all(b"220 test ESMTP\r\n").await;
                let mut rcpt = Vec::new();
                loop {
                    let mut line = String::new();
                    if stream.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    let reply = match line.get(..4).unwrap_or("").to_ascii_uppercase().as_str() {
                        "EHLO" | "HELO" => "250-test\r\n250 8BITMIME\r\n".to_string(),
                        "RCPT" => {
                            rcpt.push(line.trim_end().to_string());
                            "250 ok\r\n".into()
                        }
                        "DATA" => {
                            let _ = stream.write_all(b"354 go ahead\r\n").await;
                            let mut data = String::new();
                            loop {
                                let mut l = String::new();
                                if stream.read_line(&mut l).await.unwrap_or(0) == 0 || l == ".\r\n" {
                                    break;
                                }
                                data.push_str(&l);
                            }
                            let _ = tx.send(Mail { rcpt: std::mem::take(&mut rcpt), data });
                            "250 queued\r\n".into()
                        }
                        "QUIT" => {
                            let _ = stream.write_all(b"221 bye\r\n").await;
                            return;
                        }
                        _ => "250 ok\r\n".into(),
                    };
                    if stream.write_all(reply.as_bytes()).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    (port, rx)
}

fn providers(smtp_port: u16, gateway_port: u16) -> Providers {
    Providers::new(&ProviderConfig {
        smtp_url: Some(format!("smtp://127.0.0.1:{smtp_port}")),
        smtp_from: Some("cobranca@padaria.example.com.br".into()),
        gateway_url: Some(format!("http://127.0.0.1:{gateway_port}/messages")),
        gateway_secret: Some(SECRET.into()),
        allow_insecure_targets: true,
        ..ProviderConfig::default()
    })
    .expect("providers")
}

fn noon(day: time::Date) -> OffsetDateTime {
    day.with_time(time!(15:00)).assume_utc()
}

/// A production organization with a policy (-3 e-mail, 0 SMS), one debtor and one charge due
/// on `2027-02-05`; its token and the charge's id.
async fn production(server: &TestServer, seed: u32) -> (String, String) {
    let org =
        kobana_dunning::admin::create_organization(&server.app.store, "Produção", "production", None, false)
            .await
            .unwrap();
    let token = server.token(&org, crate::common::ALL).await;
    let r = server
        .write(
            &token,
            "collection_policies_create",
            json!({ "name": "Régua", "steps": [
                { "offset_days": -3, "channel": "email",
                  "template": { "subject": "Vence em {{due_date}}", "body": "Olá, {{debtor_name}}: {{amount}}." } },
                { "offset_days": 0, "channel": "sms", "template": { "body": "{{debtor_name}}, vence hoje." } },
            ] }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = server
        .write(
            &token,
            "debtors_create",
            json!({ "name": "Gina Produção", "document": cpf(seed), "email": "gina@example.com.br",
                    "mobile": "+5511987654321" }),
        )
        .await;
    let charge = server.create_charge(&token, r.data()["id"].as_str().unwrap(), 99.9, "2027-02-05").await;
    (token, charge["id"].as_str().unwrap().to_string())
}

async fn only(server: &TestServer, token: &str, charge: &str, channel: &str) -> Value {
    let r = server.read(token, "notifications_list", &format!("charge_id={charge}&channel={channel}")).await;
    assert_eq!(r.body["meta"]["total"], 1, "{}", r.body);
    r.data()[0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn email_goes_over_smtp_and_sms_to_the_signed_gateway() {
    let server = TestServer::start().await;
    let (token, charge) = production(&server, 7601).await;
    let (smtp_port, mut mails) = smtp_server().await;
    let (gateway_port, mut posts) = gateway(200).await;
    let providers = providers(smtp_port, gateway_port);

    let report = run_once(&server.app.store, &providers, noon(date!(2027 - 02 - 02))).await.unwrap();
    assert_eq!(report.sent, 1, "{report:?}");
    let mail = mails.try_recv().expect("the SMTP server got the e-mail");
    assert_eq!(mail.rcpt, ["RCPT TO:<gina@example.com.br>"]);
    assert!(mail.data.contains("Subject: Vence em 05/02/2027"), "{}", mail.data);
    assert!(mail.data.contains("Gina Produ"), "{}", mail.data);
    let email = only(&server, &token, &charge, "email").await;
    assert!(mail.data.contains(email["id"].as_str().unwrap()), "the notification id travels: {}", mail.data);
    assert_eq!((email["status"].as_str(), email["provider"].as_str()), (Some("sent"), Some("smtp")));

    let report = run_once(&server.app.store, &providers, noon(date!(2027 - 02 - 05))).await.unwrap();
    assert_eq!(report.sent, 1, "{report:?}");
    let posted = posts.try_recv().expect("the gateway got the SMS");
    assert!(posted.signed, "HMAC-SHA256 of the raw body");
    let sms = only(&server, &token, &charge, "sms").await;
    assert_eq!(posted.idempotency_key.as_deref(), sms["id"].as_str());
    assert_eq!(posted.body["to"], "+5511987654321");
    assert_eq!(posted.body["body"], "Gina Produção, vence hoje.");
    assert_eq!(
        (sms["status"].as_str(), sms["provider"].as_str(), sms["provider_message_id"].as_str()),
        (Some("sent"), Some("gateway"), Some("gw-42"))
    );
    assert!(mails.try_recv().is_err() && posts.try_recv().is_err(), "each message went once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_gateway_gets_retries_with_backoff_then_the_message_fails() {
    let server = TestServer::start().await;
    let (token, charge) = production(&server, 7602).await;
    let (smtp_port, _mails) = smtp_server().await;
    let (gateway_port, mut posts) = gateway(503).await;
    let providers = providers(smtp_port, gateway_port);

    let first = noon(date!(2027 - 02 - 05));
    run_once(&server.app.store, &providers, first).await.unwrap();
    let sms = only(&server, &token, &charge, "sms").await;
    assert_eq!((sms["status"].as_str(), sms["attempts"].as_i64()), (Some("queued"), Some(1)));
    assert!(sms["failure_reason"].as_str().unwrap().contains("503"), "{sms}");

    // Not before the backoff: 1, 5, 30 and 120 minutes after each failure.
    run_once(&server.app.store, &providers, first + Duration::seconds(30)).await.unwrap();
    assert_eq!(only(&server, &token, &charge, "sms").await["attempts"], 1);
    let mut at = first;
    for wait in [1, 5, 30, 120] {
        at += Duration::minutes(wait) + Duration::seconds(1);
        run_once(&server.app.store, &providers, at).await.unwrap();
    }
    let sms = only(&server, &token, &charge, "sms").await;
    assert_eq!((sms["status"].as_str(), sms["attempts"].as_i64()), (Some("failed"), Some(5)), "{sms}");
    assert!(sms["failed_at"].is_string());
    let mut keys = Vec::new();
    while let Ok(p) = posts.try_recv() {
        assert!(p.signed);
        keys.push(p.idempotency_key.unwrap());
    }
    assert_eq!(keys, vec![sms["id"].as_str().unwrap().to_string(); 5], "five attempts, one idempotency key");
    run_once(&server.app.store, &providers, at + Duration::hours(5)).await.unwrap();
    assert!(posts.try_recv().is_err(), "a failed message is not tried again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_waiting_for_a_retry_can_be_canceled_and_sandbox_never_calls_out() {
    let server = TestServer::start().await;
    let (token, charge) = production(&server, 7603).await;
    let (smtp_port, _mails) = smtp_server().await;
    let (gateway_port, mut posts) = gateway(500).await;
    let providers = providers(smtp_port, gateway_port);
    let first = noon(date!(2027 - 02 - 05));
    run_once(&server.app.store, &providers, first).await.unwrap();
    let sms = only(&server, &token, &charge, "sms").await;
    let id = sms["id"].as_str().unwrap();
    let r = server.write_id(&token, "notifications_cancel", id, json!({})).await;
    assert_eq!((r.status, r.data()["status"].as_str()), (200, Some("canceled")), "{}", r.body);
    while posts.try_recv().is_ok() {}
    run_once(&server.app.store, &providers, first + Duration::hours(3)).await.unwrap();
    assert!(posts.try_recv().is_err(), "a canceled message is not retried");

    // A sandbox organization's messages stay in the outbox, whatever is configured.
    let (_, sandbox) = server.tenant("Sandbox").await;
    let r = server
        .write(
            &sandbox,
            "collection_policies_create",
            json!({ "name": "Régua", "steps": [
                { "offset_days": 0, "channel": "sms", "template": { "body": "{{debtor_name}}, vence hoje." } },
            ] }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = server
        .write(
            &sandbox,
            "debtors_create",
            json!({ "name": "Hugo Sandbox", "document": cpf(7604), "mobile": "+5511987654321" }),
        )
        .await;
    let c = server.create_charge(&sandbox, r.data()["id"].as_str().unwrap(), 10.0, "2027-03-01").await;
    let report = run_once(&server.app.store, &providers, noon(date!(2027 - 03 - 01))).await.unwrap();
    assert_eq!(report.sent, 1, "{report:?}");
    let sms = only(&server, &sandbox, c["id"].as_str().unwrap(), "sms").await;
    assert_eq!((sms["status"].as_str(), sms["provider"].as_str()), (Some("sent"), Some("outbox")));
    assert!(posts.try_recv().is_err(), "nothing left the server for the sandbox");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_waits_for_the_window_and_a_stale_reader_takes_no_lease() {
    let server = TestServer::start().await;
    let (token, charge) = production(&server, 7605).await;
    let (smtp_port, _mails) = smtp_server().await;
    let (gateway_port, mut posts) = gateway(503).await;
    let providers = providers(smtp_port, gateway_port);

    // Fails at 17:59 in São Paulo: the retry a minute later falls after the window closes.
    let late = date!(2027 - 02 - 05).with_time(time!(20:59)).assume_utc();
    run_once(&server.app.store, &providers, late).await.unwrap();
    let sms = only(&server, &token, &charge, "sms").await;
    assert_eq!((sms["status"].as_str(), sms["attempts"].as_i64()), (Some("queued"), Some(1)), "{sms}");
    run_once(&server.app.store, &providers, late + Duration::minutes(2)).await.unwrap();
    assert_eq!(only(&server, &token, &charge, "sms").await["attempts"], 1, "not after 18:00");
    // The weekend and Carnival (Monday 8 and Tuesday 9) wait too.
    for day in [date!(2027 - 02 - 06), date!(2027 - 02 - 08), date!(2027 - 02 - 09)] {
        run_once(&server.app.store, &providers, noon(day)).await.unwrap();
        assert_eq!(only(&server, &token, &charge, "sms").await["attempts"], 1, "not on {day}");
    }

    // Two engines read it at the same version: once one holds it, the other cannot take it,
    // and nobody cancels it while it is being sent.
    let me = server.read(&token, "me", "").await;
    let org = me.data()["organization"]["id"].as_str().unwrap().to_string();
    let read = server.app.store.notification(&org, sms["id"].as_str().unwrap()).await.unwrap().unwrap();
    let wednesday = noon(date!(2027 - 02 - 10));
    let lease = |owner: &str| kobana_dunning::store::Lease {
        owner: owner.into(),
        until: OffsetDateTime::now_utc() + Duration::minutes(5),
    };
    let store = &server.app.store;
    assert!(store.lease_notification(&read.id, read.version, &lease("a"), wednesday).await.unwrap());
    assert!(!store.lease_notification(&read.id, read.version, &lease("b"), wednesday).await.unwrap());
    let r = server.write_id(&token, "notifications_cancel", &read.id, json!({})).await;
    assert_eq!((r.status, r.code()), (409, "CONFLICT"), "{}", r.body);
    while posts.try_recv().is_ok() {}
    run_once(store, &providers, wednesday).await.unwrap();
    assert!(posts.try_recv().is_err(), "held by another sender: not sent again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_gets_a_bounded_number_of_messages_at_once() {
    let server = TestServer::start().await;
    let org =
        kobana_dunning::admin::create_organization(&server.app.store, "Lote", "production", None, false)
            .await
            .unwrap();
    let token = server.token(&org, crate::common::ALL).await;
    let policy = json!({ "name": "Régua", "steps": [
        { "offset_days": 0, "channel": "sms", "template": { "body": "{{debtor_name}}, vence hoje." } } ] });
    server.create_policy(&token, policy).await;
    const CHARGES: u32 = 40;
    for i in 0..CHARGES {
        let r = server
            .write(
                &token,
                "debtors_create",
                json!({ "name": format!("Rui {i}"), "document": cpf(7700 + i), "mobile": "+5511987654321" }),
            )
            .await;
        server.create_charge(&token, r.data()["id"].as_str().unwrap(), 10.0, "2027-02-05").await;
    }
    let (url, open) = crate::webhooks::slow_receiver(std::time::Duration::from_millis(200)).await;
    let providers = Providers::new(&ProviderConfig {
        gateway_url: Some(url),
        gateway_secret: Some(SECRET.into()),
        allow_insecure_targets: true,
        ..ProviderConfig::default()
    })
    .unwrap();

    let report = run_once(&server.app.store, &providers, noon(date!(2027 - 02 - 05))).await.unwrap();
    assert_eq!(report.sent, u64::from(CHARGES), "{report:?}");
    let most = open.lock().unwrap().1;
    assert!((2..=kobana_dunning::engine::OUTSIDE_BATCH).contains(&most), "{most} at once at most");
}
