//! Passwords of the users who sign in: argon2id with the crate's default cost (19 MiB, two
//! passes), stored as PHC strings so the parameters travel with each hash and can be raised
//! later without breaking stored ones.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

/// A password could not be hashed.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// The system random source failed (no salt).
    #[error("no randomness available for a salt")]
    Random,
    /// Refused by the policy below.
    #[error("{0}")]
    Weak(&'static str),
    /// argon2 refused (never expected with the default parameters).
    #[error("password hashing failed")]
    Hash,
}

/// The shortest password accepted.
pub const MIN_PASSWORD_CHARS: usize = 10;
/// The longest: argon2 takes any length, but a megabyte "password" is an attack on CPU.
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// The PHC string of a new password.
pub fn hash_password(password: &str) -> Result<String, PasswordError> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(PasswordError::Weak("the password needs at least 10 characters"));
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(PasswordError::Weak("the password is longer than 1024 bytes"));
    }
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|_| PasswordError::Random)?;
    let salt = SaltString::encode_b64(&salt).map_err(|_| PasswordError::Hash)?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|_| PasswordError::Hash)
}

/// Whether `password` matches a stored PHC string (false for a string that does not parse).
pub fn verify_password(password: &str, stored: &str) -> bool {
    if password.len() > MAX_PASSWORD_BYTES {
        return false;
    }
    let Ok(parsed) = PasswordHash::new(stored) else { return false };
    Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok()
}

/// Spends the time of one verification, for an e-mail nobody has: an unknown address then
/// takes as long to refuse as a wrong password, so timing does not say who has an account.
pub fn verify_nobody(password: &str) {
    static DUMMY: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    if let Some(hash) = DUMMY.get_or_init(|| hash_password("not anybody's password").ok()) {
        let _ = verify_password(password, hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argon2id_round_trip() {
        let stored = hash_password("correct horse battery").unwrap();
        assert!(stored.starts_with("$argon2id$"), "{stored}");
        assert!(verify_password("correct horse battery", &stored));
        assert!(!verify_password("correct horse batterY", &stored));
        assert!(!verify_password("correct horse battery", "not a phc string"));
        assert_ne!(stored, hash_password("correct horse battery").unwrap(), "salted");
    }

    #[test]
    fn short_and_huge_passwords_are_refused() {
        assert!(matches!(hash_password("short"), Err(PasswordError::Weak(_))));
        assert!(matches!(hash_password(&"x".repeat(2000)), Err(PasswordError::Weak(_))));
        verify_nobody("anything");
    }
}
