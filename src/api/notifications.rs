//! /v1/notifications: the messages sent to debtors, by the régua or by hand, as rendered.

use super::{ApiError, ApiResult, Call, ListArgs, Reply, csv};
use crate::domain::charge::{Charge, Outcome};
use crate::domain::notification::{Composing, Notification, SkipReason, Source, standard_template};
use crate::domain::policy::MessageTemplate;
use crate::domain::rules::Violations;
use crate::outbound::delivery::{Actor, Courier, Recorded};
use crate::store::NotificationFilter;
use crate::types::{
    self as wire, Channel, NotificationEnvelope, NotificationList, NotificationOrigin, SortOrder,
};
use crate::views::notification::{notification_summary, notification_view};

/// The handlers of the `notifications` tag.
pub struct Notifications;

impl Actor {
    /// The principal of a request.
    pub fn of(call: &Call) -> Self {
        let (kind, id) = call.principal.actor();
        Self { kind: kind.to_string(), id: id.to_string(), request_id: Some(call.request_id.clone()) }
    }
}

fn reply(n: &Notification) -> Reply<NotificationEnvelope> {
    Reply::versioned(NotificationEnvelope { data: notification_view(n) }, n.version)
}

async fn load(call: &Call, id: &str) -> ApiResult<Notification> {
    call.store.notification(call.org_id(), id).await?.ok_or(ApiError::NotFound("notification"))
}

/// Records `n` in the call's unit of work, answering it as recorded: delivered when the outbox
/// takes it, or queued for an outside provider, which gets it once the unit commits.
async fn send(call: &Call, n: Notification) -> ApiResult<Reply<NotificationEnvelope>> {
    let courier = Courier { store: &call.store, providers: &call.app.providers, actor: Actor::of(call) };
    let sandbox = call.store.is_sandbox(call.org_id()).await?;
    let recorded = courier.record(n, sandbox, Vec::new(), call.now).await?;
    // Only a step's notification can meet an earlier one; a manual one is always new.
    let recorded = recorded.ok_or_else(|| ApiError::Conflict("this notification already exists".into()))?;
    let answer = reply(recorded.notification());
    if let Recorded::Deliver(pending) = recorded {
        let (app, actor, now) = (call.app.clone(), courier.actor.clone(), call.now);
        call.store.after_commit(async move {
            let courier = Courier { store: &app.store, providers: &app.providers, actor };
            if let Err(e) = courier.deliver(pending, now).await {
                // Left queued and leased: the engine sends it once the lease runs out.
                tracing::warn!(error = %e, "a notification could not be handed to its provider");
            }
        });
    }
    Ok(answer)
}

/// A message a person asks for about `charge` now: refused when the charge is closed or the
/// debtor cannot be reached on the channel.
pub(crate) async fn notify_now(
    call: &Call,
    charge: &Charge,
    channel: Channel,
    template: Option<wire::Template>,
) -> ApiResult<Reply<NotificationEnvelope>> {
    let template = template.map(MessageTemplate::from);
    // The text rule on the template as sent, subject included on every channel (only e-mail
    // keeps it): a request's text follows the rule whether or not it is used.
    if let Some(t) = &template {
        let mut violations = Violations::default();
        t.check_text("template.", &mut violations);
        violations.finish()?;
    }
    let debtor =
        call.store.debtor(call.org_id(), &charge.debtor_id).await?.ok_or(ApiError::NotFound("debtor"))?;
    Notification::check_manual(charge, &debtor, channel)?;
    let template = template.unwrap_or_else(|| {
        standard_template(
            channel,
            charge.payment_line().is_some(),
            charge.pix_code(call.pix_account()).is_some(),
        )
    });
    let source = Source {
        origin: NotificationOrigin::Manual,
        cp_id: None,
        step_id: None,
        resend_of_id: None,
        scheduled_for: call.now,
    };
    let at = Composing { now: call.now, zone: call.zone(), pix_account: call.pix_account() };
    let n = Notification::compose(charge, &debtor, channel, &template, source, at)?;
    // A person asking for a message hears why it cannot go, rather than finding it skipped.
    if let Some(reason) = n.skip_reason.as_deref().and_then(SkipReason::parse) {
        return Err(ApiError::InvalidState {
            message: reason.sentence(channel),
            status: reason.as_str().to_string(),
            allowed: vec!["payable"],
        });
    }
    send(call, n).await
}

impl super::handlers::NotificationsApi for Notifications {
    async fn notifications_list(
        call: Call,
        input: wire::NotificationsListInput,
    ) -> ApiResult<Reply<NotificationList>> {
        let (window, pager) = ListArgs {
            created_from: input.created_from,
            created_to: input.created_to,
            ..ListArgs::plain(input.page, input.per_page, input.sort_order)
        }
        .page(call.zone());
        let filter = NotificationFilter {
            charge_ids: csv(input.charge_id),
            debtor_ids: csv(input.debtor_id),
            statuses: csv(input.status),
            channels: csv(input.channel),
            created: (window.created_from.clone(), window.created_before.clone()),
            sent: super::call::day_range(call.zone(), input.sent_from, input.sent_to),
            ascending: input.sort_order == Some(SortOrder::Asc),
            limit: window.limit,
            offset: window.offset,
        };
        let listed = call.store.notifications(call.org_id(), &filter).await?;
        let pages = pager.meta(listed.total);
        Ok(Reply::new(NotificationList {
            data: listed.rows.iter().map(notification_summary).collect(),
            meta: wire::NotificationListMeta {
                total: pages.total,
                page: pages.page,
                per_page: pages.per_page,
                total_pages: pages.total_pages,
                by_channel: listed.by_channel,
                by_status: listed.by_status,
            },
        }))
    }

    async fn notifications_create(
        call: Call,
        input: wire::NotificationsCreateInput,
    ) -> ApiResult<Reply<NotificationEnvelope>> {
        let charge = call
            .store
            .charge(call.org_id(), input.charge_id.as_str())
            .await?
            .ok_or_else(|| ApiError::field("charge_id", "no charge with this id exists"))?;
        notify_now(&call, &charge, input.channel, input.template).await
    }

    async fn notifications_get(
        call: Call,
        input: wire::NotificationsGetInput,
    ) -> ApiResult<Reply<NotificationEnvelope>> {
        Ok(reply(&load(&call, &input.id).await?))
    }

    async fn notifications_resend(
        call: Call,
        input: wire::NotificationsResendInput,
    ) -> ApiResult<Reply<NotificationEnvelope>> {
        let original = load(&call, &input.id).await?;
        let charge = call
            .store
            .charge(call.org_id(), &original.charge_id)
            .await?
            .ok_or(ApiError::NotFound("charge"))?;
        let debtor = call
            .store
            .debtor(call.org_id(), &original.debtor_id)
            .await?
            .ok_or(ApiError::NotFound("debtor"))?;
        Notification::check_manual(&charge, &debtor, original.channel)?;
        send(&call, original.resend(&debtor, call.now)).await
    }

    async fn notifications_cancel(
        call: Call,
        input: wire::NotificationsCancelInput,
    ) -> ApiResult<Reply<NotificationEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        if after.cancel(call.now)? == Outcome::Unchanged {
            return Ok(reply(&before));
        }
        let event = Actor::of(&call).event("notification.canceled", Some(&before), &after, call.now);
        if !call.store.update_notification(&after, before.version, &[event]).await? {
            return Err(ApiError::Concurrent("notification"));
        }
        Ok(reply(&after))
    }
}
