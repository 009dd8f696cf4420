//! Organization and token management shared by the CLI, `serve --demo` and the tests.

use time::{Duration, OffsetDateTime};

use crate::auth::{PasswordError, Role, hash_password, mint_token, parse_scopes};
use crate::domain::dates::{Zone, format_timestamp};
use crate::domain::ids::new_id;
use crate::domain::printable;
use crate::store::{NewToken, OrganizationRow, PrintedText, Store, StoreError, TokenListing, UserRow};

/// Failures of an administrative command.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// Bad input (unknown scope, audience or environment).
    #[error("{0}")]
    Invalid(String),
    /// The organization does not exist.
    #[error("no organization {0}")]
    UnknownOrganization(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The system random source failed.
    #[error("no randomness available: {0}")]
    Random(String),
    /// The password cannot be used.
    #[error(transparent)]
    Password(#[from] PasswordError),
}

/// Creates an organization; returns its id.
pub async fn create_organization(
    store: &Store,
    name: &str,
    environment: &str,
    document: Option<&str>,
    is_demo: bool,
) -> Result<String, AdminError> {
    if !matches!(environment, "sandbox" | "production") {
        return Err(AdminError::Invalid(format!(
            "environment must be sandbox or production, not {environment}"
        )));
    }
    let name = name.trim();
    if name.is_empty() {
        return Err(AdminError::Invalid("the organization needs a name".into()));
    }
    // The name prints on every document the organization issues.
    if let Err(e) = printable::check(name) {
        return Err(AdminError::Invalid(format!("name {e}")));
    }
    let org = OrganizationRow {
        id: new_id("org"),
        name: name.to_string(),
        document: document.map(str::to_string),
        environment: environment.to_string(),
        timezone: Zone::default_zone(),
        is_demo,
        pix_account: None,
        created_at: format_timestamp(OffsetDateTime::now_utc()),
    };
    store.insert_organization(&org).await?;
    Ok(org.id)
}

/// Moves an organization to another IANA time zone (tokens already looked up keep the old one
/// for at most the token cache's TTL).
pub async fn set_timezone(store: &Store, org_id: &str, timezone: &str) -> Result<(), AdminError> {
    let zone = Zone::named(timezone).map_err(|e| AdminError::Invalid(format!("timezone {e}")))?;
    if !store.set_organization_timezone(org_id, &zone).await? {
        return Err(AdminError::UnknownOrganization(org_id.to_string()));
    }
    store.reschedule_policies(org_id).await?;
    Ok(())
}

/// Mints a token for an organization; returns the token (shown once, stored hashed).
pub async fn create_token(
    store: &Store,
    org_id: &str,
    scopes: &str,
    audience: &str,
    expires_in: Duration,
) -> Result<String, AdminError> {
    let scopes = parse_scopes(scopes).map_err(AdminError::Invalid)?;
    if !matches!(audience, "api" | "mcp" | "all") {
        return Err(AdminError::Invalid(format!("audience must be api, mcp or all, not {audience}")));
    }
    if expires_in <= Duration::ZERO {
        return Err(AdminError::Invalid("the expiry must be in the future".into()));
    }
    if store.organization(org_id).await?.is_none() {
        return Err(AdminError::UnknownOrganization(org_id.to_string()));
    }
    let expires_at = now_plus(expires_in)?;
    let (token, token_hash) = mint_token().map_err(|e| AdminError::Random(e.to_string()))?;
    let now = OffsetDateTime::now_utc();
    store
        .insert_token(&NewToken {
            id: new_id("tok"),
            token_hash,
            organization_id: org_id.to_string(),
            user_id: None,
            client_id: None,
            scopes,
            audience: audience.to_string(),
            expires_at: format_timestamp(expires_at),
            created_at: format_timestamp(now),
            grant_id: None,
        })
        .await?;
    Ok(token)
}

/// `tokens revoke`: revokes a live token, given as the token itself or its id, or an OAuth
/// grant given by its id (`grt_…`); false when nothing live matches. On PostgreSQL every
/// serving replica forgets it at once; a SQLite server running meanwhile (another process)
/// forgets it within `auth::TOKEN_CACHE_TTL`.
///
/// A token issued through an OAuth grant takes the whole grant with it: its refresh tokens and
/// every access token issued through it. Revoking only the access token would leave the client
/// a refresh token that mints the next one.
pub async fn revoke_token(store: &Store, token_or_id: &str) -> Result<bool, AdminError> {
    Ok(crate::auth::revoke_token_or_grant(store, None, token_or_id).await?)
}

/// `users create`: a user of an organization who signs in to the authorization server with
/// `password`; the e-mail is stored case-folded; returns the user's id.
pub async fn create_user(
    store: &Store,
    org_id: &str,
    email: &str,
    role: &str,
    password: &str,
) -> Result<String, AdminError> {
    let role = Role::parse(role)
        .ok_or_else(|| AdminError::Invalid(format!("role must be admin, operator or viewer, not {role}")))?;
    let email = normalize_email(email)?;
    if store.organization(org_id).await?.is_none() {
        return Err(AdminError::UnknownOrganization(org_id.to_string()));
    }
    let password_hash = hash_password(password)?;
    let user = UserRow {
        id: new_id("usr"),
        organization_id: org_id.to_string(),
        email,
        password_hash,
        role: role.as_str().to_string(),
        created_at: format_timestamp(OffsetDateTime::now_utc()),
    };
    store.insert_user(&user).await.map_err(|e| match e {
        StoreError::Duplicate(why) => AdminError::Invalid(why),
        other => AdminError::Store(other),
    })?;
    Ok(user.id)
}

/// An e-mail as stored: trimmed and case-folded, with one `@` and no spaces.
pub fn normalize_email(email: &str) -> Result<String, AdminError> {
    let email = email.trim().to_lowercase();
    let well_formed = email.len() <= 254
        && email.split('@').count() == 2
        && email.split('@').all(|part| !part.is_empty())
        && !email.chars().any(|c| c.is_whitespace() || c.is_control());
    if !well_formed {
        return Err(AdminError::Invalid(format!("{email} is not an e-mail address")));
    }
    Ok(email)
}

/// The demo user's e-mail (`serve --demo`).
pub const DEMO_EMAIL: &str = "demo@kobana.example";

/// `serve --demo`: makes sure the demo organization has its admin user, with a fresh password
/// (printed beside the demo token, so whoever reads the banner can sign in); returns
/// (e-mail, password).
pub async fn ensure_demo_user(store: &Store, org_id: &str) -> Result<(String, String), AdminError> {
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes).map_err(|e| AdminError::Random(e.to_string()))?;
    let password = format!("demo-{}", hex::encode(bytes));
    match store.user_by_email(DEMO_EMAIL).await? {
        Some(user) => {
            store.set_user_password(&user.id, &hash_password(&password)?).await?;
        }
        None => {
            create_user(store, org_id, DEMO_EMAIL, "admin", &password).await?;
        }
    }
    Ok((DEMO_EMAIL.to_string(), password))
}

