//! Strict validation of query strings, bodies and tool arguments against the schemas the build
//! generated from the spec, with errors that name the field and suggest a close known name.

use std::sync::LazyLock;

use jsonschema::{Validator, error::ValidationErrorKind};
use serde_json::Value;

use super::error::FieldError;
use crate::operations::{OPERATIONS, Operation};

/// A compiled schema with its source (to look up known field names for suggestions).
pub struct Schema {
    source: Value,
    validator: Validator,
    /// Whether `{}` is valid: most requests send no query string, and checking an empty object
    /// against the query schema every time cost a hundredth of a GET.
    admits_empty_object: bool,
    /// For a schema that asks exactly for some strings, each required and unconstrained, and
    /// nothing else (a read by id's tool arguments: `{"id": "chg_…"}`), their names: an object
    /// with those members as strings and no other is valid without running the validator.
    required_strings: Option<Vec<String>>,
}

impl Schema {
    fn compile(text: &str, what: &str) -> Self {
        let source: Value =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("generated {what} schema is not JSON: {e}"));
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&source)
            .unwrap_or_else(|e| panic!("generated {what} schema does not compile: {e}"));
        let admits_empty_object = validator.is_valid(&Value::Object(serde_json::Map::new()));
        let required_strings = required_strings(&source);
        Self { source, validator, admits_empty_object, required_strings }
    }

    /// [`Schema::check`] of an object, skipped for an empty one the schema admits.
    pub fn check_object(
        &self,
        object: serde_json::Map<String, Value>,
    ) -> (serde_json::Map<String, Value>, Result<(), Vec<FieldError>>) {
        if object.is_empty() && self.admits_empty_object {
            return (object, Ok(()));
        }
        let instance = Value::Object(object);
        let checked = self.check(&instance);
        match instance {
            Value::Object(object) => (object, checked),
            _ => (serde_json::Map::new(), checked),
        }
    }

    /// Whether `instance` is an object of exactly this schema's required strings, as strings
    /// (valid without the validator; `false` tells nothing).
    fn has_the_required_strings(&self, instance: &Value) -> bool {
        match (&self.required_strings, instance) {
            (Some(names), Value::Object(members)) => {
                members.len() == names.len()
                    && names.iter().all(|name| members.get(name).is_some_and(Value::is_string))
            }
            _ => false,
        }
    }

    /// Every problem of `instance`, as field errors (values are never echoed).
    pub fn check(&self, instance: &Value) -> Result<(), Vec<FieldError>> {
        if self.has_the_required_strings(instance) {
            return Ok(());
        }
        // A valid instance (nearly every one) is told without the machinery that gathers errors.
        if self.validator.is_valid(instance) {
            return Ok(());
        }
        let mut errors: Vec<FieldError> = Vec::new();
        for error in self.validator.iter_errors(instance) {
            let segments: Vec<String> = pointer_segments(error.instance_path().as_str());
            match error.kind() {
                ValidationErrorKind::AdditionalProperties { unexpected } => {
                    let known = known_fields(&self.source, &segments);
                    for name in unexpected {
                        let mut path = segments.clone();
                        path.push(name.clone());
                        errors.push(FieldError {
                            field: path.join("."),
                            message: "is not a known field".into(),
                            suggestion: suggest(name, &known),
                        });
                    }
                }
                // Every allowed value, and the nearest to what was sent: the validator's own
                // message names two and says "or N other candidates".
                ValidationErrorKind::Enum { options } => {
                    let allowed: Vec<String> = options
                        .as_array()
                        .map(|values| {
                            values
                                .iter()
                                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                                .collect()
                        })
                        .unwrap_or_default();
                    let field = if segments.is_empty() { "body".to_string() } else { segments.join(".") };
                    let sent = error.instance().as_str().unwrap_or_default().to_string();
                    errors.push(FieldError {
                        field,
                        message: format!("must be one of: {}", allowed.join(", ")),
                        suggestion: suggest(&sent, &allowed),
                    });
                }
                ValidationErrorKind::Required { property } => {
                    let mut path = segments.clone();
                    path.push(property.as_str().unwrap_or_default().to_string());
                    errors.push(FieldError::new(path.join("."), "is required"));
                }
                _ => {
                    let field = if segments.is_empty() { "body".to_string() } else { segments.join(".") };
                    // A money or date field says the form it wants, with an example: a model
                    // that sent "R$ 1.250,00" or "17/12/2026" learns what to send instead.
                    let message = match expected_form(schema_at(&self.source, &segments)) {
                        Some(form) => form.to_string(),
                        None => error.masked_with("the value").to_string(),
                    };
                    errors.push(FieldError::new(field, message));
                }
            }
        }
        errors.dedup_by(|a, b| a.field == b.field && a.message == b.message);
        // The fields the schema admits are checked by their own rules too (a document's check
        // digits, an e-mail, a phone), so every problem of a call comes in one answer.
        field_rules(instance, &mut errors);
        if errors.is_empty() { Ok(()) } else { Err(errors) }
    }
}

