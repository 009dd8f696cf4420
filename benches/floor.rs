//! The floor of `bench/load.sh`: a small poem server that answers every request with one
//! canned HTTP answer — the status, headers and body the real server gave to the same request,
//! captured by the script just before (`curl -si`). It reads the request body, as the real
//! server does, and nothing else: no routing, authentication, database or logging. What the
//! real server does on top of this is what the ratio measures.
//!
//! `cargo run --release --example floor -- 127.0.0.1:9000 captured.http`
//!
//! The capture is a raw HTTP/1.1 answer (`HTTP/1.1 200 OK`, headers, a blank line, the body).
//! `date`, `content-length`, `connection` and `transfer-encoding` are hyper's to write, so they
//! are left out and written fresh; every other header is answered as captured, in its order.

use std::sync::Arc;

use poem::http::{HeaderName, HeaderValue, StatusCode};
use poem::listener::TcpListener;
use poem::{Body, Endpoint, Request, Response, Server};

/// One captured answer.
struct Canned {
    status: StatusCode,
    headers: Vec<(HeaderName, HeaderValue)>,
    body: &'static [u8],
}

/// Parses a raw HTTP/1.1 answer as `curl -si` writes it (CRLF or LF line ends).
fn parse(raw: &[u8]) -> Result<Canned, String> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| (i, i + 4))
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|i| (i, i + 2)))
        .ok_or("no blank line after the headers")?;
    let head = std::str::from_utf8(&raw[..split.0]).map_err(|e| e.to_string())?;
    let mut lines = head.lines().map(|l| l.trim_end_matches('\r'));
    let status_line = lines.next().ok_or("empty capture")?;
    let code = status_line.split_whitespace().nth(1).ok_or("no status code")?;
    let status = StatusCode::from_bytes(code.as_bytes()).map_err(|e| e.to_string())?;
    let mut headers = Vec::new();
    for line in lines {
        let (name, value) = line.split_once(':').ok_or_else(|| format!("bad header line {line:?}"))?;
        let name = HeaderName::from_bytes(name.trim().as_bytes()).map_err(|e| e.to_string())?;
        if matches!(name.as_str(), "date" | "content-length" | "connection" | "transfer-encoding") {
            continue;
        }
        headers.push((name, HeaderValue::from_str(value.trim()).map_err(|e| e.to_string())?));
    }
    let body: &'static [u8] = Box::leak(raw[split.1..].to_vec().into_boxed_slice());
    Ok(Canned { status, headers, body })
}

struct Floor(Arc<Canned>);

impl Endpoint for Floor {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        // The request body is read, as the real server reads it.
        let _ = req.take_body().into_bytes().await;
        let canned = &self.0;
        let mut response = Response::builder().status(canned.status).body(Body::from(canned.body));
        let headers = response.headers_mut();
        for (name, value) in &canned.headers {
            headers.append(name.clone(), value.clone());
        }
        Ok(response)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(bind), Some(file)) = (args.next(), args.next()) else {
        return Err("usage: floor <bind address> <captured answer file>".into());
    };
    let canned = parse(&std::fs::read(&file)?)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener = TcpListener::bind(bind.clone());
        println!("floor listening on http://{bind}");
        Server::new(listener).run(Floor(Arc::new(canned))).await
    })?;
    Ok(())
}
