//! The gate's framing against hyper's, over generated request streams (lengths, chunked bodies
//! with extensions and trailers, pipelined requests, malformed sizes and headers, bytes cut
//! anywhere). Where the two disagreed on where a request ends, a client's bytes would slip past
//! the gate's deadlines and limits, so: each piece the gate releases is exactly one whole
//! request to hyper (read alone, it ends cleanly), and the requests released are the ones hyper
//! reads from the whole stream by itself, in order, up to the first one the gate refuses.

use std::collections::VecDeque;
use std::future::poll_fn;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::TokioIo;
use proptest::prelude::*;
use tokio::io::AsyncWriteExt;

use super::*;

/// A client's side of a connection: its bytes arrive in the given pieces, then nothing more
/// (the connection stays open, as a client's waiting for its answers does).
struct Client {
    pieces: VecDeque<Vec<u8>>,
    written: Vec<u8>,
}

impl Client {
    fn new(pieces: Vec<Vec<u8>>) -> Self {
        Self { pieces: pieces.into(), written: Vec::new() }
    }
}

impl AsyncRead for Client {
    fn poll_read(self: Pin<&mut Self>, _: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.pieces.pop_front() {
            Some(mut piece) => {
                let n = piece.len().min(buf.remaining());
                buf.put_slice(&piece[..n]);
                if n < piece.len() {
                    this.pieces.push_front(piece.split_off(n));
                }
                Poll::Ready(Ok(()))
            }
            None => Poll::Pending,
        }
    }
}

impl AsyncWrite for Client {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        self.get_mut().written.extend_from_slice(data);
        Poll::Ready(Ok(data.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// A request as the application would see it.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    method: String,
    target: String,
    body: Vec<u8>,
}

/// A request after the one a test reads: hyper reads it as itself only when the request before
/// ended exactly where the bytes before it end.
const SENTINEL: &[u8] = b"GET /sentinel HTTP/1.1\r\nHost: a\r\n\r\n";

/// How hyper's connection ended.
#[derive(Debug, Clone, Copy, PartialEq)]
enum End {
    /// It refused the bytes.
    Refused,
    /// It closed the connection after an answer (an HTTP/1.0 request, `Connection: close`):
    /// whatever follows is never read.
    Closed,
    /// It waits for more bytes.
    Waiting,
}

/// Polls `future` until it ends or stops making progress: everything here is in memory, so a
/// future still pending after this many polls waits for bytes that will not come.
async fn until_stalled<F: Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    for _ in 0..64 {
        if let Poll::Ready(output) = poll_fn(|cx| Poll::Ready(future.as_mut().poll(cx))).await {
            return Some(output);
        }
        tokio::task::yield_now().await;
    }
    None
}

/// What hyper, configured as the listener configures it, reads from `bytes` on a connection of
/// its own: the requests whose bodies arrived whole, and how it ended.
async fn hyper_reads(bytes: Vec<u8>) -> (Vec<Seen>, End) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
        let record = record.clone();
        async move {
            let (head, body) = req.into_parts();
            let body = body.collect().await?.to_bytes().to_vec();
            let target = head.uri.to_string();
            record.lock().unwrap().push(Seen { method: head.method.to_string(), target, body });
            Ok::<_, hyper::Error>(hyper::Response::new(Empty::<Bytes>::new()))
        }
    });
    let io = TokioIo::new(Client::new(vec![bytes]));
    let connection = crate::http::http1().serve_connection(io, service);
    let end = match until_stalled(connection).await {
        Some(Err(_)) => End::Refused,
        Some(Ok(())) => End::Closed,
        None => End::Waiting,
    };
    let seen = seen.lock().unwrap().clone();
    (seen, end)
}

/// How the gate handled a stream.
#[derive(Debug)]
struct Released {
    /// Each request released, as hyper reads it from the gate.
    requests: Vec<Vec<u8>>,
    /// Whether the gate stopped the connection at a request (its own answer, or a body over the
    /// cap left for the application to refuse from its length).
    refused: bool,
}

