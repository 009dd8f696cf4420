//! Money (BRL) and percentages.
//!
//! Rules: on the wire an amount is a JSON number in reais with at most 2 decimal places; more
//! decimals is a validation error and is never rounded (`10.005` is rejected). Amounts are
//! stored as integer centavos (`i64`). A single amount is capped at R$ 99.999.999,99
//! ([`MAX_CENTS`], a cap of this API's own, not one Kobana publishes).
//! Percentages (fine, interest, discount) use the same 2-decimal rule and are kept as integer
//! hundredths of a percent, between 0 and 100.
//!
//! The decimal check works on the number's shortest round-trip text (`serde_json` prints an
//! `f64` with the shortest digits that read back to the same value, and keeps the source text
//! when built with `arbitrary_precision`), so `19.99` is 1999 centavos, not 1998.99…, and
//! `1e2` is 10000. Without `arbitrary_precision` the JSON parser turns the input into an `f64`,
//! which loses digits beyond what an `f64` resolves (`10.0000000000000001` reads as `10.0`), so
//! request bodies are first scanned as written ([`super::json_numbers`]): a far-out third
//! decimal is refused there, and trailing zeros (`10.500`) are accepted as the value they are.
//! The check here stays as the second line of defence for values built any other way.

use serde_json::Value;

use super::error::DomainError;

/// The largest single amount, R$ 99.999.999,99, in centavos.
pub const MAX_CENTS: i64 = 9_999_999_999;

/// The largest magnitude [`cents_from_json`] accepts (just under R$ 10 trillion): well inside
/// the range where an `f64` holds every centavo exactly, so [`cents_to_json`] round-trips.
pub const MAX_JSON_CENTS: i64 = 999_999_999_999_999;

/// 100.00 % in hundredths.
const MAX_PERCENT_HUNDREDTHS: i64 = 10_000;

/// Parses the text of a JSON number (`-12.5`, `1e2`, `1.5E-1`) into hundredths, exactly.
///
/// Errors: [`DomainError::NotANumber`] for malformed text, [`DomainError::TooManyDecimals`]
/// when the value has a non-zero third decimal, [`DomainError::AmountOutOfRange`] when it does
/// not fit an `i64` of hundredths.
pub(crate) fn hundredths_from_text(text: &str) -> Result<i64, DomainError> {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let (int_part, frac_part) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    if int_part.is_empty()
        || !int_part.bytes().all(|b| b.is_ascii_digit())
        || !frac_part.bytes().all(|b| b.is_ascii_digit())
        || (mantissa.contains('.') && frac_part.is_empty())
    {
        return Err(DomainError::NotANumber);
    }
    // Exponent: optional sign, then digits. Saturate at 10^6: anything beyond is absurd anyway.
    let exp: i64 = match exponent {
        None => 0,
        Some(exponent) => {
            let (exp_negative, exp_digits) = match exponent.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, exponent.strip_prefix('+').unwrap_or(exponent)),
            };
            if exp_digits.is_empty() || !exp_digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(DomainError::NotANumber);
            }
            let magnitude = exp_digits.bytes().fold(0i64, |acc, b| {
                acc.saturating_mul(10).saturating_add(i64::from(b - b'0')).min(1_000_000)
            });
            if exp_negative { -magnitude } else { magnitude }
        }
    };

    // value = digits × 10^(exp − frac_len); hundredths = digits × 10^(exp − frac_len + 2).
    let digits: String = format!("{int_part}{frac_part}");
    let digits = digits.trim_start_matches('0');
    let trimmed = digits.trim_end_matches('0');
    if trimmed.is_empty() {
        return Ok(0);
    }
    let trailing_zeros = (digits.len() - trimmed.len()) as i64;
    let shift = exp - frac_part.len() as i64 + 2 + trailing_zeros;
    if shift < 0 {
        return Err(DomainError::TooManyDecimals);
    }
    // `trimmed` is non-empty with a non-zero first digit; more than 18 digits cannot fit.
    if trimmed.len() as i64 + shift > 18 {
        return Err(DomainError::AmountOutOfRange);
    }
    let mut value: i64 = 0;
    for b in trimmed.bytes() {
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(i64::from(b - b'0')))
            .ok_or(DomainError::AmountOutOfRange)?;
    }
    for _ in 0..shift {
        value = value.checked_mul(10).ok_or(DomainError::AmountOutOfRange)?;
    }
    Ok(if negative { -value } else { value })
}

