//! Collects every field problem of a request before answering, so a caller fixes them all at
//! once rather than one per round trip.

use serde_json::Value;

use super::error::{ApiError, ApiResult, FieldError};
use crate::domain::DomainError;

/// An accumulator of field errors.
#[derive(Default)]
pub(crate) struct Fields {
    errors: Vec<FieldError>,
}

impl Fields {
    /// Keeps the value, or records why the field is wrong.
    pub fn check<T>(&mut self, field: &str, result: Result<T, DomainError>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                self.errors.push(FieldError::new(field, e.to_string()));
                None
            }
        }
    }

    /// Records a problem.
    pub fn push(&mut self, field: &str, message: impl Into<String>) {
        self.errors.push(FieldError::new(field, message));
    }

    /// Applies `parse` to an optional text field: absent stays absent, null clears.
    pub fn optional_text(
        &mut self,
        body: &serde_json::Map<String, Value>,
        field: &str,
        parse: impl Fn(&str) -> Result<String, DomainError>,
    ) -> Option<Option<String>> {
        match body.get(field) {
            None => None,
            Some(Value::Null) => Some(None),
            Some(Value::String(s)) => self.check(field, parse(s)).map(Some),
            Some(_) => {
                self.push(field, "must be a string");
                None
            }
        }
    }

    /// Ok when no problem was recorded.
    pub fn finish(self) -> ApiResult<()> {
        if self.errors.is_empty() { Ok(()) } else { Err(ApiError::Validation(self.errors)) }
    }
}
