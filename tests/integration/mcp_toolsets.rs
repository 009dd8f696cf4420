//! The narrower MCP endpoints: `/mcp/x/<toolsets>`, `/mcp/readonly` and
//! `/mcp/x/<toolsets>/readonly` list fewer tools and run no other, with the same sign-in, eras
//! and confirmations as `/mcp`; and a tool that needs a scope the token lacks, a second one
//! included, is never listed.

use kobana_dunning::operations::{Effect, OPERATIONS, Operation, TOOLSETS};
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{ALL, Resp, TestServer, envelope, send};

/// A 2026-07-28 request to `path`.
async fn mcp_2026_at(s: &TestServer, path: &str, token: &str, method: &str, params: Value) -> Resp {
    let mut params = params;
    params["_meta"] = envelope(json!({}));
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let name = params["name"].as_str().unwrap_or_default().to_string();
    let mut headers = vec![("mcp-protocol-version", "2026-07-28"), ("mcp-method", method)];
    if method == "tools/call" {
        headers.push(("mcp-name", &name));
    }
    s.mcp_raw(path, Some(token), &body, &headers).await
}

/// A 2025-06-18 request to `path`.
async fn mcp_2025_at(s: &TestServer, path: &str, token: &str, method: &str, params: Value) -> Resp {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    s.mcp_raw(path, Some(token), &body, &[("mcp-protocol-version", "2025-06-18")]).await
}

fn names(r: &Resp) -> Vec<String> {
    let tools = r.result()["tools"].as_array().unwrap_or_else(|| panic!("no tools: {}", r.body));
    tools.iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
}

