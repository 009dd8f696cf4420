//! Pix "copia e cola": the BR Code, Banco Central's profile of the EMV merchant-presented QR
//! code. A string of fields, each a two-digit id, a two-digit length and the value; templates
//! (26 to 51, 62) nest fields the same way; the last field (63) is a CRC16-CCITT of everything
//! before its value.

use super::money::cents_from_decimal;

/// Why a BR Code is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PixError {
    #[error("is not a sequence of EMV fields (two-digit id, two-digit length, value) from character {0}")]
    Fields(usize),
    #[error("must start with the payload format field 000201")]
    Format,
    #[error("lacks field {0} ({1})")]
    Missing(&'static str, &'static str),
    #[error("has no Pix account (a template with the GUI br.gov.bcb.pix and a key or URL)")]
    NotPix,
    #[error("must end with its CRC (6304 and four hex digits)")]
    NoCrc,
    #[error("has the CRC {found} but its content gives {expected}: it was changed or cut")]
    Crc { found: String, expected: String },
    #[error("has the amount {0}, which is not reais with 2 decimals")]
    AmountForm(String),
    #[error("is for R$ {0} but the charge's balance is R$ {1}")]
    Amount(String, String),
}

/// What a BR Code says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrCode {
    /// The receiver's key (static code) or the payload URL (dynamic code).
    pub key: String,
    /// The amount in centavos, when the code fixes one.
    pub amount_cents: Option<i64>,
    /// The reference label (field 62, subfield 05), when not `***`.
    pub txid: Option<String>,
    pub merchant_name: String,
    pub merchant_city: String,
}

const GUI: &str = "br.gov.bcb.pix";

impl BrCode {
    /// Reads and checks a BR Code: its fields, the Pix account, the mandatory fields and the CRC.
    pub fn parse(code: &str) -> Result<Self, PixError> {
        let code = code.trim();
        let body_end = code.len().saturating_sub(4);
        let crc_field = body_end.checked_sub(4).and_then(|at| code.get(at..body_end));
        let (Some("6304"), Some(found)) = (crc_field, code.get(body_end..)) else {
            return Err(PixError::NoCrc);
        };
        let found = found.to_ascii_uppercase();
        let expected = format!("{:04X}", crc16(&code.as_bytes()[..body_end]));
        if found != expected {
            return Err(PixError::Crc { found, expected });
        }
        let fields = fields(code)?;
        if fields.first() != Some(&("00", "01")) {
            return Err(PixError::Format);
        }
        let get = |id: &'static str, what: &'static str| {
            fields.iter().find(|(i, _)| *i == id).map(|(_, v)| *v).ok_or(PixError::Missing(id, what))
        };
        let key = fields
            .iter()
            .filter(|(id, _)| ("26"..="51").contains(id))
            .filter_map(|(_, value)| fields_of(value).ok())
            .find(|sub| sub.iter().any(|(id, v)| *id == "00" && v.eq_ignore_ascii_case(GUI)))
            .and_then(|sub| sub.iter().find(|(id, _)| *id == "01" || *id == "25").map(|(_, v)| v.to_string()))
            .ok_or(PixError::NotPix)?;
        get("52", "merchant category code")?;
        get("53", "currency")?;
        get("58", "country code")?;
        let merchant_name = get("59", "merchant name")?.to_string();
        let merchant_city = get("60", "merchant city")?.to_string();
        let amount_cents = match fields.iter().find(|(id, _)| *id == "54") {
            Some((_, text)) => {
                Some(cents_from_decimal(text).ok_or_else(|| PixError::AmountForm(text.to_string()))?)
            }
            None => None,
        };
        let txid = fields
            .iter()
            .find(|(id, _)| *id == "62")
            .and_then(|(_, value)| fields_of(value).ok())
            .and_then(|sub| sub.iter().find(|(id, _)| *id == "05").map(|(_, v)| v.to_string()))
            .filter(|t| t != "***");
        Ok(Self { key, amount_cents, txid, merchant_name, merchant_city })
    }

    /// Checks that a code that fixes an amount asks for the charge's balance.
    pub fn check_against(&self, balance_cents: i64) -> Result<(), PixError> {
        match self.amount_cents {
            Some(amount) if amount != balance_cents => Err(PixError::Amount(
                crate::domain::money::format_brl(amount),
                crate::domain::money::format_brl(balance_cents),
            )),
            _ => Ok(()),
        }
    }
}

