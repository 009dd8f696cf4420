//! The request headers the endpoint reads, found in one pass over the header map.
//!
//! A lookup by name hashes the name and probes the map; the endpoint made seven of them per
//! request (Origin, Content-Type, Accept, Authorization, and the era's three, which alone cost a
//! 2026-era tools/call about 800 instructions; issue 8, callgrind). One walk over the few
//! headers a request carries finds them all. Each is the first value sent under its name, as
//! `HeaderMap::get` gives it.

use poem::http::{HeaderMap, HeaderValue};

/// The headers the endpoint reads, as sent.
#[derive(Debug, Default, Clone, Copy)]
pub struct McpHeaders<'a> {
    /// `Origin`.
    pub origin: Option<&'a HeaderValue>,
    /// `Content-Type`.
    pub content_type: Option<&'a HeaderValue>,
    /// `Accept`.
    pub accept: Option<&'a HeaderValue>,
    /// `Authorization`.
    pub authorization: Option<&'a HeaderValue>,
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<&'a HeaderValue>,
    /// `Mcp-Method` (2026-07-28).
    pub method: Option<&'a HeaderValue>,
    /// `Mcp-Name` (2026-07-28).
    pub name: Option<&'a HeaderValue>,
}

impl<'a> McpHeaders<'a> {
    /// Finds the endpoint's headers among a request's.
    pub fn read(headers: &'a HeaderMap) -> Self {
        let mut found = Self::default();
        // Names in a map are lower case.
        for (name, value) in headers {
            let slot = match name.as_str() {
                "origin" => &mut found.origin,
                "content-type" => &mut found.content_type,
                "accept" => &mut found.accept,
                "authorization" => &mut found.authorization,
                "mcp-protocol-version" => &mut found.protocol_version,
                "mcp-method" => &mut found.method,
                "mcp-name" => &mut found.name,
                _ => continue,
            };
            slot.get_or_insert(value);
        }
        found
    }
}

/// A header's value as text, when it is visible ASCII (what `HeaderValue::to_str` admits).
pub fn text(value: Option<&HeaderValue>) -> Option<&str> {
    value.and_then(|v| v.to_str().ok())
}

#[cfg(test)]
mod tests {
    use poem::http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, ORIGIN};
    use poem::http::{HeaderName, HeaderValue};

    use super::*;

    #[test]
    fn each_header_is_the_first_value_a_lookup_gives() {
        let mut headers = HeaderMap::new();
        let names = [
            ORIGIN,
            CONTENT_TYPE,
            ACCEPT,
            AUTHORIZATION,
            HeaderName::from_static("mcp-protocol-version"),
            HeaderName::from_static("mcp-method"),
            HeaderName::from_static("mcp-name"),
        ];
        headers.append("x-other", HeaderValue::from_static("x"));
        for (i, name) in names.iter().enumerate() {
            headers.append(name.clone(), HeaderValue::from_str(&format!("first {i}")).unwrap());
        }
        for (i, name) in names.iter().enumerate().rev() {
            headers.append(name.clone(), HeaderValue::from_str(&format!("second {i}")).unwrap());
        }
        let found = McpHeaders::read(&headers);
        let read = [
            found.origin,
            found.content_type,
            found.accept,
            found.authorization,
            found.protocol_version,
            found.method,
            found.name,
        ];
        for (name, value) in names.iter().zip(read) {
            assert_eq!(value, headers.get(name), "{name}");
        }
        assert_eq!(text(found.name), Some("first 6"));

        let none = HeaderMap::new();
        let empty = McpHeaders::read(&none);
        assert!(empty.origin.is_none() && empty.name.is_none() && empty.authorization.is_none());
    }

    #[test]
    fn only_visible_ascii_is_text() {
        assert_eq!(text(Some(&HeaderValue::from_static("a b"))), Some("a b"));
        assert_eq!(text(Some(&HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap())), None);
        assert_eq!(text(None), None);
    }
}
