//! The test harness: starts the server on a fresh database and port, mints tokens, and sends
//! requests by operationId, checking every response body against the spec's response schema.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use kobana_dunning::admin;
use kobana_dunning::app::App;
use kobana_dunning::http::ConnectionLimits;
use kobana_dunning::limits::Limits;
use kobana_dunning::operations::{self, CONTRACT_JSON, EVENTS_JSON};
use kobana_dunning::server;
use kobana_dunning::store::Store;
use reqwest::Method;
use serde_json::Value;
use time::Duration;
use tokio::sync::oneshot;

/// Every scope.
pub const ALL: &str =
    "dunning.read dunning.write dunning.notify dunning.escalate dunning.webhooks dunning.exports";

/// A running server on its own database.
pub struct TestServer {
    /// `http://127.0.0.1:<port>`
    pub base: String,
    /// `http://127.0.0.1:<port>` of the `--metrics-bind` listener.
    pub metrics_base: String,
    /// The server's state (for direct store checks).
    pub app: Arc<App>,
    client: reqwest::Client,
    database_url: String,
    _db: TestDatabase,
    _stop: oneshot::Sender<()>,
}

/// The variable naming a PostgreSQL server (`postgres://user@host:port`) to run the suite
/// against; SQLite when it is not set.
pub const POSTGRES_VAR: &str = "KOBANA_DUNNING_TEST_POSTGRES";

/// The database of a test server, removed when the server that made it goes.
enum TestDatabase {
    /// A SQLite file.
    Sqlite(std::path::PathBuf),
    /// A database made on the PostgreSQL server for this test.
    Postgres { admin_url: String, name: String },
    /// Another server's database (a replica), left to its owner.
    Shared,
}

impl TestDatabase {
    /// A fresh database and its URL.
    async fn create() -> (Self, String) {
        match std::env::var(POSTGRES_VAR) {
            Ok(admin_url) if !admin_url.is_empty() => {
                use sqlx::Connection;
                let name = format!("kd_test_{}", uuid::Uuid::now_v7().simple());
                let mut conn = sqlx::PgConnection::connect(&admin_url).await.expect("PostgreSQL answers");
                sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                    .execute(&mut conn)
                    .await
                    .expect("test database created");
                let _ = conn.close().await;
                let url = database_url(&admin_url, &name);
                (Self::Postgres { admin_url, name }, url)
            }
            _ => {
                let path = std::env::temp_dir().join(format!("kd-test-{}.db", uuid::Uuid::now_v7().simple()));
                let url = format!("sqlite://{}", path.display());
                (Self::Sqlite(path), url)
            }
        }
    }
}

/// A fresh database for a test that runs the binary itself, removed when dropped.
pub struct FreshDatabase {
    /// Its URL (`sqlite://…` or `postgres://…`).
    pub url: String,
    _db: TestDatabase,
}

/// A fresh database of the suite's kind.
pub async fn fresh_database() -> FreshDatabase {
    let (db, url) = TestDatabase::create().await;
    FreshDatabase { url, _db: db }
}

/// `admin_url` with its database replaced by `name`.
pub fn database_url(admin_url: &str, name: &str) -> String {
    let (base, query) = match admin_url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (admin_url, String::new()),
    };
    let host_start = base.find("://").map_or(0, |i| i + 3);
    let server = match base[host_start..].find('/') {
        Some(slash) => &base[..host_start + slash],
        None => base,
    };
    format!("{server}/{name}{query}")
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        match self {
            TestDatabase::Sqlite(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
                }
            }
            TestDatabase::Postgres { admin_url, name } => {
                // Drop runs inside the test's runtime, which cannot be blocked on: a thread
                // of its own drops the database (FORCE closes the server's connections).
                let (admin_url, name) = (admin_url.clone(), name.clone());
                let _ = std::thread::spawn(move || {
                    use sqlx::Connection;
                    let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build()
                    else {
                        return;
                    };
                    runtime.block_on(async {
                        if let Ok(mut conn) = sqlx::PgConnection::connect(&admin_url).await {
                            let drop = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                            let _ = sqlx::query(sqlx::AssertSqlSafe(drop)).execute(&mut conn).await;
                            let _ = conn.close().await;
                        }
                    });
                })
                .join();
            }
            TestDatabase::Shared => {}
        }
    }
}

