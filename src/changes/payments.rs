//! A payment heard of (the Kobana receiver, an imported file) kept and settling the charge it
//! pays through [`settle`], the path of `charges_settle`; one that fits no charge is kept for a
//! person to assign.

use super::{Acting, settle};
use crate::auth::{Principal, PrincipalData};
use crate::domain::charge::{Charge, Payment};
use crate::domain::received_payment::ReceivedPayment;
use crate::error::{ApiError, ApiResult};
use crate::store::{NewEvent, OrganizationRow, Store};
use crate::types::{self as wire, PaymentMethod};
use crate::views::event_data::ObjectPayload;
use crate::views::payment::payment_view;

/// Keeps a payment heard of and settles its charge, in one unit of work, as the part of the
/// server `by` (the receiver, an import) acting for `org`: a crash keeps neither. `None` when
/// a payment with its source and reference was kept before (nothing is done again).
pub(crate) async fn take(
    store: &Store,
    org: &OrganizationRow,
    mut payment: ReceivedPayment,
    by: &'static str,
    request_id: String,
    method: Option<PaymentMethod>,
) -> ApiResult<Option<ReceivedPayment>> {
    let unit = store.begin().await?;
    if !unit.store().insert_payment(&payment).await? {
        unit.rollback().await?;
        return Ok(None);
    }
    let now = payment.created_at;
    let principal: Principal = PrincipalData::system(by, org, now).into();
    let acting = Acting { store: unit.store(), principal: &principal, request_id: &request_id, now };
    let applied = async {
        apply(&acting, &mut payment, method).await?;
        if !unit.store().save_payment(&payment, &heard_events(&acting, &payment)).await? {
            return Err(ApiError::Concurrent("payment"));
        }
        Ok::<_, ApiError>(())
    }
    .await;
    match applied {
        Ok(()) => unit.commit().await?,
        Err(err) => {
            unit.rollback().await?;
            return Err(err);
        }
    }
    Ok(Some(payment))
}

/// The events of a payment just heard: `payment.received` whatever came of it, and
/// `payment.unmatched` too when it waits for a person.
fn heard_events(acting: &Acting<'_>, payment: &ReceivedPayment) -> Vec<NewEvent> {
    let data = wire::PaymentEventData::of(None, payment_view(payment.clone()));
    let mut events = vec![acting.event("payment.received", &payment.id, &data)];
    if payment.status == wire::PaymentStatus::Unmatched {
        events.push(acting.event("payment.unmatched", &payment.id, &data));
    }
    events
}

/// The charge payment a received payment makes.
pub(crate) fn payment_of(p: &ReceivedPayment, method: Option<PaymentMethod>) -> Payment {
    Payment { amount: Some(p.facts.amount), paid_at: Some(p.paid_at), method }
}

/// Settles the charge `payment` names, when exactly one does and the amount fits its balance;
/// otherwise the payment is left unmatched with the reason. A refusal of the charge's rules
/// (a payment dated later than now, say) is a reason too: the delivery is kept, not refused.
async fn apply(
    acting: &Acting<'_>,
    payment: &mut ReceivedPayment,
    method: Option<PaymentMethod>,
) -> ApiResult<()> {
    let barcode = payment
        .facts
        .line
        .as_deref()
        .and_then(|digits| {
            use crate::domain::boleto::Barcode;
            Barcode::from_line(digits).or_else(|_| Barcode::parse(digits)).ok()
        })
        .map(|b| b.digits().to_string());
    let found = acting
        .store
        .charges_paid_by(
            acting.org_id(),
            payment.facts.external_id.as_deref(),
            barcode.as_deref(),
            payment.facts.txid.as_deref(),
        )
        .await?;
    let charge = match <[Charge; 1]>::try_from(found) {
        Ok([charge]) => charge,
        Err(found) if found.is_empty() => {
            payment.unmatched("no charge has this external_id, digitable line or Pix txid".into(), None);
            return Ok(());
        }
        Err(_) => {
            payment.unmatched("more than one charge has this external_id, line or txid".into(), None);
            return Ok(());
        }
    };
    if let Some(reason) = payment.why_not_settle(&charge) {
        payment.unmatched(reason, Some(&charge.id));
        return Ok(());
    }
    match settle(acting, charge.clone(), payment_of(payment, method)).await {
        Ok(_) => payment.matched(&charge.id, acting.now),
        Err(ApiError::Validation(fields)) => {
            let reason =
                fields.iter().map(|f| format!("{} {}", f.field, f.message)).collect::<Vec<_>>().join("; ");
            payment.unmatched(reason, Some(&charge.id));
        }
        Err(ApiError::InvalidState { message, .. }) => payment.unmatched(message, Some(&charge.id)),
        Err(other) => return Err(other),
    }
    Ok(())
}
