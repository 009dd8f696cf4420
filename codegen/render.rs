//! Renders the generated Rust from `templates/*.rs.hbs` and checks it with `syn` before
//! formatting it with prettyplease, so a template mistake fails here and not in rustc.

use handlebars::{Context, Handlebars, Helper, HelperResult, Output, RenderContext, RenderErrorReason};
use serde_json::{Value, json};

use crate::model::{Api, Effect, FIELDS_PARAM, Op, ResponseKind, Result, SpecError, is_list};
use crate::types::{Types, doc_text, pascal};
use crate::views::{self, View, ViewFiles};

const TEMPLATES: &[(&str, &str)] = &[
    ("operations.rs", include_str!("../templates/operations.rs.hbs")),
    ("routes.rs", include_str!("../templates/routes.rs.hbs")),
    ("handlers.rs", include_str!("../templates/handlers.rs.hbs")),
    ("types.rs", include_str!("../templates/types.rs.hbs")),
];

/// Every generated file, as (file name in OUT_DIR, contents): the views of `ui` among them, one
/// document each, which the generated table includes.
pub fn render_all(api: &Api, ui: &ViewFiles) -> Result<Vec<(String, String)>> {
    let mut registry = Handlebars::new();
    registry.set_strict_mode(true);
    registry.register_escape_fn(handlebars::no_escape);
    registry.register_helper("rust_str", Box::new(rust_str));
    for op in &api.ops {
        if is_list(&op.query_params) && op.row_fields.is_empty() {
            return Err(SpecError::new(format!(
                "operation {}: a list must take the {FIELDS_PARAM} parameter (components/parameters/Fields)",
                op.operation_id
            )));
        }
    }
    let views = views::assemble(api, ui)?;
    let data = template_data(api, &views)?;
    let mut files = Vec::new();
    for (name, template) in TEMPLATES {
        let source = registry
            .render_template(template, &data)
            .map_err(|e| SpecError::new(format!("template {name}: {e}")))?;
        let file = syn::parse_file(&source)
            .map_err(|e| SpecError::new(format!("template {name} produced invalid Rust ({e}):\n{source}")))?;
        files.push((name.to_string(), prettyplease::unparse(&file)));
    }
    let catalogue = json!({ "tools": sorted_ops(api).iter().map(|op| op.descriptor()).collect::<Vec<_>>() });
    files.push(("catalogue.json".into(), pretty(&catalogue)));
    let contract: serde_json::Map<String, Value> =
        api.ops.iter().map(|op| (op.operation_id.clone(), json!(op.response_schemas))).collect();
    files.push(("contract.json".into(), pretty(&Value::Object(contract))));
    files.push(("events.json".into(), pretty(&json!(api.event_payloads))));
    for view in views {
        files.push((view_file(&view.name), view.html));
    }
    Ok(files)
}

/// The file in OUT_DIR that holds a view's document.
fn view_file(name: &str) -> String {
    format!("view-{name}.html")
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values always serialize");
    text.push('\n');
    text
}

/// Tools are listed in name order, whatever the order of the spec's paths.
fn sorted_ops(api: &Api) -> Vec<&Op> {
    let mut ops: Vec<&Op> = api.ops.iter().collect();
    ops.sort_by(|a, b| a.tool_name.cmp(&b.tool_name));
    ops
}