/// A response, with the body parsed as JSON when it is JSON.
pub struct Resp {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The error code of an error envelope.
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or_default()
    }

    /// The `data` of an answer.
    pub fn data(&self) -> &Value {
        &self.body["data"]
    }
}

/// Tests send bursts far above the production defaults; the limits have their own tests.
fn generous() -> Limits {
    Limits { per_minute: 1_000_000, burst: 1_000_000, max_in_flight: 1024, anonymous_per_minute: 1_000_000 }
}

impl TestServer {
    pub async fn start() -> Self {
        Self::start_with(generous()).await
    }

    /// A server with the given limits.
    pub async fn start_with(limits: Limits) -> Self {
        Self::start_custom(limits, Vec::new()).await
    }

    /// A server with limits and `--allowed-origin`s.
    pub async fn start_custom(limits: Limits, other_origins: Vec<String>) -> Self {
        Self::start_full(limits, other_origins, ConnectionLimits::default()).await
    }

    /// A server with limits, `--allowed-origin`s and connection limits.
    pub async fn start_full(
        limits: Limits,
        other_origins: Vec<String>,
        connections: ConnectionLimits,
    ) -> Self {
        let (db, url) = TestDatabase::create().await;
        Self::serve(db, &url, limits, other_origins, connections, false).await
    }

    /// A server started with `--allow-insecure-targets` (it may fetch OAuth client metadata
    /// documents over http from loopback).
    pub async fn start_allowing_insecure_targets() -> Self {
        let (db, url) = TestDatabase::create().await;
        Self::serve(db, &url, generous(), Vec::new(), ConnectionLimits::default(), true).await
    }

    /// A server whose messages, reports and protests go through these providers (a gateway
    /// started by the test).
    pub async fn start_with_providers(providers: kobana_dunning::providers::Providers) -> Self {
        let (db, url) = TestDatabase::create().await;
        let providers = Some(Arc::new(providers));
        Self::serve_with(db, &url, generous(), Vec::new(), ConnectionLimits::default(), false, providers)
            .await
    }

    /// A server on a database the test made and removes itself (a [`FreshDatabase`]'s), or
    /// reached another way (through a proxy).
    pub async fn on_database(url: &str) -> Self {
        Self::serve(TestDatabase::Shared, url, generous(), Vec::new(), ConnectionLimits::default(), false)
            .await
    }

    /// The URL of this server's database (a replica's is its primary's).
    pub fn database_url(&self) -> &str {
        &self.database_url
    }

    /// Whether the suite runs on PostgreSQL.
    pub fn on_postgres() -> bool {
        std::env::var(POSTGRES_VAR).is_ok_and(|v| !v.is_empty())
    }

    /// A second server on this server's database, as a replica behind a load balancer would be.
    pub async fn replica(&self) -> Self {
        Self::serve(
            TestDatabase::Shared,
            &self.database_url,
            generous(),
            Vec::new(),
            ConnectionLimits::default(),
            false,
        )
        .await
    }

    async fn serve(
        db: TestDatabase,
        url: &str,
        limits: Limits,
        other_origins: Vec<String>,
        connections: ConnectionLimits,
        insecure_targets: bool,
    ) -> Self {
        Self::serve_with(db, url, limits, other_origins, connections, insecure_targets, None).await
    }

