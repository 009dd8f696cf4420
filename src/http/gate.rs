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
//!
//! # What hyper's own builder cannot give
//!
//! `hyper::server::conn::http1::Builder` offers a deadline for a request's head
//! (`header_read_timeout`), a cap on its read buffer (`max_buf_size`, which bounds the head only
//! loosely) and a header count (`max_headers`). Everything else here it has no setting for:
//! - a body deadline: hyper hands the body to the application as it arrives, so a client that
//!   sends a head and then one byte a minute holds a request slot for as long as it likes;
//! - whole requests before the application: the load shedding counts requests in the app, and
//!   only a request that is complete can be counted without letting slow clients starve others;
//! - one budget of buffered bytes across all connections (503 past it), and a write deadline
//!   for a client that never reads its answer;
//! - an idle limit between keep-alive requests apart from the head's deadline, and a
//!   request-line limit apart from the head's (414 before 431);
//! - refusals that carry the request id and `Cache-Control` like every other answer, in
//!   JSON-RPC on the MCP endpoint; hyper writes a bare status line.
//!
//! Hyper keeps doing the framing it is given: the gate releases exactly one whole request at a
//! time, and `gate/against_hyper.rs` checks that it refuses first what hyper would refuse.

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
    /// How long an answer may wait for the client to read it.
    pub write_timeout: Duration,
    /// Bytes all connections together may hold in their buffers; past it a request is refused
    /// with 503, so many large bodies arriving at once cannot exhaust memory.
    pub buffers: Arc<BufferBudget>,
}

/// A budget of buffered bytes shared by every connection of a listener.
#[derive(Debug)]
pub struct BufferBudget {
    limit: usize,
    used: std::sync::atomic::AtomicUsize,
}

impl BufferBudget {
    /// A budget of `limit` bytes.
    pub fn new(limit: usize) -> Self {
        Self { limit, used: std::sync::atomic::AtomicUsize::new(0) }
    }

    fn reserve(&self, n: usize) -> bool {
        use std::sync::atomic::Ordering;
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(n).filter(|total| *total <= self.limit)
            })
            .is_ok()
    }

    fn give_back(&self, n: usize) {
        self.used.fetch_sub(n, std::sync::atomic::Ordering::AcqRel);
    }
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
    /// A chunked body starting at `start`: the next chunk-size line starts at `cursor`;
    /// `decoded` bytes of data so far.
    Chunked { start: usize, cursor: usize, decoded: usize },
    /// Passing `remaining` bytes of a body over the cap through unbuffered.
    Through { remaining: usize },
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
    /// Bytes still to read and drop before closing (a refused or unread body).
    linger: usize,
    /// The end of the lingering close, once it started.
    linger_until: Option<Instant>,
    linger_timer: Option<Pin<Box<Sleep>>>,
    /// Armed while a write waits for the client to read.
    write_timer: Option<Pin<Box<Sleep>>>,
    /// Bytes this connection holds of the shared budget.
    held: usize,
    /// Whether the current request is to the MCP endpoint (its refusals speak JSON-RPC).
    to_mcp: bool,
}

/// Answers up to this size are copied into one buffer and written with `send(2)`: the kernel's
/// `writev` path (importing the vector, locking the file position) cost more per request than
/// copying a kilobyte. Larger answers, such as `tools/list`, go out vectored. The
/// buffer lives for one write only, so idle connections hold nothing for it.
const GATHER_UP_TO: usize = 4 * 1024;

impl<S> Drop for Gate<S> {
    fn drop(&mut self) {
        self.limits.buffers.give_back(self.held);
    }
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
            linger: 0,
            linger_until: None,
            linger_timer: None,
            write_timer: None,
            held: 0,
            to_mcp: false,
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
            Phase::Body { .. } | Phase::Chunked { .. } | Phase::Through { .. } => {
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
        self.pending = Vec::new();
        self.rebalance();
        // What the client still sends is read and dropped, so it reads this answer, not a reset.
        self.linger = LINGER_BYTES;
        self.phase = Phase::Writing {
            bytes: refusal_bytes(refusal, self.to_mcp),
            written: 0,
            then: Box::new(Phase::Closed),
        };
    }

