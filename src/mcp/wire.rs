//! JSON-RPC 2.0 framing and the MCP error codes.
//!
//! Hand-written rather than taken from `rmcp::model`: the contract's answers mix two protocol
//! eras in one endpoint (2026 `resultType`/`_meta` envelopes beside 2025 results, errors without
//! `id`, HTTP statuses per error), which no single SDK model type expresses, and the shapes here
//! are small enough that owning them is cheaper than adapting them.

use std::borrow::Cow;
use std::fmt;

use poem::http::StatusCode;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value, json};

use super::params::{Params, ParamsMember};

/// Parse error.
pub const PARSE_ERROR: i64 = -32700;
/// Invalid request (also: batch, body too large, wrong content type).
pub const INVALID_REQUEST: i64 = -32600;
/// Method not found.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid params (also: unknown tool or prompt, missing envelope fields, 2026 resource not found).
pub const INVALID_PARAMS: i64 = -32602;
/// Internal error.
pub const INTERNAL_ERROR: i64 = -32603;
/// Server error (rate limit, overload).
pub const SERVER_ERROR: i64 = -32000;
/// 2025 resource not found.
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// 2026 header mismatch.
pub const HEADER_MISMATCH: i64 = -32020;
/// 2026 unsupported protocol version.
pub const UNSUPPORTED_VERSION: i64 = -32022;

/// A JSON-RPC error together with the HTTP status and headers it travels with.
#[derive(Debug, Clone)]
pub struct RpcError {
    /// HTTP status of the answer.
    pub status: StatusCode,
    /// JSON-RPC error code.
    pub code: i64,
    /// Human-readable message.
    pub message: String,
    /// Structured data (boxed: errors travel in `Result`s and should stay small).
    pub data: Option<Box<Value>>,
    /// Extra response headers (WWW-Authenticate, Retry-After).
    pub headers: Vec<(&'static str, String)>,
}

impl RpcError {
    /// An error with status and code.
    pub fn new(status: StatusCode, code: i64, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), data: None, headers: Vec::new() }
    }

    /// With `data`.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(Box::new(data));
        self
    }

    /// With a response header.
    pub fn with_header(mut self, name: &'static str, value: String) -> Self {
        self.headers.push((name, value));
        self
    }

    /// -32602 in a 200: an argument the caller can fix.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(StatusCode::OK, INVALID_PARAMS, message)
    }

    /// The JSON-RPC error object (with the request id when it could be read).
    pub fn body(&self, id: Option<&Value>) -> Value {
        let mut error = json!({ "code": self.code, "message": self.message });
        if let Some(data) = &self.data {
            error["data"] = (**data).clone();
        }
        let mut body = Map::new();
        body.insert("jsonrpc".into(), json!("2.0"));
        if let Some(id) = id {
            body.insert("id".into(), id.clone());
        }
        body.insert("error".into(), error);
        Value::Object(body)
    }
}

/// A body read as JSON-RPC reads it: an array (a batch), another non-object, or an object's
/// members. Read straight from the bytes without a `Value` tree for the top level (its
/// map and keys were most of what parsing an envelope cost); each member keeps the value of its
/// last occurrence, as a JSON object does once parsed.
#[derive(Debug)]
// Read once and taken apart at once: a box would be one more allocation per request.
#[allow(clippy::large_enum_variant)]
pub enum Body {
    /// A JSON array.
    Batch,
    /// A JSON value that is neither an array nor an object.
    NotObject,
    /// A JSON object.
    Object(Members),
}

/// The members of a JSON-RPC object, not yet judged.
#[derive(Debug, Default)]
pub struct Members {
    /// Whether `jsonrpc` is `"2.0"` (`None` when absent, `Some(None)` when not a string).
    jsonrpc: Option<StringMember<bool>>,
    id: Option<Value>,
    method: Option<StringMember<Cow<'static, str>>>,
    params: Option<ParamsMember>,
    has_result: bool,
    has_error: bool,
}

