//! The arithmetic of an agreement (acordo): what the source charges are worth on the day it is
//! simulated (balance, the fine once, interest pro rata per day, as each charge's terms say),
//! the discount and waivers, the optional down payment, and 1 to 60 monthly installments that
//! sum to the centavo, the last one carrying the remainder, each due on a business day.

use time::{Date, Month, OffsetDateTime};

use super::calendar;
use super::charge::{Charge, Outcome};
use super::ids::new_id;
use super::money::Hundredths;
use super::rules::{RuleError, Violations};
use crate::types::AgreementStatus;

/// The most installments an agreement may have.
pub const MAX_INSTALLMENTS: u32 = 60;

/// A discount on the updated debt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Discount {
    /// An amount in centavos.
    Amount(Hundredths),
    /// A percentage in hundredths of a percent (1000 is 10 %).
    Percentage(Hundredths),
}

/// What the parties agree on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    /// Off the updated debt, after any waiver.
    pub discount: Option<Discount>,
    /// The late fine (multa) is not charged.
    pub waive_fine: bool,
    /// The late interest (juros de mora) is not charged.
    pub waive_interest: bool,
    /// Paid first, before the installments run.
    pub down_payment: Option<Hundredths>,
    /// When the down payment is due (default: the simulation day's next business day).
    pub down_payment_due: Option<Date>,
    /// How many monthly installments (1 to 60).
    pub installments: u32,
    /// When the first installment is due; the others on the same day of later months.
    pub first_due: Date,
}

/// What one source charge is worth on the simulation day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Updated {
    /// What is left to pay of the amount.
    pub balance: Hundredths,
    /// The fine, once, when the charge is late.
    pub fine: Hundredths,
    /// The interest for the days late.
    pub interest: Hundredths,
}

/// One installment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Installment {
    /// 1-based.
    pub number: u32,
    /// Its amount.
    pub amount: Hundredths,
    /// When it is due: a business day.
    pub due_date: Date,
}

/// An agreement as simulated: the debt, what is taken off, and how it is paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simulation {
    /// The source charges' balances.
    pub original_amount: Hundredths,
    /// Their fines, unless waived.
    pub fine_amount: Hundredths,
    /// Their interest, unless waived.
    pub interest_amount: Hundredths,
    /// Taken off.
    pub discount_amount: Hundredths,
    /// What the debtor pays in all: down payment and installments.
    pub total_amount: Hundredths,
    /// The down payment, if any, and when it is due.
    pub down_payment: Option<(Hundredths, Date)>,
    /// The installments, in order.
    pub installments: Vec<Installment>,
}

/// `value × rate ÷ divisor`, rounded half up, in integers (no float ever touches money).
fn share(value: i64, rate: i64, divisor: i64) -> i64 {
    let product = i128::from(value) * i128::from(rate);
    let divisor = i128::from(divisor);
    i64::try_from((product + divisor / 2) / divisor).unwrap_or(i64::MAX)
}

/// A charge's worth on `today`: the fine once it is late, and interest pro rata per day late
/// (a month counted as 30 days), both on the balance, at the charge's own rates. A consumer's
/// fine was capped at 2 % when the charge was created (CDC art. 52 §1).
pub fn updated(charge: &Charge, today: Date) -> Updated {
    let balance = charge.balance();
    let days = charge.days_overdue(today).max(0);
    if days == 0 {
        return Updated { balance, fine: Hundredths::ZERO, interest: Hundredths::ZERO };
    }
    // Rates are hundredths of a percent: 200 is 2 %.
    let fine = share(balance.0, charge.fine.0, 10_000);
    let interest = share(balance.0, charge.interest.0 * days, 10_000 * 30);
    Updated { balance, fine: Hundredths(fine), interest: Hundredths(interest) }
}

/// The day of the month `months` after `first`, on `first`'s day or the month's last day,
/// moved to a business day.
fn monthly(first: Date, months: u32) -> Option<Date> {
    let index = i64::from(first.month() as u8) - 1 + i64::from(months);
    let year = first.year() + i32::try_from(index / 12).ok()?;
    let month = Month::try_from(u8::try_from(index % 12 + 1).ok()?).ok()?;
    let day = first.day().min(month.length(year));
    Date::from_calendar_date(year, month, day).ok().map(calendar::on_or_after)
}

