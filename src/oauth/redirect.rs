//! Redirect URIs: which a client may register, and when a requested one matches (exactly,
//! except the port of a loopback IP literal, RFC 8252 section 7.3: a native app listens on
//! whatever port it got).

use url::{Host, Url};

/// The longest redirect URI accepted.
const MAX_URI_LEN: usize = 2000;

/// The parameters this server adds to a redirect URI's query when it answers: a redirect URI
/// that already carries one would reach the client with two values (which one it reads is
/// the client's guess, and a planted `code` or `error` could be the one).
const RESPONSE_PARAMETERS: [&str; 6] = ["code", "state", "iss", "error", "error_description", "error_uri"];

/// Why a redirect URI cannot be registered, if it cannot: https, or http on loopback
/// (127.0.0.1, [::1], localhost); no fragment, no credentials, none of the response's
/// parameters in its query.
pub fn check_redirect_uri(uri: &str) -> Result<(), String> {
    if uri.len() > MAX_URI_LEN {
        return Err("a redirect URI is longer than 2000 characters".into());
    }
    // The URL parser drops tabs and line breaks and escapes spaces, quotes and `<>`: a URI
    // holding them would be stored, and shown on the consent page, as other text than the URL
    // it parses to. Only the characters RFC 3986 allows unescaped pass.
    if let Some(c) = uri.chars().find(|&c| !allowed_in_uri(c)) {
        return Err(format!(
            "the redirect URI {} holds {}, which a URI writes percent-encoded",
            uri.escape_debug(),
            c.escape_unicode()
        ));
    }
    if uri.contains('#') {
        return Err(format!("the redirect URI {uri} has a fragment"));
    }
    let url = Url::parse(uri).map_err(|_| format!("{uri} is not an absolute URI"))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!("the redirect URI {uri} carries credentials"));
    }
    let planted = url.query_pairs().find(|(name, _)| RESPONSE_PARAMETERS.contains(&name.as_ref()));
    if let Some((name, _)) = planted {
        return Err(format!("the redirect URI {uri} already has a {name} parameter, which the answer adds"));
    }
    match (url.scheme(), url.host()) {
        ("https", Some(_)) => Ok(()),
        ("http", Some(host)) if is_loopback(&host) => Ok(()),
        ("http", _) => {
            Err(format!("the redirect URI {uri} must be https (http only for 127.0.0.1, [::1] or localhost)"))
        }
        _ => {
            Err(format!("the redirect URI {uri} must be https (http only for 127.0.0.1, [::1] or localhost)"))
        }
    }
}

/// RFC 3986's unreserved and reserved characters and `%`, less the single quote (which the
/// parser escapes in a query, and which ends an HTML attribute): no controls, spaces, quotes,
/// `<>`, backslashes or non-ASCII.
fn allowed_in_uri(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&()*+,;=%".contains(c)
}

fn is_loopback(host: &Host<&str>) -> bool {
    match host {
        Host::Domain(name) => name.eq_ignore_ascii_case("localhost"),
        Host::Ipv4(v4) => v4.is_loopback(),
        Host::Ipv6(v6) => v6.is_loopback(),
    }
}

/// Whether `requested` matches `registered`: the same text, or, for an http loopback IP
/// literal, the same URI on another port.
pub fn redirect_matches(registered: &str, requested: &str) -> bool {
    if registered == requested {
        return true;
    }
    let (Ok(reg), Ok(req)) = (Url::parse(registered), Url::parse(requested)) else {
        return false;
    };
    let loopback_ip = match reg.host() {
        Some(Host::Ipv4(v4)) => v4 == std::net::Ipv4Addr::LOCALHOST,
        Some(Host::Ipv6(v6)) => v6 == std::net::Ipv6Addr::LOCALHOST,
        _ => false,
    };
    loopback_ip
        && reg.scheme() == "http"
        && req.scheme() == "http"
        && reg.host() == req.host()
        && reg.path() == req.path()
        && reg.query() == req.query()
        && req.fragment().is_none()
        && req.username().is_empty()
        && req.password().is_none()
        && !requested.contains('#')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_may_be_registered() {
        for ok in [
            "https://app.example.com/callback",
            "https://app.example.com/cb?x=1",
            "https://app.example.com/cb?codes=1&issuer=x",
            "http://127.0.0.1/callback",
            "http://127.0.0.1:8765/callback",
            "http://[::1]:9000/cb",
            "http://localhost:3000/cb",
        ] {
            assert!(check_redirect_uri(ok).is_ok(), "{ok}");
        }
        for bad in [
            "http://app.example.com/callback",
            "https://app.example.com/cb#frag",
            "https://app.example.com/cb#",
            "/relative",
            "javascript:alert(1)",
            "https://user:pw@app.example.com/cb",
            "http://10.0.0.1/cb",
            "ftp://127.0.0.1/cb",
            "https://app.example.com/cb?code=planted",
            "https://app.example.com/cb?x=1&state=s",
            "http://127.0.0.1/cb?iss=https://evil.example",
            "https://app.example.com/cb?error=access_denied",
            "https://app.example.com/cb?%65rror=x",
        ] {
            assert!(check_redirect_uri(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn what_the_parser_would_drop_or_escape_is_refused() {
        for bad in [
            "https://app.example.com/cb\r\nSet-Cookie: x=1",
            "https://app.example.com/c\tb",
            "https://app.example.com/c b",
            "https://app.example.com/cb?x=\"y\"",
            "https://app.example.com/cb?x='y'",
            "https://app.example.com/cb?x=<script>",
            "https://app.example.com\\cb",
            "https://app.example.com/cb\u{202e}",
            "https://app.example.com/cb\u{0}",
            " https://app.example.com/cb",
            "https://app.example.com/cb ",
        ] {
            let why = check_redirect_uri(bad).expect_err(bad);
            assert!(!why.contains(['\r', '\n']), "{why}");
        }
        assert!(check_redirect_uri("https://app.example.com/c%20b?q=a%22b&r=(1)").is_ok());
    }

    #[test]
    fn exact_match_except_the_loopback_port() {
        assert!(redirect_matches("https://a.example/cb", "https://a.example/cb"));
        assert!(!redirect_matches("https://a.example/cb", "https://a.example/cb/"));
        assert!(!redirect_matches("https://a.example/cb", "https://a.example:8443/cb"));
        assert!(!redirect_matches("https://a.example/cb", "https://a.example/cb?x=1"));
        assert!(redirect_matches("http://127.0.0.1/cb", "http://127.0.0.1:53127/cb"));
        assert!(redirect_matches("http://127.0.0.1:3000/cb", "http://127.0.0.1:4000/cb"));
        assert!(redirect_matches("http://[::1]:3000/cb", "http://[::1]:4000/cb"));
        assert!(!redirect_matches("http://127.0.0.1/cb", "http://127.0.0.1:5000/other"));
        assert!(!redirect_matches("http://127.0.0.1/cb", "http://127.0.0.2:5000/cb"));
        assert!(!redirect_matches("http://127.0.0.1/cb", "https://127.0.0.1:5000/cb"));
        assert!(!redirect_matches("http://127.0.0.1/cb", "http://127.0.0.1:5000/cb#x"));
        assert!(
            !redirect_matches("http://localhost:3000/cb", "http://localhost:4000/cb"),
            "names are not IP literals"
        );
        assert!(!redirect_matches("http://127.0.0.1/cb", "http://evil.example/cb"));
    }
}
