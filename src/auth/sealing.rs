//! The server keys and sealed confirmation states.
//!
//! A state is `base64url(nonce || XChaCha20-Poly1305(key, nonce, JSON))` with a random 24-byte
//! nonce: the client holds it between the two halves of a confirmation, so it must neither read
//! what it binds (organization, token, argument digest) nor change it.
//!
//! Keys rotate: states are sealed under the newest key and opened under any key still listed,
//! so a state sealed just before a rotation stays good until it expires.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

use crate::domain::dates::{format_timestamp, parse_timestamp};
use crate::store::{Store, StoreError};

/// Length of the random nonce that leads every state.
const NONCE_LEN: usize = 24;
/// Binds the ciphertext to its purpose, so nothing else sealed under these keys opens as a state.
const AAD: &[u8] = b"kobana-dunning confirmation state v1";
/// Name of the first key kept in the database; rotated keys are `confirmation_key:<id>`.
const DB_KEY: &str = "confirmation_key";
/// How long a retired key still opens states. States live 5 minutes; a day leaves room for
/// replicas that restart late.
const RETIRED_KEY_GRACE: Duration = Duration::days(1);

/// The keys that seal states, newest first (never empty).
#[derive(Clone)]
pub struct ServerKey {
    keys: Vec<[u8; 32]>,
}

impl std::fmt::Debug for ServerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ServerKey({} keys, …)", self.keys.len())
    }
}

/// Failures loading the keys or sealing a state.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The key file cannot be read.
    #[error("cannot read the secret key file: {0}")]
    File(#[from] std::io::Error),
    /// A key in the file or the database is too short.
    #[error("every secret key must have at least 32 bytes")]
    TooShort,
    /// The key file holds no key.
    #[error("the secret key file holds no key")]
    Empty,
    /// Other users of the machine can read the key file, and so forge confirmations.
    #[error("the secret key file {path} can be read by other users (mode {mode:o}); run: chmod 600 {path}")]
    Readable { path: String, mode: u32 },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// No randomness.
    #[error("no randomness available: {0}")]
    Random(String),
    /// The state could not be sealed.
    #[error("the state could not be sealed")]
    Seal,
}

fn derive(material: &[u8]) -> Result<[u8; 32], KeyError> {
    if material.len() < 32 {
        return Err(KeyError::TooShort);
    }
    // Hashed to 32 bytes, so any long secret works.
    Ok(Sha256::digest(material).into())
}

fn random_key_text() -> Result<String, KeyError> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| KeyError::Random(e.to_string()))?;
    Ok(URL_SAFE_NO_PAD.encode(key))
}

/// Refuses a key file that its group or others may read: whoever reads the key can seal a
/// confirmation as the server.
#[cfg(unix)]
fn refuse_shared(path: &std::path::Path) -> Result<(), KeyError> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)?.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(KeyError::Readable { path: path.display().to_string(), mode });
    }
    Ok(())
}

#[cfg(not(unix))]
fn refuse_shared(_: &std::path::Path) -> Result<(), KeyError> {
    Ok(())
}

impl ServerKey {
    /// From key material (at least 32 bytes).
    pub fn from_material(material: &[u8]) -> Result<Self, KeyError> {
        Self::from_materials([material])
    }

