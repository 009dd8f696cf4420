//! /v1/debtors: the people and companies who owe.

use serde_json::{Map, Value, json};

use super::fields::Fields;
use super::{ApiError, ApiResult, Call, Reply, change_event, event};
use crate::domain::dates::{format_timestamp, parse_date};
use crate::domain::money::cents_to_json;
use crate::domain::{
    format_document, parse_cep, parse_document, parse_email, parse_mobile, parse_phone, parse_uf,
};
use crate::store::{DebtorFilter, DebtorRow};

/// The public JSON of a debtor.
pub(crate) fn debtor_json(d: &DebtorRow) -> Value {
    json!({
        "id": d.id,
        "external_id": d.external_id,
        "person_type": d.person_type,
        "name": d.name,
        "document": d.document,
        "document_formatted": format_document(&d.document),
        "email": d.email,
        "phone": d.phone,
        "mobile": d.mobile,
        "address": d.address,
        "birth_date": d.birth_date,
        "opt_out": { "email": d.opt_out_email, "sms": d.opt_out_sms, "whatsapp": d.opt_out_whatsapp },
        "credit_bureau_blocked": d.credit_bureau_blocked,
        "status": d.status,
        "archived_at": d.archived_at,
        "summary": {
            "open_amount": cents_to_json(d.open_cents),
            "overdue_amount": cents_to_json(d.overdue_cents),
            "open_charges": d.open_charges,
        },
        "tags": d.tags,
        "metadata": d.metadata,
        "version": d.version,
        "created_at": d.created_at,
        "updated_at": d.updated_at,
    })
}

/// Loads a debtor of the caller's organization, or NOT_FOUND.
pub(crate) async fn load(call: &Call, id: &str) -> ApiResult<DebtorRow> {
    call.app.store.debtor(call.org_id(), id).await?.ok_or(ApiError::NotFound("debtor"))
}

/// Normalises an address object (CEP digits, UF uppercase, country BR).
fn address(fields: &mut Fields, value: &Value) -> Option<Value> {
    let mut out: Map<String, Value> = value.as_object()?.clone();
    if let Some(cep) = out.get("zipcode").and_then(Value::as_str) {
        let cep = fields.check("address.zipcode", parse_cep(cep))?;
        out.insert("zipcode".into(), json!(cep));
    }
    if let Some(uf) = out.get("state").and_then(Value::as_str) {
        let uf = fields.check("address.state", parse_uf(uf))?;
        out.insert("state".into(), json!(uf));
    }
    out.entry("complement").or_insert(Value::Null);
    out.insert("country".into(), json!("BR"));
    // Key order of the public object, whatever the order sent.
    let order = ["zipcode", "street", "number", "complement", "neighborhood", "city", "state", "country"];
    Some(Value::Object(
        order.iter().filter_map(|k| out.get(*k).map(|v| (k.to_string(), v.clone()))).collect(),
    ))
}

/// Applies the contact, address and flag fields shared by create and update.
fn apply_common(call: &Call, d: &mut DebtorRow, fields: &mut Fields) {
    let body = &call.body;
    if let Some(name) = body.get("name").and_then(Value::as_str) {
        let name = name.trim();
        if name.is_empty() {
            fields.push("name", "must not be blank");
        }
        d.name = name.to_string();
    }
    if let Some(v) = fields.optional_text(body, "external_id", |s| Ok(s.to_string())) {
        d.external_id = v;
    }
    if let Some(v) = fields.optional_text(body, "email", parse_email) {
        d.email = v;
    }
    if let Some(v) = fields.optional_text(body, "phone", parse_phone) {
        d.phone = v;
    }
    if let Some(v) = fields.optional_text(body, "mobile", parse_mobile) {
        d.mobile = v;
    }
    if let Some(v) =
        fields.optional_text(body, "birth_date", |s| parse_date(s).map(crate::domain::dates::format_date))
    {
        if let Some(date) = &v
            && date.as_str() > format_timestamp(call.now).as_str()
        {
            fields.push("birth_date", "must not be in the future");
        }
        d.birth_date = v;
    }
    match body.get("address") {
        None => {}
        Some(Value::Null) => d.address = None,
        Some(value) => d.address = address(fields, value),
    }
    if let Some(opt_out) = body.get("opt_out").and_then(Value::as_object) {
        let flag = |k: &str, current: bool| opt_out.get(k).and_then(Value::as_bool).unwrap_or(current);
        d.opt_out_email = flag("email", d.opt_out_email);
        d.opt_out_sms = flag("sms", d.opt_out_sms);
        d.opt_out_whatsapp = flag("whatsapp", d.opt_out_whatsapp);
    }
    if let Some(b) = body.get("credit_bureau_blocked").and_then(Value::as_bool) {
        d.credit_bureau_blocked = b;
    }
    if let Some(tags) = body.get("tags") {
        d.tags = tags.clone();
    }
    if let Some(metadata) = body.get("metadata") {
        d.metadata = metadata.clone();
    }
}