/// `tokens list`: every token (of one organization, or all), never the secret.
pub async fn list_tokens(store: &Store, org_id: Option<&str>) -> Result<Vec<TokenListing>, AdminError> {
    Ok(store.list_tokens(org_id).await?)
}

/// Now plus a lifetime, refusing lifetimes past the calendar's end.
fn now_plus(lifetime: Duration) -> Result<OffsetDateTime, AdminError> {
    OffsetDateTime::now_utc()
        .checked_add(lifetime)
        .filter(|t| t.year() <= 9999)
        .ok_or_else(|| AdminError::Invalid("the expiry is too far in the future".into()))
}

/// `keys rotate`: a new newest confirmation key in the database, keeping the keys that may
/// still open live states; returns how many keys there are now.
pub async fn rotate_keys(store: &Store) -> Result<usize, crate::auth::KeyError> {
    crate::auth::rotate_stored_key(store, OffsetDateTime::now_utc()).await
}

/// A stored field a document would print with a character its font lacks: text saved before
/// such text was refused. It still prints, with a replacement mark for the character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unprintable {
    pub table: &'static str,
    pub id: String,
    pub organization_id: String,
    pub field: &'static str,
    pub character: char,
}

impl std::fmt::Display for Unprintable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Unprintable { table, id, organization_id, field, character } = self;
        write!(f, "{organization_id} {table} {id} {field}: '{character}' (U+{:04X})", u32::from(*character))
    }
}

/// Every stored field the documents would print with a character their font lacks, table by
/// table in id order.
pub async fn unprintable(store: &Store) -> Result<Vec<Unprintable>, AdminError> {
    let mut found = Vec::new();
    for table in ["organizations", "debtors", "charges"] {
        let mut after = String::new();
        loop {
            let page: Vec<PrintedText> = store.printed_text(table, &after).await?;
            let Some(last) = page.last() else { break };
            after = last.id.clone();
            for row in &page {
                for (field, text) in &row.fields {
                    if let Some(character) = printable::first_unprintable(text) {
                        found.push(Unprintable {
                            table,
                            id: row.id.clone(),
                            organization_id: row.organization_id.clone(),
                            field,
                            character,
                        });
                    }
                }
            }
        }
    }
    Ok(found)
}