impl Body {
    /// Reads a body; an error means it is not one JSON value. Read from the bytes, not a `str`:
    /// serde_json does not check the strings of a member it skips, so a body that is not UTF-8
    /// can still be a message.
    pub fn parse(bytes: &[u8]) -> serde_json::Result<Self> {
        serde_json::from_slice(bytes)
    }
}

impl Members {
    /// The id when it is one a JSON-RPC answer can repeat (a string or a number).
    pub fn readable_id(&self) -> Option<Value> {
        self.id.as_ref().filter(|id| id.is_string() || id.is_number()).cloned()
    }
}

impl<'de> Deserialize<'de> for Body {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(BodyVisitor)
    }
}

struct BodyVisitor;

impl<'de> Visitor<'de> for BodyVisitor {
    type Value = Body;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Body, E> {
        Ok(Body::NotObject)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Body, E> {
        Ok(Body::NotObject)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Body, E> {
        Ok(Body::NotObject)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Body, E> {
        Ok(Body::NotObject)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Body, E> {
        Ok(Body::NotObject)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Body, E> {
        Ok(Body::NotObject)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Body, A::Error> {
        // Read to the end: a batch is refused only when it is JSON.
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Body::Batch)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Body, A::Error> {
        let mut members = Members::default();
        while let Some(member) = map.next_key::<Member>()? {
            match member {
                Member::Jsonrpc => members.jsonrpc = Some(map.next_value()?),
                Member::Id => members.id = Some(map.next_value()?),
                Member::Method => members.method = Some(map.next_value()?),
                Member::Params => members.params = Some(map.next_value()?),
                Member::Result => {
                    map.next_value::<IgnoredAny>()?;
                    members.has_result = true;
                }
                Member::Error => {
                    map.next_value::<IgnoredAny>()?;
                    members.has_error = true;
                }
                Member::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Body::Object(members))
    }
}

/// A member that matters only as a string: `Some` of what `T` makes of the string, `None` for
/// any other value. The other values are still read whole, as a `Value` would read them, so
/// what is not JSON in them stays a parse error.
#[derive(Debug)]
struct StringMember<T>(Option<T>);

/// What a [`StringMember`] keeps of its string, made without allocating where it can.
trait FromMemberStr: Sized {
    fn from_member_str(text: &str) -> Self;
}

/// `jsonrpc`: whether it is `"2.0"`; the text itself is never needed.
impl FromMemberStr for bool {
    fn from_member_str(text: &str) -> Self {
        text == "2.0"
    }
}

/// The methods (and notifications) clients send, kept as static text: a method is matched and
/// echoed, never changed, so a known one needs no allocation. Any other name is copied.
const KNOWN_METHODS: [&str; 16] = [
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
];

impl FromMemberStr for Cow<'static, str> {
    fn from_member_str(text: &str) -> Self {
        match KNOWN_METHODS.iter().find(|known| **known == text) {
            Some(known) => Cow::Borrowed(known),
            None => Cow::Owned(text.to_string()),
        }
    }
}

impl<'de, T: FromMemberStr> Deserialize<'de> for StringMember<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StringMemberVisitor(std::marker::PhantomData))
    }
}

struct StringMemberVisitor<T>(std::marker::PhantomData<T>);

impl<'de, T: FromMemberStr> Visitor<'de> for StringMemberVisitor<T> {
    type Value = StringMember<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(StringMember(Some(T::from_member_str(text))))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(StringMember(None))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(StringMember(None))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(StringMember(None))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(StringMember(None))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(StringMember(None))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
        Ok(StringMember(None))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(StringMember(None))
    }
}

/// A member name of a JSON-RPC object.
enum Member {
    Jsonrpc,
    Id,
    Method,
    Params,
    Result,
    Error,
    Other,
}

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(MemberVisitor)
    }
}

struct MemberVisitor;

