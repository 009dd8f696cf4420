//! The outbox: the default provider, and the only one a sandbox organization uses. The engine
//! has already stored the rendered message with its notification, so recording is all there is
//! to do: nothing leaves the server.

use super::{Outgoing, Sent};

pub(super) const NAME: &str = "outbox";

pub(super) fn deliver(sandbox: bool, msg: &Outgoing<'_>) -> Sent {
    tracing::debug!(
        notification = msg.id,
        organization = msg.organization_id,
        channel = msg.channel.as_str(),
        sandbox,
        "message kept in the outbox, not sent"
    );
    Sent { provider: NAME, provider_message_id: None }
}
