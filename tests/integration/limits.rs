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
