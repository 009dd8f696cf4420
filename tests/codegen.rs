//! The generator's refusals: every spec mistake the build must stop on, with a message that
//! names the operation. `codegen/` is compiled here exactly as build.rs compiles it.

#[path = "../codegen/confirm.rs"]
#[allow(dead_code)]
mod confirm;
#[path = "../codegen/model.rs"]
#[allow(dead_code)]
mod model;
#[path = "../codegen/render.rs"]
#[allow(dead_code)]
mod render;
#[path = "../codegen/schema.rs"]
#[allow(dead_code)]
mod schema;
#[path = "../codegen/types.rs"]
#[allow(dead_code)]
mod types;
#[path = "../codegen/views.rs"]
#[allow(dead_code)]
mod views;

use std::collections::BTreeSet;

use serde_json::{Value, json};

fn spec() -> Value {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/v1.yaml")).expect("spec");
    yaml_serde::from_str(&text).expect("the spec is YAML")
}

/// The views of `ui/`, as build.rs reads them.
fn real_ui() -> views::ViewFiles {
    views::ViewFiles::read(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/ui"))).expect("ui/")
}

/// The generator's verdict on a changed spec (JSON is YAML).
fn generate(spec: &Value) -> Result<Vec<(String, String)>, String> {
    generate_with(spec, &real_ui())
}

/// The generator's verdict on a spec with other views.
fn generate_with(spec: &Value, ui: &views::ViewFiles) -> Result<Vec<(String, String)>, String> {
    let api = model::Api::from_yaml(&spec.to_string()).map_err(|e| e.to_string())?;
    render::render_all(&api, ui).map_err(|e| e.to_string())
}

fn refused(spec: &Value) -> String {
    match generate(spec) {
        Ok(_) => panic!("the generator accepted a broken spec"),
        Err(message) => message,
    }
}

fn op<'a>(spec: &'a mut Value, path: &str, method: &str) -> &'a mut Value {
    &mut spec["paths"][path][method]
}

#[test]
fn the_real_spec_generates_the_committed_catalogue() {
    let files = generate(&spec()).expect("the spec generates");
    let catalogue = files.iter().find(|(name, _)| *name == "catalogue.json").expect("catalogue");
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots/tools.json")).unwrap();
    assert!(
        catalogue.1 == committed,
        "tests/snapshots/tools.json is not the catalogue the spec generates: run `cargo run -- spec \
         tools > tests/snapshots/tools.json` and review the diff"
    );
}

#[test]
fn refuses_a_missing_operation_id() {
    let mut s = spec();
    op(&mut s, "/v1/me", "get").as_object_mut().unwrap().remove("operationId");
    assert!(refused(&s).contains("GET /v1/me: missing operationId"));
}

#[test]
fn refuses_a_missing_x_mcp_block_or_scope() {
    let mut s = spec();
    op(&mut s, "/v1/charges", "get").as_object_mut().unwrap().remove("x-mcp");
    let message = refused(&s);
    assert!(
        message.contains("operation charges_list") && message.contains("missing x-mcp block"),
        "{message}"
    );

    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"].as_object_mut().unwrap().remove("scope");
    let message = refused(&s);
    assert!(
        message.contains("operation charges_list (GET /v1/charges): x-mcp: missing field `scope`"),
        "{message}"
    );

    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["scope"] = json!("dunning.everything");
    assert!(refused(&s).contains("not a known scope"));
}

#[test]
fn refuses_a_destructive_operation_without_confirmation() {
    let mut s = spec();
    op(&mut s, "/v1/charges/{id}/cancel", "post")["x-mcp"].as_object_mut().unwrap().remove("confirm");
    let message = refused(&s);
    assert!(message.contains("operation charges_cancel") && message.contains("x-mcp.confirm"), "{message}");
}

#[test]
fn refuses_a_confirmation_naming_what_does_not_exist() {
    let cancel =
        |s: &mut Value| -> Value { op(s, "/v1/charges/{id}/cancel", "post")["x-mcp"]["confirm"].clone() };
    let with = |confirm: Value| {
        let mut s = spec();
        op(&mut s, "/v1/charges/{id}/cancel", "post")["x-mcp"]["confirm"] = confirm;
        refused(&s)
    };
    let mut base = cancel(&mut spec());
    // A field the target does not have, even as a helper's argument.
    base["message"] = json!("Cancelar {{money target.valor}}?");
    let message = with(base.clone());
    assert!(
        message.contains("operation charges_cancel: x-mcp.confirm.message") && message.contains("valor"),
        "{message}"
    );
    // A helper the server does not have.
    base["message"] = json!("Cancelar {{moeda target.balance}}?");
    let message = with(base.clone());
    assert!(message.contains("x-mcp.confirm.message") && message.contains("moeda"), "{message}");
    // A read that is not read-only, one taking an argument it does not have, one drawing on a
    // field that does not exist, a name taken twice, an each without a limit.
    base["message"] = json!("Cancelar?");
    for (read, says) in [
        (
            json!({ "name": "x", "operation": "charges_cancel", "arguments": { "id": "target.id" } }),
            "reads.x: charges_cancel is not read-only",
        ),
        (
            json!({ "name": "x", "operation": "debtors_get", "arguments": { "cpf": "target.debtor_id" } }),
            "reads.x: debtors_get takes no argument cpf",
        ),
        (
            json!({ "name": "x", "operation": "debtors_get", "arguments": { "id": "target.devedor" } }),
            "reads.x: arguments.id: target.devedor: there is no devedor",
        ),
        (
            json!({ "name": "x", "operation": "debtors_get" }),
            "reads.x: debtors_get needs its path parameter id",
        ),
        (
            json!({ "name": "target", "operation": "debtors_get", "arguments": { "id": "target.debtor_id" } }),
            "reads.target: the name is taken",
        ),
        (
            json!({ "name": "x", "operation": "charges_get", "each": "args.id", "arguments": { "id": "item" } }),
            "reads.x: each needs a limit",
        ),
    ] {
        base["reads"] = json!([read]);
        let message = with(base.clone());
        assert!(
            message.contains(&format!("operation charges_cancel: x-mcp.confirm.{says}")),
            "{says}: {message}"
        );
    }
    // A read's answer is what the template sees by its name: a field it lacks fails too.
    base["reads"] =
        json!([{ "name": "debtor", "operation": "debtors_get", "arguments": { "id": "target.debtor_id" } }]);
    base["message"] = json!("Cancelar a cobrança de {{debtor.name}} ({{debtor.cpf}})?");
    let message = with(base.clone());
    assert!(message.contains("x-mcp.confirm.message") && message.contains("cpf"), "{message}");
}

