//! Schema drift: where outside tools (schemathesis, Redocly, Spectral) found the spec
//! and the running API disagreeing, each side now says what the other does. Every test here
//! speaks to the real server, and where a rule lives in the spec it also reads the rule from
//! the generated schemas, so a later edit to either side fails here.

use std::collections::{BTreeMap, BTreeSet};

use kobana_dunning::api::schemas;
use kobana_dunning::domain::{parse_cep, parse_mobile, parse_phone, text};
use kobana_dunning::operations::{self, CONTRACT_JSON, HttpMethod, OPERATIONS};
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{TestServer, check_contract, cpf, date_in, error_fields, send};

fn id(v: &Value) -> String {
    v["id"].as_str().expect("id").to_string()
}

/// The JSON body schema of an operation, as generated from the spec.
fn body_schema(op_id: &str) -> Value {
    let op = operations::by_operation_id(op_id).expect("operation");
    serde_json::from_str(op.body.expect("a body").schema).expect("schema JSON")
}

/// The `pattern` of a body property (`address.zipcode` goes through `properties`).
fn pattern(op_id: &str, path: &[&str]) -> String {
    let mut node = body_schema(op_id);
    for name in path {
        node = node["properties"][*name].clone();
        // A nullable object is `{"type": ["object", "null"], "properties": ...}` or an anyOf.
        if node.get("properties").is_none()
            && let Some(alts) = node.get("anyOf").and_then(Value::as_array)
            && let Some(object) = alts.iter().find(|a| a.get("properties").is_some())
        {
            node = object.clone();
        }
    }
    node["pattern"].as_str().unwrap_or_else(|| panic!("{op_id} {path:?} has a pattern")).to_string()
}

/// Whether the spec's pattern (as the jsonschema validator reads it) accepts `value`.
fn pattern_accepts(pattern: &str, value: &str) -> bool {
    let schema = json!({ "type": "string", "pattern": pattern });
    jsonschema::validator_for(&schema).expect("pattern compiles").is_valid(&json!(value))
}

// ----------------------------------------------------------------- HTTP methods

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undeclared_method_on_a_known_path_is_405_with_allow() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;

    // The methods the spec declares on each path template, HEAD wherever GET is.
    let mut declared: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for op in OPERATIONS {
        let methods = declared.entry(op.path).or_default();
        let method = match op.method {
            HttpMethod::Get => "GET",
            HttpMethod::Post => "POST",
            HttpMethod::Patch => "PATCH",
            HttpMethod::Delete => "DELETE",
            HttpMethod::Put => "PUT",
        };
        methods.insert(method);
        if method == "GET" {
            methods.insert("HEAD");
        }
    }
    for (template, methods) in &declared {
        let path = template
            .split('/')
            .map(|s| if s.starts_with('{') { "x_1" } else { s })
            .collect::<Vec<_>>()
            .join("/");
        for method in ["PUT", "TRACE", "OPTIONS", "DELETE", "PATCH", "POST"] {
            if methods.contains(method) {
                continue;
            }
            let r = send(server.raw(method.parse().expect("method"), &path).bearer_auth(&token)).await;
            assert_eq!(r.status, 405, "{method} {path}: {}", r.body);
            assert_eq!(r.code(), "METHOD_NOT_ALLOWED", "{method} {path}: {}", r.body);
            let allow: BTreeSet<&str> =
                r.header("allow").expect("an Allow header").split(',').map(str::trim).collect();
            assert_eq!(&allow, methods, "{method} {path}");
            assert_eq!(r.header("cache-control"), Some("no-store"));
            assert!(r.header("x-request-id").is_some());
        }
    }

    // HEAD is answered like GET where GET is declared, and refused where it is not.
    let r = send(server.raw(Method::HEAD, "/v1/debtors").bearer_auth(&token)).await;
    assert_eq!(r.status, 200);
    let r = send(server.raw(Method::HEAD, "/v1/charges/x_1/cancel").bearer_auth(&token)).await;
    assert_eq!(r.status, 405);
    assert_eq!(r.header("allow"), Some("POST"));

    // An unknown path is still NOT_FOUND, and authentication still comes first.
    let r = send(server.raw(Method::PUT, "/v1/nowhere").bearer_auth(&token)).await;
    assert_eq!(r.status, 404, "{}", r.body);
    let r = send(server.raw(Method::PUT, "/v1/debtors")).await;
    assert_eq!(r.status, 401, "{}", r.body);

    // A CORS preflight is not an OPTIONS request for the resource: the /mcp one is unchanged,
    // and /v1 answers none.
    let origin = server.base.clone();
    let r = send(
        server
            .raw(Method::OPTIONS, "/mcp")
            .header("Origin", &origin)
            .header("Access-Control-Request-Method", "POST"),
    )
    .await;
    assert_eq!(r.status, 204);
    assert_eq!(r.header("access-control-allow-methods"), Some("POST, OPTIONS"));
    let r = send(server.raw(Method::GET, "/mcp").bearer_auth(&token)).await;
    assert_eq!(r.status, 405);
    assert_eq!(r.header("allow"), Some("POST, OPTIONS"));
    let r = send(
        server
            .raw(Method::OPTIONS, "/v1/debtors")
            .bearer_auth(&token)
            .header("Origin", &origin)
            .header("Access-Control-Request-Method", "POST"),
    )
    .await;
    assert_ne!(r.status, 405, "{}", r.body);
    assert!(r.header("access-control-allow-origin").is_none());
}

