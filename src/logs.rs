//! Log lines: JSON, one object per event, in the shape of tracing-subscriber's JSON format
//! (`timestamp`, `level`, `fields`, `target`), formatted directly (the generic formatter went
//! through serde and `Debug` for every field and cost a tenth of a request's CPU); and
//! written to stderr in batches, every [`FLUSH_EVERY`] or [`FLUSH_AT`] bytes, instead of one
//! system call per line. A process killed outright loses at most the last few milliseconds of
//! lines; a panic and a normal exit flush first.

use std::fmt;
use std::io::{self, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};
use std::time::Duration;

use time::OffsetDateTime;
use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

use crate::domain::dates::format_timestamp;

/// The event formatter of `--log-format json`.
#[derive(Debug, Default, Clone, Copy)]
pub struct JsonLines;

impl<S, N> FormatEvent<S, N> for JsonLines
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(&self, _: &FmtContext<'_, S, N>, mut out: Writer<'_>, event: &Event<'_>) -> fmt::Result {
        // The line is put together in a buffer of its own and handed over in one write: each
        // piece written straight to `out` was a dynamic call.
        let meta = event.metadata();
        let mut line = Vec::with_capacity(256);
        line.extend_from_slice(b"{\"timestamp\":\"");
        line.extend_from_slice(format_timestamp(OffsetDateTime::now_utc()).as_bytes());
        line.extend_from_slice(b"\",\"level\":\"");
        line.extend_from_slice(meta.level().as_str().as_bytes());
        line.extend_from_slice(b"\",\"fields\":{");
        let mut fields = Fields { out: &mut line, first: true };
        event.record(&mut fields);
        line.extend_from_slice(b"},\"target\":");
        write_json_str(&mut line, meta.target());
        line.extend_from_slice(b"}\n");
        // Every piece is a whole `str` or ASCII, so the line is UTF-8.
        out.write_str(std::str::from_utf8(&line).map_err(|_| fmt::Error)?)
    }
}

/// Whether request lines skip tracing's dispatch (set once, by [`write_request_lines_directly`]).
static DIRECT_REQUEST_LINES: AtomicBool = AtomicBool::new(false);

/// The target request lines are logged under, as tracing names `server.rs`'s events.
pub const REQUEST_TARGET: &str = "kobana_dunning::server";

/// With `--log-format json`, request lines are written straight into the batch: going through
/// tracing's dispatch (a thread-local lookup, the visitor, a dynamic writer) cost a twentieth of
/// a GET. The line is the one [`JsonLines`] writes for the same event, and is written
/// only when the filter lets that event through.
pub fn write_request_lines_directly() {
    DIRECT_REQUEST_LINES.store(true, Ordering::Relaxed);
}

/// One request, as its log line names it.
#[derive(Debug, Clone, Copy)]
pub struct RequestLine<'a> {
    /// The request id (X-Request-Id).
    pub request_id: &'a str,
    /// The HTTP method.
    pub method: &'a str,
    /// The path, without its query (a query may carry documents).
    pub path: &'a str,
    /// The answer's status.
    pub status: u16,
    /// How long the answer took.
    pub duration_ms: f64,
}

/// Logs one request: directly in JSON (see [`write_request_lines_directly`]), or through tracing.
pub fn request(line: &RequestLine<'_>) {
    if !DIRECT_REQUEST_LINES.load(Ordering::Relaxed) {
        trace_request(line);
        return;
    }
    if !tracing::enabled!(target: REQUEST_TARGET, tracing::Level::INFO) {
        return;
    }
    let mut text = Vec::with_capacity(256);
    push_request_line(&mut text, OffsetDateTime::now_utc(), line);
    // Batched writes never fail: the bytes join the batch.
    let _ = Batched.write_all(&text);
}

/// A request's event, through tracing.
fn trace_request(line: &RequestLine<'_>) {
    tracing::info!(
        target: REQUEST_TARGET,
        request_id = line.request_id,
        method = line.method,
        path = line.path,
        status = line.status,
        duration_ms = line.duration_ms,
        "request"
    );
}

