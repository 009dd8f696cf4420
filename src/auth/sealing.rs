//! The server key and sealed confirmation states (DESIGN.md section 8).
//!
//! A state is `base64url(JSON) "." base64url(HMAC-SHA256(key, JSON))`: the client holds it
//! between the two halves of a confirmation, so it must not be able to change what it binds.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use time::OffsetDateTime;

use crate::domain::dates::format_timestamp;
use crate::store::{Store, StoreError};

/// The key that seals states.
#[derive(Clone)]
pub struct ServerKey([u8; 32]);

impl std::fmt::Debug for ServerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerKey(…)")
    }
}

/// Failures loading the key.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The key file cannot be read.
    #[error("cannot read the secret key file: {0}")]
    File(#[from] std::io::Error),
    /// The key file or stored key is too short.
    #[error("the secret key must have at least 32 bytes")]
    TooShort,
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// No randomness.
    #[error("no randomness available: {0}")]
    Random(String),
}

impl ServerKey {
    /// From key material (hashed to 32 bytes, so any long secret works).
    pub fn from_material(material: &[u8]) -> Result<Self, KeyError> {
        use sha2::Digest;
        if material.len() < 32 {
            return Err(KeyError::TooShort);
        }
        Ok(Self(Sha256::digest(material).into()))
    }

    /// From `--secret-key-file`, else the key kept in the database (generated once).
    pub async fn load(store: &Store, file: Option<&std::path::Path>) -> Result<Self, KeyError> {
        if let Some(path) = file {
            let material = std::fs::read(path)?;
            return Self::from_material(material.trim_ascii());
        }
        let mut candidate = [0u8; 32];
        getrandom::fill(&mut candidate).map_err(|e| KeyError::Random(e.to_string()))?;
        let stored = store
            .secret_or_insert(
                "confirmation_key",
                &URL_SAFE_NO_PAD.encode(candidate),
                &format_timestamp(OffsetDateTime::now_utc()),
            )
            .await?;
        Self::from_material(stored.as_bytes())
    }

    fn mac(&self) -> Hmac<Sha256> {
        <Hmac<Sha256> as Mac>::new_from_slice(&self.0).expect("HMAC takes keys of any length")
    }

    /// Seals a payload.
    pub fn seal<T: Serialize>(&self, payload: &T) -> String {
        let json = serde_json::to_vec(payload).expect("state payloads serialize");
        let mut mac = self.mac();
        mac.update(&json);
        let tag = mac.finalize().into_bytes();
        format!("{}.{}", URL_SAFE_NO_PAD.encode(&json), URL_SAFE_NO_PAD.encode(tag))
    }

    /// Opens a sealed payload; `None` when it was not sealed by this key or does not parse.
    pub fn open<T: for<'de> Deserialize<'de>>(&self, sealed: &str) -> Option<T> {
        let (payload, tag) = sealed.split_once('.')?;
        let payload = URL_SAFE_NO_PAD.decode(payload).ok()?;
        let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
        let mut mac = self.mac();
        mac.update(&payload);
        mac.verify_slice(&tag).ok()?;
        serde_json::from_slice(&payload).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_states_resist_tampering() {
        let key = ServerKey::from_material(&[7u8; 32]).unwrap();
        let other = ServerKey::from_material(&[8u8; 32]).unwrap();
        let sealed = key.seal(&serde_json::json!({"tool": "dunning_charges_cancel"}));
        let opened: serde_json::Value = key.open(&sealed).unwrap();
        assert_eq!(opened["tool"], "dunning_charges_cancel");
        assert!(other.open::<serde_json::Value>(&sealed).is_none());
        let (payload, tag) = sealed.split_once('.').unwrap();
        let forged = URL_SAFE_NO_PAD.encode(br#"{"tool":"dunning_debtors_delete"}"#);
        assert!(key.open::<serde_json::Value>(&format!("{forged}.{tag}")).is_none());
        assert!(key.open::<serde_json::Value>(payload).is_none());
        assert!(ServerKey::from_material(b"short").is_err());
    }
}
