//! Approvals: a destructive call that a client could not confirm in-band, waiting for a signed-in
//! user's decision on a page of this server.
//!
//! An approval binds what a sealed confirmation state binds (organization, principal, tool,
//! argument digest, the target's version) and lives 10 minutes. Its life:
//! `pending` → `approved` → `consumed` (the retried call ran), or `pending` → `declined` (the
//! retried call is told so once, which stamps `consumed_at`). Nothing goes back.

use time::{Duration, OffsetDateTime};

/// How long an approval can be decided and used.
pub const APPROVAL_VALIDITY: Duration = Duration::minutes(10);

/// The prefix of approval ids.
pub const APPROVAL_PREFIX: &str = "apr_";

/// Where an approval stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApprovalStatus {
    /// Nobody decided yet.
    Pending,
    /// A user approved; the next identical call runs.
    Approved,
    /// A user declined; the next identical call is told so and nothing runs.
    Declined,
    /// Approved, and the call ran.
    Consumed,
}

impl ApprovalStatus {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Declined => "declined",
            Self::Consumed => "consumed",
        }
    }

    /// From the stored text.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "pending" => Some(Self::Pending),
            "approved" => Some(Self::Approved),
            "declined" => Some(Self::Declined),
            "consumed" => Some(Self::Consumed),
            _ => None,
        }
    }
}

/// What a user decided on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Run the call.
    Approve,
    /// Do not run it.
    Decline,
}

impl Decision {
    /// The status the approval takes.
    pub fn status(self) -> ApprovalStatus {
        match self {
            Self::Approve => ApprovalStatus::Approved,
            Self::Decline => ApprovalStatus::Declined,
        }
    }

    /// The event code that records it.
    pub fn event_code(self) -> &'static str {
        match self {
            Self::Approve => "approval.approved",
            Self::Decline => "approval.declined",
        }
    }

    /// As events and forms name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Approve => "approve",
            Self::Decline => "decline",
        }
    }

    /// From a form's value.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "approve" => Some(Self::Approve),
            "decline" => Some(Self::Decline),
            _ => None,
        }
    }
}

/// Who asked for a confirmation, as sealed states and approvals bind it: never the token string,
/// so that the next token of the same grant (a refresh) is the same asker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asker {
    /// A user through an OAuth client (`user:<id> client:<id>`): any token of that user's grants
    /// to that client, refreshed or not. The same user through another client is another asker,
    /// so a decision given for one assistant is never used by another.
    UserViaClient { user_id: String, client_id: String },
    /// A user without a client (`user:<id>`).
    User(String),
    /// A client acting for no user (`client:<id>`).
    Client(String),
    /// A token with neither, such as the CLI's (`token:<id>`): its own principal.
    Token(String),
}

impl Asker {
    /// The asker of a token with these ids.
    pub fn of(user_id: Option<&str>, client_id: Option<&str>, token_id: &str) -> Self {
        match (user_id, client_id) {
            (Some(user), Some(client)) => {
                Self::UserViaClient { user_id: user.to_string(), client_id: client.to_string() }
            }
            (Some(user), None) => Self::User(user.to_string()),
            (None, Some(client)) => Self::Client(client.to_string()),
            (None, None) => Self::Token(token_id.to_string()),
        }
    }

    /// As a binding stores it.
    pub fn key(&self) -> String {
        match self {
            Self::UserViaClient { user_id, client_id } => format!("user:{user_id} client:{client_id}"),
            Self::User(id) => format!("user:{id}"),
            Self::Client(id) => format!("client:{id}"),
            Self::Token(id) => format!("token:{id}"),
        }
    }

    /// From a binding's text; `None` for text of no known shape. User ids never hold a space,
    /// so the first ` client:` ends the user's id (a client id may be a URL).
    pub fn parse(key: &str) -> Option<Self> {
        let nonempty = |id: &str| (!id.is_empty()).then(|| id.to_string());
        if let Some(rest) = key.strip_prefix("user:") {
            return Some(match rest.split_once(" client:") {
                Some((user, client)) => {
                    Self::UserViaClient { user_id: nonempty(user)?, client_id: nonempty(client)? }
                }
                None if !rest.contains(' ') => Self::User(nonempty(rest)?),
                None => return None,
            });
        }
        if let Some(id) = key.strip_prefix("client:") {
            return nonempty(id).map(Self::Client);
        }
        key.strip_prefix("token:").and_then(nonempty).map(Self::Token)
    }
}

/// What a call binds, compared field by field with an approval's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// Organization.
    pub organization_id: String,
    /// Who asked: an [`Asker`]'s key (`user:… client:…`, `user:…`, `client:…` or `token:…`).
    pub principal: String,
    /// Tool name.
    pub tool: String,
    /// SHA-256 of the tool and its canonical arguments.
    pub args_digest: String,
    /// The target's version when the call was checked (None for tools that create).
    pub object_version: Option<i64>,
}

/// An approval.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approval {
    /// `apr_` and 32 random hex characters: unguessable, since its URL is handed to a model.
    pub id: String,
    /// What the call binds.
    pub binding: Binding,
    /// The object acted on (None for tools that create).
    pub object_id: Option<String>,
    /// The pt-BR question the page asks.
    pub question: String,
    /// Where it stands.
    pub status: ApprovalStatus,
    /// The user who decided.
    pub decided_by: Option<String>,
    /// When.
    pub decided_at: Option<OffsetDateTime>,
    /// When the retried call used the decision.
    pub consumed_at: Option<OffsetDateTime>,
    /// Until when it can be decided and used.
    pub expires_at: OffsetDateTime,
    /// When the call asked.
    pub created_at: OffsetDateTime,
}

