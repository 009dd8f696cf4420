//! A message's `params`, read without a map for the members every tools/call carries.
//!
//! serde_json's `Map` is an IndexMap with SipHash: reading `{"name", "arguments", "_meta"}`
//! into one cost an allocated key per member, a table, and a hash per insert and per lookup,
//! on every call (callgrind, docs/PERFORMANCE.md). `name`, `arguments` and `_meta` are kept in
//! fields instead; any other member goes to a map, as before. Lookups by name answer the same
//! either way, and a repeated member keeps its last value, as a `Map` does.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// The members of a params object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Params {
    name: Option<Value>,
    arguments: Option<Value>,
    meta: Option<Value>,
    rest: Map<String, Value>,
}

impl Params {
    /// The member `key`, as `Map::get` would find it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match key {
            "name" => self.name.as_ref(),
            "arguments" => self.arguments.as_ref(),
            "_meta" => self.meta.as_ref(),
            _ => self.rest.get(key),
        }
    }

    /// Sets the member `key`, replacing an earlier value.
    pub fn insert(&mut self, key: &str, value: Value) {
        match key {
            "name" => self.name = Some(value),
            "arguments" => self.arguments = Some(value),
            "_meta" => self.meta = Some(value),
            _ => {
                self.rest.insert(key.to_string(), value);
            }
        }
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
        while let Some(key) = map.next_key::<Key>()? {
            let value = map.next_value()?;
            match key {
                Key::Name => params.name = Some(value),
                Key::Arguments => params.arguments = Some(value),
                Key::Meta => params.meta = Some(value),
                Key::Other(key) => {
                    params.rest.insert(key, value);
                }
            }
        }
        Ok(ParamsMember::Object(params))
    }
}

/// A member name: the three kept in fields are told without allocating.
enum Key {
    Name,
    Arguments,
    Meta,
    Other(String),
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl Visitor<'_> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
        Ok(match name {
            "name" => Key::Name,
            "arguments" => Key::Arguments,
            "_meta" => Key::Meta,
            other => Key::Other(other.to_string()),
        })
    }

    fn visit_string<E: de::Error>(self, name: String) -> Result<Key, E> {
        match name.as_str() {
            "name" | "arguments" | "_meta" => self.visit_str(&name),
            _ => Ok(Key::Other(name)),
        }
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
        for key in ["name", "arguments", "_meta", "cursor", "uri", "missing", ""] {
            assert_eq!(params.get(key), map.get(key), "{key}");
        }
        assert_eq!(Params::from(map), params);
        assert_ne!(params, Params::default());
    }

    #[test]
    fn a_repeated_or_escaped_member_keeps_its_last_value() {
        let params = object(r#"{"name":"a","na\u006de":"b","cursor":1,"cursor":2,"\u005fmeta":{}}"#);
        assert_eq!(params.get("name"), Some(&json!("b")));
        assert_eq!(params.get("cursor"), Some(&json!(2)));
        assert_eq!(params.get("_meta"), Some(&json!({})));
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
