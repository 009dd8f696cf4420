//! Brazilian phone numbers, stored in E.164 (`+55` + 2-digit DDD + subscriber number).
//!
//! Rules (after Anatel's numbering plan): mobiles have 9 digits starting with 9 (`+5511912345678`,
//! 13 digits after `+`); landlines have 8 digits starting with 2 to 5 (`+551133334444`). Valid area
//! codes (DDD) match `1[1-9]|2[12478]|3[1-578]|4[1-9]|5[1-5]|6[1-9]|7[1-9]|8[1-9]|9[1-9]`.
//! WhatsApp and SMS require a mobile: use [`parse_mobile`] for those fields.
//!
//! Accepted input: an optional leading `+55` (or `55` before a full number, or the national
//! trunk prefix `0`), then DDD and number, with spaces, `(`, `)`, `-` and `.` as punctuation.

use super::error::DomainError;

/// Whether `ddd` (two ASCII digits) is an area code in use.
fn valid_ddd(d1: u8, d2: u8) -> bool {
    match d1 {
        b'1' | b'4' | b'6' | b'7' | b'8' | b'9' => (b'1'..=b'9').contains(&d2),
        b'2' => matches!(d2, b'1' | b'2' | b'4' | b'7' | b'8'),
        b'3' => matches!(d2, b'1'..=b'5' | b'7' | b'8'),
        b'5' => (b'1'..=b'5').contains(&d2),
        _ => false,
    }
}

/// Validates the national number (DDD + subscriber, 10 or 11 ASCII digits) and returns whether
/// it is a mobile.
fn check_national(national: &[u8]) -> Result<bool, DomainError> {
    let (ddd, subscriber) = match national {
        [d1, d2, rest @ ..] => ((*d1, *d2), rest),
        _ => return Err(DomainError::InvalidPhone),
    };
    let mobile = match subscriber {
        [b'9', ..] if subscriber.len() == 9 => true,
        [b'2'..=b'5', ..] if subscriber.len() == 8 => false,
        _ => return Err(DomainError::InvalidPhone),
    };
    if !valid_ddd(ddd.0, ddd.1) {
        return Err(DomainError::InvalidDdd);
    }
    Ok(mobile)
}

/// Parses a Brazilian phone number (mobile or landline) and returns it in E.164, e.g.
/// `"(11) 91234-5678"` -> `"+5511912345678"`.
pub fn parse_phone(input: &str) -> Result<String, DomainError> {
    parse(input).map(|(e164, _)| e164)
}

/// Like [`parse_phone`] but requires a mobile (for WhatsApp and SMS); a valid landline gives
/// [`DomainError::NotMobile`].
pub fn parse_mobile(input: &str) -> Result<String, DomainError> {
    match parse(input)? {
        (e164, true) => Ok(e164),
        (_, false) => Err(DomainError::NotMobile),
    }
}

/// Whether a stored E.164 number is a valid Brazilian mobile (`+55`, valid DDD, 9 digits
/// starting with 9). Strict: punctuation or a missing `+55` gives `false`.
pub fn is_mobile(e164: &str) -> bool {
    match e164.strip_prefix("+55") {
        Some(national) if national.bytes().all(|b| b.is_ascii_digit()) => {
            matches!(check_national(national.as_bytes()), Ok(true))
        }
        _ => false,
    }
}

/// Formats a stored E.164 number for people: `+5511912345678` -> `(11) 91234-5678`,
/// `+551133334444` -> `(11) 3333-4444`. Anything else is returned unchanged.
pub fn format_phone(e164: &str) -> String {
    match e164.strip_prefix("+55") {
        Some(n) if n.bytes().all(|b| b.is_ascii_digit()) && check_national(n.as_bytes()).is_ok() => {
            let split = n.len() - 4;
            format!("({}) {}-{}", &n[..2], &n[2..split], &n[split..])
        }
        _ => e164.to_owned(),
    }
}

