//! E-mail addresses of debtors and contacts.
//!
//! Rules: at most 80 characters (Kobana's limit); exactly one `@`; a non-empty local part of at
//! most 64 characters (RFC 5321) made of RFC 5322 `atext`, dots or non-ASCII letters (RFC 6531); a
//! domain of dot-separated labels of letters, digits and `-` with at least one dot; no spaces or
//! control characters anywhere. The domain is lowercased (domains are case-insensitive); the local
//! part is kept as given (it may be case-sensitive).

use super::error::DomainError;

/// Kobana's limit on e-mail length, in characters.
pub const MAX_EMAIL_LEN: usize = 80;
const MAX_LOCAL_LEN: usize = 64;

fn local_char_ok(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || "!#$%&'*+-/=?^_`{|}~.".contains(c)
        || (!c.is_ascii() && !c.is_whitespace() && !c.is_control())
}

fn domain_label_ok(label: &str) -> bool {
    !label.is_empty()
        && label.chars().count() <= 63
        && !label.starts_with('-')
        && !label.ends_with('-')
        && label.chars().all(|c| c == '-' || c.is_alphanumeric())
}

/// Validates an e-mail address (surrounding whitespace is trimmed) and returns it with the
/// domain in lowercase, e.g. `" Maria.Silva@Example.COM.br "` -> `"Maria.Silva@example.com.br"`.
pub fn parse_email(input: &str) -> Result<String, DomainError> {
    let s = input.trim();
    if s.is_empty() {
        return Err(DomainError::Empty);
    }
    if s.chars().count() > MAX_EMAIL_LEN {
        return Err(DomainError::EmailTooLong);
    }
    if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(DomainError::InvalidEmail);
    }
    let (local, domain) = match s.split_once('@') {
        Some((l, d)) if !d.contains('@') => (l, d),
        _ => return Err(DomainError::InvalidEmail),
    };
    if local.is_empty()
        || local.chars().count() > MAX_LOCAL_LEN
        || !local.chars().all(local_char_ok)
        || local.starts_with('.')
        || local.ends_with('.')
        || local.contains("..")
    {
        return Err(DomainError::InvalidEmail);
    }
    if !domain.contains('.') || !domain.split('.').all(domain_label_ok) {
        return Err(DomainError::InvalidEmail);
    }
    Ok(format!("{local}@{}", domain.to_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_addresses() {
        assert_eq!(parse_email("maria@example.com").unwrap(), "maria@example.com");
        assert_eq!(parse_email("  Maria.Silva@Example.COM.br\n").unwrap(), "Maria.Silva@example.com.br");
        assert_eq!(
            parse_email("joao+cobranca@sub.dominio-x.com.br").unwrap(),
            "joao+cobranca@sub.dominio-x.com.br"
        );
        assert_eq!(parse_email("joão@exemplo.com.br").unwrap(), "joão@exemplo.com.br");
        assert_eq!(parse_email("a@AÇÚCAR.com.br").unwrap(), "a@açúcar.com.br");
    }

    #[test]
    fn length_limit_is_80_characters() {
        let domain = "@example.com"; // 12 characters
        let ok = format!("{}{domain}", "a".repeat(64)); // 76
        assert!(parse_email(&ok).is_ok());
        let at_limit = format!("{}@{}.com", "a".repeat(60), "b".repeat(15)); // 80
        assert_eq!(at_limit.len(), 80);
        assert!(parse_email(&at_limit).is_ok());
        let over = format!("{}@{}.com", "a".repeat(60), "b".repeat(16)); // 81
        assert_eq!(parse_email(&over), Err(DomainError::EmailTooLong));
        // Characters, not bytes: 80 two-byte characters is fine length-wise.
        let accented = format!("{}@{}.com", "é".repeat(60), "b".repeat(15));
        assert!(parse_email(&accented).is_ok());
        assert_eq!(parse_email(&"a".repeat(100_000)), Err(DomainError::EmailTooLong));
    }

    #[test]
    fn invalid_addresses() {
        for bad in [
            "maria",
            "maria@",
            "@example.com",
            "maria@example",
            "maria@@example.com",
            "maria@exa@mple.com",
            "ma ria@example.com",
            "maria@exa mple.com",
            "maria@example.com\u{0}",
            "ma\tria@example.com",
            "maria@.example.com",
            "maria@example.com.",
            "maria@example..com",
            "maria@-example.com",
            "maria@exam_ple.com",
            ".maria@example.com",
            "maria.@example.com",
            "ma..ria@example.com",
            "<maria@example.com>",
            "maria,jose@example.com",
            "\"maria\"@example.com",
            "maria@[127.0.0.1]",
        ] {
            assert_eq!(parse_email(bad), Err(DomainError::InvalidEmail), "{bad:?}");
        }
        assert_eq!(parse_email(""), Err(DomainError::Empty));
        assert_eq!(parse_email(" \t "), Err(DomainError::Empty));
        let long_local = format!("{}@example.com", "a".repeat(65));
        assert_eq!(parse_email(&long_local), Err(DomainError::InvalidEmail));
    }
}
