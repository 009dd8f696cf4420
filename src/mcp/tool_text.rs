//! A JSON answer as the text of a tool result: serde_json's pretty text (two spaces), with the
//! characters a model would not see (DEL, C1 controls, format characters) written as `\uXXXX`
//! escapes, given as a JSON string literal. The API lays an answer out as that string
//! ([`Layout::IndentedString`], serialised once); what is added here is the escaping of what a
//! model would not see.

use std::io;

use serde_json::Value;

use crate::api::{IndentedString, Layout};
use crate::domain::text::hidden;

/// A JSON value as indented text a model reads safely: text stored before input was checked may
/// hold DEL, C1 controls or format characters (bidi overrides, zero-width), which serde_json
/// writes raw. They are written as `\uXXXX` escapes instead, so the text is still the same JSON
/// once parsed, but nothing in it is invisible or reorders what is shown.
pub fn json_text(value: &Value) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    let mut out = Vec::with_capacity(text.len());
    // Outside strings JSON text is ASCII, so every hidden character is inside a string, where
    // the escape reads back as the same character.
    let _ = write_shown(&mut out, text.as_bytes(), b"\\u");
    String::from_utf8(out).unwrap_or_default()
}

/// A value as the JSON string literal of a tool's text item, quotes included: the string of
/// [`json_text`], in one pass through serde_json.
pub fn literal(value: &Value) -> Vec<u8> {
    let laid_out = Layout::IndentedString.write(value).expect("a Value serialises to a String");
    shown(laid_out.into_bytes())
}

/// An answer laid out as [`Layout::IndentedString`] as a tool's text: each hidden character
/// written as `\\uXXXX` (a `\uXXXX` escape in the text). Only a string holds one, and the
/// string's escapes are ASCII, so the literal is read as a whole; without one (nearly always) it
/// is given back as it is, not copied.
pub fn shown(literal: Vec<u8>) -> Vec<u8> {
    let Some((at, _)) = next_hidden(&literal, 0) else { return literal };
    let mut out = Vec::with_capacity(literal.len() + 64);
    out.extend_from_slice(&literal[..at]);
    let _ = write_shown(&mut out, &literal[at..], b"\\\\u");
    out
}

/// An endpoint's JSON answer (a stored idempotent one) as the JSON string literal of a tool's
/// text item: the same text as `json_text` of the parsed answer, transcoded straight into the
/// literal (no `Value` tree, no intermediate text). `None` when the bytes are not one JSON value.
pub fn endpoint_text(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut literal = Vec::with_capacity(bytes.len() + bytes.len() / 2 + 64);
    literal.push(b'"');
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let mut serializer = serde_json::Serializer::with_formatter(&mut literal, IndentedString::default());
    serde_transcode::transcode(&mut deserializer, &mut serializer).ok()?;
    deserializer.end().ok()?;
    literal.push(b'"');
    Some(shown(literal))
}

/// `text` with each [`hidden`] character written as `escape` followed by its UTF-16 units in
/// lowercase hex.
fn write_shown<W: ?Sized + io::Write>(out: &mut W, text: &[u8], escape: &[u8]) -> io::Result<()> {
    let mut copied = 0;
    while let Some((at, c)) = next_hidden(text, copied) {
        out.write_all(&text[copied..at])?;
        for unit in c.encode_utf16(&mut [0u16; 2]) {
            out.write_all(escape)?;
            write!(out, "{unit:04x}")?;
        }
        copied = at + c.len_utf8();
    }
    out.write_all(&text[copied..])
}