    async fn serve_with(
        db: TestDatabase,
        url: &str,
        limits: Limits,
        other_origins: Vec<String>,
        connections: ConnectionLimits,
        insecure_targets: bool,
        providers: Option<Arc<kobana_dunning::providers::Providers>>,
    ) -> Self {
        let store = Store::open(url).await.expect("store opens");
        // Bound first: the public URL names the port the system picked.
        let bound = server::bind("127.0.0.1:0").await.expect("bind");
        let base = format!("http://{}", bound.addr);
        let key = kobana_dunning::auth::ServerKey::load(&store, None).await.expect("server key");
        let mut app = App::with_limits(store, &base, key, limits)
            .with_other_origins(other_origins)
            .with_insecure_targets(insecure_targets);
        if let Some(providers) = providers {
            app = app.with_providers(providers);
        }
        let app = Arc::new(app);
        let (stop, stopped) = oneshot::channel::<()>();
        bound.serve_with(app.clone(), connections, async move {
            let _ = stopped.await;
        });
        let metrics = server::bind("127.0.0.1:0")
            .await
            .expect("bind metrics")
            .serve_metrics(app.clone(), ConnectionLimits::default());
        let metrics_base = format!("http://{}", metrics.addr);
        Self {
            base,
            metrics_base,
            app,
            client: reqwest::Client::new(),
            database_url: url.to_string(),
            _db: db,
            _stop: stop,
        }
    }

    /// A new organization.
    pub async fn org(&self, name: &str) -> String {
        admin::create_organization(&self.app.store, name, "sandbox", None, false).await.expect("org")
    }

    /// A token for an organization.
    pub async fn token(&self, org: &str, scopes: &str) -> String {
        self.token_for(org, scopes, "all").await
    }

    /// A token with an audience.
    pub async fn token_for(&self, org: &str, scopes: &str, audience: &str) -> String {
        admin::create_token(&self.app.store, org, scopes, audience, Duration::hours(1)).await.expect("token")
    }

    /// An organization with an all-scopes token.
    pub async fn tenant(&self, name: &str) -> (String, String) {
        let org = self.org(name).await;
        let token = self.token(&org, ALL).await;
        (org, token)
    }

    /// Runs one SQL statement on the server's database with text parameters: for data the API
    /// would refuse today but an older server may have stored.
    pub async fn execute_sql(&self, sql: &'static str, params: &[&str]) {
        self.app.store.execute_sql(sql, params).await.expect("statement runs");
    }

    /// A raw request (no contract check): for transport-level tests.
    pub fn raw(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.client.request(method, format!("{}{path}", self.base))
    }

    /// Calls an operation by operationId; path parameters are filled from `path`. The response
    /// body is checked against the spec's schema for the operation and status.
    pub async fn call(
        &self,
        token: &str,
        op_id: &str,
        path: &[(&str, &str)],
        query: &str,
        body: Option<Value>,
    ) -> Resp {
        self.call_with(token, op_id, path, query, body, &[]).await
    }

    /// Reads with an operation that takes no path parameter (`query` may be empty).
    pub async fn read(&self, token: &str, op_id: &str, query: &str) -> Resp {
        self.call(token, op_id, &[], query, None).await
    }

    /// Reads one object by id.
    pub async fn read_id(&self, token: &str, op_id: &str, id: &str) -> Resp {
        self.call(token, op_id, &[("id", id)], "", None).await
    }

    /// Writes with a body to an operation that takes no path parameter.
    pub async fn write(&self, token: &str, op_id: &str, body: Value) -> Resp {
        self.call(token, op_id, &[], "", Some(body)).await
    }

    /// Writes with a body to one object by id.
    pub async fn write_id(&self, token: &str, op_id: &str, id: &str, body: Value) -> Resp {
        self.call(token, op_id, &[("id", id)], "", Some(body)).await
    }

