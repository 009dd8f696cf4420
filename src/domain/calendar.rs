//! The national banking calendar the régua runs on: no weekends, the national
//! holidays, and the movable days of the Easter cycle that banks close for. A send that falls
//! on another day moves to the next business day; a charge due on a non-business day is due on
//! the next business day (Código Civil art. 132 §1).

use time::{Date, Duration, Month, Weekday};

/// The first year 20 November (Dia Nacional de Zumbi e da Consciência Negra) is a national
/// holiday: Lei 14.759/2023, published in December 2023.
const CONSCIENCIA_NEGRA_SINCE: i32 = 2024;

/// Easter Sunday of a Gregorian year (the anonymous algorithm of Meeus/Jones/Butcher).
pub fn easter(year: i32) -> Date {
    let a = year.rem_euclid(19);
    let b = year.div_euclid(100);
    let c = year.rem_euclid(100);
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15).rem_euclid(30);
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k).rem_euclid(7);
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    let month = if month == 3 { Month::March } else { Month::April };
    // The algorithm yields 22 March to 25 April, always a valid date.
    Date::from_calendar_date(year, month, day as u8).unwrap_or(Date::MIN)
}

/// Whether banks close nationally on this day, weekends aside.
pub fn is_holiday(day: Date) -> bool {
    let fixed =
        matches!(
            (day.month(), day.day()),
            (Month::January, 1)
                | (Month::April, 21)
                | (Month::May, 1)
                | (Month::September, 7)
                | (Month::October, 12)
                | (Month::November, 2)
                | (Month::November, 15)
                | (Month::December, 25)
        ) || (day.month() == Month::November && day.day() == 20 && day.year() >= CONSCIENCIA_NEGRA_SINCE);
    if fixed {
        return true;
    }
    // Carnival Monday and Tuesday, Good Friday and Corpus Christi.
    let from_easter = (day - easter(day.year())).whole_days();
    matches!(from_easter, -48 | -47 | -2 | 60)
}

/// Whether a day is a business day: a weekday that is not a holiday.
pub fn is_business_day(day: Date) -> bool {
    !matches!(day.weekday(), Weekday::Saturday | Weekday::Sunday) && !is_holiday(day)
}

/// The day itself if it is a business day, else the next one.
pub fn on_or_after(day: Date) -> Date {
    nearest_business_day(day, Date::next_day)
}

/// The day itself if it is a business day, else the last one before it.
pub fn on_or_before(day: Date) -> Date {
    nearest_business_day(day, Date::previous_day)
}

/// The first business day from `day` on, stepping with `step`. Never more than a few days (a
/// weekend next to a holiday); bounded at the ends of `Date`'s range.
fn nearest_business_day(mut day: Date, step: fn(Date) -> Option<Date>) -> Date {
    for _ in 0..14 {
        if is_business_day(day) {
            return day;
        }
        match step(day) {
            Some(next) => day = next,
            None => return day,
        }
    }
    day
}

/// When a charge due on `due` is really due: the next business day if `due` is not one.
pub fn effective_due_date(due: Date) -> Date {
    on_or_after(due)
}

/// The first day a charge due on `due` is overdue: the day after its effective due date.
pub fn overdue_from(due: Date) -> Date {
    let effective = effective_due_date(due);
    effective.next_day().unwrap_or(effective)
}

/// The day a step `offset` days from the due date is sent. Offsets before and on the due date
/// count from the due date as agreed; offsets after it count from the effective due date, the
/// first day the charge can be late. Either way the send moves to the next business day.
pub fn send_date(due: Date, offset: i64) -> Date {
    let base = if offset > 0 { effective_due_date(due) } else { due };
    on_or_after(base.checked_add(Duration::days(offset)).unwrap_or(base))
}

