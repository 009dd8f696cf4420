//! Request parameters (a query string or an urlencoded body). RFC 6749 section 3.1: a
//! parameter sent twice is an invalid request, never "the first one wins".

use poem::Request;

use super::error::{ErrorCode, OAuthError, OAuthResult};

/// The most an urlencoded body of the authorization server may hold.
pub const MAX_FORM_BYTES: usize = 64 * 1024;

/// Parameters by name, each at most once.
#[derive(Debug, Default, Clone)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// Parses urlencoded text, refusing a name given twice.
    pub fn parse(text: &[u8]) -> OAuthResult<Params> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (name, value) in form_urlencoded::parse(text) {
            if pairs.iter().any(|(n, _)| *n == name) {
                return Err(OAuthError::protocol(
                    ErrorCode::InvalidRequest,
                    format!("the parameter {name} is given more than once"),
                ));
            }
            pairs.push((name.into_owned(), value.into_owned()));
        }
        Ok(Params(pairs))
    }

    /// The query string's parameters.
    pub fn of_query(req: &Request) -> OAuthResult<Params> {
        Params::parse(req.uri().query().unwrap_or("").as_bytes())
    }

    /// An urlencoded body's parameters (the Content-Type must say so).
    pub async fn of_body(req: &Request, body: poem::Body) -> OAuthResult<Params> {
        let content_type = req.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("");
        let essence = content_type.split(';').next().unwrap_or("").trim();
        if !essence.eq_ignore_ascii_case("application/x-www-form-urlencoded") {
            return Err(OAuthError::protocol(
                ErrorCode::InvalidRequest,
                "the body must be application/x-www-form-urlencoded",
            ));
        }
        let bytes = body.into_bytes_limit(MAX_FORM_BYTES).await.map_err(|_| {
            OAuthError::protocol(ErrorCode::InvalidRequest, "the body is too large or could not be read")
        })?;
        Params::parse(&bytes)
    }

    /// A parameter, if given and not empty (RFC 6749: an empty parameter is an omitted one).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str()).filter(|v| !v.is_empty())
    }

    /// A required parameter.
    pub fn require(&self, name: &str) -> OAuthResult<&str> {
        self.get(name).ok_or_else(|| {
            OAuthError::protocol(ErrorCode::InvalidRequest, format!("the parameter {name} is required"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_read_once_each() {
        let p = Params::parse(b"a=1&b=&c=x%20y").unwrap();
        assert_eq!(p.get("a"), Some("1"));
        assert_eq!(p.get("b"), None, "empty is omitted");
        assert_eq!(p.get("c"), Some("x y"));
        assert!(p.require("d").is_err());
        assert!(Params::parse(b"a=1&a=2").is_err());
    }
}
