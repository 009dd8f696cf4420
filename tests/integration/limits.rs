//! Rate limits (per token, shared by REST and MCP) and load shedding.

use kobana_dunning::limits::Limits;
use serde_json::json;

use crate::common::TestServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_is_per_token_and_shared_by_rest_and_mcp() {
    // One request a minute refills the bucket: however slow the machine, the burst is all there is.
    let s =
        TestServer::start_with(Limits { per_minute: 1, burst: 3, max_in_flight: 64, ..Limits::default() })
            .await;
    let org = s.org("Org").await;
    let token = s.token(&org, "dunning.read").await;
    let other = s.token(&org, "dunning.read").await;

    for _ in 0..2 {
        assert_eq!(s.read(&token, "me", "").await.status, 200);
    }
    // The third request of the burst is an MCP one: it counts once.
    let r = s.mcp_2025(&token, "tools/call", json!({ "name": "dunning_me", "arguments": {} })).await;
    assert_eq!(r.status, 200, "{}", r.body);

    let r = s.read(&token, "me", "").await;
    assert_eq!((r.status, r.code()), (429, "RATE_LIMITED"));
    let retry_after: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    assert_eq!(r.body["error"]["details"]["retry_after"], retry_after);
    assert_eq!(r.header("ratelimit-limit"), Some("1"));
    assert_eq!(r.header("ratelimit-remaining"), Some("0"));
    assert!(r.header("ratelimit-reset").is_some());

    let r = s.mcp_2025(&token, "ping", json!({})).await;
    assert_eq!((r.status, r.rpc_code()), (429, -32000));
    assert_eq!(r.body["error"]["data"]["code"], "RATE_LIMITED");
    assert!(r.header("retry-after").is_some());

    assert_eq!(s.read(&other, "me", "").await.status, 200, "another token has its own bucket");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beyond_the_requests_in_flight_and_while_draining_the_answer_is_503() {
    let s =
        TestServer::start_with(Limits { per_minute: 600, burst: 60, max_in_flight: 0, ..Limits::default() })
            .await;
    let (_, token) = s.tenant("Org").await;
    let r = s.read(&token, "me", "").await;
    assert_eq!((r.status, r.code()), (503, "UNAVAILABLE"));
    assert_eq!(r.header("retry-after"), Some("1"));
    let r = s.mcp_2025(&token, "ping", json!({})).await;
    assert_eq!((r.status, r.rpc_code()), (503, -32000));
    assert_eq!(r.body["error"]["data"]["code"], "UNAVAILABLE");
    assert_eq!(r.header("retry-after"), Some("1"));
    assert!(r.header("mcp-protocol-version").is_some());
    let r = crate::common::send(s.raw(reqwest::Method::GET, "/healthz")).await;
    assert_eq!(r.status, 200, "liveness is not shed");

    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    assert_eq!(s.read(&token, "me", "").await.status, 200);
    s.app.load.drain();
    assert_eq!(s.read(&token, "me", "").await.status, 503);
    let r = crate::common::send(s.raw(reqwest::Method::GET, "/readyz")).await;
    assert_eq!(r.status, 503, "not ready while draining");
}

/// An object of `n` distinct short members (`0`, `1`, … `ff`, … in hex: 205,000 fit in 2 MiB).
fn many_members(n: usize) -> serde_json::Map<String, serde_json::Value> {
    (0..n).map(|i| (format!("{i:x}"), json!(1))).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_of_many_members_is_refused_by_its_shape_before_any_field_is_read() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    // 205,000 keys, just under the 2 MiB cap: each later look at the members would cost their number.
    let body = serde_json::Value::Object(many_members(205_000));
    assert!(body.to_string().len() < kobana_dunning::request::MAX_BODY_BYTES);
    let r = s.write(&token, "debtors_create", body).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    let fields = r.body["error"]["details"]["fields"].as_array().unwrap();
    assert_eq!(fields.len(), 1, "one error names the limit, not one a member: {}", r.body);
    assert_eq!(fields[0]["field"], "body");
    assert!(fields[0]["message"].as_str().unwrap().contains("20000 JSON values"), "{}", r.body);

    // One object over its members' cap, the body within the values'.
    let r = s.write(&token, "debtors_create", serde_json::Value::Object(many_members(1_001))).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    assert_eq!(crate::common::error_fields(&r), ["body"], "{}", r.body);
    assert!(r.body.to_string().contains("1000 members"), "{}", r.body);

    // Within each object's cap, but more values than a request may hold.
    let items: Vec<serde_json::Value> =
        (0..25).map(|_| serde_json::Value::Object(many_members(999))).collect();
    let r = s.write(&token, "debtors_create", json!({ "name": "A", "metadata": items })).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    assert!(r.body.to_string().contains("20000 JSON values"), "{}", r.body);

    // The cap itself is accepted as far as the shape goes: the members are then named as unknown.
    let r = s.write(&token, "debtors_create", serde_json::Value::Object(many_members(1_000))).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    assert!(crate::common::error_fields(&r).contains(&"3e7".to_string()), "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_arguments_of_many_members_are_a_validation_error_naming_the_limit() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let arguments = serde_json::Value::Object(many_members(30_000));
    let r = s
        .mcp_2025(&token, "tools/call", json!({ "name": "dunning_debtors_list", "arguments": arguments }))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.is_tool_error(), "{}", r.body);
    let answer = r.tool_json();
    assert_eq!(answer["error"]["code"], "VALIDATION_ERROR");
    assert_eq!(answer["error"]["details"]["fields"][0]["field"], "arguments");
    assert!(answer.to_string().contains("1000 members"), "{answer}");

    // A message of more values than a few inputs may hold is refused before it is parsed.
    let arguments = serde_json::Value::Object(many_members(200_000));
    let r = s
        .mcp_2025(&token, "tools/call", json!({ "name": "dunning_debtors_list", "arguments": arguments }))
        .await;
    assert_eq!((r.status, r.rpc_code()), (400, -32600), "{}", r.body);
    assert!(r.body["error"]["message"].as_str().unwrap().contains("80000 JSON values"), "{}", r.body);

    // Elsewhere in params, the same bound is an invalid params.
    let r = s
        .mcp_2025(
            &token,
            "prompts/get",
            json!({ "name": "dunning_daily_briefing", "arguments": many_members(5_000) }),
        )
        .await;
    assert_eq!(r.rpc_code(), -32602, "{}", r.body);
    assert!(r.body["error"]["message"].as_str().unwrap().contains("1000 members"), "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn control_characters_are_refused_at_the_edge() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    // In a body's string, NUL is refused by path, on both databases alike.
    let r = s
        .write(&token, "debtors_create", json!({ "name": "Ana\u{0}", "document": crate::common::cpf(7) }))
        .await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    assert_eq!(crate::common::error_fields(&r), vec!["name".to_string()]);
    // A line break is text where text is taken.
    let debtor = s.create_debtor(&token, "Ana", &crate::common::cpf(8)).await;
    let r = s
        .write(
            &token,
            "charges_create",
            json!({ "debtor_id": debtor["id"], "amount": 10.0, "due_date": crate::common::date_in(5),
                    "description": "linha 1\nlinha 2" }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    // In an export's filter, which the builder would run as a query for days.
    let r = s
        .write(&token, "exports_create", json!({ "kind": "events", "filters": { "code": "charge.\u{0}" } }))
        .await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    assert_eq!(crate::common::error_fields(&r), vec!["filters.code".to_string()]);
    // In a query value and in an idempotency key.
    let r = s.read(&token, "debtors_list", "q=a%00b").await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    assert_eq!(crate::common::error_fields(&r), vec!["q".to_string()]);
    // (A header cannot carry one: HTTP refuses it before the request is read.)
    let body = json!({ "name": "Bia", "document": crate::common::cpf(9), "idempotency_key": "key\u{1}one" });
    let r = s.write(&token, "debtors_create", body).await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    assert_eq!(crate::common::error_fields(&r), vec!["idempotency_key".to_string()]);
    // In a tool's arguments.
    let r = s
        .mcp_2025(
            &token,
            "tools/call",
            json!({ "name": "dunning_debtors_list", "arguments": { "q": "a\u{0}" } }),
        )
        .await;
    assert!(r.is_tool_error(), "{}", r.body);
    assert_eq!(r.tool_json()["error"]["details"]["fields"][0]["field"], "q");
}
