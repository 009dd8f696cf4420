//! Where a rendered message leaves the server. Sandbox organizations, and production ones
//! without a configured provider, use the outbox: the notification row itself is the record,
//! and nothing is called.

use crate::types::Channel;

/// One rendered message to deliver.
pub struct Outgoing<'a> {
    /// The notification's id: the idempotency key providers deduplicate on.
    pub id: &'a str,
    pub organization_id: &'a str,
    pub charge_id: &'a str,
    pub channel: Channel,
    pub to: &'a str,
    pub subject: Option<&'a str>,
    pub body: &'a str,
}

/// A provider took the message.
pub struct Sent {
    pub provider: &'static str,
    pub provider_message_id: Option<String>,
}

/// A provider refused the message.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// Try again later.
    #[error("{0}")]
    Transient(String),
    /// Give up now.
    #[error("{0}")]
    Permanent(String),
}

/// The configured providers.
#[derive(Default)]
pub struct Providers {}

impl Providers {
    /// Delivers one message: always the outbox in sandbox.
    pub async fn deliver(&self, _sandbox: bool, _msg: &Outgoing<'_>) -> Result<Sent, ProviderError> {
        Ok(Sent { provider: "outbox", provider_message_id: None })
    }
}