/// The form a money or date field expects, when the schema node is one.
fn expected_form(node: Option<&Value>) -> Option<&'static str> {
    let node = unwrap_nullable(node?);
    let node = node.get("anyOf").and_then(Value::as_array).and_then(|a| a.first()).unwrap_or(node);
    if node.get("format").and_then(Value::as_str) == Some("date") {
        return Some("must be a date as YYYY-MM-DD, e.g. 2026-12-17");
    }
    let money = node.get("type").and_then(Value::as_str) == Some("number")
        && node.get("multipleOf").and_then(Value::as_f64) == Some(0.01);
    money.then_some(
        "must be a number in reais with at most 2 decimals, e.g. 1250.00 for R$ 1.250,00 (not text, not centavos)",
    )
}

/// The schema node that describes the value at an instance path.
fn schema_at<'a>(schema: &'a Value, path: &[String]) -> Option<&'a Value> {
    let mut node = schema;
    for segment in path {
        node = unwrap_nullable(node);
        if let Some(items) = node.get("items")
            && segment.parse::<usize>().is_ok()
        {
            node = items;
            continue;
        }
        node = node.get("properties")?.get(segment)?;
    }
    Some(node)
}

/// A rule of one text field that a schema cannot say, as the message it refuses with.
type FieldRule = fn(&str) -> Result<(), String>;

/// The rules of single fields that a schema cannot say, by the field's path.
const FIELD_RULES: &[(&str, FieldRule)] = &[
    ("document", |v| crate::domain::document::parse_document(v).map(drop).map_err(|e| e.to_string())),
    ("email", |v| crate::domain::email::parse_email(v).map(drop).map_err(|e| e.to_string())),
    ("phone", |v| crate::domain::phone::parse_phone(v).map(drop).map_err(|e| e.to_string())),
    ("mobile", |v| crate::domain::phone::parse_mobile(v).map(drop).map_err(|e| e.to_string())),
    ("boleto.line", |v| crate::domain::boleto::Barcode::from_line(v).map(drop).map_err(|e| e.to_string())),
    ("boleto.barcode", |v| crate::domain::boleto::Barcode::parse(v).map(drop).map_err(|e| e.to_string())),
    ("pix.emv", |v| crate::domain::pix::BrCode::parse(v).map(drop).map_err(|e| e.to_string())),
];

/// Pairs of dates that must come in order (earlier, later), with the message the earlier
/// field gets when they do not: the same words as the domain's rule.
const DATE_ORDER: &[(&str, &str, &str)] = &[("issue_date", "due_date", "must not be after due_date")];

/// Adds the problems [`FIELD_RULES`] and [`DATE_ORDER`] find in an object whose schema check
/// failed, for fields not already reported (a valid call never gets here: its fields are
/// checked by the domain), so every problem of a call comes in one answer.
fn field_rules(instance: &Value, errors: &mut Vec<FieldError>) {
    if errors.is_empty() {
        return;
    }
    let reported = |errors: &[FieldError], name: &str| errors.iter().any(|e| e.field == name);
    for (path, rule) in FIELD_RULES {
        let Some(text) = text_at(instance, path) else { continue };
        if reported(errors, path) {
            continue;
        }
        if let Err(message) = rule(text) {
            errors.push(FieldError::new((*path).to_string(), message));
        }
    }
    for (earlier, later, message) in DATE_ORDER {
        if reported(errors, earlier) || reported(errors, later) {
            continue;
        }
        let date =
            |name: &str| text_at(instance, name).and_then(|t| crate::domain::dates::parse_date(t).ok());
        if let (Some(first), Some(second)) = (date(earlier), date(later))
            && first > second
        {
            errors.push(FieldError::new((*earlier).to_string(), *message));
        }
    }
}

