//! What the confirmation flows decide (`Gate`) and what they bind a call by (the argument
//! digest, the principal): shared by the sealed-state flow (`confirm`) and approval links
//! (`approval`), so neither imports the other's file for them.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::context::{Context, Outcome};
use super::wire::RpcError;
use crate::api::canonical;

/// Whether the call may run now.
pub enum Gate {
    /// Confirmed: run the tool, on the version of the object the user saw (its ETag).
    Proceed(Option<String>),
    /// Answer this instead (a question, a refusal or a decline).
    Answer(Outcome),
}

/// SHA-256 of the tool and its canonical arguments (what states and approvals bind).
pub fn digest(tool: &str, args: &Map<String, Value>) -> String {
    // Canonical (sorted) JSON: the same arguments digest alike in any key order.
    hex::encode(Sha256::digest(format!("{tool}\n{}", canonical(&Value::Object(args.clone()))).as_bytes()))
}

/// Who asks, as states and approvals bind it: never the token string, so a refresh keeps it;
/// for an OAuth token the user and the client, so another client of the same user is another
/// principal (`domain::approval::Asker`).
pub fn principal_id(ctx: &Context<'_>) -> String {
    ctx.caller.principal.asker().key()
}

/// The JSON-RPC internal error of a confirmation flow that failed (logged, never shown).
pub fn internal(err: impl std::fmt::Display) -> RpcError {
    tracing::error!(error = %err, "confirmation failed");
    RpcError::new(poem::http::StatusCode::OK, super::wire::INTERNAL_ERROR, "Internal error")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn digests_ignore_key_order() {
        let a: Map<String, Value> = serde_json::from_value(json!({"id": "chg_1", "reason": "x"})).unwrap();
        let b: Map<String, Value> = serde_json::from_value(json!({"reason": "x", "id": "chg_1"})).unwrap();
        assert_eq!(digest("t", &a), digest("t", &b));
        assert_ne!(digest("t", &a), digest("u", &a));
    }
}
