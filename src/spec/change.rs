//! One classified difference between two specs: what changed, where, and whether a client
//! written against the old spec can break.

use serde::Serialize;

/// What kind of change. The names are the JSON `kind` (snake_case) and stay stable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A tool and its /v1 operation are gone.
    OperationRemoved,
    /// A new tool and /v1 operation.
    OperationAdded,
    /// The tool has another name (compatible when the old one is kept in `x-mcp.aliases`).
    ToolRenamed,
    /// The /v1 operation has another method or path.
    OperationMoved,
    /// A former name no longer answers.
    AliasRemoved,
    /// A former name now answers.
    AliasAdded,
    /// Title or description of a tool, or of a schema.
    DescriptionChanged,
    /// An argument (a tool's input property, at any depth) is gone.
    ArgumentRemoved,
    /// An argument is gone and another with the same schema appeared.
    ArgumentRenamed,
    /// A new argument (breaking when required).
    ArgumentAdded,
    /// An existing argument became required.
    ArgumentRequired,
    /// A required argument became optional.
    ArgumentOptional,
    /// An argument moved between path, query and body (REST callers send it elsewhere).
    ArgumentMoved,
    /// A field of an answer is gone.
    FieldRemoved,
    /// A field of an answer is gone and another with the same schema appeared.
    FieldRenamed,
    /// A new field in an answer.
    FieldAdded,
    /// A field that was always in the answer may now be absent.
    FieldOptional,
    /// A field that could be absent is now always in the answer.
    FieldRequired,
    /// A header parameter is gone.
    HeaderRemoved,
    /// A new header parameter (breaking when required).
    HeaderAdded,
    /// The JSON types a schema allows changed (other than null).
    TypeChanged,
    /// A schema now allows null.
    MadeNullable,
    /// A schema no longer allows null.
    MadeNonNullable,
    /// `format` added, removed or changed.
    FormatChanged,
    /// A value no longer in an enum.
    EnumValueRemoved,
    /// A new value in an enum.
    EnumValueAdded,
    /// A schema got an enum where it had none.
    EnumAdded,
    /// A schema lost its enum.
    EnumRemoved,
    /// A bound, length, pattern, multipleOf or uniqueItems changed.
    ConstraintChanged,
    /// Whether an object accepts properties it does not declare.
    AdditionalPropertiesChanged,
    /// The default of an argument.
    DefaultChanged,
    /// A change the comparison cannot classify (combinators, unknown keywords): counted as
    /// breaking, since it cannot be shown not to be.
    SchemaChanged,
    /// A tool annotation (readOnlyHint, destructiveHint, idempotentHint, openWorldHint).
    AnnotationChanged,
    /// The scope a token needs.
    ScopeChanged,
    /// The confirmation question of a destructive tool.
    ConfirmationChanged,
    /// A resource template is gone.
    ResourceRemoved,
    /// A new resource template.
    ResourceAdded,
    /// A resource template has another URI.
    ResourceChanged,
    /// The request body became required.
    BodyRequired,
    /// The request body became optional.
    BodyOptional,
    /// The status of a successful answer.
    SuccessStatusChanged,
    /// A successful answer is now of another kind (JSON, no content, a file).
    ResponseKindChanged,
    /// A documented answer (status) is gone.
    ResponseRemoved,
    /// A newly documented answer (status).
    ResponseAdded,
    /// An event code is no longer written (`x-event-payloads`).
    EventRemoved,
    /// A new event code.
    EventAdded,
}

/// Where a change is: the tool and the /v1 operation it concerns, and a JSON-pointer-like path
/// inside them (`/inputSchema/properties/per_page/type`, `/responses/200/properties/status/enum`,
/// `/annotations/readOnlyHint`, `/parameters/header/If-Match`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Location {
    /// The tool name (the new one when both specs have the operation).
    pub tool: String,
    /// `METHOD /v1/path` (the new one when both specs have the operation).
    pub operation: String,
    /// Inside the tool or operation; empty for the whole of it.
    pub path: String,
}

/// One classified change: the JSON output's element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// What kind of change.
    pub kind: Kind,
    /// Whether a client written against the old spec can break.
    pub breaking: bool,
    /// Where.
    pub location: Location,
    /// What changed, in words, naming the argument or field.
    pub message: String,
}

/// Which way a set of accepted values moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Fewer values than before.
    Narrowed,
    /// More values than before.
    Widened,
    /// Some gone, some new, or it cannot be told.
    Changed,
}

impl Direction {
    /// The word the messages use.
    pub fn word(self) -> &'static str {
        match self {
            Self::Narrowed => "narrowed",
            Self::Widened => "widened",
            Self::Changed => "changed",
        }
    }
}

/// Which side of a call a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// What a client sends (tool arguments; /v1 parameters and bodies).
    Argument,
    /// What a client receives (/v1 answers, which are the tool results).
    Answer,
}

impl Side {
    /// The rule: narrowing breaks arguments (a value a client sent is now refused),
    /// widening breaks answers (a client meets a value it never expected), and a change that
    /// is neither breaks both.
    pub fn breaks(self, direction: Direction) -> bool {
        !matches!(
            (self, direction),
            (Side::Argument, Direction::Widened) | (Side::Answer, Direction::Narrowed)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowing_breaks_arguments_and_widening_breaks_answers() {
        assert!(Side::Argument.breaks(Direction::Narrowed));
        assert!(!Side::Argument.breaks(Direction::Widened));
        assert!(Side::Answer.breaks(Direction::Widened));
        assert!(!Side::Answer.breaks(Direction::Narrowed));
        assert!(Side::Argument.breaks(Direction::Changed) && Side::Answer.breaks(Direction::Changed));
    }

    #[test]
    fn kinds_serialize_in_snake_case() {
        assert_eq!(serde_json::to_value(Kind::EnumValueAdded).unwrap(), "enum_value_added");
        assert_eq!(serde_json::to_value(Kind::MadeNullable).unwrap(), "made_nullable");
    }
}
