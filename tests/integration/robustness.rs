//! Nothing a caller sends makes the server fail: random arguments to every tool and random
//! bodies and query strings to every /v1 operation get a 2xx or 4xx answer, never a 5xx.

use kobana_dunning::operations::OPERATIONS;
use reqwest::Method;
use serde_json::{Map, Value, json};

use crate::common::{TestServer, send};

/// A small deterministic generator (xorshift), so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn string(&mut self) -> String {
        const PIECES: &[&str] = &[
            "",
            "a",
            "Maria",
            "52998224725",
            "11.222.333/0001-81",
            "2026-02-30",
            "9999-12-31",
            "-1",
            "1e309",
            "NaN",
            "\u{0}",
            "\u{202e}",
            "ção",
            "😀",
            "%",
            "_",
            "\\",
            "'",
            "\"",
            "<script>",
            "dbt_",
            "chg_",
            "pending,overdue,,",
            "       ",
            "{{target.id}}",
            "=?base64?x?=",
        ];
        (0..self.below(4)).map(|_| PIECES[self.below(PIECES.len() as u64) as usize]).collect()
    }

    fn value(&mut self, depth: u32) -> Value {
        match self.below(if depth > 2 { 6 } else { 8 }) {
            0 => Value::Null,
            1 => json!(self.below(2) == 0),
            2 => json!(self.next() as i64),
            3 => json!([0.005, -1.0, 1e300, 10.0, 0.1, 99999999.99, 100000000.0][self.below(7) as usize]),
            4 | 5 => json!(self.string()),
            6 => Value::Array((0..self.below(4)).map(|_| self.value(depth + 1)).collect()),
            _ => Value::Object(self.object(depth + 1, &[])),
        }
    }

    /// An object mixing the operation's own field names with made-up ones.
    fn object(&mut self, depth: u32, known: &[&str]) -> Map<String, Value> {
        let mut map = Map::new();
        for _ in 0..self.below(6) {
            let name = if !known.is_empty() && self.below(3) > 0 {
                known[self.below(known.len() as u64) as usize].to_string()
            } else {
                self.string()
            };
            map.insert(name, self.value(depth));
        }
        map
    }
}

fn field_names(op: &kobana_dunning::operations::Operation) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = op.path_params.to_vec();
    names.extend(op.query_params.iter().map(|q| q.name));
    if let Some(body) = op.body {
        names.extend(body.fields.iter().copied());
    }
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_tool_arguments_never_fail_the_server() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = s.create_debtor(&token, "Maria Souza", "52998224725").await;
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for round in 0..12 {
        for op in OPERATIONS {
            let mut args = rng.object(0, &field_names(op));
            if round % 2 == 0 && !op.path_params.is_empty() {
                args.insert("id".into(), debtor["id"].clone());
            }
            let params = json!({ "name": op.tool_name, "arguments": args });
            let r = s.mcp_2025(&token, "tools/call", params.clone()).await;
            assert!(
                r.status < 500 && r.rpc_code() != -32603,
                "{} with {params}: {} {}",
                op.tool_name,
                r.status,
                r.body
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_rest_requests_never_fail_the_server() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = s.create_debtor(&token, "Maria Souza", "52998224725").await;
    let mut rng = Rng(0x5eed_1234_abcd_0002);
    for _ in 0..12 {
        for op in OPERATIONS {
            let mut path = op.path.to_string();
            for name in op.path_params {
                let value =
                    if rng.below(2) == 0 { debtor["id"].as_str().unwrap().to_string() } else { rng.string() };
                let encoded: String = form_urlencoded::byte_serialize(value.as_bytes()).collect();
                path = path.replace(&format!("{{{name}}}"), &encoded);
            }
            let query: Vec<String> = rng
                .object(1, &op.query_params.iter().map(|q| q.name).collect::<Vec<_>>())
                .into_iter()
                .map(|(k, v)| {
                    let text = match v {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    format!(
                        "{}={}",
                        form_urlencoded::byte_serialize(k.as_bytes()).collect::<String>(),
                        form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>()
                    )
                })
                .collect();
            let url = if query.is_empty() { path } else { format!("{path}?{}", query.join("&")) };
            let method: Method = op.method.as_poem().as_str().parse().unwrap();
            let mut req = s.raw(method, &url).bearer_auth(&token);
            if op.body.is_some() {
                let body = if rng.below(5) == 0 {
                    rng.value(0)
                } else {
                    Value::Object(rng.object(0, &field_names(op)))
                };
                req = req.header("content-type", "application/json").body(body.to_string());
            }
            let r = send(req).await;
            assert!(r.status < 500, "{} {url}: {} {}", op.operation_id, r.status, r.body);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_json_rpc_bodies_never_fail_the_server() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let mut rng = Rng(0x5eed_1234_abcd_0003);
    let methods = [
        "initialize",
        "tools/list",
        "tools/call",
        "resources/read",
        "prompts/get",
        "completion/complete",
        "server/discover",
        "x",
    ];
    for _ in 0..150 {
        let mut body = rng.object(0, &["jsonrpc", "id", "method", "params"]);
        if rng.below(2) == 0 {
            body.insert("jsonrpc".into(), json!("2.0"));
            body.insert("method".into(), json!(methods[rng.below(methods.len() as u64) as usize]));
        }
        let r = s.mcp_raw("/mcp", Some(&token), &Value::Object(body.clone()), &[]).await;
        assert!(r.status < 500 && r.rpc_code() != -32603, "{}: {} {}", Value::Object(body), r.status, r.body);
    }
}

/// Found by the random requests on PostgreSQL, which cannot compare text with a NUL: an id with
/// a control character names nothing, on either database.
#[tokio::test]
async fn an_id_with_a_control_character_is_not_found() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Controle").await;
    for (method, path) in [
        (Method::GET, "/v1/charges/%00"),
        (Method::POST, "/v1/charges/%5C%00/cancel"),
        (Method::GET, "/v1/debtors/dbt_%01"),
        (Method::GET, "/v1/events/evt%0A"),
    ] {
        let r = send(server.raw(method.clone(), path).bearer_auth(&token)).await;
        assert_eq!(r.status, 404, "{method} {path}: {}", r.body);
        assert_eq!(r.code(), "NOT_FOUND", "{method} {path}");
    }
}