/// Returns the E.164 form and whether the number is a mobile.
fn parse(input: &str) -> Result<(String, bool), DomainError> {
    let s = input.trim();
    if s.is_empty() {
        return Err(DomainError::Empty);
    }
    let (plus, rest) = match s.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let mut digits: Vec<u8> = Vec::with_capacity(16);
    for c in rest.chars() {
        match c {
            '0'..='9' => {
                if digits.len() > 13 {
                    return Err(DomainError::InvalidPhone);
                }
                // ASCII digit, so the cast is lossless.
                digits.push(c as u8);
            }
            ' ' | '(' | ')' | '-' | '.' => {}
            _ => return Err(DomainError::InvalidPhone),
        }
    }
    let national: &[u8] = if plus {
        // International form: only Brazil (+55) is accepted.
        match digits.strip_prefix(b"55") {
            Some(n) => n,
            None => return Err(DomainError::InvalidPhone),
        }
    } else {
        match (digits.len(), digits.first()) {
            // National with trunk prefix 0: 0 + DDD + number (a DDD never starts with 0).
            (11 | 12, Some(b'0')) => &digits[1..],
            // Country code without the plus: 55 + DDD + number.
            (12 | 13, Some(_)) => match digits.strip_prefix(b"55") {
                Some(n) => n,
                None => return Err(DomainError::InvalidPhone),
            },
            _ => &digits,
        }
    };
    if !(10..=11).contains(&national.len()) {
        return Err(DomainError::InvalidPhone);
    }
    let mobile = check_national(national)?;
    let mut e164 = String::with_capacity(14);
    e164.push_str("+55");
    e164.extend(national.iter().map(|&b| char::from(b)));
    Ok((e164, mobile))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_mobile_shapes() {
        for input in [
            "+5511912345678",
            "+55 (11) 91234-5678",
            "+55 11 91234 5678",
            "(11) 91234-5678",
            "11912345678",
            "11 9 1234-5678",
            "5511912345678",
            "011912345678",
            " (11)91234.5678 ",
        ] {
            assert_eq!(parse_phone(input).unwrap(), "+5511912345678", "{input}");
            assert_eq!(parse_mobile(input).unwrap(), "+5511912345678", "{input}");
        }
    }

    #[test]
    fn accepted_landline_shapes() {
        for input in [
            "1133334444",
            "(11) 3333-4444",
            "+551133334444",
            "+55 (11) 3333-4444",
            "551133334444",
            "01133334444",
        ] {
            assert_eq!(parse_phone(input).unwrap(), "+551133334444", "{input}");
        }
        assert_eq!(parse_phone("2125551234").unwrap(), "+552125551234");
        assert_eq!(parse_phone("(61) 4444-5555").unwrap(), "+556144445555");
        assert_eq!(parse_phone("(55) 5555-5555").unwrap(), "+555555555555");
    }

    #[test]
    fn landline_is_not_mobile() {
        assert_eq!(parse_mobile("1133334444"), Err(DomainError::NotMobile));
        assert_eq!(parse_mobile("+551133334444"), Err(DomainError::NotMobile));
    }

    #[test]
    fn bad_ddd() {
        assert_eq!(parse_phone("(20) 91234-5678"), Err(DomainError::InvalidDdd));
        assert_eq!(parse_phone("+552091234567 8"), Err(DomainError::InvalidDdd));
        assert_eq!(parse_phone("2033334444"), Err(DomainError::InvalidDdd));
        assert_eq!(parse_phone("(10) 91234-5678"), Err(DomainError::InvalidDdd));
        assert_eq!(parse_phone("(23) 91234-5678"), Err(DomainError::InvalidDdd));
        assert_eq!(parse_phone("(36) 91234-5678"), Err(DomainError::InvalidDdd));
        assert_eq!(parse_phone("(56) 91234-5678"), Err(DomainError::InvalidDdd));
        assert_eq!(parse_mobile("(20) 91234-5678"), Err(DomainError::InvalidDdd));
    }

    #[test]
    fn every_ddd_in_the_pattern() {
        let valid: Vec<u32> = (11..=99)
            .filter(|n| {
                let s = n.to_string();
                let b = s.as_bytes();
                valid_ddd(b[0], b[1])
            })
            .collect();
        assert_eq!(valid.len(), 71);
        for n in [11, 19, 21, 22, 24, 27, 28, 31, 35, 37, 38, 41, 51, 55, 61, 99] {
            assert!(valid.contains(&n), "{n}");
        }
        for n in [20, 23, 25, 26, 29, 30, 36, 39, 40, 50, 56, 60, 70, 80, 90] {
            assert!(!valid.contains(&n), "{n}");
        }
    }

    #[test]
    fn eight_digit_mobile_rejected() {
        // Pre-2016 mobile numbers had 8 digits; they now need the leading 9.
        assert_eq!(parse_phone("(11) 9123-4567"), Err(DomainError::InvalidPhone));
        assert_eq!(parse_phone("+55 11 8123-4567"), Err(DomainError::InvalidPhone));
        assert_eq!(parse_mobile("1181234567"), Err(DomainError::InvalidPhone));
    }

    #[test]
    fn other_bad_numbers() {
        for bad in [
            "+1 212 555 1234",
            "+44 20 7946 0958",
            "(11) 81234-5678", // 9 digits not starting with 9
            "(11) 1333-4444",  // landline starting with 1
            "(11) 6333-4444",  // landline starting with 6
            "11 91234-567",
            "11 91234-56789",
            "911912345678",
            "+55",
            "+55 11",
            "++5511912345678",
            "11-91234-5678x",
            "１１912345678",
            "+5511912345678901234567890",
            "00000000000",
        ] {
            assert!(parse_phone(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_phone(""), Err(DomainError::Empty));
        assert_eq!(parse_phone("  "), Err(DomainError::Empty));
        assert_eq!(parse_phone(&"1".repeat(100_000)), Err(DomainError::InvalidPhone));
    }

    #[test]
    fn is_mobile_checks_stored_values() {
        assert!(is_mobile("+5511912345678"));
        assert!(!is_mobile("+551133334444"));
        assert!(!is_mobile("+5520912345678"));
        assert!(!is_mobile("5511912345678"));
        assert!(!is_mobile("+55 11912345678"));
        assert!(!is_mobile("+551191234567"));
        assert!(!is_mobile(""));
        assert!(!is_mobile("+55é"));
    }

    #[test]
    fn formatting() {
        assert_eq!(format_phone("+5511912345678"), "(11) 91234-5678");
        assert_eq!(format_phone("+551133334444"), "(11) 3333-4444");
        assert_eq!(format_phone("garbage"), "garbage");
        assert_eq!(format_phone("+55"), "+55");
    }
}
