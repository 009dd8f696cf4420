//! A collection policy and its steps as the API shows them, whole and in lists.

use crate::domain::dates::{Timestamp, Zone};
use crate::domain::policy::{MessageTemplate, Policy, Step, format_minute};
use crate::types as wire;

pub(crate) fn template_view(t: &MessageTemplate) -> wire::Template {
    wire::Template { subject: t.subject.clone().map(Some), body: t.body.clone() }
}

pub(crate) fn step_view(s: &Step) -> wire::Step {
    let row = step_summary(s);
    wire::Step {
        id: row.id,
        cp_id: row.cp_id,
        name: row.name,
        offset_days: row.offset_days,
        send_time: row.send_time,
        position: row.position,
        action: row.action,
        channel: row.channel,
        template: s.template.as_ref().map(template_view),
        requires_approval: row.requires_approval,
        title_type: row.title_type,
        active: row.active,
        version: row.version,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

/// A step as lists show it: without its message.
pub(crate) fn step_summary(s: &Step) -> wire::StepSummary {
    wire::StepSummary {
        id: s.id.clone(),
        cp_id: s.cp_id.clone(),
        name: s.name.clone(),
        offset_days: s.offset_days,
        send_time: s.send_time.map(format_minute),
        position: s.position,
        action: s.action,
        channel: s.channel,
        requires_approval: s.requires_approval,
        title_type: s.title_type,
        active: s.active,
        version: s.version,
        created_at: Timestamp(s.created_at),
        updated_at: Timestamp(s.updated_at),
    }
}

pub(crate) fn policy_view(p: &Policy, zone: &Zone) -> wire::CollectionPolicy {
    let row = policy_summary(p, zone);
    wire::CollectionPolicy {
        id: row.id,
        name: row.name,
        description: row.description,
        status: row.status,
        is_default: row.is_default,
        timezone: row.timezone,
        send_window: row.send_window,
        steps_count: row.steps_count,
        steps: p.steps.iter().map(step_view).collect(),
        version: row.version,
        created_at: row.created_at,
        updated_at: row.updated_at,
        archived_at: row.archived_at,
    }
}

/// A policy as lists show it: without its steps, which carry the messages.
pub(crate) fn policy_summary(p: &Policy, zone: &Zone) -> wire::CollectionPolicySummary {
    wire::CollectionPolicySummary {
        id: p.id.clone(),
        name: p.name.clone(),
        description: p.description.clone(),
        status: p.status,
        is_default: p.is_default,
        timezone: p.zone_or(zone).name().to_string(),
        send_window: wire::SendWindow {
            start: format_minute(p.window.start),
            end: format_minute(p.window.end),
        },
        steps_count: p.steps.len() as i64,
        version: p.version,
        created_at: Timestamp(p.created_at),
        updated_at: Timestamp(p.updated_at),
        archived_at: p.archived_at.map(Timestamp),
    }
}
