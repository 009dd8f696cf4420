//! The HTTP/1.1 server under the application: our own accept loop with a cap on open
//! connections, each connection's bytes through the [`gate::Gate`] (deadlines and size limits),
//! and hyper's HTTP/1 connection for the rest. poem's `Server` has neither a header deadline nor a
//! connection cap (without both, slow or idle peers could hold the slots others need), always
//! accepts h2c (this server speaks HTTP/1.1 only), and writes some errors without our headers.

mod descriptors;
mod gate;
mod per_address;
mod pieces;
mod refusal;

use per_address::PerAddress;

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use poem::{Endpoint, IntoResponse};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

pub use gate::{BufferBudget, GateLimits};
pub use pieces::Pieces;

/// A browser's CORS preflight: OPTIONS with an `Origin` and the method it asks about. It is not
/// a request for the resource, so it never gets a 405 for OPTIONS (no route answers one).
pub fn is_cors_preflight(req: &poem::Request) -> bool {
    req.method() == poem::http::Method::OPTIONS
        && req.headers().contains_key("origin")
        && req.headers().contains_key("access-control-request-method")
}

/// The limits of the listener.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    /// What each connection's gate enforces.
    pub gate: GateLimits,
    /// Connections open at once; past it, new ones are closed as soon as accepted.
    pub max_connections: usize,
    /// Connections one client address may hold open at once, so one host cannot take them all.
    pub max_connections_per_address: usize,
    /// How long open connections may finish their requests after shutdown starts.
    pub drain: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self {
            gate: GateLimits {
                header_timeout: Duration::from_secs(10),
                body_timeout: Duration::from_secs(10),
                idle_timeout: Duration::from_secs(60),
                max_body: crate::request::MAX_BODY_BYTES,
                max_request_line: 8 * 1024,
                max_head: 32 * 1024,
                write_timeout: Duration::from_secs(30),
                buffers: Arc::new(BufferBudget::new(256 * 1024 * 1024)),
            },
            max_connections: 4096,
            max_connections_per_address: 256,
            drain: Duration::from_secs(10),
        }
    }
}

/// Serves `endpoint` on `listener` until `shutdown` resolves, then lets open connections finish
/// their requests for up to `limits.drain`.
pub async fn serve<E>(
    listener: TcpListener,
    endpoint: E,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()>
where
    E: Endpoint + 'static,
{
    let endpoint = Arc::new(endpoint);
    let local = listener.local_addr()?;
    let gate_limits = Arc::new(limits.gate.clone());
    let slots = Arc::new(Semaphore::new(descriptors::fit(limits.max_connections)));
    let per_address = Arc::new(PerAddress::new(limits.max_connections_per_address));
    let (stop, stopped) = watch::channel(false);
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // Out of descriptors or memory: wait a little rather than spin.
                        tracing::warn!(error = %e, "accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                // Past a cap a connection is closed at once: it costs an accept, nothing more.
                let Some(held) = per_address.admit(peer.ip()) else {
                    drop(stream);
                    continue;
                };
                let Ok(slot) = slots.clone().try_acquire_owned() else {
                    drop(stream);
                    continue;
                };
                let connection = Connection {
                    endpoint: endpoint.clone(),
                    limits: gate_limits.clone(),
                    local,
                    peer,
                    stopped: stopped.clone(),
                };
                connections.spawn(async move {
                    connection.serve(stream).await;
                    drop((slot, held));
                });
            }
        }
    }
    // No new connections while the open ones finish: the kernel refuses them from here on.
    drop(listener);
    let _ = stop.send(true);
    let drained = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(limits.drain, drained).await.is_err() {
        tracing::warn!("connections still open after the drain period; closing them");
        connections.abort_all();
    }
    Ok(())
}

struct Connection<E> {
    endpoint: Arc<E>,
    limits: Arc<GateLimits>,
    local: SocketAddr,
    peer: SocketAddr,
    stopped: watch::Receiver<bool>,
}

impl<E: Endpoint + 'static> Connection<E> {
    async fn serve(mut self, stream: TcpStream) {
        let _ = stream.set_nodelay(true);
        let (endpoint, local, peer) = (self.endpoint.clone(), self.local, self.peer);
        let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
            let endpoint = endpoint.clone();
            async move {
                if let Some(refused) = refuse_host(&req) {
                    return Ok::<_, Infallible>(hyper::Response::from(refused));
                }
                let req = poem::Request::from((
                    req,
                    poem::web::LocalAddr(poem::Addr::SocketAddr(local)),
                    poem::web::RemoteAddr(poem::Addr::SocketAddr(peer)),
                    poem::http::uri::Scheme::HTTP,
                ));
                let response = match endpoint.call(req).await {
                    Ok(response) => response.into_response(),
                    Err(err) => err.into_response(),
                };
                Ok::<_, Infallible>(hyper::Response::from(response))
            }
        });
        let io = TokioIo::new(gate::Gate::new(stream, self.limits.clone()));
        let connection = http1().serve_connection(io, service);
        tokio::pin!(connection);
        tokio::select! {
            _ = &mut connection => {}
            _ = async { let _ = self.stopped.wait_for(|stop| *stop).await; } => {
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            }
        }
    }
}

/// Hyper's HTTP/1.1 connections, as the listener serves them behind the gate.
fn http1() -> hyper::server::conn::http1::Builder {
    let mut builder = hyper::server::conn::http1::Builder::new();
    // The gate enforces the head's deadline (and the body's and the idle one); hyper's own
    // header timer, re-armed for every request, would only repeat it.
    builder.timer(TokioTimer::new()).header_read_timeout(None).keep_alive(true);
    builder
}

/// RFC 9112 section 3.2: an HTTP/1.1 request without a Host header, or with more than one, is
/// answered 400 (the authority it names is what proxies and virtual hosts route by).
fn refuse_host<B>(req: &hyper::Request<B>) -> Option<poem::Response> {
    let hosts = req.headers().get_all(hyper::header::HOST).iter().count();
    if req.version() != hyper::Version::HTTP_11 || hosts == 1 {
        return None;
    }
    let request_id = crate::domain::ids::new_id("req");
    let err = crate::error::ApiError::BadRequest("an HTTP/1.1 request needs exactly one Host header".into());
    let mut response = crate::error::error_response(&err, &request_id);
    let headers = response.headers_mut();
    headers.insert(hyper::header::CACHE_CONTROL, hyper::header::HeaderValue::from_static("no-store"));
    headers.insert(hyper::header::CONNECTION, hyper::header::HeaderValue::from_static("close"));
    if let Ok(id) = hyper::header::HeaderValue::from_str(&request_id) {
        headers.insert("x-request-id", id);
    }
    Some(response)
}
