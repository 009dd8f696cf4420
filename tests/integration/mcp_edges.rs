//! Contract edge cases found by calling the server as a new client would.

use serde_json::{Value, json};

use crate::common::{Resp, TestServer, date_in, envelope};

const SUPPORTED: [&str; 3] = ["2026-07-28", "2025-06-18", "2025-03-26"];

fn form() -> Value {
    json!({ "elicitation": { "form": {} } })
}

fn call(tool: &str, arguments: Value) -> Value {
    json!({ "name": tool, "arguments": arguments })
}

/// The VALIDATION_ERROR tool result of `r`, checked to be one and not a question.
fn validation_error(r: &Resp) -> Value {
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.result().get("inputRequests").is_none(), "nothing is asked: {}", r.body);
    assert_ne!(r.result()["resultType"], "input_required", "{}", r.body);
    assert!(r.is_tool_error(), "{}", r.body);
    let body = r.tool_json();
    assert_eq!(body["error"]["code"], "VALIDATION_ERROR", "{body}");
    assert!(body["error"]["request_id"].is_string(), "the /v1 envelope: {body}");
    body
}

fn field<'a>(body: &'a Value, name: &str) -> &'a Value {
    body["error"]["details"]["fields"]
        .as_array()
        .and_then(|fields| fields.iter().find(|f| f["field"] == name))
        .unwrap_or_else(|| panic!("no error on {name}: {body}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn destructive_tools_refuse_bad_arguments_before_asking() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = s.create_debtor(&token, "Maria Souza", "52998224725").await;
    let debtor_id = debtor["id"].as_str().unwrap();
    let charge = s.create_charge(&token, debtor_id, 1250.0, &date_in(5)).await;
    let charge_id = charge["id"].as_str().unwrap();

    let cases = [
        (call("dunning_debtors_delete", json!({ "id": debtor_id, "bogus": 1 })), "bogus"),
        (call("dunning_charges_cancel", json!({ "id": charge_id, "reasn": "paid in cash" })), "reasn"),
        (call("dunning_charges_cancel", json!({ "id": charge_id, "reason": 5 })), "reason"),
    ];
    for (params, bad) in &cases {
        let r2026 = s.mcp_2026(&token, "tools/call", params.clone(), form()).await;
        let r2025 = s.mcp_2025(&token, "tools/call", params.clone()).await;
        for r in [r2026, r2025] {
            let body = validation_error(&r);
            field(&body, bad);
        }
    }
    // The typo gets its "did you mean".
    let r = s.mcp_2026(&token, "tools/call", cases[1].0.clone(), form()).await;
    assert_eq!(field(&validation_error(&r), "reasn")["suggestion"], "reason");

    // Nothing ran.
    assert_eq!(s.read_id(&token, "debtors_get", debtor_id).await.status, 200);
    assert_eq!(s.read_id(&token, "charges_get", charge_id).await.data()["status"], "pending");
    // The same calls, well formed, are asked about (the form client) as before.
    let r = s
        .mcp_2026(&token, "tools/call", call("dunning_charges_cancel", json!({ "id": charge_id })), form())
        .await;
    assert_eq!(r.result()["resultType"], "input_required", "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_call_without_a_string_name_is_a_header_mismatch() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let headers =
        [("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "dunning_me")];
    for params in [
        json!({ "arguments": {}, "_meta": envelope(json!({})) }),
        json!({ "name": 5, "arguments": {}, "_meta": envelope(json!({})) }),
        json!({ "name": null, "_meta": envelope(json!({})) }),
    ] {
        let body = json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params });
        let r = s.mcp_raw("/mcp", Some(&token), &body, &headers).await;
        assert_eq!((r.status, r.rpc_code()), (400, -32020), "{}", r.body);
        assert_eq!(r.body["id"], 7);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_version_in_the_envelope_is_refused_with_the_way_to_speak_it() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    for version in ["2025-06-18", "2025-03-26"] {
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": {},
        });
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": { "_meta": meta } });
        let headers = [("mcp-protocol-version", version), ("mcp-method", "tools/list")];
        let r = s.mcp_raw("/mcp", Some(&token), &body, &headers).await;
        assert_eq!((r.status, r.rpc_code()), (400, -32022), "{}", r.body);
        assert_eq!(r.body["error"]["data"], json!({ "supported": SUPPORTED, "requested": version }));
        let message = r.body["error"]["message"].as_str().unwrap();
        assert!(message.contains("2026-07-28") && message.contains("initialize"), "{message}");
        assert!(message.contains(version), "{message}");
        // A header that says otherwise is a disagreement first (as the conformance suite checks).
        let headers = [("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/list")];
        let r = s.mcp_raw("/mcp", Some(&token), &body, &headers).await;
        assert_eq!((r.status, r.rpc_code()), (400, -32020), "{}", r.body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn confirmation_required_says_what_lets_the_client_confirm() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = s.create_debtor(&token, "Maria Souza", "52998224725").await;
    let charge = s.create_charge(&token, debtor["id"].as_str().unwrap(), 1250.0, &date_in(5)).await;
    let params = call("dunning_charges_cancel", json!({ "id": charge["id"] }));

    // A 2026-07-28 client without elicitation: declare the capability, not switch protocol. (One
    // that declares URL mode is sent to the approval page instead: tests/integration/approvals.rs.)
    {
        let r = s.mcp_2026(&token, "tools/call", params.clone(), json!({})).await;
        assert!(r.is_tool_error(), "{}", r.body);
        let body = r.tool_json();
        assert_eq!(body["error"]["code"], "CONFIRMATION_REQUIRED");
        assert_eq!(body["error"]["details"]["required_capability"], json!({ "elicitation": { "form": {} } }));
        // The capability is for the client's developer, in details; the message is for the
        // model to explain to a person, in plain words.
        let message = body["error"]["message"].as_str().unwrap();
        assert!(!message.contains("elicitation") && !message.contains("2026-07-28"), "{message}");
    }
    let r = s.mcp_2025(&token, "tools/call", params.clone()).await;
    let body = r.tool_json();
    assert_eq!(body["error"]["code"], "CONFIRMATION_REQUIRED");
    assert_eq!(body["error"]["details"]["required_capability"], json!({ "elicitation": { "form": {} } }));
    let message = body["error"]["message"].as_str().unwrap();
    assert!(!message.contains("stateless") && !message.contains("session"), "{message}");
    // Either way nothing ran.
    assert_eq!(
        s.read_id(&token, "charges_get", charge["id"].as_str().unwrap()).await.data()["status"],
        "pending"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_destructive_call_on_a_missing_object_fails_before_any_question() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let params = call("dunning_charges_cancel", json!({ "id": "chg_0192f1c2000070008000000000000000" }));
    let r2026 = s.mcp_2026(&token, "tools/call", params.clone(), form()).await;
    let r2025 = s.mcp_2025(&token, "tools/call", params).await;
    for r in [r2026, r2025] {
        assert!(r.is_tool_error(), "{}", r.body);
        assert_eq!(r.tool_json()["error"]["code"], "NOT_FOUND", "{}", r.body);
    }
}
