//! /v1/collection_policies: the réguas and their steps, and the schedule a policy gives a due
//! date. Step changes answer the step; the policy's version moves with them.

use super::{ApiError, ApiResult, Call, ListArgs, NoContent, Reply, csv, event};
use crate::domain::calendar;
use crate::domain::charge::Outcome;
use crate::domain::dates::Day;
use crate::domain::policy::{MessageTemplate, NewPolicy, Policy, PolicyEdit, Step, StepDraft, format_minute};
use crate::store::PolicyFilter;
use crate::types::{
    self as wire, CollectionPoliciesCreateStatus, CollectionPoliciesUpdateStatus, CollectionPolicyEnvelope,
    CollectionPolicyList, PolicyStatus, SortOrder, StepEnvelope, StepList,
};
use crate::views::event_data::ObjectPayload;
use crate::views::policy::{policy_summary, policy_view, step_summary, step_view};

/// The handlers of the `collection_policies` tag.
pub struct CollectionPolicies;

fn reply(call: &Call, p: &Policy) -> Reply<CollectionPolicyEnvelope> {
    Reply::versioned(CollectionPolicyEnvelope { data: policy_view(p, call.zone()) }, p.version)
}

fn step_reply(s: &Step) -> Reply<StepEnvelope> {
    Reply::versioned(StepEnvelope { data: step_view(s) }, s.version)
}

async fn load(call: &Call, id: &str) -> ApiResult<Policy> {
    call.store.policy(call.org_id(), id).await?.ok_or(ApiError::NotFound("collection policy"))
}

fn load_step<'p>(policy: &'p Policy, id: &str) -> ApiResult<&'p Step> {
    policy.steps.iter().find(|s| s.id == id).ok_or(ApiError::NotFound("step"))
}

/// Saves a changed policy with its event.
async fn save(
    call: &Call,
    before: &Policy,
    after: &Policy,
    code: &str,
) -> ApiResult<Reply<CollectionPolicyEnvelope>> {
    let before_view = policy_view(before, call.zone());
    let data = wire::CollectionPolicyEventData::of(Some(&before_view), policy_view(after, call.zone()));
    let evt = event(call, code, &after.id, &data);
    if !call.store.update_policy(after, before.version, &evt).await? {
        return Err(ApiError::Concurrent("collection policy"));
    }
    Ok(reply(call, after))
}

/// Changing what the engine will send (activating a policy, or a step of an active one) needs
/// the operation's `x-mcp.conditional_scope` (`dunning.notify`) besides `dunning.write`: a token
/// that may not send a message must not be able to put its own text in front of every debtor
/// under a policy.
fn check_may_send(call: &Call, policy_status: PolicyStatus) -> ApiResult<()> {
    if policy_status != PolicyStatus::Active {
        return Ok(());
    }
    call.require_conditional_scope()
}

/// The fields of a step as sent, from either input shape.
#[allow(clippy::too_many_arguments)]
fn step_draft(
    name: Option<String>,
    offset_days: Option<i64>,
    send_time: Option<Option<String>>,
    position: Option<i64>,
    action: Option<wire::StepAction>,
    channel: Option<wire::Channel>,
    template: Option<wire::Template>,
    requires_approval: Option<bool>,
    title_type: Option<wire::ProtestTitleType>,
    active: Option<bool>,
) -> StepDraft {
    StepDraft {
        name,
        offset_days,
        send_time,
        position,
        action,
        channel,
        template: template.map(MessageTemplate::from),
        requires_approval,
        title_type,
        active,
    }
}

/// A step change: the policy moves to a new version with it, and the event is the step's (a
/// deleted step is `after`, with no `before`).
fn step_event(call: &Call, code: &str, before: Option<&Step>, after: &Step) -> crate::store::NewEvent {
    let data = wire::StepEventData::of(before.map(step_view).as_ref(), step_view(after));
    event(call, code, &after.id, &data)
}

impl super::handlers::CollectionPoliciesApi for CollectionPolicies {
    async fn collection_policies_list(
        call: Call,
        input: wire::CollectionPoliciesListInput,
    ) -> ApiResult<Reply<CollectionPolicyList>> {
        let (window, pager) = ListArgs::plain(input.page, input.per_page, input.sort_order).page(call.zone());
        let statuses = match input.status {
            Some(_) => csv(input.status),
            None => vec!["draft".to_string(), "active".to_string()],
        };
        let filter = PolicyFilter {
            statuses,
            ascending: input.sort_order == Some(SortOrder::Asc),
            limit: window.limit,
            offset: window.offset,
        };
        let (policies, total) = call.store.policies(call.org_id(), &filter).await?;
        Ok(Reply::new(CollectionPolicyList {
            data: policies.iter().map(|p| policy_summary(p, call.zone())).collect(),
            meta: pager.meta(total),
        }))
    }

