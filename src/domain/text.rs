//! Text as the API accepts it: no control characters (a newline only in free text), no bidi
//! overrides and no zero-width characters.
//!
//! Those characters are invisible or reorder what people see: a name with U+202E reads
//! backwards on a statement, one made of U+200B looks empty, and control characters forge lines
//! in logs and prompts. The generated input types read every plain string field as [`Text`] or,
//! when the spec marks it `x-multiline: true` (descriptions, reasons), as [`MultilineText`], so
//! a request carrying them is a `VALIDATION_ERROR` naming the field.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Deref;

use super::error::DomainError;

/// Bidi embeddings, overrides and isolates, and the implicit direction marks.
fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// Characters that take no width: zero-width space, (non-)joiners, word joiner, BOM.
fn is_zero_width(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
}

/// Whether a character is written as a `\uXXXX` escape in text shown to a model
/// (`mcp::tool_text`): DEL, the C1 controls and the format characters, which text stored
/// before input was checked may hold.
pub fn hidden(c: char) -> bool {
    c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c) || is_format(c)
}

/// Unicode general category Cf (format characters, Unicode 15): invisible characters that
/// change how the text around them is shown. Written out to avoid a table dependency.
pub fn is_format(c: char) -> bool {
    // Below U+0600 (Latin, Greek, Cyrillic: most text this server sees) only the soft hyphen is.
    if c < '\u{0600}' {
        return c == '\u{00ad}';
    }
    matches!(
        c,
        '\u{0600}'..='\u{0605}'
            | '\u{061c}'
            | '\u{06dd}'
            | '\u{070f}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08e2}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0001}'
            | '\u{e0020}'..='\u{e007f}'
    )
}

/// Bytes this server wrote as ASCII (digits, hex) as a `String`: one check and one copy, where
/// `String::from_utf8_lossy` walked them in chunks (a percent of a request, callgrind).
/// Bytes that are not UTF-8 still come out, replaced, rather than lost.
pub fn ascii_string(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// Whether every byte is below DEL (0x7f): text with nothing [`is_format`] or C1 in it, which
/// is most of what is shown.
pub fn below_del(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| b < 0x7f)
}

/// Checks text for the characters the API refuses; `multiline` admits `\n`.
pub fn check(text: &str, multiline: bool) -> Result<(), DomainError> {
    for c in text.chars() {
        if c == '\n' && multiline {
            continue;
        }
        // `is_control` is category Cc: C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F). The
        // line and paragraph separators (Zl, Zp) break lines as well; `\n` is the only break.
        if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
            return Err(if multiline { DomainError::ControlCharacter } else { DomainError::NotOneLine });
        }
        if is_bidi(c) {
            return Err(DomainError::BidiCharacter);
        }
        if is_zero_width(c) {
            return Err(DomainError::ZeroWidthCharacter);
        }
        // Every other format character (soft hyphen, invisible operators, tag characters, …)
        // is invisible to people and not to models.
        if is_format(c) {
            return Err(DomainError::FormatCharacter);
        }
    }
    Ok(())
}

/// Whether the text has a letter a person can see (names must). The Hangul fillers are letters
/// to Unicode and blank on screen.
pub fn has_letter(text: &str) -> bool {
    text.chars().any(|c| c.is_alphabetic() && !matches!(c, '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}'))
}