/// How the page shows an approval now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Waiting for a decision.
    Open,
    /// Approved, not used yet.
    Approved,
    /// Approved and used.
    Used,
    /// Declined.
    Declined,
    /// Nobody decided in time, or the approval was not used in time.
    Expired,
}

impl Approval {
    /// A pending approval for a call, asked at `now`.
    pub fn request(
        id: String,
        binding: Binding,
        object_id: Option<String>,
        question: String,
        now: OffsetDateTime,
    ) -> Self {
        Self {
            id,
            binding,
            object_id,
            question,
            status: ApprovalStatus::Pending,
            decided_by: None,
            decided_at: None,
            consumed_at: None,
            expires_at: now + APPROVAL_VALIDITY,
            created_at: now,
        }
    }

    /// Whether it expired at `now`.
    pub fn expired(&self, now: OffsetDateTime) -> bool {
        now >= self.expires_at
    }

    /// Whether a call binding `binding` is the call this approval is for.
    pub fn binds(&self, binding: &Binding) -> bool {
        &self.binding == binding
    }

    /// How it stands at `now`.
    pub fn standing(&self, now: OffsetDateTime) -> Standing {
        match self.status {
            ApprovalStatus::Consumed => Standing::Used,
            ApprovalStatus::Declined => Standing::Declined,
            _ if self.expired(now) => Standing::Expired,
            ApprovalStatus::Pending => Standing::Open,
            ApprovalStatus::Approved => Standing::Approved,
        }
    }
}

/// Whether text has the shape of an approval id (anything else is not looked up).
pub fn is_approval_id(text: &str) -> bool {
    text.strip_prefix(APPROVAL_PREFIX).is_some_and(|rest| {
        rest.len() == 32 && rest.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binding() -> Binding {
        Binding {
            organization_id: "org_1".into(),
            principal: "client:cli_1".into(),
            tool: "dunning_charges_cancel".into(),
            args_digest: "d".into(),
            object_version: Some(1),
        }
    }

    #[test]
    fn standing_follows_status_then_expiry() {
        let now = OffsetDateTime::now_utc();
        let mut a = Approval::request(
            format!("{APPROVAL_PREFIX}{}", "0".repeat(32)),
            binding(),
            None,
            "?".into(),
            now,
        );
        assert_eq!(a.standing(now), Standing::Open);
        assert_eq!(a.standing(now + APPROVAL_VALIDITY), Standing::Expired);
        a.status = ApprovalStatus::Approved;
        assert_eq!(a.standing(now), Standing::Approved);
        assert_eq!(a.standing(now + APPROVAL_VALIDITY), Standing::Expired);
        a.status = ApprovalStatus::Declined;
        assert_eq!(a.standing(now + APPROVAL_VALIDITY), Standing::Declined, "a decision stays shown");
    }

    #[test]
    fn a_binding_matches_only_the_same_call() {
        let now = OffsetDateTime::now_utc();
        let a = Approval::request("apr_x".into(), binding(), None, "?".into(), now);
        assert!(a.binds(&binding()));
        assert!(!a.binds(&Binding { object_version: Some(2), ..binding() }));
        assert!(!a.binds(&Binding { principal: "client:cli_2".into(), ..binding() }));
        assert!(!a.binds(&Binding { args_digest: "e".into(), ..binding() }));
    }

    #[test]
    fn askers_round_trip_and_bind_the_client_with_the_user() {
        let cases = [
            (Asker::of(Some("usr_1"), Some("cli_1"), "tok_1"), "user:usr_1 client:cli_1"),
            (
                Asker::of(Some("usr_1"), Some("https://a.example/c.json"), "tok_1"),
                "user:usr_1 client:https://a.example/c.json",
            ),
            (Asker::of(Some("usr_1"), None, "tok_1"), "user:usr_1"),
            (Asker::of(None, Some("cli_1"), "tok_1"), "client:cli_1"),
            (Asker::of(None, None, "tok_1"), "token:tok_1"),
        ];
        for (asker, key) in cases {
            assert_eq!(asker.key(), key);
            assert_eq!(Asker::parse(key), Some(asker), "{key}");
        }
        // A refresh mints another token for the same user and client: the same asker.
        assert_eq!(
            Asker::of(Some("usr_1"), Some("cli_1"), "tok_1").key(),
            Asker::of(Some("usr_1"), Some("cli_1"), "tok_2").key()
        );
        // Another client of the same user is not.
        assert_ne!(
            Asker::of(Some("usr_1"), Some("cli_1"), "tok_1").key(),
            Asker::of(Some("usr_1"), Some("cli_2"), "tok_1").key()
        );
        for bad in ["", "user:", "token:", "client:", "usr_1", "user:usr_1 client:", "user:a b", "group:x"] {
            assert_eq!(Asker::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn ids_are_checked_before_lookup() {
        assert!(is_approval_id(&format!("apr_{}", "a1".repeat(16))));
        assert!(!is_approval_id("apr_../../etc"));
        assert!(!is_approval_id(&format!("chg_{}", "a1".repeat(16))));
        assert!(!is_approval_id(&format!("apr_{}", "A1".repeat(16))));
    }
}
