//! Pairs of specs, one pair per classification rule, each asserting how `spec diff` classifies the
//! change. The specs are a small document written here (JSON is YAML), mutated per test.

use serde_json::{Value, json};

use super::{Change, Kind, diff};

fn charge_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

fn answer(name: &str) -> Value {
    json!({ "description": "ok", "content": { "application/json": { "schema": charge_ref(name) } } })
}

/// A list, a create, a read and a destructive action on charges, enough for every rule.
fn base() -> Value {
    json!({
        "openapi": "3.0.3",
        "info": { "title": "t", "version": "1" },
        "paths": {
            "/v1/charges": {
                "get": {
                    "operationId": "charges_list", "tags": ["charges"],
                    "summary": "List charges", "description": "Lists the charges.",
                    "x-mcp": { "description": "For the tests.", "effect": "read", "idempotent": true, "scope": "dunning.read" },
                    "parameters": [
                        { "name": "per_page", "in": "query",
                          "schema": { "type": "integer", "minimum": 1, "maximum": 100 } },
                        { "name": "status", "in": "query", "schema": charge_ref("ChargeStatus") },
                    ],
                    "responses": { "200": answer("ChargeList") },
                },
                "post": {
                    "operationId": "charges_create", "tags": ["charges"],
                    "summary": "Create a charge", "description": "Creates a charge.",
                    "x-mcp": { "description": "For the tests.", "effect": "write", "idempotent": false, "scope": "dunning.write" },
                    "requestBody": { "required": true,
                        "content": { "application/json": { "schema": charge_ref("ChargeCreate") } } },
                    "responses": { "201": answer("Charge") },
                },
            },
            "/v1/charges/{id}": {
                "get": {
                    "operationId": "charges_get", "tags": ["charges"],
                    "summary": "Get a charge", "description": "Reads one charge.",
                    "x-mcp": { "description": "For the tests.", "effect": "read", "idempotent": true, "scope": "dunning.read" },
                    "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }],
                    "responses": { "200": answer("Charge") },
                },
            },
            "/v1/charges/{id}/cancel": {
                "post": {
                    "operationId": "charges_cancel", "tags": ["charges"],
                    "summary": "Cancel a charge", "description": "Cancels a charge.",
                    "x-mcp": { "description": "For the tests.", "effect": "destructive", "idempotent": true, "scope": "dunning.write",
                               "confirm": { "message": "Cancelar {{args.id}}?" } },
                    "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }],
                    "responses": { "200": answer("Charge") },
                },
            },
        },
        "components": { "schemas": {
            "ChargeStatus": { "type": "string", "enum": ["pending", "paid"] },
            "Charge": {
                "type": "object", "required": ["id", "amount", "status"],
                "properties": {
                    "id": { "type": "string" },
                    "amount": { "type": "number" },
                    "status": charge_ref("ChargeStatus"),
                    "note": { "type": "string" },
                },
            },
            "ChargeList": {
                "type": "object", "required": ["data"],
                "properties": { "data": { "type": "array", "items": charge_ref("Charge") } },
            },
            "ChargeCreate": {
                "type": "object", "required": ["amount"],
                "properties": {
                    "amount": { "type": "number" },
                    "due_date": { "type": "string", "format": "date" },
                    "note": { "type": "string" },
                },
            },
        } },
    })
}

fn changes(old: &Value, new: &Value) -> Vec<Change> {
    diff(&old.to_string(), &new.to_string()).expect("both specs read")
}

/// The changes of `kind`, asserting there is one at least.
fn of_kind(changes: &[Change], kind: Kind) -> Vec<Change> {
    let found: Vec<Change> = changes.iter().filter(|c| c.kind == kind).cloned().collect();
    assert!(!found.is_empty(), "no {kind:?} among {changes:#?}");
    found
}

fn op<'a>(spec: &'a mut Value, path: &str, method: &str) -> &'a mut Value {
    &mut spec["paths"][path][method]
}

fn schema<'a>(spec: &'a mut Value, name: &str) -> &'a mut Value {
    &mut spec["components"]["schemas"][name]
}

fn any_breaking(changes: &[Change]) -> bool {
    changes.iter().any(|c| c.breaking)
}

#[test]
fn the_same_spec_has_no_changes() {
    assert_eq!(changes(&base(), &base()), []);
}

// Breaking, on arguments.