/// Simulates an agreement over `charges` on `today`: refused when the terms leave nothing to
/// pay in installments of at least a centavo, or break a limit.
pub fn simulate(charges: &[Charge], terms: &Terms, today: Date) -> Result<Simulation, RuleError> {
    let mut violations = Violations::default();
    if charges.is_empty() {
        violations.push("charge_ids", "names at least one charge");
    }
    if !(1..=MAX_INSTALLMENTS).contains(&terms.installments) {
        violations.push("installments_count", format!("must be from 1 to {MAX_INSTALLMENTS}"));
    }
    if terms.first_due < today {
        violations.push("first_due_date", "must not be in the past");
    }
    let (mut original, mut fine, mut interest) = (0i64, 0i64, 0i64);
    for charge in charges {
        let u = updated(charge, today);
        original += u.balance.0;
        fine += u.fine.0;
        interest += u.interest.0;
    }
    if terms.waive_fine {
        fine = 0;
    }
    if terms.waive_interest {
        interest = 0;
    }
    let updated_debt = original + fine + interest;
    let discount = match terms.discount {
        None => 0,
        Some(Discount::Amount(amount)) => amount.0,
        Some(Discount::Percentage(rate)) => {
            if !(0..=10_000).contains(&rate.0) {
                violations.push("discount_percentage", "must be from 0 to 100");
            }
            share(updated_debt, rate.0, 10_000)
        }
    };
    let discount_fits = discount >= 0 && discount < updated_debt.max(1);
    if !discount_fits {
        violations.push("discount", "must leave something to pay");
    }
    let total = updated_debt - discount.clamp(0, updated_debt);
    let down = terms.down_payment.map_or(0, |d| d.0);
    let down_payment = match terms.down_payment {
        None => None,
        Some(amount) => {
            if amount.0 <= 0 || amount.0 >= total {
                violations.push("down_payment_amount", "must be above zero and below the total");
            }
            let due = terms.down_payment_due.unwrap_or_else(|| calendar::on_or_after(today));
            if due < today || due > terms.first_due {
                violations
                    .push("down_payment_due_date", "must be from today to the first installment's due date");
            }
            Some((amount, calendar::on_or_after(due)))
        }
    };
    let rest = total - down;
    let count = i64::from(terms.installments.clamp(1, MAX_INSTALLMENTS));
    if discount_fits && rest < count {
        violations.push("installments_count", "leaves installments of less than R$ 0,01");
    }
    // Each installment and the down payment is a charge, bounded like any other.
    let largest = (rest / count.max(1) + rest % count.max(1)).max(down);
    if discount_fits && largest > super::money::MAX_CENTS {
        violations.push(
            "installments_count",
            "leaves an installment above R$ 99.999.999,99; choose more installments",
        );
    }
    violations.finish()?;
    let base = rest / count;
    let mut installments = Vec::with_capacity(terms.installments as usize);
    for number in 1..=terms.installments {
        let amount = if i64::from(number) == count { rest - base * (count - 1) } else { base };
        let Some(due_date) = monthly(terms.first_due, number - 1) else {
            let mut violations = Violations::default();
            violations.push("first_due_date", "puts an installment past the calendar");
            return Err(violations.finish().unwrap_err());
        };
        installments.push(Installment { number, amount: Hundredths(amount), due_date });
    }
    Ok(Simulation {
        original_amount: Hundredths(original),
        fine_amount: Hundredths(fine),
        interest_amount: Hundredths(interest),
        discount_amount: Hundredths(discount),
        total_amount: Hundredths(total),
        down_payment,
        installments,
    })
}

/// The default days an installment may stay overdue before its agreement breaks.
pub const DEFAULT_GRACE_DAYS: i64 = 30;

/// An agreement: the charges it renegotiates, the amounts and terms as made, and its status.
/// Its down payment and installments are charges of their own (`agreement_id` names it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreement {
    pub id: String,
    pub organization_id: String,
    pub debtor_id: String,
    pub charge_ids: Vec<String>,
    /// Each renegotiated charge's balance when the agreement was made, in `charge_ids` order
    /// (the term lists them; a completed agreement's charges read paid).
    pub source_balances: Vec<Hundredths>,
    pub status: AgreementStatus,
    pub original_amount: Hundredths,
    pub fine_amount: Hundredths,
    pub interest_amount: Hundredths,
    pub discount_amount: Hundredths,
    pub total_amount: Hundredths,
    pub fine_waived: bool,
    pub interest_waived: bool,
    pub down_payment_amount: Option<Hundredths>,
    pub down_payment_due_date: Option<Date>,
    pub installments_count: u32,
    pub first_due_date: Date,
    pub grace_days_before_broken: i64,
    pub canceled_at: Option<OffsetDateTime>,
    pub cancellation_reason: Option<String>,
    pub broken_at: Option<OffsetDateTime>,
    pub completed_at: Option<OffsetDateTime>,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

