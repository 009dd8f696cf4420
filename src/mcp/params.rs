//! A message's `params`, read without a map for the members every tools/call carries.
//!
//! serde_json's `Map` is an IndexMap with SipHash: reading `{"name", "arguments", "_meta"}`
//! into one cost an allocated key per member, a table, and a hash per insert and per lookup,
//! on every call (callgrind, docs/PERFORMANCE.md). `name`, `arguments` and `_meta` are kept in
//! fields instead; any other member goes to a map, as before. Lookups by name answer the same
//! either way, and a repeated member keeps its last value, as a `Map` does. `_meta` is read the
//! same way, into [`Meta`] (the two members of the 2026 envelope, which every 2026-era request
//! carries, in fields), and is read with [`Params::meta`], not `get`.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::domain::json_shape::{self, ShapeError};

/// The members of a params object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Params {
    name: Option<Value>,
    arguments: Option<Value>,
    meta: Option<MetaMember>,
    /// Boxed, like `_meta`'s object: a message is moved a few times on its way, and a tools/call
    /// has neither (the whole struct was 432 bytes, now 224).
    rest: Option<Box<Map<String, Value>>>,
}

/// `params._meta` as sent: an object, or any other value.
#[derive(Debug, Clone, PartialEq)]
enum MetaMember {
    Object(Box<Meta>),
    Other(Value),
}

/// The members of a `_meta` object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Meta {
    version: Option<Value>,
    capabilities: Option<Value>,
    rest: Map<String, Value>,
}

/// The envelope's protocol version, in `_meta`.
pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The envelope's client capabilities, in `_meta`.
pub const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

const PARAMS_FIELDS: [&str; 3] = ["name", "arguments", "_meta"];
const META_FIELDS: [&str; 2] = [META_VERSION, META_CAPABILITIES];

impl Params {
    /// The member `key`, as `Map::get` would find it. `_meta` is read with [`Params::meta`].
    pub fn get(&self, key: &str) -> Option<&Value> {
        debug_assert_ne!(key, "_meta", "_meta is read with Params::meta");
        match key {
            "name" => self.name.as_ref(),
            "arguments" => self.arguments.as_ref(),
            "_meta" => None,
            _ => self.rest.as_ref()?.get(key),
        }
    }

    /// `_meta`, when it is an object.
    pub fn meta(&self) -> Option<&Meta> {
        match &self.meta {
            Some(MetaMember::Object(meta)) => Some(meta),
            _ => None,
        }
    }

    /// Sets the member `key`, replacing an earlier value.
    pub fn insert(&mut self, key: &str, value: Value) {
        match key {
            "name" => self.name = Some(value),
            "arguments" => self.arguments = Some(value),
            "_meta" => {
                self.meta = Some(match value {
                    Value::Object(map) => MetaMember::Object(Box::new(Meta::from(map))),
                    other => MetaMember::Other(other),
                })
            }
            _ => {
                self.rest.get_or_insert_default().insert(key.to_string(), value);
            }
        }
    }
}

impl Params {
    /// The members' shape ([`json_shape`]), each member judged on its own; a fault's path
    /// starts with the member's name (`arguments.address.street`).
    pub fn check_shape(&self) -> Result<(), ShapeError> {
        let named = [("name", self.name.as_ref()), ("arguments", self.arguments.as_ref())];
        for (name, value) in named.into_iter().filter_map(|(n, v)| Some((n, v?))) {
            json_shape::check(value).map_err(|fault| within(name, fault))?;
        }
        match &self.meta {
            Some(MetaMember::Other(value)) => json_shape::check(value).map_err(|f| within("_meta", f))?,
            Some(MetaMember::Object(meta)) => {
                for value in [&meta.version, &meta.capabilities].into_iter().flatten() {
                    json_shape::check(value).map_err(|f| within("_meta", f))?;
                }
                json_shape::check_object(&meta.rest).map_err(|f| within("_meta", f))?;
            }
            None => {}
        }
        match &self.rest {
            Some(rest) => json_shape::check_object(rest),
            None => Ok(()),
        }
    }
}

/// A member's fault, its path prefixed by the member's name.
fn within(member: &str, fault: ShapeError) -> ShapeError {
    let prefixed =
        |path: String| if path.is_empty() { member.to_string() } else { format!("{member}.{path}") };
    match fault {
        ShapeError::TooManyMembers { path } => ShapeError::TooManyMembers { path: prefixed(path) },
        ShapeError::ControlCharacter { path } => ShapeError::ControlCharacter { path: prefixed(path) },
        ShapeError::TooManyValues => ShapeError::TooManyValues,
    }
}

