//! A serde serialiser for the server's answers: the same bytes as serde_json, written faster.
//! serde_json checks every byte of every string, keys included, against a table and copies it
//! in pieces; a charge has some forty strings, and that was most of the cost of writing an
//! answer. Here a string is checked by table or eight bytes at a time, and a plain one (nearly
//! all of them) is copied whole.
//!
//! Two layouts: [`Compact`] is `serde_json::to_string`; [`Literal`] is the inside of a JSON string
//! literal holding the text `serde_json::to_string_pretty` writes, with the characters a model
//! would not see written as `\uXXXX` escapes (the text of a tool result, `crate::tool_text`).

use serde::ser::{self, Serialize};

use crate::domain::text::hidden;
use crate::swar::{care_mask, word_below_del};

type Result<T = ()> = serde_json::Result<T>;

/// `value` as compact JSON text: what `serde_json::to_string` writes.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    let mut out = String::with_capacity(1024);
    value.serialize(&mut Writer { out: &mut out, layout: Compact })?;
    Ok(out)
}

/// Appends `value` as the inside of a JSON string literal of its indented text (see [`Literal`]).
pub fn write_literal<T: Serialize + ?Sized>(out: &mut String, value: &T) -> Result {
    value.serialize(&mut Writer { out, layout: Literal::default() })
}

/// Where the layouts differ: punctuation, escapes, and the space between values.
pub trait Layout {
    /// Written for each quote around a string.
    const QUOTE: &'static str;
    /// Between a key and its value.
    const COLON: &'static str;
    /// Whether [`hidden`] characters are written as escapes.
    const ESCAPES_HIDDEN: bool;
    /// The escape of a quote, a backslash or a control character.
    fn escape(out: &mut String, byte: u8);
    /// `[` or `{`.
    fn open(&mut self, out: &mut String, bracket: char);
    /// `]` or `}`.
    fn close(&mut self, out: &mut String, bracket: char);
    /// Before an element or a key.
    fn item(&mut self, out: &mut String, first: bool);
    /// After an element or a key's value.
    fn end_item(&mut self);
}

/// Compact JSON text, as `serde_json::to_string`.
pub struct Compact;

impl Layout for Compact {
    const QUOTE: &'static str = "\"";
    const COLON: &'static str = ":";
    const ESCAPES_HIDDEN: bool = false;

    fn escape(out: &mut String, byte: u8) {
        match byte {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            _ => push_control(out, "\\", byte),
        }
    }

    fn open(&mut self, out: &mut String, bracket: char) {
        out.push(bracket);
    }

    fn close(&mut self, out: &mut String, bracket: char) {
        out.push(bracket);
    }

    fn item(&mut self, out: &mut String, first: bool) {
        if !first {
            out.push(',');
        }
    }

    fn end_item(&mut self) {}
}

/// serde_json's pretty text (two spaces) written as the inside of a string literal: every quote
/// and backslash of the text escaped again, each new line `\n`, and each [`hidden`] character as
/// `\\uXXXX` (a `\uXXXX` escape in the text).
#[derive(Default)]
pub struct Literal {
    depth: usize,
    /// Whether the innermost open container has a value (its close goes on a new line).
    has_value: bool,
}

impl Literal {
    /// A new line (`\n` in the literal) indented to the depth, after a comma when `comma`.
    fn newline(&self, out: &mut String, comma: bool) {
        const LINE: &str = ",\\n                                                                ";
        const INDENT: usize = 3;
        let end = INDENT + 2 * self.depth;
        out.push_str(&LINE[usize::from(!comma)..end.min(LINE.len())]);
        let mut rest = end.saturating_sub(LINE.len());
        while rest > 0 {
            let run = rest.min(LINE.len() - INDENT);
            out.push_str(&LINE[INDENT..INDENT + run]);
            rest -= run;
        }
    }
}