/// The text at a dotted path of an object, when there is one.
fn text_at<'a>(instance: &'a Value, path: &str) -> Option<&'a str> {
    path.split('.').try_fold(instance, |node, name| node.get(name))?.as_str()
}

/// The names of a schema that is `{"type": "object", "properties": {…}, "required": […],
/// "additionalProperties": false}` whose properties are all required and each only
/// `{"type": "string"}` (a description aside); `None` for any other schema.
fn required_strings(schema: &Value) -> Option<Vec<String>> {
    let schema = schema.as_object()?;
    let allowed = ["type", "properties", "required", "additionalProperties", "description"];
    if !schema.keys().all(|k| allowed.contains(&k.as_str()))
        || schema.get("type")? != "object"
        || schema.get("additionalProperties")? != &Value::Bool(false)
    {
        return None;
    }
    let properties = schema.get("properties")?.as_object()?;
    for property in properties.values() {
        let property = property.as_object()?;
        if property.get("type")? != "string" || !property.keys().all(|k| k == "type" || k == "description") {
            return None;
        }
    }
    let required: Vec<String> = schema
        .get("required")?
        .as_array()?
        .iter()
        .map(|n| n.as_str().map(str::to_string))
        .collect::<Option<_>>()?;
    let mut names: Vec<&String> = properties.keys().collect();
    let mut required = required;
    names.sort();
    required.sort();
    required.dedup();
    (!required.is_empty()
        && names.len() == required.len()
        && names.iter().zip(&required).all(|(a, b)| *a == b))
    .then_some(required)
}

/// The compiled schemas of one operation.
pub struct OperationSchemas {
    /// The typed query string.
    pub query: Schema,
    /// The JSON body.
    pub body: Option<Schema>,
    /// The flat MCP tool arguments.
    pub input: Schema,
}

static SCHEMAS: LazyLock<foldhash::HashMap<&'static str, OperationSchemas>> = LazyLock::new(|| {
    OPERATIONS
        .iter()
        .map(|op| {
            let schemas = OperationSchemas {
                query: Schema::compile(op.query_schema, op.operation_id),
                body: op.body.map(|b| Schema::compile(b.schema, op.operation_id)),
                input: Schema::compile(op.input_schema, op.operation_id),
            };
            (op.operation_id, schemas)
        })
        .collect()
});

/// The compiled schemas of an operation.
pub fn schemas(op: &Operation) -> &'static OperationSchemas {
    SCHEMAS.get(op.operation_id).expect("every operation has compiled schemas")
}

/// Compiles every schema now rather than on the first request.
pub fn warm_up() {
    LazyLock::force(&SCHEMAS);
}

fn pointer_segments(pointer: &str) -> Vec<String> {
    pointer.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect()
}