/// The tool names the table puts on a path, in name order: the toolsets' operations (every one
/// when `sets` is empty) and dunning_me, only reads when `read_only`.
fn expected(sets: &[&str], read_only: bool) -> Vec<String> {
    let on_path = |op: &Operation| {
        (sets.is_empty() || sets.contains(&op.toolset) || op.operation_id == "me")
            && (!read_only || op.effect == Effect::Read)
    };
    let mut names: Vec<String> =
        OPERATIONS.iter().filter(|op| on_path(op)).map(|op| op.tool_name.to_string()).collect();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_path_lists_its_toolsets_tools_in_both_eras() {
    let s = TestServer::start().await;
    let org = s.org("Org").await;
    let token = s.token(&org, ALL).await;

    let mut sizes = Vec::new();
    let mut covered = 0;
    for set in TOOLSETS {
        let path = format!("/mcp/x/{}", set.name);
        let r = mcp_2026_at(&s, &path, &token, "tools/list", json!({})).await;
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert_eq!(names(&r), expected(&[set.name], false), "{path}");
        covered += names(&r).len() - 1;
        sizes.push((path, json!({ "tools": r.result()["tools"] }).to_string().len()));
    }
    assert_eq!(covered + 1, OPERATIONS.len(), "the toolsets cover every tool once (dunning_me in each)");

    // Several: their union, whatever the order; the 2025 era lists the same.
    let union = expected(&["charges", "debtors"], false);
    let r = mcp_2026_at(&s, "/mcp/x/charges,debtors", &token, "tools/list", json!({})).await;
    assert_eq!(names(&r), union);
    let r = mcp_2025_at(&s, "/mcp/x/debtors,charges", &token, "tools/list", json!({})).await;
    assert_eq!(names(&r), union, "2025 era, the sets in another order");

    // Read-only: every tool that reads, and nothing else.
    let r = mcp_2026_at(&s, "/mcp/readonly", &token, "tools/list", json!({})).await;
    assert_eq!(names(&r), expected(&[], true));
    for tool in r.result()["tools"].as_array().unwrap() {
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{}", tool["name"]);
    }
    sizes.push(("/mcp/readonly".into(), json!({ "tools": r.result()["tools"] }).to_string().len()));
    let r = mcp_2025_at(&s, "/mcp/x/charges,debtors/readonly", &token, "tools/list", json!({})).await;
    assert_eq!(names(&r), expected(&["charges", "debtors"], true));

    // The descriptors are /mcp's, and /mcp is unchanged.
    let all = mcp_2026_at(&s, "/mcp", &token, "tools/list", json!({})).await;
    assert_eq!(names(&all), expected(&[], false));
    sizes.push(("/mcp".into(), json!({ "tools": all.result()["tools"] }).to_string().len()));
    let narrow = mcp_2026_at(&s, "/mcp/x/settlement", &token, "tools/list", json!({})).await;
    for tool in narrow.result()["tools"].as_array().unwrap() {
        assert!(all.result()["tools"].as_array().unwrap().contains(tool), "{}", tool["name"]);
    }
    // The bytes of each list (compact `{"tools":[...]}`, 2026-07-28, every scope), for
    // docs/PERFORMANCE.md: shown with --nocapture.
    for (path, bytes) in sizes {
        println!("tools/list {path}: {bytes} bytes");
    }

    // The other methods are the same endpoint's.
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "protocolVersion": "2025-06-18" } });
    let r = s.mcp_raw("/mcp/x/charges", Some(&token), &body, &[]).await;
    assert_eq!((r.status, r.result()["protocolVersion"].clone()), (200, json!("2025-06-18")), "{}", r.body);
    let r =
        mcp_2026_at(&s, "/mcp/readonly", &token, "resources/read", json!({ "uri": "kobana://dunning/me" }))
            .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = mcp_2026_at(&s, "/mcp/x/charges", &token, "prompts/list", json!({})).await;
    assert!(!r.result()["prompts"].as_array().unwrap().is_empty(), "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_outside_the_path_is_an_unknown_tool_and_a_read_only_path_never_writes() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = s.create_debtor(&token, "Maria Souza", "52998224725").await;
    let charge =
        s.create_charge(&token, debtor["id"].as_str().unwrap(), 150.0, &crate::common::date_in(10)).await;
    let charge_id = charge["id"].as_str().unwrap().to_string();

    // In the set: it runs.
    let call = |name: &str, arguments: Value| json!({ "name": name, "arguments": arguments });
    let r = mcp_2026_at(&s, "/mcp/x/charges", &token, "tools/call", call("dunning_charges_list", json!({})))
        .await;
    assert!(!r.is_tool_error(), "{}", r.body);
    assert_eq!(r.tool_json()["meta"]["total"], 1);
    let r = mcp_2025_at(&s, "/mcp/x/charges", &token, "tools/call", call("dunning_me", json!({}))).await;
    assert!(!r.is_tool_error(), "dunning_me is on every path: {}", r.body);

    // Outside it: what /mcp answers for a tool that does not exist (-32602 in a 200), whatever
    // the token's scopes, and nothing runs.
    let r = mcp_2026_at(
        &s,
        "/mcp/x/charges",
        &token,
        "tools/call",
        call("dunning_debtors_get", json!({ "id": debtor["id"] })),
    )
    .await;
    assert_eq!((r.status, r.rpc_code()), (200, -32602), "{}", r.body);
    let message = r.body["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Unknown tool: dunning_debtors_get") && message.contains("/mcp/x/charges"),
        "{message}"
    );
    assert!(r.header("www-authenticate").is_none(), "no step-up: a scope would not help");

    // Read-only: a write, a destructive tool confirmed or not, is unknown; nothing changes.
    for (era, name, arguments) in [
        ("2025", "dunning_charges_cancel", json!({ "id": charge_id })),
        ("2026", "dunning_charges_cancel", json!({ "id": charge_id })),
        ("2026", "dunning_debtors_create", json!({ "name": "Outro", "document": "39053344705" })),
        ("2025", "dunning_charges_update", json!({ "id": charge_id, "description": "mudou" })),
    ] {
        for path in ["/mcp/readonly", "/mcp/x/charges,debtors/readonly"] {
            let r = if era == "2025" {
                mcp_2025_at(&s, path, &token, "tools/call", call(name, arguments.clone())).await
            } else {
                mcp_2026_at(&s, path, &token, "tools/call", call(name, arguments.clone())).await
            };
            assert_eq!((r.status, r.rpc_code()), (200, -32602), "{path} {name}: {}", r.body);
            assert!(
                r.body["error"]["message"].as_str().unwrap().starts_with(&format!("Unknown tool: {name}"))
            );
        }
    }
    let r = s.read_id(&token, "charges_get", &charge_id).await;
    assert_eq!((r.data()["status"].clone(), r.data()["version"].clone()), (json!("pending"), json!(1)));
    assert_eq!(s.read(&token, "debtors_list", "").await.body["meta"]["total"], 1, "no debtor created");

    // A read on the read-only path runs; a destructive tool on its toolset's path asks as on /mcp.
    let r = mcp_2026_at(
        &s,
        "/mcp/readonly",
        &token,
        "tools/call",
        call("dunning_charges_get", json!({ "id": charge_id })),
    )
    .await;
    assert_eq!(r.tool_json()["data"]["id"], charge_id.as_str());
    let r = mcp_2025_at(
        &s,
        "/mcp/x/charges",
        &token,
        "tools/call",
        call("dunning_charges_cancel", json!({ "id": charge_id })),
    )
    .await;
    assert!(r.is_tool_error(), "{}", r.body);
    let error = &r.tool_json()["error"];
    assert_eq!(error["code"], "CONFIRMATION_REQUIRED");
    assert!(error["details"]["approval_url"].is_string(), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_toolset_is_a_404_naming_the_toolsets() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {} });
    let every: Vec<&str> = TOOLSETS.iter().map(|t| t.name).collect();
    for (path, unknown) in [
        ("/mcp/x/nope", json!(["nope"])),
        ("/mcp/x/charges,nope,debtor", json!(["nope", "debtor"])),
        ("/mcp/x/", json!([""])),
        ("/mcp/readwrite", json!([])),
        ("/mcp/x/charges/write", json!([])),
    ] {
        // With a token or without: a path that names nothing is not a resource to sign in to.
        for token in [Some(token.as_str()), None] {
            let r = s.mcp_raw(path, token, &body, &[]).await;
            assert_eq!((r.status, r.rpc_code()), (404, -32600), "{path}: {}", r.body);
            let error = &r.body["error"];
            assert_eq!(error["data"]["unknown_toolsets"], unknown, "{path}");
            assert_eq!(error["data"]["toolsets"], json!(every), "{path}");
            let message = error["message"].as_str().unwrap();
            assert!(every.iter().all(|set| message.contains(set)), "{message}");
            assert!(r.header("www-authenticate").is_none(), "{path}");
            assert_eq!(r.header("cache-control"), Some("no-store"));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_narrower_path_signs_in_as_its_own_resource() {
    let s = TestServer::start().await;
    let org = s.org("Org").await;
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {} });
    for path in ["/mcp/x/charges", "/mcp/readonly", "/mcp/x/charges,debtors/readonly"] {
        // 401 names the metadata under the path (RFC 9728 section 3.1)...
        let r = s.mcp_raw(path, None, &body, &[]).await;
        assert_eq!(r.status, 401, "{path}");
        let metadata = format!("{}/.well-known/oauth-protected-resource{path}", s.base);
        assert_eq!(
            r.header("www-authenticate"),
            Some(format!("Bearer resource_metadata=\"{metadata}\"").as_str()),
            "{path}"
        );
        // ...which is served, naming that path as the resource and this server to sign in at.
        let r = send(s.raw(Method::GET, &format!("/.well-known/oauth-protected-resource{path}"))).await;
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert_eq!(r.body["resource"], format!("{}{path}", s.base));
        assert_eq!(r.body["authorization_servers"], json!([s.base]));
    }
    let r = send(s.raw(Method::GET, "/.well-known/oauth-protected-resource/mcp/x/nope")).await;
    assert_eq!(r.status, 404);

    // A token for the MCP endpoint works on every path; a step-up names the path's resource.
    let read_only = s.token(&org, "dunning.read").await;
    let r = mcp_2026_at(&s, "/mcp/x/charges", &read_only, "tools/list", json!({})).await;
    assert!(
        names(&r).contains(&"dunning_charges_list".to_string())
            && !names(&r).contains(&"dunning_charges_create".to_string())
    );
    let params = json!({ "name": "dunning_charges_create", "arguments": {} });
    let r = mcp_2026_at(&s, "/mcp/x/charges", &read_only, "tools/call", params).await;
    assert_eq!((r.status, r.rpc_code()), (403, -32602), "{}", r.body);
    let challenge = r.header("www-authenticate").unwrap();
    assert!(
        challenge.contains(&format!(
            "resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp/x/charges\"",
            s.base
        )),
        "{challenge}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_instructions_name_the_toolsets_and_the_path() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let instructions = |r: &Resp| r.result()["instructions"].as_str().unwrap_or_default().to_string();
    let r = mcp_2026_at(&s, "/mcp", &token, "server/discover", json!({})).await;
    let everywhere = instructions(&r);
    let line = everywhere.lines().find(|l| l.contains("Toolsets: ")).expect(&everywhere);
    for set in TOOLSETS {
        assert!(line.contains(&format!("{}: {}", set.name, set.description)), "{line}");
    }
    assert!(line.contains("/mcp/x/<toolset>") && line.contains("/mcp/readonly"), "{line}");
    assert!(!everywhere.contains("This endpoint"), "/mcp lists every tool");

    let r = mcp_2026_at(&s, "/mcp/x/charges,debtors", &token, "server/discover", json!({})).await;
    let text = instructions(&r);
    assert!(
        text.contains(
            "This endpoint, /mcp/x/charges,debtors, lists the tools of the charges, debtors toolsets"
        ),
        "{text}"
    );
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "protocolVersion": "2025-06-18" } });
    let r = s.mcp_raw("/mcp/readonly", Some(&token), &body, &[]).await;
    assert!(
        instructions(&r).contains("This endpoint, /mcp/readonly, lists only the tools that read"),
        "{}",
        r.body
    );
}