impl Agreement {
    /// A new agreement over `charges` as `simulation` worked it out: awaiting its down payment
    /// when it has one, else active.
    pub fn make(
        charges: &[Charge],
        terms: &Terms,
        simulation: &Simulation,
        grace_days: i64,
        now: OffsetDateTime,
    ) -> Self {
        let first = charges.first();
        Self {
            id: new_id("agr"),
            organization_id: first.map(|c| c.organization_id.clone()).unwrap_or_default(),
            debtor_id: first.map(|c| c.debtor_id.clone()).unwrap_or_default(),
            charge_ids: charges.iter().map(|c| c.id.clone()).collect(),
            source_balances: charges.iter().map(Charge::balance).collect(),
            status: if simulation.down_payment.is_some() {
                AgreementStatus::AwaitingDownPayment
            } else {
                AgreementStatus::Active
            },
            original_amount: simulation.original_amount,
            fine_amount: simulation.fine_amount,
            interest_amount: simulation.interest_amount,
            discount_amount: simulation.discount_amount,
            total_amount: simulation.total_amount,
            fine_waived: terms.waive_fine,
            interest_waived: terms.waive_interest,
            down_payment_amount: simulation.down_payment.map(|(amount, _)| amount),
            down_payment_due_date: simulation.down_payment.map(|(_, due)| due),
            installments_count: terms.installments,
            first_due_date: terms.first_due,
            grace_days_before_broken: grace_days,
            canceled_at: None,
            cancellation_reason: None,
            broken_at: None,
            completed_at: None,
            version: 1,
            created_at: now,
            updated_at: now,
        }
    }

    /// The charge that collects one installment (number 0: the down payment) of the agreement,
    /// on the terms of `source`, the first charge it renegotiates.
    pub fn installment_charge(
        &self,
        debtor: &super::debtor::Debtor,
        source: &Charge,
        (number, amount, due_date): (u32, Hundredths, Date),
        now: OffsetDateTime,
        zone: &super::dates::Zone,
    ) -> Result<Charge, RuleError> {
        let what = if number == 0 {
            "entrada".to_string()
        } else {
            format!("parcela {number} de {}", self.installments_count)
        };
        let new = super::charge::NewCharge {
            cp_id: source.cp_id.clone(),
            amount,
            due_date,
            issue_date: None,
            description: Some(format!("Acordo {}: {what}", self.id)),
            external_id: None,
            payment_method: Some(source.payment_method),
            boleto: None,
            pix: None,
            fine: Some(source.fine),
            interest: Some(source.interest),
            tags: None,
            metadata: None,
        };
        let mut charge = Charge::open(debtor, new, now, zone)?;
        charge.agreement_id = Some(self.id.clone());
        charge.origin = crate::types::ChargeOrigin::Agreement;
        Ok(charge)
    }

    /// Cancels an agreement awaiting its down payment or active; a canceled one is unchanged.
    pub fn cancel(&mut self, reason: Option<String>, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        use AgreementStatus::*;
        match self.status {
            Canceled => Ok(Outcome::Unchanged),
            AwaitingDownPayment | Active => {
                self.status = Canceled;
                self.canceled_at = Some(now);
                self.cancellation_reason = reason;
                self.touch(now);
                Ok(Outcome::Changed)
            }
            Completed | Broken => Err(RuleError::InvalidState {
                message: format!("a {} agreement cannot be canceled", self.status.as_str()),
                status: self.status.as_str(),
                allowed: [AwaitingDownPayment, Active, Canceled].iter().map(|s| s.as_str()).collect(),
            }),
        }
    }