/// A static BR Code for `amount_cents` to `key`, labelled `txid` (up to 25 letters and digits);
/// the name (up to 25 characters) and city (up to 15) are written without accents, as the
/// layout asks.
///
/// Written into one buffer, lengths counted as it goes: every charge view carries one, and
/// building each field with `format!` was a sixth of a GET's instructions.
pub fn static_code(key: &str, name: &str, city: &str, amount_cents: i64, txid: &str) -> String {
    debug_assert!(amount_cents > 0, "a code is made for a balance to pay");
    let (name, city) = (plain(name, 25), plain(city, 15));
    let mut reais = itoa::Buffer::new();
    let reais = reais.format(amount_cents / 100);
    let cents = amount_cents % 100;
    let mut code = String::with_capacity(200);
    push_field(&mut code, "00", "01");
    push_field(&mut code, "01", "11");
    push_head(&mut code, "26", field_len(GUI) + field_len(key));
    push_field(&mut code, "00", GUI);
    push_field(&mut code, "01", key);
    push_field(&mut code, "52", "0000");
    push_field(&mut code, "53", "986");
    push_head(&mut code, "54", reais.len() + 3);
    code.push_str(reais);
    code.push('.');
    push_two_digits(&mut code, cents as usize);
    push_field(&mut code, "58", "BR");
    push_field(&mut code, "59", &name);
    push_field(&mut code, "60", &city);
    push_head(&mut code, "62", field_len(txid));
    push_field(&mut code, "05", txid);
    code.push_str("6304");
    let crc = crc16(code.as_bytes());
    for shift in [12, 8, 4, 0] {
        code.push(char::from(b"0123456789ABCDEF"[usize::from((crc >> shift) & 0xf)]));
    }
    code
}

/// The length of a whole field holding `value`: its id, its length and the value.
fn field_len(value: &str) -> usize {
    4 + value.chars().count()
}

/// A field's id and the length (in characters) of the value that follows.
fn push_head(code: &mut String, id: &str, len: usize) {
    code.push_str(id);
    push_two_digits(code, len);
}

fn push_field(code: &mut String, id: &str, value: &str) {
    push_head(code, id, value.chars().count());
    code.push_str(value);
}

/// Two decimal digits; every length and the cents are below 100 (a key has at most 77
/// characters, so the account template at most 99).
fn push_two_digits(code: &mut String, n: usize) {
    code.push(char::from(b'0' + (n / 10 % 10) as u8));
    code.push(char::from(b'0' + (n % 10) as u8));
}

/// Upper-case ASCII without accents, at most `max` characters.
pub(crate) fn plain(text: &str, max: usize) -> String {
    use unicode_normalization::UnicodeNormalization;
    // Most names are ASCII already: nothing to decompose.
    let ascii: String = if text.is_ascii() {
        text.chars().filter(|c| !c.is_ascii_control()).map(|c| c.to_ascii_uppercase()).take(max).collect()
    } else {
        text.nfd()
            .filter(|c| c.is_ascii() && !c.is_ascii_control())
            .map(|c| c.to_ascii_uppercase())
            .take(max)
            .collect()
    };
    ascii.trim().to_string()
}

/// The top-level fields of a code (the CRC's included), as (id, value).
fn fields(code: &str) -> Result<Vec<(&str, &str)>, PixError> {
    fields_of(code).map_err(PixError::Fields)
}

/// The fields of a string of EMV fields; the character where they stop making sense otherwise.
fn fields_of(text: &str) -> Result<Vec<(&str, &str)>, usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let head = text.get(at..at + 4).ok_or(at)?;
        if !head.bytes().all(|b| b.is_ascii_digit()) {
            return Err(at);
        }
        let len: usize = head[2..].parse().map_err(|_| at)?;
        // Lengths count characters; values past ASCII are rare but allowed.
        let start = at + 4;
        let end = text[start..].char_indices().nth(len).map_or(text.len(), |(i, _)| start + i);
        if text[start..end].chars().count() != len {
            return Err(at);
        }
        out.push((&head[..2], &text[start..end]));
        at = end;
    }
    Ok(out)
}

