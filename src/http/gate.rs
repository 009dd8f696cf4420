//! The gate every connection's bytes pass through before hyper sees them.
//!
//! It reads each request's head and body itself, with deadlines, and releases the request to
//! hyper only once it is complete. So a slow or stalled client costs a connection, never one of
//! the request slots the application sheds load with, and the answers hyper would write by
//! itself (400, 414, 431) are written here instead, with a request id and `Cache-Control`.
//!
//! Per request: the head must arrive within the header deadline and fit the size limits, and a
//! body declared up to the body cap must arrive within the body deadline. A body declared over
//! the cap is passed through unbuffered, so the application refuses it at once from its
//! `Content-Length`. Between requests, a keep-alive connection may stay idle for the idle
//! timeout. Chunked bodies are buffered the same way, chunk by chunk. Only HTTP/1.1 is spoken:
//! an HTTP/2 preface is refused, and so is a request framed both ways (a smuggling attempt).

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use std::task::ready;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

use super::refusal::{Refusal, refusal_bytes};

/// The limits the gate enforces on one connection.
#[derive(Debug, Clone)]
pub struct GateLimits {
    /// From a head's first byte (or the connection's start) to its end.
    pub header_timeout: Duration,
    /// From the end of a head to the end of its body.
    pub body_timeout: Duration,
    /// Between the end of an answer and the next request's first byte.
    pub idle_timeout: Duration,
    /// The largest body buffered; a larger declared one is passed through for the app to refuse.
    pub max_body: usize,
    /// The longest request line (method, target, version).
    pub max_request_line: usize,
    /// The largest head (request line and headers).
    pub max_head: usize,
}

/// The most headers one request may carry.
const MAX_HEADERS: usize = 100;
/// The HTTP/2 connection preface starts with this.
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0";
const CONTINUE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";

enum Phase {
    /// Waiting for (the rest of) a request head.
    Head,
    /// The head is in; waiting until `total` bytes (head and body) are pending.
    Body { total: usize },
    /// A chunked body: the next chunk-size line starts at `cursor`; `decoded` bytes so far.
    Chunked { cursor: usize, decoded: usize },
    /// Passing `remaining` bytes of a body over the cap through unbuffered.
    Through { remaining: usize },
    /// Passing everything through until the body deadline (a chunked body over the cap, whose
    /// end we no longer track): the application refuses it and the connection ends.
    Raw,
    /// Writing bytes of our own (an answer, or `100 Continue`), then going on with `then`.
    Writing { bytes: Vec<u8>, written: usize, then: Box<Phase> },
    /// The connection reads nothing more.
    Closed,
}

/// Why a deadline is armed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Deadline {
    /// Between requests: ends the connection quietly.
    Idle,
    /// A head or a body that did not arrive in time: answered 408.
    Late,
}

/// An IO stream whose read side releases whole requests only.
pub struct Gate<S> {
    io: S,
    limits: Arc<GateLimits>,
    phase: Phase,
    /// Read from the socket, not yet released.
    pending: Vec<u8>,
    /// Released to hyper, not yet read by it.
    ready: Vec<u8>,
    ready_at: usize,
    /// When the current head started (its first byte; the connection's start for the first).
    head_started: Instant,
    /// When the current head ended (the body deadline counts from here).
    head_ended: Instant,
    /// An answer is owed for a released request: no deadline, and no new head is parsed, so
    /// our own answers never interleave with hyper's.
    owed: bool,
    /// When hyper last wrote (the idle deadline counts from here); `None` before the first answer.
    last_write: Option<Instant>,
    /// Hyper wrote since its last flush.
    wrote: bool,
    timer: Option<(Instant, Pin<Box<Sleep>>)>,
    read_waker: Option<Waker>,
    /// The end of the lingering close, once it started.
    linger_until: Option<Instant>,
    linger_timer: Option<Pin<Box<Sleep>>>,
}

impl<S> Gate<S> {
    /// A gate over a freshly accepted connection.
    pub fn new(io: S, limits: Arc<GateLimits>) -> Self {
        let now = Instant::now();
        Self {
            io,
            limits,
            phase: Phase::Head,
            pending: Vec::new(),
            ready: Vec::new(),
            ready_at: 0,
            head_started: now,
            head_ended: now,
            owed: false,
            last_write: None,
            wrote: false,
            timer: None,
            read_waker: None,
            linger_until: None,
            linger_timer: None,
        }
    }

