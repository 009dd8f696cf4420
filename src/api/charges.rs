//! /v1/charges: what a debtor owes, and its life from pending to paid or canceled.

use serde_json::{Value, json};
use time::{Date, OffsetDateTime};

use super::fields::Fields;
use super::{ApiError, ApiResult, Call, Reply, change_event, event};
use crate::domain::charge_state::{
    ChargeAction, DEFAULT_FINE_HUNDREDTHS, DEFAULT_INTEREST_HUNDREDTHS, allows, days_overdue,
    dunning_status_after, open_status_for,
};
use crate::domain::dates::{format_date, format_timestamp, parse_date, parse_timestamp};
use crate::domain::money::{
    cents_to_json, percentage_from_json, percentage_to_json, positive_cents_from_json,
};
use crate::store::{ChargeFilter, ChargeRow};

/// The most a consumer can be fined (CDC art. 52 §1), in hundredths of a percent.
const CONSUMER_MAX_FINE: i64 = DEFAULT_FINE_HUNDREDTHS;

/// Today in the organization's time zone.
pub(crate) fn today(now: OffsetDateTime) -> Date {
    crate::domain::dates::organization_today(now)
}

/// The public JSON of a charge on `today`.
pub(crate) fn charge_json(c: &ChargeRow, today: Date) -> Value {
    let overdue_days = parse_date(&c.due_date).map(|due| days_overdue(&c.status, due, today)).unwrap_or(0);
    json!({
        "id": c.id,
        "debtor_id": c.debtor_id,
        "debtor_name": c.debtor_name,
        "external_id": c.external_id,
        "description": c.description,
        "amount": cents_to_json(c.amount_cents),
        "paid_amount": cents_to_json(c.paid_cents),
        "balance": cents_to_json(c.amount_cents - c.paid_cents),
        "currency": "BRL",
        "issue_date": c.issue_date,
        "due_date": c.due_date,
        "days_overdue": overdue_days,
        "status": c.status,
        "dunning_status": c.dunning_status,
        "payment_method": c.payment_method,
        "fine_percentage": percentage_to_json(c.fine_hundredths),
        "interest_monthly_percentage": percentage_to_json(c.interest_hundredths),
        "paid_at": c.paid_at,
        "canceled_at": c.canceled_at,
        "cancellation_reason": c.cancellation_reason,
        "written_off_at": c.written_off_at,
        "agreement_id": c.agreement_id,
        "credit_bureau_status": c.credit_bureau_status,
        "protest_status": c.protest_status,
        "tags": c.tags,
        "metadata": c.metadata,
        "version": c.version,
        "created_at": c.created_at,
        "updated_at": c.updated_at,
    })
}

async fn load(call: &Call) -> ApiResult<ChargeRow> {
    call.app.store.charge(call.org_id(), call.path_param("id")).await?.ok_or(ApiError::NotFound("charge"))
}

fn guard(action: ChargeAction, c: &ChargeRow) -> ApiResult<()> {
    if allows(action, &c.status) {
        return Ok(());
    }
    Err(ApiError::InvalidState {
        message: format!("a {} charge cannot be {}", c.status, action.verb()),
        status: c.status.clone(),
        allowed: action.allowed().to_vec(),
    })
}

fn reply(call: &Call, c: &ChargeRow, status: u16) -> Reply {
    Reply::object(status, charge_json(c, today(call.now)), c.version)
}

/// Saves a changed charge with its event, answering the new charge; a concurrent change is a
/// conflict to retry.
async fn save(
    call: &Call,
    before: &ChargeRow,
    mut after: ChargeRow,
    code: &str,
    extra: Value,
) -> ApiResult<Reply> {
    let day = today(call.now);
    after.version = before.version + 1;
    after.updated_at = format_timestamp(call.now);
    let (evt, object) = change_event(
        call,
        code,
        "charge",
        &after.id,
        &charge_json(before, day),
        charge_json(&after, day),
        extra,
    );
    if !call.app.store.update_charge(&after, before.version, &evt).await? {
        return Err(ApiError::Concurrent("charge"));
    }
    Ok(Reply::object(200, object, after.version))
}

