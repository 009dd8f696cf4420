//! `GET /v1/portfolio`: the organization's charges in figures, in its calendar. Every figure
//! of charges is a charges_list filter's meta, so the two never disagree.

use super::{ApiResult, Call, Reply};
use crate::domain::dates::{Day, format_date, format_timestamp};
use crate::domain::money::Hundredths;
use crate::domain::portfolio::{
    AGES, due_dates, month_start, next_month_start, previous_month_start, week_start,
};
use crate::store::{PortfolioBounds, Tally};
use crate::types::{self as wire, PortfolioEnvelope};

// The spec's ages and the calendar's are the same five, in the same order.
const _: () = assert!(AGES.len() == wire::PortfolioAgeAge::ALL.len());

/// The figures of the caller's organization today.
pub async fn portfolio(call: &Call) -> ApiResult<Reply<PortfolioEnvelope>> {
    let today = call.today();
    let zone = call.zone();
    let ranges: Vec<_> = AGES.iter().map(|(fewest, most)| due_dates(today, *fewest, *most)).collect();
    // Each age but the oldest starts where the one before it (younger) ends.
    let age_starts = ranges.iter().filter_map(|(from, _)| from.map(format_date)).collect();
    let this_month = month_start(today);
    let last_month = previous_month_start(today);
    let week = week_start(today);
    let instant = |day| format_timestamp(zone.day_start(day));
    let bounds = PortfolioBounds {
        age_starts,
        months: [instant(last_month), instant(this_month), instant(next_month_start(today))],
        week: instant(week),
    };
    let figures = call.store.portfolio(call.org_id(), &bounds).await?;

    let open = [wire::ChargeStatus::Pending, wire::ChargeStatus::Overdue]
        .iter()
        .map(|s| figures.by_status.get(s.as_str()).copied().unwrap_or_default())
        .fold(Tally::default(), |sum, t| Tally {
            count: sum.count + t.count,
            amount: sum.amount + t.amount,
            paid: sum.paid + t.paid,
        });
    let by_age = wire::PortfolioAgeAge::ALL
        .iter()
        .zip(&ranges)
        .zip(&figures.by_age)
        .map(|((age, (from, to)), t)| wire::PortfolioAge {
            age: *age,
            due_date_from: from.map(Day),
            due_date_to: to.map(Day),
            count: t.count,
            amount_sum: Hundredths(t.amount),
            balance_sum: balance(t),
        })
        .collect();
    let by_status = wire::ChargeStatus::ALL
        .iter()
        .map(|s| {
            let t = figures.by_status.get(s.as_str()).copied().unwrap_or_default();
            wire::PortfolioStatus {
                status: *s,
                count: t.count,
                amount_sum: Hundredths(t.amount),
                balance_sum: balance(&t),
            }
        })
        .collect();
    let by_dunning_status = wire::DunningStatus::ALL
        .iter()
        .map(|s| {
            let t = figures.by_dunning_status.get(s.as_str()).copied().unwrap_or_default();
            wire::PortfolioDunningStatus {
                dunning_status: *s,
                count: t.count,
                amount_sum: Hundredths(t.amount),
                balance_sum: balance(&t),
            }
        })
        .collect();
    let by_step = figures
        .by_step
        .iter()
        .map(|s| wire::PortfolioStep {
            step_id: s.step_id.clone(),
            name: s.name.clone(),
            offset_days: s.offset_days,
            count: s.tally.count,
            amount_sum: Hundredths(s.tally.amount),
            balance_sum: balance(&s.tally),
        })
        .collect();
    let recovered = [this_month, last_month]
        .iter()
        .zip(&figures.recovered)
        .map(|(first, t)| wire::PortfolioRecovered {
            month: format!("{:04}-{:02}", first.year(), u8::from(first.month())),
            from: Day(*first),
            count: t.count,
            amount_sum: Hundredths(t.paid),
        })
        .collect();
    let by_channel = wire::Channel::ALL
        .iter()
        .map(|c| {
            let (sent, failed) = figures.messages.get(c.as_str()).copied().unwrap_or_default();
            wire::PortfolioMessagesByChannelItem { channel: *c, sent, failed }
        })
        .collect();
    let data = wire::Portfolio {
        today: Day(today),
        open: wire::PortfolioSums {
            count: open.count,
            amount_sum: Hundredths(open.amount),
            balance_sum: balance(&open),
        },
        by_age,
        by_status,
        by_dunning_status,
        by_step,
        recovered,
        messages: wire::PortfolioMessages { since: Day(week), by_channel },
    };
    Ok(Reply::new(PortfolioEnvelope { data }))
}

/// What is still owed: the amounts less what was paid on them (as charges_list's balance_sum).
fn balance(t: &Tally) -> Hundredths {
    Hundredths(t.amount - t.paid)
}
