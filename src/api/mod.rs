//! The /v1 REST API: one module per tag, one handler per operationId (the generated route
//! table in `routes.rs` wires them), and the shared request machinery. Knows nothing of MCP.

#[cfg(test)]
mod body_cost_tests;
mod call;
mod endpoint;
pub(crate) mod escalations;
mod fields;
mod idempotency;
mod layout;
mod papers;
mod portfolio;
mod routes;
mod rules;
pub mod v1;
mod validation;

/// The generated handler traits, one per tag (see `templates/handlers.rs.hbs`).
pub mod handlers {
    include!(concat!(env!("OUT_DIR"), "/handlers.rs"));
}

// One module per tag of the spec, each implementing its generated handler trait: a tag
// without its module is a compile error in the route table, which names it.
pub mod agreements;
pub mod charges;
pub mod collection_policies;
pub mod credit_bureau_reports;
pub mod debtors;
pub mod events;
pub mod exports;
pub mod me;
pub mod notifications;
pub mod payments;
pub mod protests;
pub mod webhooks;

pub use call::{Call, File, ListArgs, NoContent, Pager, Render, Rendered, Reply, csv, etag};
pub use endpoint::{Answered, Invocation, InvocationBody, execute};
// The envelope lives a layer lower (auth answers with it too); these names stay where handlers
// look for them, and `super::error::…` keeps resolving in the tag modules.
pub use crate::error::{ApiError, ApiResult, FieldError, error_response};
pub use idempotency::{RETENTION as IDEMPOTENCY_RETENTION, canonical};
pub use layout::{IndentedString, Layout};
pub use routes::{V1Route, v1_route};
pub use validation::schemas;

use crate::error;
use crate::operations::Operation;

use crate::store::NewEvent;
use crate::views::{event_data, event_instants};

/// Compiles every schema and reads where each event's data holds instants now rather than on the
/// first request.
pub fn warm_up() {
    validation::warm_up();
    event_instants::warm_up();
}

/// Runs an operation for the invocation's caller, from either surface: the route table's
/// dispatch, then a replayed answer as its caller may see it (a secret only to the token it was
/// shown to).
pub async fn invoke(op: &'static Operation, invocation: Invocation<'_>) -> ApiResult<Answered> {
    let token_id = invocation.principal.token_id.clone();
    Ok(match routes::invoke(op, invocation).await? {
        Answered::Stored { stored, replayed: true } => {
            Answered::Stored { stored: stored.seen_by(&token_id), replayed: true }
        }
        answered => answered,
    })
}

/// An event for a change made by a call, carrying `data`.
pub(crate) fn event<P: event_data::Payload>(
    call: &Call,
    code: &str,
    resource_id: &str,
    data: &P,
) -> NewEvent {
    call.acting().event(code, resource_id, data)
}