#[test]
fn refuses_a_tool_name_collision() {
    let mut s = spec();
    op(&mut s, "/v1/debtors", "get")["operationId"] = json!("charges_list");
    assert!(refused(&s).contains("tool name dunning_charges_list is used twice"));
}

#[test]
fn refuses_a_name_over_64_characters() {
    let mut s = spec();
    let long = "charges_".to_string() + &"x".repeat(49);
    op(&mut s, "/v1/charges", "get")["operationId"] = json!(long);
    let message = refused(&s);
    assert!(message.contains(&format!("dunning_{long} is 65 characters, over the limit of 64")), "{message}");
}

#[test]
fn refuses_a_path_parameter_colliding_with_a_body_or_query_field() {
    let mut s = spec();
    s["components"]["schemas"]["ChargeUpdate"]["properties"]["id"] = json!({ "type": "string" });
    let message = refused(&s);
    assert!(
        message.contains("operation charges_update") && message.contains("body field id collides"),
        "{message}"
    );

    let mut s = spec();
    let params = op(&mut s, "/v1/charges/{id}", "get")["parameters"].as_array_mut().unwrap();
    params.push(json!({ "name": "id", "in": "query", "schema": { "type": "string" } }));
    let message = refused(&s);
    assert!(
        message.contains("operation charges_get") && message.contains("parameter id is declared twice"),
        "{message}"
    );
}

#[test]
fn refuses_two_operations_at_one_path_with_differently_named_parameters() {
    let mut s = spec();
    let mut update = s["paths"]["/v1/charges/{id}"].as_object_mut().unwrap().remove("patch").unwrap();
    for param in update["parameters"].as_array_mut().unwrap() {
        if param["name"] == "id" {
            param["name"] = json!("charge_id");
        }
    }
    let complete = update["x-mcp"]["complete"].as_object_mut().unwrap();
    let list = complete.remove("id").unwrap();
    complete.insert("charge_id".into(), list);
    s["paths"]["/v1/charges/{charge_id}"] = json!({ "patch": update });
    let message = refused(&s);
    assert!(message.contains("another operation at the same path"), "{message}");
    assert!(message.contains("charges_update") && message.contains("charge_id"), "{message}");
}

#[test]
fn refuses_refs_outside_the_document_and_other_versions() {
    let mut s = spec();
    op(&mut s, "/v1/me", "get")["responses"]["200"] = json!({ "$ref": "https://example.com/x.yaml#/Me" });
    assert!(refused(&s).contains("must point into #/components/responses/"));

    let mut s = spec();
    s["openapi"] = json!("3.1.0");
    assert!(refused(&s).contains("3.0"));
}