/// The first [`hidden`] character of UTF-8 `text` from `from` (where a character starts) on, and
/// where it starts. Only a byte from 0x7f (DEL) up can start one: the ASCII between is skipped a
/// run at a time, and each other character looked at once.
fn next_hidden(text: &[u8], mut from: usize) -> Option<(usize, char)> {
    while let Some(offset) = text.get(from..)?.iter().position(|&b| b >= 0x7f) {
        let at = from + offset;
        let len = match text[at] {
            b if b >= 0xf0 => 4,
            b if b >= 0xe0 => 3,
            b if b >= 0xc0 => 2,
            _ => 1,
        };
        match text.get(at..at + len).and_then(|c| std::str::from_utf8(c).ok()).and_then(|c| c.chars().next())
        {
            Some(c) if hidden(c) => return Some((at, c)),
            _ => from = at + len,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::domain::text::is_format;

    #[test]
    fn invisible_characters_are_escaped_and_the_json_is_unchanged() {
        let value = json!({
            "name": "Maria\u{202e}anele\u{200b}\u{feff}\u{2066}",
            "note": "a\u{85}b\u{7f}c\u{0}\n\u{e0041}",
            "plain": "José 🎉",
        });
        let text = json_text(&value);
        assert!(text.contains(r"Maria\u202eanele\u200b\ufeff\u2066"), "{text}");
        assert!(text.contains(r"a\u0085b\u007fc\u0000\n\udb40\udc41"), "{text}");
        assert!(text.contains("José 🎉"), "{text}");
        assert!(!text.chars().any(|c| is_format(c) || (c.is_control() && c != '\n')), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
        assert_eq!(json_text(&json!({"a": 1})), serde_json::to_string_pretty(&json!({"a": 1})).unwrap());
    }

    #[test]
    fn hidden_characters_are_escaped_wherever_they_fall_in_the_words_scanned() {
        let base = "0123456789abcdefghijklmnopq";
        for c in ['\u{7f}', '\u{85}', '\u{ad}', '\u{e9}', '\u{202e}', '\u{feff}', '🎉', '\u{e0041}'] {
            for at in 0..=base.len() {
                for neighbour in ["", "ç", "\u{200b}"] {
                    let text = format!("{}{c}{neighbour}{}", &base[..at], &base[at..]);
                    for escape in ["\\u", "\\\\u"] {
                        assert_eq!(escaped(&text, escape), escaped_reference(&text, escape), "{text:?}");
                    }
                }
            }
        }
        assert_eq!(escaped("", "\\u"), "");
        assert_eq!(escaped("José", "\\u"), "José");
    }

    fn escaped(text: &str, escape: &str) -> String {
        let mut out = Vec::new();
        write_shown(&mut out, text.as_bytes(), escape.as_bytes()).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Each hidden character of `text` written as `escape` and its UTF-16 units, a character at
    /// a time: the reference for [`write_shown`].
    fn escaped_reference(text: &str, escape: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            if hidden(c) {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("{escape}{unit:04x}"));
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    /// `json_text` as it was first written, a character at a time: the reference.
    fn json_text_reference(value: &Value) -> String {
        escaped_reference(&serde_json::to_string_pretty(value).unwrap(), "\\u")
    }

    #[test]
    fn endpoint_answers_become_the_same_text_as_through_a_value() {
        let value = json!({
            "data": {
                "name": "Maria\u{202e}anele\u{200b}\u{7f}\u{85} José 🎉\u{e0041}",
                "quoted": "a\"b\\c\n\t\r\u{1}\u{8}\u{c}\u{1f} </script>",
                "k\u{2066}ey": 1850.5,
                "int": -3,
                "big": 1e300,
                "small": 0.001,
                "empty": {},
                "list": [],
                "nested": [1, { "a": null, "b": [true, false] }],
                "soft\u{ad}hyphen": "a\u{ad}b ção",
            },
            "meta": { "total": 18446744073709551615u64 }
        });
        // Deeper than the indentation copied at once.
        let mut deep = json!({ "leaf": [1, "x"] });
        for depth in 0..40 {
            deep = if depth % 2 == 0 { json!([deep]) } else { json!({ "d": deep }) };
        }
        for bytes in [
            serde_json::to_vec(&value).unwrap(),
            serde_json::to_vec_pretty(&value).unwrap(),
            serde_json::to_vec(&deep).unwrap(),
        ] {
            let literal = endpoint_text(&bytes).unwrap();
            let text: String = serde_json::from_slice(&literal).unwrap();
            let parsed: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(text, json_text_reference(&parsed));
            assert_eq!(text, json_text(&parsed));
            // The literal is what serde_json writes for that text.
            assert_eq!(literal, serde_json::to_vec(&text).unwrap());
        }
        // Forms serde_json does not write read the same.
        for odd in [
            &br#"{"a":"\/\u00e9\u0008\u001F","b" : [ {} , [ ] ,{"c":[1,2]}]}"#[..],
            br#"[[],{},"x\u0001y\"\\"]"#,
            b" 12 ",
            br#""\u200b""#,
        ] {
            let literal = endpoint_text(odd).unwrap();
            let text: String = serde_json::from_slice(&literal).unwrap();
            let parsed: Value = serde_json::from_slice(odd).unwrap();
            assert_eq!(text, json_text_reference(&parsed), "{}", String::from_utf8_lossy(odd));
        }
        // Not one JSON value.
        for bad in [
            &b"{} {}"[..],
            br#"{"a" 1}"#,
            br#"{"a":1,}"#,
            br#"[1 2]"#,
            br#"[1,]"#,
            br#"{1:2}"#,
            br#"{"a":tru}"#,
            br#"{"a":01}"#,
            br#"{"a":1.}"#,
            br#"{"a":-}"#,
            br#"{"a":1e}"#,
            br#"[}"#,
            br#"{"a":[1}]"#,
            br#"{"a"}"#,
            b"]",
            b"nul",
        ] {
            assert!(endpoint_text(bad).is_none(), "{}", String::from_utf8_lossy(bad));
        }
        for good in [&b"true"[..], b"-0.5e+10", b"[null,false,1E2]", br#"{"a":{"b":[]}}"#] {
            assert!(endpoint_text(good).is_some(), "{}", String::from_utf8_lossy(good));
        }
        assert!(endpoint_text(b"{} x").is_none());
        assert!(endpoint_text(br#"{"a":1"#).is_none());
        assert!(endpoint_text(b"<html>").is_none());
        assert!(endpoint_text(b"").is_none());
    }

    #[test]
    fn an_answer_serialised_straight_to_its_text_matches_the_transcoded_rest_body() {
        #[derive(serde::Serialize)]
        struct Typed {
            id: &'static str,
            amount: f64,
            paid_at: Option<&'static str>,
            tags: Vec<&'static str>,
            metadata: Value,
        }
        let typed = Typed {
            id: "chg_1",
            amount: 1850.5,
            paid_at: None,
            tags: vec!["a\"b", "\u{202e}x\u{7f}\u{9f}"],
            metadata: json!({ "k\u{2066}": [1, -2.25, {}, []], "n": "x\u{1}\n\t\u{8}y", "e": {} }),
        };
        let value = json!({
            "data": {
                "name": "Maria\u{202e}anele\u{200b}\u{7f}\u{85} José 🎉\u{e0041}",
                "quoted": "a\"b\\c\n\t\r\u{1}\u{8}\u{c}\u{1f} </script>",
                "big": 1e300,
                "small": 0.001,
                "list": [],
                "nested": [1, { "a": null, "b": [true, false] }],
            },
            "meta": { "total": 18446744073709551615u64 }
        });
        // Deeper than the indentation written at once.
        let mut deep = json!({ "leaf": [1, "x"], "next": {} });
        for depth in 0..40 {
            deep = if depth % 2 == 0 { json!([deep, 2]) } else { json!({ "d": deep, "e": [] }) };
        }
        // What a tools/call does: the answer laid out by the API, then shown.
        fn typed_literal<T: serde::Serialize>(value: &T) -> Vec<u8> {
            shown(Layout::IndentedString.write(value).unwrap().into_bytes())
        }
        for literal in [typed_literal(&typed), typed_literal(&value), typed_literal(&deep)] {
            let text: String = serde_json::from_slice(&literal).unwrap();
            let parsed: Value = serde_json::from_str(&text).unwrap();
            let rest = serde_json::to_vec(&parsed).unwrap();
            assert_eq!(literal, endpoint_text(&rest).unwrap(), "{text}");
        }
        assert_eq!(typed_literal(&typed), endpoint_text(&serde_json::to_vec(&typed).unwrap()).unwrap());
    }

    /// Text of every kind an answer may hold: plain, escaped by JSON, hidden, and neither.
    fn text() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "a",
            "José",
            "🎉",
            "\"",
            "\\",
            "/",
            "\n",
            "\t",
            "\u{1}",
            "\u{8}",
            "\u{c}",
            "\u{1f}",
            "\u{7f}",
            "\u{85}",
            "\u{9f}",
            "\u{ad}",
            "\u{200b}",
            "\u{202e}",
            "\u{2066}",
            "\u{feff}",
            "\u{e0041}",
            " ",
        ]);
        prop::collection::vec(pieces, 0..12).prop_map(|pieces| pieces.concat())
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            text().prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((text(), inner), 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// The formatter against the crate: serde_json's pretty text, its hidden characters
        /// escaped a character at a time, written as a string by serde_json.
        #[test]
        fn a_tool_text_is_serde_jsons_pretty_text_as_a_string(value in value()) {
            let expected = serde_json::to_string(&json_text_reference(&value)).unwrap();
            prop_assert_eq!(literal(&value), expected.clone().into_bytes());
            let compact = serde_json::to_vec(&value).unwrap();
            prop_assert_eq!(endpoint_text(&compact).unwrap(), expected.into_bytes());
        }
    }
}
