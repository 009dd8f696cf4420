//! The shape every JSON input must keep, checked once, in one linear walk, before anything reads
//! it member by member: at most [`MAX_MEMBERS`] members an object, [`MAX_VALUES`] values in all,
//! no control character in a key, and no NUL in a string (no database stores it the same way:
//! PostgreSQL refuses it). The other controls in a string are for each field's own text rule to
//! judge, which names what the field takes (one line, or text with line breaks).
//!
//! The 2 MiB body cap bounds bytes, not work: a body of 200,000 distinct keys fits in it, and
//! each later step that looks at members (the schema's errors, suggestions, merges) costs at
//! least their number. With these caps no input reaches those steps with more than a few
//! thousand members, whatever each step costs per member.

use serde_json::Value;

/// The most members one object may have.
pub const MAX_MEMBERS: usize = 1_000;
/// The most JSON values one input may hold (every object, array, string, number, boolean and
/// null counts one).
pub const MAX_VALUES: usize = 20_000;

/// Why an input's shape is refused, with the dotted path of the value at fault (empty for the
/// input itself).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// An object with more than [`MAX_MEMBERS`] members.
    #[error("has more than {MAX_MEMBERS} members, the most an object may have")]
    TooManyMembers {
        /// Where.
        path: String,
    },
    /// More than [`MAX_VALUES`] values in all.
    #[error("holds more than {MAX_VALUES} JSON values, the most a request may hold")]
    TooManyValues,
    /// A control character in a key (NUL and the other C0 controls, DEL), or NUL in a string.
    #[error("contains a control character")]
    ControlCharacter {
        /// Where.
        path: String,
    },
}

impl ShapeError {
    /// The dotted path of the value at fault; empty for the whole input.
    pub fn path(&self) -> &str {
        match self {
            Self::TooManyMembers { path } | Self::ControlCharacter { path } => path,
            Self::TooManyValues => "",
        }
    }
}

/// Whether `text` holds any control character, line breaks and tabs included: for names, keys,
/// query values and headers, which are one line.
pub fn has_any_control(text: &str) -> bool {
    text.bytes().any(|b| b < 0x20 || b == 0x7f)
}

/// Whether the JSON text `bytes` holds at most `most` values, told before it is parsed: parsing
/// a 2 MiB body of half a million small arrays costs more than a request may (80 ms, optimised),
/// and serde_json has no bound of its own. For valid JSON the count is exact (every value but the
/// first follows a comma or opens a container's first member; a key is no value); for text that is
/// not JSON it is a bound, and the parser refuses the text anyway.
pub fn within_values(bytes: &[u8], most: usize) -> bool {
    let mut count = 1usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut opened = false;
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        if b.is_ascii_whitespace() {
            continue;
        }
        // The first byte after an opening bracket: a first member unless the container closes.
        if opened && b != b']' && b != b'}' {
            count += 1;
        }
        opened = false;
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => opened = true,
            b',' => count += 1,
            _ => {}
        }
        if count > most {
            return false;
        }
    }
    true
}

/// [`check`] of an object, without wrapping it in a value.
pub fn check_object(members: &serde_json::Map<String, Value>) -> Result<(), ShapeError> {
    let mut walk = Walk { count: 1, path: Vec::new() };
    walk.members(members)
}

/// Checks `value` against the caps; the first fault found is the answer. Recursive: serde_json
/// refuses nesting deeper than 128 when it reads, so the depth is bounded.
pub fn check(value: &Value) -> Result<(), ShapeError> {
    let mut walk = Walk { count: 0, path: Vec::new() };
    walk.visit(value)
}

/// One step of the way to a value: an object's key or an array's index.
enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

/// A walk's state: the values seen so far, and the way to the current one (rendered only for a
/// fault).
struct Walk<'a> {
    count: usize,
    path: Vec<Segment<'a>>,
}

