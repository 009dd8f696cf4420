//! RFC 9728 protected-resource metadata for the three resources: `/mcp`, the `POST /` alias
//! and `/v1`. The authorization server they name is this server's own origin.

use std::sync::Arc;

use poem::{Route, get, handler, web::Data, web::Json};
use serde_json::{Value, json};

use super::ALL_SCOPES;
use crate::app::App;

fn document(app: &App, resource_path: &str) -> Value {
    json!({
        "resource": format!("{}{resource_path}", app.public_url),
        "authorization_servers": [app.public_url],
        "scopes_supported": ALL_SCOPES,
        "bearer_methods_supported": ["header"],
        "resource_name": "Kobana Dunning",
    })
}

#[handler]
fn mcp_metadata(app: Data<&Arc<App>>) -> Json<Value> {
    Json(document(&app, "/mcp"))
}

#[handler]
fn root_metadata(app: Data<&Arc<App>>) -> Json<Value> {
    Json(document(&app, ""))
}

#[handler]
fn v1_metadata(app: Data<&Arc<App>>) -> Json<Value> {
    Json(document(&app, "/v1"))
}

/// The metadata routes, to mount at `/.well-known`.
pub fn protected_resource_routes() -> Route {
    Route::new()
        .at("/oauth-protected-resource", get(root_metadata))
        .at("/oauth-protected-resource/mcp", get(mcp_metadata))
        .at("/oauth-protected-resource/v1", get(v1_metadata))
}
