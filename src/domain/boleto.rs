//! A boleto as the banks print it (FEBRABAN's layout): the 44-digit barcode, the 47-digit
//! digitable line a person types, their check digits, and the due factor.
//!
//! Barcode: bank (3), currency (1), general check digit (1, modulo 11 of the other 43), due
//! factor (4), amount in centavos (10), the bank's free field (25). The line splits the same
//! digits into five fields, the first three with a modulo 10 check digit each, the fourth the
//! general check digit, the fifth the due factor and amount.

use time::{Date, macros::date};

/// Why a line or barcode is refused: each says what is wrong in words a person can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoletoError {
    #[error("must be the 47 digits of the digitable line (dots and spaces allowed); it has {0}")]
    LineLength(usize),
    #[error("must be the 44 digits of the barcode; it has {0}")]
    BarcodeLength(usize),
    #[error("may hold only digits, dots and spaces")]
    NotDigits,
    #[error("field {0}'s check digit is wrong (modulo 10): a digit was mistyped")]
    FieldDigit(u8),
    #[error("the general check digit is wrong (modulo 11): a digit was mistyped")]
    GeneralDigit,
    #[error("is not the barcode of the digitable line given")]
    OtherBarcode,
    #[error("says R$ {0} but the charge is R$ {1}")]
    Amount(String, String),
    #[error("has the due factor {0} but the charge's due date gives {1}")]
    DueFactor(u16, u16),
}

/// The 44 digits of a valid barcode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Barcode(String);

impl Barcode {
    /// A barcode from its 44 digits, with its general check digit verified.
    pub fn parse(text: &str) -> Result<Self, BoletoError> {
        let digits = only_digits(text)?;
        if digits.len() != 44 {
            return Err(BoletoError::BarcodeLength(digits.len()));
        }
        if general_digit(&digits) != digit_at(&digits, 4) {
            return Err(BoletoError::GeneralDigit);
        }
        Ok(Self(digits))
    }

    /// The barcode of a boleto of bank and currency `bank` (4 digits, `0019` for Banco do
    /// Brasil in reais) for `amount_cents` due on `due`, with the bank's 25-digit `free_field`;
    /// `None` when a part does not fit the layout.
    pub fn issue(bank: &str, amount_cents: i64, due: Date, free_field: &str) -> Option<Self> {
        let factor = due_factor(due)?;
        let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(bank, 4) || !digits(free_field, 25) || !(0..=9_999_999_999).contains(&amount_cents) {
            return None;
        }
        let body = format!("{bank}0{factor:04}{amount_cents:010}{free_field}");
        let check = general_digit(&body);
        Self::parse(&format!("{bank}{check}{}", &body[5..])).ok()
    }

    /// The barcode a digitable line encodes, with every check digit verified.
    pub fn from_line(text: &str) -> Result<Self, BoletoError> {
        let line = only_digits(text)?;
        if line.len() != 47 {
            return Err(BoletoError::LineLength(line.len()));
        }
        for (field, (start, end)) in [(1, (0, 9)), (2, (10, 20)), (3, (21, 31))] {
            if modulo_10(&line[start..end]) != digit_at(&line, end) {
                return Err(BoletoError::FieldDigit(field));
            }
        }
        let barcode =
            [&line[0..4], &line[32..33], &line[33..47], &line[4..9], &line[10..20], &line[21..31]].concat();
        Self::parse(&barcode)
    }

    /// The digitable line of this barcode, in the banks' grouping
    /// (`00190.50095 40144.816069 06809.350314 3 37370000000100`).
    pub fn line(&self) -> String {
        let b = &self.0;
        let field = |data: String| {
            let check = modulo_10(&data);
            format!("{}{check}", data)
        };
        let one = field(format!("{}{}", &b[0..4], &b[19..24]));
        let two = field(b[24..34].to_string());
        let three = field(b[34..44].to_string());
        format!(
            "{}.{} {}.{} {}.{} {} {}",
            &one[..5],
            &one[5..],
            &two[..5],
            &two[5..],
            &three[..5],
            &three[5..],
            &b[4..5],
            &b[5..19]
        )
    }

    /// The 44 digits.
    pub fn digits(&self) -> &str {
        &self.0
    }

