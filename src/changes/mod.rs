//! The changes made for someone in one unit of work, with the events they write: a charge's
//! change (settling it among them), the withdrawal of its report and protest that follows, and a
//! payment heard of. The API's handlers make them for the caller of an operation; the payment
//! receiver and imports make them for a part of the server. So they sit below the API and know
//! nothing of a request: [`Acting`] is all they need of whoever acts.

mod charges;
mod escalations;
mod payments;

pub(crate) use charges::{next_action, save_change, settle};
pub(crate) use escalations::{Withdrawal, save_escalation};
pub(crate) use payments::{payment_of, take};

use time::{Date, OffsetDateTime};

use crate::auth::Principal;
use crate::domain::dates::{Zone, format_timestamp};
use crate::domain::ids::new_id;
use crate::store::{NewEvent, Store};
use crate::views::event_data::{Payload, to_data};

/// Who acts, in which unit of work and when: what a change needs of the call that makes it
/// (the API's `Call` lends its own).
pub(crate) struct Acting<'a> {
    /// The database as the change sees it: the unit of work every statement joins.
    pub store: &'a Store,
    /// Who acts (the organization comes from here, and the events' actor).
    pub principal: &'a Principal,
    /// The request id the events carry.
    pub request_id: &'a str,
    /// The time of the change, shared by everything it writes.
    pub now: OffsetDateTime,
}

impl Acting<'_> {
    /// The organization acted for.
    pub fn org_id(&self) -> &str {
        &self.principal.organization_id
    }

    /// The organization's time zone.
    pub fn zone(&self) -> &Zone {
        &self.principal.zone
    }

    /// Today in the organization's time zone.
    pub fn today(&self) -> Date {
        self.zone().today(self.now)
    }

    /// An event for a change made by whoever acts, carrying `data`.
    pub fn event<P: Payload>(&self, code: &str, resource_id: &str, data: &P) -> NewEvent {
        let (actor_type, actor_id) = self.principal.actor();
        NewEvent {
            id: new_id("evt"),
            organization_id: self.org_id().to_string(),
            code: code.to_string(),
            resource_type: P::RESOURCE,
            resource_id: resource_id.to_string(),
            actor_type: actor_type.to_string(),
            actor_id: actor_id.to_string(),
            data: to_data(data),
            request_id: Some(self.request_id.to_string()),
            occurred_at: format_timestamp(self.now),
        }
    }
}