#[test]
fn a_removed_tool_breaks() {
    let mut new = base();
    new["paths"].as_object_mut().unwrap().remove("/v1/charges/{id}/cancel");
    let found = of_kind(&changes(&base(), &new), Kind::OperationRemoved);
    assert!(found[0].breaking);
    assert_eq!(found[0].location.tool, "dunning_charges_cancel");
    assert_eq!(found[0].location.operation, "POST /v1/charges/{id}/cancel");
}

#[test]
fn a_renamed_tool_breaks_unless_its_old_name_is_an_alias() {
    let mut new = base();
    op(&mut new, "/v1/charges", "get")["operationId"] = json!("charges_search");
    let all = changes(&base(), &new);
    let renamed = of_kind(&all, Kind::ToolRenamed);
    assert!(renamed[0].breaking);
    assert_eq!(renamed[0].location.tool, "dunning_charges_list", "located at the name clients know");
    assert!(renamed[0].message.contains("dunning_charges_search"), "{}", renamed[0].message);

    op(&mut new, "/v1/charges", "get")["x-mcp"]["aliases"] = json!(["dunning_charges_list"]);
    let all = changes(&base(), &new);
    assert!(!of_kind(&all, Kind::ToolRenamed)[0].breaking);
    assert!(!any_breaking(&all), "{all:#?}");
    assert!(all.iter().all(|c| c.kind != Kind::AliasAdded), "the alias is the rename's, said once");

    // Dropping the alias later breaks the clients it kept.
    let mut newer = new.clone();
    op(&mut newer, "/v1/charges", "get")["x-mcp"].as_object_mut().unwrap().remove("aliases");
    assert!(of_kind(&changes(&new, &newer), Kind::AliasRemoved)[0].breaking);
}

#[test]
fn a_moved_operation_breaks_rest_callers() {
    let mut new = base();
    let item = new["paths"].as_object_mut().unwrap().remove("/v1/charges/{id}/cancel").unwrap();
    new["paths"]["/v1/charges/{id}/void"] = item;
    let all = changes(&base(), &new);
    assert!(of_kind(&all, Kind::OperationMoved)[0].breaking);
    assert!(all.iter().all(|c| c.kind != Kind::OperationRemoved), "{all:#?}");
}

#[test]
fn a_removed_argument_breaks() {
    let mut new = base();
    op(&mut new, "/v1/charges", "get")["parameters"].as_array_mut().unwrap().remove(0);
    let found = of_kind(&changes(&base(), &new), Kind::ArgumentRemoved);
    assert!(found[0].breaking);
    assert_eq!(found[0].location.path, "/inputSchema/properties/per_page");
    assert!(found[0].message.contains("per_page (query)"), "{}", found[0].message);
}

#[test]
fn a_renamed_argument_breaks() {
    let mut new = base();
    let properties = schema(&mut new, "ChargeCreate")["properties"].as_object_mut().unwrap();
    let note = properties.remove("note").unwrap();
    properties.insert("memo".into(), note);
    let found = of_kind(&changes(&base(), &new), Kind::ArgumentRenamed);
    assert!(found[0].breaking);
    assert!(
        found[0].message.contains("note (body): removed, and memo added with the same schema"),
        "{}",
        found[0].message
    );
}

#[test]
fn a_new_required_argument_breaks_and_a_new_optional_one_does_not() {
    let mut new = base();
    schema(&mut new, "ChargeCreate")["properties"]["debtor_id"] = json!({ "type": "string" });
    let optional = changes(&base(), &new);
    assert!(!of_kind(&optional, Kind::ArgumentAdded)[0].breaking);
    assert!(!any_breaking(&optional), "{optional:#?}");

    schema(&mut new, "ChargeCreate")["required"] = json!(["amount", "debtor_id"]);
    assert!(of_kind(&changes(&base(), &new), Kind::ArgumentAdded)[0].breaking);

    // An existing argument made required breaks too; the other way does not.
    let mut new = base();
    schema(&mut new, "ChargeCreate")["required"] = json!(["amount", "note"]);
    assert!(of_kind(&changes(&base(), &new), Kind::ArgumentRequired)[0].breaking);
    assert!(!of_kind(&changes(&new, &base()), Kind::ArgumentOptional)[0].breaking);
}