    /// Holds exactly the bytes buffered of the shared budget; false when the budget is spent.
    fn rebalance(&mut self) -> bool {
        let buffered = self.pending.len() + self.ready.len() - self.ready_at;
        if buffered > self.held {
            if !self.limits.buffers.reserve(buffered - self.held) {
                return false;
            }
        } else {
            self.limits.buffers.give_back(self.held - buffered);
        }
        self.held = buffered;
        true
    }

    /// Releases the first `len` pending bytes (a whole request, or a head) to hyper.
    fn release(&mut self, len: usize) {
        // Hand the buffer over rather than copy it; keep only what follows (pipelined bytes).
        let rest = self.pending.split_off(len);
        let released = std::mem::replace(&mut self.pending, rest);
        if self.ready_at >= self.ready.len() {
            self.ready = released;
            self.ready_at = 0;
        } else {
            self.ready.extend_from_slice(&released);
        }
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
        if let Phase::Chunked { start, cursor, decoded } = self.phase {
            return self.advance_chunked(start, cursor, decoded);
        }
        if !matches!(self.phase, Phase::Head) || self.owed || self.pending.is_empty() {
            return;
        }
        // Empty lines before a request line are allowed (RFC 9112 section 2.2): skip them.
        let Some(blank) = empty_lines(&self.pending) else {
            return self.refuse(Refusal::Malformed);
        };
        if blank > 0 {
            self.pending.drain(..blank);
            if self.pending.is_empty() {
                return;
            }
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
        let end = find(&self.pending, b"\r\n\r\n");
        // httparse, and so hyper, also ends a line at a bare LF, and would find a head's end
        // where this finds none: such a head is refused rather than framed two ways.
        if has_bare_lf(&self.pending[..end.map_or(self.pending.len(), |end| end + 4)]) {
            return self.refuse(Refusal::Malformed);
        }
        let Some(end) = end else {
            if self.pending.len() > self.limits.max_head {
                self.refuse(Refusal::HeadTooLarge);
            }
            return;
        };
        let head_len = end + 4;
        if head_len > self.limits.max_head {
            return self.refuse(Refusal::HeadTooLarge);
        }
        // The narrower MCP paths (`/mcp/x/charges`, `/mcp/readonly`) are the MCP endpoint too.
        self.to_mcp = matches!(request_target(&self.pending),
            Some(target) if target == b"/mcp" || target == b"/" || target.starts_with(b"/mcp/"));
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
            let body = Phase::Chunked { start: head_len, cursor: head_len, decoded: 0 };
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
            _ => self.linger,
        };
        if unread == 0 {
            return Poll::Ready(Ok(()));
        }
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
            // Uninitialised: zeroing 8 KiB on every poll (a Pending one included) was a fifth of
            // the instructions of a small request (callgrind, docs/PERFORMANCE.md).
            let mut chunk = [std::mem::MaybeUninit::<u8>::uninit(); 8192];
            let mut chunk_buf = ReadBuf::uninit(&mut chunk);
            match Pin::new(&mut self.io).poll_read(cx, &mut chunk_buf) {
                Poll::Ready(Ok(())) if chunk_buf.filled().is_empty() => break,
                Poll::Ready(Ok(())) => budget = budget.saturating_sub(chunk_buf.filled().len()),
                Poll::Ready(Err(_)) => break,
                Poll::Pending => {
                    self.phase = Phase::Closed;
                    self.linger = budget;
                    return Poll::Pending;
                }
            }
        }
        self.phase = Phase::Closed;
        self.linger = 0;
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
                    // Free the request's buffer rather than keep its capacity for the connection.
                    this.ready = Vec::new();
                    this.ready_at = 0;
                    this.rebalance();
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
                Phase::Through { remaining } if !this.pending.is_empty() => {
                    let n = (*remaining).min(this.pending.len()).min(buf.remaining());
                    buf.put_slice(&this.pending[..n]);
                    this.pending.drain(..n);
                    *remaining -= n;
                    this.rebalance();
                    return Poll::Ready(Ok(()));
                }
                Phase::Head | Phase::Body { .. } | Phase::Chunked { .. } | Phase::Through { .. } => {}
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
                Some(Deadline::Late) if matches!(this.phase, Phase::Through { .. }) => {
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
            // Uninitialised: zeroing 8 KiB on every poll (a Pending one included) was a fifth of
            // the instructions of a small request (callgrind, docs/PERFORMANCE.md).
            let mut chunk = [std::mem::MaybeUninit::<u8>::uninit(); 8192];
            let mut chunk_buf = ReadBuf::uninit(&mut chunk);
            match Pin::new(&mut this.io).poll_read(cx, &mut chunk_buf) {
                Poll::Ready(Ok(())) => {
                    let read = chunk_buf.filled();
                    if read.is_empty() {
                        // The peer closed: whatever is pending is not a request.
                        this.pending = Vec::new();
                        this.rebalance();
                        this.phase = Phase::Closed;
                        continue;
                    }
                    if this.pending.is_empty() && matches!(this.phase, Phase::Head) && !this.owed {
                        this.head_started = Instant::now();
                    }
                    this.pending.extend_from_slice(read);
                    if !this.rebalance() {
                        this.refuse(Refusal::Busy);
                    }
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
        let written = Pin::new(&mut this.io).poll_write(cx, data);
        this.wrote(cx, written)
    }

    // Vectored writes stay on for hyper, which would otherwise copy every answer's body into
    // its own buffer (for tools/list, 40 KB a request); small answers are gathered here.
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let total = bufs.iter().map(|buf| buf.len()).sum::<usize>();
        if bufs.len() > 1 && total <= GATHER_UP_TO {
            // Gathered again if the write is retried; hyper advances its slices by what was
            // written, which is a prefix of their concatenation either way.
            let mut gathered = Vec::with_capacity(total);
            for buf in bufs {
                gathered.extend_from_slice(buf);
            }
            let written = Pin::new(&mut this.io).poll_write(cx, &gathered);
            return this.wrote(cx, written);
        }
        let written = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.wrote(cx, written)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
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
    /// Accounts for a write: a client that does not read its answers cannot hold the connection
    /// forever (the write deadline runs while the socket takes nothing).
    fn wrote(&mut self, cx: &mut Context<'_>, written: Poll<io::Result<usize>>) -> Poll<io::Result<usize>> {
        let n = match written {
            Poll::Ready(result) => result?,
            Poll::Pending => {
                let limit = self.limits.write_timeout;
                let timer = self.write_timer.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
                if timer.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Err(io::ErrorKind::TimedOut.into()));
                }
                return Poll::Pending;
            }
        };
        self.write_timer = None;
        if n > 0 {
            self.wrote = true;
            self.last_write = Some(Instant::now());
        }
        Poll::Ready(Ok(n))
    }