fn template_data(api: &Api, views: &[View]) -> Result<Value> {
    if api.toolsets.is_empty() {
        return Err(SpecError::new("x-toolsets: missing: every operation belongs to a toolset"));
    }
    if let Some(op) = api.ops.iter().find(|op| op.tool_description.is_empty()) {
        return Err(SpecError::new(format!(
            "operation {}: x-mcp.description is missing or empty: every tool describes itself",
            op.operation_id
        )));
    }
    let ops: Vec<Value> = sorted_ops(api).iter().map(|op| op_data(op)).collect();
    let types = Types::build(&api.components, &api.ops)?;
    let mut tags: Vec<(String, Vec<Value>)> = Vec::new();
    for op in sorted_ops(api) {
        let answer = match (&op.response, &op.response_type) {
            (ResponseKind::Json, Some(ty)) => format!("crate::api::Reply<crate::types::{ty}>"),
            (ResponseKind::NoContent, _) => "crate::api::NoContent".to_string(),
            (ResponseKind::Binary { .. }, _) => "crate::api::File".to_string(),
            (ResponseKind::Json, None) => {
                return Err(SpecError::new(format!(
                    "operation {}: a JSON answer without a schema",
                    op.operation_id
                )));
            }
        };
        let entry = json!({
            "operation_id": op.operation_id,
            "doc": doc_text(&format!("`{}`: {}", op.operation_id, op.title)),
            "input": format!("{}Input", pascal(&op.operation_id)),
            "answer": answer,
        });
        match tags.iter_mut().find(|(t, _)| *t == op.tag) {
            Some((_, ops)) => ops.push(entry),
            None => tags.push((op.tag.clone(), vec![entry])),
        }
    }
    tags.sort_by(|a, b| a.0.cmp(&b.0));
    let tags: Vec<Value> = tags
        .into_iter()
        .map(|(name, ops)| json!({ "name": name, "trait_name": trait_name(&name), "ops": ops }))
        .collect();
    // Routes group the operations of one path. Each is a slice pattern over the path's segments,
    // a parameter binding one non-empty segment; a literal segment sorts before a parameter at
    // the same place, so a literal route is tried first where the two could both match. Paths
    // are grouped by shape (a parameter's name aside): two that differ only in their parameters'
    // names would be two arms of which the second never matches, so the spec is refused.
    // A path's shape as (is a parameter, literal) per segment: the key routes group and sort by.
    type Shape = Vec<(bool, String)>;
    struct Route {
        shape: Shape,
        names: Vec<String>,
        methods: Vec<Value>,
    }
    let mut routes: Vec<Route> = Vec::new();
    for op in sorted_ops(api) {
        let mut names = Vec::new();
        let shape: Shape = op
            .path
            .split('/')
            .map(|seg| match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(name) => {
                    names.push(name.to_string());
                    (true, String::new())
                }
                None => (false, seg.to_string()),
            })
            .collect();
        let entry = json!({
            "method": op.method,
            "module": op.tag,
            "operation_id": op.operation_id,
            "constant": op.operation_id.to_ascii_uppercase(),
            "handler_type": pascal(&op.tag),
            "trait_name": trait_name(&op.tag),
        });
        match routes.iter_mut().find(|route| route.shape == shape) {
            Some(route) if route.names != names => {
                return Err(SpecError::new(format!(
                    "{} names its path parameters {:?}, another operation at the same path {:?}",
                    op.operation_id, names, route.names
                )));
            }
            Some(route) => route.methods.push(entry),
            None => routes.push(Route { shape, names, methods: vec![entry] }),
        }
    }
    routes.sort_by(|a, b| a.shape.cmp(&b.shape));
    let max_params = routes.iter().map(|route| route.names.len()).max().unwrap_or(0).max(1);
    let padded = |mut items: Vec<String>| {
        items.resize(max_params, "\"\"".to_string());
        items.join(", ")
    };
    let routes: Vec<Value> = routes
        .into_iter()
        .map(|route| {
            let mut params = Vec::new();
            let segments: Vec<String> = route
                .shape
                .iter()
                .map(|(param, literal)| {
                    if *param {
                        params.push(format!("p{}", params.len()));
                        params.last().cloned().unwrap_or_default()
                    } else {
                        format!("{literal:?}")
                    }
                })
                .collect();
            let guard: Vec<String> = params.iter().map(|p| format!("!{p}.is_empty()")).collect();
            let (first, rest) = route.methods.split_first().expect("a route has a method");
            json!({
                "pattern": segments.join(", "),
                "guard": if guard.is_empty() { String::new() } else { format!("if {}", guard.join(" && ")) },
                "names": padded(route.names.iter().map(|n| format!("{n:?}")).collect()),
                "params": padded(params.iter().map(|p| format!("*{p}")).collect()),
                "first": first,
                "rest": rest,
            })
        })
        .collect();
    let scopes: Vec<&str> = crate::model::KNOWN_SCOPES.iter().copied().filter(|s| *s != "any").collect();
    let mut data = json!({
        "version": api.version,
        "ops": ops,
        "routes": routes,
        "max_params": max_params,
        "scopes": scopes,
        "confirm_helpers": crate::confirm::HELPERS,
        "tags": tags,
        "views": views.iter().map(|view| json!({
            "name": view.name,
            "uri": view.uri,
            "title": view.title,
            "description": view.description,
            "file": format!("/{}", view_file(&view.name)),
        })).collect::<Vec<_>>(),
        "toolsets": api.toolsets.iter().map(|set| json!({
            "name": set.name,
            "description": set.description,
            "tags": set.tags,
        })).collect::<Vec<_>>(),
    });
    if let (Some(data), Value::Object(types)) = (data.as_object_mut(), types.data()) {
        data.extend(types);
    }
    Ok(data)
}

