//! The in-process hot paths of MCP, without a socket: the whole application is
//! called as a poem endpoint, so what is measured is authentication (the token cache),
//! JSON-RPC reading, era selection, scope filtering, argument validation, in-process dispatch
//! to /v1 and the writing of the answer. The database is a temporary SQLite file with the demo
//! organization. `bench/load.sh` measures the same requests over HTTP, against a floor.
//!
//! `cargo bench --bench mcp`

use std::sync::{Arc, OnceLock};

use kobana_dunning::api::schemas;
use kobana_dunning::app::App;
use kobana_dunning::auth::{ALL_SCOPES, ServerKey};
use kobana_dunning::limits::Limits;
use kobana_dunning::operations::by_operation_id;
use kobana_dunning::store::Store;
use kobana_dunning::{admin, demo, mcp, server};
use poem::http::Method;
use poem::{Endpoint, Request, Response};
use serde_json::{Value, json};

/// The application as a function from request to answer.
type Call = Box<dyn Fn(Request) -> std::pin::Pin<Box<dyn Future<Output = Response> + Send>> + Send + Sync>;

struct Fixture {
    runtime: tokio::runtime::Runtime,
    endpoint: Call,
    token: String,
    charge_id: String,
    charge_json: Vec<u8>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let (endpoint, token) = runtime.block_on(async {
            let path = std::env::temp_dir().join(format!("kd-bench-mcp-{}.db", std::process::id()));
            let store = Store::open(&format!("sqlite://{}", path.display())).await.unwrap();
            let org = demo::ensure(&store).await.unwrap();
            let token =
                admin::create_token(&store, &org, &ALL_SCOPES.join(" "), "all", time::Duration::hours(1))
                    .await
                    .unwrap();
            let key = ServerKey::load(&store, None).await.unwrap();
            let limits = Limits {
                per_minute: u32::MAX,
                burst: u32::MAX,
                max_in_flight: 4096,
                anonymous_per_minute: u32::MAX,
            };
            let app = Arc::new(App::with_limits(store, "http://127.0.0.1:8080", key, limits));
            let endpoint = Arc::new(server::application(app));
            (endpoint, token)
        });
        let endpoint: Call = Box::new(move |req| {
            let endpoint = endpoint.clone();
            Box::pin(async move { endpoint.call(req).await.unwrap() })
                as std::pin::Pin<Box<dyn Future<Output = Response> + Send>>
        });
        let list = runtime.block_on(async {
            let req = Request::builder()
                .method(Method::GET)
                .uri_str("/v1/charges?per_page=1")
                .header("authorization", format!("Bearer {token}"))
                .finish();
            endpoint(req).await.into_body().into_vec().await.unwrap()
        });
        let list: Value = serde_json::from_slice(&list).unwrap();
        let charge_id = list["data"][0]["id"].as_str().unwrap().to_string();
        let charge_json = serde_json::to_vec(&json!({ "data": list["data"][0] })).unwrap();
        Fixture { runtime, endpoint, token, charge_id, charge_json }
    })
}

fn mcp_request(f: &Fixture, body: &Value, headers: &[(&str, &str)]) -> Request {
    let mut builder = Request::builder()
        .method(Method::POST)
        .uri_str("/mcp")
        .header("authorization", format!("Bearer {}", f.token))
        .header("accept", "application/json, text/event-stream")
        .content_type("application/json");
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    builder.body(body.to_string())
}

fn run(f: &Fixture, req: Request) -> Vec<u8> {
    f.runtime.block_on(async {
        let response = (f.endpoint)(req).await;
        assert_eq!(response.status(), 200);
        response.into_body().into_vec().await.unwrap()
    })
}

#[divan::bench]
fn tools_list_all_scopes(bencher: divan::Bencher) {
    let f = fixture();
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {} });
    bencher.bench(|| run(f, mcp_request(f, &body, &[("mcp-protocol-version", "2025-06-18")])));
}

#[divan::bench(args = ["2025-06-18", "2026-07-28"])]
fn tools_call_charges_get(bencher: divan::Bencher, era: &str) {
    let f = fixture();
    let mut body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "dunning_charges_get", "arguments": { "id": f.charge_id } } });
    let mut headers = vec![("mcp-protocol-version", era)];
    if era == "2026-07-28" {
        body["params"]["_meta"] = json!({ "io.modelcontextprotocol/protocolVersion": era,
            "io.modelcontextprotocol/clientCapabilities": {} });
        headers.extend([("mcp-method", "tools/call"), ("mcp-name", "dunning_charges_get")]);
    }
    bencher.bench(|| run(f, mcp_request(f, &body, &headers)));
}

#[divan::bench]
fn rest_charges_get(bencher: divan::Bencher) {
    let f = fixture();
    let uri = format!("/v1/charges/{}", f.charge_id);
    bencher.bench(|| {
        let req = Request::builder()
            .method(Method::GET)
            .uri_str(&uri)
            .header("authorization", format!("Bearer {}", f.token))
            .finish();
        run(f, req)
    });
}

#[divan::bench]
fn validate_charges_get_arguments(bencher: divan::Bencher) {
    let f = fixture();
    let op = by_operation_id("charges_get").unwrap();
    let args = json!({ "id": f.charge_id });
    let schema = &schemas(op).input;
    bencher.bench(|| divan::black_box(schema.check(divan::black_box(&args))).is_ok());
}

/// An endpoint's answer becoming a tool's text item (pretty-printed, hidden characters
/// escaped, written as a JSON string).
#[divan::bench]
fn tool_text_of_a_charge(bencher: divan::Bencher) {
    let f = fixture();
    bencher.bench(|| mcp::endpoint_text(divan::black_box(&f.charge_json)).unwrap());
}

/// The same through a `Value` tree, as requests were once answered: the reference to beat.
#[divan::bench]
fn tool_text_of_a_charge_through_a_value(bencher: divan::Bencher) {
    let f = fixture();
    bencher.bench(|| {
        let value: Value = serde_json::from_slice(divan::black_box(&f.charge_json)).unwrap();
        let text = mcp::json_text(&value);
        serde_json::to_vec(&json!({ "content": [{ "type": "text", "text": text }] })).unwrap()
    });
}

fn main() {
    divan::main();
}
