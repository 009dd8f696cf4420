//! Bearer tokens, scopes, roles and passwords, and the protected-resource metadata. The
//! authorization server that issues tokens to signed-in users is `crate::oauth`.

mod approvals;
mod cache;
mod metadata;
mod middleware;
mod nonces;
mod password;
mod revocation;
mod roles;
mod sealing;
mod state;
mod tokens;
pub mod visibility;

pub use approvals::{Decided, Redemption, approval_url, decide_approval, find_approval, redeem_approval};
pub use cache::{TOKEN_CACHE_TTL, TokenCache};
pub use metadata::protected_resource_routes;
pub use middleware::{
    Audience, Refused, address_key, admit, admit_request, authenticate, bearer_token, client_address,
};
pub use nonces::{consume_nonce, nonce_consumed};
pub use password::{MIN_PASSWORD_CHARS, PasswordError, hash_password, verify_nobody, verify_password};
pub use revocation::{RevocationWatch, revoke_token, revoke_token_or_grant, watch_revocations};
pub use roles::Role;
pub use sealing::{KeyError, ServerKey, rotate_stored_key};
pub use state::{AuthState, challenge, resource_metadata_url, step_up_challenge};
pub use tokens::{TOKEN_PREFIX, hash_token, looks_like_token, mint_secret, mint_token};

use std::sync::Arc;

use time::OffsetDateTime;

use crate::domain::approval::Asker;
use crate::domain::dates::Zone;
use crate::operations::Operation;
use crate::store::TokenRow;

/// Every scope a token can carry (generated with the spec's scope vocabulary).
pub use crate::operations::SCOPES as ALL_SCOPES;

/// The authenticated caller of a request: shared, so that handing it from the token cache to
/// the request and on to the handler copies a pointer, not its strings.
#[derive(Debug, Clone)]
pub struct Principal(Arc<PrincipalData>);

/// What a [`Principal`] holds.
#[derive(Debug)]
pub struct PrincipalData {
    /// The token's row id.
    pub token_id: String,
    /// The organization everything is scoped to.
    pub organization_id: String,
    /// The user who signed in, if any.
    pub user_id: Option<String>,
    /// The OAuth client, if any.
    pub client_id: Option<String>,
    /// Granted scopes.
    pub scopes: Vec<String>,
    /// `api`, `mcp` or `all`.
    pub audience: String,
    /// When the token stops working.
    pub expires_at: OffsetDateTime,
    /// The organization's time zone, in which its days are counted.
    pub zone: Zone,
    /// The organization's Pix account, if it set one (charges without a code of their own show
    /// one made for it).
    pub pix_account: Option<crate::domain::pix_account::PixAccount>,
    /// A part of the server acting for the organization (the payment receiver), named by
    /// `token_id`: its events say `system`.
    pub is_system: bool,
}

impl From<PrincipalData> for Principal {
    fn from(grant: PrincipalData) -> Self {
        Self(Arc::new(grant))
    }
}

impl PrincipalData {
    /// A part of the server (`name`: the payment receiver, an import) acting for `org` at `now`,
    /// with the scopes settling a charge needs; its events say `system`.
    pub fn system(name: &str, org: &crate::store::OrganizationRow, now: OffsetDateTime) -> Self {
        Self {
            token_id: name.to_string(),
            organization_id: org.id.clone(),
            user_id: None,
            client_id: None,
            scopes: vec!["dunning.read".into(), "dunning.write".into()],
            audience: "api".into(),
            expires_at: now,
            zone: org.timezone.clone(),
            pix_account: org.pix_account.clone(),
            is_system: true,
        }
    }
}

impl std::ops::Deref for Principal {
    type Target = PrincipalData;

    fn deref(&self) -> &PrincipalData {
        &self.0
    }
}

// The store returns rows; this layer makes principals of them (docs/ARCHITECTURE.md, "Layers":
// the store sits below auth and never imports it).
impl From<TokenRow> for Principal {
    fn from(row: TokenRow) -> Self {
        PrincipalData {
            token_id: row.id,
            organization_id: row.organization_id,
            user_id: row.user_id,
            client_id: row.client_id,
            scopes: row.scopes,
            audience: row.audience,
            expires_at: row.expires_at,
            zone: row.zone,
            pix_account: row.pix_account,
            is_system: false,
        }
        .into()
    }
}

impl Principal {
    /// Whether the token carries a scope.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    /// The scopes an operation needs that the token lacks, in the order
    /// [`Operation::required_scopes`] names them (the one rule every surface applies).
    pub fn missing_scopes(&self, op: &Operation) -> Vec<&'static str> {
        op.required_scopes().filter(|scope| !self.has_scope(scope)).collect()
    }

    /// Whether the token may run an operation.
    pub fn may_run(&self, op: &Operation) -> bool {
        op.required_scopes().all(|scope| self.has_scope(scope))
    }

    /// Who asks for a confirmation, as sealed states and approvals bind it: the user and the
    /// client of an OAuth token (so a refresh keeps it, and another client does not share it).
    pub fn asker(&self) -> Asker {
        Asker::of(self.user_id.as_deref(), self.client_id.as_deref(), &self.token_id)
    }

    /// Who acts, for events: the user, else the client, else the token itself.
    pub fn actor(&self) -> (&'static str, &str) {
        if self.is_system {
            return ("system", &self.token_id);
        }
        match (&self.user_id, &self.client_id) {
            (Some(user), _) => ("user", user),
            (None, Some(client)) => ("client", client),
            (None, None) => ("token", &self.token_id),
        }
    }
}

/// Parses a scope list separated by spaces or commas, refusing unknown scopes.
pub fn parse_scopes(text: &str) -> Result<Vec<String>, String> {
    let mut scopes: Vec<String> = Vec::new();
    for scope in text.split(|c: char| c == ',' || c.is_whitespace()).filter(|s| !s.is_empty()) {
        if !ALL_SCOPES.contains(&scope) {
            return Err(format!("unknown scope {scope}; known scopes: {}", ALL_SCOPES.join(" ")));
        }
        if !scopes.iter().any(|s| s == scope) {
            scopes.push(scope.to_string());
        }
    }
    if scopes.is_empty() {
        return Err("at least one scope is required".into());
    }
    Ok(scopes)
}