    /// From several keys' material, newest first.
    pub fn from_materials<'a>(materials: impl IntoIterator<Item = &'a [u8]>) -> Result<Self, KeyError> {
        let keys = materials.into_iter().map(derive).collect::<Result<Vec<_>, _>>()?;
        if keys.is_empty() {
            return Err(KeyError::Empty);
        }
        Ok(Self { keys })
    }

    /// The keys of a `--secret-key-file`: one a line, newest first; blank lines are skipped.
    pub fn from_file_text(text: &[u8]) -> Result<Self, KeyError> {
        Self::from_materials(text.split(|b| *b == b'\n').map(<[u8]>::trim_ascii).filter(|l| !l.is_empty()))
    }

    /// From `--secret-key-file`, else the keys kept in the database (the first one generated
    /// on the first start).
    pub async fn load(store: &Store, file: Option<&std::path::Path>) -> Result<Self, KeyError> {
        if let Some(path) = file {
            refuse_shared(path)?;
            return Self::from_file_text(&std::fs::read(path)?);
        }
        let mut keys = stored_keys(store).await?;
        if keys.is_empty() {
            // The first replica to start wins; every replica then reads the same value.
            store
                .secret_or_insert(DB_KEY, &random_key_text()?, &format_timestamp(OffsetDateTime::now_utc()))
                .await?;
            keys = stored_keys(store).await?;
        }
        Self::from_materials(keys.iter().map(|(_, value, _)| value.as_bytes()))
    }

    /// How many keys open states.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Never true: a key ring always has a key to seal with.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    fn cipher(key: &[u8; 32]) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new(&(*key).into())
    }

    /// Seals a payload under the newest key.
    pub fn seal<T: Serialize>(&self, payload: &T) -> Result<String, KeyError> {
        let json = serde_json::to_vec(payload).map_err(|_| KeyError::Seal)?;
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|e| KeyError::Random(e.to_string()))?;
        let newest = self.keys.first().ok_or(KeyError::Empty)?;
        let sealed = Self::cipher(newest)
            .encrypt(&XNonce::from(nonce), Payload { msg: &json, aad: AAD })
            .map_err(|_| KeyError::Seal)?;
        let mut out = Vec::with_capacity(NONCE_LEN + sealed.len());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        Ok(URL_SAFE_NO_PAD.encode(out))
    }

    /// Opens a sealed payload under any listed key; `None` when no key sealed it, it was
    /// changed, or it does not parse.
    pub fn open<T: for<'de> Deserialize<'de>>(&self, sealed: &str) -> Option<T> {
        let bytes = URL_SAFE_NO_PAD.decode(sealed).ok()?;
        if bytes.len() <= NONCE_LEN {
            return None;
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
        let nonce = XNonce::try_from(nonce).ok()?;
        let json = self
            .keys
            .iter()
            .find_map(|key| Self::cipher(key).decrypt(&nonce, Payload { msg: ciphertext, aad: AAD }).ok())?;
        serde_json::from_slice(&json).ok()
    }
}

/// The confirmation keys kept in the database as (name, value, created_at), newest first.
async fn stored_keys(store: &Store) -> Result<Vec<(String, String, String)>, KeyError> {
    let mut keys = store.secrets_named(DB_KEY).await?;
    // Timestamps are fixed-width UTC and names end in a time-ordered id: text order is age order.
    keys.sort_by(|a, b| (&b.2, &b.0).cmp(&(&a.2, &a.0)));
    Ok(keys)
}