/// The property names a schema declares at an instance path (array indices skipped).
fn known_fields(schema: &Value, path: &[String]) -> Vec<String> {
    schema_at(schema, path)
        .map(unwrap_nullable)
        .and_then(|node| node.get("properties"))
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

fn unwrap_nullable(node: &Value) -> &Value {
    node.get("anyOf")
        .and_then(Value::as_array)
        .and_then(|alts| alts.iter().find(|a| a.get("properties").is_some()))
        .unwrap_or(node)
}

/// The longest name a suggestion is looked for.
const MAX_SUGGESTED_NAME: usize = 64;

/// The closest known name, when it is close enough to be a likely typo.
pub(super) fn suggest(name: &str, known: &[String]) -> Option<String> {
    // Edit distance costs the product of the lengths: a name far longer than any field's is no
    // typo of one, and is not compared.
    if name.len() > MAX_SUGGESTED_NAME {
        return None;
    }
    let lowered = name.to_ascii_lowercase().replace('-', "_");
    known
        .iter()
        .map(|k| (strsim::levenshtein(&lowered, k), k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 4) || k.starts_with(&lowered) && lowered.len() >= 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.clone())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let known: Vec<String> =
            ["per_page", "page", "status", "due_date_from"].iter().map(|s| s.to_string()).collect();
        assert_eq!(suggest("perpage", &known).as_deref(), Some("per_page"));
        assert_eq!(suggest("statsu", &known).as_deref(), Some("status"));
        assert_eq!(suggest("due_date", &known).as_deref(), Some("due_date_from"));
        assert_eq!(suggest("organization", &known), None);
    }

    #[test]
    fn the_required_strings_shortcut_agrees_with_the_validator() {
        let get = OPERATIONS.iter().find(|op| op.operation_id == "charges_get").unwrap();
        assert_eq!(schemas(get).input.required_strings, Some(vec!["id".to_string()]));
        let mut shortcuts = 0;
        for op in OPERATIONS {
            let all = schemas(op);
            for schema in [Some(&all.query), all.body.as_ref(), Some(&all.input)].into_iter().flatten() {
                let Some(names) = &schema.required_strings else { continue };
                shortcuts += 1;
                let whole: serde_json::Map<String, Value> =
                    names.iter().map(|n| (n.clone(), Value::from("chg_1"))).collect();
                let mut instances =
                    vec![Value::Object(whole.clone()), json!({}), json!([]), json!("id"), Value::Null];
                for name in names {
                    let mut missing = whole.clone();
                    missing.remove(name);
                    let mut number = whole.clone();
                    number.insert(name.clone(), json!(1));
                    instances.extend([Value::Object(missing), Value::Object(number)]);
                }
                let mut extra = whole.clone();
                extra.insert("extra".into(), json!("x"));
                instances.push(Value::Object(extra));
                // The shortcut says yes only where the validator does, and says it for `whole`.
                for instance in instances {
                    let valid = schema.validator.is_valid(&instance);
                    if schema.has_the_required_strings(&instance) {
                        assert!(valid, "{}: {instance}", op.operation_id);
                    }
                    assert_eq!(schema.check(&instance).is_ok(), valid, "{}: {instance}", op.operation_id);
                }
                assert!(schema.has_the_required_strings(&Value::Object(whole)), "{}", op.operation_id);
            }
        }
        assert!(shortcuts >= 5, "the reads by id take the shortcut ({shortcuts})");
        // Anything else is left to the validator.
        for other in [
            json!({"type": "object", "properties": {"id": {"type": "string", "maxLength": 5}}, "required": ["id"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
            json!({"type": "object", "properties": {"id": {"type": "string"}, "q": {"type": "string"}}, "required": ["id"], "additionalProperties": false}),
            json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false}),
            json!({"type": "object", "properties": {"id": {"type": "string", "format": "date"}}, "required": ["id"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^c"}}, "required": ["id"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"id": {"type": "string", "enum": ["a"]}}, "required": ["id"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"id": {"type": ["string", "null"]}}, "required": ["id"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"id": {"$ref": "#/$defs/id"}}, "required": ["id"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"], "additionalProperties": false, "minProperties": 2}),
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id", 1], "additionalProperties": false}),
        ] {
            assert_eq!(required_strings(&other), None, "{other}");
        }
        let twice = json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id", "id"], "additionalProperties": false});
        assert_eq!(required_strings(&twice), Some(vec!["id".to_string()]));
    }

    #[test]
    fn every_generated_schema_compiles() {
        warm_up();
        assert_eq!(SCHEMAS.len(), OPERATIONS.len());
    }

    #[test]
    fn an_empty_query_is_checked_only_where_the_schema_needs_something() {
        let preview =
            OPERATIONS.iter().find(|op| op.query_params.iter().any(|p| p.name == "due_date")).unwrap();
        let query = &schemas(preview).query;
        assert!(!query.admits_empty_object);
        let (_, checked) = query.check_object(serde_json::Map::new());
        let errors = checked.unwrap_err();
        assert!(errors.iter().any(|e| e.field == "due_date" && e.message == "is required"), "{errors:?}");

        let get = OPERATIONS.iter().find(|op| op.operation_id == "charges_get").unwrap();
        let query = &schemas(get).query;
        assert!(query.admits_empty_object);
        assert!(query.check_object(serde_json::Map::new()).1.is_ok());
        // A query that is not empty is still checked, and handed back as it came.
        let mut unknown = serde_json::Map::new();
        unknown.insert("bogus".into(), Value::from(1));
        let (back, checked) = query.check_object(unknown.clone());
        assert_eq!(back, unknown);
        assert!(checked.unwrap_err().iter().any(|e| e.field == "bogus"));
    }
}