#[test]
fn schemas_become_self_contained_json_schema_2020_12() {
    let files = generate(&spec()).expect("the spec generates");
    let catalogue: Value =
        serde_json::from_str(&files.iter().find(|(n, _)| *n == "catalogue.json").unwrap().1).unwrap();
    fn keys(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    found.push(k.clone());
                    keys(v, found);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| keys(v, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    keys(&catalogue, &mut found);
    for keyword in ["$ref", "nullable", "example", "discriminator"] {
        assert!(!found.iter().any(|k| k == keyword), "no OpenAPI-only keyword {keyword}");
    }
    let update = catalogue["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "dunning_debtors_update")
        .unwrap();
    let email = &update["inputSchema"]["properties"]["email"];
    assert_eq!(email["type"], json!(["string", "null"]), "nullable becomes a null type: {email}");
    let address = &update["inputSchema"]["properties"]["address"];
    assert_eq!(
        address["type"],
        json!(["object", "null"]),
        "a $ref or null (anyOf with a null-only member) is the $ref's schema, made nullable"
    );
    assert!(address.get("anyOf").is_none(), "{address}");
    // The server checks against the closed schema; the tool leaves that to it (the budget).
    let api = model::Api::from_yaml(&spec().to_string()).expect("the spec generates");
    let checked = &api.ops.iter().find(|op| op.tool_name == "dunning_debtors_update").unwrap().input_schema;
    assert_eq!(checked["properties"]["address"]["additionalProperties"], false, "closed at every level");
    assert_eq!(checked["additionalProperties"], false);
    assert!(update["inputSchema"].get("additionalProperties").is_none(), "{update}");
}

#[test]
fn the_text_rule_patterns_stay_in_the_rest_spec_only() {
    // The text types enforce `x-text-patterns` with messages that say what is wrong, and the
    // tools would carry the same long pattern on every text argument: the generated schemas
    // (tools, validators, contract) drop them, and keep every other pattern.
    let spec = spec();
    let line = spec["x-text-patterns"]["line"].as_str().expect("x-text-patterns.line").to_string();
    assert_eq!(spec["components"]["schemas"]["DebtorCreate"]["properties"]["name"]["pattern"], json!(line));
    let files = generate(&spec).expect("the spec generates");
    for (name, text) in &files {
        assert!(!text.contains("u0600") && !text.contains('\u{600}'), "{name} carries a text pattern");
    }
    // The server's schema (the tool shows less: `a_tool_shows_a_relaxation_of_what_the_server_checks`).
    let checked = |spec: &Value| -> Value {
        let api = model::Api::from_yaml(&spec.to_string()).expect("the spec generates");
        api.ops.iter().find(|op| op.tool_name == "dunning_debtors_create").unwrap().input_schema.clone()
    };
    let properties = &checked(&spec)["properties"];
    assert!(properties["name"].get("pattern").is_none(), "{}", properties["name"]);
    assert!(
        properties["address"]["properties"]["zipcode"]["pattern"].is_string(),
        "a field's own pattern stays"
    );

    // Only those: the same pattern written out on its own is kept.
    let mut other = spec.clone();
    other["x-text-patterns"] = json!({});
    assert_eq!(checked(&other)["properties"]["name"]["pattern"], json!(line));
}

/// Every schema object of the spec, with its JSON pointer.
fn schema_objects(value: &Value, pointer: String, found: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) => {
            if map.contains_key("type") || map.contains_key("nullable") || map.contains_key("anyOf") {
                found.push((pointer.clone(), value.clone()));
            }
            for (k, v) in map {
                schema_objects(v, format!("{pointer}/{k}"), found);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                schema_objects(v, format!("{pointer}/{i}"), found);
            }
        }
        _ => {}
    }
}

/// OpenAPI 3.0.3 reads `nullable: true` as adding null to the `type` of the same object and
/// nothing more (Redocly's nullable-type-sibling; strict validators such as
/// openapi-schema-validator): beside `allOf` or a `$ref` it lets no null through, and an `enum`
/// must list null itself. A nullable `$ref` is written `anyOf: [$ref, {type, nullable: true,
/// enum: [null]}]`, which the generator reads as the `$ref`'s type, optional.
#[test]
fn nullable_means_what_openapi_3_0_3_says() {
    let mut found = Vec::new();
    schema_objects(&spec(), String::new(), &mut found);
    for (pointer, schema) in &found {
        if schema.get("nullable") != Some(&json!(true)) {
            continue;
        }
        assert!(schema.get("type").is_some(), "{pointer}: nullable needs a type beside it");
        for combinator in ["allOf", "anyOf", "oneOf", "$ref"] {
            assert!(
                schema.get(combinator).is_none(),
                "{pointer}: nullable beside {combinator} admits no null"
            );
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            assert!(values.contains(&Value::Null), "{pointer}: a nullable enum lists null");
        }
    }
    // The five nullable references of the spec are written that way, and generate what the
    // handlers were written against.
    let types = generate(&spec()).unwrap().into_iter().find(|(n, _)| *n == "types.rs").unwrap().1;
    for field in [
        "pub address: Option<Address>,",
        "pub address: Option<Option<Address>>,",
        "pub channel: Option<Channel>,",
        "pub template: Option<Template>,",
    ] {
        assert!(types.contains(field), "{field}");
    }
}

/// Example-driven tools send each operation's examples as they are: a key shared by two
/// operations answers IDEMPOTENCY_KEY_REUSED to the second, and an If-Match naming a version
/// answers 412 once the object moves past it.
#[test]
fn examples_run_as_written() {
    let s = spec();
    let resolve = |v: &Value| -> Value {
        match v.get("$ref").and_then(Value::as_str) {
            Some(r) => s.pointer(&r.replacen('#', "", 1)).cloned().expect("$ref resolves"),
            None => v.clone(),
        }
    };
    let mut keys: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for (path, item) in s["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = format!("{method} {path}");
            let mut examples = Vec::new();
            for param in op["parameters"].as_array().into_iter().flatten().map(&resolve) {
                let name = param["name"].as_str().unwrap_or_default().to_ascii_lowercase();
                let mut values: Vec<Value> = param.get("example").into_iter().cloned().collect();
                values.extend(
                    param["examples"].as_object().into_iter().flatten().map(|(_, e)| e["value"].clone()),
                );
                values.extend(param["schema"].get("example").cloned());
                match name.as_str() {
                    "idempotency-key" | "x-idempotency-key" => examples.extend(values),
                    "if-match" => {
                        for v in values {
                            assert_eq!(v, json!("*"), "{id}: an If-Match example goes stale");
                        }
                    }
                    _ => {}
                }
            }
            if let Some(media) = op.pointer("/requestBody/content/application~1json") {
                let schema = resolve(&media["schema"]);
                let mut bodies: Vec<Value> = vec![media["example"].clone(), schema["example"].clone()];
                bodies.extend(
                    media["examples"]
                        .as_object()
                        .into_iter()
                        .flatten()
                        .map(|(_, e)| resolve(e)["value"].clone()),
                );
                examples.extend(bodies.iter().filter_map(|b| b.get("idempotency_key").cloned()));
                examples.extend(schema.pointer("/properties/idempotency_key/example").cloned());
            }
            for example in examples {
                keys.entry(example.to_string()).or_default().push(id.clone());
            }
        }
    }
    for (key, operations) in &keys {
        assert_eq!(operations.len(), 1, "the idempotency key example {key} is shared by {operations:?}");
    }
}