#[test]
fn a_narrowed_argument_type_breaks_and_a_widened_one_does_not() {
    let mut new = base();
    schema(&mut new, "ChargeCreate")["properties"]["amount"] = json!({ "type": "integer" });
    let found = of_kind(&changes(&base(), &new), Kind::TypeChanged);
    assert!(found[0].breaking, "number -> integer narrows");
    assert!(found[0].message.contains("amount (body): type number became integer"), "{}", found[0].message);

    let mut new = base();
    op(&mut new, "/v1/charges", "get")["parameters"][0]["schema"] =
        json!({ "type": "number", "minimum": 1, "maximum": 100 });
    let widened = changes(&base(), &new);
    assert!(!of_kind(&widened, Kind::TypeChanged)[0].breaking, "integer -> number widens");

    let mut new = base();
    op(&mut new, "/v1/charges", "get")["parameters"][0]["schema"] = json!({ "type": "string" });
    assert!(of_kind(&changes(&base(), &new), Kind::TypeChanged)[0].breaking, "integer -> string");
}

#[test]
fn a_narrowed_format_breaks_arguments() {
    let mut new = base();
    schema(&mut new, "ChargeCreate")["properties"]["note"]["format"] = json!("email");
    assert!(of_kind(&changes(&base(), &new), Kind::FormatChanged)[0].breaking);
    // A format dropped widens: compatible on arguments.
    assert!(!of_kind(&changes(&new, &base()), Kind::FormatChanged)[0].breaking);
}

#[test]
fn a_tightened_constraint_breaks_arguments() {
    let mut new = base();
    op(&mut new, "/v1/charges", "get")["parameters"][0]["schema"]["maximum"] = json!(50);
    let found = of_kind(&changes(&base(), &new), Kind::ConstraintChanged);
    assert!(found[0].breaking);
    assert!(!of_kind(&changes(&new, &base()), Kind::ConstraintChanged)[0].breaking);
}

#[test]
fn an_enum_value_removed_from_an_argument_breaks() {
    // ChargeStatus is both an argument (the list's filter) and an answer field.
    let mut new = base();
    schema(&mut new, "ChargeStatus")["enum"] = json!(["pending"]);
    let all = changes(&base(), &new);
    let removed = of_kind(&all, Kind::EnumValueRemoved);
    let argument = removed.iter().find(|c| c.location.path.starts_with("/inputSchema")).unwrap();
    assert!(argument.breaking);
    assert!(argument.message.contains("status (query): value \"paid\" removed"), "{}", argument.message);
    let answer = removed.iter().find(|c| c.location.path.starts_with("/responses")).unwrap();
    assert!(!answer.breaking, "an answer with fewer values narrows: compatible");
}

// Breaking, on answers.

#[test]
fn a_removed_answer_field_breaks() {
    let mut new = base();
    schema(&mut new, "Charge")["properties"].as_object_mut().unwrap().remove("note");
    let found = of_kind(&changes(&base(), &new), Kind::FieldRemoved);
    assert!(found.iter().all(|c| c.breaking));
    let get = found.iter().find(|c| c.location.tool == "dunning_charges_get").unwrap();
    assert_eq!(get.location.path, "/responses/200/properties/note");
    let list = found.iter().find(|c| c.location.tool == "dunning_charges_list").unwrap();
    assert_eq!(list.location.path, "/responses/200/properties/data/items/properties/note");
    assert!(list.message.contains("200 answer field data[].note: removed"), "{}", list.message);
}

#[test]
fn an_answer_field_of_another_type_breaks_and_a_narrower_one_does_not() {
    let mut new = base();
    schema(&mut new, "Charge")["properties"]["amount"] = json!({ "type": "string" });
    assert!(of_kind(&changes(&base(), &new), Kind::TypeChanged).iter().all(|c| c.breaking));

    let mut new = base();
    schema(&mut new, "Charge")["properties"]["amount"] = json!({ "type": "integer" });
    let narrowed = changes(&base(), &new);
    assert!(!any_breaking(&narrowed), "number -> integer in an answer: {narrowed:#?}");
    // And widening an answer breaks.
    assert!(of_kind(&changes(&new, &base()), Kind::TypeChanged).iter().all(|c| c.breaking));
}

#[test]
fn an_answer_field_made_nullable_breaks() {
    let mut new = base();
    schema(&mut new, "Charge")["properties"]["note"]["nullable"] = json!(true);
    let found = of_kind(&changes(&base(), &new), Kind::MadeNullable);
    assert!(found.iter().all(|c| c.breaking));
    assert!(found[0].message.contains("note: may now be null"), "{}", found[0].message);
}

