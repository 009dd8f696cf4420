//! CPF and CNPJ: the Brazilian taxpayer numbers of people and companies.
//!
//! Rules:
//! - CPF: 11 digits; check digits are mod 11 over the first 9 digits with weights 10..2, then
//!   over 10 digits with weights 11..2; a remainder below 2 gives 0, else 11 − remainder.
//!   All-equal strings such as `111.111.111-11` are rejected.
//! - CNPJ: 14 characters; DV1 uses weights `5,4,3,2,9,8,7,6,5,4,3,2` over the 12-character
//!   base, DV2 weights `6,5,4,3,2,9,8,7,6,5,4,3,2` over 13; remainder 0 or 1 gives 0, else
//!   11 − remainder. All-equal strings are rejected (`00000000000000` passes mod 11).
//! - CNPJ alfanumérico (IN RFB 2.229/2024, from July 2026): the first 12 positions may be
//!   `[0-9A-Z]`, the last 2 stay numeric, and each character's value is its ASCII code − 48
//!   (`0`=0 … `9`=9, `A`=17 … `Z`=42). Letters are uppercased, never stripped.
//!
//! Input may carry `.`, `-`, `/` and spaces; the stored value keeps only digits and letters.

use std::fmt;

use super::error::DomainError;

/// Who a document belongs to: a person (CPF, `natural`) or a company (CNPJ, `legal`); the
/// spec's `PersonType`.
pub use crate::types::PersonType;

/// A validated CPF or CNPJ.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Document {
    /// `Natural` for a CPF, `Legal` for a CNPJ.
    pub person_type: PersonType,
    /// Normalised value: 11 digits for a CPF; 14 uppercase characters for a CNPJ (letters only
    /// in the first 12, the last 2 are digits).
    pub value: String,
}

impl Document {
    /// The usual punctuated form: `529.982.247-25` or `11.222.333/0001-81`.
    pub fn formatted(&self) -> String {
        format_document(&self.value)
    }
}

impl fmt::Display for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.formatted())
    }
}

const CPF_LEN: usize = 11;
const CNPJ_LEN: usize = 14;
const CNPJ_DV1_WEIGHTS: [u32; 12] = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_DV2_WEIGHTS: [u32; 13] = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/// Parses a CPF or CNPJ, with or without punctuation (`.`, `-`, `/`, spaces).
///
/// Lowercase CNPJ letters are uppercased. The person type follows from the length: 11
/// characters is a CPF, 14 a CNPJ.
pub fn parse_document(input: &str) -> Result<Document, DomainError> {
    let mut chars: Vec<u8> = Vec::with_capacity(CNPJ_LEN);
    for c in input.chars() {
        match c {
            '.' | '-' | '/' | ' ' | '\t' => {}
            c if c.is_ascii_alphanumeric() => {
                if chars.len() > CNPJ_LEN {
                    // Already too long; keep scanning only to report bad characters first.
                    continue;
                }
                // `c` is ASCII, so the cast is lossless.
                chars.push(c.to_ascii_uppercase() as u8);
            }
            _ => return Err(DomainError::DocumentCharacters),
        }
    }
    match chars.len() {
        0 => Err(DomainError::Empty),
        CPF_LEN => parse_cpf(&chars),
        CNPJ_LEN => parse_cnpj(&chars),
        _ => Err(DomainError::DocumentLength),
    }
}

fn all_equal(chars: &[u8]) -> bool {
    chars.windows(2).all(|w| w[0] == w[1])
}

fn to_string(chars: &[u8]) -> String {
    chars.iter().map(|&b| char::from(b)).collect()
}

fn parse_cpf(chars: &[u8]) -> Result<Document, DomainError> {
    if !chars.iter().all(u8::is_ascii_digit) {
        return Err(DomainError::DocumentCharacters);
    }
    if all_equal(chars) {
        return Err(DomainError::RepeatedDigits);
    }
    let digits: Vec<u32> = chars.iter().map(|&b| u32::from(b - b'0')).collect();
    let dv = |n: usize| -> u32 {
        // Weights n+1 down to 2 over the first n digits.
        let sum: u32 = digits.iter().take(n).zip((2..=n as u32 + 1).rev()).map(|(d, w)| d * w).sum();
        let r = sum % 11;
        if r < 2 { 0 } else { 11 - r }
    };
    if digits.get(9) != Some(&dv(9)) || digits.get(10) != Some(&dv(10)) {
        return Err(DomainError::InvalidCpf);
    }
    Ok(Document { person_type: PersonType::Natural, value: to_string(chars) })
}

