//! The `scope` parameter of the authorization and refresh requests (RFC 6749 section 3.3):
//! space-delimited, and the server may ignore what it was asked for. Scopes this server does not
//! know (`offline_access`, which some MCP clients add to every request, or another server's)
//! are ignored; the token answer's `scope` says what was granted. A request that asked only for
//! unknown scopes is refused: granting something else in their place would surprise its user.

use super::error::{ErrorCode, OAuthError};
use crate::auth::ALL_SCOPES;

/// What a `scope` parameter asks for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Asked {
    /// The scopes this server knows, each once, in the order asked.
    pub known: Vec<String>,
    /// The others, as given: ignored.
    pub ignored: Vec<String>,
}

impl Asked {
    /// Reads a `scope` parameter (absent or empty: nothing asked).
    pub fn parse(scope: Option<&str>) -> Self {
        let mut asked = Asked::default();
        for scope in scope.unwrap_or("").split(' ').filter(|s| !s.is_empty()) {
            let list = if ALL_SCOPES.contains(&scope) { &mut asked.known } else { &mut asked.ignored };
            if !list.iter().any(|s| s == scope) {
                list.push(scope.to_string());
            }
        }
        asked
    }

    /// The known scopes asked for (empty: nothing was asked); `invalid_scope` when scopes were
    /// asked for and none of them is known here.
    pub fn known_or_refuse(self) -> Result<Vec<String>, OAuthError> {
        if self.known.is_empty() && !self.ignored.is_empty() {
            return Err(OAuthError::protocol(
                ErrorCode::InvalidScope,
                format!(
                    "none of the requested scopes is known here ({}); the scopes are: {}",
                    self.ignored.join(" "),
                    ALL_SCOPES.join(" ")
                ),
            ));
        }
        Ok(self.known)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_scopes_are_ignored_unless_nothing_known_is_left() {
        let asked = Asked::parse(Some("dunning.read offline_access  dunning.read dunning.write"));
        assert_eq!(asked.known, ["dunning.read", "dunning.write"]);
        assert_eq!(asked.ignored, ["offline_access"]);
        assert_eq!(asked.known_or_refuse().unwrap(), ["dunning.read", "dunning.write"]);

        let refused = Asked::parse(Some("offline_access admin")).known_or_refuse().unwrap_err();
        let (code, description) = refused.public();
        assert_eq!(code, ErrorCode::InvalidScope);
        assert!(description.contains("offline_access admin"), "{description}");

        assert_eq!(Asked::parse(None).known_or_refuse().unwrap(), Vec::<String>::new(), "nothing asked");
        assert_eq!(Asked::parse(Some("  ")).known_or_refuse().unwrap(), Vec::<String>::new());
        assert_eq!(Asked::parse(Some("Dunning.Read")).ignored, ["Dunning.Read"], "scopes are case-sensitive");
    }
}