    /// `call` with extra headers.
    pub async fn call_with(
        &self,
        token: &str,
        op_id: &str,
        path: &[(&str, &str)],
        query: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Resp {
        let op = operations::by_operation_id(op_id).unwrap_or_else(|| panic!("no operation {op_id}"));
        let mut url_path = op.path.to_string();
        for (name, value) in path {
            url_path = url_path.replace(&format!("{{{name}}}"), value);
        }
        let url = if query.is_empty() { url_path } else { format!("{url_path}?{query}") };
        let mut req =
            self.raw(op.method.as_poem().as_str().parse().expect("method"), &url).bearer_auth(token);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        if let Some(body) = body {
            req = req.json(&body);
        }
        let resp = send(req).await;
        check_contract(op_id, &resp);
        resp
    }

    // Shorthands for the common calls of the tests.

    /// A collection policy made of `body` (the organization's default when it is the first);
    /// its id.
    pub async fn create_policy(&self, token: &str, body: Value) -> String {
        let r = self.write(token, "collection_policies_create", body).await;
        assert_eq!(r.status, 201, "{}", r.body);
        r.data()["id"].as_str().expect("an id").to_string()
    }

    /// A debtor reachable by e-mail at `email`; its id.
    pub async fn create_debtor_by_email(
        &self,
        token: &str,
        name: &str,
        document: &str,
        email: &str,
    ) -> String {
        let body = serde_json::json!({ "name": name, "document": document, "email": email });
        let r = self.write(token, "debtors_create", body).await;
        assert_eq!(r.status, 201, "{}", r.body);
        r.data()["id"].as_str().expect("an id").to_string()
    }

    pub async fn create_debtor(&self, token: &str, name: &str, document: &str) -> Value {
        let r = self
            .write(token, "debtors_create", serde_json::json!({ "name": name, "document": document }))
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        r.data().clone()
    }

    pub async fn create_charge(&self, token: &str, debtor_id: &str, amount: f64, due_date: &str) -> Value {
        let r = self
            .write(
                token,
                "charges_create",
                serde_json::json!({ "debtor_id": debtor_id, "amount": amount, "due_date": due_date }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        r.data().clone()
    }
}

/// Sends a request and reads the answer.
pub async fn send(req: reqwest::RequestBuilder) -> Resp {
    let resp = req.send().await.expect("request reaches the server");
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let bytes = resp.bytes().await.expect("body");
    let body = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()))
    };
    Resp { status, headers, body }
}

static CONTRACT: LazyLock<HashMap<String, HashMap<String, jsonschema::Validator>>> = LazyLock::new(|| {
    let raw: HashMap<String, HashMap<String, Value>> =
        serde_json::from_str(CONTRACT_JSON).expect("contract JSON");
    raw.into_iter()
        .map(|(op, statuses)| {
            let compiled = statuses
                .into_iter()
                .map(|(status, schema)| {
                    let v = jsonschema::options()
                        .should_validate_formats(true)
                        .build(&schema)
                        .expect("schema compiles");
                    (status, v)
                })
                .collect();
            (op, compiled)
        })
        .collect()
});

static EVENT_PAYLOADS: LazyLock<HashMap<String, jsonschema::Validator>> = LazyLock::new(|| {
    let raw: HashMap<String, Value> = serde_json::from_str(EVENTS_JSON).expect("events JSON");
    raw.into_iter()
        .map(|(code, schema)| {
            let v =
                jsonschema::options().should_validate_formats(true).build(&schema).expect("schema compiles");
            (code, v)
        })
        .collect()
});

/// Asserts that `data` is what the spec says an event `code` carries (`x-event-payloads`).
pub fn check_event_data(code: &str, data: &Value) {
    let validator =
        EVENT_PAYLOADS.get(code).unwrap_or_else(|| panic!("event {code} has no payload in x-event-payloads"));
    let errors: Vec<String> =
        validator.iter_errors(data).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "event {code}: data does not match x-event-payloads: {errors:#?}\n{data}");
}

