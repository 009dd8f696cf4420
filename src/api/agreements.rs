//! /v1/agreements: renegotiating a debtor's open charges (acordos).

use super::{ApiError, ApiResult, Call, FieldError, ListArgs, Reply, csv, event};
use crate::changes::{next_action, save_change};
use crate::domain::agreement::{self, Agreement, DEFAULT_GRACE_DAYS, Discount, Simulation, Terms};
use crate::domain::charge::{Charge, OPEN, Outcome};
use crate::domain::dates::Day;
use crate::domain::money::Hundredths;
use crate::store::AgreementFilter;
use crate::types::{
    self as wire, AgreementEnvelope, AgreementInstallmentList, AgreementList, AgreementSimulationEnvelope,
    ChargeStatus, SortOrder,
};
use crate::views::agreement::agreement_view;
use crate::views::charge::charge_event_view;
use crate::views::event_data::ObjectPayload;

/// The handlers of the `agreements` tag.
pub struct Agreements;

/// The charges an agreement renegotiates: each of the organization's, open, and all of one
/// debtor; the refusals name the charge.
async fn source_charges(call: &Call, ids: &[&str]) -> ApiResult<Vec<Charge>> {
    let mut charges = Vec::with_capacity(ids.len());
    let mut missing = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        match call.store.charge(call.org_id(), id).await? {
            Some(c) => charges.push(c),
            None => missing.push(FieldError::new(format!("charge_ids.{i}"), "no charge with this id exists")),
        }
    }
    if !missing.is_empty() {
        return Err(ApiError::Validation(missing));
    }
    if let Some(taken) = charges.iter().find(|c| c.status == ChargeStatus::InAgreement) {
        let agreement = taken.agreement_id.as_deref().unwrap_or("another agreement");
        return Err(ApiError::Conflict(format!("charge {} is already in agreement {agreement}", taken.id)));
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
    // Changed in id order, so two agreements over the same charges lock them in one order.
    charges.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(charges)
}

/// The terms every input that makes an agreement carries (a simulation, a create, a decision).
pub(crate) struct TermsInput {
    pub discount_amount: Option<Hundredths>,
    pub discount_percentage: Option<Hundredths>,
    pub fine_waived: Option<bool>,
    pub interest_waived: Option<bool>,
    pub down_payment_amount: Option<Hundredths>,
    pub down_payment_due_date: Option<Day>,
    pub installments_count: i64,
    pub first_due_date: Day,
}

/// The [`TermsInput`] of a generated input type with those fields.
macro_rules! terms_input {
    ($input:expr) => {
        $crate::api::agreements::TermsInput {
            discount_amount: $input.discount_amount,
            discount_percentage: $input.discount_percentage,
            fine_waived: $input.fine_waived,
            interest_waived: $input.interest_waived,
            down_payment_amount: $input.down_payment_amount,
            down_payment_due_date: $input.down_payment_due_date,
            installments_count: $input.installments_count,
            first_due_date: $input.first_due_date,
        }
    };
}
pub(crate) use terms_input;