/// The JSON line of a request, field for field as [`JsonLines`] formats the tracing event.
fn push_request_line(out: &mut Vec<u8>, now: OffsetDateTime, line: &RequestLine<'_>) {
    out.extend_from_slice(b"{\"timestamp\":\"");
    out.extend_from_slice(format_timestamp(now).as_bytes());
    out.extend_from_slice(b"\",\"level\":\"INFO\",\"fields\":{\"message\":\"request\",\"request_id\":");
    write_json_str(out, line.request_id);
    out.extend_from_slice(b",\"method\":");
    write_json_str(out, line.method);
    out.extend_from_slice(b",\"path\":");
    write_json_str(out, line.path);
    out.extend_from_slice(b",\"status\":");
    out.extend_from_slice(itoa::Buffer::new().format(line.status).as_bytes());
    out.extend_from_slice(b",\"duration_ms\":");
    push_f64(out, line.duration_ms);
    out.extend_from_slice(b"},\"target\":");
    write_json_str(out, REQUEST_TARGET);
    out.extend_from_slice(b"}\n");
}

/// A float as JSON: its shortest round-trip digits, as serde_json writes them (`Display` went
/// through the formatting machinery: a fiftieth of a GET), or null (JSON has no NaN or
/// infinity).
fn push_f64(out: &mut Vec<u8>, value: f64) {
    if value.is_finite() {
        out.extend_from_slice(zmij::Buffer::new().format_finite(value).as_bytes());
    } else {
        out.extend_from_slice(b"null");
    }
}

/// How often gathered lines are written out.
pub const FLUSH_EVERY: Duration = Duration::from_millis(5);
/// Gathered bytes that are written out at once, without waiting.
pub const FLUSH_AT: usize = 64 * 1024;

static PENDING: Mutex<Vec<u8>> = Mutex::new(Vec::new());
/// Held while a batch is written, so that batches reach stderr in the order they were taken.
/// It keeps the last batch's buffer, emptied, to become the next one: a batch taken as a new
/// `Vec` grew by doubling again, copying what it held each time, into memory not in the cache.
static WRITING: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// The writer of batched lines (`fmt().with_writer(Batched::start())`).
#[derive(Debug, Clone, Copy)]
pub struct Batched;

impl Batched {
    /// Starts the thread that writes gathered lines every [`FLUSH_EVERY`], and makes a panic
    /// write them before its own message.
    pub fn start() -> Self {
        static STARTED: Once = Once::new();
        STARTED.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                flush();
                previous(info);
            }));
            let spawned = std::thread::Builder::new().name("log-writer".into()).spawn(|| {
                loop {
                    std::thread::sleep(FLUSH_EVERY);
                    flush();
                }
            });
            if spawned.is_err() {
                // Without the thread, lines still go out every FLUSH_AT bytes and at exit.
                eprintln!("warning: no log writer thread; logs are written in 64 KiB batches");
            }
        });
        Batched
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Batched {
    type Writer = Batched;

    fn make_writer(&'a self) -> Self::Writer {
        Batched
    }
}

impl io::Write for Batched {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let full = {
            let mut pending = PENDING.lock().unwrap_or_else(|p| p.into_inner());
            pending.extend_from_slice(bytes);
            pending.len() >= FLUSH_AT
        };
        if full {
            flush();
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes the gathered lines to stderr now (at exit, and from the writer thread).
pub fn flush() {
    let mut batch = WRITING.lock().unwrap_or_else(|p| p.into_inner());
    std::mem::swap(&mut *batch, &mut *PENDING.lock().unwrap_or_else(|p| p.into_inner()));
    if !batch.is_empty() {
        // Nowhere to report a failure to write the log.
        let _ = io::stderr().lock().write_all(&batch);
    }
    recycle(&mut batch);
}

/// Empties a written batch to be the next one. A batch holds FLUSH_AT bytes and a line; the
/// buffer of an outsized line is not kept.
fn recycle(batch: &mut Vec<u8>) {
    batch.clear();
    if batch.capacity() > 4 * FLUSH_AT {
        *batch = Vec::new();
    }
}

/// Writes each field as `"name":value`.
struct Fields<'w> {
    out: &'w mut Vec<u8>,
    first: bool,
}

impl Fields<'_> {
    fn name(&mut self, field: &Field) -> &mut Vec<u8> {
        if !std::mem::take(&mut self.first) {
            self.out.push(b',');
        }
        write_json_str(self.out, field.name());
        self.out.push(b':');
        self.out
    }
}

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        write_json_str(self.name(field), value);
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.name(field).extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.name(field).extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.name(field).extend_from_slice(if value { b"true" } else { b"false" });
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        push_f64(self.name(field), value);
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        let text = value.to_string();
        write_json_str(self.name(field), &text);
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        // `%value` fields arrive here too, as a wrapper whose Debug is the value's Display.
        let text = format!("{value:?}");
        write_json_str(self.name(field), &text);
    }
}

