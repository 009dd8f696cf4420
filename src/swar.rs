//! Eight bytes at a time: tests of a `u64` word that tell whether, or where, any of its bytes is
//! one of a kind, for the loops over text that the JSON writer, the tool text and the MCP body
//! reader run on every request.

const ONES: u64 = 0x0101_0101_0101_0101;
const TOPS: u64 = 0x8080_8080_8080_8080;

/// Whether every byte of a word is below DEL (0x7f): adding one to a byte sets its top bit
/// exactly when it is 0x7f or above (a carry comes only out of 0xff, itself caught).
pub fn word_below_del(word: [u8; 8]) -> bool {
    let w = u64::from_le_bytes(word);
    (w | w.wrapping_add(ONES)) & TOPS == 0
}

/// The index of the first quote, backslash or control byte: where the inside of a JSON string
/// being read stops being plain text. Eight bytes at a time; the last few are read as a word
/// padded with zeros, which count as controls past the end and are told apart by their index.
pub fn first_needing_care(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        let word = match bytes.get(at..at + 8) {
            Some(word) => u64::from_le_bytes(word.try_into().ok()?),
            None => {
                let mut padded = [0u8; 8];
                let tail = bytes.get(at..)?;
                padded[..tail.len()].copy_from_slice(tail);
                u64::from_le_bytes(padded)
            }
        };
        let mask = care_mask(word);
        if mask != 0 {
            let found = at + mask.trailing_zeros() as usize / 8;
            return (found < bytes.len()).then_some(found);
        }
        at += 8;
    }
}

/// The top bit of each byte of a word that is a control, a quote or a backslash. Bits above the
/// lowest one set may be false (a borrow carries upward), so only the lowest is read.
pub fn care_mask(w: u64) -> u64 {
    let below = |w: u64, n: u64| w.wrapping_sub(ONES * n) & !w & TOPS;
    below(w, 0x20) | below(w ^ (ONES * u64::from(b'"')), 1) | below(w ^ (ONES * u64::from(b'\\')), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_byte_needing_care_is_found_wherever_it_falls() {
        let reference = |bytes: &[u8]| bytes.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
        let base = b"abcdefghijklmnopqrstuvwxyz0123\xc3\xa9\x7f".to_vec();
        assert_eq!(first_needing_care(&base), None);
        assert_eq!(first_needing_care(b""), None);
        // Every byte value at every place of short texts, over the padded last word too.
        for len in 1..20 {
            for at in 0..len {
                for byte in 0..=u8::MAX {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = byte;
                    assert_eq!(first_needing_care(&bytes), reference(&bytes), "{bytes:?}");
                }
            }
        }
        for special in [b'"', b'\\', 0, 0x1f, b'\n'] {
            for at in 0..base.len() {
                let mut bytes = base.clone();
                bytes[at] = special;
                assert_eq!(first_needing_care(&bytes), reference(&bytes), "{bytes:?}");
                bytes[base.len() - 1] = b'"';
                assert_eq!(first_needing_care(&bytes[..=at]), reference(&bytes[..=at]), "{bytes:?}");
            }
        }
    }
}