/// The terms as the domain reads them.
fn terms(input: TermsInput) -> ApiResult<Terms> {
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

fn reply(a: &Agreement) -> Reply<AgreementEnvelope> {
    Reply::versioned(AgreementEnvelope { data: agreement_view(a) }, a.version)
}

async fn load(call: &Call, id: &str) -> ApiResult<Agreement> {
    call.store.agreement(call.org_id(), id).await?.ok_or(ApiError::NotFound("agreement"))
}

/// Saves a charge an agreement changed, with its event naming the agreement.
async fn save_charge(
    call: &Call,
    before: &Charge,
    after: Charge,
    code: &str,
    agreement_id: &str,
) -> ApiResult<()> {
    let agreement_id = agreement_id.to_owned();
    save_change(&call.acting(), before, after, code, |data| data.agreement_id = Some(agreement_id))
        .await
        .map(drop)
}

/// Makes an agreement over the charges `ids`, in the call's unit of work: the agreement, a
/// charge for the down payment (number 0) and for each installment, and the source charges
/// turned in_agreement. For `agreements_create` and a decision to renegotiate.
pub(crate) async fn make_agreement(
    call: &Call,
    ids: &[&str],
    input: TermsInput,
    grace_days: Option<i64>,
) -> ApiResult<Agreement> {
    make(call, ids, terms(input)?, grace_days.unwrap_or(DEFAULT_GRACE_DAYS)).await
}

async fn make(call: &Call, ids: &[&str], terms: Terms, grace_days: i64) -> ApiResult<Agreement> {
    let charges = source_charges(call, ids).await?;
    let simulation = agreement::simulate(&charges, &terms, call.today())?;
    let debtor =
        call.store.debtor(call.org_id(), &charges[0].debtor_id).await?.ok_or(ApiError::NotFound("debtor"))?;
    let agreement = Agreement::make(&charges, &terms, &simulation, grace_days, call.now);

    let plan = simulation
        .down_payment
        .map(|(amount, due)| (0, amount, due))
        .into_iter()
        .chain(simulation.installments.iter().map(|i| (i.number, i.amount, i.due_date)));
    let mut installments = Vec::new();
    for planned in plan {
        let mut charge =
            agreement.installment_charge(&debtor, &charges[0], planned, call.now, call.zone())?;
        charge.next_action_at = next_action(&call.acting(), &charge).await?;
        let mut data = wire::ChargeEventData::of(None, charge_event_view(&charge, call.today()));
        data.agreement_id = Some(agreement.id.clone());
        let evt = event(call, "charge.db.created", &charge.id, &data);
        call.store.insert_charge(&charge, &evt).await?;
        installments.push((planned.0, charge.id));
    }
    for before in &charges {
        let mut after = before.clone();
        after.renegotiate(&agreement.id)?;
        save_charge(call, before, after, "charge.db.updated", &agreement.id).await?;
    }
    let data = wire::AgreementEventData::of(None, agreement_view(&agreement));
    let evt = event(call, "agreement.created", &agreement.id, &data);
    let listed: Vec<(u32, &str)> = installments.iter().map(|(n, id)| (*n, id.as_str())).collect();
    call.store.insert_agreement(&agreement, &listed, &evt).await?;
    Ok(agreement)
}

impl super::handlers::AgreementsApi for Agreements {
    async fn agreements_simulate(
        call: Call,
        input: wire::AgreementsSimulateInput,
    ) -> ApiResult<Reply<AgreementSimulationEnvelope>> {
        let terms = terms(terms_input!(input))?;
        let ids: Vec<&str> = input.charge_ids.iter().map(|id| id.as_str()).collect();
        let charges = source_charges(&call, &ids).await?;
        let simulation = agreement::simulate(&charges, &terms, call.today())?;
        Ok(Reply::new(AgreementSimulationEnvelope { data: simulation_view(&charges, simulation) }))
    }

    async fn agreements_create(
        call: Call,
        input: wire::AgreementsCreateInput,
    ) -> ApiResult<Reply<AgreementEnvelope>> {
        let terms = terms(terms_input!(input))?;
        let ids: Vec<&str> = input.charge_ids.iter().map(|id| id.as_str()).collect();
        let grace_days = input.grace_days_before_broken.unwrap_or(DEFAULT_GRACE_DAYS);
        Ok(reply(&make(&call, &ids, terms, grace_days).await?))
    }

    async fn agreements_get(
        call: Call,
        input: wire::AgreementsGetInput,
    ) -> ApiResult<Reply<AgreementEnvelope>> {
        Ok(reply(&load(&call, &input.id).await?))
    }

    async fn agreements_list(
        call: Call,
        input: wire::AgreementsListInput,
    ) -> ApiResult<Reply<AgreementList>> {
        let (window, pager) = ListArgs::plain(input.page, input.per_page, input.sort_order).page(call.zone());
        let filter = AgreementFilter {
            debtor_ids: csv(input.debtor_id),
            statuses: csv(input.status),
            ascending: input.sort_order == Some(SortOrder::Asc),
            limit: window.limit,
            offset: window.offset,
        };
        let (agreements, total, amount) = call.store.agreements(call.org_id(), &filter).await?;
        Ok(Reply::new(AgreementList {
            data: agreements.iter().map(agreement_view).collect(),
            meta: pager.amount_meta(total, amount),
        }))
    }

    async fn agreements_installments(
        call: Call,
        input: wire::AgreementsInstallmentsInput,
    ) -> ApiResult<Reply<AgreementInstallmentList>> {
        let agreement = load(&call, &input.id).await?;
        let mut data = Vec::new();
        for (number, charge_id) in call.store.agreement_installments(&agreement.id).await? {
            let Some(c) = call.store.charge(call.org_id(), &charge_id).await? else { continue };
            data.push(wire::AgreementInstallment {
                number: i64::from(number),
                amount: c.amount,
                due_date: Day(c.due_date),
                charge_id: c.id,
                status: c.status,
                paid_amount: c.paid,
            });
        }
        Ok(Reply::new(AgreementInstallmentList { data }))
    }

    async fn agreements_term(call: Call, input: wire::AgreementsTermInput) -> ApiResult<crate::api::File> {
        let agreement = load(&call, &input.id).await?;
        super::papers::agreement_term(&call, &agreement).await
    }

    /// Its unpaid installments are canceled and the charges it renegotiated are open again.
    async fn agreements_cancel(
        call: Call,
        input: wire::AgreementsCancelInput,
    ) -> ApiResult<Reply<AgreementEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        let reason: Option<String> = input.reason.map(Into::into);
        if after.cancel(reason, call.now)? == Outcome::Unchanged {
            return Ok(reply(&before));
        }
        for (_, charge_id) in call.store.agreement_installments(&after.id).await? {
            let Some(installment) = call.store.charge(call.org_id(), &charge_id).await? else { continue };
            if !OPEN.contains(&installment.status) {
                continue;
            }
            let mut canceled = installment.clone();
            if canceled.cancel_with_agreement(format!("Acordo {} cancelado", after.id), call.now) {
                save_charge(&call, &installment, canceled, "charge.canceled", &after.id).await?;
            }
        }
        let today = call.today();
        for id in &after.charge_ids {
            let Some(source) = call.store.charge(call.org_id(), id).await? else { continue };
            let mut reopened = source.clone();
            if reopened.leave_agreement(today) {
                save_charge(&call, &source, reopened, "charge.db.updated", &after.id).await?;
            }
        }
        let data = wire::AgreementEventData::of(Some(&agreement_view(&before)), agreement_view(&after));
        let evt = event(&call, "agreement.canceled", &after.id, &data);
        if !call.store.update_agreement(&after, before.version, &evt).await? {
            return Err(ApiError::Concurrent("agreement"));
        }
        Ok(reply(&after))
    }
}