impl Layout for Literal {
    const QUOTE: &'static str = "\\\"";
    const COLON: &'static str = ": ";
    const ESCAPES_HIDDEN: bool = true;

    fn escape(out: &mut String, byte: u8) {
        match byte {
            b'"' => out.push_str("\\\\\\\""),
            b'\\' => out.push_str("\\\\\\\\"),
            _ => push_control(out, "\\\\", byte),
        }
    }

    fn open(&mut self, out: &mut String, bracket: char) {
        self.depth += 1;
        self.has_value = false;
        out.push(bracket);
    }

    fn close(&mut self, out: &mut String, bracket: char) {
        self.depth -= 1;
        if self.has_value {
            self.newline(out, false);
        }
        out.push(bracket);
    }

    fn item(&mut self, out: &mut String, first: bool) {
        self.newline(out, !first);
    }

    fn end_item(&mut self) {
        self.has_value = true;
    }
}

/// serde_json's escape of a control character, after `backslash`.
fn push_control(out: &mut String, backslash: &str, byte: u8) {
    out.push_str(backslash);
    match byte {
        0x08 => out.push('b'),
        0x0c => out.push('f'),
        b'\n' => out.push('n'),
        b'\r' => out.push('r'),
        b'\t' => out.push('t'),
        _ => {
            out.push_str("u00");
            push_hex(out, u16::from(byte), 2);
        }
    }
}

/// The low `digits` hex digits of `unit`, lowercase.
pub fn push_hex(out: &mut String, unit: u16, digits: u32) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for shift in (0..digits).rev() {
        out.push(char::from(HEX[usize::from((unit >> (4 * shift)) & 0xf)]));
    }
}

/// Whether any of eight bytes may need writing other than as itself: a control, a quote or a
/// backslash, and with `from_del` any byte from 0x7f (DEL) up.
fn word_needs_care(word: [u8; 8], from_del: bool) -> bool {
    care_mask(u64::from_le_bytes(word)) != 0 || (from_del && !word_below_del(word))
}

/// Whether a byte needs writing other than as itself: a control, a quote or a backslash, and
/// with `from_del` (the second table) any byte from 0x7f up. For strings shorter than a word.
const NEEDS_CARE: [[bool; 256]; 2] = {
    let mut table = [[false; 256]; 2];
    let mut b = 0;
    while b < 256 {
        let escaped = b < 0x20 || b == b'"' as usize || b == b'\\' as usize;
        table[0][b] = escaped;
        table[1][b] = escaped || b >= 0x7f;
        b += 1;
    }
    table
};

/// How many bytes from the start certainly need no care: all of them for a plain string (most
/// are: keys, ids, dates, names), else at least up to the word holding the first that may.
fn plain_prefix(bytes: &[u8], from_del: bool) -> usize {
    if bytes.len() < 8 {
        let table = &NEEDS_CARE[usize::from(from_del)];
        return bytes.iter().position(|&b| table[usize::from(b)]).unwrap_or(bytes.len());
    }
    let (words, _) = bytes.as_chunks::<8>();
    if let Some(word) = words.iter().position(|word| word_needs_care(*word, from_del)) {
        return word * 8;
    }
    // The last eight bytes, overlapping the words already checked.
    match bytes.last_chunk::<8>() {
        Some(last) if word_needs_care(*last, from_del) => words.len() * 8,
        _ => bytes.len(),
    }
}

/// A string, quoted and escaped as the layout writes it.
fn write_str<L: Layout>(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let plain = plain_prefix(bytes, L::ESCAPES_HIDDEN);
    out.reserve(bytes.len() + 2 * L::QUOTE.len());
    out.push_str(L::QUOTE);
    if plain == bytes.len() {
        out.push_str(s);
    } else {
        write_escaped::<L>(out, s, plain);
    }
    out.push_str(L::QUOTE);
}

