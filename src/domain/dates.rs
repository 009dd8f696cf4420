//! Dates and timestamps on the wire.
//!
//! Rules: dates such as `due_date` are strict `YYYY-MM-DD` (ISO 8601 calendar dates, no time, no
//! offset); timestamps are RFC 3339 with exactly 6 fractional digits, because stored timestamps
//! keep microseconds: stored in UTC (`2026-11-29T19:32:50.123456Z`), written for an organization
//! in its zone's offset at that instant (`2026-11-29T16:32:50.123456-03:00`, [`Offsets`]).
//! Brazilian people read dates as `DD/MM/YYYY`, which [`format_date_br`] produces for
//! notifications.

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

/// The offsets everything written for an organization shows its instants in (answers, event
/// payloads, webhook bodies, exports): its zone's offset at each instant, to the whole minute as
/// RFC 3339 writes offsets; storage stays in UTC. The offset in force at the request's time, and
/// the span of instants it holds for (between the zone's transitions around it), are looked up
/// once, so writing an instant costs a comparison; one outside the span (a summer time of years
/// ago) is looked up in the zone.
#[derive(Clone, Debug)]
pub struct Offsets {
    zone: Zone,
    /// The offset at the request's time, in whole minutes.
    offset: UtcOffset,
    /// The Unix seconds `offset` holds for.
    span: std::ops::Range<i64>,
}

impl Offsets {
    /// The offsets of `zone` around `now`: the last ones this thread worked out when they are
    /// of the same zone and their span holds `now` (most requests a server answers are of a few
    /// organizations, and looking the transitions up cost more than writing the answer's
    /// instants), else worked out now.
    pub fn new(zone: &Zone, now: OffsetDateTime) -> Self {
        thread_local! {
            static LAST: std::cell::RefCell<Option<Offsets>> = const { std::cell::RefCell::new(None) };
        }
        let second = now.unix_timestamp();
        let last = LAST.with_borrow(|last| {
            last.as_ref().filter(|l| l.zone == *zone && l.span.contains(&second)).cloned()
        });
        last.unwrap_or_else(|| {
            let fresh = Self::work_out(zone, now);
            LAST.set(Some(fresh.clone()));
            fresh
        })
    }

    /// The offset at `now` and the span between the zone's transitions around it.
    fn work_out(zone: &Zone, now: OffsetDateTime) -> Self {
        let exact = zone.offset_at(now);
        let span = jiff::Timestamp::from_second(now.unix_timestamp())
            .ok()
            .map(|at| {
                let since = at.checked_add(jiff::SignedDuration::from_secs(1)).unwrap_or(at);
                let from = zone.tz.preceding(since).next().map_or(i64::MIN, |t| t.timestamp().as_second());
                let until = zone.tz.following(at).next().map_or(i64::MAX, |t| t.timestamp().as_second());
                from..until
            })
            .filter(|span| {
                // Checked rather than trusted: a span the zone disagrees with at either end is
                // dropped, and every instant looked up.
                let holds = |second: i64| {
                    OffsetDateTime::from_unix_timestamp(second).map_or(true, |t| zone.offset_at(t) == exact)
                };
                span.contains(&now.unix_timestamp())
                    && (span.start == i64::MIN || holds(span.start))
                    && (span.end == i64::MAX || holds(span.end - 1))
            })
            .unwrap_or(0..0);
        Offsets { zone: zone.clone(), offset: whole_minutes(exact), span }
    }

    /// The offset an instant is written at.
    pub fn at(&self, t: OffsetDateTime) -> UtcOffset {
        if self.span.contains(&t.unix_timestamp()) {
            self.offset
        } else {
            whole_minutes(self.zone.offset_at(t))
        }
    }

