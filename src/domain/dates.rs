//! Dates and timestamps on the wire.
//!
//! Rules: dates such as `due_date` are strict `YYYY-MM-DD` (ISO 8601 calendar dates, no time, no
//! offset); timestamps are RFC 3339 and are written in UTC with exactly 6 fractional digits
//! (`2026-11-29T19:32:50.123456Z`), because stored timestamps keep microseconds. Brazilian people
//! read dates as `DD/MM/YYYY`, which [`format_date_br`] produces for notifications.

use std::sync::Arc;
use time::format_description::well_known::Rfc3339;

use time::{Date, Month, OffsetDateTime, Time, UtcOffset};

use super::error::DomainError;

/// The time zone an organization's days are counted in when it names none.
pub const DEFAULT_ZONE: &str = "America/Sao_Paulo";

/// An IANA time zone, in which an organization (or one of its policies) counts its days: what
/// today is, when the send window opens, which day a payment fell on. Brazil alone has four
/// offsets (America/Noronha −02 to America/Rio_Branco −05), and a zone may change its rules,
/// so the offset is looked up in the time zone database for each instant, never assumed.
#[derive(Clone, Debug)]
pub struct Zone {
    name: Arc<str>,
    tz: jiff::tz::TimeZone,
}

impl Zone {
    /// The zone of an IANA name (`America/Manaus`), from the time zone database built in.
    pub fn named(name: &str) -> Result<Zone, DomainError> {
        // Only canonical-looking names: `UTC` or `Area/Location`, so that an offset string or
        // a path is never taken for a zone.
        let plausible = name == "UTC"
            || (name.len() <= 64
                && name.contains('/')
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"/_-+".contains(&b)));
        let tz =
            plausible.then(|| jiff::tz::db().get(name).ok()).flatten().ok_or(DomainError::InvalidTimeZone)?;
        Ok(Zone { name: Arc::from(name), tz })
    }

    /// America/Sao_Paulo, the zone of an organization that names none.
    pub fn default_zone() -> Zone {
        static DEFAULT: std::sync::LazyLock<Zone> = std::sync::LazyLock::new(|| {
            Zone::named(DEFAULT_ZONE)
                .unwrap_or_else(|_| Zone { name: Arc::from("UTC"), tz: jiff::tz::TimeZone::UTC })
        });
        DEFAULT.clone()
    }

    /// The IANA name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The zone's offset from UTC at `at`.
    pub fn offset_at(&self, at: OffsetDateTime) -> UtcOffset {
        let seconds = jiff::Timestamp::from_second(at.unix_timestamp())
            .map(|ts| self.tz.to_offset(ts).seconds())
            .unwrap_or(0);
        UtcOffset::from_whole_seconds(seconds).unwrap_or(UtcOffset::UTC)
    }

    /// `at` as the zone's wall clock shows it.
    pub fn local(&self, at: OffsetDateTime) -> OffsetDateTime {
        at.to_offset(self.offset_at(at))
    }

    /// The calendar day of `at` in the zone.
    pub fn today(&self, at: OffsetDateTime) -> Date {
        self.local(at).date()
    }

    /// The instant the zone's wall clock shows `day` at `time`. A wall time skipped by a
    /// clock change is taken at the offset before the change.
    pub fn instant(&self, day: Date, time: Time) -> OffsetDateTime {
        let wall = day.with_time(time);
        // The offset in force a day either side decides: try the one before, then after.
        let guess = wall.assume_utc();
        for probe in [guess - time::Duration::days(1), guess, guess + time::Duration::days(1)] {
            let offset = self.offset_at(probe);
            let at = wall.assume_offset(offset);
            if self.offset_at(at) == offset {
                return at.to_offset(UtcOffset::UTC);
            }
        }
        wall.assume_offset(self.offset_at(guess)).to_offset(UtcOffset::UTC)
    }

    /// The first instant of `day` in the zone, in UTC.
    pub fn day_start(&self, day: Date) -> OffsetDateTime {
        self.instant(day, Time::MIDNIGHT)
    }
}

