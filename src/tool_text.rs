//! A JSON answer as the text of a tool result: indented by two spaces, with the characters a model
//! would not see (DEL, C1 controls, format characters) written as `\uXXXX` escapes, and written as
//! the inside of a JSON string literal. Kept outside `mcp` so that the /v1 adapter can serialise a
//! tool's answer straight into this form, once.

use std::io;

use serde::Serialize;
use serde_json::Value;

use crate::domain::text::hidden;
use crate::swar::word_below_del;

/// JSON text with each [`hidden`] character written as `escape` followed by its UTF-16 units
/// in lowercase hex: `\u` in JSON text, `\\u` in the inside of a string literal of it. Outside
/// strings JSON text is ASCII, so every such character is inside a string, where the escape
/// reads back as the same character. Done once over the finished text rather than per string
/// fragment (a call and a check for each of a charge's forty strings): only bytes from
/// 0x7f up can start a hidden character, and those are found eight bytes at a time.
fn escape_hidden(text: String, escape: &str) -> String {
    let bytes = text.as_bytes();
    let mut escaped: Option<String> = None;
    let (mut copied, mut at) = (0, 0);
    while let Some(found) = first_from_del(&bytes[at..]) {
        // `at` is always a character boundary, so the first byte from 0x7f up leads one.
        let start = at + found;
        let Some(c) = text[start..].chars().next() else { break };
        at = start + c.len_utf8();
        if hidden(c) {
            let out = escaped.get_or_insert_with(|| String::with_capacity(text.len() + 16));
            out.push_str(&text[copied..start]);
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(escape);
                crate::json_writer::push_hex(out, *unit, 4);
            }
            copied = at;
        }
    }
    match escaped {
        Some(mut out) => {
            out.push_str(&text[copied..]);
            out
        }
        None => text,
    }
}

/// The index of the first byte from 0x7f (DEL) up, eight bytes at a time.
fn first_from_del(bytes: &[u8]) -> Option<usize> {
    let (words, _) = bytes.as_chunks::<8>();
    let clean = words.iter().take_while(|word| word_below_del(**word)).count();
    let from = clean * 8;
    bytes[from..].iter().position(|&b| b >= 0x7f).map(|i| from + i)
}

/// A JSON value as indented text a model reads safely: text stored before input was checked may
/// hold DEL, C1 controls or format characters (bidi overrides, zero-width), which serde_json
/// writes raw. They are written as `\uXXXX` escapes instead, so the text is still the same JSON
/// once parsed, but nothing in it is invisible or reorders what is shown.
pub fn json_text(value: &Value) -> String {
    escape_hidden(serde_json::to_string_pretty(value).unwrap_or_default(), "\\u")
}

/// Writes what it is given as the inside of a JSON string literal (serde_json's escapes).
pub struct StringBody<'a>(pub &'a mut Vec<u8>);

impl io::Write for StringBody<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let out = &mut *self.0;
        let mut plain = 0;
        for (at, &b) in bytes.iter().enumerate() {
            let escape: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0x08 => b"\\b",
                0x0c => b"\\f",
                0..=0x1f => b"",
                _ => continue,
            };
            out.extend_from_slice(&bytes[plain..at]);
            if escape.is_empty() {
                out.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 0xf)],
                ]);
            } else {
                out.extend_from_slice(escape);
            }
            plain = at + 1;
        }
        out.extend_from_slice(&bytes[plain..]);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A serialisable answer as the JSON string literal of a tool's text item, quotes included:
/// the same text as [`json_text`] of the answer parsed back, without the compact text between.
pub fn literal<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    // A charge's literal is some 1,200 bytes: room for it at once, not a copy when it grows,
    // and for the JSON-RPC envelope the answer writes around it in this buffer.
    let mut literal = String::with_capacity(2048);
    literal.push('"');
    crate::json_writer::write_literal(&mut literal, value)?;
    literal.push('"');
    Ok(literal)
}

/// An endpoint's JSON answer as the JSON string literal of a tool's text item: the same text
/// as `json_text` of the parsed answer, written by transcoding the bytes straight into the
/// literal (no `Value` tree, no intermediate text). `None` when the bytes are not one JSON
/// value.
pub fn endpoint_text(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut literal = Vec::with_capacity(bytes.len() + bytes.len() / 2 + 64);
    literal.push(b'"');
    if reindent(bytes, &mut literal).is_some() {
        literal.push(b'"');
        return Some(literal);
    }
    literal.truncate(1);
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let mut serializer = serde_json::Serializer::pretty(StringBody(&mut literal));
    serde_transcode::transcode(&mut deserializer, &mut serializer).ok()?;
    deserializer.end().ok()?;
    literal.push(b'"');
    let literal = String::from_utf8(literal).ok()?;
    Some(escape_hidden(literal, "\\\\u").into_bytes())
}

