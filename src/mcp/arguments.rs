//! A tool's flat arguments: split by where the operation reads them (path, query, body), and
//! checked strictly before anything runs or is asked.

use serde_json::{Map, Value};

use crate::api::{FieldError, schemas};
use crate::operations::{Effect, Operation};

/// Arguments split into path parameters, query parameters and body.
pub struct Split {
    /// Path parameters.
    pub path: Vec<(&'static str, String)>,
    /// Query parameters.
    pub query: Map<String, Value>,
    /// Body, for operations that take one.
    pub body: Option<Map<String, Value>>,
}

/// Splits flat arguments by where the operation reads them. Arguments an operation without a
/// body does not know go to the query string, where the endpoint names them.
pub fn split(op: &'static Operation, args: &Map<String, Value>) -> Split {
    let mut path = Vec::new();
    let mut query = Map::new();
    let mut body = op.body.map(|_| Map::new());
    for (name, value) in args {
        if let Some(param) = op.path_params.iter().find(|p| **p == name) {
            path.push((*param, value.as_str().map(str::to_string).unwrap_or_else(|| value.to_string())));
        } else if op.query_params.iter().any(|q| q.name == name) {
            query.insert(name.clone(), value.clone());
        } else if let Some(body) = body.as_mut() {
            body.insert(name.clone(), value.clone());
        } else {
            query.insert(name.clone(), value.clone());
        }
    }
    Split { path, query, body }
}

/// Checks the arguments the MCP layer owns: all of them for reads and for calls that need a
/// confirmation (nobody confirms a call that cannot run), the path for other writes, whose endpoint
/// names the rest.
/// `arguments` is the object of `params.arguments`.
pub fn check(op: &Operation, arguments: &Value) -> Result<(), Vec<FieldError>> {
    if op.effect == Effect::Read || op.confirm.is_some() {
        return schemas(op).input.check(arguments);
    }
    let Value::Object(args) = arguments else {
        return Err(vec![FieldError::new("arguments", "must be an object")]);
    };
    let missing: Vec<FieldError> = op
        .path_params
        .iter()
        .filter(|p| !args.get(**p).is_some_and(Value::is_string))
        .map(|p| FieldError::new(*p, "is required and must be a string"))
        .collect();
    if missing.is_empty() { Ok(()) } else { Err(missing) }
}
