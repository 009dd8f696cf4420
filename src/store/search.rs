//! The folded search key: what `q` prefix search compares, so that `ângela` finds "Ângela" and
//! `529.982` finds document 52998224725. The store writes a key next to each searchable field
//! on insert and update; a query is folded the same way and compared as a prefix range, which
//! both databases answer from a plain B-tree index (byte order: `COLLATE "C"` in PostgreSQL).

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Lower case, accents stripped, punctuation and symbols dropped, runs of spaces made one.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.nfd().filter(|c| !is_combining_mark(*c)) {
        if c.is_alphanumeric() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.extend(c.to_lowercase());
        } else if c.is_whitespace() {
            space = true;
        }
        // Anything else (. - / ' , …) is dropped: documents and external ids are matched
        // with or without their punctuation.
    }
    out
}

/// The keys that find a folded name by a later word: the name from each word after the first
/// on ("costa ribeiro", "ribeiro" for "mariana costa ribeiro"), each once, in byte order.
pub fn later_words(folded: &str) -> Vec<&str> {
    let mut out: Vec<&str> = folded.match_indices(' ').map(|(i, _)| &folded[i + 1..]).collect();
    out.sort_unstable();
    out.dedup();
    out.retain(|w| !w.is_empty());
    out
}

/// The exclusive upper bound of the keys that start with `prefix`: nothing a key holds sorts
/// after U+10FFFF in byte order.
pub fn prefix_end(prefix: &str) -> String {
    format!("{prefix}\u{10FFFF}")
}

/// The id prefix of a query: ids are lower-case ASCII, so only case is folded.
pub fn id_prefix(q: &str) -> String {
    q.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accents_and_case_fold() {
        assert_eq!(fold("Ângela Conceição"), "angela conceicao");
        assert_eq!(fold("ÂNGELA"), fold("ângela"));
        assert_eq!(fold("João D'Ávila"), "joao davila");
        assert_eq!(fold("Ñandú Müller"), "nandu muller");
    }

    #[test]
    fn punctuation_goes_and_spaces_collapse() {
        assert_eq!(fold("529.982.247-25"), "52998224725");
        assert_eq!(fold("11.222.333/0001-81"), "11222333000181");
        assert_eq!(fold("  Padaria   Pão\tQuente  "), "padaria pao quente");
        assert_eq!(fold("INV-2024/001"), "inv2024001");
        assert_eq!(fold("%_\\"), "");
    }

    #[test]
    fn a_folded_query_is_a_prefix_of_the_folded_value() {
        for (value, query) in [
            ("Ângela Souza", "ângela"),
            ("Ângela Souza", "ANGE"),
            ("52998224725", "529.982"),
            ("52998224725", "529982"),
            ("Padaria Pão Quente", "padaria pão q"),
        ] {
            let (key, q) = (fold(value), fold(query));
            assert!(key.starts_with(&q), "{value} / {query}");
            assert!(key.as_str() >= q.as_str() && key < prefix_end(&q), "{value} / {query}");
        }
        assert!(!fold("Bruno Costa").starts_with(&fold("Costa")), "a prefix, not a substring");
    }

    #[test]
    fn a_name_is_found_by_each_of_its_words() {
        assert_eq!(later_words("mariana costa ribeiro"), ["costa ribeiro", "ribeiro"]);
        assert!(later_words("ribeiro").is_empty());
        assert_eq!(later_words("ana maria ana"), ["ana", "maria ana"]);
    }

    #[test]
    fn the_range_excludes_what_does_not_start_with_the_prefix() {
        let end = prefix_end("ana");
        assert!("anb" >= end.as_str());
        assert!("ana zzz" < end.as_str());
        assert!("ana\u{fffd}" < end.as_str());
        assert_eq!(id_prefix(" CHG_0192 "), "chg_0192");
    }
}
