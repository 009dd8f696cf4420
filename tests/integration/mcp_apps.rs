//! MCP App views (extension `io.modelcontextprotocol/ui`): the tools that name a view link it in
//! `_meta.ui` (in the 2026-07-28 era only for a client that declares the extension), the views
//! are `ui://` resources of their own MIME type, listed and read by a caller who sees one of
//! their tools on that path and by no one else, and the server declares the extension.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::common::{Resp, TestServer, envelope};

const EXTENSION: &str = "io.modelcontextprotocol/ui";
const MIME_TYPE: &str = "text/html;profile=mcp-app";
/// The tools the spec gives a view, and the view each names.
const LINKED: [(&str, &str); 5] = [
    ("dunning_agreements_simulate", "ui://kobana-dunning/agreement-simulator"),
    ("dunning_charges_get", "ui://kobana-dunning/charge-timeline"),
    ("dunning_debtors_get", "ui://kobana-dunning/debtor-overview"),
    ("dunning_debtors_statement", "ui://kobana-dunning/debtor-overview"),
    ("dunning_portfolio_get", "ui://kobana-dunning/portfolio"),
];

/// A request's era, as the client speaks it.
#[derive(Clone, Debug)]
enum Era {
    V2025_03,
    V2025_06,
    /// 2026-07-28 with these client capabilities.
    V2026(Value),
}

/// A client that declares the extension with the views' MIME type.
fn with_views() -> Value {
    json!({ "extensions": { EXTENSION: { "mimeTypes": [MIME_TYPE] } } })
}

fn every_era() -> [Era; 4] {
    [Era::V2025_03, Era::V2025_06, Era::V2026(json!({})), Era::V2026(with_views())]
}

async fn call(s: &TestServer, path: &str, token: &str, era: &Era, method: &str, params: Value) -> Resp {
    let mut params = params;
    let mut headers = Vec::new();
    match era {
        Era::V2025_03 => headers.push(("mcp-protocol-version", "2025-03-26")),
        Era::V2025_06 => headers.push(("mcp-protocol-version", "2025-06-18")),
        Era::V2026(capabilities) => {
            params["_meta"] = envelope(capabilities.clone());
            headers.extend([("mcp-protocol-version", "2026-07-28"), ("mcp-method", method)]);
        }
    }
    let uri = params["uri"].as_str().unwrap_or_default().to_string();
    if matches!(era, Era::V2026(_)) && method == "resources/read" {
        headers.push(("mcp-name", &uri));
    }
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    s.mcp_raw(path, Some(token), &body, &headers).await
}

/// (tool, `_meta.ui`) of every tool listed that has one.
async fn links(s: &TestServer, path: &str, token: &str, era: &Era) -> Vec<(String, Value)> {
    let r = call(s, path, token, era, "tools/list", json!({})).await;
    assert_eq!(r.status, 200, "{era:?}: {}", r.body);
    let tools = r.result()["tools"].as_array().unwrap_or_else(|| panic!("{era:?}: {}", r.body));
    tools
        .iter()
        .filter_map(|t| Some((t["name"].as_str()?.to_string(), t.get("_meta")?.get("ui")?.clone())))
        .collect()
}

/// The `ui://` resources listed, as (uri, item).
async fn listed_views(s: &TestServer, path: &str, token: &str, era: &Era) -> Vec<(String, Value)> {
    let r = call(s, path, token, era, "resources/list", json!({})).await;
    assert_eq!(r.status, 200, "{era:?}: {}", r.body);
    r.result()["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|item| {
            let uri = item["uri"].as_str()?;
            uri.starts_with("ui://").then(|| (uri.to_string(), item.clone()))
        })
        .collect()
}

