//! A notification as the API shows it, whole and in lists.

use crate::domain::dates::Timestamp;
use crate::domain::notification::Notification;
use crate::types as wire;

/// The public view of a notification.
pub(crate) fn notification_view(n: &Notification) -> wire::Notification {
    wire::Notification {
        id: n.id.clone(),
        charge_id: n.charge_id.clone(),
        debtor_id: n.debtor_id.clone(),
        cp_id: n.cp_id.clone(),
        step_id: n.step_id.clone(),
        origin: n.origin,
        resend_of_id: n.resend_of_id.clone(),
        channel: n.channel,
        to: n.to.clone(),
        subject: n.subject.clone(),
        body: n.body.clone(),
        status: n.status,
        skip_reason: n.skip_reason.clone(),
        failure_reason: n.failure_reason.clone(),
        attempts: n.attempts,
        provider: n.provider.clone(),
        provider_message_id: n.provider_message_id.clone(),
        scheduled_for: Timestamp(n.scheduled_for),
        sent_at: n.sent_at.map(Timestamp),
        failed_at: n.failed_at.map(Timestamp),
        canceled_at: n.canceled_at.map(Timestamp),
        version: n.version,
        created_at: Timestamp(n.created_at),
        updated_at: Timestamp(n.updated_at),
    }
}

/// A notification as lists show it: without its address and message, which can be long.
pub(crate) fn notification_summary(n: &Notification) -> wire::NotificationSummary {
    wire::NotificationSummary {
        id: n.id.clone(),
        charge_id: n.charge_id.clone(),
        debtor_id: n.debtor_id.clone(),
        cp_id: n.cp_id.clone(),
        step_id: n.step_id.clone(),
        origin: n.origin,
        resend_of_id: n.resend_of_id.clone(),
        channel: n.channel,
        subject: n.subject.clone(),
        status: n.status,
        skip_reason: n.skip_reason.clone(),
        failure_reason: n.failure_reason.clone(),
        attempts: n.attempts,
        provider: n.provider.clone(),
        provider_message_id: n.provider_message_id.clone(),
        scheduled_for: Timestamp(n.scheduled_for),
        sent_at: n.sent_at.map(Timestamp),
        failed_at: n.failed_at.map(Timestamp),
        canceled_at: n.canceled_at.map(Timestamp),
        version: n.version,
        created_at: Timestamp(n.created_at),
        updated_at: Timestamp(n.updated_at),
    }
}
