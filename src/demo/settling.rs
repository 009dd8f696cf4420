//! The demo's debts on their way out, made by the same aggregates the API and the engine use:
//! an agreement running with its down payment paid, one broken (its charge back in the régua),
//! a charge reported to a credit bureau after its letter, and one whose protest was served
//! (the engine draws it three business days after the intimação).

use time::{Date, Duration, OffsetDateTime};

use super::data::DemoOutcome;
use super::demo_error;
use crate::admin::AdminError;
use crate::domain::agreement::{self, Agreement, DEFAULT_GRACE_DAYS, Terms};
use crate::domain::calendar;
use crate::domain::charge::{Charge, Decided, Payment};
use crate::domain::credit_bureau::{DEFAULT_BUREAU, DEFAULT_NATURE, Report};
use crate::domain::dates::Timestamp;
use crate::domain::debtor::Debtor;
use crate::domain::money::Hundredths;
use crate::domain::notification::{Attempt, Notification, Source, standard_template};
use crate::domain::protest::Protest;
use crate::types::{self as wire, Channel, Decision, DunningStatus, NotificationOrigin, ProtestTitleType};
use crate::views::agreement::agreement_view;
use crate::views::charge::charge_event_view;
use crate::views::escalation::moved;
use crate::views::event_data::ObjectPayload;

/// What a settling outcome adds beside its charge, to store after it.
#[derive(Default)]
pub struct Settling {
    /// Messages sent before (the letter a report needs).
    pub sent: Vec<Notification>,
    /// The agreement and its installment charges (number 0: the down payment).
    pub agreement: Option<(Agreement, Vec<(u32, Charge)>)>,
    pub report: Option<Report>,
    pub protest: Option<Protest>,
}

/// Mid-afternoon of `day` in São Paulo.
fn afternoon(day: Date) -> OffsetDateTime {
    super::zone().instant(day, time::macros::time!(15:00))
}

/// The business day before `day`.
fn business_day_before(day: Date) -> Date {
    let mut before = day - Duration::days(1);
    while !calendar::is_business_day(before) {
        before -= Duration::days(1);
    }
    before
}

/// Puts `charge` (overdue, of `debtor`) in the state `outcome` says, on the demo's `today`.
pub fn settle(
    outcome: DemoOutcome,
    charge: &mut Charge,
    debtor: &Debtor,
    today: Date,
) -> Result<Settling, AdminError> {
    let what = charge.description.clone().unwrap_or_default();
    let fail = |e: crate::domain::RuleError| demo_error(&what, e);
    match outcome {
        DemoOutcome::Renegotiated => renegotiated(charge, debtor, today, false).map_err(fail),
        DemoOutcome::RenegotiationBroken => renegotiated(charge, debtor, today, true).map_err(fail),
        DemoOutcome::Reported => reported(charge, debtor).map_err(fail),
        DemoOutcome::Protested => protested(charge, debtor, today).map_err(fail),
        _ => Ok(Settling::default()),
    }
}

/// An agreement made on the charge: running, its down payment paid (made 20 days ago, the first
/// installment ahead), or broken (made 38 days ago, its first installment 35 days late).
fn renegotiated(
    charge: &mut Charge,
    debtor: &Debtor,
    today: Date,
    broken: bool,
) -> Result<Settling, crate::domain::RuleError> {
    let made = today - Duration::days(if broken { 38 } else { 20 });
    let down = (!broken).then(|| Hundredths((charge.balance().0 / 5).max(1)));
    let terms = Terms {
        discount: None,
        waive_fine: false,
        waive_interest: true,
        down_payment: down,
        down_payment_due: down.map(|_| made),
        installments: if broken { 3 } else { 4 },
        first_due: made + Duration::days(if broken { 3 } else { 30 }),
    };
    let simulation = agreement::simulate(std::slice::from_ref(charge), &terms, made)?;
    let mut made_agreement = Agreement::make(
        std::slice::from_ref(charge),
        &terms,
        &simulation,
        DEFAULT_GRACE_DAYS,
        afternoon(made),
    );
    let plan = simulation
        .down_payment
        .map(|(amount, due)| (0, amount, due))
        .into_iter()
        .chain(simulation.installments.iter().map(|i| (i.number, i.amount, i.due_date)));
    let mut installments = Vec::new();
    for planned in plan {
        let mut installment =
            made_agreement.installment_charge(debtor, charge, planned, afternoon(made), &super::zone())?;
        if planned.0 == 0 {
            let paid_at = afternoon(made + Duration::days(1));
            installment.settle(Payment { amount: None, paid_at: Some(paid_at), method: None }, paid_at)?;
        }
        installments.push((planned.0, installment));
    }
    charge.renegotiate(&made_agreement.id)?;
    let paid: Vec<(u32, bool)> =
        installments.iter().map(|(n, c)| (*n, c.status == crate::types::ChargeStatus::Paid)).collect();
    if broken {
        let day = terms.first_due + Duration::days(DEFAULT_GRACE_DAYS + 1);
        made_agreement.follow(&paid, DEFAULT_GRACE_DAYS + 1, afternoon(day));
        for (_, installment) in &mut installments {
            installment
                .cancel_with_agreement(format!("Acordo {} rompido", made_agreement.id), afternoon(day));
        }
        charge.leave_agreement(today);
    } else {
        made_agreement.follow(&paid, 0, afternoon(made + Duration::days(1)));
    }
    Ok(Settling { agreement: Some((made_agreement, installments)), ..Settling::default() })
}