impl Meta {
    /// Sets the member `key`, replacing an earlier value.
    pub fn insert(&mut self, key: &str, value: Value) {
        match key {
            META_VERSION => self.version = Some(value),
            META_CAPABILITIES => self.capabilities = Some(value),
            _ => {
                self.rest.insert(key.to_string(), value);
            }
        }
    }

    /// The member `key`, as `Map::get` would find it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match key {
            META_VERSION => self.version.as_ref(),
            META_CAPABILITIES => self.capabilities.as_ref(),
            _ => self.rest.get(key),
        }
    }
}

impl From<Map<String, Value>> for Meta {
    fn from(map: Map<String, Value>) -> Self {
        let mut meta = Meta::default();
        for (key, value) in map {
            meta.insert(&key, value);
        }
        meta
    }
}

impl From<Map<String, Value>> for Params {
    fn from(map: Map<String, Value>) -> Self {
        let mut params = Params::default();
        for (key, value) in map {
            params.insert(&key, value);
        }
        params
    }
}

/// A `params` member as sent: an object, `null`, or anything else (refused by the caller).
#[derive(Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "read once per request, on the stack: a box would be one more allocation"
)]
pub enum ParamsMember {
    /// `null`.
    Null,
    /// An object.
    Object(Params),
    /// Neither.
    Other,
}

impl<'de> Deserialize<'de> for ParamsMember {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ParamsVisitor)
    }
}

struct ParamsVisitor;

