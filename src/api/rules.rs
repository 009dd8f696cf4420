//! A domain refusal as the /v1 error it answers: broken rules are a `VALIDATION_ERROR` naming
//! each field, a state that forbids the action is `INVALID_STATE` with the allowed states.

use super::error::{ApiError, FieldError};
use crate::domain::RuleError;

impl From<RuleError> for ApiError {
    fn from(err: RuleError) -> Self {
        match err {
            RuleError::Invalid(violations) => ApiError::Validation(
                violations.into_iter().map(|v| FieldError::new(v.field, v.message)).collect(),
            ),
            RuleError::Conflict(message) => ApiError::Conflict(message),
            RuleError::InvalidState { message, status, allowed } => {
                ApiError::InvalidState { message, status: status.to_string(), allowed }
            }
        }
    }
}