/// The value of a CNPJ character: ASCII code − 48 (`0`..`9` = 0..9, `A`..`Z` = 17..42).
fn cnpj_value(b: u8) -> u32 {
    u32::from(b).saturating_sub(48)
}

fn cnpj_dv(base: &[u8], weights: &[u32]) -> u32 {
    let sum: u32 = base.iter().zip(weights).map(|(&b, w)| cnpj_value(b) * w).sum();
    let r = sum % 11;
    if r < 2 { 0 } else { 11 - r }
}

fn parse_cnpj(chars: &[u8]) -> Result<Document, DomainError> {
    let (base, dvs) = chars.split_at(12);
    // Letters are allowed in the base only; the check digits are always numeric.
    if !base.iter().all(u8::is_ascii_alphanumeric) || !dvs.iter().all(u8::is_ascii_digit) {
        return Err(DomainError::DocumentCharacters);
    }
    if all_equal(chars) {
        return Err(DomainError::RepeatedDigits);
    }
    let dv1 = cnpj_dv(base, &CNPJ_DV1_WEIGHTS);
    let dv2 = cnpj_dv(&chars[..13], &CNPJ_DV2_WEIGHTS);
    let given: Vec<u32> = dvs.iter().map(|&b| u32::from(b - b'0')).collect();
    if given != [dv1, dv2] {
        return Err(DomainError::InvalidCnpj);
    }
    Ok(Document { person_type: PersonType::Legal, value: to_string(chars) })
}

