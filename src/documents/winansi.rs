//! Text as the bytes a page shows: Unicode turned into WinAnsiEncoding, one byte per glyph.
//!
//! The documents' fonts are standard 14 fonts written with `/WinAnsiEncoding`, which covers
//! every letter of Portuguese (and of the other Western European languages), so text extracts
//! and searches as the Unicode it came from. A character outside it is replaced: by its base
//! letter when it is an accented one (`ő` -> `o`), by `?` otherwise, so no input fails to print.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::{decompose_canonical, is_combining_mark};

use crate::domain::text::is_format;

/// What stands for a character WinAnsiEncoding has no glyph for.
const REPLACEMENT: u8 = b'?';

/// The characters of codes 0x80 to 0x9F, where WinAnsiEncoding differs from Latin-1.
const WINDOWS_1252_HIGH: [(char, u8); 26] = [
    ('‚', 0x82),
    ('ƒ', 0x83),
    ('„', 0x84),
    ('…', 0x85),
    ('†', 0x86),
    ('‡', 0x87),
    ('ˆ', 0x88),
    ('‰', 0x89),
    ('Š', 0x8A),
    ('‹', 0x8B),
    ('Œ', 0x8C),
    ('Ž', 0x8E),
    ('‘', 0x91),
    ('’', 0x92),
    ('“', 0x93),
    ('”', 0x94),
    ('•', 0x95),
    ('–', 0x96),
    ('—', 0x97),
    ('˜', 0x98),
    ('™', 0x99),
    ('š', 0x9A),
    ('›', 0x9B),
    ('œ', 0x9C),
    ('ž', 0x9E),
    ('Ÿ', 0x9F),
];

/// The ellipsis, which marks text cut to fit.
pub const ELLIPSIS: u8 = 0x85;

/// Encodes text for a page. A newline stays `\n` (a line break for the layout); tabs and
/// other control characters become spaces; invisible format characters (soft hyphens,
/// zero-width spaces, direction marks) are dropped.
pub fn encode(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    // NFC first, so a letter sent as base + combining accent becomes the one precomposed
    // character WinAnsiEncoding has.
    for c in text.nfc() {
        match c {
            '\n' | '\u{2028}' | '\u{2029}' => out.push(b'\n'),
            '\r' => {}
            c if c.is_control() => out.push(b' '),
            c if is_format(c) => {}
            // Spaces of other widths, and hyphens WinAnsiEncoding lacks.
            '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}' => out.push(b' '),
            '\u{2010}' | '\u{2011}' | '\u{2212}' => out.push(b'-'),
            c => out.push(byte(c).or_else(|| base_letter(c)).unwrap_or(REPLACEMENT)),
        }
    }
    out
}

/// The WinAnsiEncoding code of a printable character, if it has one.
fn byte(c: char) -> Option<u8> {
    match u32::from(c) {
        code @ (0x20..=0x7E | 0xA0..=0xFF) => u8::try_from(code).ok(),
        _ => WINDOWS_1252_HIGH.iter().find(|&&(high, _)| high == c).map(|&(_, code)| code),
    }
}

/// The code of an accented letter's base letter, when it decomposes into one plus marks.
fn base_letter(c: char) -> Option<u8> {
    let mut base = None;
    let mut only_marks_follow = true;
    decompose_canonical(c, |part| match base {
        None => base = Some(part),
        Some(_) => only_marks_follow &= is_combining_mark(part),
    });
    base.filter(|&b| b != c && only_marks_follow).and_then(byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portuguese_letters_are_latin_1() {
        assert_eq!(encode("João Conceição"), b"Jo\xe3o Concei\xe7\xe3o");
        assert_eq!(encode("ÁÉÍÓÚ àâêô Ü"), b"\xc1\xc9\xcd\xd3\xda \xe0\xe2\xea\xf4 \xdc");
        assert_eq!(encode("nº 1ª"), b"n\xba 1\xaa");
    }

    #[test]
    fn decomposed_accents_are_composed() {
        assert_eq!(encode("Joa\u{303}o"), b"Jo\xe3o");
    }

    #[test]
    fn windows_1252_punctuation_has_its_codes() {
        assert_eq!(encode("“a” — b… •"), b"\x93a\x94 \x97 b\x85 \x95");
    }

    #[test]
    fn other_characters_are_replaced_never_dropped_silently() {
        // ő has no WinAnsi code but decomposes to o + double acute; Ł and 日 have no base.
        assert_eq!(encode("Erdős Łukasz 日"), b"Erdos ?ukasz ?");
        assert_eq!(encode("😀"), b"?");
    }

    #[test]
    fn controls_and_invisible_characters() {
        assert_eq!(encode("a\tb\r\nc\u{0}d"), b"a b\nc d");
        assert_eq!(encode("in\u{ad}vi\u{200b}sí\u{202e}vel"), b"invis\xedvel");
        assert_eq!(encode("1\u{2212}2\u{202f}3"), b"1-2 3");
    }
}
