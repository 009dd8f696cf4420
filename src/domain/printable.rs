//! The characters a document can print: those of the font the PDFs are set in (DejaVu Sans and
//! its bold, as subset in fonts/), which cover Latin, Greek and Cyrillic.
//!
//! Text a document prints (a debtor's name and address, a charge's description) is refused when
//! saved if it holds a character outside these, so no document shows a replacement glyph for
//! a name. `crate::documents` tests that this table is exactly the fonts' coverage.

use unicode_normalization::UnicodeNormalization;

use super::error::DomainError;

/// Code point ranges (inclusive) that both the regular and the bold font map to a glyph.
#[rustfmt::skip]
pub const RANGES: [(u32, u32); 58] = [
    (0x0020, 0x007E), (0x00A0, 0x02E9), (0x02EC, 0x02EE), (0x02F3, 0x02F3), (0x02F7, 0x02F7), (0x0300, 0x034F),
    (0x0351, 0x0353), (0x0357, 0x0358), (0x035A, 0x035A), (0x035C, 0x0362), (0x0370, 0x0377), (0x037A, 0x037F),
    (0x0384, 0x038A), (0x038C, 0x038C), (0x038E, 0x03A1), (0x03A3, 0x0525), (0x1E00, 0x1EFB), (0x1F00, 0x1F15),
    (0x1F18, 0x1F1D), (0x1F20, 0x1F45), (0x1F48, 0x1F4D), (0x1F50, 0x1F57), (0x1F59, 0x1F59), (0x1F5B, 0x1F5B),
    (0x1F5D, 0x1F5D), (0x1F5F, 0x1F7D), (0x1F80, 0x1FB4), (0x1FB6, 0x1FC4), (0x1FC6, 0x1FD3), (0x1FD6, 0x1FDB),
    (0x1FDD, 0x1FEF), (0x1FF2, 0x1FF4), (0x1FF6, 0x1FFE), (0x2000, 0x2064), (0x206A, 0x206F), (0x20A0, 0x20B5),
    (0x20B8, 0x20BA), (0x20BD, 0x20BD), (0x2100, 0x2109), (0x210B, 0x2149), (0x214B, 0x214B), (0x214E, 0x214E),
    (0x2212, 0x2212), (0x2C60, 0x2C77), (0x2C79, 0x2C7F), (0xA722, 0xA72B), (0xA730, 0xA741), (0xA746, 0xA74B),
    (0xA74E, 0xA753), (0xA756, 0xA757), (0xA764, 0xA767), (0xA780, 0xA783), (0xA789, 0xA78E), (0xA790, 0xA791),
    (0xA7A0, 0xA7AA), (0xA7F8, 0xA7FF), (0xFB00, 0xFB06), (0xFFFD, 0xFFFD),
];

/// Whether the documents' font has a glyph for `c`.
pub fn printable(c: char) -> bool {
    let code = u32::from(c);
    let at = RANGES.partition_point(|&(_, last)| last < code);
    RANGES.get(at).is_some_and(|&(first, _)| first <= code)
}

/// The first character of `text` the documents cannot print, after composing accents as a
/// document does (a letter sent as base and combining accent prints as the one letter). Line
/// breaks and other controls are not looked at: `text::check` rules on those.
pub fn first_unprintable(text: &str) -> Option<char> {
    text.nfc().find(|&c| !c.is_control() && !printable(c))
}

/// Refuses text a document would print with a character its font lacks.
pub fn check(text: &str) -> Result<(), DomainError> {
    match first_unprintable(text) {
        Some(c) => Err(DomainError::Unprintable(c)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_greek_and_cyrillic_print_and_the_rest_does_not() {
        assert_eq!(check("Łukasz Żółć Ørsted Ðorđe Σωκράτης Пётр"), Ok(()));
        assert_eq!(check("João Conceição, nº 1ª — “aspas” R$ 10,00 €"), Ok(()));
        assert_eq!(check("Joa\u{303}o\nlinha"), Ok(()));
        assert_eq!(check("Maria 日本"), Err(DomainError::Unprintable('日')));
        assert_eq!(first_unprintable("ok 😀"), Some('😀'));
        assert!(!printable('\u{1F600}') && printable('\u{FFFD}') && printable(' '));
        assert!(RANGES.windows(2).all(|w| w[0].1 < w[1].0 && w[0].0 <= w[0].1));
    }
}
