//! Exact input: money is judged on the number as written, text refuses invisible and
//! control characters, and text stored before still reaches models escaped.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Resp, TestServer, date_in, error_field, error_fields, send};

/// Number literals with a third decimal, however written; f64 would make the first one 1.0.
const INEXACT: [&str; 4] = ["1.0000000000000000001", "1.001", "1e-3", "12.5E-3"];

fn id(v: &Value) -> String {
    v["id"].as_str().expect("id").to_string()
}

/// Sends a JSON body exactly as written (a `Value` could not hold `1.0000000000000000001`).
async fn raw_json(server: &TestServer, token: &str, method: Method, path: &str, body: String) -> Resp {
    let req =
        server.raw(method, path).bearer_auth(token).header("content-type", "application/json").body(body);
    send(req).await
}

fn assert_refused(r: &Resp, field: &str, message: &str) {
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "VALIDATION_ERROR", "{}", r.body);
    assert_eq!(error_fields(r), [field], "{}", r.body);
    let got = error_field(r, field).expect("field")["message"].as_str().expect("message").to_string();
    assert_eq!(got, message, "{}", r.body);
}

const DECIMALS: &str = "must have at most 2 decimal places, e.g. 1250.50";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn money_with_a_third_decimal_however_written_is_refused_on_rest() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    let due = date_in(5);
    for literal in INEXACT {
        let body = format!(r#"{{"debtor_id": "{debtor}", "amount": {literal}, "due_date": "{due}"}}"#);
        let r = raw_json(&server, &token, Method::POST, "/v1/charges", body).await;
        assert_refused(&r, "amount", DECIMALS);

        let body = format!(
            r#"{{"debtor_id": "{debtor}", "amount": 10, "due_date": "{due}", "fine_percentage": {literal}}}"#
        );
        let r = raw_json(&server, &token, Method::POST, "/v1/charges", body).await;
        assert_refused(&r, "fine_percentage", DECIMALS);
    }
    let r = server.read(&token, "charges_list", "").await;
    assert_eq!(r.body["meta"]["total"], 0, "nothing rounded and created: {}", r.body);

    // Trailing zeros are not decimals: 1.100 is 1.10.
    let body = format!(r#"{{"debtor_id": "{debtor}", "amount": 1.100, "due_date": "{due}"}}"#);
    let r = raw_json(&server, &token, Method::POST, "/v1/charges", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["amount"], json!(1.1));
    let charge = id(r.data());

    for literal in INEXACT {
        let r = raw_json(
            &server,
            &token,
            Method::POST,
            &format!("/v1/charges/{charge}/settle"),
            format!(r#"{{"paid_amount": {literal}}}"#),
        )
        .await;
        assert_refused(&r, "paid_amount", DECIMALS);
    }
    let r = server.read_id(&token, "charges_get", &charge).await;
    assert_eq!(r.data()["paid_amount"], json!(0.0), "no payment recorded: {}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn money_with_a_third_decimal_is_refused_through_mcp_tools() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    let due = date_in(5);
    for literal in INEXACT {
        let body = format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {{"name": "dunning_charges_create",
              "arguments": {{"debtor_id": "{debtor}", "amount": {literal}, "due_date": "{due}"}}}}}}"#
        );
        let req = server
            .raw(Method::POST, "/mcp")
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .header("mcp-protocol-version", "2025-06-18")
            .body(body);
        let r = send(req).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(r.is_tool_error(), "{}", r.body);
        let envelope = r.tool_json();
        assert_eq!(envelope["error"]["code"], "VALIDATION_ERROR", "{envelope}");
        let fields = &envelope["error"]["details"]["fields"];
        assert_eq!(fields.as_array().map(Vec::len), Some(1), "{envelope}");
        assert_eq!(fields[0]["field"], "amount", "{envelope}");
        assert_eq!(fields[0]["message"], DECIMALS, "{envelope}");
    }
    let r = server.read(&token, "charges_list", "").await;
    assert_eq!(r.body["meta"]["total"], 0, "{}", r.body);

    // 1.100 passes through MCP too.
    let r = server
        .mcp_2025(
            &token,
            "tools/call",
            json!({ "name": "dunning_charges_create",
                    "arguments": { "debtor_id": debtor, "amount": 1.1, "due_date": due } }),
        )
        .await;
    assert!(!r.is_tool_error(), "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_with_control_bidi_or_zero_width_characters_are_refused() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let cases = [
        ("Maria\u{0007}Souza", "must be a single line without control characters"),
        ("Maria\nSouza", "must be a single line without control characters"),
        ("Maria\u{0085}Souza", "must be a single line without control characters"),
        ("Maria\u{202e}azuoS", "must not contain bidirectional control characters"),
        ("Maria\u{2066}Souza\u{2069}", "must not contain bidirectional control characters"),
        ("Maria\u{200f}", "must not contain bidirectional control characters"),
        ("Ma\u{200b}ria", "must not contain zero-width characters"),
        ("Maria\u{feff}", "must not contain zero-width characters"),
        ("\u{200b}\u{200b}", "must not contain zero-width characters"),
        ("...", "must contain a letter"),
        ("- 123 -", "must contain a letter"),
    ];
    for (name, message) in cases {
        let r =
            server.write(&token, "debtors_create", json!({ "name": name, "document": "52998224725" })).await;
        assert_refused(&r, "name", message);
        // No position noise from the parser in the message.
        assert!(!r.body.to_string().contains("line 1"), "{}", r.body);
    }
    let r = server.read(&token, "debtors_list", "").await;
    assert_eq!(r.body["meta"]["total"], 0, "{}", r.body);

    // Other text fields are named too, nested ones with their path.
    let debtor = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    let r = server.write_id(&token, "debtors_update", &debtor, json!({ "name": "Jo\u{202e}ão" })).await;
    assert_refused(&r, "name", "must not contain bidirectional control characters");
    let r = server.write_id(&token, "debtors_update", &debtor, json!({ "external_id": "x\u{200d}" })).await;
    assert_refused(&r, "external_id", "must not contain zero-width characters");
    let r = server.write_id(&token, "debtors_update", &debtor, json!({ "tags": ["ok", "b\u{202d}d"] })).await;
    assert_eq!(error_fields(&r), ["tags.1"], "{}", r.body);
    let address = json!({ "zipcode": "01310-100", "street": "Av.\u{202e} Paulista", "number": "1000",
                          "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP" });
    let r = server.write_id(&token, "debtors_update", &debtor, json!({ "address": address })).await;
    assert_refused(&r, "address.street", "must not contain bidirectional control characters");

    // Through MCP the same refusal names the argument.
    let r = server
        .mcp_2025(
            &token,
            "tools/call",
            json!({ "name": "dunning_debtors_create",
                    "arguments": { "name": "\u{200b}", "document": "11222333000181" } }),
        )
        .await;
    assert!(r.is_tool_error(), "{}", r.body);
    let envelope = r.tool_json();
    assert_eq!(envelope["error"]["code"], "VALIDATION_ERROR", "{envelope}");
    assert_eq!(envelope["error"]["details"]["fields"][0]["field"], "name", "{envelope}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn free_text_keeps_newlines_and_refuses_other_controls() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    let due = date_in(5);
    let r = server
        .write(
            &token,
            "charges_create",
            json!({ "debtor_id": debtor, "amount": 10, "due_date": due, "description": "Parcela 1\nParcela 2" }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["description"], "Parcela 1\nParcela 2");
    let charge = id(r.data());

    let r = server
        .write(
            &token,
            "charges_create",
            json!({ "debtor_id": debtor, "amount": 10, "due_date": due, "description": "a\tb" }),
        )
        .await;
    assert_refused(&r, "description", "must not contain control characters (only newlines are allowed)");
    let r = server.write_id(&token, "charges_cancel", &charge, json!({ "reason": "pago\u{202e}" })).await;
    assert_refused(&r, "reason", "must not contain bidirectional control characters");
    let r = server.write_id(&token, "charges_cancel", &charge, json!({ "reason": "Acordo\nfechado" })).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_stored_before_reaches_tool_results_escaped() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    // Stored by an older server, before input was checked.
    let hostile = "Maria\u{202e}azuoS\u{200b}\u{0085}";
    server.execute_sql("UPDATE debtors SET name = $1 WHERE id = $2", &[hostile, &debtor]).await;

    let r = server
        .mcp_2025(
            &token,
            "tools/call",
            json!({ "name": "dunning_debtors_get", "arguments": { "id": debtor } }),
        )
        .await;
    assert!(!r.is_tool_error(), "{}", r.body);
    let text = r.result()["content"][0]["text"].as_str().expect("text");
    assert!(text.contains(r"Maria\u202eazuoS\u200b\u0085"), "{text}");
    assert!(!text.contains('\u{202e}') && !text.contains('\u{200b}') && !text.contains('\u{85}'), "{text}");
    // Still the endpoint's JSON once parsed.
    assert_eq!(r.tool_json()["data"]["name"], hostile);
    let rest = server.read_id(&token, "debtors_get", &debtor).await;
    assert_eq!(r.tool_json(), rest.body);
}