fn date_field(fields: &mut Fields, call: &Call, name: &str) -> Option<Date> {
    call.body_str(name).and_then(|s| fields.check(name, parse_date(s)))
}

fn percentage_field(fields: &mut Fields, call: &Call, name: &str, default: i64) -> i64 {
    match call.body.get(name) {
        None | Some(Value::Null) => default,
        Some(v) => fields.check(name, percentage_from_json(v)).unwrap_or(default),
    }
}

/// An optional positive amount of the body, in centavos (absent and null are `None`).
fn cents_field(fields: &mut Fields, call: &Call, name: &str) -> Option<i64> {
    match call.body.get(name) {
        None | Some(Value::Null) => None,
        Some(v) => fields.check(name, positive_cents_from_json(v)),
    }
}

/// `charges_list`
pub async fn charges_list(call: Call) -> ApiResult<Reply> {
    let (window, page, per_page) = call.list_window();
    let filter = ChargeFilter {
        window,
        statuses: call.query_csv("status"),
        dunning_statuses: call.query_csv("dunning_status"),
        debtor_ids: call.query_csv("debtor_id"),
        due_from: call.query_str("due_date_from").map(str::to_string),
        due_to: call.query_str("due_date_to").map(str::to_string),
    };
    let (rows, total) = call.app.store.charges(call.org_id(), &filter).await?;
    let day = today(call.now);
    Ok(Reply::list(rows.iter().map(|c| charge_json(c, day)).collect(), total, page, per_page))
}

/// `charges_create`: a past due date starts the charge overdue (importing old debts).
pub async fn charges_create(call: Call) -> ApiResult<Reply> {
    let mut fields = Fields::default();
    let debtor_id = call.body_str("debtor_id").unwrap_or_default();
    let debtor = call.app.store.debtor(call.org_id(), debtor_id).await?;
    if debtor.is_none() {
        fields.push("debtor_id", "no debtor with this id exists");
    }
    let amount = cents_field(&mut fields, &call, "amount");
    let due_date = date_field(&mut fields, &call, "due_date");
    let day = today(call.now);
    // Not sent: today, or the due date when that has passed (an imported old debt).
    let issue_date = match call.body_str("issue_date") {
        Some(_) => date_field(&mut fields, &call, "issue_date"),
        None => Some(due_date.map_or(day, |due| due.min(day))),
    };
    if let (Some(issue), Some(due)) = (issue_date, due_date)
        && issue > due
    {
        fields.push("issue_date", "must not be after due_date");
    }
    let fine = percentage_field(&mut fields, &call, "fine_percentage", DEFAULT_FINE_HUNDREDTHS);
    let interest =
        percentage_field(&mut fields, &call, "interest_monthly_percentage", DEFAULT_INTEREST_HUNDREDTHS);
    if debtor.as_ref().is_some_and(|d| d.person_type == "natural") && fine > CONSUMER_MAX_FINE {
        fields.push("fine_percentage", "must be at most 2 for consumers (CDC art. 52 §1)");
    }
    fields.finish()?;
    let (Some(debtor), Some(amount), Some(due_date), Some(issue_date)) =
        (debtor, amount, due_date, issue_date)
    else {
        return Err(ApiError::Internal("validated fields are missing".into()));
    };
    if debtor.status != "active" {
        return Err(ApiError::InvalidState {
            message: "an archived debtor cannot get new charges".into(),
            status: debtor.status,
            allowed: vec!["active"],
        });
    }
    let mut c = ChargeRow::new(&debtor, amount, issue_date, due_date, day, &format_timestamp(call.now));
    c.external_id = call.body_str("external_id").map(str::to_string);
    c.description = call.body_str("description").map(str::to_string);
    if let Some(method) = call.body_str("payment_method") {
        c.payment_method = method.to_string();
    }
    c.fine_hundredths = fine;
    c.interest_hundredths = interest;
    if let Some(tags) = call.body.get("tags") {
        c.tags = tags.clone();
    }
    if let Some(metadata) = call.body.get("metadata") {
        c.metadata = metadata.clone();
    }
    let object = charge_json(&c, day);
    let evt = event(&call, "charge.db.created", "charge", &c.id, json!({ "object": object, "changes": {} }));
    call.app.store.insert_charge(&c, &evt).await?;
    Ok(Reply::object(201, object, c.version))
}