    /// What the state of its installment charges makes of a live agreement: `paid` tells
    /// whether each (by number, 0 the down payment) is paid, `late_days` the most days any
    /// unpaid one is overdue. Whether it changed.
    pub fn follow(&mut self, paid: &[(u32, bool)], late_days: i64, now: OffsetDateTime) -> bool {
        use AgreementStatus::*;
        let all_paid = !paid.is_empty() && paid.iter().all(|(_, p)| *p);
        let down_paid = paid.iter().any(|(n, p)| *n == 0 && *p);
        let next = match self.status {
            AwaitingDownPayment | Active if all_paid => Completed,
            AwaitingDownPayment | Active if late_days > self.grace_days_before_broken => Broken,
            AwaitingDownPayment if down_paid => Active,
            _ => return false,
        };
        self.status = next;
        match next {
            Completed => self.completed_at = Some(now),
            Broken => self.broken_at = Some(now),
            _ => {}
        }
        self.touch(now);
        true
    }

    /// Marks a saved change.
    pub fn touch(&mut self, now: OffsetDateTime) {
        self.version += 1;
        self.updated_at = now;
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::dates::Zone;
    use time::macros::{date, datetime};

    use super::*;
    use crate::domain::charge::NewCharge;
    use crate::domain::debtor::{Debtor, DebtorEdit};

    fn charge(amount_cents: i64, due: Date) -> Charge {
        let edit = DebtorEdit { name: Some("João Conceição".into()), ..Default::default() };
        let debtor = Debtor::register(
            "org_1",
            "52998224725",
            edit,
            datetime!(2026-01-02 12:00 UTC),
            &Zone::default_zone(),
        )
        .unwrap();
        let new = NewCharge::due(Hundredths(amount_cents), due);
        Charge::open(&debtor, new, datetime!(2026-01-02 12:00 UTC), &Zone::default_zone()).unwrap()
    }

    fn terms(installments: u32, first_due: Date) -> Terms {
        Terms {
            discount: None,
            waive_fine: false,
            waive_interest: false,
            down_payment: None,
            down_payment_due: None,
            installments,
            first_due,
        }
    }

    #[test]
    fn a_late_charge_adds_its_fine_once_and_interest_per_day() {
        // R$ 1.250,00 due Monday 5 October 2026, 30 days late on 4 November: 2 % fine
        // (R$ 25,00) and 1 % a month for 30 days (R$ 12,50).
        let c = charge(125_000, date!(2026 - 10 - 05));
        let today = date!(2026 - 11 - 05);
        let days = c.days_overdue(today);
        let u = updated(&c, today);
        assert_eq!(u.balance, Hundredths(125_000));
        assert_eq!(u.fine, Hundredths(2_500));
        assert_eq!(u.interest, Hundredths(share(125_000, 100 * days, 300_000)));
        // Not late: nothing added.
        let u = updated(&c, date!(2026 - 10 - 05));
        assert_eq!((u.fine, u.interest), (Hundredths::ZERO, Hundredths::ZERO));
    }

    #[test]
    fn discounts_waivers_and_a_down_payment_make_the_total() {
        let c = charge(100_000, date!(2026 - 10 - 05));
        let today = date!(2026 - 11 - 05);
        let mut t = terms(3, date!(2026 - 12 - 10));
        t.waive_fine = true;
        t.waive_interest = true;
        t.discount = Some(Discount::Percentage(Hundredths(1_000)));
        t.down_payment = Some(Hundredths(10_000));
        let s = simulate(std::slice::from_ref(&c), &t, today).unwrap();
        assert_eq!((s.fine_amount, s.interest_amount), (Hundredths::ZERO, Hundredths::ZERO));
        assert_eq!(s.discount_amount, Hundredths(10_000));
        assert_eq!(s.total_amount, Hundredths(90_000));
        // 800,00 in three: 266,66, 266,66 and 266,68.
        let amounts: Vec<i64> = s.installments.iter().map(|i| i.amount.0).collect();
        assert_eq!(amounts, [26_666, 26_666, 26_668]);
        assert_eq!(s.down_payment.map(|d| d.0), Some(Hundredths(10_000)));
    }

    #[test]
    fn refusals_name_the_term_that_breaks_a_rule() {
        let c = charge(100, date!(2026 - 10 - 05));
        let today = date!(2026 - 10 - 01);
        let fields = |t: &Terms| match simulate(std::slice::from_ref(&c), t, today) {
            Err(RuleError::Invalid(v)) => v.into_iter().map(|v| v.field).collect::<Vec<_>>(),
            other => panic!("refused: {other:?}"),
        };
        assert_eq!(fields(&terms(0, date!(2026 - 11 - 01))), ["installments_count"]);
        assert_eq!(fields(&terms(61, date!(2026 - 11 - 01))), ["installments_count"]);
        assert_eq!(fields(&terms(2, date!(2026 - 09 - 01))), ["first_due_date"]);
        // R$ 1,00 goes into 60 installments of a centavo or more; R$ 0,50 does not.
        assert!(simulate(std::slice::from_ref(&c), &terms(60, date!(2026 - 11 - 01)), today).is_ok());
        let small = charge(50, date!(2026 - 10 - 05));
        assert!(simulate(std::slice::from_ref(&small), &terms(60, date!(2026 - 11 - 01)), today).is_err());
        let mut all_off = terms(1, date!(2026 - 11 - 01));
        all_off.discount = Some(Discount::Amount(Hundredths(100)));
        assert_eq!(fields(&all_off), ["discount"]);
    }

    #[test]
    fn no_installment_exceeds_what_a_charge_may_be() {
        let big =
            [charge(9_999_999_999, date!(2026 - 10 - 05)), charge(9_999_999_999, date!(2026 - 10 - 05))];
        let today = date!(2026 - 10 - 01);
        let mut t = terms(1, date!(2026 - 11 - 02));
        let fields = match simulate(&big, &t, today) {
            Err(RuleError::Invalid(v)) => v.into_iter().map(|v| v.field).collect::<Vec<_>>(),
            other => panic!("refused: {other:?}"),
        };
        assert_eq!(fields, ["installments_count"]);
        t.installments = 3;
        assert!(simulate(&big, &t, today).is_ok());
    }

    /// Over many debts, terms and days: the installments sum to the total less the down
    /// payment, none is zero or negative, only the last differs (by the remainder), and every
    /// due date is a business day after the one before.
    #[test]
    fn installments_always_sum_to_the_centavo_on_business_days() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |bound: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % bound
        };
        let mut checked = 0;
        for _ in 0..3_000 {
            let due = date!(2026 - 01 - 01) + time::Duration::days(next(700) as i64);
            let today = due + time::Duration::days(next(400) as i64);
            let amounts: Vec<i64> = (0..=next(3)).map(|_| 1 + next(5_000_000) as i64).collect();
            let charges: Vec<Charge> = amounts.iter().map(|a| charge(*a, due)).collect();
            let mut t = terms(1 + next(60) as u32, today + time::Duration::days(next(90) as i64));
            t.waive_fine = next(2) == 0;
            t.waive_interest = next(2) == 0;
            t.discount = match next(3) {
                0 => None,
                1 => Some(Discount::Percentage(Hundredths(next(5_000) as i64))),
                _ => Some(Discount::Amount(Hundredths(next(10_000) as i64))),
            };
            if next(2) == 0 {
                t.down_payment = Some(Hundredths(1 + next(50_000) as i64));
            }
            let Ok(s) = simulate(&charges, &t, today) else { continue };
            checked += 1;
            let down = s.down_payment.map_or(0, |(d, _)| d.0);
            let sum: i64 = s.installments.iter().map(|i| i.amount.0).sum();
            assert_eq!(sum + down, s.total_amount.0, "{t:?}");
            assert_eq!(s.installments.len(), t.installments as usize);
            let base = s.installments[0].amount.0;
            for (i, inst) in s.installments.iter().enumerate() {
                assert!(inst.amount.0 > 0, "{t:?}: {inst:?}");
                assert_eq!(inst.number as usize, i + 1);
                assert!(calendar::is_business_day(inst.due_date), "{inst:?}");
                if i + 1 < s.installments.len() {
                    assert_eq!(inst.amount.0, base, "only the last differs");
                    assert!(inst.due_date < s.installments[i + 1].due_date);
                }
            }
            let last = s.installments.last().unwrap().amount.0;
            assert!(
                last >= base && last - base < t.installments as i64,
                "the remainder is under a centavo each"
            );
            let expected = s.original_amount.0 + s.fine_amount.0 + s.interest_amount.0 - s.discount_amount.0;
            assert_eq!(s.total_amount.0, expected);
        }
        assert!(checked > 1_000, "enough accepted terms were checked: {checked}");
    }
}
