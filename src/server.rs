//! Assembles the HTTP application (routes, authentication, common headers) and runs it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use poem::listener::{Acceptor, Listener, TcpAcceptor, TcpListener};
use poem::{Endpoint, EndpointExt, IntoResponse, Request, Response, Route, get, handler, web::Data};

use crate::api::{self, ApiError, error_response};
use crate::app::{App, MAX_BODY_BYTES, RequestId};
use crate::auth::{Audience, BearerAuth, protected_resource_routes};
use crate::domain::ids::new_id;
use crate::mcp::{self, McpEndpoint};

/// The whole HTTP application for a state.
pub fn application(app: Arc<App>) -> impl Endpoint<Output = Response> {
    api::warm_up();
    mcp::warm_up();
    let dispatcher = Arc::new(mcp::Dispatcher::default());
    let v1 = api::v1_routes().with(BearerAuth {
        state: app.clone(),
        resource_path: "/v1",
        audience: Audience::Api,
    });
    Route::new()
        .nest_no_strip("/v1", v1)
        .at("/mcp", McpEndpoint::new(app.clone(), dispatcher.clone(), "/mcp"))
        .at("/", McpEndpoint::new(app.clone(), dispatcher, ""))
        .nest("/.well-known", protected_resource_routes(&app.public_url))
        .at("/healthz", get(healthz))
        .at("/readyz", get(readyz))
        .data(app.clone())
        .around(move |ep, req| {
            let app = app.clone();
            async move { Ok(common(&app, ep.as_ref(), req).await) }
        })
}

/// What every answer gets: a request id, `Cache-Control: no-store`, load shedding, the body
/// cap, and the error envelope for requests no route took.
async fn common<E: Endpoint>(app: &App, ep: &E, mut req: Request) -> Response {
    let request_id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| {
            !v.is_empty()
                && v.len() <= 64
                && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
        .map(str::to_string)
        .unwrap_or_else(|| new_id("req"));
    req.set_data(RequestId(request_id.clone()));
    let declared = req
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    let path = req.uri().path().to_string();
    let method = req.method().clone();
    let started = std::time::Instant::now();
    let is_v1 = path.starts_with("/v1");
    // Beyond the requests in flight it can serve, or while draining, the server sheds load
    // before doing any work (liveness and metrics probes excepted). The permit lives until
    // the answer.
    let probe = matches!(path.as_str(), "/healthz" | "/metrics");
    let permit = if probe { None } else { app.load.admit() };
    let shed = !probe && permit.is_none();
    let mut response = if shed && (path == "/mcp" || path == "/") {
        mcp::unavailable()
    } else if shed {
        error_response(&ApiError::Unavailable, &request_id)
    // The MCP endpoint answers an oversized body itself, as a JSON-RPC error.
    } else if is_v1 && declared.is_some_and(|n| n > MAX_BODY_BYTES) {
        error_response(&ApiError::PayloadTooLarge, &request_id)
    } else {
        match ep.call(req).await {
            Ok(resp) => resp.into_response(),
            Err(err) => {
                // No operation answers this path, or this method on it: both are an operation
                // that does not exist, in the error vocabulary of the spec.
                let api_err = match err.status().as_u16() {
                    404 | 405 => ApiError::NotFound("operation"),
                    _ => ApiError::BadRequest("the request could not be read".into()),
                };
                error_response(&api_err, &request_id)
            }
        }
    };
    drop(permit);
    app.metrics.record(&path, method.as_str(), response.status().as_u16(), started.elapsed());
    // One line per request; the path never carries secrets (tokens travel in a header) and
    // query strings are left out (they may carry documents).
    tracing::info!(
        request_id = %request_id,
        method = %method,
        path = %path,
        status = response.status().as_u16(),
        duration_ms = started.elapsed().as_secs_f64() * 1000.0,
        "request"
    );
    let headers = response.headers_mut();
    headers.insert("cache-control", "no-store".parse().expect("static header"));
    if let Ok(value) = request_id.parse() {
        headers.insert("x-request-id", value);
    }
    response
}

/// `/metrics` alone, for the `--metrics-bind` listener: kept off the API listener, where anyone
/// could read it and where load shedding would apply to it.
pub fn metrics_app(app: Arc<App>) -> impl Endpoint<Output = Response> {
    Route::new().at("/metrics", get(metrics)).data(app).around(|ep, req| async move {
        let mut response = match ep.call(req).await {
            Ok(resp) => resp.into_response(),
            Err(err) => err.into_response(),
        };
        response.headers_mut().insert("cache-control", "no-store".parse().expect("static header"));
        Ok(response)
    })
}

#[handler]
fn metrics(app: Data<&Arc<App>>) -> poem::Response {
    poem::Response::builder().content_type("text/plain; version=0.0.4").body(app.metrics.render())
}

#[handler]
fn healthz() -> &'static str {
    "ok"
}

#[handler]
async fn readyz(app: Data<&Arc<App>>) -> poem::Result<&'static str> {
    if app.load.is_draining() {
        return Err(poem::Error::from_status(poem::http::StatusCode::SERVICE_UNAVAILABLE));
    }
    app.store
        .organization("")
        .await
        .map(|_| "ready")
        .map_err(|_| poem::Error::from_status(poem::http::StatusCode::SERVICE_UNAVAILABLE))
}

/// A server listening on a socket.
pub struct Running {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Resolves when the server stops.
    pub handle: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// A bound socket, not serving yet (its address is known before the state is built, so the
/// default public URL can name the real port of `--bind 127.0.0.1:0`).
pub struct Bound {
    acceptor: TcpAcceptor,
    /// The address it listens on.
    pub addr: SocketAddr,
}

/// Binds `bind`.
pub async fn bind(bind: &str) -> std::io::Result<Bound> {
    let acceptor = TcpListener::bind(bind.to_string()).into_acceptor().await?;
    let addr = acceptor
        .local_addr()
        .first()
        .and_then(|a| a.as_socket_addr().copied())
        .ok_or_else(|| std::io::Error::other("the listener has no socket address"))?;
    Ok(Bound { acceptor, addr })
}

impl Bound {
    /// Serves [`metrics_app`] until the process ends (nothing to drain: scrapes are short).
    pub fn serve_metrics(self, app: Arc<App>) -> Running {
        let endpoint = metrics_app(app);
        let acceptor = self.acceptor;
        let handle =
            tokio::spawn(async move { poem::Server::new_with_acceptor(acceptor).run(endpoint).await });
        Running { addr: self.addr, handle }
    }

    /// Serves until `shutdown` resolves (then drains for up to 10 seconds).
    pub fn serve(
        self,
        app: Arc<App>,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Running {
        let endpoint = application(app);
        let acceptor = self.acceptor;
        let handle = tokio::spawn(async move {
            poem::Server::new_with_acceptor(acceptor)
                .run_with_graceful_shutdown(endpoint, shutdown, Some(Duration::from_secs(10)))
                .await
        });
        Running { addr: self.addr, handle }
    }
}
