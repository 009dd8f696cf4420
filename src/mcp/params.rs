//! A message's `params`: a serde_json `Map`. (Reading `name`, `arguments` and `_meta` into fields
//! instead saved no measurable CPU on a tools/call: docs/PERFORMANCE.md, "Fast paths".)

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::domain::json_shape::{self, ShapeError};

/// The members of a params object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Params(Map<String, Value>);

/// The members of a `_meta` object.
pub type Meta = Map<String, Value>;

/// The envelope's protocol version, in `_meta`.
pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The envelope's client capabilities, in `_meta`.
pub const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

impl Params {
    /// The member `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    /// `_meta`, when it is an object.
    pub fn meta(&self) -> Option<&Meta> {
        self.0.get("_meta")?.as_object()
    }

    /// The members' shape ([`json_shape`]); a fault's path starts with the member's name.
    pub fn check_shape(&self) -> Result<(), ShapeError> {
        json_shape::check_object(&self.0)
    }
}

impl From<Map<String, Value>> for Params {
    fn from(map: Map<String, Value>) -> Self {
        Params(map)
    }
}

/// A `params` member as sent: an object, `null`, or anything else (refused by the caller).
#[derive(Debug)]
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
        Ok(match Value::deserialize(deserializer)? {
            Value::Null => ParamsMember::Null,
            Value::Object(map) => ParamsMember::Object(Params(map)),
            _ => ParamsMember::Other,
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

    #[test]
    fn null_objects_and_the_rest_are_told_apart() {
        assert!(matches!(read("null"), ParamsMember::Null));
        for other in ["1", "-1", "1.5", "true", r#""x""#, "[1, [2]]", "[]"] {
            assert!(matches!(read(other), ParamsMember::Other), "{other}");
        }
        let ParamsMember::Object(params) = read(r#"{"name":"t","_meta":{"k":1},"name":"u"}"#) else {
            panic!("not an object")
        };
        assert_eq!(params.get("name"), Some(&json!("u")), "a repeated member keeps its last value");
        assert_eq!(params.meta().and_then(|m| m.get("k")), Some(&json!(1)));
        let ParamsMember::Object(params) = read(r#"{"_meta":[1]}"#) else { panic!("not an object") };
        assert_eq!(params.meta(), None, "a _meta that is not an object has no members");
    }

    #[test]
    fn what_a_value_tree_refuses_stays_refused() {
        for bad in [r#"[1e400]"#, r#"["\ud800"]"#, r#"{"x":[1e400]}"#, r#"{"na\ud800me":1}"#, "[1,]"] {
            assert!(serde_json::from_str::<ParamsMember>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_shape_fault_names_the_member() {
        let key = r"a\u0001";
        let ParamsMember::Object(params) = read(&format!(r#"{{"arguments":{{"{key}":1}}}}"#)) else {
            panic!("not an object")
        };
        assert!(params.check_shape().unwrap_err().path().starts_with("arguments"));
    }
}
