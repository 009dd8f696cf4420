//! The portfolio's periods in the organization's calendar: the due-date range of each age of
//! an open charge, and the first days of its week and months.

use time::{Date, Duration, Month};

use super::calendar::on_or_before;

/// The ages of an open charge, as (fewest, most) whole days overdue; `None`: no upper end.
pub const AGES: [(i64, Option<i64>); 5] =
    [(0, Some(0)), (1, Some(30)), (31, Some(60)), (61, Some(90)), (91, None)];

/// The due dates, both ends included (`None`: open ended), of the open charges that are
/// between `fewest` and `most` days overdue on `today`, as a charge's `days_overdue` counts
/// them (from the due date moved to the next business day): plain due-date ranges, so the
/// charge list's due_date_from/due_date_to select exactly the same charges.
pub fn due_dates(today: Date, fewest: i64, most: Option<i64>) -> (Option<Date>, Option<Date>) {
    let from = most.map(|most| last_due_at_least(today, most + 1).next_day().unwrap_or(Date::MAX));
    let to = (fewest > 0).then(|| last_due_at_least(today, fewest));
    (from, to)
}

/// The last due date of a charge at least `days` (≥ 1) overdue on `today`: it is late by
/// `days` when its effective due date is on or before `today - days`, which is so for every
/// due date up to the last business day on or before it.
fn last_due_at_least(today: Date, days: i64) -> Date {
    on_or_before(today.checked_sub(Duration::days(days)).unwrap_or(Date::MIN))
}

/// The Monday that starts the organization's week of `today`.
pub fn week_start(today: Date) -> Date {
    let back = today.weekday().number_days_from_monday();
    today.checked_sub(Duration::days(i64::from(back))).unwrap_or(Date::MIN)
}

/// The first day of the month of `day`.
pub fn month_start(day: Date) -> Date {
    day.replace_day(1).unwrap_or(day)
}

/// The first day of the month before the month of `day`.
pub fn previous_month_start(day: Date) -> Date {
    month_start(month_start(day).previous_day().unwrap_or(day))
}

/// The first day of the month after the month of `day`.
pub fn next_month_start(day: Date) -> Date {
    let (year, month) = match day.month() {
        Month::December => (day.year() + 1, Month::January),
        month => (day.year(), month.next()),
    };
    Date::from_calendar_date(year, month, 1).unwrap_or(Date::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::calendar::effective_due_date;
    use time::macros::date;

    /// What `Charge::days_overdue` says of an open charge due on `due`.
    fn days_overdue(due: Date, today: Date) -> i64 {
        let effective = effective_due_date(due);
        if effective < today { (today - effective).whole_days() } else { 0 }
    }

    #[test]
    fn every_due_date_falls_in_the_age_its_days_overdue_name() {
        for today in
            [date!(2026 - 12 - 07), date!(2026 - 12 - 26), date!(2027 - 01 - 02), date!(2026 - 04 - 06)]
        {
            for back in -10..200 {
                let due = today - Duration::days(back);
                let days = days_overdue(due, today);
                let holding: Vec<usize> = AGES
                    .iter()
                    .enumerate()
                    .filter(|(_, (fewest, most))| {
                        let (from, to) = due_dates(today, *fewest, *most);
                        from.is_none_or(|f| due >= f) && to.is_none_or(|t| due <= t)
                    })
                    .map(|(i, _)| i)
                    .collect();
                assert_eq!(holding.len(), 1, "{due} on {today}: {holding:?}");
                let (fewest, most) = AGES[holding[0]];
                assert!(days >= fewest && most.is_none_or(|m| days <= m), "{due} on {today}: {days} days");
            }
        }
    }

    #[test]
    fn weeks_start_on_monday_and_months_on_the_first() {
        assert_eq!(week_start(date!(2026 - 12 - 06)), date!(2026 - 11 - 30));
        assert_eq!(week_start(date!(2026 - 12 - 07)), date!(2026 - 12 - 07));
        assert_eq!(week_start(date!(2027 - 01 - 03)), date!(2026 - 12 - 28));
        assert_eq!(previous_month_start(date!(2027 - 01 - 15)), date!(2026 - 12 - 01));
        assert_eq!(next_month_start(date!(2026 - 12 - 31)), date!(2027 - 01 - 01));
        assert_eq!(month_start(date!(2026 - 03 - 31)), date!(2026 - 03 - 01));
    }
}
