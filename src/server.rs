//! Assembles the HTTP application (routes, authentication, common headers) and runs it.

use std::net::SocketAddr;
use std::sync::Arc;

use poem::{Endpoint, EndpointExt, IntoResponse, Request, Response, Route, get, handler, web::Data};

use crate::api::{self, ApiError, error_response};
use crate::app::{App, MAX_BODY_BYTES, RequestId};
use crate::auth::protected_resource_routes;
use crate::domain::ids::new_id;
use crate::http::{self, ConnectionLimits};
use crate::mcp::{self, McpEndpoint};
use crate::{approvals, oauth};

/// The whole HTTP application for a state.
pub fn application(app: Arc<App>) -> impl Endpoint<Output = Response> {
    api::warm_up();
    mcp::warm_up();
    let dispatcher = Arc::new(mcp::Dispatcher);
    let well_known = protected_resource_routes(&app.public_url)
        .at("/oauth-authorization-server", oauth::metadata_endpoint(&app.public_url));
    // The authorization server's pages and endpoints, and the approval page that signs in
    // through its session, find the state as a trait object (`oauth` never names
    // `App`); only their routes carry it.
    let host: oauth::Host = app.clone();
    let routes = approvals::add_routes(oauth::add_routes(Route::new(), &host), &host)
        .nest("/.well-known", well_known)
        .at("/healthz", get(healthz))
        .at("/readyz", get(readyz))
        .at("/gateway/escalations", poem::post(gateway_callback))
        .at("/receivers/kobana/:token", poem::post(crate::receiver::kobana))
        .data(app.clone());
    Application {
        mcp: McpEndpoint::new(app.clone(), dispatcher.clone(), "/mcp"),
        mcp_root: McpEndpoint::new(app.clone(), dispatcher, ""),
        routes,
        app,
    }
}

/// The application: /v1 (its own generated route table) and the MCP endpoint are answered
/// directly, by path; the other paths go through poem's router. Putting the two hot surfaces
/// behind the router cost a tenth of a request (route match, nested URI, per-route data).
struct Application<R> {
    app: Arc<App>,
    /// `/mcp`.
    mcp: McpEndpoint,
    /// `POST /`, the alias of `/mcp`.
    mcp_root: McpEndpoint,
    /// Everything else.
    routes: R,
}

impl<R: Endpoint> Endpoint for Application<R> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        Ok(common(self, req).await)
    }
}

/// `X-Request-Id`, read from requests and written on every answer.
const X_REQUEST_ID: poem::http::HeaderName = poem::http::HeaderName::from_static("x-request-id");