    /// The deadline that applies now, if any.
    fn deadline(&self) -> Option<(Instant, Deadline)> {
        match self.phase {
            Phase::Head if self.owed => None,
            Phase::Head if self.pending.is_empty() => match self.last_write {
                // A new connection must start its first request within the header deadline.
                None => Some((self.head_started + self.limits.header_timeout, Deadline::Idle)),
                Some(at) => Some((at + self.limits.idle_timeout, Deadline::Idle)),
            },
            Phase::Head => Some((self.head_started + self.limits.header_timeout, Deadline::Late)),
            Phase::Body { .. } | Phase::Chunked { .. } | Phase::Through { .. } | Phase::Raw => {
                Some((self.head_ended + self.limits.body_timeout, Deadline::Late))
            }
            Phase::Writing { .. } | Phase::Closed => None,
        }
    }

    /// Whether the deadline has passed (arming the timer when it has not).
    fn expired(&mut self, cx: &mut Context<'_>) -> Option<Deadline> {
        let (at, kind) = self.deadline()?;
        match &mut self.timer {
            Some((armed, sleep)) if *armed == at => {
                if sleep.as_mut().poll(cx).is_ready() {
                    return Some(kind);
                }
            }
            _ => {
                let mut sleep = Box::pin(tokio::time::sleep_until(at));
                let ready = sleep.as_mut().poll(cx).is_ready();
                self.timer = Some((at, sleep));
                if ready {
                    return Some(kind);
                }
            }
        }
        None
    }

    fn refuse(&mut self, refusal: Refusal) {
        tracing::info!(
            status = refusal.status(),
            reason = refusal.reason(),
            "request refused by the HTTP gate"
        );
        self.pending.clear();
        self.phase =
            Phase::Writing { bytes: refusal_bytes(refusal), written: 0, then: Box::new(Phase::Closed) };
    }

    /// Releases the first `len` pending bytes (a whole request, or a head) to hyper.
    fn release(&mut self, len: usize) {
        self.ready.extend(self.pending.drain(..len));
        self.owed = true;
        self.head_started = Instant::now();
    }