/// Formats a stored (normalised) document value: 11 characters as a CPF
/// (`529.982.247-25`), 14 as a CNPJ (`11.222.333/0001-81`). Anything else is returned
/// unchanged, so this never fails on unexpected stored data.
pub fn format_document(value: &str) -> String {
    if !value.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return value.to_owned();
    }
    // All ASCII, so byte slicing lands on character boundaries.
    let v = value;
    match v.len() {
        CPF_LEN => format!("{}.{}.{}-{}", &v[0..3], &v[3..6], &v[6..9], &v[9..11]),
        CNPJ_LEN => format!("{}.{}.{}/{}-{}", &v[0..2], &v[2..5], &v[5..8], &v[8..12], &v[12..14]),
        _ => value.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_cpfs() {
        for (input, value) in [
            ("52998224725", "52998224725"),
            ("529.982.247-25", "52998224725"),
            ("11144477735", "11144477735"),
            (" 111.444.777-35 ", "11144477735"),
            ("111 444 777 35", "11144477735"),
            // Remainder 1 gives check digit 0 (DV1 here, DV2 in the next one).
            ("123.456.789-09", "12345678909"),
            ("987.654.321-00", "98765432100"),
            ("390.533.447-05", "39053344705"),
        ] {
            let d = parse_document(input).unwrap();
            assert_eq!(d.person_type, PersonType::Natural, "{input}");
            assert_eq!(d.value, value, "{input}");
        }
    }

    #[test]
    fn cpf_with_wrong_check_digits() {
        assert_eq!(parse_document("52998224724"), Err(DomainError::InvalidCpf));
        assert_eq!(parse_document("52998224715"), Err(DomainError::InvalidCpf));
        assert_eq!(parse_document("111.444.777-36"), Err(DomainError::InvalidCpf));
    }

    #[test]
    fn cpf_all_equal_rejected() {
        // 111.111.111-11 passes the check digit algorithm; the rule rejects it anyway.
        for d in 0..=9 {
            let s = d.to_string().repeat(11);
            assert_eq!(parse_document(&s), Err(DomainError::RepeatedDigits), "{s}");
        }
        assert_eq!(parse_document("111.111.111-11"), Err(DomainError::RepeatedDigits));
    }

    #[test]
    fn cpf_with_letters_rejected() {
        assert_eq!(parse_document("5299822472A"), Err(DomainError::DocumentCharacters));
    }

    #[test]
    fn numeric_cnpj() {
        for input in ["11222333000181", "11.222.333/0001-81", "11 222 333 0001 81"] {
            let d = parse_document(input).unwrap();
            assert_eq!(d.person_type, PersonType::Legal);
            assert_eq!(d.value, "11222333000181");
            assert_eq!(d.formatted(), "11.222.333/0001-81");
        }
        // Banco do Brasil: both remainders 0.
        assert_eq!(parse_document("00.000.000/0001-91").map(|d| d.value), Ok("00000000000191".to_owned()));
        assert_eq!(parse_document("11222333000182"), Err(DomainError::InvalidCnpj));
        assert_eq!(parse_document("11222333000191"), Err(DomainError::InvalidCnpj));
    }

    #[test]
    fn cnpj_all_equal_rejected() {
        assert_eq!(parse_document("00000000000000"), Err(DomainError::RepeatedDigits));
        assert_eq!(parse_document("00.000.000/0000-00"), Err(DomainError::RepeatedDigits));
        assert_eq!(parse_document("77777777777777"), Err(DomainError::RepeatedDigits));
    }

    #[test]
    fn alphanumeric_cnpj() {
        // Base 12ABC34501DE: values 1,2,17,18,19,3,4,5,0,1,20,21.
        // DV1: sum 459, 459 % 11 = 8, 11 - 8 = 3. DV2: sum 424, 424 % 11 = 6, 11 - 6 = 5.
        let d = parse_document("12.ABC.345/01DE-35").unwrap();
        assert_eq!(d.person_type, PersonType::Legal);
        assert_eq!(d.value, "12ABC34501DE35");
        assert_eq!(d.formatted(), "12.ABC.345/01DE-35");
        assert_eq!(cnpj_dv(b"12ABC34501DE", &CNPJ_DV1_WEIGHTS), 3);
        assert_eq!(cnpj_dv(b"12ABC34501DE3", &CNPJ_DV2_WEIGHTS), 5);
        // DV1 remainder 1 gives 0; a base made only of letters.
        assert!(parse_document("00000000000A04").is_ok());
        assert!(parse_document("ABCDEFGHIJKL80").is_ok());
        assert_eq!(parse_document("ABCDEFGHIJKL81"), Err(DomainError::InvalidCnpj));
        assert_eq!(parse_document("12ABC34501DE36"), Err(DomainError::InvalidCnpj));
        assert_eq!(parse_document("12ABC34501DF35"), Err(DomainError::InvalidCnpj));
    }

    #[test]
    fn alphanumeric_cnpj_lowercase_is_normalised() {
        let d = parse_document("12.abc.345/01de-35").unwrap();
        assert_eq!(d.value, "12ABC34501DE35");
        let d = parse_document("12aBc34501dE35").unwrap();
        assert_eq!(d.value, "12ABC34501DE35");
    }

    #[test]
    fn cnpj_letters_in_check_digits_rejected() {
        assert_eq!(parse_document("12ABC34501DE3A"), Err(DomainError::DocumentCharacters));
    }

    #[test]
    fn bad_lengths_and_characters() {
        assert_eq!(parse_document(""), Err(DomainError::Empty));
        assert_eq!(parse_document(" .-/ "), Err(DomainError::Empty));
        assert_eq!(parse_document("5299822472"), Err(DomainError::DocumentLength));
        assert_eq!(parse_document("529982247250"), Err(DomainError::DocumentLength));
        assert_eq!(parse_document("112223330001810"), Err(DomainError::DocumentLength));
        assert_eq!(parse_document(&"1".repeat(10_000)), Err(DomainError::DocumentLength));
        assert_eq!(parse_document("529_982_247_25"), Err(DomainError::DocumentCharacters));
        assert_eq!(parse_document("529.982.247-2５"), Err(DomainError::DocumentCharacters));
        assert_eq!(parse_document("12ÁBC34501DE35"), Err(DomainError::DocumentCharacters));
    }

    #[test]
    fn formatting() {
        let d = parse_document("52998224725").unwrap();
        assert_eq!(d.formatted(), "529.982.247-25");
        assert_eq!(d.to_string(), "529.982.247-25");
        assert_eq!(format_document("11144477735"), "111.444.777-35");
        assert_eq!(format_document("11222333000181"), "11.222.333/0001-81");
        // Unexpected stored data comes back unchanged rather than panicking.
        assert_eq!(format_document("123"), "123");
        assert_eq!(format_document("ááááá"), "ááááá");
        assert_eq!(format_document("1234567890é"), "1234567890é");
        assert_eq!(format_document(""), "");
    }

    #[test]
    fn person_type_strings() {
        assert_eq!(PersonType::Natural.as_str(), "natural");
        assert_eq!(PersonType::Legal.as_str(), "legal");
        assert_eq!("legal".parse::<PersonType>(), Ok(PersonType::Legal));
        assert_eq!("natural".parse::<PersonType>(), Ok(PersonType::Natural));
        assert_eq!("company".parse::<PersonType>(), Err(crate::types::UnknownValue));
    }
}