    /// Reads chunk framing from `cursor`: releases the request once its last chunk and trailers
    /// are in; refuses broken framing, and a body over the cap (decoded, or as framed bytes).
    fn advance_chunked(&mut self, start: usize, mut cursor: usize, mut decoded: usize) {
        const MAX_SIZE_LINE: usize = 1024;
        /// Framing (size lines, extensions, CRLFs) allowed on top of the data itself.
        const MAX_FRAMING: usize = 64 * 1024;
        if self.pending.len() - start > self.limits.max_body + MAX_FRAMING {
            return self.refuse(Refusal::TooLarge);
        }
        loop {
            let Some(line) = find(&self.pending[cursor..], b"\r\n") else {
                if self.pending.len() - cursor > MAX_SIZE_LINE {
                    return self.refuse(Refusal::Malformed);
                }
                break;
            };
            if line > MAX_SIZE_LINE {
                return self.refuse(Refusal::Malformed);
            }
            let size_line = &self.pending[cursor..cursor + line];
            // A CR or LF inside the line (an extension's, say) ends it early for hyper.
            if size_line.iter().any(|b| matches!(b, b'\r' | b'\n')) {
                return self.refuse(Refusal::Malformed);
            }
            let digits = size_line.split(|b| *b == b';').next().unwrap_or_default();
            let digits = digits.strip_suffix(b" ").unwrap_or(digits);
            let Some(size) =
                (!digits.is_empty() && digits.len() <= 8 && digits.iter().all(u8::is_ascii_hexdigit))
                    .then(|| std::str::from_utf8(digits).ok())
                    .flatten()
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
                // Trailers are header fields: anything else hyper refuses, so it is refused here
                // rather than read as their end.
                let trailers = &self.pending[cursor + line + 2..cursor + line + end + 4];
                // hyper counts trailer lines by CRLF and would find more fields than lines.
                if has_bare_lf(trailers) {
                    return self.refuse(Refusal::Malformed);
                }
                let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
                match httparse::parse_headers(trailers, &mut fields) {
                    Ok(httparse::Status::Complete((read, _))) if read == trailers.len() => {}
                    Err(httparse::Error::TooManyHeaders) => return self.refuse(Refusal::HeadTooLarge),
                    _ => return self.refuse(Refusal::Malformed),
                }
                self.release(cursor + line + end + 4);
                self.phase = Phase::Head;
                return;
            }
            if decoded.saturating_add(size) > self.limits.max_body {
                return self.refuse(Refusal::TooLarge);
            }
            let data = cursor + line + 2;
            if self.pending.len() < data + size + 2 {
                break;
            }
            if &self.pending[data + size..data + size + 2] != b"\r\n" {
                return self.refuse(Refusal::Malformed);
            }
            // Counted once the whole chunk is in, so a chunk read in parts counts once.
            decoded += size;
            cursor = data + size + 2;
        }
        self.phase = Phase::Chunked { start, cursor, decoded };
    }
}