#[test]
fn an_answer_field_that_may_be_absent_breaks() {
    let mut new = base();
    schema(&mut new, "Charge")["required"] = json!(["id", "status"]);
    assert!(of_kind(&changes(&base(), &new), Kind::FieldOptional).iter().all(|c| c.breaking));
}

#[test]
fn a_new_enum_value_breaks_answers_but_not_arguments() {
    let mut new = base();
    schema(&mut new, "ChargeStatus")["enum"] = json!(["pending", "paid", "overdue"]);
    let added = of_kind(&changes(&base(), &new), Kind::EnumValueAdded);
    let argument = added.iter().find(|c| c.location.path.starts_with("/inputSchema")).unwrap();
    assert!(!argument.breaking, "{argument:?}");
    let answers: Vec<&Change> = added.iter().filter(|c| c.location.path.starts_with("/responses")).collect();
    assert_eq!(answers.len(), 4, "every operation answering a charge: {answers:#?}");
    assert!(answers.iter().all(|c| c.breaking));
}

// Breaking, on behaviour.

#[test]
fn an_annotation_made_less_safe_breaks() {
    // readOnlyHint true -> false.
    let mut new = base();
    op(&mut new, "/v1/charges/{id}", "get")["x-mcp"]["effect"] = json!("write");
    let found = of_kind(&changes(&base(), &new), Kind::AnnotationChanged);
    assert!(found[0].breaking);
    assert_eq!(found[0].location.path, "/annotations/readOnlyHint");

    // idempotentHint true -> false breaks; false -> true is safer.
    let mut new = base();
    op(&mut new, "/v1/charges/{id}/cancel", "post")["x-mcp"]["idempotent"] = json!(false);
    assert!(of_kind(&changes(&base(), &new), Kind::AnnotationChanged)[0].breaking);
    let mut new = base();
    op(&mut new, "/v1/charges", "post")["x-mcp"]["idempotent"] = json!(true);
    let safer = changes(&base(), &new);
    assert!(!any_breaking(&safer), "{safer:#?}");

    // destructiveHint false -> true breaks.
    let mut new = base();
    let create = &mut op(&mut new, "/v1/charges", "post")["x-mcp"];
    create["effect"] = json!("destructive");
    create["confirm"] = json!({ "message": "Criar?" });
    let found = of_kind(&changes(&base(), &new), Kind::AnnotationChanged);
    assert!(found.iter().any(|c| c.location.path == "/annotations/destructiveHint" && c.breaking));
}

#[test]
fn a_changed_scope_breaks() {
    let mut new = base();
    op(&mut new, "/v1/charges/{id}/cancel", "post")["x-mcp"]["scope"] = json!("dunning.escalate");
    let found = of_kind(&changes(&base(), &new), Kind::ScopeChanged);
    assert!(found[0].breaking);
    assert!(found[0].message.contains("dunning.write became dunning.escalate"), "{}", found[0].message);
}

#[test]
fn a_second_scope_breaks() {
    let mut new = base();
    let scopes = json!(["dunning.write", "dunning.notify"]);
    op(&mut new, "/v1/charges/{id}/cancel", "post")["x-mcp"]["scope"] = scopes;
    let found = of_kind(&changes(&base(), &new), Kind::ScopeChanged);
    assert!(found[0].breaking);
    let message = &found[0].message;
    assert!(message.contains("dunning.write became dunning.write dunning.notify"), "{message}");
}

#[test]
fn a_changed_success_status_breaks() {
    let mut new = base();
    let create = op(&mut new, "/v1/charges", "post");
    let created = create["responses"].as_object_mut().unwrap().remove("201").unwrap();
    create["responses"]["200"] = created;
    assert!(of_kind(&changes(&base(), &new), Kind::SuccessStatusChanged)[0].breaking);
}

// Compatible: what only adds.

