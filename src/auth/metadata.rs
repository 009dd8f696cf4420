//! RFC 9728 protected-resource metadata for the three resources: `/mcp`, the `POST /` alias
//! and `/v1`. The authorization server they name is this server's own origin.

use poem::endpoint::make_sync;
use poem::{Route, get, web::Json};
use serde_json::{Value, json};

use super::ALL_SCOPES;

fn document(public_url: &str, resource_path: &str) -> Value {
    json!({
        "resource": format!("{public_url}{resource_path}"),
        "authorization_servers": [public_url],
        "scopes_supported": ALL_SCOPES,
        "bearer_methods_supported": ["header"],
        "resource_name": "Kobana Dunning",
    })
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
}