/// Reads a JSON number as hundredths (centavos, or hundredths of a percent).
fn hundredths_from_json(v: &Value) -> Result<i64, DomainError> {
    match v {
        Value::Number(n) => {
            // serde_json numbers are always finite, but be defensive about what `as_f64` sees.
            if n.as_f64().is_some_and(|f| !f.is_finite()) {
                return Err(DomainError::NotANumber);
            }
            hundredths_from_text(&n.to_string())
        }
        _ => Err(DomainError::NotANumber),
    }
}

/// Reads an amount in reais (a JSON number with at most 2 decimals) as centavos.
///
/// Negative amounts and zero are allowed here; callers check the sign, or use
/// [`positive_cents_from_json`]. Magnitudes above [`MAX_JSON_CENTS`] give
/// [`DomainError::AmountOutOfRange`].
pub fn cents_from_json(v: &Value) -> Result<i64, DomainError> {
    let cents = hundredths_from_json(v)?;
    if cents.unsigned_abs() > MAX_JSON_CENTS.unsigned_abs() {
        return Err(DomainError::AmountOutOfRange);
    }
    Ok(cents)
}

/// Reads an amount that must be greater than 0 and at most [`MAX_CENTS`] (R$ 99.999.999,99).
pub fn positive_cents_from_json(v: &Value) -> Result<i64, DomainError> {
    match cents_from_json(v) {
        Ok(c) if c <= 0 => Err(DomainError::NotPositive),
        Ok(c) if c > MAX_CENTS => Err(DomainError::AmountTooLarge),
        Ok(c) => Ok(c),
        Err(DomainError::AmountOutOfRange) => {
            if v.as_f64().is_some_and(|f| f < 0.0) {
                Err(DomainError::NotPositive)
            } else {
                Err(DomainError::AmountTooLarge)
            }
        }
        Err(e) => Err(e),
    }
}

/// Hundredths as a JSON number: `cents / 100` is correctly rounded, so it prints as the exact
/// decimal (1999 -> `19.99`, 125000 -> `1250.0`). Exact for magnitudes up to 2^53.
fn hundredths_to_json(hundredths: i64) -> Value {
    Value::from(hundredths as f64 / 100.0)
}

/// Centavos as a JSON number in reais: 125000 -> `1250.0`, 1999 -> `19.99`, -550 -> `-5.5`.
pub fn cents_to_json(cents: i64) -> Value {
    hundredths_to_json(cents)
}

/// Formats centavos the Brazilian way: `R$ 1.250,00`, `-R$ 5,50`, `R$ 0,99`.
pub fn format_brl(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    let reais = (abs / 100).to_string();
    let centavos = abs % 100;
    let mut grouped = String::with_capacity(reais.len() + reais.len() / 3);
    for (i, c) in reais.chars().enumerate() {
        if i > 0 && (reais.len() - i).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(c);
    }
    format!("{sign}R$ {grouped},{centavos:02}")
}

/// Reads a percentage (a JSON number from 0 to 100 with at most 2 decimals) as hundredths of a
/// percent: `2` -> 200, `1.5` -> 150, `0.33` -> 33.
pub fn percentage_from_json(v: &Value) -> Result<i64, DomainError> {
    match hundredths_from_json(v) {
        Ok(h) if (0..=MAX_PERCENT_HUNDREDTHS).contains(&h) => Ok(h),
        Ok(_) | Err(DomainError::AmountOutOfRange) => Err(DomainError::PercentageOutOfRange),
        Err(e) => Err(e),
    }
}

/// Hundredths of a percent as a JSON number: 200 -> `2.0`, 33 -> `0.33`.
pub fn percentage_to_json(hundredths: i64) -> Value {
    hundredths_to_json(hundredths)
}

/// A number with at most 2 decimals, kept exactly as integer hundredths: money in centavos,
/// percentages in hundredths of a percent. Every number of the API is one (the generated types
/// use it for `type: number`); reading more decimals is an error, never a rounding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hundredths(pub i64);

impl Hundredths {
    /// Zero.
    pub const ZERO: Self = Self(0);

    /// The value as a JSON number (`12.5` for 1250).
    pub fn to_json(self) -> Value {
        hundredths_to_json(self.0)
    }
}

impl serde::Serialize for Hundredths {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.0 as f64 / 100.0)
    }
}

impl<'de> serde::Deserialize<'de> for Hundredths {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let number = serde_json::Number::deserialize(deserializer)?;
        hundredths_from_json(&Value::Number(number)).map(Self).map_err(serde::de::Error::custom)
    }
}

