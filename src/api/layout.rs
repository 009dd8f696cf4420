//! The layouts a JSON answer is written in, by serde_json, once: compact (the /v1 body, and what
//! the idempotency store keeps), or its indented text given as one JSON string, for a surface
//! that carries the document inside JSON of its own. What that surface then does with the text
//! is its business: the API only lays it out.

use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter};

/// How a successful JSON answer is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// Compact JSON: the /v1 body (and what the idempotency store keeps).
    #[default]
    Compact,
    /// serde_json's pretty text (two spaces, as `to_string_pretty`) as a JSON string literal,
    /// quotes included: the text serialised straight into the string, not written and then
    /// quoted.
    IndentedString,
}

impl Layout {
    /// `value` written in this layout.
    pub fn write<T: Serialize + ?Sized>(self, value: &T) -> serde_json::Result<String> {
        match self {
            Self::Compact => serde_json::to_string(value),
            Self::IndentedString => {
                // A charge's string is some 1,200 bytes: room for it at once, not a copy when it
                // grows, and for an envelope its reader may write around it in this buffer.
                let mut out = Vec::with_capacity(2048);
                out.push(b'"');
                value.serialize(&mut serde_json::Serializer::with_formatter(
                    &mut out,
                    IndentedString::default(),
                ))?;
                out.push(b'"');
                // serde_json writes UTF-8, and the escapes around it are ASCII.
                String::from_utf8(out).map_err(serde::ser::Error::custom)
            }
        }
    }
}

/// serde_json's pretty text written as the inside of a JSON string literal, in the same pass:
/// the text's quotes and escapes escaped again and each new line `\n` ([`Layout::IndentedString`]
/// without the quotes around it, for a transcoder to drive).
#[derive(Default)]
pub struct IndentedString {
    depth: usize,
    /// Whether the innermost open container has a value (its close goes on a new line).
    has_value: bool,
}

impl IndentedString {
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

impl Formatter for IndentedString {
    fn begin_string<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b"\\\"")
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b"\\\"")
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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    #[test]
    fn an_indented_string_is_the_pretty_text_as_serde_json_writes_it_as_a_string() {
        let mut deep = json!({ "leaf": [1, "x"], "next": {} });
        for depth in 0..40 {
            deep = if depth % 2 == 0 { json!([deep, 2]) } else { json!({ "d": deep, "e": [] }) };
        }
        for value in [
            json!({
                "data": {
                    "name": "Maria\u{202e}anele\u{200b}\u{7f}\u{85} José 🎉",
                    "quoted": "a\"b\\c\n\t\r\u{1}\u{8}\u{c}\u{1f} </script>",
                    "big": 1e300,
                    "list": [],
                    "empty": {},
                    "nested": [1, { "a": null, "b": [true, false] }],
                },
                "meta": { "total": 18446744073709551615u64 }
            }),
            deep,
            json!("plain"),
            json!([]),
        ] {
            let expected = serde_json::to_string(&serde_json::to_string_pretty(&value).unwrap()).unwrap();
            assert_eq!(Layout::IndentedString.write(&value).unwrap(), expected);
            assert_eq!(Layout::Compact.write(&value).unwrap(), value.to_string());
            let text: String = serde_json::from_str(&expected).unwrap();
            assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
        }
    }
}
