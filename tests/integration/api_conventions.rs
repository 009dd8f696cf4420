//! The conventions every /v1 operation shares: validation errors that name fields (with
//! suggestions), idempotency keys, If-Match, common headers, body limits and malformed input.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Resp, TestServer, check_contract, date_in, error_field, error_fields, send};

fn id(v: &Value) -> String {
    v["id"].as_str().expect("id").to_string()
}

async fn debtor_total(server: &TestServer, token: &str) -> i64 {
    let r = server.read(token, "debtors_list", "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["meta"]["total"].as_i64().expect("total")
}

fn assert_validation(r: &Resp, fields: &[&str]) {
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "VALIDATION_ERROR", "{}", r.body);
    assert_eq!(error_fields(r), fields, "{}", r.body);
    for f in r.body["error"]["details"]["fields"].as_array().expect("fields") {
        assert!(
            f["message"].as_str().is_some_and(|m| !m.is_empty()),
            "every field has a message: {}",
            r.body
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_cpf_is_named() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let r = server
        .write(&token, "debtors_create", json!({"name": "Maria Souza", "document": "52998224700"}))
        .await;
    assert_validation(&r, &["document"]);
    // The value is not echoed back.
    assert!(!r.body.to_string().contains("52998224700"), "{}", r.body);
    assert_eq!(debtor_total(&server, &token).await, 0);

    // The same digits with the right check digits pass.
    let r = server
        .write(&token, "debtors_create", json!({"name": "Maria Souza", "document": "52998224725"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn money_with_more_than_two_decimals_is_refused() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let r = server
        .write(
            &token,
            "charges_create",
            json!({"debtor_id": id(&debtor), "amount": 10.005, "due_date": date_in(5)}),
        )
        .await;
    assert_validation(&r, &["amount"]);
    let r = server.read(&token, "charges_list", "").await;
    assert_eq!(r.body["meta"]["total"], 0, "never rounded and created");

    let c = server.create_charge(&token, &id(&debtor), 10.01, &date_in(5)).await;
    assert_eq!(c["amount"], 10.01);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_query_parameter_is_named_with_a_suggestion() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    for op in ["debtors_list", "charges_list"] {
        let r = server.read(&token, op, "perpage=5").await;
        assert_validation(&r, &["perpage"]);
        assert_eq!(error_field(&r, "perpage").unwrap()["suggestion"], "per_page", "{}", r.body);
    }
    // Nothing close: named, no suggestion.
    let r = server.read(&token, "charges_list", "organization_id=org_x").await;
    assert_validation(&r, &["organization_id"]);
    assert!(error_field(&r, "organization_id").unwrap().get("suggestion").is_none(), "{}", r.body);
    // Operations without query parameters refuse them too.
    let r = server.read(&token, "me", "verbose=true").await;
    assert_validation(&r, &["verbose"]);
    // A parameter given twice.
    let r = server.read(&token, "debtors_list", "page=1&page=2").await;
    assert_validation(&r, &["page"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_body_field_is_named_with_a_suggestion() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let r = server
        .write(
            &token,
            "charges_create",
            json!({"debtor_id": id(&debtor), "amout": 10.0, "due_date": date_in(5)}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "VALIDATION_ERROR");
    let entry = error_field(&r, "amout").unwrap_or_else(|| panic!("amout is named: {}", r.body));
    assert_eq!(entry["suggestion"], "amount", "{}", r.body);
    assert!(error_fields(&r).contains(&"amount".to_string()), "the missing amount is named too: {}", r.body);

    // On a PATCH as well.
    let c = server.create_charge(&token, &id(&debtor), 10.0, &date_in(5)).await;
    let r = server.write_id(&token, "charges_update", &id(&c), json!({"descripton": "x"})).await;
    assert_validation(&r, &["descripton"]);
    assert_eq!(error_field(&r, "descripton").unwrap()["suggestion"], "description");
    let r = server.read_id(&token, "charges_get", &id(&c)).await;
    assert_eq!(r.data()["version"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nested_unknown_field_is_named_by_its_path() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let r = server
        .write(&token, "debtors_create", json!({ "name": "Maria Souza", "document": "52998224725", "address": { "zip": "01310100", "street": "Av. Paulista", "number": "1000", "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP" } }))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    let entry = error_field(&r, "address.zip").unwrap_or_else(|| panic!("address.zip is named: {}", r.body));
    assert_eq!(entry["suggestion"], "zipcode", "{}", r.body);
    assert!(error_fields(&r).contains(&"address.zipcode".to_string()), "{}", r.body);
    assert_eq!(debtor_total(&server, &token).await, 0);

    // A bad CEP inside the address is named by its path too.
    let r = server
        .write(&token, "debtors_create", json!({ "name": "Maria Souza", "document": "52998224725", "address": { "zipcode": "0131010", "street": "Av. Paulista", "number": "1000", "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP" } }))
        .await;
    assert_validation(&r, &["address.zipcode"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idempotency_key_header_replays_the_first_answer() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let body = json!({"name": "Maria Souza", "document": "52998224725"});
    let key = [("Idempotency-Key", "6f1c2b9e-3d4a-4f5b-8c7d-9e0a1b2c3d4e")];

    let first = server.call_with(&token, "debtors_create", &[], "", Some(body.clone()), &key).await;
    assert_eq!(first.status, 201, "{}", first.body);
    assert_eq!(first.header("idempotent-replayed"), None);

    // The same body with its keys in another order is the same request.
    let reordered = json!({"document": "52998224725", "name": "Maria Souza"});
    let second = server.call_with(&token, "debtors_create", &[], "", Some(reordered), &key).await;
    assert_eq!(second.status, 201, "{}", second.body);
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
    assert_eq!(second.header("etag"), Some("\"v1\""));
    assert_eq!(second.data()["id"], first.data()["id"]);
    assert_eq!(second.body, first.body);
    assert_eq!(debtor_total(&server, &token).await, 1, "only one debtor was created");

    // Kobana's header name works the same.
    let third = server
        .call_with(
            &token,
            "debtors_create",
            &[],
            "",
            Some(body),
            &[("X-Idempotency-Key", "6f1c2b9e-3d4a-4f5b-8c7d-9e0a1b2c3d4e")],
        )
        .await;
    assert_eq!(third.status, 201, "{}", third.body);
    assert_eq!(third.header("idempotent-replayed"), Some("true"));
    assert_eq!(third.data()["id"], first.data()["id"]);

    // Without a key, the same body is a new request (and here a duplicate).
    let r = server
        .write(&token, "debtors_create", json!({"name": "Maria Souza", "document": "52998224725"}))
        .await;
    assert_eq!(r.status, 409, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_idempotency_key_body_field_works_too() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let body = json!({"debtor_id": id(&debtor), "amount": 125.5, "due_date": date_in(9), "idempotency_key": "charge-1"});

    let first = server.write(&token, "charges_create", body.clone()).await;
    assert_eq!(first.status, 201, "{}", first.body);
    assert!(first.data().get("idempotency_key").is_none(), "{}", first.body);
    let second = server.write(&token, "charges_create", body).await;
    assert_eq!(second.status, 201, "{}", second.body);
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
    assert_eq!(second.data()["id"], first.data()["id"]);
    let r = server.read(&token, "charges_list", "").await;
    assert_eq!(r.body["meta"]["total"], 1, "only one charge was created");

    // The header wins over the body field: another body key under the same header is a replay.
    let c = id(first.data());
    let settle = |key: &'static str| json!({"paid_amount": 25.5, "idempotency_key": key});
    let h = [("Idempotency-Key", "settle-1")];
    let r1 = server.call_with(&token, "charges_settle", &[("id", &c)], "", Some(settle("a")), &h).await;
    assert_eq!(r1.status, 200, "{}", r1.body);
    assert_eq!(r1.data()["balance"], 100.0);
    let r2 = server.call_with(&token, "charges_settle", &[("id", &c)], "", Some(settle("b")), &h).await;
    assert_eq!(r2.status, 200, "{}", r2.body);
    assert_eq!(r2.header("idempotent-replayed"), Some("true"));
    assert_eq!(r2.data()["balance"], 100.0, "the payment was recorded once");
    let r = server.read_id(&token, "charges_get", &c).await;
    assert_eq!(r.data()["paid_amount"], 25.5);
    assert_eq!(r.data()["version"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_reused_with_another_body_is_refused() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let key = [("Idempotency-Key", "key-1")];
    let r = server
        .call_with(
            &token,
            "debtors_create",
            &[],
            "",
            Some(json!({"name": "Maria Souza", "document": "52998224725"})),
            &key,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);

    let r = server
        .call_with(
            &token,
            "debtors_create",
            &[],
            "",
            Some(json!({"name": "Maria Lima", "document": "11222333000181"})),
            &key,
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "IDEMPOTENCY_KEY_REUSED");
    assert_eq!(r.header("idempotent-replayed"), None);
    assert_eq!(debtor_total(&server, &token).await, 1);

    // Keys belong to an organization: another one may use the same key.
    let (_, other) = server.tenant("Other").await;
    let r = server
        .call_with(
            &other,
            "debtors_create",
            &[],
            "",
            Some(json!({"name": "Maria Lima", "document": "11222333000181"})),
            &key,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.header("idempotent-replayed"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_validation_failure_is_not_stored_under_its_key() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;

    // Refused by the schema (an unknown field), then fixed.
    let key = [("Idempotency-Key", "retry-schema")];
    let r = server
        .call_with(
            &token,
            "debtors_create",
            &[],
            "",
            Some(json!({"name": "Maria Souza", "documento": "52998224725"})),
            &key,
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "VALIDATION_ERROR");
    let r = server
        .call_with(
            &token,
            "debtors_create",
            &[],
            "",
            Some(json!({"name": "Maria Souza", "document": "52998224725"})),
            &key,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.header("idempotent-replayed"), None);

    // Refused by a field check (CPF check digits), then fixed.
    let key = [("Idempotency-Key", "retry-cpf")];
    let r = server
        .call_with(
            &token,
            "debtors_create",
            &[],
            "",
            Some(json!({"name": "João Lima", "document": "11144477700"})),
            &key,
        )
        .await;
    assert_validation(&r, &["document"]);
    let r = server
        .call_with(
            &token,
            "debtors_create",
            &[],
            "",
            Some(json!({"name": "João Lima", "document": "11144477735"})),
            &key,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.header("idempotent-replayed"), None);
    let created = r.body.clone();

    // Once it ran, the key answers with that answer.
    let r = server
        .call_with(
            &token,
            "debtors_create",
            &[],
            "",
            Some(json!({"name": "João Lima", "document": "11144477735"})),
            &key,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.header("idempotent-replayed"), Some("true"));
    assert_eq!(r.body, created);
    assert_eq!(debtor_total(&server, &token).await, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_from_a_handler_that_ran_is_replayed() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let c = server.create_charge(&token, &id(&debtor), 10.0, &date_in(5)).await;
    let r = server.read_id(&token, "charges_cancel", &id(&c)).await;
    assert_eq!(r.status, 200, "{}", r.body);

    let key = [("Idempotency-Key", "settle-canceled")];
    let first =
        server.call_with(&token, "charges_settle", &[("id", &id(&c))], "", Some(json!({})), &key).await;
    assert_eq!(first.status, 409, "{}", first.body);
    assert_eq!(first.code(), "INVALID_STATE");
    let second =
        server.call_with(&token, "charges_settle", &[("id", &id(&c))], "", Some(json!({})), &key).await;
    assert_eq!(second.status, 409, "{}", second.body);
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
    assert_eq!(second.body, first.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn if_match_guards_changes() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let d = id(&debtor);
    let r = server.write_id(&token, "debtors_update", &d, json!({"name": "Maria S."})).await;
    assert_eq!(r.header("etag"), Some("\"v2\""));

    // A stale ETag: 412 and nothing changes.
    let r = server
        .call_with(
            &token,
            "debtors_update",
            &[("id", &d)],
            "",
            Some(json!({"name": "Maria X."})),
            &[("If-Match", "\"v1\"")],
        )
        .await;
    assert_eq!(r.status, 412, "{}", r.body);
    assert_eq!(r.code(), "PRECONDITION_FAILED");
    let r = server.read_id(&token, "debtors_get", &d).await;
    assert_eq!(r.data()["name"], "Maria S.");
    assert_eq!(r.data()["version"], 2);

    // The current one: 200.
    let current = r.header("etag").unwrap().to_string();
    let r = server
        .call_with(
            &token,
            "debtors_update",
            &[("id", &d)],
            "",
            Some(json!({"name": "Maria X."})),
            &[("If-Match", &current)],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["name"], "Maria X.");
    assert_eq!(r.header("etag"), Some("\"v3\""));

    // State actions honour it too.
    let c = id(&server.create_charge(&token, &d, 10.0, &date_in(5)).await);
    let r =
        server.call_with(&token, "charges_cancel", &[("id", &c)], "", None, &[("If-Match", "\"v7\"")]).await;
    assert_eq!(r.status, 412, "{}", r.body);
    assert_eq!(r.code(), "PRECONDITION_FAILED");
    let r =
        server.call_with(&token, "charges_settle", &[("id", &c)], "", None, &[("If-Match", "\"v2\"")]).await;
    assert_eq!(r.status, 412, "{}", r.body);
    let r = server.read_id(&token, "charges_get", &c).await;
    assert_eq!(r.data()["status"], "pending");
    let r =
        server.call_with(&token, "charges_cancel", &[("id", &c)], "", None, &[("If-Match", "\"v1\"")]).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["status"], "canceled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_response_carries_no_store_and_a_request_id() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let other = server.create_debtor(&token, "Outra Pessoa", "11144477735").await;

    let mut answers: Vec<(String, Resp)> = Vec::new();
    answers.push(("me".into(), server.read(&token, "me", "").await));
    answers.push(("list".into(), server.read(&token, "debtors_list", "").await));
    answers.push(("get".into(), server.read_id(&token, "debtors_get", &id(&debtor)).await));
    answers.push((
        "create".into(),
        server.write(&token, "debtors_create", json!({"name": "X", "document": "11222333000181"})).await,
    ));
    answers.push(("delete".into(), server.read_id(&token, "debtors_delete", &id(&other)).await));
    answers.push(("422".into(), server.read(&token, "debtors_list", "perpage=1").await));
    answers.push(("404".into(), server.read_id(&token, "debtors_get", "dbt_nope").await));
    answers.push(("401".into(), server.read("kd_at_wrong", "debtors_list", "").await));
    answers.push(("no route".into(), send(server.raw(Method::GET, "/v1/nowhere").bearer_auth(&token)).await));
    answers.push((
        "metadata".into(),
        send(server.raw(Method::GET, "/.well-known/oauth-protected-resource/v1")).await,
    ));
    let statuses: Vec<u16> = answers.iter().map(|(_, r)| r.status).collect();
    assert_eq!(statuses, [200, 200, 200, 201, 204, 422, 404, 401, 404, 200]);

    let mut request_ids = std::collections::HashSet::new();
    for (what, r) in &answers {
        assert_eq!(r.header("cache-control"), Some("no-store"), "{what}");
        let rid = r.header("x-request-id").unwrap_or_else(|| panic!("{what}: no X-Request-Id"));
        assert!(!rid.is_empty(), "{what}");
        assert!(request_ids.insert(rid.to_string()), "{what}: request ids are unique");
        if r.status >= 400 {
            assert_eq!(r.body["error"]["request_id"], rid, "{what}: the envelope quotes the request id");
        }
    }

    // A caller's request id is kept.
    let r = server
        .call_with(&token, "debtors_get", &[("id", "dbt_nope")], "", None, &[("X-Request-Id", "trace-42_a")])
        .await;
    assert_eq!(r.header("x-request-id"), Some("trace-42_a"));
    assert_eq!(r.body["error"]["request_id"], "trace-42_a");
}

/// Sends a POST over a plain TCP connection: `head` is the request head (without the blank
/// line), then the body parts in order; reads the answer until its body is complete or the
/// server closes the connection. Used where the client must stop sending at a precise point:
/// a server that answers before reading a whole body closes the connection, and an HTTP client
/// still writing that body then sees a reset instead of the answer.
async fn post_raw(server: &TestServer, head: &str, parts: &[Vec<u8>]) -> Resp {
    use tokio::io::AsyncWriteExt;
    let addr = server.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(format!("{head}\r\nHost: {addr}\r\n\r\n").as_bytes()).await.expect("head");
    for part in parts {
        stream.write_all(part).await.expect("body part");
    }
    stream.flush().await.expect("flush");
    crate::common::read_raw(&mut stream, std::time::Duration::from_secs(30)).await.expect("a complete answer")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_two_mebibytes_is_refused() {
    const MIB2: usize = 2 * 1024 * 1024;
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let head = |framing: &str| {
        format!(
            "POST /v1/debtors HTTP/1.1\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\n{framing}"
        )
    };

    // A declared length over the cap: refused before the body is read (the client waits).
    let r = post_raw(&server, &head(&format!("Content-Length: {}", MIB2 + 1)), &[]).await;
    check_contract("debtors_create", &r);
    assert_eq!(r.status, 413, "{}", r.body);
    assert_eq!(r.code(), "PAYLOAD_TOO_LARGE");
    assert_eq!(r.header("cache-control"), Some("no-store"));
    assert!(r.header("x-request-id").is_some());

    // A chunked body (no declared length) that grows over the cap: refused once it does.
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    let mut body = format!(
        "{{\"name\": \"Maria\", \"document\": \"52998224725\", \"external_id\": \"{}",
        "a".repeat(MIB2)
    )
    .into_bytes();
    body.truncate(MIB2 + 1);
    for piece in body.chunks(64 * 1024) {
        let mut chunk = format!("{:x}\r\n", piece.len()).into_bytes();
        chunk.extend_from_slice(piece);
        chunk.extend_from_slice(b"\r\n");
        chunks.push(chunk);
    }
    let r = post_raw(&server, &head("Transfer-Encoding: chunked"), &chunks).await;
    check_contract("debtors_create", &r);
    assert_eq!(r.status, 413, "{}", r.body);
    assert_eq!(r.code(), "PAYLOAD_TOO_LARGE");
    assert_eq!(debtor_total(&server, &token).await, 0);

    // Just under the cap, the body is read (and then validated).
    let name = "a".repeat(MIB2 - 100);
    let r = server.write(&token, "debtors_create", json!({"name": name, "document": "52998224725"})).await;
    assert_validation(&r, &["name"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_json_is_a_bad_request() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let r = send(
        server
            .raw(Method::POST, "/v1/debtors")
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body("{\"name\": \"Maria\", \"document\": "),
    )
    .await;
    check_contract("debtors_create", &r);
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.code(), "BAD_REQUEST");

    // A JSON value that is not an object.
    let r = send(
        server
            .raw(Method::POST, "/v1/debtors")
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body("[1, 2]"),
    )
    .await;
    check_contract("debtors_create", &r);
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["body"]);

    // A required body that is missing.
    let r = send(server.raw(Method::POST, "/v1/charges").bearer_auth(&token)).await;
    check_contract("charges_create", &r);
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["body"]);
    assert_eq!(debtor_total(&server, &token).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_unknown_ids_are_not_found() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let c = server.create_charge(&token, &id(&debtor), 10.0, &date_in(5)).await;

    let cases: [(&str, String); 6] = [
        ("charges_get", "chg_nope".into()),
        ("charges_get", "chg_0192f1c2a3b47c8d9e0f1a2b3c4d5e6f".into()),
        // A debtor's id is not a charge's.
        ("charges_get", id(&debtor)),
        ("debtors_get", "dbt_nope".into()),
        ("debtors_get", id(&c)),
        ("debtors_get", "DBT_".to_string() + &id(&debtor)[4..]),
    ];
    for (op, bad) in &cases {
        let r = server.read_id(&token, op, bad).await;
        assert_eq!(r.status, 404, "{op} {bad}: {}", r.body);
        assert_eq!(r.code(), "NOT_FOUND", "{op} {bad}");
    }
    let r = server.read_id(&token, "charges_cancel", "chg_nope").await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.code(), "NOT_FOUND");

    // An unknown path under /v1 answers the envelope too.
    let r = send(server.raw(Method::GET, "/v1/nowhere").bearer_auth(&token)).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.code(), "NOT_FOUND");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_idempotency_claim_is_taken_over() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    // A request that claimed the key two minutes ago and died before answering.
    let long_ago = time::OffsetDateTime::now_utc() - time::Duration::minutes(2);
    assert!(s.app.store.idempotency_start(&org, "k-dead", "debtors_create", "x", long_ago).await.unwrap());
    let body = json!({ "name": "Maria Souza", "document": "52998224725" });
    let r = s
        .call_with(&token, "debtors_create", &[], "", Some(body.clone()), &[("Idempotency-Key", "k-dead")])
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    // A fresh claim still running is a conflict.
    assert!(
        s.app
            .store
            .idempotency_start(&org, "k-live", "debtors_create", "x", time::OffsetDateTime::now_utc())
            .await
            .unwrap()
    );
    let r =
        s.call_with(&token, "debtors_create", &[], "", Some(body), &[("Idempotency-Key", "k-live")]).await;
    assert_eq!((r.status, r.code()), (409, "CONFLICT"), "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csv_filters_are_bounded() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let ids = vec!["dbt_x"; 101].join(",");
    let r = s.read(&token, "charges_list", &format!("debtor_id={ids}")).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"));
    assert_eq!(r.body["error"]["details"]["fields"][0]["field"], "debtor_id");
    let ids = vec!["dbt_x"; 100].join(",");
    assert_eq!(s.read(&token, "charges_list", &format!("debtor_id={ids}")).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_enum_mistake_lists_every_allowed_value_and_suggests_the_nearest() {
    let s = crate::common::TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let r = s.read(&token, "debtors_list", "sort_by=overdue").await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    let field = crate::common::error_field(&r, "sort_by").expect("sort_by named");
    assert_eq!(
        field["message"], "must be one of: created_at, updated_at, name, open_amount, overdue_amount",
        "{}",
        r.body
    );
    assert_eq!(field["suggestion"], "overdue_amount");
    // The same through a tool's arguments.
    let r = s
        .mcp_2025(
            &token,
            "tools/call",
            serde_json::json!({ "name": "dunning_debtors_list", "arguments": { "sort_by": "nam" } }),
        )
        .await;
    assert!(r.is_tool_error(), "{}", r.body);
    let answer = r.tool_json();
    let field = &answer["error"]["details"]["fields"][0];
    assert_eq!(
        (field["field"].as_str(), field["suggestion"].as_str()),
        (Some("sort_by"), Some("name")),
        "{answer}"
    );
    assert!(field["message"].as_str().unwrap().ends_with("open_amount, overdue_amount"), "{answer}");
}
