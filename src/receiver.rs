//! The Kobana payment receiver: where a webhook of an organization's Kobana account delivers
//! `bank_billet.paid` and `pix.paid`, outside /v1 (Kobana signs, it holds no token). Kobana's
//! protocol: the body signed with HMAC-SHA256 (`X-Kobana-Signature: sha256=<hex>`, compared in
//! constant time), 200 when taken, 498 for a bad signature, 204 for an event not handled;
//! deliveries come at least once and in any order, and each payment is taken once: by the paid
//! object's id, which the signature covers (the delivery id, a header, when it has none). A taken payment settles its charge in the same transaction that keeps it, through the
//! path of `charges_settle`; one that fits no charge is kept for a person to assign.

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Request, Response, handler};
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::app::{App, RequestId};
use crate::auth::hash_token;
use crate::changes::take;
use crate::domain::dates::{Zone, parse_date, parse_timestamp};
use crate::domain::ids::new_id;
use crate::domain::money::{Hundredths, positive_cents_from_json};
use crate::domain::payment_receiver::RECEIVER_PREFIX;
use crate::domain::received_payment::{PaymentFacts, ReceivedPayment};
use crate::error::{ApiError, error_response};
use crate::providers::signed_by;
use crate::types::{PaymentMethod, PaymentSource};

/// The largest delivery read (Kobana's bank billet objects are a few kilobytes).
const MAX_DELIVERY_BYTES: usize = 256 * 1024;

/// The status Kobana expects for a bad signature.
const BAD_SIGNATURE: u16 = 498;

/// `POST /receivers/kobana/:token`.
#[handler]
pub async fn kobana(
    req: &Request,
    Path(token): Path<String>,
    body: poem::Body,
    app: Data<&Arc<App>>,
) -> Response {
    let request_id = req.data::<RequestId>().map(|r| r.0.clone()).unwrap_or_else(|| new_id("req"));
    match receive(req, &token, body, &app).await {
        Ok(answer) => answer,
        Err(err) => error_response(&err, &request_id),
    }
}

async fn receive(req: &Request, token: &str, body: poem::Body, app: &Arc<App>) -> Result<Response, ApiError> {
    let unknown = || ApiError::NotFound("receiver");
    if !token.starts_with(RECEIVER_PREFIX) || token.len() > 128 {
        return Err(unknown());
    }
    // A replaced receiver hears payments until its grace ends; a revoked one, never again.
    let receiver = app
        .store
        .payment_receiver_by_token(&hash_token(token))
        .await?
        .filter(|r| r.takes_deliveries(OffsetDateTime::now_utc()))
        .ok_or_else(unknown)?;
    let bytes = body.into_bytes_limit(MAX_DELIVERY_BYTES).await.map_err(|_| ApiError::PayloadTooLarge)?;
    let secret: String = app
        .key
        .open(&receiver.secret_sealed)
        .ok_or_else(|| ApiError::Internal("a receiver's secret does not open with the server key".into()))?;
    let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
    if !signed_by(secret.as_bytes(), &bytes, header("x-kobana-signature").unwrap_or_default()) {
        return Ok(answer(
            BAD_SIGNATURE,
            json!({ "error": { "code": "BAD_SIGNATURE", "message": "The signature does not match the body and the registered secret." } }),
        ));
    }
    let taken = take_delivery(req, &bytes, &receiver.organization_id, app).await?;
    // Taken (a payment, a duplicate, a ping, an event not handled): the organization's payments
    // reach it.
    app.store.payment_receiver_delivered(&receiver.id, &OffsetDateTime::now_utc()).await?;
    Ok(taken)
}

/// What a signed delivery comes to: its payment kept (and its charge settled), or a ping's
/// answer, or nothing for an event not handled.
async fn take_delivery(
    req: &Request,
    bytes: &[u8],
    org_id: &str,
    app: &Arc<App>,
) -> Result<Response, ApiError> {
    let unknown = || ApiError::NotFound("receiver");
    let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
    let delivery: Value =
        serde_json::from_slice(bytes).map_err(|_| ApiError::BadRequest("the delivery is not JSON".into()))?;
    let code =
        header("x-kobana-event").or_else(|| delivery.get("event_code").and_then(Value::as_str)).unwrap_or("");
    let method = match code {
        "ping" => return Ok(answer(200, json!({ "data": { "pong": true } }))),
        "bank_billet.paid" => PaymentMethod::Boleto,
        "pix.paid" => PaymentMethod::Pix,
        _ => return Ok(Response::builder().status(StatusCode::NO_CONTENT).finish()),
    };
    let delivery_id = header("x-kobana-delivery-id")
        .filter(|id| !id.is_empty() && id.len() <= 128 && id.bytes().all(|b| b.is_ascii_graphic()))
        .ok_or_else(|| ApiError::BadRequest("X-Kobana-Delivery-Id is missing".into()))?;
    let org = app.store.organization(org_id).await?.ok_or_else(unknown)?;
    let now = OffsetDateTime::now_utc();
    let object = delivery.get("object").unwrap_or(&Value::Null);
    let (facts, paid_at) = facts(object, &org.timezone, now)?;
    let reference = reference(code, object, delivery_id);
    let payment = ReceivedPayment::heard(&org.id, PaymentSource::Kobana, reference, facts, paid_at, now);

    let request_id = req.data::<RequestId>().map(|r| r.0.clone()).unwrap_or_else(|| new_id("req"));
    let Some(payment) = take(&app.store, &org, payment, "payment_receiver", request_id, Some(method)).await?
    else {
        // Delivered before: taken then, nothing to do again.
        return Ok(answer(200, json!({ "data": { "delivery_id": delivery_id, "duplicate": true } })));
    };
    Ok(answer(
        200,
        json!({ "data": { "payment_id": payment.id, "status": payment.status.as_str(), "charge_id": payment.charge_id } }),
    ))
}

