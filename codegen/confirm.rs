//! `x-mcp.confirm` beyond its target: the reads a question draws on, and the question's template,
//! checked when the spec is read so that a mistake fails the build rather than a confirmation.
//!
//! A question can show more than the object acted on: `reads` names read-only operations taken
//! with arguments drawn from the call (`args.…`), the target (`target.…`) or an earlier read
//! (`<name>.…`) or a whole number as written, e.g. the simulation of the agreement a create would make, or the debtor a
//! message goes to. `each` takes a read once per item of a list (the item is `item`), at most
//! `limit` times, so a question stays short whatever the list. The template is then rendered in
//! strict mode against a skeleton of what every name will hold (every field its schema declares),
//! so a field that does not exist, or a helper the server does not have, is a build error.

use handlebars::{
    Context, Handlebars, Helper, HelperDef, HelperResult, Output, RenderContext, RenderErrorReason,
    Renderable,
};
use serde_json::{Map, Value, json};

use super::model::{Effect, Op, Result, SpecError};

/// The helpers a confirmation template may call; src/mcp/question.rs registers each of them.
pub const HELPERS: &[&str] = &[
    "money",
    "date",
    "due",
    "channel",
    "bureau",
    "recipient",
    "send_window",
    "installments",
    "more",
    "brief",
];

/// Names the template sees besides the reads'.
const RESERVED: &[&str] = &["args", "target", "now", "item"];

/// The most items an `each` read may take.
const MAX_EACH: usize = 20;

/// Checks every confirmation's reads and template.
pub fn check(ops: &[Op]) -> Result<()> {
    for op in ops {
        let Some(confirm) = &op.confirm else { continue };
        let fail = |m: String| SpecError::new(format!("operation {}: x-mcp.confirm.{m}", op.operation_id));
        let mut data = Map::new();
        data.insert("args".into(), skeleton(&op.input_schema));
        data.insert("now".into(), json!("2027-01-04T12:00:00Z"));
        if let Some(target) = confirm.target.as_deref() {
            let read = ops.iter().find(|o| o.operation_id == target);
            let answer = read
                .and_then(answer_skeleton)
                .ok_or_else(|| fail(format!("target: {target} answers no data")))?;
            data.insert("target".into(), answer);
        }
        for read in &confirm.reads {
            let name = &read.name;
            let fail = |m: String| fail(format!("reads.{name}: {m}"));
            if RESERVED.contains(&name.as_str()) || data.contains_key(name) {
                return Err(fail("the name is taken".into()));
            }
            let Some(read_op) = ops.iter().find(|o| o.operation_id == read.operation) else {
                return Err(fail(format!("{} is not an operation", read.operation)));
            };
            if read_op.effect != Effect::Read {
                return Err(fail(format!("{} is not read-only", read.operation)));
            }
            let mut scope = data.clone();
            match (&read.each, read.limit) {
                (Some(each), Some(limit)) if (1..=MAX_EACH).contains(&limit) => {
                    let list = resolve(each, &scope).map_err(|e| fail(format!("each: {e}")))?;
                    let item = list.as_array().and_then(|l| l.first()).cloned();
                    let item = item.ok_or_else(|| fail(format!("each: {each} is not a list")))?;
                    scope.insert("item".into(), item);
                }
                (None, None) => {}
                _ => {
                    return Err(fail(format!(
                        "each needs a limit of 1 to {MAX_EACH}, and a limit needs each"
                    )));
                }
            }
            for (argument, expression) in &read.arguments {
                let takes = argument == "*" || read_op.input_fields.iter().any(|f| &f.name == argument);
                if !takes {
                    return Err(fail(format!("{} takes no argument {argument}", read.operation)));
                }
                let inner =
                    expression.strip_prefix('[').and_then(|e| e.strip_suffix(']')).unwrap_or(expression);
                if inner.parse::<u64>().is_ok() {
                    continue; // A number, as written.
                }
                let value = resolve(inner, &scope).map_err(|e| fail(format!("arguments.{argument}: {e}")))?;
                if argument == "*" && (!value.is_object() || inner != expression) {
                    return Err(fail(format!("arguments.*: {expression} is not an object")));
                }
            }
            let spread = read.arguments.contains_key("*");
            if let Some(missing) =
                read_op.path_params.iter().find(|p| !spread && !read.arguments.contains_key(*p))
            {
                return Err(fail(format!("{} needs its path parameter {missing}", read.operation)));
            }
            let answer = answer_skeleton(read_op)
                .ok_or_else(|| fail(format!("{} answers no data", read.operation)))?;
            data.insert(name.clone(), if read.each.is_some() { json!([answer]) } else { answer });
        }
        let mut registry = Handlebars::new();
        registry.set_strict_mode(true);
        for helper in HELPERS {
            registry.register_helper(helper, Box::new(nothing));
        }
        // Strict mode leaves helpers' arguments and `if` unchecked: these check them, and take
        // both branches of a condition.
        registry.register_helper("if", Box::new(BothBranches));
        registry.register_helper("unless", Box::new(BothBranches));
        registry
            .register_template_string("question", &confirm.message)
            .map_err(|e| fail(format!("message is not a template: {e}")))?;
        registry.render("question", &data).map_err(|e| fail(format!("message: {e}")))?;
    }
    Ok(())
}