/// `debtors_list`
pub async fn debtors_list(call: Call) -> ApiResult<Reply> {
    let (window, page, per_page) = call.list_window();
    let filter = DebtorFilter {
        window,
        statuses: call.query_csv("status"),
        person_type: call.query_str("person_type").map(str::to_string),
    };
    let (rows, total) = call.app.store.debtors(call.org_id(), &filter).await?;
    Ok(Reply::list(rows.iter().map(debtor_json).collect(), total, page, per_page))
}

/// `debtors_create`
pub async fn debtors_create(call: Call) -> ApiResult<Reply> {
    let mut fields = Fields::default();
    let document = fields.check("document", parse_document(call.body_str("document").unwrap_or_default()));
    let now = format_timestamp(call.now);
    let mut d = DebtorRow::new(call.org_id(), "", String::new(), String::new(), &now);
    apply_common(&call, &mut d, &mut fields);
    fields.finish()?;
    if let Some(document) = document {
        d.person_type = document.person_type.as_str().to_string();
        d.document = document.value;
    }
    let object = debtor_json(&d);
    let evt = event(&call, "debtor.db.created", "debtor", &d.id, json!({ "object": object, "changes": {} }));
    call.app.store.insert_debtor(&d, &evt).await?;
    Ok(Reply::object(201, object, d.version))
}

/// `debtors_get`
pub async fn debtors_get(call: Call) -> ApiResult<Reply> {
    let d = load(&call, call.path_param("id")).await?;
    Ok(Reply::object(200, debtor_json(&d), d.version))
}

/// Saves a changed debtor with its event, answering the new debtor; a concurrent change is a
/// conflict to retry.
async fn save(
    call: &Call,
    before: &DebtorRow,
    mut after: DebtorRow,
    code: &str,
    extra: Value,
) -> ApiResult<Reply> {
    after.version = before.version + 1;
    after.updated_at = format_timestamp(call.now);
    let (evt, object) =
        change_event(call, code, "debtor", &after.id, &debtor_json(before), debtor_json(&after), extra);
    if !call.app.store.update_debtor(&after, before.version, &evt).await? {
        return Err(ApiError::Concurrent("debtor"));
    }
    Ok(Reply::object(200, object, after.version))
}

/// `debtors_update`
pub async fn debtors_update(call: Call) -> ApiResult<Reply> {
    let before = load(&call, call.path_param("id")).await?;
    call.check_if_match(before.version)?;
    let mut after = before.clone();
    let mut fields = Fields::default();
    apply_common(&call, &mut after, &mut fields);
    fields.finish()?;
    if after == before {
        return Ok(Reply::object(200, debtor_json(&before), before.version));
    }
    save(&call, &before, after, "debtor.db.updated", json!({})).await
}

/// `debtors_archive`: archived debtors keep their charges but get no new ones.
pub async fn debtors_archive(call: Call) -> ApiResult<Reply> {
    let before = load(&call, call.path_param("id")).await?;
    call.check_if_match(before.version)?;
    if before.status == "archived" {
        return Ok(Reply::object(200, debtor_json(&before), before.version));
    }
    let mut after = before.clone();
    after.status = "archived".into();
    after.archived_at = Some(format_timestamp(call.now));
    let reason = call.body_str("reason").map(str::to_string);
    save(&call, &before, after, "debtor.archived", json!({ "reason": reason })).await
}

/// `debtors_delete`: only a debtor without charges; others are archived instead.
pub async fn debtors_delete(call: Call) -> ApiResult<Reply> {
    let d = load(&call, call.path_param("id")).await?;
    call.check_if_match(d.version)?;
    if call.app.store.debtor_has_charges(call.org_id(), &d.id).await? {
        return Err(ApiError::Conflict(
            "the debtor has charges and cannot be deleted; archive it instead".into(),
        ));
    }
    let evt = event(
        &call,
        "debtor.db.deleted",
        "debtor",
        &d.id,
        json!({ "object": debtor_json(&d), "changes": {} }),
    );
    if !call.app.store.delete_debtor(call.org_id(), &d.id, d.version, &evt).await? {
        return Err(ApiError::Concurrent("debtor"));
    }
    Ok(Reply::NoContent)
}