/// What makes a delivery the same payment: the paid object's own id (a Pix transfer's end-to-end
/// id, else the bank billet's or Pix charge's id) with the event, which the signature covers, so
/// a signed body sent again under a new delivery id is still the same payment; the delivery id
/// only when the object carries no id.
fn reference(code: &str, object: &Value, delivery_id: &str) -> String {
    let id = ["end_to_end_id", "e2eid", "id"].iter().find_map(|name| match object.get(*name) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    });
    match id {
        Some(id) => format!("{code}:{id}"),
        None => format!("delivery:{delivery_id}"),
    }
}

/// What a paid bank billet or Pix says: the amount paid (else its amount), when (a date is the
/// start of that day in the organization's zone; none is now) and what names its charge.
fn facts(
    object: &Value,
    zone: &Zone,
    now: OffsetDateTime,
) -> Result<(PaymentFacts, OffsetDateTime), ApiError> {
    // The ids the store keeps and matches on: control characters belong in none, and
    // PostgreSQL's text refuses NUL outright.
    for name in ["external_id", "txid", "end_to_end_id", "e2eid", "id"] {
        if object.get(name).and_then(Value::as_str).is_some_and(|s| s.chars().any(|c| c < ' ' || c == '\x7f'))
        {
            return Err(ApiError::field(format!("object.{name}"), "must not contain control characters"));
        }
    }
    let text = |name: &str| object.get(name).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    let amount = object
        .get("paid_amount")
        .filter(|v| !v.is_null())
        .or_else(|| object.get("amount"))
        .ok_or_else(|| ApiError::field("object.paid_amount", "is required"))
        .and_then(|v| {
            positive_cents_from_json(v).map_err(|e| ApiError::field("object.paid_amount", e.to_string()))
        })?;
    let paid_at = match text("paid_at") {
        None => now,
        Some(t) => match parse_date(t) {
            Ok(day) => zone.day_start(day),
            Err(_) => parse_timestamp(t).map_err(|e| ApiError::field("object.paid_at", e.to_string()))?,
        },
    };
    let line = text("digitable_line")
        .or_else(|| text("line"))
        .map(|l| l.chars().filter(char::is_ascii_digit).collect());
    let facts = PaymentFacts {
        external_id: text("external_id").map(str::to_string),
        line,
        txid: text("txid").map(str::to_string),
        amount: Hundredths(amount),
    };
    Ok((facts, paid_at))
}

fn answer(status: u16, body: Value) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::OK))
        .header(poem::http::header::CONTENT_TYPE, crate::request::APPLICATION_JSON)
        .body(body.to_string())
}

#[cfg(test)]
mod tests {
    use hmac::{Hmac, Mac};
    use sha2::Sha256;

    use super::*;

    #[test]
    fn a_signature_is_the_hmac_of_the_exact_body() {
        let mut mac = Hmac::<Sha256>::new_from_slice(b"s3cret-s3cret-s3cret").unwrap();
        mac.update(b"{\"a\":1}");
        let good = format!("sha256={}", hex::encode(mac.finalize().into_bytes()));
        assert!(signed_by(b"s3cret-s3cret-s3cret", b"{\"a\":1}", &good));
        assert!(!signed_by(b"s3cret-s3cret-s3cret", b"{\"a\":2}", &good));
        assert!(!signed_by(b"other-secret-other", b"{\"a\":1}", &good));
        assert!(!signed_by(b"s3cret-s3cret-s3cret", b"{\"a\":1}", &good["sha256=".len()..]));
        assert!(!signed_by(b"s3cret-s3cret-s3cret", b"{\"a\":1}", "sha256=zz"));
    }

    #[test]
    fn a_paid_date_is_the_start_of_that_day_where_the_organization_is() {
        let zone = Zone::default_zone();
        let now = OffsetDateTime::now_utc();
        let (found, at) = facts(
            &json!({ "paid_amount": 125.5, "paid_at": "2026-12-01", "digitable_line": "0019.0 00009" }),
            &zone,
            now,
        )
        .unwrap();
        assert_eq!(found.amount, Hundredths(12_550));
        assert_eq!(found.line.as_deref(), Some("0019000009"));
        assert_eq!(at, zone.day_start(time::macros::date!(2026 - 12 - 01)));
        assert!(facts(&json!({ "paid_amount": "x" }), &zone, now).is_err());
    }
}
