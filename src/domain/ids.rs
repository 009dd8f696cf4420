//! Object ids: a type prefix and a UUIDv7 as 32 lowercase hex characters (`chg_0192f1c2…`),
//! so ids sort by creation time and say what they name.
//!
//! Every request gets an id, so making one must be cheap: the random bits come from a pool
//! filled by the operating system a kilobyte at a time rather than from one system call per id,
//! and ids made in the same millisecond count up from a random start (RFC 9562 section 6.2,
//! method 1) so that they still sort in the order they were made.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// A new id with the given prefix (`dbt`, `chg`, `evt`, `org`, …).
pub fn new_id(prefix: &str) -> String {
    let uuid = GENERATOR.lock().unwrap_or_else(|p| p.into_inner()).next();
    let mut id = String::with_capacity(prefix.len() + 33);
    id.push_str(prefix);
    id.push('_');
    for byte in uuid {
        id.push(char::from(HEX[usize::from(byte >> 4)]));
        id.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    id
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The counter's width: 12 bits of `rand_a` and 30 of `rand_b`.
const COUNTER_BITS: u32 = 42;

static GENERATOR: Mutex<Generator> =
    Mutex::new(Generator { millis: 0, counter: 0, pool: [0; POOL], used: POOL });

const POOL: usize = 1024;

struct Generator {
    /// The millisecond of the last id (never goes back, even if the clock does).
    millis: u64,
    /// Counts ids within that millisecond.
    counter: u64,
    pool: [u8; POOL],
    used: usize,
}

impl Generator {
    fn next(&mut self) -> [u8; 16] {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        if now > self.millis {
            self.millis = now;
            // A random start with its top bit clear leaves room to count up.
            self.counter = self.random_u64() & ((1 << (COUNTER_BITS - 1)) - 1);
        } else {
            self.counter += 1;
            if self.counter >> COUNTER_BITS != 0 {
                // 2^41 ids in one millisecond: borrow the next millisecond.
                self.millis += 1;
                self.counter = 0;
            }
        }
        let tail = self.random_u64() as u32;
        let mut uuid = [0u8; 16];
        uuid[..6].copy_from_slice(&self.millis.to_be_bytes()[2..]);
        let counter_high = (self.counter >> 30) as u16; // 12 bits
        uuid[6..8].copy_from_slice(&(0x7000 | counter_high).to_be_bytes());
        let counter_low = (self.counter & ((1 << 30) - 1)) as u32; // 30 bits
        uuid[8..12].copy_from_slice(&(0x8000_0000 | counter_low).to_be_bytes());
        uuid[12..].copy_from_slice(&tail.to_be_bytes());
        uuid
    }

    fn random_u64(&mut self) -> u64 {
        if self.used + 8 > POOL {
            // Without the operating system's randomness nothing here is safe to go on with.
            getrandom::fill(&mut self.pool).expect("the operating system's random source failed");
            self.used = 0;
        }
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&self.pool[self.used..self.used + 8]);
        self.used += 8;
        u64::from_ne_bytes(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_their_prefix_and_sort_by_time() {
        let a = new_id("chg");
        let b = new_id("chg");
        assert!(a.starts_with("chg_") && a.len() == 4 + 32, "{a}");
        assert!(a[4..].bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)), "{a}");
        assert!(a < b, "UUIDv7 ids sort by creation");
    }

    #[test]
    fn ids_are_version_7_uuids_that_keep_their_order_in_a_burst() {
        let ids: Vec<String> = (0..20_000).map(|_| new_id("evt")).collect();
        for pair in ids.windows(2) {
            assert!(pair[0] < pair[1], "{} then {}", pair[0], pair[1]);
        }
        for id in &ids[..10] {
            let uuid = uuid::Uuid::parse_str(&id[4..]).unwrap();
            assert_eq!(uuid.get_version_num(), 7, "{id}");
            assert_eq!(uuid.get_variant(), uuid::Variant::RFC4122, "{id}");
            let (seconds, _) = uuid.get_timestamp().unwrap().to_unix();
            let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
            assert!(now.abs_diff(seconds) < 60, "{id}");
        }
    }
}
