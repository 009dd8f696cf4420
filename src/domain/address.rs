//! CEP (postal code) and UF (state code) of a Brazilian address.
//!
//! Rules (from Kobana's own API): a CEP is 8 digits and is stored as `99999999`; the punctuated
//! forms `99999-999` and `99.999-999` are accepted and normalised.
//! A UF must be one of the 27 codes (26 states plus the Distrito Federal); Kobana rejects
//! anything else ("não está incluído na lista").

use super::error::DomainError;

/// The 27 federative units: 26 states and the Distrito Federal.
pub const UFS: [&str; 27] = [
    "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR", "PE",
    "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
];

/// Parses a CEP given as `99999999`, `99999-999` or `99.999-999` (surrounding whitespace is
/// ignored) and returns its 8 digits. `00000-000` does not exist and is rejected.
pub fn parse_cep(input: &str) -> Result<String, DomainError> {
    let s = input.trim();
    if s.is_empty() {
        return Err(DomainError::Empty);
    }
    let b = s.as_bytes();
    let digits: Vec<u8> = match b.len() {
        8 => b.to_vec(),
        9 if b[5] == b'-' => [&b[..5], &b[6..]].concat(),
        10 if b[2] == b'.' && b[6] == b'-' => [&b[..2], &b[3..6], &b[7..]].concat(),
        _ => return Err(DomainError::InvalidCep),
    };
    if digits.len() != 8 || !digits.iter().all(u8::is_ascii_digit) {
        return Err(DomainError::InvalidCep);
    }
    if digits.iter().all(|&d| d == b'0') {
        return Err(DomainError::InvalidCep);
    }
    Ok(digits.into_iter().map(char::from).collect())
}

/// Formats a stored 8-digit CEP as `99999-999`; anything else is returned unchanged.
pub fn format_cep(cep: &str) -> String {
    if cep.len() == 8 && cep.bytes().all(|b| b.is_ascii_digit()) {
        format!("{}-{}", &cep[..5], &cep[5..])
    } else {
        cep.to_owned()
    }
}

/// Parses a state code (case-insensitive, surrounding whitespace ignored) and returns it in
/// uppercase, e.g. `"sp"` -> `"SP"`.
pub fn parse_uf(input: &str) -> Result<String, DomainError> {
    let s = input.trim();
    if s.is_empty() {
        return Err(DomainError::Empty);
    }
    let upper = s.to_ascii_uppercase();
    if UFS.contains(&upper.as_str()) { Ok(upper) } else { Err(DomainError::InvalidUf) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cep_shapes() {
        assert_eq!(parse_cep("01310100").unwrap(), "01310100");
        assert_eq!(parse_cep("01310-100").unwrap(), "01310100");
        assert_eq!(parse_cep("01.310-100").unwrap(), "01310100");
        assert_eq!(parse_cep(" 20040-020\n").unwrap(), "20040020");
    }

    #[test]
    fn bad_ceps() {
        assert_eq!(parse_cep(""), Err(DomainError::Empty));
        assert_eq!(parse_cep("   "), Err(DomainError::Empty));
        for bad in [
            "0131010",
            "013101000",
            "01310 100",
            "0131-0100",
            "01310-10a",
            "ABCDEFGH",
            "01310--100",
            "00000-000",
            "01310‐100", // U+2010 hyphen, multi-byte
            "0131０100", // fullwidth digit
            "-01310100",
        ] {
            assert_eq!(parse_cep(bad), Err(DomainError::InvalidCep), "{bad:?}");
        }
    }

    #[test]
    fn cep_formatting() {
        assert_eq!(format_cep("01310100"), "01310-100");
        assert_eq!(format_cep("0131"), "0131");
        assert_eq!(format_cep("0131010é"), "0131010é");
    }

    #[test]
    fn ufs() {
        assert_eq!(UFS.len(), 27);
        for uf in UFS {
            assert_eq!(parse_uf(uf).unwrap(), uf);
            assert_eq!(parse_uf(&uf.to_lowercase()).unwrap(), uf);
        }
        assert_eq!(parse_uf(" rj ").unwrap(), "RJ");
        assert_eq!(parse_uf("Sp").unwrap(), "SP");
        assert_eq!(parse_uf(""), Err(DomainError::Empty));
        for bad in ["XX", "S", "SPP", "São Paulo", "GB", "FN", "ß"] {
            assert_eq!(parse_uf(bad), Err(DomainError::InvalidUf), "{bad:?}");
        }
    }
}
