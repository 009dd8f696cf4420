//! Bearer authentication of /v1, scopes, audiences and the RFC 9728 protected-resource
//! metadata.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{ALL, TestServer, date_in, send};

const SCOPES: [&str; 6] = [
    "dunning.read",
    "dunning.write",
    "dunning.notify",
    "dunning.escalate",
    "dunning.webhooks",
    "dunning.exports",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_token_is_401_with_the_resource_metadata_challenge() {
    let server = TestServer::start().await;
    let expected =
        format!("Bearer resource_metadata=\"{}/.well-known/oauth-protected-resource/v1\"", server.base);

    let r = send(server.raw(Method::GET, "/v1/charges")).await;
    crate::common::check_contract("charges_list", &r);
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(r.code(), "UNAUTHORIZED");
    let challenge = r.header("www-authenticate").expect("WWW-Authenticate");
    assert_eq!(challenge, expected);
    assert!(!challenge.contains("error="), "{challenge}");

    // Not a bearer token at all: still "no token".
    let r = send(server.raw(Method::GET, "/v1/me").header("authorization", "Basic dXNlcjpwYXNz")).await;
    assert_eq!(r.status, 401, "{}", r.body);
    assert!(r.header("www-authenticate").unwrap().contains("resource_metadata=\""), "{:?}", r.headers);

    // Writes too, before anything is read.
    let r = send(server.raw(Method::POST, "/v1/debtors").json(&json!({"name": "x"}))).await;
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(r.header("www-authenticate"), Some(expected.as_str()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_token_is_401_invalid_token() {
    let server = TestServer::start().await;
    let metadata = format!("resource_metadata=\"{}/.well-known/oauth-protected-resource/v1\"", server.base);
    for bad in ["kd_at_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "nonsense", ""] {
        let r = server.read(bad, "charges_list", "").await;
        assert_eq!(r.status, 401, "{bad}: {}", r.body);
        assert_eq!(r.code(), "UNAUTHORIZED");
        let challenge = r.header("www-authenticate").expect("WWW-Authenticate");
        assert!(challenge.starts_with("Bearer "), "{challenge}");
        assert!(challenge.contains("error=\"invalid_token\""), "{bad}: {challenge}");
        assert!(challenge.contains(&metadata), "{challenge}");
        // The token is never echoed.
        if !bad.is_empty() {
            assert!(!r.body.to_string().contains(bad), "{}", r.body);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_token_is_401() {
    let server = TestServer::start().await;
    let org = server.org("Org").await;
    let token =
        kobana_dunning::admin::create_token(&server.app.store, &org, ALL, "all", time::Duration::seconds(1))
            .await
            .expect("token");
    let r = server.read(&token, "me", "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let r = server.read(&token, "me", "").await;
    assert_eq!(r.status, 401, "{}", r.body);
    assert!(r.header("www-authenticate").unwrap().contains("error=\"invalid_token\""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_scope_is_403_with_a_step_up_challenge() {
    let server = TestServer::start().await;
    let org = server.org("Org").await;
    let writer = server.token(&org, ALL).await;
    let reader = server.token(&org, "dunning.read").await;
    let debtor = server.create_debtor(&writer, "Maria Souza", "52998224725").await;
    let body = json!({"debtor_id": debtor["id"], "amount": 10.0, "due_date": date_in(5)});

    let r = server.write(&reader, "charges_create", body.clone()).await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.code(), "INSUFFICIENT_SCOPE");
    assert_eq!(r.body["error"]["details"]["required"], "dunning.write");
    assert_eq!(r.body["error"]["details"]["granted"], json!(["dunning.read"]));
    let challenge = r.header("www-authenticate").expect("WWW-Authenticate");
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    assert!(challenge.contains("error=\"insufficient_scope\""), "{challenge}");
    // The challenge names every scope the operation needs; the details what the token lacks.
    assert!(challenge.contains("scope=\"dunning.read dunning.write\""), "{challenge}");
    assert!(
        challenge.contains(&format!(
            "resource_metadata=\"{}/.well-known/oauth-protected-resource/v1\"",
            server.base
        )),
        "{challenge}"
    );

    // The scope is checked before the body is read: an invalid body still gets 403.
    let r = server.write(&reader, "charges_create", json!({"amout": "ten", "debtor_id": 5})).await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.code(), "INSUFFICIENT_SCOPE");
    let r = send(
        server
            .raw(Method::POST, "/v1/charges")
            .bearer_auth(&reader)
            .header("content-type", "application/json")
            .body("{oops"),
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.body);

    // Every other write is refused to the reader too, and reads are allowed.
    let id = debtor["id"].as_str().unwrap();
    for (op, path) in [
        ("debtors_update", vec![("id", id)]),
        ("debtors_archive", vec![("id", id)]),
        ("debtors_delete", vec![("id", id)]),
    ] {
        let r = server.call(&reader, op, &path, "", None).await;
        assert_eq!(r.status, 403, "{op}: {}", r.body);
        assert_eq!(r.code(), "INSUFFICIENT_SCOPE");
    }
    let r = server.read_id(&reader, "debtors_get", id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["version"], 1, "nothing changed");
    let r = server.read(&reader, "charges_list", "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["meta"]["total"], 0);

    // A writer without read cannot list.
    let write_only = server.token(&org, "dunning.write").await;
    let r = server.read(&write_only, "debtors_list", "").await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.body["error"]["details"]["required"], "dunning.read");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_token_is_refused_on_v1() {
    let server = TestServer::start().await;
    let org = server.org("Org").await;
    let mcp = server.token_for(&org, ALL, "mcp").await;
    let r = server.read(&mcp, "me", "").await;
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(r.code(), "UNAUTHORIZED");
    assert!(r.header("www-authenticate").unwrap().contains("error=\"invalid_token\""), "{:?}", r.headers);

    let api = server.token_for(&org, ALL, "api").await;
    let r = server.read(&api, "me", "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["token"]["audience"], "api");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn me_works_with_any_scope() {
    let server = TestServer::start().await;
    let org = server.org("Org").await;
    for scope in SCOPES {
        let token = server.token(&org, scope).await;
        let r = server.read(&token, "me", "").await;
        assert_eq!(r.status, 200, "{scope}: {}", r.body);
        assert_eq!(r.data()["organization"]["id"], org.as_str());
        assert_eq!(r.data()["organization"]["environment"], "sandbox");
        assert_eq!(r.data()["token"]["scopes"], json!([scope]));
    }

    // A production organization says so.
    let prod =
        kobana_dunning::admin::create_organization(&server.app.store, "Prod", "production", None, false)
            .await
            .expect("org");
    let token = server.token(&prod, "dunning.read").await;
    let r = server.read(&token, "me", "").await;
    assert_eq!(r.data()["organization"]["environment"], "production");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_protected_resource_metadata_documents() {
    let server = TestServer::start().await;
    for (path, resource) in [
        ("/.well-known/oauth-protected-resource", server.base.clone()),
        ("/.well-known/oauth-protected-resource/mcp", format!("{}/mcp", server.base)),
        ("/.well-known/oauth-protected-resource/v1", format!("{}/v1", server.base)),
    ] {
        // No token needed.
        let r = send(server.raw(Method::GET, path)).await;
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert!(r.header("content-type").is_some_and(|t| t.starts_with("application/json")), "{path}");
        assert_eq!(r.body["resource"], resource.as_str(), "{path}");
        assert_eq!(r.body["authorization_servers"], json!([server.base]), "{path}");
        let scopes: Vec<&str> =
            r.body["scopes_supported"].as_array().expect("scopes").iter().filter_map(Value::as_str).collect();
        assert_eq!(scopes, SCOPES, "{path}");
        assert_eq!(r.body["bearer_methods_supported"], json!(["header"]), "{path}");
    }
}

/// A token revoked by the serving process itself is refused on its very next request, though
/// the process had just cached it; by the token's value or by its id, and only that token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_revoked_in_process_is_refused_at_once() {
    let server = TestServer::start().await;
    let org = server.org("Org").await;
    let (first, second) = (server.token(&org, ALL).await, server.token(&org, ALL).await);
    for token in [&first, &second] {
        let r = server.read(token, "me", "").await;
        assert_eq!(r.status, 200, "{}", r.body);
    }

    assert!(server.app.revoke_token(&first).await.expect("revoke"));
    let r = server.read(&first, "me", "").await;
    assert_eq!(r.status, 401, "{}", r.body);
    assert!(r.header("www-authenticate").unwrap().contains("error=\"invalid_token\""));
    let r = server.read(&second, "me", "").await;
    assert_eq!(r.status, 200, "only the revoked token goes: {}", r.body);

    let hash = kobana_dunning::auth::hash_token(&second);
    let id = server.app.store.token_by_hash(&hash).await.expect("lookup").expect("live").id;
    assert!(server.app.revoke_token(&id).await.expect("revoke by id"));
    let r = server.read(&second, "me", "").await;
    assert_eq!(r.status, 401, "{}", r.body);

    assert!(!server.app.revoke_token(&first).await.expect("revoke"), "already revoked");
    assert!(!server.app.revoke_token("tok_nope").await.expect("revoke"), "no such token");
}