impl<'de> Visitor<'de> for ParamsVisitor {
    type Value = ParamsMember;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<ParamsMember, E> {
        Ok(ParamsMember::Null)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<ParamsMember, E> {
        Ok(ParamsMember::Other)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<ParamsMember, E> {
        Ok(ParamsMember::Other)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<ParamsMember, E> {
        Ok(ParamsMember::Other)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<ParamsMember, E> {
        Ok(ParamsMember::Other)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<ParamsMember, E> {
        Ok(ParamsMember::Other)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ParamsMember, A::Error> {
        // Read as values, as a `Value` tree would: what is not valid JSON inside (a lone
        // surrogate, a number out of range) stays a parse error, not "params must be an object".
        while seq.next_element::<Value>()?.is_some() {}
        Ok(ParamsMember::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ParamsMember, A::Error> {
        let mut params = Params::default();
        while let Some(key) = map.next_key_seed(KeySeed(&PARAMS_FIELDS))? {
            match key {
                Key::Field(0) => params.name = Some(map.next_value()?),
                Key::Field(1) => params.arguments = Some(map.next_value()?),
                Key::Field(_) => params.meta = Some(map.next_value::<MetaMember>()?),
                Key::Other(key) => {
                    params.rest.get_or_insert_default().insert(key, map.next_value()?);
                }
            }
        }
        Ok(ParamsMember::Object(params))
    }
}

impl<'de> Deserialize<'de> for MetaMember {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MetaVisitor)
    }
}

/// `_meta`: an object is read into [`Meta`]; anything else is kept as the value it is.
struct MetaVisitor;

impl<'de> Visitor<'de> for MetaVisitor {
    type Value = MetaMember;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MetaMember, A::Error> {
        let mut meta = Meta::default();
        while let Some(key) = map.next_key_seed(KeySeed(&META_FIELDS))? {
            match key {
                Key::Field(0) => meta.version = Some(map.next_value()?),
                Key::Field(_) => meta.capabilities = Some(map.next_value()?),
                Key::Other(key) => {
                    meta.rest.insert(key, map.next_value()?);
                }
            }
        }
        Ok(MetaMember::Object(Box::new(meta)))
    }

    // Anything else is read as a `Value` would read it.
    fn visit_unit<E: de::Error>(self) -> Result<MetaMember, E> {
        Ok(MetaMember::Other(Value::Null))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<MetaMember, E> {
        Ok(MetaMember::Other(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<MetaMember, E> {
        Ok(MetaMember::Other(Value::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<MetaMember, E> {
        Ok(MetaMember::Other(Value::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<MetaMember, E> {
        Ok(MetaMember::Other(Value::from(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<MetaMember, E> {
        Ok(MetaMember::Other(Value::String(v.to_string())))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<MetaMember, A::Error> {
        let items = Vec::<Value>::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
        Ok(MetaMember::Other(Value::Array(items)))
    }
}

/// A member name: one of the names kept in fields (its index), told without allocating, or
/// another name.
enum Key {
    Field(usize),
    Other(String),
}

/// Reads a member name against the names kept in fields.
struct KeySeed(&'static [&'static str]);

impl<'de> de::DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
        Ok(match self.0.iter().position(|field| *field == name) {
            Some(index) => Key::Field(index),
            None => Key::Other(name.to_string()),
        })
    }

    fn visit_string<E: de::Error>(self, name: String) -> Result<Key, E> {
        Ok(match self.0.iter().position(|field| *field == name) {
            Some(index) => Key::Field(index),
            None => Key::Other(name),
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read(text: &str) -> ParamsMember {
        serde_json::from_str(text).unwrap()
    }

    fn object(text: &str) -> Params {
        match read(text) {
            ParamsMember::Object(params) => params,
            other => panic!("not an object: {other:?}"),
        }
    }

    #[test]
    fn members_are_found_as_a_map_finds_them() {
        let text = r#"{"name":"t","arguments":{"id":"x"},"_meta":{"k":1},"cursor":"c","uri":"u"}"#;
        let params = object(text);
        let map: Map<String, Value> = serde_json::from_str(text).unwrap();
        for key in ["name", "arguments", "cursor", "uri", "missing", ""] {
            assert_eq!(params.get(key), map.get(key), "{key}");
        }
        assert_eq!(params.meta().and_then(|m| m.get("k")), Some(&json!(1)));
        assert_eq!(Params::from(map), params);
        assert_ne!(params, Params::default());
    }

    #[test]
    fn a_repeated_or_escaped_member_keeps_its_last_value() {
        let params = object(r#"{"name":"a","na\u006de":"b","cursor":1,"cursor":2,"\u005fmeta":{}}"#);
        assert_eq!(params.get("name"), Some(&json!("b")));
        assert_eq!(params.get("cursor"), Some(&json!(2)));
        assert_eq!(params.meta(), Some(&Meta::default()));
    }

    #[test]
    fn meta_members_are_found_as_a_map_finds_them() {
        let text = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"progressToken":7,
            "io.modelcontextprotocol/protocolVersion":"2026-07-29","io.model\u0063ontextprotocol/x":[1]}"#;
        let params = object(&format!(r#"{{"_meta":{text}}}"#));
        let meta = params.meta().expect("an object");
        let map: Map<String, Value> = serde_json::from_str(text).unwrap();
        for key in [META_VERSION, META_CAPABILITIES, "progressToken", "io.modelcontextprotocol/x", "missing"]
        {
            assert_eq!(meta.get(key), map.get(key), "{key}");
        }
        assert_eq!(meta.get(META_VERSION), Some(&json!("2026-07-29")), "the last value is kept");
        assert_eq!(Meta::from(map), *meta);
        let mut inserted = Params::default();
        inserted.insert("_meta", serde_json::from_str(text).unwrap());
        assert_eq!(inserted, params);
    }

    #[test]
    fn a_meta_that_is_not_an_object_is_kept_but_has_no_members() {
        for other in ["null", "0", "-1", "1.5", "true", r#""x""#, r#"[1, {"a": [2]}]"#] {
            let params = object(&format!(r#"{{"_meta":{other}}}"#));
            assert_eq!(params.meta(), None, "{other}");
            assert_ne!(params, Params::default(), "{other}");
            let mut inserted = Params::default();
            inserted.insert("_meta", serde_json::from_str(other).unwrap());
            assert_eq!(inserted, params, "{other}");
        }
        for bad in [r#"{"_meta":[1e400]}"#, r#"{"_meta":{"a":"\ud800"}}"#, r#"{"_meta":[1,]}"#] {
            assert!(serde_json::from_str::<ParamsMember>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn what_a_value_tree_refuses_stays_refused() {
        for bad in [r#"[1e400]"#, r#"["\ud800"]"#, r#"{"x":[1e400]}"#, r#"{"na\ud800me":1}"#, "[1,]"] {
            assert!(serde_json::from_str::<Value>(bad).is_err(), "{bad}");
            assert!(serde_json::from_str::<ParamsMember>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn null_objects_and_the_rest_are_told_apart() {
        assert!(matches!(read("null"), ParamsMember::Null));
        for other in ["1", "-1", "1.5", "true", r#""x""#, "[1, [2]]", "[]"] {
            assert!(matches!(read(other), ParamsMember::Other), "{other}");
        }
        assert_eq!(object("{}"), Params::default());
        for member in [r#"{"name":null}"#, r#"{"arguments":[]}"#, r#"{"_meta":0}"#, r#"{"x":{}}"#] {
            assert_ne!(object(member), Params::default(), "{member}");
        }
    }
}