/// `charges_get`
pub async fn charges_get(call: Call) -> ApiResult<Reply> {
    let c = load(&call).await?;
    Ok(reply(&call, &c, 200))
}

/// `charges_update`: only while the charge is pending or overdue.
pub async fn charges_update(call: Call) -> ApiResult<Reply> {
    let before = load(&call).await?;
    call.check_if_match(before.version)?;
    guard(ChargeAction::Update, &before)?;
    let mut after = before.clone();
    let mut fields = Fields::default();
    if let Some(amount) = cents_field(&mut fields, &call, "amount") {
        if amount <= before.paid_cents {
            fields.push("amount", "must be greater than the amount already paid");
        }
        after.amount_cents = amount;
    }
    if let Some(due) = date_field(&mut fields, &call, "due_date") {
        if parse_date(&before.issue_date).is_ok_and(|issue| due < issue) {
            fields.push("due_date", "must not be before issue_date");
        }
        after.due_date = format_date(due);
        after.status = open_status_for(due, today(call.now)).to_string();
    }
    if let Some(v) = fields.optional_text(&call.body, "description", |s| Ok(s.to_string())) {
        after.description = v;
    }
    if let Some(v) = fields.optional_text(&call.body, "external_id", |s| Ok(s.to_string())) {
        after.external_id = v;
    }
    if let Some(tags) = call.body.get("tags") {
        after.tags = tags.clone();
    }
    if let Some(metadata) = call.body.get("metadata") {
        after.metadata = metadata.clone();
    }
    fields.finish()?;
    if after == before {
        return Ok(reply(&call, &before, 200));
    }
    save(&call, &before, after, "charge.db.updated", json!({})).await
}

/// `charges_settle`: records a payment; the full balance makes the charge paid.
pub async fn charges_settle(call: Call) -> ApiResult<Reply> {
    let before = load(&call).await?;
    call.check_if_match(before.version)?;
    guard(ChargeAction::Settle, &before)?;
    if Some(before.status.as_str()) == ChargeAction::Settle.no_op_status() {
        return Ok(reply(&call, &before, 200));
    }
    let balance = before.amount_cents - before.paid_cents;
    let mut fields = Fields::default();
    let paid = cents_field(&mut fields, &call, "paid_amount").unwrap_or(balance);
    if paid > balance {
        fields.push("paid_amount", "must not exceed the balance of the charge");
    }
    let paid_at = match call.body_str("paid_at") {
        Some(text) => fields.check("paid_at", parse_timestamp(text)),
        None => Some(call.now),
    };
    if paid_at.is_some_and(|t| t > call.now) {
        fields.push("paid_at", "must not be in the future");
    }
    fields.finish()?;
    let mut after = before.clone();
    after.paid_cents += paid;
    if let Some(method) = call.body_str("payment_method") {
        after.payment_method = method.to_string();
    }
    let code = if after.paid_cents >= after.amount_cents {
        after.status = "paid".into();
        after.paid_at = paid_at.map(format_timestamp);
        "charge.paid"
    } else {
        "charge.db.updated"
    };
    after.dunning_status = dunning_status_after(&after.status, &before.dunning_status).to_string();
    let payment =
        json!({ "payment": { "amount": cents_to_json(paid), "paid_at": paid_at.map(format_timestamp) } });
    save(&call, &before, after, code, payment).await
}

/// `charges_cancel`: canceling a canceled charge is a no-op.
pub async fn charges_cancel(call: Call) -> ApiResult<Reply> {
    let before = load(&call).await?;
    call.check_if_match(before.version)?;
    guard(ChargeAction::Cancel, &before)?;
    if Some(before.status.as_str()) == ChargeAction::Cancel.no_op_status() {
        return Ok(reply(&call, &before, 200));
    }
    let mut after = before.clone();
    after.status = "canceled".into();
    after.canceled_at = Some(format_timestamp(call.now));
    after.cancellation_reason = call.body_str("reason").map(str::to_string);
    after.dunning_status = dunning_status_after("canceled", &before.dunning_status).to_string();
    save(&call, &before, after, "charge.canceled", json!({})).await
}
