//! A hostile network: slow and idle peers, too many connections, broken and
//! oversized requests, and requests without a valid token. Each test starts the real server and
//! speaks raw HTTP/1.1 to it over TCP.

use std::time::{Duration, Instant};

use kobana_dunning::http::ConnectionLimits;
use kobana_dunning::limits::Limits;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::{Resp, TestServer, read_raw, send};

/// Connection limits with short deadlines, so the tests wait seconds, not minutes.
fn quick(header: u64, body: u64, idle: u64, max_connections: usize) -> ConnectionLimits {
    let mut limits = ConnectionLimits { max_connections, ..ConnectionLimits::default() };
    limits.gate.header_timeout = Duration::from_secs(header);
    limits.gate.body_timeout = Duration::from_secs(body);
    limits.gate.idle_timeout = Duration::from_secs(idle);
    limits
}

fn generous() -> Limits {
    Limits { per_minute: 1_000_000, burst: 1_000_000, max_in_flight: 4, anonymous_per_minute: 1_000_000 }
}

async fn connect(server: &TestServer) -> TcpStream {
    TcpStream::connect(server.base.trim_start_matches("http://")).await.expect("connect")
}

async fn read_answer(stream: &mut TcpStream, wait: Duration) -> Option<Resp> {
    read_raw(stream, wait).await
}