    /// An instant as written for the organization: [`format_timestamp`]'s form at its offset
    /// (`2026-12-14T09:00:00.000000-03:00`; `Z` where the offset is zero).
    pub fn format(&self, t: OffsetDateTime) -> String {
        match shown(t, Some(self)) {
            Shown::Utc(text) => text.as_str().to_owned(),
            Shown::Offset(text) => text.as_str().to_owned(),
            Shown::Far => format_timestamp(t),
        }
    }

    /// Runs `write` (which serialises an answer, synchronously) with every [`Timestamp`] it
    /// serialises written at these offsets; elsewhere they are written in UTC.
    pub fn write<R>(self, write: impl FnOnce() -> R) -> R {
        /// Puts back what was written at before, even if `write` panics.
        struct Restore(Option<Offsets>);
        impl Drop for Restore {
            fn drop(&mut self) {
                WRITING.set(self.0.take());
            }
        }
        let _restore = Restore(WRITING.replace(Some(self)));
        write()
    }
}

thread_local! {
    /// The offsets of the answer being serialised on this thread ([`Offsets::write`]).
    static WRITING: std::cell::RefCell<Option<Offsets>> = const { std::cell::RefCell::new(None) };
}

/// An offset to the whole minute (toward zero): the local mean times of before 1914 had seconds,
/// which RFC 3339 cannot write; the instant written stays exact.
fn whole_minutes(offset: UtcOffset) -> UtcOffset {
    let (hours, minutes, _) = offset.as_hms();
    UtcOffset::from_hms(hours, minutes, 0).unwrap_or(UtcOffset::UTC)
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

        /// Writes `-` (when `negative`) or `+` at `at`.
        pub fn put_sign(&mut self, at: usize, negative: bool) {
            self.0[at] = if negative { b'-' } else { b'+' };
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
/// `YYYY-MM-DDThh:mm:ss.uuuuuu±hh:mm`, to be filled.
const OFFSET_TIMESTAMP: Digits<32> = Digits::new(*b"0000-00-00T00:00:00.000000+00:00");
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
    let mut text = TIMESTAMP;
    fill_wall_clock(&mut text, t.checked_to_offset(UtcOffset::UTC)?)?;
    Some(text)
}

/// [`utc_timestamp`] at a nonzero offset (whole minutes): `2026-11-29T16:32:50.123456-03:00`.
fn offset_timestamp(t: OffsetDateTime, offset: UtcOffset) -> Option<Digits<32>> {
    // The wall clock from the UTC one, the day moved only when the offset crosses midnight:
    // `time`'s conversion to another offset cost as much as writing the digits.
    let u = t.checked_to_offset(UtcOffset::UTC)?;
    let second = i32::from(u.hour()) * 3600
        + i32::from(u.minute()) * 60
        + i32::from(u.second())
        + offset.whole_seconds();
    let date = match second {
        ..0 => u.date().previous_day()?,
        86_400.. => u.date().next_day()?,
        _ => u.date(),
    };
    let second = second.rem_euclid(86_400).unsigned_abs();
    let year @ 0..=9999 = u32::try_from(date.year()).ok()? else { return None };
    let mut text = OFFSET_TIMESTAMP;
    text.put(0..4, year);
    text.put(5..7, u32::from(u8::from(date.month())));
    text.put(8..10, u32::from(date.day()));
    text.put(11..13, second / 3600);
    text.put(14..16, second / 60 % 60);
    text.put(17..19, second % 60);
    text.put(20..26, u.microsecond());
    let (hours, minutes, _) = offset.as_hms();
    text.put_sign(26, offset.is_negative());
    text.put(27..29, u32::from(hours.unsigned_abs()));
    text.put(30..32, u32::from(minutes.unsigned_abs()));
    Some(text)
}

/// Fills the `YYYY-MM-DDThh:mm:ss.uuuuuu` a timestamp template starts with, as `wall` reads;
/// `None` outside years 0 to 9999.
fn fill_wall_clock<const N: usize>(text: &mut Digits<N>, wall: OffsetDateTime) -> Option<()> {
    let year @ 0..=9999 = u32::try_from(wall.year()).ok()? else { return None };
    text.put(0..4, year);
    text.put(5..7, u32::from(u8::from(wall.month())));
    text.put(8..10, u32::from(wall.day()));
    text.put(11..13, u32::from(wall.hour()));
    text.put(14..16, u32::from(wall.minute()));
    text.put(17..19, u32::from(wall.second()));
    text.put(20..26, wall.microsecond());
    Some(())
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

/// An instant's text at an offset, without allocating.
enum Shown {
    /// At offset zero: `…Z`.
    Utc(Digits<27>),
    /// `…±hh:mm`.
    Offset(Digits<32>),
    /// Outside years 0 to 9999 there: [`format_timestamp`] writes it.
    Far,
}

/// `t` at `offsets` (in UTC without).
fn shown(t: OffsetDateTime, offsets: Option<&Offsets>) -> Shown {
    let shown = match offsets {
        None => utc_timestamp(t).map(Shown::Utc),
        Some(offsets) => match offsets.at(t) {
            offset if offset.is_utc() => utc_timestamp(t).map(Shown::Utc),
            offset => offset_timestamp(t, offset).map(Shown::Offset),
        },
    };
    shown.unwrap_or(Shown::Far)
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

/// An instant (RFC 3339 with microseconds on the wire): in the organization's offset in what is
/// written for it ([`Offsets::write`]), in UTC anywhere else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub OffsetDateTime);

impl serde::Serialize for Timestamp {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match WRITING.with_borrow(|w| shown(self.0, w.as_ref())) {
            Shown::Utc(text) => serializer.serialize_str(text.as_str()),
            Shown::Offset(text) => serializer.serialize_str(text.as_str()),
            Shown::Far => serializer.serialize_str(&format_timestamp(self.0)),
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
    fn answers_write_instants_at_the_zones_offset_and_nothing_else_does() {
        let t = datetime!(2026-12-14 12:00:00.5 UTC);
        let sao_paulo = Offsets::new(&Zone::default_zone(), t);
        let written = sao_paulo.write(|| serde_json::to_value(Timestamp(t)).unwrap());
        assert_eq!(written, serde_json::json!("2026-12-14T09:00:00.500000-03:00"));
        assert_eq!(
            serde_json::to_value(Timestamp(t)).unwrap(),
            serde_json::json!("2026-12-14T12:00:00.500000Z")
        );
        assert_eq!(parse_timestamp(written.as_str().unwrap()), Ok(t), "the same instant");
        // East of Greenwich, across midnight; and UTC keeps its `Z`.
        let tokyo = Offsets::new(&Zone::named("Asia/Tokyo").unwrap(), t);
        assert_eq!(tokyo.format(datetime!(2026-12-31 20:00 UTC)), "2027-01-01T05:00:00.000000+09:00");
        assert_eq!(Offsets::new(&Zone::named("UTC").unwrap(), t).format(t), "2026-12-14T12:00:00.500000Z");
        // India's half hour.
        let kolkata = Offsets::new(&Zone::named("Asia/Kolkata").unwrap(), t);
        assert_eq!(kolkata.format(t), "2026-12-14T17:30:00.500000+05:30");
    }

    #[test]
    fn an_instant_outside_todays_offset_is_written_at_its_own() {
        let now = datetime!(2026-12-14 12:00 UTC);
        let sao_paulo = Offsets::new(&Zone::default_zone(), now);
        // São Paulo's last summer time, and before 1914 its local mean time (−03:06:28), written
        // to the minute with the instant kept.
        assert_eq!(sao_paulo.format(datetime!(2018-12-01 12:00 UTC)), "2018-12-01T10:00:00.000000-02:00");
        let lmt = datetime!(1900-01-01 12:00 UTC);
        assert_eq!(sao_paulo.format(lmt), "1900-01-01T08:54:00.000000-03:06");
        assert_eq!(parse_timestamp(&sao_paulo.format(lmt)), Ok(lmt));
        // Far instants fall back to UTC rather than fail.
        let far = datetime!(-0001-12-31 23:00:00 UTC);
        assert_eq!(sao_paulo.format(far), format_timestamp(far));
    }

    #[test]
    fn the_span_worked_out_once_agrees_with_the_zone_at_every_instant() {
        let step = time::Duration::seconds(86_399 * 3 + 7);
        for name in ["America/New_York", "America/Sao_Paulo", "Europe/London", "Australia/Lord_Howe", "UTC"] {
            let zone = Zone::named(name).unwrap();
            for now in [
                datetime!(2026-03-08 06:59:59 UTC),
                datetime!(2026-07-01 12:00 UTC),
                datetime!(2017-12-01 00:00 UTC),
            ] {
                let offsets = Offsets::new(&zone, now);
                let mut t = datetime!(2015-01-01 00:00 UTC);
                while t.year() < 2030 {
                    assert_eq!(offsets.at(t), whole_minutes(zone.offset_at(t)), "{name} at {t}, now {now}");
                    t += step;
                }
                // Either side of each transition near `now`, to the second.
                for edge in [offsets.span.start, offsets.span.end] {
                    for second in [edge.saturating_sub(1), edge] {
                        if let Ok(t) = OffsetDateTime::from_unix_timestamp(second) {
                            assert_eq!(offsets.at(t), whole_minutes(zone.offset_at(t)), "{name} at {t}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn writing_at_offsets_ends_with_the_answer_even_when_it_panics() {
        let t = datetime!(2026-12-14 12:00 UTC);
        let offsets = Offsets::new(&Zone::default_zone(), t);
        let caught = std::panic::catch_unwind(|| offsets.write(|| panic!("while writing")));
        assert!(caught.is_err());
        assert_eq!(
            serde_json::to_value(Timestamp(t)).unwrap(),
            serde_json::json!("2026-12-14T12:00:00.000000Z")
        );
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
    fn writing_at_an_offset_agrees_with_converting_there() {
        let step = time::Duration::seconds(7_919_993) + time::Duration::microseconds(123_457);
        let offsets = [(-3, 0), (-2, 0), (5, 30), (-9, -30), (14, 0), (-12, 0), (0, 45)];
        let mut t = datetime!(0001-01-02 00:00:00 UTC);
        while t.year() < 9999 {
            for (h, m) in offsets {
                let offset = UtcOffset::from_hms(h, m, 0).unwrap();
                let wall = t.to_offset(offset);
                let expected = format!(
                    "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}{}{:02}:{:02}",
                    wall.year(),
                    u8::from(wall.month()),
                    wall.day(),
                    wall.hour(),
                    wall.minute(),
                    wall.second(),
                    wall.microsecond(),
                    if offset.is_negative() { '-' } else { '+' },
                    h.unsigned_abs(),
                    m.unsigned_abs()
                );
                let text = offset_timestamp(t, offset).unwrap();
                assert_eq!(text.as_str(), expected);
            }
            t += step;
        }
        // Leap days, year ends and centuries, either side of the epoch.
        for day in
            [date!(2024 - 02 - 29), date!(2000 - 03 - 01), date!(1900 - 02 - 28), date!(1969 - 12 - 31)]
        {
            let t = day.with_hms(1, 2, 3).unwrap().assume_utc();
            let minus3 = UtcOffset::from_hms(-3, 0, 0).unwrap();
            let text = offset_timestamp(t, minus3).unwrap();
            assert_eq!(parse_timestamp(text.as_str()), Ok(t), "{day}");
        }
    }

    #[test]
    fn truncation() {
        let t = datetime!(2026-11-29 19:32:50.123456789 UTC);
        assert_eq!(truncate_to_micros(t), datetime!(2026-11-29 19:32:50.123456 UTC));
    }
}