/// What the gate releases from a stream arriving in `pieces`, each request answered before the
/// next is read, as hyper answers.
async fn gate_releases(pieces: Vec<Vec<u8>>) -> Released {
    const ANSWER: &[u8] = b"HTTP/1.1 204 No Content\r\n\r\n";
    let limits = Arc::new(crate::http::ConnectionLimits::default().gate);
    let mut gate = Gate::new(Client::new(pieces), limits);
    let (mut requests, mut current) = (Vec::new(), Vec::new());
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let mut read = ReadBuf::new(&mut buf);
        match poll_fn(|cx| Poll::Ready(Pin::new(&mut gate).poll_read(cx, &mut read))).await {
            Poll::Ready(Ok(())) if read.filled().is_empty() => break,
            Poll::Ready(Ok(())) => current.extend_from_slice(read.filled()),
            Poll::Ready(Err(_)) => break,
            Poll::Pending if matches!(gate.phase, Phase::Through { .. }) => break,
            Poll::Pending if current.is_empty() => break,
            Poll::Pending => {
                requests.push(std::mem::take(&mut current));
                gate.write_all(ANSWER).await.unwrap();
                gate.flush().await.unwrap();
            }
        }
    }
    // The gate's own answers are its refusals (4xx, 5xx) and `100 Continue`.
    let written = &gate.io.written;
    let answered = written.windows(10).any(|w| w == b"HTTP/1.1 4" || w == b"HTTP/1.1 5");
    let refused = answered || matches!(gate.phase, Phase::Through { .. });
    Released { requests, refused }
}

/// How a generated request frames its body.
#[derive(Debug, Clone)]
enum Body {
    None,
    Length(Vec<u8>),
    /// The chunks, each with its size line's extension (and the size's hex in lowercase or
    /// not), and the trailer lines.
    Chunked(Vec<(Vec<u8>, &'static str, bool)>, Vec<String>),
}

#[derive(Debug, Clone)]
struct Request {
    /// Empty lines before the request line, which RFC 9112 lets a server skip.
    blank: &'static str,
    method: &'static str,
    target: &'static str,
    body: Body,
    expect_continue: bool,
}

impl Request {
    fn bytes(&self) -> Vec<u8> {
        let mut out =
            format!("{}{} {} HTTP/1.1\r\nHost: a\r\n", self.blank, self.method, self.target).into_bytes();
        if self.expect_continue {
            out.extend_from_slice(b"Expect: 100-continue\r\n");
        }
        match &self.body {
            Body::None => out.extend_from_slice(b"\r\n"),
            Body::Length(body) => {
                out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
                out.extend_from_slice(body);
            }
            Body::Chunked(chunks, trailers) => {
                out.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
                for (chunk, extension, lowercase) in chunks {
                    let size =
                        if *lowercase { format!("{:x}", chunk.len()) } else { format!("{:X}", chunk.len()) };
                    out.extend_from_slice(format!("{size}{extension}\r\n").as_bytes());
                    out.extend_from_slice(chunk);
                    out.extend_from_slice(b"\r\n");
                }
                out.extend_from_slice(b"0\r\n");
                for trailer in trailers {
                    out.extend_from_slice(format!("{trailer}\r\n").as_bytes());
                }
                out.extend_from_slice(b"\r\n");
            }
        }
        out
    }
}

fn data() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..40)
}

fn request() -> impl Strategy<Value = Request> {
    let body = prop_oneof![
        Just(Body::None),
        data().prop_map(Body::Length),
        (
            prop::collection::vec(
                (
                    prop::collection::vec(any::<u8>(), 1..30),
                    prop::sample::select(vec!["", ";name=\"value\"", ";ext", " ;ext", ";a=b;c"]),
                    any::<bool>(),
                ),
                0..4
            ),
            prop::collection::vec(
                prop_oneof![Just("X-Sum: 1".to_owned()), Just("X-Tail: a b".to_owned())],
                0..2
            ),
        )
            .prop_map(|(chunks, trailers)| Body::Chunked(chunks, trailers)),
    ];
    (
        prop::sample::select(vec!["", "", "\r\n", "\n", "\r\n\r\n"]),
        prop::sample::select(vec!["GET", "POST", "PUT", "DELETE"]),
        prop::sample::select(vec!["/", "/mcp", "/v1/charges?x=1", "/v1/charges/chg_1"]),
        body,
        any::<bool>(),
    )
        .prop_map(|(blank, method, target, body, expect_continue)| Request {
            blank,
            method,
            target,
            body,
            expect_continue,
        })
}