/// `count` business days after `day` (the 5 business days of STJ Súmula 548, for example).
pub fn add_business_days(day: Date, count: u32) -> Date {
    let mut day = day;
    let mut left = count;
    while left > 0 {
        match day.next_day() {
            Some(next) => day = next,
            None => return day,
        }
        if is_business_day(day) {
            left -= 1;
        }
    }
    day
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    #[test]
    fn easter_of_known_years() {
        assert_eq!(easter(2000), date!(2000 - 04 - 23));
        assert_eq!(easter(2019), date!(2019 - 04 - 21));
        assert_eq!(easter(2024), date!(2024 - 03 - 31));
        assert_eq!(easter(2025), date!(2025 - 04 - 20));
        assert_eq!(easter(2026), date!(2026 - 04 - 05));
        assert_eq!(easter(2027), date!(2027 - 03 - 28));
        assert_eq!(easter(2038), date!(2038 - 04 - 25));
        assert_eq!(easter(2285), date!(2285 - 03 - 22));
    }

    #[test]
    fn the_holidays_of_2026() {
        let holidays: Vec<Date> =
            (0..365).map(|n| date!(2026 - 01 - 01) + Duration::days(n)).filter(|d| is_holiday(*d)).collect();
        assert_eq!(
            holidays,
            [
                date!(2026 - 01 - 01),
                date!(2026 - 02 - 16), // Carnival Monday
                date!(2026 - 02 - 17), // Carnival Tuesday
                date!(2026 - 04 - 03), // Good Friday
                date!(2026 - 04 - 21),
                date!(2026 - 05 - 01),
                date!(2026 - 06 - 04), // Corpus Christi
                date!(2026 - 09 - 07),
                date!(2026 - 10 - 12),
                date!(2026 - 11 - 02),
                date!(2026 - 11 - 15),
                date!(2026 - 11 - 20),
                date!(2026 - 12 - 25),
            ]
        );
    }

    #[test]
    fn consciencia_negra_is_a_holiday_from_2024() {
        assert!(!is_holiday(date!(2023 - 11 - 20)));
        assert!(is_holiday(date!(2024 - 11 - 20)));
        assert!(is_holiday(date!(2030 - 11 - 20)));
    }

    #[test]
    fn weekends_and_holidays_move_to_the_next_business_day() {
        // Saturday 2026-10-10, Sunday, then Monday 12 October (holiday): Tuesday.
        assert_eq!(on_or_after(date!(2026 - 10 - 10)), date!(2026 - 10 - 13));
        // Carnival: Saturday 14 February 2026 to Ash Wednesday 18 February.
        assert_eq!(on_or_after(date!(2026 - 02 - 14)), date!(2026 - 02 - 18));
        // A business day stays.
        assert_eq!(on_or_after(date!(2026 - 10 - 09)), date!(2026 - 10 - 09));
        assert!(is_business_day(date!(2026 - 02 - 18)));
    }

    #[test]
    fn a_charge_due_on_a_holiday_is_due_and_late_from_the_next_business_day() {
        // Due on Friday 20 November 2026 (a holiday): due Monday 23, overdue from Tuesday 24.
        assert_eq!(effective_due_date(date!(2026 - 11 - 20)), date!(2026 - 11 - 23));
        assert_eq!(overdue_from(date!(2026 - 11 - 20)), date!(2026 - 11 - 24));
        // Due on a business day: overdue the next day, whatever that day is.
        assert_eq!(overdue_from(date!(2026 - 10 - 09)), date!(2026 - 10 - 10));
    }

    #[test]
    fn steps_of_a_charge_due_on_a_friday_before_a_holiday() {
        let due = date!(2026 - 10 - 09); // Friday; Monday 12 October is a holiday.
        assert_eq!(send_date(due, -3), date!(2026 - 10 - 06));
        assert_eq!(send_date(due, 0), date!(2026 - 10 - 09));
        assert_eq!(send_date(due, 1), date!(2026 - 10 - 13)); // Saturday, moved past the holiday
        assert_eq!(send_date(due, 5), date!(2026 - 10 - 14));
        assert_eq!(send_date(due, 10), date!(2026 - 10 - 19));
    }

    #[test]
    fn positive_offsets_count_from_the_effective_due_date() {
        let due = date!(2026 - 11 - 20); // a holiday on a Friday: effective Monday 23
        assert_eq!(send_date(due, -3), date!(2026 - 11 - 17));
        assert_eq!(send_date(due, 0), date!(2026 - 11 - 23));
        assert_eq!(send_date(due, 1), date!(2026 - 11 - 24));
        assert_eq!(send_date(due, 5), date!(2026 - 11 - 30));
    }

    #[test]
    fn business_days_are_counted_past_holidays() {
        // Paid Thursday 31 December 2026: 1 January is a holiday, then a weekend.
        assert_eq!(add_business_days(date!(2026 - 12 - 31), 5), date!(2027 - 01 - 08));
        assert_eq!(add_business_days(date!(2026 - 10 - 09), 1), date!(2026 - 10 - 13));
        assert_eq!(add_business_days(date!(2026 - 10 - 09), 0), date!(2026 - 10 - 09));
    }

    #[test]
    fn the_edges_of_the_calendar_do_not_panic() {
        let _ = on_or_after(Date::MAX);
        let _ = send_date(Date::MAX, 10);
        let _ = send_date(Date::MIN, -10);
        let _ = add_business_days(Date::MAX, 5);
        let _ = overdue_from(Date::MAX);
    }
}