/// Whether the server closed the socket (a read gives end of file) within `wait`.
async fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    let mut buf = [0u8; 1024];
    matches!(tokio::time::timeout(wait, stream.read(&mut buf)).await, Ok(Ok(0)) | Ok(Err(_)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_cost_a_connection_never_a_request_slot() {
    // Four request slots, and twice as many slow bodies and slow heads as slots.
    let server = TestServer::start_full(generous(), Vec::new(), quick(2, 2, 30, 1024)).await;
    let (_, token) = server.tenant("Org").await;
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut slow = Vec::new();
    for i in 0..16 {
        let mut stream = connect(&server).await;
        let bytes = if i % 2 == 0 {
            format!(
                "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"
            )
        } else {
            format!("GET /v1/me HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bea")
        };
        stream.write_all(bytes.as_bytes()).await.expect("write");
        slow.push(stream);
    }
    // A well-behaved client is served, promptly, all the while.
    for _ in 0..20 {
        let started = Instant::now();
        let r = server.read(&token, "me", "").await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(started.elapsed() < Duration::from_secs(1), "answered in {:?}", started.elapsed());
    }
    let r = send(server.raw(reqwest::Method::GET, "/readyz")).await;
    assert_eq!(r.status, 200, "ready while slow clients wait");
    // Past their deadlines the slow ones get 408, with the headers every answer carries.
    for (i, stream) in slow.iter_mut().enumerate() {
        let r = read_answer(stream, Duration::from_secs(10)).await.expect("a 408");
        assert_eq!(r.status, 408);
        // A late body to /mcp is answered in JSON-RPC; a late head is not known to be MCP.
        let code = if i % 2 == 0 { json!(-32600) } else { json!("BAD_REQUEST") };
        assert_eq!(r.body["error"]["code"], code);
        assert_eq!(r.header("cache-control"), Some("no-store"));
        assert!(r.header("x-request-id").is_some_and(|id| id.starts_with("req_")));
        // After a short lingering read (so a client still sending reads the answer, not a reset).
        assert!(closed_within(stream, Duration::from_secs(5)).await, "then the connection ends");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_closed_after_the_idle_timeout() {
    let server = TestServer::start_full(generous(), Vec::new(), quick(1, 5, 1, 1024)).await;
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut kept = connect(&server).await;
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    kept.write_all(request.as_bytes()).await.expect("write");
    let r = read_answer(&mut kept, Duration::from_secs(5)).await.expect("an answer");
    assert_eq!(r.status, 200);
    // Kept alive within the idle timeout...
    kept.write_all(request.as_bytes()).await.expect("write");
    assert_eq!(read_answer(&mut kept, Duration::from_secs(5)).await.expect("an answer").status, 200);
    // ...and closed once idle past it.
    let idle = Instant::now();
    assert!(closed_within(&mut kept, Duration::from_secs(5)).await, "an idle connection is closed");
    assert!(
        idle.elapsed() >= Duration::from_millis(900),
        "not before the idle timeout: {:?}",
        idle.elapsed()
    );
    // A connection that never sends a byte ends at the header deadline, quietly.
    let mut silent = connect(&server).await;
    assert!(closed_within(&mut silent, Duration::from_secs(5)).await, "a silent connection is closed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_connection_limit_holds() {
    let server = TestServer::start_full(generous(), Vec::new(), quick(30, 30, 30, 3)).await;
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect(&server).await);
    }
    // Let the server accept them before the fourth comes.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut refused = connect(&server).await;
    let _ = refused.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes()).await;
    assert!(closed_within(&mut refused, Duration::from_secs(2)).await, "past the cap a connection is closed");
    // A slot freed is a slot for the next connection.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut next = connect(&server).await;
    next.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes()).await.expect("write");
    let r = read_answer(&mut next, Duration::from_secs(5)).await.expect("an answer");
    assert_eq!(r.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_content_length_is_refused_at_once() {
    let server = TestServer::start_full(generous(), Vec::new(), quick(10, 30, 30, 1024)).await;
    let (_, token) = server.tenant("Org").await;
    let addr = server.base.trim_start_matches("http://").to_string();
    for path in ["/mcp", "/", "/mcp/x/charges", "/mcp/readonly"] {
        let mut stream = connect(&server).await;
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
             Content-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).await.expect("write");
        let started = Instant::now();
        let r = read_answer(&mut stream, Duration::from_secs(5)).await.expect("an answer");
        assert!(started.elapsed() < Duration::from_secs(2), "at once: {:?}", started.elapsed());
        assert_eq!(r.status, 413, "{path}");
        assert_eq!(r.body["error"]["code"], -32600);
        assert_eq!(r.body["error"]["message"], "Request body too large");
        assert_eq!(r.header("cache-control"), Some("no-store"));
        assert!(r.header("x-request-id").is_some());
        assert!(r.header("mcp-protocol-version").is_some());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_requests_get_answers_with_the_usual_headers() {
    let server = TestServer::start().await;
    let addr = server.base.trim_start_matches("http://").to_string();
    let long_line = format!("GET /v1/{} HTTP/1.1\r\nHost: {addr}\r\n\r\n", "a".repeat(9 * 1024));
    let big_head =
        format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nX-Big: {}\r\n\r\n", "b".repeat(40 * 1024));
    let cases: [(&str, Vec<u8>, u16); 6] = [
        ("an over-long request line", long_line.into_bytes(), 414),
        ("over-large headers", big_head.into_bytes(), 431),
        ("no HTTP at all", b"HELLO THERE\r\n\r\n".to_vec(), 400),
        ("an HTTP/2 preface (h2c)", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec(), 505),
        (
            "two framings at once",
            format!(
                "POST /v1/debtors HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 4\r\n\
                 Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            )
            .into_bytes(),
            400,
        ),
        (
            "a bad Content-Length",
            format!("POST /v1/debtors HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 4x\r\n\r\n").into_bytes(),
            400,
        ),
    ];
    for (what, bytes, status) in cases {
        let mut stream = connect(&server).await;
        stream.write_all(&bytes).await.expect("write");
        let r = read_answer(&mut stream, Duration::from_secs(5))
            .await
            .unwrap_or_else(|| panic!("{what}: an answer"));
        assert_eq!(r.status, status, "{what}");
        assert_eq!(r.body["error"]["code"], "BAD_REQUEST", "{what}");
        assert_eq!(r.header("cache-control"), Some("no-store"), "{what}");
        assert!(r.header("x-request-id").is_some(), "{what}");
        assert_eq!(r.header("connection"), Some("close"), "{what}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chunked_and_continued_bodies_are_read_whole() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let addr = server.base.trim_start_matches("http://").to_string();
    let body = json!({ "name": "Maria Souza", "document": "52998224725" }).to_string();
    // Chunked, in two chunks sent apart.
    let mut stream = connect(&server).await;
    let head = format!(
        "POST /v1/debtors HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    let (first, second) = body.split_at(10);
    stream.write_all(head.as_bytes()).await.expect("write");
    stream.write_all(format!("{:x}\r\n{first}\r\n", first.len()).as_bytes()).await.expect("write");
    tokio::time::sleep(Duration::from_millis(100)).await;
    stream.write_all(format!("{:x}\r\n{second}\r\n0\r\n\r\n", second.len()).as_bytes()).await.expect("write");
    let r = read_answer(&mut stream, Duration::from_secs(5)).await.expect("an answer");
    assert_eq!(r.status, 201, "{}", r.body);
    // Expect: 100-continue gets its interim answer before the body is sent.
    let mut stream = connect(&server).await;
    let other = json!({ "name": "Ana Lima", "document": "11222333000181" }).to_string();
    let head = format!(
        "POST /v1/debtors HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
        other.len()
    );
    stream.write_all(head.as_bytes()).await.expect("write");
    let interim = read_answer(&mut stream, Duration::from_secs(2)).await.expect("100 Continue");
    assert_eq!(interim.status, 100);
    stream.write_all(other.as_bytes()).await.expect("write");
    let r = read_answer(&mut stream, Duration::from_secs(5)).await.expect("an answer");
    assert_eq!(r.status, 201, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_without_a_valid_token_are_limited_per_address() {
    let limits = Limits { anonymous_per_minute: 5, ..generous() };
    let server = TestServer::start_full(limits, Vec::new(), ConnectionLimits::default()).await;
    let (_, token) = server.tenant("Org").await;
    for bad in ["", "Bearer nonsense", "Bearer kd_at_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"] {
        let mut req = server.raw(reqwest::Method::GET, "/v1/me");
        if !bad.is_empty() {
            req = req.header("authorization", bad);
        }
        assert_eq!(send(req).await.status, 401, "{bad}");
    }
    // An MCP request without a token counts from the same address's share.
    let mcp = json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" });
    let r = send(server.raw(reqwest::Method::POST, "/mcp").json(&mcp)).await;
    assert_eq!(r.status, 401);
    assert_eq!(send(server.raw(reqwest::Method::GET, "/v1/me")).await.status, 401);
    // The share is spent: 429 with a time to come back, on both surfaces.
    let r = send(server.raw(reqwest::Method::GET, "/v1/me")).await;
    assert_eq!((r.status, r.code()), (429, "RATE_LIMITED"));
    assert!(r.header("retry-after").is_some());
    let r = send(server.raw(reqwest::Method::POST, "/mcp").json(&mcp)).await;
    assert_eq!((r.status, r.rpc_code()), (429, -32000));
    // Health and the well-known metadata take no token and are never limited.
    assert_eq!(send(server.raw(reqwest::Method::GET, "/healthz")).await.status, 200);
    assert_eq!(send(server.raw(reqwest::Method::GET, "/readyz")).await.status, 200);
    let r = send(server.raw(reqwest::Method::GET, "/.well-known/oauth-protected-resource/mcp")).await;
    assert_eq!(r.status, 200);
    // A spent address locks no one with a valid token out (many users can share an address).
    let r = server.read(&token, "me", "").await;
    assert_eq!(r.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_chunked_body_read_in_parts_counts_once_and_one_over_the_cap_is_refused() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let addr = server.base.trim_start_matches("http://").to_string();
    // About 1 MiB in chunks of 130 KiB, each written in small pieces: under the 2 MiB cap.
    let body =
        format!("{{\"name\": \"Maria Souza\",{}\"document\": \"52998224725\"}}", " ".repeat(1024 * 1024));
    let mut stream = connect(&server).await;
    let head = format!(
        "POST /v1/debtors HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.expect("write");
    for chunk in body.as_bytes().chunks(130 * 1024) {
        stream.write_all(format!("{:x}\r\n", chunk.len()).as_bytes()).await.expect("write");
        for piece in chunk.chunks(4096) {
            stream.write_all(piece).await.expect("write");
        }
        stream.write_all(b"\r\n").await.expect("write");
    }
    stream.write_all(b"0\r\n\r\n").await.expect("write");
    let r = read_answer(&mut stream, Duration::from_secs(10)).await.expect("an answer");
    assert_eq!(r.status, 201, "{}", r.body);

    // Over the cap, chunked: the gate answers 413 itself, in each surface's vocabulary.
    for (path, mcp) in [("/v1/debtors", false), ("/mcp", true), ("/mcp/x/charges,debtors", true)] {
        let mut stream = connect(&server).await;
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
             Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).await.expect("write");
        let chunk = vec![b' '; 512 * 1024];
        for _ in 0..5 {
            stream.write_all(format!("{:x}\r\n", chunk.len()).as_bytes()).await.expect("write");
            stream.write_all(&chunk).await.expect("write");
            stream.write_all(b"\r\n").await.expect("write");
        }
        let r = read_answer(&mut stream, Duration::from_secs(10)).await.expect("an answer");
        assert_eq!(r.status, 413, "{path}");
        assert!(r.header("x-request-id").is_some());
        if mcp {
            assert_eq!(r.body["error"]["code"], -32600);
            assert_eq!(r.body["error"]["message"], "Request body too large");
        } else {
            assert_eq!(r.body["error"]["code"], "PAYLOAD_TOO_LARGE");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_lines_between_requests_are_skipped() {
    let server = TestServer::start().await;
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut stream = connect(&server).await;
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    assert_eq!(read_answer(&mut stream, Duration::from_secs(5)).await.expect("an answer").status, 200);
    stream.write_all(format!("\r\n{request}").as_bytes()).await.expect("write");
    assert_eq!(read_answer(&mut stream, Duration::from_secs(5)).await.expect("an answer").status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_hold_every_connection() {
    let limits = ConnectionLimits { max_connections_per_address: 2, ..quick(30, 30, 30, 1024) };
    let server = TestServer::start_full(generous(), Vec::new(), limits).await;
    let _held = [connect(&server).await, connect(&server).await];
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut third = connect(&server).await;
    assert!(
        closed_within(&mut third, Duration::from_secs(2)).await,
        "a third connection from one address is closed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_1_1_request_names_exactly_one_host() {
    let server = TestServer::start().await;
    let addr = server.base.trim_start_matches("http://").to_string();
    for head in [
        "GET /v1/me HTTP/1.1\r\n\r\n".to_string(),
        format!("GET /v1/me HTTP/1.1\r\nHost: {addr}\r\nHost: other.example\r\n\r\n"),
    ] {
        let mut stream = connect(&server).await;
        stream.write_all(head.as_bytes()).await.expect("write");
        let r = read_answer(&mut stream, Duration::from_secs(10)).await.expect("an answer");
        assert_eq!((r.status, r.code()), (400, "BAD_REQUEST"), "{head:?}: {}", r.body);
        assert!(r.body["error"]["message"].as_str().unwrap().contains("Host"), "{}", r.body);
    }
    // HTTP/1.0 needs none; one Host is the ordinary case (no token: 401).
    for head in [
        "GET /v1/me HTTP/1.0\r\n\r\n".to_string(),
        format!("GET /v1/me HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    ] {
        let mut stream = connect(&server).await;
        stream.write_all(head.as_bytes()).await.expect("write");
        let r = read_answer(&mut stream, Duration::from_secs(10)).await.expect("an answer");
        assert_eq!(r.status, 401, "{head:?}: {}", r.body);
    }
}
