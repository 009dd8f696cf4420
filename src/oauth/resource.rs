//! RFC 8707 resource indicators: the `resource` a client names becomes the audience of its
//! tokens. `<public>/mcp`, its narrower paths (`/mcp/x/<toolsets>`, `/mcp/readonly`) and
//! `<public>` (the `POST /` alias) are the MCP endpoint, audience `mcp`;
//! `<public>/v1` is the REST API, audience `api`. No `resource` means MCP, what clients of this
//! server sign in for.

use super::error::{ErrorCode, OAuthError, OAuthResult};

/// The audience of a `resource` parameter at a server reached at `public_url`.
pub fn audience_of(public_url: &str, resource: Option<&str>) -> OAuthResult<&'static str> {
    let Some(resource) = resource else { return Ok("mcp") };
    let public_url = public_url.trim_end_matches('/');
    let path = resource.strip_prefix(public_url).map(|rest| rest.trim_end_matches('/'));
    match path {
        Some("" | "/mcp") => Ok("mcp"),
        Some("/v1") => Ok("api"),
        // The narrower MCP paths (`/mcp/x/charges`, `/mcp/readonly`) are the MCP endpoint too.
        Some(path) if crate::toolsets::parse(path).is_ok() => Ok("mcp"),
        _ => Err(OAuthError::protocol(
            ErrorCode::InvalidTarget,
            format!("this server protects {public_url}/mcp and {public_url}/v1, not {resource}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_map_to_audiences() {
        let public = "https://dunning.example";
        assert_eq!(audience_of(public, None).unwrap(), "mcp");
        assert_eq!(audience_of(public, Some("https://dunning.example/mcp")).unwrap(), "mcp");
        assert_eq!(audience_of(public, Some("https://dunning.example/")).unwrap(), "mcp");
        assert_eq!(audience_of(public, Some("https://dunning.example")).unwrap(), "mcp");
        assert_eq!(audience_of(public, Some("https://dunning.example/v1")).unwrap(), "api");
        for narrower in ["/mcp/readonly", "/mcp/x/charges", "/mcp/x/charges,debtors/readonly"] {
            let resource = format!("https://dunning.example{narrower}");
            assert_eq!(audience_of(public, Some(&resource)).unwrap(), "mcp", "{narrower}");
        }
        for other in [
            "https://dunning.example/v2",
            "https://dunning.example.evil/mcp",
            "https://other.example/mcp",
            "https://dunning.examplemcp",
            "https://dunning.example/mcp/x/nope",
            "https://dunning.example/mcp/other",
        ] {
            assert!(audience_of(public, Some(other)).is_err(), "{other}");
        }
    }
}