/// Asserts that a response is one the spec documents for the operation, with a body that
/// matches its schema; the events it shows carry what the spec says their codes carry.
pub fn check_contract(op_id: &str, resp: &Resp) {
    let op = operations::by_operation_id(op_id).expect("operation");
    let status = resp.status.to_string();
    if resp.status == 204 || (resp.status == op.success_status && resp.body.is_null()) {
        assert_eq!(op.success_status, resp.status, "{op_id}: undocumented empty answer {status}");
        assert!(resp.body.is_null(), "{op_id}: 204 with a body");
        return;
    }
    let schemas = CONTRACT.get(op_id).expect("operation in contract");
    let validator = schemas.get(&status).unwrap_or_else(|| {
        panic!("{op_id}: status {status} is not documented in the spec (body {})", resp.body)
    });
    let errors: Vec<String> =
        validator.iter_errors(&resp.body).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{op_id} {status}: body does not match the spec: {errors:#?}\n{}", resp.body);
    if resp.status == 200 && matches!(op_id, "events_get" | "events_list") {
        let events = match &resp.body["data"] {
            Value::Array(events) => events.clone(),
            one => vec![one.clone()],
        };
        // A row cut by `fields` to leave out its code or data has no payload to check.
        for event in events.iter().filter(|e| e.get("code").is_some() && e.get("data").is_some()) {
            check_event_data(event["code"].as_str().unwrap_or_default(), &event["data"]);
        }
    }
}

/// A date `days` from today (UTC−3), as YYYY-MM-DD.
pub fn date_in(days: i64) -> String {
    let today = (time::OffsetDateTime::now_utc() + Duration::hours(-3)).date();
    kobana_dunning::domain::dates::format_date(today + Duration::days(days))
}

/// A valid CPF (11 digits, correct check digits) made from `seed`, distinct for seeds below
/// 100 000.
pub fn cpf(seed: u32) -> String {
    let base: Vec<u32> = format!("{:09}", 123_400_000 + seed % 100_000)
        .chars()
        .map(|c| c.to_digit(10).expect("digit"))
        .collect();
    let check = |digits: &[u32]| {
        let n = digits.len() as u32 + 1;
        let sum: u32 = digits.iter().enumerate().map(|(i, d)| d * (n - i as u32)).sum();
        (sum * 10) % 11 % 10
    };
    let mut digits = base;
    let d1 = check(&digits);
    digits.push(d1);
    let d2 = check(&digits);
    digits.push(d2);
    digits.iter().map(|d| char::from_digit(*d, 10).expect("digit")).collect()
}

/// A valid numeric CNPJ (14 digits, correct check digits) made from `seed`, distinct for
/// seeds below 10 000.
pub fn cnpj(seed: u32) -> String {
    let base: Vec<u32> = format!("{:08}0001", 11_220_000 + seed % 10_000)
        .chars()
        .map(|c| c.to_digit(10).expect("digit"))
        .collect();
    let check = |digits: &[u32]| {
        let weights: &[u32] = if digits.len() == 12 {
            &[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
        } else {
            &[6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
        };
        let rest = digits.iter().zip(weights).map(|(d, w)| d * w).sum::<u32>() % 11;
        if rest < 2 { 0 } else { 11 - rest }
    };
    let mut digits = base;
    let d1 = check(&digits);
    digits.push(d1);
    let d2 = check(&digits);
    digits.push(d2);
    digits.iter().map(|d| char::from_digit(*d, 10).expect("digit")).collect()
}

/// The `field`s named by a VALIDATION_ERROR envelope.
pub fn error_fields(resp: &Resp) -> Vec<String> {
    resp.body["error"]["details"]["fields"]
        .as_array()
        .map(|fields| fields.iter().filter_map(|f| f["field"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// The entry of a VALIDATION_ERROR envelope for one field.
pub fn error_field<'a>(resp: &'a Resp, field: &str) -> Option<&'a Value> {
    resp.body["error"]["details"]["fields"]
        .as_array()
        .and_then(|fields| fields.iter().find(|f| f["field"] == field))
}

/// The ids of a list answer's `data`.
pub fn ids(resp: &Resp) -> Vec<String> {
    resp.data()
        .as_array()
        .map(|items| items.iter().filter_map(|i| i["id"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// The 2026-07-28 envelope of a request.
pub fn envelope(capabilities: Value) -> Value {
    serde_json::json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

impl TestServer {
    /// POSTs a JSON-RPC body to `path` with a token and extra headers.
    pub async fn mcp_raw(
        &self,
        path: &str,
        token: Option<&str>,
        body: &Value,
        headers: &[(&str, &str)],
    ) -> Resp {
        let mut req =
            self.raw(Method::POST, path).header("content-type", "application/json").body(body.to_string());
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        send(req).await
    }

    /// A 2025-era request (MCP-Protocol-Version 2025-06-18).
    pub async fn mcp_2025(&self, token: &str, method: &str, params: Value) -> Resp {
        let body = serde_json::json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
        self.mcp_raw("/mcp", Some(token), &body, &[("mcp-protocol-version", "2025-06-18")]).await
    }

    /// A 2026-07-28 request with the envelope and the headers it needs.
    pub async fn mcp_2026(&self, token: &str, method: &str, params: Value, capabilities: Value) -> Resp {
        let mut params = params;
        if let Some(p) = params.as_object_mut() {
            p.insert("_meta".into(), envelope(capabilities));
        }
        let name = match method {
            "tools/call" | "prompts/get" => params["name"].as_str().map(str::to_string),
            "resources/read" => params["uri"].as_str().map(str::to_string),
            _ => None,
        };
        let body = serde_json::json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
        let mut headers = vec![("mcp-protocol-version", "2026-07-28"), ("mcp-method", method)];
        if let Some(name) = name.as_deref() {
            headers.push(("mcp-name", name));
        }
        self.mcp_raw("/mcp", Some(token), &body, &headers).await
    }
}

impl Resp {
    /// The JSON-RPC result.
    pub fn result(&self) -> &Value {
        &self.body["result"]
    }

    /// The JSON-RPC error code.
    pub fn rpc_code(&self) -> i64 {
        self.body["error"]["code"].as_i64().unwrap_or_default()
    }

    /// The text of a tool result's single content item, parsed as JSON.
    pub fn tool_json(&self) -> Value {
        let content = self.result()["content"].as_array().expect("tool result content");
        assert_eq!(content.len(), 1, "one content item: {}", self.body);
        assert_eq!(content[0]["type"], "text");
        serde_json::from_str(content[0]["text"].as_str().expect("text")).expect("tool text is JSON")
    }

    /// Whether a tool result is an error.
    pub fn is_tool_error(&self) -> bool {
        self.result()["isError"] == true
    }
}

/// Reads one HTTP/1.1 answer off a raw socket within `wait`; `None` when the server closed the
/// socket without one.
pub async fn read_raw(stream: &mut tokio::net::TcpStream, wait: std::time::Duration) -> Option<Resp> {
    use tokio::io::AsyncReadExt;
    let mut raw = Vec::new();
    let read = async {
        let mut buf = [0u8; 8192];
        loop {
            let n = stream.read(&mut buf).await.unwrap_or(0);
            if n == 0 {
                return;
            }
            raw.extend_from_slice(&buf[..n]);
            if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
                let length = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                if raw.len() >= end + 4 + length {
                    return;
                }
            }
        }
    };
    tokio::time::timeout(wait, read).await.expect("the server answers or closes in time");
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let text = String::from_utf8_lossy(&raw[..end]).to_string();
    let mut lines = text.lines();
    let status: u16 =
        lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).expect("status line");
    let mut headers = reqwest::header::HeaderMap::new();
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            headers.append(
                reqwest::header::HeaderName::from_bytes(name.trim().as_bytes()).expect("header name"),
                value.trim().parse().expect("header value"),
            );
        }
    }
    let body = serde_json::from_slice(&raw[end + 4..]).unwrap_or(serde_json::Value::Null);
    Some(Resp { status, headers, body })
}
