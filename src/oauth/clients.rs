//! Who a `client_id` is: a client registered here (`cli_…`), or a URL naming a client ID
//! metadata document.

use super::OAuthHost;
use super::client::Client;
use super::client_metadata;
use super::error::{ErrorCode, OAuthError, OAuthResult};

/// Whether a client_id names a metadata document rather than a registration.
pub fn is_document_url(client_id: &str) -> bool {
    client_id.starts_with("https://") || client_id.starts_with("http://")
}

/// The client a `client_id` names.
pub async fn resolve(host: &dyn OAuthHost, client_id: &str) -> OAuthResult<Client> {
    if is_document_url(client_id) {
        return client_metadata::client_from_document(host, client_id).await;
    }
    let unknown = || {
        OAuthError::protocol(ErrorCode::InvalidClient, format!("no client {client_id} is registered here"))
    };
    if !client_id.starts_with("cli_") || client_id.len() > 64 {
        return Err(unknown());
    }
    let row = host.store().oauth_client(client_id).await?.ok_or_else(unknown)?;
    Ok(Client {
        name: row.client_name.clone().unwrap_or_else(|| row.id.clone()),
        id: row.id,
        redirect_uris: row.redirect_uris,
    })
}