/// The inside of a string that needs care somewhere from `from` on: every byte before `from`
/// is written as itself (and in a literal layout, where only ASCII is skipped, `from` is a
/// character boundary).
fn write_escaped<L: Layout>(out: &mut String, s: &str, from: usize) {
    let bytes = s.as_bytes();
    // Runs are cut only before an ASCII byte or a whole character, so both ends of every copied
    // run are character boundaries; `at` itself may sit inside a character only in a compact
    // layout's skipped word, where nothing is cut.
    let (mut copied, mut at) = (0, from);
    while at < bytes.len() {
        if let Some(word) = bytes.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok())
            && !word_needs_care(word, L::ESCAPES_HIDDEN)
        {
            at += 8;
            continue;
        }
        let byte = bytes[at];
        if byte < 0x20 || byte == b'"' || byte == b'\\' {
            out.push_str(&s[copied..at]);
            L::escape(out, byte);
            at += 1;
            copied = at;
        } else if L::ESCAPES_HIDDEN && byte >= 0x7f {
            let Some(c) = s.get(at..).and_then(|rest| rest.chars().next()) else {
                at += 1;
                continue;
            };
            if hidden(c) {
                out.push_str(&s[copied..at]);
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str("\\\\u");
                    push_hex(out, *unit, 4);
                }
                copied = at + c.len_utf8();
            }
            at += c.len_utf8();
        } else {
            at += 1;
        }
    }
    out.push_str(&s[copied..]);
}

/// The serialiser: a layout writing into a string.
pub struct Writer<'o, L> {
    out: &'o mut String,
    layout: L,
}

impl<L: Layout> Writer<'_, L> {
    fn integer(&mut self, value: impl itoa::Integer) -> Result {
        self.out.push_str(itoa::Buffer::new().format(value));
        Ok(())
    }

    /// A float as serde_json writes it: shortest round-trip digits, `null` when not finite.
    fn float(&mut self, value: impl zmij::Float, finite: bool) {
        if finite {
            self.out.push_str(zmij::Buffer::new().format_finite(value));
        } else {
            self.out.push_str("null");
        }
    }

    fn open(&mut self, bracket: char, len: Option<usize>) -> State {
        self.layout.open(self.out, bracket);
        if len == Some(0) {
            self.layout.close(self.out, if bracket == '[' { ']' } else { '}' });
            State::Empty
        } else {
            State::First
        }
    }

    /// `{"variant":` before a variant's content.
    fn open_variant(&mut self, variant: &'static str) {
        self.layout.open(self.out, '{');
        self.layout.item(self.out, true);
        write_str::<L>(self.out, variant);
        self.out.push_str(L::COLON);
    }

    /// The `}` after a variant's content.
    fn close_variant(&mut self) {
        self.layout.end_item();
        self.layout.close(self.out, '}');
    }
}

/// Where a container is: empty (already closed), before its first item, after one.
#[derive(Clone, Copy, PartialEq)]
enum State {
    Empty,
    First,
    Rest,
}

/// An open array or object.
pub struct Compound<'w, 'o, L> {
    writer: &'w mut Writer<'o, L>,
    state: State,
    /// A variant's object around the container, closed after it.
    variant: bool,
}

impl<L: Layout> Compound<'_, '_, L> {
    fn item(&mut self) {
        self.writer.layout.item(self.writer.out, self.state == State::First);
        self.state = State::Rest;
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.item();
        value.serialize(&mut *self.writer)?;
        self.writer.layout.end_item();
        Ok(())
    }

    fn entry<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result {
        self.item();
        write_str::<L>(self.writer.out, key);
        self.writer.out.push_str(L::COLON);
        value.serialize(&mut *self.writer)?;
        self.writer.layout.end_item();
        Ok(())
    }

    fn close(self, bracket: char) -> Result {
        if self.state != State::Empty {
            self.writer.layout.close(self.writer.out, bracket);
        }
        if self.variant {
            self.writer.close_variant();
        }
        Ok(())
    }
}

