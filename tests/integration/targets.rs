//! Outbound targets as given to the API: names local by definition, addresses in the
//! special-purpose registries (translation prefixes included) and the insecure flag's loopback
//! only, all refused when the webhook is created or changed, not first at delivery.

use kobana_dunning::providers::{ProviderConfig, Providers};
use serde_json::json;
use tokio::net::TcpListener;

use crate::common::{Resp, TestServer, error_field};

/// The answer must be a VALIDATION_ERROR on `url`.
fn refused_on_url(r: &Resp, url: &str) {
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{url}: {}", r.body);
    assert!(error_field(r, "url").is_some(), "{url}: {}", r.body);
}

async fn create(server: &TestServer, token: &str, url: &str) -> Resp {
    server.write(token, "webhooks_create", json!({ "url": url, "events": ["charge.paid"] })).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_names_and_special_addresses_are_refused_at_create_and_update() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Alvos especiais").await;
    for url in [
        "https://localhost/",
        "https://api.localhost/hook",
        "https://metadata.google.internal/",
        "https://metadata.google.internal./computeMetadata/v1/",
        "https://printer.local/hook",
        "https://nas.home.arpa/hook",
        "https://metadata/hook",
        "https://[::ffff:7f00:1]/",
        "https://[::ffff:0:7f00:1]/",
        "https://[64:ff9b:1::7f00:1]/",
        "https://[64:ff9b::a9fe:a9fe]/",
        "https://[2002:a9fe:a9fe::]/",
        "https://[100::1]/",
        "https://100.64.0.1/",
        "https://198.18.0.1/",
        "https://192.0.0.9/",
    ] {
        refused_on_url(&create(&server, &token, url).await, url);
    }
    // A name that does not resolve yet is kept, to be checked at delivery.
    let r = create(&server, &token, "https://erp.example.com/hook").await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.data()["id"].as_str().unwrap().to_owned();
    for url in ["https://metadata.google.internal/", "https://[64:ff9b:1::7f00:1]/"] {
        let r = server.write_id(&token, "webhooks_update", &id, json!({ "url": url })).await;
        refused_on_url(&r, url);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_insecure_flag_opens_http_to_loopback_only() {
    let flag = ProviderConfig { allow_insecure_targets: true, ..ProviderConfig::default() };
    let server = TestServer::start_with_providers(Providers::new(&flag).unwrap()).await;
    let (_, token) = server.tenant("Alvos inseguros").await;
    for url in [
        "http://example.com/hook",
        "http://erp.example.com:8080/hook",
        "http://10.0.0.1/hook",
        "http://[64:ff9b::7f00:1]/hook",
        "http://metadata.google.internal/",
        "https://metadata.google.internal/",
    ] {
        refused_on_url(&create(&server, &token, url).await, url);
    }
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    for url in [
        format!("http://127.0.0.1:{port}/hook"),
        format!("http://localhost:{port}/hook"),
        format!("https://localhost:{port}/hook"),
        format!("http://[::ffff:127.0.0.1]:{port}/hook"),
    ] {
        let r = create(&server, &token, &url).await;
        assert_eq!(r.status, 201, "{url}: {}", r.body);
    }
}