/// Some operations need a second scope (where Pix goes and where payments are heard from need
/// dunning.notify besides dunning.write): the spec names it, so a token without it never sees
/// them listed, and a call is the step-up every scope failure gets, before anything runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_needing_a_second_scope_the_token_lacks_is_never_listed() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let writer = s.token(&org, "dunning.read dunning.write").await;
    let second = [
        "dunning_organization_pix_update",
        "dunning_payment_receiver_create",
        "dunning_payment_receivers_revoke",
    ];

    for path in ["/mcp", "/mcp/x/account,payments"] {
        let listed = names(&mcp_2026_at(&s, path, &writer, "tools/list", json!({})).await);
        for tool in second {
            assert!(!listed.contains(&tool.to_string()), "{path}: {tool} is listed: {listed:?}");
        }
        assert!(listed.contains(&"dunning_payments_assign".to_string()), "{path}: {listed:?}");
        let listed = names(&mcp_2026_at(&s, path, &token, "tools/list", json!({})).await);
        assert!(second.iter().all(|tool| listed.contains(&tool.to_string())), "every scope: {listed:?}");
    }

    let pix = json!({ "key": "+5511987654321", "merchant_name": "Org", "merchant_city": "Sao Paulo" });
    for (tool, arguments) in [
        ("dunning_organization_pix_update", pix.clone()),
        ("dunning_payment_receiver_create", json!({ "secret": "kobana-secret-0123456789" })),
        ("dunning_payment_receivers_revoke", json!({ "id": "rcv_00000000000000000000000000000000" })),
    ] {
        let params = json!({ "name": tool, "arguments": arguments });
        let r = mcp_2026_at(&s, "/mcp", &writer, "tools/call", params).await;
        assert_eq!((r.status, r.rpc_code()), (403, -32602), "{tool}: {}", r.body);
        assert_eq!(r.body["error"]["data"]["code"], "INSUFFICIENT_SCOPE", "{tool}");
        assert_eq!(r.body["error"]["data"]["required"], "dunning.notify", "{tool}");
        let challenge = r.header("www-authenticate").unwrap();
        assert!(
            challenge.contains("scope=\"dunning.read dunning.write dunning.notify\""),
            "{tool}: {challenge}"
        );
    }
    // /v1 answers the same, before the body is read: an invalid body is not judged.
    let r = s.call(&writer, "organization_pix_update", &[], "", Some(json!({ "key": 5 }))).await;
    assert_eq!((r.status, r.code()), (403, "INSUFFICIENT_SCOPE"), "{}", r.body);
    assert_eq!(r.body["error"]["details"]["required"], "dunning.notify");
    assert!(
        r.header("www-authenticate").unwrap().contains("scope=\"dunning.read dunning.write dunning.notify\"")
    );
    assert!(s.read(&token, "me", "").await.data()["organization"]["pix"].is_null(), "nothing changed");

    // The instructions say which scope unlocks them.
    let r = mcp_2026_at(&s, "/mcp", &writer, "server/discover", json!({})).await;
    let text = r.result()["instructions"].as_str().unwrap();
    let line = text.lines().find(|l| l.contains("dunning.notify unlocks: ")).expect(text);
    assert!(second.iter().all(|tool| line.contains(tool)), "{line}");
}
