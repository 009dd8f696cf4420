//! Ready-made prompts: each declares the operations it reads, is listed only when they exist and
//! the caller may run them, and fetches its data in-process through /v1. Third-party text reaches
//! the model only inside a fence.

use std::sync::LazyLock;

use handlebars::Handlebars;
use serde_json::{Map, Value, json};

use super::context::{Context, Outcome, allowed};
use super::dispatch::{document, refusal_message, succeeded};
use super::fence::fenced;
use super::params::Params;
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
        description: "Today's overdue charges, those awaiting a decision and those due in the next 7 days, for a prioritised plan.",
        arguments: &[],
        reads: &[ops::ME, ops::CHARGES_LIST],
        template: "Prepare today's collection briefing for the organization below. Summarise the overdue \
charges (largest balances and oldest first), name the charges whose régua awaits a decision (each \
needs a person: write off, restart, keep open, agreement, credit bureau or protest), list the \
charges due in the next 7 days, and propose a prioritised plan of actions. Ask before any \
destructive or outbound action.\n\n{{{data}}}",
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
    Prompt {
        name: "dunning_policy_review",
        title: "Review a collection policy",
        description: "A collection policy (régua), its dated schedule for a sample due date and its recent \
failed and skipped notifications, reviewed for gaps, same-day steps, escalations and channels that fail.",
        arguments: &[
            Argument {
                name: "cp_id",
                description: "The collection policy's id (cp_…).",
                required: true,
                passed_to: Some((ops::COLLECTION_POLICIES_GET, "cp_id")),
            },
            Argument {
                name: "due_date",
                description: "A sample due date for the schedule (YYYY-MM-DD); by default today in \
São Paulo, or the next business day when today is not one.",
                required: false,
                passed_to: Some((ops::COLLECTION_POLICIES_PREVIEW, "due_date")),
            },
        ],
        reads: &[ops::COLLECTION_POLICIES_GET, ops::COLLECTION_POLICIES_PREVIEW, ops::NOTIFICATIONS_LIST],
        template: "Review the collection policy (régua de cobrança) below. `policy` is the policy with \
all its steps; `preview.schedule` is the day each active step would be sent for a charge due on \
`preview.due_date`, after every move to a business day; `recent_problems` are this policy's notifications among the \
organization's most recent failed, bounced and skipped ones. Report:\n\
- gaps in the schedule: long stretches with no contact before or after the due date;\n\
- steps that fall on the same day, including those a weekend or holiday moves together;\n\
- the escalations (request_decision, credit_bureau, protest): when they come and what precedes them;\n\
- the channels with many skipped or failed notifications, and their reasons;\n\
- concrete suggestions to improve the policy.\n\
This is a review: change nothing. Any change to the policy or its steps needs the user's confirmation \
first. Ask before any destructive or outbound action.\n\n{{{data}}}",
    },
    Prompt {
        name: "dunning_negotiate_agreement",
        title: "Negotiate an agreement",
        description: "A debtor's open charges and a simulated agreement at up to max_installments, for \
options to propose (down payment, waivers, discount) before creating one.",
        arguments: &[
            Argument {
                name: "debtor_id",
                description: "The debtor's id (dbt_…).",
                required: true,
                passed_to: Some((ops::DEBTORS_GET, "id")),
            },
            Argument {
                name: "max_installments",
                description: "The most monthly installments to offer, 1 to 60 (default 12).",
                required: false,
                passed_to: None,
            },
        ],
        reads: &[ops::DEBTORS_GET, ops::CHARGES_LIST, ops::AGREEMENTS_SIMULATE],
        template: "Help negotiate an agreement (acordo) with the debtor below. `open_charges` is what \
they owe; `simulation` is the debt today with its fine and interest, and the installments at \
{{args.max_installments}} installments without discount, the first in about 30 days. Propose two or \
three options (with or without a down payment, the fine or interest waived, a discount), checking \
each with dunning_agreements_simulate, never above {{args.max_installments}} installments. Create the \
agreement with dunning_agreements_create only once the user has chosen an option and confirmed it. \
Ask before any destructive or outbound action.\n\n{{{data}}}",
    },
];

