//! Exact money on the wire: the number literals of a raw JSON document, checked as written.
//!
//! serde_json reads a number into an `f64` (this build does not enable `arbitrary_precision`,
//! which would break `#[serde(flatten)]` and untagged enums, serde-rs/json#721), so
//! `1.0000000000000000001` would reach the domain as `1.0` and pass. Every number of this API is
//! money, a percentage (both at most 2 decimals) or an integer, so a literal with a non-zero
//! third decimal is never valid, whatever field it is in: this scanner finds each one in the
//! bytes, before they are parsed, and names where it is.
//!
//! The scan is lenient about syntax: on malformed JSON it stops and returns what it found so far,
//! because the parser that runs next answers the syntax error.

use super::error::DomainError;
use super::money::hundredths_from_text;

/// Where a container of the document is, and which of its values is being read.
enum Frame {
    /// An object and where the key of the value being read is in the document (`None` while a
    /// key is expected). Keys are decoded only for a path reported: most documents have none.
    Object(Option<(usize, usize)>),
    /// An array and the index of the value being read.
    Array(usize),
}

/// Every number literal of `json` with more than 2 decimals, as the path of field names and
/// array indices that leads to it (`["installments", "0", "amount"]`); the empty path is the
/// document itself.
pub fn inexact_numbers(json: &[u8]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < json.len() {
        match json[i] {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'{' => {
                frames.push(Frame::Object(None));
                i += 1;
            }
            b'[' => {
                frames.push(Frame::Array(0));
                i += 1;
            }
            b'}' | b']' => {
                frames.pop();
                i += 1;
            }
            b',' => {
                match frames.last_mut() {
                    Some(Frame::Object(key)) => *key = None,
                    Some(Frame::Array(index)) => *index += 1,
                    None => return found,
                }
                i += 1;
            }
            b':' => i += 1,
            b'"' => {
                let Some(end) = string_end(json, i) else { return found };
                if let Some(Frame::Object(key @ None)) = frames.last_mut() {
                    *key = Some((i, end));
                }
                i = end;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < json.len() && matches!(json[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                    i += 1;
                }
                // The literal is ASCII by construction; anything malformed is the parser's to refuse.
                let text = std::str::from_utf8(&json[start..i]).unwrap_or_default();
                if hundredths_from_text(text) == Err(DomainError::TooManyDecimals) {
                    found.push(path(json, &frames));
                }
            }
            b't' | b'f' | b'n' => {
                while i < json.len() && json[i].is_ascii_alphabetic() {
                    i += 1;
                }
            }
            _ => return found,
        }
    }
    found
}

/// The index just past the closing quote of the string that opens at `start`.
fn string_end(json: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < json.len() {
        match json[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

fn path(json: &[u8], frames: &[Frame]) -> Vec<String> {
    frames
        .iter()
        .map(|frame| match frame {
            // Decoding the key resolves its escapes; a key that is not a string the parser
            // refuses next, so its raw text will do.
            Frame::Object(Some((start, end))) => serde_json::from_slice::<String>(&json[*start..*end])
                .unwrap_or_else(|_| String::from_utf8_lossy(&json[*start..*end]).into_owned()),
            Frame::Object(None) => String::new(),
            Frame::Array(index) => index.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(json: &str) -> Vec<String> {
        inexact_numbers(json.as_bytes()).iter().map(|p| p.join(".")).collect()
    }

    #[test]
    fn two_decimals_however_written_pass() {
        assert!(
            scan(r#"{"amount": 1.100, "a": 1e2, "b": 125e-2, "c": -5.5, "d": 0, "e": 1.5E+1}"#).is_empty()
        );
        assert!(scan(r#"{"amount": 10.50000000000000000000}"#).is_empty());
    }

    #[test]
    fn a_third_decimal_is_found_however_written() {
        assert_eq!(scan(r#"{"amount": 1.0000000000000000001}"#), ["amount"]);
        assert_eq!(scan(r#"{"amount":1.001}"#), ["amount"]);
        assert_eq!(scan(r#"{"amount": 1e-3}"#), ["amount"]);
        assert_eq!(scan(r#"{"amount": -0.005}"#), ["amount"]);
        assert_eq!(scan(r#"{"amount": 12.5E-2}"#), ["amount"]);
    }

    #[test]
    fn nested_objects_and_arrays_are_named() {
        let json = r#"{"a": {"b": [1, 2.5, 3.333, {"c": 0.001}]}, "d": [[1.111]], "e": 2}"#;
        assert_eq!(scan(json), ["a.b.2", "a.b.3.c", "d.0.0"]);
        assert_eq!(scan("[1, 1.001]"), ["1"]);
        assert_eq!(scan("1.001"), [""]);
        assert_eq!(scan(r#"{"a": [], "b": {}, "c": 1.001}"#), ["c"]);
    }

    #[test]
    fn digits_in_strings_are_not_numbers() {
        let json =
            r#"{"name": "1.001 \"2.002\" \\", "x\"y": 1.001, "n": "\u0031.001", "ok": true, "no": null}"#;
        assert_eq!(scan(json), ["x\"y"]);
        assert_eq!(scan(r#"{"\u0061mount": 0.001}"#), ["amount"]);
        assert!(scan(r#"{"a": "1e-3", "b": false}"#).is_empty());
    }

    #[test]
    fn integers_and_huge_values_are_left_to_the_schema() {
        assert!(scan(r#"{"page": 3, "big": 1e400, "long": 123456789012345678901234567890}"#).is_empty());
    }

    #[test]
    fn malformed_json_stops_the_scan_quietly() {
        assert_eq!(scan(r#"{"a": 1.001, "b": @ 1.001}"#), ["a"]);
        assert!(scan(r#"{"a": "unterminated"#).is_empty());
        assert!(scan("").is_empty());
        assert!(scan("]]]}}}").is_empty());
        assert!(scan(&"[".repeat(100_000)).is_empty());
    }
}
