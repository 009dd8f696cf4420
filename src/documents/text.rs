//! Text as a page shows it: Unicode composed (NFC) and cleaned of what does not print, each
//! character one the documents' fonts have a glyph for.
//!
//! Text a document prints is refused when saved if its font lacks a character
//! (`domain::printable`); text saved before that rule still prints, with U+FFFD (a visible
//! replacement mark) for such a character, and `doctor` lists the rows that hold one.

use unicode_normalization::UnicodeNormalization;

use crate::domain::printable::printable;
use crate::domain::text::is_format;

/// What stands for a character the fonts have no glyph for.
const REPLACEMENT: char = '\u{FFFD}';

/// The ellipsis, which marks text cut to fit.
pub const ELLIPSIS: char = '…';

/// Text for a page. A newline stays `\n` (a line break for the layout); tabs and other control
/// characters become spaces, as do spaces of other widths (so lines break at them); invisible
/// format characters (soft hyphens, zero-width spaces, direction marks) are dropped.
pub fn encode(text: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(text.len());
    // NFC first, so a letter sent as base + combining accent is the one precomposed glyph.
    for c in text.nfc() {
        match c {
            '\n' | '\u{2028}' | '\u{2029}' => out.push('\n'),
            '\r' => {}
            c if c.is_control() => out.push(' '),
            c if is_format(c) => {}
            '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}' => out.push(' '),
            c if printable(c) => out.push(c),
            _ => out.push(REPLACEMENT),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(text: &str) -> String {
        encode(text).into_iter().collect()
    }

    #[test]
    fn latin_greek_and_cyrillic_stay_as_written() {
        let name = "Łukasz Żółć Ørsted Ðorđe Σωκράτης Пётр Erdős";
        assert_eq!(encoded(name), name);
        assert_eq!(encoded("“a” — b… • nº 1ª"), "“a” — b… • nº 1ª");
    }

    #[test]
    fn decomposed_accents_are_composed() {
        assert_eq!(encoded("Joa\u{303}o"), "João");
    }

    #[test]
    fn characters_the_fonts_lack_are_marked_never_dropped() {
        assert_eq!(encoded("Maria 日 😀"), "Maria \u{FFFD} \u{FFFD}");
    }

    #[test]
    fn controls_and_invisible_characters() {
        assert_eq!(encoded("a\tb\r\nc\u{0}d"), "a b\nc d");
        assert_eq!(encoded("in\u{ad}vi\u{200b}sí\u{202e}vel"), "invisível");
        assert_eq!(encoded("1\u{2003}2\u{202f}3"), "1 2 3");
    }
}