/// What the JSON grammar allows next, as [`reindent`] walks the bytes.
#[derive(Clone, Copy, PartialEq)]
enum Next {
    Value,
    Key,
    Colon,
    CommaOrClose,
    /// The one top-level value is complete.
    End,
}

/// The fast path of [`endpoint_text`]: JSON as serde_json writes it (every answer of this
/// server) re-indented in one pass over its bytes, straight into the inside of a string literal,
/// checking the grammar as it goes (one pass: no separate validation of the answer). For
/// serde_json's own output the result is what the transcoder writes for the same bytes. Numbers
/// are copied as written (serde_json writes them in the form it reads back); a string escape
/// serde_json would not have written, such as `\/` or `\u00e9`, gives `None` (and a partial
/// output), and the transcoder normalises it. Bytes that are not one JSON value give `None`.
fn reindent(json: &[u8], out: &mut Vec<u8>) -> Option<()> {
    /// A new line and its indentation, in one copy while the depth allows (a copy of two
    /// spaces per level cost a third of the re-indentation).
    fn newline(out: &mut Vec<u8>, depth: usize) {
        const INDENTED: &[u8] = b"\\n                                                              ";
        match INDENTED.get(..2 + 2 * depth) {
            Some(line) => out.extend_from_slice(line),
            None => {
                out.extend_from_slice(b"\\n");
                out.resize(out.len() + 2 * depth, b' ');
            }
        }
    }
    let mut open: Vec<u8> = Vec::with_capacity(8);
    let mut next = Next::Value;
    let after_value = |open: &[u8]| if open.is_empty() { Next::End } else { Next::CommaOrClose };
    let mut i = 0;
    while let Some(&b) = json.get(i) {
        match b {
            b' ' | b'\n' | b'\r' | b'\t' => {}
            b'{' | b'[' if next == Next::Value => {
                let close = if b == b'{' { b'}' } else { b']' };
                let first = i + 1 + json[i + 1..].iter().position(|c| !c.is_ascii_whitespace())?;
                out.push(b);
                if json[first] == close {
                    out.push(close);
                    i = first;
                    next = after_value(&open);
                } else {
                    open.push(close);
                    newline(out, open.len());
                    next = if b == b'{' { Next::Key } else { Next::Value };
                }
            }
            b'}' | b']' if next == Next::CommaOrClose && open.last() == Some(&b) => {
                open.pop();
                newline(out, open.len());
                out.push(b);
                next = after_value(&open);
            }
            b',' if next == Next::CommaOrClose => {
                out.push(b',');
                newline(out, open.len());
                next = if open.last() == Some(&b'}') { Next::Key } else { Next::Value };
            }
            b':' if next == Next::Colon => {
                out.extend_from_slice(b": ");
                next = Next::Value;
            }
            b'"' if next == Next::Key => {
                i = string(json, i, out)?;
                next = Next::Colon;
            }
            b'"' if next == Next::Value => {
                i = string(json, i, out)?;
                next = after_value(&open);
            }
            b'-' | b'0'..=b'9' | b't' | b'f' | b'n' if next == Next::Value => {
                let len = json[i..]
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))
                    .unwrap_or(json.len() - i);
                let scalar = &json[i..i + len];
                if !(matches!(scalar, b"true" | b"false" | b"null") || is_number(scalar)) {
                    return None;
                }
                out.extend_from_slice(scalar);
                i += len - 1;
                next = after_value(&open);
            }
            _ => return None,
        }
        i += 1;
    }
    (next == Next::End).then_some(())
}

/// A JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_number(text: &[u8]) -> bool {
    let digits = |rest: &[u8]| rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut rest = text.strip_prefix(b"-").unwrap_or(text);
    match rest.first() {
        Some(b'0') => rest = &rest[1..],
        Some(b'1'..=b'9') => rest = &rest[digits(rest)..],
        _ => return false,
    }
    if let Some(fraction) = rest.strip_prefix(b".") {
        let n = digits(fraction);
        if n == 0 {
            return false;
        }
        rest = &fraction[n..];
    }
    if let Some(exponent) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) {
        let exponent =
            exponent.strip_prefix(b"+").or_else(|| exponent.strip_prefix(b"-")).unwrap_or(exponent);
        let n = digits(exponent);
        if n == 0 {
            return false;
        }
        rest = &exponent[n..];
    }
    rest.is_empty()
}

