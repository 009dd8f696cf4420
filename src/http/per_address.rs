//! Open connections counted per client address, so one host cannot hold every connection slot.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Open connections by address.
pub struct PerAddress {
    max: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One counted connection; dropping it uncounts it.
pub struct Held {
    address: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl PerAddress {
    /// At most `max` connections per address.
    pub fn new(max: usize) -> Self {
        Self { max, open: Arc::new(Mutex::new(HashMap::new())) }
    }

    /// Counts a connection from `address`, or `None` when the address already has `max`.
    pub fn admit(&self, address: IpAddr) -> Option<Held> {
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let count = open.entry(address).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(Held { address, open: self.open.clone() })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(count) = open.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_share() {
        let limit = PerAddress::new(2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = limit.admit(a).unwrap();
        let _second = limit.admit(a).unwrap();
        assert!(limit.admit(a).is_none());
        assert!(limit.admit(b).is_some(), "other addresses are not affected");
        drop(first);
        assert!(limit.admit(a).is_some(), "a closed connection frees its place");
    }
}