impl PartialEq for Zone {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Zone {}

/// Parses a strict `YYYY-MM-DD` date (exactly 10 characters, zero-padded, a real calendar day).
pub fn parse_date(input: &str) -> Result<Date, DomainError> {
    let b = input.as_bytes();
    let shape_ok = b.len() == 10
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            _ => c.is_ascii_digit(),
        });
    if !shape_ok {
        return Err(DomainError::InvalidDate);
    }
    let num = |range: std::ops::Range<usize>| -> u32 {
        b[range].iter().fold(0u32, |acc, &c| acc * 10 + u32::from(c - b'0'))
    };
    let year = i32::try_from(num(0..4)).map_err(|_| DomainError::InvalidDate)?;
    let month =
        u8::try_from(num(5..7)).ok().and_then(|m| Month::try_from(m).ok()).ok_or(DomainError::InvalidDate)?;
    let day = u8::try_from(num(8..10)).map_err(|_| DomainError::InvalidDate)?;
    let date = Date::from_calendar_date(year, month, day).map_err(|_| DomainError::InvalidDate)?;
    in_range(date)
}

/// The years a date given to the API may fall in: any debt's, with room for a régua's offsets
/// and business days on either side, so no date arithmetic leaves the calendar.
const YEARS: std::ops::RangeInclusive<i32> = 1900..=2199;

fn in_range(date: Date) -> Result<Date, DomainError> {
    if YEARS.contains(&date.year()) { Ok(date) } else { Err(DomainError::DateOutOfRange) }
}

/// Formats a date as `YYYY-MM-DD`.
pub fn format_date(d: Date) -> String {
    let mut out = String::with_capacity(10);
    push_date(&mut out, d);
    out
}

/// Appends `YYYY-MM-DD`. Written digit by digit: dates and instants are formatted in every
/// answer, and `format!` costs several times more.
fn push_date(out: &mut String, d: Date) {
    match u32::try_from(d.year()) {
        Ok(year) if year <= 9999 => push_digits(out, year, 4),
        // Before year 0 (the `time` crate's range reaches -9999): the general formatter.
        _ => out.push_str(&format!("{:04}", d.year())),
    }
    out.push('-');
    push_digits(out, u32::from(u8::from(d.month())), 2);
    out.push('-');
    push_digits(out, u32::from(d.day()), 2);
}

/// Appends the last `width` decimal digits of `n`, zero-padded.
fn push_digits(out: &mut String, n: u32, width: u32) {
    let mut digits = [0u8; 10];
    let slot = &mut digits[..(width as usize).min(10)];
    put_digits(slot, n);
    out.extend(slot.iter().map(|&b| char::from(b)));
}

