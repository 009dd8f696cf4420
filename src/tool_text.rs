//! A JSON answer as the text of a tool result: serde_json's pretty text (two spaces), with the
//! characters a model would not see (DEL, C1 controls, format characters) written as `\uXXXX`
//! escapes, and written as the inside of a JSON string literal, in one pass through serde_json
//! with a [`Formatter`] of its own. Kept outside `mcp` so that the /v1 adapter can serialise a
//! tool's answer straight into this form, once.

use std::io;

use serde::Serialize;
use serde_json::Value;
use serde_json::ser::{CharEscape, Formatter};

use crate::domain::text::hidden;

/// A JSON value as indented text a model reads safely: text stored before input was checked may
/// hold DEL, C1 controls or format characters (bidi overrides, zero-width), which serde_json
/// writes raw. They are written as `\uXXXX` escapes instead, so the text is still the same JSON
/// once parsed, but nothing in it is invisible or reorders what is shown.
pub fn json_text(value: &Value) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    let mut shown = Vec::with_capacity(text.len());
    // Outside strings JSON text is ASCII, so every hidden character is inside a string, where
    // the escape reads back as the same character.
    let _ = write_shown(&mut shown, &text, b"\\u");
    String::from_utf8(shown).unwrap_or_default()
}

/// A serialisable answer as the JSON string literal of a tool's text item, quotes included:
/// the same text as [`json_text`] of the answer parsed back, without the compact text between.
pub fn literal<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    // A charge's literal is some 1,200 bytes: room for it at once, not a copy when it grows,
    // and for the JSON-RPC envelope the answer writes around it in this buffer.
    let mut literal = Vec::with_capacity(2048);
    literal.push(b'"');
    value.serialize(&mut serde_json::Serializer::with_formatter(&mut literal, Literal::default()))?;
    literal.push(b'"');
    // serde_json writes UTF-8, and the escapes around it are ASCII.
    String::from_utf8(literal).map_err(serde::ser::Error::custom)
}

/// An endpoint's JSON answer (a stored idempotent one) as the JSON string literal of a tool's
/// text item: the same text as `json_text` of the parsed answer, transcoded straight into the
/// literal (no `Value` tree, no intermediate text). `None` when the bytes are not one JSON value.
pub fn endpoint_text(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut literal = Vec::with_capacity(bytes.len() + bytes.len() / 2 + 64);
    literal.push(b'"');
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let mut serializer = serde_json::Serializer::with_formatter(&mut literal, Literal::default());
    serde_transcode::transcode(&mut deserializer, &mut serializer).ok()?;
    deserializer.end().ok()?;
    literal.push(b'"');
    Some(literal)
}

/// serde_json's pretty text (two spaces, as `to_string_pretty`) written as the inside of a JSON
/// string literal, in the same pass: the text's quotes and escapes escaped again, each new line
/// `\n`, and each [`hidden`] character as `\\uXXXX` (a `\uXXXX` escape in the text).
#[derive(Default)]
struct Literal {
    depth: usize,
    /// Whether the innermost open container has a value (its close goes on a new line).
    has_value: bool,
}

impl Literal {
    /// A new line of the text (`\n` in the literal), indented to the depth.
    fn newline<W: ?Sized + io::Write>(&self, out: &mut W, comma: bool) -> io::Result<()> {
        out.write_all(if comma { b",\\n" } else { b"\\n" })?;
        (0..self.depth).try_for_each(|_| out.write_all(b"  "))
    }

    fn open<W: ?Sized + io::Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(bracket)
    }

    fn close<W: ?Sized + io::Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.newline(out, false)?;
        }
        out.write_all(bracket)
    }
}

impl Formatter for Literal {
    fn begin_string<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b"\\\"")
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b"\\\"")
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        out: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        write_shown(out, fragment, b"\\\\u")
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        out: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        let escaped: &[u8] = match escape {
            CharEscape::Quote => b"\\\\\\\"",
            CharEscape::ReverseSolidus => b"\\\\\\\\",
            CharEscape::Solidus => b"\\\\/",
            CharEscape::Backspace => b"\\\\b",
            CharEscape::FormFeed => b"\\\\f",
            CharEscape::LineFeed => b"\\\\n",
            CharEscape::CarriageReturn => b"\\\\r",
            CharEscape::Tab => b"\\\\t",
            CharEscape::AsciiControl(byte) => return write!(out, "\\\\u{byte:04x}"),
        };
        out.write_all(escaped)
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.newline(out, !first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.newline(out, !first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `text` with each [`hidden`] character written as `escape` followed by its UTF-16 units in
/// lowercase hex. Only a byte from 0x7f (DEL) up can start one.
fn write_shown<W: ?Sized + io::Write>(out: &mut W, text: &str, escape: &[u8]) -> io::Result<()> {
    let Some(first) = text.bytes().position(|b| b >= 0x7f) else {
        return out.write_all(text.as_bytes());
    };
    let mut copied = 0;
    for (at, c) in text[first..].char_indices() {
        if hidden(c) {
            let at = first + at;
            out.write_all(&text.as_bytes()[copied..at])?;
            for unit in c.encode_utf16(&mut [0u16; 2]) {
                out.write_all(escape)?;
                write!(out, "{unit:04x}")?;
            }
            copied = at + c.len_utf8();
        }
    }
    out.write_all(&text.as_bytes()[copied..])
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
                        assert_eq!(shown(&text, escape), escaped_reference(&text, escape), "{text:?}");
                    }
                }
            }
        }
        assert_eq!(shown("", "\\u"), "");
        assert_eq!(shown("José", "\\u"), "José");
    }

    fn shown(text: &str, escape: &str) -> String {
        let mut out = Vec::new();
        write_shown(&mut out, text, escape.as_bytes()).unwrap();
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
        for literal in [
            crate::tool_text::literal(&typed).unwrap(),
            crate::tool_text::literal(&value).unwrap(),
            crate::tool_text::literal(&deep).unwrap(),
        ] {
            let text: String = serde_json::from_str(&literal).unwrap();
            let parsed: Value = serde_json::from_str(&text).unwrap();
            let rest = serde_json::to_vec(&parsed).unwrap();
            assert_eq!(literal.as_bytes(), endpoint_text(&rest).unwrap(), "{text}");
        }
        assert_eq!(
            crate::tool_text::literal(&typed).unwrap().as_bytes(),
            endpoint_text(&serde_json::to_vec(&typed).unwrap()).unwrap()
        );
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
            prop_assert_eq!(literal(&value).unwrap(), expected.clone());
            let compact = serde_json::to_vec(&value).unwrap();
            prop_assert_eq!(endpoint_text(&compact).unwrap(), expected.into_bytes());
        }
    }
}