    /// The organization's first policy is its default whatever is asked: a charge always has
    /// a régua to follow once one exists.
    async fn collection_policies_create(
        call: Call,
        input: wire::CollectionPoliciesCreateInput,
    ) -> ApiResult<Reply<CollectionPolicyEnvelope>> {
        let status = match input.status {
            Some(CollectionPoliciesCreateStatus::Draft) => PolicyStatus::Draft,
            _ => PolicyStatus::Active,
        };
        check_may_send(&call, status)?;
        let first = call.store.default_policy(call.org_id()).await?.is_none();
        let is_default = input.is_default.unwrap_or(false) || (first && status == PolicyStatus::Active);
        let steps = input
            .steps
            .unwrap_or_default()
            .into_iter()
            .map(|s| {
                step_draft(
                    s.name,
                    Some(s.offset_days),
                    s.send_time,
                    s.position,
                    s.action,
                    s.channel,
                    s.template,
                    s.requires_approval,
                    s.title_type,
                    s.active,
                )
            })
            .collect();
        let new = NewPolicy {
            name: input.name.into(),
            description: input.description.map(Into::into),
            status,
            is_default,
            window: input.send_window.map(|w| (w.start, w.end)),
            timezone: input.timezone.map(Into::into),
            steps,
        };
        let policy = Policy::create(call.org_id(), new, call.now)?;
        let data = wire::CollectionPolicyEventData::of(None, policy_view(&policy, call.zone()));
        let evt = event(&call, "collection_policy.db.created", &policy.id, &data);
        call.store.insert_policy(&policy, &evt).await?;
        Ok(reply(&call, &policy))
    }

    async fn collection_policies_get(
        call: Call,
        input: wire::CollectionPoliciesGetInput,
    ) -> ApiResult<Reply<CollectionPolicyEnvelope>> {
        Ok(reply(&call, &load(&call, &input.cp_id).await?))
    }

