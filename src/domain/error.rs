//! The error type of the domain layer.
//!
//! Every message is written as a predicate in English, so a caller can prefix it with the field
//! name (`document` + " is not a valid CPF: check digits do not match") and show it to API users
//! as a `VALIDATION_ERROR` detail. No variant carries the rejected input: messages never echo
//! documents, phones or e-mails back (LGPD), so they are safe to log and to return.

/// A rejected value. Messages are safe to show to API users and to log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    /// The input is empty or only whitespace.
    #[error("must not be empty")]
    Empty,

    // --- CPF / CNPJ -----------------------------------------------------------------------
    /// An 11-digit document whose check digits do not match.
    #[error("is not a valid CPF: check digits do not match")]
    InvalidCpf,
    /// A 14-character document whose check digits do not match.
    #[error("is not a valid CNPJ: check digits do not match")]
    InvalidCnpj,
    /// Neither 11 nor 14 significant characters.
    #[error("must be a CPF (11 digits) or a CNPJ (14 characters)")]
    DocumentLength,
    /// A character outside digits, letters and the `.` `-` `/` punctuation, or a letter where
    /// only digits are allowed (anywhere in a CPF, in the last 2 positions of a CNPJ).
    #[error(
        "must contain only digits (a CNPJ may also have letters in its first 12 characters) \
         and the punctuation . - /"
    )]
    DocumentCharacters,
    /// A CPF or CNPJ made of a single repeated digit, such as `111.111.111-11`.
    #[error("must not consist of a single repeated digit")]
    RepeatedDigits,

    // --- Address --------------------------------------------------------------------------
    /// Not a CEP in the form `99999999` or `99999-999`.
    #[error("must be a CEP of 8 digits, e.g. 01310-100")]
    InvalidCep,
    /// Not one of the 27 state codes.
    #[error("must be one of the 27 Brazilian state codes (UF), e.g. SP")]
    InvalidUf,

    // --- Phone ----------------------------------------------------------------------------
    /// Not a Brazilian phone number in a recognised shape.
    #[error(
        "must be a Brazilian phone number: area code (DDD) plus a 9-digit mobile starting \
         with 9 or an 8-digit landline starting with 2 to 5, e.g. +5511912345678"
    )]
    InvalidPhone,
    /// The area code (DDD) does not exist.
    #[error("has an area code (DDD) that does not exist in Brazil")]
    InvalidDdd,
    /// A valid phone number that is a landline where a mobile is required.
    #[error("must be a mobile number (9 digits starting with 9 after the area code)")]
    NotMobile,

    // --- E-mail ---------------------------------------------------------------------------
    /// Not an e-mail address of the form `local@domain.tld`.
    #[error("is not a valid e-mail address")]
    InvalidEmail,
    /// Longer than 80 characters.
    #[error("must be at most 80 characters")]
    EmailTooLong,

    // --- Money and percentages ------------------------------------------------------------
    /// Not a JSON number (strings such as `"10.00"` are rejected too).
    #[error("must be a number in reais, e.g. 1250.00")]
    NotANumber,
    /// More than two decimal places; amounts are never rounded.
    #[error("must have at most 2 decimal places, e.g. 1250.50")]
    TooManyDecimals,
    /// Zero or negative where a positive amount is required.
    #[error("must be greater than 0")]
    NotPositive,
    /// Above the cap for a single amount (99,999,999.99).
    #[error("must be at most 99999999.99")]
    AmountTooLarge,
    /// Too large (in magnitude) to be represented exactly as a JSON number.
    #[error("is too large to be represented exactly")]
    AmountOutOfRange,
    /// A percentage outside 0 to 100.
    #[error("must be between 0 and 100")]
    PercentageOutOfRange,

    // --- Text -----------------------------------------------------------------------------
    /// A control character (C0, DEL, C1) in one-line text, newlines included.
    #[error("must be a single line without control characters")]
    NotOneLine,
    /// A control character other than a newline in free text.
    #[error("must not contain control characters (only newlines are allowed)")]
    ControlCharacter,
    /// A bidi embedding, override, isolate or mark, which reorders what people see.
    #[error("must not contain bidirectional control characters")]
    BidiCharacter,
    /// A zero-width character, which hides in what people see.
    #[error("must not contain zero-width characters")]
    ZeroWidthCharacter,
    /// Another invisible format character (soft hyphen, tag characters, invisible operators).
    #[error("must not contain invisible format characters")]
    FormatCharacter,
    /// A name without any letter (only punctuation, digits or invisible characters).
    #[error("must contain a letter")]
    NoLetter,
    /// A character the documents' font has no glyph for (outside Latin, Greek and Cyrillic),
    /// which a PDF would print as a box. The character is named so the caller can find it.
    #[error("contains '{0}' (U+{code:04X}), which the documents' font cannot print", code = u32::from(*.0))]
    Unprintable(char),

    // --- Dates ----------------------------------------------------------------------------
    /// Not a calendar date in the strict `YYYY-MM-DD` form.
    #[error("must be a date as YYYY-MM-DD, e.g. 2026-12-17")]
    InvalidDate,
    /// Not an RFC 3339 timestamp.
    #[error("must be an RFC 3339 timestamp, e.g. 2026-11-29T19:32:50Z")]
    InvalidTimestamp,
    /// A real date too far from today for a debt (and for the date arithmetic of a régua).
    #[error("must be a day from 1900-01-01 to 2199-12-31")]
    DateOutOfRange,
    /// Not a time zone of the IANA database.
    #[error("must be an IANA time zone name, e.g. America/Sao_Paulo or America/Manaus")]
    InvalidTimeZone,
}

#[cfg(test)]
mod tests {
    use super::DomainError;

    #[test]
    fn messages_are_predicates_for_api_users() {
        assert_eq!(DomainError::InvalidCpf.to_string(), "is not a valid CPF: check digits do not match");
        assert_eq!(
            DomainError::DocumentLength.to_string(),
            "must be a CPF (11 digits) or a CNPJ (14 characters)"
        );
        assert_eq!(
            DomainError::TooManyDecimals.to_string(),
            "must have at most 2 decimal places, e.g. 1250.50"
        );
    }

    #[test]
    fn every_message_starts_with_a_verb() {
        let all = [
            DomainError::Empty,
            DomainError::InvalidCpf,
            DomainError::InvalidCnpj,
            DomainError::DocumentLength,
            DomainError::DocumentCharacters,
            DomainError::RepeatedDigits,
            DomainError::InvalidCep,
            DomainError::InvalidUf,
            DomainError::InvalidPhone,
            DomainError::InvalidDdd,
            DomainError::NotMobile,
            DomainError::InvalidEmail,
            DomainError::EmailTooLong,
            DomainError::NotANumber,
            DomainError::TooManyDecimals,
            DomainError::NotPositive,
            DomainError::AmountTooLarge,
            DomainError::AmountOutOfRange,
            DomainError::PercentageOutOfRange,
            DomainError::NotOneLine,
            DomainError::ControlCharacter,
            DomainError::BidiCharacter,
            DomainError::ZeroWidthCharacter,
            DomainError::FormatCharacter,
            DomainError::NoLetter,
            DomainError::InvalidDate,
            DomainError::DateOutOfRange,
            DomainError::InvalidTimestamp,
            DomainError::InvalidTimeZone,
        ];
        for e in all {
            let m = e.to_string();
            assert!(m.starts_with("is ") || m.starts_with("must ") || m.starts_with("has "), "{m}");
        }
    }
}