/// The handler trait of a tag: `charges` -> `ChargesApi`.
fn trait_name(tag: &str) -> String {
    format!("{}Api", pascal(tag))
}

fn variant(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

fn op_data(op: &Op) -> Value {
    let (response_variant, content_type, extension) = match &op.response {
        ResponseKind::Json => ("Json", Value::Null, Value::Null),
        ResponseKind::NoContent => ("NoContent", Value::Null, Value::Null),
        ResponseKind::Binary { content_type, extension } => ("Binary", json!(content_type), json!(extension)),
    };
    json!({
        "operation_id": op.operation_id,
        "constant": op.operation_id.to_ascii_uppercase(),
        "tool_name": op.tool_name,
        "aliases": op.aliases,
        "title": op.title,
        "description": op.description,
        "tag": op.tag,
        "method_variant": variant(&op.method),
        "path": op.path,
        "effect_variant": op.effect.variant(),
        "read_only": op.effect == Effect::Read,
        "destructive": op.effect == Effect::Destructive,
        "complete": op.complete,
        "row_fields": op.row_fields,
        "idempotent": op.idempotent,
        "scope": op.scope,
        "further_scopes": op.further_scopes,
        "conditional_scope": op.conditional_scope,
        "toolset": op.toolset,
        "confirm": op.confirm.as_ref().map(|c| json!({
            "target": c.target,
            "target_id": c.target_id,
            "reads": c.reads.iter().map(|r| json!({
                "name": r.name,
                "operation": r.operation,
                "each": r.each,
                "limit": r.limit,
                "arguments": r.arguments.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "message": c.message,
        })),
        "path_params": op.path_params,
        "query_params": op.query_params.iter().map(|q| json!({ "name": q.name, "kind": q.kind })).collect::<Vec<_>>(),
        "body": op.body.as_ref().map(|b| json!({
            "required": b.required,
            "fields": b.fields,
            "schema": b.schema.to_string(),
        })),
        "accepts_idempotency_key": op.accepts_idempotency_key(),
        "success_status": op.success_status,
        "response_variant": response_variant,
        "content_type": content_type,
        "extension": extension,
        "resource_uri": op.resource_uri,
        "view_uri": op.view.as_deref().map(views::uri),
        "descriptor": op.descriptor().to_string(),
        "input_schema": op.input_schema.to_string(),
        "query_schema": op.query_schema.to_string(),
    })
}

/// `{{rust_str value}}`: the value as an escaped Rust string literal. Every string reaches the
/// generated code through here, so no spec text can break out of a literal.
fn rust_str(
    h: &Helper,
    _: &Handlebars,
    _: &Context,
    _: &mut RenderContext,
    out: &mut dyn Output,
) -> HelperResult {
    let param = h.param(0).ok_or_else(|| RenderErrorReason::ParamNotFoundForIndex("rust_str", 0))?;
    let text = match param.value() {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    out.write(&proc_macro2::Literal::string(&text).to_string())?;
    Ok(())
}
