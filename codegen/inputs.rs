//! What an operation takes: its path and query parameters and its JSON body, as the fields of
//! its flat input and as the schemas the validator and the tool's descriptor show of it.

use openapiv3::{
    Components, Operation, Parameter, ParameterSchemaOrContent, ReferenceOr, RequestBody, Schema,
};
use serde_json::{Map, Value, json};

use super::schema::{self, Schemas};
use super::{
    Body, HeaderParam, InputField, QueryParam, Source, json_schema, object_parts, resolve, type_name,
};

/// Arguments the server instructions explain once for every tool: `x-mcp.describe` may not
/// name them (an operation that gives one of these names another meaning must use another
/// name). mcp_wire's instruction test checks that the instructions name each of them.
const CONVENTIONAL_ARGUMENTS: &[&str] = &[
    "id",
    "page",
    "per_page",
    "sort_by",
    "sort_order",
    "fields",
    "idempotency_key",
    "external_id",
    "tags",
    "metadata",
];

/// Arguments every write takes that the server instructions describe, once, instead of every
/// write's descriptor listing them: the server still takes and checks them.
const INSTRUCTED_ARGUMENTS: &[&str] = &["idempotency_key"];

/// An operation's inputs, read from its parameters and its body.
#[derive(Default)]
pub struct Inputs {
    pub path_params: Vec<String>,
    pub query_params: Vec<QueryParam>,
    pub header_params: Vec<HeaderParam>,
    pub input_fields: Vec<InputField>,
    pub body: Option<Body>,
    /// The flat input's properties (path and query parameters, then body fields) and the names
    /// it requires.
    properties: Map<String, Value>,
    required: Vec<String>,
    /// The query string's alone.
    query_props: Map<String, Value>,
    pub query_required: Vec<String>,
}

/// Reads the parameters (the path item's, then the operation's) and the request body of the
/// operation at `path`.
pub fn read(
    path: &str,
    operation: &Operation,
    shared_params: &[ReferenceOr<Parameter>],
    components: &Components,
    schemas: &Schemas,
) -> Result<Inputs, String> {
    // Parameters: path and query (headers are documentation for REST callers).
    let mut inputs = Inputs::default();
    for param in shared_params.iter().chain(&operation.parameters) {
        let param = resolve(param, "parameters", |name| components.parameters.get(name))?;
        inputs.add_parameter(path, param, schemas)?;
    }
    for segment in path.split('/') {
        if let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}'))
            && !inputs.path_params.iter().any(|p| p == name)
        {
            return Err(format!("path parameter {name} is not declared"));
        }
    }
    // Request body: JSON only; its top-level properties sit beside the parameters.
    if let Some(rb) = &operation.request_body {
        inputs.body = Some(inputs.add_body(rb, components, schemas)?);
    }
    Ok(inputs)
}

impl Inputs {
    /// One parameter: a path or query parameter joins the flat input; a header one is only kept.
    fn add_parameter(&mut self, path: &str, param: &Parameter, schemas: &Schemas) -> Result<(), String> {
        let data = param.parameter_data_ref();
        let name = data.name.clone();
        let ParameterSchemaOrContent::Schema(param_schema) = &data.format else {
            return Err(format!("parameter {name} has no schema"));
        };
        let mut converted =
            schema::convert(param_schema, schemas, true).map_err(|e| format!("parameter {name}: {e}"))?;
        if let (Some(desc), Some(obj)) = (&data.description, converted.as_object_mut()) {
            // The parameter's own words beat a shared schema's (`SortOrder`, `PersonType`).
            obj.insert("description".into(), Value::String(desc.trim().to_string()));
        }
        let is_required = data.required;
        match param {
            Parameter::Path { .. } => self.add_path(path, &name, param_schema)?,
            Parameter::Query { .. } => self.add_query(&name, param_schema, is_required, &converted)?,
            Parameter::Header { .. } => {
                self.header_params.push(HeaderParam { name, required: is_required, schema: converted });
                return Ok(());
            }
            Parameter::Cookie { .. } => return Ok(()),
        }
        if self.properties.insert(name.clone(), converted).is_some() {
            return Err(format!("parameter {name} is declared twice"));
        }
        Ok(())
    }

    /// A path parameter, which the path names and every call gives.
    fn add_path(&mut self, path: &str, name: &str, param_schema: &ReferenceOr<Schema>) -> Result<(), String> {
        if !path.contains(&format!("{{{name}}}")) {
            return Err(format!("path parameter {name} is not in the path"));
        }
        self.path_params.push(name.to_string());
        self.required.push(name.to_string());
        self.input_fields.push(InputField {
            name: name.to_string(),
            schema: param_schema.clone(),
            required: true,
            source: Source::Path,
        });
        Ok(())
    }

