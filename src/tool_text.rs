//! A JSON answer as the text of a tool result (DESIGN.md section 4): indented by two spaces,
//! with the characters a model would not see (DEL, C1 controls, format characters) written as
//! `\uXXXX` escapes, and written as the inside of a JSON string literal. Kept outside `mcp` so
//! that the /v1 adapter can serialise a tool's answer straight into this form, once (issue 8).

use std::io;

use serde::Serialize;
use serde_json::Value;

use crate::domain::text::is_format;

/// Whether a character is written as a `\uXXXX` escape in text shown to a model (see
/// [`json_text`]). Outside strings JSON text is ASCII, so every such character is inside one.
pub fn hidden(c: char) -> bool {
    c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c) || is_format(c)
}

/// serde_json's pretty printer (2 spaces), which also writes DEL, C1 controls and format
/// characters as `\uXXXX` escapes (UTF-16 units, lowercase hex).
pub struct ShownFormatter(serde_json::ser::PrettyFormatter<'static>);

impl serde_json::ser::Formatter for ShownFormatter {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Almost every fragment is plain ASCII, where nothing is hidden.
        if fragment.bytes().all(|b| b < 0x7f) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut plain = 0;
        for (at, c) in fragment.char_indices() {
            if hidden(c) {
                writer.write_all(&fragment.as_bytes()[plain..at])?;
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{unit:04x}")?;
                }
                plain = at + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[plain..])
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

pub fn shown() -> ShownFormatter {
    ShownFormatter(serde_json::ser::PrettyFormatter::new())
}

/// A JSON value as indented text a model reads safely: text stored before input was checked may
/// hold DEL, C1 controls or format characters (bidi overrides, zero-width), which serde_json
/// writes raw. They are written as `\uXXXX` escapes instead, so the text is still the same JSON
/// once parsed, but nothing in it is invisible or reorders what is shown.
pub fn json_text(value: &Value) -> String {
    let mut out = Vec::with_capacity(128);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, shown());
    let _ = value.serialize(&mut serializer);
    String::from_utf8(out).unwrap_or_default()
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
    let mut literal = Vec::with_capacity(1024);
    literal.push(b'"');
    value
        .serialize(&mut serde_json::Serializer::with_formatter(&mut literal, LiteralFormatter::default()))?;
    literal.push(b'"');
    // JSON text and escapes are ASCII; fragments are copied from `str`s whole.
    String::from_utf8(literal).map_err(serde::ser::Error::custom)
}

/// The pretty printer of [`ShownFormatter`] writing, instead of the JSON text, that text as the
/// inside of a string literal: every quote and backslash of the text escaped, each newline `\n`.
/// It writes to a `Vec` directly (an escaping `io::Write` in between cost more than the
/// serialisation itself: a call per punctuation mark).
#[derive(Default)]
struct LiteralFormatter {
    depth: usize,
    has_value: bool,
}

impl LiteralFormatter {
    fn newline<W: ?Sized + io::Write>(&self, writer: &mut W) -> io::Result<()> {
        const SPACES: &[u8] = b"\\n                                                                ";
        let mut width = 2 + 2 * self.depth;
        writer.write_all(&SPACES[..width.min(SPACES.len())])?;
        width = width.saturating_sub(SPACES.len());
        while width > 0 {
            let run = width.min(SPACES.len() - 2);
            writer.write_all(&SPACES[2..2 + run])?;
            width -= run;
        }
        Ok(())
    }

    /// `[` or `{`: one level deeper, nothing in it yet.
    fn open<W: ?Sized + io::Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    /// `]` or `}`, on a line of its own unless the container was empty.
    fn close<W: ?Sized + io::Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.newline(writer)?;
        }
        writer.write_all(bracket)
    }

    /// Before an element or a key: a comma after the first, then a new line.
    fn item<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        self.newline(writer)
    }
}

impl serde_json::ser::Formatter for LiteralFormatter {
    fn begin_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b"\\\"")
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b"\\\"")
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // serde_json hands quotes, backslashes and control characters to `write_char_escape`;
        // what is left to escape here is what a model would not see, as in ShownFormatter.
        if fragment.bytes().all(|b| b < 0x7f) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut plain = 0;
        for (at, c) in fragment.char_indices() {
            if hidden(c) {
                writer.write_all(&fragment.as_bytes()[plain..at])?;
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\\\u{unit:04x}")?;
                }
                plain = at + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[plain..])
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        escape: serde_json::ser::CharEscape,
    ) -> io::Result<()> {
        use serde_json::ser::CharEscape;
        // The escape serde_json writes in the text, with its backslash (and a quote or
        // backslash after it) escaped again for the literal.
        let escaped: &[u8] = match escape {
            CharEscape::Quote => b"\\\\\\\"",
            CharEscape::ReverseSolidus => b"\\\\\\\\",
            CharEscape::Solidus => b"\\\\/",
            CharEscape::Backspace => b"\\\\b",
            CharEscape::FormFeed => b"\\\\f",
            CharEscape::LineFeed => b"\\\\n",
            CharEscape::CarriageReturn => b"\\\\r",
            CharEscape::Tab => b"\\\\t",
            CharEscape::AsciiControl(byte) => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                return writer.write_all(&[
                    b'\\',
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(byte >> 4)],
                    HEX[usize::from(byte & 0xf)],
                ]);
            }
        };
        writer.write_all(escaped)
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.item(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.item(writer, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}
