//! /v1/agreements: renegotiating a debtor's open charges (acordos).

use super::{ApiError, ApiResult, Call, FieldError, Reply};
use crate::domain::agreement::{self, Discount, Simulation, Terms};
use crate::domain::charge::{Charge, OPEN};
use crate::domain::dates::Day;
use crate::types::{self as wire, AgreementSimulationEnvelope};

/// The handlers of the `agreements` tag.
pub struct Agreements;

/// The charges an agreement renegotiates: each of the organization's, open, and all of one
/// debtor; the refusals name the charge.
async fn source_charges(call: &Call, ids: &[crate::domain::text::Text]) -> ApiResult<Vec<Charge>> {
    let mut charges = Vec::with_capacity(ids.len());
    let mut missing = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        match call.store.charge(call.org_id(), id.as_str()).await? {
            Some(c) => charges.push(c),
            None => missing.push(FieldError::new(format!("charge_ids.{i}"), "no charge with this id exists")),
        }
    }
    if !missing.is_empty() {
        return Err(ApiError::Validation(missing));
    }
    if let Some(closed) = charges.iter().find(|c| !OPEN.contains(&c.status)) {
        return Err(ApiError::InvalidState {
            message: format!("charge {} is {} and cannot be renegotiated", closed.id, closed.status),
            status: closed.status.as_str().to_string(),
            allowed: OPEN.iter().map(|s| s.as_str()).collect(),
        });
    }
    if charges.iter().any(|c| c.debtor_id != charges[0].debtor_id) {
        return Err(ApiError::field("charge_ids", "must all be charges of one debtor"));
    }
    Ok(charges)
}

/// The terms as the domain reads them.
fn terms(input: &wire::AgreementsSimulateInput) -> ApiResult<Terms> {
    let discount = match (input.discount_amount, input.discount_percentage) {
        (Some(_), Some(_)) => {
            return Err(ApiError::field(
                "discount_percentage",
                "give discount_amount or discount_percentage, not both",
            ));
        }
        (Some(amount), None) => Some(Discount::Amount(amount)),
        (None, Some(rate)) => Some(Discount::Percentage(rate)),
        (None, None) => None,
    };
    Ok(Terms {
        discount,
        waive_fine: input.fine_waived.unwrap_or(false),
        waive_interest: input.interest_waived.unwrap_or(false),
        down_payment: input.down_payment_amount,
        down_payment_due: input.down_payment_due_date.map(|d| d.0),
        installments: u32::try_from(input.installments_count).unwrap_or(0),
        first_due: input.first_due_date.0,
    })
}

/// A simulation as the API shows it.
fn simulation_view(charges: &[Charge], s: Simulation) -> wire::AgreementSimulation {
    wire::AgreementSimulation {
        debtor_id: charges.first().map(|c| c.debtor_id.clone()).unwrap_or_default(),
        charge_ids: charges.iter().map(|c| c.id.clone()).collect(),
        original_amount: s.original_amount,
        fine_amount: s.fine_amount,
        interest_amount: s.interest_amount,
        discount_amount: s.discount_amount,
        total_amount: s.total_amount,
        down_payment_amount: s.down_payment.map(|(amount, _)| amount),
        down_payment_due_date: s.down_payment.map(|(_, due)| Day(due)),
        installments: s
            .installments
            .into_iter()
            .map(|i| wire::AgreementInstallmentPlan {
                number: i64::from(i.number),
                amount: i.amount,
                due_date: Day(i.due_date),
            })
            .collect(),
    }
}

impl super::handlers::AgreementsApi for Agreements {
    async fn agreements_simulate(
        call: Call,
        input: wire::AgreementsSimulateInput,
    ) -> ApiResult<Reply<AgreementSimulationEnvelope>> {
        let terms = terms(&input)?;
        let charges = source_charges(&call, &input.charge_ids).await?;
        let simulation = agreement::simulate(&charges, &terms, call.today())?;
        Ok(Reply::new(AgreementSimulationEnvelope { data: simulation_view(&charges, simulation) }))
    }
}