/// `keys rotate`: adds a new newest key to the database and forgets keys retired more than a
/// day ago (a retired key keeps opening states sealed before the rotation). Returns how many
/// keys remain. Running servers pick the new key up when they restart.
pub async fn rotate_stored_key(store: &Store, now: OffsetDateTime) -> Result<usize, KeyError> {
    let name = format!("{DB_KEY}:{}", uuid::Uuid::now_v7().simple());
    store.secret_or_insert(&name, &random_key_text()?, &format_timestamp(now)).await?;
    let keys = stored_keys(store).await?;
    // A key retired when its successor was created; the newest is never retired.
    let mut kept = 0;
    for (successor, key) in keys.iter().zip(keys.iter().skip(1)) {
        let retired_at = parse_timestamp(&successor.2).unwrap_or(now);
        if now - retired_at > RETIRED_KEY_GRACE {
            store.delete_secret(&key.0).await?;
        } else {
            kept += 1;
        }
    }
    Ok(kept + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> serde_json::Value {
        serde_json::json!({"org": "org_1", "tool": "dunning_charges_cancel", "exp": 1})
    }

    #[test]
    fn sealed_states_are_opaque_and_resist_tampering() {
        let key = ServerKey::from_material(&[7u8; 32]).unwrap();
        let other = ServerKey::from_material(&[8u8; 32]).unwrap();
        let sealed = key.seal(&state()).unwrap();
        let opened: serde_json::Value = key.open(&sealed).unwrap();
        assert_eq!(opened["tool"], "dunning_charges_cancel");
        assert!(other.open::<serde_json::Value>(&sealed).is_none(), "an unknown key opens nothing");

        let bytes = URL_SAFE_NO_PAD.decode(&sealed).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for field in ["org_", "\"exp\"", "dunning_charges_cancel", "\"tool\""] {
            assert!(!text.contains(field), "{field} readable in {text}");
        }
        for i in 0..bytes.len() {
            let mut tampered = bytes.clone();
            tampered[i] ^= 1;
            assert!(key.open::<serde_json::Value>(&URL_SAFE_NO_PAD.encode(&tampered)).is_none(), "byte {i}");
        }
        assert!(key.open::<serde_json::Value>(&URL_SAFE_NO_PAD.encode(&bytes[..bytes.len() - 1])).is_none());
        assert!(key.open::<serde_json::Value>("").is_none());
        assert_ne!(key.seal(&state()).unwrap(), sealed, "a fresh nonce each time");
        assert!(ServerKey::from_material(b"short").is_err());
    }

    #[test]
    fn states_sealed_under_an_older_key_open_after_rotation() {
        let old = [b'a'; 40];
        let new = [b'b'; 40];
        let before = ServerKey::from_materials([&old[..]]).unwrap();
        let sealed_before = before.seal(&state()).unwrap();

        let file = [&new[..], b"\n\n", &old[..], b"\n"].concat();
        let after = ServerKey::from_file_text(&file).unwrap();
        assert_eq!(after.len(), 2);
        assert!(after.open::<serde_json::Value>(&sealed_before).is_some(), "the old key still opens");
        let sealed_after = after.seal(&state()).unwrap();
        assert!(before.open::<serde_json::Value>(&sealed_after).is_none(), "sealed under the newest key");
        let only_new = ServerKey::from_materials([&new[..]]).unwrap();
        assert!(only_new.open::<serde_json::Value>(&sealed_after).is_some());
        assert!(only_new.open::<serde_json::Value>(&sealed_before).is_none(), "a dropped key opens nothing");

        assert!(matches!(ServerKey::from_file_text(b"\n  \n"), Err(KeyError::Empty)));
        assert!(matches!(
            ServerKey::from_file_text(&[&new[..], b"\nshort"].concat()),
            Err(KeyError::TooShort)
        ));
    }

    #[tokio::test]
    async fn rotation_keeps_the_keys_live_states_need() {
        let store = Store::open("sqlite::memory:").await.unwrap();
        let first = ServerKey::load(&store, None).await.unwrap();
        assert_eq!(first.len(), 1);
        assert_eq!(ServerKey::load(&store, None).await.unwrap().len(), 1, "loading creates no key");
        let sealed_first = first.seal(&state()).unwrap();

        let now = OffsetDateTime::now_utc();
        assert_eq!(rotate_stored_key(&store, now).await.unwrap(), 2);
        let second = ServerKey::load(&store, None).await.unwrap();
        assert!(second.open::<serde_json::Value>(&sealed_first).is_some(), "the old key still opens");
        let sealed_second = second.seal(&state()).unwrap();
        assert!(first.open::<serde_json::Value>(&sealed_second).is_none(), "sealed under the new key");

        // Two days on, the first key was retired long ago and goes; the second just now, and stays.
        assert_eq!(rotate_stored_key(&store, now + Duration::days(2)).await.unwrap(), 2);
        let third = ServerKey::load(&store, None).await.unwrap();
        assert_eq!(third.len(), 2);
        assert!(third.open::<serde_json::Value>(&sealed_first).is_none());
        assert!(third.open::<serde_json::Value>(&sealed_second).is_some());
    }
}