// ----------------------------------------------------------------- If-Match

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn if_match_matches_any_listed_tag() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let d = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    let update = |if_match: Vec<&'static str>, name: &'static str| {
        let (server, token, d) = (&server, &token, &d);
        async move {
            let headers: Vec<(&str, &str)> = if_match.iter().map(|v| ("If-Match", *v)).collect();
            server
                .call_with(token, "debtors_update", &[("id", d)], "", Some(json!({ "name": name })), &headers)
                .await
        }
    };

    // RFC 9110 section 13.1.1: a list matches when any of its tags does.
    let r = update(vec![r#""v3", "v1""#], "Maria A.").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v2\""));
    // The list split over several header lines is the same list.
    let r = update(vec![r#""v1""#, r#""v2""#], "Maria B.").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = update(vec![r#""v1","v2" , "v3""#], "Maria C.").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = update(vec!["*"], "Maria D.").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v5\""));

    // None listed matches: 412, and nothing changes.
    for refused in [r#""v1", "v3""#, r#"W/"v5""#, r#""v5"x"#, "v5", ""] {
        let r = update(vec![refused], "Maria X.").await;
        assert_eq!(r.status, 412, "{refused}: {}", r.body);
        assert_eq!(r.code(), "PRECONDITION_FAILED");
    }
    let r = server.read_id(&token, "debtors_get", &d).await;
    assert_eq!(r.data()["name"], "Maria D.");
    assert_eq!(r.data()["version"], 5);
}

// ----------------------------------------------------------------- Content-Type

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_body_needs_a_json_content_type() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let body = json!({"name": "Maria Souza", "document": "52998224725"}).to_string();
    let post = |content_type: Option<&str>| {
        let mut req = server.raw(Method::POST, "/v1/debtors").bearer_auth(&token).body(body.clone());
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        send(req)
    };

    for refused in [Some("text/plain"), None, Some("application/x-www-form-urlencoded"), Some("json")] {
        let r = post(refused).await;
        assert_eq!(r.status, 400, "{refused:?}: {}", r.body);
        assert_eq!(r.code(), "BAD_REQUEST", "{refused:?}");
        check_contract("debtors_create", &r);
    }
    let r = server.read(&token, "debtors_list", "").await;
    assert_eq!(r.body["meta"]["total"], 0, "nothing was created");

    let r = post(Some("application/json; charset=utf-8")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let d = id(r.data());
    // Structured syntax suffixes name JSON too (RFC 6839).
    let r = send(
        server
            .raw(Method::PATCH, &format!("/v1/debtors/{d}"))
            .bearer_auth(&token)
            .header("content-type", "application/merge-patch+json")
            .body(json!({"name": "Maria S."}).to_string()),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);

    // An operation whose body is optional still runs without one, content type or not.
    let r = send(server.raw(Method::POST, &format!("/v1/debtors/{d}/archive")).bearer_auth(&token)).await;
    assert_eq!(r.status, 200, "{}", r.body);

    // The MCP tools reach the same endpoints, with their JSON bodies.
    let r = server
        .mcp_2025(
            &token,
            "tools/call",
            json!({"name": "dunning_debtors_create", "arguments": {"name": "Ana Lima", "document": cpf(11)}}),
        )
        .await;
    assert!(!r.is_tool_error(), "{}", r.body);
    assert_eq!(r.tool_json()["data"]["name"], "Ana Lima");
}

// ----------------------------------------------------------------- idempotency

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idempotency_compares_numbers_by_value() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let d = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    let due = date_in(5);
    let create = |amount: &str, key: &'static str| {
        let body = format!(r#"{{"debtor_id": "{d}", "amount": {amount}, "due_date": "{due}"}}"#);
        let req = server
            .raw(Method::POST, "/v1/charges")
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .header("Idempotency-Key", key)
            .body(body);
        send(req)
    };

    let first = create("10", "k-number-1").await;
    assert_eq!(first.status, 201, "{}", first.body);
    for same in ["10.0", "10.00", "1e1", "1.0E+1"] {
        let r = create(same, "k-number-1").await;
        assert_eq!(r.status, 201, "{same}: {}", r.body);
        assert_eq!(r.header("idempotent-replayed"), Some("true"), "{same}");
        assert_eq!(id(r.data()), id(first.data()), "{same}");
    }
    let r = create("10.01", "k-number-1").await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "IDEMPOTENCY_KEY_REUSED");

    let first = create("12.5", "k-number-2").await;
    assert_eq!(first.status, 201, "{}", first.body);
    let r = create("12.50", "k-number-2").await;
    assert_eq!(r.header("idempotent-replayed"), Some("true"));
    assert_eq!(id(r.data()), id(first.data()));

    let r = server.read(&token, "charges_list", "").await;
    assert_eq!(r.body["meta"]["total"], 2, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_idempotency_key_is_refused_as_the_spec_declares() {
    // Declared: 1 to 255 characters, in every write's body field (and its tool argument).
    for op in OPERATIONS.iter().filter(|op| op.accepts_idempotency_key) {
        let schema: Value = serde_json::from_str(op.input_schema).expect("input schema");
        let key = &schema["properties"]["idempotency_key"];
        assert_eq!(key["minLength"], 1, "{}: {key}", op.operation_id);
        assert_eq!(key["maxLength"], 255, "{}: {key}", op.operation_id);
    }

    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let body = json!({"name": "Maria Souza", "document": "52998224725"});
    let r = server
        .call_with(&token, "debtors_create", &[], "", Some(body.clone()), &[("Idempotency-Key", "")])
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["idempotency_key"]);
    let mut with_field = body.clone();
    with_field["idempotency_key"] = json!("");
    let r = server.write(&token, "debtors_create", with_field).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["idempotency_key"]);
    let r =
        server.call_with(&token, "debtors_create", &[], "", Some(body), &[("Idempotency-Key", "k")]).await;
    assert_eq!(r.status, 201, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idempotency_key_is_measured_in_characters_as_the_spec_says() {
    // maxLength counts characters: 255 of "é" (510 bytes) is a key, 256 is not.
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let mut body = json!({"name": "Maria Souza", "document": "52998224725"});
    body["idempotency_key"] = json!("é".repeat(256));
    let r = server.write(&token, "debtors_create", body.clone()).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["idempotency_key"]);
    body["idempotency_key"] = json!("é".repeat(255));
    let r = server.write(&token, "debtors_create", body.clone()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    // And it is the same key: the same body replays the first answer.
    let again = server.write(&token, "debtors_create", body).await;
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(again.body["data"]["id"], r.body["data"]["id"]);
}

// ----------------------------------------------------------------- lists

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_has_the_maximum_the_api_enforces() {
    let lists: Vec<_> =
        OPERATIONS.iter().filter(|op| op.query_params.iter().any(|p| p.name == "page")).collect();
    assert!(lists.len() >= 5);
    let mut maximum = None;
    for op in &lists {
        let schema: Value = serde_json::from_str(op.query_schema).expect("query schema");
        let page = &schema["properties"]["page"];
        assert_eq!(page["minimum"], 1, "{}", op.operation_id);
        assert!(page["maximum"].is_u64(), "{}: page declares a maximum: {page}", op.operation_id);
        maximum = Some(page["maximum"].as_u64().unwrap());
    }
    let maximum = maximum.expect("a maximum");

    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    server.create_debtor(&token, "Maria Souza", "52998224725").await;
    for op in &lists {
        let path = op.path.replace("{cp_id}", "cp_x").replace("{id}", "x");
        if path.contains("_x") || path.contains("/x") {
            continue;
        }
        let r = server.read(&token, op.operation_id, &format!("page={maximum}")).await;
        assert_eq!(r.status, 200, "{}: {}", op.operation_id, r.body);
        assert_eq!(r.body["meta"]["page"], maximum);
        assert_eq!(r.data(), &json!([]));
        for over in [maximum + 1, u64::MAX] {
            let r = server.read(&token, op.operation_id, &format!("page={over}")).await;
            assert_eq!(r.status, 422, "{}: {}", op.operation_id, r.body);
            assert_eq!(error_fields(&r), ["page"]);
        }
    }
}

// ----------------------------------------------------------------- money

/// Every `number` a schema declares, with its path.
fn numbers<'a>(schema: &'a Value, path: String, found: &mut Vec<(String, &'a Value)>) {
    match schema {
        Value::Object(map) => {
            let is_number = match map.get("type") {
                Some(Value::String(t)) => t == "number",
                Some(Value::Array(types)) => types.iter().any(|t| t == "number"),
                _ => false,
            };
            if is_number {
                found.push((path.clone(), schema));
            }
            for (key, value) in map {
                numbers(value, format!("{path}/{key}"), found);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                numbers(item, format!("{path}/{i}"), found);
            }
        }
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn money_and_percentages_declare_two_decimals_and_mean_it() {
    // Every number of the API is money or a percentage: the schemas every tool call is checked
    // against and the answers say so. (Tool descriptors leave the decimals to the server
    // instructions, which say it once: the catalogue budget.)
    let checked: Vec<Value> =
        OPERATIONS.iter().map(|op| serde_json::from_str(op.input_schema).expect("input schema")).collect();
    let checked = Value::Array(checked);
    let contract: Value = serde_json::from_str(CONTRACT_JSON).expect("contract");
    let mut found = Vec::new();
    numbers(&checked, "tools".into(), &mut found);
    let in_tools = found.len();
    numbers(&contract, "responses".into(), &mut found);
    assert!(in_tools >= 5 && found.len() > in_tools, "{found:?}");
    for (path, schema) in &found {
        assert_eq!(schema["multipleOf"], json!(0.01), "{path}: {schema}");
    }

    // The generated validators read multipleOf exactly: the decimal written, not the binary
    // float (0.29 / 0.01 is 28.999999999999996 in f64).
    let create = schemas(operations::by_operation_id("charges_create").unwrap());
    let input = |amount: Value| json!({"debtor_id": "dbt_x", "due_date": "2030-01-01", "amount": amount});
    for ok in
        [json!(0.07), json!(0.29), json!(0.3), json!(19.99), json!(1070468.14), json!(99999999.99), json!(5)]
    {
        let body = create.body.as_ref().expect("body schema");
        assert!(body.check(&input(ok.clone())).is_ok(), "{ok} in the body");
        assert!(create.input.check(&input(ok.clone())).is_ok(), "{ok} as a tool argument");
    }
    for bad in [json!(0.30000000000000004), json!(10.005), json!(0.001)] {
        assert!(create.input.check(&input(bad.clone())).is_err(), "{bad} as a tool argument");
    }

    // And the API agrees, over HTTP.
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let d = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    for (amount, fine) in [("0.29", "1.99"), ("0.07", "0"), ("1070468.14", "2")] {
        let body = format!(
            r#"{{"debtor_id": "{d}", "amount": {amount}, "due_date": "{}", "fine_percentage": {fine}}}"#,
            date_in(5)
        );
        let r = send(
            server
                .raw(Method::POST, "/v1/charges")
                .bearer_auth(&token)
                .header("content-type", "application/json")
                .body(body),
        )
        .await;
        check_contract("charges_create", &r);
        assert_eq!(r.status, 201, "{amount}: {}", r.body);
        assert_eq!(r.data()["amount"].to_string(), amount);
    }
    for (amount, fine, field) in [
        ("0.30000000000000004", "2", "amount"),
        ("10.005", "2", "amount"),
        ("10", "1.999", "fine_percentage"),
    ] {
        let body = format!(
            r#"{{"debtor_id": "{d}", "amount": {amount}, "due_date": "2030-01-01", "fine_percentage": {fine}}}"#
        );
        let r = send(
            server
                .raw(Method::POST, "/v1/charges")
                .bearer_auth(&token)
                .header("content-type", "application/json")
                .body(body),
        )
        .await;
        assert_eq!(r.status, 422, "{amount}: {}", r.body);
        assert_eq!(error_fields(&r), [field], "one error, once: {}", r.body);
    }
}

// ----------------------------------------------------------------- Brazilian rules

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn phone_patterns_accept_exactly_the_numbers_the_api_accepts() {
    for op in ["debtors_create", "debtors_update"] {
        let phone = pattern(op, &["phone"]);
        let mobile = pattern(op, &["mobile"]);
        for p in [&phone, &mobile] {
            assert!(!p.contains("\\p{"), "patterns that reach a tool use no \\p classes: {p}");
        }
        for ddd in 10..=99 {
            for subscriber in ["33334444", "912345678", "12345678", "812345678", "63334444", "9123456780"] {
                let number = format!("+55{ddd}{subscriber}");
                assert_eq!(
                    pattern_accepts(&phone, &number),
                    parse_phone(&number).is_ok(),
                    "{op} phone {number}"
                );
                assert_eq!(
                    pattern_accepts(&mobile, &number),
                    parse_mobile(&number).is_ok(),
                    "{op} mobile {number}"
                );
            }
        }
    }

    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    // DDD 20 does not exist.
    let r = server
        .write(
            &token,
            "debtors_create",
            json!({"name": "Maria", "document": cpf(1), "phone": "+552033334444", "mobile": "+5520912345678"}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["phone", "mobile"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cep_pattern_accepts_exactly_the_ceps_the_api_accepts() {
    for op in ["debtors_create", "debtors_update"] {
        let cep = pattern(op, &["address", "zipcode"]);
        for value in [
            "00000000",
            "00000-000",
            "00000001",
            "00000-001",
            "00001000",
            "10000000",
            "01310100",
            "01310-100",
            "99999-999",
            "0131010",
            "01310--100",
            "01.310-100",
        ] {
            // The API also reads 01.310-100; the spec asks for the plain forms only.
            let api = parse_cep(value).is_ok() && !value.contains('.');
            assert_eq!(pattern_accepts(&cep, value), api, "{op} zipcode {value}");
        }
    }

    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let address = json!({"zipcode": "00000-000", "street": "Rua A", "number": "1", "neighborhood": "Centro",
        "city": "São Paulo", "state": "SP"});
    let r = server
        .write(&token, "debtors_create", json!({"name": "Maria", "document": cpf(2), "address": address}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["address.zipcode"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_future_birth_date_is_refused_as_documented() {
    for op in ["debtors_create", "debtors_update"] {
        let schema = body_schema(op);
        let description = schema["properties"]["birth_date"]["description"].as_str().unwrap_or_default();
        assert!(description.contains("future"), "{op}: birth_date says it cannot be in the future");
    }

    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let r = server
        .write(
            &token,
            "debtors_create",
            json!({"name": "Maria", "document": cpf(3), "birth_date": date_in(1)}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["birth_date"]);
    let r = server
        .write(
            &token,
            "debtors_create",
            json!({"name": "Maria", "document": cpf(3), "birth_date": date_in(0)}),
        )
        .await;
    assert_eq!(r.status, 201, "today is not the future: {}", r.body);
    let r = server.write_id(&token, "debtors_update", &id(r.data()), json!({"birth_date": date_in(2)})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["birth_date"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_document_is_a_documented_conflict() {
    let contract: Value = serde_json::from_str(CONTRACT_JSON).expect("contract");
    assert!(contract["debtors_create"].get("409").is_some(), "debtors_create documents 409");
    let op = operations::by_operation_id("debtors_create").unwrap();
    assert!(op.description.contains("CONFLICT"), "{}", op.description);

    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    server.create_debtor(&token, "Maria Souza", "52998224725").await;
    let r =
        server.write(&token, "debtors_create", json!({"name": "Outra", "document": "529.982.247-25"})).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.code(), "CONFLICT");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_issue_date_is_what_the_spec_says() {
    let description = body_schema("charges_create")["properties"]["issue_date"]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(description.contains("due_date when that is earlier"), "{description}");

    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let d = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    // Due later: issued today.
    let c = server.create_charge(&token, &d, 10.0, &date_in(10)).await;
    assert_eq!(c["issue_date"], date_in(0));
    // An old debt imported with its past due date: issued on that date, not today.
    let c = server.create_charge(&token, &d, 10.0, &date_in(-40)).await;
    assert_eq!(c["issue_date"], date_in(-40));
    assert_eq!(c["status"], "overdue");
}

// ----------------------------------------------------------------- nullable objects

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_null_address_is_what_the_spec_allows() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let address = json!({"zipcode": "01310-100", "street": "Av. Paulista", "number": "1000",
        "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP"});
    let r = server
        .write(&token, "debtors_create", json!({"name": "Maria", "document": cpf(4), "address": address}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["address"]["zipcode"], "01310100");
    // The update clears it with null; the answer (checked against the spec) says null.
    let r = server.write_id(&token, "debtors_update", &id(r.data()), json!({"address": null})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["address"], Value::Null);
    let r = server.read_id(&token, "debtors_get", &id(r.data())).await;
    assert_eq!(r.data()["address"], Value::Null, "{}", r.body);
}

// ----------------------------------------------------------------- the text rule

/// The spec read as YAML (its `x-text-patterns` anchors resolved).
fn raw_spec() -> Value {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/v1.yaml")).expect("spec");
    yaml_serde::from_str(&text).expect("spec YAML")
}

/// The format characters above U+FFFF: the text rule refuses them and the spec's patterns do
/// not list them (no escape for them reads alike in ECMA-262 and Python; the spec says so).
fn astral_format(c: char) -> bool {
    c > '\u{ffff}' && text::is_format(c)
}

#[test]
fn the_text_patterns_are_the_text_rule() {
    let spec = raw_spec();
    for (name, multiline) in [("line", false), ("text", true)] {
        let pattern = spec["x-text-patterns"][name].as_str().expect("x-text-patterns");
        assert!(!pattern.contains("\\p"), "{name}: no \\p{{…}} classes (Python's re)");
        let validator = jsonschema::validator_for(&json!({ "type": "string", "pattern": pattern }))
            .expect("pattern compiles");
        let mut unlisted = Vec::new();
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let one = c.to_string();
            let spec_accepts = validator.is_valid(&json!(one));
            let api_accepts = text::check(&one, multiline).is_ok();
            if spec_accepts && !api_accepts && astral_format(c) {
                unlisted.push(c);
                continue;
            }
            assert_eq!(spec_accepts, api_accepts, "{name}: U+{:04X}", c as u32);
        }
        assert_eq!(unlisted.len(), 127, "{name}: the unlisted format characters");
        // Whole values, anchored: a newline anywhere (the end included) is free text only.
        for value in ["Maria", "", "R$ 1.250,00 — São Paulo", "a\n", "\na", "a\nb"] {
            assert_eq!(
                validator.is_valid(&json!(value)),
                text::check(value, multiline).is_ok(),
                "{name}: {value:?}"
            );
        }
    }
}

/// Every plain string (no enum, format or $ref) of a request body or a query string, with its
/// raw schema: `(where, schema)`.
fn plain_text_inputs(spec: &Value) -> Vec<(String, Value)> {
    fn resolve<'a>(spec: &'a Value, node: &'a Value) -> &'a Value {
        match node.get("$ref").and_then(Value::as_str) {
            Some(r) => spec.pointer(r.trim_start_matches('#')).expect("$ref resolves"),
            None => node,
        }
    }
    fn walk(spec: &Value, node: &Value, at: String, found: &mut Vec<(String, Value)>) {
        let node = resolve(spec, node);
        if node["type"] == "string" && node.get("enum").is_none() && node.get("format").is_none() {
            found.push((at.clone(), node.clone()));
        }
        for (name, property) in node["properties"].as_object().into_iter().flatten() {
            walk(spec, property, format!("{at}.{name}"), found);
        }
        for key in ["items", "additionalProperties"] {
            if node[key].is_object() {
                walk(spec, &node[key], format!("{at}[{key}]"), found);
            }
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            for member in node[key].as_array().into_iter().flatten() {
                walk(spec, member, at.clone(), found);
            }
        }
    }
    let mut found = Vec::new();
    for (path, item) in spec["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            let at = format!("{} {path}", method.to_uppercase());
            for parameter in op["parameters"].as_array().into_iter().flatten() {
                let parameter = resolve(spec, parameter);
                if parameter["in"] == "query" {
                    walk(spec, &parameter["schema"], format!("{at} ?{}", parameter["name"]), &mut found);
                }
            }
            let body = &op["requestBody"]["content"]["application/json"]["schema"];
            if body.is_object() {
                walk(spec, body, format!("{at} body"), &mut found);
            }
        }
    }
    found
}

#[test]
fn every_plain_text_argument_declares_the_text_rule() {
    // The API refuses control and invisible format characters in every text it reads (free
    // text admits newlines); the spec says so with its text patterns, or with a stricter
    // pattern of the field's own (phones, CEPs, times, filters). Idempotency keys are opaque
    // text without control characters (a NUL cannot be stored by PostgreSQL).
    let spec = raw_spec();
    let line = &spec["x-text-patterns"]["line"];
    let text = &spec["x-text-patterns"]["text"];
    let inputs = plain_text_inputs(&spec);
    assert!(inputs.len() > 50, "{}", inputs.len());
    for (at, schema) in inputs {
        if at.ends_with(".idempotency_key") {
            assert_eq!(
                schema["pattern"], r"^[^\x00-\x1F\x7F]*$",
                "{at}: an idempotency key is text without controls"
            );
            continue;
        }
        let pattern = schema.get("pattern").unwrap_or_else(|| panic!("{at} declares a pattern"));
        if schema["x-multiline"] == true {
            assert_eq!(pattern, text, "{at}: free text takes `pattern: *text`");
        } else {
            assert_ne!(pattern, text, "{at}: one-line text takes `pattern: *line`");
        }
        if pattern != line && pattern != text {
            // A field's own pattern admits no character the text rule refuses.
            let validator = jsonschema::validator_for(&json!({"type": "string", "pattern": pattern}))
                .expect("pattern compiles");
            for c in ['\u{0}', '\n', '\u{7f}', '\u{85}', '\u{ad}', '\u{200b}', '\u{202e}', '\u{feff}'] {
                assert!(
                    !validator.is_valid(&json!(format!("1{c}"))),
                    "{at}: {pattern} admits U+{:04X}",
                    c as u32
                );
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nested_text_follows_the_text_rule_as_the_spec_declares() {
    // Templates and the steps created with a policy are nested in their requests, where the
    // generated text types do not reach; the API checks them all the same.
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = server.create_debtor(&token, "Maria Souza", &cpf(7)).await;
    let charge = server.create_charge(&token, &id(&debtor), 100.0, &date_in(10)).await;
    for (body, field) in [
        (json!({"channel": "sms", "template": {"body": "a\u{7}b"}}), "template.body"),
        (json!({"channel": "email", "template": {"subject": "a\nb", "body": "ok"}}), "template.subject"),
        // Kept only for e-mail, checked on every channel.
        (json!({"channel": "sms", "template": {"subject": "\u{97}", "body": "ok"}}), "template.subject"),
        (json!({"channel": "email", "template": {"body": "a\u{200b}b"}}), "template.body"),
    ] {
        let r = server.write_id(&token, "charges_notify", &id(&charge), body.clone()).await;
        assert_eq!(r.status, 422, "{body}: {}", r.body);
        assert_eq!(error_fields(&r), [field], "{body}");
        let mut create = body.clone();
        create["charge_id"] = json!(id(&charge));
        let r = server.write(&token, "notifications_create", create).await;
        assert_eq!(r.status, 422, "{body}: {}", r.body);
        assert_eq!(error_fields(&r), [field], "{body}");
    }
    // Free text keeps its newlines.
    let r = server
        .write_id(
            &token,
            "charges_notify",
            &id(&charge),
            json!({"channel": "email", "template": {"body": "a\nb"}}),
        )
        .await;
    assert_ne!(r.status, 422, "{}", r.body);

    let step = |name: &str, body: &str| {
        json!({"name": "Régua", "steps": [{"offset_days": 1, "name": name, "channel": "sms",
            "template": {"body": body}}]})
    };
    for (policy, field) in [
        (step("a\u{7}", "ok"), "steps[0].name"),
        (step("SMS", "a\u{1b}[31m"), "steps[0].template.body"),
        (step("SMS", "a\u{202e}b"), "steps[0].template.body"),
    ] {
        let r = server.write(&token, "collection_policies_create", policy.clone()).await;
        assert_eq!(r.status, 422, "{policy}: {}", r.body);
        assert_eq!(error_fields(&r), [field], "{policy}");
    }
    let r = server.write(&token, "collection_policies_create", step("SMS", "Olá,\n{{debtor_name}}")).await;
    assert_eq!(r.status, 201, "{}", r.body);
}

/// The property names a schema (and the schemas it refers to) declares, at any depth.
fn property_names(spec: &Value, schema: &Value, into: &mut BTreeSet<String>, depth: usize) {
    if depth > 12 {
        return;
    }
    if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
        let name = target.trim_start_matches("#/components/schemas/");
        property_names(spec, &spec["components"]["schemas"][name], into, depth + 1);
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            into.insert(name.clone());
            property_names(spec, property, into, depth + 1);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = schema.get(key).filter(|v| v.is_object()) {
            property_names(spec, inner, into, depth + 1);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for inner in schema.get(key).and_then(Value::as_array).into_iter().flatten() {
            property_names(spec, inner, into, depth + 1);
        }
    }
}

#[test]
fn a_description_names_only_arguments_its_tool_takes() {
    // A snake_case name in a description that is another tool's argument, and neither this tool's
    // argument nor a field of its answer, describes some other tool (a preview's due_date in a
    // get's description).
    let spec = raw_spec();
    let arguments_of = |op: &operations::Operation| -> BTreeSet<String> {
        let schema: Value = serde_json::from_str(op.input_schema).expect("input schema");
        schema["properties"].as_object().map(|p| p.keys().cloned().collect()).unwrap_or_default()
    };
    let every_argument: BTreeSet<String> = OPERATIONS.iter().flat_map(arguments_of).collect();
    // Fields of the objects a tool acts on through another (a charge settled by its external_id),
    // each named in its description as that object's, and a step kind's name.
    const OTHER_OBJECTS: &[(&str, &str)] = &[
        ("collection_policies_steps_create", "credit_bureau"),
        ("credit_bureau_reports_create", "credit_bureau_blocked"),
        ("payment_receiver_create", "external_id"),
        ("payments_assign", "paid_amount"),
    ];
    let mut wrong = Vec::new();
    for (_, methods) in spec["paths"].as_object().expect("paths") {
        for (_, operation) in methods.as_object().into_iter().flatten() {
            let Some(id) = operation["operationId"].as_str() else { continue };
            let op = OPERATIONS.iter().find(|o| o.operation_id == id).expect("a generated operation");
            let mut known = arguments_of(op);
            for (status, response) in operation["responses"].as_object().into_iter().flatten() {
                if status.starts_with('2') {
                    property_names(&spec, &response["content"]["application/json"]["schema"], &mut known, 0);
                }
            }
            // The REST description and the tool's own (x-mcp.description).
            let description = format!(
                "{} {}",
                operation["description"].as_str().unwrap_or_default(),
                operation["x-mcp"]["description"].as_str().unwrap_or_default()
            );
            let words =
                description.split(|c: char| !(c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit()));
            for word in words.filter(|w| w.contains('_') && !w.starts_with('_') && !w.ends_with('_')) {
                let a_tool = OPERATIONS.iter().any(|o| o.operation_id == word);
                let elsewhere = OTHER_OBJECTS.contains(&(id, word));
                if every_argument.contains(word) && !known.contains(word) && !a_tool && !elsewhere {
                    wrong.push(format!("{id}: {word}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "descriptions naming arguments their tool does not take: {wrong:#?}");
}
