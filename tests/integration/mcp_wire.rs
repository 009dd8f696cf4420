//! The MCP transport and era rules, walked one by one against the real server: status codes,
//! JSON-RPC codes, headers and result fields.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{ALL, TestServer, envelope, send};

const SUPPORTED: [&str; 3] = ["2026-07-28", "2025-06-18", "2025-03-26"];

fn assert_headers(r: &crate::common::Resp, version: &str) {
    assert_eq!(r.header("mcp-protocol-version"), Some(version), "{}", r.body);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    assert!(r.header("mcp-session-id").is_none(), "no session id is minted");
    assert!(r.header("retry-after").is_none(), "Retry-After only on 429 and 503");
}

fn discover_body() -> Value {
    json!({ "jsonrpc": "2.0", "id": 7, "method": "server/discover", "params": { "_meta": envelope(json!({})) } })
}

const DISCOVER_HEADERS: [(&str, &str); 2] =
    [("mcp-protocol-version", "2026-07-28"), ("mcp-method", "server/discover")];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_and_delete_are_405() {
    let s = TestServer::start().await;
    for method in [Method::GET, Method::DELETE] {
        for path in ["/mcp", "/"] {
            let r = send(s.raw(method.clone(), path)).await;
            assert_eq!(r.status, 405, "{method} {path}");
            assert_headers(&r, "2025-06-18");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transport_refusals_in_order() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let ping = json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" });

    // Body over 2 MiB: 413 with -32600, whatever else is wrong.
    let big = "x".repeat(2 * 1024 * 1024 + 10);
    let r = send(s.raw(Method::POST, "/mcp").header("content-type", "text/plain").body(big)).await;
    assert_eq!(r.status, 413);
    assert_eq!(r.rpc_code(), -32600);
    assert_eq!(r.body["error"]["message"], "Request body too large");
    assert!(r.body.get("id").is_none(), "no id when it could not be read");
    assert_headers(&r, "2025-06-18");

    let r = send(
        s.raw(Method::POST, "/mcp")
            .bearer_auth(&token)
            .header("content-type", "text/plain")
            .body(ping.to_string()),
    )
    .await;
    assert_eq!((r.status, r.rpc_code()), (415, -32600));

    let r = s.mcp_raw("/mcp", Some(&token), &ping, &[("accept", "text/event-stream")]).await;
    assert_eq!((r.status, r.rpc_code()), (406, -32600));
    let r =
        s.mcp_raw("/mcp", Some(&token), &ping, &[("accept", "application/json, text/event-stream")]).await;
    assert_eq!(r.status, 200);

    let r = send(
        s.raw(Method::POST, "/mcp")
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body("{nope"),
    )
    .await;
    assert_eq!((r.status, r.rpc_code()), (400, -32700));
    assert!(r.body.get("id").is_none());

    let r = s.mcp_raw("/mcp", Some(&token), &json!([ping]), &[]).await;
    assert_eq!((r.status, r.rpc_code()), (400, -32600));

    // Origin: absent is fine, the server's own is fine, another is 403 (before authentication).
    let r = s.mcp_raw("/mcp", None, &ping, &[("origin", "https://evil.example")]).await;
    assert_eq!((r.status, r.rpc_code()), (403, -32600));
    assert_eq!(r.body["id"], 1);
    let r = s.mcp_raw("/mcp", Some(&token), &ping, &[("origin", &s.base)]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), Some(s.base.as_str()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authentication_comes_before_any_method() {
    let s = TestServer::start().await;
    let org = s.org("Org").await;
    for (path, metadata) in [
        ("/mcp", "/.well-known/oauth-protected-resource/mcp"),
        ("/", "/.well-known/oauth-protected-resource"),
    ] {
        let r = s.mcp_raw(path, None, &discover_body(), &DISCOVER_HEADERS).await;
        assert_eq!(r.status, 401, "{path}");
        let challenge = r.header("www-authenticate").expect("challenge");
        assert_eq!(challenge, format!("Bearer resource_metadata=\"{}{metadata}\"", s.base));
        assert_eq!(r.body["id"], 7);
        let r = s.mcp_raw(path, Some("kd_at_not-a-token"), &discover_body(), &DISCOVER_HEADERS).await;
        assert_eq!(r.status, 401);
        assert!(r.header("www-authenticate").unwrap().contains("error=\"invalid_token\""));
    }
    // A token for the REST API only is not a token for MCP (RFC 8707 audience).
    let api_only = s.token_for(&org, ALL, "api").await;
    let r = s.mcp_raw("/mcp", Some(&api_only), &discover_body(), &DISCOVER_HEADERS).await;
    assert_eq!(r.status, 401);
    let mcp_only = s.token_for(&org, ALL, "mcp").await;
    let r = s.mcp_raw("/", Some(&mcp_only), &discover_body(), &DISCOVER_HEADERS).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discover_answers_the_contract_example() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let r = s
        .mcp_raw(
            "/",
            Some(&token),
            &discover_body(),
            &[DISCOVER_HEADERS[0], DISCOVER_HEADERS[1], ("mcp-session-id", "abc")],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_headers(&r, "2026-07-28");
    assert_eq!(r.header("content-type"), Some("application/json"));
    let result = r.result();
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"], json!(SUPPORTED));
    assert_eq!(
        result["capabilities"],
        json!({ "tools": {}, "resources": {}, "prompts": {}, "completions": {},
                "extensions": { "io.modelcontextprotocol/ui": { "mimeTypes": ["text/html;profile=mcp-app"] } } })
    );
    assert_eq!(result["ttlMs"], 0);
    assert_eq!(result["cacheScope"], "private");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({ "name": "kobana-dunning", "title": "Kobana Dunning", "version": "1.0.0" })
    );
    let instructions = result["instructions"].as_str().unwrap();
    assert!(instructions.starts_with("Tools for Kobana Dunning (debt collection):"));
    for phrase in [
        "organization comes from",
        "BRL",
        "snake_case",
        "page",
        "per_page",
        "idempotency_key",
        "dunning_me",
        "already filtered",
        "never instructions",
        "confirm with the user",
    ] {
        assert!(instructions.contains(phrase), "instructions mention {phrase}");
    }
}

/// The catalogue budget (`the_catalogue_stays_within_its_budget` in tests/codegen.rs) leaves the
/// conventional arguments undescribed in every tool descriptor (codegen/inputs.rs), and
/// idempotency_key out of them: the instructions explain each of them once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_instructions_explain_the_arguments_left_undescribed() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let r = s.mcp_raw("/", Some(&token), &discover_body(), &DISCOVER_HEADERS).await;
    let instructions = r.result()["instructions"].as_str().unwrap().to_string();
    let is_word = |name: &str| {
        let boundary = |c: Option<char>| !c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        instructions.match_indices(name).any(|(at, _)| {
            boundary(instructions[..at].chars().next_back())
                && boundary(instructions[at + name.len()..].chars().next())
        })
    };
    let conventional = [
        "id",
        "page",
        "per_page",
        "sort_by",
        "sort_order",
        "idempotency_key",
        "external_id",
        "tags",
        "metadata",
        "q",
    ];
    let mut taken = std::collections::BTreeSet::new();
    for op in kobana_dunning::operations::OPERATIONS {
        let schema: Value = serde_json::from_str(op.input_schema).unwrap();
        let descriptor: Value = serde_json::from_str(op.descriptor).unwrap();
        for name in schema["properties"].as_object().unwrap().keys() {
            let shown = &descriptor["inputSchema"]["properties"][name];
            if conventional.contains(&name.as_str()) {
                taken.insert(name.clone());
                assert!(shown.get("description").is_none(), "{}: {name} is described", op.tool_name);
            }
        }
        // As the instructions say: every write but the *_delete ones and the Pix key's (a PUT)
        // takes idempotency_key, which no descriptor lists.
        let said = op.effect != kobana_dunning::operations::Effect::Read
            && !op.tool_name.ends_with("_delete")
            && op.tool_name != "dunning_organization_pix_update";
        assert_eq!(schema["properties"].get("idempotency_key").is_some(), said, "{}", op.tool_name);
        assert_eq!(op.accepts_idempotency_key, said, "{}", op.tool_name);
        assert!(descriptor["inputSchema"]["properties"].get("idempotency_key").is_none(), "{}", op.tool_name);
    }
    assert_eq!(taken.len(), conventional.len(), "{taken:?}");
    for name in conventional {
        assert!(
            is_word(name),
            "tool descriptors leave {name} undescribed, and the instructions do not explain it"
        );
    }
    assert!(instructions.contains("kobana://dunning/event_codes"), "{instructions}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn era_selection_and_header_agreement() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let list = |meta: Option<Value>| {
        let mut params = json!({});
        if let Some(meta) = meta {
            params["_meta"] = meta;
        }
        json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": params })
    };

    // 2026 header without the envelope: no silent fallback.
    let r = s
        .mcp_raw(
            "/mcp",
            Some(&token),
            &list(None),
            &[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/list")],
        )
        .await;
    assert_eq!((r.status, r.rpc_code()), (400, -32602));

    // Unknown version in the header (no envelope) and in the envelope.
    let r = s.mcp_raw("/mcp", Some(&token), &list(None), &[("mcp-protocol-version", "1900-01-01")]).await;
    assert_eq!((r.status, r.rpc_code()), (400, -32022));
    assert_eq!(r.body["error"]["data"], json!({ "supported": SUPPORTED, "requested": "1900-01-01" }));
    let meta = json!({ "io.modelcontextprotocol/protocolVersion": "1900-01-01", "io.modelcontextprotocol/clientCapabilities": {} });
    let r = s
        .mcp_raw(
            "/mcp",
            Some(&token),
            &list(Some(meta)),
            &[("mcp-protocol-version", "1900-01-01"), ("mcp-method", "tools/list")],
        )
        .await;
    assert_eq!((r.status, r.rpc_code()), (400, -32022));
    assert_eq!(r.body["error"]["data"]["requested"], "1900-01-01");
    assert_eq!(r.body["error"]["data"]["supported"], json!(SUPPORTED));

    // Header and envelope disagree; header missing; method header wrong.
    let r = s
        .mcp_raw(
            "/mcp",
            Some(&token),
            &list(Some(envelope(json!({})))),
            &[("mcp-protocol-version", "2025-06-18"), ("mcp-method", "tools/list")],
        )
        .await;
    assert_eq!((r.status, r.rpc_code()), (400, -32020));
    let r = s
        .mcp_raw("/mcp", Some(&token), &list(Some(envelope(json!({})))), &[("mcp-method", "tools/list")])
        .await;
    assert_eq!((r.status, r.rpc_code()), (400, -32020));
    let r = s
        .mcp_raw(
            "/mcp",
            Some(&token),
            &list(Some(envelope(json!({})))),
            &[("mcp-protocol-version", "2026-07-28")],
        )
        .await;
    assert_eq!((r.status, r.rpc_code()), (400, -32020), "Mcp-Method is required");
    let r = s
        .mcp_raw(
            "/mcp",
            Some(&token),
            &list(Some(envelope(json!({})))),
            &[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "TOOLS/LIST")],
        )
        .await;
    assert_eq!((r.status, r.rpc_code()), (400, -32020), "values are case-sensitive");

    // Envelope without clientCapabilities.
    let meta = json!({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" });
    let r = s
        .mcp_raw(
            "/mcp",
            Some(&token),
            &list(Some(meta)),
            &[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/list")],
        )
        .await;
    assert_eq!((r.status, r.rpc_code()), (400, -32602));

    // Whitespace around a header value is accepted.
    let r = s
        .mcp_raw(
            "/mcp",
            Some(&token),
            &list(Some(envelope(json!({})))),
            &[("mcp-protocol-version", " 2026-07-28 "), ("mcp-method", "tools/list ")],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);

    // No envelope, no header: 2025-06-18, the default.
    let r = s.mcp_raw("/mcp", Some(&token), &list(None), &[]).await;
    assert_eq!(r.status, 200);
    assert_headers(&r, "2025-06-18");
    let r = s.mcp_raw("/mcp", Some(&token), &list(None), &[("mcp-protocol-version", "2025-03-26")]).await;
    assert_headers(&r, "2025-03-26");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_name_must_match_on_tools_call() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let call = json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
        "name": "dunning_me", "arguments": {}, "_meta": envelope(json!({})) } });
    let base = [("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call")];
    let r = s.mcp_raw("/mcp", Some(&token), &call, &base).await;
    assert_eq!((r.status, r.rpc_code()), (400, -32020), "Mcp-Name is required on tools/call");
    let r = s
        .mcp_raw("/mcp", Some(&token), &call, &[base[0], base[1], ("mcp-name", "dunning_charges_list")])
        .await;
    assert_eq!((r.status, r.rpc_code()), (400, -32020));
    let r = s.mcp_raw("/mcp", Some(&token), &call, &[base[0], base[1], ("mcp-name", "dunning_me")]).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // "dunning_me" in the base64 form.
    let r = s
        .mcp_raw(
            "/mcp",
            Some(&token),
            &call,
            &[base[0], base[1], ("mcp-name", "=?base64?ZHVubmluZ19tZQ==?=")],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.mcp_raw("/mcp", Some(&token), &call, &[base[0], base[1], ("mcp-name", "=?base64?%%%?=")]).await;
    assert_eq!((r.status, r.rpc_code()), (400, -32020));
    // On resources/read a missing Mcp-Name is accepted, a wrong one is not.
    let read = json!({ "jsonrpc": "2.0", "id": 5, "method": "resources/read", "params": {
        "uri": "kobana://dunning/me", "_meta": envelope(json!({})) } });
    let hdrs = [("mcp-protocol-version", "2026-07-28"), ("mcp-method", "resources/read")];
    assert_eq!(s.mcp_raw("/mcp", Some(&token), &read, &hdrs).await.status, 200);
    let r = s
        .mcp_raw("/mcp", Some(&token), &read, &[hdrs[0], hdrs[1], ("mcp-name", "kobana://dunning/guide")])
        .await;
    assert_eq!((r.status, r.rpc_code()), (400, -32020));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_negotiates_only_2025_versions() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    for (requested, answered) in [
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2026-07-28", "2025-06-18"),
        ("2025-11-25", "2025-06-18"),
        ("1.0", "2025-06-18"),
    ] {
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": requested, "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } });
        // Real clients send 2025-11-25 in the header of initialize: it is not checked.
        let r = s.mcp_raw("/mcp", Some(&token), &body, &[("mcp-protocol-version", "2025-11-25")]).await;
        assert_eq!(r.status, 200, "{requested}: {}", r.body);
        assert_headers(&r, answered);
        let result = r.result();
        assert_eq!(result["protocolVersion"], answered);
        assert!(result.get("resultType").is_none() && result.get("_meta").is_none());
        let mut capabilities = json!({ "tools": { "listChanged": false }, "resources": { "subscribe": false, "listChanged": false }, "prompts": { "listChanged": false }, "completions": {} });
        // The MCP App views' extension, where tools carry `_meta` (tests/integration/mcp_apps.rs).
        if answered == "2025-06-18" {
            capabilities["extensions"] =
                json!({ "io.modelcontextprotocol/ui": { "mimeTypes": ["text/html;profile=mcp-app"] } });
        }
        assert_eq!(result["capabilities"], capabilities);
        assert_eq!(result["serverInfo"]["name"], "kobana-dunning");
        assert_eq!(
            result["serverInfo"].get("title").is_some(),
            answered == "2025-06-18",
            "no title for 2025-03-26"
        );
        assert!(
            result["instructions"]
                .as_str()
                .unwrap()
                .starts_with("Tools for Kobana Dunning (debt collection):")
        );
    }
    // initialize inside the envelope is a 2026 request: that method does not exist there.
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "protocolVersion": "2025-06-18", "_meta": envelope(json!({})) } });
    let r = s
        .mcp_raw(
            "/mcp",
            Some(&token),
            &body,
            &[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "initialize")],
        )
        .await;
    assert_eq!((r.status, r.rpc_code()), (404, -32601));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_methods_and_notifications() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    for method in ["ping", "logging/setLevel", "resources/subscribe", "nope/nothing"] {
        let r = s.mcp_2026(&token, method, json!({}), json!({})).await;
        assert_eq!((r.status, r.rpc_code()), (404, -32601), "{method} in 2026-07-28");
        assert_headers(&r, "2026-07-28");
    }
    for method in ["server/discover", "nope/nothing", "logging/setLevel"] {
        let r = s.mcp_2025(&token, method, json!({})).await;
        assert_eq!((r.status, r.rpc_code()), (200, -32601), "{method} in 2025");
        assert_eq!(r.body["id"], 1);
    }
    let r = s.mcp_2025(&token, "ping", json!({})).await;
    assert_eq!(r.result(), &json!({}));

    let note = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let r = s.mcp_raw("/mcp", Some(&token), &note, &[("mcp-protocol-version", "2025-06-18")]).await;
    assert_eq!(r.status, 202);
    assert!(r.body.is_null(), "empty body");
    let note = json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "_meta": envelope(json!({})) } });
    let r = s
        .mcp_raw(
            "/mcp",
            Some(&token),
            &note,
            &[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "notifications/cancelled")],
        )
        .await;
    assert_eq!(r.status, 202);
    assert_headers(&r, "2026-07-28");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn result_fields_per_era() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    for method in ["tools/list", "resources/list", "resources/templates/list", "prompts/list"] {
        let r = s.mcp_2026(&token, method, json!({}), json!({})).await;
        assert_eq!(r.status, 200, "{method}: {}", r.body);
        let result = r.result();
        assert_eq!(result["resultType"], "complete", "{method}");
        assert_eq!(
            (result["ttlMs"].clone(), result["cacheScope"].clone()),
            (json!(0), json!("private")),
            "{method}"
        );
        assert_eq!(result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "kobana-dunning");
        assert!(result.get("nextCursor").is_none(), "lists under 100 items are not paginated");

        let r = s.mcp_2025(&token, method, json!({})).await;
        let result = r.result();
        for field in ["resultType", "ttlMs", "cacheScope"] {
            assert!(result.get(field).is_none(), "{method} in 2025 has no {field}");
        }
        // A 2025 list's `_meta` holds at most the catalogue's hash, never the 2026 fields.
        let meta_keys: Vec<&String> =
            result.get("_meta").and_then(Value::as_object).into_iter().flatten().map(|(k, _)| k).collect();
        let expected: &[&str] = if method == "tools/list" { &["com.kobana/catalogue_hash"] } else { &[] };
        assert_eq!(meta_keys, expected, "{method} in 2025");
    }
    let r =
        s.mcp_2026(&token, "tools/call", json!({ "name": "dunning_me", "arguments": {} }), json!({})).await;
    assert_eq!(r.result()["resultType"], "complete");
    assert!(r.result().get("ttlMs").is_none(), "tool results are not cacheable");

    // 2025-06-18 and 2026-07-28 lists carry their hash in `_meta`: the same list, the same hash,
    // in both eras and on every request; another list (fewer scopes), another hash.
    let hash_of = |r: &crate::common::Resp| {
        r.result()["_meta"]["com.kobana/catalogue_hash"].as_str().unwrap().to_string()
    };
    let listed = [
        s.mcp_2026(&token, "tools/list", json!({}), json!({})).await,
        s.mcp_2025(&token, "tools/list", json!({})).await,
        s.mcp_2025(&token, "tools/list", json!({})).await,
    ];
    let hashes: Vec<String> = listed.iter().map(hash_of).collect();
    assert!(hashes[0].len() == 16 && hashes[0].chars().all(|c| c.is_ascii_hexdigit()), "{hashes:?}");
    assert!(hashes.iter().all(|h| *h == hashes[0]), "{hashes:?}");
    for tool in listed[0].result()["tools"].as_array().unwrap() {
        assert!(tool.get("_meta").is_none(), "one hash for the list, none a tool: {tool}");
    }
    let reader = s.token(&org, "dunning.read").await;
    let fewer = s.mcp_2025(&reader, "tools/list", json!({})).await;
    assert_ne!(hash_of(&fewer), hashes[0], "a list of other tools has another hash");

    // 2025-03-26 clients get no field that revision lacks.
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" });
    let r = s.mcp_raw("/mcp", Some(&token), &body, &[("mcp-protocol-version", "2025-03-26")]).await;
    for tool in r.result()["tools"].as_array().unwrap() {
        assert!(tool.get("title").is_none() && tool.get("_meta").is_none(), "{tool}");
        assert!(r.result().get("_meta").is_none(), "2025-03-26 lists carry no hash");
        assert!(
            tool["annotations"]["title"].is_string(),
            "2025-03-26 shows the title in annotations: {tool}"
        );
    }
    for (method, key) in [
        ("prompts/list", "prompts"),
        ("resources/list", "resources"),
        ("resources/templates/list", "resourceTemplates"),
    ] {
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method });
        let r = s.mcp_raw("/mcp", Some(&token), &body, &[("mcp-protocol-version", "2025-03-26")]).await;
        let items = r.result()[key].as_array().unwrap();
        assert!(!items.is_empty(), "{method}");
        assert!(items.iter().all(|i| i.get("title").is_none()), "{method} without titles for 2025-03-26");
    }
    let r = s.mcp_2025(&token, "tools/list", json!({})).await;
    assert!(r.result()["tools"].as_array().unwrap().iter().all(|t| t.get("title").is_some()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cors_preflight_only_for_the_servers_origin() {
    let s = TestServer::start().await;
    let r = send(
        s.raw(Method::OPTIONS, "/mcp")
            .header("origin", &s.base)
            .header("access-control-request-method", "POST"),
    )
    .await;
    assert_eq!(r.status, 204);
    let allowed = r.header("access-control-allow-headers").unwrap().to_ascii_lowercase();
    for h in ["authorization", "content-type", "mcp-protocol-version", "mcp-method", "mcp-name"] {
        assert!(allowed.contains(h), "{h}");
    }
    assert_eq!(r.header("access-control-expose-headers"), Some("MCP-Protocol-Version"));
    let r = send(s.raw(Method::OPTIONS, "/mcp").header("origin", "https://evil.example")).await;
    assert_eq!(r.status, 403);
    assert!(r.header("access-control-allow-origin").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_have_one_page_and_refuse_cursors() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    for method in ["tools/list", "resources/list", "resources/templates/list", "prompts/list"] {
        let r = s.mcp_2025(&token, method, json!({ "cursor": "abc" })).await;
        assert_eq!((r.status, r.rpc_code()), (200, -32602), "{method}");
        let r = s.mcp_2026(&token, method, json!({ "cursor": "abc" }), json!({})).await;
        assert_eq!((r.status, r.rpc_code()), (200, -32602), "{method}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_message_without_a_token_is_a_401() {
    let s = TestServer::start().await;
    let body = json!({ "jsonrpc": "1.0", "id": 9, "method": 5 });
    let r = s.mcp_raw("/mcp", None, &body, &[]).await;
    assert_eq!(r.status, 401, "authentication comes before reading the message: {}", r.body);
    assert_eq!(r.body["id"], 9);
    let (_, token) = s.tenant("Org").await;
    let r = s.mcp_raw("/mcp", Some(&token), &body, &[]).await;
    assert_eq!((r.status, r.rpc_code()), (400, -32600));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_origins_are_the_servers_other_names() {
    let limits = kobana_dunning::limits::Limits {
        per_minute: 600,
        burst: 60,
        max_in_flight: 64,
        ..kobana_dunning::limits::Limits::default()
    };
    let s = TestServer::start_custom(limits, vec!["https://cobranca.example.com.br/".into()]).await;
    let (_, token) = s.tenant("Org").await;
    let ping = json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" });
    for (origin, status) in
        [(s.base.as_str(), 200), ("https://cobranca.example.com.br", 200), ("https://evil.example", 403)]
    {
        let r = s.mcp_raw("/mcp", Some(&token), &ping, &[("origin", origin)]).await;
        assert_eq!(r.status, status, "{origin}");
    }
    let r = send(s.raw(Method::OPTIONS, "/mcp").header("origin", "https://cobranca.example.com.br")).await;
    assert_eq!(r.status, 204);
    assert_eq!(r.header("access-control-allow-origin"), Some("https://cobranca.example.com.br"));
}
