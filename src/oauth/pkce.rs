//! PKCE (RFC 7636), S256 only: OAuth 2.1 clients must use it, and `plain` would put the
//! verifier itself in the browser's address bar.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

use super::constant_time::constant_time_eq;

/// Whether a challenge has the shape of an S256 challenge: base64url of 32 bytes.
pub fn valid_challenge(challenge: &str) -> bool {
    challenge.len() == 43 && challenge.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether a verifier is well formed: 43 to 128 unreserved characters (RFC 7636 section 4.1).
pub fn valid_verifier(verifier: &str) -> bool {
    (43..=128).contains(&verifier.len())
        && verifier.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// The S256 challenge of a verifier.
pub fn s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Whether `verifier` answers `challenge`.
pub fn verify(verifier: &str, challenge: &str) -> bool {
    valid_verifier(verifier) && constant_time_eq(s256(verifier).as_bytes(), challenge.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_7636_appendix_b() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert_eq!(s256(verifier), challenge);
        assert!(valid_challenge(challenge));
        assert!(verify(verifier, challenge));
        assert!(!verify("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXK", challenge));
        assert!(!verify(challenge, challenge), "the challenge is not its own verifier");
    }

    #[test]
    fn malformed_values_are_refused() {
        assert!(!valid_verifier("short"));
        assert!(!valid_verifier(&"a".repeat(129)));
        assert!(!valid_verifier(&format!("{}!", "a".repeat(43))));
        assert!(valid_verifier(&"a~._-".repeat(10)));
        assert!(!valid_challenge("plain-text-challenge"));
        assert!(!verify(&"a".repeat(20), &s256(&"a".repeat(20))), "too short a verifier never verifies");
    }
}