fn view_uris() -> BTreeSet<String> {
    LINKED.iter().map(|(_, uri)| uri.to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_linked_view_is_a_listed_app_resource_in_every_era() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    for era in every_era() {
        let listed = listed_views(&s, "/mcp", &token, &era).await;
        let uris: BTreeSet<String> = listed.iter().map(|(uri, _)| uri.clone()).collect();
        assert_eq!(uris, view_uris(), "{era:?}: every view, listed once");
        assert_eq!(listed.len(), uris.len(), "{era:?}");
        for (uri, item) in &listed {
            assert_eq!(item["mimeType"], MIME_TYPE, "{uri}");
            assert!(item["name"].as_str().is_some_and(|n| uri.ends_with(n)), "{item}");
            assert!(item["description"].as_str().is_some_and(|d| !d.is_empty()), "{item}");
            assert_eq!(item.get("title").is_some(), !matches!(era, Era::V2025_03), "{era:?}: {item}");
        }
        for (tool, ui) in links(&s, "/mcp", &token, &era).await {
            let uri = ui["resourceUri"].as_str().unwrap_or_default();
            assert!(uris.contains(uri), "{era:?}: {tool} links {uri}, which is not listed");
            assert_eq!(ui["visibility"], json!(["model", "app"]), "{tool}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_link_their_views_as_the_era_allows() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let expected: Vec<(String, Value)> = LINKED
        .iter()
        .map(|(tool, uri)| (tool.to_string(), json!({ "resourceUri": uri, "visibility": ["model", "app"] })))
        .collect();
    // The 2025-06-18 era cannot remember initialize: its lists always link; 2025-03-26 has no
    // `_meta` on tools.
    assert_eq!(links(&s, "/mcp", &token, &Era::V2025_06).await, expected, "only the tools with a view");
    assert_eq!(links(&s, "/mcp", &token, &Era::V2025_03).await, []);
    // 2026-07-28: only for a client that declares the extension with the views' MIME type.
    assert_eq!(links(&s, "/mcp", &token, &Era::V2026(with_views())).await, expected);
    for capabilities in [
        json!({}),
        json!({ "extensions": {} }),
        json!({ "extensions": { EXTENSION: { "mimeTypes": ["text/html"] } } }),
        json!({ "extensions": { EXTENSION: {} } }),
    ] {
        let era = Era::V2026(capabilities);
        let r = call(&s, "/mcp", &token, &era, "tools/list", json!({})).await;
        for tool in r.result()["tools"].as_array().unwrap() {
            assert!(tool.get("_meta").is_none(), "{era:?}: {tool}");
        }
    }
    // The list's hash is the same whether the client gets the links or not.
    let mut hashes = BTreeSet::new();
    for era in [Era::V2025_06, Era::V2026(json!({})), Era::V2026(with_views())] {
        let r = call(&s, "/mcp", &token, &era, "tools/list", json!({})).await;
        hashes.insert(r.result()["_meta"]["com.kobana/catalogue_hash"].as_str().unwrap().to_string());
    }
    assert_eq!(hashes.len(), 1, "{hashes:?}");
    // Results stay the single text item.
    let r = call(
        &s,
        "/mcp",
        &token,
        &Era::V2025_06,
        "tools/call",
        json!({ "name": "dunning_portfolio_get", "arguments": {} }),
    )
    .await;
    let result = r.result();
    assert!(result.get("isError").is_none() && result.get("structuredContent").is_none(), "{result}");
    assert_eq!(result["content"].as_array().map(Vec::len), Some(1), "{result}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reading_a_view_returns_its_assembled_document() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    for era in [Era::V2025_06, Era::V2026(json!({})), Era::V2026(with_views())] {
        for uri in view_uris() {
            let r = call(&s, "/mcp", &token, &era, "resources/read", json!({ "uri": uri })).await;
            assert_eq!(r.status, 200, "{era:?} {uri}: {}", r.body);
            let contents = r.result()["contents"].as_array().unwrap();
            assert_eq!(contents.len(), 1);
            let content = &contents[0];
            assert_eq!(
                (content["uri"].as_str(), content["mimeType"].as_str()),
                (Some(uri.as_str()), Some(MIME_TYPE))
            );
            let html = content["text"].as_str().unwrap();
            assert!(html.trim_start().to_ascii_lowercase().starts_with("<!doctype html>"), "{uri}");
            assert!(html.len() <= 65_536, "{uri}: {} bytes", html.len());
            assert!(!html.contains("\"lib/"), "{uri}: every shared part is inlined");
            assert_eq!(content["_meta"], json!({ "ui": { "prefersBorder": true, "csp": {} } }), "{uri}");
        }
    }
    // 2025-03-26 has no `_meta`: the same document without it.
    let uri = "ui://kobana-dunning/portfolio";
    let r = call(&s, "/mcp", &token, &Era::V2025_03, "resources/read", json!({ "uri": uri })).await;
    let content = &r.result()["contents"][0];
    assert_eq!(content["mimeType"], MIME_TYPE);
    assert!(content.get("_meta").is_none() && content["text"].as_str().is_some(), "{content}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_declares_the_extension() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let declared = json!({ EXTENSION: { "mimeTypes": [MIME_TYPE] } });
    let r = call(&s, "/mcp", &token, &Era::V2026(json!({})), "server/discover", json!({})).await;
    assert_eq!(r.result()["capabilities"]["extensions"], declared, "{}", r.body);
    let initialize = |version: &str| {
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": with_views(),
            "clientInfo": { "name": "host", "version": "1" } } })
    };
    let r = s.mcp_raw("/mcp", Some(&token), &initialize("2025-06-18"), &[]).await;
    assert_eq!(r.result()["capabilities"]["extensions"], declared, "{}", r.body);
    let r = s.mcp_raw("/mcp", Some(&token), &initialize("2025-03-26"), &[]).await;
    assert!(r.result()["capabilities"].get("extensions").is_none(), "{}", r.body);
}

/// Not found, as the era says it, naming the URI.
fn assert_not_found(r: &Resp, era: &Era, uri: &str) {
    let code = if matches!(era, Era::V2026(_)) { -32602 } else { -32002 };
    assert_eq!((r.status, r.rpc_code()), (200, code), "{era:?} {uri}: {}", r.body);
    assert_eq!(r.body["error"]["data"]["uri"], uri);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_view_is_for_callers_who_see_one_of_its_tools() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let no_read = s.token(&org, "dunning.notify").await;
    let eras = [Era::V2025_06, Era::V2026(with_views())];
    for era in &eras {
        // Scopes: no tool of any view can run without dunning.read.
        assert_eq!(listed_views(&s, "/mcp", &no_read, era).await, [], "{era:?}");
        assert_eq!(links(&s, "/mcp", &no_read, era).await, [], "{era:?}");
        for uri in view_uris() {
            let r = call(&s, "/mcp", &no_read, era, "resources/read", json!({ "uri": uri })).await;
            assert_not_found(&r, era, &uri);
        }
        // Paths: a toolset without any view's tools shows none; one with some shows theirs.
        assert_eq!(listed_views(&s, "/mcp/x/integrations", &token, era).await, [], "{era:?}");
        for uri in view_uris() {
            let r =
                call(&s, "/mcp/x/integrations", &token, era, "resources/read", json!({ "uri": uri })).await;
            assert_not_found(&r, era, &uri);
        }
        let debtors: Vec<String> =
            listed_views(&s, "/mcp/x/debtors", &token, era).await.into_iter().map(|(uri, _)| uri).collect();
        assert_eq!(debtors, ["ui://kobana-dunning/debtor-overview"], "{era:?}");
        let linked: BTreeSet<String> = links(&s, "/mcp/x/debtors", &token, era)
            .await
            .into_iter()
            .map(|(_, ui)| ui["resourceUri"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(linked.into_iter().collect::<Vec<_>>(), debtors, "{era:?}");
        let read = |uri: &'static str| {
            call(&s, "/mcp/x/debtors", &token, era, "resources/read", json!({ "uri": uri }))
        };
        assert_eq!(read("ui://kobana-dunning/debtor-overview").await.status, 200);
        assert_not_found(&read("ui://kobana-dunning/portfolio").await, era, "ui://kobana-dunning/portfolio");
        // Every view is a read: the read-only path shows them all.
        let readonly: BTreeSet<String> =
            listed_views(&s, "/mcp/readonly", &token, era).await.into_iter().map(|(uri, _)| uri).collect();
        assert_eq!(readonly, view_uris(), "{era:?}");
        // A view that does not exist is not found either.
        let r =
            call(&s, "/mcp", &token, era, "resources/read", json!({ "uri": "ui://kobana-dunning/nothing" }))
                .await;
        assert_not_found(&r, era, "ui://kobana-dunning/nothing");
    }
}
