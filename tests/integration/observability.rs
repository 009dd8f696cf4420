//! What operators read: /metrics, /healthz, /readyz and request ids.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::json;

use crate::common::{TestServer, cpf, date_in, send};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_by_surface_method_and_status() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    assert_eq!(s.read(&token, "me", "").await.status, 200);
    assert_eq!(s.read(&token, "me", "").await.status, 200);
    assert_eq!(s.mcp_2025(&token, "ping", serde_json::json!({})).await.status, 200);
    assert_eq!(send(s.raw(Method::GET, "/v1/me")).await.status, 401);

    let r = send(reqwest::Client::new().get(format!("{}/metrics", s.metrics_base))).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));
    let text = r.body.as_str().expect("text");
    for line in [
        "kobana_dunning_http_requests_total{surface=\"v1\",method=\"GET\",status=\"200\"} 2",
        "kobana_dunning_http_requests_total{surface=\"v1\",method=\"GET\",status=\"401\"} 1",
        "kobana_dunning_http_requests_total{surface=\"mcp\",method=\"POST\",status=\"200\"} 1",
        "kobana_dunning_http_request_duration_seconds_count{surface=\"v1\"} 3",
    ] {
        assert!(text.lines().any(|l| l == line), "missing {line} in\n{text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_served_only_on_their_own_listener() {
    let s = TestServer::start().await;
    let r = send(s.raw(Method::GET, "/metrics")).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert!(!r.body.to_string().contains("kobana_dunning_http"), "{}", r.body);
    // The metrics listener serves nothing else.
    for path in ["/v1/me", "/mcp", "/healthz"] {
        let r = send(reqwest::Client::new().get(format!("{}{path}", s.metrics_base))).await;
        assert_eq!(r.status, 404, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn probes_and_request_ids() {
    let s = TestServer::start().await;
    for path in ["/healthz", "/readyz"] {
        let r = send(s.raw(Method::GET, path)).await;
        assert_eq!(r.status, 200, "{path}");
    }
    // A well-formed incoming request id is kept (so logs join across services); others are replaced.
    let r = send(s.raw(Method::GET, "/healthz").header("x-request-id", "trace-123_abc")).await;
    assert_eq!(r.header("x-request-id"), Some("trace-123_abc"));
    let r = send(s.raw(Method::GET, "/healthz").header("x-request-id", "bad id\twith spaces")).await;
    assert!(r.header("x-request-id").unwrap().starts_with("req_"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn housekeeping_forgets_expired_keys_nonces_and_approvals_only() {
    let s = TestServer::start().await;
    let (org, _) = s.tenant("Org").await;
    let now = time::OffsetDateTime::now_utc();
    let stamp = |t| kobana_dunning::domain::dates::format_timestamp(t);
    let store = &s.app.store;
    assert!(
        store
            .idempotency_start(&org, "old", "debtors_create", "x", now - time::Duration::hours(25))
            .await
            .unwrap()
    );
    assert!(
        store
            .idempotency_start(&org, "new", "debtors_create", "x", now - time::Duration::hours(1))
            .await
            .unwrap()
    );
    assert!(store.consume_nonce("n-old", &stamp(now - time::Duration::days(2))).await.unwrap());
    assert!(store.consume_nonce("n-new", &stamp(now - time::Duration::minutes(10))).await.unwrap());

    // Approvals live 10 minutes; one that expired over a day ago goes (its decision is an event).
    use kobana_dunning::domain::approval::{Approval, Binding};
    let approval = |id: &str, asked| {
        let binding = Binding {
            organization_id: org.clone(),
            principal: "token:tok_1".into(),
            tool: "dunning_charges_cancel".into(),
            args_digest: "d".into(),
            object_version: Some(1),
        };
        Approval::request(id.into(), binding, None, "Cancelar?".into(), asked)
    };
    let (old_id, new_id) = (format!("apr_{}", "0".repeat(32)), format!("apr_{}", "1".repeat(32)));
    store.insert_approval(&approval(&old_id, now - time::Duration::days(2))).await.unwrap();
    store.insert_approval(&approval(&new_id, now - time::Duration::hours(2))).await.unwrap();

    let removed = kobana_dunning::housekeeping::run_once(&s.app, now).await.unwrap();
    assert_eq!(removed, (1, 1, 1));
    assert!(store.approval(&old_id).await.unwrap().is_none());
    assert!(store.approval(&new_id).await.unwrap().is_some(), "kept a day past its expiry");
    assert!(store.idempotency_get(&org, "old").await.unwrap().is_none());
    assert!(store.idempotency_get(&org, "new").await.unwrap().is_some());
    assert!(!store.nonce_consumed("n-old").await.unwrap());
    assert!(store.nonce_consumed("n-new").await.unwrap(), "a recent nonce still refuses a replay");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_show_the_engines_passes_and_deliveries_by_provider() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let body = json!({ "name": "Ana Lima", "document": cpf(9611), "email": "ana@example.com.br" });
    let debtor = s.write(&token, "debtors_create", body).await.data()["id"].as_str().unwrap().to_string();
    let body = json!({ "debtor_id": debtor, "amount": 10.0, "due_date": date_in(5) });
    let charge = s.write(&token, "charges_create", body).await.data()["id"].as_str().unwrap().to_string();
    let template = json!({ "subject": "Cobrança", "body": "Olá, {{debtor_name}}." });
    let r = s
        .write_id(&token, "charges_notify", &charge, json!({ "channel": "email", "template": template }))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);

    // The engine's loop runs its first pass at once.
    let engine = kobana_dunning::engine::spawn(s.app.clone(), s.app.store.clone());
    let deadline = Instant::now() + Duration::from_secs(30);
    let text = loop {
        let r = send(reqwest::Client::new().get(format!("{}/metrics", s.metrics_base))).await;
        let text = r.body.as_str().expect("text").to_string();
        if text.lines().any(|l| l == "kobana_dunning_engine_pass_seconds_count 1")
            || Instant::now() > deadline
        {
            break text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    engine.abort();
    for line in [
        "kobana_dunning_engine_pass_seconds_count 1",
        "kobana_dunning_engine_due_backlog 0",
        "kobana_dunning_deliveries_total{provider=\"outbox\",outcome=\"sent\"} 1",
    ] {
        assert!(text.lines().any(|l| l == line), "missing {line} in\n{text}");
    }
}