/// The integer methods of a serialiser, each through its `integer`.
macro_rules! integers {
    () => {
        fn serialize_i8(self, value: i8) -> Result {
            self.integer(value)
        }
        fn serialize_i16(self, value: i16) -> Result {
            self.integer(value)
        }
        fn serialize_i32(self, value: i32) -> Result {
            self.integer(value)
        }
        fn serialize_i64(self, value: i64) -> Result {
            self.integer(value)
        }
        fn serialize_i128(self, value: i128) -> Result {
            self.integer(value)
        }
        fn serialize_u8(self, value: u8) -> Result {
            self.integer(value)
        }
        fn serialize_u16(self, value: u16) -> Result {
            self.integer(value)
        }
        fn serialize_u32(self, value: u32) -> Result {
            self.integer(value)
        }
        fn serialize_u64(self, value: u64) -> Result {
            self.integer(value)
        }
        fn serialize_u128(self, value: u128) -> Result {
            self.integer(value)
        }
    };
}

impl<'w, 'o, L: Layout> ser::Serializer for &'w mut Writer<'o, L> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Compound<'w, 'o, L>;
    type SerializeTuple = Compound<'w, 'o, L>;
    type SerializeTupleStruct = Compound<'w, 'o, L>;
    type SerializeTupleVariant = Compound<'w, 'o, L>;
    type SerializeMap = Compound<'w, 'o, L>;
    type SerializeStruct = Compound<'w, 'o, L>;
    type SerializeStructVariant = Compound<'w, 'o, L>;

    fn serialize_bool(self, value: bool) -> Result {
        self.out.push_str(if value { "true" } else { "false" });
        Ok(())
    }

    integers!();

    fn serialize_f32(self, value: f32) -> Result {
        self.float(value, value.is_finite());
        Ok(())
    }

    fn serialize_f64(self, value: f64) -> Result {
        self.float(value, value.is_finite());
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result {
        write_str::<L>(self.out, value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result {
        write_str::<L>(self.out, value);
        Ok(())
    }

    /// An array of numbers, as serde_json writes bytes.
    fn serialize_bytes(self, value: &[u8]) -> Result {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(value.len()))?;
        for byte in value {
            seq.serialize_element(byte)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> Result {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result {
        self.out.push_str("null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.serialize_unit()
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.close_variant();
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq> {
        let state = self.open('[', len);
        Ok(Compound { writer: self, state, variant: false })
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Self::SerializeTupleStruct> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        self.open_variant(variant);
        let state = self.open('[', Some(len));
        Ok(Compound { writer: self, state, variant: true })
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap> {
        let state = self.open('{', len);
        Ok(Compound { writer: self, state, variant: false })
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct> {
        if name == RAW_VALUE_TOKEN {
            return Err(ser::Error::custom("a RawValue is written by serde_json only"));
        }
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        self.open_variant(variant);
        let state = self.open('{', Some(len));
        Ok(Compound { writer: self, state, variant: true })
    }
}

/// The struct name serde_json gives a `RawValue` (its text is written as it is); no answer of
/// this server holds one, and writing it as a map would change the bytes, so it is refused.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The compound traits whose items are elements: `method` writes one, `end` closes the array.
macro_rules! elements {
    ($($trait:ident::$method:ident),*) => {$(
        impl<L: Layout> ser::$trait for Compound<'_, '_, L> {
            type Ok = ();
            type Error = serde_json::Error;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
                self.element(value)
            }

            fn end(self) -> Result {
                self.close(']')
            }
        }
    )*};
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl<L: Layout> ser::SerializeMap for Compound<'_, '_, L> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        self.item();
        key.serialize(KeyWriter { out: &mut *self.writer.out, layout: std::marker::PhantomData::<L> })?;
        self.writer.out.push_str(L::COLON);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        value.serialize(&mut *self.writer)?;
        self.writer.layout.end_item();
        Ok(())
    }

    fn end(self) -> Result {
        self.close('}')
    }
}

/// The struct traits: each field an entry, `end` closing the object.
macro_rules! fields {
    ($($trait:ident),*) => {$(
        impl<L: Layout> ser::$trait for Compound<'_, '_, L> {
            type Ok = ();
            type Error = serde_json::Error;

            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
                self.entry(key, value)
            }

            fn end(self) -> Result {
                self.close('}')
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);

/// A map key: a string as it is, and the numbers and booleans serde_json accepts as keys,
/// quoted. Anything else is refused, as serde_json refuses it.
struct KeyWriter<'o, L> {
    out: &'o mut String,
    layout: std::marker::PhantomData<L>,
}

impl<L: Layout> KeyWriter<'_, L> {
    fn quoted(self, text: &str) -> Result {
        self.out.push_str(L::QUOTE);
        self.out.push_str(text);
        self.out.push_str(L::QUOTE);
        Ok(())
    }

    fn integer(self, value: impl itoa::Integer) -> Result {
        self.quoted(itoa::Buffer::new().format(value))
    }

    fn float(self, value: impl zmij::Float, finite: bool) -> Result {
        if !finite {
            return Err(ser::Error::custom("float key must be finite (got NaN or +/-inf)"));
        }
        self.quoted(zmij::Buffer::new().format_finite(value))
    }
}

fn key_must_be_a_string() -> serde_json::Error {
    ser::Error::custom("key must be a string")
}

impl<L: Layout> ser::Serializer for KeyWriter<'_, L> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = ser::Impossible<(), serde_json::Error>;
    type SerializeTuple = ser::Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = ser::Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = ser::Impossible<(), serde_json::Error>;
    type SerializeMap = ser::Impossible<(), serde_json::Error>;
    type SerializeStruct = ser::Impossible<(), serde_json::Error>;
    type SerializeStructVariant = ser::Impossible<(), serde_json::Error>;

    fn serialize_str(self, value: &str) -> Result {
        write_str::<L>(self.out, value);
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result {
        self.serialize_str(value.encode_utf8(&mut [0; 4]))
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_bool(self, value: bool) -> Result {
        self.quoted(if value { "true" } else { "false" })
    }

    integers!();

    fn serialize_f32(self, value: f32) -> Result {
        self.float(value, value.is_finite())
    }

    fn serialize_f64(self, value: f64) -> Result {
        self.float(value, value.is_finite())
    }

    fn serialize_bytes(self, _value: &[u8]) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_none(self) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeTupleStruct> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_must_be_a_string())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_must_be_a_string())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;
    use serde_json::{Value, json};

    use super::*;
    use crate::tool_text::json_text;

    /// The literal of `value`, quotes included.
    fn literal<T: Serialize + ?Sized>(value: &T) -> Result<String> {
        let mut out = String::from("\"");
        write_literal(&mut out, value)?;
        out.push('"');
        Ok(out)
    }

    /// What both layouts must write for `value`: serde_json's compact text, and serde_json's
    /// string of the indented text of that text parsed back, hidden characters escaped.
    fn assert_as_serde_json<T: Serialize + ?Sized + std::fmt::Debug>(value: &T) {
        let compact = serde_json::to_string(value).unwrap();
        assert_eq!(to_string(value).unwrap(), compact, "{value:?}");
        let text = json_text(&serde_json::from_str(&compact).unwrap());
        assert_eq!(literal(value).unwrap(), serde_json::to_string(&text).unwrap(), "{value:?}");
    }

    #[derive(Serialize, Debug)]
    enum Shape {
        Unit,
        Newtype(i32),
        Tuple(i32, String),
        Empty(),
        Struct { a: Option<u8>, b: Vec<Shape> },
    }

    #[derive(Serialize, Debug)]
    #[serde(tag = "type")]
    enum Tagged {
        One { x: i8 },
    }

    #[derive(Serialize, Debug)]
    struct Unit;

    #[derive(Serialize, Debug)]
    struct Newtype(u128);

    #[derive(Serialize, Debug)]
    struct Pair(i128, f32);

    #[derive(Serialize, Debug)]
    struct Outer {
        id: &'static str,
        #[serde(flatten)]
        rest: BTreeMap<String, Value>,
        #[serde(with = "serde_bytes_as_seq")]
        bytes: Vec<u8>,
        letter: char,
        nothing: Option<()>,
        unit: Unit,
        newtype: Newtype,
        pair: Pair,
        shapes: Vec<Shape>,
        tagged: Tagged,
        floats: Vec<f64>,
        small: f32,
    }

    /// Bytes through `serialize_bytes` (serde writes a `Vec<u8>` as a sequence otherwise).
    mod serde_bytes_as_seq {
        pub fn serialize<S: serde::Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_bytes(bytes)
        }
    }

    #[test]
    fn both_layouts_write_what_serde_json_writes() {
        let outer = Outer {
            id: "chg_1",
            rest: BTreeMap::from([
                ("extra".to_string(), json!({ "k": [1, {}, []] })),
                ("z".into(), json!(null)),
            ]),
            bytes: vec![0, 7, 255],
            letter: '\u{202e}',
            nothing: None,
            unit: Unit,
            newtype: Newtype(u128::from(u64::MAX)),
            pair: Pair(i128::from(i64::MIN), 1.1),
            shapes: vec![
                Shape::Unit,
                Shape::Newtype(-3),
                Shape::Tuple(1, "a\"b".into()),
                Shape::Empty(),
                Shape::Struct { a: None, b: vec![] },
                Shape::Struct { a: Some(2), b: vec![Shape::Unit, Shape::Newtype(0)] },
            ],
            tagged: Tagged::One { x: i8::MIN },
            floats: vec![0.0, -0.0, 1850.5, 1e300, 5e-324, 0.001, f64::MAX, f64::NAN, f64::INFINITY],
            small: f32::MIN_POSITIVE,
        };
        assert_as_serde_json(&outer);
        // Beyond what a `Value` holds: compact text only.
        for wide in [(u128::MAX, i128::MIN), (0, -1)] {
            assert_eq!(to_string(&wide).unwrap(), serde_json::to_string(&wide).unwrap());
        }
        let value = json!({
            "data": {
                "name": "Maria\u{202e}anele\u{200b}\u{7f}\u{85} José 🎉\u{e0041}",
                "quoted": "a\"b\\c\n\t\r\u{1}\u{8}\u{c}\u{1f} </script>",
                "k\u{2066}ey": 1850.5,
                "big": 1e300,
                "empty": {},
                "list": [],
                "nested": [1, { "a": null, "b": [true, false] }],
            },
            "meta": { "total": 18446744073709551615u64, "min": -9223372036854775808i64 }
        });
        assert_as_serde_json(&value);
        // Deeper than the indentation written at once.
        let mut deep = json!({ "leaf": [1, "x"], "next": {} });
        for depth in 0..40 {
            deep = if depth % 2 == 0 { json!([deep, 2]) } else { json!({ "d": deep, "e": [] }) };
        }
        assert_as_serde_json(&deep);
        for scalar in [json!(null), json!(true), json!(""), json!([]), json!({}), json!(-0.5)] {
            assert_as_serde_json(&scalar);
        }
    }

    #[test]
    fn keys_that_are_not_strings_are_quoted_or_refused_as_serde_json_does() {
        assert_as_serde_json(&BTreeMap::from([(-1i64, "a"), (7, "b")]));
        assert_as_serde_json(&BTreeMap::from([(true, 1), (false, 0)]));
        assert_as_serde_json(&BTreeMap::from([('\u{7f}', 1), ('"', 2)]));
        assert_as_serde_json(&BTreeMap::from([(u128::MAX, 1)]));
        struct FloatKeys(f64);
        impl Serialize for FloatKeys {
            fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry(&self.0, &1)?;
                map.end()
            }
        }
        assert_eq!(to_string(&FloatKeys(2.5)).unwrap(), serde_json::to_string(&FloatKeys(2.5)).unwrap());
        assert!(
            to_string(&FloatKeys(f64::NAN)).is_err() && serde_json::to_string(&FloatKeys(f64::NAN)).is_err()
        );
        let refused = BTreeMap::from([(vec![1u8], 1)]);
        assert!(to_string(&refused).is_err() && serde_json::to_string(&refused).is_err());
        assert!(literal(&BTreeMap::from([(None::<u8>, 1)])).is_err());
        assert_as_serde_json(&BTreeMap::from([(Some("a"), 1)]));
        assert_as_serde_json(&BTreeMap::from([(Some(3u8), 1)]));
    }

    #[test]
    fn a_raw_value_is_refused_rather_than_written_as_a_map() {
        struct Raw;
        impl Serialize for Raw {
            fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct;
                let mut raw = s.serialize_struct(RAW_VALUE_TOKEN, 1)?;
                raw.serialize_field(RAW_VALUE_TOKEN, "{}")?;
                raw.end()
            }
        }
        assert!(to_string(&Raw).is_err());
        assert!(literal(&Raw).is_err());
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them_at_every_offset() {
        let mut specials: Vec<String> = (0u8..0x20).map(|b| char::from(b).to_string()).collect();
        for s in [
            "\"", "\\", "/", "\u{7f}", "\u{80}", "\u{85}", "\u{9f}", "\u{a0}", "é", "ção", "\u{ad}",
            "\u{200b}",
        ] {
            specials.push(s.to_string());
        }
        for s in ["\u{202e}", "\u{2066}", "\u{feff}", "🎉", "\u{e0041}", "\u{fff9}", "\u{2028}", "a\"\\\n"]
        {
            specials.push(s.to_string());
        }
        for special in &specials {
            for offset in 0..20 {
                let text = format!("{}{special}{}", "x".repeat(offset), "y".repeat(20 - offset));
                assert_as_serde_json(&text);
                // Two in one word, and one at the very end.
                assert_as_serde_json(&format!("{text}{special}{special}"));
            }
        }
    }

    #[test]
    fn the_plain_prefix_stops_at_or_before_the_first_byte_needing_care() {
        for len in 0..24 {
            for at in 0..len {
                for byte in [0u8, 0x1f, b'"', b'\\', 0x7f, 0xc3] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = byte;
                    let literal = plain_prefix(&bytes, true);
                    assert!(literal <= at && at - literal < 8, "{byte:#x} at {at} of {len}: {literal}");
                    let compact = plain_prefix(&bytes, false);
                    if byte >= 0x7f {
                        assert_eq!(compact, len, "{byte:#x} is plain in compact text");
                    } else {
                        assert!(compact <= at && at - compact < 8, "{byte:#x} at {at} of {len}: {compact}");
                    }
                }
            }
            assert_eq!(plain_prefix(&vec![b'a'; len], true), len);
        }
    }

    #[test]
    fn care_is_found_in_any_byte_of_a_word() {
        // Neighbours at the edges of the bit tricks: a borrow from 0x00 or 0x20, a carry from 0xff.
        for background in [*b"abcdefgh", [0x20; 8], [0x21; 8], [0x7e; 8], [0x23; 8], [0x5d; 8]] {
            for at in 0..8 {
                for byte in 0u8..=255 {
                    let mut word = background;
                    word[at] = byte;
                    let needs = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
                    let escaped = word.iter().any(|&b| needs(b));
                    let from_del = word.iter().any(|&b| needs(b) || b >= 0x7f);
                    assert_eq!(word_needs_care(word, false), escaped, "{word:x?}");
                    assert_eq!(word_needs_care(word, true), from_del, "{word:x?}");
                }
            }
        }
    }
}
