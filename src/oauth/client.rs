//! A client of the authorization server, wherever its description came from (a registration
//! or a metadata document).

use super::redirect::redirect_matches;

/// A client, wherever its description came from.
#[derive(Debug, Clone)]
pub struct Client {
    /// The `client_id`.
    pub id: String,
    /// The name to show (its `client_name`, else its id).
    pub name: String,
    /// Its registered redirect URIs.
    pub redirect_uris: Vec<String>,
}

impl Client {
    /// The redirect URI of a request: the one given, if it matches a registered one; the only
    /// registered one when none is given. `None` when it cannot be trusted.
    pub fn redirect_uri(&self, requested: Option<&str>) -> Option<String> {
        match requested {
            Some(uri) => self.redirect_uris.iter().any(|r| redirect_matches(r, uri)).then(|| uri.to_string()),
            None if self.redirect_uris.len() == 1 => Some(self.redirect_uris[0].clone()),
            None => None,
        }
    }
}