    async fn collection_policies_update(
        call: Call,
        input: wire::CollectionPoliciesUpdateInput,
    ) -> ApiResult<Reply<CollectionPolicyEnvelope>> {
        let before = load(&call, &input.cp_id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        let status = input.status.map(|s| match s {
            CollectionPoliciesUpdateStatus::Draft => PolicyStatus::Draft,
            CollectionPoliciesUpdateStatus::Active => PolicyStatus::Active,
        });
        if before.status != PolicyStatus::Active
            && let Some(status) = status
        {
            check_may_send(&call, status)?;
        }
        let edit = PolicyEdit {
            name: input.name.map(Into::into),
            description: input.description.map(|d| d.map(Into::into)),
            status,
            window: input.send_window.map(|w| (w.start, w.end)),
            timezone: input.timezone.map(|t| t.map(Into::into)),
        };
        let mut changed = after.edit(edit, call.now)? == Outcome::Changed;
        if input.is_default == Some(true) {
            changed |= after.make_default(call.now)? == Outcome::Changed;
        }
        if !changed {
            return Ok(reply(&call, &before));
        }
        save(&call, &before, &after, "collection_policy.db.updated").await
    }

    async fn collection_policies_delete(
        call: Call,
        input: wire::CollectionPoliciesDeleteInput,
    ) -> ApiResult<NoContent> {
        let policy = load(&call, &input.cp_id).await?;
        call.check_if_match(policy.version)?;
        let (followed, sent) = call.store.policy_use(call.org_id(), &policy.id).await?;
        policy.ensure_deletable(followed, sent)?;
        let data = wire::CollectionPolicyEventData::of(None, policy_view(&policy, call.zone()));
        let evt = event(&call, "collection_policy.db.deleted", &policy.id, &data);
        let drafted = policy.status == PolicyStatus::Draft;
        if !call.store.delete_policy(&policy, policy.version, drafted, &evt).await? {
            return Err(ApiError::Concurrent("collection policy"));
        }
        Ok(NoContent)
    }

    async fn collection_policies_duplicate(
        call: Call,
        input: wire::CollectionPoliciesDuplicateInput,
    ) -> ApiResult<Reply<CollectionPolicyEnvelope>> {
        let original = load(&call, &input.cp_id).await?;
        let copy = original.duplicate(input.name.map(Into::into), call.now);
        let mut data = wire::CollectionPolicyEventData::of(None, policy_view(&copy, call.zone()));
        data.duplicate_of = Some(original.id.clone());
        let evt = event(&call, "collection_policy.db.created", &copy.id, &data);
        call.store.insert_policy(&copy, &evt).await?;
        Ok(reply(&call, &copy))
    }

    async fn collection_policies_preview(
        call: Call,
        input: wire::CollectionPoliciesPreviewInput,
    ) -> ApiResult<Reply<wire::PolicyPreviewEnvelope>> {
        let policy = load(&call, &input.cp_id).await?;
        let due = input.due_date.0;
        let today = policy.zone_or(call.zone()).today(call.now);
        let schedule = policy
            .schedule(due)
            .into_iter()
            .map(|(step, day)| wire::ScheduledStep {
                step_id: step.id.clone(),
                name: step.name.clone(),
                offset_days: step.offset_days,
                action: step.action,
                channel: step.channel,
                send_date: Day(day),
                send_time: format_minute(step.send_minute(policy.window)),
                past: day < today,
            })
            .collect();
        Ok(Reply::new(wire::PolicyPreviewEnvelope {
            data: wire::PolicyPreview {
                cp_id: policy.id.clone(),
                due_date: Day(due),
                effective_due_date: Day(calendar::effective_due_date(due)),
                schedule,
            },
        }))
    }

    async fn collection_policies_archive(
        call: Call,
        input: wire::CollectionPoliciesArchiveInput,
    ) -> ApiResult<Reply<CollectionPolicyEnvelope>> {
        let before = load(&call, &input.cp_id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        match after.archive(call.now)? {
            Outcome::Unchanged => Ok(reply(&call, &before)),
            Outcome::Changed => save(&call, &before, &after, "collection_policy.archived").await,
        }
    }

    async fn collection_policies_steps_list(
        call: Call,
        input: wire::CollectionPoliciesStepsListInput,
    ) -> ApiResult<Reply<StepList>> {
        let policy = load(&call, &input.cp_id).await?;
        let (window, pager) = ListArgs {
            page: input.page,
            per_page: input.per_page,
            q: None,
            created_from: None,
            created_to: None,
            sort_by: "position",
            sort_order: Some(SortOrder::Asc),
        }
        .page(call.zone());
        let total = policy.steps.len() as i64;
        let data = policy
            .steps
            .iter()
            .skip(usize::try_from(window.offset).unwrap_or(usize::MAX))
            .take(usize::try_from(window.limit).unwrap_or(0))
            .map(step_summary)
            .collect();
        Ok(Reply::new(StepList { data, meta: pager.meta(total) }))
    }

    async fn collection_policies_steps_create(
        call: Call,
        input: wire::CollectionPoliciesStepsCreateInput,
    ) -> ApiResult<Reply<StepEnvelope>> {
        let before = load(&call, &input.cp_id).await?;
        check_may_send(&call, before.status)?;
        let mut policy = before.clone();
        let draft = step_draft(
            input.name.map(Into::into),
            Some(input.offset_days),
            input.send_time.map(|t| t.map(Into::into)),
            input.position,
            input.action,
            input.channel,
            input.template,
            input.requires_approval,
            input.title_type,
            input.active,
        );
        let step = policy.add_step(draft, call.now)?;
        policy.touch(call.now);
        let evt = step_event(&call, "step.db.created", None, &step);
        if !call.store.insert_step(&policy, before.version, &step, &evt).await? {
            return Err(ApiError::Concurrent("collection policy"));
        }
        Ok(step_reply(&step))
    }

    async fn collection_policies_steps_get(
        call: Call,
        input: wire::CollectionPoliciesStepsGetInput,
    ) -> ApiResult<Reply<StepEnvelope>> {
        let step = call
            .store
            .step(call.org_id(), &input.cp_id, &input.step_id)
            .await?
            .ok_or(ApiError::NotFound("step"))?;
        Ok(step_reply(&step))
    }

    async fn collection_policies_steps_update(
        call: Call,
        input: wire::CollectionPoliciesStepsUpdateInput,
    ) -> ApiResult<Reply<StepEnvelope>> {
        let mut policy = load(&call, &input.cp_id).await?;
        let before = load_step(&policy, &input.step_id)?.clone();
        call.check_if_match(before.version)?;
        policy.ensure_editable("changed")?;
        check_may_send(&call, policy.status)?;
        let mut after = before.clone();
        let draft = step_draft(
            input.name.map(Into::into),
            input.offset_days,
            input.send_time.map(|t| t.map(Into::into)),
            input.position,
            None,
            input.channel,
            input.template,
            input.requires_approval,
            input.title_type,
            input.active,
        );
        if after.edit(draft, policy.window, call.now)? == Outcome::Unchanged {
            return Ok(step_reply(&before));
        }
        let expected = policy.version;
        policy.touch(call.now);
        let evt = step_event(&call, "step.db.updated", Some(&before), &after);
        if !call.store.update_step(&policy, expected, &after, before.version, &evt).await? {
            return Err(ApiError::Concurrent("step"));
        }
        Ok(step_reply(&after))
    }

    async fn collection_policies_steps_delete(
        call: Call,
        input: wire::CollectionPoliciesStepsDeleteInput,
    ) -> ApiResult<NoContent> {
        let mut policy = load(&call, &input.cp_id).await?;
        let step = load_step(&policy, &input.step_id)?.clone();
        call.check_if_match(step.version)?;
        policy.ensure_editable("changed")?;
        let expected = policy.version;
        policy.touch(call.now);
        let evt = step_event(&call, "step.db.deleted", None, &step);
        if !call.store.delete_step(&policy, expected, &step, &evt).await? {
            return Err(ApiError::Concurrent("collection policy"));
        }
        Ok(NoContent)
    }
}
