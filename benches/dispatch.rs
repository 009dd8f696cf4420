//! The cost of a tool call next to the REST call it mirrors, measured side by side in one run
//! against the real server on 127.0.0.1, over loopback (the server runs on its own runtime in
//! this process; its database is a temporary file).
//!
//! `cargo bench --bench dispatch`; compare `rest_charges_get` with `mcp_tools_call_charges_get`
//! (the same handler behind JSON-RPC framing, strict argument validation and in-process
//! dispatch), and `validate_arguments` for the validator alone.

use std::sync::{Arc, OnceLock};

use kobana_dunning::admin;
use kobana_dunning::api::schemas;
use kobana_dunning::app::App;
use kobana_dunning::auth::ServerKey;
use kobana_dunning::limits::Limits;
use kobana_dunning::operations::by_operation_id;
use kobana_dunning::server;
use kobana_dunning::store::Store;
use serde_json::{Value, json};

struct Fixture {
    runtime: tokio::runtime::Runtime,
    client: reqwest::Client,
    base: String,
    token: String,
    charge_id: String,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let runtime =
            tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let (base, token, charge_id) = runtime.block_on(async {
            let path = std::env::temp_dir().join(format!("kd-bench-{}.db", std::process::id()));
            let store = Store::open(&format!("sqlite://{}", path.display())).await.unwrap();
            let bound = server::bind("127.0.0.1:0").await.unwrap();
            let base = format!("http://{}", bound.addr);
            let key = ServerKey::load(&store, None).await.unwrap();
            let limits = Limits {
                per_minute: u32::MAX,
                burst: u32::MAX,
                max_in_flight: 4096,
                anonymous_per_minute: u32::MAX,
            };
            let app = Arc::new(App::with_limits(store, &base, key, limits));
            bound.serve(app.clone(), std::future::pending());
            let org = admin::create_organization(&app.store, "Bench", "sandbox", None, false).await.unwrap();
            let token = admin::create_token(
                &app.store,
                &org,
                "dunning.read dunning.write",
                "all",
                time::Duration::hours(1),
            )
            .await
            .unwrap();
            let client = reqwest::Client::new();
            let debtor: Value = client
                .post(format!("{base}/v1/debtors"))
                .bearer_auth(&token)
                .json(&json!({ "name": "Maria Souza", "document": "52998224725" }))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let charge: Value = client
                .post(format!("{base}/v1/charges"))
                .bearer_auth(&token)
                .json(
                    &json!({ "debtor_id": debtor["data"]["id"], "amount": 1250.0, "due_date": "2030-01-01" }),
                )
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            (base, token, charge["data"]["id"].as_str().unwrap().to_string())
        });
        Fixture { runtime, client: reqwest::Client::new(), base, token, charge_id }
    })
}

#[divan::bench]
fn rest_charges_get() {
    let f = fixture();
    f.runtime.block_on(async {
        let r = f
            .client
            .get(format!("{}/v1/charges/{}", f.base, f.charge_id))
            .bearer_auth(&f.token)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        divan::black_box(r.bytes().await.unwrap());
    });
}

#[divan::bench]
fn mcp_tools_call_charges_get() {
    let f = fixture();
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "dunning_charges_get", "arguments": { "id": f.charge_id } } });
    f.runtime.block_on(async {
        let r =
            f.client.post(format!("{}/mcp", f.base)).bearer_auth(&f.token).json(&body).send().await.unwrap();
        assert_eq!(r.status(), 200);
        divan::black_box(r.bytes().await.unwrap());
    });
}

#[divan::bench]
fn validate_arguments(bencher: divan::Bencher) {
    let op = by_operation_id("charges_list").unwrap();
    let args =
        json!({ "status": "pending,overdue", "per_page": 10, "sort_by": "due_date", "sort_order": "asc" });
    let schema = &schemas(op).input;
    bencher.bench(|| divan::black_box(schema.check(divan::black_box(&args))).is_ok());
}

fn main() {
    divan::main();
}