    /// Moves on with what is pending: releases a request, refuses one, or asks for more bytes.
    fn advance(&mut self) {
        if let Phase::Body { total } = self.phase {
            if self.pending.len() >= total {
                self.release(total);
                self.phase = Phase::Head;
            }
            return;
        }
        if let Phase::Chunked { cursor, decoded } = self.phase {
            return self.advance_chunked(cursor, decoded);
        }
        if !matches!(self.phase, Phase::Head) || self.owed || self.pending.is_empty() {
            return;
        }
        let prefix = &self.pending[..self.pending.len().min(H2_PREFACE.len())];
        if H2_PREFACE.starts_with(prefix) {
            if prefix.len() == H2_PREFACE.len() {
                self.refuse(Refusal::Http2);
            }
            return;
        }
        let line_end = find(&self.pending, b"\r\n");
        if line_end.unwrap_or(self.pending.len()) > self.limits.max_request_line {
            return self.refuse(Refusal::LineTooLong);
        }
        let Some(end) = find(&self.pending, b"\r\n\r\n") else {
            if self.pending.len() > self.limits.max_head {
                self.refuse(Refusal::HeadTooLarge);
            }
            return;
        };
        let head_len = end + 4;
        if head_len > self.limits.max_head {
            return self.refuse(Refusal::HeadTooLarge);
        }
        let framing = match framing(&self.pending[..head_len]) {
            Ok(f) => f,
            Err(refusal) => return self.refuse(refusal),
        };
        self.head_ended = Instant::now();
        let head_len = match &framing.expect_continue {
            // We answer `100 Continue` ourselves (the body is read before hyper sees the head),
            // so hyper must not see the expectation and send a second one.
            Some(range)
                if framing.chunked || (framing.length > 0 && framing.length <= self.limits.max_body) =>
            {
                self.pending.drain(range.clone());
                head_len - range.len()
            }
            _ => head_len,
        };
        if framing.chunked {
            let body = Phase::Chunked { cursor: head_len, decoded: 0 };
            self.phase = if framing.expect_continue.is_some() && self.pending.len() == head_len {
                Phase::Writing { bytes: CONTINUE.to_vec(), written: 0, then: Box::new(body) }
            } else {
                body
            };
            return self.advance();
        }
        if framing.length > self.limits.max_body {
            self.release(head_len);
            self.phase = Phase::Through { remaining: framing.length };
        } else if framing.length == 0 {
            self.release(head_len);
        } else {
            let body = Phase::Body { total: head_len + framing.length };
            self.phase =
                if framing.expect_continue.is_some() && self.pending.len() < head_len + framing.length {
                    Phase::Writing { bytes: CONTINUE.to_vec(), written: 0, then: Box::new(body) }
                } else {
                    body
                };
            self.advance();
        }
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> Gate<S> {
    /// Writes our own bytes; `Ready` once all are written.
    fn poll_own_write(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        loop {
            let Phase::Writing { bytes, written, .. } = &mut self.phase else {
                return Poll::Ready(Ok(()));
            };
            if *written == bytes.len() {
                ready!(Pin::new(&mut self.io).poll_flush(cx))?;
                let Phase::Writing { then, .. } = std::mem::replace(&mut self.phase, Phase::Closed) else {
                    unreachable!("matched above");
                };
                self.phase = *then;
                return Poll::Ready(Ok(()));
            }
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
    }
}

/// How long, and how much, a body the application refused unread is still read and dropped
/// before the connection closes: a client still sending it then reads the answer rather than a
/// reset (the "lingering close" of RFC 9112 section 9.6).
const LINGER_FOR: Duration = Duration::from_secs(2);
const LINGER_BYTES: usize = 8 * 1024 * 1024;

impl<S: AsyncRead + AsyncWrite + Unpin> Gate<S> {
    /// Before closing in the middle of a body, reads and drops what the client still sends.
    fn poll_linger(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let unread = match self.phase {
            Phase::Through { remaining } => remaining,
            Phase::Raw => LINGER_BYTES,
            _ => return Poll::Ready(Ok(())),
        };
        ready!(Pin::new(&mut self.io).poll_flush(cx))?;
        let until = *self.linger_until.get_or_insert_with(|| Instant::now() + LINGER_FOR);
        let mut budget = unread.min(LINGER_BYTES).saturating_sub(self.pending.len());
        self.pending.clear();
        while budget > 0 {
            if let Some(sleep) = self.linger_timer.as_mut() {
                if sleep.as_mut().poll(cx).is_ready() {
                    break;
                }
            } else {
                let mut sleep = Box::pin(tokio::time::sleep_until(until));
                let done = sleep.as_mut().poll(cx).is_ready();
                self.linger_timer = Some(sleep);
                if done {
                    break;
                }
            }
            let mut chunk = [0u8; 8192];
            let mut chunk_buf = ReadBuf::new(&mut chunk);
            match Pin::new(&mut self.io).poll_read(cx, &mut chunk_buf) {
                Poll::Ready(Ok(())) if chunk_buf.filled().is_empty() => break,
                Poll::Ready(Ok(())) => budget = budget.saturating_sub(chunk_buf.filled().len()),
                Poll::Ready(Err(_)) => break,
                Poll::Pending => {
                    self.phase = match self.phase {
                        Phase::Through { .. } => Phase::Through { remaining: budget },
                        _ => Phase::Raw,
                    };
                    return Poll::Pending;
                }
            }
        }
        self.phase = Phase::Closed;
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for Gate<S> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.ready_at < this.ready.len() {
                let n = buf.remaining().min(this.ready.len() - this.ready_at);
                buf.put_slice(&this.ready[this.ready_at..this.ready_at + n]);
                this.ready_at += n;
                if this.ready_at == this.ready.len() {
                    this.ready.clear();
                    this.ready_at = 0;
                }
                return Poll::Ready(Ok(()));
            }
            match &mut this.phase {
                Phase::Closed => return Poll::Ready(Ok(())),
                Phase::Writing { .. } => {
                    ready!(this.poll_own_write(cx))?;
                    continue;
                }
                Phase::Through { remaining } if *remaining == 0 => {
                    this.phase = Phase::Head;
                    continue;
                }
                Phase::Raw if !this.pending.is_empty() => {
                    let n = this.pending.len().min(buf.remaining());
                    buf.put_slice(&this.pending[..n]);
                    this.pending.drain(..n);
                    return Poll::Ready(Ok(()));
                }
                Phase::Through { remaining } if !this.pending.is_empty() => {
                    let n = (*remaining).min(this.pending.len()).min(buf.remaining());
                    buf.put_slice(&this.pending[..n]);
                    this.pending.drain(..n);
                    *remaining -= n;
                    return Poll::Ready(Ok(()));
                }
                Phase::Head
                | Phase::Body { .. }
                | Phase::Chunked { .. }
                | Phase::Through { .. }
                | Phase::Raw => {}
            }
            this.advance();
            if this.ready_at < this.ready.len() || matches!(this.phase, Phase::Writing { .. }) {
                continue;
            }
            match this.expired(cx) {
                Some(Deadline::Idle) => {
                    this.phase = Phase::Closed;
                    continue;
                }
                // A body passed through is the application's to answer: just stop reading.
                Some(Deadline::Late) if matches!(this.phase, Phase::Through { .. } | Phase::Raw) => {
                    this.phase = Phase::Closed;
                    continue;
                }
                Some(Deadline::Late) => {
                    this.refuse(Refusal::TooSlow);
                    continue;
                }
                None => {}
            }
            // Bounded: while an answer is owed, pipelined bytes wait up to one head's worth.
            if this.owed && this.pending.len() >= this.limits.max_head {
                this.read_waker = Some(cx.waker().clone());
                return Poll::Pending;
            }
            let mut chunk = [0u8; 8192];
            let mut chunk_buf = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.io).poll_read(cx, &mut chunk_buf) {
                Poll::Ready(Ok(())) => {
                    let read = chunk_buf.filled();
                    if read.is_empty() {
                        // The peer closed: whatever is pending is not a request.
                        this.pending.clear();
                        this.phase = Phase::Closed;
                        continue;
                    }
                    if this.pending.is_empty() && matches!(this.phase, Phase::Head) && !this.owed {
                        this.head_started = Instant::now();
                    }
                    this.pending.extend_from_slice(read);
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => {
                    this.read_waker = Some(cx.waker().clone());
                    return Poll::Pending;
                }
            }
        }
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for Gate<S> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let n = ready!(Pin::new(&mut this.io).poll_write(cx, data))?;
        if n > 0 {
            this.wrote = true;
            this.last_write = Some(Instant::now());
        }
        Poll::Ready(Ok(n))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(Pin::new(&mut this.io).poll_flush(cx))?;
        if std::mem::take(&mut this.wrote) {
            // An answer went out whole: the idle deadline starts, and a pipelined head may be read.
            this.owed = false;
            this.last_write = Some(Instant::now());
            if let Some(waker) = this.read_waker.take() {
                waker.wake();
            }
        }
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_linger(cx))?;
        Pin::new(&mut this.io).poll_shutdown(cx)
    }
}

impl<S> Gate<S> {
    /// Reads chunk framing from `cursor`: releases the request once its last chunk and trailers
    /// are in, passes it on unbuffered once it grows over the cap, refuses broken framing.
    fn advance_chunked(&mut self, mut cursor: usize, mut decoded: usize) {
        const MAX_SIZE_LINE: usize = 1024;
        loop {
            let Some(line) = find(&self.pending[cursor..], b"\r\n") else {
                if self.pending.len() - cursor > MAX_SIZE_LINE {
                    return self.refuse(Refusal::Malformed);
                }
                break;
            };
            let size_text = &self.pending[cursor..cursor + line];
            let size_text = size_text.split(|b| *b == b';').next().unwrap_or_default();
            let Some(size) = std::str::from_utf8(size_text)
                .ok()
                .map(str::trim)
                .filter(|t| !t.is_empty() && t.len() <= 8)
                .and_then(|t| usize::from_str_radix(t, 16).ok())
            else {
                return self.refuse(Refusal::Malformed);
            };
            if size == 0 {
                // The last chunk: trailers, if any, end with an empty line.
                let Some(end) = find(&self.pending[cursor + line..], b"\r\n\r\n") else {
                    if self.pending.len() - cursor > self.limits.max_head {
                        return self.refuse(Refusal::HeadTooLarge);
                    }
                    break;
                };
                self.release(cursor + line + end + 4);
                self.phase = Phase::Head;
                return;
            }
            decoded = decoded.saturating_add(size);
            if decoded > self.limits.max_body {
                // Too large to buffer: the application reads it and refuses it at the cap.
                let len = self.pending.len();
                self.release(len);
                self.phase = Phase::Raw;
                return;
            }
            let data = cursor + line + 2;
            if self.pending.len() < data + size + 2 {
                break;
            }
            if &self.pending[data + size..data + size + 2] != b"\r\n" {
                return self.refuse(Refusal::Malformed);
            }
            cursor = data + size + 2;
        }
        self.phase = Phase::Chunked { cursor, decoded };
    }
}

/// How a request's body is framed.
struct Framing {
    /// Whether the body is chunked (`Transfer-Encoding: chunked`).
    chunked: bool,
    /// The declared body length.
    length: usize,
    /// The byte range of an `Expect: 100-continue` header line, to remove.
    expect_continue: Option<std::ops::Range<usize>>,
}

/// Reads the framing of a complete head, or the refusal it deserves.
fn framing(head: &[u8]) -> Result<Framing, Refusal> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err(Refusal::Malformed),
        Err(httparse::Error::TooManyHeaders) => return Err(Refusal::HeadTooLarge),
        Err(_) => return Err(Refusal::Malformed),
    }
    // What hyper would refuse with an answer of its own must be refused here, with ours.
    let target = request.path.ok_or(Refusal::Malformed)?;
    if poem::http::Uri::try_from(target).is_err() {
        return Err(Refusal::Malformed);
    }
    for header in request.headers.iter() {
        if poem::http::HeaderName::from_bytes(header.name.as_bytes()).is_err()
            || poem::http::HeaderValue::from_bytes(header.value).is_err()
        {
            return Err(Refusal::Malformed);
        }
    }
    let mut length: Option<usize> = None;
    let mut chunked = false;
    let mut expect_continue = None;
    for header in request.headers.iter() {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            // Only chunked, once: anything else is how requests get smuggled past a proxy.
            if chunked || !header.value.eq_ignore_ascii_case(b"chunked") {
                return Err(Refusal::Malformed);
            }
            chunked = true;
        }
        if header.name.eq_ignore_ascii_case("content-length") {
            let text = std::str::from_utf8(header.value).map_err(|_| Refusal::Malformed)?.trim();
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(Refusal::Malformed);
            }
            // A number too large for memory is larger than any cap.
            let value = text.parse::<usize>().unwrap_or(usize::MAX);
            if length.is_some_and(|l| l != value) {
                return Err(Refusal::Malformed);
            }
            length = Some(value);
        }
        if header.name.eq_ignore_ascii_case("expect") {
            if !header.value.eq_ignore_ascii_case(b"100-continue") {
                return Err(Refusal::Malformed);
            }
            expect_continue = Some(line_range(head, header.name));
        }
    }
    // Both framings at once is the classic smuggling vector (RFC 9112 section 6.3).
    if chunked && length.is_some() {
        return Err(Refusal::Malformed);
    }
    Ok(Framing { chunked, length: length.unwrap_or(0), expect_continue })
}