/// Ways a client's bytes go wrong, by accident or on purpose: each replaces one piece of text
/// of the stream (the first match after a generated offset) or cuts and inserts bytes.
fn damage() -> impl Strategy<Value = (usize, &'static str, &'static str)> {
    let replacements = prop::sample::select(vec![
        // Chunk sizes hyper and a careless parser read differently.
        ("\r\n0\r\n", "\r\n-0\r\n"),
        ("\r\n0\r\n", "\r\n00000000000000000\r\n"),
        ("\r\n0\r\n", "\r\n0 \r\n"),
        ("\r\n0\r\n", "\r\n0\t\r\n"),
        ("\r\n0\r\n", "\r\n0;\r\n"),
        ("\r\n0\r\n", "\r\n0x0\r\n"),
        ("\r\n0\r\n", "\r\nffffffffffffffffff\r\n"),
        ("\r\n0\r\n", "\r\n0\n"),
        ("\r\n1", "\r\n+1"),
        ("\r\n1", "\r\n 1"),
        ("\r\n1", "\r\n01"),
        ("\r\n2", "\r\n3"),
        ("\r\n3", "\r\n2"),
        ("\r\n\r\n", "\r\n\n"),
        ("\r\n\r\n", "\n\n"),
        // Framing headers.
        ("Content-Length: ", "Content-Length: +"),
        ("Content-Length: ", "Content-Length:  "),
        ("Content-Length: ", "Content-Length: 1, "),
        ("Content-Length: ", "Content-Length: 99999999999999999999"),
        ("Content-Length: ", "Content-Length: 4000000\r\nX: "),
        ("Content-Length: ", "Transfer-Encoding: chunked\r\nContent-Length: "),
        ("Content-Length: ", "Content-Length: 3\r\nContent-Length: "),
        ("Transfer-Encoding: chunked", "Transfer-Encoding: gzip, chunked"),
        ("Transfer-Encoding: chunked", "Transfer-Encoding: chunked, chunked"),
        ("Transfer-Encoding: chunked", "Transfer-Encoding: Chunked"),
        ("Transfer-Encoding: chunked", "Transfer-Encoding:\tchunked"),
        ("Transfer-Encoding: chunked", "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked"),
        ("Transfer-Encoding: chunked", "Transfer-Encoding : chunked"),
        ("Transfer-Encoding: chunked", "Transfer-Encoding: chunked\r\n folded"),
        ("HTTP/1.1\r\n", "HTTP/1.0\r\n"),
        ("HTTP/1.1\r\n", "HTTP/1.1\n"),
        ("Host: a\r\n", "Host: a\r\nContent-Length: 2\r\n"),
        ("Host: a\r\n", "\r\nHost: a\r\n"),
        ("Expect: 100-continue", "Expect: 100-continue\r\nExpect: 100-continue"),
        (" HTTP", "  HTTP"),
    ]);
    (any::<usize>(), replacements).prop_map(|(at, (from, to))| (at, from, to))
}

fn damaged(mut stream: Vec<u8>, (at, from, to): (usize, &str, &str)) -> Vec<u8> {
    let start = at % (stream.len() + 1);
    let found = stream[start..].windows(from.len()).position(|w| w == from.as_bytes());
    if let Some(found) = found {
        let at = start + found;
        stream.splice(at..at + from.len(), to.bytes());
    }
    stream
}