/// Writes the last `slot.len()` decimal digits of `n` into `slot`, zero-padded.
fn put_digits(slot: &mut [u8], n: u32) {
    let mut rest = n;
    for b in slot.iter_mut().rev() {
        *b = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
}

/// Text made of ASCII digits put into an ASCII template, so UTF-8 by construction: read as a
/// `str` without a UTF-8 check (the check of each instant an answer shows was a percent of a
/// request, callgrind). In a module of its own so that nothing else can reach its bytes.
mod digits {
    #[derive(Clone, Copy)]
    pub struct Digits<const N: usize>([u8; N]);

    impl<const N: usize> Digits<N> {
        /// The template, with its placeholders; a template that is not ASCII does not compile
        /// when the template is a constant, as every one here is.
        pub const fn new(template: [u8; N]) -> Self {
            assert!(template.as_slice().is_ascii(), "a digit template is ASCII");
            Self(template)
        }

        /// Writes the last `range.len()` decimal digits of `n` there, zero-padded.
        pub fn put(&mut self, range: std::ops::Range<usize>, n: u32) {
            super::put_digits(&mut self.0[range], n);
        }

        pub fn as_str(&self) -> &str {
            // `new` checked that the template is ASCII and `put` writes only `b'0'..=b'9'`
            // (`put_digits`), so this never falls back.
            std::str::from_utf8(&self.0).unwrap_or_default()
        }
    }
}
use digits::Digits;

/// `YYYY-MM-DDThh:mm:ss.uuuuuuZ`, to be filled.
const TIMESTAMP: Digits<27> = Digits::new(*b"0000-00-00T00:00:00.000000Z");
/// `YYYY-MM-DD`, to be filled.
const DATE: Digits<10> = Digits::new(*b"0000-00-00");

/// Formats a date the Brazilian way, `DD/MM/YYYY`.
pub fn format_date_br(d: Date) -> String {
    format!("{:02}/{:02}/{:04}", d.day(), u8::from(d.month()), d.year())
}

/// The common case of [`format_timestamp`], a time in years 0 to 9999 that has a UTC form, as
/// its 27 bytes: filled into a template in one go, without allocating (a push per character
/// showed in every request's profile, and answers serialise several instants each).
fn utc_timestamp(t: OffsetDateTime) -> Option<Digits<27>> {
    let u = t.checked_to_offset(UtcOffset::UTC)?;
    let year @ 0..=9999 = u32::try_from(u.year()).ok()? else { return None };
    let mut text = TIMESTAMP;
    text.put(0..4, year);
    text.put(5..7, u32::from(u8::from(u.month())));
    text.put(8..10, u32::from(u.day()));
    text.put(11..13, u32::from(u.hour()));
    text.put(14..16, u32::from(u.minute()));
    text.put(17..19, u32::from(u.second()));
    text.put(20..26, u.microsecond());
    Some(text)
}

/// A date in years 0 to 9999 as its 10 bytes `YYYY-MM-DD`, without allocating.
fn plain_date(d: Date) -> Option<Digits<10>> {
    let year @ 0..=9999 = u32::try_from(d.year()).ok()? else { return None };
    let mut text = DATE;
    text.put(0..4, year);
    text.put(5..7, u32::from(u8::from(d.month())));
    text.put(8..10, u32::from(d.day()));
    Some(text)
}

/// Drops sub-microsecond precision, so a stored timestamp equals what the API shows.
pub fn truncate_to_micros(t: OffsetDateTime) -> OffsetDateTime {
    let nanos = t.nanosecond() / 1_000 * 1_000;
    t.replace_nanosecond(nanos).unwrap_or(t)
}

/// Formats a timestamp as RFC 3339 in UTC with exactly 6 fractional digits (truncated, not
/// rounded): `2026-11-29T19:32:50.123456Z`.
pub fn format_timestamp(t: OffsetDateTime) -> String {
    if let Some(text) = utc_timestamp(t) {
        return text.as_str().to_owned();
    }
    // Converting can only fail at the very edge of the supported range (year ±9999); keep the
    // original offset there rather than panic.
    let (u, utc) = match t.checked_to_offset(UtcOffset::UTC) {
        Some(u) => (u, true),
        None => (t, false),
    };
    let mut out = String::with_capacity(27);
    push_date(&mut out, u.date());
    out.push('T');
    push_digits(&mut out, u32::from(u.hour()), 2);
    out.push(':');
    push_digits(&mut out, u32::from(u.minute()), 2);
    out.push(':');
    push_digits(&mut out, u32::from(u.second()), 2);
    out.push('.');
    push_digits(&mut out, u.microsecond(), 6);
    if utc {
        out.push('Z');
    } else {
        let (h, m, _) = t.offset().as_hms();
        out.push(if t.offset().is_negative() { '-' } else { '+' });
        push_digits(&mut out, u32::from(h.unsigned_abs()), 2);
        out.push(':');
        push_digits(&mut out, u32::from(m.unsigned_abs()), 2);
    }
    out
}

/// Parses an RFC 3339 timestamp (`2026-11-29T19:32:50Z`, `2026-11-29T16:32:50.5-03:00`).
/// The result is converted to UTC and truncated to microseconds, the precision that is stored.
pub fn parse_timestamp(input: &str) -> Result<OffsetDateTime, DomainError> {
    let t = OffsetDateTime::parse(input, &Rfc3339).map_err(|_| DomainError::InvalidTimestamp)?;
    let t = t.checked_to_offset(UtcOffset::UTC).unwrap_or(t);
    in_range(t.date())?;
    Ok(truncate_to_micros(t))
}

/// A calendar day (`YYYY-MM-DD` on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(pub Date);

impl serde::Serialize for Day {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match plain_date(self.0) {
            Some(text) => serializer.serialize_str(text.as_str()),
            None => serializer.serialize_str(&format_date(self.0)),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Day {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        parse_date(&text).map(Self).map_err(serde::de::Error::custom)
    }
}

/// An instant (RFC 3339 with microseconds, in UTC, on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub OffsetDateTime);

impl serde::Serialize for Timestamp {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match utc_timestamp(self.0) {
            Some(text) => serializer.serialize_str(text.as_str()),
            None => serializer.serialize_str(&format_timestamp(self.0)),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Timestamp {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        parse_timestamp(&text).map(Self).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn brazil_s_four_offsets_come_from_the_zone_database() {
        let at = time::macros::datetime!(2027-01-05 04:30 UTC);
        let day = |name: &str| Zone::named(name).unwrap().today(at);
        assert_eq!(day("America/Noronha"), time::macros::date!(2027 - 01 - 05), "−02: 02:30");
        assert_eq!(day("America/Sao_Paulo"), time::macros::date!(2027 - 01 - 05), "−03: 01:30");
        assert_eq!(day("America/Manaus"), time::macros::date!(2027 - 01 - 05), "−04: 00:30");
        assert_eq!(day("America/Rio_Branco"), time::macros::date!(2027 - 01 - 04), "−05: 23:30");
        // São Paulo kept summer time until 2019: the offset is the database's, not a constant.
        let summer = time::macros::datetime!(2018-12-01 12:00 UTC);
        assert_eq!(Zone::default_zone().offset_at(summer), UtcOffset::from_hms(-2, 0, 0).unwrap());
    }

    #[test]
    fn a_wall_time_is_an_instant_in_the_zone() {
        let manaus = Zone::named("America/Manaus").unwrap();
        let at = manaus.instant(time::macros::date!(2027 - 01 - 04), time::macros::time!(09:00));
        assert_eq!(at, time::macros::datetime!(2027-01-04 13:00 UTC));
        assert_eq!(
            manaus.day_start(time::macros::date!(2027 - 01 - 04)),
            time::macros::datetime!(2027-01-04 04:00 UTC)
        );
        // The day São Paulo's summer time began (2018-11-04) had no midnight: 00:00 is 01:00.
        let skipped = Zone::default_zone().day_start(time::macros::date!(2018 - 11 - 04));
        assert_eq!(Zone::default_zone().today(skipped), time::macros::date!(2018 - 11 - 04));
    }

    #[test]
    fn only_zone_names_are_zones() {
        for bad in ["-03:00", "BRT", "../etc/passwd", "America/Nowhere", "", "America/Sao Paulo"] {
            assert!(Zone::named(bad).is_err(), "{bad}");
        }
        assert_eq!(Zone::named("America/Sao_Paulo").unwrap(), Zone::default_zone());
    }
    use super::*;
    use time::macros::{date, datetime};

    #[test]
    fn valid_dates() {
        assert_eq!(parse_date("2026-11-29"), Ok(date!(2026 - 11 - 29)));
        assert_eq!(parse_date("2024-02-29"), Ok(date!(2024 - 02 - 29)));
        assert_eq!(parse_date("2000-01-01"), Ok(date!(2000 - 01 - 01)));
        assert_eq!(parse_date("2199-12-31"), Ok(date!(2199 - 12 - 31)));
        assert_eq!(parse_date("1900-01-01"), Ok(date!(1900 - 01 - 01)));
        for far in ["9999-12-31", "0001-01-01", "2200-01-01", "1899-12-31"] {
            assert_eq!(parse_date(far), Err(DomainError::DateOutOfRange), "{far}");
        }
        assert_eq!(parse_timestamp("9999-12-31T15:00:00Z"), Err(DomainError::DateOutOfRange));
    }

    #[test]
    fn invalid_dates() {
        for bad in [
            "",
            "2026-11-3",
            "2026-1-30",
            "26-11-30",
            "2026/11/30",
            "30/11/2026",
            "2026-11-30T00:00:00Z",
            " 2026-11-30",
            "2026-11-30 ",
            "2026-13-01",
            "2026-00-10",
            "2026-11-00",
            "2026-11-31",
            "2025-02-29",
            "+026-11-30",
            "2026-1１-30",
            "２０２６-11-30",
            "abcd-ef-gh",
        ] {
            assert_eq!(parse_date(bad), Err(DomainError::InvalidDate), "{bad:?}");
        }
    }

    #[test]
    fn serialised_days_and_instants_are_their_formats() {
        let days =
            [date!(2026 - 03 - 05), date!(0000 - 01 - 01), date!(9999 - 12 - 31), date!(-0005 - 06 - 07)];
        for d in days {
            assert_eq!(serde_json::to_value(Day(d)).unwrap(), serde_json::json!(format_date(d)), "{d}");
        }
        let instants = [
            datetime!(2026-11-29 19:32:50.123456 UTC),
            datetime!(2026-11-29 16:32:50.5 -3),
            datetime!(0000-01-01 00:00:00 UTC),
            datetime!(9999-12-31 23:59:59.999999 UTC),
            datetime!(-0001-12-31 23:00:00 UTC),
            // No UTC form inside the supported range: the offset is kept.
            datetime!(-9999-01-01 00:30:00 +01:00),
        ];
        for t in instants {
            assert_eq!(
                serde_json::to_value(Timestamp(t)).unwrap(),
                serde_json::json!(format_timestamp(t)),
                "{t}"
            );
        }
    }

    #[test]
    fn date_formats() {
        let d = date!(2026 - 03 - 05);
        assert_eq!(format_date(d), "2026-03-05");
        assert_eq!(format_date_br(d), "05/03/2026");
        assert_eq!(parse_date(&format_date(d)), Ok(d));
    }

    #[test]
    fn timestamps_are_utc_with_six_digits() {
        assert_eq!(
            format_timestamp(datetime!(2026-11-29 19:32:50.123456 UTC)),
            "2026-11-29T19:32:50.123456Z"
        );
        assert_eq!(format_timestamp(datetime!(2026-11-29 19:32:50 UTC)), "2026-11-29T19:32:50.000000Z");
        assert_eq!(format_timestamp(datetime!(2026-11-29 16:32:50.5 -3)), "2026-11-29T19:32:50.500000Z");
        // Truncated, not rounded.
        assert_eq!(
            format_timestamp(datetime!(2026-11-29 23:59:59.999999999 UTC)),
            "2026-11-29T23:59:59.999999Z"
        );
        // Crossing midnight when converting to UTC.
        assert_eq!(format_timestamp(datetime!(2026-12-31 22:00:00 -3)), "2027-01-01T01:00:00.000000Z");
        // Every field zero-padded to its width.
        assert_eq!(
            format_timestamp(datetime!(0042-01-02 03:04:05.000006 UTC)),
            "0042-01-02T03:04:05.000006Z"
        );
    }

    #[test]
    fn timestamp_parsing() {
        assert_eq!(parse_timestamp("2026-11-29T19:32:50Z"), Ok(datetime!(2026-11-29 19:32:50 UTC)));
        let t = parse_timestamp("2026-11-29T16:32:50.123456789-03:00").unwrap();
        assert_eq!(t, datetime!(2026-11-29 19:32:50.123456 UTC));
        assert_eq!(t.offset(), UtcOffset::UTC);
        let s = "2026-11-29T19:32:50.123456Z";
        assert_eq!(parse_timestamp(s).map(format_timestamp), Ok(s.to_owned()));
        for bad in [
            "",
            "2026-11-29",
            "2026-11-29T19:32:50",
            "2026-11-29 19:32:50",
            "29/11/2026 19:32",
            "2026-11-29T25:00:00Z",
            "2026-02-30T00:00:00Z",
            "not a date",
        ] {
            assert_eq!(parse_timestamp(bad), Err(DomainError::InvalidTimestamp), "{bad:?}");
        }
    }

    #[test]
    fn extreme_timestamps_do_not_panic() {
        let max = datetime!(9999-12-31 23:59:59.999999999 -23:59:59);
        let s = format_timestamp(max);
        assert!(s.starts_with("9999-12-31T23:59:59.999999-23:59"), "{s}");
        let min = datetime!(-9999-01-01 00:00:00 +23:59:59);
        let s = format_timestamp(min);
        assert!(s.starts_with("-9999-01-01T00:00:00.000000+23:59"), "{s}");
    }

    #[test]
    fn digit_by_digit_formatting_agrees_with_format() {
        let step = time::Duration::seconds(7_919_993) + time::Duration::microseconds(123_457);
        let mut t = datetime!(0000-01-01 00:00:00 UTC);
        while t.year() < 9999 {
            let expected = format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z",
                t.year(),
                u8::from(t.month()),
                t.day(),
                t.hour(),
                t.minute(),
                t.second(),
                t.microsecond()
            );
            assert_eq!(format_timestamp(t), expected);
            assert_eq!(format_date(t.date()), expected[..10]);
            t += step;
        }
    }

    #[test]
    fn truncation() {
        let t = datetime!(2026-11-29 19:32:50.123456789 UTC);
        assert_eq!(truncate_to_micros(t), datetime!(2026-11-29 19:32:50.123456 UTC));
    }
}
