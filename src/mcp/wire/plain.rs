//! The common request body read in one pass without serde: what every MCP client sends for a
//! tools/call (`{"jsonrpc":"2.0","id":1,"method":…,"params":{"name":…,"arguments":{…}}}`), with
//! no string escape, no fraction and no member a client response would carry.
//!
//! serde_json's generic walk of such a body (a visitor per member, a UTF-8 check per string, a
//! `Value` per envelope member) cost a tools/call about 5,000 instructions, a fifth of what the
//! call adds to a GET of the same charge (callgrind). This reader gives up (`None`) at
//! the first thing outside that shape, and [`Body::parse`](super::Body::parse) then reads the
//! body with serde, so the answer to anything unusual, and every parse error, stays serde's. For
//! the bodies it reads it builds the same [`Members`] serde does (a test holds the two together).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{FromMemberStr, Members, StringMember};
use crate::mcp::params::{Meta, Params, ParamsMember};

/// Deeper values are left to serde (whose own limit is 128).
const MAX_DEPTH: usize = 16;

/// The members of a body in the common shape, or `None` for serde to read it.
pub(super) fn members(text: &str) -> Option<Members> {
    let mut reader = Reader { bytes: text.as_bytes(), text, at: 0 };
    let mut members = Members::default();
    reader.object(|reader, key| {
        match key {
            "jsonrpc" => members.jsonrpc = Some(StringMember(Some(bool::from_member_str(reader.string()?)))),
            "id" => members.id = Some(reader.value(0)?),
            "method" => members.method = Some(StringMember(Some(Cow::from_member_str(reader.string()?)))),
            "params" => members.params = Some(ParamsMember::Object(reader.params()?)),
            // A client response, or a member JSON-RPC does not define: serde's to read.
            _ => return None,
        }
        Some(())
    })?;
    reader.skip_whitespace();
    (reader.at == reader.bytes.len()).then_some(members)
}

