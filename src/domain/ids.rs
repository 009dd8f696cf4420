//! Object ids: a type prefix and a UUIDv7 as 32 lowercase hex characters (`chg_0192f1c2…`),
//! so ids sort by creation time and say what they name.

/// A new id with the given prefix (`dbt`, `chg`, `evt`, `org`, …).
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{}", uuid::Uuid::now_v7().simple())
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
}
