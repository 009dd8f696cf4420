//! The catalogue budget: a tool's descriptor shows less than the server checks. What it leaves
//! out (bounds, exact forms, the event codes written out, idempotency_key) is still checked on
//! every call, with a VALIDATION_ERROR that names the argument and what it takes.

use serde_json::{Value, json};

use crate::common::TestServer;

/// The first field error of a tool call that failed validation.
fn field_error(body: &Value) -> &Value {
    assert_eq!(body["error"]["code"], "VALIDATION_ERROR", "{body}");
    &body["error"]["details"]["fields"][0]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_tool_leaves_out_the_server_still_checks() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let call = |name: &'static str, arguments: Value| {
        let (s, token) = (&s, &token);
        async move {
            let r = s.mcp_2025(token, "tools/call", json!({ "name": name, "arguments": arguments })).await;
            assert!(r.is_tool_error(), "{name} {}", r.body);
            r.tool_json()
        }
    };
    let descriptor = |name: &str| -> Value {
        let op = kobana_dunning::operations::OPERATIONS.iter().find(|op| op.tool_name == name).unwrap();
        serde_json::from_str(op.descriptor).unwrap()
    };

    // The event codes: the tool shows a pattern; the server names every code and the nearest.
    let events = &descriptor("dunning_webhooks_create")["inputSchema"]["properties"]["events"];
    assert!(events["items"].get("enum").is_none() && events["items"]["pattern"].is_string(), "{events}");
    let body = call(
        "dunning_webhooks_create",
        json!({ "url": "https://hooks.example.com/in", "events": ["charge.payd"] }),
    )
    .await;
    let error = field_error(&body);
    assert_eq!(error["field"], "events.0", "{body}");
    assert_eq!(error["suggestion"], "charge.paid", "{body}");
    let message = error["message"].as_str().unwrap();
    for code in kobana_dunning::types::WebhookEventCode::ALL {
        assert!(message.contains(code.as_str()), "{message} names {}", code.as_str());
    }

    // A bound: per_page up to 100 (a read, checked by the MCP layer).
    assert!(
        descriptor("dunning_charges_list")["inputSchema"]["properties"]["per_page"].get("maximum").is_none()
    );
    let body = call("dunning_charges_list", json!({ "per_page": 500 })).await;
    assert_eq!(field_error(&body)["field"], "per_page", "{body}");

    // A list filter's exact form: the tool's shorter pattern admits a trailing comma, the
    // server does not.
    let body = call("dunning_charges_list", json!({ "status": "pending," })).await;
    assert_eq!(field_error(&body)["field"], "status", "{body}");

    // Exact forms of a write's fields (checked by the endpoint): a phone without +55, a name
    // over its length, a state that is no UF (every UF named).
    let create = descriptor("dunning_debtors_create");
    assert!(create["inputSchema"]["properties"]["phone"].get("pattern").is_none(), "{create}");
    let body = call(
        "dunning_debtors_create",
        json!({ "name": "Maria", "document": "52998224725", "phone": "11987654321" }),
    )
    .await;
    assert_eq!(field_error(&body)["field"], "phone", "{body}");
    let body =
        call("dunning_debtors_create", json!({ "name": "M".repeat(121), "document": "52998224725" })).await;
    assert_eq!(field_error(&body)["field"], "name", "{body}");
    let address = json!({ "zipcode": "01310-100", "street": "Av. Paulista", "number": "1000",
        "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SX" });
    let body = call(
        "dunning_debtors_create",
        json!({ "name": "Maria", "document": "52998224725", "address": address }),
    )
    .await;
    let error = field_error(&body);
    assert_eq!(error["field"], "address.state", "{body}");
    assert!(error["message"].as_str().unwrap().contains("SP, SE, TO"), "{body}");

    // idempotency_key: in no descriptor, taken and checked by every write but a delete.
    assert!(
        descriptor("dunning_debtors_create")["inputSchema"]["properties"].get("idempotency_key").is_none()
    );
    let body = call(
        "dunning_debtors_create",
        json!({ "name": "Maria", "document": "52998224725", "idempotency_key": "" }),
    )
    .await;
    assert_eq!(field_error(&body)["field"], "idempotency_key", "{body}");
    let arguments = json!({ "name": "Maria", "document": "52998224725", "idempotency_key": "k-1" });
    let first = s
        .mcp_2025(&token, "tools/call", json!({ "name": "dunning_debtors_create", "arguments": arguments }))
        .await;
    let again = s
        .mcp_2025(&token, "tools/call", json!({ "name": "dunning_debtors_create", "arguments": arguments }))
        .await;
    assert!(!first.is_tool_error(), "{}", first.body);
    assert_eq!(
        first.tool_json()["data"]["id"],
        again.tool_json()["data"]["id"],
        "the key replays the first answer"
    );

    // An unknown argument is still named, with the nearest (the descriptor no longer says
    // additionalProperties: false: the server does).
    let body = call(
        "dunning_debtors_create",
        json!({ "name": "Maria", "document": "52998224725", "emial": "a@b.co" }),
    )
    .await;
    let error = field_error(&body);
    assert_eq!(
        (error["field"].as_str(), error["suggestion"].as_str()),
        (Some("emial"), Some("email")),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_codes_are_a_resource() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let r = s
        .mcp_2026(&token, "resources/read", json!({ "uri": "kobana://dunning/event_codes" }), json!({}))
        .await;
    let content = &r.result()["contents"][0];
    assert_eq!(content["mimeType"], "application/json", "{}", r.body);
    let listed: Value = serde_json::from_str(content["text"].as_str().unwrap()).unwrap();
    let codes: Vec<&str> = kobana_dunning::types::WebhookEventCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(listed["event_codes"], json!(codes));
    // The webhook tools say where the codes are.
    for name in ["dunning_webhooks_create", "dunning_webhooks_update"] {
        let op = kobana_dunning::operations::OPERATIONS.iter().find(|op| op.tool_name == name).unwrap();
        let descriptor: Value = serde_json::from_str(op.descriptor).unwrap();
        assert!(
            descriptor["description"].as_str().unwrap().contains("kobana://dunning/event_codes"),
            "{descriptor}"
        );
    }
}