/// The letter sent five days after the due date, a person's decision to report a week later,
/// and the bureau's notice and inclusion on their days.
fn reported(charge: &mut Charge, debtor: &Debtor) -> Result<Settling, crate::domain::RuleError> {
    let letter_day = calendar::on_or_after(charge.due_date + Duration::days(5));
    let at = afternoon(letter_day);
    let source = Source {
        origin: NotificationOrigin::Manual,
        cp_id: None,
        step_id: None,
        resend_of_id: None,
        scheduled_for: at,
    };
    let mut letter = Notification::compose(
        charge,
        debtor,
        Channel::Letter,
        &standard_template(Channel::Letter, charge.payment_line().is_some(), false),
        source,
        super::composing(at),
    )?;
    letter.record(Attempt::Sent { provider: "outbox".into(), provider_message_id: None }, at);
    let decided = calendar::on_or_after(letter_day + Duration::days(7));
    let mut report = Report::file(
        charge,
        debtor,
        Some(&letter.id),
        DEFAULT_BUREAU,
        DEFAULT_NATURE.into(),
        afternoon(decided),
    )?;
    let notice = calendar::add_business_days(decided, 1);
    report.advance_sandbox(notice, afternoon(notice), &super::zone());
    let included = notice + Duration::days(crate::domain::credit_bureau::SANDBOX_NOTICE_PERIOD_DAYS);
    report.advance_sandbox(included, afternoon(included), &super::zone());
    charge.decision = Some(Decided {
        decision: Decision::CreditBureau,
        reason: "Sem resposta à carta de cobrança.".into(),
        decided_at: Timestamp(afternoon(decided)),
    });
    charge.dunning_status = DunningStatus::Active;
    charge.credit_bureau_status = Some(report.status);
    Ok(Settling { sent: vec![letter], report: Some(report), ..Settling::default() })
}

/// A protest requested three business days ago, taken in the next and served yesterday.
fn protested(
    charge: &mut Charge,
    debtor: &Debtor,
    today: Date,
) -> Result<Settling, crate::domain::RuleError> {
    let intimated = business_day_before(today);
    let sent = business_day_before(intimated);
    let requested = business_day_before(sent);
    let mut protest =
        Protest::file(charge, debtor, ProtestTitleType::Ds, "NF-2026-0917".into(), afternoon(requested))?;
    protest.advance_sandbox(sent, afternoon(sent), &super::zone());
    protest.advance_sandbox(intimated, afternoon(intimated), &super::zone());
    charge.decision = Some(Decided {
        decision: Decision::Protest,
        reason: "Duplicata de serviço vencida, sem acordo.".into(),
        decided_at: Timestamp(afternoon(requested)),
    });
    charge.dunning_status = DunningStatus::Active;
    charge.protest_status = Some(protest.status);
    Ok(Settling { protest: Some(protest), ..Settling::default() })
}

/// Stores what [`settle`] made, after its charge.
pub async fn record(
    store: &crate::store::Store,
    org_id: &str,
    charge: &Charge,
    s: Settling,
    stamp: &str,
    day: Date,
) -> Result<(), AdminError> {
    let changed = || AdminError::Invalid(format!("demo charge {} changed while it was seeded", charge.id));
    super::regua::record(store, &s.sent).await?;
    if let Some((agreement, installments)) = s.agreement {
        for (_, installment) in &installments {
            let mut data = wire::ChargeEventData::of(None, charge_event_view(installment, day));
            data.agreement_id = Some(agreement.id.clone());
            let event = super::system_event(org_id, "charge.db.created", &installment.id, &data, stamp);
            store.insert_charge(installment, &event).await?;
        }
        let listed: Vec<(u32, &str)> = installments.iter().map(|(n, c)| (*n, c.id.as_str())).collect();
        let code = if agreement.status == crate::types::AgreementStatus::Broken {
            "agreement.broken"
        } else {
            "agreement.activated"
        };
        let data = wire::AgreementEventData::of(None, agreement_view(&agreement));
        let event = super::system_event(org_id, code, &agreement.id, &data, stamp);
        store.insert_agreement(&agreement, &listed, &event).await?;
    }
    if let Some(report) = s.report {
        let event =
            super::system_event(org_id, report.event_code(), &report.id, &moved(None, &report), stamp);
        if !store.insert_escalation(&report, charge.version, &event).await? {
            return Err(changed());
        }
    }
    if let Some(protest) = s.protest {
        let event =
            super::system_event(org_id, protest.event_code(), &protest.id, &moved(None, &protest), stamp);
        if !store.insert_escalation(&protest, charge.version, &event).await? {
            return Err(changed());
        }
    }
    Ok(())
}
