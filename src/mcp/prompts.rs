//! Ready-made prompts (DESIGN.md section 9): each declares the operations it reads, is listed
//! only when they exist and the caller may run them, and fetches its data in-process through
//! /v1. Third-party text reaches the model only inside a fence.

use std::sync::LazyLock;

use handlebars::Handlebars;
use serde_json::{Map, Value, json};

use super::context::{Context, Outcome, allowed};
use super::fence::fenced;
use super::wire::RpcError;
use crate::operations::{Operation, ops};

/// One prompt argument.
pub struct Argument {
    /// Its name.
    pub name: &'static str,
    /// What it is.
    pub description: &'static str,
    /// Whether it must be given.
    pub required: bool,
    /// The operation argument it is passed to: its `x-mcp.complete` completes this one too.
    pub passed_to: Option<(&'static Operation, &'static str)>,
}

/// One prompt.
pub struct Prompt {
    /// `dunning_…`
    pub name: &'static str,
    /// Display title.
    pub title: &'static str,
    /// What it does.
    pub description: &'static str,
    /// Its arguments.
    pub arguments: &'static [Argument],
    /// The operations it reads (it is listed only where the caller may run them).
    pub reads: &'static [&'static Operation],
    /// The handlebars template of its message; `data` is the fenced data.
    template: &'static str,
}

/// Every prompt of the server.
pub static PROMPTS: &[Prompt] = &[
    Prompt {
        name: "dunning_daily_briefing",
        title: "Daily collection briefing",
        description: "Today's overdue charges and those due in the next 7 days, for a prioritised plan.",
        arguments: &[],
        reads: &[ops::ME, ops::CHARGES_LIST],
        template: "Prepare today's collection briefing for the organization below. Summarise the overdue \
charges (largest balances and oldest first), list the charges due in the next 7 days, and propose \
a prioritised plan of actions. Ask before any destructive or outbound action.\n\n{{{data}}}",
    },
    Prompt {
        name: "dunning_debtor_review",
        title: "Review a debtor",
        description: "A debtor's situation: contact data, open and overdue amounts and charges, with next steps.",
        arguments: &[Argument {
            name: "debtor_id",
            description: "The debtor's id (dbt_…).",
            required: true,
            passed_to: Some((ops::DEBTORS_GET, "id")),
        }],
        reads: &[ops::DEBTORS_GET, ops::CHARGES_LIST],
        template: "Review the situation of the debtor below: how much is open and overdue, since when, \
whether the contact data allows reaching them, and what the next collection step should be. Ask \
before any destructive or outbound action.\n\n{{{data}}}",
    },
    Prompt {
        name: "dunning_charge_followup",
        title: "Follow up a charge",
        description: "One charge and its debtor, with a suggested follow-up (reminder, negotiation, settlement).",
        arguments: &[Argument {
            name: "charge_id",
            description: "The charge's id (chg_…).",
            required: true,
            passed_to: Some((ops::CHARGES_GET, "id")),
        }],
        reads: &[ops::CHARGES_GET, ops::DEBTORS_GET],
        template: "Suggest how to follow up the charge below: where it stands, what the debtor owes \
in total, and the most appropriate next step (a reminder, a negotiation, a settlement). Ask before \
any destructive or outbound action.\n\n{{{data}}}",
    },
];

static TEMPLATES: LazyLock<Handlebars<'static>> = LazyLock::new(|| {
    let mut registry = Handlebars::new();
    registry.set_strict_mode(true);
    registry.register_escape_fn(handlebars::no_escape);
    for prompt in PROMPTS {
        registry.register_template_string(prompt.name, prompt.template).expect("prompt templates compile");
    }
    registry
});

/// Whether the caller sees a prompt.
pub fn available(ctx: &Context<'_>, prompt: &Prompt) -> bool {
    prompt.reads.iter().all(|op| allowed(ctx, op))
}

/// `prompts/list`
pub fn list(ctx: &Context<'_>) -> Outcome {
    let prompts: Vec<Value> = PROMPTS
        .iter()
        .filter(|p| available(ctx, p))
        .map(|p| {
            let arguments: Vec<Value> = p
                .arguments
                .iter()
                .map(|a| json!({ "name": a.name, "description": a.description, "required": a.required }))
                .collect();
            let mut item = json!({ "name": p.name, "description": p.description, "arguments": arguments });
            if ctx.era.has_titles() {
                item["title"] = json!(p.title);
            }
            item
        })
        .collect();
    Outcome::cacheable(json!({ "prompts": prompts }))
}