impl Visitor<'_> for MemberVisitor {
    type Value = Member;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Member, E> {
        Ok(match name {
            "jsonrpc" => Member::Jsonrpc,
            "id" => Member::Id,
            "method" => Member::Method,
            "params" => Member::Params,
            "result" => Member::Result,
            "error" => Member::Error,
            _ => Member::Other,
        })
    }
}

/// One parsed JSON-RPC message.
#[derive(Debug, Clone)]
pub struct Message {
    /// The id; `None` for notifications (and client responses).
    pub id: Option<Value>,
    /// The method; `None` for client responses.
    pub method: Option<Cow<'static, str>>,
    /// The params object (empty when absent).
    pub params: Params,
}

impl Message {
    /// Judges an object's members by the JSON-RPC rules, refusing what is not a message.
    pub fn parse(members: Members) -> Result<Self, RpcError> {
        let invalid = |message: &str| RpcError::new(StatusCode::BAD_REQUEST, INVALID_REQUEST, message);
        if !matches!(members.jsonrpc, Some(StringMember(Some(true)))) {
            return Err(invalid("Invalid Request: jsonrpc must be \"2.0\""));
        }
        let id = members.readable_id();
        if members.id.is_some() && id.is_none() {
            return Err(invalid("Invalid Request: id must be a string or a number"));
        }
        let method = match members.method {
            None => None,
            Some(StringMember(Some(m))) => Some(m),
            Some(StringMember(None)) => return Err(invalid("Invalid Request: method must be a string")),
        };
        if method.is_none() && !(members.has_result || members.has_error) {
            return Err(invalid("Invalid Request: no method"));
        }
        let params = match members.params {
            None | Some(ParamsMember::Null) => Params::default(),
            Some(ParamsMember::Object(p)) => p,
            Some(ParamsMember::Other) => {
                return Err(RpcError::new(
                    StatusCode::BAD_REQUEST,
                    INVALID_PARAMS,
                    "params must be an object",
                ));
            }
        };
        Ok(Self { id, method, params })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(body: &str) -> Result<Message, RpcError> {
        match Body::parse(body.as_bytes()).expect("JSON") {
            Body::Object(members) => Message::parse(members),
            other => panic!("not an object: {other:?}"),
        }
    }

    #[test]
    fn bodies_are_told_apart_as_a_value_tree_would() {
        assert!(matches!(Body::parse(b"[]"), Ok(Body::Batch)));
        assert!(matches!(Body::parse(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#), Ok(Body::Batch)));
        for scalar in ["1", "-2.5", "true", "null", r#""x""#, "18446744073709551616"] {
            assert!(matches!(Body::parse(scalar.as_bytes()), Ok(Body::NotObject)), "{scalar}");
        }
        // Not JSON anywhere, ignored members and batches included, is a parse error.
        for broken in ["", "{", "[1,]", r#"{"x": [1,}"#, r#"{"id":1} x"#, r#"{"id":1,}"#, "{'id':1}"] {
            assert!(Body::parse(broken.as_bytes()).is_err(), "{broken}");
        }
        // Bytes that are not UTF-8 are judged as serde_json judges a slice: refused in a string
        // that is read, passed over in a member or a batch that is skipped.
        for (odd, readable) in [
            (&b"{\"method\":\"to\xffls/call\"}"[..], false),
            (b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\xff\"}", true),
            (b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"\xc3\"}", true),
            (b"[\"\xed\xa0\x80\"]", true),
        ] {
            let by_slice = serde_json::from_slice::<Body>(odd);
            assert_eq!(by_slice.is_ok(), readable, "{}", String::from_utf8_lossy(odd));
            assert_eq!(format!("{:?}", Body::parse(odd).ok()), format!("{:?}", by_slice.ok()));
        }
        assert!(matches!(Body::parse("{\"x\":\"Jos\u{e9}\"}".as_bytes()), Ok(Body::Object(_))));
    }

    #[test]
    fn members_keep_their_last_value_and_escaped_names_count() {
        let m = message(
            r#"{"jsonrpc":"1.0","id":"a","\u006aso\u006erpc":"2.0","method":"x","id":7,"params":{"k":1}}"#,
        )
        .unwrap();
        assert_eq!(m.id, Some(json!(7)));
        assert_eq!(m.method.as_deref(), Some("x"));
        assert_eq!(m.params.get("k"), Some(&json!(1)));
    }

    #[test]
    fn messages_are_judged_in_order() {
        let refused = |body: &str| message(body).expect_err(body);
        assert!(refused(r#"{"id":1,"method":"x"}"#).message.contains("jsonrpc"));
        assert!(refused(r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#).message.contains("id must be"));
        assert!(refused(r#"{"jsonrpc":"2.0","id":[1],"method":"x"}"#).message.contains("id must be"));
        assert!(refused(r#"{"jsonrpc":"2.0","id":1,"method":2}"#).message.contains("method must be"));
        assert!(refused(r#"{"jsonrpc":"2.0","id":1}"#).message.contains("no method"));
        let params = refused(r#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#);
        assert_eq!(params.code, INVALID_PARAMS);
        // Client responses have no method; notifications no id; absent or null params are empty.
        assert!(message(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).unwrap().method.is_none());
        assert!(message(r#"{"jsonrpc":"2.0","id":1,"error":{"code":1}}"#).is_ok());
        let note =
            message(r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":null}"#).unwrap();
        assert!(note.id.is_none() && note.params == Params::default());
        assert_eq!(message(r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#).unwrap().id, Some(json!(1.5)));
    }

    #[test]
    fn known_methods_are_kept_without_a_copy() {
        for method in KNOWN_METHODS {
            let m = message(&format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}"}}"#)).unwrap();
            assert!(matches!(m.method, Some(Cow::Borrowed(known)) if known == method), "{method}");
        }
        let escaped = message(r#"{"jsonrpc":"2.0","id":1,"method":"tools/cal\u006c"}"#).unwrap();
        assert!(matches!(escaped.method, Some(Cow::Borrowed("tools/call"))));
        let other = message(r#"{"jsonrpc":"2.0","id":1,"method":"tools/calls"}"#).unwrap();
        assert!(matches!(other.method, Some(Cow::Owned(ref name)) if name == "tools/calls"));
        for method in ["2", "null", r#"["tools/call"]"#, r#"{"m":"tools/call"}"#] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":{method}}}"#);
            assert!(message(&body).expect_err(&body).message.contains("method must be"), "{body}");
        }
        assert!(Body::parse(br#"{"jsonrpc":"2.0","id":1,"method":[1e400]}"#).is_err());
    }

    #[test]
    fn jsonrpc_is_the_string_2_0_and_anything_else_is_refused_or_unparsed() {
        for version in [r#""2.0""#, r#""2\u002e0""#] {
            let body = format!(r#"{{"jsonrpc":{version},"id":1,"method":"x"}}"#);
            assert!(message(&body).is_ok(), "{body}");
        }
        for version in
            [r#""2.1""#, r#""2.0 ""#, r#""""#, "2", "2.0", "true", "null", r#"["2.0"]"#, r#"{"v":"2.0"}"#]
        {
            let body = format!(r#"{{"jsonrpc":{version},"id":1,"method":"x"}}"#);
            assert!(message(&body).expect_err(&body).message.contains("jsonrpc"), "{body}");
        }
        // Inside an array or object, what a `Value` refuses stays a parse error.
        for version in ["[1e400]", r#"{"a":"\ud800"}"#, "[1,]"] {
            let body = format!(r#"{{"jsonrpc":{version},"id":1,"method":"x"}}"#);
            assert!(serde_json::from_str::<Value>(&body).is_err(), "{body}");
            assert!(Body::parse(body.as_bytes()).is_err(), "{body}");
        }
    }
}