    /// The due factor; 0 when the boleto has no due date.
    pub fn due_factor(&self) -> u16 {
        self.0[5..9].parse().unwrap_or(0)
    }

    /// The amount in centavos; 0 when the payer types it.
    pub fn amount_cents(&self) -> i64 {
        self.0[9..19].parse().unwrap_or(0)
    }

    /// Checks that the boleto is for `amount_cents` due on `due`, where it says an amount and
    /// a due date at all.
    pub fn check_against(&self, amount_cents: i64, due: Date) -> Result<(), BoletoError> {
        let amount = self.amount_cents();
        if amount != 0 && amount != amount_cents {
            return Err(BoletoError::Amount(reais(amount), reais(amount_cents)));
        }
        let factor = self.due_factor();
        match due_factor(due) {
            Some(expected) if factor != 0 && factor != expected => {
                Err(BoletoError::DueFactor(factor, expected))
            }
            _ => Ok(()),
        }
    }
}

/// The first day of the factor's second cycle: factor 9999 was 2025-02-21, and the next day
/// started again from 1000.
const ROLLOVER: Date = date!(2025 - 02 - 22);

/// Day 0 of the first cycle (factor 1000 was 2000-07-03).
const BASE: Date = date!(1997 - 10 - 07);

/// The due factor of a due date: days since 1997-10-07 until 2025-02-21 (factor 9999), then
/// from 1000 again every 9,000 days. `None` before factor 1000 (2000-07-03).
pub fn due_factor(due: Date) -> Option<u16> {
    let factor =
        if due < ROLLOVER { (due - BASE).whole_days() } else { (due - ROLLOVER).whole_days() % 9000 + 1000 };
    u16::try_from(factor).ok().filter(|f| (1000..=9999).contains(f))
}

/// The digits of a line or barcode typed with the usual dots and spaces.
fn only_digits(text: &str) -> Result<String, BoletoError> {
    if text.chars().any(|c| !(c.is_ascii_digit() || c == '.' || c == ' ')) {
        return Err(BoletoError::NotDigits);
    }
    Ok(text.chars().filter(char::is_ascii_digit).collect())
}

fn digit_at(digits: &str, at: usize) -> u8 {
    digits.as_bytes()[at] - b'0'
}

/// A field's check digit: digits weighted 2, 1, 2, … from the right, the digits of each
/// product summed, then what brings the sum to a multiple of 10.
fn modulo_10(digits: &str) -> u8 {
    let sum: u32 = digits
        .bytes()
        .rev()
        .zip([2, 1].into_iter().cycle())
        .map(|(d, weight)| {
            let product = u32::from(d - b'0') * weight;
            product / 10 + product % 10
        })
        .sum();
    ((10 - sum % 10) % 10) as u8
}

/// The general check digit of a barcode: its other 43 digits weighted 2 to 9 from the right,
/// 11 less the sum's remainder by 11; 0, 10 and 11 become 1.
fn general_digit(barcode: &str) -> u8 {
    let others = [&barcode[..4], &barcode[5..]].concat();
    let sum: u32 =
        others.bytes().rev().zip((2..=9).cycle()).map(|(d, weight)| u32::from(d - b'0') * weight).sum();
    match 11 - sum % 11 {
        0 | 10 | 11 => 1,
        d => d as u8,
    }
}