#[test]
fn what_only_adds_is_compatible() {
    let mut new = base();
    // A new operation, a new optional argument, a new answer field, a newly documented error,
    // new words.
    new["paths"]["/v1/charges/{id}/pause"] = json!({ "post": {
        "operationId": "charges_pause", "tags": ["charges"],
        "summary": "Pause a charge", "description": "Pauses the régua for a charge.",
        "x-mcp": { "description": "For the tests.", "effect": "write", "idempotent": true, "scope": "dunning.write" },
        "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }],
        "responses": { "200": answer("Charge") },
    } });
    op(&mut new, "/v1/charges", "get")["parameters"]
        .as_array_mut()
        .unwrap()
        .push(json!({ "name": "q", "in": "query", "schema": { "type": "string" } }));
    schema(&mut new, "Charge")["properties"]["paid_at"] = json!({ "type": "string", "format": "date-time" });
    op(&mut new, "/v1/charges", "post")["responses"]["409"] = answer("Charge");
    op(&mut new, "/v1/charges", "get")["description"] = json!("Lists the charges, newest first.");
    let all = changes(&base(), &new);
    assert!(!any_breaking(&all), "{all:#?}");
    for kind in [
        Kind::OperationAdded,
        Kind::ArgumentAdded,
        Kind::FieldAdded,
        Kind::ResponseAdded,
        Kind::DescriptionChanged,
    ] {
        of_kind(&all, kind);
    }
}

#[test]
fn specs_the_generator_refuses_are_errors_that_say_which() {
    let mut bad = base();
    op(&mut bad, "/v1/charges", "get").as_object_mut().unwrap().remove("x-mcp");
    match diff(&bad.to_string(), &base().to_string()) {
        Err(super::DiffError::Old(message)) => assert!(message.contains("missing x-mcp block"), "{message}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(diff(&base().to_string(), "not: [a, spec"), Err(super::DiffError::New(_))));
}

#[test]
fn the_real_spec_with_a_changed_argument_type_names_the_tool_and_the_argument() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/v1.yaml")).unwrap();
    let mut spec: Value = yaml_serde::from_str(&text).unwrap();
    assert_eq!(diff(&text, &text).unwrap(), []);
    let list = &mut spec["paths"]["/v1/charges"]["get"];
    let params = list["parameters"].as_array_mut().unwrap();
    // Parameters may be shared ($ref): the changed one is written inline.
    let at = params
        .iter()
        .position(|p| p["name"] == "per_page" || p["$ref"].as_str().is_some_and(|r| r.ends_with("/PerPage")))
        .expect("charges_list takes per_page");
    params[at] = json!({ "name": "per_page", "in": "query", "schema": { "type": "string" } });
    let all = diff(&text, &spec.to_string()).unwrap();
    let changed = all
        .iter()
        .find(|c| c.kind == Kind::TypeChanged && c.location.tool == "dunning_charges_list")
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert!(changed.breaking);
    assert!(changed.message.contains("per_page"), "{}", changed.message);
}

#[test]
fn the_text_rule_is_compared_though_the_generated_schemas_leave_it_out() {
    // `x-text-patterns` is dropped from the generated schemas (the text types enforce it), so a
    // change to it is found on the spec itself: added or changed is breaking (every text
    // argument accepts less, or something else), removed only widens.
    let with = |line: &str| {
        let mut spec = base();
        spec["x-text-patterns"] = json!({ "line": line });
        spec.to_string()
    };
    let plain = base().to_string();
    let added = diff(&plain, &with("^[^\\x00-\\x1f]*$")).unwrap();
    assert_eq!(added.len(), 1, "{added:#?}");
    assert_eq!(added[0].kind, Kind::ConstraintChanged);
    assert!(added[0].breaking);
    assert_eq!(added[0].location.path, "/x-text-patterns/line");
    let changed = diff(&with("^[^\\x00-\\x1f]*$"), &with("^[ -~]*$")).unwrap();
    assert!(changed.len() == 1 && changed[0].breaking, "{changed:#?}");
    let removed = diff(&with("^[^\\x00-\\x1f]*$"), &plain).unwrap();
    assert!(removed.len() == 1 && !removed[0].breaking, "{removed:#?}");
    assert_eq!(diff(&with("^a*$"), &with("^a*$")).unwrap(), []);
}

#[test]
fn a_base_written_before_tools_described_themselves_is_read() {
    let mut old = base();
    for (path, method) in [
        ("/v1/charges", "get"),
        ("/v1/charges", "post"),
        ("/v1/charges/{id}", "get"),
        ("/v1/charges/{id}/cancel", "post"),
    ] {
        op(&mut old, path, method)["x-mcp"].as_object_mut().unwrap().remove("description");
    }
    let found = changes(&old, &base());
    assert!(found.iter().all(|c| !c.breaking), "{found:?}");
}