/// Copies the string that starts at `json[start]` (a quote) into the literal; returns the
/// index of its closing quote.
fn string(json: &[u8], start: usize, out: &mut Vec<u8>) -> Option<usize> {
    out.extend_from_slice(b"\\\"");
    let mut i = start + 1;
    loop {
        let b = *json.get(i)?;
        match b {
            b'"' => {
                out.extend_from_slice(b"\\\"");
                return Some(i);
            }
            b'\\' => {
                // The escapes serde_json writes; the text keeps them, so the literal escapes
                // their backslash (and a quote or backslash after it).
                let e = *json.get(i + 1)?;
                match e {
                    b'"' | b'\\' => out.extend_from_slice(&[b'\\', b'\\', b'\\', e]),
                    b'n' | b'r' | b't' | b'b' | b'f' => out.extend_from_slice(&[b'\\', b'\\', e]),
                    b'u' => {
                        let hex = json.get(i + 2..i + 6)?;
                        // serde_json writes \u only for the other control characters.
                        let code = std::str::from_utf8(hex).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                        let canonical = code.is_some_and(|c| c < 0x20 && !matches!(c, 8 | 9 | 10 | 12 | 13))
                            && !hex.iter().any(u8::is_ascii_uppercase);
                        if !canonical {
                            return None;
                        }
                        out.extend_from_slice(b"\\\\u");
                        out.extend_from_slice(hex);
                        i += 4;
                    }
                    _ => return None,
                }
                i += 2;
            }
            0x7f => {
                out.extend_from_slice(b"\\\\u007f");
                i += 1;
            }
            0x80.. => {
                let width = utf8_width(b);
                let text = std::str::from_utf8(json.get(i..i + width)?).ok()?;
                let c = text.chars().next()?;
                if hidden(c) {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        out.extend_from_slice(format!("\\\\u{unit:04x}").as_bytes());
                    }
                } else {
                    out.extend_from_slice(text.as_bytes());
                }
                i += width;
            }
            0..=0x1f => return None,
            _ => {
                // A run of plain ASCII goes in one copy, not a push per byte.
                let mut end = i + 1;
                while json.get(end).is_some_and(|&c| PLAIN[usize::from(c)]) {
                    end += 1;
                }
                out.extend_from_slice(&json[i..end]);
                i = end;
            }
        }
    }
}

/// The bytes a string's text copies as they are: printable ASCII but the quote and the backslash.
static PLAIN: [bool; 256] = {
    let mut plain = [false; 256];
    let mut b = 0x20;
    while b < 0x7f {
        plain[b] = b != b'"' as usize && b != b'\\' as usize;
        b += 1;
    }
    plain
};

/// The length of the UTF-8 sequence a leading byte starts.
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xf0.. => 4,
        0xe0.. => 3,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
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
                        assert_eq!(
                            escape_hidden(text.clone(), escape),
                            escaped_reference(&text, escape),
                            "{text:?}"
                        );
                    }
                }
            }
        }
        assert_eq!(escape_hidden(String::new(), "\\u"), "");
        assert_eq!(escape_hidden("José".into(), "\\u"), "José");
    }

    /// Each hidden character of `text` written as `escape` and its UTF-16 units, a character at
    /// a time: the reference for [`escape_hidden`].
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
            assert!(
                reindent(&bytes, &mut Vec::new()).is_some(),
                "serde_json's own output takes the fast path"
            );
            let literal = endpoint_text(&bytes).unwrap();
            let text: String = serde_json::from_slice(&literal).unwrap();
            let parsed: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(text, json_text_reference(&parsed));
            assert_eq!(text, json_text(&parsed));
            // The literal is what serde_json writes for that text.
            assert_eq!(literal, serde_json::to_vec(&text).unwrap());
        }
        // Forms serde_json does not write take the transcoder, and read the same.
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
        // Not one JSON value: the one pass refuses it, and so does the transcoder after it.
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
            assert!(reindent(bad, &mut Vec::new()).is_none(), "{}", String::from_utf8_lossy(bad));
            assert!(endpoint_text(bad).is_none(), "{}", String::from_utf8_lossy(bad));
        }
        for good in [&b"true"[..], b"-0.5e+10", b"[null,false,1E2]", br#"{"a":{"b":[]}}"#] {
            assert!(reindent(good, &mut Vec::new()).is_some(), "{}", String::from_utf8_lossy(good));
        }
        assert!(endpoint_text(b"{} x").is_none());
        assert!(endpoint_text(br#"{"a":1"#).is_none());
        assert!(endpoint_text(b"<html>").is_none());
        assert!(endpoint_text(b"").is_none());
    }

    #[test]
    fn an_answer_serialised_straight_to_its_text_matches_the_reindented_rest_body() {
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
}