/// What every answer gets: a request id, `Cache-Control: no-store`, load shedding, the body
/// cap, and the error envelope for requests no route took.
async fn common<R: Endpoint>(application: &Application<R>, mut req: Request) -> Response {
    let app = &application.app;
    let request_id = req
        .headers()
        .get(&X_REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| {
            !v.is_empty()
                && v.len() <= 64
                && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
        .map(str::to_string)
        .unwrap_or_else(|| new_id("req"));
    let declared = req
        .headers()
        .get(poem::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    // A receiver's URL carries its token: logs and metrics see the route, not the token.
    let path = match req.uri().path() {
        p if p.starts_with(crate::api::payments::RECEIVER_PATH) => {
            format!("{}:token", crate::api::payments::RECEIVER_PATH)
        }
        p => p.to_string(),
    };
    let method = req.method().clone();
    let preflight = http::is_cors_preflight(&req);
    let started = std::time::Instant::now();
    // Beyond the requests in flight it can serve, or while draining, the server sheds load
    // before doing any work (liveness and metrics probes excepted). The permit lives until
    // the answer.
    let probe = matches!(path.as_str(), "/healthz" | "/readyz");
    let permit = if probe { None } else { app.load.admit() };
    let shed = !probe && permit.is_none();
    let is_mcp = path == "/mcp" || path == "/" || path.starts_with(crate::toolsets::MCP_PREFIX);
    let too_large = declared.is_some_and(|n| n > MAX_BODY_BYTES);
    let mut response = if shed && is_mcp {
        mcp::unavailable()
    } else if shed {
        error_response(&ApiError::Unavailable, &request_id)
    // A body declared over the cap is refused before a byte of it is read (the gate passes such
    // bodies through unbuffered for exactly this).
    } else if too_large && is_mcp {
        mcp::payload_too_large()
    } else if too_large {
        error_response(&ApiError::PayloadTooLarge, &request_id)
    } else {
        // MCP and /v1 (its route table generated from the spec) are answered by path, with the
        // request id handed over; poem's router keeps the rest.
        let answer = match path.as_str() {
            "/mcp" => Ok(application.mcp.serve(req, &request_id).await),
            "/" => Ok(application.mcp_root.serve(req, &request_id).await),
            // The narrower endpoints (toolsets, read-only): the same endpoint with fewer tools.
            p if p.starts_with(crate::toolsets::MCP_PREFIX) => {
                Ok(application.mcp.serve_narrowed(req, &request_id, p).await)
            }
            _ if path == "/v1" || path.starts_with("/v1/") => api::v1::serve(app, req, &request_id).await,
            _ => {
                // The other paths find the request id among the request's data.
                req.set_data(RequestId(request_id.clone()));
                application.routes.call(req).await.map(IntoResponse::into_response)
            }
        };
        match answer {
            Ok(resp) => resp,
            Err(err) => {
                // A method the path does not take is 405 with the methods it does (RFC 9110
                // section 15.5.6); a CORS preflight is not a request for the resource, and /v1
                // answers none. No operation at this path is an operation that does not exist.
                let allowed = api::v1::allowed_methods(&path);
                let api_err = match err.status().as_u16() {
                    405 if !preflight && !allowed.is_empty() => {
                        ApiError::MethodNotAllowed { method: method.to_string(), allowed }
                    }
                    404 | 405 => ApiError::NotFound("operation"),
                    _ => ApiError::BadRequest("the request could not be read".into()),
                };
                error_response(&api_err, &request_id)
            }
        }
    };
    drop(permit);
    let elapsed = started.elapsed();
    app.metrics.record(&path, method.as_str(), response.status().as_u16(), elapsed);
    // One line per request; the path never carries secrets (tokens travel in a header) and
    // query strings are left out (they may carry documents).
    crate::logs::request(&crate::logs::RequestLine {
        request_id: &request_id,
        method: method.as_str(),
        path: &path,
        status: response.status().as_u16(),
        duration_ms: elapsed.as_secs_f64() * 1000.0,
    });
    let status = response.status();
    let headers = response.headers_mut();
    // A body refused as too large stays (partly) unread, so the connection cannot carry another
    // request: say so, or a client would send its next one on a connection about to close.
    if status == poem::http::StatusCode::PAYLOAD_TOO_LARGE {
        headers.insert(poem::http::header::CONNECTION, poem::http::HeaderValue::from_static("close"));
    }
    headers.insert(poem::http::header::CACHE_CONTROL, crate::request::NO_STORE);
    if let Ok(value) = request_id.parse() {
        headers.insert(X_REQUEST_ID, value);
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
        let headers = response.headers_mut();
        headers.insert(poem::http::header::CACHE_CONTROL, crate::request::NO_STORE);
        if let Ok(id) = new_id("req").parse() {
            headers.insert(X_REQUEST_ID, id);
        }
        Ok(response)
    })
}

#[handler]
fn metrics(app: Data<&Arc<App>>) -> poem::Response {
    poem::Response::builder()
        .content_type("text/plain; version=0.0.4")
        .body(app.metrics.render(app.providers.deliveries()))
}

#[handler]
fn healthz() -> &'static str {
    "ok"
}

/// Ready while not draining and the database answers and takes writes; 503 otherwise (a load
/// balancer then stops sending new requests here). Answers within a second.
#[handler]
async fn readyz(app: Data<&Arc<App>>) -> poem::Response {
    let ready = !app.load.is_draining() && app.readiness.check(&app.store).await;
    let status = if ready { poem::http::StatusCode::OK } else { poem::http::StatusCode::SERVICE_UNAVAILABLE };
    poem::Response::builder().status(status).body(if ready { "ready" } else { "not ready" })
}

/// A status callback of the HTTP gateway about a credit-bureau report or protest: outside /v1
/// and not a tool, signed (`X-Kobana-Signature: sha256=<hex HMAC-SHA256 of the raw body>` with
/// the gateway secret) instead of a token. 404 when no gateway is configured.
#[handler]
async fn gateway_callback(req: &Request, body: poem::Body, app: Data<&Arc<App>>) -> Response {
    let request_id = req.data::<RequestId>().map(|r| r.0.clone()).unwrap_or_else(|| new_id("req"));
    if !app.providers.has_gateway() {
        return error_response(&ApiError::NotFound("operation"), &request_id);
    }
    let bytes = match body.into_bytes_limit(64 * 1024).await {
        Ok(bytes) => bytes,
        Err(_) => return error_response(&ApiError::PayloadTooLarge, &request_id),
    };
    let signature = req.headers().get("x-kobana-signature").and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !app.providers.verify_callback(&bytes, signature) {
        return error_response(&ApiError::BadSignature, &request_id);
    }
    match crate::engine::gateway_callback(&app.store, &bytes, time::OffsetDateTime::now_utc()).await {
        Ok(object) => Response::builder()
            .header(poem::http::header::CONTENT_TYPE, crate::request::APPLICATION_JSON)
            .body(serde_json::json!({ "data": object }).to_string()),
        Err(err) => error_response(&err, &request_id),
    }
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
    listener: tokio::net::TcpListener,
    /// The address it listens on.
    pub addr: SocketAddr,
}

/// Binds `bind`.
pub async fn bind(bind: &str) -> std::io::Result<Bound> {
    let listener = tokio::net::TcpListener::bind(bind).await?;
    let addr = listener.local_addr()?;
    Ok(Bound { listener, addr })
}

impl Bound {
    /// Serves [`metrics_app`] until the process ends, through the same accept loop and limits
    /// as the API (scrapes are short: nothing to drain).
    pub fn serve_metrics(self, app: Arc<App>, limits: ConnectionLimits) -> Running {
        let endpoint = metrics_app(app);
        let handle = tokio::spawn(http::serve(self.listener, endpoint, limits, std::future::pending()));
        Running { addr: self.addr, handle }
    }

    /// Serves with the default connection limits until `shutdown` resolves (then drains).
    pub fn serve(
        self,
        app: Arc<App>,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Running {
        self.serve_with(app, ConnectionLimits::default(), shutdown)
    }

    /// Serves with `limits` until `shutdown` resolves (then drains for `limits.drain`).
    pub fn serve_with(
        self,
        app: Arc<App>,
        limits: ConnectionLimits,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Running {
        let endpoint = application(app);
        let handle = tokio::spawn(http::serve(self.listener, endpoint, limits, shutdown));
        Running { addr: self.addr, handle }
    }
}