impl<'a> Walk<'a> {
    fn visit(&mut self, value: &'a Value) -> Result<(), ShapeError> {
        self.count += 1;
        if self.count > MAX_VALUES {
            return Err(ShapeError::TooManyValues);
        }
        match value {
            Value::Object(members) => self.members(members)?,
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    self.path.push(Segment::Index(index));
                    self.visit(item)?;
                    self.path.pop();
                }
            }
            Value::String(text) if text.contains('\0') => {
                return Err(ShapeError::ControlCharacter { path: self.rendered() });
            }
            Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null => {}
        }
        Ok(())
    }

    fn members(&mut self, members: &'a serde_json::Map<String, Value>) -> Result<(), ShapeError> {
        if members.len() > MAX_MEMBERS {
            return Err(ShapeError::TooManyMembers { path: self.rendered() });
        }
        for (key, member) in members {
            if has_any_control(key) {
                return Err(ShapeError::ControlCharacter { path: self.rendered() });
            }
            self.path.push(Segment::Key(key));
            self.visit(member)?;
            self.path.pop();
        }
        Ok(())
    }

    /// The dotted path of the current value (`installments.0.amount`).
    fn rendered(&self) -> String {
        let segments: Vec<String> = self
            .path
            .iter()
            .map(|segment| match segment {
                Segment::Key(key) => (*key).to_string(),
                Segment::Index(index) => index.to_string(),
            })
            .collect();
        segments.join(".")
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn object_of(members: usize) -> Value {
        Value::Object((0..members).map(|i| (format!("k{i}"), Value::from(i))).collect())
    }

    /// The number of values of a parsed document, walked.
    fn walked(value: &Value) -> usize {
        1 + match value {
            Value::Array(items) => items.iter().map(walked).sum(),
            Value::Object(members) => members.values().map(walked).sum(),
            _ => 0,
        }
    }

    fn arbitrary_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            // Strings with the characters that move a scanner: quotes, escapes, brackets, commas.
            "[a-z\\\\\"\\[\\]{},: ]{0,8}".prop_map(Value::from),
        ];
        leaf.prop_recursive(6, 64, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::btree_map("[a-z\\\\\"\\[\\],]{0,4}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn the_count_before_parsing_is_the_parsed_documents(value in arbitrary_json(), pretty in any::<bool>()) {
            let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) };
            let text = text.unwrap();
            let count = walked(&value);
            prop_assert!(within_values(text.as_bytes(), count), "{text}");
            prop_assert!(!within_values(text.as_bytes(), count - 1), "{text}");
        }
    }

    #[test]
    fn an_object_may_have_the_most_members_and_no_more() {
        assert_eq!(check(&object_of(MAX_MEMBERS)), Ok(()));
        let nested = json!({ "address": object_of(MAX_MEMBERS + 1) });
        assert_eq!(check(&nested), Err(ShapeError::TooManyMembers { path: "address".into() }));
    }

    #[test]
    fn values_are_counted_across_objects_and_arrays() {
        // Each object is within its own cap; together they are over the input's.
        let many: Vec<Value> = (0..25).map(|_| object_of(MAX_MEMBERS - 1)).collect();
        assert_eq!(check(&Value::Array(many)), Err(ShapeError::TooManyValues));
        let flat = Value::Array(vec![Value::Null; MAX_VALUES - 1]);
        assert_eq!(check(&flat), Ok(()));
        let flat = Value::Array(vec![Value::Null; MAX_VALUES]);
        assert_eq!(check(&flat), Err(ShapeError::TooManyValues));
    }

    #[test]
    fn nul_is_named_by_path_and_text_keeps_its_line_breaks() {
        let body: Value = serde_json::from_str(r#"{"items": [{"note": "a\u0000b"}]}"#).unwrap();
        assert_eq!(check(&body), Err(ShapeError::ControlCharacter { path: "items.0.note".into() }));
        assert_eq!(check(&json!({ "note": "linha 1\r\nlinha 2\tfim" })), Ok(()));
        // Left to the field's own text rule, which says what the field takes.
        assert_eq!(check(&json!({ "bell": "\u{7}" })), Ok(()));
        assert_eq!(check(&json!({ "a\nb": 1 })), Err(ShapeError::ControlCharacter { path: String::new() }));
    }
}