/// Writes `text` as a JSON string, escaped as serde_json escapes it.
fn write_json_str(out: &mut Vec<u8>, text: &str) {
    // Writing a `str` into a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

#[cfg(test)]
mod tests {
    use std::io;
    use std::sync::{Arc, Mutex};

    use tracing_subscriber::fmt::MakeWriter;

    use super::*;

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Captured {
        type Writer = Captured;
        fn make_writer(&'a self) -> Self::Writer {
            self.clone()
        }
    }

    #[test]
    fn a_direct_request_line_is_the_line_tracing_writes() {
        let captured = Captured::default();
        let subscriber =
            tracing_subscriber::fmt().event_format(JsonLines).with_writer(captured.clone()).finish();
        let line = RequestLine {
            request_id: "req_\"1\"",
            method: "GET",
            path: "/v1/charges/chg_1\u{1}ção",
            status: 404,
            duration_ms: 0.048125,
        };
        tracing::subscriber::with_default(subscriber, || trace_request(&line));
        let traced = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        let stamp = traced.split('"').nth(3).expect("a timestamp");
        let now = crate::domain::dates::parse_timestamp(stamp).unwrap();
        let mut direct = Vec::new();
        push_request_line(&mut direct, now, &line);
        assert_eq!(String::from_utf8(direct).unwrap(), traced);
    }

    #[test]
    fn lines_wait_for_a_flush() {
        let mut writer = Batched;
        writer.write_all(b"(logs test: batched line 1)\n").unwrap();
        writer.write_all(b"(logs test: batched line 2)\n").unwrap();
        assert!(PENDING.lock().unwrap().ends_with(b"line 1)\n(logs test: batched line 2)\n"));
        flush();
        assert!(PENDING.lock().unwrap().is_empty());
        // The batch just written lends its buffer to the next one.
        flush();
        assert!(PENDING.lock().unwrap().capacity() >= 2 * b"(logs test: batched line 1)\n".len());
    }

    #[test]
    fn a_batch_buffer_is_kept_unless_outsized() {
        let mut usual = Vec::with_capacity(FLUSH_AT + 1024);
        usual.extend_from_slice(b"line\n");
        recycle(&mut usual);
        assert!(usual.is_empty() && usual.capacity() >= FLUSH_AT);
        let mut outsized = Vec::with_capacity(5 * FLUSH_AT);
        outsized.push(b'x');
        recycle(&mut outsized);
        assert_eq!(outsized.capacity(), 0);
    }

    #[test]
    fn a_line_is_one_json_object_with_every_field() {
        let captured = Captured::default();
        let subscriber =
            tracing_subscriber::fmt().event_format(JsonLines).with_writer(captured.clone()).finish();
        tracing::subscriber::with_default(subscriber, || {
            tracing::info!(
                request_id = %"req_1",
                path = "/v1/\"odd\"\\\u{1}\u{7f}ção",
                status = 200u16,
                delta = -3i64,
                ok = true,
                duration_ms = 0.25,
                nothing = f64::NAN,
                "request"
            );
        });
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        assert!(text.ends_with('\n') && text.matches('\n').count() == 1, "{text:?}");
        let line: serde_json::Value = serde_json::from_str(text.trim_end()).unwrap();
        assert_eq!(line["level"], "INFO");
        assert_eq!(line["target"], module_path!());
        let fields = &line["fields"];
        assert_eq!(fields["message"], "request");
        assert_eq!(fields["request_id"], "req_1");
        assert_eq!(fields["path"], "/v1/\"odd\"\\\u{1}\u{7f}ção");
        assert_eq!(fields["status"], 200);
        assert_eq!(fields["delta"], -3);
        assert_eq!(fields["ok"], true);
        assert_eq!(fields["duration_ms"], 0.25);
        assert!(fields["nothing"].is_null());
        let stamp = line["timestamp"].as_str().unwrap();
        assert!(crate::domain::dates::parse_timestamp(stamp).is_ok(), "{stamp}");
    }
}
