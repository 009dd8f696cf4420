//! RFC 8414 authorization server metadata, at `/.well-known/oauth-authorization-server`. The
//! issuer is the public URL, the same string the protected-resource metadata names, so clients
//! that compare them (RFC 8414 section 3.3) agree.

use serde_json::{Value, json};

use crate::auth::ALL_SCOPES;

/// The metadata of the authorization server at `public_url` (no trailing slash).
pub fn metadata_document(public_url: &str) -> Value {
    json!({
        "issuer": public_url,
        "authorization_endpoint": format!("{public_url}/authorize"),
        "token_endpoint": format!("{public_url}/token"),
        "registration_endpoint": format!("{public_url}/register"),
        "revocation_endpoint": format!("{public_url}/revoke"),
        "scopes_supported": ALL_SCOPES,
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "code_challenge_methods_supported": ["S256"],
        "client_id_metadata_document_supported": true,
        "authorization_response_iss_parameter_supported": true,
        "ui_locales_supported": ["pt-BR", "en"],
    })
}