#[test]
fn string_data_cannot_break_out_of_the_generated_code() {
    let mut s = spec();
    op(&mut s, "/v1/me", "get")["summary"] = json!("Who \"am\" I? \\ }]; panic!(\"x\"); //");
    let files = generate(&s).expect("quotes and backslashes are escaped");
    let operations = &files.iter().find(|(n, _)| *n == "operations.rs").unwrap().1;
    assert!(operations.contains(r#"title: "Who \"am\" I? \\ }]; panic!(\"x\"); //""#), "{operations}");
}

#[test]
fn refuses_a_tag_that_cannot_name_a_module() {
    let mut s = spec();
    op(&mut s, "/v1/me", "get")["tags"] = json!(["Me Too"]);
    let message = refused(&s);
    assert!(
        message.contains("operation me") && message.contains("tag Me Too must be snake_case"),
        "{message}"
    );
}

#[test]
fn refuses_an_unknown_x_mcp_key() {
    let mut s = spec();
    op(&mut s, "/v1/charges/{id}", "get")["x-mcp"]["resouce"] = json!(false);
    let message = refused(&s);
    assert!(
        message.contains("operation charges_get") && message.contains("unknown field `resouce`"),
        "a typo in x-mcp fails the build, naming the operation and the key: {message}"
    );

    let mut s = spec();
    op(&mut s, "/v1/charges/{id}", "get")["x-mcp"]["effect"] = json!("delete");
    let message = refused(&s);
    assert!(
        message.contains("operation charges_get") && message.contains("unknown variant `delete`"),
        "{message}"
    );
}

#[test]
fn refuses_a_completion_that_names_no_list() {
    let mut s = spec();
    op(&mut s, "/v1/charges/{id}", "get")["x-mcp"]["complete"] = json!({ "id": "charges_get" });
    let message = refused(&s);
    assert!(
        message.contains("operation charges_get") && message.contains("not a list operation"),
        "{message}"
    );

    let mut s = spec();
    op(&mut s, "/v1/charges/{id}", "get")["x-mcp"]["complete"] = json!({ "charge": "charges_list" });
    let message = refused(&s);
    assert!(message.contains("x-mcp.complete names charge, which is not an argument"), "{message}");
}

#[test]
fn refuses_an_alias_that_collides_with_a_tool_name() {
    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["aliases"] = json!(["dunning_debtors_list"]);
    let message = refused(&s);
    assert!(
        message.contains("operation charges_list")
            && message.contains("x-mcp.aliases dunning_debtors_list collides with the tool name"),
        "an alias would shadow another tool, or never be reached: {message}"
    );

    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["aliases"] = json!(["dunning_charges_list"]);
    assert!(refused(&s).contains("collides with the tool name dunning_charges_list"), "its own name");

    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["aliases"] = json!(["dunning_charges_search"]);
    op(&mut s, "/v1/debtors", "get")["x-mcp"]["aliases"] = json!(["dunning_charges_search"]);
    let message = refused(&s);
    assert!(message.contains("dunning_charges_search is also an alias of operation"), "{message}");

    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["aliases"] = json!(["charges_search"]);
    let message = refused(&s);
    assert!(
        message.contains("operation charges_list") && message.contains("charges_search is not a tool name"),
        "an alias is the name clients called, prefix included: {message}"
    );
}

#[test]
fn an_alias_reaches_the_dispatch_table_and_not_the_catalogue() {
    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["aliases"] = json!(["dunning_charges_search"]);
    let files = generate(&s).expect("an alias is accepted");
    let file = |name: &str| files.iter().find(|(n, _)| *n == name).map(|(_, text)| text.clone()).unwrap();
    assert!(file("operations.rs").contains(r#"aliases: &["dunning_charges_search"]"#));
    assert!(!file("catalogue.json").contains("dunning_charges_search"), "aliases are never listed");
}

/// Every tool describes itself (MCP clients require a description; the conformance suite
/// checks it) in a sentence that is not its title, from `x-mcp.description`, and carries no
/// `_meta` of its own: the list's hash is in the tools/list answer's `_meta`.
#[test]
fn every_tool_describes_itself_and_carries_no_meta() {
    let files = generate(&spec()).expect("the spec generates");
    let catalogue: Value =
        serde_json::from_str(&files.iter().find(|(n, _)| *n == "catalogue.json").unwrap().1).unwrap();
    for tool in catalogue["tools"].as_array().unwrap() {
        let description = tool["description"].as_str().unwrap_or_default();
        assert!(!description.is_empty() && tool["title"] != description, "{tool}");
        assert!(tool.get("_meta").is_none(), "{tool}");
    }
    let mut s = spec();
    op(&mut s, "/v1/me", "get")["x-mcp"].as_object_mut().unwrap().remove("description");
    assert!(refused(&s).contains("x-mcp.description is missing or empty"));
    let mut s = spec();
    let title = op(&mut s, "/v1/me", "get")["summary"].clone();
    op(&mut s, "/v1/me", "get")["x-mcp"]["description"] = title;
    assert!(refused(&s).contains("x-mcp.description repeats the title"));
}

#[test]
fn every_operation_gets_a_typed_input_and_a_handler_signature() {
    let files = generate(&spec()).expect("the spec generates");
    let file = |name: &str| files.iter().find(|(n, _)| *n == name).map(|(_, text)| text.clone()).unwrap();
    let (types, handlers, routes) = (file("types.rs"), file("handlers.rs"), file("routes.rs"));
    for operation_id in ["me", "debtors_update", "charges_cancel"] {
        let input = format!("pub struct {}Input", types::pascal(operation_id));
        assert!(types.contains(&input), "{input} is generated");
        assert!(handlers.contains(&format!("fn {operation_id}(")), "{operation_id} has a handler signature");
        assert!(
            routes.contains(&format!("ops::{}", operation_id.to_ascii_uppercase())),
            "routes name {operation_id}"
        );
    }
    assert!(!routes.contains("OPERATIONS["), "routes name operations, not table indexes");
    assert!(
        types.contains("pub external_id: Option<Option<String>>"),
        "PATCH fields keep absent apart from null"
    );
}

/// The generated Rust, committed under `tests/snapshots/`, so a change of the generator or of
/// the spec shows in review as a diff of the code it produces. `UPDATE_SNAPSHOTS=1 cargo test
/// --test codegen` rewrites them (as expectorate's `EXPECTORATE=overwrite` does for progenitor).
#[test]
fn the_generated_rust_matches_its_snapshots() {
    let files = generate(&spec()).expect("the spec generates");
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut stale = Vec::new();
    for (name, text) in files.iter().filter(|(name, _)| name.ends_with(".rs")) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(name);
        if update {
            std::fs::write(&path, text).expect("write the snapshot");
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != *text {
            stale.push(name.to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "the generated {stale:?} differ from tests/snapshots/; review the change, then run \
         UPDATE_SNAPSHOTS=1 cargo test --test codegen and commit the snapshots"
    );
}

#[test]
fn refuses_an_event_a_webhook_can_take_without_its_payload() {
    let mut s = spec();
    s["x-event-payloads"].as_object_mut().unwrap().remove("charge.paid");
    let message = refused(&s);
    assert!(
        message.contains("event charge.paid (WebhookEventCode) has no payload in x-event-payloads"),
        "{message}"
    );

    let mut s = spec();
    s["x-event-payloads"]["charge.refunded"] = json!({ "$ref": "#/components/schemas/ChargeEventData" });
    assert!(refused(&s).contains("x-event-payloads: charge.refunded is not listed in WebhookEventCode"));

    let mut s = spec();
    s["x-event-payloads"]["charge.paid"] = json!({ "type": "object" });
    assert!(refused(&s).contains("charge.paid must be a $ref to a schema of components.schemas"));

    let files = generate(&spec()).expect("the spec generates");
    let events = files.iter().find(|(name, _)| *name == "events.json").expect("events.json");
    let events: Value = serde_json::from_str(&events.1).unwrap();
    let paid = &events["charge.paid"];
    assert_eq!(paid["additionalProperties"], false, "a payload carries exactly what it documents");
    assert!(paid["properties"]["object"]["properties"]["balance"].is_object(), "references are inlined");
}

/// openapiv3 files `properties` without a `type` under `SchemaKind::Any`; it is still an object,
/// and a body or an answer written so generates the same Rust as with `type: object`.
#[test]
fn an_object_schema_without_type_generates_the_same_struct() {
    let types = |spec: &Value| {
        let files = generate(spec).expect("the spec generates");
        files.into_iter().find(|(name, _)| *name == "types.rs").expect("types.rs").1
    };
    let mut s = spec();
    // The body of debtors_update and (through DebtorEnvelope) the answer of every debtor tool.
    for name in ["DebtorUpdate", "Debtor"] {
        let removed = s["components"]["schemas"][name].as_object_mut().unwrap().remove("type");
        assert_eq!(removed, Some(json!("object")));
    }
    assert_eq!(types(&s), types(&spec()));
}

#[test]
fn refuses_a_string_enum_with_a_value_that_is_not_a_string() {
    let mut s = spec();
    s["components"]["schemas"]["WebhookEventCode"]["enum"].as_array_mut().unwrap().push(json!(7));
    let message = refused(&s);
    assert!(
        message.contains("WebhookEventCode: a string enum has a value that is not a string"),
        "{message}"
    );
}

#[test]
fn every_list_takes_fields_and_its_names_are_its_row_schemas_properties() {
    let api = model::Api::from_yaml(&spec().to_string()).expect("the spec reads");
    let charges = api.ops.iter().find(|o| o.operation_id == "charges_list").unwrap();
    let row = &spec()["components"]["schemas"]["Charge"]["properties"];
    let names: Vec<&String> = row.as_object().unwrap().keys().collect();
    assert_eq!(charges.row_fields.iter().collect::<Vec<_>>(), names);
    assert!(api.ops.iter().filter(|o| o.method != "get").all(|o| o.row_fields.is_empty()));

    let fields = json!({ "$ref": "#/components/parameters/Fields" });
    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["parameters"].as_array_mut().unwrap().retain(|p| *p != fields);
    let message = refused(&s);
    assert!(
        message.contains("charges_list") && message.contains("must take the fields parameter"),
        "{message}"
    );

    let mut s = spec();
    op(&mut s, "/v1/charges/{id}", "get")["parameters"].as_array_mut().unwrap().push(fields);
    assert!(refused(&s).contains("only a list takes fields"));

    // The rows are declared as the row or the row cut, so that a cut answer agrees with the spec.
    let mut s = spec();
    s["components"]["schemas"]["ChargeList"]["properties"]["data"]["items"] =
        json!({ "$ref": "#/components/schemas/Charge" });
    let message = refused(&s);
    assert!(message.contains("ChargeList") && message.contains("PartialRow"), "{message}");
}

#[test]
fn every_operation_ends_in_exactly_one_toolset() {
    let api = model::Api::from_yaml(&spec().to_string()).expect("the spec generates");
    assert!(api.ops.iter().all(|op| api.toolsets.iter().filter(|s| s.name == op.toolset).count() == 1));

    // A tag in no toolset leaves its operations in none.
    let mut s = spec();
    s["x-toolsets"]["integrations"]["tags"] = json!(["webhooks", "exports"]);
    let message = refused(&s);
    assert!(message.contains("x-toolsets: tag events is in no toolset"), "{message}");

    // A tag in two toolsets puts its operations in two.
    let mut s = spec();
    s["x-toolsets"]["account"]["tags"] = json!(["me", "events"]);
    let message = refused(&s);
    assert!(message.contains("tag events is in both"), "{message}");

    // An operation whose tags are in two toolsets.
    let mut s = spec();
    op(&mut s, "/v1/events", "get")["tags"] = json!(["events", "charges"]);
    let message = refused(&s);
    assert!(message.contains("operation events_list is in 2 toolsets"), "{message}");

    // A tag the document does not declare, a name that is not a path segment, none at all.
    let mut s = spec();
    s["x-toolsets"]["account"]["tags"] = json!(["me", "nothing"]);
    assert!(refused(&s).contains("names tag nothing, which the document does not declare"));
    let mut s = spec();
    s["x-toolsets"]["Pay ments"] = s["x-toolsets"]["payments"].take();
    s["x-toolsets"].as_object_mut().unwrap().remove("payments");
    assert!(refused(&s).contains("is not a toolset name"));
    let mut s = spec();
    s.as_object_mut().unwrap().remove("x-toolsets");
    assert!(refused(&s).contains("x-toolsets: missing"));
}

#[test]
fn a_scope_list_names_every_scope_and_reaches_the_table() {
    let files = generate(&spec()).expect("the spec generates");
    let operations = &files.iter().find(|(n, _)| *n == "operations.rs").unwrap().1;
    let pix = operations.split("operation_id: \"organization_pix_update\"").nth(1).unwrap();
    assert!(pix.contains("further_scopes: &[\"dunning.notify\"]"), "{}", &pix[..800]);

    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["scope"] = json!(["dunning.read", "dunning.everything"]);
    assert!(refused(&s).contains("x-mcp.scope dunning.everything is not a known scope"));
    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["scope"] = json!(["dunning.read", "dunning.read"]);
    assert!(refused(&s).contains("names dunning.read twice"));
    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["scope"] = json!(["any", "dunning.read"]);
    assert!(refused(&s).contains("`any`, one scope or a list"));
    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["conditional_scope"] = json!("dunning.read");
    assert!(refused(&s).contains("conditional_scope dunning.read is not a scope the operation lacks"));
}

/// The catalogue budget: every conversation carries the whole tool list, so the all-scopes
/// catalogue (`{"tools": [...]}` as compact JSON) stays within 40,000 bytes. A tool shows what a
/// model needs to choose and call it, once; what every tool shares is in the server instructions
/// (src/mcp/instructions.rs) and the bounds the server checks stay in the validator's schema.
#[test]
fn the_catalogue_stays_within_its_budget() {
    const BUDGET: usize = 40_000;
    let files = generate(&spec()).expect("the spec generates");
    let catalogue: Value =
        serde_json::from_str(&files.iter().find(|(n, _)| *n == "catalogue.json").unwrap().1).unwrap();
    let total = serde_json::to_string(&catalogue).unwrap().len();
    let mut sizes: Vec<(usize, String)> = catalogue["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| (serde_json::to_string(tool).unwrap().len(), tool["name"].as_str().unwrap().to_string()))
        .collect();
    sizes.sort_by(|a, b| b.cmp(a));
    let largest: Vec<String> = sizes.iter().take(10).map(|(size, name)| format!("{name} {size}")).collect();
    assert!(
        total <= BUDGET,
        "the tool catalogue is {total} bytes of compact JSON ({} tools), over the budget of {BUDGET}. \
         The ten largest tools (bytes): {}. Say what a model needs to choose and call a tool once: \
         x-mcp.description and x-mcp.describe in openapi/v1.yaml, shared conventions in the server \
         instructions (src/mcp/instructions.rs), a long enum behind an x-mcp-pattern.",
        sizes.len(),
        largest.join(", ")
    );
}

/// A tool's descriptor shows less than the server checks, never something else: every keyword of
/// its schema is the validator's, bar a pattern standing for an enum or a list filter's pattern
/// written shorter; every argument keeps its type; the arguments left out are those the server
/// instructions describe for every write.
#[test]
fn a_tool_shows_a_relaxation_of_what_the_server_checks() {
    fn within(tool: &Value, full: &Value, at: &str, problems: &mut Vec<String>) {
        let (Some(tool), Some(full)) = (tool.as_object(), full.as_object()) else {
            if tool != full {
                problems.push(format!("{at}: {tool} is not {full}"));
            }
            return;
        };
        if full.contains_key("type") && tool.get("type") != full.get("type") {
            problems.push(format!(
                "{at}: type {:?} is not the validator's {:?}",
                tool.get("type"),
                full.get("type")
            ));
        }
        for (key, value) in tool {
            let at = format!("{at}/{key}");
            match key.as_str() {
                "properties" => {
                    for (name, property) in value.as_object().unwrap() {
                        match full["properties"].get(name) {
                            Some(checked) => within(property, checked, &format!("{at}/{name}"), problems),
                            None => problems.push(format!("{at}/{name}: not an argument the server takes")),
                        }
                    }
                }
                "items" | "additionalProperties" => within(value, &full[key.as_str()], &at, problems),
                "anyOf" | "oneOf" | "allOf" => {
                    for (i, member) in value.as_array().unwrap().iter().enumerate() {
                        within(member, &full[key.as_str()][i], &format!("{at}/{i}"), problems);
                    }
                }
                "pattern" => {
                    let compact =
                        full.get("pattern").and_then(Value::as_str).and_then(schema::compact_list_pattern);
                    if compact.as_deref() != value.as_str() && !full.contains_key("enum") {
                        problems.push(format!("{at}: {value} stands for neither an enum nor a list pattern"));
                    }
                }
                "required" => {
                    for name in value.as_array().unwrap() {
                        if !full["required"].as_array().is_some_and(|r| r.contains(name)) {
                            problems.push(format!("{at}: {name} is not required by the server"));
                        }
                    }
                }
                _ if full.get(key.as_str()) != Some(value) => {
                    problems
                        .push(format!("{at}: {value} is not the validator's {:?}", full.get(key.as_str())));
                }
                _ => {}
            }
        }
        // Every argument the server takes is shown, typed, bar the instructed ones.
        if let Some(properties) = full.get("properties").and_then(Value::as_object) {
            for name in properties.keys() {
                if tool["properties"].get(name).is_none() && name != "idempotency_key" {
                    problems.push(format!("{at}/properties/{name}: the tool does not show it"));
                }
            }
        }
    }

    let api = model::Api::from_yaml(&spec().to_string()).expect("the spec generates");
    let mut problems = Vec::new();
    for op in &api.ops {
        let descriptor = op.descriptor();
        within(&descriptor["inputSchema"], &op.input_schema, &op.tool_name, &mut problems);
        let mut dropped = BTreeSet::new();
        gone(&op.input_schema, &descriptor["inputSchema"], &mut dropped);
        for keyword in dropped {
            assert!(
                CHECKED_ONLY_BY_THE_SERVER.contains(&keyword.as_str()),
                "{}: the tool leaves out {keyword}, which it should show",
                op.tool_name
            );
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");

    // A comma-separated filter names each value once; anything else is left alone.
    assert_eq!(
        schema::compact_list_pattern("^(active|archived)(,(active|archived))*$").as_deref(),
        Some("^((active|archived)(,|$))+$")
    );
    assert_eq!(schema::compact_list_pattern("^(a|b)(,(a|c))*$"), None);
    assert_eq!(schema::compact_list_pattern("^[0-9]+$"), None);
}

/// Keywords a tool may leave to the server's check (the validator keeps each).
const CHECKED_ONLY_BY_THE_SERVER: &[&str] = &[
    "description",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "maxProperties",
    "default",
    "additionalProperties",
    "pattern",
    "enum",
    "idempotency_key",
];

/// The keywords (and arguments) of `full` that `tool` does not have, anywhere.
fn gone(full: &Value, tool: &Value, found: &mut BTreeSet<String>) {
    let (Some(full), Some(tool)) = (full.as_object(), tool.as_object()) else { return };
    for (key, value) in full {
        match (key.as_str(), tool.get(key.as_str())) {
            ("properties", Some(shown)) => {
                for (name, property) in value.as_object().unwrap() {
                    match shown.get(name) {
                        Some(shown) => gone(property, shown, found),
                        None => {
                            found.insert(name.clone());
                        }
                    }
                }
            }
            ("items" | "additionalProperties", Some(shown)) => gone(value, shown, found),
            ("anyOf" | "oneOf" | "allOf", Some(shown)) => {
                for (member, shown) in value.as_array().unwrap().iter().zip(shown.as_array().unwrap()) {
                    gone(member, shown, found);
                }
            }
            // An enum a tool shows as its pattern.
            ("enum", None) if tool.contains_key("pattern") => {}
            (_, None) => {
                found.insert(key.clone());
            }
            _ => {}
        }
    }
}

#[test]
fn refuses_a_tool_text_that_describes_nothing_or_a_convention() {
    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["describe"] = json!(["nonexistent"]);
    let message = refused(&s);
    assert!(message.contains("charges_list") && message.contains("nonexistent"), "{message}");

    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["describe"] = json!(["per_page"]);
    let message = refused(&s);
    assert!(message.contains("per_page, which the server instructions describe"), "{message}");

    let mut s = spec();
    op(&mut s, "/v1/charges", "get")["x-mcp"]["description"] = json!("  ");
    assert!(refused(&s).contains("x-mcp.description is missing or empty"));

    // An x-mcp-pattern stands for an enum.
    let mut s = spec();
    s["components"]["schemas"]["WebhookEventCode"].as_object_mut().unwrap().remove("enum");
    let message = refused(&s);
    assert!(message.contains("WebhookEventCode: x-mcp-pattern stands for an enum"), "{message}");
}

/// The views: `ui/<name>.html` for every `x-mcp.view`, shared parts inlined, no other origin.
fn view_refused(ui: &views::ViewFiles) -> String {
    match generate_with(&spec(), ui) {
        Ok(_) => panic!("the generator accepted broken views"),
        Err(message) => message,
    }
}

/// A view with `body` in its `<body>`, as the helper views are written.
fn page(body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"pt-BR\">\n<head>\n<meta charset=\"utf-8\">\n<title>Portfolio</title>\n\
         </head>\n<body>\n{body}\n</body>\n</html>\n"
    )
}

#[test]
fn links_every_view_to_its_operations_and_inlines_its_shared_parts() {
    let files = generate(&spec()).expect("the spec and ui/ generate");
    let file = |name: &str| files.iter().find(|(n, _)| n == name).map(|(_, text)| text.clone());
    let operations = file("operations.rs").unwrap();
    assert!(operations.contains(r#"view_uri: Some("ui://kobana-dunning/charge-timeline")"#), "{operations}");
    assert!(operations.contains(r#"uri: "ui://kobana-dunning/debtor-overview""#), "{operations}");
    let ui = real_ui();
    for name in ["charge-timeline", "debtor-overview", "agreement-simulator", "portfolio"] {
        let html = file(&format!("view-{name}.html")).unwrap_or_else(|| panic!("{name} is generated"));
        assert!(ui.pages.contains_key(name), "{name}");
        assert!(!html.contains("lib/"), "{name}: every include is inlined");
        assert!(html.len() <= views::MAX_VIEW_BYTES);
    }
    assert!(!ui.lib.is_empty(), "ui/lib/ holds the shared parts");

    // An include line becomes the file's content at its indentation; any other line stays.
    let mut ui = views::ViewFiles::default();
    ui.lib.insert("a.js".into(), "let a = 1;\n".into());
    ui.lib.insert("b.css".into(), "p { margin: 0 }".into());
    let body =
        "  <link rel=\"stylesheet\" href=\"lib/b.css\">\n  <script src=\"lib/a.js\"></script>\n<p>x</p>";
    for name in ["charge-timeline", "debtor-overview", "agreement-simulator", "portfolio"] {
        ui.pages.insert(name.into(), page(body));
    }
    let files = generate_with(&spec(), &ui).expect("these views generate");
    let html = &files.iter().find(|(n, _)| n == "view-portfolio.html").unwrap().1;
    assert!(
        html.contains(
            "  <style>\np { margin: 0 }\n  </style>\n  <script>\nlet a = 1;\n  </script>\n<p>x</p>"
        ),
        "{html}"
    );
    // The title and the description come from the document; without a description, from its tools.
    let operations = &files.iter().find(|(n, _)| n == "operations.rs").unwrap().1;
    assert!(operations.contains(r#"title: "Portfolio""#), "{operations}");
    assert!(
        operations.contains(r#"description: "Shows the result of dunning_portfolio_get.""#),
        "{operations}"
    );
    assert!(
        operations.contains(r#""Shows the result of dunning_debtors_get and dunning_debtors_statement.""#),
        "{operations}"
    );
}

#[test]
fn refuses_a_view_name_without_its_document() {
    let mut s = spec();
    op(&mut s, "/v1/charges/{id}", "get")["x-mcp"]["view"] = json!("charge-history");
    let message = refused(&s);
    assert!(
        message.contains("operation charges_get: x-mcp.view charge-history has no ui/charge-history.html"),
        "{message}"
    );

    let mut s = spec();
    op(&mut s, "/v1/charges/{id}", "get")["x-mcp"]["view"] = json!("Charge_Timeline");
    let message = refused(&s);
    assert!(
        message.contains("operation charges_get")
            && message.contains("x-mcp.view Charge_Timeline is not a view name"),
        "{message}"
    );
}

#[test]
fn refuses_a_document_no_operation_names() {
    let mut ui = real_ui();
    ui.pages.insert("charge-map".into(), page("<p>map</p>"));
    let message = view_refused(&ui);
    assert!(message.contains("ui/charge-map.html is a view no operation names in x-mcp.view"), "{message}");

    // Once no operation names it, a view is a stray document too.
    let mut s = spec();
    op(&mut s, "/v1/portfolio", "get")["x-mcp"].as_object_mut().unwrap().remove("view");
    let message = refused(&s);
    assert!(message.contains("ui/portfolio.html is a view no operation names"), "{message}");

    // Shared parts are not views.
    let mut ui = real_ui();
    ui.lib.insert("unused.js".into(), "let unused = 0;\n".into());
    generate_with(&spec(), &ui).expect("a file under ui/lib/ is no view");
}

#[test]
fn refuses_a_view_over_64_kib_with_its_shared_parts() {
    let mut ui = real_ui();
    let base = page("<script src=\"lib/big.js\"></script>");
    // "<script>\n" and "</script>" replace the include line's own text.
    let room = views::MAX_VIEW_BYTES + "<script src=\"lib/big.js\"></script>".len()
        - base.len()
        - "<script>\n</script>".len();
    ui.lib.insert("big.js".into(), format!("{}\n", "/".repeat(room - 1)));
    ui.pages.insert("portfolio".into(), base);
    let files = generate_with(&spec(), &ui).expect("65,536 bytes is the limit, not over it");
    let html = &files.iter().find(|(n, _)| n == "view-portfolio.html").unwrap().1;
    assert_eq!(html.len(), views::MAX_VIEW_BYTES);

    ui.lib.insert("big.js".into(), format!("{}\n", "/".repeat(room)));
    let message = view_refused(&ui);
    assert!(
        message.contains("ui/portfolio.html: 65537 bytes with its shared parts inlined, over the 65536"),
        "{message}"
    );
}

#[test]
fn refuses_a_view_that_reaches_another_origin() {
    for (body, css) in [
        ("<script src=\"https://cdn.example.com/chart.js\"></script>", ""),
        ("<img src=//example.com/logo.png alt=\"\">", ""),
        ("<a href='http://example.com'>x</a>", ""),
        ("<script>fetch( \"https://api.example.com/x\");</script>", ""),
        ("<script>const url = `wss://example.com`;</script>", ""),
        ("<style>@import url(\"https://fonts.example.com/a.css\");</style>", ""),
        (
            "<link rel=\"stylesheet\" href=\"lib/theme.css\">",
            "body { background: URL(https://example.com/bg.png) }",
        ),
    ] {
        let mut ui = real_ui();
        ui.lib.insert("theme.css".into(), css.into());
        ui.pages.insert("portfolio".into(), page(body));
        let message = view_refused(&ui);
        assert!(
            message.contains("ui/portfolio.html") && message.contains("refers to another origin"),
            "{body} {css}: {message}"
        );
    }
    // A namespace or a mention is no reference; data: and relative addresses are not elsewhere.
    let mut ui = real_ui();
    ui.pages.insert(
        "portfolio".into(),
        page(
            "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg><img src=\"data:image/png;base64,AA==\" alt=\"\">\
             <p>https://kobana.com.br</p><a href=\"#top\">top</a>",
        ),
    );
    generate_with(&spec(), &ui).expect("nothing here loads from elsewhere");
}

#[test]
fn refuses_an_include_it_cannot_inline() {
    let mut ui = real_ui();
    ui.pages.insert("portfolio".into(), page("<script src=\"lib/missing.js\"></script>"));
    let message = view_refused(&ui);
    assert!(
        message.contains("ui/portfolio.html: includes lib/missing.js, which ui/lib/ does not have"),
        "{message}"
    );

    // Not on a line of its own in the one form: it would be left to load, and find nothing.
    for body in
        ["<script src=\"lib/bridge.js\" defer></script>", "<p>x</p><script src=\"lib/bridge.js\"></script>"]
    {
        let mut ui = real_ui();
        ui.pages.insert("portfolio".into(), page(body));
        let message = view_refused(&ui);
        assert!(message.contains("loads a file: only a line of its own"), "{body}: {message}");
    }

    let mut ui = real_ui();
    ui.lib.insert("bad.js".into(), "document.write('</script>');\n".into());
    ui.pages.insert("portfolio".into(), page("<script src=\"lib/bad.js\"></script>"));
    let message = view_refused(&ui);
    assert!(message.contains("lib/bad.js holds </script>"), "{message}");

    let mut ui = real_ui();
    ui.pages.insert("portfolio".into(), page("<p>no title</p>").replace("<title>Portfolio</title>", ""));
    assert!(view_refused(&ui).contains("ui/portfolio.html: no <title>"));
}