/// The stream cut into pieces at the given offsets, as the network may deliver it.
fn cut(stream: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let mut at: Vec<usize> = cuts.iter().map(|c| c % (stream.len() + 1)).collect();
    at.extend([0, stream.len()]);
    at.sort_unstable();
    at.dedup();
    at.windows(2).map(|w| stream[w[0]..w[1]].to_vec()).collect()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// The whole property, for one stream delivered in `pieces`; what the gate did with it.
async fn agree(stream: Vec<u8>, pieces: Vec<Vec<u8>>) -> Result<Released, TestCaseError> {
    let released = gate_releases(pieces).await;
    let mut through_gate = Vec::new();
    for request in &released.requests {
        let (mut seen, end) = hyper_reads([&request[..], SENTINEL].concat()).await;
        let sentinel = seen.pop_if(|last| last.target == "/sentinel");
        prop_assert!(
            seen.len() == 1 && (sentinel.is_some() && end != End::Refused || end == End::Closed),
            "the gate released what hyper does not read as one whole request: {:?} ({seen:?}, {end:?})",
            String::from_utf8_lossy(request)
        );
        through_gate.extend(seen);
    }
    let (alone, end) = hyper_reads(stream).await;
    if end == End::Closed {
        // Hyper closed the connection: what the gate released after it never reaches hyper.
        through_gate.truncate(alone.len());
    }
    prop_assert!(
        alone.starts_with(&through_gate),
        "hyper reads other requests from the stream: gate {through_gate:?}, hyper {alone:?}"
    );
    if !released.refused {
        prop_assert_eq!(through_gate.len(), alone.len(), "hyper reads a request the gate held back");
    }
    Ok(released)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn the_gate_releases_exactly_the_requests_hyper_reads(
        requests in prop::collection::vec(request(), 1..4),
        cuts in prop::collection::vec(any::<usize>(), 0..6),
    ) {
        let stream: Vec<u8> = requests.iter().flat_map(Request::bytes).collect();
        let pieces = cut(&stream, &cuts);
        let released = runtime().block_on(agree(stream, pieces))?;
        // Well-formed requests, as clients send them, are all released.
        prop_assert!(!released.refused, "the gate refused a well-formed stream");
        prop_assert_eq!(released.requests.len(), requests.len());
    }

    #[test]
    fn a_damaged_stream_is_framed_as_hyper_frames_it_or_refused(
        requests in prop::collection::vec(request(), 1..4),
        damages in prop::collection::vec(damage(), 1..3),
        bytes in prop::collection::vec((any::<usize>(), any::<u8>()), 0..2),
        cuts in prop::collection::vec(any::<usize>(), 0..4),
    ) {
        let mut stream: Vec<u8> = requests.iter().flat_map(Request::bytes).collect();
        for damage in damages {
            stream = damaged(stream, damage);
        }
        for (at, byte) in bytes {
            let at = at % stream.len();
            stream[at] = byte;
        }
        let pieces = cut(&stream, &cuts);
        runtime().block_on(agree(stream, pieces))?;
    }
}

/// The forms the gate refuses, and the valid forms next to them it releases, one by one.
#[test]
fn each_framing_is_released_or_refused_as_hyper_reads_it() {
    const HEAD: &str = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
    let cases: &[(&str, &[u8], bool)] = &[
        ("empty lines first", b"\r\n\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", true),
        ("a CR first, without its LF", b"\rGET / HTTP/1.1\r\nHost: a\r\n\r\n", false),
        ("a head line ended by a bare LF", b"GET / HTTP/1.1\r\nHost: a\n\r\n", false),
        ("lowercase hex and extensions", b"a;x=\"y\"\r\n0123456789\r\n1 ;e\r\nz\r\n0\r\n\r\n", true),
        ("a LF inside an extension", b"1;a\nb\r\nx\r\n0\r\n\r\n", false),
        ("trailers", b"1\r\nx\r\n0\r\nX-Sum: 1\r\nX-Tail: a b\r\n\r\n", true),
        ("a trailer that is not a field", b"1\r\nx\r\n0\r\n\0\0\r\n\r\n", false),
        ("trailers split by a bare LF", b"1\r\nx\r\n0\r\nA: 1\nB: 2\r\n\r\n", false),
    ];
    for (name, bytes, released) in cases {
        let stream = if bytes.starts_with(b"\r") || bytes.starts_with(b"\n") || bytes.starts_with(b"GET") {
            bytes.to_vec()
        } else {
            [HEAD.as_bytes(), bytes].concat()
        };
        let outcome = runtime().block_on(agree(stream.clone(), vec![stream]));
        let gate = outcome.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(gate.requests.len() == 1 && !gate.refused, *released, "{name}: {gate:?}");
    }
}
