//! A client of the authorization server, wherever its description came from (a registration
//! or a metadata document).

use super::redirect::redirect_matches;
use crate::domain::text::is_format;

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

/// A `client_name` as the pages show it, whoever gave it (a registration or a metadata
/// document): trimmed, without control, line-separating or invisible format characters (a bidi
/// override in "Evil\u{202e}ppA" would show it as another app's name on the consent page), at most 100
/// characters; `None` when nothing is left.
pub fn clean_name(name: Option<String>) -> Option<String> {
    let shown = |c: &char| !c.is_control() && !matches!(c, '\u{2028}' | '\u{2029}') && !is_format(*c);
    name.map(|n| n.chars().filter(shown).collect::<String>().trim().chars().take(100).collect::<String>())
        .filter(|n| !n.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_cleaned_and_capped() {
        assert_eq!(clean_name(Some("  Claude \u{7}Desktop\n ".into())).as_deref(), Some("Claude Desktop"));
        assert_eq!(clean_name(Some("x".repeat(150))).map(|n| n.chars().count()), Some(100));
        assert_eq!(
            clean_name(Some("ç".repeat(150))).map(|n| n.chars().count()),
            Some(100),
            "characters, not bytes"
        );
        assert_eq!(clean_name(Some(" \t\u{1b} ".into())), None, "nothing left");
        assert_eq!(
            clean_name(Some("Evil\u{202e}ppA".into())).as_deref(),
            Some("EvilppA"),
            "no bidi override"
        );
        assert_eq!(clean_name(Some("\u{200b}Claude\u{2028}\u{feff}".into())).as_deref(), Some("Claude"));
        assert_eq!(clean_name(None), None);
    }
}