/// CRC16-CCITT as the BR Code uses it: polynomial 0x1021, initial value 0xFFFF, no reflection.
pub fn crc16(bytes: &[u8]) -> u16 {
    bytes.iter().fold(0xFFFF_u16, |crc, &byte| {
        (0..8).fold(crc ^ (u16::from(byte) << 8), |crc, _| {
            if crc & 0x8000 != 0 { (crc << 1) ^ 0x1021 } else { crc << 1 }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The static code of Banco Central's BR Code manual.
    const MANUAL: &str = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

    #[test]
    fn the_manuals_example_reads() {
        let code = BrCode::parse(MANUAL).unwrap();
        assert_eq!(code.key, "123e4567-e12b-12d1-a456-426655440000");
        assert_eq!((code.amount_cents, code.txid.as_deref()), (None, None));
        assert_eq!((code.merchant_name.as_str(), code.merchant_city.as_str()), ("Fulano de Tal", "BRASILIA"));
    }

    #[test]
    fn a_changed_character_breaks_the_crc() {
        let changed = MANUAL.replace("Fulano", "Fulana");
        assert!(matches!(BrCode::parse(&changed), Err(PixError::Crc { .. })));
        assert_eq!(BrCode::parse(&MANUAL[..MANUAL.len() - 8]), Err(PixError::NoCrc));
        assert!(matches!(BrCode::parse("hello6304ABCD"), Err(PixError::Crc { .. })));
        for short in ["", "6304", "12345", "6304é", "ç6304ABCD"] {
            assert!(BrCode::parse(short).is_err(), "{short}");
        }
    }

    #[test]
    fn a_generated_code_reads_back() {
        let text =
            static_code("+5511912345678", "Padaria Pão Quente Ltda", "São Paulo", 12_345, "KD01A2B3C4");
        let code = BrCode::parse(&text).unwrap();
        assert_eq!(code.key, "+5511912345678");
        assert_eq!(code.amount_cents, Some(12_345));
        assert_eq!(code.txid.as_deref(), Some("KD01A2B3C4"));
        assert_eq!(
            (code.merchant_name.as_str(), code.merchant_city.as_str()),
            ("PADARIA PAO QUENTE LTDA", "SAO PAULO")
        );
        assert!(text.contains("540"), "{text}");
        assert_eq!(code.check_against(12_345), Ok(()));
        assert!(matches!(code.check_against(12_000), Err(PixError::Amount(..))));
    }

    /// Whatever is pasted, the answer is a code or an error, never a panic: cut, spliced and
    /// accented variants of a valid code.
    #[test]
    fn any_text_is_read_without_panicking() {
        let valid = static_code("chave@example.com", "José", "Belém", 1050, "TX1");
        let chars: Vec<char> = valid.chars().chain("çé€0963".chars()).collect();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..5000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 160) as usize;
            let text: String =
                (0..len).map(|i| chars[(state as usize).wrapping_add(i * 7919) % chars.len()]).collect();
            let _ = BrCode::parse(&text);
            let _ = BrCode::parse(&valid[..(state as usize) % valid.len()]);
        }
    }

    /// The code as first written, field by field with `format!`: the reference.
    fn static_code_reference(key: &str, name: &str, city: &str, amount_cents: i64, txid: &str) -> String {
        fn field(id: &str, value: &str) -> String {
            format!("{id}{:02}{value}", value.chars().count())
        }
        let account = [field("00", GUI), field("01", key)].concat();
        let amount = format!("{}.{:02}", amount_cents / 100, amount_cents % 100);
        let mut code = [
            field("00", "01"),
            field("01", "11"),
            field("26", &account),
            field("52", "0000"),
            field("53", "986"),
            field("54", &amount),
            field("58", "BR"),
            field("59", &plain_reference(name, 25)),
            field("60", &plain_reference(city, 15)),
            field("62", &field("05", txid)),
            "6304".to_string(),
        ]
        .concat();
        let crc = crc16(code.as_bytes());
        code.push_str(&format!("{crc:04X}"));
        code
    }

    fn plain_reference(text: &str, max: usize) -> String {
        use unicode_normalization::UnicodeNormalization;
        let ascii =
            text.nfd().filter(|c| c.is_ascii() && !c.is_ascii_control()).map(|c| c.to_ascii_uppercase());
        ascii.take(max).collect::<String>().trim().to_string()
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_code_is_the_one_written_field_by_field(
            key in "[a-z0-9@.+-]{1,77}",
            name in prop_oneof!["[A-Za-z \\t\\u{1}]{0,40}", "[A-Za-zÀ-ÿ ]{0,40}"],
            city in "[A-Za-zÀ-ÿ ]{0,20}",
            amount_cents in 1i64..10_000_000_000,
            txid in "[A-Z0-9]{1,25}",
        ) {
            let code = static_code(&key, &name, &city, amount_cents, &txid);
            prop_assert_eq!(&code, &static_code_reference(&key, &name, &city, amount_cents, &txid));
            prop_assert!(BrCode::parse(&code).is_ok(), "{}", code);
        }
    }

    #[test]
    fn amounts_are_reais_with_two_decimals() {
        assert_eq!(cents_from_decimal("10.50"), Some(1050));
        assert_eq!(cents_from_decimal("10.5"), Some(1050));
        assert_eq!(cents_from_decimal("10"), Some(1000));
        assert_eq!(cents_from_decimal("10,50"), None);
        assert_eq!(cents_from_decimal("1.005"), None);
        assert_eq!(cents_from_decimal(""), None);
    }
}