/// How many bytes of empty lines (CRLF or a bare LF, as httparse skips them) `bytes` starts
/// with; `None` when a CR there is followed by anything but LF.
fn empty_lines(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        match &bytes[at..] {
            [b'\r', b'\n', ..] => at += 2,
            [b'\n', ..] => at += 1,
            [b'\r', _, ..] => return None,
            _ => return Some(at),
        }
    }
}

/// Whether a line of `head` ends in a LF without its CR.
fn has_bare_lf(head: &[u8]) -> bool {
    head.first() == Some(&b'\n') || head.windows(2).any(|pair| pair[1] == b'\n' && pair[0] != b'\r')
}

/// The request target of a head's request line.
fn request_target(head: &[u8]) -> Option<&[u8]> {
    let line = &head[..find(head, b"\r\n")?];
    let mut parts = line.split(|b| *b == b' ');
    parts.next()?;
    let target = parts.next()?;
    Some(target.split(|b| *b == b'?').next().unwrap_or(target))
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
    if !plainly_valid_target(target) && poem::http::Uri::try_from(target).is_err() {
        return Err(Refusal::Malformed);
    }
    // Header names and values need no check of their own: httparse refuses an empty name, a
    // name byte outside `tchar` and a value byte outside HTAB, SP..~ and obs-text, which are the
    // rules hyper's HeaderName and HeaderValue apply (a test below holds the two together).
    let mut length: Option<usize> = None;
    let mut chunked = false;
    let mut expect_continue = None;
    for header in request.headers.iter() {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            // Only chunked, once, and only in HTTP/1.1: anything else is how requests get
            // smuggled past a proxy.
            if chunked || !header.value.eq_ignore_ascii_case(b"chunked") || request.version != Some(1) {
                return Err(Refusal::Malformed);
            }
            chunked = true;
        }
        if header.name.eq_ignore_ascii_case("content-length") {
            let text = std::str::from_utf8(header.value).map_err(|_| Refusal::Malformed)?.trim();
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(Refusal::Malformed);
            }
            // A length beyond what HTTP can frame (u64) is refused as too large, here rather
            // than by hyper (whose own 400 would lack our headers).
            let value = text.parse::<u64>().map_err(|_| Refusal::TooLarge)?;
            let value = usize::try_from(value).unwrap_or(usize::MAX);
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

/// Whether a request target is a path (and query) made only of characters every URI parser
/// takes (RFC 3986's unreserved characters, sub-delimiters, `:@/?%`): those are valid without
/// building a `Uri`, a copy and a parse per request that hyper does again. Anything else is
/// judged by `Uri::try_from`, as hyper judges it (a test holds the two together).
fn plainly_valid_target(target: &str) -> bool {
    const PLAIN: [bool; 256] = {
        let allowed = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?%";
        let mut table = [false; 256];
        let mut i = 0;
        while i < allowed.len() {
            table[allowed[i] as usize] = true;
            i += 1;
        }
        table
    };
    // `Uri` refuses targets from 65,534 bytes on; the head limit is far below that anyway.
    target.starts_with('/') && target.len() < 8192 && target.bytes().all(|b| PLAIN[usize::from(b)])
}

/// The range of the whole header line (`Name: value\r\n`) whose name starts at `name` in `head`.
fn line_range(head: &[u8], name: &str) -> std::ops::Range<usize> {
    let start = name.as_ptr() as usize - head.as_ptr() as usize;
    let end = find(&head[start..], b"\r\n").map_or(head.len(), |i| start + i + 2);
    start..end
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    // A scan for the first byte, then a comparison there: comparing every window called memcmp
    // once per byte of the head.
    let (&first, rest) = needle.split_first()?;
    let mut start = 0;
    while let Some(i) = haystack.get(start..)?.iter().position(|&b| b == first) {
        let at = start + i;
        if haystack[at + 1..].starts_with(rest) {
            return Some(at);
        }
        start = at + 1;
    }
    None
}

#[cfg(test)]
mod against_hyper;

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(head: &str) -> Result<(bool, usize), Refusal> {
        framing(head.as_bytes()).map(|f| (f.chunked, f.length))
    }

    #[test]
    fn find_finds_the_first_whole_match() {
        assert_eq!(find(b"GET / HTTP/1.1\r\nHost: a\r\n\r\nrest", b"\r\n\r\n"), Some(23));
        assert_eq!(find(b"\r\r\n\r\r\n\r\n", b"\r\n\r\n"), Some(4));
        assert_eq!(find(b"\r\n\r", b"\r\n\r\n"), None);
        assert_eq!(find(b"", b"\r\n"), None);
        assert_eq!(find(b"ab\r\n", b"\r\n"), Some(2));
    }

    #[test]
    fn a_plainly_valid_target_is_one_a_uri_takes() {
        for target in ["/", "/mcp", "/v1/charges/chg_01a2?per_page=1&status=pending,overdue", "/v1/x?q=a%20b"]
        {
            assert!(plainly_valid_target(target), "{target}");
        }
        for b in 0..=0x7fu8 {
            let c = char::from(b);
            for target in [format!("/a{c}b"), format!("/a?b{c}c"), format!("/{c}"), format!("{c}/a")] {
                if plainly_valid_target(&target) {
                    assert!(poem::http::Uri::try_from(target.as_str()).is_ok(), "{target:?}");
                }
            }
        }
        for target in ["*", "http://example.com/", "/a#b", "/a b", "/a\"b", "/a{b}", "/é", ""] {
            assert!(!plainly_valid_target(target), "{target:?}");
        }
        assert!(!plainly_valid_target(&format!("/{}", "a".repeat(8192))));
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
        // A length beyond u64 is refused as too large.
        assert_eq!(
            framed("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n"),
            Err(Refusal::TooLarge)
        );
        assert_eq!(framed("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"), Err(Refusal::Malformed));
    }

    #[test]
    fn what_httparse_accepts_in_a_header_hyper_accepts_too() {
        // Every header of a head httparse parses, with any byte in its name or its value.
        let accepted_by_hyper = |head: &[u8]| {
            let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
            let mut request = httparse::Request::new(&mut headers);
            if !matches!(request.parse(head), Ok(httparse::Status::Complete(_))) {
                return;
            }
            for header in request.headers.iter() {
                assert!(poem::http::HeaderName::from_bytes(header.name.as_bytes()).is_ok(), "{head:?}");
                assert!(poem::http::HeaderValue::from_bytes(header.value).is_ok(), "{head:?}");
            }
        };
        for b in 0..=u8::MAX {
            accepted_by_hyper(&[&b"GET / HTTP/1.1\r\nx"[..], &[b], b"y: v\r\n\r\n"].concat());
            accepted_by_hyper(&[&b"GET / HTTP/1.1\r\n"[..], &[b], b": v\r\n\r\n"].concat());
            accepted_by_hyper(&[&b"GET / HTTP/1.1\r\nx: v"[..], &[b], b"v\r\n\r\n"].concat());
        }
        assert_eq!(framing(b"GET / HTTP/1.1\r\n: v\r\n\r\n").err(), Some(Refusal::Malformed));
        assert_eq!(framing(b"GET / HTTP/1.1\r\nx\x01y: v\r\n\r\n").err(), Some(Refusal::Malformed));
        assert_eq!(framing(b"GET / HTTP/1.1\r\nx: a\x7fb\r\n\r\n").err(), Some(Refusal::Malformed));
    }

    #[test]
    fn the_expect_line_is_found_whole() {
        let head = b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n";
        let range = framing(head).unwrap().expect_continue.unwrap();
        assert_eq!(&head[range], b"Expect: 100-continue\r\n");
    }

    /// A socket that records how it was written to, taking at most `room` bytes a write.
    struct Recorder {
        room: usize,
        writes: Vec<(&'static str, Vec<u8>)>,
    }

    impl tokio::io::AsyncRead for Recorder {
        fn poll_read(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
            _: &mut tokio::io::ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            Poll::Pending
        }
    }

    impl AsyncWrite for Recorder {
        fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
            let this = self.get_mut();
            let n = data.len().min(this.room);
            this.writes.push(("send", data[..n].to_vec()));
            Poll::Ready(Ok(n))
        }

        fn poll_write_vectored(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
            bufs: &[io::IoSlice<'_>],
        ) -> Poll<io::Result<usize>> {
            let this = self.get_mut();
            let all: Vec<u8> = bufs.iter().flat_map(|b| b.iter().copied()).collect();
            let n = all.len().min(this.room);
            this.writes.push(("writev", all[..n].to_vec()));
            Poll::Ready(Ok(n))
        }

        fn is_write_vectored(&self) -> bool {
            true
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }

        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn small_vectored_answers_are_gathered_into_one_send() {
        use tokio::io::AsyncWriteExt;
        let limits = Arc::new(crate::http::ConnectionLimits::default().gate);
        let head = io::IoSlice::new(b"HTTP/1.1 200 OK\r\n");
        let body = io::IoSlice::new(b"body");
        let big = vec![b'x'; GATHER_UP_TO];
        let mut gate = Gate::new(Recorder { room: 1 << 20, writes: Vec::new() }, limits.clone());
        assert!(gate.is_write_vectored());
        assert_eq!(gate.write_vectored(&[head, body]).await.unwrap(), 21);
        // A large answer is passed through vectored, not copied.
        assert_eq!(gate.write_vectored(&[head, io::IoSlice::new(&big)]).await.unwrap(), 17 + GATHER_UP_TO);
        let writes = &gate.io.writes;
        assert_eq!(writes[0], ("send", b"HTTP/1.1 200 OK\r\nbody".to_vec()));
        assert_eq!(writes[1].0, "writev");
        assert_eq!(writes.len(), 2);

        // A short write reports a prefix of the concatenation, which hyper then skips.
        let mut gate = Gate::new(Recorder { room: 8, writes: Vec::new() }, limits);
        assert_eq!(gate.write_vectored(&[head, body]).await.unwrap(), 8);
        assert_eq!(gate.io.writes, [("send", b"HTTP/1.1".to_vec())]);
    }
}