macro_rules! text_type {
    ($(#[$doc:meta])* $name:ident, $multiline:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// Checks `text` and keeps it.
            pub fn new(text: impl Into<String>) -> Result<Self, DomainError> {
                let text = text.into();
                check(&text, $multiline)?;
                Ok(Self(text))
            }

            /// The text.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// The text, owned.
            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<$name> for String {
            fn from(text: $name) -> String {
                text.0
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                Self::new(text).map_err(serde::de::Error::custom)
            }
        }
    };
}

text_type!(
    /// One line of text: no control characters at all, no bidi or zero-width characters.
    Text,
    false
);

text_type!(
    /// Free text (descriptions, reasons): like [`Text`], but a newline is allowed.
    MultilineText,
    true
);

/// Checked texts as the plain strings the domain keeps.
pub fn strings<T: Into<String>>(texts: Vec<T>) -> Vec<String> {
    texts.into_iter().map(Into::into).collect()
}

/// A checked string map as the plain map the domain keeps.
pub fn string_map<K: Into<String>, V: Into<String>>(map: BTreeMap<K, V>) -> BTreeMap<String, String> {
    map.into_iter().map(|(k, v)| (k.into(), v.into())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_del_agrees_with_a_byte_by_byte_check_at_every_position() {
        let mut bytes = b"0123456789abcdefghijklmnopqrstuvwxyz ~!".to_vec();
        assert!(below_del(&bytes) && below_del(b"") && below_del(b"~"));
        for at in 0..bytes.len() {
            for b in [0x7f, 0x80, 0xc3, 0xff] {
                let saved = std::mem::replace(&mut bytes[at], b);
                for len in 0..=bytes.len() {
                    let slice = &bytes[..len];
                    assert_eq!(below_del(slice), slice.iter().all(|&x| x < 0x7f), "{at} {b:#x} {len}");
                }
                bytes[at] = saved;
            }
        }
    }

    #[test]
    fn ascii_strings_are_copied_and_other_bytes_replaced() {
        assert_eq!(ascii_string(b"2026-12-01T00:00:00.000000Z"), "2026-12-01T00:00:00.000000Z");
        assert_eq!(ascii_string(b"a\xffb"), "a\u{fffd}b");
    }

    #[test]
    fn plain_text_passes() {
        for s in ["Maria Souza", "José da Silva & Filhos Ltda.", "日本語", "", "emoji 🎉", "a\u{00a0}b"]
        {
            assert!(Text::new(s).is_ok(), "{s:?}");
            assert!(MultilineText::new(s).is_ok(), "{s:?}");
        }
    }

    #[test]
    fn control_characters_are_refused() {
        for s in [
            "a\u{0}b",
            "a\tb",
            "a\rb",
            "a\u{7f}",
            "a\u{85}b",
            "a\u{9b}b",
            "\u{1b}[31m",
            "a\u{2028}b",
            "a\u{2029}b",
        ] {
            assert_eq!(Text::new(s), Err(DomainError::NotOneLine), "{s:?}");
            assert_eq!(MultilineText::new(s), Err(DomainError::ControlCharacter), "{s:?}");
        }
        assert_eq!(Text::new("a\nb"), Err(DomainError::NotOneLine));
        assert_eq!(MultilineText::new("line 1\nline 2\n").map(String::from), Ok("line 1\nline 2\n".into()));
    }

    #[test]
    fn bidi_and_zero_width_characters_are_refused() {
        for c in ['\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{200e}', '\u{200f}', '\u{061c}'] {
            assert_eq!(Text::new(format!("a{c}b")), Err(DomainError::BidiCharacter), "{c:?}");
            assert_eq!(MultilineText::new(format!("a{c}b")), Err(DomainError::BidiCharacter), "{c:?}");
        }
        for c in ['\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}'] {
            assert_eq!(Text::new(format!("a{c}b")), Err(DomainError::ZeroWidthCharacter), "{c:?}");
        }
    }

    #[test]
    fn deserialising_names_the_rule_without_position_noise() {
        let err = serde_json::from_value::<Text>(serde_json::json!("a\u{202e}b")).unwrap_err();
        assert_eq!(err.to_string(), DomainError::BidiCharacter.to_string());
        let ok: MultilineText = serde_json::from_value(serde_json::json!("a\nb")).unwrap();
        assert_eq!(ok.as_str(), "a\nb");
    }

    #[test]
    fn letters_and_format_characters() {
        assert!(has_letter("Maria"));
        assert!(has_letter("日本"));
        assert!(!has_letter("..."));
        assert!(!has_letter("\u{200b}\u{200b}"));
        assert!(!has_letter("123 - 456"));
        for c in ['\u{00ad}', '\u{200b}', '\u{202e}', '\u{2066}', '\u{feff}', '\u{e0041}'] {
            assert!(is_format(c), "{c:?}");
        }
        for c in ['a', ' ', '\n', '\u{00a0}', 'é'] {
            assert!(!is_format(c), "{c:?}");
        }
    }
}
