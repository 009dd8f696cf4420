//! RFC 9728 protected-resource metadata for the three resources: `/mcp`, the `POST /` alias
//! and `/v1`, and for each narrower MCP path (`/mcp/x/charges`, `/mcp/readonly`: a client that
//! connects there finds its metadata where RFC 9728 section 3.1 says, under the path). The
//! authorization server they name is this server's own origin.

use poem::endpoint::make_sync;
use poem::http::StatusCode;
use poem::{IntoResponse, Route, get, web::Json};
use serde_json::{Value, json};

use super::ALL_SCOPES;
use crate::toolsets;

fn document(public_url: &str, resource_path: &str) -> Value {
    json!({
        "resource": format!("{public_url}{resource_path}"),
        "authorization_servers": [public_url],
        "scopes_supported": ALL_SCOPES,
        "bearer_methods_supported": ["header"],
        "resource_name": "Kobana Dunning",
    })
}

/// The metadata of the narrower MCP paths, built per request from the path asked (the same
/// paths the endpoint serves; any other is 404).
fn narrower(public_url: &str) -> impl poem::Endpoint<Output = poem::Response> + use<> {
    let public_url = public_url.to_string();
    get(make_sync(move |req| {
        // What follows the document's name (nesting may have taken `/.well-known` off).
        let path = req.uri().path();
        let resource_path = path.split_once("/oauth-protected-resource").map_or(path, |(_, rest)| rest);
        match toolsets::parse(resource_path) {
            Ok(_) => Json(document(&public_url, resource_path)).into_response(),
            Err(_) => StatusCode::NOT_FOUND.into_response(),
        }
    }))
}

/// The metadata routes of a server reached at `public_url`, to mount at `/.well-known`. The
/// documents never change while the server runs, so they are built once.
pub fn protected_resource_routes(public_url: &str) -> Route {
    let serve = |resource_path: &str| {
        let document = document(public_url, resource_path);
        get(make_sync(move |_| Json(document.clone())))
    };
    Route::new()
        .at("/oauth-protected-resource", serve(""))
        .at("/oauth-protected-resource/mcp", serve("/mcp"))
        .at("/oauth-protected-resource/v1", serve("/v1"))
        .at("/oauth-protected-resource/mcp/*rest", narrower(public_url))
}