/// `10.50` as 1050 centavos: digits, a point and up to two decimals (a BR Code's amount, a
/// file's amount once its separators are read).
pub fn cents_from_decimal(text: &str) -> Option<i64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || fraction.len() > 2 || !digits(whole) || !digits(fraction) {
        return None;
    }
    let whole: i64 = whole.parse().ok()?;
    let fraction: i64 = format!("{fraction:0<2}").parse().ok()?;
    whole.checked_mul(100)?.checked_add(fraction)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn from_text(s: &str) -> Result<i64, DomainError> {
        let v: Value = serde_json::from_str(s).unwrap();
        cents_from_json(&v)
    }

    #[test]
    fn whole_and_two_decimal_amounts() {
        assert_eq!(from_text("1250"), Ok(125_000));
        assert_eq!(from_text("1250.0"), Ok(125_000));
        assert_eq!(from_text("1250.5"), Ok(125_050));
        assert_eq!(from_text("19.99"), Ok(1999));
        assert_eq!(from_text("0.07"), Ok(7));
        assert_eq!(from_text("0.1"), Ok(10));
        assert_eq!(from_text("0.29"), Ok(29));
        assert_eq!(from_text("1.15"), Ok(115));
        assert_eq!(from_text("4.35"), Ok(435));
        assert_eq!(from_text("99999999.99"), Ok(9_999_999_999));
        assert_eq!(from_text("0"), Ok(0));
        assert_eq!(from_text("-0.0"), Ok(0));
        assert_eq!(from_text("-5.5"), Ok(-550));
        assert_eq!(cents_from_json(&json!(19.99)), Ok(1999));
        assert_eq!(cents_from_json(&json!(0.07)), Ok(7));
        assert_eq!(cents_from_json(&json!(100u64)), Ok(10_000));
    }

    #[test]
    fn every_cent_value_round_trips_through_f64() {
        // The classic trap: 0.1 + 0.2 style values must not come out one centavo off.
        for cents in (0..=100_000).chain(9_999_990_000..=9_999_999_999) {
            let f = cents as f64 / 100.0;
            assert_eq!(cents_from_json(&json!(f)), Ok(cents), "{f}");
            assert_eq!(cents_from_json(&cents_to_json(cents)), Ok(cents));
        }
    }

    #[test]
    fn exponent_notation() {
        assert_eq!(from_text("1e2"), Ok(10_000));
        assert_eq!(from_text("1E2"), Ok(10_000));
        assert_eq!(from_text("1e+2"), Ok(10_000));
        assert_eq!(from_text("1.5e1"), Ok(1500));
        assert_eq!(from_text("125e-2"), Ok(125));
        assert_eq!(from_text("1e-2"), Ok(1));
        assert_eq!(from_text("1e-3"), Err(DomainError::TooManyDecimals));
        assert_eq!(from_text("1e300"), Err(DomainError::AmountOutOfRange));
        assert_eq!(from_text("0e999"), Ok(0));
    }

    #[test]
    fn more_than_two_decimals_rejected_not_rounded() {
        for s in ["10.005", "10.001", "0.001", "19.999", "-10.005", "0.30000000000000004", "1.123456", "1e-7"]
        {
            assert_eq!(from_text(s), Err(DomainError::TooManyDecimals), "{s}");
        }
        assert_eq!(cents_from_json(&json!(0.1 + 0.2)), Err(DomainError::TooManyDecimals));
        assert_eq!(positive_cents_from_json(&json!(10.005)), Err(DomainError::TooManyDecimals));
    }

    #[test]
    fn non_numbers_rejected() {
        for v in [json!("10.00"), json!("10"), json!(null), json!(true), json!([1]), json!({"amount": 1})] {
            assert_eq!(cents_from_json(&v), Err(DomainError::NotANumber), "{v}");
            assert_eq!(percentage_from_json(&v), Err(DomainError::NotANumber), "{v}");
        }
        // NaN and infinity cannot be a serde_json number: they become null.
        assert_eq!(cents_from_json(&json!(f64::NAN)), Err(DomainError::NotANumber));
        assert_eq!(cents_from_json(&json!(f64::INFINITY)), Err(DomainError::NotANumber));
    }

    #[test]
    fn huge_values() {
        assert_eq!(cents_from_json(&json!(u64::MAX)), Err(DomainError::AmountOutOfRange));
        assert_eq!(cents_from_json(&json!(i64::MIN)), Err(DomainError::AmountOutOfRange));
        assert_eq!(cents_from_json(&json!(1e13)), Err(DomainError::AmountOutOfRange));
        assert_eq!(cents_from_json(&json!(9_999_999_999_999.99)), Ok(999_999_999_999_999));
        assert_eq!(from_text("1e308"), Err(DomainError::AmountOutOfRange));
        assert_eq!(from_text("123456789012345678901234567890"), Err(DomainError::AmountOutOfRange));
    }

    #[test]
    fn text_parser_is_strict() {
        for s in ["", "-", ".5", "5.", "1e", "1e+", "--1", "1.2.3", "0x10", "1_000", " 1"] {
            assert_eq!(hundredths_from_text(s), Err(DomainError::NotANumber), "{s:?}");
        }
        assert_eq!(hundredths_from_text("007.50"), Ok(750));
        assert_eq!(hundredths_from_text("10.50000"), Ok(1050));
        assert_eq!(hundredths_from_text("1e1000000000000"), Err(DomainError::AmountOutOfRange));
        assert_eq!(hundredths_from_text("1e-1000000000000"), Err(DomainError::TooManyDecimals));
    }

    #[test]
    fn positive_amounts() {
        assert_eq!(positive_cents_from_json(&json!(0.01)), Ok(1));
        assert_eq!(positive_cents_from_json(&json!(1250)), Ok(125_000));
        assert_eq!(positive_cents_from_json(&json!(99_999_999.99)), Ok(MAX_CENTS));
        assert_eq!(positive_cents_from_json(&json!(0)), Err(DomainError::NotPositive));
        assert_eq!(positive_cents_from_json(&json!(-0.01)), Err(DomainError::NotPositive));
        assert_eq!(positive_cents_from_json(&json!(100_000_000)), Err(DomainError::AmountTooLarge));
        assert_eq!(positive_cents_from_json(&json!(1e200)), Err(DomainError::AmountTooLarge));
        assert_eq!(positive_cents_from_json(&json!(-1e200)), Err(DomainError::NotPositive));
        assert_eq!(positive_cents_from_json(&json!("5")), Err(DomainError::NotANumber));
    }

    #[test]
    fn amounts_to_json() {
        assert_eq!(cents_to_json(125_000).to_string(), "1250.0");
        assert_eq!(cents_to_json(125_000), json!(1250.0));
        assert_eq!(cents_to_json(1999).to_string(), "19.99");
        assert_eq!(cents_to_json(7).to_string(), "0.07");
        assert_eq!(cents_to_json(-550).to_string(), "-5.5");
        assert_eq!(cents_to_json(0).to_string(), "0.0");
        assert_eq!(cents_to_json(MAX_CENTS).to_string(), "99999999.99");
    }

    #[test]
    fn brl_formatting() {
        assert_eq!(format_brl(125_000), "R$ 1.250,00");
        assert_eq!(format_brl(123_456_789), "R$ 1.234.567,89");
        assert_eq!(format_brl(-550), "-R$ 5,50");
        assert_eq!(format_brl(99), "R$ 0,99");
        assert_eq!(format_brl(0), "R$ 0,00");
        assert_eq!(format_brl(100_000), "R$ 1.000,00");
        assert_eq!(format_brl(99_999), "R$ 999,99");
        assert_eq!(format_brl(MAX_CENTS), "R$ 99.999.999,99");
        assert_eq!(format_brl(i64::MIN), "-R$ 92.233.720.368.547.758,08");
        assert_eq!(format_brl(i64::MAX), "R$ 92.233.720.368.547.758,07");
    }

    #[test]
    fn percentages() {
        assert_eq!(percentage_from_json(&json!(2)), Ok(200));
        assert_eq!(percentage_from_json(&json!(2.0)), Ok(200));
        assert_eq!(percentage_from_json(&json!(1.5)), Ok(150));
        assert_eq!(percentage_from_json(&json!(0.33)), Ok(33));
        assert_eq!(percentage_from_json(&json!(0)), Ok(0));
        assert_eq!(percentage_from_json(&json!(100)), Ok(10_000));
        assert_eq!(percentage_from_json(&json!(100.0)), Ok(10_000));
        assert_eq!(percentage_from_json(&json!(100.01)), Err(DomainError::PercentageOutOfRange));
        assert_eq!(percentage_from_json(&json!(-0.01)), Err(DomainError::PercentageOutOfRange));
        assert_eq!(percentage_from_json(&json!(1e300)), Err(DomainError::PercentageOutOfRange));
        assert_eq!(percentage_from_json(&json!(2.005)), Err(DomainError::TooManyDecimals));
        assert_eq!(percentage_to_json(200).to_string(), "2.0");
        assert_eq!(percentage_to_json(33).to_string(), "0.33");
        assert_eq!(percentage_to_json(10_000), json!(100.0));
    }
}