/// Calls a read operation in-process; its `data` (or the whole body for lists).
async fn read(
    ctx: &Context<'_>,
    op: &'static Operation,
    path: &[(&'static str, String)],
    query: Value,
) -> Result<Value, RpcError> {
    let query = query.as_object().cloned().unwrap_or_default();
    let answer = ctx.dispatcher.call(ctx.caller, op, path, &query, None).await;
    let body = answer.json().unwrap_or(Value::Null);
    if !answer.status.is_success() {
        let message = body["error"]["message"].as_str().unwrap_or("the data could not be read");
        return Err(RpcError::invalid_params(message.to_string()));
    }
    Ok(body)
}

/// `prompts/get`
pub async fn get(ctx: &Context<'_>, params: &Map<String, Value>) -> Result<Outcome, RpcError> {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::invalid_params("params.name is required"))?;
    let prompt = PROMPTS
        .iter()
        .find(|p| p.name == name && available(ctx, p))
        .ok_or_else(|| RpcError::invalid_params(format!("Unknown prompt: {name}")))?;
    let empty = Map::new();
    let given = match params.get("arguments") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(a)) => a,
        Some(_) => return Err(RpcError::invalid_params("params.arguments must be an object")),
    };
    for key in given.keys() {
        if !prompt.arguments.iter().any(|a| a.name == key) {
            return Err(RpcError::invalid_params(format!("Unknown argument {key} for prompt {name}")));
        }
    }
    let mut args = Map::new();
    for argument in prompt.arguments {
        match given.get(argument.name) {
            Some(Value::String(s)) if !s.trim().is_empty() => {
                args.insert(argument.name.to_string(), json!(s.trim()));
            }
            Some(_) => {
                return Err(RpcError::invalid_params(format!(
                    "Argument {} must be a non-empty string",
                    argument.name
                )));
            }
            None if argument.required => {
                return Err(RpcError::invalid_params(format!("Missing required argument {}", argument.name)));
            }
            None => {}
        }
    }
    let arg = |n: &str| args.get(n).and_then(Value::as_str).unwrap_or_default().to_string();
    let data = match prompt.name {
        "dunning_daily_briefing" => {
            let today = crate::domain::dates::organization_today(time::OffsetDateTime::now_utc());
            let week = crate::domain::dates::format_date(today + time::Duration::days(7));
            let me = read(ctx, ops::ME, &[], json!({})).await?;
            let overdue = read(
                ctx,
                ops::CHARGES_LIST,
                &[],
                json!({ "status": "overdue", "sort_by": "due_date", "sort_order": "asc", "per_page": 50 }),
            )
            .await?;
            let upcoming = read(ctx, ops::CHARGES_LIST, &[], json!({ "status": "pending", "due_date_to": week, "sort_by": "due_date", "sort_order": "asc", "per_page": 50 })).await?;
            fenced(
                "kobana-dunning",
                &json!({ "organization": me["data"]["organization"], "overdue": overdue, "due_in_7_days": upcoming }),
            )
        }
        "dunning_debtor_review" => {
            let id = arg("debtor_id");
            let debtor = read(ctx, ops::DEBTORS_GET, &[("id", id.clone())], json!({})).await?;
            let charges = read(
                ctx,
                ops::CHARGES_LIST,
                &[],
                json!({ "debtor_id": id, "sort_by": "due_date", "sort_order": "asc", "per_page": 100 }),
            )
            .await?;
            fenced("kobana-dunning", &json!({ "debtor": debtor["data"], "charges": charges }))
        }
        "dunning_charge_followup" => {
            let charge = read(ctx, ops::CHARGES_GET, &[("id", arg("charge_id"))], json!({})).await?;
            let debtor_id = charge["data"]["debtor_id"].as_str().unwrap_or_default().to_string();
            let debtor = read(ctx, ops::DEBTORS_GET, &[("id", debtor_id)], json!({})).await?;
            fenced("kobana-dunning", &json!({ "charge": charge["data"], "debtor": debtor["data"] }))
        }
        other => return Err(RpcError::invalid_params(format!("Unknown prompt: {other}"))),
    };
    let text = TEMPLATES
        .render(prompt.name, &json!({ "data": data, "args": args }))
        .map_err(|e| RpcError::invalid_params(format!("prompt {name} could not be rendered: {e}")))?;
    Ok(Outcome::complete(json!({
        "description": prompt.description,
        "messages": [{ "role": "user", "content": { "type": "text", "text": text } }],
    })))
}
