//! How an aggregate refuses a change: the fields that break a rule (all of them at once, so a
//! caller fixes everything in one round trip), or a state that does not allow the action.

use super::error::DomainError;

/// One field that breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The field, dotted for nested ones (`address.zipcode`).
    pub field: String,
    /// Why, as a predicate (`must not be after due_date`).
    pub message: String,
}

/// A refused change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// Fields break rules.
    #[error("the request has invalid fields")]
    Invalid(Vec<Violation>),
    /// The change conflicts with other data (the message says which).
    #[error("{0}")]
    Conflict(String),
    /// The object's state does not allow the action.
    #[error("{message}")]
    InvalidState {
        /// What went wrong, for people.
        message: String,
        /// The current state.
        status: &'static str,
        /// The states that allow the action.
        allowed: Vec<&'static str>,
    },
}

/// Collects violations while a change is checked.
#[derive(Debug, Default)]
pub struct Violations(Vec<Violation>);

impl Violations {
    /// Records a violation.
    pub fn push(&mut self, field: &str, message: impl Into<String>) {
        self.0.push(Violation { field: field.to_string(), message: message.into() });
    }

    /// Keeps a parsed value, or records why the field is wrong.
    pub fn check<T>(&mut self, field: &str, result: Result<T, DomainError>) -> Option<T> {
        result.map_err(|e| self.push(field, e.to_string())).ok()
    }

    /// Ok when nothing was recorded.
    pub fn finish(self) -> Result<(), RuleError> {
        if self.0.is_empty() { Ok(()) } else { Err(RuleError::Invalid(self.0)) }
    }
}
