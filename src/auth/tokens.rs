//! Opaque access tokens: 32 random bytes, base64url, prefixed `kd_at_`, stored only as their
//! SHA-256 so a database leak does not leak working tokens.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

/// The prefix that makes tokens recognisable (secret scanners, logs).
pub const TOKEN_PREFIX: &str = "kd_at_";

/// A fresh token and the hash to store.
pub fn mint_token() -> Result<(String, String), getrandom::Error> {
    mint_secret(TOKEN_PREFIX)
}

/// A fresh secret of the same shape with another prefix (refresh tokens, authorization
/// codes, session cookies), and the hash to store.
pub fn mint_secret(prefix: &str) -> Result<(String, String), getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    let secret = format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes));
    let hash = hash_token(&secret);
    Ok((secret, hash))
}

/// Whether a text has the shape of a token this server mints: the prefix and 32 bytes of
/// base64url. Anything else is refused without a database lookup.
pub fn looks_like_token(text: &str) -> bool {
    text.strip_prefix(TOKEN_PREFIX).is_some_and(|rest| {
        rest.len() == 43 && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

/// The stored form of a token.
pub fn hash_token(token: &str) -> String {
    // Into a buffer, then one copy (`hex::encode` pushes a char at a time).
    let mut text = [0u8; 64];
    hex::encode_to_slice(Sha256::digest(token.as_bytes()), &mut text).expect("32 bytes are 64 hex digits");
    crate::domain::text::ascii_string(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_prefixed_unique_and_hashed() {
        let (a, hash_a) = mint_token().unwrap();
        let (b, _) = mint_token().unwrap();
        assert!(a.starts_with(TOKEN_PREFIX));
        assert_eq!(a.len(), TOKEN_PREFIX.len() + 43);
        assert_ne!(a, b);
        assert_eq!(hash_a, hash_token(&a));
        assert_eq!(hash_a.len(), 64);
        assert!(!hash_a.contains(&a[TOKEN_PREFIX.len()..]));
        // The stored hash: SHA-256 in lowercase hex.
        assert_eq!(hash_token("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