fn reais(cents: i64) -> String {
    crate::domain::money::format_brl(cents)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Banco do Brasil's example, as published with the layout.
    const LINE: &str = "00190.50095 40144.816069 06809.350314 3 37370000000100";
    const BARCODE: &str = "00193373700000001000500940144816060680935031";

    #[test]
    fn the_published_example_reads_both_ways() {
        let from_line = Barcode::from_line(LINE).unwrap();
        assert_eq!(from_line.digits(), BARCODE);
        assert_eq!(Barcode::parse(BARCODE).unwrap().line(), LINE);
        assert_eq!((from_line.due_factor(), from_line.amount_cents()), (3737, 100));
    }

    #[test]
    fn an_issued_barcode_reads_back_its_parts() {
        let due = date!(2026 - 12 - 17);
        let b = Barcode::issue("0019", 125_000, due, "0000000000000000000000017").unwrap();
        assert_eq!((b.amount_cents(), Some(b.due_factor())), (125_000, due_factor(due)));
        assert_eq!(Barcode::from_line(&b.line()), Ok(b.clone()));
        assert!(b.check_against(125_000, due).is_ok());
        assert_eq!(Barcode::issue("19", 1, due, "0000000000000000000000017"), None);
    }

    #[test]
    fn the_due_factor_rolls_over_in_2025() {
        assert_eq!(due_factor(date!(2000 - 07 - 03)), Some(1000));
        assert_eq!(due_factor(date!(2025 - 02 - 21)), Some(9999));
        assert_eq!(due_factor(date!(2025 - 02 - 22)), Some(1000));
        assert_eq!(due_factor(date!(2025 - 02 - 23)), Some(1001));
        assert_eq!(due_factor(date!(2026 - 12 - 03)), Some(1000 + 649));
        assert_eq!(due_factor(date!(2000 - 07 - 02)), None);
    }

    #[test]
    fn a_boleto_says_the_charges_amount_and_due_date() {
        let b = Barcode::parse(BARCODE).unwrap();
        let due = BASE + time::Duration::days(3737);
        assert_eq!(b.check_against(100, due), Ok(()));
        assert!(matches!(b.check_against(101, due), Err(BoletoError::Amount(..))));
        let other_day = due + time::Duration::days(1);
        assert_eq!(b.check_against(100, other_day), Err(BoletoError::DueFactor(3737, 3738)));
    }

    #[test]
    fn shapes_that_are_not_a_line() {
        assert_eq!(Barcode::from_line("0019"), Err(BoletoError::LineLength(4)));
        assert_eq!(Barcode::from_line("0019-0"), Err(BoletoError::NotDigits));
        assert_eq!(Barcode::parse(&BARCODE[1..]), Err(BoletoError::BarcodeLength(43)));
    }

    /// A small deterministic generator (no dependency): xorshift.
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        fn digits(&mut self, n: usize) -> String {
            (0..n).map(|_| char::from(b'0' + self.below(10) as u8)).collect()
        }

        /// A valid boleto for a random amount due on a random day of the factor's second cycle
        /// (both with two nonzero digits at least, so that no typo makes them "none").
        fn boleto(&mut self) -> (Barcode, i64, Date) {
            let two_nonzero = |n: i64| n.to_string().bytes().filter(|&d| d != b'0').count() >= 2;
            let due = loop {
                let due = ROLLOVER + time::Duration::days(self.below(9000) as i64);
                if two_nonzero(i64::from(due_factor(due).unwrap())) {
                    break due;
                }
            };
            let amount = loop {
                let cents = 100 + self.below(99_999_900) as i64;
                if two_nonzero(cents) {
                    break cents;
                }
            };
            let body =
                format!("{}{:04}{amount:010}{}", self.digits(4), due_factor(due).unwrap(), self.digits(25));
            let check = general_digit(&format!("{}0{}", &body[..4], &body[4..]));
            (Barcode::parse(&format!("{}{check}{}", &body[..4], &body[4..])).unwrap(), amount, due)
        }
    }

    /// A random valid line passes; any single digit typed wrong is refused, by a check digit
    /// or, where the modulo 11 digit cannot tell (it maps two remainders to 1), by the amount or
    /// due date it no longer agrees with.
    #[test]
    fn any_single_changed_digit_of_a_line_is_refused() {
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        for _ in 0..300 {
            let (barcode, amount, due) = random.boleto();
            let line = barcode.line();
            assert_eq!(Barcode::from_line(&line), Ok(barcode.clone()));
            assert_eq!(barcode.check_against(amount, due), Ok(()));
            for (at, _) in line.char_indices().filter(|(_, c)| c.is_ascii_digit()) {
                for replacement in (b'0'..=b'9').filter(|&r| r != line.as_bytes()[at]) {
                    let mut typo = line.clone().into_bytes();
                    typo[at] = replacement;
                    let typo = String::from_utf8(typo).unwrap();
                    let read = Barcode::from_line(&typo).and_then(|b| b.check_against(amount, due));
                    assert!(read.is_err(), "{typo} passed for {line}");
                }
            }
        }
    }
}
