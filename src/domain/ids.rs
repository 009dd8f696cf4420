//! Object ids: a type prefix and a UUIDv7 as 32 lowercase hex characters (`chg_0192f1c2…`),
//! so ids sort by creation time and say what they name.

/// A new id with the given prefix (`dbt`, `chg`, `evt`, `org`, …).
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{}", uuid::Uuid::now_v7().simple())
}

/// Whether `id` has the shape of an id with this prefix (malformed ids are simply not found).
pub fn has_shape(id: &str, prefix: &str) -> bool {
    id.strip_prefix(prefix).and_then(|rest| rest.strip_prefix('_')).is_some_and(|hex| {
        hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_their_prefix_and_sort_by_time() {
        let a = new_id("chg");
        let b = new_id("chg");
        assert!(has_shape(&a, "chg"));
        assert!(!has_shape(&a, "dbt"));
        assert!(a < b, "UUIDv7 ids sort by creation");
        assert!(!has_shape("chg_XYZ", "chg"));
    }
}