/// A position in the body.
struct Reader<'a> {
    bytes: &'a [u8],
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// The next byte after whitespace, not consumed.
    fn peek(&mut self) -> Option<u8> {
        self.skip_whitespace();
        self.bytes.get(self.at).copied()
    }

    /// Consumes `byte` when it comes next.
    fn eat(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        self.at += usize::from(next);
        next
    }

    /// An object's members, each key handed to `member`, which reads the value after the colon.
    fn object(&mut self, mut member: impl FnMut(&mut Self, &'a str) -> Option<()>) -> Option<()> {
        if !self.eat(b'{') {
            return None;
        }
        if self.eat(b'}') {
            return Some(());
        }
        loop {
            let key = self.string()?;
            if !self.eat(b':') {
                return None;
            }
            member(self, key)?;
            if self.eat(b'}') {
                return Some(());
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    /// A string without escapes or control characters (JSON forbids raw ones; serde reports it).
    fn string(&mut self) -> Option<&'a str> {
        if !self.eat(b'"') {
            return None;
        }
        let start = self.at;
        let len = crate::swar::first_needing_care(&self.bytes[start..])?;
        if self.bytes[start + len] != b'"' {
            return None;
        }
        self.at = start + len + 1;
        // The quotes are ASCII, so both ends are character boundaries of the text.
        self.text.get(start..start + len)
    }

    /// `params`: an object, its members kept as serde keeps them (`_meta` into [`Meta`]).
    fn params(&mut self) -> Option<Params> {
        let mut params = Params::default();
        self.object(|reader, key| {
            if key == "_meta" && reader.peek() == Some(b'{') {
                let mut meta = Meta::default();
                reader.object(|reader, key| {
                    meta.insert(key, reader.value(1)?);
                    Some(())
                })?;
                params.set_meta(meta);
            } else {
                params.insert(key, reader.value(0)?);
            }
            Some(())
        })?;
        Some(params)
    }

    /// Any value in the shape: strings without escapes, integers, `true`, `false`, `null`,
    /// arrays and objects of those.
    fn value(&mut self, depth: usize) -> Option<Value> {
        match self.peek()? {
            b'"' => self.string().map(|s| Value::String(s.to_string())),
            b'{' if depth < MAX_DEPTH => {
                let mut map = Map::new();
                self.object(|reader, key| {
                    let value = reader.value(depth + 1)?;
                    map.insert(key.to_string(), value);
                    Some(())
                })?;
                Some(Value::Object(map))
            }
            b'[' if depth < MAX_DEPTH => {
                self.at += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Some(Value::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Some(Value::Array(items));
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            b't' => self.word("true", Value::Bool(true)),
            b'f' => self.word("false", Value::Bool(false)),
            b'n' => self.word("null", Value::Null),
            b'-' | b'0'..=b'9' => self.integer(),
            _ => None,
        }
    }

    fn word(&mut self, word: &str, value: Value) -> Option<Value> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end) == Some(word.as_bytes())).then(|| {
            self.at = end;
            value
        })
    }

    /// An integer as serde_json reads one: a `u64`, or a negative `i64`. A fraction, an exponent,
    /// `-0` (a float to serde_json) or a number out of range is left to serde.
    fn integer(&mut self) -> Option<Value> {
        let start = self.at;
        let negative = self.bytes[start] == b'-';
        let digits_start = start + usize::from(negative);
        let digits = self.bytes[digits_start..].iter().take_while(|b| b.is_ascii_digit()).count();
        let end = digits_start + digits;
        let leading_zero = digits > 1 && self.bytes[digits_start] == b'0';
        if digits == 0 || leading_zero || matches!(self.bytes.get(end), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        self.at = end;
        let text = &self.text[start..end];
        if negative {
            text.parse::<i64>().ok().filter(|n| *n != 0).map(Value::from)
        } else {
            text.parse::<u64>().ok().map(Value::from)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What serde reads, for comparison.
    fn by_serde(text: &str) -> Option<Members> {
        match serde_json::from_str(text) {
            Ok(super::super::Body::Object(members)) => Some(members),
            _ => None,
        }
    }

    fn same(text: &str) {
        let plain = members(text).unwrap_or_else(|| panic!("read in one pass: {text}"));
        let serde = by_serde(text).unwrap_or_else(|| panic!("serde reads it: {text}"));
        assert_eq!(format!("{plain:?}"), format!("{serde:?}"), "{text}");
    }

    #[test]
    fn common_bodies_are_read_as_serde_reads_them() {
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"x":[1,{"y":null}]},"progressToken":"p"}"#;
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dunning_charges_get","arguments":{"id":"chg_1"}}}"#,
            &format!(
                r#"{{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{{"name":"t","arguments":{{"id":"x"}},{meta}}}}}"#
            ),
            " { \"jsonrpc\" : \"2.0\" ,\n\t\"id\" : -7 , \"method\" : \"ping\" }\r\n",
            r#"{"jsonrpc":"1.0","id":18446744073709551615,"method":"x/unknown","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"tools/call","params":{"name":"t","arguments":{"a":[],"b":{},"c":true,"d":false,"e":null,"f":0,"g":"José 🎉","a":2}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"a","method":"tools/list","params":{"cursor":"c","cursor":null}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{},"_meta":{"k":[[[]]]}}}"#,
            r#"{"jsonrpc":"2.0","id":[1,{"a":"b"}],"method":"x","params":{"name":null,"arguments":[1,2]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":7,"x":{"_meta":{}}}}"#,
            "{}",
            // serde_json's markers of numbers and raw values are plain keys while its
            // `arbitrary_precision` and `raw_value` features are off (a dependency turning one on
            // would change what serde reads here: this fails first).
            r#"{"jsonrpc":"2.0","id":{"$serde_json::private::RawValue":"[1]"},"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":{"$serde_json::private::Number":"1"},"method":"x"}"#,
        ] {
            same(text);
        }
    }

    #[test]
    fn anything_outside_the_shape_is_left_to_serde() {
        for text in [
            // Escapes, fractions, exponents, -0, numbers out of range, raw control characters.
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/cal\u006c"}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":1e3,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":-0,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":-9223372036854775809,"method":"x"}"#,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\u{1}b\"}",
            // Members that are not strings where a string is kept, responses, unknown members.
            r#"{"jsonrpc":2,"id":1,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":["x"]}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"x","params":null}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"x","extra":1}"#,
            // Not JSON, or not an object.
            r#"{"jsonrpc":"2.0","id":01,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":1,}"#,
            r#"{"jsonrpc":"2.0" "id":1}"#,
            r#"{"jsonrpc":"2.0","id":tru}"#,
            r#"{"jsonrpc":"2.0","id":[1,]}"#,
            r#"{"jsonrpc":"2.0","id":1} x"#,
            r#"{"jsonrpc":"2.0","id":1"#,
            "[1]",
            "1",
            "",
        ] {
            assert!(members(text).is_none(), "{text}");
        }
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":{}1{},"method":"x"}}"#,
            "[".repeat(MAX_DEPTH + 1),
            "]".repeat(MAX_DEPTH + 1)
        );
        assert!(members(&deep).is_none());
        let shallow = deep.replacen('[', "", 1).replacen(']', "", 1);
        same(&shallow);
    }

    /// Bodies mutated a byte at a time from the common ones: whatever the one pass reads, serde
    /// reads the same, whether the mutant is still JSON or not.
    #[test]
    fn mutated_bodies_are_never_read_otherwise_than_serde_reads_them() {
        const ALPHABET: &[&str] = &[
            "{",
            "}",
            "[",
            "]",
            ":",
            ",",
            "\"",
            "\\",
            " ",
            "\n",
            "\r",
            "\t",
            "\u{b}",
            "\u{c}",
            "0",
            "1",
            "-",
            "+",
            "9",
            ".",
            "e",
            "E",
            "t",
            "r",
            "u",
            "f",
            "a",
            "l",
            "s",
            "n",
            "_",
            "x",
            "\u{1}",
            "\u{7f}",
            "é",
            "\u{a0}",
            "\u{2028}",
            "18446744073709551616",
            "-9223372036854775809",
        ];
        let seeds = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"id":"x","n":[1,true,null]}}}"#,
            r#"{"jsonrpc":"2.0","id":"r","method":"tools/call","params":{"arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let (mut read, mut left) = (0, 0);
        for round in 0..20_000 {
            let mut bytes = seeds[round % seeds.len()].as_bytes().to_vec();
            for _ in 0..=next(3) {
                let at = next(bytes.len());
                let piece = ALPHABET[next(ALPHABET.len())].as_bytes();
                match next(3) {
                    0 => {
                        bytes.splice(at..at + 1, piece.iter().copied());
                    }
                    1 => {
                        bytes.splice(at..at, piece.iter().copied());
                    }
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            let Ok(text) = std::str::from_utf8(&bytes) else { continue };
            match members(text) {
                Some(plain) => {
                    read += 1;
                    let serde =
                        by_serde(text).unwrap_or_else(|| panic!("serde refuses what was read: {text}"));
                    assert_eq!(format!("{plain:?}"), format!("{serde:?}"), "{text}");
                }
                None => left += 1,
            }
        }
        // Both paths are exercised: most mutants stay readable, many do not.
        assert!(read > 2_000 && left > 2_000, "read {read}, left {left}");
    }
}