/// The value an expression (`args.agreement`, `target.debtor_id`, `item`) names in `data`.
fn resolve<'a>(expression: &str, data: &'a Map<String, Value>) -> std::result::Result<&'a Value, String> {
    let mut segments = expression.split('.');
    let root = segments.next().unwrap_or_default();
    let mut value = data.get(root).ok_or_else(|| format!("{expression}: nothing is named {root}"))?;
    for segment in segments {
        value = match value {
            Value::Object(fields) => fields.get(segment),
            Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        }
        .ok_or_else(|| format!("{expression}: there is no {segment}"))?;
    }
    Ok(value)
}

/// What an operation's answer holds under `data`, as a skeleton.
fn answer_skeleton(op: &Op) -> Option<Value> {
    let schema = op.response_schemas.get(&op.success_status.to_string())?;
    schema.pointer("/properties/data").map(skeleton)
}

/// A value with every field a (converted) schema declares, each of its type and truthy, so that
/// every branch of a template is rendered.
pub fn skeleton(schema: &Value) -> Value {
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        let mut merged = Map::new();
        for part in parts {
            match skeleton(part) {
                Value::Object(fields) => merged.extend(fields),
                other if parts.len() == 1 => return other,
                _ => {}
            }
        }
        return Value::Object(merged);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(first) = schema
            .get(key)
            .and_then(Value::as_array)
            .and_then(|a| a.iter().find(|s| s.get("type").and_then(Value::as_str) != Some("null")))
        {
            return skeleton(first);
        }
    }
    if let Some(value) =
        schema.get("enum").and_then(Value::as_array).and_then(|e| e.iter().find(|v| !v.is_null()))
    {
        return value.clone();
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => {
            kinds.iter().filter_map(Value::as_str).find(|k| *k != "null").unwrap_or("null")
        }
        _ if schema.get("properties").is_some() => "object",
        _ => "",
    };
    match kind {
        "object" => Value::Object(
            schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.iter().map(|(k, v)| (k.clone(), skeleton(v))).collect())
                .unwrap_or_default(),
        ),
        "array" => json!([schema.get("items").map(skeleton).unwrap_or(Value::Null)]),
        "string" => match schema.get("format").and_then(Value::as_str) {
            Some("date") => json!("2027-01-15"),
            Some("date-time") => json!("2027-01-15T12:00:00Z"),
            _ => json!("texto"),
        },
        "integer" => json!(1),
        "number" => json!(1.5),
        "boolean" => json!(true),
        _ => json!({}),
    }
}

/// A helper's arguments name something, or the template is wrong.
fn named(h: &Helper) -> HelperResult {
    match h.params().iter().find(|p| p.is_value_missing()) {
        Some(p) => Err(RenderErrorReason::MissingVariable(p.relative_path().cloned()).into()),
        None => Ok(()),
    }
}

fn nothing(
    h: &Helper,
    _: &Handlebars,
    _: &Context,
    _: &mut RenderContext,
    _: &mut dyn Output,
) -> HelperResult {
    named(h)
}

/// `if` and `unless` at build time.
struct BothBranches;

impl HelperDef for BothBranches {
    fn call<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        r: &'reg Handlebars<'reg>,
        ctx: &'rc Context,
        rc: &mut RenderContext<'reg, 'rc>,
        out: &mut dyn Output,
    ) -> HelperResult {
        named(h)?;
        for branch in [h.template(), h.inverse()].into_iter().flatten() {
            branch.render(r, ctx, rc, out)?;
        }
        Ok(())
    }
}