/// The range of the whole header line (`Name: value\r\n`) whose name starts at `name` in `head`.
fn line_range(head: &[u8], name: &str) -> std::ops::Range<usize> {
    let start = name.as_ptr() as usize - head.as_ptr() as usize;
    let end = find(&head[start..], b"\r\n").map_or(head.len(), |i| start + i + 2);
    start..end
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(head: &str) -> Result<(bool, usize), Refusal> {
        framing(head.as_bytes()).map(|f| (f.chunked, f.length))
    }

    #[test]
    fn framing_is_read_or_refused() {
        assert_eq!(framed("GET / HTTP/1.1\r\nHost: a\r\n\r\n"), Ok((false, 0)));
        assert_eq!(framed("POST / HTTP/1.1\r\nContent-Length: 12\r\n\r\n"), Ok((false, 12)));
        assert_eq!(framed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"), Ok((true, 0)));
        let refused = [
            "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n",
            "POST / HTTP/1.1\r\nExpect: something-else\r\n\r\n",
            "GET http://[::1/ HTTP/1.1\r\n\r\n",
            "NOT HTTP\r\n\r\n",
        ];
        for head in refused {
            assert_eq!(framed(head), Err(Refusal::Malformed), "{head:?}");
        }
        let many: String = (0..MAX_HEADERS + 1).map(|i| format!("X-{i}: v\r\n")).collect();
        assert_eq!(framed(&format!("GET / HTTP/1.1\r\n{many}\r\n")), Err(Refusal::HeadTooLarge));
        // A huge declared length is larger than any cap, not an error.
        assert_eq!(
            framed("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n"),
            Ok((false, usize::MAX))
        );
    }

    #[test]
    fn the_expect_line_is_found_whole() {
        let head = b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n";
        let range = framing(head).unwrap().expect_continue.unwrap();
        assert_eq!(&head[range], b"Expect: 100-continue\r\n");
    }
}