/// The installments a negotiation offers at most unless told.
const DEFAULT_MAX_INSTALLMENTS: u32 = 12;

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
    read_posted(ctx, op, path, query, None).await
}

/// [`read`], with a body for the reads that take one (a simulation).
async fn read_posted(
    ctx: &Context<'_>,
    op: &'static Operation,
    path: &[(&'static str, String)],
    query: Value,
    body: Option<Value>,
) -> Result<Value, RpcError> {
    let query = query.as_object().cloned().unwrap_or_default();
    let body = body.and_then(|b| b.as_object().cloned());
    let answered = ctx.dispatcher.call(ctx.caller, op, path, &query, body.as_ref()).await;
    if !succeeded(&answered) {
        let message = refusal_message(&answered).unwrap_or_else(|| "the data could not be read".into());
        return Err(RpcError::invalid_params(message));
    }
    Ok(document(&answered).unwrap_or(Value::Null))
}

/// The notifications of one policy in a page of failed, bounced and skipped ones, with only what a review
/// needs: no message bodies or contact data, which are the debtors' and add nothing to it.
fn policy_problems(list: &Value, cp_id: &str) -> Value {
    const KEPT: [&str; 10] = [
        "id",
        "charge_id",
        "step_id",
        "channel",
        "status",
        "skip_reason",
        "failure_reason",
        "attempts",
        "provider",
        "scheduled_for",
    ];
    let notifications: Vec<Value> = list["data"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|n| n["cp_id"].as_str() == Some(cp_id))
        .map(|n| KEPT.iter().map(|k| (k.to_string(), n[*k].clone())).collect::<Map<_, _>>().into())
        .collect();
    json!({
        "organization_total": list["meta"]["total"],
        "read": list["data"].as_array().map_or(0, Vec::len),
        "of_this_policy": notifications,
    })
}

/// `prompts/get`
pub async fn get(ctx: &Context<'_>, params: &Params) -> Result<Outcome, RpcError> {
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
    if prompt.name == "dunning_negotiate_agreement" && !args.contains_key("max_installments") {
        args.insert("max_installments".into(), json!(DEFAULT_MAX_INSTALLMENTS.to_string()));
    }
    let arg = |n: &str| args.get(n).and_then(Value::as_str).unwrap_or_default().to_string();
    let data = match prompt.name {
        "dunning_daily_briefing" => {
            let today = ctx.caller.principal.zone.today(time::OffsetDateTime::now_utc());
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
            let awaiting = read(
                ctx,
                ops::CHARGES_LIST,
                &[],
                json!({ "dunning_status": "awaiting_decision", "sort_by": "due_date", "sort_order": "asc", "per_page": 50 }),
            )
            .await?;
            fenced(
                "kobana-dunning",
                &json!({ "organization": me["data"]["organization"], "overdue": overdue,
                         "awaiting_decision": awaiting, "due_in_7_days": upcoming }),
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
        "dunning_policy_review" => {
            let id = arg("cp_id");
            let policy = read(ctx, ops::COLLECTION_POLICIES_GET, &[("cp_id", id.clone())], json!({})).await?;
            // A sample due date that is itself a business day, so the schedule shows the policy's
            // own spacing; the caller passes another (a Friday before a holiday) to see the moves.
            let due_date = match args.get("due_date").and_then(Value::as_str) {
                Some(given) => given.to_string(),
                None => {
                    let today = ctx.caller.principal.zone.today(time::OffsetDateTime::now_utc());
                    crate::domain::dates::format_date(crate::domain::calendar::on_or_after(today))
                }
            };
            let preview = read(
                ctx,
                ops::COLLECTION_POLICIES_PREVIEW,
                &[("cp_id", id.clone())],
                json!({ "due_date": due_date }),
            )
            .await?;
            let problems = read(
                ctx,
                ops::NOTIFICATIONS_LIST,
                &[],
                json!({ "status": "failed,bounced,skipped", "sort_order": "desc", "per_page": 100 }),
            )
            .await?;
            fenced(
                "kobana-dunning",
                &json!({
                    "policy": policy["data"],
                    "preview": preview["data"],
                    "recent_problems": policy_problems(&problems, policy["data"]["id"].as_str().unwrap_or(&id)),
                }),
            )
        }
        "dunning_negotiate_agreement" => {
            let max = arg("max_installments")
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=60).contains(n))
                .ok_or_else(|| {
                    RpcError::invalid_params("Argument max_installments must be a whole number from 1 to 60")
                })?;
            let id = arg("debtor_id");
            let debtor = read(ctx, ops::DEBTORS_GET, &[("id", id.clone())], json!({})).await?;
            let open = read(
                ctx,
                ops::CHARGES_LIST,
                &[],
                json!({ "debtor_id": id, "status": "pending,overdue", "sort_by": "due_date", "sort_order": "asc", "per_page": 50 }),
            )
            .await?;
            let ids: Vec<&str> = open["data"]
                .as_array()
                .map(|c| c.iter().filter_map(|c| c["id"].as_str()).collect())
                .unwrap_or_default();
            let simulation = if ids.is_empty() {
                Value::Null
            } else {
                let today = ctx.caller.principal.zone.today(time::OffsetDateTime::now_utc());
                let first = crate::domain::calendar::on_or_after(today + time::Duration::days(30));
                let terms = json!({ "charge_ids": ids, "installments_count": max,
                                    "first_due_date": crate::domain::dates::format_date(first) });
                read_posted(ctx, ops::AGREEMENTS_SIMULATE, &[], json!({}), Some(terms)).await?["data"].clone()
            };
            fenced(
                "kobana-dunning",
                &json!({ "debtor": debtor["data"], "open_charges": open, "simulation": simulation }),
            )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::Effect;

    #[test]
    fn prompts_only_read_and_pass_their_arguments_to_what_they_read() {
        for prompt in PROMPTS {
            assert!(TEMPLATES.get_template(prompt.name).is_some(), "{}", prompt.name);
            for op in prompt.reads {
                assert_eq!(op.effect, Effect::Read, "{} reads {}", prompt.name, op.operation_id);
            }
            for argument in prompt.arguments {
                if let Some((op, parameter)) = argument.passed_to {
                    assert!(
                        prompt.reads.iter().any(|r| std::ptr::eq(*r, op)),
                        "{}: {} goes to {}, which it does not declare",
                        prompt.name,
                        argument.name,
                        op.operation_id
                    );
                    assert!(
                        op.path_params.contains(&parameter)
                            || op.query_params.iter().any(|q| q.name == parameter),
                        "{}: {} has no parameter {parameter}",
                        prompt.name,
                        op.operation_id
                    );
                }
            }
        }
    }

    #[test]
    fn a_policy_review_keeps_its_policys_problems_without_message_or_contact() {
        let list = json!({
            "data": [
                { "id": "ntf_1", "cp_id": "cp_a", "channel": "sms", "status": "skipped",
                  "skip_reason": "missing_contact", "to": null, "body": "Olá, Maria", "subject": null },
                { "id": "ntf_2", "cp_id": "cp_b", "channel": "email", "status": "failed", "body": "x" },
                { "id": "ntf_3", "cp_id": null, "channel": "email", "status": "failed", "body": "y" },
            ],
            "meta": { "total": 7 },
        });
        let problems = policy_problems(&list, "cp_a");
        assert_eq!((problems["organization_total"].clone(), problems["read"].clone()), (json!(7), json!(3)));
        let kept = problems["of_this_policy"].as_array().unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!(
            (kept[0]["id"].as_str(), kept[0]["skip_reason"].as_str()),
            (Some("ntf_1"), Some("missing_contact"))
        );
        for dropped in ["body", "to", "subject", "cp_id"] {
            assert!(kept[0].get(dropped).is_none(), "{dropped}");
        }
    }
}
