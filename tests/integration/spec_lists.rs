//! What the tests read from openapi/v1.yaml itself rather than keep in lists of their own: which
//! operations are destructive, which send something, and each operation's example request. A
//! new operation brings these along in the spec, so the tests that iterate over operations
//! cover it without an edit.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde_json::Value;

/// The spec as YAML (its anchors resolved), read once.
pub fn spec() -> &'static Value {
    static SPEC: OnceLock<Value> = OnceLock::new();
    SPEC.get_or_init(|| {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/v1.yaml"))
            .expect("the spec");
        yaml_serde::from_str(&text).expect("the spec is YAML")
    })
}

/// Every operation object of the spec, with its operationId.
pub fn operations() -> impl Iterator<Item = (&'static str, &'static Value)> {
    spec()["paths"].as_object().expect("paths").values().flat_map(|item| {
        item.as_object()
            .expect("a path item")
            .values()
            .filter_map(|op| op.get("operationId").and_then(Value::as_str).map(|id| (id, op)))
    })
}

/// The operation object of `operation_id`.
pub fn operation(operation_id: &str) -> &'static Value {
    operations()
        .find(|(id, _)| *id == operation_id)
        .map(|(_, op)| op)
        .unwrap_or_else(|| panic!("{operation_id} is not in the spec"))
}

/// The tool names of the operations whose `x-mcp.effect` is `destructive`.
pub fn destructive_tools() -> BTreeSet<String> {
    operations()
        .filter(|(_, op)| op["x-mcp"]["effect"] == "destructive")
        .map(|(id, _)| format!("dunning_{id}"))
        .collect()
}

/// The tool names of the operations marked `x-sends` (a message, a delivery): each call sends
/// again, so calling one twice sends twice.
pub fn sending_tools() -> BTreeSet<String> {
    operations()
        .filter(|(_, op)| op.get("x-sends").is_some())
        .map(|(id, _)| format!("dunning_{id}"))
        .collect()
}

/// The operation's example JSON request body (`requestBody.content.application/json.example`).
pub fn body_example(operation_id: &str) -> Option<Value> {
    operation(operation_id)["requestBody"]["content"]["application/json"].get("example").cloned()
}

/// The query string of the operation's required query parameters, each its `example`.
pub fn required_query_example(operation_id: &str) -> String {
    let parameters = operation(operation_id)["parameters"].as_array().map(Vec::as_slice).unwrap_or_default();
    let mut pairs = Vec::new();
    for parameter in parameters {
        let parameter = resolve(parameter);
        if parameter["in"] != "query" || parameter["required"] != true {
            continue;
        }
        let name = parameter["name"].as_str().expect("a parameter's name");
        let example = parameter
            .get("example")
            .or_else(|| parameter["schema"].get("example"))
            .unwrap_or_else(|| panic!("{operation_id}: its required query parameter {name} has no example"));
        let value = example.as_str().map(str::to_owned).unwrap_or_else(|| example.to_string());
        pairs.push(format!("{name}={value}"));
    }
    pairs.join("&")
}

/// A `$ref` to `#/components/...` followed, or the object itself.
fn resolve(object: &'static Value) -> &'static Value {
    match object.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let path = reference.strip_prefix("#/").expect("a local $ref");
            path.split('/').fold(spec(), |node, key| &node[key])
        }
        None => object,
    }
}