    /// A query parameter, of a scalar type.
    fn add_query(
        &mut self,
        name: &str,
        param_schema: &ReferenceOr<Schema>,
        is_required: bool,
        converted: &Value,
    ) -> Result<(), String> {
        let kind = match param_schema.as_item().and_then(type_name) {
            Some("integer") => "Integer",
            Some("number") => "Number",
            Some("boolean") => "Boolean",
            Some("string") | None => "String",
            Some(other) => {
                return Err(format!("query parameter {name} has type {other}"));
            }
        };
        self.query_params.push(QueryParam { name: name.to_string(), kind });
        self.input_fields.push(InputField {
            name: name.to_string(),
            schema: param_schema.clone(),
            required: is_required,
            source: Source::Query,
        });
        self.query_props.insert(name.to_string(), converted.clone());
        if is_required {
            self.query_required.push(name.to_string());
            self.required.push(name.to_string());
        }
        Ok(())
    }

    /// The request body: JSON only; its top-level properties join the flat input beside the
    /// parameters.
    fn add_body(
        &mut self,
        rb: &ReferenceOr<RequestBody>,
        components: &Components,
        schemas: &Schemas,
    ) -> Result<Body, String> {
        let rb = resolve(rb, "requestBodies", |name| components.request_bodies.get(name))?;
        let media = json_schema(&rb.content).ok_or("request body must be application/json with a schema")?;
        // Fields come from the body's own schema; the converted one is only output (the
        // tool's input schema and the REST validator's).
        let body_schema = schema::convert(media, schemas, true).map_err(|e| format!("request body: {e}"))?;
        let raw_body = resolve(media, "schemas", |name| components.schemas.get(name))?;
        let object = object_parts(raw_body)
            .filter(|_| !raw_body.schema_data.nullable)
            .ok_or("request body schema must be an object")?;
        let body_required = rb.required;
        let mut fields = Vec::new();
        for (name, prop) in object.properties {
            if self.properties.contains_key(name) {
                return Err(format!(
                    "body field {name} collides with a path or query parameter of the same name"
                ));
            }
            self.properties.insert(name.clone(), body_schema["properties"][name.as_str()].clone());
            fields.push(name.clone());
            self.input_fields.push(InputField {
                name: name.clone(),
                schema: prop.clone().unbox(),
                required: body_required && object.required.contains(name),
                source: Source::Body,
            });
        }
        if body_required {
            self.required.extend(object.required.iter().cloned());
        }
        Ok(Body { required: body_required, fields, schema: body_schema })
    }

    /// The validator's schema of the flat input: every argument, closed.
    pub fn input_schema(&self) -> Value {
        closed_object(&self.properties, &self.required)
    }

    /// The validator's schema of the query string.
    pub fn query_schema(&self) -> Value {
        closed_object(&self.query_props, &self.query_required)
    }
}

/// An object schema of `properties`, no others, requiring `required`.
fn closed_object(properties: &Map<String, Value>, required: &[String]) -> Value {
    let mut schema = json!({ "type": "object", "properties": properties, "additionalProperties": false });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

/// The descriptor's schema of an operation's flat input: `schema::for_tool` of it, without the
/// descriptions but those `x-mcp.describe` names and without the arguments the instructions
/// describe for every write.
pub fn tool_schema(
    input_schema: &Value,
    describe: &[String],
    schemas: &Schemas,
) -> std::result::Result<Value, String> {
    let mut tool = schema::for_tool(input_schema, schemas);
    let properties = tool.get_mut("properties").and_then(Value::as_object_mut).ok_or("no properties")?;
    for name in INSTRUCTED_ARGUMENTS {
        properties.shift_remove(*name);
    }
    for name in describe {
        if CONVENTIONAL_ARGUMENTS.contains(&name.as_str()) {
            return Err(format!("x-mcp.describe names {name}, which the server instructions describe"));
        }
        let description = input_schema["properties"]
            .get(name.as_str())
            .and_then(|p| p.get("description"))
            .ok_or_else(|| format!("x-mcp.describe names {name}, which is not a described argument"))?;
        let property =
            properties.get_mut(name.as_str()).and_then(Value::as_object_mut).ok_or("unreachable")?;
        property.insert("description".into(), description.clone());
    }
    if let Some(required) = tool.get_mut("required").and_then(Value::as_array_mut) {
        required.retain(|name| !name.as_str().is_some_and(|n| INSTRUCTED_ARGUMENTS.contains(&n)));
    }
    Ok(tool)
}
